// Compare mode (issue 17): a comparison link opened in a fresh page shows both runs and their
// differences; retrysim --compare --format markdown prints the same figures for the same
// link; each side has its own controls and opens alone; "Compare with…" starts one from the
// run on show; axe-core finds nothing, light and dark; the README's iframe snippet still
// sizes the embed in compare mode; the opening page does not load the compare bundle.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, artifactPath, assertClean, axeViolations, browserSuite, copiedAndPrintedMarkdown, differenceLines, openPage, reopenPage, retrysimMarkdown, watchedPage } from './lib/harness.js';
import { serve, siteCopy } from './lib/sites.js';
import { frames } from './lib/ui.js';


const env = browserSuite();

const LINK = '#v=1&view=compare&after.maxRetries=0';
const PRESET_LINK = '#v=1&view=compare&client=urllib3&after.maxRetries=10';

// A comparison link opened with openPage's steps: in a new page (openPage's), or in `into`, a
// page of this test's that is done with (issue 31: a new context is a renderer process of its
// own, about half a CPU·s), taken through about:blank to the link as the harness's reused page
// is between tests: a fresh document and engine, its recorder (console, CSP, other hosts) and
// permissions kept, so assertClean on it also covers the links it showed before.
async function openCompare(hash, options = {}, into = null) {
  let opened = into;
  if (into) await reopenPage(env, into, { path: `/${hash}`, sections: false });
  else opened = await openPage(env, { path: `/${hash}`, sections: false, ...options });
  await opened.page.waitForFunction(() => document.documentElement.classList.contains('rl-compare-ready'));
  return opened;
}

// The difference lines as the page shows them: metric → { label, before, after, change, flag }.
const differences = (page) => differenceLines(page);
const markdownRows = retrysimMarkdown;

const figures = (text) => (text.match(/-?[\d,]+(\.\d+)?/g) || []).map((n) => Number(n.replace(/,/g, '')));

describe('compare mode', () => {
  test('a comparison link in a fresh page shows both runs and their differences, the figures retrysim prints', async (t) => {
    const opened = await openCompare(LINK);
    const { page } = opened;
    // Both runs, each with its own controls.
    assert.equal(await page.locator('[data-retry-lab]').isHidden(), true, 'the single explorable steps aside');
    assert.equal(await page.locator('#cmp-b-maxRetries').inputValue(), '3');
    assert.equal(await page.locator('#cmp-a-maxRetries').inputValue(), '0');
    const summary = await page.locator('[data-compare-summary]').textContent();
    assert.equal(summary, 'maxRetries 3 → 0');
    const diffs = await differences(page);
    // SPEC §9: the opening run against maxRetries 0.
    assert.deepEqual([diffs.charges.before, diffs.charges.after, diffs.charges.flag], ['2', '1', 'side-effect']);
    assert.match(diffs.charges.change, /side effect changes/);
    assert.deepEqual([diffs.outcome.before, diffs.outcome.after, diffs.outcome.flag], ['success', 'unknown', 'outcome']);
    assert.deepEqual([diffs.elapsedMs.before, diffs.elapsedMs.after], ['3,700 ms', '3,000 ms']);
    assert.equal(diffs.replays.changed, false);
    // The flagged rows are highlighted.
    const flagged = await page.$$eval('.rl-diff-flag', (rows) => rows.map((r) => r.dataset.metric));
    assert.deepEqual(flagged.sort(), ['charges', 'duplicates', 'outcome']);
    // The same figures as retrysim's table for the same link.
    const { rows } = markdownRows(LINK);
    const changed = Object.values(diffs).filter((d) => d.changed);
    assert.deepEqual(Object.keys(rows).sort(), changed.map((d) => d.label).sort(), 'the same metrics change');
    for (const d of changed) {
      const row = rows[d.label];
      assert.deepEqual(figures(d.before), figures(row.before), `${d.label} before`);
      assert.deepEqual(figures(d.after), figures(row.after), `${d.label} after`);
      assert.deepEqual(figures(d.change), figures(row.change), `${d.label} change`);
      assert.equal(d.before, row.before);
      assert.equal(d.after, row.after);
    }
    // Both timelines on one axis: the same scale, so attempt 1 (0–3,000 ms) spans the same pixels.
    const bars = await page.$$eval('.cmp-timeline .cmp-lane', (lanes) => lanes.map((lane) => [...lane.querySelectorAll('.cmp-bar')].map((b) => [Number(b.getAttribute('x')), Number(b.getAttribute('width'))])));
    assert.equal(bars.length, 2);
    assert.equal(bars[0].length, 2, 'before: two attempts');
    assert.equal(bars[1].length, 1, 'after: one attempt');
    assert.deepEqual(bars[1][0], bars[0][0], 'attempt 1 is drawn at the same place in both');
    // Each side opens alone.
    const alone = await page.locator('[data-alone="after"]').getAttribute('href');
    assert.ok(alone.endsWith('#v=1&maxRetries=0'), alone);
    await page.screenshot({ path: await artifactPath('compare-light.png'), fullPage: true });
    await assertClean(t, assert, opened);
  });

  test('each side has its own controls: changing one recomputes the differences and rewrites the link', async (t) => {
    const opened = await openCompare(LINK);
    const { page } = opened;
    await page.locator('#cmp-a-maxRetries').fill('3');
    await page.waitForFunction(() => document.querySelector('[data-compare-summary]').textContent === 'the same inputs');
    assert.equal((await differences(page)).charges.changed, false);
    await page.getByRole('checkbox', { name: /idempotency key/i }).nth(1).check();
    await page.waitForFunction(() => window.location.hash === '#v=1&view=compare&after.idempotencyKey=true');
    const diffs = await differences(page);
    assert.deepEqual([diffs.charges.before, diffs.charges.after, diffs.replays.after], ['2', '1', '1']);
    assert.equal(diffs.outcome.changed, false);
    // The link box holds the comparison.
    assert.ok((await page.locator('#cmp-link').inputValue()).endsWith('#v=1&view=compare&after.idempotencyKey=true'));
    // Opening one side alone brings the single explorable back, on that run.
    await page.locator('[data-alone="after"]').click();
    await page.waitForFunction(() => !document.documentElement.classList.contains('rl-compare-ready'));
    await page.waitForFunction(() => window.retryLab.getState().result.inputs.idempotencyKey === true);
    assert.equal(await page.locator('[data-retry-lab]').isVisible(), true);
    await assertClean(t, assert, opened);
  });

  test('a preset named by the link: "urllib3’s default Retry, maxRetries 3 → 10", its policy on both sides', async (t) => {
    const opened = await openCompare(PRESET_LINK);
    const { page } = opened;
    assert.equal(await page.locator('[data-compare-summary]').textContent(), 'urllib3’s default Retry, maxRetries 3 → 10');
    assert.equal(await page.locator('[data-compare-summary] code').textContent(), 'maxRetries');
    assert.match(await page.locator('[data-client="before"]').textContent(), /urllib3/);
    assert.equal(await page.locator('#cmp-a-maxRetries').inputValue(), '10');
    // urllib3 does not retry a POST after a read timeout (its source's opening run): 1 attempt both.
    const diffs = await differences(page);
    assert.deepEqual([diffs.attempts.before, diffs.attempts.after], ['1', '1']);
    await assertClean(t, assert, opened);
  });

  test('the article’s mesh link, far below the explorable, takes the reader to its comparison: Istio’s default against its documented example', async (t) => {
    const opened = await openPage(env, { path: '/', sections: false });
    const { page } = opened;
    const link = page.locator('a[data-mesh-link]');
    await link.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await link.click();
    await page.waitForFunction(() => document.documentElement.classList.contains('rl-compare-ready') && document.activeElement && document.activeElement.id === 'cmp-heading');
    // The comparison is where the reader is: its heading focused and on screen.
    const box = await page.locator('#cmp-heading').boundingBox();
    const height = await page.evaluate(() => window.innerHeight);
    assert.ok(box && box.y > -1 && box.y < height, `the heading at ${box && box.y} px of ${height}`);
    assert.match(await page.locator('[data-client="before"]').textContent(), /\(istio\)/);
    assert.match(await page.locator('[data-client="after"]').textContent(), /\(istio-example\)/);
    // The article's claims: the default leaves the lost response alone, the example charges twice.
    const diffs = await differences(page);
    assert.deepEqual([diffs.charges.before, diffs.charges.after], ['1', '2']);
    assert.deepEqual([diffs.outcome.before, diffs.outcome.after], ['unknown', 'success']);
    await assertClean(t, assert, opened);
  });

  test('"Compare with…" beside Copy link starts a comparison from the run on show', async (t) => {
    const opened = await openPage(env, { path: '/#v=1&maxRetries=1', sections: false });
    const { page } = opened;
    // The opening page has not loaded the compare bundle.
    assert.equal(await page.evaluate(() => [...document.scripts].some((s) => /retrylab-compare/.test(s.src))), false);
    await page.getByRole('button', { name: 'Compare with…' }).click();
    await page.waitForFunction(() => document.documentElement.classList.contains('rl-compare-ready'));
    assert.equal(await page.evaluate(() => window.location.hash), '#v=1&view=compare&maxRetries=1');
    assert.equal(await page.locator('#cmp-b-maxRetries').inputValue(), '1');
    assert.equal(await page.locator('#cmp-a-maxRetries').inputValue(), '1');
    assert.equal(await page.locator('[data-compare-summary]').textContent(), 'the same inputs');
    await assertClean(t, assert, opened);
  });

  test('from a client\'s configuration to a comparison: the link names the preset and only the changed field', async (t) => {
    const opened = await openPage(env, { path: '/' }); // with the sections: the client lab
    const { page } = opened;
    await page.getByLabel('Client', { exact: true }).selectOption('urllib3');
    await page.waitForFunction(() => window.retryLab.getState().client === 'urllib3');
    await page.getByRole('button', { name: 'Compare with…' }).click();
    await page.waitForFunction(() => document.documentElement.classList.contains('rl-compare-ready'));
    assert.equal(await page.evaluate(() => window.location.hash), '#v=1&view=compare&client=urllib3');
    await page.locator('#cmp-a-maxRetries').fill('10');
    await page.waitForFunction(() => window.location.hash === '#v=1&view=compare&client=urllib3&after.maxRetries=10');
    assert.equal(await page.locator('[data-compare-summary]').textContent(), 'urllib3’s default Retry, maxRetries 3 → 10');
    await assertClean(t, assert, opened);
  });

  test('a bad comparison link: the notice names each bad key, the rest still compares', async (t) => {
    const opened = await openCompare('#v=1&view=compare&after.maxRetrys=1&after.maxRetries=0');
    const { page } = opened;
    const notice = await page.locator('.rl-compare .rl-notice').textContent();
    assert.match(notice, /after\.maxRetrys=1: is not an input of the engine/);
    assert.equal((await differences(page)).charges.after, '1');
    await assertClean(t, assert, opened);
  });

  for (const colorScheme of ['light', 'dark']) {
    test(`axe-core reports no violations in compare mode, ${colorScheme}`, async () => {
      const { page } = await openCompare(PRESET_LINK.replace('after.maxRetries=10', 'after.idempotencyKey=true'), { colorScheme, bypassCSP: true });
      assert.deepEqual(await axeViolations(page), []);
      await page.screenshot({ path: await artifactPath(`compare-${colorScheme}-preset.png`), fullPage: true });
    });
  }

  // The one Markdown writer (docs/compare.md §5): the page's Markdown is retrysim's, byte for
  // byte, for the same link with --base-url this page, a hostile value among them.
  test('Copy as Markdown copies what retrysim --format markdown prints for the same link', async (t) => {
    const hostile = '#v=1&view=compare&after.operationId=%5Bsee%20fix%5D(https%3A%2F%2Fevil.example)%20!%5Bt%5D(https%3A%2F%2Ftrack.example%2Fp.gif)%20%40org%2Fteam%20%3C!--';
    let opened = null;
    for (const link of [LINK, PRESET_LINK, hostile]) {
      opened = await openCompare(link, {}, opened);
      const { copied, printed, base } = await copiedAndPrintedMarkdown(opened, link, env.server.origin);
      assert.equal(copied, printed, link);
      assert.ok(copied.includes(`(${base}index.html${link.replace(/[()!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)})`), copied);
      await assertClean(t, assert, opened);
    }
  });

  test('at phone width the sides stack and nothing scrolls sideways', async (t) => {
    const opened = await openCompare(LINK, { viewport: { width: 390, height: 844 } });
    const { page } = opened;
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0);
    await page.screenshot({ path: await artifactPath('compare-narrow.png'), fullPage: true });
    await assertClean(t, assert, opened);
  });
});

// The README's iframe snippet, on a page of another origin, with a comparison in the embed.
const embedEnv = env;
let parent;
let parentFiles;
embedEnv.setUp(async () => {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const marker = readme.indexOf('<!-- The browser tests run this snippet');
  const snippet = /```html\n([\s\S]*?)```/.exec(readme.slice(marker))[1];
  const use = snippet.replaceAll('https://retrylab.example', embedEnv.server.origin).replace('#v=1&maxRetries=0', LINK);
  parentFiles = siteCopy({
    copySite: false,
    files: { 'review.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A review</title><link rel="icon" href="data:,"></head><body><main><h1>A review</h1>${use}</main></body></html>` },
  });
  parent = await serve(parentFiles.dir, { csp: null });
});
embedEnv.tearDown(async () => {
  await parent?.close();
  parentFiles?.remove();
});

describe('compare mode in the iframe', () => {
  test('the README snippet sizes the frame to the comparison', async () => {
    const watched = await watchedPage(embedEnv);
    const { page } = watched;
    await page.goto(`${parent.origin}/review.html`);
    const frame = await (await page.locator('#retry-lab').elementHandle()).contentFrame();
    await frame.waitForFunction(() => document.documentElement.classList.contains('rl-compare-ready'));
    const sizes = async () => {
      const attribute = Number(await page.locator('#retry-lab').getAttribute('height'));
      const content = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
      return { attribute, content };
    };
    let now;
    for (let i = 0; i < 40; i += 1) {
      now = await sizes();
      if (now.attribute === now.content && now.attribute !== 900) break;
      await frames(page, 3);
    }
    assert.equal(now.attribute, now.content, 'the frame is as tall as the comparison');
    assert.ok(now.content > 900, `a tall comparison (${now.content}px)`);
    // Each side opens alone on the full page, in a new tab.
    assert.equal(await frame.locator('[data-alone="before"]').getAttribute('href'), `${embedEnv.server.origin}/index.html#v=1`);
    assert.equal(await frame.locator('[data-alone="before"]').getAttribute('target'), '_blank');
    assert.deepEqual(watched.problems, []);
  });
});
