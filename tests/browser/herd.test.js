// Trace F's herd: the seed's check on fifty callers, the evenly spread and no-jitter
// comparisons, histograms that follow the callers and the seed, bad values named at their
// field, and a million callers computed off the main thread so the page stays responsive.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST, artifactPath, browserSuite, openPage, pageTest } from './lib/harness.js';
import { TR, herdFigures, herdSettled, matrixRow, sum, tracesState } from './lib/traces-ui.js';

const env = browserSuite();

const fCheckLine = async (page) => (await matrixRow(page, 'F')).result.find((l) => /callers:/.test(l));

describe('trace F’s herd', () => {
  test('fifty callers: the check passes; evenly spread draws put ten in each bucket; no jitter puts all fifty in one', pageTest(env, {}, async ({ page }) => {
    await herdSettled(page);
    const f = await herdFigures(page);
    // "Trace F: fifty simulated callers all receive 429 with no header at the same instant."
    assert.equal(sum(f.policy.counts), 50);
    // "The first-failure ceiling is 0.5 seconds" in "100-millisecond bucket[s]": five of them.
    assert.equal(f.policy.counts.length, 5);
    const ticks = await page.locator(`${TR('herd-figures')} figure[data-run="policy"] .th-tick`).allTextContents();
    assert.deepEqual(ticks, ['0–100', '100–200', '200–300', '300–400', '400–500']);
    // "A test passes if at least four of the five buckets are occupied and no bucket holds more than twenty-five."
    assert.ok(f.policy.counts.filter((c) => c > 0).length >= 4 && Math.max(...f.policy.counts) <= 25);
    assert.match(f.policy.check, /^Check passes: \d of 5 buckets occupied \(at least 4 needed\), fullest bucket \d+ \(at most 25\)\.$/);
    assert.match(f.policy.cls, /th-pass/);
    // "with evenly spread draws, ten callers retry in each 100-millisecond bucket"
    assert.deepEqual(f.even.counts, [10, 10, 10, 10, 10]);
    assert.match(f.even.check, /^Check passes/);
    // The "no jitter" comparison: every caller waits the whole ceiling, so all land in one bucket.
    assert.deepEqual([...f.none.counts].sort((a, b) => a - b), [0, 0, 0, 0, 50]);
    assert.match(f.none.check, /^Check fails: 1 of 5 buckets occupied .* Every retrying caller lands in one bucket\.$/);
    assert.match(f.none.cls, /th-fail/);
  }));

  test('the histograms and trace F’s row follow the seed and the number of callers', pageTest(env, {}, async ({ page }) => {
    await herdSettled(page);
    const seed1 = await herdFigures(page);
    const rowSeed1 = await matrixRow(page, 'F');

    await page.locator(TR('seed')).fill('2');
    await herdSettled(page);
    const seed2 = await herdFigures(page);
    assert.equal(sum(seed2.policy.counts), 50);
    assert.notDeepEqual(seed2.policy.counts, seed1.policy.counts, 'another seed, other draws');
    assert.deepEqual(seed2.even.counts, seed1.even.counts, 'supplied draws do not depend on the seed');
    const rowSeed2 = await matrixRow(page, 'F');
    assert.notDeepEqual(rowSeed2.attempts[0], rowSeed1.attempts[0], 'caller 1’s first draw comes from the new seed');
    assert.match(await fCheckLine(page), new RegExp(`fullest ${Math.max(...seed2.policy.counts)} — check (passes|fails)\\.$`));

    await page.locator(TR('next-seed')).click();
    assert.equal(await page.locator(TR('seed')).inputValue(), '3');
    assert.equal((await tracesState(page)).herd.seed, 3);
    await herdSettled(page);
    assert.notDeepEqual((await herdFigures(page)).policy.counts, seed2.policy.counts);

    await page.locator(TR('callers')).fill('200');
    await herdSettled(page);
    let f = await herdFigures(page);
    assert.equal(sum(f.policy.counts), 200);
    assert.deepEqual(f.even.counts, [40, 40, 40, 40, 40], 'evenly spread: a fifth in each of the five buckets');
    assert.deepEqual([...f.none.counts].sort((a, b) => a - b), [0, 0, 0, 0, 200]);
    assert.match(f.policy.check, /\(at most 100\)/, 'none above half the callers');
    assert.match(await fCheckLine(page), /^200 callers: /);

    // The range moves on a log scale, from the keyboard.
    const range = page.locator(TR('callers-range'));
    await range.focus();
    await page.keyboard.press('Home');
    assert.equal(await page.locator(TR('callers')).inputValue(), '1');
    assert.equal(await range.getAttribute('aria-valuetext'), '1 caller');
    await herdSettled(page);
    f = await herdFigures(page);
    assert.match(f.policy.check, /One caller is not a herd/);
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.locator(TR('callers')).inputValue(), '2', 'the next stop: 1, 2, 5, 10 …');
    assert.equal(await range.getAttribute('aria-valuetext'), '2 callers');
  }));

  test('a value the engine refuses is named at its field, and the last good figures stay', pageTest(env, {}, async ({ page }) => {
    await herdSettled(page);
    const before50 = await herdFigures(page);
    const error = (name) => page.locator(TR(`${name}-error`)).textContent();

    await page.locator(TR('callers')).fill('0');
    assert.match(await error('callers'), /^Callers must be a whole number from 1 to 1000000/, 'the engine’s own sentence');
    assert.equal(await page.locator(TR('callers')).getAttribute('aria-invalid'), 'true');
    assert.deepEqual(await herdFigures(page), before50);
    await page.locator(TR('callers')).fill('many');
    assert.match(await error('callers'), /whole number of callers/);
    await page.locator(TR('callers')).fill('50');
    assert.equal(await error('callers'), '');
    assert.equal(await page.locator(TR('callers')).getAttribute('aria-invalid'), null);

    for (const bad of ['-1', '9007199254740992', '1.5']) {
      await page.locator(TR('seed')).fill(bad);
      assert.match(await error('seed'), /from 0 to 2\^53 − 1/, bad);
    }
    await page.locator(TR('seed')).fill('9007199254740991'); // 2^53 − 1, the largest seed
    assert.equal(await error('seed'), '');
    await herdSettled(page);
    assert.equal((await tracesState(page)).herd.seed, 9007199254740991);
    assert.equal(sum((await herdFigures(page)).policy.counts), 50);
  }));

  test('a million callers: computed in a worker while the page stays responsive', pageTest(env, {}, async ({ page, t }) => {
    await herdSettled(page);
    // Watch the main thread: long tasks, and the longest gap between animation frames.
    await page.evaluate(() => {
      window.__herdWatch = { longTasks: [], maxGap: 0, last: performance.now(), on: true };
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__herdWatch.longTasks.push(Math.round(e.duration));
      }).observe({ type: 'longtask' });
      const frame = (now) => {
        const w = window.__herdWatch;
        w.maxGap = Math.max(w.maxGap, now - w.last);
        w.last = now;
        if (w.on) requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    });
    const started = Date.now();
    await page.locator(TR('callers')).fill('1000000');
    assert.equal((await tracesState(page)).herdBusy, true, 'the herd is still being computed');
    assert.match(await page.locator(TR('herd-status')).textContent(), /^Computing 1,000,000 callers…$/);
    // While it computes, the page answers: the editor recomputes its row at once.
    await page.locator('#tr-ed-draws').fill('0.9, 0.75');
    assert.equal((await matrixRow(page, 'custom')).attempts[1][2], 'ceiling 1.00 s × draw 0.90 → 0.90 s');
    await herdSettled(page);
    const wall = Date.now() - started;
    const watch = await page.evaluate(() => { window.__herdWatch.on = false; return window.__herdWatch; });
    const timing = (await tracesState(page)).herdTiming;
    assert.equal(timing.where, 'worker');
    assert.equal(timing.callers, 1000000);

    const f = await herdFigures(page);
    assert.equal(sum(f.policy.counts), 1000000);
    assert.deepEqual([...f.none.counts].sort((a, b) => a - b), [0, 0, 0, 0, 1000000]);
    // The card says in words why evenly spread draws stop (the bound from engine.schema()), not the engine's raw refusal.
    assert.equal(f.even.check, 'Not drawn: the engine takes at most 100,000 draws.');
    assert.match(await fCheckLine(page), /^1,000,000 callers: 5 of 5 buckets occupied/);

    assert.ok(watch.longTasks.every((d) => d < 200), `no long task on the main thread (${watch.longTasks.join(', ')} ms)`);
    assert.ok(watch.maxGap < 250, `frames kept coming (longest gap ${Math.round(watch.maxGap)} ms)`);

    // For the record: the same herd on the main thread, as the page would block without the worker.
    const mainMs = await page.evaluate(() => {
      const inputs = { operation: 'read', maxRetries: 4, baseBackoffMs: 500, maxBackoffMs: 8000, jitter: 'full', waitBudgetMs: 20000, deadlineMs: null, retryOn: ['timeout', '429', '5xx'], retryWritesWithoutKey: false, scenario: 'script', script: [{ status: 429 }], callers: 1000000 };
      const t0 = performance.now();
      window.retryLab.compute(inputs);
      return performance.now() - t0;
    });
    const report = {
      callers: 1000000, workerMs: Math.round(timing.ms), firstHistogramMs: Math.round(timing.firstMs), pageWallMs: Math.round(timing.wallMs),
      testWallMs: wall, mainThreadComputeMs: Math.round(mainMs),
      longTasksMs: watch.longTasks, longestFrameGapMs: Math.round(watch.maxGap),
    };
    await writeFile(await artifactPath('herd-timing.json'), `${JSON.stringify(report, null, 2)}\n`);
    t.diagnostic(`herd of 1,000,000 in the worker: first histogram after ${report.firstHistogramMs} ms, all three runs ${report.workerMs} ms; one run on the main thread: ${report.mainThreadComputeMs} ms; longest frame gap meanwhile ${report.longestFrameGapMs} ms`);
  }));

  test('from file://, where a worker cannot start, large herds compute on the main thread', async () => {
    const { page, context, problems } = await openPage(env, { url: pathToFileURL(join(DIST, 'index.html')).href });
    // Past the size computed on the spot, where a page served over HTTP would start a worker.
    await page.locator(TR('callers')).fill('20000');
    await herdSettled(page);
    assert.equal((await tracesState(page)).herdTiming.where, 'main');
    assert.equal(sum((await herdFigures(page)).policy.counts), 20000);
    assert.deepEqual(problems, []);
  });
});
