// The policy traces section's controller: the seed's traces computed once, the matrix that
// shows them all, and two panels, trace F's herd (herd-panel.js) and the reader's own trace
// (editor-panel.js). What the section keeps lives in the explorable's state: the trace on
// show (state.trace), the herd (state.herd) and the reader's trace (state.custom). A panel
// asks for a change; the state changes; the section draws the new state when the explorable
// tells its subscribers (state → compute → render).
//
// Choosing a row is `selectTrace(id)`, which loads the trace's inputs with app.load(inputs, { trace }).

import { mount, show } from '../dom.js';
import { makeIds } from '../views/controls.js';
import { verdictText } from '../views/metrics.js';
import { CUSTOM_ID, DEFAULT_CUSTOM, SEED_HERD, TRACES, TRACE_IDS, traceById, traceInputs } from './definitions.js';
import { matrixColumns, matrixView } from './matrix.js';
import { attachGrid } from './grid.js';
import { mountHerdPanel } from './herd-panel.js';
import { mountEditorPanel } from './editor-panel.js';
import { policyCardView } from './policy.js';
import { tracesFrameView } from './frame.js';

const TRACE_F = TRACES.find((t) => t.herd);

// The seed's traces as one caller each under a herd, computed once for the seed's herd (trace
// F's again when the herd's seed changes), and the inputs a row stands for.
function traceRuns(app, compute) {
  // One caller of a trace, under a herd (trace F's seed is the herd's).
  const oneCaller = (trace, herd = app.getState().herd || SEED_HERD) => traceInputs(trace, herd, { callers: 1 });
  const fixedRun = (trace, herd) => {
    const result = compute(oneCaller(trace, herd));
    if (!result || result.ok !== true) throw new Error(`Trace ${trace.id} did not compute: ${JSON.stringify(result && result.errors)}`);
    return result;
  };
  const fixed = new Map(TRACES.map((t) => [t.id, fixedRun(t, SEED_HERD)]));

  // The trace the inputs of an id are, under the herd and reader's trace the state holds (or
  // those given): what selecting the row loads.
  function inputsOf(traceId, { herd = app.getState().herd, custom = app.getState().custom } = {}) {
    if (traceId === CUSTOM_ID) return custom;
    const trace = traceById(traceId);
    return trace ? oneCaller(trace, herd) : null;
  }

  // Load a trace, or the state's part of one, in one step: the run shown stays that trace.
  function loadTrace(traceId, sections) {
    const state = app.getState();
    if (state.trace === traceId) app.load(inputsOf(traceId, sections), { trace: traceId, ...sections });
    else app.update(sections);
  }

  return { oneCaller, fixed, inputsOf, loadTrace, refreshHerd: (herd) => fixed.set(TRACE_F.id, fixedRun(TRACE_F, herd)) };
}

// The matrix as a grid with one roving tab stop (row 0 is the header row); `rows()` gives the
// rows to draw, `onActivate(row)` chooses one. `draw()` keeps the focus and the scroll.
function mountMatrix(box, { id, app, rows, onActivate }) {
  const doc = box.ownerDocument;
  let focus = { row: 1, col: 0 };
  let drawnSelection; // the trace the matrix last showed as selected
  const sizeOf = (list) => ({ rows: list.length + 1, cols: matrixColumns(list) + 2 });

  function draw() {
    const list = rows();
    const size = sizeOf(list);
    focus = { row: Math.min(focus.row, size.rows - 1), col: Math.min(focus.col, size.cols - 1) };
    const hadFocus = box.contains(doc.activeElement);
    const scrollLeft = box.scrollLeft;
    drawnSelection = app.getState().trace;
    show(box, matrixView(list, {
      focus, selected: drawnSelection, captionId: id('keys'), labelledBy: id('matrix-heading'),
    }));
    box.scrollLeft = scrollLeft;
    if (hadFocus) box.querySelector(`[data-row="${focus.row}"][data-col="${focus.col}"]`)?.focus({ preventScroll: true });
  }

  attachGrid(box, {
    size: () => sizeOf(rows()),
    position: () => focus,
    onMove: (pos) => { focus = pos; },
    onActivate,
  });
  return { draw, drawnSelection: () => drawnSelection };
}

export function mountTraces(root, app, engine, { idPrefix = 'tr-' } = {}) {
  const id = makeIds(idPrefix);
  const doc = root.ownerDocument;
  const view = doc.defaultView;
  const compute = (inputs) => app.compute(inputs);

  root.replaceChildren(mount(tracesFrameView(id), doc));
  const $ = (name) => root.querySelector(`#${id(name)}`);
  const els = { policy: $('policy'), matrix: $('matrix'), status: $('status'), show: $('show') };
  const { oneCaller, fixed, inputsOf, loadTrace, refreshHerd } = traceRuns(app, compute);

  let herdPanel = null;
  let editor = null;
  const rowsNow = () => [
    ...TRACES.map((t) => ({
      id: t.id, title: `Trace ${t.label}`, request: t.request, result: fixed.get(t.id), herd: t.herd ? herdPanel.line() : null,
    })),
    { id: CUSTOM_ID, title: 'Your trace', request: 'from the editor below', result: editor.result(), stale: editor.stale() },
  ];
  const matrix = mountMatrix(els.matrix, { id, app, rows: rowsNow, onActivate: (row) => selectTrace(rowsNow()[row - 1].id) });
  const drawMatrix = matrix.draw;

  herdPanel = mountHerdPanel(root, id, {
    engine,
    compute,
    // Only the seed changes trace F's one caller; the number of callers changes the histograms.
    onHerd: (herd) => (herd.seed !== app.getState().herd.seed ? loadTrace(TRACE_F.id, { herd }) : app.update({ herd })),
    onRuns: drawMatrix,
  });
  editor = mountEditorPanel($('editor-box'), id, {
    compute,
    schema: engine.schema(), // the editor's fields and the named scenarios' answers
    defaults: compute({}).inputs, // the engine's defaults, to keep them out of the editor's extra inputs
    oneCaller: (trace) => oneCaller(trace),
    onCustom: (custom) => loadTrace(CUSTOM_ID, { custom }),
    onStale: drawMatrix,
  });

  // Say which trace the experiment holds, and offer the way up to it.
  function announce(traceId) {
    const row = rowsNow().find((r) => r.id === traceId);
    els.status.textContent = `${row.title} is in the experiment above: ${verdictText(app.getState().result)}.`;
    els.show.hidden = false;
  }

  function selectTrace(traceId) {
    const inputs = inputsOf(traceId);
    if (!inputs) return false;
    app.load(inputs, { trace: traceId });
    if (app.getState().trace !== traceId) return false;
    announce(traceId);
    drawMatrix();
    return true;
  }

  // The state → the section. Trace F's row and histograms follow the herd, the reader's row
  // and the editor follow state.custom, and the matrix shows which trace the experiment holds.
  // Redrawn only for those: redrawing the matrix costs most of an input's latency.
  function follow(state, before = {}) {
    let redraw = state.trace !== matrix.drawnSelection();
    if (state.herd !== before.herd) {
      if (!before.herd || state.herd.seed !== before.herd.seed) refreshHerd(state.herd);
      herdPanel.show(state.herd);
      redraw = true;
    }
    if (state.custom !== before.custom) {
      editor.show(state.custom);
      redraw = true;
    }
    if (redraw) drawMatrix();
  }
  const unsubscribe = app.subscribe(follow);

  els.show.addEventListener('click', () => {
    const target = doc.getElementById('experiment');
    if (!target) return;
    const smooth = !view.matchMedia('(prefers-reduced-motion: reduce)').matches;
    target.scrollIntoView({ behavior: smooth ? 'smooth' : 'auto', block: 'start' });
    target.focus({ preventScroll: true });
  });

  // The section's part of the state, unless it is there already (a section mounted again).
  const start = app.getState();
  const custom = start.custom || editor.read(DEFAULT_CUSTOM).inputs;
  show(els.policy, policyCardView(fixed.get('A'), fixed.get('B')));
  app.update({ herd: start.herd || SEED_HERD, custom });
  if (start.herd && start.custom) follow(start);

  return {
    /** The section's state: the trace on show, the editor's inputs, trace F's herd settings. */
    getState: () => {
      const state = app.getState();
      return { trace: state.trace, custom: state.custom, herd: { ...state.herd }, herdTiming: herdPanel.timing(), herdBusy: herdPanel.busy() };
    },
    traceIds: TRACE_IDS,
    selectTrace,
    announce,
    inputsOf,
    // Replace the editor's trace with whole inputs (a copy of a seed trace, or a link). Returns
    // null, or the engine's errors when the inputs are not usable (nothing changes then).
    setCustom(inputs) {
      const read = editor.read(inputs);
      if (read.errors) return read.errors;
      loadTrace(CUSTOM_ID, { custom: read.inputs });
      return null;
    },
    readCustom: (inputs) => editor.read(inputs),
    /** Set trace F's herd: { callers, seed } (numbers); the engine checks them, as the fields' own. */
    setHerd: (changes) => herdPanel.edit(Object.fromEntries(Object.entries(changes).map(([k, v]) => [k, String(v)])), null),
    destroy() {
      unsubscribe();
      herdPanel.destroy();
    },
  };
}
