// Issue 34's page: the throttling server (`server.admission`, docs/throttling.md §3) and hedging
// (`policy.hedging`, §6) as controls of the fleet section, from the fleet table's rows with
// their defaults; each says beside it what it did in the run on show; a value a field does not
// take, and the engine's refusal of a stack of layers with them (docs/layers.md §9.6), said at
// the control. Expected figures are the model's relations (§3's rule 1a, §6's copies), not
// recorded runs.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AXE, browserSuite, openPage, pageTest } from './lib/harness.js';

const env = browserSuite();
const LAPTOP = { width: 1280, height: 720 };
const PHONE = { width: 390, height: 844 };

async function fleetSettled(page) {
  await page.evaluate(() => window.retryLabFleetSection.load());
  await page.waitForFunction(() => window.retryLabFleet && window.retryLabFleet.state(), null, { timeout: 20000 });
  await page.evaluate(() => window.retryLabFleet.ready.then(() => window.retryLabFleet.settled()));
}
// A change's handler starts its run at once (web/fleet/controls.js), so settled() waits for it.
const changeSettled = (page) => page.evaluate(() => window.retryLabFleet.settled());
const state = (page) => page.evaluate(() => window.retryLabFleet.state());
const said = (page, path) => page.locator(`[data-said="${path}"]`).textContent();
const type = async (page, selector, text) => {
  await page.fill(selector, text);
  await page.locator(selector).press('Tab');
  await changeSettled(page);
};
const ADMISSION = '#fl-s-server-admission';
const HEDGING = '#fl-s-policy-hedging';

describe('the fleet section: the throttling server and hedging as controls (issue 34)', () => {
  test('the throttling server starts from the table’s defaults; at half a token a second per client the storm draws its 429s, at least as many as the limit leaves no token for', pageTest(env, { viewport: LAPTOP, sections: false }, async ({ page }) => {
    await fleetSettled(page);
    const schema = await page.evaluate(() => window.retryLabFleet.table().rows.get('server.admission'));
    const defaults = Object.fromEntries(schema.members.map((m) => [m.name, m.default]));
    assert.equal(await page.locator(`${ADMISSION}-scope`).inputValue(), defaults.scope);
    assert.equal(Number(await page.locator(`${ADMISSION}-ratePerSecond`).inputValue()), defaults.ratePerSecond);
    assert.equal(Number(await page.locator(`${ADMISSION}-burst`).inputValue()), defaults.burst);
    assert.equal(Number(await page.locator(`${ADMISSION}-answerMs`).inputValue()), defaults.answerMs);
    assert.equal(await page.locator(`${ADMISSION}-retryAfterMs`).inputValue(), '', 'no Retry-After: null');
    assert.equal(await said(page, 'server.admission'), '', 'nothing said while it is off');
    assert.equal(await page.locator('#fl-chart path.fl-line.fl-throttled').count(), 0);

    await page.locator('[data-switch-on="server.admission"]').check();
    await changeSettled(page);
    assert.deepEqual((await state(page)).request, { server: { admission: {} } });
    await type(page, `${ADMISSION}-ratePerSecond`, '0.5');
    const { request, result } = await state(page);
    assert.deepEqual(request, { server: { admission: { ratePerSecond: 0.5 } } });
    // Rule 1a: each client's limit holds `burst` tokens at 0 and gains 0.5 a second; every
    // attempt it admits takes one. All first attempts arrive before durationMs + 1 s (the
    // network's legs are far shorter), so at most clients × (burst + 0.5 × (durationMs/1000 + 1))
    // of them are admitted, and the rest are throttled.
    const { clients, durationMs } = result.request;
    const admittedAtMost = clients * (defaults.burst + 0.5 * (durationMs / 1000 + 1));
    assert.ok(result.totals.throttled >= result.totals.firstAttempts - admittedAtMost, `${result.totals.throttled} 429s`);
    assert.equal(await page.locator('#fl-chart path.fl-line.fl-throttled').count(), 1, 'the 429s drawn on the storm');
    assert.equal(await said(page, 'server.admission'), `In the run on show it answered ${result.totals.throttled.toLocaleString('en-US')} of ${result.totals.attempts.toLocaleString('en-US')} attempts with a 429 (0.5 tokens a second, 10 at most, for each client), each without a worker or a place in the queue; the policy does not retry a 429 (retryOn), so each ended its request.`);

    await page.locator('[data-switch-on="server.admission"]').uncheck();
    await changeSettled(page);
    assert.deepEqual((await state(page)).request, { server: { admission: null } });
    assert.equal((await state(page)).result.totals.throttled, undefined, 'no admission limit: no 429 count (§3)');
    assert.equal(await said(page, 'server.admission'), '');
  }));

  test('hedging on sends a copy of every request at once (delay 0: load 2), retries per request set to 0 as A6 asks and given back when it is off; a 200 ms delay sends fewer copies', pageTest(env, { viewport: LAPTOP, sections: false }, async ({ page }) => {
    await fleetSettled(page);
    const retriesBefore = (await state(page)).result.request.policy.maxRetries;
    assert.notEqual(retriesBefore, 0);
    assert.equal(Number(await page.locator(`${HEDGING}-maxAttempts`).inputValue()), 2, 'A6’s maxAttempts has no default: its least, 2');
    assert.equal(Number(await page.locator(`${HEDGING}-delayMs`).inputValue()), 0);

    await page.locator('[data-switch-on="policy.hedging"]').check();
    await changeSettled(page);
    let { request, result } = await state(page);
    assert.deepEqual(request, { policy: { hedging: { maxAttempts: 2 }, maxRetries: 0 } });
    // §6: copy 1 at creation, copy 2 delayMs = 0 after it; no gate, no deadline: every request
    // sends both, and the copies after the first are `retries`.
    assert.equal(result.totals.retries, result.totals.requests);
    assert.equal(result.totals.attempts, 2 * result.totals.requests);
    assert.equal(Number(await page.locator('#fl-c-policy-maxRetries').inputValue()), 0, 'the retries slider shows 0');
    const n = result.totals.requests.toLocaleString('en-US');
    assert.equal(await said(page, 'policy.hedging'), `In the run on show it sent ${n} copies after the first (${result.totals.attempts.toLocaleString('en-US')} attempts for ${n} requests, at most 2 each, 0 ms apart); retries per request are 0, as A6 asks. Every copy served charges a card without a key.`);
    const atOnce = result.totals.retries;

    await type(page, `${HEDGING}-delayMs`, '200');
    ({ request, result } = await state(page));
    assert.deepEqual(request, { policy: { hedging: { maxAttempts: 2, delayMs: 200 }, maxRetries: 0 } });
    assert.ok(result.totals.retries < atOnce && result.totals.retries > 0, `a request answered within 200 ms sends no copy (${result.totals.retries})`);
    assert.match(await said(page, 'policy.hedging'), new RegExp(`^In the run on show it sent ${result.totals.retries.toLocaleString('en-US')} copies after the first`));

    await page.locator('[data-switch-on="policy.hedging"]').uncheck();
    await changeSettled(page);
    assert.deepEqual((await state(page)).request, { policy: { hedging: null, maxRetries: retriesBefore } });
    assert.equal((await state(page)).result.request.policy.maxRetries, retriesBefore);
  }));

  test('a value a field does not take is said under it, from its row’s bounds, and the run on show is kept', pageTest(env, { viewport: PHONE, sections: false }, async ({ page }) => {
    await fleetSettled(page);
    await page.locator('[data-switch-on="server.admission"]').check();
    await changeSettled(page);
    const field = `${ADMISSION}-ratePerSecond`;
    await type(page, field, '0');
    assert.equal(await page.locator(field).getAttribute('aria-invalid'), 'true');
    assert.equal(await page.locator(field).getAttribute('aria-describedby'), `${field.slice(1)}-error`);
    assert.equal(await page.locator(`${field}-error`).textContent(), '“tokens a second” takes a number from 0.001 to 1,000,000 tokens/s; 0 is below 0.001. The run on show is unchanged.');
    assert.deepEqual((await state(page)).request, { server: { admission: {} } });
    await type(page, `${HEDGING}-maxAttempts`, '6');
    assert.equal(await page.locator(`${HEDGING}-maxAttempts-error`).textContent(), '“copies at most (the first included)” takes a whole number from 2 to 5 copies; 6 is above 5. The run on show is unchanged.');
    await page.locator('[data-switch-on="policy.hedging"]').check();
    await changeSettled(page);
    assert.deepEqual((await state(page)).request, { server: { admission: {} } }, 'hedging with a refused field is not run');
  }));

  for (const [path, sel] of [['server.admission', ADMISSION], ['policy.hedging', HEDGING]]) {
    test(`with a stack of layers on show, ${path} switched on is refused under its switch (docs/layers.md §9.6), the run on show kept`, pageTest(env, { viewport: LAPTOP, sections: false }, async ({ page }) => {
      await fleetSettled(page);
      const stack = { policy: { maxRetries: 0, layers: [{ maxRetries: 1 }, { maxRetries: 1 }] } };
      await page.evaluate((req) => window.retryLabFleet.load(req), stack);
      await changeSettled(page);
      assert.deepEqual((await state(page)).request, stack);
      await page.locator(`[data-switch-on="${path}"]`).check();
      await changeSettled(page);
      assert.deepEqual((await state(page)).request, stack, 'the stack’s run stays on show');
      const sw = page.locator(sel);
      assert.equal(await sw.getAttribute('aria-invalid'), 'true');
      assert.equal(await sw.getAttribute('aria-describedby'), `${sel.slice(1)}-error`);
      assert.match(await page.locator(`${sel}-error`).textContent(), /cannot run here: the run has a stack of retry layers \(policy\.layers\).*docs\/layers\.md §9\.6.*The run on show is unchanged\.$/);
      assert.equal(await page.locator('#fl-error').isVisible(), false, 'said at the control, not far above it');
      // Switched off: the message goes with the next run drawn.
      await page.locator(`[data-switch-on="${path}"]`).uncheck();
      await changeSettled(page);
      assert.equal(await sw.getAttribute('aria-invalid'), null);
      assert.equal(await page.locator(`${sel}-error`).textContent(), '');
    }));
  }

  for (const colorScheme of ['light', 'dark']) {
    test(`axe-core reports nothing in ${colorScheme} mode with both switched on, a field’s message and a refusal under a switch`, async () => {
      const { page } = await openPage(env, { colorScheme, viewport: PHONE, reducedMotion: 'reduce', bypassCSP: true, sections: false, path: '/#v=1&view=fleet&server.admission.ratePerSecond=0.5&policy.maxRetries=0&policy.hedging.maxAttempts=3&policy.hedging.delayMs=100' });
      await fleetSettled(page);
      assert.ok((await state(page)).result.totals.throttled > 0);
      await page.fill(`${HEDGING}-delayMs`, '-5');
      await page.locator(`${HEDGING}-delayMs`).press('Tab');
      await page.evaluate(() => window.retryLabFleet.load({ policy: { maxRetries: 0, layers: [{ maxRetries: 1 }] } }));
      await changeSettled(page);
      await page.locator('[data-switch-on="server.admission"]').check();
      await changeSettled(page);
      assert.equal(await page.locator(ADMISSION).getAttribute('aria-invalid'), 'true');
      await page.addScriptTag({ content: AXE });
      const violations = await page.evaluate(() => window.axe.run('#fleet', { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')}`)));
      assert.deepEqual(violations, []);
    });
  }
});
