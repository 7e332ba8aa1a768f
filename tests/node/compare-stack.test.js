// A comparison of fleet runs through a stack of retry layers says the load a request makes
// through every layer (docs/compare.md §2.1, docs/layers.md §9.2), in retrysim (JSON and
// Markdown) and on the page (its model and difference lines, from the engine's table); and the
// engine file's compareResults() entry, the core's comparison that retrysim prints, lists the
// same inputs and rows as both. The figures are docs/compare.md §2.1's, worked by hand there.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { test } = require('node:test');

const { repo, loadEngine, loadFleetEngine, runRetrysim } = require('./support.js');

// docs/layers.md §9.2's storm; `policy` the rest of the policy.
const storm = (policy) => ({ clients: 2, arrivals: 'once', trigger: null, server: { failureRate: 1 },
  policy: { baseBackoffMs: 0, clientTimeoutMs: 60000, ...policy } });
const STACKED = storm({ layers: [{ name: 'agent', maxRetries: 3 }, { name: 'SDK', maxRetries: 0 }] });
const FLAT = storm({ maxRetries: 3 });
const THREE = storm({ layers: [{ maxRetries: 1 }, { maxRetries: 2 }, { maxRetries: 0 }] });
const NONE = storm({ maxRetries: 0 });

function retrysim(before, after, format = 'json') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retrysim-stack-'));
  fs.writeFileSync(path.join(dir, 'a.json'), JSON.stringify(before));
  fs.writeFileSync(path.join(dir, 'b.json'), JSON.stringify(after));
  const run = runRetrysim('', ['--compare', '--fleet', '--format', format, path.join(dir, 'a.json'), path.join(dir, 'b.json')]);
  fs.rmSync(dir, { recursive: true });
  assert.equal(run.status, 0, run.stdout + run.stderr);
  return format === 'json' ? JSON.parse(run.stdout) : run.stdout;
}

async function pageSide() {
  const engine = await loadEngine();
  const fleetEngine = await loadFleetEngine();
  const { compareRuns } = await import(path.join(repo, 'web/compare/model.js'));
  const { differencesView } = await import(path.join(repo, 'web/compare/view.js'));
  const { textOf, findAll } = await import(path.join(repo, 'web/dom.js'));
  const table = engine.compareMetrics();
  return {
    engine, fleetEngine, table,
    model: (before, after) => compareRuns(fleetEngine.fleet(before), fleetEngine.fleet(after), { metrics: table, of: 'fleet' }),
    // The page's difference lines as text, keyed by label: [before, after, change].
    lines: (comparison) => new Map(findAll(differencesView(comparison, table), (n) => n.tag === 'tr' && n.attrs['data-metric'])
      .map((tr) => tr.children.map(textOf)).map(([label, ...rest]) => [label, rest])),
  };
}

const rowOf = (c, name) => c.metrics.find((m) => m.name === name);

test('a stacked run against one layer of the same retries: the load through the stack 4 → 4, the bottom layer\'s load 1 → 4, in retrysim and on the page', async () => {
  const { model, lines } = await pageSide();
  const c = retrysim(STACKED, FLAT);
  assert.deepEqual(rowOf(c, 'totals.attemptsPerRequest'),
    { name: 'totals.attemptsPerRequest', label: 'load through the stack', before: 4, after: 4, delta: 0, changed: false, flag: null });
  assert.deepEqual(rowOf(c, 'totals.load'), { name: 'totals.load', label: 'load', before: 1, after: 4, delta: 3, changed: true, flag: null });
  const names = c.metrics.map((m) => m.name);
  assert.equal(names.indexOf('totals.attemptsPerRequest'), names.indexOf('totals.load') + 1, 'right after load');
  const md = retrysim(STACKED, FLAT, 'markdown');
  assert.ok(md.includes('| load | 1 | 4 | +3 |'), md);
  assert.match(md, /Unchanged: [^\n]*load through the stack/);

  const page = model(STACKED, FLAT);
  assert.deepEqual(page.metrics, c.metrics, 'the page lists the rows retrysim lists');
  assert.deepEqual(lines(page).get('load through the stack'), ['4', '4', 'same']);
  assert.deepEqual(lines(page).get('load'), ['1', '4', '+3']);
  // Either side holding the stack lists the row.
  assert.deepEqual(rowOf(retrysim(FLAT, STACKED), 'totals.attemptsPerRequest').before, 4);
  assert.deepEqual(model(FLAT, STACKED).metrics, retrysim(FLAT, STACKED).metrics);
});

test('two stacks compared: the load through each, 4 → 6 (layers of 1, 2 and 0: 2 × 3 × 1)', async () => {
  const { model, lines } = await pageSide();
  const c = retrysim(STACKED, THREE);
  assert.deepEqual(rowOf(c, 'totals.attemptsPerRequest'),
    { name: 'totals.attemptsPerRequest', label: 'load through the stack', before: 4, after: 6, delta: 2, changed: true, flag: null });
  assert.equal(rowOf(c, 'totals.load').after, 1);
  assert.ok(retrysim(STACKED, THREE, 'markdown').includes('| load through the stack | 4 | 6 | +2 |'));
  const page = model(STACKED, THREE);
  assert.deepEqual(page.metrics, c.metrics);
  assert.deepEqual(lines(page).get('load through the stack'), ['4', '6', '+2']);
});

test('fleet runs without a stack list no row of the load through one, in retrysim and on the page', async () => {
  const { model, lines, table } = await pageSide();
  const c = retrysim(FLAT, NONE);
  assert.equal(rowOf(c, 'totals.attemptsPerRequest'), undefined);
  assert.deepEqual(c.metrics.map((m) => m.name), table.fleet.filter((r) => r.when === 'totals').map((r) => r.name));
  const page = model(FLAT, NONE);
  assert.deepEqual(page.metrics, c.metrics);
  assert.equal(lines(page).has('load through the stack'), false);
});

test('the fleet engine file\'s compareResults() lists the inputs and rows retrysim prints; the page\'s engine file names the other; bad requests named', async () => {
  const { engine, fleetEngine } = await pageSide();
  for (const [before, after] of [[STACKED, FLAT], [STACKED, THREE], [FLAT, NONE]]) {
    const c = retrysim(before, after);
    for (const e of [fleetEngine]) {
      const got = e.compareResults({ before: fleetEngine.fleet(before), after: fleetEngine.fleet(after), of: 'fleet' });
      assert.equal(got.ok, true, JSON.stringify(got.errors));
      const { of, inputs, metrics, sideEffectChanged, outcomeChanged } = c;
      assert.deepEqual({ of: got.of, inputs: got.inputs, metrics: got.metrics, sideEffectChanged: got.sideEffectChanged, outcomeChanged: got.outcomeChanged },
        { of, inputs, metrics, sideEffectChanged, outcomeChanged });
    }
  }
  // The page's engine file leaves it out (docs/compare.md §7): an error object naming the other.
  const refused = engine.compareResults({ before: engine.compute({}), after: engine.compute({}) });
  assert.equal(refused.ok, false);
  assert.match(refused.errors[0].message, /retrylab-fleet\.js/);
  // A single run: docs/compare.md §2's example, maxRetries 3 → 0.
  const run = fleetEngine.compareResults({ before: engine.compute({}), after: engine.compute({ maxRetries: 0 }) });
  assert.equal(run.of, 'run');
  assert.deepEqual(run.inputs, [{ name: 'maxRetries', before: 3, after: 0 }]);
  assert.deepEqual(rowOf(run, 'charges'), { name: 'charges', label: 'charges', before: 2, after: 1, delta: -1, changed: true, flag: 'side-effect' });
  const fields = (answer) => (answer.ok === false ? answer.errors.map((e) => `${e.field}:${e.code}`) : ['ok']);
  assert.deepEqual(fields(fleetEngine.compareResults({ after: engine.compute({}) })), ['before:required']);
  assert.deepEqual(fields(fleetEngine.compareResults({ before: engine.compute({}), after: engine.compute({ maxRetries: -1 }) })), ['after:wrong-type']);
  assert.deepEqual(fields(fleetEngine.compareResults({ before: engine.compute({}), after: engine.compute({}), of: 'fleet' })), ['before:wrong-type', 'after:wrong-type']);
  assert.deepEqual(fields(fleetEngine.compareResults({ before: engine.compute({}), after: engine.compute({}), of: 'both', extra: 1 })), ['extra:unknown-field', 'of:not-a-choice']);
  assert.deepEqual(fields(fleetEngine.compareResults([])), [':wrong-type']);
});
