// "Paste your config" (web/config/, docs/config-in.md §13, issue 36), driven as a reader drives
// it: the config file (retrylab-config.js) is not fetched until the box is opened; a real
// example of each of the six formats pasted into the clients section shows the format detected,
// the reading field by field and the run, which is the engine's run of the translated inputs
// (read in node by the same config file); the link the page keeps reopens that run without the
// config; a bad paste is named at the box (aria-invalid, the field's path and line) and the last
// run stays; in compare mode two pastes become the two sides, with what changed; it works from
// file://; and axe finds nothing in either theme.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST, axeViolations, browserSuite, openPage, pageTest } from './lib/harness.js';
import { frames } from './lib/ui.js';

const require = createRequire(import.meta.url);
const examples = require('../config-examples.js');
const env = browserSuite({ engine: true });
// The reader in node: the same file the page loads, from dist/.
let configFile = null;
env.setUp(async () => { configFile = await require(join(DIST, 'retrylab-config.js'))(); });
const reading = (text, from = 'auto', situation = undefined) => configFile.readConfig({ text, options: { from, ...(situation ? { situation } : {}) } });
const TITLES = { grpc: 'gRPC service config', envoy: 'Envoy route', istio: 'Istio VirtualService', linkerd: 'Linkerd ServiceProfile', aws: 'AWS shared config', dotnet: '.NET appsettings' };

async function openBox(page, prefix = 'cl-cfg-') {
  const box = page.locator(`#${prefix}box`);
  await box.scrollIntoViewIfNeeded();
  if (!(await box.evaluate((d) => d.open))) await box.locator('summary').click();
  return box;
}
async function paste(page, text, { key = 'config', prefix = 'cl-cfg-' } = {}) {
  await page.locator(`#${prefix}${key}-text`).fill(text);
}
async function readIt(page, prefix = 'cl-cfg-') {
  await page.locator(`#${prefix}read`).click();
  await page.waitForFunction((p) => {
    const s = document.getElementById(`${p}status`).textContent;
    return s && !/^Loading/.test(s);
  }, prefix);
}
const runInputs = (page) => page.evaluate(() => window.retryLab.getState().result.inputs);

describe('paste your config', () => {
  test('the config file is fetched only when the box is opened, once, from this host', pageTest(env, {}, async ({ page, opened }) => {
    const asked = [];
    page.on('request', (r) => { if (/retrylab-config\.js/.test(r.url())) asked.push(r.url()); });
    await page.locator('#clients').scrollIntoViewIfNeeded();
    await frames(page, 3); // what nearing the section loads, the observers that see it have asked for by now
    assert.deepEqual(asked, [], 'not with the page, not with the sections');
    assert.equal(await page.evaluate(() => typeof window.RetryLabConfig), 'undefined');
    await openBox(page);
    await page.waitForFunction(() => document.querySelectorAll('#cl-cfg-from option').length > 1);
    assert.equal(asked.length, 1);
    assert.ok(asked[0].startsWith(env.server.origin));
    // The menu is the config file's: auto, then the six formats.
    const options = await page.locator('#cl-cfg-from option').evaluateAll((os) => os.map((o) => o.value));
    assert.deepEqual(options, ['auto', 'istio', 'linkerd', 'envoy', 'grpc', 'dotnet', 'aws']);
    await page.locator('#cl-cfg-config-text').focus();
    assert.equal(asked.length, 1, 'loaded once');
    assert.deepEqual(opened.offHost, []);
  }));

  for (const [name, example] of Object.entries(examples)) {
    test(`${TITLES[name]}: the real example pasted shows the format detected, the reading field by field and the engine's run of its inputs`, pageTest(env, {}, async ({ page }) => {
      await openBox(page);
      await paste(page, example.text);
      const situation = await runInputs(page);
      await readIt(page);
      const expected = reading(example.text, 'auto', situation);
      assert.equal(expected.ok, true);
      assert.equal(await page.locator('#cl-cfg-detected').innerText(), `Detected: ${TITLES[name]} (rule ${example.rule})`);
      // Every report entry with a source field is a row, with its line and what it became.
      const rows = await page.locator('#cl-cfg-out .rl-cfg-entry').evaluateAll((trs) => trs.map((tr) => [tr.dataset.path, tr.dataset.status, tr.cells[0].innerText]));
      const fromFile = expected.report.filter((e) => e.status !== 'engine-default');
      assert.deepEqual(rows.map(([p, s]) => [p, s]), fromFile.map((e) => [e.path, e.status]));
      for (const e of fromFile.filter((x) => x.line)) {
        const row = page.locator(`#cl-cfg-out .rl-cfg-entry[data-path="${e.path}"][data-status="${e.status}"]`).first();
        assert.equal(await row.locator('td').first().innerText(), String(e.line), e.path);
      }
      // The run: the experiment's inputs are the engine's echo of the translated inputs.
      assert.deepEqual(await runInputs(page), env.compute(expected.inputs).inputs);
      const m = env.compute(expected.inputs).metrics;
      const said = (n, word) => `${n.toLocaleString('en-US')} ${n === 1 ? word : `${word}s`}`;
      assert.ok((await page.locator('#cl-cfg-out .rl-cfg-run').innerText()).includes(`${said(m.attempts, 'attempt')}, ${said(m.charges, 'charge')}`));
      assert.equal(await page.locator('#cl-cfg-config-text').getAttribute('aria-invalid'), 'false');
    }));
  }

  test('a format forced reads the file as that format; the wrong one is "not the format", named at the box', pageTest(env, {}, async ({ page }) => {
    await openBox(page);
    await page.waitForFunction(() => document.querySelectorAll('#cl-cfg-from option').length > 1);
    await paste(page, examples.istio.text);
    await page.locator('#cl-cfg-from').selectOption('istio');
    await readIt(page);
    assert.equal(await page.locator('#cl-cfg-detected').innerText(), 'Read as: Istio VirtualService (as chosen)');
    await page.locator('#cl-cfg-from').selectOption('grpc');
    await readIt(page);
    assert.equal(await page.locator('#cl-cfg-config-text').getAttribute('aria-invalid'), 'true');
    assert.match(await page.locator('#cl-cfg-config-error').innerText(), /not a gRPC service config/);
  }));

  test('the link the page keeps carries the translated inputs: opened alone, it is the same run, with no config', pageTest(env, {}, async ({ page }) => {
    await openBox(page);
    await paste(page, examples.envoy.text);
    await readIt(page);
    const inputs = await runInputs(page);
    await page.waitForFunction(() => /maxRetries|deadlineMs/.test(window.location.hash));
    const hash = await page.evaluate(() => window.location.hash);
    assert.ok(!/static_resources|retry_policy/.test(decodeURIComponent(hash)), 'the link holds inputs, never the pasted text');
    const again = await openPage(env, { path: `/${hash}`, sections: false });
    assert.deepEqual(await runInputs(again.page), inputs);
    assert.deepEqual(await runInputs(again.page), env.compute(reading(examples.envoy.text).inputs).inputs);
  }));

  test('a gRPC hedgingPolicy pasted runs hedged: copy 2 a second after copy 1 succeeds at 1,200 ms, two charges; its link reopens the hedged run', pageTest(env, {}, async ({ page }) => {
    await openBox(page);
    await paste(page, '{"methodConfig": [{"name": [{"service": "s"}], "hedgingPolicy": {"maxAttempts": 3, "hedgingDelay": "1s"}}]}');
    await readIt(page);
    const result = await page.evaluate(() => window.retryLab.getState().result);
    // docs/config-in.md §4.3: hedging { maxAttempts 3, delayMs 1000, nonFatal [] }, maxRetries 0.
    assert.deepEqual([result.inputs.maxRetries, result.inputs.hedging.maxAttempts, result.inputs.hedging.delayMs], [0, 3, 1000]);
    // The opening run's answers hedged: copy 1's response is lost; copy 2 at 1,000 ms succeeds at 1,200.
    const m = result.metrics;
    assert.deepEqual([m.attempts, m.charges, m.elapsedMs, m.outcome], [2, 2, 1200, 'success']);
    assert.equal(await page.locator('tr.rl-cfg-entry[data-path="methodConfig[0].hedgingPolicy"]').getAttribute('data-status'), 'read');
    await page.waitForFunction(() => /hedging=/.test(window.location.hash));
    const again = await openPage(env, { path: `/${await page.evaluate(() => window.location.hash)}`, sections: false });
    assert.deepEqual(await runInputs(again.page), result.inputs);
  }));

  test('a bad paste is named at the box (its field\'s path and line; aria-invalid, aria-describedby) and the last run stays', pageTest(env, {}, async ({ page }) => {
    await openBox(page);
    await paste(page, examples.grpc.text);
    await readIt(page);
    const good = await runInputs(page);
    const cases = [
      [examples.grpc.text.replace('"maxAttempts": 5', '"maxAttempt": 5'), /methodConfig\[0\]\.retryPolicy\.maxAttempt is not a field.*did you mean maxAttempts\?.*line 6/],
      [examples.grpc.text.replace('"maxAttempts": 5', '"maxAttempts": "5"'), /methodConfig\[0\]\.retryPolicy\.maxAttempts must be a whole number.*line 6/],
      [examples.istio.text.replace('perTryTimeout: 2s', 'perTryTimeout: 2sec'), /spec\.http\[0\]\.retries\.perTryTimeout.*"2sec".*line 15/],
      ['kind: Service\napiVersion: v1\n', /a Kubernetes Service/],
      ['a: [1, 2\nb: 3\n', /line \d+/],
      [`# ${'x'.repeat(1100000)}\n`, /larger than 1 MiB/],
    ];
    for (const [text, words] of cases) {
      await paste(page, text);
      await readIt(page);
      const area = page.locator('#cl-cfg-config-text');
      assert.equal(await area.getAttribute('aria-invalid'), 'true', String(words));
      assert.ok((await area.getAttribute('aria-describedby')).split(' ').includes('cl-cfg-config-error'));
      assert.match(await page.locator('#cl-cfg-config-error').innerText(), words);
      assert.deepEqual(await runInputs(page), good, 'the last good run is kept');
    }
    // A good paste again clears the error.
    await paste(page, examples.aws.text);
    await readIt(page);
    assert.equal(await page.locator('#cl-cfg-config-text').getAttribute('aria-invalid'), 'false');
    assert.equal(await page.locator('#cl-cfg-config-error').isHidden(), true);
  }));

  test('keyboard alone: Tab to the box, Enter opens it, Ctrl+Enter in the text reads it', pageTest(env, {}, async ({ page }) => {
    await page.locator('#cl-cfg-box summary').focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'cl-cfg-config-text');
    await page.keyboard.insertText(examples.linkerd.text);
    await page.keyboard.press('Control+Enter');
    await page.waitForFunction(() => /Detected/.test(document.getElementById('cl-cfg-out').textContent));
    assert.equal(await page.locator('#cl-cfg-detected').innerText(), 'Detected: Linkerd ServiceProfile (rule linkerd-service-profile)');
  }));

  test('compare mode: two pastes (Envoy num_retries 1 → 3) are the two sides, with what changed; the comparison\'s link reopens both runs', pageTest(env, {}, async ({ page }) => {
    await page.locator('#experiment').getByRole('button', { name: 'Compare with…' }).click();
    await page.waitForSelector('#cmp-cfg-box');
    const before = 'name: charge\nmatch: {prefix: "/pay"}\nroute:\n  cluster: payments\n  timeout: 3s\n  retry_policy:\n    retry_on: 5xx\n    num_retries: 1\n';
    const after = before.replace('num_retries: 1', 'num_retries: 3\n    per_try_timeout: 0.5s');
    await openBox(page, 'cmp-cfg-');
    await paste(page, before, { key: 'before', prefix: 'cmp-cfg-' });
    await paste(page, after, { key: 'after', prefix: 'cmp-cfg-' });
    await readIt(page, 'cmp-cfg-');
    const changed = await page.locator('#cmp-cfg-changed tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.innerText)));
    // num_retries at line 8 in both, 1 → 3, moving maxRetries; then the per-try timeout.
    assert.deepEqual(changed[0], ['route.retry_policy.num_retries', '8', '1', '3', 'maxRetries 1 → 3']);
    const expected = configFile.compareConfigs({ before: { text: before }, after: { text: after } });
    assert.deepEqual(changed.map((r) => r[0]), expected.changed.map((c) => c.path));
    assert.deepEqual([changed[1][0], changed[1][3]], ['route.retry_policy.per_try_timeout', '0.5s']);
    // Each side runs its config; the comparison's link (rewritten as the sides change) carries
    // both translated runs and opens them again.
    await page.waitForFunction(() => /after\.maxRetries=3/.test(window.location.hash));
    const hash = await page.evaluate(() => window.location.hash);
    assert.match(hash, /after\.clientTimeoutMs=500(&|$)/);
    const link = await page.locator('#cmp-link').inputValue();
    assert.ok(!/retry_policy/.test(decodeURIComponent(link)));
    const again = await openPage(env, { path: `/${link.slice(link.indexOf('#'))}`, sections: false });
    await again.page.waitForSelector('[data-compare-lab="after"]');
    const diffs = await again.page.locator('.rl-compare-diffs tbody tr').evaluateAll((trs) => trs.map((tr) => tr.dataset.metric + ':' + tr.cells[1].innerText + '→' + tr.cells[2].innerText));
    const here = await page.locator('.rl-compare-diffs tbody tr').evaluateAll((trs) => trs.map((tr) => tr.dataset.metric + ':' + tr.cells[1].innerText + '→' + tr.cells[2].innerText));
    assert.deepEqual(diffs, here);
    assert.ok(here.some((d) => d.startsWith('attempts:')));
  }));

  test('compare mode: a bad after paste is named at its box, and both runs stay', pageTest(env, {}, async ({ page }) => {
    await page.locator('#experiment').getByRole('button', { name: 'Compare with…' }).click();
    await page.waitForSelector('#cmp-cfg-box');
    await openBox(page, 'cmp-cfg-');
    await paste(page, examples.grpc.text, { key: 'before', prefix: 'cmp-cfg-' });
    await paste(page, examples.envoy.text, { key: 'after', prefix: 'cmp-cfg-' });
    const hash = await page.evaluate(() => window.location.hash);
    await readIt(page, 'cmp-cfg-');
    assert.equal(await page.locator('#cmp-cfg-after-text').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.locator('#cmp-cfg-before-text').getAttribute('aria-invalid'), 'false');
    assert.match(await page.locator('#cmp-cfg-after-error').innerText(), /gRPC service config.*Envoy route/);
    await page.waitForTimeout(300);
    assert.equal(await page.evaluate(() => window.location.hash), hash, 'the comparison is unchanged');
  }));

  test('from file://, the config file loads beside the page and reads a paste', async () => {
    const { page, problems } = await openPage(env, { url: pathToFileURL(join(DIST, 'index.html')).href });
    await openBox(page);
    await paste(page, examples.dotnet.text);
    await readIt(page);
    assert.equal(await page.locator('#cl-cfg-detected').innerText(), 'Detected: .NET appsettings (rule dotnet-appsettings)');
    assert.deepEqual(problems, []);
  });

  for (const colorScheme of ['light', 'dark']) {
    test(`axe finds nothing in the paste boxes, read and refused (${colorScheme})`, pageTest(env, { colorScheme, bypassCSP: true }, async ({ page }) => {
      await openBox(page);
      await paste(page, examples.istio.text);
      await readIt(page);
      assert.deepEqual(await axeViolations(page, '#clients'), []);
      await paste(page, 'kind: Service\napiVersion: v1\n');
      await readIt(page);
      assert.deepEqual(await axeViolations(page, '#clients'), []);
      await page.locator('#experiment').getByRole('button', { name: 'Compare with…' }).click();
      await page.waitForSelector('#cmp-cfg-box');
      await openBox(page, 'cmp-cfg-');
      await paste(page, examples.envoy.text, { key: 'before', prefix: 'cmp-cfg-' });
      await paste(page, examples.envoy.text.replace('host_selection_retry_max_attempts: 3', 'host_selection_retry_max_attempts: 3\n                    num_retries: 2'), { key: 'after', prefix: 'cmp-cfg-' });
      await readIt(page, 'cmp-cfg-');
      assert.deepEqual(await axeViolations(page, '.rl-compare-head'), []);
    }));
  }
});
