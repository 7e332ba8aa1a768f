// docs/metastability.md's closed forms against the engine, through both bindings (the fleet
// engine file and `retrysim --fleet`, equal as JSON values): a run just below each edge comes
// back and one just above stays down. §1: the lower edge N·λ = μ of the opening fleet at 3 and
// at 1 retries; §2: the fluid model's shortest slowdown that stays down at ×4 lies inside the
// band the engine's seeds draw; §3: Brooker's collapse on both sides of λb and below λg.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { test, before } = require('node:test');

const { repo, runRetrysim, asJson } = require('./support.js');

const fleetEnginePath = process.env.RETRYLAB_FLEET_ENGINE ||
  path.join(repo, 'build', 'wasm', 'bindings', 'wasm', 'retrylab-fleet.js');

let engine;
let closed;
before(async () => {
  assert.ok(fs.existsSync(fleetEnginePath), `no fleet engine file at ${fleetEnginePath}: build the wasm preset`);
  engine = await require(fleetEnginePath)();
  closed = await import(path.join(repo, 'web/fleet/closed.js'));
});

// One request through both bindings; they must agree, and the engine file's answer is returned.
function both(request) {
  const wasm = asJson(engine.fleet(request));
  const run = runRetrysim(JSON.stringify(request), ['--fleet']);
  assert.equal(run.status, 0, run.stderr);
  const native = JSON.parse(run.stdout);
  delete native.engine;
  const copy = { ...wasm };
  delete copy.engine;
  assert.deepEqual(native, copy, `the bindings differ on ${JSON.stringify(request)}`);
  assert.equal(wasm.ok, true, JSON.stringify(wasm.errors));
  return wasm;
}

const slowdown = (lengthMs, factor) => ({ kind: 'slowdown', startMs: 10000, endMs: 10000 + lengthMs, factor });

test('§1: 3 retries, μ = 200: 0.48 requests a second per client (4 × 48 = 192 < 200) comes back, 0.52 (208 ≥ 200) stays down', () => {
  const base = { durationMs: 600000, trigger: slowdown(10000, 10) };
  const edge = closed.stormEdge(both({ ...base, ratePerClient: 0.48 }).request);
  assert.equal(edge.lowerPerClient, 0.5);
  const below = both({ ...base, ratePerClient: 0.48 }).recovery;
  assert.equal(below.disrupted, true, 'the slowdown knocked it down');
  assert.notEqual(below.recoveredAtMs, null, 'and it came back');
  const above = both({ ...base, ratePerClient: 0.52 }).recovery;
  assert.equal(above.metastable, true);
});

test('§1: 1 retry, μ = 200: 0.95 per client (190 < 200) comes back, 1.05 (210 ≥ 200) stays down', () => {
  const base = { durationMs: 300000, policy: { maxRetries: 1 } };
  assert.equal(closed.stormEdge(both({ ...base, ratePerClient: 0.95 }).request).lowerPerClient, 1);
  const below = both({ ...base, ratePerClient: 0.95 }).recovery;
  assert.deepEqual([below.disrupted, below.recoveredAtMs !== null], [true, true]);
  assert.equal(both({ ...base, ratePerClient: 1.05 }).recovery.metastable, true);
});

test('§2: at ×4 every seed of 1–3 survives a 2 s slowdown and stays down after 3 s; the fluid line (2.555 s) lies between', () => {
  const opening = both({ policy: { maxRetries: 3 } }).request;
  const fluid = closed.fluidEdge(opening, 4).lengthMs;
  for (const seed of [1, 2, 3]) {
    assert.equal(both({ seed, trigger: slowdown(2000, 4) }).recovery.metastable, false, `seed ${seed}, 2 s`);
    assert.equal(both({ seed, trigger: slowdown(3000, 4) }).recovery.metastable, true, `seed ${seed}, 3 s`);
  }
  assert.ok(fluid > 2000 && fluid < 3000, fluid);
});

test('§3: Brooker’s collapse comes back after a spike at 20 requests a second and stays down at 22 (λb = 150/7 ≈ 21.43 between); without a spike it holds at 54 (below λg = 450/7 ≈ 64.29)', () => {
  const base = {
    clients: 1, durationMs: 80000, trigger: null,
    server: { workers: null, serviceMs: 1000, serviceMsPerInFlight: 10 },
    network: { dist: 'exponential', mean: 100 },
    policy: { clientTimeoutMs: 3000, maxRetries: 2, baseBackoffMs: 0, retryOn: ['timeout'] },
  };
  const spiked = (rate) => ({ ...base, ratePerClient: rate, spike: { startMs: 20000, endMs: 25000, factor: 100 / rate } });
  const lastSuccesses = (r) => r.timeline.bins.slice(70, 80).reduce((a, b) => a + b.succeeded, 0);
  const edges = closed.collapseEdges(both(spiked(20)).request);
  assert.ok(edges.bad > 20 && edges.bad < 22, edges.bad);
  assert.ok(lastSuccesses(both(spiked(20))) > 0, 'back after the spike at 20');
  assert.equal(lastSuccesses(both(spiked(22))), 0, 'down after the spike at 22');
  const quiet = both({ ...base, ratePerClient: 54, spike: null });
  assert.equal(quiet.totals.succeeded, quiet.totals.requests, 'the good state holds at 54 without a trigger');
  assert.ok(54 < edges.good);
});
