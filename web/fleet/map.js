// The stability maps (docs/metastability.md §4): a grid of seeded engine runs of one request,
// two of its fields varied, each cell its verdict in words and in a pattern as well as a colour.
//   "trigger": the slowdown's length (columns) × its factor (rows), the OSDI 2022 Fig. 5 map;
//   "load": the load per client (rows) × the retries per request (columns), the map on which
//           the lower edge of the bistable band (§1) is a curve.
// Each cell is run at `seeds` seeds (the request's own seed and the ones after it); a cell
// whose runs disagree is shown as such, with how many of its seeds stay down. Pure: the
// requests, the cells, the grid's view (an HTML table with the grid pattern: one cell in the tab
// order, arrow keys between cells), the closed-form lines over it, the CSV and the SVG.

import { h } from '../dom.js';
import { setPath } from './model.js';
import { toCsv } from '../export/csv.js';

const slowdownOf = (echo) => (echo.trigger && echo.trigger.kind === 'slowdown' ? echo.trigger : { kind: 'slowdown', startMs: 10000, endMs: 20000, factor: 4 });

export const MAPS = {
  trigger: {
    key: 'trigger',
    title: 'Trigger length × trigger size',
    rowsLabel: 'slowdown ×', colsLabel: 'slowdown length (s)',
    rows: [1.5, 2, 2.5, 3, 3.5, 4, 5, 6, 7, 8, 9, 10],
    cols: [0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 5, 6, 8, 10],
    rowText: (v) => `×${v}`, colText: (v) => `${v} s`,
    words: (r, c) => `a ${c} s slowdown of ×${r}`,
    apply(base, echo, r, c) {
      const trig = slowdownOf(echo);
      return setPath(base, 'trigger', { ...trig, factor: r, endMs: trig.startMs + Math.round(c * 1000) });
    },
    at(echo) {
      const t = echo.trigger;
      return t && t.kind === 'slowdown' ? [t.factor, (t.endMs - t.startMs) / 1000] : [null, null];
    },
  },
  load: {
    key: 'load',
    title: 'Offered load × retries',
    rowsLabel: 'requests/s per client', colsLabel: 'retries per request',
    rows: [0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.75, 1, 1.25, 1.5, 2],
    cols: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
    rowText: (v) => `${v}/s`, colText: (v) => String(v),
    words: (r, c) => `${r} requests a second per client, ${c} ${c === 1 ? 'retry' : 'retries'}`,
    apply(base, echo, r, c) {
      let req = setPath(base, 'ratePerClient', r);
      req = setPath(req, 'policy.maxRetries', c);
      if (base.trigger === undefined) req = setPath(req, 'trigger', slowdownOf(echo));
      return req;
    },
    at: (echo) => [echo.ratePerClient, echo.policy.maxRetries],
  },
};

export const SEED_CHOICES = [1, 3, 5];

// The cells of map `kind` over `base` (a request) whose echo is `echo`, each with its runs' requests:
// [{ row, col, r, c, requests }] (r, c the row's and column's values).
export function mapCells(kind, base, echo, seeds = 1) {
  const m = MAPS[kind];
  const out = [];
  m.rows.forEach((r, row) => m.cols.forEach((c, col) => {
    const request = m.apply(base, echo, r, c);
    const requests = [];
    for (let s = 0; s < seeds; ++s) requests.push(s === 0 ? request : setPath(request, 'seed', echo.seed + s));
    out.push({ row, col, r, c, requests });
  }));
  return out;
}

// The cell of the run on show, or null when its values are not among the map's.
export function markedCell(kind, echo) {
  const m = MAPS[kind];
  const [r, c] = m.at(echo);
  const row = m.rows.indexOf(r);
  const col = m.cols.indexOf(c);
  return row >= 0 && col >= 0 ? [row, col] : null;
}

// One run's state from its `recovery` (FLEET.md v3 §8).
export function runState(result) {
  if (!result) return 'pending';
  if (!result.ok) return 'error';
  const r = result.recovery;
  if (!r) return 'none';
  if (r.disrupted === false) return 'rode-out';
  if (r.recoveredAtMs !== null) return 'recovered';
  return r.metastable ? 'metastable' : 'undecided';
}

const secs = (ms) => `${Math.round(ms / 100) / 10}`;

// A cell's verdict from its runs' results (some may be missing yet):
// { kind, text (in the cell), words (its whole sentence), states, down }.
export function cellVerdict(results, seeds = results.length) {
  const got = results.filter(Boolean);
  if (got.length < seeds) return { kind: 'pending', text: '…', words: `not computed yet (${got.length} of ${seeds} seeds)`, states: [], down: 0 };
  const bad = got.find((r) => !r.ok);
  if (bad) return { kind: 'error', text: '!', words: bad.errors.map((e) => e.message).join(' '), states: [], down: 0 };
  const states = got.map(runState);
  const down = states.filter((s) => s === 'metastable').length;
  const kinds = new Set(states);
  if (kinds.size > 1) {
    const tally = ['rode-out', 'recovered', 'metastable', 'undecided'].filter((k) => kinds.has(k)).map((k) => `${states.filter((s) => s === k).length} ${STATE_WORDS[k]}`);
    return { kind: 'mixed', text: `${down}/${seeds}↓`, words: `the seeds disagree: ${tally.join(', ')}`, states, down };
  }
  const kind = states[0];
  if (kind === 'rode-out') return { kind, text: 'ok', words: seeds > 1 ? `rode it out at every seed` : 'rode it out: never knocked down', states, down };
  if (kind === 'recovered') {
    const lags = got.map((r) => r.recovery.recoveredAtMs - r.recovery.triggerEndMs);
    const lo = Math.min(...lags);
    const hi = Math.max(...lags);
    const span = lo === hi ? `${secs(lo)} s` : `${secs(lo)}–${secs(hi)} s`;
    return { kind, text: `+${lo === hi ? secs(lo) : secs(hi)}`, words: `recovered ${span} after the slowdown ended`, states, down };
  }
  if (kind === 'metastable') return { kind, text: 'down', words: 'still down when new requests stopped: a metastable failure', states, down };
  if (kind === 'none') return { kind, text: '–', words: 'no trigger', states, down };
  return { kind: 'undecided', text: '?', words: 'not recovered, too close to the end to call', states, down };
}

const STATE_WORDS = { 'rode-out': 'rode it out', recovered: 'recovered', metastable: 'stayed down', undecided: 'undecided' };

export const cellWords = (kind, cell, verdict, opening) =>
  `${MAPS[kind].words(cell.r, cell.c)}: ${verdict.words}${opening ? ' (the run on show)' : ''}.`;

// Where a value falls on an axis of non-uniform steps, in cell units (0.5 is the first cell's
// centre): linear between the centres, null outside the first and last.
export function axisPosition(values, v) {
  if (v === null || v === undefined || !Number.isFinite(v)) return null;
  if (v < values[0] || v > values[values.length - 1]) return null;
  for (let i = 0; i + 1 < values.length; ++i) {
    if (v <= values[i + 1]) return i + 0.5 + (v - values[i]) / (values[i + 1] - values[i]);
  }
  return values.length - 0.5;
}

// The closed-form lines in cell units: [{ cls, label, points: [[x, y]...] }] (a null point breaks
// the line). trigger map: the fluid model's shortest metastable slowdown per row (edges: row
// value → length ms or null). load map: the lower edge λ = μ / (retries + 1) per column, and the
// upper edge λ = μ, both per client (edge: stormEdge's).
export function mapLines(kind, { fluid = null, edge = null, clients = 1 }) {
  const m = MAPS[kind];
  const lines = [];
  if (kind === 'trigger' && fluid) {
    const pts = m.rows.map((r, row) => {
      const e = fluid.get(r);
      const x = e && e.lengthMs !== null ? axisPosition(m.cols, e.lengthMs / 1000) : null;
      return x === null ? null : [x, row + 0.5];
    });
    lines.push({ cls: 'fl-line-fluid', label: 'fluid model: the shortest slowdown that stays down', points: pts });
  }
  if (kind === 'load' && edge && edge.capacity) {
    lines.push({
      cls: 'fl-line-edge', label: 'lower edge: (retries + 1) × load = capacity',
      points: m.cols.map((k, col) => {
        const y = axisPosition(m.rows, edge.capacity / (k + 1) / clients);
        return y === null ? null : [col + 0.5, y];
      }),
    });
    const top = axisPosition(m.rows, edge.capacity / clients);
    if (top !== null) lines.push({ cls: 'fl-line-upper', label: 'upper edge: load = capacity', points: [[0, top], [m.cols.length, top]] });
  }
  return lines;
}

const pathOf = (points, sx, sy) => {
  let d = '';
  let pen = false;
  for (const p of points) {
    if (!p) {
      pen = false;
      continue;
    }
    d += `${pen ? 'L' : 'M'}${Math.round(p[0] * sx * 10) / 10} ${Math.round(p[1] * sy * 10) / 10}`;
    pen = true;
  }
  return d;
};

// The lines as an SVG laid over the cells (viewBox in cell units × 100).
export function linesOverlay(kind, lines) {
  const m = MAPS[kind];
  const W = m.cols.length * 100;
  const H = m.rows.length * 100;
  return h('svg', { class: 'fl-map-lines', viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', 'aria-hidden': 'true', focusable: 'false' },
    ...lines.map((l) => h('path', { class: l.cls, d: pathOf(l.points, 100, 100), fill: 'none', 'vector-effect': 'non-scaling-stroke' })));
}

// verdicts: Map `${row}:${col}` → cellVerdict; focus: [row, col]; marked: [row, col] or null.
export function mapView(kind, cells, verdicts, { id, focus, marked, lines = [] }) {
  const m = MAPS[kind];
  const at = (r, c) => cells.find((x) => x.row === r && x.col === c);
  return h('div', { class: 'fl-map-wrap' },
    h('table', { class: `fl-map fl-map-${kind}`, role: 'grid', id, 'aria-label': `Stability map, ${m.title.toLowerCase()}: rows are the ${m.rowsLabel}, columns the ${m.colsLabel}; each cell says whether the fleet rode the slowdown out, recovered, or stayed down` },
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col', class: 'fl-map-corner' }, `${m.rowsLabel} ↓ · ${m.colsLabel} →`),
        ...m.cols.map((c) => h('th', { scope: 'col' }, m.colText(c))))),
      h('tbody', {}, ...m.rows.map((rv, r) => h('tr', {},
        h('th', { scope: 'row' }, m.rowText(rv)),
        ...m.cols.map((_, c) => {
          const cell = at(r, c);
          const v = verdicts.get(`${r}:${c}`) || cellVerdict([], 1);
          const isMarked = marked && marked[0] === r && marked[1] === c;
          const focused = focus[0] === r && focus[1] === c;
          // Its name is its words in full (a screen reader hears them); its short text is for the eye.
          return h('td', {
            role: 'gridcell', class: `fl-cell fl-cell-${v.kind}${isMarked ? ' fl-cell-opening' : ''}`, tabindex: focused ? 0 : -1,
            'data-row': r, 'data-col': c, 'data-kind': v.kind,
          }, h('span', { class: 'fl-cell-text', 'aria-hidden': 'true' }, v.text, isMarked ? h('span', { class: 'fl-cell-mark' }, '●') : null),
          h('span', { class: 'visually-hidden' }, cell ? cellWords(kind, cell, v, isMarked) : ''));
        }))))),
    lines.length ? linesOverlay(kind, lines) : null);
}

// The key: each state's text in the cell, its pattern and its words.
export const mapKey = () => h('ul', { class: 'fl-map-key' },
  ...[['rode-out', 'ok', 'rode it out: never knocked down'], ['recovered', '+N', 'recovered N s after the slowdown ended'],
    ['metastable', 'down', 'still down when new requests stopped'], ['mixed', 'k/n↓', 'the seeds disagree: k of n stayed down']]
    .map(([kind, text, words]) => h('li', {}, h('span', { class: `fl-cell fl-cell-${kind} fl-key-swatch`, 'aria-hidden': 'true' }, text), ` ${words}`)));

// The cells as CSV: one row per cell and seed, with the cell's verdict beside each run's.
export function mapCsv(kind, cells, results, seeds) {
  const m = MAPS[kind];
  const rows = [[m.rowsLabel, m.colsLabel, 'seed', 'cell verdict', 'run verdict', 'disrupted', 'recoveredAtMs', 'metastable', 'triggerEndMs', 'requests', 'succeeded']];
  for (const cell of cells) {
    const runs = cell.requests.map((_, s) => results.get(`${cell.row}:${cell.col}:${s}`));
    const v = cellVerdict(runs, seeds);
    cell.requests.forEach((req, s) => {
      const r = runs[s];
      const rec = r && r.ok ? r.recovery : null;
      const seed = r && r.ok ? r.request.seed : '';
      rows.push([cell.r, cell.c, seed, v.kind, runState(r), rec ? rec.disrupted : '', rec && rec.recoveredAtMs !== null ? rec.recoveredAtMs : '', rec ? rec.metastable : '', rec ? rec.triggerEndMs : '', r && r.ok ? r.totals.requests : '', r && r.ok ? r.totals.succeeded : '']);
    });
  }
  return toCsv(rows);
}

// The map as an SVG file: the cells coloured and labelled, the lines, the axes and the key.
const FILL = { 'rode-out': '#eceae4', recovered: '#e3f4e8', metastable: '#fdecea', mixed: '#fff4d6', undecided: '#ffffff', pending: '#ffffff', error: '#ffffff', none: '#ffffff' };
const LINE = { 'fl-line-fluid': ['#1d5fd6', '6 3'], 'fl-line-edge': ['#1d5fd6', '6 3'], 'fl-line-upper': ['#595650', '2 3'] };
export function mapSvg(kind, cells, verdicts, { title, lines = [] }) {
  const m = MAPS[kind];
  const cw = 52;
  const ch = 30;
  const x0 = 96;
  const y0 = 64;
  const W = x0 + m.cols.length * cw + 16;
  const H = y0 + m.rows.length * ch + 40 + lines.length * 18 + 18;
  const kids = [h('title', {}, `Retry Lab stability map: ${title}`), h('rect', { width: '100%', height: '100%', fill: '#ffffff' }),
    h('text', { x: 16, y: 22, 'font-size': 15, 'font-weight': 700 }, `Retry Lab · ${m.title}`),
    h('text', { x: 16, y: 42, 'font-size': 12 }, title),
    h('text', { x: 16, y: y0 - 6, 'font-size': 11, fill: '#595650' }, `${m.rowsLabel} ↓ · ${m.colsLabel} →`)];
  m.cols.forEach((c, i) => kids.push(h('text', { x: x0 + i * cw + cw / 2, y: y0 - 6, 'font-size': 11, 'text-anchor': 'middle' }, m.colText(c))));
  m.rows.forEach((r, j) => kids.push(h('text', { x: x0 - 6, y: y0 + j * ch + ch / 2 + 4, 'font-size': 11, 'text-anchor': 'end' }, m.rowText(r))));
  for (const cell of cells) {
    const v = verdicts.get(`${cell.row}:${cell.col}`) || cellVerdict([], 1);
    const x = x0 + cell.col * cw;
    const y = y0 + cell.row * ch;
    kids.push(h('rect', { x, y, width: cw, height: ch, fill: FILL[v.kind], stroke: '#d9d4ca' }));
    if (v.kind === 'metastable' || v.kind === 'mixed') kids.push(h('path', { d: `M${x} ${y + ch}L${x + cw} ${y}`, stroke: '#b42318', 'stroke-width': 1, 'stroke-dasharray': v.kind === 'mixed' ? '2 3' : null }));
    kids.push(h('text', { x: x + cw / 2, y: y + ch / 2 + 4, 'font-size': 11, 'text-anchor': 'middle', 'font-weight': v.kind === 'metastable' ? 700 : 400 }, h('title', {}, cellWords(kind, cell, v, false)), v.text));
  }
  lines.forEach((l, i) => {
    const [stroke, dash] = LINE[l.cls];
    const d = pathOf(l.points.map((p) => p && [x0 / cw + p[0], y0 / ch + p[1]]), cw, ch);
    kids.push(h('path', { d, fill: 'none', stroke, 'stroke-width': 2.5, 'stroke-dasharray': dash }));
    const ky = y0 + m.rows.length * ch + 24 + i * 18;
    kids.push(h('line', { x1: 16, y1: ky - 4, x2: 48, y2: ky - 4, stroke, 'stroke-width': 2.5, 'stroke-dasharray': dash }), h('text', { x: 56, y: ky, 'font-size': 11 }, l.label));
  });
  const ky = y0 + m.rows.length * ch + 24 + lines.length * 18;
  kids.push(h('text', { x: 16, y: ky, 'font-size': 11, fill: '#595650' }, 'ok: rode it out · +N: recovered N s after the slowdown · down (struck): still down · k/n↓ (dashed): seeds disagree'));
  return h('svg', { xmlns: 'http://www.w3.org/2000/svg', width: W, height: H, viewBox: `0 0 ${W} ${H}`, 'font-family': 'system-ui, sans-serif' }, ...kids);
}
