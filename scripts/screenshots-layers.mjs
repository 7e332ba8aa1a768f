#!/usr/bin/env node
// Screenshots of "Retries across layers" (web/layers/, issue 33) for docs/screenshots/, at 1280
// and 390 px wide, light and dark: the section as it opens (layers-story-*: the agent over
// Stripe's client, charged twice) and three layers of four attempts against a server that
// always fails (layers-64-*: 4 × 4 × 4 = 64). Run after `npm run build`:
//   node scripts/screenshots-layers.mjs [outdir]
// Uses playwright-core and /usr/bin/chromium as the tests do (scripts/screenshots.mjs).

import { join } from 'node:path';
import { screenshotDir, withBrowser } from './lib-screenshots.mjs';

const out = screenshotDir();
const SIZES = [['1280', { width: 1280, height: 900 }], ['390', { width: 390, height: 844 }]];

await withBrowser(out, async ({ server, browser }) => {
  for (const [name, viewport] of SIZES) {
    for (const colorScheme of ['light', 'dark']) {
      const context = await browser.newContext({ viewport, colorScheme, reducedMotion: 'reduce' });
      const page = await context.newPage();
      await page.goto(`${server.origin}/#layers`);
      await page.waitForFunction(() => window.retryLabLayers && window.retryLabLayers.getResult());
      const section = page.locator('#layers');
      await section.scrollIntoViewIfNeeded();
      await page.waitForTimeout(150);
      await section.screenshot({ path: join(out, `layers-story-${name}-${colorScheme}.png`) });
      await section.getByRole('button', { name: 'Three layers of four attempts' }).click();
      await section.getByLabel('The server').selectOption('always-fails');
      await page.waitForTimeout(100);
      await section.screenshot({ path: join(out, `layers-64-${name}-${colorScheme}.png`) });
      await context.close();
    }
  }
});
