// The AWS 2015 reproduction ("Exponential Backoff and Jitter", FLEET.md §7 and §9.6): the occ
// workload at 10, 20, …, 190 clients for the five strategies, drawn as it computes (writes and
// completion time against clients), the peer's own means (reference.js) overlaid. Pure: the
// requests, the figure's data, its view and its words.

import { h } from '../dom.js';
import { AWS_2015_PEER } from './reference.js';

// FLEET.md §9.6: the strategies as fleet requests over the occ defaults, and the peer's names.
export const STRATEGIES = [
  { key: 'none', label: 'no backoff', peer: 'None', policy: { baseBackoffMs: 0 }, dash: '' },
  { key: 'exponential', label: 'exponential', peer: 'Exponential', policy: { jitter: 'none' }, dash: '6 3' },
  { key: 'equal', label: 'equal jitter', peer: 'EqualJitter', policy: { jitter: 'equal' }, dash: '2 2' },
  { key: 'full', label: 'full jitter', peer: 'FullJitter', policy: { jitter: 'full' }, dash: '8 3 2 3' },
  { key: 'decorrelated', label: 'decorrelated', peer: 'Decorr', policy: { baseBackoffMs: 5, jitter: 'decorrelated' }, dash: '1 4' },
];
export const CLIENTS = Array.from({ length: 19 }, (_, i) => 10 * (i + 1));
// FLEET.md §9.6's tolerance against the peer's means.
export const TOLERANCE = { writes: 0.05, makespanMs: 0.1 };

// The requests, each with the point it fills: [{ clients, strategy, request }].
export function aws2015Requests(clients = CLIENTS) {
  const out = [];
  for (const c of clients) for (const s of STRATEGIES) out.push({ clients: c, strategy: s.key, request: { workload: 'occ', clients: c, policy: { ...s.policy } } });
  return out;
}

export const peerPoint = (strategy, clients) => {
  const s = STRATEGIES.find((x) => x.key === strategy);
  const row = s && AWS_2015_PEER[s.peer].find((r) => r[0] === clients);
  return row ? { makespanMs: row[1], writes: row[2] } : null;
};

// Is one computed point within the tolerance of the peer's? { writes, makespanMs } as booleans.
export function withinTolerance(strategy, clients, mean) {
  const p = peerPoint(strategy, clients);
  if (!p) return null;
  return {
    writes: Math.abs(mean.writes - p.writes) <= TOLERANCE.writes * p.writes,
    makespanMs: Math.abs(mean.makespanMs - p.makespanMs) <= TOLERANCE.makespanMs * p.makespanMs,
  };
}

// points: Map `${strategy}:${clients}` → the result's `mean`.
export function awsSummary(points, total) {
  let ok = 0;
  let n = 0;
  for (const [key, mean] of points) {
    const [strategy, clients] = key.split(':');
    const w = withinTolerance(strategy, Number(clients), mean);
    if (!w) continue;
    n += 1;
    if (w.writes && w.makespanMs) ok += 1;
  }
  const done = points.size;
  return `${done} of ${total} points computed; ${ok} of ${n} lie within ${TOLERANCE.writes * 100} % of the peer’s writes and ${TOLERANCE.makespanMs * 100} % of its completion time.`;
}

const W = 340;
const H = 240;
const BOX = { x: 52, y: 12, w: 270, h: 190 };

function niceMax(v) {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}
const r1 = (n) => Math.round(n * 10) / 10;

// One panel: `metric` against clients, our lines (with point marks) and the peer's crosses.
export function awsPanel(points, metric, { id, title, unit }) {
  const peerMax = Math.max(...STRATEGIES.flatMap((s) => AWS_2015_PEER[s.peer].map((r) => (metric === 'writes' ? r[2] : r[1]))));
  const oursMax = Math.max(0, ...[...points.values()].map((m) => m[metric]));
  const max = niceMax(Math.max(peerMax, oursMax));
  const xOf = (c) => BOX.x + (BOX.w * (c - 10)) / 180;
  const yOf = (v) => BOX.y + BOX.h - (BOX.h * v) / max;
  const kids = [h('title', { id: `${id}-title` }, title)];
  kids.push(h('line', { class: 'fl-axis', x1: BOX.x, y1: BOX.y + BOX.h, x2: BOX.x + BOX.w, y2: BOX.y + BOX.h }));
  for (const f of [0, 0.5, 1]) {
    const y = r1(yOf(max * f));
    kids.push(h('line', { class: 'fl-grid', x1: BOX.x, y1: y, x2: BOX.x + BOX.w, y2: y }));
    kids.push(h('text', { class: 'fl-tick', x: BOX.x - 4, y: y + 4, 'text-anchor': 'end' }, (max * f).toLocaleString('en-US')));
  }
  for (const c of [10, 50, 100, 150, 190]) kids.push(h('text', { class: 'fl-tick', x: r1(xOf(c)), y: BOX.y + BOX.h + 14, 'text-anchor': 'middle' }, String(c)));
  kids.push(h('text', { class: 'fl-tick', x: BOX.x + BOX.w, y: BOX.y + BOX.h + 28, 'text-anchor': 'end' }, 'clients'));
  kids.push(h('text', { class: 'fl-tick', x: BOX.x, y: BOX.y - 2 }, unit));
  STRATEGIES.forEach((s, i) => {
    const cls = `fl-s${i}`;
    // The peer's means: a cross at each client count.
    let cross = '';
    for (const [c, t, w] of AWS_2015_PEER[s.peer]) {
      const x = r1(xOf(c));
      const y = r1(yOf(metric === 'writes' ? w : t));
      cross += `M${x - 3} ${y - 3}L${x + 3} ${y + 3}M${x - 3} ${y + 3}L${x + 3} ${y - 3}`;
    }
    kids.push(h('path', { class: `fl-peer ${cls}`, d: cross }));
    // Ours: a line through the points computed so far, a dot on each.
    const ours = CLIENTS.filter((c) => points.has(`${s.key}:${c}`));
    if (ours.length) {
      const d = ours.map((c, j) => `${j ? 'L' : 'M'}${r1(xOf(c))} ${r1(yOf(points.get(`${s.key}:${c}`)[metric]))}`).join('');
      kids.push(h('path', { class: `fl-line ${cls}`, d, fill: 'none', 'stroke-dasharray': s.dash || null }));
      for (const c of ours) kids.push(h('circle', { class: `fl-dot ${cls}`, cx: r1(xOf(c)), cy: r1(yOf(points.get(`${s.key}:${c}`)[metric])), r: 2 }));
    }
  });
  return h('svg', { xmlns: 'http://www.w3.org/2000/svg', class: 'fl-chart fl-small', viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', 'aria-labelledby': `${id}-title` }, ...kids);
}

// The legend in words and patterns: each strategy's dash, and the peer's crosses.
export function awsLegend() {
  return h('ul', { class: 'fl-legend' },
    ...STRATEGIES.map((s, i) => h('li', {},
      h('svg', { width: 36, height: 10, viewBox: '0 0 36 10', 'aria-hidden': 'true' }, h('line', { class: `fl-line fl-s${i}`, x1: 0, y1: 5, x2: 36, y2: 5, 'stroke-dasharray': s.dash || null })),
      ` ${s.label}`)),
    h('li', {}, h('svg', { width: 12, height: 10, viewBox: '0 0 12 10', 'aria-hidden': 'true' }, h('path', { class: 'fl-peer fl-s0', d: 'M3 2L9 8M3 8L9 2' })), ' the peer’s mean (crosses)'));
}

// The data table: per client count and strategy, ours and the peer's.
export function awsTableRows(points) {
  const rows = [];
  for (const c of CLIENTS) {
    for (const s of STRATEGIES) {
      const m = points.get(`${s.key}:${c}`);
      const p = peerPoint(s.key, c);
      const w = m ? withinTolerance(s.key, c, m) : null;
      rows.push([String(c), s.label, m ? Math.round(m.writes).toLocaleString('en-US') : '…', p.writes.toLocaleString('en-US'),
        m ? Math.round(m.makespanMs).toLocaleString('en-US') : '…', p.makespanMs.toLocaleString('en-US'), w ? (w.writes && w.makespanMs ? 'yes' : 'no') : '…']);
    }
  }
  return rows;
}
export const AWS_COLUMNS = ['clients', 'strategy', 'writes (here)', 'writes (peer)', 'completion ms (here)', 'completion ms (peer)', 'within tolerance'];
