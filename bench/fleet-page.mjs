// The fleet section on the page (issue 20), timed in Chromium against the built site (dist/):
// the AWS 2015 figure computed in its two workers, from the moment the section has drawn the
// opening fleet run until the last of its 95 points (budget: 2 s), and the page's longest
// main-thread task meanwhile (budget: 50 ms). bench/fleet.mjs times the bare sweep; this is
// what a reader's page does with it (the section's own workers, results drawn as they come).
//
//   npm run build && node bench/fleet-page.mjs [rounds]
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../tests/browser/lib/server.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = process.env.RETRYLAB_DIST ? path.resolve(repo, process.env.RETRYLAB_DIST) : path.join(repo, 'dist');
const rounds = Number(process.argv[2] || 3);
const load = () => os.loadavg().map((x) => x.toFixed(1)).join(' ');
const loadBefore = load();

const server = await startServer(dist);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
});
const runs = [];
for (let i = 0; i < rounds; ++i) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.origin}/`);
  await page.waitForFunction(() => document.documentElement.classList.contains('rl-ready'));
  await page.evaluate(() => {
    window.__longest = 0;
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration); }).observe({ type: 'longtask' });
  });
  const t0 = Date.now();
  await page.evaluate(() => window.retryLabFleetSection.load());
  await page.waitForFunction(() => window.retryLabFleet && window.retryLabFleet.state());
  const opening = Date.now() - t0;
  await page.evaluate(() => { window.__longest = 0; }); // from here: while the map and the sweep compute
  const { ms } = await page.evaluate(() => window.retryLabFleet.aws());
  const longest = await page.evaluate(() => window.__longest);
  runs.push({ opening, aws: ms, longest });
  await page.close();
}
const chromiumVersion = browser.version();
await browser.close();
await server.close();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const aws = median(runs.map((r) => r.aws));
const longest = Math.max(...runs.map((r) => r.longest));
console.log(`Fleet section on the page, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; ${os.cpus()[0].model}, ${os.cpus().length} cores; load ${loadBefore} before, ${load()} after; Chromium ${chromiumVersion}; ${rounds} rounds`);
console.log('');
console.log('| case | measured | budget | verdict |');
console.log('|---|---|---|---|');
console.log(`| section loaded to the opening fleet run drawn (median) | ${median(runs.map((r) => r.opening))} ms | | |`);
console.log(`| AWS 2015 figure, 95 points in two workers (median) | ${Math.round(aws)} ms | ≤ 2,000 ms | ${aws <= 2000 ? 'met' : 'MISSED'} |`);
console.log(`| the main thread's longest task meanwhile (worst round) | ${Math.round(longest)} ms | < 50 ms | ${longest < 50 ? 'met' : 'MISSED'} |`);
