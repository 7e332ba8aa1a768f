// Issue 32's budgets (BENCHMARKS.md, "The stability map"): in Chromium against the built site
// (dist/, or RETRYLAB_DIST), per round, the 12 × 12 map of the opening fleet run (144 runs,
// one seed) from the map's bundle asked for to its last cell, in the page (its two workers;
// budget ≤ 3 s), its first cell (≤ 300 ms), and the main thread's longest task meanwhile (the
// trace's RunTask events, bench/trace-lib.mjs; < 50 ms); then `retrysim --fleet` natively on
// FLEET.md §9.10's 600 s, 168,000-request run: its time and peak memory (the child's maximum
// resident set, from getrusage through python3). Each figure beside its budget and the load
// average. scripts/bench runs it after bench/fleet-page.mjs.
//
//   npm run build && node bench/map-page.mjs [rounds]     (RETRYSIM: the retrysim to time)
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../tests/browser/lib/server.js';
import { longestMainTask } from './trace-lib.mjs';
import { CHROMIUM, FLAGS, fleetPage, median, n, verdict } from './chromium.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = process.env.RETRYLAB_DIST ? path.resolve(repo, process.env.RETRYLAB_DIST) : path.join(repo, 'dist');
const retrysim = process.env.RETRYSIM || path.join(repo, 'build/native/bindings/cli/retrysim');
const rounds = Number(process.argv[2] || 3);
const load = () => os.loadavg().map((x) => x.toFixed(1)).join(' ');
const loadBefore = load();
const MAP_BUDGET_MS = 3000;
const FIRST_BUDGET_MS = 300;
const TASK_BUDGET_MS = 50;
// FLEET.md §9.10: 280 clients at 1 a second for 600 s.
const HOTOS = {
  clients: 280, durationMs: 600000, server: { workers: 30, serviceMs: 100 },
  policy: { clientTimeoutMs: 1000, maxRetries: 1, baseBackoffMs: 0, retryOn: ['timeout'] },
  trigger: { kind: 'slowdown', startMs: 10000, endMs: 12000, factor: 20 },
};

const server = await startServer(dist);
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
const runs = [];
for (let i = 0; i < rounds; ++i) {
  const { page } = await fleetPage(browser, server.origin);
  const cdp = await page.context().newCDPSession(page);
  const ended = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReturnAsStream' });
  // The map's own clock (stability.js): from its first run posted to its workers to its last
  // result, and to its first; the wall clock here also counts the bundle's load.
  const t0 = Date.now();
  const m = await page.evaluate(() => window.retryLabFleet.map());
  const wall = Date.now() - t0;
  await cdp.send('Tracing.end');
  const { stream } = await ended;
  const { longest, longestCpu, mainThreads } = await longestMainTask(cdp, stream);
  if (!mainThreads) throw new Error('map-page: the trace names no CrRendererMain thread');
  if (m.cells.length !== 144) throw new Error(`map-page: ${m.cells.length} cells`);
  runs.push({ ms: m.ms, first: m.firstMs, wall, longest, longestCpu, load: os.loadavg()[0] });
  await page.close();
}
const chromiumVersion = browser.version();
await browser.close();
await server.close();

// retrysim --fleet on §9.10's run: wall time and the child's peak resident set.
const native = JSON.parse(execFileSync('python3', ['-c', `
import json, resource, subprocess, sys, time
t = time.perf_counter()
out = subprocess.run([sys.argv[1], '--fleet'], input=sys.argv[2].encode(), capture_output=True, check=True).stdout
ms = (time.perf_counter() - t) * 1000
r = json.loads(out)
print(json.dumps({'ms': ms, 'kib': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, 'requests': r['totals']['requests'], 'attempts': r['totals']['attempts'], 'metastable': r['recovery']['metastable']}))
`, retrysim, JSON.stringify(HOTOS)], { encoding: 'utf8' }));
const nativeLoad = os.loadavg()[0];
// The reference beside it: the same request through the fleet engine file in node (WebAssembly).
const enginePath = process.env.RETRYLAB_FLEET_ENGINE || path.join(repo, 'build/wasm/bindings/wasm/retrylab-fleet.js');
const engine = await createRequire(import.meta.url)(enginePath)();
engine.fleet({ durationMs: 1000 });
const heapBefore = process.memoryUsage().rss;
const w0 = performance.now();
const wasmResult = engine.fleet(HOTOS);
const wasmMs = performance.now() - w0;
const wasmRss = process.memoryUsage().rss;
if (wasmResult.totals.requests !== native.requests) throw new Error('map-page: the bindings disagree on §9.10');

const mid = median(runs.map((r) => r.ms));
const midRun = runs.find((r) => r.ms === mid);
const first = median(runs.map((r) => r.first));
const worst = runs.reduce((a, r) => (r.longest > a.longest ? r : a), runs[0]);
console.log(`Stability map on the page (bench/map-page.mjs), ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; ${os.cpus()[0].model}, ${os.cpus().length} cores; load ${loadBefore} before, ${load()} after; Chromium ${chromiumVersion}; ${rounds} rounds`);
console.log('');
console.log('| round | 144 runs, first posted to last drawn | first cell | asked to complete (with the bundle\'s load) | main thread\'s longest task meanwhile (wall) | in CPU time | load average (1 min) at its end |');
console.log('|---|---|---|---|---|---|---|');
runs.forEach((r, i) => console.log(`| ${i + 1} | ${n(r.ms)} ms | ${n(r.first)} ms | ${n(r.wall)} ms | ${r.longest.toFixed(1)} ms | ${r.longestCpu === null ? 'not in the trace' : `${r.longestCpu.toFixed(1)} ms`} | ${r.load.toFixed(1)} |`));
console.log('');
console.log('| case | measured | load average (1 min) | budget | verdict |');
console.log('|---|---|---|---|---|');
console.log(`| the 12 × 12 map of the opening fleet run, complete in the page (median round) | ${n(mid)} ms | ${midRun.load.toFixed(1)} | ≤ ${n(MAP_BUDGET_MS)} ms | ${verdict(mid, MAP_BUDGET_MS)} |`);
console.log(`| its first cell (median round) | ${n(first)} ms | ${midRun.load.toFixed(1)} | ≤ ${n(FIRST_BUDGET_MS)} ms | ${verdict(first, FIRST_BUDGET_MS)} |`);
console.log(`| the main thread's longest task meanwhile (worst round) | ${worst.longest.toFixed(1)} ms | ${worst.load.toFixed(1)} | < ${TASK_BUDGET_MS} ms | ${verdict(worst.longest, TASK_BUDGET_MS, { strict: true })} |`);
const cpus = runs.filter((r) => r.longestCpu !== null);
if (cpus.length) {
  const cpu = cpus.reduce((x, r) => (r.longestCpu > x.longestCpu ? r : x), cpus[0]);
  console.log(`| the same, in the task's own CPU time (worst round) | ${cpu.longestCpu.toFixed(1)} ms | ${cpu.load.toFixed(1)} | < ${TASK_BUDGET_MS} ms | ${verdict(cpu.longestCpu, TASK_BUDGET_MS, { strict: true })} |`);
}
console.log(`| \`retrysim --fleet\`, FLEET.md §9.10's 600 s run (${n(native.requests)} requests, ${n(native.attempts)} attempts, metastable ${native.metastable}) | ${n(native.ms)} ms (process start and JSON out included), peak ${n(native.kib / 1024)} MiB resident | ${nativeLoad.toFixed(1)} | printed, no budget | – |`);
console.log(`| reference: the same request through the fleet engine file in node (WebAssembly, the call alone) | ${n(wasmMs)} ms; node's resident set ${n(heapBefore / 2 ** 20)} → ${n(wasmRss / 2 ** 20)} MiB | ${os.loadavg()[0].toFixed(1)} | – | – |`);
