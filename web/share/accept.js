// Which of a link's inputs the engine accepts. The engine validates (SPEC §7 and
// docs/engine.md §4) without running: an input it refuses falls back to its default, and the
// engine's own words say why. Then the inputs it accepted run once. Pure: `validate` and
// `compute` are the engine's.

// "script[2].status" and "draws[1]" belong to the inputs "script" and "draws".
const inputOf = (field) => String(field).split(/[.[]/)[0];


// The reason given for leaving out `key`: the engine's sentence after the input's own name
// when the error is about the input itself (the notice names the input), else the whole
// sentence (it names the part, or the input the fault lies with).
const reasonFor = (key, error) => (error.field === key && typeof error.detail === 'string' ? error.detail : error.message);

// { inputs, result, problems }: the inputs the engine accepted (a subset of `candidate`),
// their run, and a problem { key, value, reason } for every input left out. `codec.dependsOn`
// (the table's presence rules) names the input another depends on: when the engine names the
// dependent one (scenario "script" with no script, proportional jitter's bounds under
// another jitter) the one at fault is the one the link gave.
export function acceptInputs(candidate, { validate, compute, codec = null }) {
  const DEPENDS_ON = codec ? codec.dependsOn : {};
  const inputs = { ...candidate };
  const problems = [];
  const drop = (key, reason) => {
    problems.push({ key, value: inputs[key], reason });
    delete inputs[key];
  };
  // Each round leaves out at least one input, so this ends; leaving one out can be what makes
  // another wrong (a script without its scenario), so the engine is asked again.
  for (;;) {
    const errors = validate(inputs);
    if (errors.length === 0) break;
    const reasons = new Map();
    for (const error of errors) {
      let key = inputOf(error.field);
      if (!(key in inputs) && Object.hasOwn(DEPENDS_ON, key) && DEPENDS_ON[key] in inputs) key = DEPENDS_ON[key];
      if (key in inputs && !reasons.has(key)) reasons.set(key, reasonFor(key, error));
    }
    if (reasons.size === 0) {
      // Nothing to pin it on: use none of the link's inputs.
      const why = errors.map((e) => e.message).join(' ');
      for (const key of Object.keys(inputs)) drop(key, `was not used: ${why}`);
      break;
    }
    for (const [key, reason] of reasons) drop(key, reason);
  }
  const result = compute(inputs);
  if (result && result.ok === true) return { inputs, result, problems };
  // The engine ran none of it after all (it failed, or judged otherwise): the defaults' run.
  const why = result && Array.isArray(result.errors) && result.errors.length ? result.errors.map((e) => e.message).join(' ') : 'the engine gave no result';
  for (const key of Object.keys(inputs)) drop(key, `was not used: ${why}`);
  return { inputs, result: compute({}), problems };
}
