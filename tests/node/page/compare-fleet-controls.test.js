// Compare mode's controls for a fleet run with many servers (issue 39's fields, docs/servers.md
// §2): a side shows a control for every field its run holds, and a sparse row the echo leaves
// out at its default (docs/engine.md §4: absent, it still reads as its default) is a field the
// run holds: the balancer, the retry's host rule, the service time's distribution, the key
// store and the faults. Expected values are the table's defaults and the requests the reader
// types; the relations: every sparse row with a default is shown where its object is, and a
// comparison's link read back gives the two requests the runs were made of.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fleetTable, getPath, heldRequest } from '../../../web/fleet/model.js';
import { encodeFleetCompareLink, fleetControls, parseFleetCompareLink, readControl, withControl } from '../../../web/compare/fleet.js';
import { DIST } from '../../browser/lib/dist.js';

const require = createRequire(import.meta.url);
const fleetEngine = await require(join(DIST, 'retrylab-fleet.js'))();
const schema = fleetEngine.fleetSchema();
const table = fleetTable(schema);
const echoOf = (req) => {
  const r = fleetEngine.fleet({ durationMs: 2000, ...req });
  assert.equal(r.ok, true, JSON.stringify(r.errors));
  return r.request;
};
const byPath = (controls) => new Map(controls.map((c) => [c.path, c]));
const rowDefault = (path) => table.rows.get(path).default;

test('a run with four servers at the defaults shows the balancer, the host rule, the service time, the key store and the faults at their defaults', () => {
  const echo = echoOf({ servers: { count: 4 } });
  // The sparse echo leaves them out: the controls must not depend on it.
  assert.equal(echo.balancer, undefined);
  assert.equal(echo.faults, undefined);
  const shown = byPath(fleetControls(table, echo));
  assert.deepEqual([shown.get('servers').kind, shown.get('servers').value], ['switch', true]);
  assert.deepEqual([shown.get('servers.count').kind, shown.get('servers.count').value], ['number', 4]);
  assert.deepEqual([shown.get('servers.overrides').kind, shown.get('servers.overrides').value], ['json', []]);
  const atDefault = {
    'balancer.kind': ['choice', 'round-robin'],
    'balancer.scope': ['choice', 'client'],
    'policy.retryHost': ['choice', 'any'],
    'policy.hostSelectionRetryMaxAttempts': ['number', 1],
    'server.serviceDist': ['choice', 'fixed'],
    'keyStore.scope': ['choice', 'shared'],
    'keyStore.lagMs': ['number', 0],
    faults: ['json', []],
  };
  for (const [path, [kind, value]] of Object.entries(atDefault)) {
    assert.ok(shown.has(path), `${path} has a control`);
    assert.deepEqual([shown.get(path).kind, shown.get(path).value], [kind, value], path);
  }
});

test('every sparse row with a default is held where the object that holds it is there, and a row switched off (null) is not', () => {
  for (const req of [{}, { servers: { count: 3 }, gates: { bucket: {} } }, { servers: { count: 2 }, policy: { maxRetries: 0, hedging: { maxAttempts: 2 } }, trigger: null }]) {
    const echo = echoOf(req);
    const held = heldRequest(table, echo);
    const shown = byPath(fleetControls(table, echo));
    for (const [path, row] of table.rows) {
      const dot = path.lastIndexOf('.');
      const holder = dot === -1 ? held : getPath(held, path.slice(0, dot));
      if (!row.sparse || row.default === undefined || row.default === null || !holder || typeof holder !== 'object') continue;
      // A field whose onlyWhen does not hold is not part of the run (docs/engine.md §4, step 3).
      if (row.onlyWhen && getPath(holder, row.onlyWhen.field) !== row.onlyWhen.value) continue;
      if (row.type === 'object') continue; // its members are the controls
      assert.ok(shown.has(path), `${JSON.stringify(req)}: ${path}`);
      if (getPath(echo, path) === undefined) assert.deepEqual(shown.get(path).value, rowDefault(path), path);
    }
    // What the echo says is what the control says.
    for (const c of shown.values()) if (c.kind !== 'switch' && getPath(echo, c.path) !== undefined) assert.deepEqual(c.value, getPath(echo, c.path), c.path);
  }
});

test('a fault list is typed as JSON: read back as a list of objects, and text that is not one is named', () => {
  const shown = byPath(fleetControls(table, echoOf({ servers: { count: 4 } })));
  const faults = shown.get('faults');
  const typed = '[{"kind":"crash","servers":[1],"startMs":2000,"endMs":4000}]';
  assert.deepEqual(readControl(faults, typed), { value: [{ kind: 'crash', servers: [1], startMs: 2000, endMs: 4000 }] });
  assert.deepEqual(readControl(faults, ''), { value: [] });
  assert.match(readControl(faults, '[{"kind":"crash"').problem, /JSON/);
  assert.match(readControl(faults, '{"kind":"crash"}').problem, /list of objects/);
  assert.match(readControl(faults, '[1,2]').problem, /list of objects/);
});

test('a comparison of two many-server runs changed by the controls reads back from its link as the same two runs', () => {
  const before = echoOf({ servers: { count: 4 }, faults: [{ kind: 'partition', servers: [0], startMs: 500, endMs: 1500 }] });
  const shown = byPath(fleetControls(table, before));
  // The after side: another balancer, previous hosts, the faults taken away, keys per server.
  let after = withControl(before, shown.get('balancer.kind'), 'two-choices', table);
  after = withControl(after, shown.get('policy.retryHost'), 'previous-hosts', table);
  after = withControl(after, shown.get('faults'), readControl(shown.get('faults'), '[]').value, table);
  after = withControl(after, shown.get('keyStore.scope'), 'per-server', table);
  const afterEcho = echoOf(after);
  assert.equal(afterEcho.balancer.kind, 'two-choices');
  assert.equal(afterEcho.faults, undefined, 'no faults: the sparse echo leaves them out');
  const link = encodeFleetCompareLink(before, afterEcho, table);
  assert.ok(link.includes('after.faults='), link);
  const read = parseFleetCompareLink(link, table);
  assert.deepEqual(read.problems, []);
  assert.deepEqual(echoOf(read.before), before);
  assert.deepEqual(echoOf(read.after), afterEcho);
});

test('a comparison whose after side leaves a part at a null default (no servers, the trigger on every server) reads back as the two runs', () => {
  // The sparse echo leaves `servers` and `trigger.servers` out at null; the after side still
  // holds null there (docs/engine.md §4, "What a sparse echo leaves out"), a difference the link says.
  const before = echoOf({ servers: { count: 3 }, trigger: { kind: 'slowdown', startMs: 500, endMs: 1500, factor: 3, servers: [0] } });
  for (const after of [echoOf({}), echoOf({ servers: { count: 3 } }), echoOf({ trigger: null })]) {
    const link = encodeFleetCompareLink(before, after, table);
    const read = parseFleetCompareLink(link, table);
    assert.deepEqual(read.problems, []);
    assert.deepEqual(echoOf(read.before), before, link);
    assert.deepEqual(echoOf(read.after), after, link);
  }
});
