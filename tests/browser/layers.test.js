// "Retries across layers" (web/layers/, docs/layers.md), driven as a reader drives it: it opens
// on the seed's story stacked (the agent over Stripe's client, which mints a key per call:
// charged twice), the agent's key passed down charges once, three layers of four attempts
// against a server that always fails make 4 × 4 × 4 = 64 server attempts, a stack too big is
// named and the last run kept, the link carries the stack both ways, the keyboard alone can
// build a stack, and axe finds nothing in either theme. The figures are docs/layers.md §8's,
// worked by hand there.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertClean, axeViolations, browserSuite, elementHost, hostSite, keptPage, openPage, pageFor, pageTest } from './lib/harness.js';

const env = browserSuite();
// <retry-lab> with a stack: the element reads it, runs it and draws it.
const STACK = 'name:agent~maxRetries:2~clientTimeoutMs:2000~baseBackoffMs:0,name:SDK~key:mint';
const host = hostSite(env, { 'stack.html': elementHost('A stack', `<h2>The seed’s story, stacked</h2><retry-lab layers="${STACK}" max-retries="0"></retry-lab>`) });

// The section as the reader sees it: scrolled to.
async function section(page) {
  await page.locator('#layers').scrollIntoViewIfNeeded();
  return page.locator('[data-layers]');
}
const count = (page) => page.locator('#ly-count').innerText();
const charges = (page) => page.locator('#ly-charges').innerText();
const perLayer = (page) => page.locator('#ly-per-layer tbody tr').evaluateAll((rows) => rows.map((r) => [...r.cells].map((c) => c.innerText)));

describe('retries across layers', () => {
  test('it opens on the seed\'s story stacked: Stripe\'s client mints a key per call, so the agent\'s retry charges twice; the key passed down charges once', pageTest(env, {}, async ({ page }) => {
    await section(page);
    // docs/layers.md §8.5: 2 server attempts, 2 charges; the SDK's call 1 cancelled at 2,000 ms.
    assert.equal(await count(page), '2 × 1 = 2 server attempts');
    assert.equal(await charges(page), 'Charged twice');
    const rows = await perLayer(page);
    assert.deepEqual(rows.map((r) => r.slice(2)), [['1', '2', '1', '0', '0'], ['2', '2', '0', '1', '0']]);
    assert.equal(rows[1][1], 'op-0001.1, op-0001.2', 'a new key for each call');
    assert.equal(rows[0][1], 'none');
    assert.match(await page.locator('.ly-verdict').innerText(), /The agent reports success/);

    await page.locator('#layers').getByRole('button', { name: 'The agent’s key passed down' }).click();
    assert.equal(await charges(page), 'Charged once');
    assert.match(await page.locator('.ly-verdict').innerText(), /1 replay/);
    // Said in the status region that stays, for a screen reader.
    assert.match(await page.locator('#ly-live').textContent(), /^2 × 1 = 2 server attempts\. Charged once, 1 replay\./);
    const passed = await perLayer(page);
    assert.equal(passed[0][1], 'op-0001');
    assert.equal(passed[1][1], 'op-0001', 'both calls carry the agent’s key');
    // The settings shown are the stack's: the agent mints, Stripe's client passes.
    assert.equal(await page.locator('#layers').getByLabel('Idempotency key').nth(0).inputValue(), 'mint');
    assert.equal(await page.locator('#layers').getByLabel('Idempotency key').nth(1).inputValue(), 'pass');

    // Back: the reader sets the agent's key to none by hand, and the SDK's to mint.
    await page.locator('#layers').getByLabel('Idempotency key').nth(0).selectOption('none');
    await page.locator('#layers').getByLabel('Idempotency key').nth(1).selectOption('mint');
    assert.equal(await charges(page), 'Charged twice');
  }));

  test('three layers of four attempts against a server that always fails: 4 × 4 × 4 = 64; one layer answering do-not-retry leaves 4', pageTest(env, {}, async ({ page }) => {
    await section(page);
    await page.locator('#layers').getByRole('button', { name: 'Three layers of four attempts' }).click();
    // Against the lost response: nothing fails twice, so no multiplying yet.
    assert.equal(await page.locator('.ly-lane').count(), 3);
    await page.locator('#layers').getByLabel('The server').selectOption('always-fails');
    assert.equal(await count(page), '4 × 4 × 4 = 64 server attempts');
    const rows = await perLayer(page);
    assert.deepEqual(rows.map((r) => r.slice(2, 5)), [['1', '4', '3'], ['4', '16', '12'], ['16', '64', '48']]);
    assert.equal(await page.locator('.ly-lane').nth(2).locator('rect.ly-bar').count(), 64, 'one bar per server attempt');
    assert.match(await page.locator('.ly-lane-name').nth(2).innerText(), /64 attempts$/);
    assert.equal(await page.locator('.ly-all summary').innerText(), 'Every attempt of every layer (84)');
    // The SRE book's advice (docs/layers.md §8.2): the bottom layer answers "do not retry".
    await page.locator('#layers').getByLabel('When it gives up, it answers').nth(2).selectOption('do-not-retry');
    // Layer 3's one call makes its 4 attempts and answers given-up; layers 2 and 1 stop at once.
    assert.equal(await count(page), '1 × 1 × 4 = 4 server attempts');
    assert.match(await page.locator('.ly-verdict').innerText(), /reports error given-up/);
    // The same from its button, the server kept as the reader set it.
    await page.locator('#layers').getByRole('button', { name: 'Three layers of four attempts' }).click();
    assert.equal(await count(page), '4 × 4 × 4 = 64 server attempts');
    await page.locator('#layers').getByRole('button', { name: 'Retry at one layer only' }).click();
    assert.equal(await count(page), '1 × 1 × 4 = 4 server attempts');
  }));

  test('a stack past the engine\'s bound is named, and the figure keeps the last run', pageTest(env, {}, async ({ page }) => {
    await section(page);
    await page.locator('#layers').getByRole('button', { name: 'Three layers of four attempts' }).click();
    await page.locator('#layers').getByLabel('The server').selectOption('always-fails');
    // 11 × 11 × 11 = 1,331 server attempts: more than docs/layers.md §2's 1,000.
    let last = null;
    for (const i of [0, 1, 2]) {
      last = await count(page);
      await page.locator('#layers').getByLabel('Retries').nth(i).fill('10');
      await page.locator('#layers').getByLabel('Retries').nth(i).press('Tab');
    }
    assert.match(await page.locator('#ly-problem').innerText(), /^Not run: layers may make at most 1000 server attempts .*; got 1331\./);
    assert.equal(await count(page), last, 'the figure is the last stack the engine ran');
    assert.equal(await page.locator('#layers').getByLabel('Retries').nth(2).inputValue(), '10', 'the control keeps what the reader wrote');
    await page.locator('#layers').getByLabel('Retries').nth(2).fill('3');
    await page.locator('#layers').getByLabel('Retries').nth(2).press('Tab');
    assert.equal(await page.locator('#ly-problem').count(), 0);
  }));

  test('the link carries the stack: opened, the page and the section show it; written, it is the section\'s run', pageTest(env, {}, async ({ page }) => {
    await section(page);
    await page.locator('#layers').getByRole('button', { name: 'Three layers of four attempts' }).click();
    await page.locator('#layers').getByLabel('The server').selectOption('always-fails');
    await page.locator('#layers').getByLabel('Idempotency key').nth(0).selectOption('mint');
    const href = await page.locator('#ly-link').getAttribute('href');
    assert.match(href, /^#v=1&scenario=script&script=503&layers=name:agent~/);
    const before = await page.evaluate(() => window.retryLabLayers.getResult().inputs);
    // Opened in a new page: the section shows the stack, scrolled to; the experiment above runs
    // it too, with no notice.
    const opened = await openPage(env, { path: `/${href}` });
    await opened.page.waitForFunction(() => window.retryLabLayers && window.retryLabLayers.getResult().metrics.attempts === 64);
    const after = await opened.page.evaluate(() => window.retryLabLayers.getResult().inputs);
    assert.deepEqual(after, before);
    assert.equal(await count(opened.page), '4 × 4 × 4 = 64 server attempts');
    assert.equal(await opened.page.locator('#layers').getByLabel('Idempotency key').nth(0).inputValue(), 'mint');
    assert.equal(await opened.page.locator('#ly-link-note').count(), 0, 'the controls hold the link’s stack');
    assert.deepEqual(await opened.page.evaluate(() => window.retryLab.getState().result.inputs.layers), before.layers);
    assert.equal(await opened.page.locator('#rl-notice').count(), 0, 'no notice');
    // A stack of layers the section has no client for is drawn as it is, and said so.
    const other = await openPage(env, { path: '/#v=1&layers=name:web~maxRetries:1,name:db~maxRetries:4' });
    await other.page.waitForFunction(() => window.retryLabLayers && window.retryLabLayers.getResult().inputs.layers[0].name === 'web');
    assert.match(await other.page.locator('#ly-link-note').innerText(), /not all clients of this section/);
    assert.deepEqual(await perLayer(other.page).then((rows) => rows.map((r) => r[0])), ['1. web', '2. db']);
  }));

  test('the keyboard alone adds a layer, chooses its client and removes it', pageTest(env, {}, async ({ page }) => {
    await section(page);
    const add = page.locator('#layers').getByRole('button', { name: /^Add a layer below/ });
    await add.focus();
    await page.keyboard.press('Enter');
    // Focus moves to the new layer's Client choice.
    assert.equal(await page.evaluate(() => document.activeElement.id), 'ly-client-2');
    assert.equal(await page.locator('.ly-lane').count(), 3);
    await page.locator('#layers').getByRole('button', { name: 'Remove layer 3' }).focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('.ly-lane').count(), 2);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'ly-server');
  }));

  // docs/layers.md §8.1 as a link: three layers, every field the run's (3 retries, no wait, no
  // timeouts), a server that always fails.
  const SRE = '/#v=1&scenario=script&script=503&maxRetries=3&baseBackoffMs=0&clientTimeoutMs=60000&deadlineMs=none&layers=name:agent,name:SDK,name:HTTP';
  test('the experiment runs a linked stack and draws it: 4 × 4 × 4 = 64 server attempts, lanes per layer, no notice', pageTest(env, { path: SRE }, async ({ page }) => {
    const run = page.locator('#rl-lanes');
    assert.equal(await page.locator('#rl-stack-count').innerText(), '4 × 4 × 4 = 64 server attempts');
    assert.equal(await page.evaluate(() => window.retryLab.getState().result.metrics.attempts), 64);
    assert.equal(await run.locator('.ly-lane').count(), 3);
    assert.equal(await run.locator('.ly-lane').nth(2).locator('rect.ly-bar').count(), 64, 'one bar per server attempt');
    assert.deepEqual(await run.locator('#rl-stack-per-layer tbody tr').evaluateAll((rows) => rows.map((r) => [...r.cells].slice(2, 5).map((c) => c.innerText))),
      [['1', '4', '3'], ['4', '16', '12'], ['16', '64', '48']]);
    assert.match(await page.locator('#rl-stack-head').innerText(), /stack of 3 layers, top first: agent over SDK over HTTP/);
    assert.equal(await page.locator('#rl-lanes-heading').innerText(), 'Each layer’s attempts');
    assert.equal(await page.locator('#rl-notice').count(), 0, 'no notice');
    // Played to its end, nothing breaks; the link written is the stack's.
    await page.locator('#rl-play').click();
    await page.locator('#rl-seek').press('End');
    assert.match(await page.evaluate(() => window.location.hash), /layers=name:agent/);
  }));

  test('compare mode runs each side\'s stack: the SDK\'s own key charges twice, the agent\'s passed down once, said in words', pageTest(env, {
    path: `/#v=1&view=compare&layers=${STACK}&after.layers=${STACK.replace('key:mint', 'key:pass').replace('baseBackoffMs:0', 'baseBackoffMs:0~key:mint')}`,
  }, async ({ page }) => {
    await page.waitForFunction(() => document.documentElement.classList.contains('rl-compare-ready'));
    assert.equal(await page.locator('[data-compare-notice]').innerText(), '', 'no notice');
    // docs/layers.md §8.5: 2 server attempts a side; 2 charges, then 1 and a replay.
    assert.equal(await page.locator('#cmp-b-stack-count').innerText(), '2 × 1 = 2 server attempts');
    assert.equal(await page.locator('#cmp-b-stack-charges').innerText(), 'Charged twice');
    assert.equal(await page.locator('#cmp-a-stack-charges').innerText(), 'Charged once');
    const charges = page.locator('[data-compare-live] tr[data-metric="charges"]');
    assert.deepEqual([await charges.locator('[data-side="before"]').innerText(), await charges.locator('[data-side="after"]').innerText()], ['2', '1']);
    assert.equal(await charges.getAttribute('data-flag'), 'side-effect');
    const summary = await page.locator('[data-compare-summary]').innerText();
    assert.equal(summary, 'layers agent (maxRetries 2, key none) over SDK (maxRetries 3, key mint) → agent (maxRetries 2, key mint) over SDK (maxRetries 3, key pass)');
    // The shared axis draws the server's attempts: 2 a side.
    assert.equal(await page.locator('.cmp-lane[data-side="before"] rect.cmp-bar').count(), 2);
    assert.equal(await page.locator('.cmp-lane[data-side="after"] rect.cmp-bar').count(), 2);
  }));

  test('<retry-lab layers="…"> runs the stack and draws it, with the other attributes', async () => {
    const { page } = await pageFor(env);
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${host.server.origin}/stack.html`);
    await page.waitForFunction(() => document.querySelector('retry-lab').classList.contains('rl-ready'));
    const lab = page.locator('retry-lab');
    // No notice: none drawn, or none that says anything (read at once, not waited for).
    assert.equal((await lab.locator('.rl-notice').allInnerTexts()).join(''), '');
    // max-retries="0" is the SDK's (a layer takes the run's field it leaves out): one attempt a call.
    assert.equal(await lab.locator('.ly-count').innerText(), '2 × 1 = 2 server attempts');
    assert.equal(await lab.locator('.ly-verdict span').first().innerText(), 'Charged twice');
    assert.equal(await lab.locator('.ly-lane').count(), 2);
    assert.equal(await page.evaluate(() => document.querySelector('retry-lab').app.getState().result.inputs.layers[1].maxRetries), 0);
    assert.deepEqual(errors, []);
  });

  // The stack's three drawings (the experiment's, compare mode's, the element's), each on a page
  // kept for both modes (harness.js keptPage): opened and computed once, the colour scheme
  // switched between the modes (the page's colours are its stylesheet's alone). Each test does
  // every step itself, so either passes alone. axe is injected inline: pages that bypass the CSP.
  const keptExperiment = keptPage(env, { path: SRE, bypassCSP: true, sections: false });
  const keptCompare = keptPage(env, { path: `/#v=1&view=compare&layers=${STACK}&after.layers=${STACK}`, bypassCSP: true, sections: false });
  let elementPage = null;
  env.tearDown(async () => {
    if (elementPage) await elementPage.then((p) => p.context().close(), () => {});
  });
  const keptElement = () => {
    elementPage ||= env.browser.newContext({ bypassCSP: true }).then(async (context) => {
      const page = await context.newPage();
      await page.goto(`${host.server.origin}/stack.html`);
      return page;
    });
    return elementPage;
  };
  // The section's two modes on one kept page (issue 31: the page and its sections loaded once for
  // both), the colour scheme switched between them; each presses the story's button (the same
  // stack again for the second) and opens the table if it is not open.
  const keptSection = keptPage(env, { bypassCSP: true });
  for (const colorScheme of ['light', 'dark']) {
    test(`axe finds nothing in a stack drawn by the experiment, compare mode and <retry-lab> (${colorScheme})`, async () => {
      const experiment = await keptExperiment();
      await experiment.page.emulateMedia({ colorScheme });
      const all = experiment.page.locator('#rl-lanes .ly-all');
      if (!(await all.evaluate((details) => details.open))) await all.locator('summary').click();
      assert.deepEqual(await axeViolations(experiment.page, '.rl-mechanism'), []);
      const compare = await keptCompare();
      await compare.page.emulateMedia({ colorScheme });
      await compare.page.waitForFunction(() => document.documentElement.classList.contains('rl-compare-ready'));
      assert.deepEqual(await axeViolations(compare.page, '.rl-compare'), []);
      const page = await keptElement();
      await page.emulateMedia({ colorScheme });
      await page.waitForFunction(() => document.querySelector('retry-lab').classList.contains('rl-ready'));
      assert.deepEqual(await axeViolations(page), []);
    });

    test(`axe finds nothing in the section (${colorScheme})`, async (t) => {
      const opened = await keptSection();
      const { page } = opened;
      await page.emulateMedia({ colorScheme });
      await section(page);
      await page.locator('#layers').getByRole('button', { name: 'Three layers of four attempts' }).click();
      if (!(await page.locator('.ly-all').evaluate((details) => details.open))) await page.locator('.ly-all summary').click();
      assert.deepEqual(await axeViolations(page, '#layers'), []);
      await assertClean(t, assert, opened);
    });
  }
});
