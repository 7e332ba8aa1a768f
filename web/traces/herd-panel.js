// Trace F's herd panel: the callers and seed fields, and the histograms of where the herd's
// first retries land (large herds in a worker, herd-worker.js). The herd itself is the
// explorable's state.herd: the fields ask for a new one through `onHerd(herd)`, and `show(herd)`
// draws whatever herd the state holds (the fields' own, or one a link or setHerd() brought).

import { num } from '../format.js';
import { validateInputs } from '../validate.js';
import { TRACES, traceInputs } from './definitions.js';
import { HERD_RUNS, evenTooMany, herdFiguresView, herdOutcome } from './herd.js';
import { herdComputer } from './herd-worker.js';
import { show as showTree } from '../dom.js';
import { CALLER_STOPS, callerStop } from './frame.js';

const TRACE_F = TRACES.find((t) => t.herd);
const WHOLE = /^\d+$/;
const callersWord = (n) => `${num(n)} ${n === 1 ? 'caller' : 'callers'}`;

// The engine's refusal of one herd field, put after the field's own label.
const engineSays = { callers: (e) => `Callers ${e.detail}`, seed: (e) => `The seed ${e.detail}` };

export function mountHerdPanel(root, id, { engine, compute, onHerd, onRuns }) {
  // The engine's bound on a draws list (engine.schema()), past which the evenly spread run is not drawn.
  const maxDraws = engine.schema().inputs.find((r) => r.name === 'draws').maxItems;
  const view = root.ownerDocument.defaultView;
  const $ = (name) => root.querySelector(`#${id(name)}`);
  const els = {
    intro: $('herd-intro'), form: $('herd-controls'), callers: $('callers'), callersRange: $('callers-range'),
    callersError: $('callers-error'), seed: $('seed'), seedError: $('seed-error'), nextSeed: $('next-seed'),
    status: $('herd-status'), figures: $('herd-figures'),
  };
  let herd = null; // the herd on show (state.herd)
  const text = { callers: '', seed: '' }; // the fields as typed
  let runs = {}; // key of HERD_RUNS → compute() result, as each arrives
  let complete = false;
  let timing = null; // { callers, where, ms } of the last herd computed, for the tests' report

  function drawFigures() {
    const pending = !complete;
    els.intro.textContent = `${num(herd.callers)} ${herd.callers === 1 ? 'caller receives' : 'callers receive'} 429 with no header at the same instant. `
      + 'Each caller’s first wait is the first ceiling × its own draw; the histograms count where the first retries land. '
      + 'The seed’s check: every bucket but one occupied, and none holding more than half the callers.';
    els.status.textContent = pending ? `Computing ${num(herd.callers)} callers…` : `${callersWord(herd.callers)}, seed ${herd.seed}: computed.`;
    els.figures.setAttribute('aria-busy', pending ? 'true' : 'false');
    showTree(els.figures, herdFiguresView(herd.callers > maxDraws ? { ...runs, even: evenTooMany(maxDraws) } : runs, { seed: herd.seed }));
  }

  function drawFields(changed) {
    if (els.callers !== changed && els.callers.value !== text.callers) els.callers.value = text.callers;
    if (els.seed !== changed && els.seed.value !== text.seed) els.seed.value = text.seed;
    if (els.callersRange !== changed) els.callersRange.value = String(callerStop(herd.callers));
    els.callersRange.setAttribute('aria-valuetext', callersWord(herd.callers));
    for (const [box, error] of [[els.callers, els.callersError], [els.seed, els.seedError]]) {
      if (error.textContent) box.setAttribute('aria-invalid', 'true');
      else box.removeAttribute('aria-invalid');
    }
  }

  const computer = herdComputer(view, compute);
  function run() {
    runs = {};
    complete = false;
    const asked = { ...herd };
    const started = view.performance.now();
    let firstMs = null; // until the first histogram is on the page
    computer.run(traceInputs(TRACE_F, herd), HERD_RUNS.map((r) => r.key), ({ results, complete: done, where, ms }) => {
      runs = results;
      complete = done;
      firstMs ??= view.performance.now() - started;
      if (done) timing = { callers: asked.callers, seed: asked.seed, where, ms, firstMs, wallMs: view.performance.now() - started };
      drawFigures();
      onRuns();
    });
    drawFigures();
  }

  // The state's herd: draw it and compute its runs. The fields follow unless they hold it already.
  function show(next) {
    if (next === herd) return;
    const fromFields = Number(text.callers.trim().replace(/[,_\s]/g, '')) === next.callers && Number(text.seed.trim()) === next.seed;
    herd = next;
    if (!fromFields) {
      text.callers = String(herd.callers);
      text.seed = String(herd.seed);
      els.callersError.textContent = '';
      els.seedError.textContent = '';
    }
    run();
    drawFields(null);
  }

  // The fields as typed: the whole numbers the reader means, checked by the engine.
  function edit(changes, changed) {
    Object.assign(text, changes);
    const callersText = text.callers.trim().replace(/[,_\s]/g, '');
    const seedText = text.seed.trim();
    els.callersError.textContent = WHOLE.test(callersText) ? '' : 'Enter a whole number of callers.';
    // Past 2^53 − 1 a number cannot hold the seed exactly; say so before the engine rounds it.
    els.seedError.textContent = WHOLE.test(seedText) && Number(seedText) <= Number.MAX_SAFE_INTEGER ? '' : 'Enter a whole number, from 0 to 2^53 − 1.';
    if (!els.callersError.textContent && !els.seedError.textContent) {
      const next = { callers: Number(callersText), seed: Number(seedText) };
      const problems = validateInputs(engine, next);
      for (const p of problems) {
        const say = engineSays[p.field];
        if (say) els[`${p.field}Error`].textContent = say(p);
      }
      if (!problems.length && (next.callers !== herd.callers || next.seed !== herd.seed)) onHerd(next);
    }
    drawFields(changed);
  }

  els.form.addEventListener('submit', (event) => event.preventDefault());
  els.callers.addEventListener('input', () => edit({ callers: els.callers.value }, els.callers));
  els.seed.addEventListener('input', () => edit({ seed: els.seed.value }, els.seed));
  els.callersRange.addEventListener('input', () => edit({ callers: String(CALLER_STOPS[Number(els.callersRange.value)]) }, els.callersRange));
  els.nextSeed.addEventListener('click', () => {
    if (WHOLE.test(text.seed.trim())) edit({ seed: String(Number(text.seed.trim()) + 1) }, null);
  });

  return {
    show,
    edit,
    // Trace F's herd line in the matrix: the policy's run once it is in (null while it is computed).
    line() {
      const outcome = runs.policy ? herdOutcome(runs.policy) : { herd: null, error: null };
      return { callers: herd.callers, result: outcome.herd, error: outcome.error };
    },
    timing: () => timing,
    busy: () => computer.busy(),
    destroy: () => computer.destroy(),
  };
}
