// The fleet (FLEET.md) through both bindings: every case of fleet-cases.json through the
// fleet engine file's fleet() and through `retrysim --fleet`, the two bindings equal as JSON
// values on 2,000 generated requests, the three command-line runs, and bad input
// answered with an error object (exit 2), never a throw.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { test, before } = require('node:test');

const { repo, loadEngine, runRetrysim, runRetrysimEach, retrysimResultOf, asJson, firstDifference, seededRandom, withoutCapacity } = require('./support.js');

const fleetEnginePath = process.env.RETRYLAB_FLEET_ENGINE ||
  path.join(repo, 'build', 'wasm', 'bindings', 'wasm', 'retrylab-fleet.js');
const fleetCasesPath = process.env.RETRYLAB_FLEET_CASES ||
  path.join(repo, 'spec', 'conformance', 'fleet-cases.json');

let fleetEngine;
let pageEngine;
before(async () => {
  assert.ok(fs.existsSync(fleetEnginePath), `no fleet engine file at ${fleetEnginePath}: build the wasm preset`);
  fleetEngine = await require(fleetEnginePath)();
  pageEngine = await loadEngine();
});

function retrysimFleet(request) {
  return retrysimResultOf(runRetrysim(JSON.stringify(request), ['--fleet']));
}

// retrysimFleet for each request, the runs started by one shell (support.js runRetrysimEach).
function retrysimFleetEach(requests) {
  return runRetrysimEach(requests.map((request) => ({ input: JSON.stringify(request), args: ['--fleet'] })))
    .map((run, i) => retrysimResultOf(run, `request ${i}`));
}

// The result as the conformance file holds it: no engine version, no bins' capacity (support.js).
function withoutEngine(result) {
  const copy = withoutCapacity(result);
  delete copy.engine;
  return copy;
}

function loadFleetCases() {
  const { cases } = JSON.parse(fs.readFileSync(fleetCasesPath, 'utf8'));
  assert.ok(Array.isArray(cases) && cases.length >= 177, 'the fleet conformance file lists too few cases');
  return cases;
}

test('every fleet conformance case, through the fleet engine file', () => {
  const cases = loadFleetCases();
  const failures = [];
  for (const c of cases) {
    const difference = firstDifference(withoutEngine(fleetEngine.fleet(c.request)), c.result);
    if (difference) failures.push(`${c.name}: ${difference}`);
  }
  assert.deepEqual(failures, [], `${failures.length} of ${cases.length} cases differ`);
});

test('every fleet conformance case, through retrysim --fleet', () => {
  const cases = loadFleetCases();
  const failures = [];
  const runs = retrysimFleetEach(cases.map((c) => c.request));
  cases.forEach((c, i) => {
    const { status, result } = runs[i];
    if (status !== 0) failures.push(`${c.name}: exit ${status}`);
    const difference = firstDifference(withoutEngine(result), c.result);
    if (difference) failures.push(`${c.name}: ${difference}`);
  });
  assert.deepEqual(failures, [], `${failures.length} failures over ${cases.length} cases`);
});

// ---- Generated requests: every field, valid and sometimes not --------------------------------

const rng = seededRandom(20261201);
const pickNumber = (lo, hi, whole) => {
  if (rng.chance(0.1)) return rng.pick([lo, hi]);
  const x = lo + rng.next() * (hi - lo);
  return whole ? Math.round(x) : Math.round(x * 1000) / 1000;
};
const maybe = (p, make) => (rng.chance(p) ? make() : undefined);

function network() {
  switch (rng.pick(['fixed', 'uniform', 'exponential', 'normal', 'absent'])) {
    case 'fixed': return { dist: 'fixed', ms: pickNumber(0, 40) };
    case 'uniform': { const lo = pickNumber(0, 20); return { dist: 'uniform', lo, hi: lo + pickNumber(0, 30) }; }
    case 'exponential': return { dist: 'exponential', mean: pickNumber(0, 40) };
    case 'normal': return { dist: 'normal', mean: pickNumber(0, 30), sd: pickNumber(0, 8) };
    default: return {};
  }
}

function gate(kind) {
  const scope = rng.pick(['client', 'fleet', undefined]);
  const g = {};
  if (scope) g.scope = scope;
  switch (kind) {
    case 'quota': if (rng.chance(0.5)) g.capacity = pickNumber(0, 200); if (rng.chance(0.3)) g.retryCost = pickNumber(0, 10); break;
    case 'bucket': if (rng.chance(0.5)) g.capacity = pickNumber(0, 10); if (rng.chance(0.3)) g.deposit = pickNumber(0, 1); break;
    case 'throttle': if (rng.chance(0.5)) g.maxTokens = pickNumber(1, 20); if (rng.chance(0.3)) g.tokenRatio = pickNumber(0.001, 1); break;
    case 'budget': if (rng.chance(0.5)) g.percent = pickNumber(0, 100); if (rng.chance(0.3)) g.minPerSecond = pickNumber(0, 20); if (rng.chance(0.3)) g.ttlMs = pickNumber(1, 5000); break;
    case 'breaker': g.window = pickNumber(1, 30, true); g.minCalls = pickNumber(1, 30, true); if (rng.chance(0.5)) g.openMs = pickNumber(0, 2000); g.halfOpenCalls = pickNumber(1, 5, true); break;
  }
  return g;
}

function generatedRequest() {
  if (rng.chance(0.15)) {
    return {
      workload: 'occ', seed: pickNumber(0, 1000, true), clients: pickNumber(1, 25, true), runs: pickNumber(1, 4, true),
      network: network(),
      policy: { maxRetries: rng.pick([null, 0, 3]), baseBackoffMs: pickNumber(0, 50), jitter: rng.pick(['none', 'full', 'equal', 'decorrelated']) },
    };
  }
  const r = {
    seed: pickNumber(0, 2 ** 40, true),
    clients: pickNumber(1, 20, true),
    arrivals: rng.pick(['poisson', 'uniform', 'serial', 'once']),
    ratePerClient: pickNumber(0.1, 15),
    durationMs: pickNumber(100, 4000),
    network: network(),
    server: {
      workers: rng.pick([null, 1, 2, 5, 10]),
      queueLimit: rng.pick([null, null, 0, 3, 20]),
      queueOrder: rng.pick(['fifo', 'lifo']),
      serviceMs: pickNumber(0, 80),
      serviceMsPerInFlight: rng.pick([0, 0, 2]),
      failureRate: rng.pick([0, 0.1, 0.5, 1]),
      dropStale: rng.pick(['never', 'expired', 'unfinishable']),
      rejectRetryAfterMs: rng.pick([null, 0, 100]),
    },
    trigger: rng.pick([null, { startMs: pickNumber(0, 1000), endMs: pickNumber(1000, 3000) },
      { kind: 'outage', startMs: pickNumber(0, 1000), endMs: pickNumber(1000, 2000) }]),
    policy: {
      maxRetries: pickNumber(0, 4, true), baseBackoffMs: pickNumber(0, 200), backoffMultiplier: pickNumber(1, 3),
      maxBackoffMs: rng.pick([null, 300]), jitter: rng.pick(['none', 'full', 'equal', 'decorrelated']),
      clientTimeoutMs: pickNumber(20, 400), deadlineMs: rng.pick([null, null, 500, 2000]),
      retryOn: rng.pick([['timeout', '5xx'], ['5xx'], ['timeout'], []]), honourRetryAfter: rng.chance(0.7),
    },
    gates: {},
    operation: rng.pick(['charge', 'read']),
    idempotencyKey: rng.chance(0.3),
    binMs: pickNumber(50, 1000, true),
  };
  for (const kind of ['quota', 'bucket', 'throttle', 'budget', 'breaker']) if (rng.chance(0.25)) r.gates[kind] = gate(kind);
  const spike = maybe(0.2, () => ({ startMs: pickNumber(0, 2000), endMs: pickNumber(2000, 4000), factor: pickNumber(0.5, 5) }));
  if (spike) r.spike = spike;
  // Now and then a bad field, so the errors are compared too.
  if (rng.chance(0.05)) r.server.workers = 0;
  if (rng.chance(0.03)) r.policy.jitter = 'sometimes';
  return r;
}

test('native and WebAssembly give the same result, as JSON values, on 2,000 generated requests', () => {
  const failures = [];
  let errors = 0;
  let occ = 0;
  const requests = Array.from({ length: 2000 }, generatedRequest);
  const runs = retrysimFleetEach(requests);
  for (let i = 0; i < 2000; ++i) {
    const request = requests[i];
    const wasm = asJson(fleetEngine.fleet(request));
    const { status, result } = runs[i];
    if (!wasm.ok) ++errors;
    if (request.workload === 'occ') ++occ;
    assert.equal(status, wasm.ok ? 0 : 2, `request ${i}: retrysim exit ${status}`);
    const difference = firstDifference(wasm, result);
    if (difference) failures.push(`request ${i} ${JSON.stringify(request)}: ${difference}`);
  }
  assert.deepEqual(failures.slice(0, 5), [], `${failures.length} of 2,000 differ`);
  assert.ok(errors > 20 && occ > 100, `the generator covers errors (${errors}) and occ (${occ})`);
});

// ---- The command-line runs ---------------------------------------------------------------

test("echo '{}' | retrysim --fleet prints the opening fleet run, metastable", () => {
  const run = runRetrysim('{}', ['--fleet']);
  assert.equal(run.status, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  assert.equal(result.totals.requests, 6021);
  assert.equal(result.totals.succeeded, 1063);
  assert.equal(result.totals.attempts, 20895);
  assert.equal(result.recovery.metastable, true);
  assert.equal(result.recovery.recoveredAtMs, null);
});

test('dropping unfinishable attempts recovers at 20,000 ms; dropping only expired ones does not', () => {
  const unfinishable = retrysimFleet({ server: { dropStale: 'unfinishable' } });
  assert.equal(unfinishable.status, 0);
  assert.equal(unfinishable.result.recovery.recoveredAtMs, 20000);
  assert.equal(unfinishable.result.recovery.metastable, false);
  const expired = retrysimFleet({ server: { dropStale: 'expired' } });
  assert.equal(expired.status, 0);
  assert.equal(expired.result.recovery.recoveredAtMs, null);
  assert.equal(expired.result.recovery.metastable, true);
});

test('retrysim --fleet FILE reads the request from a file', () => {
  const file = path.join(require('node:os').tmpdir(), `fleet-${process.pid}.json`);
  fs.writeFileSync(file, JSON.stringify({ clients: 1, arrivals: 'once', trigger: null }));
  try {
    const run = runRetrysim('', ['--fleet', file]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).totals.latencyMs.max, 60);
  } finally {
    fs.unlinkSync(file);
  }
});

// ---- Bad input -----------------------------------------------------------------------------------

test('bad requests: both bindings answer the same error object naming dotted paths; retrysim exits 2', () => {
  const bad = [
    { server: { workers: 0 } },
    { gates: { quota: { retryCost: -1 } } },
    { network: { dist: 'uniform', lo: 5, hi: 1 } },
    { policy: { maxRetries: null } },
    { clients: 10000, durationMs: 600000 },
    { workload: 'occ', clients: 1000, runs: 201 },
    { unknown: 1 },
    [],
    ['fleet'],
    42,
    null,
  ];
  for (const request of bad) {
    const wasm = asJson(fleetEngine.fleet(request));
    const { status, result, stderr } = retrysimFleet(request);
    assert.equal(wasm.ok, false, JSON.stringify(request));
    assert.equal(status, 2, JSON.stringify(request));
    assert.match(stderr, /invalid input/);
    assert.equal(firstDifference(wasm, result), null, JSON.stringify(request));
  }
  const { result } = retrysimFleet({ server: { workers: 0 }, gates: { quota: { retryCost: -1 } } });
  assert.deepEqual(result.errors.map((e) => e.field), ['server.workers', 'gates.quota.retryCost']);
});

test('fleet() never throws on values JSON cannot hold, and malformed JSON is exit 2 for retrysim', () => {
  const cyclic = { clients: 2 };
  cyclic.self = cyclic;
  for (const request of [undefined, () => 1, Symbol('x'), 10n, cyclic, { clients: () => 1 }, { seed: NaN }, { seed: Infinity }]) {
    const result = fleetEngine.fleet(request);
    assert.equal(result.ok, false);
    assert.ok(Array.isArray(result.errors) && result.errors.length > 0);
  }
  const run = runRetrysim('{"clients": ', ['--fleet']);
  assert.equal(run.status, 2);
});

test("the page's engine file answers fleet() with an error object naming the fleet engine file", () => {
  const result = pageEngine.fleet({});
  assert.equal(result.ok, false);
  assert.match(result.errors[0].message, /retrylab-fleet\.js/);
  // and its compute() is the one it always was
  assert.equal(pageEngine.compute({}).ok, true);
  assert.equal(fleetEngine.compute({}).ok, true);
  assert.equal(firstDifference(asJson(pageEngine.compute({})), asJson(fleetEngine.compute({}))), null);
});
