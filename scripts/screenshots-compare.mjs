#!/usr/bin/env node
// Screenshots of issue 35's comparison work (docs/screenshots/), from the built page (dist/):
// a fleet comparison opened from its link, the token bucket switched on (compare-fleet-*, the
// headline, the table and the two storm charts), the fleet section's share row with "Compare
// with…" (fleet-compare-with-*), the article's figure said against its paragraph's baseline
// with the lanes (story-baseline-*), Play paused in a gap (playback-gap-*), and, with OG=1, the picture a pasted link unfurls with
// (site/og-image.png, 1200×630, light), and the two charts of the fleet comparison on the same
// axes, each with the other run faint under it (compare-fleet-charts-*). At 1440, 1280×720 and
// 390, light and dark. Run after `npm run build`:
//   node scripts/screenshots-compare.mjs [outdir] [which, e.g. compare-fleet-charts]

import { join } from 'node:path';
import { REPO } from '../tests/browser/lib/dist.js';
import { onlySizes, screenshotDir, withBrowser } from './lib-screenshots.mjs';

const out = screenshotDir();
const SIZES = [
  ['1440', { width: 1440, height: 900 }],
  ['1280x720', { width: 1280, height: 720 }],
  ['390', { width: 390, height: 844 }],
];
const BUCKET = '#v=1&view=compare&of=fleet&after.gates.bucket=on';
const only = onlySizes();
const want = (what) => !only || only.has(what);

async function fleetCompare(page, origin) {
  await page.goto(`${origin}/${BUCKET}`);
  await page.waitForFunction(() => document.querySelector('.rl-compare-fleet')?.dataset.compared === 'true', null, { timeout: 120000 });
  await page.locator('#cmpf-heading, .rl-compare-fleet h2').first().evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.waitForTimeout(200);
}

await withBrowser(out, async ({ server, browser }) => {
  if (process.env.OG) {
    const context = await browser.newContext({ viewport: { width: 1200, height: 630 }, colorScheme: 'light', reducedMotion: 'reduce' });
    const page = await context.newPage();
    await fleetCompare(page, server.origin);
    // The headline above the after side's storm, the before run faint under it.
    await page.evaluate(() => {
      const headline = document.querySelector('.rl-compare-fleet [data-compare-summary]');
      const chart = document.querySelector('.rl-compare-fleet [data-chart="after"]');
      const card = document.createElement('div');
      card.style.cssText = 'position:fixed;inset:0;z-index:99;background:var(--rl-bg, #faf8f3);padding:28px 40px;display:flex;flex-direction:column;gap:12px';
      const title = document.createElement('p');
      title.style.cssText = 'margin:0;font:600 30px/1.25 Georgia, serif';
      title.textContent = `Retry Lab: ${headline.textContent}`;
      const figure = chart.cloneNode(true);
      figure.style.cssText = 'width:1000px;margin:0 auto';
      for (const svg of figure.querySelectorAll('svg')) svg.style.cssText = 'width:100%;height:auto;max-width:none';
      card.append(title, figure);
      document.body.append(card);
    });
    await page.waitForTimeout(200);
    await page.screenshot({ path: join(REPO, 'site/og-image.png') });
    await context.close();
  }
  for (const [name, viewport] of SIZES) {
    for (const colorScheme of ['light', 'dark']) {
      const context = await browser.newContext({ viewport, colorScheme, reducedMotion: 'reduce' });
      const page = await context.newPage();
      await fleetCompare(page, server.origin);
      if (want('compare-fleet')) await page.screenshot({ path: join(out, `compare-fleet-${name}-${colorScheme}.png`) });
      // The two storm charts (issue 35): the same axes, each with the other run faint under it.
      if (want('compare-fleet-charts')) {
        await page.locator('.rl-compare-fleet [data-chart="before"]').evaluate((el) => el.scrollIntoView({ block: 'start' }));
        await page.waitForTimeout(200);
        await page.screenshot({ path: join(out, `compare-fleet-charts-${name}-${colorScheme}.png`) });
      }
      if (only && !want('fleet-compare-with') && !want('story-baseline')) {
        await context.close();
        continue;
      }
      // The fleet section's share row: Copy the fleet link, then Compare with….
      await page.goto(`${server.origin}/#v=1&view=fleet`);
      await page.waitForFunction(() => document.documentElement.classList.contains('rl-ready'));
      await page.evaluate(() => window.retryLabFleetSection.load());
      await page.waitForFunction(() => window.retryLabFleet && window.retryLabFleet.state(), null, { timeout: 60000 });
      await page.evaluate(() => window.retryLabFleet.ready.then(() => window.retryLabFleet.settled()));
      await page.locator('#fl-compare').evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await page.waitForTimeout(200);
      await page.screenshot({ path: join(out, `fleet-compare-with-${name}-${colorScheme}.png`) });
      // The article's figure (item 7): "…with one retry" pressed, said against the outage, with
      // the lanes and the card statement; then Play in its 2 s pause over the outage's first
      // wait (item 8), the gap named.
      await page.goto(`${server.origin}/`);
      await page.waitForFunction(() => document.documentElement.classList.contains('rl-ready'));
      const retry = page.locator('button[data-try="outage-one-retry"]');
      await retry.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await page.waitForTimeout(300);
      await retry.click();
      await page.waitForFunction(() => [...document.querySelectorAll('.story-figure')].some((f) => f.dataset.showing === 'outage-one-retry' && f.checkVisibility()));
      await page.mouse.move(0, 0);
      await page.waitForTimeout(400);
      await page.screenshot({ path: join(out, `story-baseline-${name}-${colorScheme}.png`) });
      await page.locator('#rl-seek').evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await page.waitForTimeout(200);
      await page.locator('#rl-play').click();
      await page.waitForFunction(() => document.querySelector('#rl-gap').textContent !== '', null, { timeout: 20000 });
      await page.mouse.move(0, 0);
      await page.screenshot({ path: join(out, `playback-gap-${name}-${colorScheme}.png`) });
      await context.close();
    }
  }
});
