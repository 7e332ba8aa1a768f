#!/usr/bin/env node
// The fleet section on a phone (issue 35 item 9), for docs/screenshots/, at 390×844 and 1280×720
// (where nothing but the map's key moved), light and dark:
//   fleet-phone-chart-*  the storm figure: at 390 drawn at the screen's width with its key above
//   fleet-phone-gate-*   the Token bucket ticked: its 44 px switch and 16 px fields, the storm
//                        drawn after it with its key (at 1280: the sticky figure beside it)
//   fleet-phone-map-*    the stability map fitted to the screen, its key above it
// Run after `npm run build`:  node scripts/screenshots-fleet-phone.mjs [outdir]
import { join } from 'node:path';
import { fleetSectionReady, readyPage, screenshotDir, withBrowser } from './lib-screenshots.mjs';

const out = screenshotDir();
const SIZES = [['390', { width: 390, height: 844 }], ['1280x720', { width: 1280, height: 720 }]];

await withBrowser(out, async ({ server, browser }) => {
  for (const [name, viewport] of SIZES) {
    for (const colorScheme of ['light', 'dark']) {
      for (const state of ['chart', 'gate', 'map']) {
        const { context, page } = await readyPage(browser, server, { viewport, colorScheme });
        await fleetSectionReady(page);
        const file = join(out, `fleet-phone-${state}-${name}-${colorScheme}.png`);
        if (state === 'chart') {
          await page.locator('#fl-chart').scrollIntoViewIfNeeded();
          await page.waitForTimeout(200);
          await page.locator('.fl-figure:has(#fl-chart)').screenshot({ path: file });
        } else if (state === 'gate') {
          await page.locator('[data-gate="bucket"]').evaluate((el) => el.scrollIntoView({ block: 'center' }));
          await page.locator('[data-gate-on="bucket"]').check();
          await page.evaluate(() => new Promise((r) => setTimeout(r, 60)).then(() => window.retryLabFleet.settled()));
          await page.waitForTimeout(800);
          await page.screenshot({ path: file });
        } else {
          await page.locator('#fl-map-box').evaluate((el) => el.scrollIntoView({ block: 'start' }));
          await page.evaluate(() => window.retryLabFleet.map());
          await page.waitForFunction(() => document.querySelectorAll('#fl-map .fl-cell:not(.fl-cell-pending)').length === 144, null, { timeout: 30000 });
          await page.waitForTimeout(300);
          await page.locator('.fl-map-part').screenshot({ path: file });
        }
        await context.close();
      }
    }
  }
});
