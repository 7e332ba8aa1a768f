// FLEET.md v3's verdict (§8: five-bin windows, recovery.disrupted) through both bindings, on
// the figures §9 states: §9.9's healthy fleet and §9.10's HotOS 2021 thresholds, each run
// through the fleet engine file's fleet() and through `retrysim --fleet`, which must agree.
// The expected verdicts are the text's, not the engine's own output.
'use strict';

const assert = require('node:assert/strict');
const { test, before } = require('node:test');

const { loadFleetEngine, fleetInBothBindings } = require('./support.js');

let fleetEngine;
before(async () => { fleetEngine = await loadFleetEngine(); });

const bothBindings = (request) => fleetInBothBindings(fleetEngine, request);

// §9.10: 30 workers of 100 ms (300 QPS), one retry after a 1 s timeout, a 2 s slowdown ×20 at 10 s.
const hotos = (extra) => ({
  durationMs: 600000,
  server: { workers: 30, serviceMs: 100 },
  policy: { clientTimeoutMs: 1000, maxRetries: 1, baseBackoffMs: 0, retryOn: ['timeout'] },
  trigger: { kind: 'slowdown', startMs: 10000, endMs: 12000, factor: 20 },
  ...extra,
});

test('§9.9: 18 clients, every request succeeds: not metastable, not disrupted, judged from the trigger’s end', () => {
  const r = bothBindings({ clients: 18 });
  assert.equal(r.totals.succeeded, r.totals.requests);
  assert.deepEqual(r.recovery, { triggerEndMs: 20000, recoveredAtMs: 20000, metastable: false, disrupted: false });
});

test('§9.10: HotOS 2021 §2.1 — 280 and 151 QPS stay metastable, 149 recovers at 361 s', () => {
  for (const clients of [280, 151]) {
    const r = bothBindings(hotos({ clients }));
    assert.equal(r.recovery.metastable, true, `${clients} clients`);
    assert.equal(r.recovery.recoveredAtMs, null, `${clients} clients`);
  }
  const below = bothBindings(hotos({ clients: 149 }));
  assert.deepEqual(below.recovery, { triggerEndMs: 12000, recoveredAtMs: 361000, metastable: false, disrupted: true });
});

test('§9.10: a fleet retry budget of 19 a second saves 280 QPS, 25 a second does not', () => {
  const budget = (minPerSecond) => ({ gates: { budget: { scope: 'fleet', percent: 0, minPerSecond, ttlMs: 10000 } } });
  const saved = bothBindings(hotos({ clients: 280, ...budget(19) }));
  assert.equal(saved.recovery.metastable, false);
  assert.notEqual(saved.recovery.recoveredAtMs, null);
  const storm = bothBindings(hotos({ clients: 280, ...budget(25) }));
  assert.equal(storm.recovery.metastable, true);
});
