// The value a fleet run holds where its sparse echo leaves a field out (docs/engine.md §4, "What
// a sparse echo leaves out"): one rule, heldValue, which the fleet link's differences
// (requestDiff) and compare mode's controls (heldRequest, fleetControls) both read. Each edge
// is worked from the docs' six steps: first on a small table made for them, then on the
// engine's own fleet table.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fleetTable, heldRequest, heldValue, requestDiff } from '../../../web/fleet/model.js';
import { fleetControls } from '../../../web/compare/fleet.js';
import { DIST } from '../../browser/lib/dist.js';

// A table with one row for each edge: a part null by default (`part`), an object left out at its
// default (`box`), an object always echoed with a sparse member, one under onlyWhen and a sparse
// list null by default (`host`), and a variant whose second kind has members of its own.
const small = fleetTable({
  fleet: [
    { name: 'a', type: 'number', default: 1 },
    { name: 'part', type: 'object', nullable: true, sparse: true, default: null, members: [{ name: 'n', type: 'number', default: 2 }] },
    { name: 'box', type: 'object', sparse: true, default: { kind: 'x', size: 3 }, members: [{ name: 'kind', type: 'choice', default: 'x' }, { name: 'size', type: 'number', default: 3 }] },
    {
      name: 'host', type: 'object', default: { dist: 'fixed' }, members: [
        { name: 'dist', type: 'choice', default: 'fixed' },
        { name: 'sigma', type: 'number', sparse: true, default: 1, onlyWhen: { field: 'dist', value: 'lognormal' } },
        { name: 'pick', type: 'choice', sparse: true, default: 'any' },
        { name: 'only', type: 'list', sparse: true, nullable: true, default: null },
      ],
    },
    {
      name: 'trigger', type: 'variant', nullable: true, discriminator: 'kind', default: { kind: 'slow', factor: 4 }, variants: [
        { name: 'slow', members: [{ name: 'factor', type: 'number', default: 4 }] },
        { name: 'down', members: [{ name: 'span', type: 'number' }] },
      ],
    },
  ],
});
const echo = { a: 1, host: { dist: 'fixed' }, trigger: { kind: 'slow', factor: 4 } };

test('step 1: the echo’s own value, null included', () => {
  assert.deepEqual(heldValue(small, { ...echo, a: 7 }, 'a'), { held: true, value: 7 });
  assert.deepEqual(heldValue(small, { ...echo, trigger: null }, 'trigger'), { held: true, value: null });
});

test('step 5: a sparse row left out holds its default, null included (a part off by default)', () => {
  assert.deepEqual(heldValue(small, echo, 'part'), { held: true, value: null });
  assert.deepEqual(heldValue(small, echo, 'host.only'), { held: true, value: null });
  assert.deepEqual(heldValue(small, echo, 'host.pick'), { held: true, value: 'any' });
  const held = heldRequest(small, echo);
  assert.ok('part' in held && held.part === null, JSON.stringify(held));
  assert.ok('only' in held.host && held.host.only === null, JSON.stringify(held));
});

test('step 2: a member of an object the run holds as null holds nothing', () => {
  assert.deepEqual(heldValue(small, echo, 'part.n'), { held: false });
  assert.deepEqual(heldValue(small, { ...echo, trigger: null }, 'trigger.factor'), { held: false });
  assert.equal(heldRequest(small, echo).part, null);
});

test('step 4: a member of an object left out at its default holds the object’s member', () => {
  assert.deepEqual(heldValue(small, echo, 'box'), { held: true, value: { kind: 'x', size: 3 } });
  assert.deepEqual(heldValue(small, echo, 'box.kind'), { held: true, value: 'x' });
  const held = heldRequest(small, echo);
  assert.deepEqual(held.box, { kind: 'x', size: 3 });
  held.box.size = 9;
  assert.equal(small.rows.get('box').default.size, 3, 'the held value is a copy, not the table’s default');
});

test('step 3: a field whose onlyWhen does not hold holds nothing; where it holds, its default', () => {
  assert.deepEqual(heldValue(small, echo, 'host.sigma'), { held: false });
  assert.equal('sigma' in heldRequest(small, echo).host, false);
  const lognormal = { ...echo, host: { dist: 'lognormal' } };
  assert.deepEqual(heldValue(small, lognormal, 'host.sigma'), { held: true, value: 1 });
  assert.equal(heldRequest(small, lognormal).host.sigma, 1);
});

test('step 6: an absent row that is not sparse is not part of the run, whatever its row’s default', () => {
  const down = { ...echo, trigger: { kind: 'down', span: 5 } };
  assert.deepEqual(heldValue(small, down, 'trigger.factor'), { held: false });
  assert.equal('factor' in heldRequest(small, down).trigger, false);
});

test('the fleet link leaves out exactly what the opening run holds: a difference from a held value is written', () => {
  // A part null by default and switched on is a difference; the box at its default is not.
  assert.deepEqual(requestDiff({ ...echo, part: { n: 2 } }, echo, small), { part: { n: 2 } });
  assert.deepEqual(requestDiff({ ...echo, box: { kind: 'x', size: 3 } }, echo, small), {});
  assert.deepEqual(requestDiff({ ...echo, box: { kind: 'y', size: 3 } }, echo, small), { box: { kind: 'y' } });
  // Against an opening run in an outage, the slowdown's factor is a difference (step 6).
  const down = { ...echo, trigger: { kind: 'down', span: 5 } };
  assert.deepEqual(requestDiff(echo, down, small), { trigger: { kind: 'slow', factor: 4 } });
});

const require = createRequire(import.meta.url);
const fleetEngine = await require(join(DIST, 'retrylab-fleet.js'))();
const table = fleetTable(fleetEngine.fleetSchema());
const echoOf = (req) => {
  const r = fleetEngine.fleet({ durationMs: 2000, ...req });
  assert.equal(r.ok, true, JSON.stringify(r.errors));
  return r.request;
};

test('the engine’s table: a run holds the key store at its default, and nothing of the servers it does not have', () => {
  const opening = echoOf({});
  assert.deepEqual(heldValue(table, opening, 'keyStore.scope'), { held: true, value: 'shared' });
  assert.deepEqual(heldValue(table, opening, 'servers'), { held: true, value: null });
  assert.deepEqual(heldValue(table, opening, 'servers.count'), { held: false });
  assert.deepEqual(heldValue(table, opening, 'server.serviceDist'), { held: true, value: 'fixed' });
});

test('the engine’s table: the service time’s sigma is held, and has a box, only beside a log-normal service time', () => {
  const fixed = echoOf({ servers: { count: 2 } });
  assert.deepEqual(heldValue(table, fixed, 'server.serviceSigma'), { held: false });
  assert.equal(fleetControls(table, fixed).some((c) => c.path === 'server.serviceSigma'), false);
  const lognormal = echoOf({ servers: { count: 2 }, server: { serviceDist: 'lognormal' } });
  assert.deepEqual(heldValue(table, lognormal, 'server.serviceSigma'), { held: true, value: 1 });
  assert.deepEqual(fleetControls(table, lognormal).find((c) => c.path === 'server.serviceSigma').value, 1);
  // A request made of the held values is one the engine takes and echoes as the same run.
  for (const e of [fixed, lognormal]) assert.deepEqual(echoOf(heldRequest(table, e)), e);
});

test('the engine’s table: an outage holds no slowdown factor', () => {
  const outage = echoOf({ trigger: { kind: 'outage', startMs: 100, endMs: 200 } });
  assert.deepEqual(heldValue(table, outage, 'trigger.factor'), { held: false });
  assert.deepEqual(heldValue(table, outage, 'trigger.servers'), { held: true, value: null });
  assert.deepEqual(echoOf(heldRequest(table, outage)), outage);
});
