// Hedging's latency against the unhedged (issue 34, docs/throttling.md §6), pure: the two runs'
// request and the chart of P(latency > x) on a log scale, the closed form (closed.js
// hedgingForm) drawn as lines and each run's p50, p90 and p99 as marks on them, told apart by
// dash and shape as well as colour; its words; its table.

import { h } from '../dom.js';
import { hedgingForm } from './closed.js';

// §6's check: legs exponential(5), no queue, a second copy 20 ms after the first; 100 clients
// at 50 a second for 20 s, about 100,000 requests (the sampling error §6 states).
export const HEDGING_BASE = { clients: 100, ratePerClient: 50, durationMs: 20000, network: { dist: 'exponential', mean: 5 }, server: { workers: null, serviceMs: 0 }, trigger: null, policy: { maxRetries: 0 } };
export const HEDGING_RUNS = [
  { key: 'plain', label: 'one copy', request: HEDGING_BASE },
  { key: 'hedged', label: 'a second copy after 20 ms', request: { ...HEDGING_BASE, policy: { maxRetries: 0, hedging: { maxAttempts: 2, delayMs: 20 } } } },
];

// 440 wide: drawn at a phone's 366 px its 12 px words stay at 10 px.
const W = 440;
const H = 300;
const BOX = { x: 64, y: 16, w: 350, h: 230 };
const X_MAX = 60; // ms
const DECADES = 4; // P from 1 down to 1e-4
const round1 = (n) => Math.round(n * 10) / 10;
const xOf = (ms) => BOX.x + (BOX.w * Math.min(ms, X_MAX)) / X_MAX;
const yOf = (p) => BOX.y + (BOX.h * Math.min(DECADES, -Math.log10(Math.max(p, 10 ** -DECADES)))) / DECADES;
/** @type {Array<[string, number]>} */
const QS = [['p50', 0.5], ['p90', 0.9], ['p99', 0.99]];
const fmt = (ms) => `${Math.round(ms * 100) / 100} ms`;

// The chart: `results` [plain, hedged] (either may be missing while it computes).
export function hedgingChart(results, id) {
  const hedged = results[1];
  const form = hedged && hedged.ok ? hedgingForm(hedged.request) : null;
  const kids = [h('title', { id: `${id}-title` }, 'Hedging: the chance a request takes longer than x')];
  for (let d = 0; d <= DECADES; d += 1) {
    const y = round1(yOf(10 ** -d));
    kids.push(h('line', { class: 'fl-grid', x1: BOX.x, y1: y, x2: BOX.x + BOX.w, y2: y }));
    kids.push(h('text', { class: 'fl-tick', x: BOX.x - 6, y: y + 4, 'text-anchor': 'end' }, d === 0 ? '1' : `1/${(10 ** d).toLocaleString('en-US')}`));
  }
  for (let t = 0; t <= X_MAX; t += 10) kids.push(h('text', { class: 'fl-tick', x: round1(xOf(t)), y: BOX.y + BOX.h + 16, 'text-anchor': 'middle' }, `${t} ms`));
  kids.push(h('line', { class: 'fl-axis', x1: BOX.x, y1: BOX.y + BOX.h, x2: BOX.x + BOX.w, y2: BOX.y + BOX.h }));
  kids.push(h('text', { class: 'fl-tick', x: BOX.x, y: BOX.y + BOX.h + 32 }, 'latency of a request (first answer)'));
  if (form && !form.why) {
    const lines = [['plain', 'one copy (closed form)', 'fl-offered', ''], ['hedged', 'hedged (closed form)', 'fl-succeeded', '6 3']];
    lines.forEach(([key, label, cls, dash], i) => {
      let d = '';
      // To the axis's 1/10,000, and no further along it.
      for (let t = 0; t <= X_MAX; t += 0.5) {
        const p = form.survival[key](t);
        d += `${d ? 'L' : 'M'}${round1(xOf(t))} ${round1(yOf(p))}`;
        if (p < 10 ** -DECADES) break;
      }
      kids.push(h('path', { class: `fl-line ${cls}`, d, fill: 'none', 'stroke-dasharray': dash || null }));
      kids.push(h('text', { class: `fl-label ${cls}`, x: BOX.x + BOX.w - 4, y: BOX.y + 14 + i * 16, 'text-anchor': 'end' }, label));
    });
    const x = round1(xOf(form.delayMs));
    kids.push(h('line', { class: 'fl-mark', x1: x, y1: BOX.y, x2: x, y2: BOX.y + BOX.h }));
    kids.push(h('text', { class: 'fl-note', x: x + 4, y: BOX.y + BOX.h - 6 }, `second copy at ${form.delayMs} ms`));
  }
  // Each run's percentiles as marks: circles the run with one copy, squares the hedged.
  results.forEach((r, i) => {
    if (!r || !r.ok) return;
    for (const [name, q] of QS) {
      const v = r.totals.latencyMs[name];
      if (v === null) continue;
      const cx = round1(xOf(v));
      const cy = round1(yOf(1 - q));
      kids.push(i === 0 ? h('circle', { class: 'fl-run-mark fl-offered', cx, cy, r: 4 }) : h('rect', { class: 'fl-run-mark fl-succeeded', x: cx - 4, y: cy - 4, width: 8, height: 8 }));
    }
  });
  return h('svg', { xmlns: 'http://www.w3.org/2000/svg', class: 'fl-chart fl-hedging', viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', 'aria-labelledby': `${id}-title ${id}-desc` },
    h('desc', { id: `${id}-desc` }, hedgingWords(results)), ...kids);
}

// In words: the runs' percentiles beside the closed form's, and what the copies cost.
export function hedgingWords(results) {
  const [plain, hedged] = results;
  if (!plain || !hedged || !plain.ok || !hedged.ok) return 'Computing the two runs…';
  const form = hedgingForm(hedged.request);
  const extra = hedged.totals.retries / hedged.totals.firstAttempts;
  return `With one copy, p99 is ${fmt(plain.totals.latencyMs.p99)} (the closed form: ${fmt(form.plain.p99)}); with a second copy sent 20 ms after the first when it has not answered, ${fmt(hedged.totals.latencyMs.p99)} (${fmt(form.hedged.p99)}), for ${(Math.round(extra * 10000) / 100)} % more requests to the server (${(Math.round(form.extraCopies * 10000) / 100)} % in the closed form). The median does not move: below 20 ms no second copy has gone. Without an idempotency key each second copy served is a second charge.`;
}

// The table: each percentile, the runs' and the closed form's.
export function hedgingRows(results) {
  const [plain, hedged] = results;
  if (!plain || !hedged || !plain.ok || !hedged.ok) return [];
  const form = hedgingForm(hedged.request);
  return QS.map(([name]) => [name, fmt(plain.totals.latencyMs[name]), fmt(form.plain[name]), fmt(hedged.totals.latencyMs[name]), fmt(form.hedged[name])]);
}
export const HEDGING_COLUMNS = ['percentile', 'one copy: run', 'one copy: closed form', 'hedged: run', 'hedged: closed form'];
