// In-page ablations of an input change (issue 18, BENCHMARKS.md "Issue 18, input to painted
// frame, session 5"): one page of a build (D, default build/dist-bench), the sections loaded, the
// base backoff field in view, and phases of N changes (default 40) made as bench/clocks.mjs makes
// them, R rounds (default 3) of the phases in H (separated by |), each phase one of:
//   none                      the change as the bench makes it
//   <selectors>               the same with those elements display: none
//   <selectors>{prop:value;…} the same with that CSS set on them through the CSSOM (a strict CSP
//                             allows it), taken off after the phase
//   empty[+…]                 the field's value set but no input event: the field's own cost
//   noop[+…]                  no change but the run clock's text
// Per phase: the wall time of the script, of a forced style and layout, and of the rest of the
// frame (medians), and with TRACE=1 the main thread's CPU by kind (the trace's thread clock, as
// bench/trace-page.mjs sums it); TOP=n the n busiest trace events; SEQ=1 phases kept apart by
// their place in H; BLINK=1 and DUMP=<phase>: the 11th change's lifecycle events printed (DUMPRE,
// DUMPMIN µs); BYVAL=1: CPU by the field's value. Not part of scripts/bench.
//   node bench/ablate-page.mjs
//   TRACE=1 SEQ=1 H='none|empty|#rl-timeline' node bench/ablate-page.mjs
import { chromium } from 'playwright-core';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { startServer } from '../tests/browser/lib/server.js';
import { CHROMIUM, FLAGS } from './chromium.mjs';
import * as T from './trace-lib.mjs';
const CATS = ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8', 'v8.execute', ...(process.env.BLINK ? ['blink', 'cc', 'disabled-by-default-devtools.timeline.invalidationTracking'] : [])];
const dist = resolve(process.env.D || 'build/dist-bench');
const server = await startServer(dist);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
await page.goto(server.origin + '/');
await page.waitForFunction(() => document.documentElement.classList.contains('rl-ready'));
await page.evaluate(() => window.retryLabEngine && window.retryLabEngine.load());
await page.evaluate(() => window.retryLabSections.load());
await page.evaluate(() => document.querySelector('[data-retry-lab] input[data-field="baseBackoffMs"][data-role="number"]').scrollIntoView({ block: 'center' }));
await page.waitForTimeout(500);
const hides = (process.env.H || 'none,#rl-timeline,#rl-events,#rl-table,#rl-metrics,#rl-seek-marks,#rl-verdict,.rl-inputs,.cl-card-box,.rl-share').split('|');
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };
const rounds = Number(process.env.R || 3);
const res = {};
const cpu = {};
const names = {};
for (let r = 0; r < rounds; ++r) for (const [hi, sel0] of hides.entries()) {
  const sel = process.env.SEQ ? `${hi}:${sel0}` : sel0;
  if (process.env.TRACE) await browser.startTracing(page, { categories: CATS });
  const t = await page.evaluate(async ({ sel, n, marks }) => {
    let mode = sel, css = null, target = sel;
    const m = /^(?:(empty|noop)\+)?(.*?)(?:\{(.*)\})?$/.exec(sel);
    if (m[1]) mode = m[1];
    target = m[2]; css = m[3] ? m[3].split(';').filter(Boolean).map((d) => d.split(':')) : [['display', 'none']];
    const els = ['none', 'noop', 'empty', ''].includes(target) ? [] : [...document.querySelectorAll(target)];
    const olds = els.map((el) => el.getAttribute('style'));
    for (const el of els) for (const [k, v] of css) el.style.setProperty(k.trim(), v.trim());
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const input = document.querySelector('[data-retry-lab] input[data-field="baseBackoffMs"][data-role="number"]');
    const out = [];
    for (let i = 0; i < n; ++i) out.push(await new Promise((ok) => requestAnimationFrame(() => {
      input.value = String(400 + (i % 20) * 10);
      if (marks) performance.mark(`c-${i}`);
      const t0 = performance.now();
      if (mode === 'empty') {} else if (mode !== 'noop') input.dispatchEvent(new Event('input', { bubbles: true })); else document.querySelector('#rl-clock').textContent = String(i);
      const t1 = performance.now();
      document.body.getBoundingClientRect(); void document.body.offsetHeight;
      const t2 = performance.now();
      const c = new MessageChannel();
      c.port1.onmessage = () => (marks && performance.mark(`d-${i}`), ok)([t1 - t0, t2 - t1, performance.now() - t2]);
      c.port2.postMessage(0);
    })));
    els.forEach((el, i) => (olds[i] === null ? el.removeAttribute('style') : el.setAttribute('style', olds[i])));
    return out;
  }, { sel: sel.replace(/^\d+:/, ''), n: Number(process.env.N || 40), marks: !!process.env.TRACE });
  (res[sel] ||= []).push(...t);
  if (process.env.TRACE) {
    const buf = await browser.stopTracing();
    const { traceEvents: ev } = JSON.parse(buf.toString('utf8'));
    const main = T.mainThreads(ev, 'c-0');
    const list = T.intervals(ev, main);
    for (let i = 0; i < t.length; ++i) {
      const from = T.markTs(ev, `c-${i}`)[0], to = T.markTs(ev, `d-${i}`)[0];
      if (from === undefined || to === undefined) continue;
      const self = T.selfTimes(list, from, to);
      if (process.env.DUMP && i === 10 && sel.includes(process.env.DUMP)) for (const e of ev) if (e.ts >= from && e.ts <= to && main.has(`${e.pid}:${e.tid}`) && new RegExp(process.env.DUMPRE || "Layout|Invalidat|Paint|StyleRecalc").test(e.name) && (e.dur || 0) >= Number(process.env.DUMPMIN || 0)) console.log(sel, e.name, e.ph, ((e.dur||0)/1000).toFixed(2), JSON.stringify(e.args).slice(0, 400));
      const k = T.summary(self);
      k.total = Object.values(k).reduce((a, b) => a + b, 0);
      if (process.env.BYVAL) (globalThis.byval ||= {})[i % 20] = [...((globalThis.byval || {})[i % 20] || []), k];
      (cpu[sel] ||= []).push(k);
      for (const [n, us] of self) (names[sel] ||= new Map()).set(n, ((names[sel] || new Map()).get(n) || 0) + us / t.length / rounds);
    }
  }
}
console.log(`load ${loadavg().map((x) => x.toFixed(1)).join(' ')}  ${dist}`);
for (const sel of hides.map((h, i) => (process.env.SEQ ? `${i}:${h}` : h))) {
  const xs = res[sel];
  const col = (k) => med(xs.map((x) => x[k])).toFixed(2);
  console.log(`${sel.padEnd(16)} script ${col(0)}  style+layout ${col(1)}  rest ${col(2)}  total ${med(xs.map((x) => x[0] + x[1] + x[2])).toFixed(2)}`);
}
if (process.env.TRACE) for (const sel of hides.map((h, i) => (process.env.SEQ ? `${i}:${h}` : h))) {
  const rows = cpu[sel] || [];
  const ks = [...new Set(rows.flatMap((r) => Object.keys(r)))].sort();
  console.log(`${sel}: CPU medians ` + ks.map((k) => `${k} ${T.median(rows.map((r) => r[k] || 0)).toFixed(2)}`).join(', '));
  console.log('   top: ' + [...names[sel]].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP || 8)).map(([n, us]) => `${n} ${(us / 1000).toFixed(2)}`).join(', '));
}
if (process.env.BYVAL) for (const [v, rows] of Object.entries(globalThis.byval)) console.log(`value ${400 + v * 10}: total ${T.median(rows.map((r) => r.total)).toFixed(2)} layout ${T.median(rows.map((r) => r.layout || 0)).toFixed(2)} paint ${T.median(rows.map((r) => r.paint || 0)).toFixed(2)} script ${T.median(rows.map((r) => r['script run'] || 0)).toFixed(2)} gc-max ${Math.max(...rows.map((r) => r['garbage collection'] || 0)).toFixed(2)} max ${Math.max(...rows.map((r) => r.total)).toFixed(2)}`);
await browser.close(); await server.close();
