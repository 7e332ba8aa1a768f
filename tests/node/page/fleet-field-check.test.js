// A gate field's typed value judged in the reader's words (web/fleet/field-check.js, issue 35
// item 5). The rows are written here as the fleet engine's table gives them (fleetSchema():
// gates.bucket.capacity, tokens, 0 to 1e9; gates.breaker.window, whole, 1 to 1e7).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldProblem } from '../../../web/fleet/field-check.js';

const capacity = { type: 'number', unit: 'tokens', whole: false, min: 0, max: 1000000000 };
const window = { type: 'number', unit: 'outcomes', whole: true, min: 1, max: 10000000 };

test('a value the row takes has no message', () => {
  for (const text of ['0', '5', '0.5', '1000000000', ' 3 ']) assert.equal(fieldProblem(text, capacity, 'capacity'), '', text);
  assert.equal(fieldProblem('20', window, 'window (outcomes)'), '');
});

test('below, above, empty, not a number, not whole: each in words, its numbers as the page writes them, never NaN', () => {
  const kept = ' The run on show is unchanged.';
  assert.equal(fieldProblem('-1', capacity, 'capacity'), `“capacity” takes a number from 0 to 1,000,000,000 tokens; -1 is below 0.${kept}`);
  assert.equal(fieldProblem('2000000000', capacity, 'capacity'), `“capacity” takes a number from 0 to 1,000,000,000 tokens; 2,000,000,000 is above 1,000,000,000.${kept}`);
  assert.equal(fieldProblem('', capacity, 'capacity'), `“capacity” is empty: type a number from 0 to 1,000,000,000 tokens.${kept}`);
  assert.equal(fieldProblem('', capacity, 'capacity', { badInput: true }), `“capacity” takes a number from 0 to 1,000,000,000 tokens; what is typed is not a number.${kept}`);
  assert.equal(fieldProblem('abc', capacity, 'capacity'), `“capacity” takes a number from 0 to 1,000,000,000 tokens; what is typed is not a number.${kept}`);
  assert.equal(fieldProblem('2.5', window, 'window (outcomes)'), `“window (outcomes)” takes a whole number from 1 to 10,000,000 outcomes; 2.5 is not whole.${kept}`);
  for (const text of ['', 'abc', 'NaN', 'Infinity']) assert.doesNotMatch(fieldProblem(text, capacity, 'capacity'), /NaN|got/);
});

test('a bound below the page’s two decimals is written whole, not rounded to 0 (server.admission.ratePerSecond’s 0.001)', () => {
  const row = { type: 'number', whole: false, min: 0.001, max: 1000000, unit: 'tokens/s' };
  assert.equal(fieldProblem('0', row, 'tokens a second'), '“tokens a second” takes a number from 0.001 to 1,000,000 tokens/s; 0 is below 0.001. The run on show is unchanged.');
  assert.equal(fieldProblem('0.0005', row, 'tokens a second'), '“tokens a second” takes a number from 0.001 to 1,000,000 tokens/s; 0.0005 is below 0.001. The run on show is unchanged.');
});
