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
// Run after `npm run build`:
//   node scripts/screenshots-fleet.mjs [outdir] [sizes, e.g. 1440,390] [states, e.g. fleet-send-rate]
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../tests/browser/lib/server.js';
import { DIST, REPO } from '../tests/browser/lib/dist.js';

const out = resolve(process.argv[2] || join(REPO, 'docs/screenshots'));
const only = process.argv[3] ? new Set(process.argv[3].split(',')) : null;
const onlyStates = process.argv[4] ? new Set(process.argv[4].split(',')) : null;
const SIZES = [['1440', { width: 1440, height: 900 }], ['1280x720', { width: 1280, height: 720 }], ['390', { width: 390, height: 844 }]];
const THROTTLING = 'server.admission.ratePerSecond=1.5&server.admission.burst=2&policy.retryOn=timeout,5xx,429&gates.adaptive=on';
const STATES = [['fleet-work', ''], ['fleet-recovered', 'policy.maxRetries=0'], ['fleet-rodeout', 'clients=18'], ['fleet-throttle', THROTTLING], ['fleet-send-rate', THROTTLING], ['map-states', 'map=trigger&seeds=1']];

await mkdir(out, { recursive: true });
const server = await startServer(DIST);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  for (const [name, viewport] of SIZES) {
    if (only && !only.has(name)) continue;
    for (const colorScheme of ['light', 'dark']) {
      for (const [state, link] of STATES) {
        if (onlyStates && !onlyStates.has(state)) continue;
        const context = await browser.newContext({ viewport, colorScheme, reducedMotion: 'reduce' });
        const page = await context.newPage();
        await page.goto(`${server.origin}/${link ? `#v=1&view=fleet&${link}` : ''}`);
        await page.waitForFunction(() => document.documentElement.classList.contains('rl-ready'));
        await page.evaluate(() => window.retryLabFleetSection.load());
        await page.waitForFunction(() => window.retryLabFleet && window.retryLabFleet.state(), null, { timeout: 30000 });
        await page.evaluate(() => window.retryLabFleet.ready.then(() => window.retryLabFleet.settled()));
        const file = join(out, `${state}-${name}-${colorScheme}.png`);
        if (state === 'map-states') {
          await page.locator('#fl-map-box').evaluate((el) => el.scrollIntoView({ block: 'start' }));
          await page.evaluate(() => window.retryLabFleet.map());
          await page.waitForTimeout(300);
          await page.locator('.fl-map-part').screenshot({ path: file });
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
} finally {
  await browser.close();
  server.close();
}
