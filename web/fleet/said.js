// What a control did in the run on show, in words beside it (issue 35 item 4), for the fleet
// section's controls (controls.js), from the result alone: a switched model's work, a send
// gate's, a retry gate's refusals, and a control that changed nothing.

import { num } from '../format.js';
import { getPath, verdictOf } from './model.js';
import { limiterSaid } from './chart.js';

// What a switched model did in the run on show, from its result (docs/throttling.md §3: the
// 429s are `totals.throttled`; §6: hedging's copies after the first are `totals.retries`).
const SWITCH_SAID = {
  'server.admission': (r) => {
    const a = r.request.server.admission;
    const n = r.totals.throttled || 0;
    const limit = `${num(a.ratePerSecond)} tokens a second, ${num(a.burst)} at most, ${a.scope === 'fleet' ? 'for the whole fleet' : 'for each client'}`;
    if (!n) return `In the run on show it answered no attempt with a 429: no ${a.scope === 'fleet' ? 'second of the fleet' : 'client'} sent faster than its limit (${limit}).`;
    const retried = (r.request.policy.retryOn || []).includes('429');
    return `In the run on show it answered ${num(n)} of ${num(r.totals.attempts)} attempts with a 429 (${limit}), each without a worker or a place in the queue; ${retried ? 'the policy retries a 429' : 'the policy does not retry a 429 (retryOn), so each ended its request'}.`;
  },
  'policy.hedging': (r) => {
    const hg = r.request.policy.hedging;
    const copies = r.totals.retries;
    return `In the run on show it sent ${num(copies)} ${copies === 1 ? 'copy' : 'copies'} after the first (${num(r.totals.attempts)} attempts for ${num(r.totals.requests)} requests, at most ${num(hg.maxAttempts)} each, ${num(hg.delayMs)} ms apart); retries per request are 0, as A6 asks. Every copy served charges a card without a key.`;
  },
};

// The gates before every send (docs/throttling.md §4, §5, §7) refuse no retry: each says what
// it did in its own terms, from the result — the limiter's waits (the bins' gateWaitMs) and the
// 429s it slowed for, the local throttle's refusals (`local-throttle`), the admission filter's
// rejections (`admissionRejected`).
const SEND_GATES = {
  adaptive: (r) => {
    const waitMs = r.timeline.bins.reduce((a, b) => a + (b.gateWaitMs || 0), 0);
    const throttled = r.totals.throttled || 0;
    return waitMs ? `In the run on show it held sends for ${num(Math.round(waitMs / 1000))} s in all (every request’s waits summed), slowing after ${num(throttled)} throttling answers (429).${limiterSaid(r)}`
      : `In the run on show it held no send: it slows only after a throttling answer (429), and the server gave ${throttled ? num(throttled) : 'none'}${throttled ? '' : ' (switch on its admission limit)'}.`;
  },
  local: (r) => {
    const n = r.totals.failed['local-throttle'] || 0;
    return n ? `In the run on show it refused ${num(n)} ${n === 1 ? 'request' : 'requests'} before they left the client.`
      : `In the run on show it refused nothing: each answer counts as a request and, unless it is a 429, as an accept, and the server gave ${num(r.totals.throttled || 0)} throttling answers (429).`;
  },
  admissionControl: (r) => {
    const n = r.totals.admissionRejected || 0;
    return n ? `In the run on show it rejected ${num(n)} ${n === 1 ? 'attempt' : 'attempts'} in the client’s sidecar, each answered as a 503.`
      : 'In the run on show it rejected nothing: it records only answers in time, a failure being 500 or above (a timeout or a late answer records nothing).';
  },
};

// What the control at `path` did in `shown` (the section's run on show, with the run `before`
// it and the control `by` whose change made it): each gate that is on, how many retries it
// refused (FLEET.md §4: each refusal ends its request `gate-<name>`, the breaker's
// `circuit-open`); the control just changed, when every total and the verdict are as they were
// before it, says so, with how most failed requests ended.
export function saidOf(path, { result, before, by }) {
  const failed = result.totals.failed;
  const gate = /^gates\.(\w+)$/.exec(path);
  const on = gate && result.request.gates && result.request.gates[gate[1]];
  if (SWITCH_SAID[path]) return getPath(result.request, path) ? SWITCH_SAID[path](result) : '';
  if (on && SEND_GATES[gate[1]]) return SEND_GATES[gate[1]](result);
  if (on) {
    const breaker = gate[1] === 'breaker';
    const n = failed[breaker ? 'circuit-open' : `gate-${gate[1]}`] || 0;
    const what = breaker ? ['attempt', 'attempts'] : ['retry', 'retries'];
    return n ? `In the run on show it refused ${num(n)} ${n === 1 ? what[0] : what[1]}, each ending its request there.`
      : `In the run on show it refused no ${what[0]}: it let every one through, so it changes nothing in this run.`;
  }
  if (gate || path !== by || !before || JSON.stringify(before.totals) !== JSON.stringify(result.totals) || verdictOf(before).kind !== verdictOf(result).kind) return '';
  const reasons = Object.entries(failed).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
  const all = reasons.reduce((a, [, n]) => a + n, 0);
  const outOf = reasons.length > 0 && reasons[0][0] === 'attempt-limit';
  const moves = ['policy.baseBackoffMs', 'policy.backoffMultiplier', 'policy.jitter'].includes(path);
  return `This left every total and the verdict as they were.${outOf ? ` Of ${num(all)} failed requests, ${num(reasons[0][1])} still ended out of attempts${moves ? ': backoff and jitter move retries in time, but each of those requests still sent every retry it had.' : '.'}` : ''}`;
}

// Each `[data-said]` line in `root` for the run on show.
export function drawSaid(root, shown) {
  for (const el of root.querySelectorAll('[data-said]')) {
    const text = saidOf(el.dataset.said, shown);
    if (el.textContent !== text) el.textContent = text;
  }
}
