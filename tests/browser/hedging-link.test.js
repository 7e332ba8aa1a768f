// Hedging in links in the browser (README, "Links to a run"): a hedged preset's Copy link reopens
// the same hedged run, compare mode reads and writes a hedged side, and <retry-lab hedging="…">
// runs the hedged run its attributes say. Before links carried hedging, the preset's link
// reopened as one attempt charged once.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertClean, browserSuite, differenceLines, openPage } from './lib/harness.js';
import { serve, siteCopy, watchedPage } from './lib/sites.js';

const env = browserSuite({ engine: true });
const plain = (x) => JSON.parse(JSON.stringify(x));
const pageResult = (page) => page.evaluate(() => JSON.parse(JSON.stringify(window.retryLab.getState().result)));

// gRPC A6's example hedging policy, as the preset gRPC's hedging example sets it.
const A6_EXAMPLE = { kind: 'a6', maxAttempts: 4, delayMs: 500, nonFatal: ['429', '5xx'] };

let site;
let server;
env.setUp(async () => {
  site = siteCopy({
    files: {
      'hedged.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Hedged</title><link rel="icon" href="favicon.svg">
<script src="retry-lab-element.js" defer></script></head><body><main><h1>Hedged</h1>
<retry-lab id="hedged" max-retries="0" hedging="maxAttempts:4~delayMs:500~nonFatal:429;5xx"></retry-lab>
<retry-lab id="bad" max-retries="0" hedging="maxAttempts:4~maxAttempts:3"></retry-lab></main></body></html>`,
    },
  });
  server = await serve(site.dir);
});
env.tearDown(async () => {
  await server?.close();
  site?.remove();
});

describe('hedging in links', () => {
  test('a hedged preset\'s Copy link reopens the same hedged run: two charges, success at 700 ms', async (t) => {
    const opened = await openPage(env, { path: '/' }); // with the sections: the client lab
    const { page, context } = opened;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.origin });
    await page.getByLabel('Client', { exact: true }).selectOption('grpc-hedging');
    await page.waitForFunction(() => window.retryLab.getState().client === 'grpc-hedging');
    const shown = await pageResult(page);
    assert.deepEqual(shown.inputs.hedging, A6_EXAMPLE);
    // The opening run's lost response: the copy sent at 500 ms is answered at 700 (the preset's "opening").
    assert.deepEqual([shown.metrics.attempts, shown.metrics.charges, shown.metrics.elapsedMs, shown.metrics.outcome], [2, 2, 700, 'success']);
    await page.waitForFunction(() => location.hash.includes('&hedging='));
    assert.match(await page.evaluate(() => location.hash), /&hedging=maxAttempts:4~delayMs:500~nonFatal:429;5xx$/);

    await page.getByRole('button', { name: 'Copy link' }).click();
    await page.getByText('Link copied.').waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, await page.evaluate(() => location.href));
    await assertClean(t, assert, opened);

    const again = await openPage(env, { path: copied.slice(env.server.origin.length) });
    assert.deepEqual(await pageResult(again.page), shown, 'the link reopens exactly the hedged run');
    assert.equal(await again.page.evaluate(() => document.querySelector('#rl-notice')?.textContent ?? null), null, 'no notice');
    await assertClean(t, assert, again);
  });

  test('compare mode: gRPC A6\'s example against no hedging, read from the link and written back the same', async (t) => {
    const hash = '#v=1&view=compare&maxRetries=0&hedging=maxAttempts:4~delayMs:500~nonFatal:429;5xx&after.hedging=none';
    const opened = await openPage(env, { path: `/${hash}`, sections: false });
    const { page } = opened;
    await page.waitForFunction(() => document.documentElement.classList.contains('rl-compare-ready'));
    assert.equal(await page.locator('.rl-compare .rl-notice').count(), 0, 'no notice');
    const diffs = await differenceLines(page);
    // Hedged: copies at 0 and 500, charged twice; not: one attempt, lost, charged once.
    assert.deepEqual([diffs.attempts.before, diffs.attempts.after], ['2', '1']);
    assert.deepEqual([diffs.charges.before, diffs.charges.after], ['2', '1']);
    assert.equal(await page.evaluate(() => location.hash), hash, 'the comparison writes the same link');
    await assertClean(t, assert, opened);
  });

  test('<retry-lab hedging="…"> runs the hedged run; hedging it cannot read is named and left out', async () => {
    const watched = await watchedPage(env);
    const p = watched.page;
    await p.goto(`${server.origin}/hedged.html`);
    await p.waitForFunction(() => document.querySelectorAll('retry-lab.rl-ready').length === 2);
    const resultOf = (id) => p.evaluate((x) => JSON.parse(JSON.stringify(document.getElementById(x).explorable.getState().result)), id);
    assert.deepEqual(await resultOf('hedged'), plain(env.engine.compute({ maxRetries: 0, hedging: A6_EXAMPLE })));
    assert.equal((await resultOf('bad')).inputs.hedging, undefined);
    const notice = await p.evaluate(() => document.getElementById('bad').shadowRoot.querySelector('.rl-notice')?.textContent ?? '');
    assert.match(notice, /hedging/);
    assert.match(notice, /says maxAttempts twice/);
    assert.deepEqual(watched.problems, [], 'console errors');
  });
});
