// The policy traces section against the seed text (spec/seeds/000_0a5354d27fdd3fee.txt):
// every expected figure below is one the seed states, quoted beside it. Choosing a row loads
// its trace into the experiment's event trace, table and metrics. axe-core finds nothing in
// light, dark and phone width; screenshots go to build/artifacts/.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { artifactPath, assertClean, browserSuite, openPage, reopenPage, pageTest } from './lib/harness.js';
import { TR, appTrace, attemptsShown, matrixRow, shownEvents, shownMetrics, shownTable } from './lib/traces-ui.js';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

const env = browserSuite();

describe('the matrix shows the seed’s figures', () => {
  let opened;
  before(async () => { opened = await openPage(env); });
  after(async () => { await opened.context.close(); });

  test('trace A: 429 with Retry-After 2, two jittered 503s, success after 4 attempts and 3.90 s', async () => {
    const row = await matrixRow(opened.page, 'A');
    assert.equal(attemptsShown(row).length, 4);
    const [a1, a2, a3, a4] = row.attempts;
    // "attempt 1 -> 429, Retry-After: 2  wait 2.00 (header wins)  elapsed wait 2.00"
    assert.deepEqual(a1, ['429', 'Retry-After: 2', 'wait 2.00 s (header wins)', 'elapsed wait 2.00 s']);
    // "attempt 2 -> 503, no header  ceiling 1.0, draw 0.40 -> 0.40  elapsed wait 2.40"
    assert.deepEqual(a2, ['503', 'no header', 'ceiling 1.00 s × draw 0.40 → 0.40 s', 'elapsed wait 2.40 s']);
    // "attempt 3 -> 503, no header  ceiling 2.0, draw 0.75 -> 1.50  elapsed wait 3.90"
    assert.deepEqual(a3, ['503', 'no header', 'ceiling 2.00 s × draw 0.75 → 1.50 s', 'elapsed wait 3.90 s']);
    // "attempt 4 -> 200  result: success, 4 attempts, 3.90 s waiting"
    assert.equal(a4[0], '200');
    assert.equal(row.result[0], 'success, 4 attempts, 3.90 s waiting');
  });

  test('trace B: 503 always; waits 0.45, 0.20, 1.20, 2.00; failed, 5 attempts, 3.85 s', async () => {
    const row = await matrixRow(opened.page, 'B');
    const seed = [ // ceiling, draw, wait, total — "attempt n -> 503  ceiling c, draw d -> w  total t"
      ['0.50', '0.90', '0.45', '0.45'], ['1.00', '0.20', '0.20', '0.65'],
      ['2.00', '0.60', '1.20', '1.85'], ['4.00', '0.50', '2.00', '3.85'],
    ];
    seed.forEach(([ceiling, draw, wait, total], i) => {
      assert.deepEqual(row.attempts[i], ['503', 'no header', `ceiling ${ceiling} s × draw ${draw} → ${wait} s`, `elapsed wait ${total} s`], `attempt ${i + 1}`);
    });
    // "attempt 5 -> 503  limit reached  result: failed, 5 attempts, 3.85 s waiting"
    assert.deepEqual(row.attempts[4], ['503', 'no header', 'limit reached']);
    assert.equal(attemptsShown(row).length, 5);
    assert.equal(row.result[0], 'failed, 5 attempts, 3.85 s waiting');
  });

  test('trace C: Date 10:00:00 and Retry-After 10:00:07 wait 7 s from the response’s own Date, then success', async () => {
    const row = await matrixRow(opened.page, 'C');
    const [a1, a2] = row.attempts;
    assert.equal(a1[0], '429');
    assert.ok(a1.includes('Date: Sun, 29 Nov 2026 10:00:00 GMT'), a1.join(' | '));
    assert.ok(a1.includes('Retry-After: Sun, 29 Nov 2026 10:00:07 GMT'), a1.join(' | '));
    // "The client waits seven seconds from the response's own date, then retries and succeeds."
    assert.ok(a1.includes('wait 7.00 s: the header’s date, counted from the response’s Date (header wins)'), a1.join(' | '));
    assert.equal(a2[0], '200');
    assert.equal(attemptsShown(row).length, 2);
    assert.match(row.result[0], /^success, 2 attempts, 7\.00 s waiting$/);
  });

  test('trace D: 400, 401 and 404 are not retried: one attempt, the error returned', async () => {
    for (const [id, status] of [['D', '400'], ['D-401', '401'], ['D-404', '404']]) {
      const row = await matrixRow(opened.page, id);
      assert.equal(attemptsShown(row).length, 1, `${id}: one attempt`);
      assert.equal(row.attempts[0][0], status);
      assert.match(row.attempts[0].join(' '), /not retried/);
      assert.match(row.result[0], /^failed, 1 attempt, /);
      assert.ok(row.result.includes(`The client reports error ${status}.`), row.result.join(' | '));
    }
  });

  test('trace E both ways: 1 record after 2 requests with an identifier; without, 1 request, unknown, 0 retries, a person told', async () => {
    const withId = await matrixRow(opened.page, 'E');
    // "Pass: fake provider holds 1 record for op-0001 after 2 requests."
    assert.ok(withId.result.includes('The provider holds 1 record for op-0001 after 2 requests; 1 automatic retry.'), withId.result.join(' | '));
    assert.match(withId.attempts[0][0], /^timeout/, 'the create times out');
    assert.equal(attemptsShown(withId).length, 2);
    assert.ok(!withId.result.some((l) => /duplicate/.test(l)));

    const noId = await matrixRow(opened.page, 'E-no-id');
    // "No identifier: 1 request sent, status unknown, 0 automatic retries."
    assert.equal(attemptsShown(noId).length, 1);
    assert.match(noId.result[0], /^unknown, 1 attempt/);
    assert.ok(noId.result.includes('The provider holds 1 record for op-0001 after 1 request; 0 automatic retries.'), noId.result.join(' | '));
    // "the operation is marked unknown, a person is told, and a lookup is run before anything is sent again"
    assert.ok(noId.result.some((l) => /marked unknown, a person is told, and a status lookup runs before anything is sent again/.test(l)), noId.result.join(' | '));
    assert.ok(!withId.result.some((l) => /person is told/.test(l)), 'said only where the engine says a lookup is needed');
  });

  test('trace F: fifty callers, the check passes (at least 4 of 5 buckets occupied, none above 25)', async () => {
    const row = await matrixRow(opened.page, 'F');
    const line = row.result.find((l) => /callers:/.test(l));
    const m = /^50 callers: (\d+) of 5 buckets occupied, fullest (\d+) — check passes\.$/.exec(line);
    assert.ok(m, line);
    assert.ok(Number(m[1]) >= 4 && Number(m[2]) <= 25);
  });

  test('the policy card reads the policy from the engine: ceilings 0.5, 1, 2, 4 s, 5 attempts, 20 s of waiting', async () => {
    const card = (await opened.page.locator(TR('policy')).innerText()).replace(/\s+/g, ' ');
    assert.match(card, /min\(8\.00 s, 0\.50 s × 2\^\(n−1\)\)/);
    assert.match(card, /0\.50 s, 1\.00 s, 2\.00 s and 4\.00 s after failures 1, 2, 3 and 4/);
    assert.match(card, /at most 5 attempts \(4 waits\) and 20\.00 s of waiting/);
  });
});

describe('choosing a row', () => {
  test('a click or Enter loads the trace into the event trace, table and metrics; a control change clears it', pageTest(env, {}, async ({ page }) => {
    await page.locator(`${TR('matrix')} tr[data-trace="B"] td`).first().click();
    assert.equal(await appTrace(page), 'B');
    assert.equal((await matrixRow(page, 'B')).selected, 'true');
    let metrics = await shownMetrics(page);
    assert.deepEqual([metrics.attempts, metrics.outcome, metrics.waiting], ['5', 'failed', '3,850 ms']); // "failed, 5 attempts, 3.85 s waiting"
    assert.equal((await shownTable(page)).length, 5);
    assert.ok((await shownEvents(page)).some((e) => /ceiling 4,000 ms × draw 0\.50/.test(e)));
    assert.match(await page.locator(TR('status')).textContent(), /Trace B is in the experiment above/);

    // Keyboard: the cell keeps the focus; the trace loads.
    await page.locator(`${TR('matrix')} tr[data-trace="E-no-id"] th`).focus();
    await page.keyboard.press('Enter');
    assert.equal(await appTrace(page), 'E-no-id');
    assert.equal(await page.evaluate(() => document.activeElement.closest('tr').dataset.trace), 'E-no-id');
    metrics = await shownMetrics(page);
    // "No identifier: 1 request sent, status unknown, 0 automatic retries." — and a lookup.
    assert.deepEqual([metrics.attempts, metrics.charges, metrics.outcome, metrics.lookup], ['1', '1', 'unknown', 'yes']);
    assert.equal(await page.locator('#rl-metrics [data-metric="charges"] dt').textContent(), 'Records');
    assert.equal((await matrixRow(page, 'B')).selected, 'false');

    // The trace C run in the experiment waits 7 s.
    await page.evaluate(() => window.retryLabTraces.selectTrace('C'));
    assert.equal((await shownTable(page))[0][6].startsWith('7,000 ms'), true);

    // The experiment's own control makes it a different run: no trace is selected any more.
    await page.locator('#rl-maxRetries').fill('1');
    assert.equal(await appTrace(page), null);
    assert.equal(await page.locator(`${TR('matrix')} tr[aria-selected="true"]`).count(), 0);
    // ...and a named scenario replaces the trace's scripted answers.
    await page.getByRole('radio', { name: 'HTTP 503 twice, then succeeds', exact: true }).check();
    assert.equal((await shownMetrics(page)).attempts, '2');
  }));
});

// axe is injected into a context that bypasses the page's CSP (the page itself runs under it).
async function axe(page) {
  // Injected once a document: a test's later runs on the same page reuse it.
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.addScriptTag({ content: AXE });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')}`);
}

async function openForAxe(options) {
  const { page, context } = await openPage(env, { ...options, bypassCSP: true });
  return { page, context };
}

describe('accessibility and screenshots', () => {
  for (const colorScheme of ['light', 'dark']) {
    test(`axe-core: no violations in ${colorScheme} mode, with a trace loaded, an editor error and a failing herd`, async () => {
      const { page, context } = await openForAxe({ colorScheme });
      assert.deepEqual(await axe(page), []);
      await page.locator(`${TR('matrix')} tr[data-trace="E-no-id"] th`).click();
      await page.locator('#tr-ed-script-0-status').fill('99');
      await page.locator(TR('callers')).fill('1');
      assert.deepEqual(await axe(page), []);
    });
  }

  test('phone width: axe-core clean, and only the matrix scrolls sideways', async (t) => {
    const viewport = { width: 375, height: 812 };
    const { page, context } = await openForAxe({ viewport });
    assert.deepEqual(await axe(page), []);
    const opened = await openPage(env, { viewport });
    const overflow = await opened.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0, 'the page itself does not scroll sideways');
    const box = await opened.page.locator(TR('matrix')).evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    assert.ok(box.scroll > box.client * 2, 'the matrix is wider than its box');
    // Issue 35 item 10: the Result column is a screen's scroll away, so each row's result is
    // seen in its sticky trace column, inside the box, with the matrix not scrolled.
    const seen = await opened.page.locator(TR('matrix')).evaluate((el) => {
      const box = el.getBoundingClientRect();
      return [...el.querySelectorAll('tbody tr')].map((tr) => {
        const shown = tr.querySelector('.tm-row-result');
        const r = shown && shown.getBoundingClientRect();
        return { summary: tr.querySelector('.tm-result .tm-summary').textContent, shown: shown && shown.textContent, inside: !!r && r.width > 0 && r.left >= box.left && r.right <= box.right };
      });
    });
    assert.ok(seen.length >= 9, String(seen.length));
    for (const row of seen) assert.ok(row.inside && row.shown === row.summary, JSON.stringify(row));
    await assertClean(t, assert, opened);
  });

  test('screenshots of the traces section: light, dark, narrow, and the matrix scrolled to its results', async (t) => {
    const shots = [
      ['traces-light.png', { colorScheme: 'light' }],
      ['traces-dark.png', { colorScheme: 'dark' }],
      ['traces-narrow.png', { colorScheme: 'light', viewport: { width: 390, height: 844 } }],
    ];
    // One page for the three (issue 31: a new context is a renderer process of its own, about half
    // a CPU·s): after the first, openPage's steps again in it, through about:blank, in the next
    // shot's viewport and colours, its recorder kept (assertClean covers every shot so far).
    let opened = null;
    for (const [name, options] of shots) {
      if (!opened) opened = await openPage(env, options);
      else await reopenPage(env, opened, { viewport: options.viewport || { width: 1280, height: 900 }, colorScheme: options.colorScheme });
      const { page } = opened;
      await page.locator('#traces').screenshot({ path: await artifactPath(name) });
      await page.locator(`${TR('matrix')} [data-row="1"][data-col="0"]`).focus();
      await page.keyboard.press('End');
      await page.locator(TR('matrix')).screenshot({ path: await artifactPath(name.replace('.png', '-results.png')) });
      await assertClean(t, assert, opened);
    }
  });
});
