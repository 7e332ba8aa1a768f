// The editor for your own trace: a copy of any seed trace round-trips (its row in the matrix
// is the seed trace's row again), edits recompute the "yours" row, and an entry the engine
// cannot use is named at its field while the row keeps the last good trace.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, pageTest } from './lib/harness.js';
import { TR, appTrace, attemptsShown, matrixRow, shownMetrics, tracesState } from './lib/traces-ui.js';

const env = browserSuite();

const field = (page, key) => page.locator(`#tr-ed-${key}`);
const errorAt = async (page, key) => (await page.locator(`#tr-ed-${key}-error`).textContent()).trim();

// A row's cells without its label: what the trace did, attempt by attempt, and its result.
const body = (row) => ({ attempts: row.attempts, result: row.result.filter((l) => !/^Showing the last good/.test(l)) });

describe('your own trace', () => {
  test('a copy of each seed trace round-trips: the same row, and the same inputs back', pageTest(env, {}, async ({ page }) => {
    for (const id of ['A', 'B', 'C', 'D', 'D-401', 'D-404', 'E', 'E-no-id', 'F']) {
      await page.getByLabel('Start from').selectOption(id);
      await page.getByRole('button', { name: 'Copy into the editor' }).click();
      const original = await matrixRow(page, id);
      const yours = await matrixRow(page, 'custom');
      if (id === 'F') {
        // The editor's trace is one caller: the same attempts; the herd line belongs to F alone.
        assert.deepEqual(yours.attempts, original.attempts, 'F: the same attempts');
      } else {
        assert.deepEqual(body(yours), body(original), `${id}: the same row`);
      }
      // And the fields, read back, give the same inputs again.
      const before1 = (await tracesState(page)).custom;
      await field(page, 'maxRetries').fill(await field(page, 'maxRetries').inputValue());
      assert.deepEqual((await tracesState(page)).custom, before1, `${id}: fields → inputs → fields is stable`);
    }
    // Trace C's headers arrive in the fields as written in the seed.
    await page.getByLabel('Start from').selectOption('C');
    await page.getByRole('button', { name: 'Copy into the editor' }).click();
    assert.equal(await field(page, 'script-0-status').inputValue(), '429');
    assert.equal(await field(page, 'script-0-date').inputValue(), 'Sun, 29 Nov 2026 10:00:00 GMT');
    assert.equal(await field(page, 'script-0-retryAfter').inputValue(), 'Sun, 29 Nov 2026 10:00:07 GMT');
    // Trace E's named scenario becomes its answers: the create's answer lost, then a 200.
    await page.getByLabel('Start from').selectOption('E');
    await page.getByRole('button', { name: 'Copy into the editor' }).click();
    assert.equal(await field(page, 'script-0-lost').isChecked(), true);
    assert.equal(await field(page, 'operation').inputValue(), 'create');
    assert.equal(await field(page, 'idempotencyKey').isChecked(), true);
  }));

  test('edits recompute the row: headers, draws, answers added and removed, policy fields', pageTest(env, {}, async ({ page }) => {
    // The editor opens on a copy of trace A.
    assert.deepEqual(body(await matrixRow(page, 'custom')), body(await matrixRow(page, 'A')));

    // A date-form Retry-After five seconds after the answer's Date waits five seconds.
    await field(page, 'script-0-date').fill('Sun, 29 Nov 2026 10:00:00 GMT');
    await field(page, 'script-0-retryAfter').fill('Sun, 29 Nov 2026 10:00:05 GMT');
    let row = await matrixRow(page, 'custom');
    assert.ok(row.attempts[0].includes('wait 5.00 s: the header’s date, counted from the response’s Date (header wins)'), row.attempts[0].join(' | '));
    // A header the engine cannot read is ignored, and the backoff applies with the next draw.
    await field(page, 'script-0-retryAfter').fill('soon');
    row = await matrixRow(page, 'custom');
    assert.ok(row.attempts[0].includes('Retry-After unusable, ignored; ceiling 0.50 s × draw 0.40 → 0.20 s'), row.attempts[0].join(' | '));

    // Draws: the seed's B draws on an always-503 script give trace B's waits.
    await page.getByLabel('Start from').selectOption('A');
    await page.getByRole('button', { name: 'Copy into the editor' }).click();
    await field(page, 'draws').fill('0.90, 0.20, 0.60, 0.50');
    await field(page, 'script-0-retryAfter').fill('');
    await field(page, 'script-0-status').fill('503');
    for (let i = 3; i >= 1; i -= 1) await page.getByRole('button', { name: `Remove answer ${i + 1}` }).click();
    assert.equal(await page.getByRole('button', { name: 'Remove answer 1' }).isDisabled(), true, 'one answer always stays');
    row = await matrixRow(page, 'custom');
    assert.deepEqual(body(row), body(await matrixRow(page, 'B')), 'your trace is now trace B');

    // Add an answer: a 200 on attempt 2 ends it there.
    await page.getByRole('button', { name: 'Add an answer' }).click();
    assert.equal(await page.evaluate(() => document.activeElement.id), 'tr-ed-script-1-status', 'focus goes to the new answer');
    assert.equal(await field(page, 'script-1-status').inputValue(), '200');
    row = await matrixRow(page, 'custom');
    assert.equal(attemptsShown(row).length, 2);
    assert.equal(row.result[0], 'success, 2 attempts, 0.45 s waiting'); // B's first wait: ceiling 0.5 × draw 0.90

    // Policy: no retries at all.
    await field(page, 'maxRetries').fill('0');
    row = await matrixRow(page, 'custom');
    assert.deepEqual([attemptsShown(row).length, row.result[0]], [1, 'failed, 1 attempt, 0.00 s waiting']);
  }));

  test('an entry the engine refuses is named at its field; the row keeps the last good trace until it is fixed', pageTest(env, {}, async ({ page }) => {
    const good = body(await matrixRow(page, 'custom'));
    const stale = async () => (await matrixRow(page, 'custom')).result.some((l) => /^Showing the last good version/.test(l));

    const cases = [
      ['script-1-status', '99', /^Answer 2 status must be a whole number from 100 to 599; got 99\.$/],
      ['script-1-status', 'x', /^Enter a status code/],
      ['script-0-date', 'tomorrow', /^Answer 1 Date must be an HTTP-date/],
      ['draws', '0.4, 2', /^Draw 2 must be a number from 0 to 1; got 2\.$/],
      ['draws', '0.4, many', /^Draw 2, “many”, is not a number\.$/],
      // Numbers judged by their row of the engine's table at once, in the page's words and numbers (issue 35).
      ['maxRetries', '200', /^“Maximum retries” takes a whole number from 0 to 100; 200 is above 100\.$/],
      ['maxRetries', '2.5', /^“Maximum retries” takes a whole number from 0 to 100; 2\.5 is not whole\.$/],
      ['baseBackoffMs', '-1', /^“Base backoff” takes a number from 0 to 86,400,000 ms; -1 is below 0\.$/],
      ['baseBackoffMs', '', /^Enter a number\.$/],
      ['startDate', 'now', /^Clock at time 0 \(an HTTP-date\) must be an HTTP-date/],
      ['startDate', 'yesterday', /^Clock at time 0 \(an HTTP-date\) must be an HTTP-date such as "Sun, 29 Nov 2026 10:00:00 GMT"; got the string "yesterday"\.$/],
    ];
    for (const [key, value, message] of cases) {
      const before1 = await field(page, key).inputValue();
      await field(page, key).fill(value);
      assert.match(await errorAt(page, key), message, `${key} = ${value}`);
      assert.equal(await field(page, key).getAttribute('aria-invalid'), 'true');
      const describedBy = (await field(page, key).getAttribute('aria-describedby')).split(' ');
      assert.ok(describedBy.includes(`tr-ed-${key}-error`), 'the message describes the field');
      assert.ok(await stale(), 'the row says it shows the last good version');
      assert.deepEqual(body(await matrixRow(page, 'custom')), good, 'the last good row stays');
      assert.match(await errorAt(page, 'general'), /keeps your last good trace/);
      await field(page, key).fill(before1);
      assert.equal(await errorAt(page, key), '', `${key}: fixed`);
      assert.equal(await field(page, key).getAttribute('aria-invalid'), null);
      assert.equal(await stale(), false);
    }
    // Lost and dropped together: the answer's row says why.
    await field(page, 'script-0-lost').check();
    await field(page, 'script-0-dropped').check();
    assert.match(await errorAt(page, 'script-0'), /^Answer 1 cannot be both lost and dropped/);
    await field(page, 'script-0-lost').uncheck();
    assert.equal(await errorAt(page, 'script-0'), '');
    assert.match((await matrixRow(page, 'custom')).attempts[0][0], /^timeout \(request lost before the server\)$/);
  }));

  test('your trace loads into the experiment, and follows your edits there', pageTest(env, {}, async ({ page }) => {
    assert.equal(await page.evaluate(() => window.retryLabTraces.selectTrace('custom')), true);
    assert.equal(await appTrace(page), 'custom');
    assert.equal((await shownMetrics(page)).attempts, '4');
    await field(page, 'script-0-status').fill('400');
    assert.equal(await appTrace(page), 'custom');
    assert.deepEqual([(await shownMetrics(page)).attempts, (await shownMetrics(page)).outcome], ['1', 'failed']);
    // Whole inputs set from outside (a link, say) land in the fields.
    const problems = await page.evaluate(() => window.retryLabTraces.setCustom({
      scenario: 'script', script: [{ status: 503 }, { status: 200 }], draws: [0.5], jitter: 'full', retryOn: ['5xx'],
    }));
    assert.equal(problems, null);
    assert.equal(await field(page, 'script-0-status').inputValue(), '503');
    assert.equal(await field(page, 'draws').inputValue(), '0.5');
    assert.equal((await matrixRow(page, 'custom')).attempts[0][2], 'ceiling 0.50 s × draw 0.50 → 0.25 s');
    assert.equal((await shownMetrics(page)).attempts, '2');
    const refused = await page.evaluate(() => window.retryLabTraces.setCustom({ maxRetries: -1 }));
    assert.equal(refused[0].field, 'maxRetries', 'unusable inputs are refused whole, with the engine’s errors');
    assert.equal(await field(page, 'script-0-status').inputValue(), '503', 'and nothing changes');
  }));
});
