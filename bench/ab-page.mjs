// A/B of the page's two clocks between builds (issue 18, BENCHMARKS.md "Issue 18, the page
// budgets"): the same measures as bench/browser.mjs, but several builds side by side in one
// browser, load by load, so that the machine's load falls on all of them alike.
//
//   node bench/ab-page.mjs render <dist> [<dist>…]   fresh loads of each build's index.html and
//        of the first build's static article (its index.html without scripts), alternating
//        (AB_LOADS each, default 31, each round starting with the next one); the first
//        complete render as bench/browser.mjs clocks it, medians and the ratio to the static
//        article
//   node bench/ab-page.mjs input <dist> [<dist>…]    one page per build, the sections loaded
//        (AB_FLEET=1: the fleet section open too, its reproductions computed; AB_FLEET=busy: open
//        1 s, its reproductions still computing; AB_SECTIONS=0: without the sections, as the page
//        opens), batches of 20 input changes alternating between
//        them (AB_BATCHES, default 10); median, p95, max per build, and the load average.
//        AB_TRACE=1: each batch traced too, and per build the main thread's CPU time per change
//        (the trace's thread clock, from the input event to the end of its frame, as
//        bench/trace-page.mjs sums it), median and p95, in all and by kind (script, layout,
//        paint…): what a loaded machine's wait for a core does not stretch

import { chromium } from 'playwright-core';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServer } from '../tests/browser/lib/server.js';
import { inputChanges, openFleetSection, watchReady } from './clocks.mjs';
import { CHROMIUM, FLAGS } from './chromium.mjs';
import { intervals, mainThreads, markTs, selfTimes, summary } from './trace-lib.mjs';

const [mode, ...dists] = process.argv.slice(2);
if (!['render', 'input'].includes(mode) || !dists.length) {
  console.error('usage: node bench/ab-page.mjs render|input <dist> [<dist>…]');
  process.exit(2);
}
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const percentile = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]; };

// bench/browser.mjs's clocks, bench/clocks.mjs: the end of the first frame after rl-ready (the
// static article: after its load event), and input change → painted frame.

const sites = [];
const servers = [];
for (const d of dists) {
  const site = mkdtempSync(join(tmpdir(), 'retrylab-ab-'));
  cpSync(resolve(d), site, { recursive: true });
  writeFileSync(join(site, 'static.html'), readFileSync(join(site, 'index.html'), 'utf8').replace(/<script\b[^>]*>[\s\S]*?<\/script>\s*/g, ''));
  sites.push(site);
  servers.push(await startServer(site));
}
const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
// The machine's load average (1, 5, 15 min) before and after: the figures are this load's.
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
const loadBefore = load();
try {
  if (mode === 'render') {
    const loads = Number(process.env.AB_LOADS || 31);
    const targets = [...dists.map((d, i) => [d, servers[i], '/']), [`static article (${dists[0]})`, servers[0], '/static.html']];
    const times = targets.map(() => []);
    for (let i = 0; i < loads; ++i) {
      // Each round starts with the next target: a load's place in the round is not the same
      // for one build every time (the first load after another's close is the slower).
      for (let j = 0; j < targets.length; ++j) {
        const k = (i + j) % targets.length;
        const [, server, path] = targets[k];
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        const page = await context.newPage();
        await page.addInitScript(watchReady);
        await page.goto(server.origin + path);
        await page.waitForFunction(() => window.__drawnAt !== undefined, null, { timeout: 30000 });
        times[k].push(await page.evaluate(() => window.__drawnAt));
        await context.close();
      }
    }
    const floor = median(times[times.length - 1]);
    console.log(`load average ${loadBefore} before, ${load()} after`);
    for (const [k, [name]] of targets.entries()) console.log(`${name}: median ${median(times[k]).toFixed(1)} ms, ${(median(times[k]) / floor).toFixed(2)}× the static article (${loads} loads)`);
  } else {
    const batches = Number(process.env.AB_BATCHES || 10);
    const pages = [];
    for (const [i, d] of dists.entries()) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.goto(servers[i].origin + '/');
      await page.waitForFunction(() => document.documentElement.classList.contains('rl-ready'));
      await page.evaluate(() => window.retryLabEngine && window.retryLabEngine.load());
      if (process.env.AB_SECTIONS !== '0') await page.evaluate(() => window.retryLabSections.load()); // AB_SECTIONS=0: as the page opens
      // AB_FLEET=1: the fleet section open, its reproductions computed; AB_FLEET=busy: open 1 s,
      // its reproductions still running in its workers (bench/clocks.mjs openFleetSection).
      if (process.env.AB_FLEET) await page.evaluate(openFleetSection, { busy: process.env.AB_FLEET === 'busy' });
      await page.evaluate(() => document.querySelector('[data-retry-lab] input[data-field="baseBackoffMs"][data-role="number"]').scrollIntoView({ block: 'center' }));
      pages.push({ d, page, times: [] });
    }
    const traced = process.env.AB_TRACE === '1';
    // The trace's categories for the main thread's events (no JavaScript sampling: lighter).
    const categories = ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8', 'v8.execute', '__metadata'];
    for (let b = 0; b < batches; ++b) {
      for (const p of pages) {
        if (traced) await browser.startTracing(p.page, { categories });
        const times = await p.page.evaluate(inputChanges, { count: 20, from: b * 20, marks: traced });
        p.times.push(...times);
        if (!traced) continue;
        const { traceEvents: events } = JSON.parse((await browser.stopTracing()).toString('utf8'));
        const list = intervals(events, mainThreads(events, `rl-change-${b * 20}`));
        for (let i = b * 20; i < b * 20 + times.length; ++i) {
          const from = markTs(events, `rl-change-${i}`)[0];
          const to = markTs(events, `rl-changed-${i}`)[0];
          if (from === undefined || to === undefined) continue;
          const kinds = summary(selfTimes(list, from, to));
          kinds.all = Object.values(kinds).reduce((x, y) => x + y, 0);
          (p.cpu ||= []).push(kinds);
        }
      }
    }
    console.log(`load average ${loadBefore} before, ${load()} after`);
    if (traced) {
      for (const p of pages) {
        const names = [...new Set(p.cpu.flatMap((r) => Object.keys(r)))].sort((a, b) => (a === 'all' ? -1 : b === 'all' ? 1 : a.localeCompare(b)));
        const of = (k) => p.cpu.map((r) => r[k] || 0);
        console.log(`${p.d}: main-thread CPU per change (traced, ${p.cpu.length} changes) median ${median(of('all')).toFixed(2)} ms, p95 ${percentile(of('all'), 95).toFixed(2)} ms; by kind, median: ${names.filter((k) => k !== 'all').map((k) => `${k} ${median(of(k)).toFixed(2)}`).join(', ')}`);
      }
    }
    for (const p of pages) console.log(`${p.d}: median ${median(p.times).toFixed(2)} ms, p95 ${percentile(p.times, 95).toFixed(2)} ms, max ${Math.max(...p.times).toFixed(1)} ms (${p.times.length} changes${process.env.AB_SECTIONS === '0' ? ', as the page opens, without the sections' : ''}${process.env.AB_FLEET ? `, the fleet section open${process.env.AB_FLEET === 'busy' ? ' 1 s, its reproductions computing' : ', its reproductions computed'}` : ''})`);
  }
} finally {
  await browser.close();
  for (const s of servers) await s.close();
  for (const s of sites) rmSync(s, { recursive: true, force: true });
}
