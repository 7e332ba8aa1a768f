// Where the input clock's slow changes go as the page opens (issue 18, session 6): a fresh page
// (dist-bench, the engine loaded, the sections not), 60 changes of bench/clocks.mjs's
// `inputChanges` with user-timing marks, one CDP trace; for each change, the main thread's
// top-level trace events between its marks, summed by name. Prints the first 20 changes' mean
// beside changes 20-59, then the first 8 changes broken down. Tracing makes each change slower;
// compare rows of one trace, not with scripts/bench's figures.
//
//   scripts/bench (for build/dist-bench), then node bench/opening-changes.mjs
import { chromium } from 'playwright-core';
import { startServer } from '../tests/browser/lib/server.js';
import { inputChanges, watchReady } from './clocks.mjs';
const server = await startServer('build/dist-bench');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
const page = await context.newPage();
await page.addInitScript(watchReady);
await page.goto(server.origin + '/');
await page.waitForFunction(() => window.__drawnAt !== undefined);
await page.evaluate(() => window.retryLabEngine && window.retryLabEngine.load());
await page.evaluate(() => document.querySelector('[data-retry-lab] input[data-field="baseBackoffMs"][data-role="number"]').scrollIntoView({ block: 'center' }));
await browser.startTracing(page, { categories: ['devtools.timeline', 'blink.user_timing', 'v8', 'v8.execute', 'disabled-by-default-v8.compile', 'disabled-by-default-devtools.timeline'] });
const t = await page.evaluate(inputChanges, { count: 60, marks: true });
const trace = JSON.parse((await browser.stopTracing()).toString());
const ev = trace.traceEvents;
const main = new Set(ev.filter((e) => e.name === 'thread_name' && e.args && e.args.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
const marks = {};
for (const e of ev) if (/^rl-change(d)?-\d+$/.test(e.name)) marks[e.name] = e.ts;
const onMain = ev.filter((e) => main.has(`${e.pid}:${e.tid}`) && e.ph === 'X' && typeof e.dur === 'number');

const rows = [];
for (let i = 0; i < 60; ++i) {
  const a = marks[`rl-change-${i}`], b = marks[`rl-changed-${i}`];
  if (a === undefined || b === undefined) continue;
  const inside = onMain.filter((e) => e.ts >= a && e.ts + e.dur <= b);
  // top-level only: drop events nested in another event (RunTask aside)
  const top = inside.filter((e) => e.name !== 'RunTask' && e.name !== 'ThreadControllerImpl::RunTask' && !inside.some((o) => o !== e && o.name !== 'RunTask' && o.name !== 'ThreadControllerImpl::RunTask' && o.ts <= e.ts && o.ts + o.dur >= e.ts + e.dur));
  const ms = top.reduce((s, e) => s + e.dur, 0) / 1000;
  const names = {};
  for (const e of top) names[e.name] = (names[e.name] || 0) + e.dur / 1000;
  rows.push({ i, ms: t[i], eventsMs: ms, names });
}
const sum = (r) => r.reduce((s, x) => s + x, 0);
const first = rows.filter((r) => r.i < 20), rest = rows.filter((r) => r.i >= 20);
console.log(`first 20: mean ${(sum(first.map((r) => r.ms)) / first.length).toFixed(2)} ms a change, of it in top-level events ${(sum(first.map((r) => r.eventsMs)) / first.length).toFixed(2)} ms`);
console.log(`20-59: mean ${(sum(rest.map((r) => r.ms)) / rest.length).toFixed(2)} ms a change, of it in top-level events ${(sum(rest.map((r) => r.eventsMs)) / rest.length).toFixed(2)} ms`);
for (const r of rows.slice(0, 8)) console.log(r.i, r.ms.toFixed(1), r.eventsMs.toFixed(2), JSON.stringify(Object.fromEntries(Object.entries(r.names).map(([k, v]) => [k, +v.toFixed(2)]))));
await browser.close(); process.exit(0);
