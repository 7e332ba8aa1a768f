// docs/throttling.md §3–§5 and §7 (issue 34) through both bindings: §4's worked figure (the server's
// admission limit throttles client 1, whose adaptive limiter then holds its retry to 1,990) and
// §7.4's (Envoy's admission control rejects attempts 3 and 4 at 120), as worked there by hand,
// through the fleet engine file's fleet() and through `retrysim --fleet`, the two results
// identical; the new fields absent from the echo and the result when not given.
'use strict';

const assert = require('node:assert/strict');
const { test, before } = require('node:test');

const { loadFleetEngine, runRetrysim, asJson, firstDifference, fleetInBothBindings } = require('./support.js');

let fleetEngine;
before(async () => {
  fleetEngine = await loadFleetEngine();
});

const bothBindings = (request) => fleetInBothBindings(fleetEngine, request);

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

test('§4.1\'s worked figure: the bins\' limiting and sendRate, client scope 0.5, 0.5, 1.6 and fleet scope 0.5, 0.5, 2 × (1.5 × 0.8), in both bindings', () => {
  // Client scope: client 1's limiter enabled by its 429 at 10 (fill 0.5), client 0's never (left out);
  // at 2,050 client 1's clocker: 2 responses over 2 s, measured 0.8; min(0.4 × 2.04³, 2 × 0.8) = 1.6.
  const c = bothBindings(figure);
  assert.deepEqual(c.timeline.bins.map((b) => [b.limiting, b.sendRate]), [[1, 0.5], [1, 0.5], [1, 2 * (1 * 0.8)]]);
  // The limiter's members sit after the bin's counts and before its queue (a bin's `capacity`, 3.2.0, comes last).
  const keys = Object.keys(c.timeline.bins[0]);
  assert.deepEqual(keys.slice(keys.indexOf('gateWaitMs'), keys.indexOf('gateWaitMs') + 4), ['gateWaitMs', 'limiting', 'sendRate', 'queue']);
  // Fleet scope: one limiter hears all three; at 2,050 3 responses over 2 s, measured 1.5 × 0.8 (1.2000000000000002).
  const f = bothBindings({ ...figure, gates: { adaptive: { scope: 'fleet' } } });
  assert.deepEqual(f.timeline.bins.map((b) => [b.limiting, b.sendRate]), [[1, 0.5], [1, 0.5], [1, 2 * (1.5 * 0.8 + 0 * (1 - 0.8))]]);
  assert.equal(f.timeline.bins[2].sendRate, 2.4000000000000004);
  // No admission limit, no 429: no limiter enabled, every bin 0 and null.
  const none = bothBindings({ ...figure, server: {} });
  assert.ok(none.timeline.bins.every((b) => b.limiting === 0 && b.sendRate === null));
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

const admissionFigure = {
  clients: 1, arrivals: 'once', seed: 1, network: { dist: 'fixed', ms: 5 },
  server: { serviceMs: 50, failureRate: 1 }, trigger: null,
  policy: { maxRetries: 3, baseBackoffMs: 0 },
  gates: { admissionControl: {} },
};

test('§7.4\'s fleet figure: attempts 3 and 4 rejected at 120, attempt-limit at 120, in both bindings; 240 without the gate', () => {
  const r = bothBindings(admissionFigure);
  // Sent at 0 and 60 (500s at 60 and 120, recorded (1, 0) and (2, 0)); at 120 p = 2 / 3 rejects draws 0.4159… and 0.5334….
  assert.deepEqual(
    { attempts: r.totals.attempts, retries: r.totals.retries, served: r.totals.served,
      admissionRejected: r.totals.admissionRejected, attemptLimit: r.totals.failed['attempt-limit'], endMs: r.totals.endMs },
    { attempts: 2, retries: 1, served: 2, admissionRejected: 2, attemptLimit: 1, endMs: 120 });
  assert.deepEqual(r.timeline.bins.map((b) => b.admissionRejected), [2]);
  // After outageRejected (and throttled, when there), before late; in the bins after served.
  const keys = Object.keys(r.totals);
  assert.equal(keys[keys.indexOf('outageRejected') + 1], 'admissionRejected');
  const binKeys = Object.keys(r.timeline.bins[0]);
  assert.equal(binKeys[binKeys.indexOf('served') + 1], 'admissionRejected');
  assert.deepEqual(r.request.gates.admissionControl,
    { scope: 'client', windowMs: 30000, srThreshold: 95, aggression: 1, rpsThreshold: 0, maxRejectionProbability: 80 });

  const free = bothBindings({ ...admissionFigure, gates: {} });
  assert.equal(free.totals.attempts, 4);
  assert.equal(free.totals.endMs, 240);
  assert.equal('admissionRejected' in free.totals, false);
  assert.equal('admissionControl' in free.request.gates, false);
});

test('without the new fields, or with them null, the echo and the result have none of their keys', () => {
  const plain = bothBindings({ clients: 5, durationMs: 5000 });
  const nulls = bothBindings({
    clients: 5, durationMs: 5000, server: { admission: null }, gates: { adaptive: null, local: null, admissionControl: null },
  });
  assert.equal(firstDifference(plain, nulls), null);
  assert.equal('admission' in plain.request.server, false);
  assert.deepEqual(Object.keys(plain.request.gates), ['quota', 'bucket', 'throttle', 'budget', 'breaker']);
  assert.equal('throttled' in plain.totals, false);
  assert.equal('gateWaitMs' in plain.timeline.bins[0], false);
  assert.equal('limiting' in plain.timeline.bins[0], false);
  assert.equal('sendRate' in plain.timeline.bins[0], false);
  // A bad one is named by its path, in both.
  const bad = { gates: { local: { bins: 0 }, admissionControl: { aggression: 0 } }, server: { admission: { burst: 0 } } };
  const wasm = asJson(fleetEngine.fleet(bad));
  const native = JSON.parse(runRetrysim(JSON.stringify(bad), ['--fleet']).stdout);
  assert.equal(firstDifference(wasm, native), null);
  assert.deepEqual(wasm.errors.map((e) => e.field),
    ['server.admission.burst', 'gates.local.bins', 'gates.admissionControl.aggression']);
  // windowMs in whole seconds, in both.
  const half = { gates: { admissionControl: { windowMs: 1500 } } };
  const halfWasm = asJson(fleetEngine.fleet(half));
  assert.equal(firstDifference(halfWasm, JSON.parse(runRetrysim(JSON.stringify(half), ['--fleet']).stdout)), null);
  assert.deepEqual(halfWasm.errors.map((e) => e.field), ['gates.admissionControl.windowMs']);
});
