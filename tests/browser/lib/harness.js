// Shared set-up for the browser tests: the built site, Debian's Chromium through
// playwright-core, and a page that records console errors, CSP violations and every
// request that leaves 127.0.0.1.

import { existsSync, statSync, readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from './server.js';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
// RETRYLAB_DIST lets several people build and test side by side without sharing dist/.
export const DIST = process.env.RETRYLAB_DIST ? resolve(REPO, process.env.RETRYLAB_DIST) : join(REPO, 'dist');
export const ARTIFACTS = join(REPO, 'build/artifacts');
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

const FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return t;
}

// The tests run against dist/: refuse a missing or stale build rather than test old code.
export function checkBuilt() {
  const page = join(DIST, 'index.html');
  if (!existsSync(page)) throw new Error('dist/ is missing: run `npm run build` first.');
  const built = statSync(page).mtimeMs;
  const sources = Math.max(newest(join(REPO, 'web')), newest(join(REPO, 'site')));
  if (sources > built + 1000) throw new Error('dist/ is older than web/ or site/: run `npm run build` again.');
}

// One browser, one server for a test file. playwright-core's launch() gives every browser
// a fresh, temporary user-data dir of its own and removes it on close.
export async function openBrowser() {
  checkBuilt();
  const server = await startServer(DIST);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
  return {
    server,
    browser,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

// A fresh context and page that remembers what went wrong (console errors, page errors, CSP
// violations, requests to other hosts), opened once the page is ready.
//   path: a page on the test server; url: any address instead (a file:// page);
//   sections: also load the sections below the article (the traces, the client lab), which
//     the page itself loads only when the reader nears them (web/load-sections.js); false
//     leaves the page as a reader first sees it;
//   bypassCSP: for axe-core, which is injected as an inline script;
//   init: [fn, arg], one more script to run before the page's own (a fault to inject).
export async function openPage(env, {
  colorScheme = 'light', viewport = { width: 1280, height: 900 }, reducedMotion = 'no-preference',
  path = '/', url = null, sections = true, bypassCSP = false, init = null, route = null,
} = {}) {
  const context = await env.browser.newContext({ colorScheme, viewport, reducedMotion, bypassCSP });
  const page = await context.newPage();
  const problems = [];
  const offHost = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning' && /Content Security Policy/i.test(msg.text())) problems.push(`console ${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await context.route('**/*', (route) => {
    const where = new URL(route.request().url());
    if (where.origin === env.server.origin || ['data:', 'blob:', 'file:'].includes(where.protocol)) return route.continue();
    offHost.push(route.request().url());
    return route.abort();
  });
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(`${e.violatedDirective}: ${e.blockedURI}`));
  });
  if (init) await page.addInitScript(...init);
  if (route) await page.route(...route); // [url pattern, handler]: ahead of the host check above
  await page.goto(url || env.server.origin + path);
  await page.waitForFunction(() => document.documentElement.classList.contains('rl-ready') || document.documentElement.classList.contains('rl-engine-failed'));
  if (sections) await loadSections(page);
  return { page, context, problems, offHost };
}

// Nothing went wrong on the page: no console error, no CSP violation, no other host.
export async function assertClean(t, assert, opened) {
  const violations = await opened.page.evaluate(() => window.__cspViolations);
  assert.deepEqual(opened.problems, [], 'console errors');
  assert.deepEqual(violations, [], 'CSP violations');
  assert.deepEqual(opened.offHost, [], 'requests to another host');
}

export async function artifactPath(name) {
  await mkdir(ARTIFACTS, { recursive: true });
  return join(ARTIFACTS, name);
}

// The sections below the article, as if the reader had scrolled to them: resolves once they
// are drawn (or have said that they could not load). Nothing to do on a page without them.
export async function loadSections(page) {
  return page.evaluate(() => (window.retryLabSections ? window.retryLabSections.load().then(() => 'loaded', (e) => `failed: ${e.message}`) : 'none'));
}
