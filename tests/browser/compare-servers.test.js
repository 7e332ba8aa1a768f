// Compare mode's controls for two fleet runs with many servers (issue 39's fields in compare
// mode, docs/compare.md §3, docs/servers.md §2): each side shows the fields its run holds, the
// balancer, the retry's host rule, the key store and the faults among them even where the
// sparse echo leaves them out at their defaults; changed by keyboard they recompute that side
// and rewrite the link, which opened afresh is the same comparison; a fault list that is not
// JSON is named beside its control. axe-core reports nothing, light and dark.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertClean, axeViolations, browserSuite, openPage } from './lib/harness.js';

const env = browserSuite();

// Four servers on both sides; the after side's balancer picks at random.
const LINK = '#v=1&view=compare&of=fleet&servers.count=4&after.balancer.kind=random';
const CRASH = '[{"kind":"crash","servers":[0],"startMs":5000,"endMs":15000}]';

async function openFleetCompare(hash, options = {}) {
  const opened = await openPage(env, { path: `/${hash}`, sections: false, inputs: false, ...options });
  await opened.page.waitForFunction(() => document.querySelector('.rl-compare-fleet')?.dataset.compared === 'true', null, { timeout: 60000 });
  return opened;
}
const control = (page, side, path) => page.locator(`[data-controls="${side}"] [data-path="${path}"]`);
const value = (page, side, path) => control(page, side, path).inputValue();
// That side computed again and the link rewritten to hold `part`.
const recomputed = (page, side, part) => page.waitForFunction(([s, p]) => {
  const frame = document.querySelector('.rl-compare-fleet');
  return frame.dataset.compared === 'true' && frame.dataset.computing === s && window.location.hash.includes(p);
}, [side, part], { timeout: 60000 });

describe('compare mode: two fleet runs with many servers', () => {
  test('each side shows the balancer, the host rule, the key store and the faults its run holds, and changes them by keyboard', async (t) => {
    const opened = await openFleetCompare(LINK);
    const { page } = opened;
    for (const side of ['before', 'after']) {
      assert.equal(await value(page, side, 'servers.count'), '4', side);
      assert.equal(await control(page, side, 'servers').isChecked(), true, `${side}: many servers on`);
      // At their defaults, left out of the echo: the table's defaults (docs/servers.md §2).
      assert.equal(await value(page, side, 'balancer.scope'), 'client', side);
      assert.equal(await value(page, side, 'policy.retryHost'), 'any', side);
      assert.equal(await value(page, side, 'policy.hostSelectionRetryMaxAttempts'), '1', side);
      assert.equal(await value(page, side, 'server.serviceDist'), 'fixed', side);
      assert.equal(await value(page, side, 'keyStore.scope'), 'shared', side);
      assert.equal(await value(page, side, 'keyStore.lagMs'), '0', side);
      assert.equal(await value(page, side, 'faults'), '[]', side);
    }
    assert.deepEqual([await value(page, 'before', 'balancer.kind'), await value(page, 'after', 'balancer.kind')], ['round-robin', 'random']);

    // The after side's host rule, by keyboard: the policy group is open; the next choice.
    await control(page, 'after', 'policy.retryHost').focus();
    await page.keyboard.press('ArrowDown');
    await recomputed(page, 'after', 'after.policy.retryHost=previous-hosts');
    assert.equal(await value(page, 'after', 'policy.retryHost'), 'previous-hosts');
    assert.equal(await value(page, 'before', 'policy.retryHost'), 'any', 'the before side keeps its own');

    // The after side's faults group opened from the keyboard, a crash of server 0 typed in.
    await page.locator('[data-controls="after"] details[data-group="faults"] summary').focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('[data-controls="after"] details[data-group="faults"]').getAttribute('open'), '');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.path), 'faults');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(CRASH);
    await page.keyboard.press('Tab');
    await recomputed(page, 'after', 'after.faults=');
    assert.deepEqual(JSON.parse(await value(page, 'after', 'faults')), JSON.parse(CRASH), 'the run holds the fault typed');
    assert.equal(await page.locator('[data-verdict="after"]').textContent() !== '', true);

    // Text that is not a list of objects is named beside the control; the run on show stays.
    const hash = await page.evaluate(() => window.location.hash);
    const faults = control(page, 'after', 'faults');
    await faults.fill('[{"kind":"crash"');
    await faults.press('Tab');
    assert.match(await page.locator('[data-controls="after"] [data-problem="faults"]').textContent(), /^faults is a list written as JSON/);
    assert.equal(await faults.getAttribute('aria-invalid'), 'true');
    assert.equal(await page.evaluate(() => window.location.hash), hash, 'nothing ran');

    // The link opened afresh is the same comparison, its controls the same values.
    const again = await openFleetCompare(hash);
    const sides = async (path) => [await value(again.page, 'before', path), await value(again.page, 'after', path)];
    assert.deepEqual(await sides('balancer.kind'), ['round-robin', 'random']);
    assert.deepEqual(await sides('policy.retryHost'), ['any', 'previous-hosts']);
    assert.deepEqual((await sides('faults')).map((v) => JSON.parse(v)), [[], JSON.parse(CRASH)]);
    await assertClean(t, assert, opened);
  });

  for (const colorScheme of ['light', 'dark']) {
    test(`axe-core reports nothing in ${colorScheme} mode with every many-servers group open on both sides`, async () => {
      const { page } = await openFleetCompare(LINK, { colorScheme, bypassCSP: true });
      await page.evaluate(() => { for (const d of document.querySelectorAll('.rl-compare-fleet details.rl-fc-group')) d.open = true; });
      assert.deepEqual(await axeViolations(page, '.rl-compare-fleet'), []);
    });
  }
});
