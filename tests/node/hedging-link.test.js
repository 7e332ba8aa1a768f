// Hedging in a link (README, "Links to a run": `hedging=` as one object's `name:value` members,
// the way a stack writes one layer, `nonFatal`'s classes with ";"): the page's codec
// (web/share/codec.js) writes and reads it, retrysim --link (bindings/cli/link.cpp) reads it to
// the same run, and what the page writes from a hedged run reads back as that run. The expected
// texts and figures are worked from the README's rules and docs/throttling.md §6.1 and §8.
'use strict';

const assert = require('node:assert/strict');
const path = require('node:path');
const { test, before } = require('node:test');

const { loadLinkSide, cliLinkRun, asJson, firstDifference } = require('./support.js');

const repo = path.resolve(__dirname, '..', '..');
let engine;
let codec;
let readLink;
let explorable;
let presetById;
before(async () => {
  ({ engine, codec, readLink, explorable } = await loadLinkSide());
  ({ presetById } = await import(path.join(repo, 'web/clients/presets.js')));
});

const cliRun = cliLinkRun;

// §8's single run (tests/node/hedging.test.js): a per-try timeout of 1,000 ms against 1,500 ms answers.
const perTry = { responseMs: 1500, scenario: 'script', script: [{ status: 200 }], maxRetries: 2, clientTimeoutMs: 1000, baseBackoffMs: 25, jitter: 'none', deadlineMs: 10000 };

// Every member and both kinds: every class in nonFatal, none, one; delayMs 0 and not; the
// presets' hedging as they stand.
const HEDGED = {
  'gRPC A6, every member set, every class non-fatal': { maxRetries: 0, hedging: { kind: 'a6', maxAttempts: 5, delayMs: 250.5, nonFatal: ['timeout', '429', '5xx', '4xx'] } },
  'gRPC A6, only maxAttempts': { maxRetries: 0, hedging: { maxAttempts: 2 } },
  'gRPC A6, copies at once, no class non-fatal': { maxRetries: 0, scenario: 'outage-503-twice', hedging: { maxAttempts: 3, delayMs: 0, nonFatal: [] } },
  'Envoy\'s hedge on per-try timeout (§8)': { ...perTry, hedging: { kind: 'per-try-timeout' } },
  'the preset gRPC’s hedging example': 'grpc-hedging',
  'the preset Envoy’s hedge': 'envoy-hedge',
  'the preset .NET’s standard hedging handler': 'dotnet-hedging',
};
const inputsOf = (given) => (typeof given === 'string' ? presetById(given).inputs : given);

test('a hedged run written into a link by the page reads back as the same run, on the page and in retrysim', () => {
  for (const [label, given] of Object.entries(HEDGED)) {
    const run = engine.compute(inputsOf(given));
    assert.equal(run.ok, true, `${label}: ${JSON.stringify(run.errors)}`);
    assert.notEqual(run.inputs.hedging, undefined, `${label}: the run is hedged`);
    const link = codec.encodeLink(run.inputs);
    assert.match(link, /&hedging=/, label);
    const shown = readLink(link, explorable);
    assert.deepEqual(shown.problems, [], `${label}: ${link}`);
    assert.equal(firstDifference(asJson(shown.result), asJson(run)), null, `${label}: the page reads ${link}`);
    const cli = cliRun(link);
    assert.equal(cli.status, 0, `${label}: ${cli.stderr}`);
    assert.equal(firstDifference(cli.json, asJson(run)), null, `${label}: retrysim reads ${link}`);
  }
});

test('hedging\'s members are written but for those at their own defaults: gRPC\'s example and §8\'s, worked by hand', () => {
  // kind a6, delayMs 0 and nonFatal [] are the members' defaults; maxAttempts has none.
  assert.equal(codec.valueText('hedging', { kind: 'a6', maxAttempts: 4, delayMs: 500, nonFatal: ['429', '5xx'] }),
    'maxAttempts:4~delayMs:500~nonFatal:429;5xx');
  assert.equal(codec.valueText('hedging', { kind: 'a6', maxAttempts: 2, delayMs: 0, nonFatal: [] }), 'maxAttempts:2');
  assert.equal(codec.valueText('hedging', { kind: 'per-try-timeout' }), 'kind:per-try-timeout');
  assert.equal(codec.valueText('hedging', null), 'none');
  // The whole link of gRPC A6's example on the opening run: maxRetries 0 (default 3), then hedging.
  const run = engine.compute({ maxRetries: 0, hedging: { maxAttempts: 4, delayMs: 500, nonFatal: ['429', '5xx'] } });
  assert.equal(codec.encodeLink(run.inputs), 'v=1&maxRetries=0&hedging=maxAttempts:4~delayMs:500~nonFatal:429;5xx');
  // The opening run's lost response: the copy sent at 500 ms is answered at 700, two charges.
  assert.deepEqual([run.metrics.charges, run.metrics.elapsedMs, run.metrics.outcome], [2, 700, 'success']);
  assert.deepEqual(run.attempts.map((a) => [a.startMs, a.hedge]), [[0, false], [500, true]]);
  // An unhedged run writes no hedging key.
  assert.equal(codec.encodeLink(engine.compute({ maxRetries: 0 }).inputs), 'v=1&maxRetries=0');
});

test('hedging\'s text: members by name in any order, a list\'s items joined by ";", none; hedging=none is no hedging', () => {
  const read = codec.parseLink('v=1&hedging=nonFatal:5xx;timeout~delayMs:500~maxAttempts:4~kind:a6');
  assert.deepEqual(read.problems, []);
  assert.deepEqual(read.inputs.hedging, { nonFatal: ['5xx', 'timeout'], delayMs: 500, maxAttempts: 4, kind: 'a6' });
  assert.deepEqual(codec.parseLink('v=1&hedging=kind:per-try-timeout').inputs.hedging, { kind: 'per-try-timeout' });
  assert.deepEqual(codec.parseLink('v=1&hedging=maxAttempts:2~nonFatal:').inputs.hedging, { maxAttempts: 2, nonFatal: [] });
  assert.deepEqual(codec.parseLink('v=1&hedging=none').inputs, { hedging: null });
  assert.deepEqual(codec.parseLink('v=1&hedging=').inputs, { hedging: {} });
  assert.equal(codec.encodeLink(engine.compute({ hedging: null }).inputs), 'v=1');
  // <retry-lab hedging="…">: an attribute like any other input.
  assert.equal(codec.fieldOfAttribute('hedging'), 'hedging');
  // §8's link in the README: success at 1,500 ms, two charges (tests/node/hedging.test.js).
  const shown = readLink('#v=1&scenario=script&script=200&responseMs=1500&clientTimeoutMs=1000&deadlineMs=10000&maxRetries=2&baseBackoffMs=25&jitter=none&hedging=kind:per-try-timeout', explorable);
  assert.deepEqual(shown.problems, []);
  assert.deepEqual([shown.result.metrics.charges, shown.result.metrics.elapsedMs, shown.result.metrics.outcome], [2, 1500, 'success']);
});

test('hedging that cannot be read, or that the engine refuses, is named hedging, with why, and not used', () => {
  const unreadable = [
    ['v=1&maxRetries=0&hedging=maxAttempts:4~foo:1', 'has a part that is not name:value for one of its fields (foo:1)'],
    ['v=1&maxRetries=0&hedging=4', 'has a part that is not name:value for one of its fields (4)'],
    ['v=1&maxRetries=0&hedging=kind:a6~maxAttempts:4~kind:a6', 'says kind twice'],
    ['v=1&maxRetries=0&hedging=maxAttempts:four', 'its maxAttempts is not a number (or none)'],
    ['v=1&maxRetries=0&hedging=maxAttempts:4~delayMs:%E0%A4', 'its delayMs has a broken %-escape'],
  ];
  const refused = [
    'v=1&maxRetries=0&hedging=kind:retry~maxAttempts:4', // not a kind
    'v=1&maxRetries=0&hedging=maxAttempts:9', // past 5
    'v=1&maxRetries=0&hedging=maxAttempts:4~nonFatal:5xx;teapot', // not a class
    'v=1&maxRetries=0&hedging=', // A6 needs maxAttempts
    'v=1&maxRetries=0&hedging=kind:per-try-timeout~delayMs:500', // delayMs is A6's
    'v=1&hedging=maxAttempts:4', // maxRetries is 3: a retry policy and a hedging policy
  ];
  for (const [link, reason] of [...unreadable, ...refused.map((l) => [l, null])]) {
    const shown = readLink(link, explorable);
    assert.deepEqual(shown.problems.map((p) => p.key), ['hedging'], link);
    if (reason) assert.equal(shown.problems[0].reason, reason, link);
    assert.equal(shown.result.inputs.hedging, undefined, `${link}: the run is not hedged`);
    const cli = cliRun(link);
    assert.equal(cli.status, 2, link);
    assert.deepEqual(cli.json.errors.map((e) => [e.field, e.detail]), [['hedging', shown.problems[0].reason]], link);
  }
});
