// Trace F's herd, pure: the seed's check, the three runs compared (the policy's jitter with
// the generator, evenly spread draws, no jitter), and a histogram per run. The counts are
// the engine's `herd` (SPEC §6); nothing here counts callers itself.

import { h } from '../dom.js';
import { num } from '../format.js';

// The seed's check for fifty callers over five buckets — "at least four of the five buckets
// occupied and no bucket holds more than twenty-five" — read for any herd as: every bucket
// but one occupied, and none holding more than half the callers.
export function herdCheck(herd) {
  const occupiedNeeded = Math.max(1, herd.buckets.length - 1);
  const fullestAllowed = Math.floor(herd.callers / 2);
  const occupiedOk = herd.occupied >= occupiedNeeded;
  const fullestOk = herd.fullest <= fullestAllowed;
  return { occupiedNeeded, fullestAllowed, occupiedOk, fullestOk, passes: occupiedOk && fullestOk };
}

// The runs compared, as the worker and the page both build them. `even` spreads the draws
// evenly over [0, 1] — the seed's "with evenly spread draws, ten callers retry in each
// 100-millisecond bucket" — which only fits while the draws list is within the engine's bounds.
export const HERD_RUNS = Object.freeze([
  { key: 'policy', title: 'Full jitter, draws from the generator' },
  { key: 'even', title: 'Evenly spread draws' },
  { key: 'none', title: 'No jitter' },
]);

export function evenDraws(callers) {
  return Array.from({ length: callers }, (_, i) => (i + 0.5) / callers);
}

// The inputs of one compared run, from trace F's inputs with its callers.
export function herdRunInputs(inputs, key) {
  if (key === 'none') return { ...inputs, jitter: 'none' };
  if (key === 'even') return { ...inputs, draws: evenDraws(inputs.callers || 1) };
  return inputs;
}

// What a compared run shows: the herd, or the engine's reason it could not run.
export function herdOutcome(result) {
  if (!result) return { herd: null, error: 'Not computed.' };
  if (result.ok !== true) return { herd: null, error: (result.errors || []).map((e) => e.message).join(' ') || 'The engine refused these inputs.' };
  if (!result.herd) return { herd: null, error: 'One caller is not a herd: every caller retries on its own schedule.' };
  return { herd: result.herd, error: null };
}

export function checkSentence(herd) {
  const c = herdCheck(herd);
  const occupied = `${num(herd.occupied)} of ${num(herd.buckets.length)} buckets occupied (at least ${num(c.occupiedNeeded)} needed)`;
  const fullest = `fullest bucket ${num(herd.fullest)} (at most ${num(c.fullestAllowed)})`;
  const all = herd.occupied === 1 && herd.callers - herd.notRetried > 1 ? ' Every retrying caller lands in one bucket.' : '';
  const skipped = herd.notRetried ? ` ${num(herd.notRetried)} callers do not retry at all.` : '';
  return `Check ${c.passes ? 'passes' : 'fails'}: ${occupied}, ${fullest}.${all}${skipped}`;
}

const W = 340;
const H = 190;
const M = { left: 8, right: 8, top: 22, bottom: 40 };
const LIMIT_CHAR = 6.5; // a generous width of one character of the limit's words (traces.css: 11px, bold)

// Bucket labels in milliseconds; past ten buckets only every k-th is labelled.
function bucketLabel(herd, i) {
  return `${num(i * herd.bucketMs)}–${num((i + 1) * herd.bucketMs)}`;
}

// One histogram. `yMax` is shared by the runs compared, so their bars are on one scale.
export function histogramView(herd, { title, yMax }) {
  const c = herdCheck(herd);
  const n = herd.buckets.length;
  const plotW = W - M.left - M.right;
  const plotH = H - M.top - M.bottom;
  const band = plotW / n;
  const top = Math.max(1, yMax, c.fullestAllowed) * 1.08;
  const y = (count) => M.top + plotH - (count / top) * plotH;
  const every = Math.ceil(n / 10);
  const label = `${title}: ${herd.buckets.map((count, i) => `${bucketLabel(herd, i)} ms: ${num(count)}`).join('; ')}. Most allowed in a bucket: ${num(c.fullestAllowed)}.`;
  // The limit's words stand over its line at the right end, or at the left end where a bar
  // over the limit stands under them at the right (no jitter: every caller in one bucket),
  // or under the line at the right where bars over it stand at both ends.
  const limitText = `at most ${num(c.fullestAllowed)}`;
  const limitW = limitText.length * LIMIT_CHAR;
  const barOver = (x0, x1) => herd.buckets.some((count, i) => count > c.fullestAllowed && M.left + (i + 0.88) * band > x0 && M.left + (i + 0.12) * band < x1);
  const limitRight = !barOver(W - M.right - limitW, W - M.right);
  const limitLeft = !limitRight && !barOver(M.left, M.left + limitW);
  return h('svg', { class: 'th-histogram', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': label, focusable: 'false' },
    h('line', { class: 'th-axis', x1: M.left, x2: W - M.right, y1: y(0), y2: y(0) }),
    herd.buckets.map((count, i) => {
      const x = M.left + i * band;
      const barTop = y(count);
      return h('g', { class: `th-bucket${count > c.fullestAllowed ? ' th-over' : ''}`, 'data-count': count },
        h('rect', { class: 'th-bar', x: x + band * 0.12, width: band * 0.76, y: barTop, height: Math.max(0, y(0) - barTop) }),
        n <= 20 ? h('text', { class: 'th-count', x: x + band / 2, y: barTop - 5, 'text-anchor': 'middle' }, num(count)) : null,
        i % every === 0 ? h('text', { class: 'th-tick', x: x + band / 2, y: H - M.bottom + 15, 'text-anchor': 'middle' }, bucketLabel(herd, i)) : null);
    }),
    h('text', { class: 'th-unit', x: W / 2, y: H - 6, 'text-anchor': 'middle' }, `first retry after the 429, ms (buckets of ${num(herd.bucketMs)} ms)`),
    h('line', { class: 'th-limit', x1: M.left, x2: W - M.right, y1: y(c.fullestAllowed), y2: y(c.fullestAllowed) }),
    h('text', {
      class: 'th-limit-label', x: limitLeft ? M.left : W - M.right, y: limitRight || limitLeft ? y(c.fullestAllowed) - 4 : y(c.fullestAllowed) + 13, 'text-anchor': limitLeft ? 'start' : 'end',
    }, limitText));
}

// Past the longest draws list the engine takes (`maxDraws`, engine.schema()), the evenly
// spread run (one draw per caller) is not computed; its card says why in words.
export const evenTooMany = (maxDraws) => ({ ok: false, errors: [{ message: `Not drawn: the engine takes at most ${num(maxDraws)} draws.` }] });

// The compared runs side by side. `runs` maps a key of HERD_RUNS to a compute() result (or
// null while it is computed).
export function herdFiguresView(runs, { seed }) {
  const titled = (run) => (run.key === 'policy' ? { ...run, title: `Full jitter, draws from the generator with seed ${seed}` } : run);
  const outcomes = HERD_RUNS.map((run) => ({ ...titled(run), ...herdOutcome(runs[run.key]), pending: !runs[run.key] }));
  const yMax = Math.max(1, ...outcomes.filter((o) => o.herd).map((o) => o.herd.fullest));
  return outcomes.map((o) => {
    if (o.pending) {
      return h('figure', { class: 'th-figure th-pending', 'data-run': o.key },
        h('figcaption', null, h('span', { class: 'th-title' }, o.title), h('span', { class: 'th-check' }, 'Computing…')));
    }
    if (!o.herd) {
      return h('figure', { class: 'th-figure th-none', 'data-run': o.key },
        h('figcaption', null, h('span', { class: 'th-title' }, o.title), h('span', { class: 'th-check' }, o.error)));
    }
    const passes = herdCheck(o.herd).passes;
    return h('figure', { class: `th-figure th-${passes ? 'pass' : 'fail'}`, 'data-run': o.key },
      h('figcaption', null,
        h('span', { class: 'th-title' }, o.title),
        h('span', { class: 'th-check' }, checkSentence(o.herd))),
      histogramView(o.herd, { title: o.title, yMax }));
  });
}
