// The fleet section's figure (section.js): the run on show's verdict, the storm chart with its
// ghost (the run before, faint), its key on a phone, the one-second readout under the keyboard
// or pointer cursor, the summary, the table, and the side effects. It draws from the section's
// one state (`ctx.s`: `shown`, `cursor`, `stale`).

import { h, patch } from '../dom.js';
import { sideEffectsOf, verdictOf } from './model.js';
import { binText, stormChart, stormLegend, tableColumns, tableRows } from './chart.js';
import { runSummary } from './stack.js';

// A phone's chart (issue 35 item 9): narrower than NARROW px, a box draws the chart at its own
// width (its words at 12 px, no sideways scroll) with the chart's key shown above it; wider,
// at 750 units scaled to the box, labelled at the peaks, as before. Each box is watched, and
// the chart drawn again when its width changes which it is.
const NARROW = 600;
export const chartWidth = (box) => {
  const w = box.clientWidth;
  return w > 0 && w < NARROW ? Math.floor(w) : undefined;
};

// A data table drawn only while its <details> is open (and when it opens): a table of a
// hundred rows redrawn on every result would cost the page's main thread more than the
// charts do. `box` null: not in this view (parts: 'view').
export function lazyTable(box, build) {
  if (!box) return () => {};
  const details = box.closest('details');
  const draw = () => {
    if (details.open) patch(box, build());
  };
  details.addEventListener('toggle', draw);
  return draw;
}

// The chart's key above a phone's chart (`width` set), for `series`; `key` names its patterns.
function drawLegend(list, width, key, series, drawnWidth) {
  const box = list.nextElementSibling;
  drawnWidth.set(box, width);
  list.hidden = width === undefined;
  if (list.hidden) return list.replaceChildren();
  const swatch = (item, i) => h('svg', { class: 'fl-chart fl-swatch', width: 32, height: 12, viewBox: '0 0 32 12', 'aria-hidden': 'true', focusable: 'false' },
    item.area
      ? [item.cls === 'fl-late' ? h('defs', {}, h('pattern', { id: `${key}-hatch-${i}`, width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
        h('rect', { class: 'fl-late-ground', width: 6, height: 6 }), h('line', { class: 'fl-late-hatch', x1: 0, y1: 0, x2: 0, y2: 6 }))) : null,
      h('rect', { class: `fl-work ${item.cls}`, x: 1, y: 1, width: 30, height: 10, fill: item.cls === 'fl-late' ? `url(#${key}-hatch-${i})` : null })]
      : h('line', { class: `fl-line ${item.cls}`, x1: 0, y1: 6, x2: 32, y2: 6, 'stroke-dasharray': item.dash || null }));
  return patch(list, ...stormLegend(series).map((item, i) => h('li', {}, swatch(item, i), ` ${item.label}`)));
}

// The keyboard and pointer cursor over the bins: `ctx.s.cursor`, then `draw(true)`.
function attachCursor(chartBox, s, draw) {
  chartBox.addEventListener('keydown', (event) => {
    if (!s.shown) return;
    const n = s.shown.series.points.length;
    const moves = { ArrowRight: 1, ArrowLeft: -1, PageDown: 10, PageUp: -10 };
    if (event.key in moves) s.cursor = Math.max(0, Math.min(n - 1, (s.cursor === null ? -1 : s.cursor) + moves[event.key]));
    else if (event.key === 'Home') s.cursor = 0;
    else if (event.key === 'End') s.cursor = n - 1;
    else if (event.key === 'Escape') s.cursor = null;
    else return;
    event.preventDefault();
    draw(true);
    // In a box that scrolls sideways (a phone), the second the keys rest on stays in view.
    const mark = chartBox.querySelector('.fl-cursor');
    if (mark) mark.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  });
  chartBox.addEventListener('pointermove', (event) => {
    const svg = chartBox.querySelector('svg');
    if (!s.shown || !svg) return;
    const box = svg.getBoundingClientRect();
    // In the chart's units, on its time axis as the chart drew it (its data-* attributes, chart.js):
    // the axis spans the run before too where it ran longer, and a phone's chart is narrower.
    const x = ((event.clientX - box.left) / box.width) * svg.viewBox.baseVal.width;
    const n = s.shown.series.points.length;
    const at = (name) => Number(svg.getAttribute(`data-${name}`));
    const bin = Math.floor((((x - at('plot-x')) / at('plot-w')) * at('axis-ms')) / at('bin-ms'));
    if (bin >= 0 && bin < n && bin !== s.cursor) {
      s.cursor = bin;
      draw(true);
    }
  });
}

// The side effects of the run on show: the same attempts without and with a key.
function effectsTable(result, withKey) {
  const effects = sideEffectsOf(result, withKey);
  return [h('p', {}, effects.summary),
    h('table', { class: 'fl-table fl-effects-table' },
      h('caption', {}, 'The same attempts, without and with an idempotency key'),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'in this run'), h('th', { scope: 'col' }, 'without a key'), h('th', { scope: 'col' }, 'with a key'))),
      h('tbody', {}, ...effects.rows.map(([label, a, b]) => h('tr', {}, h('th', { scope: 'row' }, label), h('td', {}, a), h('td', {}, b)))))];
}

// mountStorm(ctx) → { draw(cursorOnly), legend(list, width, key), watch(box) }: `draw(true)`
// when only the cursor moved; `watch` draws again a box whose width changes its kind (the
// figure's chart, and the storm near the reader's change, near.js).
export function mountStorm(ctx) {
  const { $, id, root, s, win } = ctx;
  const chartBox = $('chart');
  const verdictBox = $('verdict');
  const drawnWidth = new Map();
  const widths = typeof win.ResizeObserver === 'function'
    ? new win.ResizeObserver((entries) => {
      if (!s.shown) return;
      const changed = entries.some((e) => drawnWidth.get(e.target) !== chartWidth(e.target));
      if (changed) draw(true);
      if (changed) ctx.near.resized(entries);
    })
    : { observe() {} };
  const legend = (list, width, key) => drawLegend(list, width, key, s.shown.series, drawnWidth);
  const drawStormTable = lazyTable($('table'), () => h('table', { class: 'fl-table' },
    h('caption', {}, 'The storm per second (each row one bin of the timeline)'),
    h('thead', {}, h('tr', {}, ...tableColumns(s.shown.series).map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, ...tableRows(s.shown.series).map((r) => h('tr', {}, h('th', { scope: 'row' }, String(r[0])), ...r.slice(1).map((c) => h('td', {}, c)))))));

  function draw(cursorOnly = false) {
    const { result, withKey, series, ghost } = s.shown;
    const verdict = verdictOf(result);
    if (!s.stale) { // while another run computes, the verdict box says so (computing.js)
      verdictBox.textContent = verdict.text;
      verdictBox.dataset.kind = verdict.kind;
    }
    root.dataset.verdict = verdict.kind;
    const width = chartWidth(chartBox);
    patch(chartBox, stormChart(series, { id: id('svg-chart'), cursor: s.cursor, ghost, width }));
    legend($('legend'), width, id('legend'));
    const readout = s.cursor === null ? 'Arrow keys or the pointer on the chart: one second’s figures.' : binText(series, s.cursor);
    if ($('readout').textContent !== readout) $('readout').textContent = readout; // live: written only when it changes
    if (ctx.servers) ctx.servers.draw(cursorOnly); // the storm server by server (servers-view.js)
    if (cursorOnly) return;
    ctx.near.draw();
    ctx.controls.said();
    $('summary').textContent = runSummary(result.totals);
    drawStormTable();
    patch($('effects'), ...effectsTable(result, withKey));
  }

  widths.observe(chartBox);
  attachCursor(chartBox, s, draw);
  return { draw, legend, watch: (box) => widths.observe(box) };
}
