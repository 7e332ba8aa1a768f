// Issue 39's article step, "The retry went to another server" (web/servers/step.js,
// explorable/steps.js `provide`), and the single run's views naming the host (views/table.js,
// events.js, statement.js, metrics.js, lanes.js). The expected figures are docs/servers.md
// §11.1's, worked by hand there: two replicas, round robin, the key on; attempt 1 → server 0
// commits charge #1 at 200 and its answer is lost; the retry at 3,500 → server 1, which reads the
// key store at 3,500. Shared: a replay, 1 charge. Per server: charge #2. Replicated with lag ℓ:
// the mark visible from 0 + ℓ, the result from 200 + ℓ: a replay iff ℓ ≤ 3,300, a 409 iff
// 3,300 < ℓ ≤ 3,500, charge #2 iff 3,500 < ℓ.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { axeViolations, pageTest, browserSuite } from './lib/harness.js';
import { ID, drawViews, metricsOf, tableRows } from './lib/ui.js';
import { CONTROLLED, STORY } from '../../web/story.js';

const env = browserSuite({ engine: true });

const WIDE = { width: 1280, height: 720 };
const PHONE = { width: 390, height: 844 };
const SECTION = 'section[aria-labelledby="s-servers"]';

// §11.1 by hand: charges, replays, the outcome, and the server of each charge.
const SHARED = { charges: 1, replays: 1, outcome: 'success', by: ['by server 0'] };
const TWICE = { charges: 2, replays: 0, outcome: 'success', by: ['by server 0', 'by server 1'] };
const CONFLICT = { charges: 1, replays: 0, outcome: 'failed', by: ['by server 0'] };

const loadedFiles = (page) => page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));

// Read down to the step: its section in the middle of the screen, its control mounted.
async function readToStep(page) {
  await page.locator('#s-servers').evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.locator('p[data-step="servers"]').nth(1).evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await page.locator('#sv-scope-shared').waitFor({ state: 'visible' });
}

// The figure that shows the step: the sticky one (wide) or the one right after the control.
const figureOf = (page, wide) => (wide ? page.locator('[data-story-figure]') : page.locator('.servers-try + .story-slot .story-figure'));

// The figure's run at its end, as a reader sees it: its verdict, the card statement's lines
// (each with the server that charged it), the lanes' names; and the run's own metrics.
async function figureAtEnd(page, figure, want) {
  const prefix = (await figure.getAttribute('aria-labelledby')).replace(/story-caption$/, '');
  // The figure shows the change once the engine has answered: wait for its run's counts.
  await page.waitForFunction(([p, w]) => {
    const f = window.retryLabStory.figures().find((x) => x.prefix === p);
    const m = f && f.state.result.metrics;
    return m && m.charges === w.charges && m.replays === w.replays && m.outcome === w.outcome;
  }, [prefix, want], { timeout: 5000 }).catch(() => {});
  await page.locator(`#${prefix}seek`).focus();
  await page.keyboard.press('End');
  return figure.evaluate((box, p) => {
    const state = window.retryLabStory.figures().find((f) => f.prefix === p).state;
    const { charges, replays, outcome } = state.result.metrics;
    return {
      metrics: { charges, replays, outcome },
      lines: [...box.querySelectorAll('.rl-statement .st-line')].map((li) => li.textContent),
      total: box.querySelector('.rl-statement .st-total').textContent,
      lanes: [...box.querySelectorAll('svg.lanes .lanes-lane')].map((t) => t.textContent),
      caption: box.querySelector('.story-name').textContent,
    };
  }, prefix);
}

function assertShows(now, want, what) {
  assert.deepEqual(now.metrics, { charges: want.charges, replays: want.replays, outcome: want.outcome }, `${what}: the run`);
  assert.equal(now.lines.length, want.charges, `${what}: one statement line per charge`);
  assert.deepEqual(now.lines.map((l) => l.match(/by server \d+/)?.[0]), want.by, `${what}: each line names the server that charged it`);
  assert.deepEqual(now.lanes, ['Client', 'Server 0', 'Server 1'], `${what}: a lane per server`);
}

describe('issue 39: the retry went to another server', () => {
  test('the prose quotes §11.1 from the engine: 1 charge shared, twice per server, the lag’s three sides', pageTest(env, { sections: false, engine: false }, async ({ page }) => {
    const slot = (step, fact) => page.locator(`${SECTION} [data-story="${step}"][data-fact="${fact}"]`).first().textContent();
    assert.equal(await slot('servers', 'attempts.0.host'), '0');
    assert.equal(await slot('servers', 'attempts.1.host'), '1');
    assert.equal(await slot('servers', 'metrics.charges'), 'one');
    assert.equal(await slot('servers', 'metrics.replays'), 'one');
    assert.equal(await slot('servers-per-server', 'effect'), 'charged twice');
    assert.equal(await slot('servers-lag-replay', 'effect'), 'charged once');
    assert.equal(await slot('servers-lag-409', 'report'), 'error 409');
    assert.equal(await slot('servers-lag-charge', 'effect'), 'charged twice');
  }));

  test('its control waits until the reader nears it; then the scope and the lag drive the figure beside the words, by keyboard', pageTest(env, { viewport: WIDE, sections: false }, async ({ page }) => {
    assert.ok(!(await loadedFiles(page)).some((f) => f.endsWith('/retrylab-servers-step.js')), 'not loaded with the page');
    assert.ok(await page.locator('[data-servers-step]').isHidden(), 'no control before its code');
    await readToStep(page);
    assert.ok((await loadedFiles(page)).some((f) => f.endsWith('/retrylab-servers-step.js')), 'loaded as the reader nears it');
    const figure = figureOf(page, true);
    // Reading the step shows its run: two servers, the shared store (the control's start).
    await page.waitForFunction(() => document.querySelector('[data-story-figure]')?.dataset.showing === 'servers');
    assert.equal(await page.locator('#sv-scope-shared').isChecked(), true);
    let now = await figureAtEnd(page, figure, SHARED);
    assertShows(now, SHARED, 'shared');
    assert.equal(now.caption, 'two servers, one shared key store');
    assert.ok(await page.locator('#sv-lag').isHidden(), 'no lag for a shared store');

    // Keyboard only: the arrow keys move through the scopes.
    await page.locator('#sv-scope-shared').focus();
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.locator('#sv-scope-per-server').isChecked(), true);
    now = await figureAtEnd(page, figure, TWICE);
    assertShows(now, TWICE, 'per server');
    await page.locator('#sv-scope-per-server').focus();
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.locator('#sv-scope-replicated').isChecked(), true);
    assert.ok(await page.locator('#sv-lag').isVisible(), 'the lag, for a replicated store');
    // The lag starts at the boundary, 3,300 ms: the result has just arrived.
    assert.equal(await page.locator('#sv-lag').inputValue(), '3300');
    now = await figureAtEnd(page, figure, SHARED);
    assertShows(now, SHARED, 'lag 3,300 ms');
    assert.equal(now.caption, 'two servers, a replicated key store with a 3,300 ms lag');
    // One whole millisecond more on the slider: the key is there, its result is not.
    await page.locator('#sv-lag-range').focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.locator('#sv-lag').inputValue(), '3301');
    now = await figureAtEnd(page, figure, CONFLICT);
    assertShows(now, CONFLICT, 'lag 3,301 ms');
    // The box takes any lag: 3,300.5 (§11.1's own) is a 409 too; 3,500 still, 3,500.5 charges twice.
    for (const [lag, want] of [['3300.5', CONFLICT], ['3500', CONFLICT], ['3500.5', TWICE], ['3300', SHARED]]) {
      await page.locator('#sv-lag').focus();
      await page.keyboard.press('Control+A');
      await page.keyboard.type(lag);
      now = await figureAtEnd(page, figure, want);
      assertShows(now, want, `lag ${lag} ms`);
    }
    // The slider's whole millisecond past 3,500.
    await page.locator('#sv-lag').fill('3501');
    now = await figureAtEnd(page, figure, TWICE);
    assertShows(now, TWICE, 'lag 3,501 ms');
    // The reader's experiment at the top is not changed by the article.
    assert.deepEqual(await metricsOf(page), { attempts: '2', charges: '2', replays: '0', elapsed: '3,700 ms', outcome: 'success', lookup: 'no' });
  }));

  test('every position the prose quotes is one the control reaches, with the engine’s own run', pageTest(env, { viewport: WIDE, sections: false }, async ({ page }) => {
    await readToStep(page);
    const figure = figureOf(page, true);
    for (const step of CONTROLLED.servers) {
      const { scope, lagMs } = STORY[step].keyStore || { scope: 'shared' };
      await page.locator(`#sv-scope-${scope}`).check();
      if (lagMs !== undefined) await page.locator('#sv-lag').fill(String(lagMs));
      const want = env.compute(STORY[step]).metrics;
      const now = await figureAtEnd(page, figure, want);
      assert.deepEqual(now.metrics, { charges: want.charges, replays: want.replays, outcome: want.outcome }, step);
    }
  }));

  test('a lag the engine refuses is said under the box, and the figure keeps its run', pageTest(env, { viewport: WIDE, sections: false }, async ({ page }) => {
    await readToStep(page);
    await page.locator('#sv-scope-per-server').check();
    const figure = figureOf(page, true);
    await figureAtEnd(page, figure, TWICE);
    await page.locator('#sv-scope-replicated').check();
    await figureAtEnd(page, figure, SHARED); // replicated at the 3,300 ms it starts at: a replay
    await page.locator('#sv-lag').fill('-5');
    await page.waitForFunction(() => document.querySelector('#sv-lag-error').textContent !== '');
    assert.ok((await page.locator('#sv-lag-error').textContent()).length > 10, 'the engine’s words');
    assert.equal(await page.locator('#sv-lag').getAttribute('aria-invalid'), 'true');
    const now = await figureAtEnd(page, figure, SHARED);
    assertShows(now, SHARED, 'after a refused lag, the run before');
    assert.equal(now.caption, 'two servers, a replicated key store with a 3,300 ms lag');
  }));

  test('on a phone the control shows its run in a figure right after it', pageTest(env, { viewport: PHONE, sections: false }, async ({ page }) => {
    await readToStep(page);
    await page.locator('#sv-scope-per-server').check();
    const figure = figureOf(page, false);
    await figure.waitFor({ state: 'visible' });
    const now = await figureAtEnd(page, figure, TWICE);
    assertShows(now, TWICE, 'per server, inline');
    assert.ok((await figure.boundingBox()).y > (await page.locator('.servers-try').boundingBox()).y, 'after the control');
  }));

  test('the step’s link, when the link format carries all its inputs, opens the run in the experiment; else it is not offered', pageTest(env, { viewport: WIDE, sections: false }, async ({ page }) => {
    await readToStep(page);
    await page.locator('#sv-scope-per-server').check();
    await page.waitForFunction(() => document.querySelector('[data-story-figure]')?.dataset.showing === 'servers');
    const href = await page.locator('#sv-link').getAttribute('href');
    assert.match(href, /^#v=1&/);
    const carried = await page.evaluate((h) => JSON.stringify(window.retryLab.codec.parseLink(h).inputs), href);
    const all = JSON.parse(carried).servers !== undefined && JSON.parse(carried).keyStore?.scope === 'per-server';
    assert.equal(await page.locator('#sv-link').isVisible(), all, 'offered exactly when it carries the run');
    if (!all) return;
    await page.locator('#sv-link').click();
    await page.waitForFunction(() => window.retryLab.getState().result.metrics.charges === 2 && Array.isArray(window.retryLab.getState().result.metrics.servers));
    await page.waitForFunction(() => document.activeElement?.id === 'experiment');
    assert.ok((await page.locator('#experiment').boundingBox()).y < 50, 'the reader is taken to the experiment');
  }));

  test('with servers, the experiment’s table, trace, card statement, metrics and lanes name the host', pageTest(env, { viewport: WIDE, sections: false }, async ({ page }) => {
    await page.evaluate((inputs) => window.retryLab.load(inputs), STORY['servers-per-server']);
    await page.waitForFunction(() => Array.isArray(window.retryLab.getState().result.metrics.servers));
    assert.deepEqual(await metricsOf(page), { attempts: '2', charges: '2', replays: '0', elapsed: '3,700 ms', outcome: 'success', lookup: 'no' });
    // The table: a Server column after the attempt's number.
    const heads = await page.locator(`${ID('table')} thead th`).allTextContents();
    assert.deepEqual(heads.slice(0, 2), ['Attempt', 'Server']);
    assert.deepEqual((await tableRows(page)).map((r) => [r[0], r[1], r[5]]), [['1', 'server 0', 'charge #1'], ['2', 'server 1', 'charge #2']]);
    // The trace: each attempt's events carry their server.
    await drawViews(page);
    const events = await page.locator(`${ID('events')} li`).evaluateAll((els) => els.map((li) => [li.querySelector('.event-host')?.firstChild.textContent || null, li.className]));
    const commits = events.filter(([, cls]) => /event-commit/.test(cls)).map(([host]) => host);
    assert.deepEqual(commits, ['server 0', 'server 1']);
    // The per-server counts, a table with its headers: server 0 charged once, server 1 once, a duplicate.
    const servers = page.locator(`${ID('metrics')} table.rl-servers`);
    assert.deepEqual(await servers.locator('thead th').allTextContents(), ['Server', 'Attempts', 'Charges', 'Duplicate charges']);
    const rows = await servers.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    assert.deepEqual(rows, [['server 0', '1', '1', '0'], ['server 1', '1', '1', '1']]);
    assert.equal(await servers.locator('tbody th[scope="row"]').count(), 2);
    // The card statement at the run's end: each charge with its server.
    await page.locator(ID('seek')).focus();
    await page.keyboard.press('End');
    assert.deepEqual(await page.locator('.retry-lab[data-retry-lab] .rl-statement .st-line').allTextContents(), ['49.00 · order o-17 · by server 0', '49.00 · order o-17 · by server 1']);
    // The lanes: a lane per server, attempt 2's request drawn to server 1's.
    const lanes = await page.locator(`${ID('lanes')} svg`).evaluate((svg) => {
      const y = (name) => Number([...svg.querySelectorAll('.lanes-lane')].find((t) => t.textContent === name).getAttribute('y')) - 4;
      const to = (n) => Number(svg.querySelector(`[data-attempt="${n}"] .lanes-request line`).getAttribute('y2'));
      return { server0: y('Server 0'), server1: y('Server 1'), to1: to(1), to2: to(2) };
    });
    assert.equal(lanes.to1, lanes.server0, 'attempt 1 flies to server 0’s lane');
    assert.equal(lanes.to2, lanes.server1, 'attempt 2 flies to server 1’s lane');
    assert.ok(lanes.server1 > lanes.server0);
  }));

  for (const colorScheme of ['light', 'dark']) {
    test(`the step, its control and its figure pass axe-core (${colorScheme})`, pageTest(env, { viewport: WIDE, colorScheme, bypassCSP: true, sections: false }, async ({ page }) => {
      await readToStep(page);
      await page.locator('#sv-scope-replicated').check();
      await figureAtEnd(page, figureOf(page, true), SHARED);
      assert.deepEqual(await axeViolations(page, SECTION), []);
      assert.deepEqual(await axeViolations(page, '[data-story-figure]'), []);
      // The experiment with the step's run: the per-server table and the host column.
      await page.evaluate((inputs) => window.retryLab.load(inputs), STORY['servers-per-server']);
      await page.waitForFunction(() => Array.isArray(window.retryLab.getState().result.metrics.servers));
      await drawViews(page);
      assert.deepEqual(await axeViolations(page, '.retry-lab[data-retry-lab]'), []);
    }));
  }
});
