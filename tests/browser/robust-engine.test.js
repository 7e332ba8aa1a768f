// The page against its engine going wrong, and against wear: an engine whose compute() throws
// (a WebAssembly trap) or answers with something that is no result leaves the page usable with
// a message and the last good run; 10,000 recomputes leave the WebAssembly heap where it was
// and the page's JS heap and DOM flat.
//
// The faults are injected by this test only: an init script wraps the page's engine factory
// (the global RetryLabEngine the engine file defines) so that compute() can be told to fail.
// Nothing of this ships.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertClean, browserSuite, openPage, pageTest } from './lib/harness.js';
import { metricsOf } from './lib/ui.js';

const env = browserSuite();

// Runs in the page before its scripts: when the engine file assigns RetryLabEngine, keep the
// real factory and hand the page one whose module is the real module with compute() wrapped.
// window.__rlFault chooses the failure; window.__rlEngine is the module, for heapInUse().
function injectFaults(initialFault) {
  window.__rlFault = initialFault;
  let real;
  Object.defineProperty(window, 'RetryLabEngine', {
    configurable: true,
    set(factory) { real = factory; },
    get() {
      if (typeof real !== 'function') return real;
      return async (...args) => {
        const engine = await real(...args);
        const compute = engine.compute;
        engine.__calls = 0; // compute() calls this engine has had
        (window.__rlEngines = window.__rlEngines || []).push(engine);
        engine.compute = function (inputs) {
          engine.__calls += 1;
          switch (window.__rlFault) {
            case 'trap': throw new WebAssembly.RuntimeError('unreachable');
            case 'abort': throw new Error('Aborted(). Build with -sASSERTIONS for more info.');
            case 'undefined': return undefined;
            case 'number': return 42;
            case 'ok-but-empty': return { ok: true };
            case 'errors-missing': return { ok: false };
            default: return compute.call(this, inputs);
          }
        };
        window.__rlEngine = engine;
        return engine;
      };
    },
  });
}

// harness.js's openPage options, with the fault hook added before the page's scripts run.
const faulty = ({ fault = null } = {}) => ({ init: [injectFaults, fault] });

const general = (page) => page.locator('#rl-general-error').textContent();

describe('an engine that fails', () => {
  test('a compute() that throws or returns no result: a message, the last good run, and the page still works', pageTest(env, faulty(), async ({ page }) => {
    assert.equal(await page.evaluate(() => typeof window.__rlEngine.compute), 'function', 'the fault hook is in place');
    const opening = await metricsOf(page);
    assert.equal(opening.outcome, 'success');
    for (const fault of ['trap', 'abort', 'undefined', 'number', 'ok-but-empty', 'errors-missing']) {
      await page.evaluate((f) => { window.__rlFault = f; }, fault);
      // A number box, a radio and a "Try it" button: every way a run is asked for.
      await page.locator('#rl-maxRetries').fill('0');
      assert.match(await general(page), /engine/i, `${fault}: a message says the engine failed`);
      assert.deepEqual(await metricsOf(page), opening, `${fault}: the last good run stays`);
      await page.getByRole('radio', { name: 'HTTP 503 twice, then succeeds', exact: true }).check();
      assert.match(await general(page), /engine/i, `${fault}: a radio too`);
      assert.deepEqual(await metricsOf(page), opening, `${fault}: still the last good run`);
      const tryIt = page.locator('button[data-try]:visible').first();
      if (await tryIt.count()) {
        await tryIt.click();
        assert.deepEqual(await metricsOf(page), opening, `${fault}: a "Try it" button leaves the last good run`);
      }
      // The page still works: playback steps through the last good run.
      await page.locator('#rl-restart').click();
      await page.locator('#rl-seek').focus();
      await page.keyboard.press('End');
      assert.ok(Number(await page.locator('#rl-seek').getAttribute('aria-valuenow')) > 0, `${fault}: the run can still be played to its end`);
      assert.match(await page.locator('#rl-seek').getAttribute('aria-valuetext'), /3\.7 s|3,700|stops/, `${fault}: the last good run's end`);

      // The engine recovers: the next change recomputes, and the message goes.
      await page.evaluate(() => { window.__rlFault = null; });
      await page.getByRole('radio', { name: 'Charge commits, response lost', exact: true }).check();
      await page.locator('#rl-maxRetries').fill('0');
      assert.equal(await general(page), '', `${fault}: no message once the engine answers`);
      assert.equal((await metricsOf(page)).outcome, 'unknown', `${fault}: maxRetries 0 computed (SPEC §9: unknown)`);
      await page.locator('#rl-maxRetries').fill('3');
      assert.deepEqual(await metricsOf(page), opening, `${fault}: back to the opening run`);
    }
  }));

  test('an engine that threw is never called again: the page starts a fresh one and computes with it', pageTest(env, faulty(), async ({ page }) => {
    const opening = await metricsOf(page);
    const calls = () => page.evaluate(() => window.__rlEngines.map((e) => e.__calls));
    assert.equal((await calls()).length, 1, 'one engine at the start');
    await page.evaluate(() => { window.__rlFault = 'trap'; });
    await page.locator('#rl-maxRetries').fill('0');
    assert.match(await general(page), /engine.*failed/i);
    const atTrap = await calls();
    await page.evaluate(() => { window.__rlFault = null; });
    await page.waitForFunction(() => window.__rlEngines.length === 2, null, { timeout: 5000 });
    await page.locator('#rl-maxRetries').fill('1');
    await page.locator('#rl-maxRetries').fill('0');
    assert.equal(await general(page), '', 'the fresh engine answers');
    assert.equal((await metricsOf(page)).outcome, 'unknown', 'maxRetries 0 computed');
    const after = await calls();
    assert.equal(after[0], atTrap[0], 'the engine that threw was not called again');
    assert.ok(after[1] >= 2, `the fresh engine computed the runs (${after[1]} calls)`);
    await page.locator('#rl-maxRetries').fill('3');
    assert.deepEqual(await metricsOf(page), opening);
  }));

  test('an engine that throws from its first run is reported where the explorable would be', async () => {
    const opened = await openPage(env, faulty({ fault: 'trap' }));
    const { page } = opened;
    assert.equal(await page.evaluate(() => document.documentElement.classList.contains('rl-engine-failed')), true);
    assert.match(await page.locator('[data-retry-lab] [role="alert"]').first().textContent(), /engine/i);
    assert.deepEqual(opened.problems, [], 'handled, not thrown');
  });
});

describe('wear', () => {
  test('10,000 recomputes leave the WebAssembly heap where it was and the JS heap and DOM flat', async (t) => {
    const opened = await openPage(env, faulty());
    const { page, context } = opened;
    const cdp = await context.newCDPSession(page);
    async function measure() {
      await cdp.send('HeapProfiler.collectGarbage');
      await cdp.send('HeapProfiler.collectGarbage');
      const { usedSize } = await cdp.send('Runtime.getHeapUsage');
      const dom = await cdp.send('Memory.getDOMCounters');
      const wasm = await page.evaluate(() => window.__rlEngine.heapInUse());
      return { js: usedSize, nodes: dom.nodes, listeners: dom.jsEventListeners, wasm };
    }
    // heapInUse() is the allocator's count of bytes handed out: it sees a block not freed.
    const probe = await page.evaluate(() => {
      const e = window.__rlEngine;
      const before = e.heapInUse();
      const block = e._malloc(4096);
      const during = e.heapInUse();
      e._free(block);
      return { before, during, after: e.heapInUse() };
    });
    assert.ok(probe.during >= probe.before + 4096, `heapInUse() sees a 4096-byte block: ${JSON.stringify(probe)}`);
    assert.equal(probe.after, probe.before);

    // The page's own compute() (what every view and the story call), over a mix of runs:
    // valid ones, a herd, a long script, and refused ones.
    const runs = (count) => page.evaluate((count) => {
      const cycle = { scenario: 'script' };
      const inputs = [
        {},
        { idempotencyKey: true, maxRetries: 5, jitter: 'full', draws: [0.1, 0.9, 0.5] },
        { scenario: 'script', operation: 'create', idempotencyKey: true, clientTimeoutMs: 100, responseMs: 250,
          script: [{ status: 503, retryAfter: '1' }, { status: 429, retryAfter: 'Sun, 29 Nov 2026 10:00:09 GMT' },
            { dropped: true }, { status: 200, lost: true }, { status: 200 }] },
        { operation: 'read', maxRetries: 4, jitter: 'full', waitBudgetMs: 20000, deadlineMs: null, callers: 50,
          retryOn: ['timeout', '429', '5xx'], retryWritesWithoutKey: false, scenario: 'script', script: [{ status: 429 }] },
        { maxRetries: -1, draws: [0.5, 'x', NaN], bogus: 1 },
        { script: [cycle] },
      ];
      cycle.script = [cycle];
      let ok = 0;
      let expected = 0; // the first four inputs are valid, the last two not
      for (let i = 0; i < count; ++i) {
        if (window.retryLab.compute(inputs[i % inputs.length]).ok) ++ok;
        if (i % inputs.length < 4) ++expected;
      }
      return ok === expected;
    }, count);
    // And through the controls, with the experiment drawn each time (about 10 ms a run; the
    // deadline is the sweep's own field, so the sweep below is not recomputed each time).
    const redraws = (count) => page.evaluate((count) => {
      for (let i = 0; i < count; ++i) window.retryLab.setFields({ deadlineMs: String(3000 + (i % 9) * 100) });
      return window.retryLab.getState().result.ok;
    }, count);

    // Warm up: whatever is made once and kept (compiled code, caches) is made now.
    assert.equal(await runs(1200), true);
    assert.equal(await redraws(500), true); // the JS heap levels off after a few hundred redraws
    const before = await measure();
    assert.equal(await runs(10000), true, 'valid inputs give results, refused ones errors');
    const afterRuns = await measure();
    assert.equal(await redraws(500), true);
    const after = await measure();
    t.diagnostic(`before ${JSON.stringify(before)}; after 10,000 runs ${JSON.stringify(afterRuns)}; after 500 redraws ${JSON.stringify(after)}`);

    assert.equal(afterRuns.wasm, before.wasm, 'WebAssembly bytes in use after 10,000 compute() calls');
    assert.equal(after.wasm, before.wasm, 'WebAssembly bytes in use after 500 redraws');
    // One kept result is about 10 KB: keeping one per call would be 100 MB after the runs, 5 MB
    // after the redraws.
    assert.ok(afterRuns.js - before.js < 256 * 1024, `JS heap grew ${afterRuns.js - before.js} bytes over 10,000 compute() calls`);
    assert.ok(after.js - afterRuns.js < 512 * 1024, `JS heap grew ${after.js - afterRuns.js} bytes over 500 redraws`);
    assert.ok(Math.abs(after.nodes - before.nodes) < 200, `DOM nodes ${before.nodes} -> ${after.nodes}`);
    assert.equal(after.listeners, before.listeners, 'event listeners');
    await assertClean(t, assert, opened);
  });
});
