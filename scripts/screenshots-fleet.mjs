#!/usr/bin/env node
// The fleet section's figure in the states issues 35 and 34 added, for docs/screenshots/ (as
// scripts/screenshots.mjs, only these): at 1440, 1280×720 and 390×844, light and dark,
//   fleet-work-*      the opening run: what the server did under its capacity (hatched: answers
//                     after the caller had gone), the shared axes, labels at peaks (issue 35 item 2)
//   fleet-recovered-* no retries: "recovered 3 s after the slowdown ended" (item 3)
//   fleet-rodeout-*   FLEET §9.9's 18 clients: "rode it out" (item 3)
//   fleet-throttle-*  a throttling server (server.admission) with adaptive mode on: the 429s drawn,
//                     the limiter's waits said beside its switch (issue 34)
//   fleet-send-rate-* the same run's storm: the limiters' send rate on its own axis at the right
//                     (docs/throttling.md §4.1, issue 34)
//   map-states-*      the trigger map in its three states: ok, +N, down (item 3)
//   fleet-hedging-*   issue 34's hedging figure: P(latency > x) with and without a second copy
//   fleet-aws-*       the AWS 2015 reproduction: its panels filling the column, the completion
//                     time on a log scale (issue 35 item 10)
//   fleet-preset-*    a real client's defence chosen: its card in the section's words (item 10)
//   map-caption-*     a map cell opened: the caption names the cell on show, ● on it (item 10)
// Run after `npm run build`:
//   node scripts/screenshots-fleet.mjs [outdir] [sizes, e.g. 1440,390] [states, e.g. fleet-aws,fleet-send-rate]
import { join } from 'node:path';
import { fleetSectionReady, onlySizes, screenshotDir, withBrowser } from './lib-screenshots.mjs';

const out = screenshotDir();
const only = onlySizes();
const onlyStates = process.argv[4] ? new Set(process.argv[4].split(',')) : null;
const SIZES = [['1440', { width: 1440, height: 900 }], ['1280x720', { width: 1280, height: 720 }], ['390', { width: 390, height: 844 }]];
const THROTTLING = 'server.admission.ratePerSecond=1.5&server.admission.burst=2&policy.retryOn=timeout,5xx,429&gates.adaptive=on';
const STATES = [['fleet-work', ''], ['fleet-recovered', 'policy.maxRetries=0'], ['fleet-rodeout', 'clients=18'], ['fleet-throttle', THROTTLING], ['fleet-send-rate', THROTTLING], ['map-states', 'map=trigger&seeds=1'],
  ['fleet-hedging', ''], ['fleet-aws', ''], ['fleet-preset', ''], ['map-caption', 'map=trigger&seeds=1']]
  .filter(([state]) => !process.argv[4] || process.argv[4].split(',').includes(state));

await withBrowser(out, async ({ server, browser }) => {
  for (const [name, viewport] of SIZES) {
    if (only && !only.has(name)) continue;
    for (const colorScheme of ['light', 'dark']) {
      for (const [state, link] of STATES) {
        if (onlyStates && !onlyStates.has(state)) continue;
        const context = await browser.newContext({ viewport, colorScheme, reducedMotion: 'reduce' });
        const page = await context.newPage();
        await page.goto(`${server.origin}/${link ? `#v=1&view=fleet&${link}` : ''}`);
        await page.waitForFunction(() => document.documentElement.classList.contains('rl-ready'));
        await fleetSectionReady(page);
        const file = join(out, `${state}-${name}-${colorScheme}.png`);
        if (state === 'map-states') {
          await page.locator('#fl-map-box').evaluate((el) => el.scrollIntoView({ block: 'start' }));
          await page.evaluate(() => window.retryLabFleet.map());
          await page.waitForTimeout(300);
          await page.locator('.fl-map-part').screenshot({ path: file });
        } else if (state === 'fleet-hedging' || state === 'fleet-aws') {
          // A reproduction computed, its part of the section alone.
          const chart = state === 'fleet-hedging' ? '#fl-hg-chart' : '#fl-aws-time';
          await page.locator(chart).evaluate((el) => el.closest('.fl-repro').scrollIntoView({ block: 'start' }));
          await page.evaluate((which) => window.retryLabFleet[which](), state === 'fleet-hedging' ? 'hedging' : 'aws');
          await page.waitForTimeout(300);
          await page.locator(`.fl-repro:has(${chart})`).screenshot({ path: file });
        } else if (state === 'fleet-preset') {
          // Brooker's post as a preset: what it sets in the controls' words, its source.
          await page.locator('#fl-preset').evaluate((el) => el.scrollIntoView({ block: 'center' }));
          await page.selectOption('#fl-preset', 'bucket:brooker-post');
          await page.evaluate(() => new Promise((r) => setTimeout(r, 60)).then(() => window.retryLabFleet.settled()));
          await page.waitForTimeout(500);
          await page.locator('.fl-presets').screenshot({ path: file });
        } else if (state === 'map-caption') {
          // The cell ×3.5, 0.5 s opened: the caption says it is on show, and ● marks it.
          await page.locator('#fl-map-box').evaluate((el) => el.scrollIntoView({ block: 'start' }));
          await page.evaluate(() => window.retryLabFleet.map());
          await page.locator('#fl-map td[data-row="4"][data-col="0"]').click();
          await page.evaluate(() => new Promise((r) => setTimeout(r, 60)).then(() => window.retryLabFleet.settled()));
          await page.waitForTimeout(600);
          await page.locator('#fl-map-lines').evaluate((el) => el.scrollIntoView({ block: 'end' }));
          await page.screenshot({ path: file });
        } else if (state === 'fleet-throttle') {
          // The adaptive switch with what it did, and the storm beside it (or drawn near it).
          await page.locator('[data-gate="adaptive"]').evaluate((el) => el.scrollIntoView({ block: 'center' }));
          await page.waitForTimeout(300);
          await page.screenshot({ path: file });
        } else {
          await page.locator('#fl-chart').scrollIntoViewIfNeeded();
          await page.waitForTimeout(200);
          await page.locator('.fl-figure:has(#fl-chart)').screenshot({ path: file });
        }
        await context.close();
      }
    }
  }
});
