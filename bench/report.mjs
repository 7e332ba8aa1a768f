// Prints scripts/bench's table from the three runs' output in DIR (native.jsonl, node.jsonl,
// browser.json, machine.json), and writes DIR/results.json and DIR/results.md (the table as
// BENCHMARKS.md shows it).
//
//   node bench/report.mjs build/bench

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCROLLED_CEILING_BYTES } from '../tests/node/page/ceilings.js';

const dir = process.argv[2] || 'build/bench';
const lines = (file) => readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
// Several passes of the same cases: each case's median over them (and its passes' peak heap).
function merged(records) {
  const byName = new Map();
  for (const r of records) byName.set(r.name, [...(byName.get(r.name) || []), r]);
  return [...byName.values()].map((list) => {
    const sorted = [...list].sort((a, b) => a.ms - b.ms);
    const checks = new Set(list.map((r) => r.check));
    return { ...sorted[sorted.length >> 1], passes: list.length,
      peakHeapBytes: Math.max(...list.map((r) => r.peakHeapBytes)),
      check: checks.size === 1 ? list[0].check : `passes disagree: ${[...checks].join(' / ')}` };
  });
}
const native = merged(lines('native.jsonl'));
const node = merged(lines('node.jsonl'));
const browser = JSON.parse(readFileSync(join(dir, 'browser.json'), 'utf8'));
const machine = JSON.parse(readFileSync(join(dir, 'machine.json'), 'utf8'));

// The budgets of issues 7 and 18 (BENCHMARKS.md). scrolledGzipBytes is the ceiling of everything a
// reader who scrolls to the end loads, held once in tests/node/page/ceilings.js (page-size.test.js
// fails over it).
const BUDGET = {
  gzipBytes: 60 * 1024, scrolledGzipBytes: SCROLLED_CEILING_BYTES, renderRatio: 1.25, inputP95Ms: 8, taskMs: 50, herdMs: 100,
  herdRatio: 1.5, computeRatio: 3, sweepMs: 10,
};

const ms = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 0.1 ? x.toFixed(2) : x.toFixed(4)) + ' ms';
// The longest task's own time on the main thread (its trace's thread clock), beside its wall time.
const threadNote = (part) => (part.longestTaskThreadMs == null ? '' : `, ${ms(part.longestTaskThreadMs)} of it on the thread`);
const kb = (b) => (b / 1024).toFixed(1) + ' KB';
const times = (x) => x.toFixed(x >= 10 ? 0 : 1) + '×';
const pad = (s, n) => String(s).padEnd(n);

// The warm-up before a case's rounds (bench/measure.js): how many rounds, and what its first
// round took a call, the calls a reader makes first.
const warmNote = (row) => {
  const part = (side, r) => (r && r.firstRoundMs != null ? `${side} ${r.warmupRounds} rounds, the first ${ms(r.firstRoundMs)} a call` : null);
  const parts = [part('node', row.nodeRecord), part('Chromium', row.chromiumRecord)].filter(Boolean);
  return parts.length ? ` after a warm-up (${parts.join('; ')})` : '';
};

const rows = [];
const problems = [];
for (const n of native) {
  const w = node.find((r) => r.name === n.name);
  const c = (browser.wasm || []).find((r) => r.name === n.name);
  for (const [side, r] of [['node', w], ['Chromium', c]]) {
    if (!r) problems.push(`${n.name}: no ${side} figure`);
    else if (r.check !== n.check) problems.push(`${n.name}: ${side} computed "${r.check}", native "${n.check}"`);
  }
  rows.push({ name: n.name, native: n.ms, node: w && w.ms, chromium: c && c.ms,
    nativePeak: n.peakHeapBytes, wasmPeak: w && w.peakHeapBytes, check: n.check, nodeRecord: w, chromiumRecord: c });
}

const out = [];
const say = (s = '') => out.push(s);
say(`Retry Lab benchmarks, ${machine.date}`);
say(`Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memory}; load average (1, 5, 15 min) ${machine.load} at the start, ` +
  `${machine.loadBetween || 'n/a'} after the native and node passes, ${machine.loadAfter || 'n/a'} after Chromium. ` +
  `node ${machine.node}, Chromium ${browser.chromium}, ${machine.compilers}.`);
say(`Each figure is the median of repeated runs (bench/measure.js, bench/native.cpp; native and node in ${native[0].passes} alternating passes, the median pass), each case after a warm-up of rounds until they stop getting faster (the first calls of a WebAssembly module run on the baseline compiler; the opening run's warm-up is reported below); ratios are to the native reference measured in the same run.`);
say();
say('Engine calls (median per call; × = WebAssembly / native)');
say(`| ${pad('call', 20)} | ${pad('native', 10)} | ${pad('wasm, node', 20)} | ${pad('wasm, Chromium', 20)} | ${pad('peak heap native / wasm', 24)} |`);
say(`|${'-'.repeat(22)}|${'-'.repeat(12)}|${'-'.repeat(22)}|${'-'.repeat(22)}|${'-'.repeat(26)}|`);
for (const r of rows) {
  const cell = (x) => (x === undefined ? 'n/a' : `${ms(x)} (${times(x / r.native)})`);
  say(`| ${pad(r.name, 20)} | ${pad(ms(r.native), 10)} | ${pad(cell(r.node), 20)} | ${pad(cell(r.chromium), 20)} | ` +
    `${pad(`${kb(r.nativePeak)} / ${r.wasmPeak === undefined ? 'n/a' : kb(r.wasmPeak)}`, 24)} |`);
}
say();
say('The page in headless Chromium on 127.0.0.1 (strict CSP, no cache): what it loads when it opens, then what');
say('scrolling to the end adds (the sections below the article, web/load-sections.js)');
say(`| ${pad('file', 26)} | ${pad('raw', 10)} | ${pad('gzip', 10)} |`);
say(`|${'-'.repeat(28)}|${'-'.repeat(12)}|${'-'.repeat(12)}|`);
for (const f of browser.bytes.files) say(`| ${pad(f.file, 26)} | ${pad(kb(f.raw), 10)} | ${pad(kb(f.gzip), 10)} |`);
say(`| ${pad('**as the page opens**', 26)} | ${pad(kb(browser.bytes.raw), 10)} | ${pad(kb(browser.bytes.gzip), 10)} |`);
if (browser.bytesScrolled) {
  for (const f of browser.bytesScrolled.files) say(`| ${pad(`+ ${f.file}`, 26)} | ${pad(kb(f.raw), 10)} | ${pad(kb(f.gzip), 10)} |`);
  say(`| ${pad('scrolled to the end', 26)} | ${pad(kb(browser.bytesScrolled.raw), 10)} | ${pad(kb(browser.bytesScrolled.gzip), 10)} |`);
}
say();

const herd = rows.find((r) => r.name === 'herd 1,000,000');
const herdWasm = Math.max(herd.node ?? Infinity, herd.chromium ?? Infinity);
const opening = rows.find((r) => r.name === 'opening run');
const openingWasm = Math.max(opening.node ?? Infinity, opening.chromium ?? Infinity);
const layered = rows.find((r) => r.name === 'opening run, three layers');  // docs/layers.md (issue 33)
const layeredWasm = layered ? Math.max(layered.node ?? Infinity, layered.chromium ?? Infinity) : undefined;
const sweeps = rows.filter((r) => r.name.startsWith('sweep'));
const slowestSweep = sweeps.reduce((a, r) => (Math.max(r.node ?? Infinity, r.chromium ?? Infinity) > Math.max(a.node ?? Infinity, a.chromium ?? Infinity) ? r : a));
const slowestSweepMs = Math.max(slowestSweep.node ?? Infinity, slowestSweep.chromium ?? Infinity);
const verdict = (ok, how) => `${ok ? 'met' : 'MISSED'} (${how})`;
const by = (x, budget, unit) => (x <= budget ? `${unit(budget - x)} to spare` : `over by ${unit(x - budget)}`);
const r = browser.render;
const budgets = [
  ['opening bytes, gzipped', `${kb(browser.bytes.gzip)}`, '≤ 60 KB',
    verdict(browser.bytes.gzip <= BUDGET.gzipBytes, by(browser.bytes.gzip, BUDGET.gzipBytes, kb))],
  ...(browser.bytesScrolled ? [['scrolled to the end, gzipped', `${kb(browser.bytesScrolled.gzip)}`, `≤ ${kb(BUDGET.scrolledGzipBytes)} (the test's ceiling)`,
    verdict(browser.bytesScrolled.gzip <= BUDGET.scrolledGzipBytes, by(browser.bytesScrolled.gzip, BUDGET.scrolledGzipBytes, kb))]] : []),
  ['first complete render, painted', `${ms(r.pageMs)} vs static article ${ms(r.staticMs)}: ${times(r.ratio)}; vs blank ${ms(r.blankMs)}: ${times(r.blankRatio)}`,
    '≤ 1.25× the static article',
    verdict(r.ratio <= BUDGET.renderRatio, `${r.loads} loads each; the static article is ${times(r.staticOverBlank)} the blank page${r.restMs ? `; the views below the first screen laid out by ${ms(r.restMs)}` : ''}`)],
  ['input change → painted frame', `median ${ms(browser.input.medianMs)}, p95 ${ms(browser.input.p95Ms)}, max ${ms(browser.input.maxMs)}`, 'p95 ≤ 8 ms',
    verdict(browser.input.p95Ms <= BUDGET.inputP95Ms, `${browser.input.changes} changes, the sections loaded`)],
  ...(browser.inputFleet ? [['… with the fleet section open too', `median ${ms(browser.inputFleet.medianMs)}, p95 ${ms(browser.inputFleet.p95Ms)}, max ${ms(browser.inputFleet.maxMs)}`, 'p95 ≤ 8 ms',
    verdict(browser.inputFleet.p95Ms <= BUDGET.inputP95Ms, `${browser.inputFleet.changes} changes, the sections and the fleet section loaded`)]] : []),
  ...(browser.inputOpening ? [['… as the page opens, without them', `median ${ms(browser.inputOpening.medianMs)}, p95 ${ms(browser.inputOpening.p95Ms)}`, 'p95 ≤ 8 ms',
    verdict(browser.inputOpening.p95Ms <= BUDGET.inputP95Ms, `${browser.inputOpening.changes} changes`)]] : []),
  ...(browser.firstInput ? [['first change, loading the engine', `median ${ms(browser.firstInput.medianMs)}, max ${ms(browser.firstInput.maxMs)} (run computed at ${ms(browser.firstInput.computedMedianMs)})`, 'reported (issue 18)',
    `${browser.firstInput.hadEngine ? 'NOT MEASURED (the engine was already there)' : 'reported'} (${browser.firstInput.loads} fresh loads; fetch, compile, check and the change, to its painted frame)`]] : []),
  ['longest task, 10 s playback at 4×', `${ms(browser.playback.longestTaskMs)}${threadNote(browser.playback)} (${browser.playback.over50ms ?? 'n/a'} of ${browser.playback.tasks} tasks over 50 ms, ${browser.playback.over16ms} over 16 ms)`, '≤ 50 ms',
    verdict(browser.playback.longestTaskMs <= BUDGET.taskMs, `CDP trace, renderer main thread${browser.playback.busyLoop ? ', a busy node loop running beside it' : ''}`)],
  ...(browser.sweep && browser.sweep.longestTaskMs !== undefined ? [['longest task, 15 sweeps in the page', `${ms(browser.sweep.longestTaskMs)}${threadNote(browser.sweep)} (${browser.sweep.over50ms} of ${browser.sweep.tasks} tasks over 50 ms)`, '≤ 50 ms',
    verdict(browser.sweep.longestTaskMs <= BUDGET.taskMs, `CDP trace${browser.sweep.busyLoop ? ', a busy node loop running beside it' : ''}`)]] : []),
  ['compute({}), wasm / native', `node ${times(opening.node / opening.native)}, Chromium ${times(opening.chromium / opening.native)} (native ${ms(opening.native)}, node ${ms(opening.node)}, Chromium ${ms(opening.chromium)})`, '≤ 3×',
    verdict(openingWasm / opening.native <= BUDGET.computeRatio, `the slower of the two; the steady state${warmNote(opening)}`)],
  ...(layered ? [['three-layer run / compute({}), wasm', `node ${times(layered.node / opening.node)}, Chromium ${times(layered.chromium / opening.chromium)} (node ${ms(layered.node)}, Chromium ${ms(layered.chromium)})`, '≤ 2×',
    verdict(layeredWasm / openingWasm <= 2, 'issue 33; the slower of the two against the slower opening run')]] : []),
  ['1,000-point sweep, any draws and script', sweeps.map((s) => `${s.name.replace('sweep', '').replace(/^[ ,]+/, '') || '{}'}: node ${ms(s.node)}, Chromium ${ms(s.chromium)}`).join('; '), '≤ 10 ms',
    verdict(slowestSweepMs <= BUDGET.sweepMs, `the slowest: ${slowestSweep.name}, ${ms(slowestSweepMs)}`)],
  ['herd of 1,000,000, wasm', `node ${ms(herd.node)}, Chromium ${ms(herd.chromium)}`, '< 100 ms',
    verdict(herdWasm < BUDGET.herdMs, 'issue 7; the slower of the two')],
  ['herd of 1,000,000, wasm / native', `node ${times(herd.node / herd.native)}, Chromium ${times(herd.chromium / herd.native)} (native ${ms(herd.native)})`, '≤ 1.5×',
    verdict(herdWasm / herd.native <= BUDGET.herdRatio, 'issue 7; the slower of the two')],
];
if (browser.sweep) {
  // Since sweep18e a sweep is two tasks (the engine's call, then the draw) and the bench times
  // it from just after a painted frame to the chart drawn, and to the end of the frame that
  // shows it (bench/browser.mjs). The verdict: the chart drawn within one frame of the request,
  // so that the next frame shows it; the painted time (a frame's wait included) is beside it.
  const sw = browser.sweep;
  const painted = sw.paintedMs !== undefined;
  budgets.push(['1,000-point sweep in the page', painted
    ? `drawn ${ms(sw.totalMs)} after the request (compute ${ms(sw.computeMs)} + draw ${ms(sw.drawMs)}); painted ${ms(sw.paintedMs)} (max ${ms(sw.maxPaintedMs)}), in the next frame for ${sw.inNextFrame} of ${sw.runs}`
    : `compute ${ms(sw.computeMs)} + draw ${ms(sw.drawMs)}; with layout ${ms(sw.totalMs)}`,
    'one frame (16.7 ms)', verdict(sw.totalMs <= 16.7, `issue 9; median${painted ? ', from just after a painted frame to the chart drawn, which the next frame paints' : ''}${sw.busyLoop ? ', the busy loop running' : ''}`)]);
}
if (browser.engineStart) {
  const e = browser.engineStart;
  say(`The engine file alone (a page with only it, ${e.loads} fresh loads): script evaluated in ${ms(e.evaluateMs)}, ` +
    `engine ready (module decoded, compiled, instantiated) ${ms(e.readyMs)} later, the opening run computed in ${ms(e.firstComputeMs)}.`);
  say();
}
say('Budgets (issues 18 and 7), every figure from this run');
say(`| ${pad('what', 34)} | ${pad('measured', 58)} | ${pad('budget', 20)} | verdict |`);
say(`|${'-'.repeat(36)}|${'-'.repeat(60)}|${'-'.repeat(22)}|---------|`);
for (const [what, measured, budget, v] of budgets) say(`| ${pad(what, 34)} | ${pad(measured, 58)} | ${pad(budget, 20)} | ${v} |`);
if (problems.length) {
  say();
  say('PROBLEMS: ' + problems.join('; '));
}
const text = out.join('\n');
console.log(text);
writeFileSync(join(dir, 'results.md'), text + '\n');
writeFileSync(join(dir, 'results.json'), JSON.stringify({ machine, native, node, browser }, null, 2) + '\n');
if (problems.length) process.exitCode = 1;
