// The Brooker 2022 reproduction ("Fixing retries with token buckets and circuit breakers",
// FLEET.md §9.7): success and load against the server's failure rate for no retries, three
// retries and the adaptive token bucket, and the bucket's load with the same 100 requests a
// second split over 10, 100 and 1,000 clients; his simulator's own results (reference.js) as
// crosses. Pure: the requests, the figure's data and its words.

import { BROOKER_2022_CLIENTS, BROOKER_2022_POLICIES } from './reference.js';
import { legend, linePanel } from './panel.js';

// His failure rates (0.75 among them, kept as he computed it: drawn only up to 0.5).
export const RATES = BROOKER_2022_POLICIES.no_retries.map((r) => r[0]);
const X_MAX = 0.5;

// FLEET.md §9.7's set-up: 100 clients × 10 rps poisson for 10 s, no worker limit, no service
// time, an exponential network of mean 5 ms, no backoff.
export function brookerRequest(p, policy, { clients = 100, ratePerClient = 10 } = {}) {
  return {
    clients, ratePerClient, durationMs: 10000, trigger: null,
    network: { dist: 'exponential', mean: 5 },
    server: { workers: null, serviceMs: 0, failureRate: p },
    policy: { baseBackoffMs: 0, maxRetries: policy.maxRetries },
    gates: policy.bucket ? { bucket: { ...policy.bucket } } : {},
  };
}

export const POLICIES = [
  { key: 'none', label: 'no retries', peer: 'no_retries', maxRetries: 0, dash: '', cls: 'fl-s0' },
  { key: 'three', label: '3 retries', peer: 'three_retries', maxRetries: 3, dash: '6 3', cls: 'fl-s1' },
  { key: 'bucket', label: 'token bucket', peer: 'adaptive_10pct', maxRetries: 100, bucket: {}, dash: '2 2', cls: 'fl-s2' },
  // The bucket as the post writes it (docs/engine.md §7.1): a deposit on each success, a retry on
  // a whole token. His simulator (the crosses) ran the bucket above, so this one has no crosses.
  { key: 'post', label: 'token bucket as the post writes it', peer: null, maxRetries: 100, bucket: { depositOn: 'success', allowWhen: 'at-least-cost' }, dash: '8 3 2 3', cls: 'fl-s4' },
];
export const CLIENT_COUNTS = [
  { clients: 10, peer: 'adaptive_10pct_10clients', dash: '', cls: 'fl-s3' },
  { clients: 100, peer: 'adaptive_10pct_100clients', dash: '6 3', cls: 'fl-s2' },
  { clients: 1000, peer: 'adaptive_10pct_1000clients', dash: '1 4', cls: 'fl-s4' },
];

// [{ key, p, request }]: the policies over every rate, then the bucket over the client counts.
export function brookerRequests() {
  const out = [];
  for (const pol of POLICIES) for (const p of RATES) out.push({ key: `${pol.key}:${p}`, p, request: brookerRequest(p, pol) });
  for (const c of CLIENT_COUNTS) {
    for (const p of RATES) out.push({ key: `c${c.clients}:${p}`, p, request: brookerRequest(p, POLICIES[2], { clients: c.clients, ratePerClient: 100 / c.clients }) });
  }
  return out;
}

// His rows for a series, or none (the post's bucket): [p, successes, calls, unique calls].
export const peerRowsOf = (peer) => (peer ? BROOKER_2022_POLICIES[peer] : RATES.map((p) => [p]));
const drawn = (rows) => rows.filter((r) => r[0] <= X_MAX && r.length > 1);
const peerOf = (rows, metric) => drawn(rows).map(([p, s, t, u]) => [p, metric === 'success' ? s / u : t / u]);
// points: Map key → result totals.
const oursOf = (points, prefix, metric) => RATES.filter((p) => p <= X_MAX && points.has(`${prefix}:${p}`))
  .map((p) => [p, metric === 'success' ? points.get(`${prefix}:${p}`).successRate : points.get(`${prefix}:${p}`).load]);

const percent = (v) => `${Math.round(v * 100)} %`;
const X = { xLabel: 'failure rate', xMin: 0, xMax: X_MAX, xTicks: [0, 0.1, 0.2, 0.3, 0.4, 0.5] };

export function brookerPanels(points, id) {
  const bySeries = (metric) => POLICIES.map((pol) => ({ cls: pol.cls, dash: pol.dash, ours: oursOf(points, pol.key, metric), peer: peerOf(peerRowsOf(pol.peer), metric) }));
  return [
    linePanel(bySeries('success'), { id: `${id}-s`, title: 'Success against the failure rate: no retries, 3 retries, the token bucket as his simulator and as his post write it', unit: 'success', yMax: 1, yFormat: percent, ...X }),
    linePanel(bySeries('load'), { id: `${id}-l`, title: 'Load (attempts per request) against the failure rate', unit: 'load', yFormat: percent, ...X }),
    linePanel(CLIENT_COUNTS.map((c) => ({ cls: c.cls, dash: c.dash, ours: oursOf(points, `c${c.clients}`, 'load'), peer: peerOf(BROOKER_2022_CLIENTS[c.peer], 'load') })),
      { id: `${id}-c`, title: 'The token bucket’s load with 100 requests a second over 10, 100 and 1,000 clients', unit: 'load', yFormat: percent, ...X }),
  ];
}

export const brookerLegends = () => [
  legend(POLICIES, 'his simulator (crosses)'),
  legend(CLIENT_COUNTS.map((c) => ({ ...c, label: `token bucket, ${c.clients.toLocaleString('en-US')} clients` })), 'his simulator (crosses)'),
];

export const BROOKER_COLUMNS = ['policy', 'failure rate', 'success (here)', 'success (his)', 'load (here)', 'load (his)'];
export function brookerTableRows(points) {
  const rows = [];
  const add = (label, key, peerRows) => {
    for (const [p, s, t, u] of peerRows) {
      const m = points.get(`${key}:${p}`);
      const his = (v) => (u === undefined ? '—' : percent(v / u));
      rows.push([label, String(p), m ? percent(m.successRate) : '…', his(s), m ? percent(m.load) : '…', his(t)]);
    }
  };
  for (const pol of POLICIES) add(pol.label, pol.key, peerRowsOf(pol.peer));
  for (const c of CLIENT_COUNTS) add(`token bucket, ${c.clients} clients`, `c${c.clients}`, BROOKER_2022_CLIENTS[c.peer]);
  return rows;
}
