// Messages show no raw control or bidi character from the input, at every door: the core
// writes each error's field, message and detail through one rule (core/include/retrylab/text.hpp),
// so the WebAssembly engines' error objects say what retrysim's JSON says (issue 30: a key with
// U+202E reversed the message around it on the page and in a terminal).
'use strict';

const assert = require('node:assert/strict');
const { test, before } = require('node:test');

const { loadEngine, loadFleetEngine, runRetrysim } = require('./support.js');

let engine;
let fleetEngine;
before(async () => {
  engine = await loadEngine();
  fleetEngine = await loadFleetEngine();
});

const HIDDEN = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029]/;
const words = (result) => result.errors.flatMap((e) => [e.field, e.message, e.detail]);

test('a key or value with bidi and control characters is named escaped, the same through both bindings', () => {
  const hostile = { 'max\u202ERetries': 1, operationId: 'op\u2066\u0007', scenario: 'x\u200Fy' };
  const wasm = engine.compute(hostile);
  assert.equal(wasm.ok, false);
  for (const w of words(wasm)) assert.doesNotMatch(w, HIDDEN, JSON.stringify(w));
  assert.ok(wasm.errors.some((e) => e.field === '["max\\u202ERetries"]'), JSON.stringify(wasm.errors));
  const native = JSON.parse(runRetrysim(JSON.stringify(hostile)).stdout);
  assert.deepEqual(native.errors, wasm.errors);
  const checked = engine.validate(hostile);
  assert.deepEqual(checked.errors, wasm.errors);
});

test('the fleet engine names a hostile key escaped too', () => {
  const r = fleetEngine.fleet({ server: { 'work\u202Eers': 1 }, policy: { jitter: 'n\u0085' } });
  assert.equal(r.ok, false);
  for (const w of words(r)) assert.doesNotMatch(w, HIDDEN, JSON.stringify(w));
  assert.ok(r.errors.some((e) => e.field === 'server["work\\u202Eers"]'), JSON.stringify(r.errors));
  const native = JSON.parse(runRetrysim(JSON.stringify({ server: { 'work\u202Eers': 1 }, policy: { jitter: 'n\u0085' } }), ['--fleet']).stdout);
  assert.deepEqual(native.errors, r.errors);
});
