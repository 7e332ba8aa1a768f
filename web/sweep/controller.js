// The sweep panel's controller: the only sweep code that touches the DOM. One engine.sweep()
// call per change of the run or of the form; the chart, the boundary list and the table are
// redrawn from its result by the pure views. The cursor is a slider over the points.
//
// A sweep runs a frame after the change that asked for it (so the experiment redraws first,
// and several changes in one frame make one sweep), and only while the panel is on screen: a
// reader working the experiment far above pays nothing for it. (The first is made when the
// page is idle.) It is two short tasks, the engine's call then the draw of its answer (below,
// request()), and the browser's next frame lays it out and paints it; getTimings() says how
// long the call and the draw took, for the benchmark. The panel's data-sweep-state is
// "pending" until the sweep it shows is the current one, then "ready".

import { mount, patchKnown, show } from '../dom.js';
import { latch } from '../latch.js';
import { setText } from '../explorable/write.js';
import { makeIds } from '../views/controls.js';
import { boundaryListView, sweepChartView, sweepTableView } from './chart.js';
import { sweepFrameView } from './frame.js';
import {
  defaultForm, errorsByField, indexAtOrAfter, nearestIndex, pointWords, requestFromForm, summaryWords, sweepKey,
  varyByName, varyChoices,
} from './model.js';

// The form's errors under their fields (and the fields marked), or none.
function drawFormErrors(root, $, errors) {
  for (const k of ['from', 'to', 'points', 'general']) {
    const text = k === 'general' ? (errors.general || errors.vary || '') : (errors[k] || '');
    setText($(`${k}-error`), text);
    const box = $(k);
    if (box) {
      if (errors[k]) box.setAttribute('aria-invalid', 'true');
      else box.removeAttribute('aria-invalid');
    }
  }
  const any = Object.keys(errors).length > 0;
  if (any && !errors.general && !errors.vary) setText($('general-error'), 'Showing the last good sweep until the highlighted value is fixed.');
  root.classList.toggle('sw-stale', any);
}

// The chart as a WAI-ARIA slider at point `cursor` of `result`: its value in words, the readout
// and the cursor's line (at `scale`, the chart's as drawn).
function drawCursorAt(els, id, { result, cursor, scale, v }) {
  const p = result.points[cursor];
  const text = pointWords(v, p);
  if (!els.chart.hasAttribute('role')) {
    els.chart.setAttribute('role', 'slider');
    els.chart.setAttribute('tabindex', '0');
    els.chart.setAttribute('aria-labelledby', id('chart-label'));
    els.chart.setAttribute('aria-describedby', id('chart-help'));
  }
  els.chart.setAttribute('aria-valuemin', String(result.points[0].value));
  els.chart.setAttribute('aria-valuemax', String(result.points[result.points.length - 1].value));
  els.chart.setAttribute('aria-valuenow', String(p.value));
  els.chart.setAttribute('aria-valuetext', text);
  setText(els.readout, `Point ${(cursor + 1).toLocaleString('en-US')} of ${result.points.length.toLocaleString('en-US')}. ${text}.`);
  const line = els.chart.querySelector('.sw-cursor line');
  if (line && scale) {
    const x = scale.x(p.value);
    line.setAttribute('x1', x);
    line.setAttribute('x2', x);
  }
}

// The cursor: the WAI-ARIA slider pattern over the points, the pointer, a boundary's button,
// and "run this point" (`load`). `now()`: { result, cursor, scale, drawnWidth, inputs }.
function attachChart(els, { now, moveTo, load }) {
  els.chart.addEventListener('keydown', (event) => {
    const { result, cursor } = now();
    if (!result) return;
    const n = result.points.length;
    const page = Math.max(1, Math.round(n / 10));
    const moves = {
      ArrowRight: cursor + 1, ArrowUp: cursor + 1, ArrowLeft: cursor - 1, ArrowDown: cursor - 1,
      PageUp: cursor + page, PageDown: cursor - page, Home: 0, End: n - 1,
    };
    if (!(event.key in moves)) return;
    event.preventDefault();
    moveTo(moves[event.key]);
  });
  els.chart.addEventListener('pointerdown', (event) => {
    const { result, scale, drawnWidth } = now();
    if (!result || !scale) return;
    const svg = els.chart.querySelector('svg');
    const box = svg.getBoundingClientRect();
    const px = ((event.clientX - box.left) / Math.max(1, box.width)) * drawnWidth;
    moveTo(nearestIndex(result.points, scale.valueAt(px)));
    els.chart.focus();
  });
  els.boundaries.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-boundary]');
    const { result } = now();
    if (!button || !result) return;
    moveTo(indexAtOrAfter(result.points, result.boundaries[Number(button.dataset.boundary)].value));
    els.chart.focus();
  });
  els.runPoint.addEventListener('click', () => {
    const { result, cursor, inputs } = now();
    if (!result || !inputs) return;
    load({ ...inputs, [result.vary]: result.points[cursor].value });
  });
}

// A sweep is two tasks of its own (issue 18: each main-thread task a few milliseconds, so a
// busy machine that stretches it several times over still keeps it under 50 ms): one asks the
// engine (`ask()`: the answer to draw; null when the form was refused, after `drop()`, so that
// no older answer still on its way is drawn over the message; undefined: nothing asked), the
// next draws the answer (`draw(answer)`); the browser lays out and paints it in its next frame. Requests made before
// the first task runs make one sweep, of the form as it is then; an answer is drawn only if no
// sweep was asked for after it (nor a form found wrong), so the chart never shows an older
// request than the newest, nor parts of two.
const COMPUTE = 0;
const DRAW = 1;
function twoTasks(view, { ask, draw }) {
  const tasks = new view.MessageChannel();
  let asked = false;
  let answer = null; // the newest answer, until its draw
  tasks.port1.onmessage = (event) => {
    if (event.data === COMPUTE) {
      asked = false;
      const next = ask();
      if (next !== undefined) answer = next;
      if (next) tasks.port2.postMessage(DRAW);
      return;
    }
    if (!answer) return; // already drawn, or refused since
    const a = answer;
    answer = null;
    if (!asked) draw(a); // else a newer request is on its way
  };
  return {
    request() {
      if (asked) return;
      asked = true;
      tasks.port2.postMessage(COMPUTE);
    },
    busy: () => asked || answer !== null,
    drop() {
      answer = null;
    },
    close: () => tasks.port1.close(),
  };
}

// The form's range fields show `form`'s.
const fillForm = ($, form) => {
  for (const k of ['from', 'to', 'points']) $(k).value = form[k];
};

// The form: a typed value, or another input to vary (its range from its defaults). `form()` the
// form now; `setForm(next)` keeps a new one, then `changed()`.
function attachForm(els, $, choices, { form, setForm, changed }) {
  els.form.addEventListener('submit', (event) => event.preventDefault());
  els.form.addEventListener('input', (event) => {
    const k = event.target.dataset.sweep;
    if (!k || k === 'vary') return;
    setForm({ ...form(), [k]: event.target.value });
    changed();
  });
  els.vary.addEventListener('change', () => {
    setForm(defaultForm(choices, els.vary.value));
    fillForm($, form());
    changed();
  });
}

// The panel watched: its chart box's width (`onWidth`), whether it is on screen (`onVisible`),
// and the page idle once (`onIdle`): the first sweep is made then, on screen or not, so the
// panel is ready when the reader arrives; later ones wait for the panel to be on screen.
function watchPanel(view, root, chart, { onWidth, onVisible, onIdle }) {
  const resize = new view.ResizeObserver((entries) => onWidth(Math.round(entries[entries.length - 1].contentRect.width)));
  resize.observe(chart);
  const visibility = new view.IntersectionObserver((entries) => onVisible(entries.some((e) => e.isIntersecting)));
  visibility.observe(root);
  const whenIdle = view.requestIdleCallback ? (fn) => view.requestIdleCallback(fn, { timeout: 2000 }) : (fn) => view.setTimeout(fn, 200);
  whenIdle(onIdle);
  return {
    disconnect() {
      resize.disconnect();
      visibility.disconnect();
    },
  };
}

// The sweep's drawing, from its result and cursor: the chart (at its box's width, `scale` its
// axes as drawn), its words, the boundaries, the cursor and the table (while it is open).
function sweepPanel(els, { id, idPrefix, vary }) {
  let scale = null;
  let drawnWidth = 0;
  let boxWidth = 0; // the chart box's width as the ResizeObserver last saw it (0: not yet)
  const cursorAt = (result, cursor) => drawCursorAt(els, id, { result, cursor, scale, v: vary(result.vary) });
  // The chart is patched in place (only the attributes that changed are written), in a box of
  // a fixed height (sweep.css): the browser restyles and lays out only what changed.
  function chart(result, cursor) {
    drawnWidth = boxWidth || els.chart.clientWidth || 720;
    const drawn = sweepChartView(result, vary(result.vary), { width: drawnWidth, cursor });
    scale = drawn.scale;
    patchKnown(els.chart, drawn.tree);
  }
  const table = (result) => {
    if (els.details.open) show(els.table, sweepTableView(result, vary(result.vary)));
  };
  return {
    cursor: cursorAt,
    table,
    draw(result, cursor) {
      chart(result, cursor);
      const v = vary(result.vary);
      setText(els.summary, summaryWords(result, v));
      patchKnown(els.boundaries, boundaryListView(result, v, idPrefix));
      setText(els.unit, v.unit === 'ms' ? 'From and To are in milliseconds.' : 'From and To are numbers of retries; one point per whole number.');
      cursorAt(result, cursor);
      table(result);
    },
    resized(width, result, cursor) {
      boxWidth = width;
      if (result && boxWidth && Math.abs(boxWidth - drawnWidth) > 1) {
        chart(result, cursor);
        cursorAt(result, cursor);
      }
    },
    scale: () => scale,
    width: () => drawnWidth,
  };
}

// `numbers`: the explorable's sliders (app.getState().controls.numbers), the inputs it can sweep.
export function createSweep(root, { sweep, load, numbers, idPrefix = 'sw-' }) {
  const choices = varyChoices(numbers);
  const vary = (name) => varyByName(choices, name);
  const id = makeIds(idPrefix);
  const doc = root.ownerDocument;
  const view = doc.defaultView;
  const perf = view.performance;
  let form = defaultForm(choices);
  let inputs = null; // the run the sweep varies
  let key = null; // what the last sweep was asked with: the run but the swept input, and the form
  let result = null; // the last good sweep
  let cursor = 0;

  root.replaceChildren(mount(sweepFrameView(id, form, choices), doc));
  const $ = (name) => root.querySelector(`#${id(name)}`);
  const els = {
    form: $('form'), vary: $('vary'), chart: $('chart'), summary: $('summary'), boundaries: $('boundaries'),
    readout: $('readout'), runPoint: $('run-point'), details: $('details'), table: $('table'), unit: $('unit'),
  };

  const drawErrors = (errors) => drawFormErrors(root, $, errors);
  const panel = sweepPanel(els, { id, idPrefix, vary });
  const drawCursor = () => result && panel.cursor(result, cursor);
  const drawTable = () => result && panel.table(result);

  let visible = false;
  let pending = false; // the run or the form changed since the last sweep was asked for
  let scheduled = false;
  const setState = (state) => { root.dataset.sweepState = state; };
  let timings = null;
  const shown = latch(); // set()'s promises, released (with the timings) once the newest request is drawn or refused
  const tasks = twoTasks(view, { ask, draw: drawAnswer });
  const { request } = tasks;

  // The newest request is on the page (drawn, or its errors shown): the panel is ready.
  function settled() {
    if (pending || tasks.busy()) return;
    setState('ready');
    shown.release(timings);
  }

  // Sweep in the next frame, once the panel is visible.
  function schedule() {
    pending = true;
    setState('pending');
    if (!visible || scheduled) return;
    scheduled = true;
    view.requestAnimationFrame(() => {
      scheduled = false;
      if (pending && visible) request();
    });
  }

  const currentKey = () => JSON.stringify([sweepKey(inputs, form.vary), form]);

  // An older answer in flight is not drawn over the message.
  function refuse(errors) {
    tasks.drop();
    drawErrors(errors);
    settled();
    return null;
  }

  // The engine's sweep of the form over the run (twoTasks says what null and undefined mean).
  function ask() {
    pending = false;
    if (!inputs) return settled();
    key = currentKey();
    const { request: req, errors } = requestFromForm(form, inputs);
    if (Object.keys(errors).length) return refuse(errors);
    const t0 = perf.now();
    const next = sweep(req);
    const computeMs = perf.now() - t0;
    if (!next || next.ok !== true) return refuse(errorsByField((next && next.errors) || [{ field: 'general', message: 'The engine returned no sweep.' }]));
    return { sweep: next, computeMs, key };
  }

  // The answer drawn, unless the run changed while the engine computed it (its sweep waits for
  // the next frame): then it is never shown.
  function drawAnswer(a) {
    if (a.key !== currentKey()) {
      key = null; // nothing is drawn of it: a change back to it sweeps again
      return;
    }
    const t0 = perf.now();
    const before = result;
    result = a.sweep;
    // Keep the cursor on the same value when the range is the same field; else start where
    // the experiment is now.
    const here = before && before.vary === result.vary ? before.points[cursor].value : inputs[result.vary];
    cursor = nearestIndex(result.points, here === null || here === undefined ? Infinity : here);
    drawErrors({});
    panel.draw(result, cursor);
    timings = { points: result.points.length, computeMs: a.computeMs, drawMs: perf.now() - t0 };
    settled();
  }

  function moveTo(index) {
    if (!result) return;
    cursor = Math.max(0, Math.min(result.points.length - 1, index));
    drawCursor();
  }

  attachForm(els, $, choices, { form: () => form, setForm: (next) => { form = next; }, changed: schedule });

  attachChart(els, { now: () => ({ result, cursor, scale: panel.scale(), drawnWidth: panel.width(), inputs }), moveTo, load });
  els.details.addEventListener('toggle', drawTable);

  const watching = watchPanel(view, root, els.chart, {
    onWidth: (width) => panel.resized(width, result, cursor),
    onVisible(now) {
      visible = now;
      if (visible && pending) schedule();
    },
    onIdle() {
      if (!result && pending) request();
    },
  });

  return {
    // The run changed: sweep again unless only the swept field did.
    update(nextInputs) {
      inputs = nextInputs;
      if (currentKey() !== key) schedule();
      else if (pending) { // back to what the chart already shows (or is about to)
        pending = false;
        settled();
      }
    },
    // Set the form and sweep, visible or not (for the benchmark and for tests): a promise of
    // the panel showing it (the chart drawn, or the form's errors), resolved with getTimings().
    set(changes) {
      if (changes.vary && changes.vary !== form.vary) form = defaultForm(choices, changes.vary);
      form = { ...form, ...Object.fromEntries(Object.entries(changes).map(([k, v]) => [k, String(v)])) };
      els.vary.value = form.vary;
      fillForm($, form);
      setState('pending');
      request();
      return shown.wait();
    },
    getSweep: () => result,
    getCursor: () => cursor,
    getTimings: () => timings,
    destroy() {
      tasks.close();
      watching.disconnect();
    },
  };
}
