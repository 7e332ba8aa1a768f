// The single run's hedging (docs/throttling.md §6.1 and §8) through both bindings: compute() (the
// engine file) and retrysim give the worked figures and the identical JSON, and `hedging: null`
// is the run without it on every conformance case.
'use strict';

const assert = require('node:assert/strict');
const { test, before } = require('node:test');

const { loadEngine, loadCases, retrysimResult, asJson, firstDifference } = require('./support.js');

let engine;
before(async () => { engine = await loadEngine(); });

function both(inputs) {
  const wasm = asJson(engine.compute(inputs));
  const { status, result } = retrysimResult(inputs);
  assert.equal(status, 0);
  assert.equal(firstDifference(wasm, result), null);
  assert.equal(wasm.ok, true, JSON.stringify(wasm.errors));
  return wasm;
}

const a6Timeline = (more = {}) => ({
  scenario: 'script', script: [{ status: 200 }], operation: 'charge', responseMs: 2000, clientTimeoutMs: 5000,
  deadlineMs: 10000, maxRetries: 0, hedging: { maxAttempts: 4, delayMs: 500 }, ...more,
});
const perTry = (more = {}) => ({
  responseMs: 1500, scenario: 'script', script: [{ status: 200 }], operation: 'charge', maxRetries: 2,
  clientTimeoutMs: 1000, baseBackoffMs: 25, jitter: 'none', deadlineMs: 10000, idempotencyKey: false, ...more,
});

test('A6\'s timeline: copies at 0, 500, 1,000, 1,500; one success, four charges (§6.1)', () => {
  const r = both(a6Timeline());
  assert.deepEqual(r.attempts.map((a) => [a.startMs, a.hedge, a.chargeNumber, a.commitMs]),
    [[0, false, 1, 2000], [500, true, 2, 2500], [1000, true, 3, 3000], [1500, true, 4, 3500]]);
  assert.deepEqual(r.attempts.map((a) => a.clientClass), ['success', 'cancelled', 'cancelled', 'cancelled']);
  const m = r.metrics;
  assert.deepEqual([m.attempts, m.charges, m.duplicates, m.hedges, m.lateAnswers, m.elapsedMs, m.outcome],
    [4, 4, 3, 3, 3, 2000, 'success']);
  assert.equal(r.events.filter((e) => e.kind === 'cancel').length, 3);
  // With a key: three 409s, one charge.
  const keyed = both(a6Timeline({ idempotencyKey: true }));
  assert.deepEqual([keyed.metrics.charges, keyed.metrics.replays], [1, 0]);
  assert.deepEqual(keyed.attempts.map((a) => a.server), ['200', '409', '409', '409']);
});

test('§8\'s single run: without hedging three charges and attempt-limit at 3,075; hedged success at 1,500 with two, one with a key', () => {
  const plain = both(perTry());
  assert.deepEqual([plain.metrics.charges, plain.metrics.elapsedMs, plain.metrics.stopReason, plain.metrics.outcome],
    [3, 3075, 'attempt-limit', 'unknown']);
  const hedged = both(perTry({ hedging: { kind: 'per-try-timeout' } }));
  assert.deepEqual([hedged.metrics.charges, hedged.metrics.elapsedMs, hedged.metrics.outcome], [2, 1500, 'success']);
  assert.deepEqual(hedged.attempts.map((a) => a.startMs), [0, 1025]);
  assert.deepEqual(hedged.inputs.hedging, { kind: 'per-try-timeout' });
  const keyed = both(perTry({ hedging: { kind: 'per-try-timeout' }, idempotencyKey: true }));
  assert.equal(keyed.metrics.charges, 1);
});

test('hedging: null is the run without it on every conformance case, in both bindings', () => {
  for (const c of loadCases()) {
    if (!c.inputs || typeof c.inputs !== 'object' || Array.isArray(c.inputs)) continue;
    const before = asJson(engine.compute(c.inputs));
    const after = asJson(engine.compute({ ...c.inputs, hedging: null }));
    assert.equal(firstDifference(before, after), null, c.name || c.id);
  }
  assert.equal(firstDifference(both({ hedging: null }), asJson(engine.compute({}))), null);
});
