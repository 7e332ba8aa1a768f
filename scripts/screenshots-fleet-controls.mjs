#!/usr/bin/env node
// The fleet section's switched models (issue 34's page, docs/throttling.md §3, §6), for
// docs/screenshots/ (as scripts/screenshots-fleet.mjs): at 1280×720 and 390×844, light and dark,
//   fleet-controls-*  the throttling server and hedging switched on from a fleet link, each
//                     saying beside it what it did in the run on show
//   fleet-refused-*   a stack of layers on show (policy.layers) and the throttling server switched
//                     on: the engine's refusal under its switch (docs/layers.md §9.6)
// Run after `npm run build`:  node scripts/screenshots-fleet-controls.mjs [outdir]
import { join } from 'node:path';
import { screenshotDir, withBrowser } from './lib-screenshots.mjs';

const out = screenshotDir();
const SIZES = [['1280', { width: 1280, height: 720 }], ['390', { width: 390, height: 844 }]];
const LINK = 'server.admission.ratePerSecond=1.5&server.admission.burst=2&policy.maxRetries=0&policy.hedging.maxAttempts=2&policy.hedging.delayMs=200';

const settled = (page) => page.evaluate(() => window.retryLabFleet.ready.then(() => new Promise((r) => setTimeout(r, 100))).then(() => window.retryLabFleet.settled()));

await withBrowser(out, async ({ server, browser }) => {
  for (const [name, viewport] of SIZES) {
    for (const colorScheme of ['light', 'dark']) {
      for (const state of ['fleet-controls', 'fleet-refused']) {
        const context = await browser.newContext({ viewport, colorScheme, reducedMotion: 'reduce' });
        const page = await context.newPage();
        await page.goto(`${server.origin}/${state === 'fleet-controls' ? `#v=1&view=fleet&${LINK}` : ''}`);
        await page.waitForFunction(() => document.documentElement.classList.contains('rl-ready'));
        await page.evaluate(() => window.retryLabFleetSection.load());
        await page.waitForFunction(() => window.retryLabFleet && window.retryLabFleet.state(), null, { timeout: 30000 });
        await settled(page);
        if (state === 'fleet-refused') {
          await page.evaluate(() => window.retryLabFleet.load({ policy: { layers: [{ maxRetries: 1 }, { maxRetries: 1 }] } }));
          await settled(page);
          await page.locator('[data-switch-on="server.admission"]').check();
          await settled(page);
        }
        await page.locator('#fl-switches').evaluate((el) => el.scrollIntoView({ block: 'start' }));
        await page.waitForTimeout(300);
        await page.locator('#fl-switches').screenshot({ path: join(out, `${state}-${name}-${colorScheme}.png`) });
        await context.close();
      }
    }
  }
});
