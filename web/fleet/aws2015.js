// The AWS 2015 reproduction ("Exponential Backoff and Jitter", FLEET.md §7 and §9.6): the occ
// workload at 10, 20, …, 190 clients for the five strategies, drawn as it computes (writes and
// completion time against clients), the peer's own means (reference.js) overlaid. Pure: the
// requests, the figure's data, its view and its words.

import { legend, linePanel } from './panel.js';
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

const seconds = (ms) => (ms >= 1000 ? `${(ms / 1000).toLocaleString('en-US')} s` : `${ms} ms`);

// One panel: `metric` against clients, our lines (with point marks) and the peer's crosses; the
// completion time on a log scale (its strategies span 382 ms to 101 s: on a linear axis four of
// the five lay on zero).
export function awsPanel(points, metric, { id, title, unit }) {
  const series = STRATEGIES.map((s, i) => ({
    cls: `fl-s${i}`,
    dash: s.dash,
    ours: CLIENTS.filter((c) => points.has(`${s.key}:${c}`)).map((c) => [c, points.get(`${s.key}:${c}`)[metric]]),
    peer: AWS_2015_PEER[s.peer].map(([c, t, w]) => [c, metric === 'writes' ? w : t]),
  }));
  return linePanel(series, { id, title, unit, xLabel: 'clients', xMin: 10, xMax: 190, xTicks: [10, 50, 100, 150, 190], ...(metric === 'makespanMs' ? { unit: 'completion time', yLog: true, yFormat: seconds } : {}) });
}

export const awsLegend = () => legend(STRATEGIES.map((s, i) => ({ cls: `fl-s${i}`, dash: s.dash, label: s.label })), 'the peer’s mean (crosses)');

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
