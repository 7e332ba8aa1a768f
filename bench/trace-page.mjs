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

import { chromium } from 'playwright-core';
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { startServer } from '../tests/browser/lib/server.js';
import { inputChanges, watchReady } from './clocks.mjs';
import { CHROMIUM, FLAGS } from './chromium.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..');
const dist = resolve(repo, process.env.RETRYLAB_DIST || 'build/dist-bench');
const CATEGORIES = [
  'toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'loading',
  'v8', 'v8.execute', 'disabled-by-default-v8.compile', ...(process.env.RETRYLAB_TRACE_BLINK ? ['blink', 'cc'] : []), 'disabled-by-default-v8.cpu_profiler', 'disabled-by-default-v8.cpu_profiler.hires', '__metadata',
];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : 0;
};
const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : 0;
};

// What a main-thread trace event is, by name (self time: its duration less its children's).
const KINDS = [
  ['parse HTML', /^(ParseHTML|HTMLDocumentParser::.*|Document::FinishedParsing|DocumentLoader::.*|ResponseBodyLoader::.*)$/],
  ['parse CSS', /^(ParseAuthorStyleSheet|CSSParserImpl::.*|StyleSheetContents::.*)$/],
  ['script compile', /^(v8\.compile|V8\.CompileCode|v8\.compileModule|V8\.ScriptCompiler.*|v8\.produceCache|v8\.parseOnBackground.*|V8\.CompileLazy.*|V8\.ParseLazy.*|V8\.ParseProgram.*|V8\.CompileScript.*|V8\.Parse.*|V8\.Compile.*|V8\.Deserialize.*)$/],
  ['garbage collection', /(GC|Scavenge|MarkCompact|Sweep)/],
  ['script run', /^(EvaluateScript|LocalWindowProxy::Initialize|v8\.run|FunctionCall|v8\.callFunction|V8\.Execute|v8\.evaluateModule|RunMicrotasks|EventDispatch|TimerFire|FireAnimationFrame|FireIdleCallback|XHRReadyStateChange|v8\.callModuleMethod.*|V8\.Run.*|V8\.Invoke.*|V8\.Call.*|ResizeObserver.*|IntersectionObserver.*|HandlePostMessage)$/],
  ['style', /^(UpdateLayoutTree|RecalculateStyles|Document::recalcStyle|StyleEngine.*|ScheduleStyleRecalculation|StyleEngine::.*|Document::updateStyle.*|Document::UpdateStyle.*)$/],
  ['layout', /^(Layout|UpdateLayout|LocalFrameView::layout|LocalFrameView::performLayout|InlineNode::.*|LayoutBlockFlow::.*|LayoutObject::.*|LayoutNG.*|Document::UpdateStyleAndLayout.*)$/],
  ['paint', /^(PrePaint|Paint|Blink\.PrePaint.*|Blink\.Paint.*|PaintImage|Layerize|UpdateLayer|UpdateLayerTree|PaintArtifactCompositor::Update|CompositeLayers|LocalFrameView::RunPaintLifecyclePhase.*)$/],
  ['frame (lifecycle)', /^(WebFrameWidgetImpl::.*|ProxyMain::BeginMainFrame|PageAnimator::.*|LocalFrameView::UpdateLifecyclePhases|LocalFrameView::RunPostLifecycleSteps|LocalFrameView::NotifyResizeObservers|Animation.*)$/],
  ['profiler (tracing only)', /^(CpuProfiler::.*|v8\.cpu_profiler.*)$/],
  ['commit', /^(Commit|ProxyMain::BeginMainFrame::commit|ProxyImpl::ScheduledActionCommit|LayerTreeHost::DoUpdateLayers.*)$/],
];
const kindOf = (name) => (KINDS.find(([, re]) => re.test(name)) || ['other'])[0];

// The page's renderer main thread: the CrRendererMain of the process that wrote the marks
// (the browser's other renderers, its own pages, are in the trace too).
function mainThreads(events, markName) {
  const marked = events.find((e) => e.name === markName);
  return new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args && e.args.name === 'CrRendererMain' && (!marked || e.pid === marked.pid))
    .map((e) => `${e.pid}:${e.tid}`));
}

// Complete events on the renderer main thread as intervals (B/E pairs joined), sorted.
function intervals(events, main) {
  const out = [];
  const open = new Map();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (!main.has(key)) continue;
    if (e.ph === 'X' && typeof e.dur === 'number') out.push({ name: e.name, ts: e.ts, end: e.ts + e.dur, cpu: typeof e.tdur === 'number' ? e.tdur : e.dur, key });
    else if (e.ph === 'B') {
      if (!open.has(key)) open.set(key, []);
      open.get(key).push(e);
    } else if (e.ph === 'E') {
      const b = open.get(key)?.pop();
      if (b) out.push({ name: b.name, ts: b.ts, end: e.ts, cpu: typeof b.tts === 'number' && typeof e.tts === 'number' ? e.tts - b.tts : e.ts - b.ts, key });
    }
  }
  return out.sort((a, b) => a.ts - b.ts || b.end - a.end);
}

// Self time (µs) per event name within [from, to] on the main thread: nested events charge
// their time to the innermost. The main thread's own CPU time (the trace's thread clock), not
// the wall clock: on a loaded machine a task's wall time includes the time the thread waited
// for a core, which says nothing of the page (an event cut by the window's edge counts the
// share of its CPU time that its wall time inside the window has).
function selfTimes(list, from, to) {
  const self = new Map();
  const stack = [];
  const clip = (x) => Math.max(from, Math.min(to, x));
  const add = (name, us) => self.set(name, (self.get(name) || 0) + us);
  for (const ev of list) {
    if (ev.end <= from || ev.ts >= to) continue;
    while (stack.length && stack[stack.length - 1].end <= ev.ts) stack.pop();
    const parent = stack[stack.length - 1];
    const wall = ev.end - ev.ts;
    const own = wall > 0 ? ev.cpu * ((clip(ev.end) - clip(ev.ts)) / wall) : 0;
    add(ev.name, own);
    if (parent) add(parent.name, -own);
    stack.push(ev);
  }
  return self;
}

// V8's samples (ProfileChunk events) on the main thread within [from, to]: self time per
// function, by "name url:line".
function jsSamples(events, main, from, to) {
  const nodes = new Map();
  const byFn = new Map();
  const profiles = new Map(); // id -> { ts }
  for (const e of events) {
    if (e.name === 'Profile' && e.args?.data?.startTime !== undefined) profiles.set(e.id, { ts: e.args.data.startTime, pid: e.pid });
  }
  const clocks = new Map();
  for (const e of events) {
    if (e.name !== 'ProfileChunk') continue;
    if (![...main].some((k) => k.startsWith(`${e.pid}:`))) continue; // V8's profiler thread, the renderer's process
    const data = e.args?.data;
    if (!data) continue;
    for (const node of data.cpuProfile?.nodes || []) nodes.set(`${e.id}:${node.id}`, node);
    const samples = data.cpuProfile?.samples || [];
    const deltas = data.timeDeltas || [];
    let t = clocks.has(e.id) ? clocks.get(e.id) : (profiles.get(e.id)?.ts ?? e.ts);
    for (let i = 0; i < samples.length; ++i) {
      const dt = deltas[i] || 0;
      t += dt;
      if (t < from || t > to) continue;
      const node = nodes.get(`${e.id}:${samples[i]}`);
      if (!node) continue;
      const f = node.callFrame;
      const where = f.url ? `${f.url.replace(/^.*\//, '')}:${f.lineNumber + 1}:${f.columnNumber + 1}` : '';
      const name = `${f.functionName || '(anonymous)'} ${where}`.trim();
      byFn.set(name, (byFn.get(name) || 0) + dt);
    }
    clocks.set(e.id, t);
  }
  return byFn;
}

const markTs = (events, name) => events.filter((e) => e.name === name && (e.ph === 'R' || e.ph === 'I' || e.ph === 'n' || e.ph === 'b' || e.ph === 'e' || e.ph === 'X')).map((e) => e.ts);

function summary(selfByName) {
  const kinds = {};
  for (const [name, us] of selfByName) {
    const k = kindOf(name);
    kinds[k] = (kinds[k] || 0) + us / 1000;
  }
  return kinds;
}

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
        for (const [n, us] of jsSamples(events, main, from, to)) js.set(n, (js.get(n) || 0) + us);
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
      for (const [n, us] of jsSamples(events, main, from, to)) js.set(n, (js.get(n) || 0) + us);
    }
    printKinds(`input change to the end of its frame${fleet ? ', the fleet section open' : ''}, main thread self time (${rows.length} changes, traced)`, rows);
    printTop('trace events by self time (mean per change)', names, 30, rows.length);
    printTop('JavaScript samples by function (mean per change)', js, 30, rows.length);
  } else {
    throw new Error(`unknown mode ${mode}: load or input`);
  }
} finally {
  await browser.close();
  await server.close();
  rmSync(site, { recursive: true, force: true });
}
if (process.env.RETRYLAB_TRACE_OUT && lastTrace) writeFileSync(process.env.RETRYLAB_TRACE_OUT, lastTrace);
