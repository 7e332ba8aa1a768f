// Issue 35 item 9, the fleet section on a phone (390×844): nothing in it scrolls sideways (the
// storm chart is drawn at the screen's width, the stability map's twelve columns fit), each
// chart's key and the map's key stand above what they name, every field's text is 16 px or more
// (iOS zooms into a smaller one) and every target is 44 px or more; axe-core finds nothing,
// light and dark. The map's cells are the one exception to 44 px across: twelve columns of 44
// px do not fit 390 px, so they are 44 px tall and at least 24 px wide (WCAG 2.2's 2.5.8).

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AXE, assertClean, axeViolations, browserSuite, keptPage, pageTest } from './lib/harness.js';

const env = browserSuite();
const PHONE = { width: 390, height: 844 };

// One page for the tests that read the section with its map drawn (harness.js keptPage; issue
// 31): the section and its map computed once, not once a test (144 runs, and the reproductions
// started behind them, each time). Each test does every step of its state itself (the map drawn;
// the bucket ticked or not), so any of them passes alone and in any order. Reduced motion: none
// of them is about motion. The page keeps its CSP (the layout is the one a reader gets); axe-core
// comes from the page's own origin.
const AXE_URL = '/axe-core.min.js';
const kept = keptPage(env, {
  viewport: PHONE, reducedMotion: 'reduce', sections: false,
  route: [`**${AXE_URL}`, (route) => route.fulfill({ contentType: 'text/javascript', body: AXE })],
});
async function keptPhone(colorScheme = 'light') {
  const opened = await kept();
  await opened.page.emulateMedia({ colorScheme });
  return opened;
}

// The section, its map drawn and each run settled.
async function fleetWithMap(page) {
  await page.evaluate(() => window.retryLabFleetSection.load());
  await page.waitForFunction(() => window.retryLabFleet && window.retryLabFleet.state(), null, { timeout: 20000 });
  await page.evaluate(() => window.retryLabFleet.ready.then(() => window.retryLabFleet.settled()));
  await page.locator('#fl-map-box').evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.evaluate(() => window.retryLabFleet.map());
  await page.waitForFunction(() => document.querySelectorAll('#fl-map .fl-cell:not(.fl-cell-pending)').length === 144, null, { timeout: 30000 });
}
async function gateUnticked(page, gate) {
  if (!(await page.locator(`[data-gate-on="${gate}"]`).isChecked())) return;
  await page.locator(`[data-gate-on="${gate}"]`).uncheck();
  await page.evaluate(() => window.retryLabFleet.settled());
}
async function gateTicked(page, gate) {
  await page.locator(`[data-gate="${gate}"]`).evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await page.locator(`[data-gate-on="${gate}"]`).check();
  await page.evaluate(() => window.retryLabFleet.settled()); // the switch's handler started its run at once
  await page.waitForSelector('#fl-near svg.fl-chart');
  await page.evaluate(() => window.retryLabFleet.looked()); // the storm near the gate scrolled to, the scroll ended
}
// Two boxes read in one turn, so that a scroll between two reads cannot move one and not the other.
const boxes = (page, ...selectors) => page.evaluate((sels) => sels.map((sel) => {
  const r = document.querySelector(sel).getBoundingClientRect();
  return { y: r.top, height: r.height };
}), selectors);

// Everything in the section that scrolls sideways, or reaches past the window's sides.
const sideways = (page) => page.evaluate(() => {
  const W = document.documentElement.clientWidth;
  const out = [];
  if (document.documentElement.scrollWidth > W) out.push(`the page: ${document.documentElement.scrollWidth} in ${W}`);
  for (const el of document.querySelectorAll('#fleet *')) {
    if (!el.checkVisibility() || el.closest('.visually-hidden')) continue;
    const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${[...el.classList].join('.')}`;
    const r = el.getBoundingClientRect();
    if (r.width && (r.left < -0.5 || r.right > W + 0.5)) out.push(`${name} reaches ${Math.round(r.left)}–${Math.round(r.right)}`);
    const o = getComputedStyle(el).overflowX;
    if ((o === 'auto' || o === 'scroll') && el.scrollWidth > el.clientWidth + 1) out.push(`${name} scrolls: ${el.scrollWidth} in ${el.clientWidth}`);
  }
  return out.slice(0, 8);
});

describe('the fleet section on a phone (issue 35, item 9)', () => {
  test('at 390×844 nothing in the section scrolls sideways: the storm chart, the chart drawn near a gate, the map', async (t) => {
    const opened = await keptPhone();
    const { page } = opened;
    await fleetWithMap(page);
    await gateTicked(page, 'bucket');
    assert.deepEqual(await sideways(page), []);
    // The charts are drawn at the box's width, their words at 12 px as drawn (1:1).
    for (const box of ['#fl-chart', '#fl-near-chart']) {
      const scale = await page.locator(`${box} svg`).evaluate((svg) => svg.getBoundingClientRect().width / svg.viewBox.baseVal.width);
      assert.ok(Math.abs(scale - 1) < 0.02, `${box} drawn at its width (scale ${scale.toFixed(3)})`);
    }
    await assertClean(t, assert, opened);
  });

  test('at 390×844 each storm chart’s key stands above it and names every series the chart draws; the map’s key stands above the map', async (t) => {
    const opened = await keptPhone();
    const { page } = opened;
    await fleetWithMap(page);
    await gateTicked(page, 'bucket');
    for (const [key, chart] of [['#fl-legend', '#fl-chart'], ['#fl-near-legend', '#fl-near-chart']]) {
      assert.ok(await page.locator(key).isVisible(), `${key} is shown`);
      const [k, c] = await boxes(page, key, `${chart} svg`);
      assert.ok(k.y + k.height <= c.y + 1, `${key} above ${chart} (${Math.round(k.y + k.height)} ≤ ${Math.round(c.y)})`);
      // Each line and area the chart draws (not the run before's) has its swatch in the key.
      const drawn = await page.locator(`${chart} svg`).evaluate((svg) => [...svg.querySelectorAll('path.fl-line:not(.fl-ghost), path.fl-work, path.fl-queue')]
        .filter((p) => p.getAttribute('d')).map((p) => [...p.classList].find((c) => /^fl-(offered|capacity|succeeded|timeouts|throttled|late|in-time|queue)$/.test(c))));
      const keyed = await page.locator(key).evaluate((ul) => [...ul.querySelectorAll('li > svg > :is(line, rect)')]
        .map((p) => [...p.classList].find((c) => /^fl-(offered|capacity|succeeded|timeouts|throttled|late|in-time|queue)$/.test(c))));
      assert.ok(drawn.length >= 6, `${chart} draws its series (${drawn.join(', ')})`);
      assert.deepEqual([...new Set(keyed)].sort(), [...new Set(drawn)].sort(), `${key} names what ${chart} draws`);
    }
    const [mapKey, grid] = await boxes(page, '#fl-map-box .fl-map-key', '#fl-map-grid');
    assert.ok(mapKey.y + mapKey.height <= grid.y, 'the map’s key above its cells');
    await assertClean(t, assert, opened);
  });

  // A change made while the last change's figure is still being drawn and scrolled to (the
  // storm drawn near the gate, a smooth scroll under way): the page once scrolled the second
  // control off the top, aiming at a figure measured while it moved (web/fleet/near.js).
  test('at 390×844 a slider moved right after a gate is switched on stays in view, the storm drawn near it whole below it', pageTest(env, { viewport: PHONE, sections: false }, async ({ page }) => {
    await page.evaluate(() => window.retryLabFleetSection.load());
    await page.waitForFunction(() => window.retryLabFleet && window.retryLabFleet.state(), null, { timeout: 20000 });
    await page.evaluate(() => window.retryLabFleet.ready.then(() => window.retryLabFleet.settled()));
    const slider = page.locator('#fleet input[type=range][data-path]').first();
    // Five rounds, the gate on and off by turns: a single round loses the race only some of the time.
    for (const round of [1, 2, 3, 4, 5]) {
      await page.locator('[data-gate="bucket"]').evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await page.locator('[data-gate-on="bucket"]').setChecked(round % 2 === 1);
      await slider.focus();
      await page.keyboard.press(round % 2 ? 'ArrowRight' : 'ArrowLeft');
      await page.evaluate(() => window.retryLabFleet.settled().then(() => window.retryLabFleet.looked()));
      const [s, n, height] = await slider.evaluate((el) => [el.getBoundingClientRect().toJSON(), document.querySelector('#fl-near').getBoundingClientRect().toJSON(), innerHeight]);
      assert.ok(s.top >= 0 && s.bottom <= height, `round ${round}: the slider in view (${Math.round(s.top)}–${Math.round(s.bottom)} of ${height})`);
      assert.ok(n.top >= s.bottom && n.bottom <= height, `round ${round}: the storm below it, whole (${Math.round(n.top)}–${Math.round(n.bottom)})`);
    }
  }));

  test('at 390×844 every field’s text is 16 px or more and every target 44 px or more (the map’s cells 44 px tall, 24 px or more wide)', async (t) => {
    const opened = await keptPhone();
    const { page } = opened;
    await fleetWithMap(page);
    await gateUnticked(page, 'bucket'); // the section as it opens, with no gate on
    const small = await page.evaluate(() => {
      const out = [];
      const targets = document.querySelectorAll('#fleet :is(input, select, textarea, button, summary, a[href], [tabindex="0"], td.fl-cell)');
      for (const el of targets) {
        if (!el.checkVisibility()) continue;
        const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.type ? `[${el.type}]` : ''}`;
        if (el.matches('input, select, textarea') && parseFloat(getComputedStyle(el).fontSize) < 16) out.push(`${name}: text at ${getComputedStyle(el).fontSize}`);
        // A field's target is its box and its labels' (a click on either acts on it).
        const boxes = [el, ...(el.labels || [])].map((x) => x.getBoundingClientRect()).filter((r) => r.width && r.height);
        const top = Math.min(...boxes.map((r) => r.top));
        const left = Math.min(...boxes.map((r) => r.left));
        const w = Math.max(...boxes.map((r) => r.right)) - left;
        const h = Math.max(...boxes.map((r) => r.bottom)) - top;
        const tall = Math.max(...boxes.map((r) => r.height));
        const least = el.matches('.fl-cell') ? 24 : 44;
        if (tall < 43.5 || w < least - 0.5) out.push(`${name}: ${Math.round(w)}×${Math.round(h)} (tallest part ${Math.round(tall)})`);
      }
      return { out, n: targets.length };
    });
    assert.ok(small.n >= 150, `the section's targets (${small.n})`);
    assert.deepEqual(small.out, []);
    await assertClean(t, assert, opened);
  });

  // The two modes on the file's kept page, the colour scheme switched between them (the page's
  // colours are its stylesheet's alone).
  for (const colorScheme of ['light', 'dark']) {
    test(`axe-core reports nothing in the section at 390×844, ${colorScheme}, with the map and the chart drawn near a gate`, async () => {
      const { page } = await keptPhone(colorScheme);
      await fleetWithMap(page);
      await gateTicked(page, 'bucket');
      if (!(await page.evaluate(() => Boolean(window.axe)))) await page.addScriptTag({ url: AXE_URL });
      assert.deepEqual(await axeViolations(page, '#fleet'), []);
    });
  }
});
