// sweep() (docs/engine.md §3) through both bindings: the seed's boundaries, and the same
// result from compute()'s WebAssembly engine and from `retrysim --sweep`.
'use strict';

const assert = require('node:assert/strict');
const { test, before } = require('node:test');

const { loadEngine, runRetrysim, runRetrysimEach, asJson, firstDifference, seededRandom } = require('./support.js');

let engine;
before(async () => {
  engine = await loadEngine();
});

function nativeSweep(request) {
  return nativeSweepOf(runRetrysim(JSON.stringify(request), ['--sweep']));
}

// nativeSweep's answer from a run already made (runRetrysimEach's).
function nativeSweepOf(run) {
  return { status: run.status, result: JSON.parse(run.stdout) };
}

test('a deadline sweep over the opening run names the second charge at 3,700 ms', () => {
  const result = engine.sweep({ vary: 'deadlineMs', from: 3000, to: 4000, points: 11 });
  assert.equal(result.ok, true);
  assert.equal(result.boundaries.length, 1);
  assert.equal(result.boundaries[0].value, 3700);
  assert.match(result.boundaries[0].text, /a second charge.* from a deadline of 3,700 ms$/);
});

test('the outage sweep over maximum retries finds the boundary between 1 and 2', () => {
  const result = engine.sweep({ inputs: { scenario: 'outage-503-twice' }, vary: 'maxRetries', from: 0, to: 6, points: 7 });
  const charged = result.boundaries.find((b) => b.chargesAfter === 1);
  assert.equal(charged.value, 2);
  assert.equal(result.points[1].charges, 0);
  assert.equal(result.points[2].charges, 1);
});

test('a bad sweep request is an error object naming its fields, never a throw', () => {
  for (const bad of [null, 3, { vary: 'seed', from: 0, to: 1, points: 2 }, { vary: 'deadlineMs', from: 0, to: 1, points: 1e9 },
    { inputs: { maxRetries: -1 }, vary: 'deadlineMs', from: 0, to: 1, points: 2 }]) {
    const result = engine.sweep(bad);
    assert.equal(result.ok, false, JSON.stringify(bad));
    assert.ok(result.errors.length > 0);
  }
  assert.equal(engine.sweep({ inputs: { maxRetries: -1 }, vary: 'deadlineMs', from: 0, to: 1, points: 2 }).errors[0].field,
    'inputs.maxRetries');
});

test('WebAssembly and retrysim --sweep give the same sweep for generated requests', () => {
  const rng = seededRandom(3700);
  const fields = [['deadlineMs', 0, 20000], ['clientTimeoutMs', 1, 5000], ['baseBackoffMs', 0, 3000], ['responseMs', 0, 1000],
    ['maxRetries', 0, 10]];
  const requests = Array.from({ length: 40 }, () => {
    const [vary, lo, hi] = rng.pick(fields);
    const from = rng.int(lo, Math.floor((lo + hi) / 2));
    return {
      inputs: {
        scenario: rng.pick(['response-lost', 'request-lost', 'outage-503-twice', 'bad-request-400']),
        idempotencyKey: rng.chance(0.5),
        jitter: rng.pick(['none', 'full', 'equal', 'decorrelated']),
        draws: [rng.next(), rng.next(), rng.next()],
        backoffMultiplier: rng.pick([1, 1.5, 2, 3]),
      },
      vary, from, to: rng.int(from + 1, hi), points: rng.int(2, 200),
    };
  });
  // Their retrysim --sweep runs, started by one shell (support.js runRetrysimEach).
  const runs = runRetrysimEach(requests.map((request) => ({ input: JSON.stringify(request), args: ['--sweep'] })));
  for (const [i, request] of requests.entries()) {
    const native = nativeSweepOf(runs[i]);
    assert.equal(native.status, 0, `request ${JSON.stringify(request)}: exit ${native.status}`);
    const difference = firstDifference(asJson(engine.sweep(request)), native.result);
    assert.equal(difference, null, `request ${JSON.stringify(request)}: ${difference}`);
  }
});

// Issue 18: a sweep runs its points over one working copy of the inputs (core/src/sweep.cpp),
// and a run reads a script where it is (core/src/simulate.cpp), instead of copying the draws and
// the script for every point. Each point must still be the run compute() gives at that value,
// whatever the points before it (and the bisection between them) set in the working copy.
test('every point of a sweep over a long script and many draws is the run compute() gives at its value', () => {
  const rng = seededRandom(18);
  const script = Array.from({ length: 60 }, () => rng.pick([{ status: 503 }, { status: 429, retryAfter: '1' }, { status: 500 },
    { status: 200 }, { status: 429, retryAfter: '0' }]));
  const draws = Array.from({ length: 500 }, () => rng.next());
  let boundaries = 0;
  for (const [vary, from, to] of [['deadlineMs', 0, 30000], ['baseBackoffMs', 0, 3000], ['maxRetries', 0, 12], ['clientTimeoutMs', 1, 4000]]) {
    const inputs = { scenario: 'script', script, draws, jitter: 'full', maxRetries: 8, retryOn: ['timeout', '429', '5xx'] };
    const result = engine.sweep({ inputs, vary, from, to, points: 41 });
    assert.equal(result.ok, true, vary);
    boundaries += result.boundaries.length;
    for (const point of result.points) {
      const run = engine.compute({ ...inputs, [vary]: point.value });
      assert.deepEqual(
        { attempts: point.attempts, charges: point.charges, outcome: point.outcome, elapsedMs: point.elapsedMs, replays: point.replays },
        { attempts: run.metrics.attempts, charges: run.metrics.charges, outcome: run.metrics.outcome, elapsedMs: run.metrics.elapsedMs,
          replays: run.metrics.replays },
        `${vary} = ${point.value}`);
    }
    for (const boundary of result.boundaries) {
      const at = engine.compute({ ...inputs, [vary]: boundary.value });
      assert.equal(at.metrics.charges, boundary.chargesAfter, `${vary}: at the boundary ${boundary.value}`);
    }
  }
  assert.ok(boundaries >= 3, 'the sweeps cross boundaries, so the bisection runs between points');
});

// The cost of those copies grew with the points: 1,000 points over 100,000 draws took 56 times
// a 2-point sweep of the same inputs (392 ms, issue 18). That is held without a clock by the
// core's tests (tests/core/sweep_cost_test.cpp, natively and as WebAssembly): every byte a sweep
// allocates is counted, and 998 more points cost exactly as much over 100,000 draws or 1,000
// answers as over none, and the inputs cost a sweep what they cost one compute(). Speed is
// measured by scripts/bench only.

test('a sweep refuses a field the run does not read (docs/engine.md §3): maxRetries with A6\'s hedging, in both bindings and retrysim\'s exit 2', () => {
  const a6 = {
    scenario: 'script', script: [{ status: 200 }], responseMs: 2000, clientTimeoutMs: 5000, maxRetries: 0,
    hedging: { maxAttempts: 4, delayMs: 500 },
  };
  for (const [inputs, vary] of [[a6, 'maxRetries'], [a6, 'baseBackoffMs'], [{ ceilingScheduleMs: [100, 200] }, 'baseBackoffMs']]) {
    const request = { inputs, vary, from: 0, to: 5, points: 6 };
    const wasm = asJson(engine.sweep(request));
    assert.equal(wasm.ok, false, vary);
    assert.deepEqual(wasm.errors.map((e) => [e.field, e.code]), [['vary', 'conflict']]);
    assert.match(wasm.errors[0].message, new RegExp(`^vary cannot be "${vary}" .*every point would be the same run\\.$`));
    const native = nativeSweep(request);
    assert.equal(native.status, 2);
    assert.equal(firstDifference(wasm, native.result), null);
  }
  // §8's per-try timeout reads maxRetries: its points differ (1 charge at 0 retries, 2 at 1).
  const perTry = {
    scenario: 'script', script: [{ status: 200 }], responseMs: 1500, maxRetries: 2, clientTimeoutMs: 1000,
    baseBackoffMs: 25, jitter: 'none', deadlineMs: 10000, hedging: { kind: 'per-try-timeout' },
  };
  const request = { inputs: perTry, vary: 'maxRetries', from: 0, to: 2, points: 3 };
  const wasm = asJson(engine.sweep(request));
  assert.deepEqual(wasm.points.map((p) => p.charges), [1, 2, 2]);
  const native = nativeSweep(request);
  assert.equal(native.status, 0);
  assert.equal(firstDifference(wasm, native.result), null);
});
