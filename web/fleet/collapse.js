// Brooker's retry collapse (FLEET.md §9.8, his simple_collapse_sim): one client at 40 requests
// a second, a ×2 spike from 20 to 25 s, a server whose service grows with the work in flight,
// timeouts retried twice. Without backoff the retries keep the server so busy that from about
// 30 s no request succeeds; with jittered backoff (full jitter, a 20 s base) every one does.
// Pure: the two requests, the figure and its words; his own runs (reference.js) as crosses.

import { BROOKER_COLLAPSE } from './reference.js';
import { legend, linePanel } from './panel.js';

const BASE = {
  clients: 1, ratePerClient: 40, spike: { startMs: 20000, endMs: 25000, factor: 2 }, durationMs: 80000, trigger: null,
  server: { workers: null, serviceMs: 1000, serviceMsPerInFlight: 10 },
  network: { dist: 'exponential', mean: 100 },
  policy: { clientTimeoutMs: 3000, maxRetries: 2, baseBackoffMs: 0, retryOn: ['timeout'] },
};

export const COLLAPSE_RUNS = [
  { key: 'none', label: 'no backoff', peer: 'spike_no_backoff', request: BASE, dash: '', cls: 'fl-s1' },
  { key: 'jitter', label: 'full jitter, 20 s base', peer: 'spike_backoff_and_jitter', request: { ...BASE, policy: { ...BASE.policy, jitter: 'full', baseBackoffMs: 20000 } }, dash: '2 2', cls: 'fl-s2' },
];

// The first second from which no bin before the end of new requests has a success (null: none).
export function collapseOnset(result) {
  const bins = result.timeline.bins;
  const perSecond = 1000 / result.timeline.binMs;
  const last = Math.min(bins.length, Math.ceil(result.request.durationMs / result.timeline.binMs));
  let onset = last;
  while (onset > 0 && bins[onset - 1].succeeded === 0) onset -= 1;
  return onset === last ? null : onset / perSecond;
}

export function collapseWords(results) {
  const [none, jitter] = results;
  const parts = [];
  if (none) {
    const onset = collapseOnset(none);
    parts.push(onset === null
      ? `Without backoff, some request still succeeds in every second (${none.totals.succeeded.toLocaleString('en-US')} of ${none.totals.requests.toLocaleString('en-US')}).`
      : `Without backoff, no request succeeds from ${onset} s to the end: ${none.totals.succeeded.toLocaleString('en-US')} of ${none.totals.requests.toLocaleString('en-US')} succeed, all before.`);
  }
  if (jitter) parts.push(`With full jitter and a 20 s base, ${jitter.totals.succeeded.toLocaleString('en-US')} of ${jitter.totals.requests.toLocaleString('en-US')} succeed.`);
  return parts.join(' ');
}

export function collapsePanel(results, id) {
  const series = COLLAPSE_RUNS.map((run, i) => ({
    cls: run.cls, dash: run.dash,
    ours: results[i] ? results[i].timeline.bins.slice(0, 80).map((b, s) => [s, b.succeeded]) : [],
    peer: BROOKER_COLLAPSE[run.peer].map((r) => [r[0], r[2]]),
  }));
  return linePanel(series, { id, title: 'Successes per second, without backoff and with jittered backoff, beside Brooker’s runs', unit: 'successes /s', xLabel: 's', xMin: 0, xMax: 80, xTicks: [0, 20, 40, 60, 80] });
}

export const collapseLegend = () => legend(COLLAPSE_RUNS, 'his simulator’s spike runs (crosses)');
