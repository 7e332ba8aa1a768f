// The sweep panel's pure parts in node, fed by the real engine's sweep() (never by hand-made
// results): the request the form makes, the runs the chart draws, the chart's marks at the
// engine's boundary values, the words for a point, and the table of points. The seed's
// boundaries are SPEC §9's: a second charge from a deadline of 3,700 ms; the outage needs
// two retries to succeed.

import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngineInNode } from '../../browser/lib/engine.js';
import { findAll, textOf } from '../../../web/dom.js';
import {
  MAX_POINTS, defaultForm, errorsByField, indexAtOrAfter, nearestIndex, pointWords, requestFromForm, roundPoints,
  runsOf, summaryWords, sweepKey, varyByName, varyChoices,
} from '../../../web/sweep/model.js';
import { explorableControls } from '../../../web/state.js';
import { boundaryListView, sweepChartView, sweepTableView } from '../../../web/sweep/chart.js';

let engine;
let choices; // the explorable's sliders, from the engine's table
before(async () => {
  engine = await loadEngineInNode();
  choices = varyChoices(explorableControls(engine.schema()).numbers);
});
const vary = (name) => varyByName(choices, name);
const sweep = (request) => {
  const result = engine.sweep(request);
  assert.equal(result.ok, true, JSON.stringify(result.errors));
  return result;
};

describe('sweep model', () => {
  test('the form offers the four inputs the issue names, each with its slider’s range', () => {
    assert.deepEqual(choices.map((v) => v.name), ['maxRetries', 'baseBackoffMs', 'clientTimeoutMs', 'deadlineMs']);
    assert.deepEqual(defaultForm(choices, 'deadlineMs'), { vary: 'deadlineMs', from: '0', to: '20000', points: '801' });
    assert.deepEqual(defaultForm(choices, 'maxRetries'), { vary: 'maxRetries', from: '0', to: '10', points: '11' });
  });

  test('default points step by a round amount and never pass the engine’s limit', () => {
    for (const [from, to] of [[0, 20000], [100, 10000], [0, 5000], [3000, 4000], [0, 1], [0, 7], [0, 86400000]]) {
      const n = roundPoints(from, to);
      assert.ok(n >= 2 && n <= MAX_POINTS, `${from}–${to}: ${n}`);
      const step = (to - from) / (n - 1);
      const mantissa = step / 10 ** Math.floor(Math.log10(step));
      assert.ok([1, 2, 2.5, 5].some((m) => Math.abs(m - mantissa) < 1e-9), `${from}–${to}: a round step, got ${step}`);
    }
  });

  test('the form’s text becomes a request; text that is not a number is named', () => {
    const inputs = { scenario: 'response-lost' };
    assert.deepEqual(requestFromForm({ vary: 'deadlineMs', from: '3000', to: ' 4000 ', points: '101' }, inputs),
      { request: { inputs, vary: 'deadlineMs', from: 3000, to: 4000, points: 101 }, errors: {} });
    assert.deepEqual(requestFromForm({ vary: 'deadlineMs', from: '', to: 'x', points: '5' }, inputs).errors,
      { from: 'Enter a number.', to: 'Enter a number.' });
    // The engine's own refusals land beside the box they name.
    const refused = engine.sweep({ inputs, vary: 'maxRetries', from: 0, to: 101, points: 2000 });
    assert.equal(refused.ok, false);
    const errors = errorsByField(refused.errors);
    assert.ok(errors.points && errors.to, JSON.stringify(errors));
    assert.ok(errorsByField(engine.sweep({ inputs: { maxRetries: -1 }, vary: 'deadlineMs', from: 0, to: 1, points: 2 }).errors).general);
  });

  test('a sweep depends on every input but the one it varies', () => {
    const a = { deadlineMs: 1000, maxRetries: 3 };
    assert.equal(sweepKey(a, 'deadlineMs'), sweepKey({ ...a, deadlineMs: 5000 }, 'deadlineMs'));
    assert.notEqual(sweepKey(a, 'deadlineMs'), sweepKey({ ...a, maxRetries: 2 }, 'deadlineMs'));
  });
});

describe('the seed’s boundaries through the views', () => {
  test('a deadline sweep over the opening run: the chart switches at 3,700 ms exactly, off the grid', () => {
    const result = sweep({ inputs: {}, vary: 'deadlineMs', from: 3000, to: 4000, points: 7 }); // 3700 is not a point
    assert.ok(!result.points.some((p) => p.value === 3700));
    assert.deepEqual(result.boundaries.map((b) => b.value), [3700]);
    const charges = runsOf(result, (p) => p.charges);
    assert.deepEqual(charges.map((r) => [r.key, r.from, r.to]), [[1, 3000, 3700], [2, 3700, 4000]]);
    const { tree, scale } = sweepChartView(result, vary(result.vary), { width: 800, cursor: 0 });
    const marks = findAll(tree, (n) => n.attrs.class === 'sw-boundary');
    assert.deepEqual(marks.map((m) => m.attrs['data-value']), [3700]);
    const line = findAll(marks[0], (n) => n.tag === 'line')[0];
    assert.equal(line.attrs.x1, scale.x(3700));
    const path = findAll(tree, (n) => n.attrs.class === 'sw-charges-line')[0].attrs.d;
    assert.ok(path.includes(`H${scale.x(3700)}V`), `the charges step up at x(3700): ${path}`);
    const bands = findAll(tree, (n) => n.tag === 'rect' && /sw-band-/.test(n.attrs.class));
    assert.deepEqual(bands.map((b) => b.attrs.class), ['sw-band sw-band-unknown', 'sw-band sw-band-success']);
    assert.equal(bands[1].attrs.x, scale.x(3700));
    const list = boundaryListView(result, vary(result.vary), 'sw-');
    assert.equal(textOf(findAll(list, (n) => n.tag === 'li')[0]).replace('Go to it', '').trim(),
      'A second charge, outcome success instead of unknown from a deadline of 3,700 ms.');
    // The cursor's "Go to it" lands on the first point past the boundary.
    assert.equal(result.points[indexAtOrAfter(result.points, 3700)].charges, 2);
    assert.equal(result.points[indexAtOrAfter(result.points, 3700) - 1].charges, 1);
  });

  test('the outage over maximum retries: the boundary between 1 and 2 retries', () => {
    const result = sweep({ inputs: { scenario: 'outage-503-twice' }, vary: 'maxRetries', from: 0, to: 10, points: 1000 });
    assert.equal(result.points.length, 11, 'one point per whole number');
    const success = result.boundaries.find((b) => b.after === 'success');
    assert.equal(success.value, 2);
    assert.equal(success.text, 'a first charge, outcome success instead of failed from 2 retries');
    assert.match(summaryWords(result, vary(result.vary)), /^Across 11 points of maximum retries from 0 retries to 10 retries, the run changes at 2 boundaries:$/);
    assert.equal(pointWords(vary('maxRetries'), result.points[1]),
      '1 retry: 2 attempts, 0 charges, outcome failed, 900 ms elapsed; the agent reports error 503');
  });

  test('the table has one row per point, in the engine’s words and numbers', () => {
    const result = sweep({ inputs: {}, vary: 'clientTimeoutMs', from: 100, to: 5000, points: 50 });
    const rows = findAll(sweepTableView(result, vary(result.vary)), (n) => n.tag === 'tr').slice(1);
    assert.equal(rows.length, 50);
    rows.forEach((row, i) => {
      const p = result.points[i];
      const cells = row.children.map(textOf);
      assert.deepEqual(cells.slice(1), [String(p.attempts), String(p.charges), String(p.replays), p.outcome,
        `${p.elapsedMs.toLocaleString('en-US', { maximumFractionDigits: 2 })} ms`, p.agentReport]);
    });
  });

  test('a sweep with no boundary says nothing changes', () => {
    const result = sweep({ inputs: {}, vary: 'baseBackoffMs', from: 0, to: 1000, points: 11 });
    assert.equal(result.boundaries.length, 0);
    assert.equal(summaryWords(result, vary(result.vary)), 'Across 11 points of base backoff from 0 ms to 1,000 ms, nothing changes: 2 charges, outcome success, at every point.');
    assert.equal(boundaryListView(result, vary(result.vary), 'sw-'), null);
  });

  test('the nearest point to a value, for the pointer and for "where the experiment is now"', () => {
    const points = [0, 10, 20, 30].map((value) => ({ value }));
    assert.equal(nearestIndex(points, 14), 1);
    assert.equal(nearestIndex(points, 16), 2);
    assert.equal(nearestIndex(points, Infinity), 3);
    assert.equal(indexAtOrAfter(points, 10.5), 2);
    assert.equal(indexAtOrAfter(points, 99), 3);
  });
});

describe('sweep chart over a whole-numbered input', () => {
  test('the elapsed line steps between whole retry counts: no slope through values no run can have', () => {
    const result = sweep({ inputs: { scenario: 'outage-503-twice' }, vary: 'maxRetries', from: 0, to: 4, points: 5 });
    const [line] = findAll(sweepChartView(result, vary(result.vary), { width: 600 }).tree, (n) => n.attrs && n.attrs.class === 'sw-elapsed-line');
    const d = line.attrs.d;
    assert.match(d, /^M[\d.]+ [\d.]+(H[\d.]+V[\d.]+)+$/, d);
    // A deadline is continuous: its line still slopes between points.
    const deadline = sweep({ inputs: {}, vary: 'deadlineMs', from: 3000, to: 4000, points: 5 });
    const [slope] = findAll(sweepChartView(deadline, vary(deadline.vary), { width: 600 }).tree, (n) => n.attrs && n.attrs.class === 'sw-elapsed-line');
    assert.match(slope.attrs.d, /L/);
  });
});
