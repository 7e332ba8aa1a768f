// docs/servers.md's fleet (issue 39) through both bindings: K = 1 is today on every shared case
// (with `servers: {count: 1}` the per-server rows are added and every other figure is the case's;
// with every new field given at its default the whole result is the case's), §12.1's worked figure
// and its rows, and bad input answered with an error object naming the field (retrysim exit 2).
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { test, before } = require('node:test');

const { repo, loadFleetEngine, runRetrysim, asJson, firstDifference, fleetInBothBindings, fleetInBothBindingsEach, withoutCapacity } = require('./support.js');

let fleetEngine;
before(async () => {
  fleetEngine = await loadFleetEngine();
});

function serviceCases() {
  const file = process.env.RETRYLAB_FLEET_CASES || path.join(repo, 'spec', 'conformance', 'fleet-cases.json');
  const { cases } = JSON.parse(fs.readFileSync(file, 'utf8'));
  const service = cases.filter((c) => c.request && c.request.workload !== 'occ' && c.result.ok);
  assert.ok(service.length > 100, `only ${service.length} service cases`);
  return service;
}

// A result without the engine's version and without §8.3's additions.
function withoutServers(result) {
  const copy = asJson(result);
  delete copy.engine;
  for (const key of ['servers', 'refused', 'partitioned', 'aborted', 'answersLost']) delete copy.totals[key];
  for (const bin of copy.timeline.bins) delete bin.servers;
  if (copy.recovery) delete copy.recovery.servers;
  return copy;
}

function withoutEngine(result) {
  const copy = withoutCapacity(result);
  delete copy.engine;
  return copy;
}

test('K = 1: servers {count: 1} on every shared service case, both bindings, is the case with the rows added', () => {
  const failures = [];
  const cases = serviceCases();
  const checks = fleetInBothBindingsEach(fleetEngine, cases.map((c) => ({ ...c.request, servers: { count: 1 } })));
  for (const [i, c] of cases.entries()) {
    const result = checks[i](c.name);
    assert.equal(result.totals.servers.length, 1, c.name);
    assert.equal(result.totals.servers[0].attempts, result.totals.attempts, c.name);
    assert.equal(result.timeline.bins[0].servers.length, 1, c.name);
    const expected = asJson(c.result);
    expected.request = { ...expected.request, servers: { count: 1, overrides: [] } };
    const difference = firstDifference(withoutServers(withoutCapacity(result)), withoutServers(expected));
    if (difference) failures.push(`${c.name}: ${difference}`);
  }
  assert.deepEqual(failures, []);
});

test('every new field given at its default, on every shared service case, both bindings: the case exactly', () => {
  const failures = [];
  const cases = serviceCases();
  const checks = fleetInBothBindingsEach(fleetEngine, cases.map((c) => ({
    ...c.request,
    balancer: { kind: 'round-robin', scope: 'client' },
    keyStore: { scope: 'shared', lagMs: 0 },
    faults: [],
    policy: { ...(c.request.policy || {}), retryHost: 'any', hostSelectionRetryMaxAttempts: 1 },
    server: { ...(c.request.server || {}), serviceDist: 'fixed' },
  })));
  for (const [i, c] of cases.entries()) {
    const difference = firstDifference(withoutEngine(checks[i](c.name)), c.result);
    if (difference) failures.push(`${c.name}: ${difference}`);
  }
  assert.deepEqual(failures, []);
});

test('§12.1 one bad host, both bindings: round robin sends the retry to server 1, success at 220', () => {
  const result = fleetInBothBindings(fleetEngine, {
    clients: 1, arrivals: 'once', trigger: null,
    servers: { count: 2, overrides: [{ index: 0, failureRate: 1 }] },
    policy: { maxRetries: 2 },
  });
  assert.equal(result.totals.latencyMs.max, 220);
  assert.deepEqual(result.totals.servers.map((s) => [s.attempts, s.served, s.succeeded, s.failed, s.okInTime, s.charges]),
    [[1, 1, 0, 1, 0, 0], [1, 1, 1, 0, 1, 1]]);
  assert.deepEqual(result.request.servers, { count: 2, overrides: [{ index: 0, failureRate: 1 }] });
});

test('§12.2 crash, both bindings: refused at once, success at 170; recovery per server', () => {
  const result = fleetInBothBindings(fleetEngine, {
    clients: 1, arrivals: 'once', trigger: null, servers: { count: 2 },
    faults: [{ kind: 'crash', servers: [0], startMs: 0, endMs: 1000 }],
  });
  assert.equal(result.totals.latencyMs.max, 170);
  assert.equal(result.totals.refused, 1);
  assert.equal(result.recovery.disrupted, false);
  assert.deepEqual(result.recovery.servers.map((s) => s.disrupted), [true, false]);
});

test('bad input naming its field, both bindings (an error object; retrysim exit 2)', () => {
  const bad = [
    [{ servers: { count: 0 } }, 'servers.count'],
    [{ servers: { count: 2, overrides: [{ index: 2, failureRate: 1 }] } }, 'servers.overrides[0].index'],
    [{ balancer: { kind: 'fastest' } }, 'balancer.kind'],
    [{ faults: [{ kind: 'crash', servers: [1], startMs: 0, endMs: 5 }] }, 'faults[0].servers[0]'],
    [{ keyStore: { scope: 'shared', lagMs: 5 } }, 'keyStore.lagMs'],
    [{ server: { serviceSigma: 2 } }, 'server.serviceSigma'],
    [{ servers: { count: 2 }, policy: { layers: [{ maxRetries: 1 }] } }, 'servers'],
  ];
  for (const [request, field] of bad) {
    const wasm = asJson(fleetEngine.fleet(request));
    assert.equal(wasm.ok, false, field);
    assert.equal(wasm.errors[0].field, field);
    const run = runRetrysim(JSON.stringify(request), ['--fleet']);
    assert.equal(run.status, 2, field);
    assert.equal(JSON.parse(run.stdout).errors[0].field, field);
  }
});
