// Every conformance case of spec/conformance/cases.json (results of an independent model of
// SPEC.md) through both bindings: compute() in the engine file, and retrysim. Every expected
// metrics and attempts field must match; numbers within 1e-6 ms.
'use strict';

const assert = require('node:assert/strict');
const { describe, test, before } = require('node:test');

const { loadEngine, loadCases, runRetrysimEach, retrysimResultOf } = require('./support.js');

const cases = loadCases();
const TOLERANCE = 1e-6;

function expectSame(actual, expected, where) {
  if (typeof expected === 'number') {
    assert.equal(typeof actual, 'number', `${where}: expected the number ${expected}, got ${JSON.stringify(actual)}`);
    assert.ok(Math.abs(actual - expected) <= TOLERANCE, `${where}: expected ${expected}, got ${actual}`);
  } else {
    assert.deepEqual(actual, expected, `${where}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

// Checks `result` against the case's expectations; returns how many fields were compared.
function checkCase(result, expect) {
  assert.equal(result.ok, true, `not ok: ${JSON.stringify(result.errors)}`);
  let compared = 0;
  for (const [field, value] of Object.entries(expect.metrics)) {
    assert.ok(field in result.metrics, `metrics.${field} is missing`);
    expectSame(result.metrics[field], value, `metrics.${field}`);
    ++compared;
  }
  assert.equal(result.attempts.length, expect.attempts.length, 'the number of attempt rows');
  expect.attempts.forEach((row, i) => {
    for (const [field, value] of Object.entries(row)) {
      assert.ok(field in result.attempts[i], `attempts[${i}].${field} is missing`);
      expectSame(result.attempts[i][field], value, `attempts[${i}].${field}`);
      ++compared;
    }
  });
  return compared;
}

test('the conformance file holds all 112 cases', () => {
  assert.equal(cases.length, 112);
});

describe('compute() in the engine file', () => {
  let engine;
  before(async () => { engine = await loadEngine(); });
  for (const c of cases) {
    test(c.name, () => {
      assert.ok(checkCase(engine.compute(c.inputs), c.expect) > 0);
    });
  }
});

describe('retrysim', () => {
  // Every case's run, started by one shell (support.js runRetrysimEach); each test reads its own.
  let runs;
  before(() => { runs = runRetrysimEach(cases.map((c) => ({ input: JSON.stringify(c.inputs) }))); });
  cases.forEach((c, i) => {
    test(c.name, () => {
      const { status, result, stderr } = retrysimResultOf(runs[i], c.name);
      assert.equal(status, 0, `exit status ${status}: ${stderr}`);
      assert.ok(checkCase(result, c.expect) > 0);
    });
  });
});
