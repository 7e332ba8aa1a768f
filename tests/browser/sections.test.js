// The sections below the article (the policy traces, the client lab) come in a second bundle
// and stylesheet, loaded when the reader nears them (web/load-sections.js): a reader who
// never scrolls there never downloads them, one who does finds them drawn, and a link or an
// address that needs them waits for them.

import { describe } from 'node:test';
import assert from 'node:assert/strict';
import { assertClean, loadSections, browserSuite, openPage, pageTest, test } from './lib/harness.js';
import { ID, metricsOf } from './lib/ui.js';

const env = browserSuite();

const SECTION_FILES = /\/retrylab-sections\.(js|css)$/;
const loadedFiles = (page) => page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname));
const sectionsState = (page) => page.evaluate(() => ({
  traces: Boolean(window.retryLabTraces),
  clients: Boolean(window.retryLabClients),
  ready: document.documentElement.classList.contains('rl-sections-ready'),
  trace: window.retryLab.getState().trace,
}));
// A few frames and a pause: long enough for a load that had started to show in the timings.
const settle = (page) => page.evaluate(() => new Promise((done) => {
  let n = 0;
  const frame = () => (++n < 10 ? requestAnimationFrame(frame) : setTimeout(done, 300));
  requestAnimationFrame(frame);
}));

// A page link to trace B, as the page itself writes it.
async function linkToTrace(id) {
  const opened = await openPage(env);
  await opened.page.evaluate((x) => window.retryLabTraces.selectTrace(x), id);
  await opened.page.waitForFunction((x) => location.hash.includes(`trace=${x}&`), id, { timeout: 5000 });
  const hash = await opened.page.evaluate(() => location.hash);
  return hash;
}

// Its tests run two at a time, each on a page of its own (issue 31): they mostly wait on loads,
// settling frames and held bundles.
describe('the sections below the article', { concurrency: 2 }, () => {
  test('the page opens without them: their files are not fetched, and each says it is loading', pageTest(env, { sections: false }, async ({ page }) => {
    await settle(page);
    const files = await loadedFiles(page);
    assert.ok(files.some((f) => f.endsWith('/retrylab.js')), files.join(', '));
    assert.deepEqual(files.filter((f) => SECTION_FILES.test(f)), [], 'nothing of the sections before the reader nears them');
    assert.deepEqual(await sectionsState(page), { traces: false, clients: false, ready: false, trace: null });
    // The engine is there by now: each says what it is waiting for.
    assert.equal(await page.locator('[data-retry-traces] .rl-loading').textContent(), 'Loading the traces…');
    assert.equal(await page.locator('[data-client-lab] .rl-loading').textContent(), 'Loading the client lab…');
  }));

  // Issue 35 item 10: the client lab, the layers and the traces mounted in one task after the
  // bundle's (3 s with the CPU slowed four times, at the scroll that reached them). Each now
  // mounts in a task of its own: when the task that mounted the client lab ends (its mutations
  // are reported then), the other two are not mounted yet.
  test('the three sections mount one task each, not all in one', pageTest(env, { sections: false }, async ({ page }) => {
    const afterFirst = await page.evaluate(() => new Promise((resolve) => {
      const box = document.querySelector('[data-client-lab]');
      const seen = new MutationObserver(() => {
        seen.disconnect();
        resolve({ clients: Boolean(window.retryLabClients), layers: Boolean(window.retryLabLayers), traces: Boolean(window.retryLabTraces) });
      });
      seen.observe(box, { childList: true, subtree: true });
      window.retryLabSections.load();
    }));
    assert.deepEqual(afterFirst, { clients: true, layers: false, traces: false });
    await page.evaluate(() => window.retryLabSections.load());
    assert.ok(await page.evaluate(() => Boolean(window.retryLabLayers && window.retryLabTraces)), 'all three once load() resolves');
  }));

  test('without JavaScript each says what it needs, and nothing says it is loading', async () => {
    const context = await env.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${env.server.origin}/`);
    for (const box of ['[data-retry-traces]', '[data-client-lab]']) {
      assert.equal(await page.locator(`${box} .rl-loading`).isVisible(), false, `${box}: no "Loading…"`);
      assert.match(await page.locator(`${box} .rl-failure`).textContent(), /needs? JavaScript/, box);
      assert.equal(await page.locator(`${box} .rl-failure`).isVisible(), true, box);
    }
  });

  test('scrolling toward them loads and draws them before they come into view', pageTest(env, { sections: false, viewport: { width: 1280, height: 900 } }, async ({ page }) => {
    // Stop a screen above the traces: they are not in view yet, but near.
    const top = await page.evaluate(() => document.getElementById('traces').getBoundingClientRect().top + scrollY);
    await page.evaluate((y) => window.scrollTo(0, y), Math.max(0, top - 2 * 900));
    await page.waitForFunction(() => document.documentElement.classList.contains('rl-sections-ready'), null, { timeout: 10000 });
    const inView = await page.evaluate(() => document.getElementById('traces').getBoundingClientRect().top < innerHeight);
    assert.equal(inView, false, 'loaded while still out of view');
    assert.equal((await sectionsState(page)).traces, true);
    assert.equal(await page.locator('#tr-matrix tr[data-trace="A"]').count(), 1, 'the traces are drawn');
    assert.equal(await page.getByLabel('Client', { exact: true }).inputValue(), 'seed', 'the client lab is drawn');
    const files = (await loadedFiles(page)).filter((f) => SECTION_FILES.test(f)).sort();
    assert.deepEqual(files, ['/retrylab-sections.css', '/retrylab-sections.js'], 'each file once');
    // The sections work on the experiment above: a trace loads into it.
    await page.locator('#tr-matrix tr[data-trace="A"] th').click();
    assert.equal((await sectionsState(page)).trace, 'A');
  }));

  test('a link that names a trace opens with the sections loaded and the trace selected', async (t) => {
    const hash = await linkToTrace('B');
    const opened = await openPage(env, { path: `/${hash}`, sections: false });
    // At rl-ready, not later: the link was read with the traces there.
    assert.deepEqual(await sectionsState(opened.page), { traces: true, clients: true, ready: true, trace: 'B' });
    assert.equal(await opened.page.evaluate(() => document.querySelector('#rl-notice')?.textContent ?? null), null, 'no notice');
    await assertClean(t, assert, opened);
  });

  test('the address #traces opens with the traces drawn', async (t) => {
    const opened = await openPage(env, { path: '/#traces', sections: false });
    const state = await sectionsState(opened.page);
    assert.equal(state.traces && state.ready, true);
    await assertClean(t, assert, opened);
  });

  test('a trace link followed before the sections have come: the run at once, the trace when they arrive', async (t) => {
    const hash = await linkToTrace('C');
    const opened = await openPage(env, { sections: false });
    const { page } = opened;
    await page.evaluate((h) => { location.hash = h; }, hash);
    await page.waitForFunction(() => window.retryLab.getState().trace === 'C', null, { timeout: 10000 });
    assert.equal((await sectionsState(page)).ready, true);
    assert.equal(await page.evaluate(() => document.querySelector('#rl-notice')?.textContent ?? null), null, 'no notice');
    await assertClean(t, assert, opened);
  });

  test('a trace link when the traces cannot load: the link\'s run, and a notice that says why no trace is selected', async () => {
    const hash = await linkToTrace('B');
    const context = await env.newContext();
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await context.route('**/retrylab-sections.js', (route) => route.abort());
    await page.goto(`${env.server.origin}/${hash}`);
    await page.waitForFunction(() => document.documentElement.classList.contains('rl-ready'));
    await page.waitForFunction(() => document.querySelector('#rl-notice') !== null);
    assert.match(await page.locator('#rl-notice').textContent(), /trace.*names a policy trace, but the traces section could not load/);
    const state = await page.evaluate(() => ({ trace: window.retryLab.getState().trace, scenario: window.retryLab.getState().result.inputs.scenario }));
    assert.deepEqual(state, { trace: null, scenario: 'script' }, 'the link\'s run, trace B\'s inputs, with no trace selected');
    assert.deepEqual(errors, []);
  });

  test('if their bundle cannot load, each section says so and the experiment carries on', async (t) => {
    const context = await env.newContext();
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await context.route('**/retrylab-sections.js', (route) => route.abort());
    await page.goto(`${env.server.origin}/`);
    await page.waitForFunction(() => document.documentElement.classList.contains('rl-ready'));
    assert.match(await loadSections(page), /^failed: .*retrylab-sections\.js did not load/);
    for (const box of ['[data-retry-traces]', '[data-client-lab]']) {
      const alert = page.locator(`${box} [role="alert"]`);
      assert.match(await alert.textContent(), /This section could not load .* The experiment above still works\./);
    }
    assert.ok(await page.evaluate(() => document.documentElement.classList.contains('rl-sections-failed')));
    await page.locator(ID('open-inputs')).click(); // the first screen shows the key switch alone
    await page.locator(ID('maxRetries')).fill('0');
    assert.equal((await metricsOf(page)).attempts, '1', 'the experiment still computes');
    assert.deepEqual(errors, []);
  });

  test('printing before they have come prints their prose without "Loading…", and brings them for the next print', pageTest(env, { sections: false }, async ({ page }) => {
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.locator('[data-retry-traces] .rl-loading').isVisible(), false);
    assert.equal(await page.locator('[data-client-lab] .rl-loading').isVisible(), false);
    assert.equal(await page.locator('#traces-heading').isVisible(), true, 'the section itself prints');
    await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
    await page.waitForFunction(() => document.documentElement.classList.contains('rl-sections-ready'), null, { timeout: 10000 });
    assert.equal(await page.locator('#tr-matrix tr[data-trace="A"]').isVisible(), true, 'the next print has the traces');
  }));

  // A keyboard reader who tabs down the page, on a connection slow enough that the sections
  // have not arrived when focus leaves the article (the bundle is held back until focus is
  // there): focus waits on their "Loading…" and moves into them when they come, instead of
  // passing them by to the browser's own controls.
  for (const slow of [false, true]) {
    test(`a keyboard reader tabbing down a short window reaches them on the first pass (bundle ${slow ? 'held back' : 'prompt'})`, async (t) => {
      let release = () => {};
      const held = new Promise((go) => { release = go; });
      const hold = slow ? ['**/retrylab-sections.js', (r) => held.then(() => r.fallback())] : null;
      const opened = await openPage(env, { sections: false, viewport: { width: 1280, height: 400 }, route: hold });
      const { page } = opened;
      let reached = null;
      for (let tabs = 1; tabs <= 120 && reached === null; ++tabs) {
        await page.keyboard.press('Tab');
        const where = await page.evaluate(() => {
          const el = document.activeElement;
          if (!el || el === document.body) return 'nowhere';
          return el.closest('#traces') ? 'traces' : el.matches('.skip') ? 'skip link' : 'before';
        });
        if (tabs > 1) assert.notEqual(where, 'skip link', `focus went round the page after ${tabs} tabs without entering the traces`);
        assert.notEqual(where, 'nowhere', `focus left the page after ${tabs} tabs without entering the traces`);
        if (where === 'traces') reached = tabs;
      }
      assert.ok(reached !== null, 'focus entered the traces');
      if (slow) {
        assert.equal((await sectionsState(page)).ready, false, 'the bundle is still held back');
        assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Loading the traces…');
        release();
      }
      await page.waitForFunction(() => document.documentElement.classList.contains('rl-sections-ready'), null, { timeout: 10000 });
      const focus = await page.evaluate(() => {
        const el = document.activeElement;
        return { inTraces: Boolean(el.closest('[data-retry-traces]')), placeholder: el.matches('.rl-loading'), tag: el.tagName };
      });
      assert.equal(focus.inTraces, true, `focus is in the drawn traces, on ${focus.tag}`);
      assert.equal(focus.placeholder, false);
      // The next Tab goes on through the traces, not back to the top.
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => Boolean(document.activeElement.closest('#traces, #clients'))), true);
      await assertClean(t, assert, opened);
    });
  }

  test('focus waiting on a section that cannot load stays on its message', async () => {
    let release;
    const held = new Promise((go) => { release = go; });
    const { page, context } = await openPage(env, { sections: false, route: ['**/retrylab-sections.js', (r) => held.then(() => r.abort())] });
    await page.locator('[data-client-lab] .rl-loading').focus();
    release();
    await page.waitForFunction(() => document.documentElement.classList.contains('rl-sections-failed'));
    assert.match(await page.evaluate(() => document.activeElement.textContent), /^This section could not load/);
    assert.equal(await page.evaluate(() => Boolean(document.activeElement.closest('[data-client-lab]'))), true);
  });
});
