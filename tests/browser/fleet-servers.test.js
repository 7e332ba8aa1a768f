// Issue 39's page: the fleet section's "Many servers" box (web/fleet/servers-*.js): the replicas,
// the balancer and a fault as controls from the fleet table's rows, §13.3's presets with their
// cards, the storm server by server (a strip and a table) and the per-server verdicts beside the
// fleet's, the fleet link carrying the new inputs, axe-core in both themes, the keyboard alone.
// Expected figures are docs/servers.md's relations (a host failing every attempt answers none in
// time; a request whose 500 is not retried ends `not-retryable`; a partitioned attempt waits out
// its timeout), never a recorded run.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AXE, browserSuite, keptPage, openPage, pageTest } from './lib/harness.js';

const env = browserSuite();
const LAPTOP = { width: 1280, height: 720 };
const PHONE = { width: 390, height: 844 };

async function fleetSettled(page) {
  await page.evaluate(() => window.retryLabFleetSection.load());
  await page.waitForFunction(() => window.retryLabFleet && window.retryLabFleet.state(), null, { timeout: 30000 });
  await page.evaluate(() => window.retryLabFleet.ready.then(() => window.retryLabFleet.settled()));
}
// A change's handler starts its run at once (web/fleet/controls.js), so settled() waits for it.
const changeSettled = (page) => page.evaluate(() => window.retryLabFleet.settled());
const state = (page) => page.evaluate(() => window.retryLabFleet.state());
const choosePreset = async (page, id) => {
  await page.selectOption('#fl-servers-preset', id);
  await changeSettled(page);
};
const ISTIO = 'servers:bad-host';

describe('the fleet section: many servers (issue 39)', () => {
  test('the controls are the fleet table’s rows: the balancer’s kinds and the host rules its choices, the replicas within its bounds; the opening run has one server and says so', pageTest(env, { viewport: LAPTOP, sections: false }, async ({ page }) => {
    await fleetSettled(page);
    const rows = await page.evaluate(() => {
      const t = window.retryLabFleet.table();
      return { kinds: t.rows.get('balancer.kind').choices.map((c) => c.name), hosts: t.rows.get('policy.retryHost').choices.map((c) => c.name) };
    });
    const options = (sel) => page.locator(`${sel} option`).evaluateAll((os) => os.map((o) => o.value));
    assert.deepEqual(await options('#fl-sv-balancer-kind'), rows.kinds);
    assert.deepEqual(await options('#fl-sv-policy-retryHost'), rows.hosts);
    assert.equal(await page.locator('#fl-sv-servers-count').inputValue(), '1', 'the opening run: one server');
    // The replicas: from the row's least (1) to the page's 20, within the row's 1,000.
    const count = await page.evaluate(() => { const r = window.retryLabFleet.table().rows.get('servers.count'); return [r.min, r.max]; });
    assert.deepEqual(count, [1, 1000]);
    assert.equal(await page.locator('#fl-sv-servers-count').getAttribute('min'), '1');
    assert.equal(await page.locator('#fl-sv-servers-count').getAttribute('max'), '20');
    assert.equal(await page.locator('#fl-sv-balancer-kind').inputValue(), 'round-robin');
    assert.match(await page.locator('#fl-servers-view').textContent(), /The run on show has one server/);
    assert.equal(await page.locator('#fl-server-verdicts').isHidden(), true);
  }));

  test('“One bad host of ten” (Istio’s default) runs §13.3’s request: server 0 answers none in time, nothing is retried, and each request it failed ends on a failure not retried; the card says so from the run', pageTest(env, { viewport: LAPTOP, sections: false }, async ({ page, t }) => {
    await fleetSettled(page);
    // Offered only when the engine's retryOn takes §2's `refused` class (servers-controls.js tableTakes).
    const refused = await page.evaluate(() => window.retryLabFleet.table().rows.get('policy.retryOn').items.choices.some((c) => c.name === 'refused'));
    assert.equal(await page.locator('#fl-servers-preset option[value="servers:bad-host"]').count(), refused ? 1 : 0);
    if (!refused) return t.skip('the fleet engine’s policy.retryOn has no `refused` class yet (docs/servers.md §2)');
    await choosePreset(page, ISTIO);
    const { request, result } = await state(page);
    assert.deepEqual(request, { servers: { count: 10, overrides: [{ index: 0, failureRate: 1 }] }, balancer: { kind: 'two-choices', scope: 'client' }, policy: { maxRetries: 2, retryHost: 'previous-hosts', hostSelectionRetryMaxAttempts: 5, retryOn: ['refused'] } });
    const rows = result.totals.servers;
    assert.equal(rows.length, 10);
    assert.equal(rows[0].okInTime, 0, 'a host failing every attempt answers none in time');
    assert.equal(rows[0].failed, rows[0].served, 'every attempt it served failed');
    assert.ok(rows.slice(1).every((r) => r.okInTime > 0));
    assert.equal(result.totals.retries, 0, 'no server refuses, and only a refusal is retried');
    assert.ok(result.totals.failed['not-retryable'] >= rows[0].failed, 'each 500 ends its request');
    // The strip: a row per server; the table: a row per server, server 0's "answered in time" 0.
    assert.equal(await page.locator('#fl-servers-chart svg path.fl-offered').count(), 10, 'a row (its attempts line) per server');
    assert.equal(await page.locator('.fl-servers-table tbody tr').count(), 10);
    assert.equal(await page.locator('.fl-servers-table tbody tr').first().locator('td').nth(1).textContent(), '0');
    // The per-server verdicts beside the fleet's, from recovery.servers.
    assert.equal(await page.locator('#fl-server-verdicts').isVisible(), true);
    assert.match(await page.locator('#fl-server-verdicts').textContent(), /^Server by server .*server 0: /);
    assert.equal(result.recovery.servers.length, 10);
    // The card: Istio does not retry a 500, and the run's own count.
    const card = await page.locator('#fl-servers-card').textContent();
    assert.match(card, /Istio retries a refused connection, not a 500/);
    assert.match(card, /126806ab/);
    const n = result.totals.failed['not-retryable'].toLocaleString('en-US');
    assert.match(card, new RegExp(`In the run on show ${n} of ${result.totals.requests.toLocaleString('en-US')} requests`));
    // The controls show the preset's values.
    assert.equal(await page.locator('#fl-sv-servers-count').inputValue(), '10');
    assert.equal(await page.locator('#fl-sv-balancer-kind').inputValue(), 'two-choices');
    assert.equal(await page.locator('#fl-sv-server-failureRate-0').inputValue(), '1');
  }));

  test('the 5xx variant retries the bad host’s 500s on another host: every retry follows one of server 0’s 500s, and a request fails out of attempts only after three of them', pageTest(env, { viewport: LAPTOP, sections: false }, async ({ page }) => {
    await fleetSettled(page);
    await choosePreset(page, 'servers:bad-host-5xx');
    const { request, result } = await state(page);
    assert.deepEqual(request, { servers: { count: 10, overrides: [{ index: 0, failureRate: 1 }] }, balancer: { kind: 'two-choices', scope: 'client' }, policy: { maxRetries: 2, retryHost: 'previous-hosts', hostSelectionRetryMaxAttempts: 5, retryOn: ['5xx'] } });
    const s0 = result.totals.servers[0];
    assert.equal(s0.okInTime, 0, 'a host failing every attempt answers none in time');
    assert.equal(s0.failed, s0.served);
    assert.ok(result.totals.servers.slice(1).every((r) => r.failed === 0 && r.okInTime > 0));
    assert.ok(result.totals.retries > 0);
    // Only server 0 answers 500, and only a 500 is retried: each retry follows one of its 500s.
    assert.ok(result.totals.retries <= s0.failed, `${result.totals.retries} ≤ ${s0.failed}`);
    assert.ok(3 * result.totals.failed['attempt-limit'] <= s0.failed);
    assert.match(await page.locator('#fl-servers-card').textContent(), new RegExp(`${result.totals.succeeded.toLocaleString('en-US')} of ${result.totals.requests.toLocaleString('en-US')} requests succeeded`));
    // The per-server verdicts beside the fleet's: server 0, failing every attempt, never healthy.
    assert.equal(result.recovery.servers.length, 10);
    assert.equal(result.recovery.servers[0].disrupted, true);
    assert.match(await page.locator('#fl-server-verdicts').textContent(), /^Server by server .*server 0: disrupted/);
  }));

  test('a crash fails fast, a partition eats the timeout: the crash’s attempts to server 0 are refused, the partition’s are cut off and each waits out its timeout', pageTest(env, { viewport: LAPTOP, sections: false }, async ({ page }) => {
    await fleetSettled(page);
    await choosePreset(page, 'servers:crash');
    const crash = (await state(page)).result;
    assert.equal(crash.request.trigger, null);
    assert.ok(crash.totals.refused > 0);
    assert.equal(crash.totals.servers[0].refused, crash.totals.refused, 'only server 0 refuses');
    assert.equal(crash.totals.partitioned, 0);
    // The fault control shows the crash; switched to a partition, the crash stays faint.
    assert.equal(await page.locator('#fl-sv-faults').inputValue(), 'crash');
    await page.selectOption('#fl-sv-faults', 'partition');
    await changeSettled(page);
    const { request, result, ghost } = await state(page);
    assert.deepEqual(request.faults, [{ kind: 'partition', servers: [0], startMs: 10000, endMs: 20000 }]);
    assert.equal(ghost, true);
    assert.equal(await page.locator('#fl-servers-preset').inputValue(), 'servers:partition', 'the same request as the partition preset');
    assert.ok(result.totals.partitioned > 0);
    assert.equal(result.totals.servers[0].partitioned, result.totals.partitioned);
    const timeouts = (r) => r.timeline.bins.reduce((a, b) => a + b.timeouts, 0);
    assert.ok(timeouts(result) >= result.totals.partitioned, 'every partitioned attempt ends at its timeout');
    assert.ok(timeouts(result) > timeouts(crash), 'the partition times out where the crash refused');
    // The crash fails fast; a partitioned attempt eats its whole timeout before its retry.
    assert.ok(result.totals.latencyMs.max >= result.request.policy.clientTimeoutMs);
    assert.ok(crash.totals.latencyMs.max < result.request.policy.clientTimeoutMs);
    // The fault shaded on server 0's row only.
    assert.equal(await page.locator('#fl-servers-chart .fl-window-partition').count(), 1);
  }));

  test('each server control changes the request and is carried by the fleet link; the link opened again is the same run', pageTest(env, { viewport: LAPTOP, sections: false }, async ({ page }) => {
    await fleetSettled(page);
    const slider = page.locator('#fl-sv-servers-count');
    await slider.focus();
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowRight');
    await changeSettled(page);
    await page.selectOption('#fl-sv-balancer-kind', 'random');
    await changeSettled(page);
    await page.selectOption('#fl-sv-balancer-scope', 'fleet');
    await changeSettled(page);
    await page.selectOption('#fl-sv-policy-retryHost', 'previous-hosts');
    await changeSettled(page);
    await page.locator('#fl-sv-server-failureRate-0').fill('0.5');
    await changeSettled(page);
    await page.selectOption('#fl-sv-faults', 'crash');
    await changeSettled(page);
    await page.selectOption('#fl-sv-server-serviceDist', 'exponential');
    await changeSettled(page);
    await page.selectOption('#fl-sv-keyStore-scope', 'per-server');
    await changeSettled(page);
    const { request, result } = await state(page);
    assert.deepEqual(request, {
      servers: { count: 4, overrides: [{ index: 0, failureRate: 0.5 }] },
      balancer: { kind: 'random', scope: 'fleet' },
      policy: { retryHost: 'previous-hosts' },
      faults: [{ kind: 'crash', servers: [0], startMs: 10000, endMs: 20000 }],
      server: { serviceDist: 'exponential' },
      keyStore: { scope: 'per-server' },
    });
    assert.equal(result.totals.servers.length, 4);
    const hash = await page.evaluate(() => window.location.hash);
    assert.match(hash, /servers\.count=4/);
    const again = await openPage(env, { viewport: LAPTOP, sections: false, path: `/${hash}` });
    await fleetSettled(again.page);
    const linked = await state(again.page);
    assert.deepEqual(linked.result.request, result.request);
    assert.deepEqual(linked.result.totals, result.totals);
    assert.equal(await again.page.locator('#fl-sv-servers-count').inputValue(), '4');
    assert.equal(await again.page.locator('#fl-sv-keyStore-scope').inputValue(), 'per-server');
  }));

  test('the keyboard alone: Tab reaches the preset menu, the arrow keys choose a preset, and the strip follows the storm chart’s cursor', pageTest(env, { viewport: PHONE, sections: false, reducedMotion: 'reduce' }, async ({ page }) => {
    await fleetSettled(page);
    await page.locator('#fl-sv-keyStore-scope').focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'fl-servers-preset');
    await page.keyboard.press('ArrowDown');
    await changeSettled(page);
    assert.equal((await state(page)).result.totals.servers.length, 10);
    await page.locator('#fl-chart').focus();
    await page.keyboard.press('Home');
    for (let i = 0; i < 12; i += 1) await page.keyboard.press('ArrowRight');
    assert.match(await page.locator('#fl-servers-readout').textContent(), /^12 s–13 s, sent in this bin: server 0 \d+ attempts, 0 in time/);
    assert.equal(await page.locator('#fl-servers-chart .fl-cursor').count(), 1);
  }));

  // One page a width, kept for its two modes (issue 31: the page, the opening run, the preset's
  // run and axe's script once a width instead of once a test): the colour scheme switched between
  // them (the page's colours are its stylesheet's alone), the preset chosen by whichever test
  // comes first, so that either passes alone and the second finds the state the first left.
  const kept = { laptop: keptPage(env, { viewport: LAPTOP, reducedMotion: 'reduce', bypassCSP: true, sections: false }), phone: keptPage(env, { viewport: PHONE, reducedMotion: 'reduce', bypassCSP: true, sections: false }) };
  for (const colorScheme of ['light', 'dark']) {
    for (const [name, viewport] of [['laptop', LAPTOP], ['phone', PHONE]]) {
      test(`axe-core reports nothing in ${colorScheme} mode on a ${name} with one bad host of ten on show, its card and the strip drawn`, async () => {
        const { page } = await kept[name]();
        assert.deepEqual(page.viewportSize(), viewport);
        await page.emulateMedia({ colorScheme });
        await fleetSettled(page);
        if ((await page.inputValue('#fl-servers-preset')) !== 'servers:bad-host-5xx') await choosePreset(page, 'servers:bad-host-5xx');
        assert.equal((await state(page)).result.totals.servers.length, 10);
        assert.equal(await page.locator('#fl-servers-chart svg').count(), 1);
        if (!(await page.evaluate(() => Boolean(window.axe)))) await page.addScriptTag({ content: AXE });
        const violations = await page.evaluate(() => window.axe.run('#fleet', { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')}`)));
        assert.deepEqual(violations, []);
      });
    }
  }
});
