// The policy traces section's controller: the seed's traces computed once, trace F's herd
// (large herds in a worker), the reader's own trace from the editor, and the matrix that
// shows them all. Like app.js, the only module here that touches the DOM after mounting.
//
// The selected trace lives in the explorable's state (`app.getState().trace`); choosing a
// row is `selectTrace(id)`, which loads the trace's inputs with app.load(inputs, { trace }).

import { mount, show } from '../dom.js';
import { makeIds } from '../views/controls.js';
import { verdictText } from '../views/metrics.js';
import { num } from '../format.js';
import { CUSTOM_ID, DEFAULT_CUSTOM, SEED_HERD, TRACES, TRACE_IDS, traceById, traceInputs } from './definitions.js';
import { matrixColumns, matrixView } from './matrix.js';
import { attachGrid, placeFocus } from './grid.js';
import { HERD_RUNS, herdFiguresView, herdOutcome } from './herd.js';
import { herdComputer } from './herd-worker.js';
import { editorErrors, editorFromInputs, editorView, fieldId, inputsFromEditor } from './editor.js';
import { policyCardView } from './policy.js';
import { CALLER_STOPS, callerStop, tracesFrameView } from './frame.js';

const TRACE_F = TRACES.find((t) => t.herd);
const hasAny = (errors) => Object.keys(errors).length > 0;
const WHOLE = /^\d+$/;

export function mountTraces(root, app, engine, { idPrefix = 'tr-' } = {}) {
  const id = makeIds(idPrefix);
  const doc = root.ownerDocument;
  const view = doc.defaultView;
  const compute = (inputs) => app.compute(inputs);

  root.replaceChildren(mount(tracesFrameView(id), doc));
  const $ = (name) => root.querySelector(`#${id(name)}`);
  const els = {
    policy: $('policy'), matrix: $('matrix'), status: $('status'), show: $('show'),
    herdIntro: $('herd-intro'), herdForm: $('herd-controls'), callers: $('callers'), callersRange: $('callers-range'),
    callersError: $('callers-error'), seed: $('seed'), seedError: $('seed-error'), nextSeed: $('next-seed'),
    herdStatus: $('herd-status'), herdFigures: $('herd-figures'), editorBox: $('editor-box'),
  };

  // --- State ---------------------------------------------------------------------------------
  const herd = { ...SEED_HERD }; // trace F's callers and seed
  const herdText = { callers: String(herd.callers), seed: String(herd.seed) };
  let herdRuns = {}; // key of HERD_RUNS → compute() result, as each arrives
  let herdComplete = false;
  let herdTiming = null; // { callers, where, ms } of the last herd computed, for the tests' report
  const oneCaller = (trace) => traceInputs(trace, herd, { callers: 1 });
  const fixed = new Map(TRACES.map((t) => [t.id, compute(oneCaller(t))]));
  for (const [traceId, result] of fixed) {
    if (!result || result.ok !== true) throw new Error(`Trace ${traceId} did not compute: ${JSON.stringify(result && result.errors)}`);
  }

  const defaults = compute({}).inputs; // the engine's defaults, to keep them out of the editor's extra inputs
  const custom = { fields: null, extra: {}, inputs: null, result: null, errors: {} };
  function setCustomFrom(inputs) {
    const result = compute(inputs);
    if (!result || result.ok !== true) return result ? result.errors : [{ field: 'general', message: 'The engine returned no result.' }];
    Object.assign(custom, editorFromInputs(result.inputs, defaults), { errors: {} });
    const parsed = inputsFromEditor(custom.fields, custom.extra);
    custom.inputs = parsed.inputs;
    custom.result = compute(parsed.inputs);
    return null;
  }
  setCustomFrom(DEFAULT_CUSTOM);

  let focus = { row: 1, col: 0 }; // the grid's roving tab stop; row 0 is the header row

  // Trace F's herd line: the policy's run once it is in (null while it is computed).
  const herdLine = () => {
    const outcome = herdRuns.policy ? herdOutcome(herdRuns.policy) : { herd: null, error: null };
    return { callers: herd.callers, result: outcome.herd, error: outcome.error };
  };
  const rowsNow = () => [
    ...TRACES.map((t) => ({
      id: t.id, title: `Trace ${t.label}`, request: t.request, result: fixed.get(t.id), herd: t.herd ? herdLine() : null,
    })),
    { id: CUSTOM_ID, title: 'Your trace', request: 'from the editor below', result: custom.result, stale: hasAny(custom.errors) },
  ];
  const gridSize = () => {
    const rows = rowsNow();
    return { rows: rows.length + 1, cols: matrixColumns(rows) + 2 };
  };

  // --- Drawing -------------------------------------------------------------------------------
  let drawnSelection; // the trace the matrix last showed as selected
  function drawMatrix() {
    const rows = rowsNow();
    const size = { rows: rows.length + 1, cols: matrixColumns(rows) + 2 };
    focus = { row: Math.min(focus.row, size.rows - 1), col: Math.min(focus.col, size.cols - 1) };
    const hadFocus = els.matrix.contains(doc.activeElement);
    const scrollLeft = els.matrix.scrollLeft;
    drawnSelection = app.getState().trace;
    show(els.matrix, matrixView(rows, {
      focus, selected: drawnSelection, captionId: id('keys'), labelledBy: id('matrix-heading'),
    }));
    els.matrix.scrollLeft = scrollLeft;
    if (hadFocus) els.matrix.querySelector(`[data-row="${focus.row}"][data-col="${focus.col}"]`)?.focus({ preventScroll: true });
  }

  function drawHerd() {
    const pending = !herdComplete;
    els.herdIntro.textContent = `${num(herd.callers)} ${herd.callers === 1 ? 'caller receives' : 'callers receive'} 429 with no header at the same instant. `
      + 'Each caller’s first wait is the first ceiling × its own draw; the histograms count where the first retries land. '
      + 'The seed’s check: every bucket but one occupied, and none holding more than half the callers.';
    els.herdStatus.textContent = pending ? `Computing ${num(herd.callers)} callers…` : `${num(herd.callers)} ${herd.callers === 1 ? 'caller' : 'callers'}, seed ${herd.seed}: computed.`;
    els.herdFigures.setAttribute('aria-busy', pending ? 'true' : 'false');
    show(els.herdFigures, herdFiguresView(herdRuns, { seed: herd.seed }));
  }

  function drawHerdFields(changed) {
    if (els.callers !== changed && els.callers.value !== herdText.callers) els.callers.value = herdText.callers;
    if (els.seed !== changed && els.seed.value !== herdText.seed) els.seed.value = herdText.seed;
    if (els.callersRange !== changed) els.callersRange.value = String(callerStop(herd.callers));
    els.callersRange.setAttribute('aria-valuetext', `${num(herd.callers)} ${herd.callers === 1 ? 'caller' : 'callers'}`);
    for (const [box, error] of [[els.callers, els.callersError], [els.seed, els.seedError]]) {
      if (error.textContent) box.setAttribute('aria-invalid', 'true');
      else box.removeAttribute('aria-invalid');
    }
  }

  function drawEditor() {
    show(els.editorBox, editorView(id, custom.fields, { traces: TRACES }));
    drawEditorErrors();
  }

  function drawEditorErrors() {
    const form = els.editorBox.querySelector('form');
    for (const p of form.querySelectorAll('.te-error')) p.textContent = '';
    for (const el of form.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
    const general = [];
    for (const [key, message] of Object.entries(custom.errors)) {
      const line = form.querySelector(`#${fieldId(id, key)}-error`);
      if (!line || key === 'general') {
        general.push(message);
        continue;
      }
      line.textContent = message;
      form.querySelector(`#${fieldId(id, key)}`)?.setAttribute('aria-invalid', 'true');
    }
    if (hasAny(custom.errors)) general.push('The matrix keeps your last good trace until the highlighted entries are fixed.');
    form.querySelector(`#${fieldId(id, 'general')}-error`).textContent = general.join(' ');
  }

  // --- Choosing a trace ------------------------------------------------------------------------
  function inputsOf(traceId) {
    if (traceId === CUSTOM_ID) return custom.inputs;
    const trace = traceById(traceId);
    return trace ? oneCaller(trace) : null;
  }

  function selectTrace(traceId, { quiet = false } = {}) {
    const inputs = inputsOf(traceId);
    if (!inputs) return false;
    app.load(inputs, { trace: traceId });
    const state = app.getState();
    if (state.trace !== traceId) return false;
    if (!quiet) {
      const row = rowsNow().find((r) => r.id === traceId);
      els.status.textContent = `${row.title} is in the experiment above: ${verdictText(state.result)}.`;
      els.show.hidden = false;
    }
    drawMatrix();
    return true;
  }

  // A trace on show in the experiment follows its own changes (the editor, the herd's seed).
  function refreshLoaded(traceId) {
    if (app.getState().trace === traceId) selectTrace(traceId, { quiet: true });
  }

  attachGrid(els.matrix, {
    size: gridSize,
    position: () => focus,
    onMove: (pos) => { focus = pos; },
    onActivate: (row) => selectTrace(rowsNow()[row - 1].id),
  });
  // The matrix shows which trace the experiment holds: redraw it when that changes (a control
  // clears the selection), not on every run — redrawing it costs most of an input's latency.
  const unsubscribe = app.subscribe((state) => { if (state.trace !== drawnSelection) drawMatrix(); });

  els.show.addEventListener('click', () => {
    const target = doc.getElementById('experiment');
    if (!target) return;
    const smooth = !view.matchMedia('(prefers-reduced-motion: reduce)').matches;
    target.scrollIntoView({ behavior: smooth ? 'smooth' : 'auto', block: 'start' });
    target.focus({ preventScroll: true });
  });

  // --- Trace F's herd ------------------------------------------------------------------------
  const computer = herdComputer(view, compute);
  function runHerd() {
    herdRuns = {};
    herdComplete = false;
    const inputs = traceInputs(TRACE_F, herd);
    const asked = { ...herd };
    const started = view.performance.now();
    let firstMs = null; // until the first histogram is on the page
    computer.run(inputs, HERD_RUNS.map((r) => r.key), ({ results, complete, where, ms }) => {
      herdRuns = results;
      herdComplete = complete;
      firstMs ??= view.performance.now() - started;
      if (complete) herdTiming = { callers: asked.callers, seed: asked.seed, where, ms, firstMs, wallMs: view.performance.now() - started };
      drawHerd();
      drawMatrix();
    });
    drawHerd();
    drawMatrix();
  }

  function setHerd(changes, changed) {
    Object.assign(herdText, changes);
    const callersText = herdText.callers.trim().replace(/[,_\s]/g, '');
    const seedText = herdText.seed.trim();
    els.callersError.textContent = WHOLE.test(callersText) ? '' : 'Enter a whole number of callers.';
    // Past 2^53 − 1 a number cannot hold the seed exactly; say so before the engine rounds it.
    els.seedError.textContent = WHOLE.test(seedText) && Number(seedText) <= Number.MAX_SAFE_INTEGER ? '' : 'Enter a whole number, from 0 to 2^53 − 1.';
    if (!els.callersError.textContent && !els.seedError.textContent) {
      const next = { ...herd, callers: Number(callersText), seed: Number(seedText) };
      // The engine judges the ranges and its sentence goes beside the field. A 400 is never
      // retried, so this check costs nothing however many callers there are.
      const check = compute({ scenario: 'bad-request-400', callers: next.callers, seed: next.seed });
      const problems = check && check.ok === false ? check.errors : [];
      for (const p of problems) {
        if (p.field === 'callers') els.callersError.textContent = p.message.replace(/^callers/, 'Callers');
        else if (p.field === 'seed') els.seedError.textContent = p.message.replace(/^seed/, 'The seed');
      }
      if (!problems.length && (next.callers !== herd.callers || next.seed !== herd.seed)) {
        const seedChanged = next.seed !== herd.seed;
        Object.assign(herd, next);
        if (seedChanged) {
          fixed.set(TRACE_F.id, compute(oneCaller(TRACE_F)));
          refreshLoaded(TRACE_F.id);
        }
        runHerd();
      }
    }
    drawHerdFields(changed);
  }

  els.herdForm.addEventListener('submit', (event) => event.preventDefault());
  els.callers.addEventListener('input', () => setHerd({ callers: els.callers.value }, els.callers));
  els.seed.addEventListener('input', () => setHerd({ seed: els.seed.value }, els.seed));
  els.callersRange.addEventListener('input', () => {
    setHerd({ callers: String(CALLER_STOPS[Number(els.callersRange.value)]) }, els.callersRange);
  });
  els.nextSeed.addEventListener('click', () => {
    if (WHOLE.test(herdText.seed.trim())) setHerd({ seed: String(Number(herdText.seed.trim()) + 1) }, null);
  });

  // --- The editor -----------------------------------------------------------------------------
  function recomputeCustom() {
    const { inputs, errors } = inputsFromEditor(custom.fields, custom.extra);
    if (hasAny(errors)) {
      custom.errors = errors;
    } else {
      const result = compute(inputs);
      if (result && result.ok === true) {
        Object.assign(custom, { inputs, result, errors: {} });
        refreshLoaded(CUSTOM_ID);
      } else {
        custom.errors = editorErrors((result && result.errors) || [{ field: 'general', message: 'The engine returned no result.' }]);
      }
    }
    drawEditorErrors();
    drawMatrix();
  }

  function editorInput(event) {
    const el = event.target;
    const f = custom.fields;
    if (el.dataset.answer !== undefined) {
      const row = f.script[Number(el.dataset.answer)];
      row[el.dataset.part] = el.type === 'checkbox' ? el.checked : el.value;
    } else if (el.dataset.retryOn !== undefined) {
      const on = new Set(f.retryOn);
      if (el.checked) on.add(el.dataset.retryOn);
      else on.delete(el.dataset.retryOn);
      f.retryOn = [...on];
    } else if (el.dataset.flag !== undefined) {
      f[el.dataset.flag] = el.checked;
    } else if (el.dataset.key !== undefined) {
      f[el.dataset.key] = el.value;
    } else {
      return;
    }
    recomputeCustom();
  }
  els.editorBox.addEventListener('input', (event) => { if (event.target.type !== 'checkbox') editorInput(event); });
  els.editorBox.addEventListener('change', (event) => { if (event.target.type === 'checkbox' || event.target.tagName === 'SELECT') editorInput(event); });
  els.editorBox.addEventListener('submit', (event) => event.preventDefault());
  els.editorBox.addEventListener('click', (event) => {
    const button = event.target.closest('button');
    if (!button) return;
    if (button.id === id('ed-add')) {
      custom.fields.script.push({ status: '200', retryAfter: '', date: '', lost: false, dropped: false });
      drawEditor();
      recomputeCustom();
      root.querySelector(`#${fieldId(id, `script[${custom.fields.script.length - 1}].status`)}`).focus();
    } else if (button.dataset.remove !== undefined) {
      const i = Number(button.dataset.remove);
      custom.fields.script.splice(i, 1);
      drawEditor();
      recomputeCustom();
      const next = root.querySelector(`[data-remove="${Math.min(i, custom.fields.script.length - 1)}"]`);
      (next && !next.disabled ? next : root.querySelector(`#${id('ed-add')}`)).focus();
    } else if (button.id === id('ed-copy')) {
      const trace = traceById(root.querySelector(`#${id('ed-from')}`).value);
      if (trace) setCustom(oneCaller(trace));
    }
  });

  // Replace the editor's trace with whole inputs (a copy of a seed trace, or a link). Returns
  // null, or the engine's errors when the inputs are not usable (nothing changes then).
  function setCustom(inputs) {
    const problems = setCustomFrom(inputs);
    if (problems) return problems;
    const from = root.querySelector(`#${id('ed-from')}`)?.value;
    drawEditor();
    if (from) root.querySelector(`#${id('ed-from')}`).value = from;
    drawMatrix();
    refreshLoaded(CUSTOM_ID);
    return null;
  }

  // --- First draw ------------------------------------------------------------------------------
  show(els.policy, policyCardView(fixed.get('A'), fixed.get('B')));
  drawEditor();
  drawHerdFields(null);
  runHerd();

  return {
    /** The section's state: the trace on show, the editor's inputs, trace F's herd settings. */
    getState: () => ({
      trace: app.getState().trace,
      custom: custom.inputs,
      herd: { ...herd },
      herdTiming,
      herdBusy: computer.busy(),
    }),
    traceIds: TRACE_IDS,
    selectTrace,
    setCustom,
    /** Set trace F's herd: { callers, seed } (numbers); the engine checks them. */
    setHerd: (changes) => setHerd(Object.fromEntries(Object.entries(changes).map(([k, v]) => [k, String(v)])), null),
    destroy() {
      unsubscribe();
      computer.destroy();
    },
  };
}
