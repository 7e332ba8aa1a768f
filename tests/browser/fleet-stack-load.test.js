// The fleet section's load with a stack of retry layers (issue 33, docs/layers.md §9.2): the
// summary under the storm says the load the server sees per request (totals.attemptsPerRequest,
// the layers' attempts multiplied), not FLEET's `load` alone, which with a stack counts the
// bottom layer's attempts per call (1.00 under a bottom layer that never retries). The figures
// are worked by hand: against a server that fails every attempt, with no waits and no
// timeouts, an agent of 3 retries over a layer of none sends 4 × 1 = 4 server attempts per
// request, the same 4 as one layer of 3 retries, and each bottom call is 1 attempt.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { assertClean, axeViolations, browserSuite, keptPage, pageTest } from './lib/harness.js';

const env = browserSuite();

// Two clients sending one request each at 0 ms, a server that always answers 500, no trigger.
const BASE = { clients: 2, arrivals: 'once', trigger: null, server: { failureRate: 1 } };
const NO_WAIT = { baseBackoffMs: 0, clientTimeoutMs: 60000 };

async function fleet(page) {
  await page.evaluate(() => window.retryLabFleetSection.load());
  await page.waitForFunction(() => window.retryLabFleet && window.retryLabFleet.state(), null, { timeout: 120000 });
}
// The request drawn, then the summary's words and the result's totals.
async function drawn(page, request) {
  await page.evaluate((r) => { window.retryLabFleet.load(r); return window.retryLabFleet.settled(); }, request);
  const totals = await page.evaluate(() => window.retryLabFleet.state().result.totals);
  return { summary: await page.locator('#fl-summary').innerText(), totals };
}

describe('the fleet\'s load with a stack of layers', () => {
  test('the summary says the server\'s attempts per request, 4.00× for 4 × 1, as one layer of 3 retries says 4.00×; the bottom layer\'s calls are 1 attempt each', pageTest(env, { sections: false }, async ({ page }) => {
    await fleet(page);
    const one = await drawn(page, { ...BASE, policy: { ...NO_WAIT, maxRetries: 3 } });
    assert.equal(one.totals.attempts, 8);
    assert.equal(one.summary, '2 requests made 8 attempts (load 4.00×); 0 succeeded.');

    const stacked = await drawn(page, { ...BASE, policy: { ...NO_WAIT, layers: [{ name: 'agent', maxRetries: 3 }, { name: 'SDK', maxRetries: 0 }] } });
    assert.equal(stacked.totals.attempts, 8, 'the same 8 server attempts');
    assert.equal(stacked.totals.attemptsPerRequest, 4);
    assert.equal(stacked.totals.load, 1, 'FLEET’s load counts the bottom calls: one attempt each');
    assert.equal(stacked.summary, '2 requests made 8 attempts (load 4.00× a request through 2 retry layers; 1.00 attempts per call of the bottom layer); 0 succeeded.');
    // The relation: the load said is the server's attempts per request, whatever the stack.
    const three = await drawn(page, { ...BASE, policy: { ...NO_WAIT, layers: [{ maxRetries: 1 }, { maxRetries: 2 }, { maxRetries: 0 }] } });
    assert.equal(three.totals.attempts, 2 * 2 * 3 * 1, '2 requests of 2 × 3 × 1');
    assert.match(three.summary, /\(load 6\.00× a request through 3 retry layers; 1\.00 attempts per call of the bottom layer\)/);
  }));

  // The two modes on one kept page (issue 31: the page, the fleet section, its opening run and the
  // stack's run once for both), the colour scheme switched between them (the page's colours are
  // its stylesheets' alone). The stack's run is drawn by whichever comes first, so either passes
  // alone and the second finds the state the first left.
  const kept = keptPage(env, { sections: false, bypassCSP: true });
  const stacked = { ...BASE, policy: { ...NO_WAIT, layers: [{ maxRetries: 3 }, { maxRetries: 0 }] } };
  for (const colorScheme of ['light', 'dark']) {
    test(`axe finds nothing in the storm's figure with a stack's load (${colorScheme})`, async (t) => {
      const opened = await kept();
      const { page } = opened;
      await page.emulateMedia({ colorScheme });
      await fleet(page);
      await page.evaluate(() => window.retryLabFleet.settled());
      if (!isDeepStrictEqual(await page.evaluate(() => window.retryLabFleet.state().request), stacked)) await drawn(page, stacked);
      assert.deepEqual(await page.evaluate(() => window.retryLabFleet.state().request), stacked);
      assert.deepEqual(await axeViolations(page, '#fl-summary'), []);
      assert.deepEqual(await axeViolations(page, '#fl-stack'), []);
      await assertClean(t, assert, opened);
    });
  }
});
