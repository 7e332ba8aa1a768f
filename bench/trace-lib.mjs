// What a Chromium trace says of the page's main thread (issue 18), for bench/trace-page.mjs and
// bench/ab-page.mjs (AB_TRACE=1): the renderer's main thread, its events' self time in the
// thread's own CPU clock, summed by kind, and V8's samples by function.

export const CATEGORIES = [
  'toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'loading',
  'v8', 'v8.execute', 'disabled-by-default-v8.compile', ...(process.env.RETRYLAB_TRACE_BLINK ? ['blink', 'cc'] : []), 'disabled-by-default-v8.cpu_profiler', 'disabled-by-default-v8.cpu_profiler.hires', '__metadata',
];

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : 0;
};
export const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : 0;
};

// What a main-thread trace event is, by name (self time: its duration less its children's).
export const KINDS = [
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
export const kindOf = (name) => (KINDS.find(([, re]) => re.test(name)) || ['other'])[0];

// The page's renderer main thread: the CrRendererMain of the process that wrote the marks
// (the browser's other renderers, its own pages, are in the trace too).
export function mainThreads(events, markName) {
  const marked = events.find((e) => e.name === markName);
  return new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args && e.args.name === 'CrRendererMain' && (!marked || e.pid === marked.pid))
    .map((e) => `${e.pid}:${e.tid}`));
}

// Complete events on the renderer main thread as intervals (B/E pairs joined), sorted.
export function intervals(events, main) {
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
export function selfTimes(list, from, to) {
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
export function jsSamples(events, main, from, to, inclusive = false) {
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
      const nameOf = (n) => {
        const f = n.callFrame;
        const where = f.url ? `${f.url.replace(/^.*\//, '')}:${f.lineNumber + 1}:${f.columnNumber + 1}` : '';
        return `${f.functionName || '(anonymous)'} ${where}`.trim();
      };
      if (!inclusive) byFn.set(nameOf(node), (byFn.get(nameOf(node)) || 0) + dt);
      else { // RETRYLAB_TRACE_INCLUSIVE=1: each function on the sample's stack, once
        const seen = new Set();
        for (let n = node; n; n = n.parent === undefined ? null : nodes.get(`${e.id}:${n.parent}`)) seen.add(nameOf(n));
        for (const name of seen) byFn.set(name, (byFn.get(name) || 0) + dt);
      }
    }
    clocks.set(e.id, t);
  }
  return byFn;
}

export const markTs = (events, name) => events.filter((e) => e.name === name && (e.ph === 'R' || e.ph === 'I' || e.ph === 'n' || e.ph === 'b' || e.ph === 'e' || e.ph === 'X')).map((e) => e.ts);

export function summary(selfByName) {
  const kinds = {};
  for (const [name, us] of selfByName) {
    const k = kindOf(name);
    kinds[k] = (kinds[k] || 0) + us / 1000;
  }
  return kinds;
}

// (bench/fleet-page.mjs and bench/map-page.mjs)
// The longest RunTask on the page's main thread (CrRendererMain) in a trace, in ms.
export async function longestMainTask(cdp, stream) {
  let text = '';
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle: stream });
    text += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString('utf8') : chunk.data;
    if (chunk.eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  const events = JSON.parse(text).traceEvents || JSON.parse(text);
  const main = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  // Wall time (dur) is what the reader waits; thread time (tdur, when the trace has it) is the
  // task's own CPU, which a loaded machine does not stretch: both are kept.
  let longest = 0;
  let longestCpu = null;
  for (const e of events) {
    if (e.name !== 'RunTask' || e.ph !== 'X' || !main.has(`${e.pid}:${e.tid}`)) continue;
    longest = Math.max(longest, e.dur / 1000);
    if (typeof e.tdur === 'number') longestCpu = Math.max(longestCpu || 0, e.tdur / 1000);
  }
  if (process.env.RETRYLAB_TRACE_TOP) {
    const tasks = events.filter((e) => e.name === 'RunTask' && e.ph === 'X' && main.has(`${e.pid}:${e.tid}`)).sort((a, b) => b.dur - a.dur).slice(0, 5);
    for (const t of tasks) {
      const inside = events.filter((e) => e.ph === 'X' && e.tid === t.tid && e.pid === t.pid && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur && e !== t && e.dur > 2000)
        .map((e) => `${e.name} ${(e.dur / 1000).toFixed(1)}${e.args && e.args.data && e.args.data.functionName ? ` ${e.args.data.functionName}` : ''}${e.args && e.args.data && e.args.data.url ? ` ${e.args.data.url}:${e.args.data.lineNumber}` : ''}`);
      console.error(`task ${(t.dur / 1000).toFixed(1)} ms: ${inside.join('; ')}`);
    }
  }
  return { longest, longestCpu, mainThreads: main.size };
}
