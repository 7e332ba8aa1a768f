#!/usr/bin/env node
// Screenshots of the built page (dist/) for docs/screenshots/, at each width (1440, 1280×720,
// 1024, 768, 390×844), light and dark: the first screen (first-*: the question, the lanes and
// Play), the article's figure (story-*: the "key on" step read and its "Try it" pressed:
// beside the article from 960 px, inline after the button below), the opening run at its
// end (end-*), the trace editor with an answer's error (editor-*: the scripted answers) and
// the fleet's storm chart (fleet-*), and at 1280 and 390 the stability map (map-*) and two
// literature presets computed (hotos-*, osdi-*), issue 35's fleet states (fleet-gate-*,
// fleet-field-*, fleet-unchanged-*, fleet-map-open-*), and the article's mesh section with its compare
// link pressed (mesh-*, mesh-compare-*); FULL=1 adds the whole page (light; large files, not
// committed). Run after `npm run build`:
//   node scripts/screenshots.mjs [outdir] [names, e.g. 1440,390]
// (default docs/screenshots, every width). Uses playwright-core and /usr/bin/chromium as the
// tests do.

import { join } from 'node:path';
import { fleetSectionReady, onlySizes, readyPage, screenshotDir, withBrowser } from './lib-screenshots.mjs';

const out = screenshotDir();
const only = onlySizes();
const SIZES = [
  ['1440', { width: 1440, height: 900 }],
  ['1280x720', { width: 1280, height: 720 }],
  ['1024', { width: 1024, height: 768 }],
  ['768', { width: 768, height: 1024 }],
  ['390', { width: 390, height: 844 }],
];

await withBrowser(out, async ({ server, browser }) => {
  for (const [name, viewport] of SIZES) {
    if (only && !only.has(name)) continue;
    for (const colorScheme of ['light', 'dark']) {
      const { context, page } = await readyPage(browser, server, { viewport, colorScheme });
      await page.evaluate(() => window.retryLabSections && window.retryLabSections.load());
      await page.waitForTimeout(200);
      await page.screenshot({ path: join(out, `first-${name}-${colorScheme}.png`) });
      // The article's figure: read down to the key step, press its "Try it".
      const tryKey = page.locator('button[data-try="key"]');
      await tryKey.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await page.waitForTimeout(150);
      await tryKey.click();
      await page.waitForFunction(() => [...document.querySelectorAll('.story-figure')].some((f) => f.dataset.showing === 'key' && f.checkVisibility()));
      await page.mouse.move(0, 0); // no hover on the button
      await page.waitForTimeout(200);
      await page.screenshot({ path: join(out, `story-${name}-${colorScheme}.png`) });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.waitForTimeout(100);
      // The opening run played to its end: the lanes, the statement and the timeline.
      await page.locator('#rl-seek').focus();
      await page.keyboard.press('End');
      await page.locator('#rl-lanes').evaluate((el) => el.closest('.rl-mechanism').scrollIntoView({ block: 'start' }));
      await page.waitForTimeout(100);
      await page.screenshot({ path: join(out, `end-${name}-${colorScheme}.png`) });
      // The traces matrix (issue 35): on a phone each row's result in its sticky trace column.
      const matrix = page.locator('#traces .tm-scroll');
      await matrix.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.waitForTimeout(150);
      await page.screenshot({ path: join(out, `matrix-${name}-${colorScheme}.png`) });
      // The trace editor with an error in answer 1's status.
      await page.locator('#tr-ed-script-0-status').fill('9999999');
      await page.locator('#tr-ed-script-0-status').evaluate((el) => el.closest('fieldset').scrollIntoView({ block: 'center' }));
      await page.waitForTimeout(150);
      await page.locator('#tr-ed-script-0-status').locator('xpath=ancestor::fieldset[1]').screenshot({ path: join(out, `editor-${name}-${colorScheme}.png`) });
      // The fleet's storm chart, its run settled.
      await fleetSectionReady(page);
      await page.locator('#fl-chart').scrollIntoViewIfNeeded();
      await page.waitForTimeout(150);
      // Its figure: the verdict, the line that says the chart scrolls (on a phone), the chart.
      await page.locator('.fl-figure:has(#fl-chart)').screenshot({ path: join(out, `fleet-${name}-${colorScheme}.png`) });
      // The stability map (issue 32), at 1440, 1280 and 390: the opening run's map with its lines,
      // then the literature's presets with the HotOS and OSDI runs computed.
      if (name === '1440' || name === '1280x720' || name === '390') {
        await page.locator('#fl-map-box').evaluate((el) => el.scrollIntoView({ block: 'start' }));
        await page.evaluate(() => window.retryLabFleet.map());
        await page.waitForTimeout(300);
        await page.locator('.fl-map-part').screenshot({ path: join(out, `map-${name}-${colorScheme}.png`) });
        await page.evaluate(() => window.retryLabFleet.stability().then((s) => Promise.all([s.literature.compute('hotos2021'), s.literature.compute('osdi2022')])));
        await page.waitForTimeout(300);
        await page.locator('#fl-lit-hotos2021').screenshot({ path: join(out, `hotos-${name}-${colorScheme}.png`) });
        await page.locator('#fl-lit-osdi2022').screenshot({ path: join(out, `osdi-${name}-${colorScheme}.png`) });
      }
      // Issue 35's states, at 1440, 1280 and 390 (the issue asks each state at all three): a gate
      // ticked (the storm in view beside it or drawn again after it, the ghost of the run before,
      // what the gate refused), a bad value under its field, jitter changing nothing and saying
      // why, a map cell opened.
      if (name === '1440' || name === '1280x720' || name === '390') {
        const settled = async () => {
          await page.evaluate(() => new Promise((r) => setTimeout(r, 60)).then(() => window.retryLabFleet.settled()));
          await page.waitForTimeout(500);
        };
        await page.locator('[data-gate="bucket"]').evaluate((el) => el.scrollIntoView({ block: 'center' }));
        await page.check('[data-gate-on="bucket"]');
        await settled();
        await page.screenshot({ path: join(out, `fleet-gate-${name}-${colorScheme}.png`) });
        await page.fill('#fl-g-bucket-capacity', '-1');
        await page.keyboard.press('Tab');
        await page.locator('#fl-g-bucket-capacity').evaluate((el) => el.scrollIntoView({ block: 'center' }));
        await page.waitForTimeout(200);
        await page.screenshot({ path: join(out, `fleet-field-${name}-${colorScheme}.png`) });
        await page.fill('#fl-g-bucket-capacity', '5');
        await page.keyboard.press('Tab');
        await settled();
        await page.uncheck('[data-gate-on="bucket"]');
        await settled();
        await page.locator('[data-path="policy.jitter"]').evaluate((el) => el.scrollIntoView({ block: 'center' }));
        await page.selectOption('[data-path="policy.jitter"]', 'full');
        await settled();
        await page.screenshot({ path: join(out, `fleet-unchanged-${name}-${colorScheme}.png`) });
        await page.locator('#fl-map td[data-row="4"][data-col="0"]').evaluate((el) => el.scrollIntoView({ block: 'center' }));
        await page.locator('#fl-map td[data-row="4"][data-col="0"]').click();
        await settled();
        await page.screenshot({ path: join(out, `fleet-map-open-${name}-${colorScheme}.png`) });
      }
      // The article's mesh section (issue 38: Istio's retries), at 1280 and 390 only, then its
      // link pressed: compare mode with Istio's default against its documented example.
      if (name === '1280x720' || name === '390') {
        const mesh = page.locator('section[aria-labelledby="s-mesh"]');
        await mesh.evaluate((el) => el.scrollIntoView({ block: 'start' }));
        await page.waitForTimeout(150);
        await mesh.screenshot({ path: join(out, `mesh-${name}-${colorScheme}.png`) });
        await page.locator('a[data-mesh-link]').click();
        await page.waitForFunction(() => /client=istio/.test(document.querySelector('#cmp-link')?.value || ''), null, { timeout: 30000 });
        await page.waitForTimeout(300);
        await page.screenshot({ path: join(out, `mesh-compare-${name}-${colorScheme}.png`) });
      }
      // The whole page too, with FULL=1 (large files: not committed).
      if (process.env.FULL && colorScheme === 'light') {
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: join(out, `full-${name}-${colorScheme}.png`), fullPage: true });
      }
      await context.close();
    }
  }
});
console.log(`screenshots: wrote ${out}`);
