// The fleet section's pure part (web/fleet/model.js, chart.js, presets.js) in node: the fleet
// link, the request's differences, the verdict and side effects read from results. The results
// are the independent model's (../shared/conformance/fleet-cases.json), not the engine's.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  encodeFleetLink, fleetTable, isFleetLink, parseFleetLink, requestDiff, sideEffectsOf, stormSeries, verdictOf,
} from '../../../web/fleet/model.js';
import { binText, stormChart, stormSummary, timelineCsv } from '../../../web/fleet/chart.js';
import { fleetPresets } from '../../../web/fleet/presets.js';
import { toMarkup } from '../../../web/dom.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const CASES = JSON.parse(readFileSync(join(repo, '../shared/conformance/fleet-cases.json'), 'utf8')).cases;
const caseNamed = (name) => CASES.find((c) => c.name === name);
const opening = caseNamed('9.5 the opening fleet run').result;
const table = fleetTable({}, opening.request);

test('the opening run is the empty request: its link is the view alone', () => {
  assert.deepEqual(requestDiff(opening.request, opening.request, table), {});
  assert.equal(encodeFleetLink({}), 'v=1&view=fleet');
});

test('a request’s differences are what the independent model was asked (FLEET §9.5’s variants)', () => {
  for (const name of ['9.5 no retries', '9.5 drop unfinishable', '9.5 lifo', '9.5 token bucket', 'fleet-scoped bucket', 'breaker']) {
    const c = caseNamed(name);
    assert.deepEqual(requestDiff(c.result.request, opening.request, table), c.request, name);
  }
});

test('a fleet link reads back as the request it was written from', () => {
  const requests = [
    {},
    { policy: { maxRetries: 0 } },
    { server: { dropStale: 'unfinishable', queueOrder: 'lifo' }, ratePerClient: 0.75 },
    { gates: { bucket: {} } },
    { gates: { bucket: { scope: 'fleet' }, breaker: { window: 20, minCalls: 10, openMs: 5000 } } },
    { trigger: { kind: 'slowdown', startMs: 10000, endMs: 30000, factor: 2.5 }, policy: { jitter: 'full', maxBackoffMs: null } },
    { trigger: null, policy: { retryOn: ['timeout'] } },
  ];
  for (const r of requests) {
    const link = encodeFleetLink(r);
    assert.ok(isFleetLink(`#${link}`), link);
    assert.deepEqual(parseFleetLink(`#${link}`, table), { request: r, problems: [] }, link);
  }
});

test('a fleet link’s unreadable parts are named, and the rest is read', () => {
  const { request, problems } = parseFleetLink('#v=1&view=fleet&policy.maxRetries=abc&no.such=1&gates.bucket=maybe&server.queueOrder=lifo&server.queueOrder=fifo&gates.quota.capacity=9', table);
  assert.deepEqual(request, { gates: { quota: { capacity: 9 } } });
  assert.deepEqual(problems.map((p) => p.key), ['policy.maxRetries', 'no.such', 'gates.bucket', 'server.queueOrder']);
  assert.deepEqual(parseFleetLink('#v=2&view=fleet&policy.maxRetries=1', table).request, {});
  assert.equal(isFleetLink('#v=1&maxRetries=2'), false);
});

test('the verdict is read from `recovery`: metastable for the opening run, the recovery time for its variants', () => {
  const v = verdictOf(opening);
  assert.equal(v.kind, 'metastable');
  assert.match(v.text, /^Still down when new requests stop at 60 s: a metastable failure\. The slowdown ended at 20 s/);
  // The cause from the data: the opening run's failures all ran out of attempts.
  assert.match(v.text, new RegExp(`Of its ${opening.totals.failed['attempt-limit'].toLocaleString('en-US')} failed requests, ${opening.totals.failed['attempt-limit'].toLocaleString('en-US')} ended out of attempts\\.$`));
  for (const [name, s] of [['9.5 no retries', 24], ['9.5 token bucket', 30], ['9.5 drop unfinishable', 22], ['9.5 lifo', 20]]) {
    const r = caseNamed(name).result;
    assert.equal(verdictOf(r).kind, 'recovered');
    assert.match(verdictOf(r).text, new RegExp(`^Recovered at ${s} s:`), name);
  }
  assert.equal(verdictOf({ ...opening, recovery: null }).kind, 'none');
  assert.equal(verdictOf({ ...opening, recovery: { triggerEndMs: 58000, recoveredAtMs: null, metastable: false } }).kind, 'undecided');
});

test('side effects: every commit not confirmed in time is the late answers’ when nothing fails on the server', () => {
  const keyed = { ...opening, totals: { ...opening.totals, charges: opening.totals.requests, replays: opening.totals.charges - opening.totals.requests, duplicateCharges: 0 } };
  const fx = sideEffectsOf(opening, keyed);
  // failureRate 0 and no outage: every late answer is a 200, a charge no one saw confirmed.
  assert.equal(fx.unconfirmed, opening.totals.late);
  assert.ok(fx.summary.includes(opening.totals.duplicateCharges.toLocaleString('en-US')));
  const charges = fx.rows.find((r) => r[0] === 'charges made');
  assert.deepEqual(charges.slice(1), [opening.totals.charges.toLocaleString('en-US'), opening.totals.requests.toLocaleString('en-US')]);
  const reads = sideEffectsOf({ ...opening, request: { ...opening.request, operation: 'read' } }, keyed);
  assert.ok(!reads.rows.some((r) => r[0] === 'charges made'));
});

test('the storm’s series: offered = first attempts + retries, capacity = workers ÷ service time, slowed ×4 in the slowdown', () => {
  const s = stormSeries(opening);
  assert.equal(s.points.length, opening.timeline.bins.length);
  s.points.forEach((p, i) => {
    const b = opening.timeline.bins[i];
    assert.equal(p.offered, b.firstAttempts + b.retries);
    // FLEET §3: 10 workers, 50 ms each: 200 a second; ×4 as long from 10 to 20 s: 50.
    assert.equal(p.capacity, i >= 10 && i < 20 ? 50 : 200);
  });
  const svg = toMarkup(stormChart(s, { id: 't' }));
  assert.ok(svg.startsWith('<svg'));
  assert.ok(svg.includes('slowdown ends 20 s') && svg.includes('new requests stop 60 s') && !svg.includes('recovered '));
  assert.match(stormSummary(s), /metastable failure/);
  assert.match(binText(s, 12), /^12–13 s: /);
  const csv = timelineCsv(opening).trim().split('\r\n');
  assert.equal(csv.length, opening.timeline.bins.length + 1);
  assert.equal(csv[1].split(',')[0], '0');
});

test('each fleet preset sets only gates, each with its source and what it cannot represent', () => {
  const presets = fleetPresets();
  const ids = presets.map((p) => p.id);
  for (const id of ['client:aws-botocore-standard', 'client:aws-botocore-2026', 'client:grpc-go-169', 'budget:finagle', 'budget:sre', 'client:resilience4j', 'client:dotnet-standard']) {
    assert.ok(ids.includes(id), id);
  }
  for (const p of presets) {
    assert.ok(Object.keys(p.gates).length > 0, p.id);
    assert.ok(Object.keys(p.gates).every((g) => ['quota', 'bucket', 'throttle', 'budget', 'breaker'].includes(g)), p.id);
    assert.ok(p.source && p.cannot.length > 0, p.id);
  }
  // The 2026 costs, as the client lab's sources read them (botocore: 14 for any retry).
  assert.deepEqual(presets.find((p) => p.id === 'client:aws-botocore-2026').gates.quota, { capacity: 500, retryCost: 14, timeoutCost: 14, successIncrement: 1 });
  // FLEET §5: the SRE book's 10 %.
  assert.deepEqual(presets.find((p) => p.id === 'budget:sre').gates.budget, { percent: 10, minPerSecond: 0 });
});

test('the copies of the anchors’ figures in web/fleet/reference.js are the reference files', async () => {
  const { AWS_2015_PEER, BROOKER_2022_POLICIES, BROOKER_2022_CLIENTS } = await import('../../../web/fleet/reference.js');
  const read = (file) => readFileSync(join(repo, '../shared/reference', file), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
  const aws = {};
  for (const [c, t, w, a] of read('aws-2015-peer-seed1.csv')) (aws[a] = aws[a] || []).push([+c, +t, +w]);
  for (const k of Object.keys(aws)) aws[k].sort((x, y) => x[0] - y[0]);
  assert.deepEqual(AWS_2015_PEER, aws);
  for (const [file, copy] of [['brooker-2022-policies.csv', BROOKER_2022_POLICIES], ['brooker-2022-clients.csv', BROOKER_2022_CLIENTS]]) {
    const by = {};
    for (const [p, s, t, u, n] of read(file)) (by[n] = by[n] || []).push([+p, +s, +t, +u]);
    assert.deepEqual(copy, by, file);
  }
});

// A fake page for fleetComputer: a clock the test moves, timers it runs, and workers that
// answer when the test says so.
function fakeView() {
  const view = { now: 0, workers: [], timers: [] };
  view.performance = { now: () => view.now };
  view.setTimeout = (fn) => { view.timers.push(fn); return view.timers.length; };
  view.clearTimeout = () => {};
  view.Worker = class {
    constructor(url) { this.url = url; this.listeners = {}; this.posted = []; this.ended = false; view.workers.push(this); }
    addEventListener(type, fn) { this.listeners[type] = fn; }
    postMessage(message) { this.posted.push(message); }
    terminate() { this.ended = true; }
    // The worker's answer to its last job: each result, then done.
    answer(results) {
      const { id } = this.posted[this.posted.length - 1];
      results.forEach((result, index) => this.listeners.message({ data: { id, index, result } }));
      this.listeners.message({ data: { id, done: true } });
    }
  };
  return view;
}

test('a newer input replaces a waiting one, a stale computation’s results are dropped, and one running over 300 ms is ended', async () => {
  const { fleetComputer, STALE_MS } = await import('../../../web/fleet/compute.js');
  const view = fakeView();
  const c = fleetComputer(view, { engineUrl: 'e.js', bundleUrl: 'b.js', mainEngine: () => Promise.reject(new Error('no')) });
  const seen = [];
  const handlers = (name) => ({ onResult: (i, r) => seen.push(`${name} result ${r}`), onDone: () => seen.push(`${name} done`) });
  c.run(['a'], handlers('A'));
  assert.equal(view.workers.length, 1);
  view.now = 100; // A is young: B waits for it, then C replaces B
  c.run(['b'], handlers('B'));
  c.run(['c'], handlers('C'));
  view.workers[0].answer(['ra']); // A finishes: its results are stale (C is newer), and C starts
  assert.deepEqual(seen, []);
  assert.deepEqual(view.workers[0].posted.map((m) => m.requests), [['a'], ['c']]);
  view.workers[0].answer(['rc']);
  assert.deepEqual(seen, ['C result rc', 'C done']);
  // D runs past STALE_MS: E ends its worker and starts in a fresh one.
  c.run(['d'], handlers('D'));
  view.now += STALE_MS + 1;
  c.run(['e'], handlers('E'));
  assert.equal(view.workers[0].ended, true);
  assert.equal(view.workers.length, 2);
  view.workers[1].answer(['re']);
  assert.deepEqual(seen.slice(2), ['E result re', 'E done']);
  assert.equal(c.busy(), false);
});
