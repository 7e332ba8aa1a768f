#!/usr/bin/env node
// The fleet section's "Many servers" box (issue 39) for docs/screenshots/ (as
// scripts/screenshots-fleet.mjs, only these): at 1280×720 and 390×844, light and dark,
//   fleet-servers-storm-*      one bad host of ten (Istio's default) on show: the fleet's verdict and
//                              the per-server verdicts under it, the storm chart (the figure)
//   fleet-servers-bad-host-*   the same preset: the per-server strip, its table and the card
//   fleet-servers-crash-*      a crash vs a partition: the partition on show, the crash faint under
//                              it, the strip with server 0's window shaded, the card
// Run after `npm run build`:
//   node scripts/screenshots-servers.mjs [outdir] [sizes, e.g. 1280x720,390]
import { join } from 'node:path';
import { fleetSectionReady, onlySizes, readyPage, screenshotDir, withBrowser } from './lib-screenshots.mjs';

const out = screenshotDir();
const only = onlySizes();
const SIZES = [['1280x720', { width: 1280, height: 720 }], ['390', { width: 390, height: 844 }]];

const settled = (page) => page.evaluate(() => new Promise((r) => setTimeout(r, 80)).then(() => window.retryLabFleet.settled()));

await withBrowser(out, async ({ server, browser }) => {
  for (const [name, viewport] of SIZES) {
    if (only && !only.has(name)) continue;
    for (const colorScheme of ['light', 'dark']) {
      const { context, page } = await readyPage(browser, server, { viewport, colorScheme });
      await fleetSectionReady(page);
      await page.selectOption('#fl-servers-preset', 'servers:bad-host');
      await settled(page);
      await page.mouse.move(0, 0);
      await page.waitForTimeout(700); // the storm drawn near the change has been scrolled to (near.js)
      // The figure: the fleet's verdict with the per-server verdicts, the storm.
      await page.locator('#fl-verdict').evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.waitForTimeout(400);
      await page.screenshot({ path: join(out, `fleet-servers-storm-${name}-${colorScheme}.png`) });
      // The box: the strip, the table, the controls and the card.
      await page.locator('#fl-servers-box').evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.waitForTimeout(300);
      await page.locator('#fl-servers-box').screenshot({ path: join(out, `fleet-servers-bad-host-${name}-${colorScheme}.png`) });
      // A crash, then the partition: the crash faint under it.
      await page.selectOption('#fl-servers-preset', 'servers:crash');
      await settled(page);
      await page.selectOption('#fl-sv-faults', 'partition');
      await settled(page);
      await page.mouse.move(0, 0);
      await page.waitForTimeout(700);
      await page.locator('#fl-servers-box').evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.waitForTimeout(400);
      await page.locator('#fl-servers-box').screenshot({ path: join(out, `fleet-servers-crash-${name}-${colorScheme}.png`) });
      await page.locator('#fl-verdict').evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(out, `fleet-servers-partition-${name}-${colorScheme}.png`) });
      await context.close();
    }
  }
});
