// The sweep as an SVG chart, pure: charges (a step line), the outcome (a band) and the elapsed
// time (a line) over the swept input, one x-axis for all three, every boundary the engine
// found as a numbered line at its exact value, and a cursor on one point. Also the boundary
// list and the table of points, the chart's text alternatives. Colours come from classes.

import { h } from '../dom.js';
import { ms, num } from '../format.js';
import { tickStep } from '../views/timeline.js';
import { runsOf, valueWords } from './model.js';

const MARGIN = { left: 88, right: 26, top: 34, bottom: 40 };
const PANELS = { charges: 64, outcome: 24, elapsed: 84 };
const GAP = 30;
const CHAR = 7; // a generous width of one character of the 12px labels

// Nice ticks over [from, to]: multiples of a round step.
function ticks(from, to, plotWidth, whole) {
  const span = to - from;
  if (span <= 0) return [from];
  let step = tickStep(span, Math.max(2, Math.floor(plotWidth / 90)));
  if (whole) step = Math.max(1, Math.round(step));
  const out = [];
  for (let t = Math.ceil(from / step) * step; t <= to + 1e-9; t += step) out.push(Math.round(t * 1e6) / 1e6);
  return out;
}

// The chart's geometry, shared with the controller (pointer → point).
export function chartScale(sweep, width) {
  const first = sweep.points[0].value;
  const last = sweep.points[sweep.points.length - 1].value;
  const plot = Math.max(40, width - MARGIN.left - MARGIN.right);
  const x = (v) => MARGIN.left + (last > first ? ((v - first) / (last - first)) * plot : plot / 2);
  const valueAt = (px) => first + ((px - MARGIN.left) / plot) * (last - first);
  const top = { charges: MARGIN.top };
  top.outcome = top.charges + PANELS.charges + GAP;
  top.elapsed = top.outcome + PANELS.outcome + GAP;
  const height = top.elapsed + PANELS.elapsed + MARGIN.bottom;
  return { x, valueAt, plot, top, height, left: MARGIN.left, right: MARGIN.left + plot, first, last };
}

function chargesPanel(sweep, s) {
  const maxCharges = Math.max(1, ...sweep.points.map((p) => p.charges));
  const y = (c) => s.top.charges + PANELS.charges - (c / maxCharges) * PANELS.charges;
  const runs = runsOf(sweep, (p) => p.charges);
  let d = '';
  runs.forEach((r, i) => {
    d += i === 0 ? `M${s.x(r.from)} ${y(r.key)}` : `V${y(r.key)}`;
    d += `H${s.x(r.to)}`;
  });
  const tickValues = maxCharges <= 4 ? Array.from({ length: maxCharges + 1 }, (_, i) => i) : [0, maxCharges];
  return h('g', { class: 'sw-charges' },
    tickValues.map((c) => h('g', { class: 'sw-grid' },
      h('line', { x1: s.left, x2: s.right, y1: y(c), y2: y(c) }),
      h('text', { x: s.left - 8, y: y(c), 'text-anchor': 'end', 'dominant-baseline': 'middle' }, num(c)))),
    h('text', { x: 0, y: s.top.charges - 14, class: 'sw-panel-title' }, 'Charges'),
    h('path', { d, class: 'sw-charges-line' }));
}

function outcomePanel(sweep, s) {
  const runs = runsOf(sweep, (p) => p.outcome);
  return h('g', { class: 'sw-outcome' },
    h('text', { x: 0, y: s.top.outcome + PANELS.outcome / 2, 'dominant-baseline': 'central', class: 'sw-panel-title' }, 'Outcome'),
    runs.map((r) => {
      const x0 = s.x(r.from);
      const w = Math.max(1, s.x(r.to) - x0);
      const fits = w > r.key.length * CHAR + 8;
      return h('g', null,
        h('rect', { x: x0, y: s.top.outcome, width: w, height: PANELS.outcome, class: `sw-band sw-band-${r.key}` }),
        fits ? h('text', { x: x0 + w / 2, y: s.top.outcome + PANELS.outcome / 2, 'text-anchor': 'middle', 'dominant-baseline': 'central', class: `sw-band-label sw-on-${r.key}` }, r.key) : null);
    }));
}

function elapsedPanel(sweep, v, s) {
  const maxElapsed = Math.max(1, ...sweep.points.map((p) => p.elapsedMs));
  const y = (t) => s.top.elapsed + PANELS.elapsed - (t / maxElapsed) * PANELS.elapsed;
  // A whole-numbered input (retries) has nothing between its values: the line steps from one
  // to the next instead of sloping through values no run can have.
  const { whole } = v;
  const d = sweep.points.map((p, i) => {
    if (i === 0) return `M${s.x(p.value)} ${y(p.elapsedMs)}`;
    return whole ? `H${s.x(p.value)}V${y(p.elapsedMs)}` : `L${s.x(p.value)} ${y(p.elapsedMs)}`;
  }).join('');
  return h('g', { class: 'sw-elapsed' },
    [0, maxElapsed].map((t) => h('g', { class: 'sw-grid' },
      h('line', { x1: s.left, x2: s.right, y1: y(t), y2: y(t) }),
      h('text', { x: s.left - 8, y: y(t), 'text-anchor': 'end', 'dominant-baseline': 'middle' }, t === 0 ? '0' : ms(t)))),
    h('text', { x: 0, y: s.top.elapsed - 14, class: 'sw-panel-title' }, 'Elapsed time'),
    h('path', { d, class: 'sw-elapsed-line' }));
}

function xAxis(v, s) {
  const base = s.top.elapsed + PANELS.elapsed;
  return h('g', { class: 'sw-axis' },
    ticks(s.first, s.last, s.plot, v.whole).map((t) => h('g', { class: 'sw-tick' },
      h('line', { x1: s.x(t), x2: s.x(t), y1: base, y2: base + 5 }),
      h('text', { x: s.x(t), y: base + 17, 'text-anchor': 'middle' }, num(t)))),
    h('text', { x: s.right, y: base + 34, 'text-anchor': 'end', class: 'sw-axis-label' }, `${v.label}${v.unit ? ` (${v.unit})` : ''}`));
}

function boundaryMarks(sweep, s) {
  const bottom = s.top.elapsed + PANELS.elapsed;
  return h('g', { class: 'sw-boundaries' }, sweep.boundaries.map((b, i) => {
    const x = s.x(b.value);
    return h('g', { class: 'sw-boundary', 'data-value': b.value },
      h('line', { x1: x, x2: x, y1: s.top.charges - 14, y2: bottom }),
      h('circle', { cx: x, cy: s.top.charges - 20, r: 8 }),
      h('text', { x, y: s.top.charges - 20, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, String(i + 1)));
  }));
}

function cursorMark(sweep, s, index) {
  const p = sweep.points[index];
  if (!p) return null;
  const x = s.x(p.value);
  return h('g', { class: 'sw-cursor', 'data-index': index },
    h('line', { x1: x, x2: x, y1: s.top.charges - 4, y2: s.top.elapsed + PANELS.elapsed }));
}

// `v`: the swept input (sweep/model.js varyChoices()), as the functions below take it.
export function sweepChartView(sweep, v, { width = 720, cursor = 0 } = {}) {
  const s = chartScale(sweep, width);
  const tree = h('svg', {
    class: 'sw-chart', viewBox: `0 0 ${width} ${s.height}`, width, height: s.height,
    'aria-hidden': 'true', focusable: 'false',
  },
  h('rect', { x: s.left, y: s.top.charges, width: s.plot, height: s.top.elapsed + PANELS.elapsed - s.top.charges, class: 'sw-hit' }),
  chargesPanel(sweep, s),
  outcomePanel(sweep, s),
  elapsedPanel(sweep, v, s),
  xAxis(v, s),
  boundaryMarks(sweep, s),
  cursorMark(sweep, s, cursor));
  return { tree, scale: s };
}

// The boundaries in words, numbered as on the chart, each with a button that moves the cursor
// to the first point past it.
export function boundaryListView(sweep, v, idPrefix) {
  if (!sweep.boundaries.length) return null;
  return h('ol', { class: 'sw-boundary-list' }, sweep.boundaries.map((b, i) => h('li', { 'data-value': b.value },
    h('span', { class: 'sw-boundary-text' }, `${b.text.charAt(0).toUpperCase()}${b.text.slice(1)}.`),
    ' ',
    h('button', { type: 'button', class: 'sw-go', id: `${idPrefix}go-${i}`, 'data-boundary': i, 'aria-label': `Go to it: boundary ${i + 1}, ${valueWords(v, b.value)}` }, 'Go to it'))));
}

const HEADINGS = ['Attempts', 'Charges', 'Replays', 'Outcome', 'Elapsed', 'Agent reports'];

// Every point as a table row: the chart's text alternative.
export function sweepTableView(sweep, v) {
  return h('table', { class: 'answers sw-table' },
    h('caption', null, `The ${num(sweep.points.length)} points of the sweep over the ${v.label.toLowerCase()}`),
    h('thead', null, h('tr', null,
      h('th', { scope: 'col' }, `${v.label}${v.unit ? ` (${v.unit})` : ''}`),
      HEADINGS.map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', null, sweep.points.map((p) => h('tr', null,
      h('th', { scope: 'row', class: 'num' }, num(p.value)),
      h('td', { class: 'num' }, num(p.attempts)),
      h('td', { class: 'num' }, num(p.charges)),
      h('td', { class: 'num' }, num(p.replays)),
      h('td', null, p.outcome),
      h('td', { class: 'num' }, ms(p.elapsedMs)),
      h('td', null, p.agentReport)))));
}
