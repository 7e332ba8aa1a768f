// The seed's story (seeds/002), step by step through the page's controls; every expected
// figure is one the seed's text states.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, pageTest } from './lib/harness.js';
import { metricsOf, setInputs, sides, tableRows, timelineText, verdict } from './lib/ui.js';

const env = browserSuite();

describe('the seed story through the UI', () => {
  test('the page opens on the opening run: 2 attempts, 2 charges, success at 3,700 ms', pageTest(env, { sections: false }, async ({ page }) => {
    assert.deepEqual(await metricsOf(page), { attempts: '2', charges: '2', replays: '0', elapsed: '3,700 ms', outcome: 'success', lookup: 'no' });
    // The opening run asks before it answers: played to its end, it says what happened.
    assert.equal(await verdict(page), 'How many times was the card charged?');
    await page.locator('#rl-seek').focus();
    await page.keyboard.press('End');
    assert.equal(await verdict(page), 'Reports success, charged twice.');
    const [report, real] = await sides(page);
    assert.match(report, /^The agent reports Success After two attempts/i);
    assert.match(real, /Charged twice/);
    assert.match(real, /charge #2 at 3,700 ms/);
    assert.deepEqual(await tableRows(page), [
      ['1', '0 ms', '3,000 ms', '200, response lost', 'charge #1', 'timeout', '500 ms (500 ms × 2^0)'],
      ['2', '3,500 ms', '3,700 ms', '200', 'charge #2', '200', 'none'],
    ]);
    const labels = await timelineText(page);
    for (const expected of ['attempt 1 · timeout', 'attempt 2 · 200', 'wait 500 ms (500 ms × 2^0)', 'charge #1, response lost', 'charge #2', 'deadline 10,000 ms →']) {
      assert.ok(labels.includes(expected), `timeline shows "${expected}" (has ${JSON.stringify(labels)})`);
    }
    // The controls show the opening inputs the engine filled in.
    assert.equal(await page.locator('#rl-maxRetries').inputValue(), '3');
    assert.equal(await page.locator('#rl-clientTimeoutMs').inputValue(), '3000');
    assert.equal(await page.locator('#rl-deadlineMs').inputValue(), '10000');
  }));

  test('an idempotency key: 1 charge and 1 replay after 3,700 ms', pageTest(env, { sections: false }, async ({ page }) => {
    await setInputs(page, { idempotencyKey: true });
    assert.deepEqual(await metricsOf(page), { attempts: '2', charges: '1', replays: '1', elapsed: '3,700 ms', outcome: 'success', lookup: 'no' });
    assert.equal(await verdict(page), 'Reports success, charged once.');
    assert.equal((await tableRows(page))[1][3], 'stored result replayed');
    assert.ok((await timelineText(page)).includes('replay'));
  }));

  test('maximum retries 0: one charge, the agent reports a timeout, the outcome is unknown', pageTest(env, { sections: false }, async ({ page }) => {
    await setInputs(page, { maxRetries: 0 });
    assert.deepEqual(await metricsOf(page), { attempts: '1', charges: '1', replays: '0', elapsed: '3,000 ms', outcome: 'unknown', lookup: 'yes' });
    assert.equal(await verdict(page), 'Reports a timeout, charged once.');
    const [report, real] = await sides(page);
    assert.match(report, /Timeout/);
    assert.match(real, /only a status lookup can/);
  }));

  test('deadline 4,000 ms still charges twice; 3,500 ms never sends attempt 2 and leaves it unknown', pageTest(env, { sections: false }, async ({ page }) => {
    await setInputs(page, { deadlineMs: 4000 });
    assert.deepEqual(await metricsOf(page), { attempts: '2', charges: '2', replays: '0', elapsed: '3,700 ms', outcome: 'success', lookup: 'no' });
    assert.ok((await timelineText(page)).includes('deadline 4,000 ms'));
    await setInputs(page, { deadlineMs: 3500 });
    const m = await metricsOf(page);
    assert.equal(m.attempts, '1');
    assert.equal(m.charges, '1');
    assert.equal(m.outcome, 'unknown');
    assert.equal(m.lookup, 'yes');
    assert.equal((await tableRows(page)).length, 1);
    assert.match(await page.locator('#rl-metrics [data-metric="stop"] dd').textContent(), /deadline/);
  }));

  test('client timeout 500 ms moves the duplicate charge to 1,200 ms', pageTest(env, { sections: false }, async ({ page }) => {
    await setInputs(page, { clientTimeoutMs: 500 });
    const m = await metricsOf(page);
    assert.equal(m.charges, '2');
    assert.equal(m.elapsed, '1,200 ms');
    const rows = await tableRows(page);
    assert.deepEqual(rows.map((r) => [r[1], r[2], r[4]]), [['0 ms', '500 ms', 'charge #1'], ['1,000 ms', '1,200 ms', 'charge #2']]);
    assert.match((await sides(page))[1], /charge #2 at 1,200 ms/);
  }));

  test('the outage: attempts 0–200, 700–900, 1,900–2,100 ms and exactly one charge', pageTest(env, { sections: false }, async ({ page }) => {
    await setInputs(page, { scenario: 'HTTP 503 twice, then succeeds' });
    const rows = await tableRows(page);
    assert.deepEqual(rows.map((r) => [r[1], r[2], r[3], r[4]]), [
      ['0 ms', '200 ms', '503', rows[0][4]], ['700 ms', '900 ms', '503', rows[1][4]], ['1,900 ms', '2,100 ms', '200', 'charge #1'],
    ]);
    assert.deepEqual(rows.map((r) => r[6]), ['500 ms (500 ms × 2^0)', '1,000 ms (500 ms × 2^1)', 'none']);
    const m = await metricsOf(page);
    assert.equal(m.charges, '1');
    assert.equal(m.outcome, 'success');
    assert.equal(await verdict(page), 'Reports success, charged once.');
  }));

  test('the outage with 1 retry, or a 2,000 ms deadline, ends at 900 ms with no charge', pageTest(env, { sections: false }, async ({ page }) => {
    await setInputs(page, { scenario: 'HTTP 503 twice, then succeeds', maxRetries: 1 });
    let m = await metricsOf(page);
    assert.deepEqual([m.attempts, m.charges, m.elapsed, m.outcome], ['2', '0', '900 ms', 'failed']);
    assert.equal(await verdict(page), 'Reports error 503, no charge.');
    await setInputs(page, { maxRetries: 3, deadlineMs: 2000 });
    m = await metricsOf(page);
    assert.deepEqual([m.attempts, m.charges, m.elapsed, m.outcome], ['2', '0', '900 ms', 'failed']);
  }));

  test('HTTP 400: one 200 ms attempt; retrying every failure gives 4 attempts ending at 4,300 ms', pageTest(env, { sections: false }, async ({ page }) => {
    await setInputs(page, { scenario: 'HTTP 400 on every attempt' });
    let m = await metricsOf(page);
    assert.deepEqual([m.attempts, m.charges, m.elapsed], ['1', '0', '200 ms']);
    assert.deepEqual((await tableRows(page)).map((r) => [r[1], r[2], r[3]]), [['0 ms', '200 ms', '400']]);
    assert.equal(await verdict(page), 'Reports error 400, no charge.');
    await setInputs(page, { retryOn: 'Every failure, including 400' });
    m = await metricsOf(page);
    assert.deepEqual([m.attempts, m.charges, m.elapsed, m.outcome], ['4', '0', '4,300 ms', 'failed']);
    assert.deepEqual((await tableRows(page)).map((r) => r[2]), ['200 ms', '900 ms', '2,100 ms', '4,300 ms']);
  }));

  test('the article quotes the engine\'s numbers, and its "Try it" buttons load each step', pageTest(env, { sections: false }, async ({ page }) => {
    assert.equal(await page.locator('.fact:empty').count(), 0, 'every computed number is filled in');
    const fact = (story, f) => page.locator(`.fact[data-story="${story}"][data-fact="${f}"]`).first().textContent();
    assert.equal(await fact('opening', 'attempts.1.endMs'), '3,700 ms');
    assert.equal(await fact('opening', 'effect'), 'charged twice');
    assert.equal(await fact('key', 'metrics.replays'), 'one');
    assert.equal(await fact('no-retries', 'metrics.outcome'), 'unknown');
    assert.equal(await fact('deadline-3500', 'metrics.outcome'), 'unknown');
    assert.equal(await fact('timeout-500', 'commits.1.tMs'), '1,200 ms');
    assert.equal(await fact('outage-one-retry', 'metrics.elapsedMs'), '900 ms');
    assert.equal(await fact('outage-deadline', 'metrics.elapsedMs'), '900 ms');
    assert.equal(await fact('bad-request', 'durations.0'), '200 ms');
    assert.equal(await fact('bad-request-every', 'metrics.elapsedMs'), '4,300 ms');
    assert.equal(await fact('bad-request-every', 'retries'), 'three');

    // A step loads into the figure beside the article (web/explorable/steps.js), not the experiment.
    const figureRun = (step) => page.waitForFunction((s) => {
      const f = window.retryLabStory && window.retryLabStory.figures().find((x) => x.step === s);
      return f && f.state.result;
    }, step).then((h) => h.jsonValue());
    await page.getByRole('button', { name: 'Try it: timeout 500 ms' }).click();
    let run = await figureRun('timeout-500');
    assert.equal(run.inputs.clientTimeoutMs, 500);
    assert.equal(run.metrics.elapsedMs, 1200);
    await page.getByRole('button', { name: '…retrying every failure' }).click();
    run = await figureRun('bad-request-every');
    assert.equal(run.inputs.clientTimeoutMs, 3000, 'each step starts from the opening inputs');
    assert.deepEqual([...run.inputs.retryOn].sort(), ['429', '4xx', '5xx', 'timeout']);
    assert.equal(run.metrics.elapsedMs, 4300);
    assert.equal((await metricsOf(page)).elapsed, '3,700 ms', 'the experiment keeps its own run');
  }));
});
