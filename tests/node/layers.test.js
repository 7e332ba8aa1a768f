// docs/layers.md through both bindings: §8.1, §8.5 and §8.6 in compute() (the engine file) and in
// retrysim give the figures the page works by hand and the identical JSON, and `layers: [{}]`
// is the run without layers on every conformance case (docs/layers.md §2).
'use strict';

const assert = require('node:assert/strict');
const { test, before } = require('node:test');

const { loadEngine, loadCases, runRetrysim, runRetrysimEach, asJson, sameInBothBindings } = require('./support.js');

let engine;
before(async () => { engine = await loadEngine(); });

// §8's common inputs.
const common = (script, more = {}) => ({
  scenario: 'script', script, operation: 'charge', responseMs: 200, jitter: 'none',
  deadlineMs: null, clientTimeoutMs: 60000, ...more,
});
const sre = (count, maxRetries) => Array.from({ length: count }, () => ({ maxRetries, baseBackoffMs: 0 }));
const seedStory = (agentKey, sdkKey) => ({
  scenario: 'response-lost', responseMs: 200, deadlineMs: null, clientTimeoutMs: 60000,
  layers: [
    { name: 'agent', maxRetries: 2, clientTimeoutMs: 2000, baseBackoffMs: 0, key: agentKey },
    { name: 'payment SDK', key: sdkKey, maxRetries: 2, clientTimeoutMs: 3000 },
  ],
});

// Both bindings' result, checked identical as JSON values.
function both(inputs) {
  return sameInBothBindings(asJson(engine.compute(inputs)), runRetrysim(JSON.stringify(inputs)));
}

const at = (r, path) => r.attempts.find((a) => a.path === path);

test('three layers of four attempts make 64 server attempts in both bindings (8.1)', () => {
  const r = both(common([{ status: 503 }], { layers: sre(3, 3) }));
  assert.equal(r.metrics.attempts, 64);
  assert.equal(r.metrics.elapsedMs, 12800);
  assert.equal(r.metrics.outcome, 'failed');
  assert.equal(r.metrics.agentReport, 'error 503');
  assert.equal(r.metrics.stopReason, 'attempt-limit');
  assert.deepEqual(r.metrics.layers.map((l) => [l.calls, l.attempts, l.retries]), [[1, 4, 3], [4, 16, 12], [16, 64, 48]]);
  const bottom = r.attempts.filter((a) => a.layer === 3);
  bottom.forEach((a, i) => {
    assert.equal(a.startMs, 200 * i);
    assert.equal(a.endMs, 200 * (i + 1));
  });
  const five = both(common([{ status: 503 }], { layers: sre(5, 2) }));
  assert.equal(five.metrics.attempts, 243);
  assert.equal(five.metrics.elapsedMs, 48600);
});

test('the seed\'s story stacked: a key per SDK call charges twice, the agent\'s key once (8.5)', () => {
  const minted = both(seedStory('none', 'mint'));
  assert.equal(minted.metrics.charges, 2);
  assert.equal(minted.metrics.duplicates, 1);
  assert.equal(minted.metrics.attempts, 2);
  assert.equal(minted.metrics.agentReport, 'success');
  assert.equal(at(minted, '1.1').key, 'op-0001.1');
  assert.equal(at(minted, '2.1').key, 'op-0001.2');
  const passed = both(seedStory('mint', 'pass'));
  assert.equal(passed.metrics.charges, 1);
  assert.equal(passed.metrics.replays, 1);
  assert.equal(at(passed, '2.1').server, 'replay');
  assert.equal(at(passed, '2.1').key, 'op-0001');
});

// 8.6: an agent that leaves its call over an SDK over an HTTP library, every answer a 503 at 60 ms.
const orphanRetrying = (agentTimeoutMs, sdkTimeoutMs) => common([{ status: 503 }], {
  responseMs: 60,
  layers: [
    { name: 'agent', clientTimeoutMs: agentTimeoutMs, maxRetries: 0, cancel: 'orphan' },
    { name: 'SDK', clientTimeoutMs: sdkTimeoutMs, maxRetries: 2, baseBackoffMs: 0 },
    { name: 'HTTP', maxRetries: 1, baseBackoffMs: 0 },
  ],
});

test('an orphan keeps retrying on its calls\' results, and its own cutoffs cancel below it, in both bindings (8.6)', () => {
  const r = both(orphanRetrying(100, 1000));
  assert.equal(r.metrics.attempts, 6);
  assert.equal(r.metrics.orphanAttempts, 4);
  assert.equal(r.metrics.lastWorkMs, 360);
  assert.equal(at(r, '1.1').endMs, 120);
  assert.deepEqual(r.metrics.layers.map((l) => [l.calls, l.attempts, l.orphaned, l.cancelled]), [[1, 1, 0, 0], [1, 3, 1, 0], [3, 6, 3, 0]]);
  const own = both(orphanRetrying(50, 90));
  assert.equal(own.metrics.attempts, 6);
  assert.equal(own.metrics.lastWorkMs, 300);
  assert.equal(at(own, '1.1.2').clientSaw, 'cancelled');
  assert.deepEqual(own.metrics.layers.map((l) => l.cancelled), [0, 0, 3]);
});

test('layers: [{}] is the run without layers on every conformance case, in both bindings', () => {
  const SPEC_KINDS = new Set(['send', 'commit', 'replay', 'conflict', 'server-error', 'request-lost',
    'response-lost', 'receive', 'timeout', 'deadline', 'wait', 'stop']);
  let compared = 0;
  const cases = loadCases().filter((c) => (c.inputs.callers ?? 1) === 1);  // layers are a single caller's
  const layeredInputs = (c) => ({ ...c.inputs, layers: [{}] });
  const runs = runRetrysimEach(cases.map((c) => ({ input: JSON.stringify(layeredInputs(c)) })));
  for (const [i, c] of cases.entries()) {
    const plain = asJson(engine.compute(c.inputs));
    const layered = sameInBothBindings(asJson(engine.compute(layeredInputs(c))), runs[i], c.name);
    for (const [key, value] of Object.entries(plain.metrics)) assert.deepEqual(layered.metrics[key], value, `${c.name}: metrics.${key}`);
    assert.equal(layered.attempts.length, plain.attempts.length, c.name);
    plain.attempts.forEach((row, i) => {
      for (const [key, value] of Object.entries(row)) assert.deepEqual(layered.attempts[i][key], value, `${c.name}: attempts[${i}].${key}`);
    });
    const events = (r) => r.events.filter((e) => SPEC_KINDS.has(e.kind)).map((e) => [e.tMs, e.kind, e.attempt]);
    assert.deepEqual(events(layered), events(plain), c.name);
    ++compared;
  }
  assert.ok(compared >= 100, `${compared} cases compared`);
});
