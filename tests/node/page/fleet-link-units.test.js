// The parts of linked fleet runs (issue 30, part 3) that need no browser: the occ workload refused
// by a fleet link and by <retry-lab>'s attributes (web/fleet/model.js, embed.js), and the bound
// on what the page computes on its own thread from file:// (web/fleet/compute.js), whose
// expected attempts are FLEET.md §3's work formula, worked out here by hand.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { encodeFleetLink, fleetTable, parseFleetLink, requestDiff, undrawnWorkload } from '../../../web/fleet/model.js';
import { readFleetAttributes } from '../../../web/fleet/embed.js';
import { MAIN_THREAD_ATTEMPTS, expectedAttempts, mainThreadRefusal } from '../../../web/fleet/compute.js';
import { DIST } from '../../browser/lib/dist.js';

const require = createRequire(import.meta.url);
const fleetEngine = await require(join(DIST, 'retrylab-fleet.js'))();
const table = fleetTable(fleetEngine.fleetSchema());

test('a fleet link naming the occ workload is refused whole: nothing of it runs, and the reason names the workload', () => {
  const read = parseFleetLink('#v=1&view=fleet&workload=occ&clients=10', table);
  assert.equal(read.refused, true);
  assert.deepEqual(read.request, {});
  assert.equal(read.problems[0].key, 'workload');
  assert.match(read.problems[0].reason, /^is the occ workload \(clients contending for one row, FLEET\.md §7\), which this view does not draw/);
  // The service workload, named or not, is read as before (no `refused`).
  assert.deepEqual(parseFleetLink('#v=1&view=fleet&workload=service&clients=10', table), { request: { workload: 'service', clients: 10 }, problems: [] });
  assert.equal(undrawnWorkload({ clients: 10 }), '');
  assert.notEqual(undrawnWorkload({ workload: 'occ' }), '');
});

test('<retry-lab view="fleet" workload="occ">: the attribute is named, and no request is made of the others', () => {
  const read = readFleetAttributes([['view', 'fleet'], ['workload', 'occ'], ['clients', '10']], table);
  assert.deepEqual(read.request, {});
  assert.deepEqual(read.problems.map((p) => [p.key, p.value]), [['workload', 'occ']]);
  const linked = readFleetAttributes([['link', '#v=1&view=fleet&workload=occ']], table);
  assert.deepEqual(linked.problems.map((p) => p.key), ['link (workload)']);
});

test('the expected attempts are FLEET.md §3’s formula over the table’s defaults; the page’s thread takes at most MAIN_THREAD_ATTEMPTS', () => {
  const opening = table.opening;
  // The opening run: 100 clients × 1/s × 60 s × (3 retries + 1) = 24,000.
  assert.deepEqual(expectedAttempts({}, opening), { attempts: 24000, fields: ['clients', 'ratePerClient', 'durationMs', 'policy.maxRetries'] });
  // Issue 30's link: 100 × 1,000/s × 50 s × 4 = 20,000,000 (the work bound itself).
  const heavy = { ratePerClient: 1000, durationMs: 50000, policy: { baseBackoffMs: 0 }, server: { workers: null, serviceMs: 1, failureRate: 1 }, trigger: null };
  assert.equal(expectedAttempts(heavy, opening).attempts, 20000000);
  // A spike multiplies by its factor (at least 1); `once` arrivals are one request per client.
  assert.equal(expectedAttempts({ spike: { startMs: 0, endMs: 1000, factor: 3 } }, opening).attempts, 72000);
  assert.equal(expectedAttempts({ spike: { startMs: 0, endMs: 1000, factor: 0.5 } }, opening).attempts, 24000);
  assert.deepEqual(expectedAttempts({ arrivals: 'once', clients: 10 }, opening), { attempts: 40, fields: ['clients', 'policy.maxRetries'] });
  assert.equal(expectedAttempts({ workload: 'occ' }, opening), null);
  // The bound's edge: at it, computed; one attempt more, refused naming the estimate, the bound, the fields.
  const at = { clients: 100, ratePerClient: 1, durationMs: (MAIN_THREAD_ATTEMPTS / 400) * 1000 };
  assert.equal(expectedAttempts(at, opening).attempts, MAIN_THREAD_ATTEMPTS);
  assert.equal(mainThreadRefusal(at, opening), null);
  const over = mainThreadRefusal({ ...at, clients: 101 }, opening);
  assert.equal(over.ok, false);
  assert.deepEqual([over.errors[0].code, over.errors[0].estimate, over.errors[0].limit], ['too-large-for-this-page', MAIN_THREAD_ATTEMPTS * 1.01, MAIN_THREAD_ATTEMPTS]);
  assert.deepEqual(over.errors[0].fields, ['clients', 'ratePerClient', 'durationMs', 'policy.maxRetries']);
  assert.equal(over.errors[0].message, `This run ${over.errors[0].detail}`);
  assert.match(over.errors[0].detail, /^makes about 404,000 expected attempts/);
});

// docs/layers.md §9.5's 64 as a fleet link: `policy.layers` is written as the single run's
// `layers=` is (README, "Links to a run"), read back whole, and runs the same request.
test('a fleet link carries a stack of layers (policy.layers) both ways: written from the echo, read back, the same run', () => {
  const request = {
    clients: 1, arrivals: 'once', trigger: null, server: { serviceMs: 50, failureRate: 1 },
    policy: { baseBackoffMs: 0, clientTimeoutMs: 60000, maxRetries: 3, layers: [{ name: 'agent' }, { name: 'SDK' }, { name: 'HTTP' }] },
  };
  const run = fleetEngine.fleet(request);
  assert.equal(run.ok, true);
  assert.equal(run.totals.attemptsPerRequest, 64, '4 × 4 × 4 bottom attempts');
  const link = encodeFleetLink(requestDiff(run.request, table.opening, table));
  assert.match(link, /&policy\.layers=name:agent~maxRetries:3~[^,&]*key:none[^,&]*,name:SDK~[^,&]*key:pass[^,&]*,name:HTTP~/);
  const read = parseFleetLink(`#${link}`, table);
  assert.deepEqual(read.problems, []);
  assert.deepEqual(read.request.policy.layers, run.request.policy.layers);
  assert.deepEqual(fleetEngine.fleet(read.request).request, run.request);
  // `null` is the policy's own one layer; words that are no layer are named, not run.
  assert.equal(parseFleetLink('#v=1&view=fleet&policy.layers=null', table).request.policy.layers, null);
  const bad = parseFleetLink('#v=1&view=fleet&policy.layers=agent,SDK', table);
  assert.deepEqual(bad.request, {});
  assert.deepEqual(bad.problems.map((p) => [p.key, p.reason]), [['policy.layers', 'entry 1 has a part that is not name:value for one of its fields (agent)']]);
});
