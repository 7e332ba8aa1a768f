// The Client choice on the page, driven as a reader drives it: choosing a client loads its
// settings into the experiment and every view follows; the card names the sources (links)
// and the gaps; a changed control is pointed out; the keyboard alone can choose. Expected
// figures are worked from the clients' sources (docs/clients.md), not recorded.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AXE, assertClean, browserSuite, openPage, pageTest } from './lib/harness.js';
import { ID, metricsOf, setInputs, tableRows, verdict } from './lib/ui.js';
import { presetById } from '../../web/clients/presets.js';
import { expectedFigures, releaseHref } from '../../web/clients/view.js';

const env = browserSuite();

const choose = (page, id) => page.getByLabel('Client', { exact: true }).selectOption(id);
// The card is drawn while it is near the screen (issue 18, web/explorable/near.js): a reader
// sees it after scrolling to it, and so does each test, before it reads the card.
const showCard = (page) => page.evaluate(() => new Promise((done) => {
  document.querySelector('#cl-card').scrollIntoView({ block: 'center' });
  requestAnimationFrame(() => done());
}));
const cardText = async (page) => {
  await showCard(page);
  return page.locator('#cl-card').innerText();
};

describe('the Client choice', () => {
  test('choosing Stripe’s current clients loads their settings: 1 charge, 1 replay, success at 3,700 ms', pageTest(env, {}, async ({ page }) => {
    assert.equal(await page.getByLabel('Client', { exact: true }).inputValue(), 'seed', 'the page opens on the seed’s fixture');
    await choose(page, 'stripe-current');
    assert.deepEqual(await metricsOf(page), { attempts: '2', charges: '1', replays: '1', elapsed: '3,700 ms', outcome: 'success', lookup: 'no' });
    assert.equal(await verdict(page), 'Reports success, charged once.');
    assert.equal((await tableRows(page))[1][3], 'stored result replayed');
    // The controls took the client's values; the first wait is max(500, 500 × (0.5 + 0.5 d)) = 500.
    assert.equal(await page.locator(ID('maxRetries')).inputValue(), '2');
    assert.equal(await page.locator(ID('baseBackoffMs')).inputValue(), '500');
    assert.ok(await page.locator(ID('idempotencyKey')).isChecked());
    assert.match((await tableRows(page))[0][6], /^500 ms \(/, 'the first retry waits exactly 500 ms');
    const state = await page.evaluate(() => window.retryLab.getState().result.inputs);
    assert.equal(state.minBackoffMs, 500);
    assert.equal(state.honourRetryAfter, false, 'Retry-After is no longer read (stripe-python 15.3.1, stripe-node 22.3.1)');
    assert.deepEqual(state.retryOnStatuses, [409]);
    assert.equal(state.attemptStart, 'before-deadline');

    // The card: the name, the versions, every release read as a link with its commit, the gaps.
    await showCard(page);
    const preset = presetById('stripe-current');
    const text = await cardText(page);
    assert.ok(text.startsWith(preset.name));
    assert.ok(text.includes(preset.versions));
    assert.ok(preset.releases.length >= 2, 'stripe-python and stripe-node');
    for (const [k, r] of preset.releases.entries()) {
      const link = page.locator(`#cl-source-${k}`);
      if (r.package) {
        // A package read in its npm tarball: named with its integrity, not linked (issue 38).
        assert.equal(await link.getAttribute('href'), null);
        assert.equal(await link.textContent(), `${r.package} ${r.version} (npm tarball, ${r.integrity.slice(0, 15)}…)`);
        continue;
      }
      assert.equal(await link.getAttribute('href'), releaseHref(r));
      assert.match(releaseHref(r), new RegExp(`^https://github\\.com/${r.repo}/tree/[0-9a-f]{12}$`));
      assert.equal(await link.textContent(), `${r.repo} ${r.tag}`);
    }
    for (const c of preset.cannot) assert.ok(text.includes(c), `cannot: ${c}`);
    assert.match(await page.locator('#cl-opening-run').innerText(), /Reports success, charged once\.\s+2 attempts, 1 charge, 1 replay, outcome success, 3,700 ms\./);
    assert.equal(await page.locator('#cl-current-run').count(), 0, 'the experiment is the opening run: no second line');
  }));

  test('choosing the OpenAI Python SDK shows 2 charges in the opening run, and why: no key is sent', pageTest(env, {}, async ({ page }) => {
    await choose(page, 'openai-python');
    // Attempt 1 0–3000 (charge #1, response lost); the timeout is retried after
    // min(500 × 2^0, 8000) × (0.75 + 0.25 d) ∈ [375, 500] ms; attempt 2 charges again.
    const m = await metricsOf(page);
    assert.deepEqual([m.attempts, m.charges, m.replays, m.outcome], ['2', '2', '0', 'success']);
    assert.equal(await verdict(page), 'Reports success, charged twice.');
    assert.equal(await page.locator(ID('idempotencyKey')).isChecked(), false);
    await showCard(page);
    const expected = await page.locator('#cl-expected').innerText();
    assert.match(expected, /2 attempts, 2 charges, outcome success: .*no idempotency key is sent/);
    assert.ok(expected.includes(expectedFigures(presetById('openai-python').opening)));
  }));

  test('gRPC’s example policy: one attempt ends at the 3 s call deadline, charged once, outcome unknown', pageTest(env, {}, async ({ page }) => {
    await choose(page, 'grpc-go-169');
    assert.deepEqual(await metricsOf(page), { attempts: '1', charges: '1', replays: '0', elapsed: '3,000 ms', outcome: 'unknown', lookup: 'yes' });
    assert.equal(await verdict(page), 'Reports a timeout, charged once.');
    assert.equal(await page.locator(ID('deadlineMs')).inputValue(), '3000');
    assert.match(await cardText(page), /no per-attempt timeout/);
    // Polly as usually wired does not retry the timeout either (an OperationCanceledException);
    // with a Polly Timeout strategy it does, after 2 s: attempt 2 runs 5,000–5,200 ms.
    await choose(page, 'polly');
    assert.deepEqual((await metricsOf(page)).charges, '1');
    await choose(page, 'polly-timeout');
    assert.deepEqual(await metricsOf(page), { attempts: '2', charges: '2', replays: '0', elapsed: '5,200 ms', outcome: 'success', lookup: 'no' });
    assert.equal((await tableRows(page))[1][1], '5,000 ms');
  }));

  test('the server’s behaviour stays as the reader set it; the whole policy is replaced', pageTest(env, {}, async ({ page }) => {
    await setInputs(page, { scenario: 'HTTP 503 twice, then succeeds', idempotencyKey: true });
    await choose(page, 'aws-botocore-2026');
    assert.ok(await page.getByRole('radio', { name: 'HTTP 503 twice, then succeeds', exact: true }).isChecked());
    assert.equal(await page.locator(ID('idempotencyKey')).isChecked(), false, 'botocore sends no key for a call that models none');
    // botocore retries a 503 (_TRANSIENT_STATUS_CODES) and makes 3 attempts: the third succeeds, one charge.
    const m = await metricsOf(page);
    assert.deepEqual([m.attempts, m.charges, m.outcome], ['3', '1', 'success']);
    // The card says what the experiment now runs, beside the opening run.
    await showCard(page);
    assert.match(await page.locator('#cl-current-run').innerText(), /Reports success, charged once/);
    assert.match(await page.locator('#cl-opening-run').innerText(), /charged twice/);
  }));

  test('a control changed after choosing is named, and the client can be loaded again; the seed’s fixture comes back', pageTest(env, {}, async ({ page }) => {
    await choose(page, 'resilience4j');
    // resilience4j's defaults are the seed's policy: 2 charges, success at 3,700 ms.
    assert.deepEqual(await metricsOf(page), { attempts: '2', charges: '2', replays: '0', elapsed: '3,700 ms', outcome: 'success', lookup: 'no' });
    await setInputs(page, { maxRetries: 0 });
    await showCard(page);
    const notice = page.locator('#cl-changed');
    assert.match(await notice.innerText(), /Changed in the experiment since you chose this client: Maximum retries\. The run above is no longer resilience4j’s defaults\./);
    await page.getByRole('button', { name: 'Load resilience4j’s defaults again' }).click();
    assert.equal(await notice.count(), 0);
    assert.equal(await page.locator(ID('maxRetries')).inputValue(), '2');
    await choose(page, 'seed');
    assert.deepEqual(await metricsOf(page), { attempts: '2', charges: '2', replays: '0', elapsed: '3,700 ms', outcome: 'success', lookup: 'no' });
    assert.equal(await page.locator(ID('maxRetries')).inputValue(), '3');
    assert.match(await cardText(page), /^The page’s fixture/);
  }));

  test('a run loaded from elsewhere (a link, a story step) shows the client whose settings it has', pageTest(env, {}, async ({ page }) => {
    const stripeGo = presetById('stripe-go-821').inputs;
    await page.evaluate((inputs) => window.retryLab.load({ ...inputs, scenario: 'outage-503-twice' }), stripeGo);
    assert.equal(await page.getByLabel('Client', { exact: true }).inputValue(), 'stripe-go-821');
    await showCard(page);
    assert.equal(await page.locator('#cl-changed').count(), 0);
    // A story step runs the seed's policy with a key: no client has that, so the change is named.
    await page.evaluate(() => window.retryLab.load({ idempotencyKey: true }));
    assert.equal(await page.getByLabel('Client', { exact: true }).inputValue(), 'stripe-go-821');
    await showCard(page);
    assert.match(await page.locator('#cl-changed').innerText(), /since you chose this client: .*Maximum retries/);
  }));

  test('the keyboard alone chooses a client, and the choice is announced', pageTest(env, {}, async ({ page }) => {
    await page.locator('#cl-client').focus();
    await page.keyboard.press('ArrowDown'); // the first client after "Custom / the seed's fixture"
    await page.waitForFunction(() => window.retryLabClients.getSelected() !== 'seed');
    const first = await page.evaluate(() => window.retryLabClients.getSelected());
    assert.equal(first, 'grpc-go-169');
    assert.equal(await page.locator('#cl-announce').textContent(), `Loaded ${presetById('grpc-go-169').name} into the experiment.`);
    assert.equal((await metricsOf(page)).outcome, 'unknown');
    const ring = await page.locator('#cl-client').evaluate((el) => getComputedStyle(el).outlineStyle !== 'none');
    assert.ok(ring, 'the select shows its focus');
  }));

  for (const colorScheme of ['light', 'dark']) {
    test(`axe-core finds no violations in the client and sweep section (${colorScheme}): a client with gaps, a changed control, the table open, a bad sweep value`, async (t) => {
      // One page for axe and for assertClean (issue 31: a second page, opened only to be found
      // clean, cost a page and its sections): axe comes as a script of the page's own host, which
      // the page's CSP (script-src 'self') lets in, so the page axe reads runs under its CSP.
      const opened = await openPage(env, { colorScheme });
      const { page } = opened;
      const axe = async () => {
        if (!(await page.evaluate(() => Boolean(window.axe)))) {
          const url = `${env.server.origin}/axe-core.min.js`; // an address the site lacks, answered here
          await page.route(url, (route) => route.fulfill({ body: AXE, contentType: 'text/javascript' }));
          await page.addScriptTag({ url });
        }
        const result = await page.evaluate(() => window.axe.run('#clients', { resultTypes: ['violations'] }));
        return result.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')}`);
      };
      await choose(page, 'urllib3');
      await page.locator(ID('maxRetries')).fill('1');
      await page.locator('#cl-sweep').scrollIntoViewIfNeeded();
      await page.locator('#cl-sweep[data-sweep-state="ready"]').waitFor();
      await page.locator('#sw-details summary').click();
      await page.locator('#sw-table tbody tr').first().waitFor();
      assert.deepEqual(await axe(), []);
      await page.locator('#sw-from').fill('');
      await page.locator('#cl-sweep[data-sweep-state="ready"]').waitFor();
      assert.equal(await page.locator('#sw-from-error').textContent(), 'Enter a number.');
      assert.deepEqual(await axe(), []);
      await assertClean(t, assert, opened);
    });
  }
});
