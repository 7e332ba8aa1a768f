// Which of a link's inputs the engine accepts. The engine validates (SPEC §7 and
// docs/engine.md): an input it refuses falls back to its default, and the engine's own
// sentence says why. Pure: `compute` is the engine's.

// "script[2].status" and "draws[1]" belong to the inputs "script" and "draws".
const inputOf = (field) => String(field).split(/[.[]/)[0];

// Inputs the engine names when the one actually at fault is the one they depend on:
// scenario "script" with no script, proportional jitter's bounds under another jitter.
const DEPENDS_ON = { script: 'scenario', jitterLow: 'jitter', jitterHigh: 'jitter' };

// { inputs, result, problems }: the inputs the engine accepted (a subset of `candidate`),
// their run, and a problem { key, value, reason } for every input left out.
export function acceptInputs(candidate, compute) {
  const inputs = { ...candidate };
  const problems = [];
  const drop = (key, reason) => {
    problems.push({ key, value: inputs[key], reason });
    delete inputs[key];
  };
  // Each round leaves out at least one input, so this ends.
  for (;;) {
    const result = compute(inputs);
    if (result && result.ok === true) return { inputs, result, problems };
    const errors = result && Array.isArray(result.errors) ? result.errors : [];
    const reasons = new Map();
    for (const { field, message } of errors) {
      let key = inputOf(field);
      if (!(key in inputs) && DEPENDS_ON[key] in inputs) key = DEPENDS_ON[key];
      if (key in inputs && !reasons.has(key)) reasons.set(key, message);
    }
    if (reasons.size === 0) {
      // Nothing to pin it on (or no result at all): use none of the link's inputs.
      const why = errors.length ? errors.map((e) => e.message).join(' ') : 'the engine gave no result';
      for (const key of Object.keys(inputs)) drop(key, `was not used: ${why}`);
      return { inputs, result: compute({}), problems };
    }
    for (const [key, message] of reasons) drop(key, message);
  }
}
