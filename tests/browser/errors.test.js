// Bad input keeps the last good run and says what is wrong beside the field; an engine that
// cannot load is reported on the page in plain words.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, pageTest } from './lib/harness.js';
import { ID, metricsOf, tableRows } from './lib/ui.js';

const env = browserSuite();

const OPENING = { attempts: '2', charges: '2', replays: '0', elapsed: '3,700 ms', outcome: 'success', lookup: 'no' };

async function fieldState(page, name) {
  const box = page.locator(ID(name));
  const describedBy = (await box.getAttribute('aria-describedby')).split(' ');
  return {
    invalid: await box.getAttribute('aria-invalid'),
    describedByError: describedBy.includes(`rl-${name}-error`),
    message: (await page.locator(ID(`${name}-error`)).textContent()).trim(),
  };
}

describe('bad input', () => {
  test('a value the engine refuses shows its message beside the field and keeps the last good run', pageTest(env, { sections: false }, async ({ page }) => {
    await page.locator(ID('maxRetries')).fill('-1');
    const state = await fieldState(page, 'maxRetries');
    assert.equal(state.invalid, 'true');
    assert.ok(state.describedByError);
    assert.match(state.message, /\S/, 'a message is shown');
    assert.match(state.message, /0|100/, 'the message gives the allowed range');
    assert.match(state.message, /^Maximum retries /, 'named by its label, not its input name');
    assert.deepEqual(await metricsOf(page), OPENING, 'the last good run stays');
    assert.match(await page.locator(ID('general-error')).textContent(), /last good run/);

    await page.locator(ID('maxRetries')).fill('2.5');
    assert.match((await fieldState(page, 'maxRetries')).message, /\S/);
    assert.deepEqual(await metricsOf(page), OPENING);

    await page.locator(ID('maxRetries')).fill('0');
    assert.deepEqual(await fieldState(page, 'maxRetries'), { invalid: null, describedByError: true, message: '' });
    assert.equal((await metricsOf(page)).outcome, 'unknown', 'a good value recomputes');
    assert.equal(await page.locator(ID('general-error')).textContent(), '');
  }));

  test('an empty or unreadable number says so, and fixing it recomputes', pageTest(env, { sections: false }, async ({ page }) => {
    await page.locator(ID('clientTimeoutMs')).fill('');
    assert.equal((await fieldState(page, 'clientTimeoutMs')).message, 'Enter a number of milliseconds.');
    await page.locator(ID('clientTimeoutMs')).focus();
    await page.keyboard.type('e'); // Chromium lets a number box hold this, as unreadable input
    assert.equal(await page.locator(ID('clientTimeoutMs')).evaluate((el) => el.validity.badInput), true);
    assert.equal((await fieldState(page, 'clientTimeoutMs')).message, 'Enter a number of milliseconds.');
    assert.deepEqual(await metricsOf(page), OPENING);
    // Two bad fields at once: both are named; the run waits for both.
    await page.locator(ID('deadlineMs')).fill('-5');
    assert.match((await fieldState(page, 'clientTimeoutMs')).message, /Enter a number/);
    await page.locator(ID('clientTimeoutMs')).fill('500');
    assert.equal((await fieldState(page, 'clientTimeoutMs')).message, '');
    assert.match((await fieldState(page, 'deadlineMs')).message, /\S/);
    assert.deepEqual(await metricsOf(page), OPENING);
    await page.locator(ID('deadlineMs')).fill('10000');
    assert.equal((await metricsOf(page)).elapsed, '1,200 ms');
    assert.deepEqual((await tableRows(page)).map((r) => r[2]), ['500 ms', '1,200 ms']);
  }));

  test('an engine that cannot load is reported plainly where the explorable would be', async () => {
    const context = await env.newContext();
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await context.route('**/retrylab-engine.js', (route) => route.fulfill({ status: 404, body: 'gone' }));
    await page.goto(`${env.server.origin}/`);
    // The page opens without its engine (issue 18, web/main.js): the reader's first change asks for it.
    await page.waitForFunction(() => document.documentElement.classList.contains('rl-ready'));
    await page.locator('#rl-idempotencyKey').click();
    await page.waitForFunction(() => document.documentElement.classList.contains('rl-engine-failed'));
    const alert = page.locator('[data-retry-lab] [role="alert"]');
    assert.match(await alert.textContent(), /retry engine .* did not load/);
    assert.equal(await page.locator('#rl-controls').count(), 0, 'no empty frame');
    assert.equal(await page.locator('button[data-try]:visible').count(), 0, 'no buttons that cannot work');
    // Every place that waited for the engine says so; none is left "Loading…".
    assert.equal(await page.locator('.rl-loading').count(), 0, 'no section left loading');
    for (const box of ['[data-retry-traces]', '[data-client-lab]', '[data-layers]', '[data-fleet]']) {
      assert.match(await page.locator(`${box} [role="alert"]`).textContent(), /retry engine .* did not load/, box);
    }
    assert.deepEqual(errors, [], 'the failure is handled, not thrown');
  });

  test('an engine whose start fails is reported with its reason', async () => {
    const context = await env.newContext();
    const page = await context.newPage();
    await context.route('**/retrylab-engine.js', (route) => route.fulfill({
      status: 200,
      contentType: 'text/javascript',
      body: 'var RetryLabEngine = function () { return Promise.reject(new Error("WebAssembly is disabled")); };',
    }));
    await page.goto(`${env.server.origin}/`);
    await page.waitForFunction(() => document.documentElement.classList.contains('rl-ready'));
    await page.locator('#rl-idempotencyKey').click();
    await page.waitForFunction(() => document.documentElement.classList.contains('rl-engine-failed'));
    assert.match(await page.locator('[data-retry-lab] [role="alert"]').textContent(), /failed to start: WebAssembly is disabled/);
  });
});
