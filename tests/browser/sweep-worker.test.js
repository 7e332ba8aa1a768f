// The sweep panel computes its sweeps off the page's main thread (issue 18: no main-thread task
// over 50 ms during sweeps on a machine running another CPU-bound process; web/sweep/worker.js):
// in a worker the engine's call and the decoding of its answer are not in the page's task. The
// answers are the engine's own, an answer to a request that a newer one replaced is never drawn,
// a form error is not overwritten by the sweep that was in flight, and where no worker can start
// the page computes the sweep itself.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, pageTest } from './lib/harness.js';

const env = browserSuite({ engine: true });

const boundaryTexts = (page) => page.locator('#sw-boundaries li .sw-boundary-text').allTextContents();
const sweepOf = (page) => page.evaluate(() => window.retryLabClients.sweep.getSweep());

describe('the sweep, off the main thread', () => {
  test('a sweep is computed in a worker, and its answer is the engine’s own', pageTest(env, {}, async ({ page }) => {
    const request = { vary: 'deadlineMs', from: 0, to: 20000, points: 1000 };
    const timings = await page.evaluate((r) => window.retryLabClients.sweep.set(r), request);
    assert.equal(timings.where, 'worker');
    assert.equal(timings.points, 1000);
    assert.ok(timings.engineMs >= 0 && timings.computeMs >= timings.engineMs, `the round trip holds the engine's call: ${JSON.stringify(timings)}`);
    const inputs = await page.evaluate(() => window.retryLab.getState().result.inputs);
    const expected = env.engine.sweep({ inputs, ...request });
    assert.equal(expected.ok, true);
    assert.deepEqual(await sweepOf(page), expected);
    assert.deepEqual(await boundaryTexts(page), expected.boundaries.map((b) => `${b.text.charAt(0).toUpperCase()}${b.text.slice(1)}.`));
    assert.equal(await page.locator('#cl-sweep').getAttribute('data-sweep-state'), 'ready');
  }));

  test('only the newest request is drawn: an earlier one still in the worker is dropped', pageTest(env, {}, async ({ page }) => {
    const drawn = await page.evaluate(async () => {
      const lab = window.retryLabClients.sweep;
      await lab.set({ vary: 'deadlineMs', from: 0, to: 20000, points: 1000 });
      const seen = [];
      const chart = document.querySelector('#sw-chart');
      const watch = new MutationObserver(() => seen.push(lab.getSweep().points.length));
      watch.observe(chart, { childList: true });
      // Three requests in one task: the first goes to the worker, the third replaces the second.
      const answers = await Promise.all([
        lab.set({ from: 0, to: 10000, points: 500 }),
        lab.set({ from: 0, to: 10000, points: 7 }),
        lab.set({ from: 3000, to: 4000, points: 11 }),
      ]);
      await new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
      watch.disconnect();
      return { seen, answers: answers.map((a) => a.points), now: lab.getSweep().points.length, from: lab.getSweep().points[0].value };
    });
    assert.deepEqual(drawn.seen, [11], 'one chart drawn, the newest request’s');
    assert.deepEqual(drawn.answers, [11, 11, 11], 'every set() settles with the sweep shown');
    assert.deepEqual([drawn.now, drawn.from], [11, 3000]);
  }));

  test('a form error asked after a sweep keeps its message: the sweep in flight is not drawn over it', pageTest(env, {}, async ({ page }) => {
    const before = await page.evaluate(async () => {
      await window.retryLabClients.sweep.set({ vary: 'deadlineMs', from: 0, to: 20000, points: 1000 });
      return window.retryLabClients.sweep.getSweep();
    });
    const after = await page.evaluate(async () => {
      const lab = window.retryLabClients.sweep;
      const inFlight = lab.set({ from: 3000, to: 4000, points: 11 }); // to the worker
      const refused = lab.set({ from: '' }); // in the same task: not a number
      await Promise.all([inFlight, refused]);
      await new Promise((ok) => setTimeout(ok, 100)); // long past the worker's answer
      return {
        message: document.querySelector('#sw-from-error').textContent,
        invalid: document.querySelector('#sw-from').getAttribute('aria-invalid'),
        stale: document.querySelector('[data-client-lab] .sw-stale') !== null,
        sweep: lab.getSweep(),
      };
    });
    assert.equal(after.message, 'Enter a number.');
    assert.equal(after.invalid, 'true');
    assert.equal(after.stale, true, 'the chart is marked stale');
    assert.deepEqual(after.sweep, before, 'the last good sweep stays');
  }));

  test('where no worker can start, the page computes the sweep itself', pageTest(env, {
    init: [() => { delete window.Worker; }],
  }, async ({ page }) => {
    const timings = await page.evaluate(() => window.retryLabClients.sweep.set({ vary: 'deadlineMs', from: 3000, to: 4000, points: 7 }));
    assert.equal(timings.where, 'main');
    assert.deepEqual(await boundaryTexts(page), ['A second charge, outcome success instead of unknown from a deadline of 3,700 ms.']);
    assert.equal(await page.locator('#cl-sweep').getAttribute('data-sweep-state'), 'ready');
  }));
});
