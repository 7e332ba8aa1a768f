#!/usr/bin/env node
// Screenshots of the built page (dist/) for docs/screenshots/: the first screen at each
// width (1440, 1280×720, 1024, 768, 390×844), light and dark, the opening run at its end
// (light), and the article's figure (story-*: the "key on" step read and its "Try it"
// pressed: beside the article from 1,100 px, inline after the button below), light and dark;
// FULL=1 adds the whole page. Run after `npm run build`:  node scripts/screenshots.mjs [outdir]
// (default docs/screenshots). Uses playwright-core and /usr/bin/chromium as the tests do.

import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../tests/browser/lib/server.js';
import { DIST, REPO } from '../tests/browser/lib/dist.js';

const out = resolve(process.argv[2] || join(REPO, 'docs/screenshots'));
const only = process.argv[3] ? new Set(process.argv[3].split(',')) : null;
const SIZES = [
  ['1440', { width: 1440, height: 900 }],
  ['1280x720', { width: 1280, height: 720 }],
  ['1024', { width: 1024, height: 768 }],
  ['768', { width: 768, height: 1024 }],
  ['390', { width: 390, height: 844 }],
];

await mkdir(out, { recursive: true });
const server = await startServer(DIST);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  for (const [name, viewport] of SIZES) {
    if (only && !only.has(name)) continue;
    for (const colorScheme of ['light', 'dark']) {
      const context = await browser.newContext({ viewport, colorScheme, reducedMotion: 'reduce' });
      const page = await context.newPage();
      await page.goto(server.origin + '/');
      await page.waitForFunction(() => document.documentElement.classList.contains('rl-ready'));
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
      if (colorScheme === 'light') {
        // The opening run played to its end.
        await page.locator('#rl-seek').focus();
        await page.keyboard.press('End');
        await page.locator('#rl-timeline').scrollIntoViewIfNeeded();
        await page.waitForTimeout(100);
        await page.screenshot({ path: join(out, `end-${name}-${colorScheme}.png`) });
        // The whole page too, with FULL=1 (large files: not committed).
        if (process.env.FULL) {
          await page.evaluate(() => window.scrollTo(0, 0));
          await page.screenshot({ path: join(out, `full-${name}-${colorScheme}.png`), fullPage: true });
        }
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(`screenshots: wrote ${out}`);
