#!/usr/bin/env node
// Screenshots of issue 33's last three page gaps for docs/screenshots/, at 1280 and 390 px wide,
// light and dark: <retry-lab view="fleet"> with a stack in its policy.layers attribute, its stack
// box above the controls (stack-fleet-element-*), the experiment running the SRE book's three
// layers with "Clear the stack" under the stack's line (stack-clear-*), and the same experiment
// after it is pressed: one layer, the lanes' heading focused (stack-cleared-*). Run after
// `npm run build`:
//   node scripts/screenshots-stack-ui.mjs [outdir]
// Uses playwright-core and /usr/bin/chromium as the tests do (scripts/screenshots.mjs).

import { join } from 'node:path';
import { screenshotDir, withBrowser } from './lib-screenshots.mjs';
import { elementHost } from '../tests/browser/lib/harness.js';

const out = screenshotDir();
const SIZES = [['1280', { width: 1280, height: 900 }], ['390', { width: 390, height: 844 }]];
const STACK = 'name:agent~maxRetries:2~baseBackoffMs:0,name:payment%20SDK~maxRetries:1';
const HOST = elementHost('A stacked fleet', `<h2>Many agents over one payment SDK</h2><retry-lab id="f" view="fleet" policy.layers="${STACK}"></retry-lab>`);
// docs/layers.md §8.1 as a link: three layers of 4 attempts, a server that always fails.
const SRE = '/#v=1&scenario=script&script=503&maxRetries=3&baseBackoffMs=0&clientTimeoutMs=60000&deadlineMs=none&layers=name:agent,name:SDK,name:HTTP';

await withBrowser(out, async ({ server, browser }) => {
  for (const [name, viewport] of SIZES) {
    for (const colorScheme of ['light', 'dark']) {
      const context = await browser.newContext({ viewport, colorScheme, reducedMotion: 'reduce' });
      const page = await context.newPage();
      const shot = (what, locator) => locator.screenshot({ path: join(out, `stack-${what}-${name}-${colorScheme}.png`) });

      await page.route('**/stack-fleet-host.html', (route) => route.fulfill({ body: HOST, contentType: 'text/html' }));
      await page.goto(`${server.origin}/stack-fleet-host.html`);
      await page.waitForFunction(() => document.getElementById('f').classList.contains('rl-ready'), null, { timeout: 120000 });
      await page.evaluate(() => document.getElementById('f').fleet.settled());
      await page.waitForTimeout(200);
      await shot('fleet-element', page.locator('retry-lab #fl-stack'));

      await page.goto(server.origin + SRE);
      await page.waitForFunction(() => window.retryLab && window.retryLab.getState().result.inputs.layers);
      await page.waitForTimeout(200);
      await shot('clear', page.locator('.rl-mechanism'));
      await page.getByRole('button', { name: 'Clear the stack' }).press('Enter');
      await page.waitForFunction(() => !window.retryLab.getState().result.inputs.layers);
      await page.waitForTimeout(300);
      await shot('cleared', page.locator('.rl-mechanism'));
      await context.close();
    }
  }
});
