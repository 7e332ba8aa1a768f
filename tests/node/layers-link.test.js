// A stack of retry layers in a link (README, "Links to a run": `layers=` as entries of
// `name:value` members, lists with ";"): the page's codec (web/share/codec.js) writes and reads
// it, retrysim --link (bindings/cli/link.cpp) reads it to the same run, and what the page writes
// from a run reads back as that run. The expected texts are worked from the README's rules.
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

// docs/layers.md §8.5's stack, the key minted by the SDK or passed down from the agent.
const seedStory = (agentKey, sdkKey) => ({
  scenario: 'response-lost', responseMs: 200, deadlineMs: null, clientTimeoutMs: 60000,
  layers: [
    { name: 'agent', maxRetries: 2, clientTimeoutMs: 2000, baseBackoffMs: 0, key: agentKey },
    { name: 'payment SDK', key: sdkKey, maxRetries: 2, clientTimeoutMs: 3000 },
  ],
});

// Stacks that use every kind of member text: lists (empty too), none, a proportional jitter's
// bounds, the choices, a name that needs escapes, orphans, the SRE book's 64.
const STACKS = {
  'the seed story, the SDK minting': seedStory('none', 'mint'),
  'the seed story, the key passed down': seedStory('mint', 'pass'),
  'three layers of four, always failing, the bottom answering do-not-retry': {
    scenario: 'script', script: [{ status: 503 }], deadlineMs: null, clientTimeoutMs: 60000,
    layers: [{ maxRetries: 3, baseBackoffMs: 0 }, { maxRetries: 3, baseBackoffMs: 0 }, { maxRetries: 3, baseBackoffMs: 0, giveUp: 'do-not-retry' }],
  },
  'an orphan charges twice (8.4), with lists and nones in the layers': {
    scenario: 'script', script: [{ status: 503 }, { status: 503 }, { status: 200 }], responseMs: 800,
    layers: [
      { name: 'a,b~c;d:e %&#', clientTimeoutMs: 1000, maxRetries: 1, baseBackoffMs: 0, cancel: 'orphan', retryOn: [], deadlineMs: null },
      { name: 'SDK', clientTimeoutMs: 3000, maxRetries: 2, baseBackoffMs: 500, retryOn: ['timeout', '5xx'], retryOnStatuses: [409, 429], ceilingScheduleMs: [100, 250.5], waitBudgetMs: null },
    ],
  },
  'a layer with a proportional jitter of its own, inherited deadlines': {
    scenario: 'outage-503-twice', seed: 7,
    layers: [
      { name: 'top', deadlineMs: 30000, clientTimeoutMs: 30000 },
      { name: 'mid', jitter: 'proportional', jitterLow: 0.5, jitterHigh: 1.5, inheritDeadline: true, deadlineMarginMs: 1000 },
      { name: 'low', jitter: 'full', inheritDeadline: true },
    ],
  },
};

const cliRun = cliLinkRun;

test('a stack written into a link by the page reads back as the same run, on the page and in retrysim', () => {
  for (const [label, inputs] of Object.entries(STACKS)) {
    const run = engine.compute(inputs);
    assert.equal(run.ok, true, `${label}: ${JSON.stringify(run.errors)}`);
    const link = codec.encodeLink(run.inputs);
    assert.match(link, /&layers=/, label);
    const shown = readLink(link, explorable);
    assert.deepEqual(shown.problems, [], `${label}: ${link}`);
    assert.equal(firstDifference(asJson(shown.result), asJson(run)), null, `${label}: the page reads ${link}`);
    const cli = cliRun(link);
    assert.equal(cli.status, 0, `${label}: ${cli.stderr}`);
    assert.equal(firstDifference(cli.json, asJson(run)), null, `${label}: retrysim reads ${link}`);
  }
});

test('a layer field is written only when leaving it out would change it: the seed story\'s link, worked by hand', () => {
  const run = engine.compute(seedStory('none', 'mint'));
  // The run: clientTimeoutMs and deadlineMs differ from the defaults (3,000 and 10,000 ms).
  // The agent: its name and key always; maxRetries 2, baseBackoffMs 0 and clientTimeoutMs 2000
  // differ from the run's 3, 500 and 60,000; its deadlineMs (none) is the run's: left out, as are
  // giveUp, cancel, inheritDeadline and deadlineMarginMs at their own defaults. The SDK: the same.
  assert.equal(codec.encodeLink(run.inputs),
    'v=1&clientTimeoutMs=60000&deadlineMs=none&layers=name:agent~maxRetries:2~baseBackoffMs:0~clientTimeoutMs:2000~key:none,' +
    'name:payment%20SDK~maxRetries:2~clientTimeoutMs:3000~key:mint');
  // Without the run (a comparison's side), every member is written but those at their own
  // default: the policy fields the run would have given, and none of giveUp, cancel, ….
  const alone = codec.valueText('layers', run.inputs.layers);
  assert.ok(alone.includes('deadlineMs:none') && alone.includes('retryOn:timeout;5xx') && alone.includes('baseBackoffMs:500'), alone);
  assert.ok(!/giveUp|cancel|inheritDeadline|deadlineMarginMs/.test(alone), alone);
  const back = codec.parseLink(`v=1&layers=${alone}`).inputs.layers;
  assert.deepEqual(engine.compute({ ...run.inputs, layers: back }).inputs.layers, run.inputs.layers);
});

test('a stack\'s text: members by name, a list\'s items joined by ";", none, %-escapes, an empty entry; layers=none is no stack', () => {
  const read = codec.parseLink('v=1&layers=name:a%2Cb%3Bc%7E~retryOn:timeout;5xx~deadlineMs:none~ceilingScheduleMs:~retryOnStatuses:409;429~inheritDeadline:true,');
  assert.deepEqual(read.problems, []);
  assert.deepEqual(read.inputs.layers, [
    { name: 'a,b;c~', retryOn: ['timeout', '5xx'], deadlineMs: null, ceilingScheduleMs: [], retryOnStatuses: [409, 429], inheritDeadline: true },
    {},
  ]);
  assert.deepEqual(codec.parseLink('v=1&layers=none').inputs, { layers: null });
  assert.equal(codec.encodeLink(engine.compute({ layers: null }).inputs), 'v=1');
  // <retry-lab layers="…">: an attribute like any other input.
  assert.equal(codec.fieldOfAttribute('layers'), 'layers');
});

test('a stack that cannot be read is named, with why, and not used', () => {
  const cases = [
    ['v=1&layers=name:agent~foo:1', 'entry 1 has a part that is not name:value for one of its fields (foo:1)'],
    ['v=1&layers=name:a,maxRetries:1~maxRetries:2', 'entry 2 says maxRetries twice'],
    ['v=1&layers=maxRetries:three', 'entry 1\'s maxRetries is not a number (or none)'],
    ['v=1&layers=retryOnStatuses:409;x', 'entry 1\'s retryOnStatuses is not a number'],
    ['v=1&layers=inheritDeadline:maybe', 'entry 1\'s inheritDeadline is not true or false'],
    ['v=1&layers=2~name:agent', 'entry 1 has a part that is not name:value for one of its fields (2)'],
  ];
  for (const [link, reason] of cases) {
    const shown = readLink(link, explorable);
    assert.deepEqual(shown.problems.map((p) => [p.key, p.reason]), [['layers', reason]], link);
    assert.equal(shown.result.inputs.layers, undefined, `${link}: the run has no stack`);
    const cli = cliRun(link);
    assert.equal(cli.status, 2, link);
    assert.deepEqual(cli.json.errors.map((e) => [e.field, e.detail]), [['layers', reason]], link);
  }
});
