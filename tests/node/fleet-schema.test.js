// The fleet request's tables through both bindings (docs/engine.md §4): the fleet engine
// file's `engine.fleetSchema()` and `retrysim --schema --fleet` give the same { engine, fleet,
// occ } from the core's tables, and each table's defaults are the echo (`request`) of a fleet
// run of its defaults. The page's fleet controls are built from these rows (issue 20).
'use strict';

const assert = require('node:assert/strict');
const { test, before } = require('node:test');

const { loadEngine, loadFleetEngine, runRetrysim, asJson, firstDifference } = require('./support.js');

let fleetEngine;
let pageEngine;
before(async () => {
  fleetEngine = await loadFleetEngine();
  pageEngine = await loadEngine();
});

function nativeFleetSchema() {
  const run = runRetrysim('', ['--schema', '--fleet']);
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

// The defaults a table lists, as its echo writes them: every row with a default whose
// presence rule (onlyWhen) holds at the defaults.
function defaultsOf(rows) {
  const byName = new Map(rows.map((r) => [r.name, r]));
  const applies = (r) => !r.onlyWhen || JSON.stringify(byName.get(r.onlyWhen.field).default) === JSON.stringify(r.onlyWhen.value);
  const out = {};
  // A sparse row (docs/engine.md §4) is echoed only when given and not its default.
  for (const r of rows) if ('default' in r && applies(r) && !r.sparse) out[r.name] = r.default;
  return out;
}

test('retrysim --schema --fleet and the fleet engine file\'s fleetSchema() return the same tables', () => {
  const { limits: nativeLimits, ...native } = nativeFleetSchema();
  const { limits: wasmLimits, ...wasm } = fleetEngine.fleetSchema();
  assert.equal(firstDifference(asJson(wasm), native), null);
  assert.deepEqual(Object.keys(native), ['engine', 'fleet', 'occ']);
  assert.equal(native.engine, fleetEngine.version());
  assert.deepEqual(wasmLimits, fleetEngine.limits());
  assert.equal(nativeLimits.inputBytes, 64 * 1024 * 1024);
  // FLEET.md §3's top-level fields, in the echo's order (servers, balancer, faults, keyStore: docs/servers.md §2).
  const names = ['workload', 'seed', 'clients', 'arrivals', 'ratePerClient', 'durationMs', 'spike', 'network',
    'server', 'servers', 'balancer', 'trigger', 'faults', 'policy', 'gates', 'operation', 'idempotencyKey', 'keyStore',
    'binMs', 'runs'];
  assert.deepEqual(native.fleet.map((r) => r.name), names);
  assert.deepEqual(native.occ.map((r) => r.name), names);
  // The single run's table is not the fleet's: --schema alone still prints { engine, inputs, scenarios }.
  const single = JSON.parse(runRetrysim('', ['--schema']).stdout);
  assert.ok(Array.isArray(single.inputs));
  assert.equal(single.fleet, undefined);
});

test('each fleet table\'s defaults are the echo of a fleet run of its defaults', () => {
  const { fleet: service, occ } = fleetEngine.fleetSchema();
  assert.notDeepEqual(defaultsOf(occ).network, defaultsOf(service).network, 'occ has its own network defaults');
  for (const [rows, request] of [[service, {}], [occ, { workload: 'occ' }]]) {
    // The occ table is the one a request with workload "occ" is read by: its rows are the
    // service table's with occ's defaults (FLEET.md §7), the workload row's default included.
    const expected = { ...defaultsOf(rows), ...request };
    const result = fleetEngine.fleet(request);
    assert.equal(result.ok, true, JSON.stringify(result.errors));
    assert.deepEqual(Object.keys(result.request), Object.keys(expected));
    assert.deepEqual(result.request, expected);
    // retrysim --fleet echoes the same request.
    const run = runRetrysim(JSON.stringify(request), ['--fleet']);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout).request, expected);
  }
});

test('the page\'s engine file answers fleetSchema() with an error naming the fleet engine file, never a throw', () => {
  const answer = pageEngine.fleetSchema();
  assert.equal(answer.ok, false);
  assert.match(answer.errors[0].message, /retrylab-fleet\.js/);
});
