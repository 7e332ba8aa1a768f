// Shared set-up for the browser tests: the built site, Debian's Chromium through
// playwright-core, and the one page recorder (watchedPage: console errors, CSP violations and
// every request; openPage also refuses each request that leaves 127.0.0.1).

import { after, afterEach, before, beforeEach, test as nodeTest } from 'node:test';
import { AsyncLocalStorage } from 'node:async_hooks';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from './server.js';
import { DIST, REPO, checkBuilt } from './dist.js';
import { loadEngineInNode } from './engine.js';
import { serve, siteCopy } from './sites.js';

export { DIST, REPO, checkBuilt };
export const ARTIFACTS = join(REPO, 'build/artifacts');
// Debian's headless shell (the package chromium-headless-shell, built from the same source and
// version as chromium): Blink and V8 without the browser's UI layers, which Playwright also runs
// its headless tests in. Under ctest's two slots the first 24 browser files took 336 s in it
// against 523 s in the full browser (0.64×, BENCHMARKS.md, session 14); every browser test passes
// in either. The full browser when the shell is missing (a machine set up before scripts/setup
// installed it); CHROMIUM= picks either.
const SHELL = '/usr/bin/chromium-headless-shell';
export const CHROMIUM = process.env.CHROMIUM || (existsSync(SHELL) ? SHELL : '/usr/bin/chromium');

const FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

// One browser, one server for a test file. playwright-core's launch() gives every browser
// a fresh, temporary user-data dir of its own and removes it on close. A context opened
// through `newContext` (pageFor's, when a reused page is not free or cannot be used) while a
// test runs is closed at that test's end (endTest); one opened outside a test (a suite's own
// before hook) by close().
//
// openPage's reusable pages (issue 31: a fresh context costs a renderer process, about half a
// second of CPU on these machines, for every test): a pool of contexts with one page each per
// kind (CSP kept or bypassed), kept for the file's tests; a test takes at most one of each kind
// and gives it back at its end. One test at a time (a file's default) uses one of each kind, as
// before; tests run side by side (a describe with `concurrency`, see `test` below) each take
// their own. Each taker gets it reset to what a fresh one is: the pages a test opened beside
// it closed, routes, permissions and cookies cleared, the last test's init script and
// listeners gone, the mouse at (0, 0) on about:blank, then its own viewport and media. Nothing else of a document outlives its
// navigation (the page keeps no storage; playwright's routing turns the HTTP cache off).
// RETRYLAB_FRESH_PAGES=1 gives every openPage a fresh context instead, to rule reuse out.
// What a test does to a reused page or its context that must not reach the next test: an
// init script it adds is removed at the next reset; a call that cannot be undone (an exposed
// function, headers, offline, a location) spoils the page, and the next test gets a new one.
function guardReuse(entry) {
  for (const target of [entry.page, entry.context]) {
    const addInitScript = target.addInitScript.bind(target);
    target.addInitScript = async (...args) => {
      const script = await addInitScript(...args);
      entry.dispose.push(() => script.dispose());
      return script;
    };
    for (const name of ['exposeFunction', 'exposeBinding', 'setExtraHTTPHeaders', 'setOffline', 'setGeolocation', 'setHTTPCredentials']) {
      if (typeof target[name] !== 'function') continue;
      const call = target[name].bind(target);
      target[name] = (...args) => { entry.spoilt = true; return call(...args); };
    }
  }
}

// SIGKILL to each child process of this one and its group (the browser playwright-core launched).
function killChildren() {
  const listed = spawnSync('pgrep', ['-P', String(process.pid)], { encoding: 'utf8' }).stdout || '';
  for (const pid of listed.split(/\s+/).filter(Boolean).map(Number)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      try { process.kill(pid, 'SIGKILL'); } catch { /* gone already */ }
    }
  }
}

// What each running test holds (issue 31: tests that mostly wait on the clock run side by side,
// each with its own pages): the contexts it opened and the reusable pages it took, one store a
// test, made by browserSuite's beforeEach. A test run through `test` or `pageTest` below carries
// its store along its calls (AsyncLocalStorage); any other test finds it as the one test now
// running, which is what a file that runs its tests one at a time always has.
const running = new AsyncLocalStorage();
const stores = new WeakMap(); // node's test context → its store

// The store of the test whose code calls: its own, or the only one running; null outside a test.
function currentStore(env) {
  const own = running.getStore();
  if (own && env.tests.has(own)) return own;
  if (env.tests.size <= 1) return env.tests.values().next().value || null;
  throw new Error('a browser test that runs beside others must run in its store: define it with the harness\'s test() or pageTest()');
}

// `fn` run in the store browserSuite made for its test `t` (as it is when nothing made one).
const inStore = (fn) => function runInStore(t, ...rest) {
  const store = t && stores.get(t);
  return store ? running.run(store, () => fn.call(this, t, ...rest)) : fn.call(this, t, ...rest);
};

// node:test's test(), its body run in the store of its pages: what a test in a describe with
// `concurrency` uses, so that its pages are its own. Same arguments: (name, [options], fn).
export function test(...args) {
  return nodeTest(...args.map((a) => (typeof a === 'function' ? inStore(a) : a)));
}

export async function openBrowser() {
  checkBuilt();
  const server = await startServer(DIST);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
  const tests = new Set(); // the stores of the tests now running
  const reusable = new Map(); // bypassCSP → [{ context, page, taken, spoilt, dispose: [] }]
  const pool = (kind) => reusable.get(kind) || reusable.set(kind, []).get(kind);
  const drop = (kind, entry) => {
    const list = pool(kind);
    if (list.includes(entry)) list.splice(list.indexOf(entry), 1);
  };
  const closeAll = (contexts) => Promise.all([...contexts].map((c) => c.close()));
  const env = {
    server,
    browser,
    tests,
    async newContext(options) {
      const store = currentStore(env);
      const context = await browser.newContext(options);
      store?.contexts.add(context);
      return context;
    },
    // A reusable page of the kind, reset, for the test now running; null when there is none to
    // give (outside a test, reuse turned off, or this test holds one of the kind already).
    async takePage(bypassCSP) {
      const store = currentStore(env);
      if (!store || process.env.RETRYLAB_FRESH_PAGES) return null;
      if ([...store.taken].some((e) => e.kind === bypassCSP)) return null;
      let entry = pool(bypassCSP).find((e) => !e.taken);
      // Taken before any await (a test beside this one takes another) and given back at this
      // test's end whatever happens to its reset.
      const take = (e) => { e.taken = true; store.taken.add(e); return e; };
      if (entry) take(entry);
      if (entry && (entry.spoilt || entry.page.isClosed())) { // a test closed the page, or spoilt it
        drop(bypassCSP, entry);
        store.taken.delete(entry);
        await entry.context.close();
        entry = null;
      }
      if (!entry) {
        entry = take({ kind: bypassCSP, context: null, page: null, taken: false, spoilt: false, dispose: [] });
        pool(bypassCSP).push(entry);
        try {
          entry.context = await browser.newContext({ bypassCSP });
          entry.page = await entry.context.newPage();
        } catch (error) {
          drop(bypassCSP, entry);
          await entry.context?.close().catch(() => {});
          throw error;
        }
        const made = entry;
        made.context.on('close', () => drop(bypassCSP, made));
        guardReuse(entry);
      } else {
        const { context, page } = entry;
        for (const undo of entry.dispose.splice(0)) await undo();
        await Promise.all(context.pages().filter((p) => p !== page).map((p) => p.close()));
        await context.unrouteAll({ behavior: 'ignoreErrors' });
        await page.unrouteAll({ behavior: 'ignoreErrors' });
        await context.clearPermissions();
        await context.clearCookies();
        await page.goto('about:blank');
        await page.mouse.move(0, 0);
      }
      return entry;
    },
    // `t`: node's test context, which names the test in afterEach as in beforeEach.
    startTest(t) {
      const store = { contexts: new Set(), taken: new Set() };
      tests.add(store);
      if (t) stores.set(t, store);
      return store;
    },
    async endTest(t) {
      const store = (t && stores.get(t)) || (tests.size === 1 ? [...tests][0] : null);
      if (!store) return;
      tests.delete(store);
      for (const entry of store.taken) entry.taken = false;
      await closeAll(store.contexts);
    },
    // A browser that does not exit within 15 s of close() is killed with its process group
    // (playwright-core starts it as a group leader, a child of this process): a fresh clone's
    // run once hung here 14 minutes after fleet-link's last test passed, its heavy run's workers
    // still busy.
    async close() {
      const closed = await Promise.race([browser.close().then(() => true), new Promise((done) => setTimeout(done, 15000, false).unref())]);
      if (!closed) killChildren();
      await server.close();
    },
  };
  return env;
}

// The browser fixture of a test file: one browser and server, opened before its first test
// and closed after its last, and every page a test opens closed after that test, whether it
// passed or failed, so no test closes its own. `engine: true` also loads the engine file in
// node (env.engine, env.compute) for tests that hold the page to the engine's own answers.
// The env object is filled in before the first test runs. A file's own set-up that needs the
// browser's server goes in env.setUp(fn) (node runs a file's top-level before hooks side by
// side, so another before hook could not count on the server), its clean-up in env.tearDown(fn).
export function browserSuite({ engine = false } = {}) {
  const setUps = [];
  const tearDowns = [];
  const env = {
    setUp: (fn) => setUps.push(fn),
    tearDown: (fn) => tearDowns.push(fn),
  };
  before(async () => {
    if (engine) {
      env.engine = await loadEngineInNode();
      env.compute = (inputs) => env.engine.compute(inputs);
    }
    Object.assign(env, await openBrowser());
    for (const fn of setUps) await fn(env);
  });
  beforeEach((t) => { env.startTest?.(t); });
  afterEach(async (t) => { await env.endTest?.(t); });
  after(async () => {
    for (const fn of tearDowns) await fn(env);
    await env.close?.();
  });
  return env;
}

// A page for the test now running, in a context with `options` (playwright's newContext
// options): the file's reused page, reset and given them, when they are all a page can take
// (colour scheme, viewport, motion, CSP); else a fresh context's. `on(event, fn)` listens on
// the page for this test only (a reused page drops the listener at its next reset).
const PAGE_OPTIONS = new Set(['colorScheme', 'viewport', 'reducedMotion', 'bypassCSP']);
export async function pageFor(env, options = {}) {
  const reusable = Object.keys(options).every((k) => PAGE_OPTIONS.has(k));
  const taken = reusable && env.takePage ? await env.takePage(Boolean(options.bypassCSP)) : null;
  const context = taken ? taken.context : await env.newContext(options);
  const page = taken ? taken.page : await context.newPage();
  if (taken) {
    const { viewport = { width: 1280, height: 720 }, colorScheme = 'light', reducedMotion = 'no-preference' } = options;
    await page.setViewportSize(viewport);
    await page.emulateMedia({ media: null, colorScheme, reducedMotion });
  }
  const on = (event, fn) => {
    page.on(event, fn);
    if (taken) taken.dispose.push(() => page.off(event, fn));
  };
  return { context, page, reused: Boolean(taken), on };
}

// Recorded before any script of the page runs: violations of the page's CSP (also those
// raised inside shadow roots, which reach the document composed).
function recordViolations() {
  window.__violations = [];
  const note = (e) => window.__violations.push(`${e.violatedDirective}: ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`);
  document.addEventListener('securitypolicyviolation', note, true);
}

// The page recorder, the one every browser test's page is watched by: a page for the test now
// running (pageFor: the file's reused page when `contextOptions` are all a page can take, else a
// fresh context's; closed after the test either way) that remembers console errors and CSP
// warnings, page errors, every request, and the CSP violations the page sees.
//   problems: one line each for a console error, a CSP console message and a page error;
//   requests: every URL asked for; violations(): the CSP violations of the page now shown;
//   close(): done with it before the test ends (a reused page is left for the next test, which
//   resets it; a fresh context is closed).
export async function watchedPage(env, contextOptions = {}) {
  const { context, page, reused, on } = await pageFor(env, contextOptions);
  const problems = [];
  const requests = [];
  on('console', (msg) => {
    if (msg.type() === 'error' || /Content Security Policy|Refused to/i.test(msg.text())) problems.push(`console ${msg.type()}: ${msg.text()}`);
  });
  on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  on('request', (request) => requests.push(request.url()));
  await page.addInitScript(recordViolations); // on a reused page, removed at the next reset (guardReuse)
  return {
    context,
    page,
    problems,
    requests,
    violations: () => page.evaluate(() => window.__violations),
    close: () => (reused ? page.goto('about:blank') : context.close()),
  };
}

// watchedPage's page, opened once it is ready, where nothing may leave 127.0.0.1 (offHost:
// each request to another host, refused).
//   path: a page on the test server; url: any address instead (a file:// page);
//   sections: also load the sections below the article (the traces, the client lab), which
//     the page itself loads only when the reader nears them (web/load-sections.js); false
//     leaves the page as a reader first sees it;
//   bypassCSP: for axe-core, which is injected as an inline script;
//   init: [fn, arg], one more script to run before the page's own (a fault to inject);
//   inputs: open the explorable's full control panel (true), or leave the first screen (false);
//   engine: also load the page's engine (true), which index.html loads only on first need
//     (web/main.js: `rl-ready` is the first screen drawn, from the build's data); false leaves
//     it out, as a reader's page opens. The sections need it, so `sections` loads it too.
export async function openPage(env, {
  colorScheme = 'light', viewport = { width: 1280, height: 900 }, reducedMotion = 'no-preference',
  path = '/', url = null, sections = true, bypassCSP = false, init = null, route = null, inputs = true, engine = true,
} = {}) {
  const watched = await watchedPage(env, { colorScheme, viewport, reducedMotion, bypassCSP });
  const { context, page } = watched;
  const offHost = [];
  await context.route('**/*', (route) => {
    const where = new URL(route.request().url());
    if (where.origin === env.server.origin || ['data:', 'blob:', 'file:'].includes(where.protocol)) return route.continue();
    offHost.push(route.request().url());
    return route.abort();
  });
  if (init) await page.addInitScript(...init);
  if (route) await page.route(...route); // [url pattern, handler]: ahead of the host check above
  await page.goto(url || env.server.origin + path);
  await readySteps(page, { engine, sections, inputs });
  return { ...watched, offHost };
}

// openPage's steps once the page is there: ready (or the engine failed, which the page shows),
// then the engine, the sections and "All the inputs" as asked.
async function readySteps(page, { engine, sections, inputs }) {
  await page.waitForFunction(() => document.documentElement.classList.contains('rl-ready') || document.documentElement.classList.contains('rl-engine-failed'));
  if (engine) await loadEngine(page);
  if (sections) await loadSections(page);
  // inputs: open "All the inputs", as a reader does at their first interaction (the page
  // opens with the key switch alone); false leaves the first screen as it is.
  if (inputs) await page.evaluate(() => window.retryLab && window.retryLab.openInputs && window.retryLab.openInputs());
}

// openPage's steps again in `opened`, a page of the running test's that it is done with (issue
// 31: a new context is a renderer process of its own, about half a CPU·s): through about:blank
// to `path` on the test server, in `viewport` and `colorScheme` when given, its recorder
// (console, CSP, other hosts) kept, so assertClean on it also covers what it showed before.
export async function reopenPage(env, opened, { path = '/', viewport = null, colorScheme = null, engine = true, sections = true, inputs = true } = {}) {
  const { page } = opened;
  if (viewport) await page.setViewportSize(viewport);
  if (colorScheme) await page.emulateMedia({ colorScheme });
  await page.goto('about:blank');
  await page.goto(env.server.origin + path);
  await readySteps(page, { engine, sections, inputs });
  return opened;
}

// The page's engine loaded (or failed, which the page shows): true if it is there.
export function loadEngine(page) {
  return page.evaluate(() => (window.retryLabEngine ? window.retryLabEngine.load().then(() => true, () => false) : true));
}

// Nothing went wrong on the page: no console error, no CSP violation, no other host.
export async function assertClean(t, assert, opened) {
  const violations = await opened.violations();
  assert.deepEqual(opened.problems, [], 'console errors');
  assert.deepEqual(violations, [], 'CSP violations');
  assert.deepEqual(opened.offHost, [], 'requests to another host');
}

// A test on one fresh page: opens it with openPage's `options`, runs `body({ page, opened, t })`,
// then checks that nothing went wrong on the page (assertClean). The page is closed after the
// test by browserSuite, pass or fail.
export function pageTest(env, options, body) {
  return inStore(async (t) => {
    const opened = await openPage(env, options);
    await body({ page: opened.page, opened, t });
    await assertClean(t, assert, opened);
  });
}

// A page kept for a group of a file's tests that read one state and leave it as they found it
// (issue 31: the fleet's reproductions, computed once for the file instead of once a test):
// openPage's page with `options`, opened at the group's first call (whichever test runs first)
// in a context of its own that no test's end closes, and closed after the file's last test.
// keptPage(env, options) at the file's top level; `await kept()` in each test of the group.
export function keptPage(env, options = {}) {
  let opened = null;
  env.tearDown(async () => {
    if (opened) await opened.then((o) => o.context.close(), () => {});
  });
  return () => {
    if (!opened) {
      const own = { ...env, takePage: null, newContext: (o) => env.browser.newContext(o) };
      opened = openPage(own, options).catch((error) => {
        opened = null;
        throw error;
      });
    }
    return opened;
  };
}

export async function artifactPath(name) {
  await mkdir(ARTIFACTS, { recursive: true });
  return join(ARTIFACTS, name);
}

// The sections below the article, as if the reader had scrolled to them: resolves once they
// are drawn (or have said that they could not load). Nothing to do on a page without them.
export async function loadSections(page) {
  return page.evaluate(() => (window.retryLabSections ? window.retryLabSections.load().then(() => 'loaded', (e) => `failed: ${e.message}`) : 'none'));
}

// --- what several test files share -----------------------------------------------------------

// axe-core's script, injected as an inline script (so into a page opened with bypassCSP).
export const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// axe-core's violations on `page` (in the element `selector`, or the whole document), one
// "id: first targets" line each: an empty list when it finds nothing.
export async function axeViolations(page, selector = null) {
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.addScriptTag({ content: AXE });
  const result = await page.evaluate((s) => window.axe.run(s ? document.querySelector(s) : document, { resultTypes: ['violations'] }), selector);
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).slice(0, 3).join(', ')}`);
}

// The native retrysim, and what `retrysim --link <hash> --format markdown` prints: `text`, and
// `rows` its metric table, label → { before, after, change } (bold marks taken off).
export const RETRYSIM = process.env.RETRYSIM || join(REPO, 'build/native/bindings/cli/retrysim');
export function retrysimMarkdown(hash) {
  assert.ok(existsSync(RETRYSIM), `no retrysim at ${RETRYSIM}: build the native preset`);
  const run = spawnSync(RETRYSIM, ['--link', hash, '--format', 'markdown'], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const rows = {};
  for (const line of run.stdout.split('\n')) {
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    if (cells.length !== 4 || cells[0] === 'metric' || cells[0].startsWith('---')) continue;
    rows[cells[0].replace(/\*\*/g, '')] = { before: cells[1], after: cells[2], change: cells[3].replace(/\*\*/g, '') };
  }
  return { rows, text: run.stdout };
}

// Copy as Markdown on an opened compare page (`opened`: openPage's), and what `retrysim --link
// <hash> --format markdown --base-url <the page's address>` prints for the same link: the one
// Markdown writer's two doors (docs/compare.md §5). `origin`: the page's, for the clipboard.
export async function copiedAndPrintedMarkdown({ page, context }, hash, origin) {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  await page.getByRole('button', { name: 'Copy as Markdown' }).click();
  await page.getByText('Markdown copied.').waitFor();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const base = await page.evaluate(() => location.href.split('#')[0]);
  const run = spawnSync(RETRYSIM, ['--link', hash, '--format', 'markdown', '--base-url', base], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return { copied, printed: run.stdout, base };
}

// A comparison's difference lines as drawn (compare/view.js differenceRows) inside `root` (a
// selector; `host`: the id of a <retry-lab> whose shadow root holds them): metric → { label,
// before, after, change, changed, flag }.
export function differenceLines(page, { root = '', host = null } = {}) {
  return page.evaluate(([r, id]) => {
    const scope = id ? document.getElementById(id).shadowRoot : document;
    return Object.fromEntries([...scope.querySelectorAll(`${r} .rl-compare-diffs tbody tr`)].map((row) => [row.dataset.metric, {
      label: row.querySelector('th').textContent,
      before: row.querySelector('[data-side="before"]').textContent,
      after: row.querySelector('[data-side="after"]').textContent,
      change: row.querySelector('.rl-diff-change').textContent,
      changed: row.dataset.changed === 'true',
      flag: row.dataset.flag || null,
    }]));
  }, [root, host]);
}

// A host page of <retry-lab> (the element's script beside it), titled `title`, holding `body`.
export const elementHost = (title, body, lead = 'A blog post about retries.') => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title><link rel="icon" href="favicon.svg">
<script src="retry-lab-element.js" defer></script></head>
<body><main><h1>${title}</h1><p>${lead}</p>${body}</main></body></html>`;

// Host pages of a test file (`files`: { 'host.html': text, … }) beside a copy of the site, served
// on a port of their own from the file's set-up to its end: { server, site } once set up.
export function hostSite(env, files) {
  const host = { server: null, site: null };
  env.setUp(async () => {
    host.site = siteCopy({ files });
    host.server = await serve(host.site.dir);
  });
  env.tearDown(async () => {
    await host.server?.close();
    host.site?.remove();
  });
  return host;
}
