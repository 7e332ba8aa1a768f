// docs/servers.md §2's single-run inputs in a link (README, "Links to a run"): `balancer` and
// `keyStore` are one key each as `hedging` is, `faults` a stack as `layers` is, `retryHost` and
// `hostSelectionRetryMaxAttempts` plain values; the page's codec (web/share/codec.js) writes and
// reads them from the engine's table, retrysim --link (bindings/cli/link.cpp) reads them to the
// same run. `servers` (its overrides' scripts are lists inside a list) is not in v=1 yet.
'use strict';

const assert = require('node:assert/strict');
const { test, before } = require('node:test');

const { loadLinkSide, cliLinkRun, asJson, firstDifference } = require('./support.js');

let engine;
let codec;
let readLink;
let explorable;
before(async () => {
  ({ engine, codec, readLink, explorable } = await loadLinkSide());
});

const cliRun = cliLinkRun;

const script = { scenario: 'script', script: [{ status: 200 }] };
const RUNS = {
  'a crash on the one server refuses attempt 1 (§5)': { ...script, faults: [{ kind: 'crash', servers: [0], startMs: 0, endMs: 400 }] },
  'a crash on every server aborts the work, then a partition': { ...script, idempotencyKey: true,
    faults: [{ kind: 'crash', startMs: 100, endMs: 150 }, { kind: 'partition', servers: [0], startMs: 650, endMs: 700.5 }] },
  'an empty fault, a fault on no server': { ...script, faults: [{ kind: 'partition', servers: [], startMs: 0, endMs: 9000 }, { kind: 'crash', startMs: 10, endMs: 10 }] },
  'every balancer and store member given': { idempotencyKey: true, balancer: { kind: 'two-choices', scope: 'client' },
    retryHost: 'previous-hosts', hostSelectionRetryMaxAttempts: 5, keyStore: { scope: 'replicated', lagMs: 50.5 }, retryOn: ['refused', 'timeout'] },
};

test('a run with the many-servers inputs written into a link reads back as the same run, on the page and in retrysim', () => {
  for (const [label, inputs] of Object.entries(RUNS)) {
    const run = engine.compute(inputs);
    assert.equal(run.ok, true, `${label}: ${JSON.stringify(run.errors)}`);
    const link = codec.encodeLink(run.inputs);
    const shown = readLink(link, explorable);
    assert.deepEqual(shown.problems, [], `${label}: ${link}`);
    assert.equal(firstDifference(asJson(shown.result), asJson(run)), null, `${label}: the page reads ${link}`);
    const cli = cliRun(link);
    assert.equal(cli.status, 0, `${label}: ${cli.stderr}`);
    assert.equal(firstDifference(cli.json, asJson(run)), null, `${label}: retrysim reads ${link}`);
  }
});

test('the texts, worked from the README\'s rules: members at their defaults left out', () => {
  assert.equal(codec.valueText('faults', [{ kind: 'crash', servers: [0], startMs: 0, endMs: 5000 }]), 'kind:crash~servers:0~startMs:0~endMs:5000');
  assert.equal(codec.valueText('faults', [{ kind: 'crash', servers: null, startMs: 0, endMs: 1 }, { kind: 'partition', servers: [1, 0], startMs: 2, endMs: 3 }]),
    'kind:crash~startMs:0~endMs:1,kind:partition~servers:1;0~startMs:2~endMs:3');
  assert.equal(codec.valueText('balancer', { kind: 'random' }), 'kind:random');
  assert.equal(codec.valueText('keyStore', { scope: 'replicated', lagMs: 50 }), 'scope:replicated~lagMs:50');
  const run = engine.compute({ retryHost: 'previous-hosts', keyStore: { scope: 'per-server' }, faults: [{ kind: 'crash', servers: [0], startMs: 0, endMs: 5000 }] });
  assert.equal(codec.encodeLink(run.inputs), 'v=1&retryHost=previous-hosts&faults=kind:crash~servers:0~startMs:0~endMs:5000&keyStore=scope:per-server');
  // Every new input at its default: nothing written.
  assert.equal(codec.encodeLink(engine.compute({ balancer: {}, keyStore: { scope: 'shared' }, faults: [], retryHost: 'any' }).inputs), 'v=1');
});

test('a bad many-servers value in a link is named by the page and by retrysim (exit 2)', () => {
  // A stack or a record the engine refuses is named as a whole key, its message naming the member (README).
  for (const [link, field, named] of [['v=1&faults=kind:crash~startMs:10~endMs:5', 'faults', 'faults[0].endMs'],
    ['v=1&keyStore=lagMs:5', 'keyStore', 'keyStore.lagMs'], ['v=1&balancer=kind:fastest', 'balancer', 'balancer.kind']]) {
    const cli = cliRun(link);
    assert.equal(cli.status, 2, link);
    assert.deepEqual(cli.json.errors.map((e) => e.field), [field], link);
    assert.ok(cli.json.errors[0].message.startsWith(`${named} `), cli.json.errors[0].message);
    const shown = readLink(link, explorable);
    assert.ok(shown.problems.some((p) => p.key === field) || !shown.result || shown.result.ok === false,
      `${link}: the page names it: ${JSON.stringify(shown.problems)}`);
  }
});

// Issue 39: `servers` has no form in v=1 (its overrides' scripts are lists inside a list), so a
// run holding it has no link: writing one is an error naming the field, never a link that
// leaves it out and so opens another run. At its default (null, or not given) nothing is lost.
test('a run holding servers has no link: writing one is an error naming servers; at its default the run keeps its link', () => {
  const run = engine.compute({ idempotencyKey: true, servers: { count: 2 } });
  assert.equal(run.ok, true, JSON.stringify(run.errors));
  assert.deepEqual(codec.uncarried(run.inputs), ['servers']);
  assert.throws(() => codec.encodeLink(run.inputs), (e) => e.name === 'LinkError' && e.field === 'servers' && e.message.startsWith('servers '));
  assert.throws(() => codec.encodeLink({ ...run.inputs, servers: { count: 1, overrides: [] } }, { trace: 'A' }), (e) => e.field === 'servers',
    'one server behind the balancer is still not the run without servers');
  // Without servers, or with servers at its default (null), the same run writes its link.
  const { servers, ...rest } = run.inputs;
  assert.equal(servers.count, 2);
  assert.deepEqual(codec.uncarried(rest), []);
  assert.equal(codec.encodeLink(rest), 'v=1&idempotencyKey=true');
  assert.equal(codec.encodeLink({ ...rest, servers: null }), 'v=1&idempotencyKey=true');
  for (const inputs of Object.values(RUNS)) assert.deepEqual(codec.uncarried(engine.compute(inputs).inputs), [], 'every carried input is written');
});
