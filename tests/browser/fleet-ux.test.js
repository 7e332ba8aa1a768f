// Issue 35, the fleet section at the level of the article: acting changes what is on screen
// (item 1: the storm chart in view where the reader acts, the run before kept as a ghost, a map
// cell's run brought into view with the focus left on the cell), and errors in the reader's
// words at the field (item 5). Expected words are the field table's bounds written as the page
// writes numbers (web/format.js), and verdicts are the conformance cases' (FLEET.md §9.5).

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AXE, browserSuite, keptPage, pageTest } from './lib/harness.js';

const env = browserSuite();

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 720 };

async function fleetSettled(page) {
  await page.evaluate(() => window.retryLabFleetSection.load());
  await page.waitForFunction(() => window.retryLabFleet && window.retryLabFleet.state(), null, { timeout: 20000 });
  await page.evaluate(() => window.retryLabFleet.ready.then(() => window.retryLabFleet.settled()));
}
// After a change: its run computed and drawn, and the section's last look done (the storm
// brought into view, the look after its run is drawn, any smooth scroll it began ended:
// window.retryLabFleet.looked(), web/fleet/near.js). A change's handler starts its run at once,
// so settled() already waits for it.
async function changeSettled(page) {
  await page.evaluate(() => window.retryLabFleet.settled().then(() => window.retryLabFleet.looked()));
}
// Where an element's box is against the window: whole inside it, or not.
const wholeInView = (page, selector) => page.locator(selector).evaluate((el) => {
  const r = el.getBoundingClientRect();
  return { inView: r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight, top: Math.round(r.top), bottom: Math.round(r.bottom), height: window.innerHeight };
});
// The storm chart the reader sees: the figure's, or the one drawn again near the controls.
async function chartSeen(page) {
  const main = await wholeInView(page, '#fl-chart');
  if (main.inView) return { which: 'figure', ...main };
  if (!(await page.locator('#fl-near-chart').count())) return { which: 'none', ...main };
  return { which: 'near', ...(await wholeInView(page, '#fl-near-chart')) };
}
const scrollTo = (page, selector, block) => page.locator(selector).evaluate((el, b) => el.scrollIntoView({ block: b }), block);

// A slow phone's fleet run, in order every time (an init script, before the page's own): once
// armed, the fleet worker's results reach the page only after the page's smooth scroll to the
// storm has begun (so they are drawn, and the words above the controls change height, while it
// runs), and its end (`done`, after which the page takes its last look) only after that scroll's
// scrollend. `order` records what happened, for the test to check that it did. That order came
// by chance on a loaded machine (once in ctest) and in 1 of 8 runs with the page's CPU
// throttled 8× (CDP), each time leaving the switch 22 px above the window's top, the storm
// whole below it.
function slowPhoneRun() {
  const Native = window.Worker;
  const slow = { armed: false, order: [], results: [], done: [] };
  window.retryLabSlowPhone = slow;
  const flush = (list) => list.splice(0).forEach((deliver) => deliver());
  addEventListener('scroll', () => {
    if (!slow.armed || slow.order.includes('scroll')) return;
    slow.order.push('scroll');
    flush(slow.results);
  });
  addEventListener('scrollend', () => {
    if (!slow.armed || !slow.order.includes('scroll')) return;
    slow.armed = false;
    slow.order.push('scrollend');
    flush(slow.results);
    flush(slow.done);
  });
  window.Worker = class extends Native {
    addEventListener(type, fn, options) {
      if (type !== 'message') return super.addEventListener(type, fn, options);
      return super.addEventListener(type, (event) => {
        const { done, result } = event.data;
        const deliver = () => {
          if (done || result) slow.order.push(done ? 'done' : 'result');
          fn(event);
        };
        if (!slow.armed) deliver();
        else if (done) slow.done.push(deliver);
        else if (result && !slow.order.includes('scroll')) slow.results.push(deliver);
        else deliver();
      }, options);
    }
  };
}
// Armed, its record begun, once the test's own scroll has been told (its scroll and scrollend
// events come in the frame after it): two frames on.
const armSlowPhone = (page) => page.evaluate(() => new Promise((resolve) => {
  requestAnimationFrame(() => requestAnimationFrame(() => {
    Object.assign(window.retryLabSlowPhone, { armed: true, order: [] });
    resolve();
  }));
}));

describe('the fleet section: acting changes what is on screen (issue 35, item 1)', () => {
  for (const reducedMotion of ['reduce', 'no-preference']) {
    test(`at 1280×720 (${reducedMotion} motion) a gate ticked leaves the storm chart in view beside it, the first gate and the last`, pageTest(env, { viewport: LAPTOP, reducedMotion, sections: false }, async ({ page }) => {
      await fleetSettled(page);
      for (const [gate, block] of [['bucket', 'center'], ['breaker', 'start']]) {
        await scrollTo(page, `[data-gate="${gate}"]`, block);
        await page.locator(`[data-gate-on="${gate}"]`).check();
        await changeSettled(page);
        const seen = await chartSeen(page);
        assert.equal(seen.which, 'figure', `${gate}: the sticky figure beside the controls (${JSON.stringify(seen)})`);
        assert.ok((await wholeInView(page, `[data-gate-on="${gate}"]`)).inView || gate === 'breaker', `${gate}: the switch stays in view`);
        await page.locator(`[data-gate-on="${gate}"]`).uncheck();
        await changeSettled(page);
      }
      assert.equal(await page.locator('#fl-near').count(), 0, 'no second chart on a wide screen');
    }));

    test(`at 390×844 (${reducedMotion} motion) a gate ticked, a slider moved and a preset chosen each draw the storm in view next to the control`, pageTest(env, { viewport: PHONE, reducedMotion, sections: false }, async ({ page }) => {
      await fleetSettled(page);
      await scrollTo(page, '[data-gate="bucket"]', 'center');
      await page.locator('[data-gate-on="bucket"]').check();
      await changeSettled(page);
      let seen = await chartSeen(page);
      assert.equal(seen.which, 'near', JSON.stringify(seen));
      assert.ok(seen.inView, `the gate: ${JSON.stringify(seen)}`);
      assert.ok((await wholeInView(page, '[data-gate-on="bucket"]')).inView, 'the switch stays in view');
      // The figure drawn near shows the run on show: the bucket's recovery at 29 s (§9.5).
      assert.equal(await page.locator('#fl-near-verdict').textContent(), 'recovered 9 s after the slowdown ended');
      assert.equal(await page.locator('[data-gate="bucket"] + #fl-near').count(), 1, 'right after the gate');
      // A slider further up, moved with the keyboard: the figure moves there, and the slider
      // stays where it was on the screen.
      const slider = '#fl-controls input[type="range"] >> nth=0';
      await scrollTo(page, slider, 'center');
      const before = (await wholeInView(page, slider)).top;
      await page.locator(slider).focus();
      await page.keyboard.press('ArrowRight');
      await changeSettled(page);
      seen = await chartSeen(page);
      assert.equal(seen.which, 'near');
      assert.ok(seen.inView, `the slider: ${JSON.stringify(seen)}`);
      assert.ok((await wholeInView(page, slider)).inView, 'the slider stays in view');
      assert.ok(Math.abs((await wholeInView(page, slider)).top - before) < 400, 'the slider did not jump away');
      assert.equal(await page.locator('.fl-control + #fl-near').count(), 1, 'right after the slider');
      assert.equal(await page.locator('#fl-near').count(), 1, 'one figure near the controls');
      // A preset, below.
      await scrollTo(page, '#fl-preset', 'center');
      await page.selectOption('#fl-preset', { index: 1 });
      await changeSettled(page);
      seen = await chartSeen(page);
      assert.ok(seen.inView, `the preset: ${JSON.stringify(seen)}`);
      assert.equal(await page.locator('#fl-preset + #fl-near').count(), 1, 'right after the preset’s choice, above its card');
    }));
  }

  // The page's smooth scroll aims at a place fixed when it begins; the run's words drawn above
  // while it runs move the page under it (scroll anchoring), so it ends further down than it
  // aimed. The look once it ends must bring the switch back, not only keep the storm whole.
  test('at 390×844 a gate ticked on a slow phone (its run drawn while the page scrolls to the storm, ended after) leaves the switch and the storm both in view', pageTest(env, { viewport: PHONE, reducedMotion: 'no-preference', sections: false, init: [slowPhoneRun] }, async ({ page }) => {
    await fleetSettled(page);
    await scrollTo(page, '[data-gate="bucket"]', 'center');
    await armSlowPhone(page);
    await page.locator('[data-gate-on="bucket"]').check();
    await changeSettled(page);
    // The run without a key and the one with it drawn while the page scrolled, ended after.
    assert.deepEqual(await page.evaluate(() => window.retryLabSlowPhone.order), ['scroll', 'result', 'result', 'scrollend', 'done']);
    const seen = await chartSeen(page);
    const sw = await wholeInView(page, '[data-gate-on="bucket"]');
    assert.equal(seen.which, 'near', JSON.stringify(seen));
    assert.ok(seen.inView && sw.inView, `the storm ${JSON.stringify(seen)} and the switch ${JSON.stringify(sw)}`);
    assert.equal(await page.locator('#fl-near-verdict').textContent(), 'recovered 9 s after the slowdown ended');
  }));

  test('the run before stays on the chart as a faint ghost after a change, said in its description; none at first, nor for a link', pageTest(env, { viewport: LAPTOP, sections: false }, async ({ page }) => {
    await fleetSettled(page);
    const chart = page.locator('#fl-chart svg');
    assert.equal(await chart.locator('.fl-ghost').count(), 0, 'no ghost at first');
    assert.equal((await page.evaluate(() => window.retryLabFleet.state())).ghost, false);
    assert.doesNotMatch(await chart.locator('desc').textContent(), /faint/);
    await page.locator('[data-gate-on="bucket"]').check();
    await changeSettled(page);
    // Drawn from the one state: the opening run (still down, §9.5) under the bucket's.
    assert.equal((await page.evaluate(() => window.retryLabFleet.state())).ghost, true);
    assert.equal(await chart.locator('path.fl-ghost.fl-offered').count(), 1);
    assert.equal(await chart.locator('path.fl-ghost.fl-succeeded').count(), 1);
    assert.equal(await chart.locator('path.fl-ghost-queue').count(), 1);
    assert.ok((await chart.textContent()).includes('faint: the run before'));
    assert.match(await chart.locator('desc').textContent(), /The faint lines are the run before this change, for comparison: its attempts offered peaked at [\d,.]+ per second, and it was still down when new requests stopped\./);
    // The run before is the last one shown: back to the opening run, the bucket's is the ghost.
    await page.locator('#fl-reset').click();
    await changeSettled(page);
    assert.match(await chart.locator('desc').textContent(), /and it recovered 9 s after the slowdown ended\./);
    // The cursor's redraw keeps it.
    await page.locator('#fl-chart').focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await chart.locator('path.fl-ghost.fl-offered').count(), 1);
  }));

  // Issue 35 item 2: the chart draws what a metastable failure is — the server flat out while
  // nearly nothing it serves reaches a caller still waiting — on axes every run shares, at the
  // card's width, and says it to a screen reader in its description and its table.
  for (const viewport of [{ width: 1440, height: 900 }, LAPTOP]) {
    test(`at ${viewport.width} px the storm draws what the server did under its capacity, fills its card, and says it in words and in its table`, pageTest(env, { viewport, sections: false }, async ({ page }) => {
      await fleetSettled(page);
      const chart = page.locator('#fl-chart svg');
      // At the card's width: the drawing as wide as its box (it was held to 720 px).
      const { svgWidth, boxWidth } = await page.locator('#fl-chart').evaluate((box) => ({ svgWidth: box.querySelector('svg').getBoundingClientRect().width, boxWidth: box.clientWidth }));
      assert.ok(Math.abs(svgWidth - boxWidth) <= 1, `the chart ${svgWidth} px in its ${boxWidth} px box`);
      // The answers after the caller had gone, hatched, under the answers in time.
      assert.equal(await chart.locator('path.fl-work.fl-late').count(), 1);
      assert.match(await chart.locator('path.fl-work.fl-late').getAttribute('fill'), /^url\(#fl-svg-chart-hatch\)$/);
      assert.equal(await chart.locator('pattern#fl-svg-chart-hatch').count(), 1);
      assert.equal(await chart.locator('path.fl-work.fl-in-time').count(), 1);
      const labels = await chart.locator('text.fl-label').allTextContents();
      for (const l of ['attempts offered /s', 'capacity /s', 'successes /s', 'timeouts /s', 'served, caller gone /s', 'served in time /s', 'waiting']) assert.ok(labels.includes(l), `${l} in ${labels.join(', ')}`);
      // The shared axes: time to twice the 60 s of new requests, the queue in decades.
      const ticks = await chart.locator('text.fl-tick').allTextContents();
      assert.ok(ticks.includes('120 s') && ticks.includes('100,000') && ticks.includes('queue (log scale)'), ticks.join(' '));
      // In words: the opening run's bins from 10 to 60 s, summed here.
      const bins = await page.evaluate(() => window.retryLabFleet.state().result.timeline.bins.slice(10, 60));
      const served = bins.reduce((a, b) => a + b.served, 0);
      const late = bins.reduce((a, b) => a + b.late, 0);
      assert.ok(late > 0.9 * served, `${late} of ${served}`);
      assert.ok((await chart.locator('desc').textContent()).includes(`the server served ${served.toLocaleString('en-US')} attempts; ${late.toLocaleString('en-US')} answers (${Math.round((100 * late) / served)} % of that) came after the caller had stopped waiting.`));
      // The table, second by second, with what the server did.
      await page.locator('#fl-table').evaluate((el) => { el.closest('details').open = true; });
      const heads = await page.locator('#fl-table th[scope="col"]').allTextContents();
      assert.ok(heads.includes('served /s') && heads.includes('answers after the caller had gone /s'), heads.join(' | '));
      const row30 = await page.locator('#fl-table tbody tr >> nth=30').locator('td').allTextContents();
      const col = (name) => row30[heads.indexOf(name) - 1];
      const b30 = await page.evaluate(() => window.retryLabFleet.state().result.timeline.bins[30]);
      assert.deepEqual([col('served /s'), col('answers after the caller had gone /s')], [String(b30.served), String(b30.late)]);
    }));
  }

  // Issue 34 on the page: the gates before every send are the table's rows, as switches with their
  // real defaults, and each says what it did in the run on show, from the result.
  test('adaptive mode, client-side throttling and admission control are gates with the table’s defaults, each saying what it did; with a throttling server the 429s are drawn', pageTest(env, { viewport: LAPTOP, path: '/#v=1&view=fleet&server.admission.ratePerSecond=1.5&server.admission.burst=2&policy.retryOn=timeout,5xx,429', sections: false }, async ({ page }) => {
    await fleetSettled(page);
    const names = await page.locator('[data-gate]').evaluateAll((els) => els.map((el) => el.dataset.gate));
    const table = await page.evaluate(() => window.retryLabFleet.state().result.request.gates);
    assert.deepEqual(names.slice(-3), ['adaptive', 'local', 'admissionControl']);
    assert.ok(table && typeof table === 'object');
    // docs/throttling.md §5 (grpc-go) and §7 (Envoy): their defaults in the fields.
    const value = (gate, field) => page.locator(`[data-gate="${gate}"] [data-gate-field="${field}"]`).inputValue();
    assert.deepEqual([await value('local', 'windowMs'), await value('local', 'bins'), await value('local', 'ratio'), await value('local', 'padding')], ['30000', '100', '2', '8']);
    assert.deepEqual([await value('admissionControl', 'srThreshold'), await value('admissionControl', 'maxRejectionProbability')], ['95', '80']);
    assert.equal(await page.locator('label[for="fl-g-local-ratio"]').textContent(), 'K: requests per accept');
    assert.equal(await page.locator('label[for="fl-g-admissionControl-srThreshold"]').textContent(), 'rejects below success %');
    // The server throttles (the link's admission limit): the 429s drawn and said.
    const chart = page.locator('#fl-chart svg');
    assert.equal(await chart.locator('path.fl-line.fl-throttled').count(), 1);
    assert.match(await chart.locator('desc').textContent(), /The server answered [\d,]+ attempts with a 429/);
    const plain = await page.evaluate(() => window.retryLabFleet.state().result.totals);
    // Adaptive mode: the limiter holds sends after 429s, said beside it and on the chart.
    await page.locator('[data-gate-on="adaptive"]').check();
    await changeSettled(page);
    const held = await page.evaluate(() => window.retryLabFleet.state().result);
    const waitS = held.timeline.bins.reduce((a, b) => a + b.gateWaitMs, 0) / 1000;
    // docs/throttling.md §4.1: the limiters on at the end and their lowest mean send rate, from the bins.
    const rates = held.timeline.bins.filter((b) => b.sendRate !== null);
    const limiting = rates[rates.length - 1].limiting;
    const low = Math.min(...rates.map((b) => b.sendRate));
    const lowText = String(low < 10 ? Math.round(low * 100) / 100 : Math.round(low * 10) / 10).replace('.', '\\.');
    assert.match(await page.locator('[data-said="gates.adaptive"]').textContent(), new RegExp(`^In the run on show it held sends for ${Math.round(waitS).toLocaleString('en-US')} s in all \\(every request’s waits summed\\), slowing after ${held.totals.throttled.toLocaleString('en-US')} throttling answers \\(429\\)\\. By the end ${limiting.toLocaleString('en-US')} of ${held.request.clients.toLocaleString('en-US')} clients’ limiters ${limiting === 1 ? 'was' : 'were'} on, their mean send rate down to ${lowText} a second at its lowest \\(the chart’s dash-dot line, right axis\\)\\.$`));
    assert.match(await chart.locator('desc').textContent(), /rate limiters held sends for [\d,.]+ s in all/);
    // The send rate drawn on its own axis at the right, and said in the chart's description.
    assert.equal(await chart.locator('path.fl-line.fl-send-rate').count(), 1);
    assert.equal(await chart.locator('text.fl-tick.fl-send-rate').last().textContent(), 'limiter sends /s');
    assert.match(await chart.locator('desc').textContent(), /[\d,]+ clients? limiting by [\d.]+ s and [\d,]+ clients? at the end; the rate fell to [\d.]+ in the bin ending/);
    assert.ok(held.totals.throttled < plain.throttled, 'fewer 429s');
    await page.locator('[data-gate-on="adaptive"]').uncheck();
    await changeSettled(page);
    // Admission control and the local throttle on: each says what it did, in its own terms.
    for (const gate of ['local', 'admissionControl']) {
      await page.locator(`[data-gate-on="${gate}"]`).check();
      await changeSettled(page);
      const r = await page.evaluate(() => window.retryLabFleet.state().result.totals);
      const said = await page.locator(`[data-said="gates.${gate}"]`).textContent();
      if (gate === 'local') {
        const n = r.failed['local-throttle'];
        assert.ok(n > 0, 'the 429s trip it');
        assert.equal(said, `In the run on show it refused ${n.toLocaleString('en-US')} requests before they left the client.`);
      } else {
        assert.match(said, r.admissionRejected ? /^In the run on show it rejected [\d,]+ attempts? in the client’s sidecar/ : /^In the run on show it rejected nothing: /);
      }
      await page.locator(`[data-gate-on="${gate}"]`).uncheck();
      await changeSettled(page);
    }
  }));

  test('a fleet link opened draws no ghost: the reader has changed nothing yet', pageTest(env, { viewport: LAPTOP, path: '/#v=1&view=fleet&gates.bucket=on', sections: false }, async ({ page }) => {
    await fleetSettled(page);
    await page.evaluate(() => window.retryLabFleet.settled());
    assert.match(await page.locator('#fl-verdict').textContent(), /^Recovered 9 s after the slowdown ended, at 29 s/);
    assert.equal(await page.locator('#fl-chart svg .fl-ghost').count(), 0);
  }));

  for (const [viewport, how] of [[LAPTOP, 'click'], [PHONE, 'Enter']]) {
    test(`a map cell opened with ${how === 'click' ? 'a click' : 'Enter'} at ${viewport.width}×${viewport.height} brings its storm into view and leaves the focus on the cell`, pageTest(env, { viewport, reducedMotion: 'reduce', sections: false }, async ({ page }) => {
      await fleetSettled(page);
      await scrollTo(page, '#fl-map-box', 'start');
      await page.evaluate(() => window.retryLabFleet.map());
      // ×3.5, 0.5 s: a slowdown the fleet rides out (fleet.test.js's map test).
      const cell = page.locator('#fl-map td[data-row="4"][data-col="0"]');
      await scrollTo(page, '#fl-map td[data-row="4"][data-col="0"]', 'center');
      if (how === 'click') await cell.click();
      else {
        await cell.focus();
        await page.keyboard.press('Enter');
      }
      await changeSettled(page);
      assert.match(await page.locator('#fl-verdict').textContent(), /^Rode it out: /);
      const seen = await chartSeen(page);
      assert.ok(seen.inView, JSON.stringify(seen));
      assert.equal(await page.locator('#fl-near-verdict').textContent(), 'rode it out');
      assert.deepEqual(await page.evaluate(() => [document.activeElement.tagName, document.activeElement.dataset.row, document.activeElement.dataset.col]), ['TD', '4', '0']);
      // The keys go on from the cell.
      await page.keyboard.press('ArrowRight');
      assert.deepEqual(await page.evaluate(() => [document.activeElement.dataset.row, document.activeElement.dataset.col]), ['4', '1']);
    }));
  }

  // Issue 35 item 10: the map's caption said "This run" of the run mapped, whatever the chart showed.
  test('the map’s caption and its ● follow the run on show: the mapped run, a cell opened, another run after a change, the opening run again', pageTest(env, { viewport: LAPTOP, reducedMotion: 'reduce', sections: false }, async ({ page }) => {
    await fleetSettled(page);
    await scrollTo(page, '#fl-map-box', 'start');
    await page.evaluate(() => window.retryLabFleet.map());
    const caption = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))).then(() => document.querySelector('#fl-map-lines').textContent));
    const marked = () => page.locator('#fl-map td.fl-cell-opening').evaluateAll((els) => els.map((e) => [e.dataset.row, e.dataset.col].join(':')));
    // The opening run: ×4, 10 s (row 5, the last column), a cell of its own map.
    assert.match(await caption(), /^The storm chart shows the run this map is of \(marked ●\)\. .*The mapped run offers λ = 100: inside the band/);
    assert.deepEqual(await marked(), ['5:11']);
    await page.locator('#fl-map td[data-row="4"][data-col="0"]').click();
    await changeSettled(page);
    assert.match(await caption(), /^The storm chart shows the cell of a 0\.5 s slowdown of ×3\.5 \(marked ●\): rode it out: never knocked down\. .*The run on show offers λ = 100/);
    assert.deepEqual(await marked(), ['4:0']);
    // A control changed: the run on show is on no cell of this map, and none is marked.
    await scrollTo(page, '#fl-gates', 'center');
    await page.locator('[data-gate="bucket"] input[type="checkbox"]').first().check();
    await changeSettled(page);
    assert.match(await caption(), /^The storm chart shows a run this map is not of/);
    assert.deepEqual(await marked(), []);
    await page.locator('#fl-reset').click();
    await changeSettled(page);
    assert.match(await caption(), /^The storm chart shows the run this map is of/);
    assert.deepEqual(await marked(), ['5:11']);
  }));
});

describe('the fleet section: errors in the reader’s words, at the field (issue 35, item 5)', () => {
  const field = '#fl-g-bucket-capacity';
  const message = '#fl-g-bucket-capacity-error';
  const described = (page) => page.locator(field).evaluate((el) => ({
    invalid: el.getAttribute('aria-invalid'), describedBy: el.getAttribute('aria-describedby'),
    text: el.getAttribute('aria-describedby') ? document.getElementById(el.getAttribute('aria-describedby')).textContent : null,
  }));
  const type = async (page, selector, text) => {
    await page.fill(selector, text);
    await page.locator(selector).press('Tab');
    await changeSettled(page);
  };

  for (const viewport of [LAPTOP, PHONE]) {
    test(`at ${viewport.width} px: −1 and an empty field say so under the field, marked invalid, the run on show kept; the message goes when the value is fixed`, pageTest(env, { viewport, sections: false }, async ({ page }) => {
      await fleetSettled(page);
      await page.locator('[data-gate-on="bucket"]').check();
      await changeSettled(page);
      const shownBefore = await page.evaluate(() => JSON.stringify(window.retryLabFleet.state().request));
      assert.equal(shownBefore, JSON.stringify({ gates: { bucket: {} } }));

      // −1: below the table's least capacity, 0; its most, 1000000000, written as the page writes numbers.
      await type(page, field, '-1');
      let d = await described(page);
      assert.equal(d.invalid, 'true');
      assert.equal(d.describedBy, 'fl-g-bucket-capacity-error');
      assert.equal(d.text, '“capacity” takes a number from 0 to 1,000,000,000 tokens; -1 is below 0. The run on show is unchanged.');
      assert.ok(await page.locator(message).isVisible());
      const [fieldBox, messageBox] = await Promise.all([page.locator(field).boundingBox(), page.locator(message).boundingBox()]);
      assert.ok(messageBox.y >= fieldBox.y + fieldBox.height - 1, 'the message is under its field');
      assert.equal(await page.locator('#fl-error').isVisible(), false, 'nothing far above the field');
      assert.equal(await page.evaluate(() => JSON.stringify(window.retryLabFleet.state().request)), shownBefore, 'the run on show is kept');

      // Empty: no "NaN", no "got".
      await type(page, field, '');
      d = await described(page);
      assert.equal(d.invalid, 'true');
      assert.equal(d.text, '“capacity” is empty: type a number from 0 to 1,000,000,000 tokens. The run on show is unchanged.');
      assert.doesNotMatch(await page.locator('.fl-stops').textContent(), /NaN|got /);
      assert.equal(await page.locator('#fl-error').isVisible(), false);
      assert.equal(await page.evaluate(() => JSON.stringify(window.retryLabFleet.state().request)), shownBefore);

      // Fixed: the message goes and the run is the new value's.
      await type(page, field, '3');
      d = await described(page);
      assert.equal(d.invalid, null);
      assert.equal(d.describedBy, null);
      assert.equal(await page.locator(message).isVisible(), false);
      assert.equal(await page.locator(message).textContent(), '');
      assert.deepEqual(await page.evaluate(() => window.retryLabFleet.state().request), { gates: { bucket: { capacity: 3 } } });
    }));
  }

  test('a whole-number field refuses 2.5 in its words; a gate switched on with a refused field is not run until it is fixed', pageTest(env, { viewport: LAPTOP, sections: false }, async ({ page }) => {
    await fleetSettled(page);
    // The breaker is off: the message comes all the same.
    await type(page, '#fl-g-breaker-window', '2.5');
    assert.equal(await page.locator('#fl-g-breaker-window-error').textContent(), '“window (outcomes)” takes a whole number from 1 to 10,000,000 outcomes; 2.5 is not whole. The run on show is unchanged.');
    assert.equal(await page.locator('#fl-g-breaker-window').getAttribute('aria-invalid'), 'true');
    await page.locator('[data-gate-on="breaker"]').check();
    await changeSettled(page);
    assert.deepEqual(await page.evaluate(() => window.retryLabFleet.state().request), {}, 'the opening run stays on show');
    assert.equal(await page.locator('#fl-error').isVisible(), false);
    // Typing a value the field takes clears the message at once; leaving the field runs it.
    await page.fill('#fl-g-breaker-window', '20');
    assert.equal(await page.locator('#fl-g-breaker-window').getAttribute('aria-invalid'), null);
    await page.locator('#fl-g-breaker-window').press('Tab');
    await changeSettled(page);
    assert.deepEqual(await page.evaluate(() => window.retryLabFleet.state().request), { gates: { breaker: { window: 20 } } });
  }));
});

describe('the fleet section’s new states are accessible (issue 35)', () => {
  // One page for the two modes (issue 31: the page, the opening run, the bucket's run and axe's
  // script once instead of twice), the colour scheme switched between them (the page's colours
  // are its stylesheet's alone). Each test takes every step the other has not: the bucket
  // ticked and -1 typed by whichever comes first, so either passes alone and the second finds
  // the state the first left (a second tick or -1 would change nothing, nor run).
  const kept = keptPage(env, { viewport: PHONE, reducedMotion: 'reduce', bypassCSP: true, sections: false });
  for (const colorScheme of ['light', 'dark']) {
    test(`axe-core reports nothing at 390×844 in ${colorScheme} mode with the storm drawn near a gate, its ghost, and a field’s message`, async () => {
      const { page } = await kept();
      await page.emulateMedia({ colorScheme });
      await fleetSettled(page);
      await scrollTo(page, '[data-gate="bucket"]', 'center');
      if (!(await page.locator('[data-gate-on="bucket"]').isChecked())) {
        await page.locator('[data-gate-on="bucket"]').check();
        await changeSettled(page);
      }
      assert.equal(await page.locator('#fl-near svg .fl-ghost').count(), 3);
      if ((await page.inputValue('#fl-g-bucket-capacity')) !== '-1') {
        await page.fill('#fl-g-bucket-capacity', '-1');
        await page.locator('#fl-g-bucket-capacity').press('Tab');
        await changeSettled(page);
      }
      if (!(await page.evaluate(() => Boolean(window.axe)))) await page.addScriptTag({ content: AXE });
      const violations = await page.evaluate(() => window.axe.run('#fleet', { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')}`)));
      assert.deepEqual(violations, []);
    });
  }
});

describe('the fleet section: controls that change nothing say why, from the result (issue 35, item 4)', () => {
  test('a gate on says how many retries it refused; the budget refuses none at the opening run, and jitter leaves every total as it was', pageTest(env, { viewport: LAPTOP, sections: false }, async ({ page }) => {
    await fleetSettled(page);
    const said = (path) => page.locator(`[data-said="${path}"]`).textContent();
    assert.equal(await said('gates.bucket'), '', 'nothing said of a gate that is off');
    // The bucket refuses retries: as many as its requests that ended gate-bucket (§9.5's case).
    await page.locator('[data-gate-on="bucket"]').check();
    await changeSettled(page);
    const { failed } = (await page.evaluate(() => window.retryLabFleet.state())).result.totals;
    assert.ok(failed['gate-bucket'] > 0);
    assert.equal(await said('gates.bucket'), `In the run on show it refused ${failed['gate-bucket'].toLocaleString('en-US')} retries, each ending its request there.`);
    await page.locator('[data-gate-on="bucket"]').uncheck();
    await changeSettled(page);
    assert.equal(await said('gates.bucket'), '');
    // The budget: a floor of 10 retries a second per client, over a 10 s window (100 retries),
    // against one request a second per client with at most 3 retries each (at most 30 in 10 s):
    // it never refuses.
    await page.locator('[data-gate-on="budget"]').check();
    await changeSettled(page);
    assert.equal(await said('gates.budget'), 'In the run on show it refused no retry: it let every one through, so it changes nothing in this run.');
    await page.locator('[data-gate-on="budget"]').uncheck();
    await changeSettled(page);
    // Jitter at the opening run: every request after the slowdown still ends out of attempts.
    await page.selectOption('[data-path="policy.jitter"]', 'full');
    await changeSettled(page);
    assert.match(await said('policy.jitter'), /^This left every total and the verdict as they were\. Of [\d,]+ failed requests, [\d,]+ still ended out of attempts: backoff and jitter move retries in time, but each of those requests still sent every retry it had\.$/);
    // A control that changes the run says nothing.
    await page.selectOption('[data-path="server.queueOrder"]', 'lifo');
    await changeSettled(page);
    assert.equal(await said('server.queueOrder'), '');
    assert.equal(await said('policy.jitter'), '', 'the line goes with the next change');
  }));
});

// Issue 35 item 10: the section's live regions said too much (the verdict box, progress lines,
// the map's status and readout, each reproduction's status were live). What is said now is
// recorded from every live region in the section: one short sentence per change, none while
// the map and a reproduction compute.
describe('the fleet section says one short thing per change (issue 35, item 10)', () => {
  test('a gate ticked is said once, "Storm chart redrawn: recovered 9 s after the slowdown ended."; the map and the AWS reproduction computing say nothing', pageTest(env, { viewport: LAPTOP, reducedMotion: 'reduce', sections: false }, async ({ page }) => {
    await fleetSettled(page);
    await page.evaluate(() => {
      window.saidHere = [];
      const live = (node) => {
        const el = node && (node.nodeType === 1 ? node : node.parentElement);
        return el && el.closest('[role="status"], [role="alert"], [aria-live]:not([aria-live="off"])');
      };
      new MutationObserver((records) => {
        const regions = new Set(records.map((r) => live(r.target)).filter(Boolean));
        for (const el of regions) if (el.textContent.trim() && !el.closest('[hidden]')) window.saidHere.push(el.textContent.trim());
      }).observe(document.querySelector('#fleet'), { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['hidden'] });
    });
    await scrollTo(page, '#fl-gates', 'center');
    await page.locator('[data-gate="bucket"] input[type="checkbox"]').first().check();
    await changeSettled(page);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.deepEqual(await page.evaluate(() => window.saidHere), ['Storm chart redrawn: recovered 9 s after the slowdown ended.']);
    await page.evaluate(() => { window.saidHere = []; });
    await scrollTo(page, '#fl-map-box', 'start');
    await page.evaluate(() => window.retryLabFleet.map());
    await page.evaluate(() => window.retryLabFleet.aws());
    assert.deepEqual(await page.evaluate(() => window.saidHere), []);
  }));
});
