// The matrix follows the WAI-ARIA grid pattern: one Tab stop with a roving tabindex, arrows
// that move one cell and stop at the edges, Home/End, Ctrl+Home/End, the focused cell
// scrolled into view clear of the sticky trace column, a visible focus ring — and a reader
// can step through every trace with the keyboard alone, loading each into the experiment.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, pageTest } from './lib/harness.js';
import { TR, appTrace, shownMetrics } from './lib/traces-ui.js';

const env = browserSuite();

// Where the focus is, and what the grid looks like around it.
const gridState = (page) => page.evaluate((box) => {
  const grid = document.querySelector(`${box} [role="grid"]`);
  const el = document.activeElement;
  const style = getComputedStyle(el);
  const stops = [...grid.querySelectorAll('[tabindex="0"]')];
  const scroller = document.querySelector(box);
  const outer = scroller.getBoundingClientRect();
  const sticky = grid.querySelector('[data-row="0"][data-col="0"]').getBoundingClientRect();
  const r = el.getBoundingClientRect();
  const rows = grid.querySelectorAll('[role="row"]').length;
  const cols = grid.querySelector('[role="row"]').children.length;
  return {
    inGrid: grid.contains(el),
    pos: el.dataset.row === undefined ? null : [Number(el.dataset.row), Number(el.dataset.col)],
    rows, cols,
    tabStops: stops.length,
    tabStopIsFocus: stops[0] === el,
    ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
    scrollLeft: scroller.scrollLeft,
    maxScroll: scroller.scrollWidth - scroller.clientWidth,
    // A cell is in view when it lies within the box; a cell right of the sticky trace
    // column must also clear it.
    inView: r.left >= outer.left - 1 && r.right <= outer.right + 1
      && (Number(el.dataset.col) === 0 || r.left >= sticky.right - 1),
  };
}, TR('matrix'));

async function tabInto(page) {
  await page.locator(TR('keys')).click(); // a point just before the grid, not focusable
  for (let i = 0; i < 10; i += 1) {
    await page.keyboard.press('Tab');
    if ((await gridState(page)).inGrid) return;
  }
  throw new Error('Tab never reached the matrix');
}

describe('the matrix as a grid', () => {
  for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
    test(`keys move the focus as the grid pattern says, and hidden columns scroll into view (${viewport.width} px)`, pageTest(env, { viewport }, async ({ page, t }) => {
      await tabInto(page);
      let s = await gridState(page);
      assert.deepEqual(s.pos, [1, 0], 'Tab lands on the first trace');
      assert.equal(s.tabStops, 1, 'one Tab stop');
      assert.ok(s.tabStopIsFocus && s.ring, 'the stop is the focused cell, with a visible ring');
      assert.ok(s.maxScroll > 0, 'the matrix is wider than its box');
      const last = { row: s.rows - 1, col: s.cols - 1 };

      const press = async (key, expected, what) => {
        await page.keyboard.press(key);
        s = await gridState(page);
        assert.deepEqual(s.pos, expected, `${key}: ${what}`);
        assert.equal(s.tabStops, 1, `${key}: still one Tab stop`);
        assert.ok(s.tabStopIsFocus, `${key}: the Tab stop roves with the focus`);
        assert.ok(s.inView, `${key}: the focused cell is in view`);
        assert.ok(s.ring, `${key}: focus ring`);
      };
      await press('ArrowLeft', [1, 0], 'stops at the left edge');
      await press('ArrowRight', [1, 1], 'one cell right');
      await press('ArrowRight', [1, 2], 'one cell right');
      await press('End', [1, last.col], 'the row’s last cell');
      assert.ok(s.scrollLeft > 0, 'the box scrolled to show the result column');
      await press('ArrowRight', [1, last.col], 'stops at the right edge');
      await press('ArrowUp', [0, last.col], 'up into the header row');
      await press('ArrowUp', [0, last.col], 'stops at the top');
      await press('Home', [0, 0], 'the row’s first cell');
      assert.equal(s.scrollLeft, 0, 'scrolled back to the start');
      await press('ArrowDown', [1, 0], 'one row down');
      await press('Control+End', [last.row, last.col], 'the last cell of the grid');
      await press('ArrowDown', [last.row, last.col], 'stops at the bottom');
      await press('ArrowLeft', [last.row, last.col - 1], 'one cell left');
      await press('Control+Home', [0, 0], 'the first cell of the grid');
      assert.equal(s.scrollLeft, 0);

      // Leaving and coming back: one Tab leaves the grid; Shift+Tab returns to the same cell.
      await press('ArrowDown', [1, 0], 'down');
      await press('ArrowRight', [1, 1], 'right');
      await page.keyboard.press('Tab');
      assert.equal((await gridState(page)).inGrid, false, 'Tab leaves the grid at once');
      await page.keyboard.press('Shift+Tab');
      s = await gridState(page);
      assert.deepEqual(s.pos, [1, 1], 'Shift+Tab comes back to the cell last focused');
    }));
  }

  test('a reader steps through every trace with the keyboard alone, each loaded into the experiment', pageTest(env, {}, async ({ page, t }) => {
    await tabInto(page);
    const ids = await page.locator(`${TR('matrix')} tr[data-trace]`).evaluateAll((rows) => rows.map((r) => r.dataset.trace));
    assert.deepEqual(ids, ['A', 'B', 'C', 'D', 'D-401', 'D-404', 'E', 'E-no-id', 'F', 'custom']);
    // What the experiment must show for each, from the seed text.
    const seed = {
      A: { attempts: '4', outcome: 'success', waiting: '3,900 ms' }, // "success, 4 attempts, 3.90 s waiting"
      B: { attempts: '5', outcome: 'failed', waiting: '3,850 ms' }, // "failed, 5 attempts, 3.85 s waiting"
      C: { attempts: '2', outcome: 'success', waiting: '7,000 ms' }, // "waits seven seconds ... succeeds"
      D: { attempts: '1' }, 'D-401': { attempts: '1' }, 'D-404': { attempts: '1' }, // "one attempt"
      E: { attempts: '2', charges: '1' }, // "1 record for op-0001 after 2 requests"
      'E-no-id': { attempts: '1', outcome: 'unknown', lookup: 'yes' }, // "1 request sent, status unknown"
      F: { outcome: 'failed' }, // every answer is 429 until the limit
      custom: { attempts: '4', outcome: 'success', waiting: '3,900 ms' }, // opens as a copy of A
    };
    for (const [i, traceId] of ids.entries()) {
      if (i > 0) await page.keyboard.press('ArrowDown');
      await page.keyboard.press(i % 2 ? 'Enter' : 'Space');
      assert.equal(await appTrace(page), traceId, `${traceId} loaded`);
      const metrics = await shownMetrics(page);
      for (const [key, value] of Object.entries(seed[traceId])) assert.equal(metrics[key], value, `${traceId}: ${key}`);
      const s = await gridState(page);
      assert.deepEqual(s.pos, [i + 1, 0], 'the focus stays in the matrix');
      assert.equal(await page.locator(`${TR('matrix')} tr[aria-selected="true"]`).getAttribute('data-trace'), traceId);
    }
    assert.match(await page.locator(TR('status')).textContent(), /^Your trace is in the experiment above/);
    // The button beside the status takes the reader there.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'tr-show');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'experiment');
  }));
});
