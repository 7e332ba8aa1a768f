// One description of the metrics a comparison lists (issue 17): the engine's table,
// core/src/compare_metrics.cpp, given to the page by the engine's compareMetrics() and read by
// retrysim --compare. Both list exactly its rows, in its order; and a row added to the table
// (a scratch build, tests/CMakeLists.txt's retrysim_scratch_metric) appears in retrysim's JSON
// and Markdown and in the page's difference lines, with nothing else touched.
'use strict';

const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { test } = require('node:test');

const { repo, loadEngine, loadFleetEngine, runRetrysim } = require('./support.js');

const scratchPath = process.env.RETRYSIM_SCRATCH_METRIC ||
  path.join(repo, 'build', 'native', 'tests', 'retrysim_scratch_metric');

function json(run) {
  assert.equal(run.signal, null);
  return JSON.parse(run.stdout);
}

function runScratch(args) {
  assert.ok(fs.existsSync(scratchPath), `no scratch build at ${scratchPath}: build the native preset`);
  const run = spawnSync(scratchPath, args, { encoding: 'utf8', timeout: 60000 });
  if (run.error) throw run.error;
  return run;
}

async function page() {
  const { compareRuns } = await import(path.join(repo, 'web/compare/model.js'));
  const { differencesView } = await import(path.join(repo, 'web/compare/view.js'));
  const { textOf, findAll } = await import(path.join(repo, 'web/dom.js'));
  // The page's difference lines as text: [label, before, after, change] per row.
  const lines = (comparison, table) => findAll(differencesView(comparison, table), (n) => n.tag === 'tr' && n.attrs['data-metric'])
    .map((tr) => tr.children.map(textOf));
  return { compareRuns, lines };
}

const rowsOf = (table, kind, result) => table[kind].filter((row) => result[row.when] !== undefined);

test('retrysim --schema --compare prints the table the engine file gives the page', async () => {
  const engine = await loadEngine();
  const fleetEngine = await loadFleetEngine();
  const table = json(runRetrysim('', ['--schema', '--compare']));
  assert.deepEqual(engine.compareMetrics(), table);
  assert.deepEqual(fleetEngine.compareMetrics(), table);
  assert.ok(table.run.length >= 11 && table.fleet.length >= 18, 'SPEC §5\'s and FLEET.md §8\'s metrics');
  for (const row of [...table.run, ...table.fleet]) {
    assert.deepEqual(Object.keys(row), ['path', 'name', 'label', 'flag', 'unit', 'none', 'when']);
    assert.ok(['', 'side-effect', 'outcome'].includes(row.flag), row.name);
  }
  // Bad command lines: the table takes nothing else.
  assert.equal(runRetrysim('', ['--schema', '--compare', '--fleet']).status, 2);
  assert.equal(runRetrysim('', ['--schema', '--compare', 'x.json']).status, 2);
});

test('retrysim and the page list exactly the table\'s rows, in its order: single runs, fleet service and occ runs', async () => {
  const engine = await loadEngine();
  const fleetEngine = await loadFleetEngine();
  const table = engine.compareMetrics();
  const { compareRuns, lines } = await page();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retrysim-metrics-'));
  const cases = [
    ['run', ['--link', 'v=1&view=compare&after.maxRetries=0']],
    ['fleet', ['--link', 'v=1&view=compare&of=fleet&after.policy.maxRetries=0']],
  ];
  fs.writeFileSync(path.join(dir, 'a.json'), JSON.stringify({ workload: 'occ' }));
  fs.writeFileSync(path.join(dir, 'b.json'), JSON.stringify({ workload: 'occ', policy: { maxRetries: 0 } }));
  cases.push(['fleet', ['--compare', '--fleet', path.join(dir, 'a.json'), path.join(dir, 'b.json')]]);
  for (const [kind, args] of cases) {
    const c = json(runRetrysim('', args));
    assert.equal(c.ok, true, JSON.stringify(c.errors));
    const expected = rowsOf(table, kind, c.before);
    assert.ok(expected.length > 2, args.join(' '));
    assert.deepEqual(c.metrics.map((m) => [m.name, m.label]), expected.map((r) => [r.name, r.label]), `${args.join(' ')}: retrysim`);
    const before = kind === 'run' ? engine.compute(c.before.inputs) : fleetEngine.fleet(c.before.request);
    const after = kind === 'run' ? engine.compute(c.after.inputs) : fleetEngine.fleet(c.after.request);
    const model = compareRuns(before, after, { metrics: table, of: kind, codec: { valueText: () => '' } });
    assert.deepEqual(model.metrics, c.metrics, `${args.join(' ')}: the page's rows`);
    assert.deepEqual(lines(model, table).map((l) => l[0]), expected.map((r) => r.label), `${args.join(' ')}: the page's lines`);
  }
  fs.rmSync(dir, { recursive: true });
  // A table the page cannot use is said, not drawn around.
  assert.throws(() => compareRuns({}, {}, { metrics: { ok: false, errors: [{ message: 'no such entry' }] } }), /no table of compare metrics \(no such entry\)/);
});

test('a metric added to the table appears in retrysim\'s JSON and Markdown and in the page\'s difference lines', async () => {
  const engine = await loadEngine();
  const real = engine.compareMetrics();
  const scratch = json(runScratch(['--schema', '--compare']));
  const added = scratch.run.at(-1);
  assert.deepEqual(added, { path: 'inputs.maxRetries', name: 'scratchRetries', label: 'retries allowed (scratch)', flag: 'side-effect', unit: '', none: 'none', when: 'metrics' });
  assert.deepEqual({ ...scratch, run: scratch.run.slice(0, -1) }, real, 'the row is the only difference');
  assert.equal(real.run.find((r) => r.name === 'scratchRetries'), undefined);

  // SPEC §2: maxRetries defaults to 3; the link's after side sets 0.
  const link = 'v=1&view=compare&after.maxRetries=0';
  const c = json(runScratch(['--link', link]));
  const row = c.metrics.at(-1);
  assert.deepEqual(row, { name: 'scratchRetries', label: 'retries allowed (scratch)', before: 3, after: 0, delta: -3, changed: true, flag: 'side-effect' });
  assert.equal(json(runRetrysim('', ['--link', link])).metrics.find((m) => m.name === 'scratchRetries'), undefined);
  const md = runScratch(['--link', link, '--format', 'markdown']).stdout;
  assert.ok(md.includes('| **retries allowed (scratch)** | 3 | 0 | -3, **side effect changes** |'), md);

  // The page, given the same table by its engine, lists the same row with the same figures.
  const { compareRuns, lines } = await page();
  const model = compareRuns(engine.compute(c.before.inputs), engine.compute(c.after.inputs), { metrics: scratch, codec: { valueText: () => '' } });
  assert.deepEqual(model.metrics, c.metrics);
  assert.deepEqual(lines(model, scratch).at(-1), ['retries allowed (scratch)', '3', '0', '-3, side effect changes']);
  assert.equal(model.sideEffectChanged, true);
});
