// Trace the bench's sweep protocol; break down the longest main-thread tasks by child event (thread time).
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { loadavg } from 'node:os';
const repo = process.env.REPO || '/work/wt/task18d';
const { startServer } = await import(repo + '/tests/browser/lib/server.js');
const { CHROMIUM, FLAGS } = await import(repo + '/bench/chromium.mjs');
const dist = resolve(repo, process.env.DIST || 'dist');
const server = await startServer(dist);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
const page = await context.newPage();
await page.goto(server.origin + '/');
await page.waitForFunction(() => document.documentElement.classList.contains('rl-ready'));
await page.evaluate(() => window.retryLabSections.load());
await page.waitForFunction(() => window.retryLabClients && window.retryLabClients.sweep);
const busy = process.env.BUSY ? spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }) : null;
await browser.startTracing(page, { categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', '__metadata', 'v8.execute', 'blink'] });
const PROTO = process.env.PROTO || 'sync';
const runs = await page.evaluate(async (proto) => {
  const lab = window.retryLabClients.sweep;
  const list = [];
  for (let i = 0; i < 17; ++i) {
    const t0 = performance.now();
    if (proto === 'sync') { lab.set({ vary: 'deadlineMs', from: 0, to: 20000 + i, points: 1000 }); document.body.getBoundingClientRect(); }
    else { await lab.set({ vary: 'deadlineMs', from: 0, to: 20000 + i, points: 1000 }); document.body.getBoundingClientRect(); }
    list.push({ total: performance.now() - t0, ...lab.getTimings() });
    await new Promise((ok) => requestAnimationFrame(() => ok()));
  }
  return list.slice(2);
}, PROTO);
const trace = JSON.parse((await browser.stopTracing()).toString('utf8'));
if (busy) busy.kill();
const ev = trace.traceEvents;
const main = new Set(ev.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
const onMain = ev.filter((e) => e.ph === 'X' && main.has(`${e.pid}:${e.tid}`));
const tasks = onMain.filter((e) => e.name === 'RunTask').sort((a, b) => b.tdur - a.tdur);
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };
console.log('load', loadavg().map((x) => x.toFixed(2)).join(' '), 'proto', PROTO, 'busy', !!busy);
console.log('page timings median: compute', med(runs.map((r) => r.computeMs)), 'draw', med(runs.map((r) => r.drawMs)), 'total', med(runs.map((r) => r.total)), 'engine', med(runs.map((r) => r.engineMs)), runs[0].where);
console.log('tasks', tasks.length, 'longest wall', Math.max(...tasks.map((t) => t.dur)) / 1000);
for (const t of tasks.slice(0, Number(process.env.TOP || 4))) {
  const kids = onMain.filter((e) => e !== t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur);
  const by = {};
  for (const k of kids) {
    if (!['FunctionCall', 'v8.callFunction', 'UpdateLayoutTree', 'Layout', 'Paint', 'PrePaint', 'Layerize', 'Commit', 'HitTest', 'ParseHTML', 'EvaluateScript', 'v8.compile', 'MajorGC', 'MinorGC', 'V8.GC_SCAVENGER', 'ScheduleStyleRecalculation', 'UpdateLayer', 'PaintImage', 'IntersectionObserverController::computeIntersections', 'ResizeObserver', 'BlinkGC.AtomicPhase', 'V8.GC_MC_BACKGROUND', 'BeginMainThreadFrame', 'Animation Frame Fired', 'FireAnimationFrame', 'ThreadControllerImpl::RunTask', 'PageAnimator::serviceScriptedAnimations', 'LocalFrameView::RunPostLifecycleSteps', 'LocalFrameView::UpdateLifecyclePhases'].includes(k.name) && !/GC|Layout|Paint|Style|Script|Function|Lifecycle|Commit/.test(k.name)) continue;
    by[k.name] = (by[k.name] || 0) + (k.tdur || 0) / 1000;
  }
  console.log(`task wall ${(t.dur / 1000).toFixed(1)} thread ${(t.tdur / 1000).toFixed(1)}:`, Object.entries(by).sort((a, b) => b[1] - a[1]).slice(0, 14).map(([n, v]) => `${n} ${v.toFixed(1)}`).join(', '));
}
console.log('chart nodes', await page.evaluate(() => document.querySelectorAll('#sw-chart *').length), 'panel nodes', await page.evaluate(() => document.querySelectorAll('#cl-sweep *').length));
await browser.close(); await server.close();
