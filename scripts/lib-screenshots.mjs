// What every scripts/screenshots*.mjs shares: the folder the PNGs go to, the widths asked for
// on the command line, and the built page (dist/) served on a local port to a headless Chromium
// (playwright-core and /usr/bin/chromium, as the browser tests use), both closed when the work
// ends, whether it finished or threw. A script's command line: [outdir] [names, e.g. 1280,390].

import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../tests/browser/lib/server.js';
import { DIST, REPO } from '../tests/browser/lib/dist.js';

// The folder the screenshots go to: the first argument, else docs/screenshots.
export const screenshotDir = () => resolve(process.argv[2] || join(REPO, 'docs/screenshots'));

// The sizes named in the second argument (a set), or null for every size.
export const onlySizes = () => (process.argv[3] ? new Set(process.argv[3].split(',')) : null);

// `work({ server, browser })` with `out` made, dist/ served and Chromium launched.
export async function withBrowser(out, work) {
  await mkdir(out, { recursive: true });
  const server = await startServer(DIST);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    await work({ server, browser });
  } finally {
    await browser.close();
    await server.close();
  }
}

// A fresh context at `viewport` in `colorScheme` (motion reduced) and its page opened at `path`
// of the served page, once the page says it is ready (rl-ready). { context, page }.
export async function readyPage(browser, server, { viewport, colorScheme }, path = '/') {
  const context = await browser.newContext({ viewport, colorScheme, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(server.origin + path);
  await page.waitForFunction(() => document.documentElement.classList.contains('rl-ready'));
  return { context, page };
}

// The fleet section loaded (as if the reader had scrolled to it) and its opening run drawn.
export async function fleetSectionReady(page) {
  await page.evaluate(() => window.retryLabFleetSection.load());
  await page.waitForFunction(() => window.retryLabFleet && window.retryLabFleet.state(), null, { timeout: 30000 });
  await page.evaluate(() => window.retryLabFleet.ready.then(() => window.retryLabFleet.settled()));
}
