#!/usr/bin/env node
// Screenshots of a stack of retry layers outside its section (issue 33: compare mode, <retry-lab>
// and the fleet carry the stack) for docs/screenshots/, at 1280 and 390 px wide, light and dark:
// compare mode on docs/layers.md §8.5's two stacks (layers-compare-*: the summary in words and
// the difference lines; layers-compare-side-*: the before side's stack drawn), <retry-lab
// layers="…"> on a host page (layers-element-*), and the fleet running the section's stack after
// "Run this stack in the fleet" (layers-fleet-*: the stack box above the fleet's controls). Run
// after `npm run build`:
//   node scripts/screenshots-layers-doors.mjs [outdir]
// Uses playwright-core and /usr/bin/chromium as the tests do (scripts/screenshots.mjs).

import { join } from 'node:path';
import { screenshotDir, withBrowser } from './lib-screenshots.mjs';
import { elementHost } from '../tests/browser/lib/harness.js';

const out = screenshotDir();
const SIZES = [['1280', { width: 1280, height: 900 }], ['390', { width: 390, height: 844 }]];
// docs/layers.md §8.5: the SDK mints a key per call (charged twice); the agent's key passed down (once).
const STACK = 'name:agent~maxRetries:2~clientTimeoutMs:2000~baseBackoffMs:0,name:payment%20SDK~maxRetries:2~clientTimeoutMs:3000~key:mint';
const PASSED = 'name:agent~maxRetries:2~clientTimeoutMs:2000~baseBackoffMs:0~key:mint,name:payment%20SDK~maxRetries:2~clientTimeoutMs:3000~key:pass';
const COMPARE = `/#v=1&view=compare&clientTimeoutMs=60000&deadlineMs=none&layers=${STACK}&after.layers=${PASSED}`;
const HOST = elementHost('A stack of retry layers', `<h2>The agent over the payment SDK</h2><retry-lab layers="${STACK}" client-timeout-ms="60000" deadline-ms="none"></retry-lab>`);

await withBrowser(out, async ({ server, browser }) => {
  for (const [name, viewport] of SIZES) {
    for (const colorScheme of ['light', 'dark']) {
      const context = await browser.newContext({ viewport, colorScheme, reducedMotion: 'reduce' });
      const page = await context.newPage();
      const shot = (what, locator) => locator.screenshot({ path: join(out, `layers-${what}-${name}-${colorScheme}.png`) });

      await page.goto(server.origin + COMPARE);
      await page.waitForFunction(() => document.documentElement.classList.contains('rl-compare-ready'));
      await page.waitForTimeout(200);
      await shot('compare', page.locator('.rl-compare-head'));
      await shot('compare-side', page.locator('[data-compare-lab="before"] .rl-mechanism'));

      await page.route('**/stack-host.html', (route) => route.fulfill({ body: HOST, contentType: 'text/html' }));
      await page.goto(`${server.origin}/stack-host.html`);
      await page.waitForFunction(() => document.querySelector('retry-lab') && document.querySelector('retry-lab').classList.contains('rl-ready'));
      await page.waitForTimeout(200);
      await shot('element', page.locator('retry-lab .rl-mechanism'));

      await page.goto(`${server.origin}/#layers`);
      await page.waitForFunction(() => window.retryLabLayers && window.retryLabLayers.getResult());
      await page.locator('#layers').scrollIntoViewIfNeeded();
      await page.locator('#layers').getByRole('button', { name: 'Run this stack in the fleet' }).click();
      await page.waitForFunction(() => /runs this stack/.test(document.querySelector('#ly-fleet-said')?.textContent || ''), null, { timeout: 120000 });
      await page.waitForTimeout(400);
      await page.screenshot({ path: join(out, `layers-fleet-${name}-${colorScheme}.png`) });
      await context.close();
    }
  }
});
