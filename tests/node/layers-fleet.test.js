// docs/layers.md §9 through both bindings: §9.5's figures in fleet() (the fleet engine file) and
// in retrysim --fleet, the identical JSON; and `policy.layers: [{}]` is FLEET.md's run on every
// shared fleet case a stack can run (§9: the stack adds only its own members).
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { test, before } = require('node:test');

const { loadFleetEngine, fleetInBothBindings, runRetrysimEach, asJson, firstDifference, withoutCapacity } = require('./support.js');

let fleetEngine;
before(async () => { fleetEngine = await loadFleetEngine(); });

// §9.5's "unless said": one client, once, legs of 5 ms, service of 50 ms, every attempt failing.
const failingStack = (layers, more = {}) => ({
  clients: 1, arrivals: 'once', trigger: null, network: { dist: 'fixed', ms: 5 },
  server: { serviceMs: 50, failureRate: 1 },
  policy: { layers: layers.map((l) => ({ baseBackoffMs: 0, clientTimeoutMs: 60000, ...l })) },
  ...more,
});
const each = (...retries) => retries.map((maxRetries) => ({ maxRetries }));

test('three layers of four attempts: 64 bottom attempts, the last answer at 3,840 ms, in both bindings (9.5)', () => {
  const r = fleetInBothBindings(fleetEngine, failingStack(each(3, 3, 3)));
  assert.equal(r.totals.attempts, 64);
  assert.equal(r.totals.attemptsPerRequest, 64);
  assert.equal(r.totals.failed['attempt-limit'], 1);
  assert.equal(r.totals.endMs, 3840);
  assert.deepEqual(r.totals.layers.map((l) => l.attempts), [4, 16, 64]);
  assert.deepEqual(r.totals.layers.map((l) => l.calls), [1, 4, 16]);
  assert.deepEqual(r.timeline.bins[0].layerAttempts, [2, 5, 17]);
});

test('five layers of three attempts: 243 bottom attempts in both bindings (9.5)', () => {
  const r = fleetInBothBindings(fleetEngine, failingStack(each(2, 2, 2, 2, 2)));
  assert.equal(r.totals.attempts, 243);
  assert.equal(r.totals.endMs, 14580);
});

test('a do-not-retry give-up at the bottom: 4 bottom attempts, not-retryable at 240 ms (9.5)', () => {
  const layers = each(3, 3, 3);
  layers[2].giveUp = 'do-not-retry';
  const r = fleetInBothBindings(fleetEngine, failingStack(layers));
  assert.equal(r.totals.attempts, 4);
  assert.equal(r.totals.failed['not-retryable'], 1);
  assert.equal(r.totals.endMs, 240);
});

test('a quota gate acts on its own layer: 18 at the bottom, 24 on layer 2, 48 on layer 1 (9.5)', () => {
  const expected = { bottom: 18, 2: 24, 1: 48 };
  for (const [at, attempts] of Object.entries(expected)) {
    const quota = { capacity: 10, retryCost: 5, ...(at === 'bottom' ? {} : { layer: Number(at) }) };
    const r = fleetInBothBindings(fleetEngine, failingStack(each(3, 3, 3), { gates: { quota } }));
    assert.equal(r.totals.attempts, attempts, `quota on ${at}`);
    assert.equal(r.request.gates.quota.layer, at === 'bottom' ? undefined : Number(at));
  }
});

// §9.5's orphan that keeps retrying: an agent that leaves its call over an SDK over an HTTP library.
const orphanRetrying = (agentTimeoutMs, sdkTimeoutMs) => failingStack([
  { name: 'agent', maxRetries: 0, clientTimeoutMs: agentTimeoutMs, cancel: 'orphan' },
  { name: 'SDK', maxRetries: 2, clientTimeoutMs: sdkTimeoutMs },
  { name: 'HTTP', maxRetries: 1 },
]);

test('an orphan keeps retrying on its own calls\' results: 6 bottom attempts, endMs 360, in both bindings (9.5)', () => {
  const r = fleetInBothBindings(fleetEngine, orphanRetrying(100, 1000));
  assert.equal(r.totals.attempts, 6);
  assert.equal(r.totals.failed['attempt-limit'], 1);
  assert.equal(r.totals.endMs, 360);
  assert.equal(r.totals.late, 0);
  assert.deepEqual(r.totals.layers.map((l) => l.calls), [1, 1, 3]);
  assert.deepEqual(r.totals.layers.map((l) => l.attempts), [1, 3, 6]);
  assert.deepEqual(r.totals.layers.map((l) => l.orphaned), [0, 1, 3]);
});

test('an orphan\'s own cutoffs cancel its calls below: 3 late answers, endMs 300, in both bindings (9.5)', () => {
  const r = fleetInBothBindings(fleetEngine, orphanRetrying(50, 90));
  assert.equal(r.totals.attempts, 6);
  assert.equal(r.totals.late, 3);
  assert.equal(r.totals.wastedServiceMs, 150);
  assert.equal(r.totals.endMs, 300);
  assert.deepEqual(r.totals.layers.map((l) => l.cancelled), [0, 0, 3]);
  assert.deepEqual(r.totals.layers.map((l) => l.orphaned), [0, 1, 3]);
});

test('mean bottom attempts per request within 2 % of (1 − p^24) / (1 − p) over 10,000 requests (9.5)', () => {
  for (const p of [0.5, 0.9, 0.99]) {
    const r = fleetInBothBindings(fleetEngine, failingStack(each(3, 1, 2), {
      clients: 10000, server: { workers: null, serviceMs: 50, failureRate: p },
    }));
    const expected = (1 - p ** 24) / (1 - p);
    assert.equal(r.totals.requests, 10000);
    assert.ok(Math.abs(r.totals.attemptsPerRequest - expected) <= 0.02 * expected,
      `p = ${p}: ${r.totals.attemptsPerRequest} against ${expected}`);
  }
});

// ---- One layer is FLEET.md's run ---------------------------------------------------------------

// What a stack adds to a result (§9.2) and to its echo, taken off so the rest can be compared.
function withoutStack(result) {
  const r = structuredClone(result);
  delete r.engine;
  if (r.request && r.request.policy) delete r.request.policy.layers;
  if (r.totals) {
    delete r.totals.layers;
    delete r.totals.attemptsPerRequest;
  }
  if (r.timeline) for (const b of r.timeline.bins) delete b.layerAttempts;
  return r;
}

// A stack runs FLEET's service workload and its §5 gates only (§9.6).
function stackable(request, result) {
  if (!result.ok || request.workload === 'occ') return false;
  const policy = request.policy || {};
  const gates = request.gates || {};
  const server = request.server || {};
  return !policy.hedging && !server.admission && !gates.adaptive && !gates.local && !gates.admissionControl;
}

test('policy.layers [{}] gives every shared fleet case its own result, in both bindings', () => {
  const { cases } = JSON.parse(fs.readFileSync(process.env.RETRYLAB_FLEET_CASES
    || path.join(__dirname, '..', '..', 'spec', 'conformance', 'fleet-cases.json'), 'utf8'));
  const failures = [];
  let compared = 0;
  // The stackable cases' requests with one layer, their runs started by one shell (runRetrysimEach).
  const stacked = cases.filter((c) => stackable(c.request, c.result));
  const requests = stacked.map((c) => ({ ...c.request, policy: { ...(c.request.policy || {}), layers: [{}] } }));
  const runs = runRetrysimEach(requests.map((request) => ({ input: JSON.stringify(request), args: ['--fleet'] })));
  for (const [i, c] of stacked.entries()) {
    const request = requests[i];
    const wasm = asJson(fleetEngine.fleet(request));
    const run = runs[i];
    if (run.status !== 0) { failures.push(`${c.name}: retrysim exit ${run.status}`); continue; }
    const native = JSON.parse(run.stdout);
    const bindings = firstDifference(wasm, native);
    if (bindings) failures.push(`${c.name}: native and WebAssembly differ at ${bindings}`);
    const expected = withoutStack(c.result);
    const difference = firstDifference(withoutStack(withoutCapacity(wasm)), expected);
    if (difference) failures.push(`${c.name}: ${difference}`);
    compared += 1;
  }
  assert.deepEqual(failures, [], `${failures.length} of ${compared} cases differ`);
  assert.ok(compared >= 100, `only ${compared} cases could take a stack`);
});
