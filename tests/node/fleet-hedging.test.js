// docs/throttling.md §8 in the fleet (issue 34): Envoy's hedge on per-try timeout,
// `policy.hedging: {kind: "per-try-timeout"}`, through both bindings (the fleet engine file's
// fleet() and `retrysim --fleet`, identical): §8's fleet figures as worked there by hand, the
// validation of the kind, and `kind: "a6"` against an absent kind on every conformance case.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { test, before } = require('node:test');

const { repo, loadFleetEngine, runRetrysim, asJson, firstDifference, fleetInBothBindings } = require('./support.js');

let fleetEngine;
before(async () => {
  fleetEngine = await loadFleetEngine();
});

const bothBindings = (request) => fleetInBothBindings(fleetEngine, request);

// §8's fleet figures: one client at 0, legs of 5, no worker limit, 1,500 ms of service, a per-try
// timeout of 1,000, waits 25, 50, 100 for failures 1, 2, 3, D = 10,000.
const perTry = (more = {}, policy = {}) => ({
  clients: 1, arrivals: 'once', trigger: null, network: { dist: 'fixed', ms: 5 },
  ...more,
  server: { workers: null, serviceMs: 1500, ...(more.server || {}) },
  policy: {
    maxRetries: 2, clientTimeoutMs: 1000, baseBackoffMs: 25, deadlineMs: 10000,
    hedging: { kind: 'per-try-timeout' }, ...policy,
  },
});
const timeouts = (r) => r.timeline.bins.reduce((sum, b) => sum + b.timeouts, 0);

test('§8\'s fleet figure: latency 1,510, charges 2, duplicateCharges 1; with a key 1 charge and 1 replay; unhedged attempt-limit at 3,075 with 3 charges', () => {
  const r = bothBindings(perTry());
  const t = r.totals;
  assert.deepEqual([t.succeeded, t.latencyMs.max, t.attempts, t.retries, t.charges, t.duplicateCharges, t.late, t.wastedServiceMs, t.endMs],
    [1, 1510, 2, 1, 2, 1, 1, 1500, 2535]);
  assert.equal(timeouts(r), 1);
  assert.deepEqual(r.request.policy.hedging, { kind: 'per-try-timeout' });
  const keyed = bothBindings({ ...perTry(), idempotencyKey: true });
  assert.deepEqual([keyed.totals.charges, keyed.totals.replays], [1, 1]);
  const plain = bothBindings(perTry({}, { hedging: null }));
  assert.deepEqual([plain.totals.failed['attempt-limit'], plain.totals.attempts, plain.totals.charges, plain.totals.duplicateCharges, plain.totals.late, plain.totals.endMs],
    [1, 3, 3, 2, 3, 3585]);
  assert.equal(plain.request.policy.hedging, undefined);
});

test('§8\'s fleet figures: every service failing ends attempt-limit at 3,635 after the wait of 100; the quota\'s refusal ends nothing; the deadline at 3,000', () => {
  const failing = bothBindings(perTry({ server: { failureRate: 1 } }));
  assert.deepEqual([failing.totals.failed['attempt-limit'], failing.totals.attempts, failing.totals.endMs, failing.totals.late, timeouts(failing)],
    [1, 3, 3635, 0, 3]);
  // Attempts at 0, 1,025 and 2,125: the third in bin 2 (binMs 1,000).
  assert.deepEqual(failing.timeline.bins.map((b) => b.retries), [0, 1, 1, 0]);
  const quota = bothBindings(perTry({ server: { serviceMs: 2500 }, gates: { quota: { scope: 'fleet', capacity: 10, retryCost: 5, timeoutCost: 10 } } }));
  assert.deepEqual([quota.totals.succeeded, quota.totals.latencyMs.max, quota.totals.attempts, quota.totals.charges],
    [1, 2510, 2, 2]);
  assert.equal(quota.timeline.bins.at(-1).tokens, 10);
  const late = bothBindings(perTry({ server: { serviceMs: 5000 } }, { deadlineMs: 3000 }));
  assert.deepEqual([late.totals.failed.deadline, late.totals.attempts, late.totals.charges, late.totals.late, late.totals.endMs, timeouts(late)],
    [1, 3, 3, 3, 7085, 3]);
  assert.equal(late.totals.latencyMs.max, null, 'no request succeeded');
});

test('policy.hedging.kind: errors name their fields in both bindings (A6\'s members, the deadline, an unknown kind)', () => {
  const refused = (request) => {
    const wasm = asJson(fleetEngine.fleet(request));
    const run = runRetrysim(JSON.stringify(request), ['--fleet']);
    assert.equal(run.status, 2, run.stderr);
    assert.equal(wasm.ok, false);
    return wasm.errors.map((e) => `${e.field} ${e.code}`);
  };
  assert.deepEqual(refused(perTry({}, { hedging: { kind: 'per-try-timeout', maxAttempts: 2 } })), ['policy.hedging.maxAttempts only-with']);
  assert.deepEqual(refused(perTry({}, { deadlineMs: null })), ['policy.hedging.kind needs-deadline']);
  assert.deepEqual(refused(perTry({}, { hedging: { kind: 'envoy' } })).map((e) => e.split(' ')[0]), ['policy.hedging.kind']);
  assert.deepEqual(refused({ policy: { maxRetries: 0, hedging: { kind: 'a6' } } }), ['policy.hedging.maxAttempts missing']);
});

test('kind "a6" and an absent kind give the same result: every service case of the conformance file hedged with A6', () => {
  const file = process.env.RETRYLAB_FLEET_CASES || path.join(repo, 'spec', 'conformance', 'fleet-cases.json');
  const { cases } = JSON.parse(fs.readFileSync(file, 'utf8'));
  let compared = 0;
  for (const c of cases) {
    const request = c.request;
    if (!request || typeof request !== 'object' || request.workload === 'occ') continue;
    const policy = { ...(request.policy || {}), maxRetries: 0, hedging: { maxAttempts: 2, delayMs: 50 } };
    const absent = asJson(fleetEngine.fleet({ ...request, policy }));
    if (!absent.ok) continue;
    const given = asJson(fleetEngine.fleet({ ...request, policy: { ...policy, hedging: { ...policy.hedging, kind: 'a6' } } }));
    assert.equal(firstDifference(absent, given), null, c.name);
    compared += 1;
  }
  assert.ok(compared > 50, `only ${compared} cases compared`);
  // And a case without hedging is unchanged by `hedging: null`, the conformance file's own results.
  const first = cases.find((c) => c.request && c.request.workload !== 'occ');
  const withNull = asJson(fleetEngine.fleet({ ...first.request, policy: { ...(first.request.policy || {}), hedging: null } }));
  assert.equal(firstDifference(withNull.totals, first.result.totals), null);
});
