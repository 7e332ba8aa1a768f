// The fleet's benchmark (BENCHMARKS.md, "The fleet"): natively (bench/fleet_native.cpp, the
// reference), WebAssembly in node, and WebAssembly in Chromium, the sweep there split across
// two workers (this machine's cores). Prints a table with each figure beside its reference
// from the same run, the budget and the verdict, and the load average before and after.
//
//   node bench/fleet.mjs    (scripts/bench runs it; build/bench/retrylab-fleet-bench and
//                            build/wasm/bindings/wasm/retrylab-fleet.js must be built)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const enginePath = process.env.RETRYLAB_FLEET_ENGINE || path.join(repo, 'build/wasm/bindings/wasm/retrylab-fleet.js');
const nativePath = path.join(repo, 'build/bench/retrylab-fleet-bench');
const requestsPath = path.join(here, 'fleet-requests.json');
const requests = JSON.parse(fs.readFileSync(requestsPath, 'utf8'));
const PEER_SWEEP_MS = 103000;  // aws-samples/aws-arch-backoff-simulator, the same sweep, this kind of machine
const load = () => os.loadavg().map((x) => x.toFixed(1)).join(' ');
const loadBefore = load();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function timed(rounds, call) {
  const times = [];
  for (let i = 0; i < rounds; ++i) { const t = performance.now(); call(); times.push(performance.now() - t); }
  return median(times);
}

// --- native ---
const native = JSON.parse(execFileSync(nativePath, [requestsPath], { encoding: 'utf8' }));

// --- node ---
const require = createRequire(import.meta.url);
const factory = require(enginePath);
const engine = await factory();
const nodeOut = {};
nodeOut.opening = timed(15, () => engine.fleet(requests.opening));
nodeOut.openingLayers = timed(15, () => engine.fleet(requests.openingLayers));  // docs/layers.md §9 (issue 33)
nodeOut.openingAdaptive = timed(15, () => engine.fleet(requests.openingAdaptive));  // docs/throttling.md §4 (issue 34)
nodeOut.openingServers = timed(15, () => engine.fleet(requests.openingServers));  // docs/servers.md (issue 39)
nodeOut.sweep = timed(3, () => { for (const r of requests.sweep) engine.fleet(r); });
{
  const fresh = await factory();
  const before = fresh.heapTop();
  const t = performance.now();
  const result = fresh.fleet(requests.big);
  if (!result.ok) throw new Error(`the engine refused the big request: ${result.errors[0].message}`);
  nodeOut.big = { ms: performance.now() - t, peakHeapBytes: fresh.heapTop() - before, requests: result.totals.requests };
}
nodeOut.growth = requests.growth.map((r) => {
  let made = 0;
  const ms = timed(3, () => { made = engine.fleet(r).totals.requests; });
  return { requests: made, ms };
});

// --- Chromium: the opening run on the page's thread, the sweep over two workers ---
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: FLAGS, headless: true });
const page = await browser.newPage();
const engineText = fs.readFileSync(enginePath, 'utf8');
await page.setContent('<!doctype html><title>fleet bench</title>');
await page.addScriptTag({ content: engineText });
const chromiumOut = await page.evaluate(async ({ requests, engineText }) => {
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const engine = await window.RetryLabEngine();
  const times = [];
  // The first call apart (V8 may still run the module's baseline code), then 15 more.
  let t0 = performance.now();
  engine.fleet(requests.opening);
  const openingFirst = performance.now() - t0;
  for (let i = 0; i < 15; ++i) { const t = performance.now(); engine.fleet(requests.opening); times.push(performance.now() - t); }
  const opening = median(times);
  // Then 24 more (calls 17-40), reported beside the figure and not judged: task18d saw the
  // first 4-20 calls run at 2-3 times the later calls' time on a loaded machine (V8 compiles
  // the module's hot functions again, optimised, in the background, while the calls go on).
  const later = [];
  for (let i = 0; i < 24; ++i) { const t = performance.now(); engine.fleet(requests.opening); later.push(performance.now() - t); }
  const openingLater = median(later);
  // The opening run with the adaptive limiter on every client (issue 34), after the calls above.
  const adaptiveTimes = [];
  for (let i = 0; i < 15; ++i) { const t = performance.now(); engine.fleet(requests.openingAdaptive); adaptiveTimes.push(performance.now() - t); }
  const openingAdaptive = median(adaptiveTimes);
  // Two workers, each with its own engine, take the sweep's requests in turn (interleaved, so
  // both get large and small client counts).
  const workerCode = engineText + `
    let enginePromise = RetryLabEngine();
    onmessage = async (e) => {
      const engine = await enginePromise;
      if (e.data === 'ready') { postMessage('ready'); return; }
      let writes = 0;
      for (const r of e.data) writes += engine.fleet(r).mean.writes;
      postMessage(writes);
    };`;
  const url = URL.createObjectURL(new Blob([workerCode], { type: 'text/javascript' }));
  const workers = [new Worker(url), new Worker(url)];
  const ask = (w, data) => new Promise((resolve) => { w.onmessage = (e) => resolve(e.data); w.postMessage(data); });
  await Promise.all(workers.map((w) => ask(w, 'ready')));
  const sweepTimes = [];
  let writes = 0;
  for (let round = 0; round < 3; ++round) {
    const parts = [[], []];
    requests.sweep.forEach((r, i) => parts[i % 2].push(r));
    const t = performance.now();
    const sums = await Promise.all(workers.map((w, i) => ask(w, parts[i])));
    sweepTimes.push(performance.now() - t);
    writes = sums[0] + sums[1];
  }
  // The same sweep on one thread, for the split's gain.
  const t = performance.now();
  for (const r of requests.sweep) engine.fleet(r);
  const oneThread = performance.now() - t;
  workers.forEach((w) => w.terminate());
  return { opening, openingFirst, openingLater, openingAdaptive, sweep: median(sweepTimes), writes, oneThread };
}, { requests, engineText });
const chromiumVersion = browser.version();
await browser.close();

// --- report ---
const f = (ms) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(ms >= 10 ? 1 : 2)) + ' ms';
const mb = (b) => (b / 2 ** 20).toFixed(1) + ' MB';
const ratio = (x, ref) => `(${(x / ref).toFixed(1)}×)`;
const verdict = (ok) => (ok ? 'met' : 'MISSED');
const rows = [
  ['opening fleet run', f(native.opening.ms), `${f(nodeOut.opening)} ${ratio(nodeOut.opening, native.opening.ms)}`,
    `${f(chromiumOut.opening)} ${ratio(chromiumOut.opening, native.opening.ms)} (the first call: ${f(chromiumOut.openingFirst)}; calls 17–40: ${f(chromiumOut.openingLater)})`, '≤ 10 ms in WebAssembly',
    verdict(Math.max(nodeOut.opening, chromiumOut.opening) <= 10)],
  ['… with three layers (docs/layers.md §9)', f(native.openingLayers.ms),
    `${f(nodeOut.openingLayers)} ${ratio(nodeOut.openingLayers, native.openingLayers.ms)}; ${(nodeOut.openingLayers / nodeOut.opening).toFixed(1)}× the opening run`,
    '', '≤ 3× the opening run in WebAssembly (issue 33)', verdict(nodeOut.openingLayers <= 3 * nodeOut.opening)],
  ['… with AWS adaptive mode on every client (docs/throttling.md §4)', f(native.openingAdaptive.ms),
    `${f(nodeOut.openingAdaptive)} ${ratio(nodeOut.openingAdaptive, native.openingAdaptive.ms)}; ${(nodeOut.openingAdaptive / nodeOut.opening).toFixed(1)}× the opening run`,
    `${f(chromiumOut.openingAdaptive)}; ${(chromiumOut.openingAdaptive / chromiumOut.openingLater).toFixed(1)}× calls 17–40 of the opening run`,
    '≤ 2× the opening run in WebAssembly (issue 34)', verdict(nodeOut.openingAdaptive <= 2 * nodeOut.opening && chromiumOut.openingAdaptive <= 2 * chromiumOut.openingLater)],
  ['… over 10 replicas behind round robin (docs/servers.md)', f(native.openingServers.ms),
    `${f(nodeOut.openingServers)} ${ratio(nodeOut.openingServers, native.openingServers.ms)}; ${(nodeOut.openingServers / nodeOut.opening).toFixed(1)}× the opening run`,
    '', '≤ 1.5× the opening run in WebAssembly (issue 39)', verdict(nodeOut.openingServers <= 1.5 * nodeOut.opening)],
  ['AWS 2015 sweep (95 × 100 runs)', f(native.sweep.ms), `${f(nodeOut.sweep)} ${ratio(nodeOut.sweep, native.sweep.ms)}`,
    `${f(chromiumOut.sweep)} on 2 workers (1 thread: ${f(chromiumOut.oneThread)}); ${(PEER_SWEEP_MS / chromiumOut.sweep).toFixed(0)}× the peer's 103 s`,
    '≤ 1 s in Chromium, ≥ 100× the peer', verdict(chromiumOut.sweep <= 1000)],
  ['1,980,000-request run', `${f(native.big.ms)}, ${mb(native.big.peakHeapBytes)}`,
    `${f(nodeOut.big.ms)}, ${mb(nodeOut.big.peakHeapBytes)}`, '', '≤ 256 MB', verdict(Math.max(native.big.peakHeapBytes, nodeOut.big.peakHeapBytes) <= 256 * 2 ** 20)],
];
const growth = native.growth.map((g, i) => {
  const n = nodeOut.growth[i];
  const base = native.growth[1];
  return `| ${g.requests.toLocaleString('en')} | ${f(g.ms)} | ${(g.ms / g.requests * 1e6).toFixed(0)} ns | ${f(n.ms)} | ${(n.ms / n.requests * 1e6).toFixed(0)} ns |`;
});
const same = Math.abs(native.sweep.writes - chromiumOut.writes) < 1e-6 ? 'the same' : `NOT the same (${native.sweep.writes} vs ${chromiumOut.writes})`;
console.log(`Fleet benchmark, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; ${os.cpus()[0].model}, ${os.cpus().length} cores; load ${loadBefore} before, ${load()} after; node ${process.version}, Chromium ${chromiumVersion}`);
console.log('');
console.log('| case | native (reference) | node (WebAssembly) | Chromium (WebAssembly) | budget | verdict |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
console.log('');
console.log(`The sweep's writes summed over its 95 requests: native ${native.sweep.writes.toFixed(2)}, Chromium ${chromiumOut.writes.toFixed(2)}: ${same}.`);
console.log('');
console.log('Cost growth (a service run with 10,000 clients at 1 rps, 1,000 workers; the first row 100 clients):');
console.log('');
console.log('| requests | native | per request | node | per request |');
console.log('|---|---|---|---|---|');
for (const g of growth) console.log(g);
