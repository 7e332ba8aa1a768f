// The Client choice on the page, driven as a reader drives it: choosing a client loads its
// settings into the experiment and every view follows; the card names the sources (links)
// and the gaps; a changed control is pointed out; the keyboard alone can choose. Expected
// figures are docs/clients.md's (§8: the opening run per client), not recorded.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { assertClean, browserSuite, openPage, pageTest } from './lib/harness.js';
import { ID, metricsOf, setInputs, tableRows, verdict } from './lib/ui.js';
import { presetById } from '../../web/clients/presets.js';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

const env = browserSuite();

const choose = (page, id) => page.getByLabel('Client', { exact: true }).selectOption(id);
const cardText = (page) => page.locator('#cl-card').innerText();

describe('the Client choice', () => {
  test('choosing stripe-node loads its settings: the views show 1 charge, 1 replay, success at 3,700 ms (docs/clients.md L330-L332)', pageTest(env, {}, async ({ page }) => {
    assert.equal(await page.getByLabel('Client', { exact: true }).inputValue(), 'seed', 'the page opens on the seed’s fixture');
    await choose(page, 'stripe-node');
    assert.deepEqual(await metricsOf(page), { attempts: '2', charges: '1', replays: '1', elapsed: '3,700 ms', outcome: 'success', lookup: 'no' });
    assert.equal(await verdict(page), 'Reports success, charged once.');
    assert.equal((await tableRows(page))[1][3], 'stored result replayed');
    // The controls took the client's values; the waits its formula gives (500 ms floor, L296).
    assert.equal(await page.locator(ID('maxRetries')).inputValue(), '2');
    assert.equal(await page.locator(ID('baseBackoffMs')).inputValue(), '500');
    assert.ok(await page.locator(ID('idempotencyKey')).isChecked());
    assert.match((await tableRows(page))[0][6], /^500 ms \(/, 'the first retry waits exactly 500 ms');
    const state = await page.evaluate(() => window.retryLab.getState().result.inputs);
    assert.equal(state.minBackoffMs, 500);
    assert.equal(state.retryAfterMode, 'at-least');
    assert.deepEqual(state.retryOnStatuses, [409]);

    // The card: the name, the settings, every source as a link with its version, the gaps.
    const preset = presetById('stripe-node');
    const text = await cardText(page);
    assert.ok(text.startsWith(preset.name));
    for (const [k, s] of preset.sources.entries()) {
      const link = page.locator(`#cl-source-${k}`);
      assert.equal(await link.getAttribute('href'), s.href);
      assert.equal(await link.textContent(), s.label);
      assert.ok(text.includes(`${s.label} (${s.version})`));
    }
    assert.ok(text.includes(preset.cannot), 'what the model cannot represent');
    for (const u of preset.uncertain) assert.ok(text.includes(u), `uncertain: ${u}`);
    assert.match(await page.locator('#cl-opening-run').innerText(), /Reports success, charged once\.\s+2 attempts, 1 charge, 1 replay, outcome success, 3,700 ms\./);
    assert.equal(await page.locator('#cl-current-run').count(), 0, 'the experiment is the opening run: no second line');
  }));

  test('gRPC’s example policy: one attempt ends at the 3 s call deadline, charged once, outcome unknown (L112-L115)', pageTest(env, {}, async ({ page }) => {
    await choose(page, 'grpc-a6');
    assert.deepEqual(await metricsOf(page), { attempts: '1', charges: '1', replays: '0', elapsed: '3,000 ms', outcome: 'unknown', lookup: 'yes' });
    assert.equal(await verdict(page), 'Reports a timeout, charged once.');
    assert.equal(await page.locator(ID('deadlineMs')).inputValue(), '3000');
    assert.match(await cardText(page), /no per-attempt timeout/);
    // Polly as usually wired does not retry the timeout either (L392-L393); with a Polly
    // Timeout strategy it does, and attempt 2 runs 5,000–5,200 ms (L394-L395).
    await choose(page, 'polly');
    assert.deepEqual((await metricsOf(page)).charges, '1');
    await choose(page, 'polly-timeout');
    assert.deepEqual(await metricsOf(page), { attempts: '2', charges: '2', replays: '0', elapsed: '5,200 ms', outcome: 'success', lookup: 'no' });
    assert.equal((await tableRows(page))[1][1], '5,000 ms');
  }));

  test('the server’s behaviour stays as the reader set it; the whole policy is replaced', pageTest(env, {}, async ({ page }) => {
    await setInputs(page, { scenario: 'HTTP 503 twice, then succeeds', idempotencyKey: true });
    await choose(page, 'aws-standard');
    assert.ok(await page.getByRole('radio', { name: 'HTTP 503 twice, then succeeds', exact: true }).isChecked());
    assert.equal(await page.locator(ID('idempotencyKey')).isChecked(), false, 'botocore sends no key (L178)');
    // botocore retries a 503 (L132) and makes 3 attempts (L127): the third succeeds, one charge.
    const m = await metricsOf(page);
    assert.deepEqual([m.attempts, m.charges, m.outcome], ['3', '1', 'success']);
    // The card says what the experiment now runs, beside the opening run.
    assert.match(await page.locator('#cl-current-run').innerText(), /Reports success, charged once/);
    assert.match(await page.locator('#cl-opening-run').innerText(), /charged twice/);
  }));

  test('a control changed after choosing is named, and the client can be loaded again; the seed’s fixture comes back', pageTest(env, {}, async ({ page }) => {
    await choose(page, 'resilience4j');
    // resilience4j's defaults: 2 charges, success at 3,700 ms (L446-L448).
    assert.deepEqual(await metricsOf(page), { attempts: '2', charges: '2', replays: '0', elapsed: '3,700 ms', outcome: 'success', lookup: 'no' });
    await setInputs(page, { maxRetries: 0 });
    const notice = page.locator('#cl-changed');
    assert.match(await notice.innerText(), /Changed in the experiment since you chose this client: Maximum retries\. The run above is no longer resilience4j’s defaults\./);
    await page.getByRole('button', { name: 'Load resilience4j’s defaults again' }).click();
    assert.equal(await notice.count(), 0);
    assert.equal(await page.locator(ID('maxRetries')).inputValue(), '2');
    await choose(page, 'seed');
    assert.deepEqual(await metricsOf(page), { attempts: '2', charges: '2', replays: '0', elapsed: '3,700 ms', outcome: 'success', lookup: 'no' });
    assert.equal(await page.locator(ID('maxRetries')).inputValue(), '3');
    assert.match(await cardText(page), /^The seed’s fixture/);
  }));

  test('a run loaded from elsewhere (a link, a story step) shows the client whose settings it has', pageTest(env, {}, async ({ page }) => {
    const stripeGo = presetById('stripe-go').inputs;
    await page.evaluate((inputs) => window.retryLab.load({ ...inputs, scenario: 'outage-503-twice' }), stripeGo);
    assert.equal(await page.getByLabel('Client', { exact: true }).inputValue(), 'stripe-go');
    assert.equal(await page.locator('#cl-changed').count(), 0);
    // A story step runs the seed's policy with a key: no client has that, so the change is named.
    await page.evaluate(() => window.retryLab.load({ idempotencyKey: true }));
    assert.equal(await page.getByLabel('Client', { exact: true }).inputValue(), 'stripe-go');
    assert.match(await page.locator('#cl-changed').innerText(), /since you chose this client: .*Maximum retries/);
  }));

  test('the keyboard alone chooses a client, and the choice is announced', pageTest(env, {}, async ({ page }) => {
    await page.locator('#cl-client').focus();
    await page.keyboard.press('ArrowDown'); // the first client after "Custom / the seed's fixture"
    await page.waitForFunction(() => window.retryLabClients.getSelected() !== 'seed');
    const first = await page.evaluate(() => window.retryLabClients.getSelected());
    assert.equal(first, 'grpc-a6');
    assert.equal(await page.locator('#cl-announce').textContent(), `Loaded ${presetById('grpc-a6').name} into the experiment.`);
    assert.equal((await metricsOf(page)).outcome, 'unknown');
    const ring = await page.locator('#cl-client').evaluate((el) => getComputedStyle(el).outlineStyle !== 'none');
    assert.ok(ring, 'the select shows its focus');
  }));

  for (const colorScheme of ['light', 'dark']) {
    test(`axe-core finds no violations in the client and sweep section (${colorScheme}): a client with gaps, a changed control, the table open, a bad sweep value`, async (t) => {
      const opened = await openPage(env, { colorScheme });
      const { page, context } = await openPage(env, { colorScheme, bypassCSP: true });
      const axe = async () => {
        if (!(await page.evaluate(() => Boolean(window.axe)))) await page.addScriptTag({ content: AXE });
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
