// Issue 39 in the fleet section's pure part: the fleet link carries every input docs/servers.md
// §2 adds (web/fleet/model.js, read by the fleet engine file's own table), the controls' values
// and the requests they make (servers-controls.js), the presets exactly as §13.3 fixes them
// (servers-presets.js), and the per-server words and strip (servers.js) drawn from a result
// of the engine file the page serves. Expected figures are §13.3's and §12's, by hand.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { disturbanceWord, encodeFleetLink, fleetTable, parseFleetLink, requestDiff, verdictOf } from '../../../web/fleet/model.js';
import { SERVER_CONTROLS, controlValue, withControl } from '../../../web/fleet/servers-controls.js';
import { serverPresets } from '../../../web/fleet/servers-presets.js';
import { hasServers, serverRows, serverVerdict, serverVerdictsText, serversChart, serversWords } from '../../../web/fleet/servers.js';
import { toMarkup } from '../../../web/dom.js';
import { DIST } from '../../browser/lib/dist.js';

const require = createRequire(import.meta.url);
const fleetEngine = await require(join(DIST, 'retrylab-fleet.js'))();
const table = fleetTable(fleetEngine.fleetSchema());
const run = (req) => {
  const r = fleetEngine.fleet(req);
  assert.equal(r.ok, true, JSON.stringify(r.errors));
  return r;
};
// The link of a request as the section writes it (address.js): the echo's differences.
const linkOf = (req) => encodeFleetLink(requestDiff(run(req).request, table.opening, table), table);

// Every input §2 adds to the fleet, each away from its default, in one request.
const EVERY = {
  servers: { count: 4, overrides: [{ index: 0, failureRate: 1 }, { index: 2, serviceDist: 'lognormal', serviceSigma: 0.5, workers: 3 }] },
  balancer: { kind: 'least-outstanding', scope: 'fleet' },
  policy: { retryHost: 'previous-hosts', hostSelectionRetryMaxAttempts: 3 },
  faults: [{ kind: 'crash', servers: [1], startMs: 5000, endMs: 8000 }, { kind: 'partition', servers: null, startMs: 30000, endMs: 31000 }],
  trigger: { kind: 'slowdown', startMs: 10000, endMs: 20000, factor: 4, servers: [0, 3] },
  server: { serviceDist: 'exponential' },
  keyStore: { scope: 'replicated', lagMs: 250 },
  durationMs: 40000,
};

test('the fleet table has §2’s rows, so the section builds every server control from it', () => {
  for (const path of ['servers.count', 'servers.overrides', 'balancer.kind', 'balancer.scope', 'policy.retryHost', 'policy.hostSelectionRetryMaxAttempts', 'faults', 'trigger.servers', 'server.serviceDist', 'server.serviceSigma', 'keyStore.scope', 'keyStore.lagMs']) {
    assert.ok(table.rows.get(path), `no row ${path}`);
  }
  assert.deepEqual(table.rows.get('balancer.kind').choices.map((c) => c.name), ['round-robin', 'random', 'least-outstanding', 'two-choices']);
  assert.deepEqual(table.rows.get('policy.retryHost').choices.map((c) => c.name), ['any', 'previous-hosts']);
});

test('a fleet link carries every input §2 adds: parsed back, it is the request that made it, and runs to the same result', () => {
  const hash = linkOf(EVERY);
  const { request, problems } = parseFleetLink(`#${hash}`, table);
  assert.deepEqual(problems, []);
  const a = run(EVERY);
  const b = run(request);
  assert.deepEqual(b.request, a.request, hash);
  assert.deepEqual(b.totals, a.totals);
  // And the link of the parsed request is the same link.
  assert.equal(linkOf(request), hash);
});

for (const [name, req] of [
  ['servers.count alone', { servers: { count: 3 } }],
  ['servers: {} (two replicas, §2)', { servers: {} }],
  ['an override', { servers: { count: 2, overrides: [{ index: 1, serviceMs: 80 }] } }],
  ['the balancer’s kind', { balancer: { kind: 'two-choices' } }],
  ['the balancer’s scope', { balancer: { scope: 'fleet' } }],
  ['the retry host rule', { policy: { retryHost: 'previous-hosts' } }],
  ['host_selection_retry_max_attempts', { policy: { retryHost: 'previous-hosts', hostSelectionRetryMaxAttempts: 0 } }],
  ['a crash on every server (servers null)', { faults: [{ kind: 'crash', servers: null, startMs: 1000, endMs: 2000 }] }],
  ['a partition on two', { servers: { count: 3 }, faults: [{ kind: 'partition', servers: [0, 2], startMs: 1000, endMs: 2000 }] }],
  ['the trigger on some servers', { servers: { count: 3 }, trigger: { kind: 'slowdown', startMs: 10000, endMs: 20000, factor: 4, servers: [1] } }],
  ['exponential service', { server: { serviceDist: 'exponential' } }],
  ['log-normal service and its σ', { server: { serviceDist: 'lognormal', serviceSigma: 2 } }],
  ['per-server keys', { keyStore: { scope: 'per-server' } }],
  ['a replicated store’s lag', { keyStore: { scope: 'replicated', lagMs: 50.5 } }],
]) {
  test(`the fleet link round trip: ${name}`, () => {
    const hash = linkOf(req);
    const { request, problems } = parseFleetLink(`#${hash}`, table);
    assert.deepEqual(problems, [], hash);
    assert.deepEqual(run(request).request, run(req).request, hash);
  });
}

test('a field at its default is left out of the link, as every field is (the sparse echo)', () => {
  assert.equal(linkOf({ balancer: { kind: 'round-robin', scope: 'client' }, policy: { retryHost: 'any' }, keyStore: { scope: 'shared', lagMs: 0 } }), 'v=1&view=fleet');
  assert.equal(linkOf({}), 'v=1&view=fleet');
  // An object echoed whole once one member differs: its members at their defaults are left out.
  assert.equal(linkOf({ balancer: { kind: 'two-choices' } }), 'v=1&view=fleet&balancer.kind=two-choices');
  assert.equal(linkOf({ keyStore: { scope: 'per-server' } }), 'v=1&view=fleet&keyStore.scope=per-server');
});

test('a member of `servers` at its own default is left out of the link unless it alone brings `servers` in', () => {
  // The engine echoes `servers.overrides: []` for `servers: { count: 3 }`: the link says count only,
  // and reads back to the same run.
  assert.equal(linkOf({ servers: { count: 3 } }), 'v=1&view=fleet&servers.count=3');
  assert.equal(linkOf({ servers: { count: 3, overrides: [] } }), 'v=1&view=fleet&servers.count=3');
  // Every member at its default (`servers: {}`, two replicas): one of them still says `servers` is on.
  assert.equal(linkOf({ servers: {} }), 'v=1&view=fleet&servers.count=2');
  for (const req of [{ servers: { count: 3 } }, { servers: {} }]) {
    const { request, problems } = parseFleetLink(`#${linkOf(req)}`, table);
    assert.deepEqual(problems, []);
    assert.deepEqual(run(request).request, run(req).request);
  }
});

test('a link’s list of server indices that is not numbers is said, not run', () => {
  const { problems } = parseFleetLink('#v=1&view=fleet&trigger.servers=0,x', table);
  assert.deepEqual(problems.map((p) => [p.key, p.reason]), [['trigger.servers', 'is not a list of numbers']]);
});

test('the presets are §13.3’s requests exactly', () => {
  const [istio, envoy5xx, crash, partition] = serverPresets();
  const badHost = { servers: { count: 10, overrides: [{ index: 0, failureRate: 1 }] }, balancer: { kind: 'two-choices', scope: 'client' } };
  assert.deepEqual(istio.request, { ...badHost, policy: { maxRetries: 2, retryHost: 'previous-hosts', hostSelectionRetryMaxAttempts: 5, retryOn: ['refused'] } });
  assert.deepEqual(envoy5xx.request, { ...badHost, policy: { maxRetries: 2, retryHost: 'previous-hosts', hostSelectionRetryMaxAttempts: 5, retryOn: ['5xx'] } });
  assert.deepEqual(crash.request.faults, [{ kind: 'crash', servers: [0], startMs: 10000, endMs: 20000 }]);
  assert.deepEqual(partition.request.faults, [{ kind: 'partition', servers: [0], startMs: 10000, endMs: 20000 }]);
  // The fleet's own client policy (§13.3): retryOn and clientTimeoutMs untouched.
  for (const p of [crash, partition]) {
    assert.equal(p.request.policy.retryOn, undefined);
    assert.equal(p.request.policy.clientTimeoutMs, undefined);
    assert.deepEqual(p.request.servers, { count: 10 });
  }
  // Each cites Envoy’s and Istio’s pinned reads (§13.1, §13.2).
  assert.match(istio.source, /126806ab/);
  assert.match(istio.source, /v1\.37\.0/);
  assert.match(istio.cannot.join(' '), /Istio retries a refused connection, not a 500/);
});

test('the controls: replicas from the table’s default of one server, server 0’s failure rate an override, its fault the §2 list', () => {
  const c = (path) => SERVER_CONTROLS.find((x) => x.path === path);
  assert.equal(controlValue(table, table.opening, c('servers.count'), {}), 1);
  assert.equal(controlValue(table, table.opening, c('balancer.kind'), {}), 'round-robin');
  assert.equal(controlValue(table, table.opening, c('policy.retryHost'), {}), 'any');
  assert.equal(controlValue(table, table.opening, c('faults'), {}), 'none');
  let req = withControl(table, table.opening, c('servers.count'), {}, 10);
  assert.deepEqual(req, { servers: { count: 10 } });
  req = withControl(table, table.opening, c('server.failureRate'), req, 1);
  assert.deepEqual(req, { servers: { count: 10, overrides: [{ index: 0, failureRate: 1 }] } });
  req = withControl(table, table.opening, c('faults'), req, 'partition');
  assert.deepEqual(req.faults, [{ kind: 'partition', servers: [0], startMs: 10000, endMs: 20000 }]);
  assert.equal(controlValue(table, table.opening, c('faults'), req), 'partition');
  // Back to the server's own failure rate: the override goes.
  assert.deepEqual(withControl(table, table.opening, c('server.failureRate'), req, table.opening.server.failureRate).servers, { count: 10 });
  // Fewer replicas than an override's or a fault's index: they go (§2 refuses them).
  const one = withControl(table, table.opening, c('servers.count'), { servers: { count: 3, overrides: [{ index: 2, failureRate: 1 }] }, faults: [{ kind: 'crash', servers: [2], startMs: 0, endMs: 1 }] }, 2);
  assert.deepEqual(one, { servers: { count: 2 }, faults: [] });
});

test('serversWords and serverVerdict say the indices and FLEET §8’s per-server rule in words', () => {
  assert.equal(serversWords([0]), 'server 0');
  assert.equal(serversWords([1, 2, 3, 4, 5, 6, 7, 8, 9]), 'servers 1–9');
  assert.equal(serversWords([0, 2, 3, 5]), 'servers 0, 2, 3 and 5');
  assert.equal(serverVerdict({ disrupted: false, recoveredAtMs: 20000, metastable: false }).words, 'never disrupted');
  assert.equal(serverVerdict({ disrupted: true, recoveredAtMs: 21000, metastable: false }).words, 'disrupted; healthy again from 21 s');
  assert.equal(serverVerdict({ disrupted: true, recoveredAtMs: null, metastable: true }).kind, 'metastable');
});

test('§12.2’s crash, in the per-server words and strip: server 0 disrupted and healthy again from 1 s, server 1 never disrupted', () => {
  const r = run({ clients: 1, arrivals: 'once', trigger: null, network: { dist: 'fixed', ms: 5 }, servers: { count: 2 }, faults: [{ kind: 'crash', servers: [0], startMs: 0, endMs: 1000 }] });
  assert.ok(hasServers(r));
  assert.equal(serverVerdictsText(r), 'Server by server (each judged by its own attempts, as the fleet is): server 0: disrupted; healthy again from 1 s; server 1: never disrupted.');
  const rows = serverRows(r);
  assert.deepEqual(rows.map((x) => [x[0], x[1], x[2], x[5]]), [['0', '1', '0', '1'], ['1', '1', '1', '0']]);
  const svg = toMarkup(serversChart(r, { id: 't' }));
  assert.equal((svg.match(/>server \d+</g) || []).length, 2, 'a row per server');
  assert.equal((svg.match(/class="fl-trigger fl-window-crash"/g) || []).length, 1, 'the crash shaded on server 0’s row only');
});

test('a run with one server and no fault has no per-server rows', () => {
  assert.equal(hasServers(run({ durationMs: 2000 })), false);
});

test('the verdict and the storm’s mark name the disturbance: a fault’s kind where there is no trigger (docs/servers.md §8.3)', () => {
  assert.equal(disturbanceWord({ trigger: null, faults: [{ kind: 'crash' }] }), 'crash');
  assert.equal(disturbanceWord({ trigger: null, faults: [{ kind: 'partition' }, { kind: 'partition' }] }), 'partition');
  assert.equal(disturbanceWord({ trigger: { kind: 'slowdown' }, faults: [] }), 'slowdown');
  assert.equal(disturbanceWord({ trigger: { kind: 'outage' } }), 'outage');
  assert.equal(disturbanceWord({ trigger: { kind: 'slowdown' }, faults: [{ kind: 'crash' }] }), 'disturbance');
  // §12.2's crash: the fleet rode it out (disrupted false), its crash ending at 1 s.
  const r = run({ clients: 1, arrivals: 'once', trigger: null, network: { dist: 'fixed', ms: 5 }, servers: { count: 2 }, faults: [{ kind: 'crash', servers: [0], startMs: 0, endMs: 1000 }] });
  assert.match(verdictOf(r).text, /^Rode it out: from the crash’s start .* The crash \(it ended at 1 s\)/);
});

test('the storm’s capacity line with K servers is the sum of theirs: ten replicas ten times one, nine while one of them is down', async () => {
  const { stormSeries } = await import('../../../web/fleet/model.js');
  const at = (series, ms) => series.points.find((p) => p.startMs === ms).capacity;
  const one = stormSeries(run({ durationMs: 30000 }));
  const ten = stormSeries(run({ durationMs: 30000, servers: { count: 10 } }));
  const crash = stormSeries(run({ durationMs: 30000, servers: { count: 10 }, trigger: null, faults: [{ kind: 'crash', servers: [0], startMs: 10000, endMs: 20000 }] }));
  assert.ok(at(one, 0) > 0);
  assert.equal(at(ten, 0), 10 * at(one, 0));
  assert.equal(at(ten, 15000), 10 * at(one, 15000), 'the slowdown on every server');
  assert.equal(at(crash, 15000), 9 * at(one, 0));
  assert.equal(at(crash, 25000), 10 * at(one, 0));
});
