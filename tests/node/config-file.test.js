// The config file, retrylab-config.js (docs/config-in.md §13): the page's readers are
// retrysim --from's, compiled to WebAssembly from the same code (bindings/config's readSide(),
// the core's config::read()). On every real example of the six formats, and on refusals of
// every kind, readConfig() answers exactly what retrysim --from prints as `config` (or as its
// errors), and compareConfigs()'s `changed` is retrysim --compare --from's.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { test } = require('node:test');

const { asJson, loadConfigEngine, loadEngine, runRetrysim } = require('./support.js');
const examples = require('../config-examples.js');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'config-file-'));
let n = 0;
function file(text) {
  const p = path.join(dir, `f${n++}`);
  fs.writeFileSync(p, text);
  return p;
}
function retrysim(args) {
  const run = runRetrysim('', args);
  assert.equal(run.signal, null);
  return { ...run, answer: run.stdout ? JSON.parse(run.stdout) : null };
}
// retrysim --from's `config` as readConfig() answers it: { ok: true, format, detected?, … }.
const asAnswer = (config) => ({ ok: true, ...config });

test('the config file reads each of the six formats\' real examples exactly as retrysim --from --check does, and the page\'s engine runs the same run', async () => {
  const config = await loadConfigEngine();
  const engine = await loadEngine();
  for (const [name, example] of Object.entries(examples)) {
    const wasm = asJson(config.readConfig({ text: example.text, options: { from: 'auto' } }));
    const native = retrysim(['--from', 'auto', file(example.text)]);
    assert.equal(native.status, 0, `${name}: ${native.stderr}`);
    assert.deepEqual(wasm, asAnswer(native.answer.config), `${name}: the two readings differ`);
    assert.deepEqual([wasm.format, wasm.detected.rule], [example.format, example.rule], name);
    // The run: the page's engine on the translated inputs is retrysim's result.
    const run = asJson(engine.compute(wasm.inputs));
    assert.deepEqual({ ...run, engine: null }, { ...native.answer.result, engine: null }, `${name}: the runs differ`);
  }
});

test('a format forced, and the situation taken from the page\'s run, read as retrysim --from FORMAT --run FILE does', async () => {
  const config = await loadConfigEngine();
  const engine = await loadEngine();
  // The page passes its run's inputs; the config file keeps the situation's members that differ
  // from the engine's defaults: here draws and scenario (maxRetries is policy, not situation).
  const pageRun = asJson(engine.compute({ draws: [0.4], scenario: 'outage-503-twice', maxRetries: 7 })).inputs;
  const wasm = asJson(config.readConfig({ text: examples.istio.text, options: { from: 'istio', situation: pageRun } }));
  const native = retrysim(['--from', 'istio', '--check', '--run', file('{"scenario": "outage-503-twice", "draws": [0.4]}'), file(examples.istio.text)]);
  assert.equal(native.status, 0, native.stderr);
  assert.deepEqual(wasm, asAnswer(native.answer.config));
  assert.equal(wasm.inputs.maxRetries, 3, 'the policy is the file\'s');
  assert.equal('detected' in wasm, false, 'a forced format is not detected');
});

test('refusals: the same errors, paths and lines as retrysim prints (not the format, wrong type, unknown field, bad duration)', async () => {
  const config = await loadConfigEngine();
  const cases = [
    ['grpc', '{"methodConfig": [{"name": [{"service": "a.B"}], "retryPolicy": {"maxAttempts": "4", "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}]}'],
    ['envoy', 'name: r\nmatch: {prefix: "/"}\nroute:\n  cluster: c\n  retry_policy:\n    num_retires: 3\n'],
    ['envoy', 'name: r\nmatch: {prefix: "/"}\nroute:\n  cluster: c\n  retry_policy:\n    per_try_timeout: 500ms\n'],
    ['grpc', 'kind: Service\napiVersion: v1\n'],
    ['auto', 'kind: Service\napiVersion: v1\n'],
  ];
  for (const [from, text] of cases) {
    const wasm = asJson(config.readConfig({ text, options: { from } }));
    const native = retrysim(['--from', from, file(text)]);
    assert.equal(native.status, 2, text);
    assert.equal(wasm.ok, false, text);
    assert.deepEqual(wasm, native.answer, `${from}: ${text}`);
    for (const e of wasm.errors) assert.ok(e.message.length > 0 && 'line' in e && 'field' in e);
  }
});

test('a text refused as a whole (malformed YAML, a duplicate key, a NUL byte, over 1 MiB) has retrysim\'s code, line and column', async () => {
  const config = await loadConfigEngine();
  const big = `# ${'x'.repeat(1048576)}\n`;
  const cases = [
    ['a: [1, 2\nb: 3\n', 'unreadable'],
    ['{"methodConfig": [], "methodConfig": []}', 'duplicate-key'],
    ['a: 1\n\u0000\n', 'unreadable'],
    [big, 'too-large'],
    // More characters than the page's engine file hands over whole: the core still sees over 1 MiB.
    ['#'.repeat(1100000), 'too-large'],
    ['a: &x 1\nb: *x\n', 'yaml-unsupported'],
  ];
  for (const [text, code] of cases) {
    const wasm = asJson(config.readConfig({ text, options: { from: 'auto' } }));
    const native = retrysim(['--from', 'auto', file(text)]);
    assert.equal(native.status, 2);
    assert.equal(native.stdout, '', 'retrysim prints nothing on stdout for a text it cannot parse');
    assert.equal(wasm.ok, false);
    assert.equal(wasm.errors.length, 1);
    const e = wasm.errors[0];
    assert.equal(e.code, code, JSON.stringify(e));
    assert.match(native.stderr, new RegExp(`: ${code}: `));
    // retrysim's line: "retrysim: FILE: CODE: MESSAGE[ (line L, column C)]".
    assert.ok(native.stderr.includes(`${code}: ${e.message}`), `${native.stderr} / ${e.message}`);
    if (e.line) assert.ok(native.stderr.includes(`line ${e.line}`), native.stderr);
  }
});

test('compareConfigs: each side as readConfig reads it, and `changed` as retrysim --compare --from lists it; two formats are a conflict', async () => {
  const config = await loadConfigEngine();
  const before = 'name: charge\nmatch: {prefix: "/pay"}\nroute:\n  cluster: payments\n  timeout: 3s\n  retry_policy:\n    retry_on: 5xx\n    num_retries: 1\n';
  const after = before.replace('num_retries: 1', 'num_retries: 3\n    per_try_timeout: 0.5s');
  const wasm = asJson(config.compareConfigs({ before: { text: before, options: { from: 'auto' } }, after: { text: after, options: { from: 'auto' } } }));
  const native = retrysim(['--compare', '--from', 'auto', file(before), file(after)]);
  assert.equal(native.status, 0, native.stderr);
  assert.deepEqual(wasm.changed, native.answer.config.changed);
  assert.deepEqual(wasm.before.report, native.answer.config.before.report);
  assert.deepEqual(wasm.changed.map((c) => c.path), ['route.retry_policy.num_retries', 'route.retry_policy.per_try_timeout']);
  assert.deepEqual(wasm.changed[0].inputs, [{ name: 'maxRetries', before: 1, after: 3 }]);
  const mixed = asJson(config.compareConfigs({ before: { text: before }, after: { text: examples.grpc.text } }));
  assert.equal(mixed.changed, null);
  assert.match(mixed.conflict, /Envoy route.*gRPC service config/);
});

test('the config file offers the six formats by name and title, and nothing of the engine; the page\'s engine offers no reader', async () => {
  const config = await loadConfigEngine();
  const engine = await loadEngine();
  assert.deepEqual(asJson(config.configFormats()).formats.map((f) => f.name), ['istio', 'linkerd', 'envoy', 'grpc', 'dotnet', 'aws']);
  assert.equal(config.compute({}).ok, false);
  assert.match(engine.readConfig({ text: '{}' }).errors[0].message, /retrylab-config\.js/);
  // Bad arguments are errors, never a crash.
  for (const bad of [null, 3, { text: 3 }, { text: 'a: 1', options: { method: 4 } }, { text: 'a: 1', options: { bogus: 1 } }, { text: 'a: 1', extra: 1 }]) {
    const r = asJson(config.readConfig(bad));
    assert.equal(r.ok, false, JSON.stringify(bad));
  }
  assert.equal(asJson(config.compareConfigs({ before: 1 })).ok, false);
});
