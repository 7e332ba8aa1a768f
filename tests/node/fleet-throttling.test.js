// docs/throttling.md §3–§5 (issue 34) through both bindings: §4's worked figure (the server's
// admission limit throttles client 1, whose adaptive limiter then holds its retry to 1,990), as
// worked there by hand, through the fleet engine file's fleet() and through `retrysim --fleet`,
// the two results identical; the new fields absent from the echo and the result when not given.
'use strict';

const assert = require('node:assert/strict');
const { test, before } = require('node:test');

const { loadFleetEngine, runRetrysim, asJson, firstDifference } = require('./support.js');

let fleetEngine;
before(async () => {
  fleetEngine = await loadFleetEngine();
});

// Both bindings, the same JSON.
function bothBindings(request) {
  const wasm = asJson(fleetEngine.fleet(request));
  const run = runRetrysim(JSON.stringify(request), ['--fleet']);
  assert.equal(run.status, 0, run.stderr);
  const native = JSON.parse(run.stdout);
  assert.equal(firstDifference(wasm, native), null);
  assert.equal(wasm.ok, true, JSON.stringify(wasm.errors));
  return wasm;
}

const figure = {
  clients: 2, arrivals: 'once', trigger: null, network: { dist: 'fixed', ms: 5 },
  server: { admission: { scope: 'fleet', ratePerSecond: 1, burst: 1 } },
  policy: { retryOn: ['429'], baseBackoffMs: 0 },
  gates: { adaptive: {} },
};

test('§4\'s worked figure: client 1\'s retry held to 1,990, latency 2,050, gateWaitMs 1,980, in both bindings', () => {
  const r = bothBindings(figure);
  // Client 0 served 5–55 (200 at 60); client 1's 429 at 5 (at 10); its retry sent at 1,990, served 1,995–2,045.
  assert.deepEqual(
    { attempts: r.totals.attempts, retries: r.totals.retries, throttled: r.totals.throttled, succeeded: r.totals.succeeded },
    { attempts: 3, retries: 1, throttled: 1, succeeded: 2 });
  assert.equal(r.totals.latencyMs.p50, 60);
  assert.equal(r.totals.latencyMs.max, 2050);
  assert.equal(r.totals.endMs, 2050);
  assert.deepEqual(r.timeline.bins.map((b) => b.gateWaitMs), [1980, 0, 0]);
  assert.deepEqual(r.timeline.bins.map((b) => b.throttled), [1, 0, 0]);
  assert.deepEqual(r.timeline.bins.map((b) => b.retries), [0, 1, 0]);
  // The echo holds what was given, with the defaults filled in.
  assert.deepEqual(r.request.server.admission, { scope: 'fleet', ratePerSecond: 1, burst: 1, answerMs: 0, retryAfterMs: null });
  assert.deepEqual(r.request.gates.adaptive, { scope: 'client' });
  assert.equal(r.request.gates.local, undefined);
  assert.equal('local-throttle' in r.totals.failed, false);
});

test('client-side throttling in both bindings: local-throttle counted, before unfinished', () => {
  const r = bothBindings({
    clients: 1, ratePerClient: 200, durationMs: 20000, trigger: null,
    server: { workers: null, admission: { ratePerSecond: 20, burst: 20 } },
    policy: { maxRetries: 0 }, gates: { local: {} },
  });
  const reasons = Object.keys(r.totals.failed);
  assert.equal(reasons[reasons.length - 2], 'local-throttle');
  assert.ok(r.totals.failed['local-throttle'] > 0);
  // Every request: sent (and answered) or refused at its send.
  assert.equal(r.totals.attempts + r.totals.failed['local-throttle'], r.totals.requests);
  assert.deepEqual(r.request.gates.local, { scope: 'client', windowMs: 30000, bins: 100, ratio: 2, padding: 8 });
});

test('without the new fields, or with them null, the echo and the result have none of their keys', () => {
  const plain = bothBindings({ clients: 5, durationMs: 5000 });
  const nulls = bothBindings({ clients: 5, durationMs: 5000, server: { admission: null }, gates: { adaptive: null, local: null } });
  assert.equal(firstDifference(plain, nulls), null);
  assert.equal('admission' in plain.request.server, false);
  assert.deepEqual(Object.keys(plain.request.gates), ['quota', 'bucket', 'throttle', 'budget', 'breaker']);
  assert.equal('throttled' in plain.totals, false);
  assert.equal('gateWaitMs' in plain.timeline.bins[0], false);
  // A bad one is named by its path, in both.
  const bad = { gates: { local: { bins: 0 } }, server: { admission: { burst: 0 } } };
  const wasm = asJson(fleetEngine.fleet(bad));
  const native = JSON.parse(runRetrysim(JSON.stringify(bad), ['--fleet']).stdout);
  assert.equal(firstDifference(wasm, native), null);
  assert.deepEqual(wasm.errors.map((e) => e.field), ['server.admission.burst', 'gates.local.bins']);
});
