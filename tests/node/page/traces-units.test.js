// The traces section's pure functions in node, fed by the real engine file: the grid's key
// map, the editor's round trip and error paths, the herd's check, and the cell sentences for
// the seed's rules that no trace row shows (a past Retry-After date, a wait over the budget).

import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngineInNode } from '../../browser/lib/engine.js';
import { textOf } from '../../../web/dom.js';
import { SEED_HERD, SEED_POLICY, TRACES, traceInputs } from '../../../web/traces/definitions.js';
import { moveFocus } from '../../../web/traces/grid.js';
import { editorErrors, editorForm, editorFromInputs, errorKey, fieldId, inputsFromEditor, pathLabel } from '../../../web/traces/editor.js';
import { attemptCells, drawText, lookupText, matrixView, resultLines, sec } from '../../../web/traces/matrix.js';
import { evenDraws, herdCheck, herdRunInputs } from '../../../web/traces/herd.js';
import { CALLER_STOPS, callerStop } from '../../../web/traces/frame.js';

let compute;
let defaults;
let engine;
let form;
before(async () => {
  engine = await loadEngineInNode();
  compute = (inputs) => engine.compute(inputs);
  defaults = compute({}).inputs;
  form = editorForm(engine.schema());
});

describe('grid keys', () => {
  test('arrows move one cell and stop at the edges; Home/End the row; Ctrl+Home/End the grid', () => {
    const move = (pos, key, ctrl = false) => moveFocus(pos, key, ctrl, 4, 7);
    assert.deepEqual(move({ row: 1, col: 0 }, 'ArrowLeft'), { row: 1, col: 0 });
    assert.deepEqual(move({ row: 1, col: 0 }, 'ArrowRight'), { row: 1, col: 1 });
    assert.deepEqual(move({ row: 1, col: 6 }, 'ArrowRight'), { row: 1, col: 6 });
    assert.deepEqual(move({ row: 0, col: 3 }, 'ArrowUp'), { row: 0, col: 3 });
    assert.deepEqual(move({ row: 3, col: 3 }, 'ArrowDown'), { row: 3, col: 3 });
    assert.deepEqual(move({ row: 2, col: 3 }, 'ArrowDown'), { row: 3, col: 3 });
    assert.deepEqual(move({ row: 2, col: 3 }, 'Home'), { row: 2, col: 0 });
    assert.deepEqual(move({ row: 2, col: 3 }, 'End'), { row: 2, col: 6 });
    assert.deepEqual(move({ row: 2, col: 3 }, 'Home', true), { row: 0, col: 0 });
    assert.deepEqual(move({ row: 2, col: 3 }, 'End', true), { row: 3, col: 6 });
    assert.equal(move({ row: 2, col: 3 }, 'a'), null, 'other keys are not the grid’s');
  });

  test('the matrix has one tab stop, on the focus', () => {
    const rows = TRACES.map((t) => ({ id: t.id, title: `Trace ${t.label}`, request: t.request, result: compute(traceInputs(t, SEED_HERD, { callers: 1 })) }));
    const tree = matrixView(rows, { focus: { row: 3, col: 2 }, selected: 'B', captionId: 'k', labelledBy: 'h' });
    const stops = [];
    const walk = (n) => {
      if (typeof n === 'string') return;
      if (n.attrs.tabindex === 0) stops.push([n.attrs['data-row'], n.attrs['data-col']]);
      n.children.forEach(walk);
    };
    walk(tree);
    assert.deepEqual(stops, [[3, 2]]);
    assert.match(textOf(tree), /Trace BGET \/items, provider downin the experiment/, 'the selected row says so');
  });
});

describe('the seed’s rules in the cells', () => {
  test('a Retry-After date in the past waits nothing: "retry after the shortest wait your policy allows"', () => {
    const result = compute({ ...SEED_POLICY, scenario: 'script', script: [{ status: 429, date: 'Sun, 29 Nov 2026 10:00:00 GMT', retryAfter: 'Sun, 29 Nov 2026 09:59:00 GMT' }, { status: 200 }] });
    assert.equal(attemptCells(result)[0].wait, 'wait 0.00 s: the header’s date has already passed (header wins)');
  });

  test('a wait past the 20 s budget stops and flags instead of sleeping', () => {
    const result = compute({ ...SEED_POLICY, scenario: 'script', script: [{ status: 429, retryAfter: '30' }, { status: 200 }] });
    const cells = attemptCells(result);
    assert.equal(cells.length, 1);
    assert.equal(cells[0].stop, 'stopped and flagged: the next wait, 30.00 s, would take the waiting past 20.00 s');
  });

  test('the lookup sentence comes from the metrics, for any write whose outcome is unknown', () => {
    const noKey = compute(traceInputs(TRACES.find((t) => t.id === 'E-no-id')));
    assert.match(lookupText(noKey.metrics), /^It is not retried without an identifier: the operation is marked unknown, a person is told/);
    // A keyed create that runs out of retries is unknown too, for another reason.
    const outOfRetries = compute({ ...SEED_POLICY, operation: 'create', scenario: 'response-lost', idempotencyKey: true, maxRetries: 0 });
    assert.equal(outOfRetries.metrics.lookupNeeded, true);
    assert.match(lookupText(outOfRetries.metrics), /^The operation is marked unknown/);
    assert.equal(lookupText(compute(traceInputs(TRACES[0])).metrics), null);
    assert.ok(resultLines(outOfRetries, null).some((l) => l.cls === 'tm-lookup'));
  });

  test('the ceiling × the draw is written exactly for a wait the result calls the rule’s figure alone (waitShape rule)', () => {
    // docs/engine.md §5's worked run: 200 ms (rule), 100 raised to the 150 ms minimum, 1,800 ms (rule).
    const raised = compute({ ...SEED_POLICY, scenario: 'script', script: [{ status: 503 }, { status: 503 }, { status: 503 }, { status: 200 }], draws: [0.4, 0.1, 0.9], minBackoffMs: 150 });
    assert.deepEqual(raised.attempts.map((a) => a.waitShape), ['rule', 'minimum', 'rule', 'none']);
    assert.deepEqual(attemptCells(raised).map((c) => c.wait), [
      'ceiling 0.50 s × draw 0.40 → 0.20 s',
      'wait 0.15 s (ceiling 1000 ms × draw 0.10, raised to the 150 ms minimum)',
      'ceiling 2.00 s × draw 0.90 → 1.80 s',
      null,
    ]);
    // A header weighed and passed over: the engine's sentence, which says so.
    const atLeast = compute({ ...SEED_POLICY, scenario: 'script', script: [{ status: 503, retryAfter: '0' }, { status: 200 }], draws: [0.4], retryAfterMode: 'at-least' });
    assert.equal(atLeast.attempts[0].waitShape, 'above-header');
    assert.equal(attemptCells(atLeast)[0].wait, 'wait 0.20 s (ceiling 500 ms × draw 0.40 (more than Retry-After: 0))');
    const overMax = compute({ ...SEED_POLICY, scenario: 'script', script: [{ status: 503, retryAfter: '2' }, { status: 200 }], draws: [0.4], retryAfterMaxMs: 1500 });
    assert.equal(overMax.attempts[0].waitShape, 'header-over-max');
    assert.equal(attemptCells(overMax)[0].wait, 'wait 0.20 s (ceiling 500 ms × draw 0.40 (Retry-After over the 1500 ms maximum is ignored))');
  });

  test('seconds with two decimals and draws with at least two, as the seed writes them', () => {
    assert.deepEqual([sec(3900), sec(450), sec(7000), sec(86400000)], ['3.90 s', '0.45 s', '7.00 s', '86,400.00 s']);
    assert.deepEqual([drawText(0.4), drawText(0.75), drawText(0.6071146506640145)], ['0.40', '0.75', '0.607115']);
  });
});

describe('the editor', () => {
  test('every seed trace round-trips: fields from the engine’s echo give the same run again', () => {
    for (const trace of TRACES) {
      const original = compute(traceInputs(trace, SEED_HERD, { callers: 1 }));
      const { fields, extra } = editorFromInputs(form, original.inputs, defaults);
      assert.deepEqual(extra, {}, `${trace.id}: every input has a field`);
      const { inputs, errors } = inputsFromEditor(form, fields, extra);
      assert.deepEqual(errors, {});
      const again = compute(inputs);
      assert.deepEqual(again.events, original.events, trace.id);
      assert.deepEqual(again.metrics, original.metrics, trace.id);
      assert.deepEqual(editorFromInputs(form, again.inputs, defaults).fields, fields, `${trace.id}: fields → inputs → fields`);
    }
  });

  test('inputs no field owns ride along; a herd’s callers do not', () => {
    const result = compute({ ...SEED_POLICY, minBackoffMs: 100, callers: 5, scenario: 'script', script: [{ status: 503 }] });
    const { extra } = editorFromInputs(form, result.inputs, defaults);
    assert.deepEqual(extra, { minBackoffMs: 100 });
  });

  test('the engine’s error paths land at the field that holds them, named by its label', () => {
    const bad = compute({
      scenario: 'script', script: [{ status: 200 }, { status: 99, retryAfter: 'x' }, { status: 200, lost: true, dropped: true }],
      draws: [0.5, 2], maxRetries: 101, operationId: '',
    });
    const errors = editorErrors(form, bad.errors);
    assert.match(errors['script[1].status'], /^Answer 2 status must be a whole number from 100 to 599/);
    assert.match(errors['script[2]'], /^Answer 3 cannot be both lost and dropped/);
    assert.match(errors.draws, /^Draw 2 must be a number from 0 to 1/);
    assert.match(errors.maxRetries, /^Maximum retries must be a whole number from 0 to 100/);
    assert.match(errors.operationId, /^Operation identifier must be 1 to 255 characters/);
    assert.deepEqual(Object.keys(errors).sort(), ['draws', 'maxRetries', 'operationId', 'script[1].status', 'script[2]']);
    assert.deepEqual([errorKey(form, 'retryOn[1]'), errorKey(form, 'callers'), errorKey(form, 'script')], ['retryOn', 'general', 'script']);
    assert.equal(pathLabel(form, 'script[0].retryAfter'), 'Answer 1 Retry-After');
    const id = (name) => `tr-${name}`;
    assert.deepEqual([fieldId(id, 'script[12].date'), fieldId(id, 'script[3]'), fieldId(id, 'draws')], ['tr-ed-script-12-date', 'tr-ed-script-3', 'tr-ed-draws']);
  });

  test('a named scenario opens as the engine’s own answers for it, and runs as it does', () => {
    const { scenarios } = engine.schema();
    const named = engine.schema().inputs.find((r) => r.name === 'scenario').choices.map((c) => c.name).filter((n) => n !== 'script');
    assert.deepEqual(Object.keys(scenarios), named);
    assert.deepEqual(form.scripts, scenarios);
    for (const scenario of named) {
      const original = compute({ scenario });
      const { fields, extra } = editorFromInputs(form, original.inputs, defaults);
      const { inputs, errors } = inputsFromEditor(form, fields, extra);
      assert.deepEqual(errors, {});
      assert.deepEqual(inputs.script, scenarios[scenario], scenario);
      const again = compute(inputs);
      assert.deepEqual(again.events, original.events, scenario);
      assert.deepEqual(again.attempts, original.attempts, scenario);
    }
  });

  test('the form has a field for every input of the run’s groups in the engine’s table, of its type', () => {
    const rows = engine.schema().inputs;
    const byType = (type) => rows.filter((r) => ['request', 'policy', 'limits', 'server', 'randomness'].includes(r.group) && r.type === type
      && !['scenario', 'script', 'draws', 'retryOn'].includes(r.name)).map((r) => r.name);
    assert.deepEqual(form.numbers.map((f) => f.name), byType('number'));
    assert.deepEqual(form.flags.map((f) => f.name), byType('boolean'));
    assert.deepEqual(form.choices.map((f) => f.name), byType('choice'));
    assert.deepEqual(form.retryClasses.map(([c]) => c), rows.find((r) => r.name === 'retryOn').items.choices.map((c) => c.name));
    // A row added to the table is a field of the form, labelled by its description.
    const extended = editorForm({ ...engine.schema(), inputs: [...rows, { name: 'throwawayMs', type: 'number', group: 'limits', unit: 'ms', description: 'a scratch wait', nullable: true }] });
    const { name, label, unit, nullable } = extended.numbers.at(-1);
    assert.deepEqual({ name, label, unit, nullable }, { name: 'throwawayMs', label: 'a scratch wait', unit: 'ms', nullable: true });
    assert.ok(extended.owned.has('throwawayMs'));
  });

  // Issue 35 item 10: a number outside its row's bounds, or not whole where the row says whole,
  // is named before the engine is asked, in the page's words, with its numbers as the page writes them.
  test('a number outside its row of the engine’s table is named at its field, in the page’s words', () => {
    const { fields } = editorFromInputs(form, compute(traceInputs(TRACES[0])).inputs, defaults);
    const { errors } = inputsFromEditor(form, { ...fields, baseBackoffMs: '-1', maxRetries: '2.5', clientTimeoutMs: '3000' });
    assert.deepEqual(errors, {
      baseBackoffMs: '“Base backoff” takes a number from 0 to 86,400,000 ms; -1 is below 0.',
      maxRetries: '“Maximum retries” takes a whole number from 0 to 100; 2.5 is not whole.',
    });
  });

  test('unreadable entries are named before the engine is asked', () => {
    const { fields } = editorFromInputs(form, compute(traceInputs(TRACES[0])).inputs, defaults);
    const { errors } = inputsFromEditor(form, { ...fields, draws: '0.1 0.2,x', maxBackoffMs: '', seed: 'one', script: [{ ...fields.script[0], status: '4o4' }] });
    assert.deepEqual(errors, {
      draws: 'Draw 3, “x”, is not a number.',
      seed: 'Enter a number.',
      'script[0].status': 'Enter a status code, such as 503.',
    });
    assert.equal(inputsFromEditor(form, { ...fields, maxBackoffMs: ' ' }).inputs.maxBackoffMs, null, 'an empty cap is none');
  });
});

describe('the herd', () => {
  test('the seed’s check on the engine’s herds: jitter passes, no jitter fails, evenly spread puts ten in each bucket', () => {
    const f = TRACES.find((t) => t.herd);
    const inputs = traceInputs(f, SEED_HERD);
    const jittered = compute(herdRunInputs(inputs, 'policy')).herd;
    assert.equal(jittered.callers, 50);
    assert.deepEqual(herdCheck(jittered), { occupiedNeeded: 4, fullestAllowed: 25, occupiedOk: true, fullestOk: true, passes: true });
    const none = compute(herdRunInputs(inputs, 'none')).herd;
    assert.equal(herdCheck(none).passes, false);
    assert.deepEqual(none.buckets, [0, 0, 0, 0, 50], 'a wait of exactly 500 ms falls in the last, closed bucket');
    assert.deepEqual(compute(herdRunInputs(inputs, 'even')).herd.buckets, [10, 10, 10, 10, 10]);
    assert.equal(evenDraws(4).join(), '0.125,0.375,0.625,0.875');
  });

  test('the engine judges callers and seed on a run whose first answer is not retried, without running the herd', () => {
    // The herd panel checks a typed value this way before it asks for a million callers.
    const t0 = performance.now();
    const checked = compute({ scenario: 'bad-request-400', callers: 1000000, seed: 7 });
    const ms = performance.now() - t0;
    assert.equal(checked.ok, true);
    assert.equal(checked.herd.notRetried, 1000000, 'no caller retries a 400');
    assert.ok(checked.herd.buckets.every((b) => b === 0));
    assert.ok(ms < 250, `a check, not a herd (${Math.round(ms)} ms)`);
    const refused = compute({ scenario: 'bad-request-400', callers: 1000001, seed: -1 });
    assert.deepEqual(refused.errors.map((e) => e.field).sort(), ['callers', 'seed']);
  });

  test('the callers range stops at 1, 2, 5 × 10^k up to a million, the seed’s fifty among them', () => {
    assert.equal(CALLER_STOPS[0], 1);
    assert.equal(CALLER_STOPS[CALLER_STOPS.length - 1], 1000000);
    assert.equal(CALLER_STOPS[callerStop(50)], 50);
    assert.equal(CALLER_STOPS[callerStop(1000000)], 1000000);
    assert.equal(CALLER_STOPS[callerStop(70)], 50);
  });
});
