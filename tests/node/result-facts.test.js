// Facts the result says in data so that the page need not work them out (issue 31): an attempt's
// `scripted` (docs/engine.md §5: the client received the answer of the script entry drawn) and a
// fleet bin's `capacity` (docs/fleet.md "The capacity in each bin"), through both bindings: the
// engine files and retrysim. The figures are the docs', worked by hand.
'use strict';

const assert = require('node:assert/strict');
const { test, before } = require('node:test');

const { loadEngine, loadFleetEngine, retrysimResult, asJson, firstDifference, fleetInBothBindings } = require('./support.js');

let engine;
let fleetEngine;
before(async () => {
  engine = await loadEngine();
  fleetEngine = await loadFleetEngine();
});

function both(inputs) {
  const wasm = asJson(engine.compute(inputs));
  const { status, result } = retrysimResult(inputs);
  assert.equal(status, 0);
  assert.equal(firstDifference(wasm, result), null);
  assert.equal(wasm.ok, true, JSON.stringify(wasm.errors));
  return wasm;
}
const scripted = (inputs) => both(inputs).attempts.map((a) => a.scripted);

test('scripted: both entries of [503 with Retry-After: 2, 200] reach the client; after a 50 ms timeout none does', () => {
  const inputs = { scenario: 'script', script: [{ status: 503, retryAfter: '2' }, { status: 200 }], responseMs: 100 };
  assert.deepEqual(scripted(inputs), [true, true]);
  const late = scripted({ ...inputs, clientTimeoutMs: 50 });
  assert.ok(late.length >= 2);
  assert.deepEqual(late, late.map(() => false));
});

test('scripted: a lost response, a replay and a dropped request are not the entry’s answer; the next 200 is', () => {
  assert.deepEqual(scripted({ idempotencyKey: true }), [false, false]);
  assert.deepEqual(scripted({}), [false, true]);
  assert.deepEqual(scripted({ scenario: 'request-lost' }), [false, true]);
});

test('scripted is exactly: the server answered a status and the client saw that status', () => {
  for (const scenario of ['response-lost', 'request-lost', 'outage-503-twice', 'bad-request-400']) {
    for (const idempotencyKey of [false, true]) {
      for (const a of both({ scenario, idempotencyKey }).attempts) {
        assert.equal(a.scripted, /^\d+$/.test(a.server) && a.clientSaw === a.server, `${scenario} ${idempotencyKey} attempt ${a.n}`);
      }
    }
  }
});

const bins = (request) => fleetInBothBindings(fleetEngine, request).timeline.bins.map((b) => b.capacity);

test('capacity, the opening run: 200 a bin, 50 in the ×4 slowdown from 10 to 20 s', () => {
  const c = bins({});
  assert.ok(c.length > 21);
  c.forEach((x, i) => assert.equal(x, i >= 10 && i < 20 ? 50 : 200, `bin ${i}`));
});

test('capacity over three servers with an override, a log-normal, a slowdown on one and a crash on another', () => {
  const c = bins({
    clients: 5, durationMs: 3000, binMs: 500,
    servers: { count: 3, overrides: [{ index: 1, workers: 4, serviceMs: 100 }, { index: 2, serviceDist: 'lognormal' }] },
    server: { serviceMsPerInFlight: 2 },
    trigger: { kind: 'slowdown', factor: 2, startMs: 1000, endMs: 2000, servers: [1] },
    faults: [{ kind: 'crash', servers: [0], startMs: 1500, endMs: 2500 }],
  });
  assert.deepEqual(c.slice(0, 5), [138.7580245677014, 138.7580245677014, 129.49876530844216, 58.07019387987072, 67.32945313912998]);
  c.slice(5).forEach((x) => assert.equal(x, 138.7580245677014));
});

test('capacity with no worker limit: null while the server is up, 0 in its outage', () => {
  const c = bins({ server: { workers: null }, trigger: { kind: 'outage', startMs: 10000, endMs: 20000 } });
  c.forEach((x, i) => assert.equal(x, i >= 10 && i < 20 ? 0 : null, `bin ${i}`));
});

// `waitShape` (docs/engine.md §5): what made the wait's figure.
const shapes = (inputs) => both(inputs).attempts.map((a) => a.waitShape);

test('waitShape, the worked run: 200 ms the rule’s, 100 raised to the 150 ms minimum, 1,800 the rule’s', () => {
  const inputs = { operation: 'read', scenario: 'script', script: [{ status: 503 }, { status: 503 }, { status: 503 }, { status: 200 }], jitter: 'full', draws: [0.4, 0.1, 0.9], minBackoffMs: 150 };
  assert.deepEqual(shapes(inputs), ['rule', 'minimum', 'rule', 'none']);
  assert.deepEqual(shapes({ scenario: 'script', script: [{ status: 503, retryAfter: '1' }, { status: 503, retryAfter: '0' }, { status: 200 }], retryAfterMode: 'at-least' }), ['header', 'above-header', 'none']);
  assert.deepEqual(shapes({ scenario: 'script', script: [{ status: 503, retryAfter: '2' }, { status: 200 }], retryAfterMaxMs: 1500 }), ['header-over-max', 'none']);
  assert.deepEqual(shapes({ firstRetryImmediate: true }), ['immediate', 'none']);
});

test('waitShape under full jitter: rule exactly when the wait is ceilingMs × draw, minimum exactly when that was below the minimum', () => {
  for (const minBackoffMs of [0, 120, 400]) {
    for (const seed of [1, 2, 3, 4, 5]) {
      const r = both({ operation: 'read', scenario: 'script', script: [{ status: 503 }], jitter: 'full', seed, minBackoffMs, maxRetries: 6, deadlineMs: null });
      for (const a of r.attempts) {
        if (a.waitAfterMs === null) { assert.equal(a.waitShape, 'none'); continue; }
        const figure = a.ceilingMs * a.draw;
        assert.equal(a.waitShape, figure < minBackoffMs ? 'minimum' : 'rule', `seed ${seed}, min ${minBackoffMs}, attempt ${a.n}`);
        assert.equal(a.waitAfterMs, a.waitShape === 'rule' ? figure : minBackoffMs);
      }
    }
  }
});
