// Where the page's time goes (issue 18: a budget that is missed is shown from a trace): Chromium
// traces of the built site (RETRYLAB_DIST, default build/dist-bench, as bench/browser.mjs serves
// it: 127.0.0.1, the strict CSP, no cache, a 1280×900 window), summed by what the renderer's main
// thread was doing. Not part of scripts/bench's verdicts (tracing slows what it watches); it says
// what the time of bench/browser.mjs's figures is made of.
//
//   node bench/trace-page.mjs load [loads]     first loads of / and of /static.html (the static
//        article): from navigation start to the end of the frame bench/browser.mjs clocks (a
//        user-timing mark `rl-drawn` posted as it posts its message), the main thread's self
//        time per kind (HTML parse, CSS parse, script compile, script run, style, layout,
//        paint and the frame's other steps, idle), medians over the loads; and the JavaScript
//        samples (V8's CPU profiler) by function, summed over the loads
//   node bench/trace-page.mjs input [changes] [fleet]   input changes as bench/browser.mjs makes
//        them (the sections loaded; `fleet`: the fleet section open too): per change, from the
//        input event to the end of its frame, the same kinds, medians and 95th percentiles, and
//        the JavaScript samples by function
//
// RETRYLAB_TRACE_OUT=<file>: also write the last trace's JSON there (for chrome://tracing).
// RETRYLAB_TRACE_INCLUSIVE=1: the JavaScript samples by function in inclusive time (each function on a
// sample's stack), not self time; RETRYLAB_TRACE_TOP=<n>: how many functions to print (30).

import { chromium } from 'playwright-core';
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { startServer } from '../tests/browser/lib/server.js';
import { inputChanges, watchReady } from './clocks.mjs';
import { CHROMIUM, FLAGS } from './chromium.mjs';
import { CATEGORIES, intervals, jsSamples, mainThreads, markTs, median, percentile, selfTimes, summary } from './trace-lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..');
const dist = resolve(repo, process.env.RETRYLAB_DIST || 'build/dist-bench');
const INCLUSIVE = process.env.RETRYLAB_TRACE_INCLUSIVE === '1';
const fmt = (x) => x.toFixed(1).padStart(7);

const site = mkdtempSync(join(tmpdir(), 'retrylab-trace-'));
cpSync(dist, site, { recursive: true });
writeFileSync(join(site, 'static.html'), readFileSync(join(site, 'index.html'), 'utf8')
  .replace(/<script\b[^>]*>[\s\S]*?<\/script>\s*/g, ''));

// bench/browser.mjs's clock, plus a user-timing mark where it stops.

const [mode = 'load', countArg, fleetArg] = process.argv.slice(2);
const server = await startServer(site);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
let lastTrace = null;
try {
  const open = async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.addInitScript(watchReady);
    return { context, page };
  };
  const printKinds = (title, rows) => {
    const names = [...new Set(rows.flatMap((r) => Object.keys(r)))].sort();
    console.log(title);
    for (const k of names) {
      const xs = rows.map((r) => r[k] || 0);
      console.log(`  ${k.padEnd(20)} median ${fmt(median(xs))} ms   p95 ${fmt(percentile(xs, 95))} ms`);
    }
  };
  const printTop = (title, map, n, runs) => {
    console.log(title);
    for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(`  ${fmt(us / 1000 / runs)} ms  ${name}`);
  };

  if (mode === 'load') {
    const loads = Number(countArg || 9);
    for (const path of (process.env.RETRYLAB_TRACE_PATHS || '/,/static.html').split(',')) {
      const rows = [];
      const names = new Map();
      const js = new Map();
      for (let i = 0; i < loads; ++i) {
        const { context, page } = await open();
        await browser.startTracing(page, { categories: CATEGORIES });
        await page.goto(server.origin + path);
        await page.waitForFunction(() => window.__drawnAt !== undefined, null, { timeout: 30000 });
        const drawnAt = await page.evaluate(() => window.__drawnAt);
        await page.waitForTimeout(100);
        const buffer = await browser.stopTracing();
        lastTrace = buffer;
        await context.close();
        const { traceEvents: events } = JSON.parse(buffer.toString('utf8'));
        const main = mainThreads(events, 'rl-drawn');
        const nav = markTs(events, 'navigationStart').filter((ts) => ts > 0);
        const drawn = markTs(events, 'rl-drawn');
        if (!nav.length || !drawn.length) throw new Error(`${path}: no navigationStart or rl-drawn mark in the trace`);
        const from = Math.max(...nav.filter((t) => t < drawn[0]));
        const to = drawn[0];
        const list = intervals(events, main);
        const self = selfTimes(list, from, to);
        const kinds = summary(self);
        const busy = Object.values(kinds).reduce((a, b) => a + b, 0);
        kinds['(total, wall)'] = (to - from) / 1000;
        kinds['(main thread CPU)'] = busy;
        kinds['(page clock)'] = drawnAt;
        const ready = markTs(events, 'rl-ready-seen')[0];
        if (ready) kinds['(rl-ready at)'] = (ready - from) / 1000;
        const fcp = markTs(events, 'firstContentfulPaint')[0];
        if (fcp) kinds['(first contentful paint)'] = (fcp - from) / 1000;
        rows.push(kinds);
        for (const [n, us] of self) names.set(n, (names.get(n) || 0) + us);
        for (const [n, us] of jsSamples(events, main, from, to, INCLUSIVE)) js.set(n, (js.get(n) || 0) + us);
      }
      printKinds(`${path}: navigation start to the end of the clocked frame, main thread self time (${loads} loads)`, rows);
      printTop(`${path}: trace events by self time (mean per load)`, names, 30, loads);
      printTop(`${path}: JavaScript samples by function (mean per load)`, js, Number(process.env.RETRYLAB_TRACE_TOP || 30), loads);
    }
  } else if (mode === 'input') {
    const changes = Number(countArg || 100);
    const fleet = fleetArg === 'fleet';
    const { context, page } = await open();
    await page.goto(server.origin + '/');
    await page.waitForFunction(() => window.__drawnAt !== undefined);
    await page.evaluate(() => window.retryLabEngine && window.retryLabEngine.load());
    await page.evaluate(() => window.retryLabSections.load());
    if (fleet) {
      await page.evaluate(() => window.retryLabFleetSection.load());
      await page.evaluate(async () => { while (!(window.retryLabFleet && window.retryLabFleet.state())) await new Promise((r) => setTimeout(r, 50)); await window.retryLabFleet.collapse(); }); // its reproductions computed too (bench/clocks.mjs openFleetSection)
    }
    await browser.startTracing(page, { categories: CATEGORIES });
    await page.evaluate(() => document.querySelector('[data-retry-lab] input[data-field="baseBackoffMs"][data-role="number"]').scrollIntoView({ block: 'center' }));
    await page.waitForTimeout(300);
    const times = await page.evaluate(inputChanges, { count: changes, marks: true });
    const buffer = await browser.stopTracing();
    lastTrace = buffer;
    await context.close();
    const { traceEvents: events } = JSON.parse(buffer.toString('utf8'));
    const main = mainThreads(events, 'rl-change-0');
    const list = intervals(events, main);
    const rows = [];
    const names = new Map();
    const js = new Map();
    for (let i = 0; i < changes; ++i) {
      const from = markTs(events, `rl-change-${i}`)[0];
      const to = markTs(events, `rl-changed-${i}`)[0];
      if (from === undefined || to === undefined) continue;
      const self = selfTimes(list, from, to);
      const kinds = summary(self);
      kinds['(total, wall)'] = (to - from) / 1000;
      kinds['(main thread CPU)'] = Object.values(kinds).reduce((x, y) => x + y, 0) - kinds['(total, wall)'];
      kinds['(page clock)'] = times[i];
      rows.push(kinds);
      for (const [n, us] of self) names.set(n, (names.get(n) || 0) + us);
      for (const [n, us] of jsSamples(events, main, from, to, INCLUSIVE)) js.set(n, (js.get(n) || 0) + us);
    }
    printKinds(`input change to the end of its frame${fleet ? ', the fleet section open' : ''}, main thread self time (${rows.length} changes, traced)`, rows);
    printTop('trace events by self time (mean per change)', names, 30, rows.length);
    printTop(`JavaScript samples by function (${INCLUSIVE ? 'inclusive' : 'self'} time, mean per change)`, js, Number(process.env.RETRYLAB_TRACE_TOP || 30), rows.length);
  } else {
    throw new Error(`unknown mode ${mode}: load or input`);
  }
} finally {
  await browser.close();
  await server.close();
  rmSync(site, { recursive: true, force: true });
}
if (process.env.RETRYLAB_TRACE_OUT && lastTrace) writeFileSync(process.env.RETRYLAB_TRACE_OUT, lastTrace);
