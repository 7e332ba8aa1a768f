// The sweep panel in the browser: the seed's boundaries named in words (a second charge from
// a deadline of 3,700 ms; the outage needs 2 retries), the chart operated from the keyboard
// alone, the text table checked point by point against the engine run in node, refused
// values, of overlapping requests only the newest drawn (issue 18: a sweep is two tasks, the
// engine's call and the draw), the chart patched in place in a box of its own height, and the
// time a 1,000-point sweep takes to compute and draw (logged, never asserted: scripts/bench
// reports it).

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST, browserSuite, pageTest } from './lib/harness.js';
import { ID, metricsOf, setInputs } from './lib/ui.js';

const env = browserSuite({ engine: true });

const boundaryTexts = (page) => page.locator('#sw-boundaries li .sw-boundary-text').allTextContents();
const slider = async (page) => {
  const el = page.locator('#sw-chart');
  return { now: Number(await el.getAttribute('aria-valuenow')), text: await el.getAttribute('aria-valuetext') };
};

// A sweep runs a frame after the change, while its panel is on screen: bring it into view
// and wait until the panel shows the current sweep.
async function sweepReady(page) {
  await page.locator('#cl-sweep').scrollIntoViewIfNeeded();
  await page.locator('#cl-sweep[data-sweep-state="ready"]').waitFor();
}

// Fill the sweep form as a reader does.
async function sweepOver(page, { vary, from, to, points }) {
  if (vary) await page.getByLabel('Input to sweep', { exact: true }).selectOption({ label: vary });
  if (from !== undefined) await page.locator('#sw-from').fill(String(from));
  if (to !== undefined) await page.locator('#sw-to').fill(String(to));
  if (points !== undefined) await page.locator('#sw-points').fill(String(points));
  await sweepReady(page);
}

describe('the sweep', () => {
  test('a deadline sweep over the opening run names the second charge at 3,700 ms', pageTest(env, {}, async ({ page }) => {
    // The page opens sweeping the deadline from 0 to 20,000 ms.
    await sweepReady(page);
    assert.deepEqual(await boundaryTexts(page), [
      'A first charge, outcome unknown instead of failed from a deadline of 200 ms.',
      'A second charge, outcome success instead of unknown from a deadline of 3,700 ms.',
    ]);
    // A narrower range whose points step past 3,700 (3,000, 3,166.67 …): the boundary is exact.
    await sweepOver(page, { from: 3000, to: 4000, points: 7 });
    assert.deepEqual(await boundaryTexts(page), ['A second charge, outcome success instead of unknown from a deadline of 3,700 ms.']);
    assert.equal(await page.locator('#sw-summary').textContent(), 'Across 7 points of overall deadline from 3,000 ms to 4,000 ms, the run changes at 1 boundary:');
    assert.deepEqual(await page.locator('#sw-chart .sw-boundary').evaluateAll((els) => els.map((e) => e.dataset.value)), ['3700']);
  }));

  test('the sweep follows the experiment, but only while its panel is on screen', pageTest(env, {}, async ({ page }) => {
    await page.waitForFunction(() => window.retryLabClients.sweep.getSweep() !== null); // made when the page is idle
    await setInputs(page, { maxRetries: 0 }); // far above the panel
    await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 50))));
    assert.equal(await page.locator('#cl-sweep').getAttribute('data-sweep-state'), 'pending');
    assert.equal(await page.evaluate(() => window.retryLabClients.sweep.getSweep().inputs.maxRetries), 3, 'not swept off screen');
    await sweepReady(page);
    assert.equal(await page.evaluate(() => window.retryLabClients.sweep.getSweep().inputs.maxRetries), 0);
    // No retries: the deadline only decides whether the one attempt is sent (SPEC §9).
    assert.deepEqual(await boundaryTexts(page), ['A first charge, outcome unknown instead of failed from a deadline of 200 ms.']);
    // Changed and back, in one go, to what the chart shows: nothing to sweep again.
    const state = await page.evaluate(() => {
      window.retryLab.setFields({ maxRetries: '3' });
      const between = document.querySelector('#cl-sweep').dataset.sweepState;
      window.retryLab.setFields({ maxRetries: '0' });
      return [between, document.querySelector('#cl-sweep').dataset.sweepState];
    });
    assert.deepEqual(state, ['pending', 'ready']);
  }));

  test('the outage swept over maximum retries: the boundary between 1 and 2 retries', pageTest(env, {}, async ({ page }) => {
    await setInputs(page, { scenario: 'HTTP 503 twice, then succeeds' });
    await sweepOver(page, { vary: 'Maximum retries' });
    assert.equal(await page.locator('#sw-from').inputValue(), '0');
    assert.equal(await page.locator('#sw-to').inputValue(), '10');
    assert.deepEqual(await boundaryTexts(page), [
      '2 attempts instead of 1 from 1 retry.',
      'A first charge, outcome success instead of failed from 2 retries.',
    ]);
    // SPEC §9: with one retry the run ends at 900 ms with no charge; with two, at 2,100 ms.
    await page.locator('#sw-details summary').click();
    await page.locator('#sw-table tbody tr').first().waitFor(); // the table is drawn on the toggle event
    const rows = await page.locator('#sw-table tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    assert.equal(rows.length, 11);
    assert.deepEqual(rows[1], ['1', '2', '0', '0', 'failed', '900 ms', 'error 503']);
    assert.deepEqual(rows[2], ['2', '3', '1', '0', 'success', '2,100 ms', 'success']);
  }));

  test('the chart is a slider over the points, operable from the keyboard alone', pageTest(env, {}, async ({ page }) => {
    await sweepOver(page, { from: 3000, to: 4000, points: 11 }); // 3,000, 3,100 … 4,000
    await page.locator('#sw-points').focus();
    // Tab on to the "Go to it" button of the one boundary, then to the chart.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'sw-go-0');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'sw-chart');
    assert.ok(await page.locator('#sw-chart').evaluate((el) => getComputedStyle(el).outlineStyle !== 'none'), 'a visible focus ring');
    assert.equal(await page.locator('#sw-chart').getAttribute('role'), 'slider');
    await page.keyboard.press('Home');
    assert.deepEqual(await slider(page), { now: 3000, text: 'Overall deadline 3,000 ms: 1 attempt, 1 charge, outcome unknown, 3,000 ms elapsed; the agent reports timeout' });
    for (let i = 0; i < 7; i += 1) await page.keyboard.press('ArrowRight');
    assert.deepEqual(await slider(page), { now: 3700, text: 'Overall deadline 3,700 ms: 2 attempts, 2 charges, outcome success, 3,700 ms elapsed; the agent reports success' });
    await page.keyboard.press('ArrowLeft');
    assert.equal((await slider(page)).now, 3600);
    await page.keyboard.press('End');
    assert.equal((await slider(page)).now, 4000);
    await page.keyboard.press('PageDown');
    assert.equal((await slider(page)).now, 3900);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    assert.equal((await slider(page)).now, 4000, 'the cursor stops at the end');
    const cursorX = await page.locator('#sw-chart .sw-cursor line').getAttribute('x1');
    const lastX = await page.locator('#sw-chart .sw-elapsed-line').evaluate((p) => p.getAttribute('d').split('L').pop().split(' ')[0]);
    assert.equal(Number(cursorX), Number(lastX), 'the cursor line moved to the last point');
    // The boundary's button moves the cursor to the first point past it and back to the chart.
    await page.keyboard.press('Shift+Tab');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'sw-go-0');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'sw-chart');
    assert.equal((await slider(page)).now, 3700);
    // Run the point in the experiment: the deadline box takes the value, the run follows.
    await page.keyboard.press('ArrowLeft');
    await page.locator('#sw-run-point').focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.locator(ID('deadlineMs')).inputValue(), '3600');
    const m = await metricsOf(page);
    assert.deepEqual([m.attempts, m.charges, m.outcome], ['1', '1', 'unknown']);
    assert.equal((await slider(page)).now, 3600, 'the sweep keeps its cursor when only the swept input changed');
  }));

  test('the table of points matches the engine’s sweep, run in node with the same request', pageTest(env, {}, async ({ page }) => {
    await page.getByLabel('Client', { exact: true }).selectOption('aws-botocore-standard');
    await sweepOver(page, { vary: 'Client timeout per attempt', from: 100, to: 6000, points: 60 });
    await page.locator('#sw-details-summary').focus();
    await page.keyboard.press('Enter');
    await page.locator('#sw-table tbody tr').first().waitFor(); // the table is drawn on the toggle event
    const inputs = await page.evaluate(() => window.retryLab.getState().result.inputs);
    assert.deepEqual(inputs.retryOnStatuses, [500, 502, 503, 504], 'the sweep runs the chosen client');
    const expected = env.engine.sweep({ inputs, vary: 'clientTimeoutMs', from: 100, to: 6000, points: 60 });
    assert.equal(expected.ok, true);
    const fmt = (n) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });
    const rows = await page.locator('#sw-table tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    assert.deepEqual(rows, expected.points.map((p) => [fmt(p.value), String(p.attempts), String(p.charges), String(p.replays), p.outcome, `${fmt(p.elapsedMs)} ms`, p.agentReport]));
    assert.equal(await page.locator('#sw-table caption').textContent(), 'The 60 points of the sweep over the client timeout per attempt');
    assert.deepEqual(await boundaryTexts(page), expected.boundaries.map((b) => `${b.text.charAt(0).toUpperCase()}${b.text.slice(1)}.`));
  }));

  test('values the sweep cannot take are named beside their box, and the last good sweep stays', pageTest(env, {}, async ({ page }) => {
    await sweepReady(page);
    const before = await boundaryTexts(page);
    await page.locator('#sw-from').fill('');
    await sweepReady(page);
    assert.equal(await page.locator('#sw-from-error').textContent(), 'Enter a number.');
    assert.equal(await page.locator('#sw-from').getAttribute('aria-invalid'), 'true');
    await page.locator('#sw-from').fill('30000'); // past `to`
    await sweepReady(page);
    assert.match(await page.locator('#sw-to-error').textContent(), /to must be greater than from/);
    await sweepOver(page, { from: 0, points: 1001 });
    assert.match(await page.locator('#sw-points-error').textContent(), /points must be a whole number from 2 to 1000/);
    assert.deepEqual(await boundaryTexts(page), before);
    assert.equal(await page.locator('[data-client-lab] .sw-stale').count(), 1, 'the chart is marked stale');
    await sweepOver(page, { points: 1000 });
    assert.equal(await page.locator('#sw-points-error').textContent(), '');
    assert.equal(await page.locator('[data-client-lab] .sw-stale').count(), 0);
  }));

  test('of overlapping requests only the newest is asked for and drawn, and a form found wrong meanwhile is not drawn over', pageTest(env, {}, async ({ page }) => {
    await sweepReady(page);
    const seen = await page.evaluate(async () => {
      const lab = window.retryLabClients.sweep;
      const engine = await window.retryLabEngine.load();
      const real = engine.sweep;
      const asked = []; // the `to` of each request the engine was asked
      const drawn = []; // the run's retries and the last point of the sweep on the page, each time the chart changed
      const chart = document.querySelector('#sw-chart');
      const watch = new MutationObserver(() => drawn.push(`${lab.getSweep().inputs.maxRetries}:${lab.getSweep().points.at(-1).value}`));
      watch.observe(chart, { subtree: true, childList: true, attributes: true });
      const step = async (during, changes, after = null) => {
        asked.length = 0;
        drawn.length = 0;
        let once = true;
        engine.sweep = (request) => {
          asked.push(request.to);
          if (once && during) { // a newer request while the engine computes this one
            once = false;
            if (typeof during === 'function') during();
            else lab.set(during);
          }
          if (once && after) { // a newer request once the engine has answered, before the draw
            once = false;
            queueMicrotask(() => lab.set(after));
          }
          return real(request);
        };
        for (const c of changes.slice(0, -1)) lab.set(c);
        await lab.set(changes.at(-1));
        await new Promise((ok) => setTimeout(ok, 0)); // anything still to come would come now
        return { asked: [...asked], drawn: [...new Set(drawn)], stale: chart.parentNode.closest('.sw-stale') !== null };
      };
      try {
        return {
          oneTask: await step(null, [{ vary: 'deadlineMs', from: 0, to: 11000, points: 50 }, { to: 12000 }, { to: 13000 }]),
          beforeDraw: await step(null, [{ to: 14500 }], { to: 15000 }),
          duringCompute: await step({ to: 15000 }, [{ to: 14000 }]),
          runChangedDuringCompute: await step(() => window.retryLab.setFields({ maxRetries: '1' }), [{ to: 17000 }]),
          errorDuringCompute: await step({ from: 'soon' }, [{ to: 16000 }]),
          error: document.querySelector('#sw-from-error').textContent,
        };
      } finally {
        engine.sweep = real;
        watch.disconnect();
      }
    });
    // Three requests in one task: one sweep, of the last.
    assert.deepEqual(seen.oneTask, { asked: [13000], drawn: ['3:13000'], stale: false });
    // A request made while the engine computes an older one, or once it has answered but before
    // the answer is drawn: both asked, only the newer drawn.
    assert.deepEqual(seen.beforeDraw, { asked: [14500, 15000], drawn: ['3:15000'], stale: false });
    assert.deepEqual(seen.duringCompute, { asked: [14000, 15000], drawn: ['3:15000'], stale: false });
    // The experiment's run changed while the engine computed the sweep of the one before: that
    // sweep is never drawn, the new run's is (a frame later, as for any change of the run).
    assert.deepEqual(seen.runChangedDuringCompute, { asked: [17000, 17000], drawn: ['1:17000'], stale: false });
    // A value found wrong while an answer is on its way: the answer is not drawn over the
    // message; the chart keeps the last good sweep, marked stale.
    assert.deepEqual(seen.errorDuringCompute, { asked: [16000], drawn: [], stale: true });
    assert.equal(seen.error, 'Enter a number.');
    assert.equal(await page.evaluate(() => window.retryLabClients.sweep.getSweep().points.at(-1).value), 17000);
  }));

  test('a new sweep patches the chart in place, in a box of the chart\'s own height, redrawn to a new width', pageTest(env, {}, async ({ page }) => {
    await sweepReady(page);
    const geometry = () => page.evaluate(() => {
      const box = document.querySelector('#sw-chart');
      const svg = box.querySelector('svg');
      return { boxWidth: box.clientWidth, boxHeight: box.clientHeight, width: Number(svg.getAttribute('width')), height: svg.getBoundingClientRect().height };
    });
    const kept = await page.evaluate(async () => {
      const box = document.querySelector('#sw-chart');
      const before = [...box.querySelectorAll('svg, .sw-elapsed-line, .sw-charges-line')];
      await window.retryLabClients.sweep.set({ from: 1000, to: 9000, points: 200 });
      const after = [...box.querySelectorAll('svg, .sw-elapsed-line, .sw-charges-line')];
      return before.length === 3 && before.every((el, i) => el === after[i]);
    });
    assert.ok(kept, 'the same svg and lines, their attributes brought up to date');
    const wide = await geometry();
    assert.deepEqual([wide.width, wide.height], [wide.boxWidth, wide.boxHeight], 'the chart fills its box, nothing cut off');
    await page.setViewportSize({ width: 390, height: 800 });
    await page.waitForFunction(() => {
      const box = document.querySelector('#sw-chart');
      return Number(box.querySelector('svg').getAttribute('width')) === box.clientWidth;
    });
    const narrow = await geometry();
    assert.ok(narrow.boxWidth < wide.boxWidth / 2, 'a narrower box');
    assert.deepEqual([narrow.width, narrow.height], [narrow.boxWidth, narrow.boxHeight]);
  }));

  test('from file:// the panel sweeps the same way, with the same boundaries', pageTest(env, { url: pathToFileURL(join(DIST, 'index.html')).href }, async ({ page }) => {
    await sweepReady(page);
    assert.deepEqual(await boundaryTexts(page), [
      'A first charge, outcome unknown instead of failed from a deadline of 200 ms.',
      'A second charge, outcome success instead of unknown from a deadline of 3,700 ms.',
    ]);
    const timings = await page.evaluate(() => window.retryLabClients.sweep.set({ from: 3000, to: 4000, points: 7 }));
    assert.equal(timings.points, 7);
    assert.deepEqual(await page.locator('#sw-chart .sw-boundary').evaluateAll((els) => els.map((e) => e.dataset.value)), ['3700']);
  }));

  test('timing: a 1,000-point sweep computed and drawn (logged, not asserted)', pageTest(env, {}, async ({ page, t }) => {
    // Through the form, as a reader would: 1,000 points over the deadline.
    await sweepOver(page, { points: 1000 });
    const viaForm = await page.evaluate(() => window.retryLabClients.sweep.getTimings());
    assert.equal(viaForm.points, 1000, 'the measured sweep has 1,000 points');
    // Then repeated sweeps, each timed to the next frame (the browser's paint of the chart).
    const runs = await page.evaluate(async () => {
      const lab = window.retryLabClients.sweep;
      const out = [];
      for (let i = 0; i < 12; i += 1) {
        const t0 = performance.now();
        const { computeMs, drawMs, points } = await lab.set({ vary: 'deadlineMs', from: 0, to: 20000 + i, points: 1000 });
        await new Promise((ok) => requestAnimationFrame(() => ok()));
        out.push({ points, computeMs, drawMs, toNextFrameMs: performance.now() - t0 });
      }
      return out;
    });
    const warm = runs.slice(2);
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const figure = {
      points: 1000,
      firstViaForm: { computeMs: viaForm.computeMs, drawMs: viaForm.drawMs },
      medianComputeMs: median(warm.map((r) => r.computeMs)),
      medianDrawMs: median(warm.map((r) => r.drawMs)),
      medianToNextFrameMs: median(warm.map((r) => r.toNextFrameMs)),
      maxComputePlusDrawMs: Math.max(...warm.map((r) => r.computeMs + r.drawMs)),
    };
    t.diagnostic(`1,000-point sweep: ${JSON.stringify(figure)}`);
    console.log(`# sweep timing (1,000 points, headless Chromium): ${JSON.stringify(figure)}`);
    assert.ok(runs.every((r) => r.points === 1000));
  }));
});
