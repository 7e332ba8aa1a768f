// "Run this stack in the fleet" (issue 33; web/layers/fleet-door.js, web/fleet/stack.js): the
// layers section's stack becomes the fleet request's policy.layers (docs/layers.md §9) over the
// fleet's run on show; the fleet section shows the stack it runs, read only, and clears it; the
// fleet link carries it; a stack the fleet engine refuses with the fleet's settings (§9.6: with
// hedging) is said beside the door in the engine's words, the fleet's run kept. Driven as a
// reader drives it, axe clean in both themes.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertClean, axeViolations, browserSuite, keptPage, openPage, pageTest } from './lib/harness.js';

const env = browserSuite();

async function layersSection(page) {
  await page.locator('#layers').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => window.retryLabLayers && window.retryLabLayers.getResult());
}
const door = (page) => page.locator('#layers').getByRole('button', { name: 'Run this stack in the fleet' });
const said = (page) => page.locator('#ly-fleet-said');
const fleetRequest = (page) => page.evaluate(() => window.retryLabFleet.state().request);
// The fleet's fields of a layer (its table row's members), from the section's echoed stack.
const asFleetLayers = (page) => page.evaluate(() => {
  const members = window.retryLabFleet.table().rows.get('policy.layers').items.members.map((m) => m.name);
  return window.retryLabLayers.getResult().inputs.layers.map((l) => Object.fromEntries(members.filter((m) => m in l).map((m) => [m, l[m]])));
});

async function runInFleet(page) {
  await door(page).click();
  await page.waitForFunction(() => {
    const p = document.querySelector('#ly-fleet-said');
    return p && !/^Opening the fleet section/.test(p.textContent);
  }, null, { timeout: 120000 });
}

describe('the layers section\'s door to the fleet', () => {
  test('the seed\'s story stacked runs in the fleet: its layers are the fleet\'s policy.layers, shown read only, in the link, and cleared', pageTest(env, {}, async ({ page }) => {
    await layersSection(page);
    await runInFleet(page);
    assert.equal(await said(page).innerText(), 'The fleet below runs this stack.');
    const request = await fleetRequest(page);
    assert.deepEqual(request.policy.layers, await asFleetLayers(page), 'the section’s layers, each with the fields a fleet layer takes');
    // The fleet's stack, read only: its words, and a row per layer of the run's totals.layers.
    const box = page.locator('#fl-stack');
    assert.equal(await box.isVisible(), true);
    assert.match(await box.locator('#fl-stack-words').innerText(), /^Every request goes through 2 retry layers, top first: agent \(maxRetries 2, key none\) over .+ \(maxRetries 2, key mint\)\./);
    const totals = await page.evaluate(() => window.retryLabFleet.state().result.totals.layers);
    const rows = await box.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.innerText)));
    assert.deepEqual(rows.map((r) => r[2]), totals.map((t) => t.attempts.toLocaleString('en-US')));
    assert.equal(await page.evaluate(() => document.activeElement.id), 'fl-stack-h', 'the door leads to the fleet’s stack');
    // The fleet link in the address carries the stack; opened, the fleet runs it again.
    const hash = await page.evaluate(() => window.location.hash);
    assert.match(hash, /^#v=1&view=fleet&.*policy\.layers=name:agent~/);
    const opened = await openPage(env, { path: `/${hash}` });
    await opened.page.waitForFunction(() => window.retryLabFleet && window.retryLabFleet.state() && window.retryLabFleet.state().request.policy, null, { timeout: 120000 });
    await opened.page.evaluate(() => window.retryLabFleet.settled());
    assert.deepEqual((await fleetRequest(opened.page)).policy.layers, request.policy.layers);
    assert.match(await opened.page.locator('#fl-stack-words').innerText(), /^Every request goes through 2 retry layers/);
    // Cleared: the fleet runs its policy's own one layer again.
    await box.getByRole('button', { name: 'Run without the stack' }).click();
    await page.waitForFunction(() => !window.retryLabFleet.state().result.request.policy.layers, null, { timeout: 120000 });
    assert.equal(await box.isVisible(), false);
    assert.doesNotMatch(await page.evaluate(() => window.location.hash), /policy\.layers/);
  }));

  test('with hedging on in the fleet, the door says the engine refuses the stack, and the fleet keeps its run', pageTest(env, {}, async ({ page }) => {
    await layersSection(page);
    await page.evaluate(() => window.retryLabFleetSection.load());
    await page.waitForFunction(() => window.retryLabFleet && window.retryLabFleet.state(), null, { timeout: 120000 });
    await page.evaluate(() => { window.retryLabFleet.load({ policy: { maxRetries: 0, hedging: { maxAttempts: 2 } } }); return window.retryLabFleet.settled(); });
    const before = await fleetRequest(page);
    assert.deepEqual(before.policy.hedging, { maxAttempts: 2 });
    await runInFleet(page);
    // docs/layers.md §9.6, the engine's words (code layers-excluded).
    assert.match(await said(page).innerText(), /^The fleet cannot run this stack: .*policy\.layers must be null with policy\.hedging/);
    assert.equal(await said(page).getAttribute('class'), 'rl-failure');
    assert.deepEqual(await fleetRequest(page), before, 'the fleet’s run on show is kept');
    assert.equal(await page.locator('#fl-stack').isVisible(), false);
    // A stack whose own field the fleet does not take (the OpenAI SDK's proportional jitter) is said too.
    await page.locator('#layers').getByRole('button', { name: 'Three layers of four attempts' }).click();
    await runInFleet(page);
    assert.match(await said(page).innerText(), /^The fleet cannot run this stack: .*jitter/);
  }));

  // The two modes on one kept page (issue 31: the page, its sections, the fleet section, its
  // opening run and the stack's run once for both), the colour scheme switched between them (the
  // page's colours are its stylesheets' alone). The stack is run in the fleet by whichever comes
  // first, so either passes alone and the second finds the state the first left.
  const kept = keptPage(env, { bypassCSP: true });
  for (const colorScheme of ['light', 'dark']) {
    test(`axe finds nothing in the door and the fleet's stack (${colorScheme})`, async (t) => {
      const opened = await kept();
      const { page } = opened;
      await page.emulateMedia({ colorScheme });
      await layersSection(page);
      if ((await said(page).count()) === 0 || (await said(page).innerText()) !== 'The fleet below runs this stack.') await runInFleet(page);
      assert.equal(await said(page).innerText(), 'The fleet below runs this stack.');
      assert.deepEqual(await axeViolations(page, '#layers'), []);
      assert.deepEqual(await axeViolations(page, '#fl-stack'), []);
      await assertClean(t, assert, opened);
    });
  }
});
