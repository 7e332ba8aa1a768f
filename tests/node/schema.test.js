// The input table through both bindings (docs/engine.md §4): `retrysim --schema` and
// `engine.schema()` give the same table, its defaults are the echo of {}, and
// `engine.validate()` / `retrysim --check` give compute()'s errors without a run.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { test, before } = require('node:test');

const { loadEngine, runRetrysim, asJson, firstDifference } = require('./support.js');

let engine;
before(async () => { engine = await loadEngine(); });

function nativeSchema() {
  const run = runRetrysim('', ['--schema']);
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

test('retrysim --schema and engine.schema() return the same table', () => {
  const { limits: nativeLimits, ...native } = nativeSchema();
  const { limits: wasmLimits, ...wasm } = engine.schema();
  assert.equal(firstDifference(asJson(wasm), native), null);
  // Beside the table, each binding's own limits on what it reads (docs/engine.md §6, README).
  assert.equal(nativeLimits.inputBytes, 64 * 1024 * 1024);
  assert.equal(nativeLimits.depth, 512);
  assert.equal(nativeLimits.objectMembers, 10000);
  assert.deepEqual(wasmLimits, engine.limits());
  assert.equal(wasmLimits.memoryBytes, 256 * 1024 * 1024);
  assert.equal(native.engine, engine.version());
  assert.ok(native.inputs.length >= 30, `${native.inputs.length} rows`);
  assert.deepEqual(native.inputs.slice(0, 3).map((r) => r.name), ['scenario', 'script', 'operation']);
});

test('the defaults the table lists are the echo of {}, in its order', () => {
  const { inputs: rows } = engine.schema();
  const byName = new Map(rows.map((r) => [r.name, r]));
  const applies = (r) => !r.onlyWhen || JSON.stringify(byName.get(r.onlyWhen.field).default) === JSON.stringify(r.onlyWhen.value);
  const expected = {};
  // A sparse row (layers) is echoed only when given and not its default (docs/engine.md §4).
  for (const r of rows) if ('default' in r && applies(r) && !r.sparse) expected[r.name] = r.default;
  const echo = engine.compute({}).inputs;
  assert.deepEqual(Object.keys(echo), Object.keys(expected));
  assert.deepEqual(echo, expected);
  const run = runRetrysim('{}');
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout).inputs, expected);
});

test('engine.validate() gives compute()\'s errors, each with field, code, message and detail', () => {
  const bad = { maxRetries: 1.5, jitter: 'random', 'script[0].status': 1 };
  const checked = engine.validate(bad);
  assert.equal(checked.ok, false);
  assert.deepEqual(checked.errors, engine.compute(bad).errors);
  assert.deepEqual(checked.errors.map((e) => [e.field, e.code]),
    [['["script[0].status"]', 'unknown-field'], ['maxRetries', 'not-whole'], ['jitter', 'not-a-choice']]);
  for (const e of checked.errors) assert.equal(e.message, `${e.field} ${e.detail}`);
  assert.deepEqual(engine.validate({ maxRetries: 2 }), { ok: true, errors: [] });
});

test('engine.validate() never throws: what it cannot read is an error object too', () => {
  const cyclic = {};
  cyclic.self = cyclic;
  for (const odd of [undefined, null, 3, 'x', [], cyclic, { maxRetries: () => 1 }, { draws: [1n] }]) {
    const checked = engine.validate(odd);
    assert.equal(checked.ok, false);
    assert.ok(checked.errors.length > 0);
    for (const e of checked.errors) {
      for (const key of ['field', 'code', 'message', 'detail']) assert.equal(typeof e[key], 'string', key);
    }
  }
});

test('retrysim --check prints { ok, errors }: exit 0 when ok, 2 when not', () => {
  const good = runRetrysim('{"maxRetries": 2}', ['--check']);
  assert.equal(good.status, 0, good.stderr);
  assert.deepEqual(JSON.parse(good.stdout), { ok: true, errors: [] });

  const bad = { maxRetries: 101, draws: [0.5, 2] };
  const run = runRetrysim(JSON.stringify(bad), ['--check']);
  assert.equal(run.status, 2);
  assert.match(run.stderr, /maxRetries, draws\[1\]/);
  assert.deepEqual(JSON.parse(run.stdout), asJson(engine.validate(bad)));

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retrysim-check-'));
  const file = path.join(dir, 'inputs.json');
  fs.writeFileSync(file, JSON.stringify(bad));
  const fromFile = runRetrysim('', ['--check', file]);
  assert.equal(fromFile.status, 2);
  assert.equal(fromFile.stdout, run.stdout);
  fs.rmSync(dir, { recursive: true });
});

test('retrysim --schema takes no FILE', () => {
  const run = runRetrysim('', ['--schema', 'inputs.json']);
  assert.equal(run.status, 2);
  assert.match(run.stderr, /--schema reads no FILE/);
});

test('one version number: the project\'s, in package.json, the engine file and retrysim', () => {
  const { repo } = require('./support.js');
  const cmake = fs.readFileSync(path.join(repo, 'CMakeLists.txt'), 'utf8');
  const project = /project\(retrylab VERSION (\d+\.\d+\.\d+)/.exec(cmake);
  assert.ok(project, 'CMakeLists.txt names a project VERSION');
  const version = project[1];
  assert.equal(JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')).version, version);
  assert.equal(engine.version(), version);
  assert.equal(engine.compute({}).engine, version);
  assert.equal(engine.schema().engine, version);
  const run = runRetrysim('', ['--version']);
  assert.equal(run.status, 0);
  assert.equal(run.stdout.trim(), `retrysim ${version}`);
});
