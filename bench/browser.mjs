// The Chromium half of scripts/bench: the built site (RETRYLAB_DIST, default build/dist-bench)
// served on 127.0.0.1 under the page's strict CSP (tests/browser/lib/server.js), driven by
// Debian's Chromium through playwright-core. Prints one JSON object on stdout:
//
//   bytes       every response of a page load (navigation until the opening run is drawn,
//               then 2 s more): raw and gzipped bytes (zlib level 6, the usual server
//               default) per file and in total; then the same after the reader scrolls to
//               the end, which brings the sections below the article (web/load-sections.js)
//   render      navigation to the first complete render of the opening run, to the end of the
//               frame that shows it: the first animation frame after the page marks itself
//               rl-ready (the explorable drawn from the build's prerendered opening run, every
//               computed number of the article in the HTML; the engine is not loaded), then a MessageChannel message posted from that frame's rAF callback, which runs
//               after the frame's style, layout, paint and commit on the main thread. Beside two
//               references on the same server, same measure: the blank page (one script that
//               adds rl-ready) and the static article (static.html: the page's own HTML and CSS
//               with every script tag removed; the frame after its load event, when its
//               stylesheet is in). Medians over alternating fresh loads (each round starting
//               with the next of the three), and both ratios; the
//               budget is the static article's. The page's first frame is its first screen:
//               the views below it (the event trace, the computed data, the metrics, the share
//               bar; their text is in the page already) are laid out from the next frame
//               (web/css/contain.css), whose end is reported beside it (restMs)
//   input       an input change to its painted frame: inside an animation frame's callback the
//               number field of the base backoff is set and an input event dispatched, as
//               typing does; the clock stops at a MessageChannel message posted then, which
//               runs once that frame (the redraw's style, layout and paint) is done. 200
//               changes, one a frame; median and 95th percentile. With the sections below the
//               article loaded (they follow the experiment's run), the budget's case; with the
//               fleet section open as well (its opening fleet run drawn; the budget's too); and
//               as the page opens, without them
//   firstInput  (issue 18: index.html loads its engine on first need) a fresh page's first
//               input change, which brings the engine, to the painted frame that shows its run
//   playback    the longest main-thread task (a CDP trace's RunTask events, not the Long
//               Tasks API, which sees only tasks of 50 ms and more) during 10 s of playback at
//               4x, with the sections loaded, while a busy node loop (another CPU-bound
//               process, started here) runs beside the browser
//   sweep       a 1,000-point sweep through the page's sweep panel (two tasks since sweep18e: the
//               engine's call, then the draw): from just after a painted frame to the chart drawn
//               (compute, draw and the hop between), and to the painted chart (the end of the
//               frame that shows it), medians; and the longest main-thread task over those
//               sweeps, traced, with the busy loop
//   wasm        bench/cases.json through the page's engine file (bench/measure.js)

import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { startServer } from '../tests/browser/lib/server.js';
import { inputChanges as changeInputs, watchReady } from './clocks.mjs';
import { CHROMIUM, FLAGS } from './chromium.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..');
const dist = resolve(repo, process.env.RETRYLAB_DIST || 'build/dist-bench');
const RENDER_LOADS = Number(process.env.BENCH_RENDER_LOADS || 31);
// BENCH_ONLY=render,input,…: only those parts (a quicker look while working; scripts/bench runs
// them all, and bench/report.mjs needs them all).
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',')) : null;
const want = (part) => !ONLY || ONLY.has(part);
const INPUT_CHANGES = 200;
const PLAYBACK_MS = 10000;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

// The site plus the blank reference page: one script, which marks the page as the real page
// marks itself when it is drawn.
const site = mkdtempSync(join(tmpdir(), 'retrylab-bench-'));
cpSync(dist, site, { recursive: true });
writeFileSync(join(site, 'blank.html'), '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Blank</title>' +
  '<script src="blank.js" defer></script></head><body><p>Blank.</p></body></html>\n');
writeFileSync(join(site, 'blank.js'), "document.documentElement.classList.add('rl-ready');\n");
// The static article: the page's HTML and CSS with no script at all (the floor the page's
// first render is held to).
writeFileSync(join(site, 'static.html'), readFileSync(join(site, 'index.html'), 'utf8')
  .replace(/<script\b[^>]*>[\s\S]*?<\/script>\s*/g, ''));
// The engine alone: the time from its script's start to a working engine (decoding the inlined
// module, compiling and instantiating it) and to the opening run computed.
writeFileSync(join(site, 'engine-start.html'), '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Engine</title>' +
  '<script src="engine-mark.js"></script><script src="retrylab-engine.js"></script><script src="engine-start.js"></script></head><body></body></html>\n');
writeFileSync(join(site, 'engine-mark.js'), 'window.__engineScriptAt = performance.now();\n');
writeFileSync(join(site, 'engine-start.js'), [
  'var evaluated = performance.now();',
  'RetryLabEngine().then(function (engine) {',
  '  var ready = performance.now();',
  '  var result = engine.compute({});',
  '  window.__engineStart = { evaluateMs: evaluated - window.__engineScriptAt, readyMs: ready - evaluated,',
  '    firstComputeMs: performance.now() - ready, ok: result.ok };',
  '});',
].join('\n') + '\n');

// The first-render and input clocks are bench/clocks.mjs's (watchReady before any script of the
// page; changeInputs once it is drawn): the end of the frame that shows the result, from
// navigation start or from the change, the frame's style, layout and paint included.

// Another CPU-bound process (issue 18: "no main-thread task over 50 ms ... on a machine running
// another CPU-bound process"): a node loop that spins until stopped.
function startBusyLoop() {
  const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  return () => child.kill();
}

// The RunTasks on the renderer's main thread in a CDP trace: each one's wall time (dur), and the
// longest one's thread (CPU) time (tdur): its wall time less the time the main thread waited for
// a core. Beside the wall time it says whether a long task was the page's own work or the
// machine's other processes' (the busy loop, the bench's browser and node).
function mainThreadTasks(traceBuffer) {
  const trace = JSON.parse(traceBuffer.toString('utf8'));
  const events = trace.traceEvents || trace;
  const main = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args && e.args.name === 'CrRendererMain')
    .map((e) => `${e.pid}:${e.tid}`));
  const tasks = events.filter((e) => e.ph === 'X' && e.name === 'RunTask' && main.has(`${e.pid}:${e.tid}`));
  const longest = tasks.reduce((a, b) => (!a || b.dur > a.dur ? b : a), null);
  return { wallMs: tasks.map((e) => e.dur / 1000), longestThreadMs: longest && longest.tdur !== undefined ? longest.tdur / 1000 : null };
}
const TRACE_CATEGORIES = ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', '__metadata'];

// A step that hangs (a page that never draws) ends the run instead of holding the machine.
const watchdog = setTimeout(() => {
  process.stderr.write('bench: Chromium: no result after 10 minutes; giving up\n');
  process.exit(1);
}, 10 * 60 * 1000);
watchdog.unref();

const server = await startServer(site);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
const out = {};
const progress = (what) => process.stderr.write(`bench: Chromium: ${what}\n`);
try {
  const open = async (path = '/', options = {}) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.addInitScript(watchReady);
    return { context, page, problems };
  };

  // --- Bytes -------------------------------------------------------------------------------
  if (want('bytes')) {
    progress('bytes');
    const { context, page } = await open();
    const bodies = [];
    page.on('response', (response) => bodies.push(response.body().then((body) => ({ url: response.url(), body }), () => null)));
    await page.goto(server.origin + '/');
    await page.waitForFunction(() => window.__drawnAt !== undefined);
    await page.waitForTimeout(2000);
    const files = (await Promise.all(bodies)).filter(Boolean).map(({ url, body }) => ({
      file: new URL(url).pathname, raw: body.length, gzip: gzipSync(body, { level: 6 }).length,
    }));
    out.bytes = {
      files,
      raw: files.reduce((n, f) => n + f.raw, 0),
      gzip: files.reduce((n, f) => n + f.gzip, 0),
    };
    // The reader scrolls to the end: the sections below the article arrive.
    const before = bodies.length;
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForFunction(() => document.documentElement.classList.contains('rl-sections-ready'), null, { timeout: 30000 });
    await page.waitForTimeout(2000);
    // Each file once: the fleet section's workers fetch its bundle and engine file again (the
    // bench serves with no cache; a browser's cache would answer them), and a file the page
    // already had is not new.
    const seen = new Set(files.map((f) => f.file));
    const later = (await Promise.all(bodies.slice(before))).filter(Boolean).map(({ url, body }) => ({
      file: new URL(url).pathname, raw: body.length, gzip: gzipSync(body, { level: 6 }).length,
    })).filter((f) => !seen.has(f.file) && seen.add(f.file));
    out.bytesScrolled = {
      files: later,
      raw: out.bytes.raw + later.reduce((n, f) => n + f.raw, 0),
      gzip: out.bytes.gzip + later.reduce((n, f) => n + f.gzip, 0),
    };
    await context.close();
  }

  // --- First complete render, against the blank page ---------------------------------------
  if (want('render')) {
    progress('first render (fresh loads of the page, the static article and the blank page)');
    const page = [], blank = [], article = [], rest = [];
    const order = [['/', page], ['/static.html', article], ['/blank.html', blank]];
    for (let i = 0; i < RENDER_LOADS; ++i) {
      // Each round starts with the next page (page18: the first load of a round, after the
      // previous round's last context closed, is the slowest; the page was always first).
      for (let j = 0; j < order.length; ++j) {
        const [path, list] = order[(i + j) % order.length];
        const opened = await open(path);
        await opened.page.goto(server.origin + path);
        await opened.page.waitForFunction(() => window.__drawnAt !== undefined, null, { timeout: 30000 });
        list.push(await opened.page.evaluate(() => window.__drawnAt));
        if (path === '/') {
          await opened.page.waitForFunction(() => window.__restAt !== undefined, null, { timeout: 30000 });
          rest.push(await opened.page.evaluate(() => window.__restAt));
        }
        await opened.context.close();
      }
    }
    out.render = {
      pageMs: median(page), staticMs: median(article), blankMs: median(blank), restMs: median(rest),
      ratio: median(page) / median(article), blankRatio: median(page) / median(blank),
      staticOverBlank: median(article) / median(blank), loads: RENDER_LOADS, page, static: article, blank,
    };
  }

  // --- The engine alone: start-up ----------------------------------------------------------
  if (want('engineStart')) {
    progress('engine start-up');
    const runs = [];
    for (let i = 0; i < 7; ++i) {
      const opened = await open('/engine-start.html');
      await opened.page.goto(server.origin + '/engine-start.html');
      await opened.page.waitForFunction(() => window.__engineStart !== undefined, null, { timeout: 30000 });
      runs.push(await opened.page.evaluate(() => window.__engineStart));
      await opened.context.close();
    }
    out.engineStart = {
      loads: runs.length, ok: runs.every((r) => r.ok),
      evaluateMs: median(runs.map((r) => r.evaluateMs)), readyMs: median(runs.map((r) => r.readyMs)),
      firstComputeMs: median(runs.map((r) => r.firstComputeMs)),
    };
  }

  // --- Input change to redrawn views --------------------------------------------------------
  const inputChanges = async (withSections, { fleet = false } = {}) => {
    const { context, page, problems } = await open();
    await page.goto(server.origin + '/');
    await page.waitForFunction(() => window.__drawnAt !== undefined);
    // The engine first (index.html loads it on first need, issue 18): this is the figure of a
    // change once it is there; the first change, which brings it, is `firstInput` below.
    await page.evaluate(() => window.retryLabEngine && window.retryLabEngine.load());
    if (withSections) await page.evaluate(() => window.retryLabSections.load());
    // The fleet section open too (issue 18: "and with the fleet section open"): its bundle
    // loaded, the section mounted and its opening fleet run drawn, settled for a moment.
    if (fleet) {
      await page.evaluate(() => window.retryLabFleetSection.load());
      await page.waitForFunction(() => window.retryLabFleet && window.retryLabFleet.state(), null, { timeout: 60000 });
      await page.evaluate(async () => { while (!(window.retryLabFleet && window.retryLabFleet.state())) await new Promise((r) => setTimeout(r, 50)); await window.retryLabFleet.collapse(); }); // its reproductions computed too (bench/clocks.mjs openFleetSection)
    }
    await page.evaluate(() => document.querySelector('[data-retry-lab] input[data-field="baseBackoffMs"][data-role="number"]').scrollIntoView({ block: 'center' }));
    const times = await page.evaluate(changeInputs, { count: INPUT_CHANGES });
    await context.close();
    return { changes: times.length, medianMs: median(times), p95Ms: percentile(times, 95), maxMs: Math.max(...times), problems };
  };
  // --- The first change, which loads the engine (issue 18) ----------------------------------
  // A fresh page as it opens (the engine not there): inside an animation frame's callback the
  // base backoff is set and an input event dispatched, as in `input`; the clock stops at the end
  // of the frame that shows the recomputed run (a MessageChannel message posted from the rAF
  // callback after the explorable tells its subscribers of the new run): the engine file's
  // fetch, evaluation, compile and start, the opening-run check, the change and its frame.
  if (want('firstInput')) {
    progress('the first change, which loads the engine (fresh loads)');
    const runs = [];
    for (let i = 0; i < 7; ++i) {
      const { context, page } = await open();
      await page.goto(server.origin + '/');
      await page.waitForFunction(() => window.__drawnAt !== undefined);
      runs.push(await page.evaluate(() => new Promise((ok, fail) => {
        const input = document.querySelector('[data-retry-lab] input[data-field="baseBackoffMs"][data-role="number"]');
        if (!input) return fail(new Error('no base backoff field'));
        const hadEngine = window.retryLabEngine ? window.retryLabEngine.ready() : true;
        requestAnimationFrame(() => {
          const t0 = performance.now();
          const off = window.retryLab.subscribe(() => {
            off();
            const computed = performance.now() - t0;
            requestAnimationFrame(() => {
              const channel = new MessageChannel();
              channel.port1.onmessage = () => ok({ ms: performance.now() - t0, computedMs: computed, hadEngine });
              channel.port2.postMessage(0);
            });
          });
          input.value = '450';
          input.dispatchEvent(new Event('input', { bubbles: true }));
        });
      })));
      await context.close();
    }
    out.firstInput = {
      loads: runs.length, hadEngine: runs.some((r) => r.hadEngine),
      medianMs: median(runs.map((r) => r.ms)), maxMs: Math.max(...runs.map((r) => r.ms)),
      computedMedianMs: median(runs.map((r) => r.computedMs)),
    };
  }

  if (want('input')) {
    progress('input changes, with the sections loaded');
    out.input = await inputChanges(true);
  }
  if (want('inputFleet')) {
    progress('input changes, with the sections and the fleet section open');
    out.inputFleet = await inputChanges(true, { fleet: true });
  }
  if (want('inputOpening')) {
    progress('input changes, as the page opens');
    out.inputOpening = await inputChanges(false);
  }

  // --- Playback at 4x: the longest task -----------------------------------------------------
  if (want('playback')) {
    progress('10 s of playback at 4x');
    const { context, page, problems } = await open();
    await page.goto(server.origin + '/');
    await page.waitForFunction(() => window.__drawnAt !== undefined);
    await page.evaluate(() => window.retryLabSections.load());
    await page.evaluate(() => {
      const root = document.querySelector('[data-retry-lab]');
      root.scrollIntoView({ block: 'start' });
      const speed = root.querySelector('select[id$="speed"]');
      speed.value = '4';
      speed.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await page.waitForTimeout(500);
    const stopBusy = startBusyLoop();
    let tasks, playing, playbackThreadMs;
    try {
      await browser.startTracing(page, { categories: TRACE_CATEGORIES });
      await page.evaluate(() => document.querySelector('[data-retry-lab] button[id$="play"]').click());
      await page.waitForTimeout(PLAYBACK_MS);
      playing = await page.evaluate(() => document.querySelector('[data-retry-lab]').classList.contains('rl-playing') ||
        document.querySelector('[data-retry-lab] .rl-playing') !== null);
      ({ wallMs: tasks, longestThreadMs: playbackThreadMs } = mainThreadTasks(await browser.stopTracing()));
    } finally {
      stopBusy();
    }
    out.playback = {
      longestTaskThreadMs: playbackThreadMs,
      seconds: PLAYBACK_MS / 1000, speed: 4, stillPlaying: playing, tasks: tasks.length, busyLoop: true,
      longestTaskMs: Math.max(...tasks), over16ms: tasks.filter((d) => d > 16).length,
      over50ms: tasks.filter((d) => d > 50).length, p99TaskMs: percentile(tasks, 99), problems,
    };
    await context.close();
  }

  // --- A 1,000-point sweep through the page's panel: compute and draw -----------------------
  if (want('sweep')) {
    progress('the 1,000-point sweep');
    const { context, page } = await open();
    await page.goto(server.origin + '/');
    await page.waitForFunction(() => window.__drawnAt !== undefined);
    await page.evaluate(() => window.retryLabSections.load());
    const stopBusy = startBusyLoop();
    let runs, tasks, sweepThreadMs;
    try {
      await browser.startTracing(page, { categories: TRACE_CATEGORIES });
      // Since sweep18e the panel sweeps in two tasks of its own (the engine's call, then the draw
      // of its answer) and set() is a promise of the drawn chart, so each sweep is timed to the
      // painted chart: the clock starts just after a painted frame (a MessageChannel message
      // posted from a rAF callback, which runs once that frame is painted), and stops at the end
      // of the frame that shows the chart (the same message, from the next rAF after the draw).
      // Beside it: the time to the chart drawn (compute, draw and the hop between their tasks),
      // and whether it was drawn before the next frame began (then that frame shows it).
      runs = await page.evaluate(async () => {
        const lab = window.retryLabClients && window.retryLabClients.sweep;
        if (!lab) return null;
        const afterFrame = () => new Promise((ok) => requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => ok(performance.now());
          channel.port2.postMessage(0);
        }));
        const list = [];
        for (let i = 0; i < 17; ++i) {
          await afterFrame();
          const t0 = performance.now();
          let frameBegun = false;
          requestAnimationFrame(() => { frameBegun = true; });
          // (A build before sweep18e draws inside set() and answers nothing: its timings are read after.)
          const { computeMs, drawMs, points } = (await lab.set({ vary: 'deadlineMs', from: 0, to: 20000 + i, points: 1000 })) || lab.getTimings();
          const drawn = performance.now();
          const nextFrame = !frameBegun; // drawn before the next frame began: that frame shows it
          const painted = await afterFrame();
          list.push({ points, computeMs, drawMs, totalMs: drawn - t0, paintedMs: painted - t0, nextFrame });
        }
        return list.slice(2);
      });
      ({ wallMs: tasks, longestThreadMs: sweepThreadMs } = mainThreadTasks(await browser.stopTracing()));
    } finally {
      stopBusy();
    }
    out.sweep = runs && {
      longestTaskThreadMs: sweepThreadMs,
      busyLoop: true, tasks: tasks.length, longestTaskMs: Math.max(...tasks), over50ms: tasks.filter((d) => d > 50).length,
      points: runs[0].points, runs: runs.length,
      computeMs: median(runs.map((r) => r.computeMs)), drawMs: median(runs.map((r) => r.drawMs)),
      totalMs: median(runs.map((r) => r.totalMs)), maxTotalMs: Math.max(...runs.map((r) => r.totalMs)),
      paintedMs: median(runs.map((r) => r.paintedMs)), maxPaintedMs: Math.max(...runs.map((r) => r.paintedMs)),
      inNextFrame: runs.filter((r) => r.nextFrame).length,
    };
    await context.close();
  }

  // --- The engine's calls in Chromium -------------------------------------------------------
  if (want('wasm')) {
    progress('the engine calls');
    const { context, page } = await open();
    await page.goto(server.origin + '/');
    await page.waitForFunction(() => window.__drawnAt !== undefined);
    await page.evaluate(() => window.retryLabEngine && window.retryLabEngine.load());
    const measure = readFileSync(join(here, 'measure.js'), 'utf8').replace(/^if \(typeof module[^\n]*\n/m, '');
    const { cases, rounds } = JSON.parse(readFileSync(process.env.RETRYLAB_CASES || join(here, 'cases.json'), 'utf8'));
    out.wasm = await page.evaluate(`(async () => { ${measure}\n return measureCases(${JSON.stringify(cases)}, ${JSON.stringify(rounds)}, () => window.RetryLabEngine(), () => performance.now()); })()`);
    await context.close();
  }
  out.chromium = browser.version();
} finally {
  await browser.close();
  await server.close();
  rmSync(site, { recursive: true, force: true });
}
console.log(JSON.stringify(out));
