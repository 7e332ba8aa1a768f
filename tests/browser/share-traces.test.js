// Links that name a policy trace (web/traces/, state.trace): the trace on show is in the
// hash, and a link restores it — the herd's callers and seed with trace F, the editor's own
// trace with "custom" — but only when the link's inputs are that trace's; otherwise the run
// is the link's and the notice says why no trace is selected.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertClean, browserSuite, openPage, reopenPage, pageTest } from './lib/harness.js';
import { ID } from './lib/ui.js';

const env = browserSuite();

const plain = (page) => page.evaluate(() => ({
  trace: window.retryLab.getState().trace,
  result: JSON.parse(JSON.stringify(window.retryLab.getState().result)),
  hash: location.hash,
}));
// The notice's text now, or null when there is none (no waiting for one to appear).
const noticeText = (page) => page.evaluate(() => document.querySelector('#rl-notice')?.textContent ?? null);
// Wait until the hash holds every `parts` string and none of `absent` (a function, not a
// string: the page's CSP forbids evaluating strings).
const hashHas = (page, parts, absent = []) => page.waitForFunction(([want, not]) => want.every((p) => location.hash.includes(p)) && !not.some((p) => location.hash.includes(p)), [parts, absent], { timeout: 5000 });

// A link opened as a reader opens it, with openPage's steps: in a new page (openPage's), or in
// `into`, a page of this test's that is done with (issue 31: a new context is a renderer process
// of its own, about half a CPU·s), taken through about:blank to the link as the harness's reused
// page is between tests: a fresh document, engine and sections, its recorder (console, CSP,
// other hosts) kept, so assertClean on it also covers the pages it showed before.
async function reopen(t, hash, into = null) {
  if (!into) return openPage(env, { path: `/${hash}` });
  return reopenPage(env, into, { path: `/${hash}` });
}

describe('links to a policy trace', () => {
  test('each trace on show is in the hash, and its link opens it selected, the same run', pageTest(env, {}, async ({ page, t }) => {
    const ids = await page.evaluate(() => window.retryLabTraces.traceIds);
    assert.ok(ids.includes('B') && ids.includes('F') && ids.includes('custom'), ids.join());
    let again = null;
    for (const id of ids.filter((x) => x !== 'custom')) {
      assert.equal(await page.evaluate((x) => window.retryLabTraces.selectTrace(x), id), true);
      await hashHas(page, [`#v=1&trace=${encodeURIComponent(id)}&`]);
      const shown = await plain(page);
      again = await reopen(t, shown.hash, again);
      const restored = await plain(again.page);
      assert.equal(restored.trace, id, `trace ${id} is selected again`);
      assert.deepEqual(restored.result, shown.result, `trace ${id}: the same run`);
      assert.equal(await noticeText(again.page), null);
      await assertClean(t, assert, again);
    }
    // A control change makes it another run: the trace leaves the link.
    await page.locator(ID('maxRetries')).fill('1');
    await hashHas(page, ['#v=1'], ['trace=']);
  }));

  test('trace F carries the herd: callers and seed come back, and a change of callers reaches the hash', async (t) => {
    const opened = await openPage(env);
    const { page } = opened;
    await page.evaluate(() => {
      window.retryLabTraces.setHerd({ callers: 200, seed: 7 });
      window.retryLabTraces.selectTrace('F');
    });
    await hashHas(page, ['trace=F&herdCallers=200&', '&seed=7']);
    // The herd's own field, typed into: the link follows though the run on show does not change.
    const callers = page.locator('#tr-callers');
    await callers.fill('300');
    await hashHas(page, ['herdCallers=300']);
    const shown = await plain(page);
    await assertClean(t, assert, opened);

    const again = await reopen(t, shown.hash, opened);
    const restored = await plain(again.page);
    assert.equal(restored.trace, 'F');
    assert.deepEqual(restored.result, shown.result);
    assert.deepEqual(await again.page.evaluate(() => window.retryLabTraces.getState().herd), { callers: 300, seed: 7 });
    assert.equal(await again.page.locator('#tr-callers').inputValue(), '300');
    await assertClean(t, assert, again);
  });

  test('the reader\'s own trace goes into the editor and is selected', async (t) => {
    const opened = await openPage(env);
    const { page } = opened;
    const custom = {
      scenario: 'script', script: [{ status: 503, retryAfter: '1' }, { status: 500 }, { status: 200 }],
      operation: 'read', maxRetries: 4, baseBackoffMs: 500, maxBackoffMs: 8000, jitter: 'full', draws: [0.25, 0.5],
      waitBudgetMs: 20000, deadlineMs: null, retryOn: ['timeout', '429', '5xx'], retryWritesWithoutKey: false,
    };
    const problems = await page.evaluate((inputs) => window.retryLabTraces.setCustom(inputs), custom);
    assert.equal(problems, null);
    await page.evaluate(() => window.retryLabTraces.selectTrace('custom'));
    await hashHas(page, ['#v=1&trace=custom&']);
    const shown = await plain(page);
    const editor = await page.evaluate(() => window.retryLabTraces.getState().custom);
    await assertClean(t, assert, opened);

    const again = await reopen(t, shown.hash, opened);
    const restored = await plain(again.page);
    assert.equal(restored.trace, 'custom');
    assert.deepEqual(restored.result, shown.result);
    assert.deepEqual(await again.page.evaluate(() => window.retryLabTraces.getState().custom), editor);
    await assertClean(t, assert, again);
  });

  test('a trace that does not match the link\'s run, or does not exist, is named in the notice', async (t) => {
    // Trace A's link with one value changed by hand: the run is the link's, no trace selected.
    const opened = await openPage(env);
    await opened.page.evaluate(() => window.retryLabTraces.selectTrace('A'));
    await hashHas(opened.page, ['#v=1&trace=A&']);
    const hashA = (await plain(opened.page)).hash;
    const edited = hashA.replace('maxRetries=4', 'maxRetries=2');
    assert.notEqual(edited, hashA);
    const mismatch = await reopen(t, edited, opened);
    const state = await plain(mismatch.page);
    assert.equal(state.trace, null);
    assert.equal(state.result.inputs.maxRetries, 2);
    assert.match(await noticeText(mismatch.page), /trace=A: is not this run/);
    await assertClean(t, assert, mismatch);

    const unknown = await reopen(t, '#v=1&trace=%3Cb%3EZ&herdCallers=5&maxRetries=0', opened);
    const u = await plain(unknown.page);
    assert.equal(u.trace, null);
    assert.equal(u.result.inputs.maxRetries, 0, 'the run is still the link\'s');
    const text = await noticeText(unknown.page);
    assert.match(text, /trace=<b>Z: is not one of this page's traces/);
    assert.match(text, /herdCallers=5: is used only with trace=F/);
    await assertClean(t, assert, unknown);

    const hashF = await (async () => {
      const f = await reopen(t, '', opened);
      await f.page.evaluate(() => window.retryLabTraces.selectTrace('F'));
      await hashHas(f.page, ['#v=1&trace=F&herdCallers=50&']);
      const hash = (await plain(f.page)).hash;
      return hash;
    })();
    const badHerd = await reopen(t, hashF.replace('herdCallers=50', 'herdCallers=2000000'), opened);
    assert.match(await noticeText(badHerd.page), /herdCallers=2000000: callers must be/);
    assert.equal((await badHerd.page.evaluate(() => window.retryLabTraces.getState().herd)).callers, 50, 'the herd keeps its callers');
    assert.equal((await plain(badHerd.page)).trace, 'F');
    await assertClean(t, assert, badHerd);
  });
});
