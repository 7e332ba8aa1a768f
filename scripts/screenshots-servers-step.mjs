#!/usr/bin/env node
// Screenshots of the article's step "The retry went to another server" (issue 39,
// web/servers/step.js) for docs/screenshots/, at 1280 and 390 px wide, light and dark: the step
// read down to its control with keys per server chosen and the figure played to its end
// (servers-step-per-server-*: two server lanes, the retry on server 1, two statement lines by
// server 0 and 1), and a replicated store at a 3,301 ms lag (servers-step-409-*: the 409).
// Run after `npm run build`:
//   node scripts/screenshots-servers-step.mjs [outdir]
// Uses playwright-core and /usr/bin/chromium as the tests do (scripts/screenshots.mjs).

import { join } from 'node:path';
import { screenshotDir, withBrowser } from './lib-screenshots.mjs';

const out = screenshotDir();
const SIZES = [['1280', { width: 1280, height: 900 }], ['390', { width: 390, height: 844 }]];

// The figure showing the step played to its end (the sticky one, or the one after the control).
async function playToEnd(page, wide) {
  const figure = page.locator(wide ? '[data-story-figure]' : '.servers-try + .story-slot .story-figure');
  await figure.waitFor({ state: 'visible' });
  await page.waitForTimeout(200);
  const prefix = (await figure.getAttribute('aria-labelledby')).replace(/story-caption$/, '');
  await page.locator(`#${prefix}seek`).focus();
  await page.keyboard.press('End');
  await page.waitForTimeout(100);
  return figure;
}

await withBrowser(out, async ({ server, browser }) => {
  for (const [name, viewport] of SIZES) {
    const wide = viewport.width >= 960;
    for (const colorScheme of ['light', 'dark']) {
      const context = await browser.newContext({ viewport, colorScheme, reducedMotion: 'reduce' });
      const page = await context.newPage();
      await page.goto(server.origin);
      await page.waitForFunction(() => document.documentElement.classList.contains('rl-ready'));
      await page.evaluate(() => window.retryLabEngine.load());
      for (const [state, set] of [['per-server', async () => page.locator('#sv-scope-per-server').check()],
        ['409', async () => { await page.locator('#sv-scope-replicated').check(); await page.locator('#sv-lag').fill('3301'); }]]) {
        await page.locator('#s-servers').evaluate((el) => el.scrollIntoView({ block: 'start' }));
        await page.locator('#sv-scope-shared').waitFor({ state: 'visible' });
        await set();
        await playToEnd(page, wide);
        // Wide: the control in the article and the figure beside it, in one screen. Narrow: the
        // control and the figure right after it.
        if (wide) await page.locator('.servers-try').evaluate((el) => el.scrollIntoView({ block: 'center' }));
        else await page.locator('.servers-try').evaluate((el) => el.scrollIntoView({ block: 'start' }));
        await page.waitForTimeout(200);
        await page.screenshot({ path: join(out, `servers-step-${state}-${name}-${colorScheme}.png`) });
      }
      await context.close();
    }
  }
});
