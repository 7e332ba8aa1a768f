// The closed forms of docs/metastability.md, computed from a fleet request as the engine echoes
// it (FLEET.md §3), so that the page draws each beside the runs that test it. Pure (no DOM):
//   stormEdge(echo)     — §1: the lower and upper edges of the bistable band in offered load;
//   fluidRun / fluidEdge — §2: the fluid model of the service workload and its shortest trigger
//                          that stays metastable;
//   collapseEdges(echo) — §3: Brooker's collapse model, where its good state ends and its bad
//                          state begins.
// Each returns null with a reason (`why`) where the request is outside what the form models.

const workersOf = (echo) => echo.server.workers;

// The rate of first attempts the fleet offers, per second (open arrivals only).
export const offeredRate = (echo) => echo.clients * echo.ratePerClient;

// §1. A fleet whose every request makes N = maxRetries + 1 attempts, each timing out, offers the
// server N·λ attempts a second; the server finishes μ = workers × 1000 / serviceMs a second. The
// storm sustains itself iff N·λ ≥ μ; the good state (every first attempt answered in time) holds
// only while λ < μ. Between the two the fleet is bistable: which state it is in depends on its
// history (a trigger), not on its load.
export function stormEdge(echo) {
  const w = workersOf(echo);
  if (w === null) return { why: 'the server has no worker limit, so no fixed capacity' };
  if (echo.server.serviceMs === 0) return { why: 'a service time of 0 gives no fixed capacity' };
  if (echo.server.serviceMsPerInFlight !== 0) return { why: 'service grows with the work in flight: that is the collapse model (§3)' };
  const attempts = echo.policy.maxRetries + 1;
  const capacity = (w * 1000) / echo.server.serviceMs;
  const lower = capacity / attempts;
  const lambda = offeredRate(echo);
  const state = lambda >= capacity ? 'overloaded' : lambda >= lower ? 'bistable' : 'stable';
  return { attempts, capacity, lower, upper: capacity, lambda, state, lowerPerClient: lower / echo.clients, upperPerClient: capacity / echo.clients };
}

// The backoff wait after failure n (SPEC §4 without jitter's draw; full and equal jitter by
// their means), or null for a jitter the fluid model does not average.
function meanBackoff(policy, n) {
  let p = 1;
  for (let i = 1; i < n; ++i) p *= policy.backoffMultiplier;
  let b = policy.baseBackoffMs === 0 ? 0 : policy.baseBackoffMs * p;
  if (policy.maxBackoffMs !== null && policy.maxBackoffMs !== undefined) b = Math.min(policy.maxBackoffMs, b);
  if (policy.jitter === 'none') return b;
  if (policy.jitter === 'full') return b / 2;
  if (policy.jitter === 'equal') return (3 * b) / 4;
  return null;
}

const meanLeg = (net) => (net.dist === 'fixed' ? net.ms : net.dist === 'uniform' ? (net.lo + net.hi) / 2 : net.mean);

// Why the fluid model (§2) cannot stand for this request, or null when it can.
export function fluidUnfit(echo) {
  if (echo.workload !== 'service') return 'it models the service workload';
  if (echo.arrivals !== 'poisson' && echo.arrivals !== 'uniform') return `it models open arrivals, not “${echo.arrivals}”`;
  if (workersOf(echo) === null || echo.server.serviceMs === 0) return 'it needs a worker limit and a service time';
  if (echo.server.serviceMsPerInFlight !== 0) return 'it models a fixed service time';
  if (echo.server.queueLimit !== null || echo.server.dropStale !== 'never' || echo.server.queueOrder !== 'fifo') return 'it models an unbounded first-in first-out queue that drops nothing';
  if (echo.server.failureRate !== 0) return 'it models a server that never fails an attempt';
  if (!echo.policy.retryOn.includes('timeout')) return 'it models retries after timeouts';
  if (echo.policy.deadlineMs !== null) return 'it models no deadline';
  if (Object.values(echo.gates).some(Boolean)) return 'it models no gate';
  if (meanBackoff(echo.policy, 1) === null) return 'it averages no decorrelated jitter';
  if (!echo.trigger || echo.trigger.kind !== 'slowdown') return 'it models a slowdown trigger';
  return null;
}

// The recovery rule of FLEET.md §8 (five-bin windows) applied to the model's bins:
// { recoveredAtMs, metastable, disrupted }.
export function windowVerdict(created, succeeded, { binMs, durationMs, startMs, endMs }) {
  const last = Math.floor(durationMs / binMs) - 1; // L: the last bin ending at or before durationMs
  const healthy = (e) => {
    let c = 0;
    let s = 0;
    for (let b = e - 4; b <= e; ++b) {
      if (b < 0 || b >= created.length) continue;
      c += created[b];
      s += succeeded[b];
    }
    return s >= 0.9 * c - 1e-9 * c;
  };
  const good = [];
  for (let e = 0; e <= last; ++e) good[e] = healthy(e);
  let recoveredAtMs = null;
  let allAfter = true;
  const first = Math.ceil(endMs / binMs);
  for (let b = last - 4; b >= first; --b) {
    allAfter = allAfter && good[b + 4];
    if (allAfter) recoveredAtMs = b * binMs;
    else break;
  }
  let disrupted = false;
  for (let e = 0; e <= last; ++e) if ((e + 1) * binMs > startMs && !good[e]) disrupted = true;
  return { recoveredAtMs, metastable: durationMs - endMs >= 5 * binMs && recoveredAtMs === null, disrupted };
}

// §2. The fluid model: the fleet's attempts as a continuous flow, stepped every `dtMs`. First
// attempts are sent at λ (the spike's factor applied); each reaches the server one mean leg
// later and joins a first-in first-out queue; the server starts workers × dt ÷ (serviceMs × f)
// of it each step, f the slowdown's factor while it lasts. Flow whose service starts at s is in
// time iff s + serviceMs × f + leg ≤ its send + clientTimeoutMs, and then ends its request with
// a success one leg after its service. At send + clientTimeoutMs the flow not yet in time times
// out and, if attempts remain, is sent again after the mean backoff for that failure.
// Returns { created, succeeded } per bin, the recovery rule's verdict, and when flow first timed out.
export function fluidRun(echo, { dtMs = 5 } = {}) {
  const trig = echo.trigger;
  const { binMs, durationMs } = echo;
  const leg = meanLeg(echo.network);
  const legSteps = Math.round(leg / dtMs);
  const T = echo.policy.clientTimeoutMs;
  const maxAttempts = echo.policy.maxRetries + 1;
  const S = echo.server.serviceMs;
  const W = workersOf(echo);
  const rate = offeredRate(echo) / 1000; // per ms
  const spike = echo.spike;
  const bins = Math.floor(durationMs / binMs);
  const created = new Float64Array(bins);
  const succeeded = new Float64Array(bins);
  const steps = Math.ceil(durationMs / dtMs);
  const backoffSteps = [];
  for (let n = 1; n < maxAttempts; ++n) backoffSteps[n] = Math.round(meanBackoff(echo.policy, n) / dtMs);
  const timeoutSteps = Math.round(T / dtMs);
  // Every leg takes the same time, so the flow reaches the server, is served and meets its
  // waiting limit in the order it was sent: one list of packets in send order, three heads.
  let room = 2 * steps + 16;
  let sendStep = new Int32Array(room);
  let attempt = new Int32Array(room);
  let mass = new Float64Array(room);
  let left = new Float64Array(room);
  let inTime = new Float64Array(room);
  let count = 0;
  let arrived = 0; // packets before this one have reached the server
  let served = 0; // packets before this one have been served in full
  let limited = 0; // packets before this one have met their waiting limit
  let firstTimeoutMs = null; // when flow first timed out
  // Retries waiting to be sent, per attempt number, each list in the order they fall due.
  const due = Array.from({ length: maxAttempts + 1 }, () => ({ step: [], mass: [], head: 0 }));
  const grow = (a) => {
    const b = new a.constructor(room);
    b.set(a);
    return b;
  };
  const push = (i, n, m) => {
    if (count === sendStep.length) {
      room *= 2;
      [sendStep, attempt, mass, left, inTime] = [grow(sendStep), grow(attempt), grow(mass), grow(left), grow(inTime)];
    }
    sendStep[count] = i;
    attempt[count] = n;
    mass[count] = m;
    left[count] = m;
    inTime[count] = 0;
    count += 1;
  };
  for (let i = 0; i < steps; ++i) {
    const t = i * dtMs;
    // Sends: first attempts, then the retries due now.
    const spiked = spike && t >= spike.startMs && t < spike.endMs ? spike.factor : 1;
    const first = rate * spiked * dtMs;
    created[Math.floor(t / binMs)] += first;
    if (first > 0) push(i, 1, first);
    for (let n = 2; n <= maxAttempts; ++n) {
      const d = due[n];
      while (d.head < d.step.length && d.step[d.head] <= i) push(i, n, d.mass[d.head++]);
    }
    while (arrived < count && sendStep[arrived] + legSteps <= i) arrived += 1;
    // Service: first in first out, this step's capacity.
    const f = trig && t >= trig.startMs && t < trig.endMs ? trig.factor : 1;
    let capacity = (W * dtMs) / (S * f);
    const answerMs = t + S * f + leg;
    const answerBin = Math.floor(answerMs / binMs);
    while (capacity > 1e-12 && served < arrived) {
      const x = Math.min(capacity, left[served]);
      left[served] -= x;
      capacity -= x;
      if (answerMs <= sendStep[served] * dtMs + T) {
        inTime[served] += x;
        if (answerBin < bins) succeeded[answerBin] += x;
      }
      if (left[served] <= 1e-12) served += 1;
    }
    // Waiting limits: the flow not in time times out, and is sent again if attempts remain.
    while (limited < count && sendStep[limited] + timeoutSteps <= i) {
      const n = attempt[limited];
      const timedOut = mass[limited] - inTime[limited];
      if (timedOut > 1e-9 && firstTimeoutMs === null) firstTimeoutMs = t;
      if (n < maxAttempts && timedOut > 1e-12) {
        const at = i + backoffSteps[n];
        if (at < steps) {
          const d = due[n + 1];
          d.step.push(at);
          d.mass.push(timedOut);
        }
      }
      limited += 1;
    }
  }
  const verdict = windowVerdict(created, succeeded, { binMs, durationMs, startMs: trig ? trig.startMs : 0, endMs: trig ? trig.endMs : 0 });
  return { created, succeeded, verdict, firstTimeoutMs };
}

// The shortest slowdown (from the request's own start, with `factor`) after which the fluid
// model is metastable, to `resolutionMs`; null when even the longest that leaves five bins is not.
// { lengthMs, why }: `why` says why there is no line (fluidUnfit) when there is none.
export function fluidEdge(echo, factor, options = {}) {
  const steps = fluidEdgeSteps(echo, factor, options);
  for (;;) {
    const { done, value } = steps.next();
    if (done) return value;
  }
}

// The same, one model run per step of the generator (the page takes one step per task, so that
// no task of its main thread runs long); its return value is fluidEdge's.
export function* fluidEdgeSteps(echo, factor, { resolutionMs = 50, dtMs = 5 } = {}) {
  const unfit = fluidUnfit(echo);
  if (unfit) return { lengthMs: null, why: unfit };
  const start = echo.trigger.startMs;
  const longest = echo.durationMs - 5 * echo.binMs - start;
  if (longest <= 0) return { lengthMs: null, why: 'the slowdown starts too late to judge' };
  const stays = (lengthMs) => fluidRun({ ...echo, trigger: { ...echo.trigger, factor, endMs: start + lengthMs } }, { dtMs }).verdict.metastable;
  const last = stays(longest);
  yield;
  if (!last) return { lengthMs: null, why: `no slowdown of ×${factor} up to ${longest / 1000} s leaves it down` };
  let lo = 0;
  let hi = longest;
  while (hi - lo > resolutionMs) {
    const mid = Math.round((lo + hi) / 2 / dtMs) * dtMs;
    if (mid <= lo || mid >= hi) break;
    if (stays(mid)) hi = mid;
    else lo = mid;
    yield;
  }
  return { lengthMs: hi, why: null };
}

// §3. Brooker's collapse model (FLEET.md §9.8): no worker limit, service taking
// s0 + c × (attempts in service) ms. At a steady attempt rate a (per ms), Little's law gives
// n = a × S and so S(a) = s0 / (1 − c × a), finite while a < 1 / c. An attempt is in time while
// S(a) + 2 × leg ≤ T. The good state (no retries: a = λ) holds while S(λ) ≤ T − 2 leg, that is
// λ ≤ λg = (1 − s0 / (T − 2 leg)) / c; the bad state (every attempt times out and is retried:
// a = N λ) holds while S(Nλ) > T − 2 leg, that is λ > λb = λg / N. Rates per second.
export function collapseEdges(echo) {
  if (echo.server.workers !== null) return { why: 'the collapse model has no worker limit' };
  const c = echo.server.serviceMsPerInFlight;
  const s0 = echo.server.serviceMs;
  if (c === 0) return { why: 'service does not grow with the work in flight' };
  if (echo.policy.retryOn.length !== 1 || echo.policy.retryOn[0] !== 'timeout') return { why: 'the collapse model retries timeouts only' };
  const room = echo.policy.clientTimeoutMs - 2 * meanLeg(echo.network);
  if (room <= s0) return { why: 'even an idle server answers after the timeout' };
  const attempts = echo.policy.maxRetries + 1;
  const good = ((1 - s0 / room) / c) * 1000;
  return { attempts, good, bad: good / attempts, ceiling: 1000 / c, room, lambda: offeredRate(echo) };
}

// docs/throttling.md §6's closed form of hedging: every network leg exponential with mean m, no
// queue and no service time (workers null, serviceMs 0), no retries, a copy every delayMs while
// none has answered (policy.hedging, maxAttempts k, no failure to hurry one). A copy's response
// time is two legs, Gamma(2, m): S(x) = P(> x) = e^(−x/m)(1 + x/m); copy i goes at i·d and the
// request waits for the first answer, so P(latency > x) = Π over the copies sent by x of
// S(x − i·d). Copy i is sent when none answered by i·d: Π_{j=1..i} S(j·d); the extra copies per
// request are their sum (the result's retries / firstAttempts). Quantiles by bisection to 1e-9 ms.
// §6's figures: m 5, d 20, k 2: 0.09158 extra copies, p99 33.19 → 28.84 ms, p99.9 46.17 → 36.14.
export function hedgingForm(echo) {
  const hedging = echo.policy && echo.policy.hedging;
  if (!hedging) return { why: 'the policy does not hedge' };
  if (hedging.kind === 'per-try-timeout') return { why: 'the closed form is gRPC A6’s: copies delayMs apart, not Envoy’s hedge on per-try timeout' };
  if (echo.network.dist !== 'exponential') return { why: 'the closed form takes exponential network legs' };
  if (echo.server.workers !== null || echo.server.serviceMs !== 0) return { why: 'the closed form has no queue and no service time (server.workers null, serviceMs 0)' };
  if (echo.server.failureRate !== 0 || echo.trigger) return { why: 'the closed form has no failure and no trigger' };
  const m = echo.network.mean;
  const d = hedging.delayMs;
  const k = hedging.maxAttempts;
  const leg2 = (x) => (x <= 0 ? 1 : Math.exp(-x / m) * (1 + x / m));
  const hedged = (x) => {
    let p = 1;
    for (let i = 0; i < k && i * d <= x; i += 1) p *= leg2(x - i * d);
    return p;
  };
  let extra = 0;
  let sent = 1;
  for (let i = 1; i < k; i += 1) {
    sent *= leg2(i * d);
    extra += sent;
  }
  const quantile = (survival, q) => {
    let lo = 0;
    let hi = m;
    while (survival(hi) > 1 - q) hi *= 2;
    while (hi - lo > 1e-9) {
      const mid = (lo + hi) / 2;
      if (survival(mid) > 1 - q) lo = mid;
      else hi = mid;
    }
    return hi;
  };
  const at = (survival) => Object.fromEntries([['p50', 0.5], ['p90', 0.9], ['p99', 0.99], ['p999', 0.999]].map(([name, q]) => [name, quantile(survival, q)]));
  return { mean: m, delayMs: d, copies: k, extraCopies: extra, plain: at(leg2), hedged: at(hedged), survival: { plain: leg2, hedged } };
}
