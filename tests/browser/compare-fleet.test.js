// A comparison of two fleet runs on the page (issue 17, docs/compare.md §3):
// `#v=1&view=compare&of=fleet&<fleet paths>&after.<path>=…` opened in a fresh page shows both
// fleet runs, a difference line per fleet metric, and the two storm charts on one time axis;
// the figures are those `retrysim --link … --format markdown` prints for the same link.
//
// Expected figures from FLEET.md §9.5: the opening fleet run (6,021 requests, 1,063 succeed,
// 20,895 attempts, load 3.47, metastable) does not recover; with policy.maxRetries 0 it recovers
// at 24,000 ms; with gates.bucket on at 30,000 ms; dropping only expired work does not recover,
// dropping what cannot finish in time recovers at 22,000 ms. And relations: with no retries,
// every request is one attempt (attempts = requests, retries 0, load 1); the same arrivals on
// both sides (requests unchanged).

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { artifactPath, assertClean, axeViolations, browserSuite, differenceLines, openPage, retrysimMarkdown } from './lib/harness.js';

const env = browserSuite();

const NO_RETRIES = '#v=1&view=compare&of=fleet&after.policy.maxRetries=0';
const STALE = '#v=1&view=compare&of=fleet&server.dropStale=expired&after.server.dropStale=unfinishable';

async function openFleetCompare(hash, options = {}) {
  const opened = await openPage(env, { path: `/${hash}`, sections: false, inputs: false, ...options });
  await opened.page.waitForFunction(() => document.querySelector('.rl-compare-fleet')?.dataset.compared === 'true', null, { timeout: 60000 });
  return opened;
}

const differences = (page) => differenceLines(page, { root: '.rl-compare-fleet' });

describe('compare mode: two fleet runs', () => {
  test('a fleet comparison link in a fresh page shows both runs and their differences, the figures retrysim prints', async (t) => {
    const opened = await openFleetCompare(NO_RETRIES);
    const { page } = opened;
    assert.equal(await page.locator('[data-retry-lab]').isHidden(), true, 'the single explorable steps aside');
    assert.equal(await page.locator('.rl-compare-fleet [data-compare-summary]').textContent(), 'policy.maxRetries 3 → 0');
    const d = await differences(page);
    assert.deepEqual([d['recovery.recoveredAtMs'].before, d['recovery.recoveredAtMs'].after, d['recovery.recoveredAtMs'].flag], ['never', '24,000 ms', 'outcome']);
    assert.deepEqual([d['recovery.metastable'].before, d['recovery.metastable'].after], ['yes', 'no']);
    assert.deepEqual([d['totals.requests'].before, d['totals.succeeded'].before, d['totals.attempts'].before, d['totals.load'].before], ['6,021', '1,063', '20,895', '3.47']);
    // No retries: one attempt per request, the same arrivals.
    assert.equal(d['totals.requests'].changed, false);
    assert.equal(d['totals.attempts'].after, d['totals.requests'].after);
    assert.deepEqual([d['totals.retries'].after, d['totals.load'].after, d['totals.duplicateCharges'].after], ['0', '1', '0']);
    assert.equal(d['totals.duplicateCharges'].flag, 'side-effect');
    // The verdicts, each side's own.
    assert.equal(await page.locator('[data-verdict="before"]').textContent(), 'still down: a metastable failure');
    assert.equal(await page.locator('[data-verdict="after"]').textContent(), 'recovered at 24 s');
    // The same figures as retrysim's table for the same link.
    const rows = retrysimMarkdown(NO_RETRIES).rows;
    const changed = Object.values(d).filter((x) => x.changed);
    assert.deepEqual(Object.keys(rows).sort(), changed.map((x) => x.label).sort(), 'the same metrics change');
    for (const x of changed) assert.deepEqual([x.before, x.after, x.change], [rows[x.label].before, rows[x.label].after, rows[x.label].change], x.label);
    // Two storm charts on one time axis: the same seconds at the same x in both.
    const ticks = await page.$$eval('.rl-compare-fleet .fl-chart', (charts) => charts.map((c) => [...c.querySelectorAll('text.fl-tick[text-anchor="middle"]')].map((e) => `${e.textContent}@${e.getAttribute('x')}`)));
    assert.equal(ticks.length, 2);
    assert.ok(ticks[0].length >= 6, ticks[0].join(' '));
    assert.deepEqual(ticks[1], ticks[0]);
    // The fleet ran in a worker whose script is the compare bundle (the page's thread stays free).
    assert.ok(page.workers().some((w) => w.url().endsWith('/retrylab-compare.js')), page.workers().map((w) => w.url()).join(' '));
    // Each side opens alone, as a fleet link.
    assert.ok((await page.locator('[data-alone="after"]').getAttribute('href')).endsWith('#v=1&view=fleet&policy.maxRetries=0'));
    assert.ok((await page.locator('[data-alone="before"]').getAttribute('href')).endsWith('#v=1&view=fleet'));
    await page.screenshot({ path: await artifactPath('compare-fleet-light.png'), fullPage: true });
    await assertClean(t, assert, opened);
  });

  test('both sides set: stale work dropped when expired (never) against when it cannot finish (22,000 ms)', async (t) => {
    const opened = await openFleetCompare(STALE);
    const d = await differences(opened.page);
    assert.deepEqual([d['recovery.recoveredAtMs'].before, d['recovery.recoveredAtMs'].after], ['never', '22,000 ms']);
    const rows = retrysimMarkdown(STALE).rows;
    assert.deepEqual([rows['recovers at'].before, rows['recovers at'].after], ['never', '22,000 ms']);
    await assertClean(t, assert, opened);
  });

  test('a bad part of the link is named, and the rest is compared', async (t) => {
    const opened = await openFleetCompare('#v=1&view=compare&of=fleet&policy.nope=1&client=urllib3&after.gates.bucket=on&after.policy.maxRetries=lots');
    const { page } = opened;
    const notice = await page.locator('.rl-compare-fleet .rl-notice').textContent();
    assert.match(notice, /policy\.nope=1: is not a field of the fleet request/);
    assert.match(notice, /client=urllib3: is used only in a comparison of single runs/);
    assert.match(notice, /after\.policy\.maxRetries=lots: is not a number/);
    const d = await differences(page);
    assert.deepEqual([d['recovery.recoveredAtMs'].before, d['recovery.recoveredAtMs'].after], ['never', '30,000 ms'], 'the bucket, FLEET.md §9.5');
    await assertClean(t, assert, opened);
  });

  test('axe-core finds nothing on a fleet comparison, light and dark', async () => {
    for (const colorScheme of ['light', 'dark']) {
      const opened = await openFleetCompare(NO_RETRIES, { colorScheme, bypassCSP: true });
      assert.deepEqual(await axeViolations(opened.page), [], colorScheme);
      if (colorScheme === 'dark') await opened.page.screenshot({ path: await artifactPath('compare-fleet-dark.png'), fullPage: true });
    }
  });
});
