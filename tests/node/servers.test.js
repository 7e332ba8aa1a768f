// docs/servers.md §7, §9, §11: the single run on many servers through both bindings (compute()
// in the engine file, and retrysim): §11's figures worked by hand, K = 1 = today on every shared
// conformance case, and every bad many-servers input named (retrysim exit 2, an error object
// from compute()).
'use strict';

const assert = require('node:assert/strict');
const { test, before } = require('node:test');

const { loadEngine, loadCases, runRetrysim, runRetrysimEach, asJson, firstDifference, sameInBothBindings } = require('./support.js');

let engine;
before(async () => { engine = await loadEngine(); });

// One run through both bindings: the same result, { ok: true }.
function inBoth(inputs) {
  return sameInBothBindings(asJson(engine.compute(inputs)), runRetrysim(JSON.stringify(inputs)));
}

// The result without what `servers` adds (§7.2): host on attempts and events and in their
// sentences, metrics.servers, and the many-servers inputs in the echo.
function withoutServers(result) {
  const r = structuredClone(result);
  for (const key of ['servers', 'balancer', 'keyStore', 'retryHost']) delete r.inputs[key];
  delete r.metrics.servers;
  for (const row of [...r.attempts, ...r.events]) {
    delete row.host;
    if (typeof row.text === 'string') row.text = row.text.replaceAll(' → server 0', '');
  }
  return r;
}

const row = (r, j) => {
  const s = r.metrics.servers[j];
  return [s.attempts, s.charges, s.replays, s.conflicts, s.refused, s.aborted, s.dropped, s.answersLost, s.duplicates].join(' ');
};

const story = { servers: { count: 2 }, idempotencyKey: true, scenario: 'response-lost' };

test('11.1: the two-replica payment story charges once with a shared store and twice with per-server keys', () => {
  const shared = inBoth(story);
  assert.equal(shared.metrics.charges, 1);
  assert.equal(shared.metrics.replays, 1);
  assert.equal(shared.metrics.elapsedMs, 3700);
  assert.deepEqual(shared.attempts.map((a) => a.host), [0, 1]);
  assert.equal(row(shared, 0), '1 1 0 0 0 0 0 0 0');
  assert.equal(row(shared, 1), '1 0 1 0 0 0 0 0 0');
  const perServer = inBoth({ ...story, keyStore: { scope: 'per-server' } });
  assert.equal(perServer.metrics.charges, 2);
  assert.equal(perServer.metrics.duplicates, 1);
  assert.equal(perServer.metrics.agentReport, 'success');
  assert.equal(row(perServer, 1), '1 1 0 0 0 0 0 0 1');
  assert.ok(perServer.events.some((e) => e.host === 1 && e.kind === 'commit' &&
    e.text === 'attempt 2 → server 1: server 1 has no record of op-0001 (per-server keys); it commits charge #2'));
});

test('11.1: a replicated store charges twice iff the retry reads before the key\'s write plus the lag', () => {
  const at = (lagMs) => inBoth({ ...story, keyStore: { scope: 'replicated', lagMs } });
  assert.equal(at(3300).attempts[1].server, 'replay');
  assert.equal(at(3300.5).attempts[1].server, '409');
  assert.equal(at(3300.5).metrics.agentReport, 'error 409');
  assert.equal(at(3500).attempts[1].server, '409');
  assert.equal(at(3500.5).metrics.charges, 2);
  assert.equal(at(3300).metrics.charges, 1);
});

test('11.2 and 11.3: luck, previous-hosts, a crash that refuses, a partition, a crash that aborts', () => {
  const random = { ...story, balancer: { kind: 'random' }, keyStore: { scope: 'per-server' }, seed: 1 };
  assert.deepEqual(inBoth(random).attempts.map((a) => a.host), [0, 0]);
  assert.equal(inBoth({ ...random, retryHost: 'previous-hosts' }).metrics.charges, 2);
  const base = { servers: { count: 2 }, scenario: 'script', script: [{ status: 200 }] };
  const crash = inBoth({ ...base, faults: [{ kind: 'crash', servers: [0], startMs: 0, endMs: 5000 }] });
  assert.equal(crash.attempts[0].clientSaw, 'refused');
  assert.equal(crash.metrics.elapsedMs, 700);
  assert.equal(row(crash, 0), '1 0 0 0 1 0 0 0 0');
  const partition = inBoth({ ...base, faults: [{ kind: 'partition', servers: [0], startMs: 0, endMs: 5000 }] });
  assert.equal(partition.metrics.elapsedMs, 3700);
  assert.equal(row(partition, 0), '1 0 0 0 0 0 1 0 0');
  const aborted = inBoth({ ...base, maxRetries: 0, faults: [{ kind: 'crash', servers: [0], startMs: 100, endMs: 5000 }] });
  assert.equal(aborted.metrics.outcome, 'unknown');
  assert.equal(aborted.metrics.agentReport, 'error reset');
  assert.equal(aborted.metrics.lookupNeeded, true);
  assert.equal(aborted.metrics.charges, 0);
  assert.equal(aborted.attempts[0].server, 'aborted');
});

test('K = 1 is today on every shared conformance case: every new field at its default changes nothing, servers {count: 1} only adds its rows', () => {
  // The cases compared, then their runs with servers {count: 1}, started by one shell (runRetrysimEach).
  const cases = loadCases().map((c) => ({ c, today: asJson(engine.compute(c.inputs)) }))
    .filter(({ c, today }) => today.ok && (c.inputs.callers ?? 1) <= 1 && !c.inputs.layers && !c.inputs.hedging);
  const oneServer = (c) => ({ ...c.inputs, servers: { count: 1 } });
  const runs = runRetrysimEach(cases.map(({ c }) => ({ input: JSON.stringify(oneServer(c)) })));
  let compared = 0;
  for (const [i, { c, today }] of cases.entries()) {
    const defaults = asJson(engine.compute({ ...c.inputs, servers: null, balancer: {}, retryHost: 'any',
      hostSelectionRetryMaxAttempts: 1, faults: [], keyStore: { scope: 'shared', lagMs: 0 } }));
    assert.equal(firstDifference(defaults, today), null, c.name);
    const one = sameInBothBindings(asJson(engine.compute(oneServer(c))), runs[i], c.name);
    assert.equal(firstDifference(withoutServers(one), today), null, c.name);
    assert.equal(one.metrics.servers.length, 1, c.name);
    assert.equal(one.metrics.servers[0].duplicates, one.metrics.duplicates, c.name);
    ++compared;
  }
  assert.ok(compared >= 100, `${compared} cases compared`);
});

test('every bad many-servers input is named: retrysim exits 2, compute() returns the errors', () => {
  const bad = [
    [{ servers: { count: 0 } }, 'servers.count'],
    [{ servers: { overrides: [{ index: 2 }] } }, 'servers.overrides[0].index'],
    [{ servers: { count: 3, overrides: [{ index: 1 }, { index: 1 }] } }, 'servers.overrides[1].index'],
    [{ balancer: { scope: 'fleet' } }, 'balancer.scope'],
    [{ retryHost: 'elsewhere' }, 'retryHost'],
    [{ hostSelectionRetryMaxAttempts: 101 }, 'hostSelectionRetryMaxAttempts'],
    [{ faults: [{ kind: 'crash', startMs: 10, endMs: 5 }] }, 'faults[0].endMs'],
    [{ faults: [{ kind: 'crash', servers: [1], startMs: 0, endMs: 5 }] }, 'faults[0].servers[0]'],
    [{ servers: {}, faults: [{ kind: 'crash', startMs: 0, endMs: 5 }, { kind: 'partition', servers: [1], startMs: 1, endMs: 2 }] }, 'faults[1].servers'],
    [{ keyStore: { scope: 'per-server', lagMs: 5 } }, 'keyStore.lagMs'],
    [{ servers: {}, callers: 2 }, 'servers'],
    [{ retryOn: ['refused', 'crashed'] }, 'retryOn[1]'],
  ];
  const runs = runRetrysimEach(bad.map(([inputs]) => ({ input: JSON.stringify(inputs) })));
  for (const [i, [inputs, field]] of bad.entries()) {
    const wasm = asJson(engine.compute(inputs));
    assert.equal(wasm.ok, false, JSON.stringify(inputs));
    assert.deepEqual(wasm.errors.map((e) => e.field), [field], JSON.stringify(inputs));
    assert.ok(wasm.errors[0].message.startsWith(field + ' '), wasm.errors[0].message);
    const run = runs[i];
    assert.equal(run.status, 2, JSON.stringify(inputs));
    assert.deepEqual(JSON.parse(run.stdout).errors, wasm.errors);
  }
});
