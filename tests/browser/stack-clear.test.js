// "Clear the stack" (issue 33): the experiment running a link's stack of retry layers
// (docs/layers.md, views/lanes.js) offers a button that runs it with one layer again, the
// one-layer default whose policy is the controls' (§2): the run's `layers` gone, and so the
// link's; focus on the lanes' heading, which now names the one layer's drawing; the change said
// in the live region. Reached by the keyboard, in the experiment and in <retry-lab layers="…">;
// axe finds nothing before or after, light and dark. The figures are worked by hand: the SRE
// book's three layers of 4 attempts against a server that always fails are 64 server attempts;
// one layer of the same 3 retries is 4.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { axeViolations, browserSuite, elementHost, hostSite, pageFor, pageTest } from './lib/harness.js';

const env = browserSuite();
// docs/layers.md §8.1 as a link: three layers, every field the run's (3 retries, no wait, no
// timeouts), a server that always fails.
const SRE = '/#v=1&scenario=script&script=503&maxRetries=3&baseBackoffMs=0&clientTimeoutMs=60000&deadlineMs=none&layers=name:agent,name:SDK,name:HTTP';
const STACK = 'name:agent~maxRetries:2~clientTimeoutMs:2000~baseBackoffMs:0,name:SDK~key:mint';
const host = hostSite(env, { 'stack.html': elementHost('A stack', `<retry-lab layers="${STACK}" max-retries="0"></retry-lab>`) });

const clearButton = (scope) => scope.getByRole('button', { name: 'Clear the stack' });

describe('the experiment\'s "Clear the stack"', () => {
  test('it runs one layer again: 64 server attempts become 4, the link loses its layers, focus goes to the lanes\' heading and the change is said', pageTest(env, { path: SRE }, async ({ page }) => {
    assert.equal(await page.evaluate(() => window.retryLab.getState().result.metrics.attempts), 64);
    const button = clearButton(page.locator('#rl-lanes'));
    assert.equal(await button.getAttribute('aria-describedby'), 'rl-stack-clear-help');
    assert.equal(await page.locator('#rl-stack-clear-help').innerText(), 'Back to one layer: the policy the controls set.');
    // By the keyboard: Tab from the stack's line reaches it (nothing focusable between them).
    await page.locator('#rl-stack-head').evaluate((p) => { p.tabIndex = -1; p.focus(); });
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'rl-stack-clear');
    await page.keyboard.press('Enter');

    const state = await page.evaluate(() => {
      const { result } = window.retryLab.getState();
      return { layers: result.inputs.layers, attempts: result.metrics.attempts, maxRetries: result.inputs.maxRetries, scenario: result.inputs.scenario };
    });
    assert.deepEqual(state, { layers: undefined, attempts: 4, maxRetries: 3, scenario: 'script' }, 'one layer of the run’s own 3 retries, the same server');
    await page.waitForFunction(() => !/layers=/.test(window.location.hash));
    assert.equal(await page.evaluate(() => window.location.hash), '#v=1&scenario=script&script=503&baseBackoffMs=0&clientTimeoutMs=60000&deadlineMs=none', 'the rest of the link stays (3 retries is the default)');
    assert.equal(await page.locator('#rl-lanes-heading').innerText(), 'Client and server, message by message');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'rl-lanes-heading');
    assert.equal(await page.locator('#rl-lanes .ly-stack').count(), 0, 'the stack’s drawing is gone');
    assert.match(await page.locator('#rl-announce').innerText(), /^The stack is cleared: one layer, the policy the controls set\. Recomputed: /);
  }));

  test('in <retry-lab layers="…"> it clears the element\'s stack too, and its link to the run loses the layers', async () => {
    const { page } = await pageFor(env);
    await page.goto(`${host.server.origin}/stack.html`);
    await page.waitForFunction(() => document.querySelector('retry-lab').classList.contains('rl-ready'));
    const lab = page.locator('retry-lab');
    assert.match(await lab.locator('.rl-share-link').inputValue(), /layers=/);
    await clearButton(lab).click();
    const inputs = await page.evaluate(() => document.querySelector('retry-lab').explorable.getState().result.inputs);
    assert.equal(inputs.layers, undefined);
    assert.equal(inputs.maxRetries, 0, 'the element’s other attributes stay');
    assert.equal(await lab.locator('.ly-stack').count(), 0);
    assert.equal(await page.evaluate(() => document.querySelector('retry-lab').shadowRoot.activeElement?.textContent), 'Client and server, message by message');
    const link = await lab.locator('.rl-share-link').inputValue();
    assert.doesNotMatch(link, /layers=/);
    assert.match(link, /maxRetries=0/);
  });

  for (const colorScheme of ['light', 'dark']) {
    test(`axe finds nothing in the stack with its button, nor in the cleared run (${colorScheme})`, pageTest(env, { path: SRE, colorScheme, bypassCSP: true }, async ({ page }) => {
      assert.deepEqual(await axeViolations(page, '.rl-mechanism'), []);
      await clearButton(page.locator('#rl-lanes')).click();
      await page.waitForFunction(() => !window.retryLab.getState().result.inputs.layers);
      assert.deepEqual(await axeViolations(page, '.rl-mechanism'), []);
    }));
  }
});
