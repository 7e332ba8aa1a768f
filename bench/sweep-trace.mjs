// The bench's sweep protocol (bench/browser.mjs, `sweep`) under a CDP trace, to see where a
// sweep's main-thread tasks go: each task's wall and thread time, and for the longest ones their
// events' thread time (script, style, layout, paint, GC). Several builds alternate in one process
// (an A/B): `node bench/sweep-trace.mjs dist-a dist-b …` (default: RETRYLAB_DIST or dist/).
//   ROUNDS=n  rounds of every build (default 3);  BUSY=1  a busy node loop beside the browser;
//   TOP=n     the longest tasks broken down (default 3).
// Prints the load average beside every round. Not part of scripts/bench: a tool for reading a trace.

import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../tests/browser/lib/server.js';
import { CHROMIUM, FLAGS } from './chromium.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// A build named `old:<dir>` is driven with the bench's protocol before sweep18e (set() in a rAF
// callback, drawn at once, then a forced layout).
const args = process.argv.slice(2).length ? process.argv.slice(2) : [process.env.RETRYLAB_DIST || 'dist'];
const oldProtocol = args.map((d) => d.startsWith('old:'));
const dists = args.map((d) => resolve(repo, d.replace(/^old:/, '')));
const ROUNDS = Number(process.env.ROUNDS || 3);
const TOP = Number(process.env.TOP || 3);
const CATEGORIES = ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', '__metadata', 'v8.execute', 'blink'];
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };
const f1 = (x) => (x === null || x === undefined ? '-' : x.toFixed(1));

// What a task's thread time is spent on, from the events nested in it (each event's own
// thread time, children subtracted, so nothing is counted twice).
const KINDS = [
  [/^(FunctionCall|v8\.callFunction|EvaluateScript|v8\.run|TimerFire|FireAnimationFrame|EventDispatch|HandlePostMessage|V8\.Execute)$/, 'script'],
  [/^(UpdateLayoutTree|ScheduleStyleRecalculation|ParseAuthorStyleSheet)$/, 'style'],
  [/^(Layout|UpdateLayerTree)$/, 'layout'],
  [/^(PrePaint|Paint|PaintImage|Layerize|Commit|UpdateLayer|RasterTask)$/, 'paint'],
  [/GC|BlinkGC/, 'gc'],
  [/IntersectionObserver|ResizeObserver/, 'observers'],
];
function breakdown(task, onMain) {
  const kids = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur && e.tdur !== undefined)
    .map((e) => ({ e, kind: (KINDS.find(([re]) => re.test(e.name)) || [null, null])[1] }))
    .filter((k) => k.kind);
  const by = {};
  for (const k of kids) {
    // Its own time: minus the classified events directly inside it.
    const inner = kids.filter((o) => o !== k && o.e.ts >= k.e.ts && o.e.ts + o.e.dur <= k.e.ts + k.e.dur &&
      !kids.some((m) => m !== k && m !== o && m.e.ts >= k.e.ts && m.e.ts + m.e.dur <= k.e.ts + k.e.dur && o.e.ts >= m.e.ts && o.e.ts + o.e.dur <= m.e.ts + m.e.dur));
    const own = k.e.tdur - inner.reduce((s, o) => s + o.e.tdur, 0);
    by[k.kind] = (by[k.kind] || 0) + Math.max(0, own) / 1000;
  }
  // What ran it: the scripts' entry points (a function's name and file, a timer, an animation
  // frame, a message) and the frame's lifecycle, as the trace names them.
  const what = new Set(onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur)
    .map((e) => (e.name === 'FunctionCall' && e.args && e.args.data
      ? `${e.args.data.functionName || '(anonymous)'}@${String(e.args.data.url || '').split('/').pop()}`
      : /^(TimerFire|FireAnimationFrame|HandlePostMessage|EventDispatch|FireIdleCallback|ParseHTML|EvaluateScript|MajorGC|MinorGC|Paint|IntersectionObserverController::computeIntersections)$/.test(e.name) ? e.name : null))
    .filter(Boolean));
  return `${Object.entries(by).sort((a, b) => b[1] - a[1]).map(([n, v]) => `${n} ${v.toFixed(1)}`).join(', ')} [${[...what].slice(0, 8).join(' ')}]`;
}

const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
const servers = await Promise.all(dists.map((d) => startServer(d)));
const busy = process.env.BUSY ? spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }) : null;
const summary = dists.map(() => []);
try {
  for (let round = 0; round < ROUNDS; round += 1) {
    for (let b = 0; b < dists.length; b += 1) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.goto(servers[b].origin + '/');
      await page.waitForFunction(() => document.documentElement.classList.contains('rl-ready'));
      await page.evaluate(() => window.retryLabSections.load());
      await page.waitForFunction(() => window.retryLabClients && window.retryLabClients.sweep);
      const before = load();
      await browser.startTracing(page, { categories: CATEGORIES });
      // The bench's protocol: 17 sweeps, each started just after a painted frame, awaited
      // (set() is a promise of the drawn chart; a build before sweep18e answers at once, drawn),
      // then the frame that paints it; or the protocol before sweep18e.
      const runs = await page.evaluate(async (old) => {
        const lab = window.retryLabClients.sweep;
        const afterFrame = () => new Promise((ok) => requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => ok(performance.now());
          channel.port2.postMessage(0);
        }));
        const list = [];
        for (let i = 0; i < 17; ++i) {
          if (!old) await afterFrame();
          const t0 = performance.now();
          await lab.set({ vary: 'deadlineMs', from: 0, to: 20000 + i, points: 1000 });
          if (old) document.body.getBoundingClientRect();
          list.push({ total: performance.now() - t0, ...lab.getTimings() });
          if (old) await new Promise((ok) => requestAnimationFrame(() => ok()));
          else await afterFrame();
        }
        return list.slice(2);
      }, oldProtocol[b]);
      const trace = JSON.parse((await browser.stopTracing()).toString('utf8'));
      const ev = trace.traceEvents;
      const main = new Set(ev.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
      const onMain = ev.filter((e) => e.ph === 'X' && main.has(`${e.pid}:${e.tid}`));
      const tasks = onMain.filter((e) => e.name === 'RunTask');
      const byThread = [...tasks].sort((x, y) => (y.tdur || 0) - (x.tdur || 0));
      const longestWall = tasks.reduce((a, t) => (!a || t.dur > a.dur ? t : a), null);
      // The tasks by kind, their thread time: the frames that paint, and the rest over 1 ms
      // (the sweep's own tasks: the engine's call and the draw).
      const inside = (t, pred) => onMain.some((e) => e !== t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur && pred(e));
      const painting = tasks.filter((t) => inside(t, (e) => e.name === 'Paint'));
      const others = tasks.filter((t) => !painting.includes(t) && (t.tdur || 0) > 1000);
      const spread = (ts) => { const xs = ts.map((t) => (t.tdur || 0) / 1000); return xs.length ? `${xs.length}, median ${f1(median(xs))}, max ${f1(Math.max(...xs))}` : 'none'; };
      const row = {
        longestWall: longestWall.dur / 1000, longestWallThread: (longestWall.tdur || 0) / 1000,
        longestThread: (byThread[0].tdur || 0) / 1000, over5: tasks.filter((t) => (t.tdur || 0) > 5000).length,
        compute: median(runs.map((r) => r.computeMs)), draw: median(runs.map((r) => r.drawMs)), total: median(runs.map((r) => r.total)),
      };
      summary[b].push(row);
      console.log(`${args[b]} round ${round + 1}: load ${before} / ${load()}; ${tasks.length} tasks; longest wall ${f1(row.longestWall)} ms ` +
        `(${f1(row.longestWallThread)} on the thread); longest thread ${f1(row.longestThread)} ms; tasks over 5 ms of thread ${row.over5}; ` +
        `median compute ${f1(row.compute)}, draw ${f1(row.draw)}, set() to drawn ${f1(row.total)} ms`);
      console.log(`  painted frames' thread time: ${spread(painting)}; other tasks over 1 ms: ${spread(others)}`);
      for (const t of byThread.slice(0, TOP)) {
        console.log(`  task wall ${f1(t.dur / 1000)} thread ${f1((t.tdur || 0) / 1000)}: ${breakdown(t, onMain)}`);
      }
      await context.close();
    }
  }
  console.log('medians over the rounds (longest wall / its thread / longest thread / compute / draw / to drawn, ms):');
  dists.forEach((d, b) => {
    const s = summary[b];
    console.log(`  ${args[b]}: ${['longestWall', 'longestWallThread', 'longestThread', 'compute', 'draw', 'total'].map((k) => f1(median(s.map((r) => r[k])))).join(' / ')}`);
  });
} finally {
  if (busy) busy.kill();
  await browser.close();
  await Promise.all(servers.map((s) => s.close()));
}
