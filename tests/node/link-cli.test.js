// retrysim --link and --compare against the page's own code (issue 17). The page reads a link
// with web/share/codec.js + accept.js (single runs) and web/share/compare-link.js (two runs);
// retrysim reads it in C++ from the same table (bindings/cli/link.cpp). Every example link
// the README gives must give exactly the same result both ways, bad links must be refused
// naming the same fields, and a comparison's figures are held to SPEC.md §9 and FLEET.md §9
// (worked out from their text, not recorded from the engine).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { loadEngine, loadFleetEngine, runRetrysim, runRetrysimEach, asJson, firstDifference } = require('./support.js');

const repo = path.resolve(__dirname, '..', '..');

let page;
async function pageSide() {
  if (page) return page;
  const engine = await loadEngine();
  const { linkCodec } = await import(path.join(repo, 'web/share/codec.js'));
  const { readLink } = await import(path.join(repo, 'web/share/link.js'));
  const compareLink = await import(path.join(repo, 'web/share/compare-link.js'));
  const { compareRuns } = await import(path.join(repo, 'web/compare/model.js'));
  const { presetById } = await import(path.join(repo, 'web/clients/presets.js'));
  const { validateInputs } = await import(path.join(repo, 'web/validate.js'));
  const schema = engine.schema();
  const codec = linkCodec(schema);
  const explorable = { codec, schema, validate: (inputs) => validateInputs(engine, inputs), compute: (inputs) => engine.compute(inputs) };
  const metrics = engine.compareMetrics();
  page = { engine, codec, explorable, readLink, compareLink, compareRuns, presetById, metrics };
  return page;
}

// The links the README offers: its table of links to a run, and the iframe snippet's.
function readmeLinks() {
  const readme = fs.readFileSync(path.join(repo, 'README.md'), 'utf8');
  const links = [...readme.matchAll(/`((?:index|embed)\.html#v=1[^`\s]*)`/g)].map((m) => m[1]);
  const snippet = readme.match(/src="(https:\/\/[^"]+embed\.html#[^"]+)"/);
  if (snippet) links.push(snippet[1]);
  return [...new Set(links)];
}

function cli(args, input = '') {
  return unsignalled(runRetrysim(input, args));
}

function cliJson(args, input = '') {
  return withJson(cli(args, input));
}

// A run no signal ended (`label`: which input, for a run of many).
function unsignalled(run, label = '') {
  assert.equal(run.signal, null, `${label ? `${label}: ` : ''}retrysim was killed by ${run.signal}`);
  return run;
}

// A run whose stdout is JSON, with it read.
function withJson(run, label = '') {
  let json;
  assert.doesNotThrow(() => { json = JSON.parse(run.stdout); }, `${label ? `${label}: ` : ''}stdout is JSON: ${run.stdout.slice(0, 300)} ${run.stderr}`);
  return { ...run, json };
}

// retrysim once for each of many command lines (or { args, input }), the runs started by one
// shell (support.js runRetrysimEach: node's spawnSync forks this whole process for each run),
// answered in the same order; each answer is checked (unsignalled, withJson) where it is read.
function cliEach(jobs) {
  return runRetrysimEach(jobs.map((job) => (Array.isArray(job) ? { args: job } : job)));
}

test('every example link in the README gives exactly the run the page shows for it', async () => {
  const { explorable, readLink } = await pageSide();
  const links = readmeLinks().filter((link) => !link.includes('view=compare'));
  assert.ok(links.length >= 7, `the README's example links: ${links.length}`);
  const runs = cliEach(links.map((link) => ['--link', link]));
  for (const [i, link] of links.entries()) {
    const shown = readLink(link.slice(link.indexOf('#')), explorable);
    assert.deepEqual(shown.problems, [], `${link}: the page reads it whole`);
    const run = withJson(unsignalled(runs[i], link), link);
    assert.equal(run.status, 0, `${link}: ${run.stderr}`);
    assert.equal(firstDifference(run.json, asJson(shown.result)), null, link);
  }
});

test('--link - reads the link from stdin, a whole URL or only its hash', async () => {
  const { explorable, readLink } = await pageSide();
  const hash = '#v=1&scenario=outage-503-twice&deadlineMs=2000';
  const expected = asJson(readLink(hash, explorable).result);
  const texts = [`https://retrylab.example/index.html${hash}\n`, hash, hash.slice(1)];
  const runs = cliEach(texts.map((input) => ({ args: ['--link', '-'], input })));
  for (const [i, text] of texts.entries()) {
    const run = withJson(unsignalled(runs[i], JSON.stringify(text)), JSON.stringify(text));
    assert.equal(run.status, 0, run.stderr);
    assert.equal(firstDifference(run.json, expected), null, JSON.stringify(text));
  }
  // SPEC §9: the outage with deadline 2000 ends at 900 ms, no charge.
  assert.equal(expected.metrics.elapsedMs, 900);
  assert.equal(expected.metrics.charges, 0);
});

// Links the page refuses in part: each bad name or value is named, by both readers.
const BAD_LINKS = [
  ['an unknown name', 'v=1&maxRetrys=3', ['maxRetrys']],
  ['a value that is not a number', 'v=1&maxRetries=three', ['maxRetries']],
  ['a switch that is not true or false', 'v=1&idempotencyKey=yes', ['idempotencyKey']],
  ['a value the engine refuses', 'v=1&maxRetries=1e999', ['maxRetries']],
  ['a number out of range', 'v=1&clientTimeoutMs=-5', ['clientTimeoutMs']],
  ['a name given twice', 'v=1&maxRetries=1&maxRetries=2', ['maxRetries']],
  ['a broken %-escape', 'v=1&operationId=%E0%A4', ['operationId']],
  ['a script part it does not know (and the scenario that needs it)', 'v=1&scenario=script&script=200~lots', ['script', 'scenario']],
  ['two bad names and a good one', 'v=1&foo=1&deadlineMs=soon&maxRetries=0', ['foo', 'deadlineMs']],
  ['a later format', 'v=2&maxRetries=0', ['v']],
  ['a version given twice', 'v=1&v=1&maxRetries=0', ['v']],
  ['a name that is not an input in the v=1 format', 'v=1&inputs=1', ['inputs']],
  ['a stack of layers with a part that is not name:value (README, "Links to a run")', 'v=1&layers=2~name:agent', ['layers']],
  ['a layer field given twice', 'v=1&layers=name:a,maxRetries:1~maxRetries:2', ['layers']],
  ['a layer field that is not one', 'v=1&layers=name:a~retries:2', ['layers']],
  ['a stack the engine refuses: more than 1,000 server attempts (docs/layers.md §2)', 'v=1&layers=maxRetries:10,maxRetries:10,maxRetries:10', ['layers']],
  ['a layer value the engine refuses, and a good input beside it', 'v=1&maxRetries=0&layers=maxRetries:-1', ['layers']],
  ['a hedging member given twice (README, "Links to a run")', 'v=1&maxRetries=0&hedging=maxAttempts:4~maxAttempts:3', ['hedging']],
  ['a hedging part that is not one of its members', 'v=1&maxRetries=0&hedging=maxAttempts:4~copies:3', ['hedging']],
  ['hedging the engine refuses: A6 beside a retry policy (docs/throttling.md §6.1)', 'v=1&hedging=maxAttempts:4', ['hedging']],
  ['hedging\'s class the engine does not know', 'v=1&maxRetries=0&hedging=maxAttempts:4~nonFatal:5xx;teapot', ['hedging']],
];

test('bad links: retrysim --link refuses them (exit 2), naming the fields the page names', async () => {
  const { explorable, readLink } = await pageSide();
  const runs = cliEach(BAD_LINKS.map(([, link]) => ['--link', link]));
  for (const [i, [label, link, fields]] of BAD_LINKS.entries()) {
    const shown = readLink(link, explorable);
    const pageKeys = shown.problems.map((p) => p.key).sort();
    assert.deepEqual(pageKeys, [...fields].sort(), `${label}: the page's notice`);
    const run = withJson(unsignalled(runs[i], label), label);
    assert.equal(run.status, 2, `${label}: exit ${run.status}`);
    assert.equal(run.json.ok, false, label);
    assert.deepEqual(run.json.errors.map((e) => e.field).sort(), pageKeys, `${label}: the same fields`);
    assert.match(run.stderr, new RegExp(`^retrysim: invalid input: .*${fields[0]}`), label);
    // The same reason, except the version's, which names the reader.
    if (fields[0] !== 'v') {
      for (const p of shown.problems) {
        const e = run.json.errors.find((x) => x.field === p.key);
        assert.equal(e.detail, p.reason, `${label}: ${p.key}'s reason`);
      }
    }
  }
});

// --- comparisons ---------------------------------------------------------------------------

function metric(comparison, name) {
  const row = comparison.metrics.find((m) => m.name === name);
  assert.ok(row, `no metric ${name}`);
  return row;
}

test('the opening run against maxRetries=0: charges 2 → 1, outcome success → unknown (SPEC §9)', () => {
  const run = cliJson(['--compare', '--link', '#v=1&view=compare&after.maxRetries=0']);
  assert.equal(run.status, 0, run.stderr);
  const c = run.json;
  assert.equal(c.ok, true);
  assert.equal(c.of, 'run');
  assert.deepEqual(c.inputs, [{ name: 'maxRetries', before: 3, after: 0 }]);
  assert.deepEqual([metric(c, 'charges').before, metric(c, 'charges').after, metric(c, 'charges').delta], [2, 1, -1]);
  assert.equal(metric(c, 'charges').flag, 'side-effect');
  assert.deepEqual([metric(c, 'outcome').before, metric(c, 'outcome').after], ['success', 'unknown']);
  assert.equal(metric(c, 'outcome').flag, 'outcome');
  assert.deepEqual([metric(c, 'attempts').before, metric(c, 'attempts').after], [2, 1]);
  assert.deepEqual([metric(c, 'lookupNeeded').before, metric(c, 'lookupNeeded').after], [false, true]);
  assert.equal(metric(c, 'elapsedMs').before, 3700);
  // Charges beyond the first: 1 → 0, a side effect too.
  assert.deepEqual([metric(c, 'duplicates').before, metric(c, 'duplicates').after, metric(c, 'duplicates').flag], [1, 0, 'side-effect']);
  assert.equal(c.sideEffectChanged, true);
  assert.equal(c.outcomeChanged, true);
  assert.equal(c.summary, '`maxRetries` 3 → 0');
  assert.equal(c.link, '#v=1&view=compare&after.maxRetries=0');
  // Each side is the run its own link gives.
  assert.equal(firstDifference(c.before, cliJson(['--link', 'v=1']).json), null);
  assert.equal(firstDifference(c.after, cliJson(['--link', 'v=1&maxRetries=0']).json), null);
});

test('an idempotency key changes a side effect but not the outcome: charges 2 → 1, replays 0 → 1, 3,700 ms both', () => {
  const c = cliJson(['--link', 'v=1&view=compare&after.idempotencyKey=true']).json;
  assert.deepEqual([metric(c, 'charges').before, metric(c, 'charges').after], [2, 1]);
  assert.deepEqual([metric(c, 'replays').before, metric(c, 'replays').after, metric(c, 'replays').flag], [0, 1, null]);
  assert.equal(metric(c, 'outcome').changed, false);
  assert.equal(metric(c, 'outcome').flag, null);
  assert.deepEqual([metric(c, 'elapsedMs').after, metric(c, 'elapsedMs').changed, metric(c, 'elapsedMs').delta], [3700, false, 0]);
  assert.equal(c.sideEffectChanged, true);
  assert.equal(c.outcomeChanged, false);
});

// docs/layers.md §8.5 compared: the stack is said in words, layer by layer (its retries, its key
// and what differs from the other side's layer), never as JSON; the page's summary and Markdown
// are retrysim's (the tests below hold them equal link for link).
test('a comparison of two stacks says them in words: each layer\'s name, retries, key and what differs', () => {
  const link = 'v=1&view=compare&layers=name:agent~maxRetries:2~baseBackoffMs:0~clientTimeoutMs:2000~key:none,name:SDK~maxRetries:2~key:mint' +
    '&after.layers=name:agent~maxRetries:2~baseBackoffMs:0~clientTimeoutMs:2000~key:mint,name:SDK~maxRetries:2~key:pass';
  const c = cliJson(['--link', link]).json;
  assert.equal(c.summary, '`layers` agent (maxRetries 2, key none) over SDK (maxRetries 2, key mint) → agent (maxRetries 2, key mint) over SDK (maxRetries 2, key pass)');
  assert.deepEqual([metric(c, 'charges').before, metric(c, 'charges').after], [2, 1], 'the stacks are run: 2 charges, then 1');
  const md = cli(['--link', link, '--format', 'markdown']).stdout;
  assert.ok(md.includes('agent (maxRetries 2, key none) over SDK (maxRetries 2, key mint)'), md);
  assert.ok(!md.includes('{'), 'no JSON in the Markdown');
  // A field that differs is named on both sides; a layer with no twin on the other side is its retries and key.
  const deeper = cliJson(['--link', 'v=1&view=compare&layers=name:a~maxRetries:1~clientTimeoutMs:900&after.layers=name:a~maxRetries:1~clientTimeoutMs:800,name:b~maxRetries:0']).json;
  assert.equal(deeper.summary, '`layers` a (maxRetries 1, clientTimeoutMs 900, key none) → a (maxRetries 1, clientTimeoutMs 800, key none) over b (maxRetries 0, key pass)');
  // One side without a stack.
  const one = cliJson(['--link', 'v=1&view=compare&after.layers=name:a~maxRetries:1']).json;
  assert.equal(one.summary, '`layers` (not set) → a (maxRetries 1, key none)');
});

test('--compare BEFORE AFTER: two files, a file and a link, or stdin, give the same comparison', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retrysim-compare-'));
  const before = path.join(dir, 'before.json');
  const after = path.join(dir, 'after.json');
  fs.writeFileSync(before, '{}');
  fs.writeFileSync(after, '{"maxRetries": 0}');
  const fromLink = cliJson(['--compare', '--link', 'v=1&view=compare&after.maxRetries=0']).json;
  for (const [label, args, input] of [
    ['two files', ['--compare', before, after], ''],
    ['a file and a link', ['--compare', before, 'https://retrylab.example/index.html#v=1&maxRetries=0'], ''],
    ['stdin and a file', ['--compare', '-', after], '{}'],
  ]) {
    const run = cliJson(args, input);
    assert.equal(run.status, 0, `${label}: ${run.stderr}`);
    assert.equal(firstDifference(run.json, fromLink), null, label);
  }
  // Two identical sides: nothing changed.
  const same = cliJson(['--compare', before, before]).json;
  assert.deepEqual(same.inputs, []);
  assert.ok(same.metrics.every((m) => !m.changed));
  assert.equal(same.summary, 'the same inputs');
  fs.rmSync(dir, { recursive: true });
});

test('--format markdown: the inputs that differ, the metrics that change, flags, and the link on --base-url', () => {
  const link = 'v=1&view=compare&after.maxRetries=0';
  const plain = cli(['--compare', '--format', 'markdown', '--link', link]);
  assert.equal(plain.status, 0, plain.stderr);
  const md = plain.stdout;
  assert.match(md, /^\*\*Retry Lab, before → after:\*\* `maxRetries` 3 → 0\n/);
  assert.ok(md.includes('| `maxRetries` | 3 | 0 |'), md);
  assert.ok(md.includes('| **charges** | 2 | 1 | -1, **side effect changes** |'), md);
  assert.ok(md.includes('| **outcome** | success | unknown | **outcome changes** |'), md);
  assert.ok(md.includes('| attempts | 2 | 1 | -1 |'), md);
  assert.ok(md.includes('| elapsed | 3,700 ms | 3,000 ms | -700 ms |'), md);
  assert.match(md, /\nUnchanged: .*replays/);
  assert.ok(!md.includes('Open the comparison'), 'no link without --base-url');
  const bases = [
    ['https://retrylab.example/', 'https://retrylab.example/index.html'],
    ['https://retrylab.example/tools', 'https://retrylab.example/tools/index.html'],
    ['https://retrylab.example/index.html', 'https://retrylab.example/index.html'],
  ];
  const runs = cliEach(bases.map(([base]) => ['--compare', '--format', 'markdown', '--base-url', base, '--link', link]));
  for (const [i, [base, href]] of bases.entries()) {
    const withBase = unsignalled(runs[i], base).stdout;
    assert.ok(withBase.includes(`[Open the comparison in Retry Lab](${href}#${link})`), withBase);
  }
});

test('a preset named by the link: "urllib3’s default Retry, `maxRetries` 3 → 10", the preset\'s own opening run before', async () => {
  const { presetById } = await pageSide();
  const c = cliJson(['--link', 'v=1&view=compare&client=urllib3&after.maxRetries=10']).json;
  assert.equal(c.ok, true);
  assert.deepEqual(c.client, { before: 'urllib3', after: 'urllib3' });
  assert.equal(c.summary, `${presetById('urllib3').short}, \`maxRetries\` 3 → 10`);
  assert.deepEqual(c.inputs, [{ name: 'maxRetries', before: 3, after: 10 }]);
  // The opening run urllib3's source predicts (web/clients/sources.js): a POST is not retried.
  const opening = presetById('urllib3').opening;
  assert.deepEqual([c.before.metrics.attempts, c.before.metrics.charges, c.before.metrics.outcome], [opening.attempts, opening.charges, opening.outcome]);
  // The preset's policy on both sides, the link's change on the after side only.
  for (const [name, value] of Object.entries(presetById('urllib3').inputs)) {
    assert.deepEqual(c.before.inputs[name], value, name);
    if (name !== 'maxRetries') assert.deepEqual(c.after.inputs[name], value, name);
  }
  assert.equal(c.link, '#v=1&view=compare&client=urllib3&after.maxRetries=10');
});

// The page's comparison of the same link: its reader, its model and its link, value for value.
const COMPARE_LINKS = [
  // The README's own comparison links, then more.
  ...readmeLinks().filter((link) => link.includes('view=compare') && !link.includes('of=fleet')).map((link) => link.slice(link.indexOf('#') + 1)),
  'v=1&view=compare&after.maxRetries=0',
  'v=1&view=compare&after.idempotencyKey=true',
  'v=1&view=compare&scenario=outage-503-twice&after.maxRetries=1',
  'v=1&view=compare&client=urllib3&after.maxRetries=10',
  'v=1&view=compare&client=stripe-current&after.client=urllib3',
  'v=1&view=compare&client=grpc-go-169&after.jitter=none',
  'v=1&view=compare&scenario=script&script=429~ra:2,503,200&after.scenario=response-lost',
  'v=1&view=compare&deadlineMs=none&after.deadlineMs=3500&after.retryOn=timeout,429,5xx',
  // docs/layers.md §8.5: the SDK's own key (charged twice) against the agent's passed down (once).
  'v=1&view=compare&layers=name:agent~maxRetries:2~baseBackoffMs:0~clientTimeoutMs:2000~key:none,name:SDK~maxRetries:2~key:mint' +
    '&after.layers=name:agent~maxRetries:2~baseBackoffMs:0~clientTimeoutMs:2000~key:mint,name:SDK~maxRetries:2~key:pass',
  // Hedging on a side (docs/throttling.md §6.1, §8): gRPC A6's example against none, a hedged
  // preset against fewer copies, §8's run against its hedge on per-try timeout.
  'v=1&view=compare&maxRetries=0&hedging=maxAttempts:4~delayMs:500~nonFatal:429;5xx&after.hedging=none',
  'v=1&view=compare&client=grpc-hedging&after.hedging=maxAttempts:2~delayMs:500',
  'v=1&view=compare&client=dotnet-hedging&after.client=grpc-hedging',
  'v=1&view=compare&client=grpc-hedging&hedging=none&after.hedging=maxAttempts:3',
  'v=1&view=compare&scenario=script&script=200&responseMs=1500&clientTimeoutMs=1000&deadlineMs=10000&maxRetries=2&baseBackoffMs=25&jitter=none&after.hedging=kind:per-try-timeout',
];

test('every comparison reads the same in the page and in retrysim: both runs, the differences, the link', async () => {
  const { explorable, compareLink, compareRuns, presetById, codec, engine, metrics } = await pageSide();
  assert.ok(readmeLinks().filter((link) => link.includes('view=compare')).length >= 2, 'the README shows comparison links');
  const runs = cliEach(COMPARE_LINKS.map((link) => ['--link', link]));
  // Then each link retrysim wrote back, read again (the second stage: its links come from the first's answers).
  const writtenBack = (run) => { try { return String(JSON.parse(run.stdout).link); } catch { return ''; } };
  const agains = cliEach(runs.map((run) => ['--link', writtenBack(run)]));
  for (const [i, link] of COMPARE_LINKS.entries()) {
    const shown = compareLink.readCompareLink(link, explorable, { presetById });
    assert.deepEqual(shown.problems, [], `${link}: the page reads it whole`);
    const model = compareRuns(shown.before.result, shown.after.result, {
      metrics, codec, client: shown.before.client, afterClient: shown.after.client, presetName: (id) => presetById(id).short,
    });
    const pageLink = compareLink.encodeCompareLink(shown.before.result.inputs, shown.after.result.inputs, {
      client: shown.before.client, afterClient: shown.after.client, codec, compute: (i) => engine.compute(i), presetById,
    });
    const run = withJson(unsignalled(runs[i], link), link);
    assert.equal(run.status, 0, `${link}: ${run.stderr}`);
    const expected = asJson({ ok: true, engine: run.json.engine, ...model, link: `#${pageLink}`, before: shown.before.result, after: shown.after.result });
    assert.equal(firstDifference(run.json, expected), null, link);
    // The link written back reads as the same comparison.
    const again = withJson(unsignalled(agains[i], run.json.link), run.json.link).json;
    assert.equal(firstDifference(again, run.json), null, `${link}: written back as ${run.json.link}`);
  }
});

// The one Markdown writer (docs/compare.md §5): the page's "Copy as Markdown" (web/compare/
// markdown.js words the page's model, the engine file's markdown() writes it) and retrysim's
// --format markdown write the same bytes for the same link, hostile values among them.
test('the page\'s Markdown is retrysim\'s, byte for byte, for every comparison link', async () => {
  const { explorable, compareLink, compareRuns, presetById, codec, engine, metrics } = await pageSide();
  const { comparisonMarkdown } = await import(path.join(repo, 'web/compare/markdown.js'));
  const base = 'https://retrylab.example/tools/';
  const hostile = 'v=1&view=compare&after.operationId=%5Bsee%20fix%5D(https%3A%2F%2Fevil.example)%20!%5Bt%5D(https%3A%2F%2Ftrack.example%2Fp.gif)%20%40org%2Fteam%20%3C!--';
  const links = [...COMPARE_LINKS, hostile, 'v=1&view=compare&operationId=%60a%7Cb%60%0A%23%2012&after.operationId=%E2%80%AEwww.x.example%20%3Atada%3A'];
  const args = (link, withBase) => ['--link', link, '--format', 'markdown', ...(withBase ? ['--base-url', base] : [])];
  const runs = cliEach(links.flatMap((link) => [args(link, true), args(link, false)]));
  for (const [i, link] of links.entries()) {
    const shown = compareLink.readCompareLink(link, explorable, { presetById });
    assert.deepEqual(shown.problems, [], `${link}: the page reads it whole`);
    const presetName = (id) => presetById(id).short;
    const model = compareRuns(shown.before.result, shown.after.result, {
      metrics, codec, client: shown.before.client, afterClient: shown.after.client, presetName,
    });
    const pageLink = compareLink.encodeCompareLink(shown.before.result.inputs, shown.after.result.inputs, {
      client: shown.before.client, afterClient: shown.after.client, codec, compute: (i) => engine.compute(i), presetById,
    });
    for (const withBase of [true, false]) {
      const page = comparisonMarkdown(engine, model, { metrics, codec, presetName, base: withBase ? base : '', link: `#${pageLink}` });
      assert.equal(page.error, undefined, link);
      const run = unsignalled(runs[2 * i + (withBase ? 0 : 1)], link);
      assert.equal(run.status, 0, `${link}: ${run.stderr}`);
      assert.equal(page.markdown, run.stdout, `${link}${withBase ? ' with a base' : ''}`);
    }
  }
});

test('the page\'s Markdown is retrysim\'s for every fleet comparison link', async () => {
  const { engine, fleetLink, table, compareRuns, metrics } = await fleetSide();
  const { comparisonMarkdown } = await import(path.join(repo, 'web/compare/markdown.js'));
  // The page's engine file writes it (the fleet file has no markdown(): engine.cpp).
  const writer = (await pageSide()).engine;
  assert.equal(engine.markdown({ summary: [], inputs: [], metrics: [] }).ok, false);
  const base = 'https://retrylab.example/';
  const runs = cliEach(FLEET_LINKS.map((link) => ['--link', link, '--format', 'markdown', '--base-url', base]));
  for (const [i, link] of FLEET_LINKS.entries()) {
    const read = fleetLink.parseFleetCompareLink(`#${link}`, table);
    const model = compareRuns(engine.fleet(read.before), engine.fleet(read.after), { metrics, of: 'fleet' });
    const page = comparisonMarkdown(writer, model, { metrics, base, link: `#${link}` });
    const run = unsignalled(runs[i], link);
    assert.equal(run.status, 0, `${link}: ${run.stderr}`);
    assert.equal(page.markdown, run.stdout, link);
  }
});

test('a preset\'s jitter bounds do not outlive its jitter: jitter=none on the after side drops them', () => {
  const c = cliJson(['--link', 'v=1&view=compare&client=grpc-go-169&after.jitter=none']).json;
  assert.equal(c.ok, true, JSON.stringify(c.errors));
  assert.equal(c.before.inputs.jitter, 'proportional');
  assert.equal(c.before.inputs.jitterLow, 0.8);
  assert.equal(c.after.inputs.jitter, 'none');
  assert.ok(!('jitterLow' in c.after.inputs));
});

const BAD_COMPARE_LINKS = [
  ['an unknown after name', 'v=1&view=compare&after.maxRetrys=1', ['after.maxRetrys']],
  ['a bad after value', 'v=1&view=compare&after.maxRetries=-1', ['after.maxRetries']],
  ['a bad before value, which the after side shares', 'v=1&view=compare&maxRetries=-1&after.idempotencyKey=true', ['maxRetries']],
  ['a preset that does not exist', 'v=1&view=compare&client=curl&after.maxRetries=1', ['client']],
  ['an after preset that does not exist', 'v=1&view=compare&after.client=curl', ['after.client']],
  ['a later format', 'v=9&view=compare&after.maxRetries=1', ['v']],
  ['a trace in a comparison', 'v=1&view=compare&trace=B&after.maxRetries=1', ['trace']],
];

test('bad comparison links: refused by retrysim (exit 2) naming the fields the page names', async () => {
  const { explorable, compareLink, presetById } = await pageSide();
  const runs = cliEach(BAD_COMPARE_LINKS.map(([, link]) => ['--compare', '--link', link]));
  for (const [i, [label, link, fields]] of BAD_COMPARE_LINKS.entries()) {
    const shown = compareLink.readCompareLink(link, explorable, { presetById });
    assert.deepEqual(shown.problems.map((p) => p.key).sort(), [...fields].sort(), `${label}: the page`);
    const run = withJson(unsignalled(runs[i], label), label);
    assert.equal(run.status, 2, `${label}: exit ${run.status} ${run.stdout.slice(0, 200)}`);
    assert.deepEqual(run.json.errors.map((e) => e.field).sort(), [...fields].sort(), `${label}: retrysim`);
  }
});

test('the fleet: the opening fleet run against maxRetries 0 recovers (never → 23,000 ms, FLEET.md §9.5)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retrysim-fleet-'));
  const before = path.join(dir, 'before.json');
  const after = path.join(dir, 'after.json');
  fs.writeFileSync(before, '{}');
  fs.writeFileSync(after, '{"policy": {"maxRetries": 0}}');
  const run = cliJson(['--compare', '--fleet', before, after]);
  assert.equal(run.status, 0, run.stderr);
  const c = run.json;
  assert.equal(c.of, 'fleet');
  assert.deepEqual(c.inputs, [{ name: 'policy.maxRetries', before: 3, after: 0 }]);
  const recovered = metric(c, 'recovery.recoveredAtMs');
  assert.deepEqual([recovered.before, recovered.after, recovered.flag], [null, 23000, 'outcome']);
  const metastable = metric(c, 'recovery.metastable');
  assert.deepEqual([metastable.before, metastable.after, metastable.flag], [true, false, 'outcome']);
  // The opening fleet run: 6,021 requests, 1,063 succeed, 20,895 attempts.
  assert.deepEqual([metric(c, 'totals.requests').before, metric(c, 'totals.succeeded').before, metric(c, 'totals.attempts').before], [6021, 1063, 20895]);
  assert.equal(c.outcomeChanged, true);
  assert.ok(!('link' in c), 'a fleet comparison has no link: the v=1 format carries no fleet request here');
  const md = cli(['--compare', '--fleet', '--format', 'markdown', before, after]).stdout;
  assert.ok(md.includes('| `policy.maxRetries` | 3 | 0 |'), md);
  assert.ok(md.includes('| **recovers at** | never | 23,000 ms | **outcome changes** |'), md);
  assert.ok(md.includes('| **metastable** | yes | no | **outcome changes** |'), md);
  fs.rmSync(dir, { recursive: true });
});

test('a compare link is a comparison by itself: --format markdown needs no --compare; a single run\'s link says what --format goes with', () => {
  for (const link of ['v=1&view=compare&after.maxRetries=0', 'v=1&view=compare&of=fleet&after.policy.maxRetries=0']) {
    const alone = cli(['--link', link, '--format', 'markdown', '--base-url', 'https://retrylab.example/']);
    assert.equal(alone.status, 0, alone.stderr);
    const withCompare = cli(['--compare', '--format', 'markdown', '--base-url', 'https://retrylab.example/', '--link', link]);
    assert.equal(alone.stdout, withCompare.stdout, link);
    assert.ok(alone.stdout.includes(`(https://retrylab.example/index.html#${link})`), alone.stdout);
  }
  const one = cli(['--link', 'v=1&maxRetries=0', '--format', 'markdown']);
  assert.equal(one.status, 2);
  assert.match(one.stderr, /^retrysim: --format and --base-url go with a comparison: this link holds one run \(a view=compare link, or --compare with two runs\)/);
});

// A comparison of two fleet runs as one link (docs/compare.md §1): the page reads it with
// web/compare/fleet.js (the fleet section's own link reader for each side), retrysim with
// bindings/cli/link.cpp; both must run the same two fleet requests and list the same rows.
let fleetPage;
let headlineText;
async function fleetSide() {
  if (fleetPage) return fleetPage;
  const engine = await loadFleetEngine();
  const fleetLink = await import(path.join(repo, 'web/compare/fleet.js'));
  const { compareRuns } = await import(path.join(repo, 'web/compare/model.js'));
  headlineText = (await import(path.join(repo, 'web/compare/headline.js'))).headlineText;
  const { fleetTable } = await import(path.join(repo, 'web/fleet/model.js'));
  // The fleet section's table, from the fleet engine's fleetSchema(): the one the page reads
  // fleet links by, and the one retrysim reads them by (fleetFields()).
  const table = fleetTable(engine.fleetSchema());
  fleetPage = { engine, fleetLink, table, compareRuns, metrics: engine.compareMetrics() };
  return fleetPage;
}

const FLEET_LINKS = [
  'v=1&view=compare&of=fleet&after.policy.maxRetries=0',
  ...readmeLinks().filter((link) => link.includes('of=fleet')).map((link) => link.slice(link.indexOf('#') + 1)),
  'v=1&view=compare&of=fleet&after.gates.bucket=on',
  'v=1&view=compare&of=fleet&server.dropStale=expired&after.server.dropStale=unfinishable',
  'v=1&view=compare&of=fleet&policy.jitter=full&after.server.queueOrder=lifo&after.trigger=null',
  'v=1&view=compare&of=fleet&gates.bucket.capacity=10&after.gates.bucket=on&after.policy.retryOn=timeout',
  'v=1&view=compare&of=fleet&ratePerClient=0.5&after.ratePerClient=0x1&after.idempotencyKey=true',
  // Paths the opening run's echo holds as null, or not at all (another variant's member): typed
  // by the fleet engine's table, both readers read them as numbers.
  'v=1&view=compare&of=fleet&after.server.queueLimit=2000&after.policy.maxBackoffMs=800',
  'v=1&view=compare&of=fleet&after.network.dist=uniform&after.network.lo=2&after.network.hi=8',
  // A stack on the after side (docs/layers.md §9), written as the single run's `layers=` is.
  'v=1&view=compare&of=fleet&after.policy.layers=name:agent~maxRetries:1,name:SDK~maxRetries:1',
  // A list of numbers (the servers a slowdown acts on, docs/servers.md §5): numbers in both readers.
  'v=1&view=compare&of=fleet&servers.count=4&after.trigger.servers=0,3',
];

test('a fleet comparison link: retrysim runs the fleet requests the page reads, with the same rows, and FLEET.md §9.5\'s figures', async () => {
  const { engine, fleetLink, table, compareRuns, metrics } = await fleetSide();
  assert.ok(FLEET_LINKS.length > 6, 'the README shows a fleet comparison link');
  const runs = cliEach(FLEET_LINKS.map((link) => ['--link', link]));
  for (const [i, link] of FLEET_LINKS.entries()) {
    const read = fleetLink.parseFleetCompareLink(`#${link}`, table);
    assert.deepEqual(read.problems, [], link);
    const run = withJson(unsignalled(runs[i], link), link);
    assert.equal(run.status, 0, `${link}: ${run.stderr}`);
    const c = run.json;
    assert.equal(c.of, 'fleet');
    const before = engine.fleet(read.before);
    const after = engine.fleet(read.after);
    assert.deepEqual(c.before.request, before.request, `${link}: the before request`);
    assert.deepEqual(c.after.request, after.request, `${link}: the after request`);
    const model = compareRuns(before, after, { metrics, of: 'fleet' });
    assert.deepEqual(c.metrics, model.metrics, `${link}: the metric rows`);
    assert.deepEqual(c.inputs, model.inputs, `${link}: the inputs that differ`);
    assert.equal(c.summary, model.summary, link);
    // The headline in the section's words (docs/compare.md §6): retrysim words it from the same
    // label map as the page (web/compare/headline.js, written into retrysim by the build).
    assert.equal(c.headline, headlineText(model.headline), link);
    assert.equal(c.link, `#${link}`);
  }
  // FLEET.md §3: queueLimit and maxBackoffMs are numbers (null: none), read as numbers.
  const typed = cliJson(['--link', 'v=1&view=compare&of=fleet&after.server.queueLimit=2000&after.policy.maxBackoffMs=800']).json;
  assert.deepEqual([typed.before.request.server.queueLimit, typed.after.request.server.queueLimit, typed.after.request.policy.maxBackoffMs], [null, 2000, 800]);
  const servers = cliJson(['--link', 'v=1&view=compare&of=fleet&servers.count=4&after.trigger.servers=0,0x3']).json;
  assert.deepEqual(servers.after.request.trigger.servers, [0, 3]);
  // The same link and two fleet request files: the same comparison.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retrysim-fleet-link-'));
  fs.writeFileSync(path.join(dir, 'before.json'), '{}');
  fs.writeFileSync(path.join(dir, 'after.json'), '{"policy": {"maxRetries": 0}}');
  const files = cliJson(['--compare', '--fleet', path.join(dir, 'before.json'), path.join(dir, 'after.json')]).json;
  const fromLink = cliJson(['--compare', '--fleet', '--link', FLEET_LINKS[0]]).json;
  delete fromLink.link;
  assert.deepEqual(fromLink, files);
  fs.rmSync(dir, { recursive: true });
  // FLEET.md §9.5: never → 23,000 ms without retries, never → 29,000 ms with the token bucket,
  // never → 20,000 ms dropping what cannot finish instead of what has expired.
  const md = (link) => cli(['--link', link, '--format', 'markdown']).stdout;
  assert.ok(md(FLEET_LINKS[0]).includes('| **recovers at** | never | 23,000 ms | **outcome changes** |'), md(FLEET_LINKS[0]));
  const bucket = 'v=1&view=compare&of=fleet&after.gates.bucket=on';
  const stale = 'v=1&view=compare&of=fleet&server.dropStale=expired&after.server.dropStale=unfinishable';
  assert.ok(md(bucket).includes('| **recovers at** | never | 29,000 ms | **outcome changes** |'), md(bucket));
  assert.ok(md(stale).includes('| **recovers at** | never | 20,000 ms | **outcome changes** |'), md(stale));
  // No retries: every request one attempt, the same 6,021 requests (FLEET.md §9.5's opening run).
  assert.ok(md(FLEET_LINKS[0]).includes('| attempts | 20,895 | 6,021 | -14,874 |'), md(FLEET_LINKS[0]));
  assert.match(md(FLEET_LINKS[0]), /\nUnchanged: requests/);
});

// Issue 35 item 6: a fleet comparison's headline, not a list of dotted paths. Worked from
// FLEET.md §9.5 and the issue's own figures: the opening run never recovers and charges
// 14,874 duplicates (its retries: 20,895 attempts − 6,021 requests); with the token bucket
// (per client, capacity 5: FLEET.md §5's defaults) it recovers at 29,000 ms, 9 s after the
// slowdown ends at 20,000 ms, with 617 duplicates; without retries at 23,000 ms (3 s after),
// with none.
test('a fleet comparison\'s headline names the change in the section\'s words, then the recovery and the duplicate charges, in retrysim and on the page', async () => {
  const { engine, fleetLink, table, compareRuns, metrics } = await fleetSide();
  const headlines = [
    ['v=1&view=compare&of=fleet&after.gates.bucket=on', 'Token bucket (per client, capacity 5): recovers 9 s after the slowdown instead of never; duplicate charges 14,874 → 617'],
    ['v=1&view=compare&of=fleet&after.policy.maxRetries=0', 'Retries per request 3 → 0: recovers 3 s after the slowdown instead of never; duplicate charges 14,874 → 0'],
    ['v=1&view=compare&of=fleet&gates.bucket=on&after.gates.bucket=null', 'Token bucket off: never recovers instead of 9 s after; duplicate charges 617 → 14,874'],
    ['v=1&view=compare&of=fleet', 'the same inputs: never recovers, as before; duplicate charges 14,874, as before'],
    ['v=1&view=compare&of=fleet&gates.bucket=on&after.gates.bucket.capacity=5', 'the same inputs: recovers 9 s after the slowdown, as before; duplicate charges 617, as before'],
  ];
  // Each link twice: as JSON, then as Markdown.
  const runs = cliEach(headlines.flatMap(([link]) => [['--link', link], ['--link', link, '--format', 'markdown']]));
  for (const [i, [link, want]] of headlines.entries()) {
    const c = withJson(unsignalled(runs[2 * i], link), link).json;
    assert.equal(c.headline, want, link);
    const read = fleetLink.parseFleetCompareLink(`#${link}`, table);
    const model = compareRuns(engine.fleet(read.before), engine.fleet(read.after), { metrics, of: 'fleet' });
    assert.equal(headlineText(model.headline), want, `${link}: the page`);
    // The Markdown's first line is the headline.
    assert.equal(unsignalled(runs[2 * i + 1], link).stdout.split('\n')[0], `**Retry Lab, before → after:** ${want}`, link);
  }
  // A path the section does not label is named by its path, as code.
  const queue = cliJson(['--link', 'v=1&view=compare&of=fleet&after.server.queueLimit=2000']).json;
  assert.match(queue.headline, /^`server\.queueLimit` none → 2,000: /);
});

test('a bad fleet comparison link: retrysim refuses the fields the page names', async () => {
  const { fleetLink, table } = await fleetSide();
  const bad = [
    ['an unknown path', 'v=1&view=compare&of=fleet&policy.nope=1', ['policy.nope']],
    ['a bad after value', 'v=1&view=compare&of=fleet&after.policy.maxRetries=lots', ['after.policy.maxRetries']],
    ['a gate neither on nor null', 'v=1&view=compare&of=fleet&after.gates.bucket=maybe', ['after.gates.bucket']],
    ['an object given a value', 'v=1&view=compare&of=fleet&trigger=4', ['trigger']],
    ['a preset, a single run\'s', 'v=1&view=compare&of=fleet&client=urllib3', ['client']],
    ['a path given twice', 'v=1&view=compare&of=fleet&policy.maxRetries=1&policy.maxRetries=2', ['policy.maxRetries']],
    ['a later format', 'v=2&view=compare&of=fleet&policy.maxRetries=1', ['v']],
    ['an empty number', 'v=1&view=compare&of=fleet&after.ratePerClient=', ['after.ratePerClient']],
    ['a list of numbers with a word in it', 'v=1&view=compare&of=fleet&servers.count=4&after.trigger.servers=0,x', ['after.trigger.servers']],
    ['a list of numbers with an empty item', 'v=1&view=compare&of=fleet&servers.count=4&trigger.servers=1,,2', ['trigger.servers']],
  ];
  const runs = cliEach(bad.map(([, link]) => ['--link', link]));
  for (const [i, [what, link, fields]] of bad.entries()) {
    const read = fleetLink.parseFleetCompareLink(`#${link}`, table);
    assert.deepEqual(read.problems.map((p) => p.key), fields, `${what}: the page`);
    const run = withJson(unsignalled(runs[i], what), what);
    assert.equal(run.status, 2, what);
    assert.deepEqual(run.json.errors.map((e) => e.field), fields, `${what}: retrysim`);
    // The same reasons, but for the version, where retrysim names itself (docs/compare.md §1).
    for (const [i, p] of read.problems.entries()) if (p.key !== 'v') assert.equal(run.json.errors[i].detail, p.reason, `${what}: the same reason`);
  }
});

test('a bad command line is refused with a message, exit 2', () => {
  const lines = [
    ['--compare'], ['--compare', 'one.json'], ['--compare', '--format', 'html', '--link', 'v=1&view=compare'],
    ['--link'], ['--link', 'v=1', 'file.json'], ['--format', 'markdown', '-'], ['--compare', '-', '-'],
    ['--compare', '--fleet', '--link', 'v=1&view=compare'],
  ];
  const runs = cliEach(lines);
  for (const [i, args] of lines.entries()) {
    const run = unsignalled(runs[i], args.join(' '));
    assert.equal(run.status, 2, `${args.join(' ')}: exit ${run.status}`);
    assert.match(run.stderr, /^retrysim: \S/, args.join(' '));
  }
  // A single-run link given to --compare --link, and a compare link as one side of two.
  const one = cliJson(['--compare', '--link', 'v=1&maxRetries=0']);
  assert.equal(one.status, 2);
  assert.deepEqual(one.json.errors.map((e) => e.field), ['view']);
  const inside = cliJson(['--compare', 'v=1', 'v=1&view=compare&after.maxRetries=0']);
  assert.equal(inside.status, 2);
  assert.deepEqual(inside.json.errors.map((e) => e.field), ['after.view']);
});

// Text made of a link's awkward pieces, at random (a fixed seed): retrysim answers every one
// with exit 0 or 2 and never crashes, and accepts exactly the single-run links the page reads
// whole, with the same run.
test('hostile links: retrysim and the page agree on every one, and a link past the limit is refused', async () => {
  const { explorable, readLink } = await pageSide();
  let seed = 17;
  const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  const pieces = ['v=1', '&', '=', '%', '%E0', '%A4', '%zz', '%41', '~', ',', 'maxRetries', 'script', 'scenario=script',
    'ra:', 'date:', 'after.', 'view=compare', 'client=urllib3', 'none', '1e999', '-0', '.5', '200', 'lost', '#', 'é', '😀',
    'v=2', 'trace=F', 'deadlineMs', 'retryOn=', 'timeout', 'idempotencyKey', '0x10', '+3'];
  const hashOf = (text) => { const t = text.trim(); const at = t.indexOf('#'); return at === -1 ? t : t.slice(at + 1); };
  const texts = Array.from({ length: 200 }, () => {
    let text = '';
    const n = 1 + Math.floor(random() * 12);
    for (let k = 0; k < n; k += 1) text += pieces[Math.floor(random() * pieces.length)];
    return text;
  });
  const runs = cliEach(texts.map((text) => ['--link', text]));
  for (const [i, text] of texts.entries()) {
    const run = unsignalled(runs[i], JSON.stringify(text));
    assert.ok(run.status === 0 || run.status === 2, `${JSON.stringify(text)}: exit ${run.status} ${run.stderr}`);
    if (hashOf(text).split('&').includes('view=compare')) continue;
    const shown = readLink(hashOf(text), explorable, { pageKeys: ['trace', 'herdCallers'] }); // the page's own keys (share/page.js)
    assert.equal(run.status === 0, shown.problems.length === 0, `${JSON.stringify(text)}: ${JSON.stringify(shown.problems)} ${run.stdout.slice(0, 300)}`);
    if (run.status === 0) assert.equal(firstDifference(JSON.parse(run.stdout), asJson(shown.result)), null, JSON.stringify(text));
  }
  const long = cliJson(['--link', '-'], `v=1&operationId=${'a'.repeat(2000001)}`);
  assert.equal(long.status, 2);
  assert.deepEqual(long.json.errors.map((e) => e.field), ['link']);
  // Measured and cut as the page does, in JavaScript string units, and said with grouped digits:
  // 16 + 2,000,001 = 2,000,017 characters. With "é" (two bytes, one unit) the link is 2,000,016
  // characters long but 3,000,016 bytes; 16 + 1,999,984 "é" is exactly the limit, read.
  assert.match(long.json.errors[0].detail, /^is 2,000,017 characters long, more than /);
  const longs = [
    [`v=1&operationId=${'a'.repeat(2000001)}`, true],
    [`v=1&operationId=${'é'.repeat(1000000)}${'a'.repeat(1000000)}`, true],
    [`v=1&operationId=${'é'.repeat(1999984)}`, false],
    [`v=1&operationId=${'😀'.repeat(1000001)}`, true],
  ];
  const longRuns = cliEach(longs.map(([input]) => ({ args: ['--link', '-'], input })));
  for (const [i, [text, refused]] of longs.entries()) {
    const cliSaid = withJson(unsignalled(longRuns[i], `${text.length} units`), `${text.length} units`).json.errors.filter((e) => e.field === 'link');
    const pageSaid = readLink(text, explorable, { pageKeys: ['trace', 'herdCallers'] }).problems.filter((p) => p.key === 'link');
    assert.equal(cliSaid.length, refused ? 1 : 0, `${text.length} units: retrysim`);
    assert.equal(pageSaid.length, refused ? 1 : 0, `${text.length} units: the page`);
    if (refused) {
      assert.equal(cliSaid[0].detail.replace('retrysim', 'READER'), pageSaid[0].reason.replace(/this page|the page/, 'READER'), 'the same words');
      assert.ok(cliSaid[0].message.includes(`the link's "${pageSaid[0].value}"`), `the same first 40 characters: ${cliSaid[0].message.slice(0, 120)}`);
    }
  }
});
