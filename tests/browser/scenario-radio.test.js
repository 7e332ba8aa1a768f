// The "Server behaviour" group when the run's scenario is "script" (a policy trace, the
// trace editor or a link loaded it): a fifth, checked choice names the scripted answers; it
// is in the group only while a script is loaded (hidden and disabled otherwise, so it can
// never be chosen without one); a named scenario sets the script aside and the scripted
// choice brings it back, exactly; the run's inputs (and so the link and the exports) carry
// the script exactly while it is chosen. First the pure steps in node against the real
// engine, then the page: mouse, keyboard, a link, a trace, axe-core.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { browserSuite, pageTest } from './lib/harness.js';
import { ID, metricsOf } from './lib/ui.js';
import * as stateSteps from '../../web/state.js';
import { controlsView, makeIds } from '../../web/views/controls.js';
import { findAll, textOf } from '../../web/dom.js';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

const plain = (x) => JSON.parse(JSON.stringify(x));
const { initialState, withFields, withInputs } = stateSteps;
const SCRIPTED = 'script'; // SPEC §2's scenario name
const scriptSummary = (script) => stateSteps.scriptSummary(script);

// A run of our own (not one of the seed's traces): a read that meets a 429 with Retry-After,
// a lost response, then 200 for good.
const SCRIPT = [{ status: 429, retryAfter: '1' }, { status: 200, lost: true }, { status: 200 }];
const SCRIPTED_RUN = { scenario: 'script', script: SCRIPT, operation: 'read', retryOn: ['timeout', '429', '5xx'], maxRetries: 4 };
const LABEL = 'Scripted answers: 429, 200 (response lost), then 200';

const env = browserSuite({ engine: true });
const compute = (inputs) => env.compute(inputs);

describe('the state steps (node)', () => {
  const opening = () => initialState(compute({}), env.engine.schema());

  test('a scripted load: the scenario is "script", and the script is both in the run and remembered', () => {
    const s = withInputs(opening(), SCRIPTED_RUN, compute, 'custom');
    assert.equal(s.fields.scenario, SCRIPTED);
    assert.deepEqual(s.loadedScript, SCRIPT);
    assert.deepEqual(s.extra.script, SCRIPT);
    assert.deepEqual(s.result.inputs.script, SCRIPT);
  });

  test('a named scenario sets the script aside; the scripted choice brings back exactly the loaded run', () => {
    const loaded = withInputs(opening(), SCRIPTED_RUN, compute, 'custom');
    const named = withFields(loaded, { scenario: 'outage-503-twice' }, compute);
    assert.deepEqual(named.errors, {});
    assert.equal(named.result.inputs.scenario, 'outage-503-twice');
    assert.equal('script' in named.result.inputs, false, 'the run carries no script');
    assert.equal('script' in named.extra, false);
    assert.equal(named.trace, null, 'a control changed the run');
    assert.deepEqual(named.loadedScript, SCRIPT, 'the script is still there to choose');
    assert.equal(named.extra.operation, 'read', 'the rest of the loaded inputs stay');

    const back = withFields(named, { scenario: SCRIPTED }, compute);
    assert.deepEqual(back.errors, {});
    assert.deepEqual(plain(back.result.inputs), plain(loaded.result.inputs), 'the very run that was loaded');
    assert.deepEqual(plain(back.result.metrics), plain(loaded.result.metrics));
    assert.equal(back.trace, null, 'coming back by a control does not claim the trace');
  });

  test('other controls keep the script while it is chosen, and a bad field in between loses nothing', () => {
    const loaded = withInputs(opening(), SCRIPTED_RUN, compute);
    const fewer = withFields(loaded, { maxRetries: '1' }, compute);
    assert.deepEqual(fewer.result.inputs.script, SCRIPT);
    assert.equal(fewer.result.inputs.maxRetries, 1);
    const bad = withFields(fewer, { scenario: 'request-lost', baseBackoffMs: 'x' }, compute);
    assert.ok(bad.errors.baseBackoffMs);
    assert.equal(bad.result, fewer.result, 'the last good run stays');
    const fixed = withFields(bad, { baseBackoffMs: '500' }, compute);
    assert.equal(fixed.result.inputs.scenario, 'request-lost');
    assert.equal('script' in fixed.result.inputs, false);
    const again = withFields(fixed, { scenario: SCRIPTED }, compute);
    assert.deepEqual(again.result.inputs.script, SCRIPT);
  });

  test('a load without a script clears it; the scripted choice cannot then be made', () => {
    const loaded = withInputs(opening(), SCRIPTED_RUN, compute);
    const plainRun = withInputs(loaded, { scenario: 'bad-request-400' }, compute);
    assert.equal(plainRun.loadedScript, null);
    assert.equal('script' in plainRun.extra, false);
    const asked = withFields(plainRun, { scenario: SCRIPTED }, compute);
    assert.equal(asked.result, plainRun.result, 'no run without a script');
    assert.equal(asked.fields.scenario, 'bad-request-400', 'the group keeps a checked choice');
    assert.match(asked.errors.general, /No scripted answers are loaded/);
    // From the opening run too (setFields from the console).
    const fromOpening = withFields(opening(), { scenario: SCRIPTED }, compute);
    assert.equal(fromOpening.fields.scenario, 'response-lost');
  });

  test('the label says what the server answers, as the named scenarios do', () => {
    assert.equal(scriptSummary([{ status: 503 }]), '503 on every attempt');
    assert.equal(scriptSummary([{ dropped: true }, { status: 200 }]), 'request lost, then 200');
    assert.equal(scriptSummary(SCRIPT), '429, 200 (response lost), then 200');
    const long = Array.from({ length: 12 }, (_, i) => ({ status: i === 11 ? 200 : 503 }));
    assert.equal(scriptSummary(long), '503, 503, 503, 503, … (12 answers in all), then 200');
  });

  test('the view: without a script the choice is hidden and disabled; with one it is there and checked', () => {
    const id = makeIds('rl-');
    const find = (tree, pred) => findAll(tree, pred)[0];
    const none = controlsView(id, opening().controls, { ...opening().fields });
    const input = find(none, (n) => n.attrs.id === 'rl-scenario-script');
    assert.equal(input.attrs.disabled, true);
    assert.equal(input.attrs.checked, false);
    assert.equal(find(none, (n) => n.attrs.id === 'rl-scenario-scripted').attrs.hidden, true);
    const loaded = withInputs(opening(), SCRIPTED_RUN, compute);
    const some = controlsView(id, loaded.controls, loaded.fields, loaded.loadedScript);
    const on = find(some, (n) => n.attrs.id === 'rl-scenario-script');
    assert.deepEqual([on.attrs.disabled, on.attrs.checked, on.attrs.name, on.attrs.value], [false, true, 'rl-scenario', SCRIPTED]);
    assert.equal(find(some, (n) => n.attrs.id === 'rl-scenario-scripted').attrs.hidden, false);
    assert.equal(textOf(find(some, (n) => n.tag === 'label' && n.attrs.for === 'rl-scenario-script')), LABEL);
  });
});

// --- In the page ---------------------------------------------------------------------------

const scenarioRadios = (page) => page.locator(`${ID('controls')} input[data-field="scenario"]`);
// The group as the reader meets it: the visible choices' names, and which are checked.
async function group(page) {
  return page.getByRole('group', { name: 'Server behaviour' }).getByRole('radio').evaluateAll((els) => els.map((el) => ({
    name: el.labels[0].textContent, checked: el.checked, disabled: el.disabled,
  })));
}
const checkedNames = async (page) => (await group(page)).filter((r) => r.checked).map((r) => r.name);
const pageInputs = (page) => page.evaluate(() => JSON.parse(JSON.stringify(window.retryLab.getState().result.inputs)));
const loadRun = (page, inputs, options) => page.evaluate(([i, o]) => window.retryLab.load(i, o), [inputs, options]);
const focusedId = (page) => page.evaluate(() => document.activeElement.id);
// The link in the address bar follows the run (written a moment after it changes).
const hashSettles = (page, pred) => page.waitForFunction(pred, null, { timeout: 5000 });

describe('the page', () => {
  // The page as a reader opens it: the sections below the article load when the reader nears them
  // (the policy trace test scrolls to them), not ahead of every test (issue 31: about 0.15 CPU·s
  // a page).
  test('the opening run: four choices, one checked; the scripted one is neither shown nor reachable', pageTest(env, { sections: false }, async ({ page }) => {
    const radios = await group(page);
    assert.equal(radios.length, 4);
    assert.deepEqual(await checkedNames(page), ['Charge commits, response lost']);
    const hidden = page.locator(ID('scenario-script'));
    assert.equal(await hidden.isVisible(), false);
    assert.equal(await hidden.isDisabled(), true);
    // Native arrows go round the four and never land on it.
    await page.locator(ID('scenario-response-lost')).focus();
    for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowUp');
    assert.equal(await focusedId(page), 'rl-scenario-response-lost', 'four presses go once round four choices');
    assert.equal((await pageInputs(page)).scenario, 'response-lost');
  }));

  test('a scripted load shows a fifth, checked choice naming the answers; named scenarios and back, by mouse', pageTest(env, { sections: false }, async ({ page }) => {
    await loadRun(page, SCRIPTED_RUN);
    const loadedInputs = await pageInputs(page);
    const loadedMetrics = await metricsOf(page);
    assert.deepEqual(await checkedNames(page), [LABEL], 'exactly one choice checked, the scripted one');
    assert.equal((await group(page)).length, 5);
    const scripted = page.getByRole('radio', { name: LABEL, exact: true });
    assert.equal(await scripted.isEnabled(), true);
    assert.match(await scripted.evaluate((el) => [...el.getAttribute('aria-describedby').split(' ')].map((d) => document.getElementById(d).textContent).join(' ')),
      /trace or link/, 'its note says where the answers came from');
    await hashSettles(page, () => /[#&]script=429/.test(location.hash));

    await page.getByRole('radio', { name: 'HTTP 503 twice, then succeeds', exact: true }).check();
    assert.deepEqual(await checkedNames(page), ['HTTP 503 twice, then succeeds']);
    let inputs = await pageInputs(page);
    assert.equal(inputs.scenario, 'outage-503-twice');
    assert.equal('script' in inputs, false, 'a named scenario drops the script from the run');
    assert.equal(inputs.operation, 'read', 'and keeps the rest of the loaded inputs');
    await hashSettles(page, () => /scenario=outage-503-twice/.test(location.hash) && !/script=/.test(location.hash));
    assert.equal(await scripted.isVisible(), true, 'the scripted answers are still there to come back to');

    await scripted.check();
    assert.deepEqual(await checkedNames(page), [LABEL]);
    inputs = await pageInputs(page);
    assert.deepEqual(inputs, loadedInputs, 'exactly the loaded run again');
    assert.deepEqual(await metricsOf(page), loadedMetrics);
    await hashSettles(page, () => /scenario=script/.test(location.hash) && /[#&]script=429/.test(location.hash));
  }));

  test('from the keyboard: Tab lands on the checked scripted choice, arrows go round all five natively', pageTest(env, { sections: false }, async ({ page }) => {
    await loadRun(page, SCRIPTED_RUN);
    // Into the group from the control after it: the checked radio is the group's one tab stop.
    await page.locator(ID('maxRetries-range')).focus();
    await page.keyboard.press('Shift+Tab');
    assert.equal(await focusedId(page), 'rl-scenario-script', 'Shift+Tab lands on the checked, scripted choice');
    await page.keyboard.press('Shift+Tab');
    assert.equal((await focusedId(page)).startsWith('rl-scenario-'), false, 'one tab stop in the group');
    await page.keyboard.press('Tab');
    assert.equal(await focusedId(page), 'rl-scenario-script', 'Tab lands on it too');

    await page.keyboard.press('ArrowDown'); // wraps to the first choice, and chooses it
    assert.equal(await focusedId(page), 'rl-scenario-response-lost');
    assert.deepEqual(await checkedNames(page), ['Charge commits, response lost']);
    assert.equal('script' in (await pageInputs(page)), false);
    await page.keyboard.press('ArrowUp'); // and back
    assert.equal(await focusedId(page), 'rl-scenario-script');
    assert.deepEqual(await checkedNames(page), [LABEL]);
    assert.deepEqual((await pageInputs(page)).script, SCRIPT);
    for (let i = 0; i < 5; i += 1) await page.keyboard.press('ArrowUp');
    assert.equal(await focusedId(page), 'rl-scenario-script', 'five presses go once round five choices');
  }));

  test('a load without a script takes the choice away, and the focus goes to the checked one', pageTest(env, { sections: false }, async ({ page }) => {
    await loadRun(page, SCRIPTED_RUN);
    await page.locator(ID('scenario-script')).focus();
    await loadRun(page, { scenario: 'bad-request-400' });
    assert.equal((await group(page)).length, 4);
    assert.deepEqual(await checkedNames(page), ['HTTP 400 on every attempt']);
    assert.equal(await page.locator(ID('scenario-script')).isDisabled(), true);
    assert.equal(await focusedId(page), 'rl-scenario-bad-request-400', 'not lost to the page');
    // Loading another script relabels the choice.
    await loadRun(page, { scenario: 'script', script: [{ status: 503 }] });
    assert.deepEqual(await checkedNames(page), ['Scripted answers: 503 on every attempt']);
    assert.equal(await scenarioRadios(page).count(), 5, 'one element, relabelled, not a new one');
  }));

  test('a shared link with scripted answers opens with the scripted choice checked', pageTest(env, { path: '/#v=1&scenario=script&script=200~lost,200&clientTimeoutMs=500', sections: false }, async ({ page }) => {
    assert.deepEqual(await checkedNames(page), ['Scripted answers: 200 (response lost), then 200']);
    const m = await metricsOf(page);
    assert.deepEqual([m.charges, m.elapsed], ['2', '1,200 ms'], 'the link\'s own run');
  }));

  test('a policy trace from the traces section checks the scripted choice', pageTest(env, { sections: false }, async ({ page }) => {
    // However the section loads (at once, or on demand as the reader nears it), it is there
    // once the reader has scrolled to it.
    await page.locator('#traces').scrollIntoViewIfNeeded();
    await page.evaluate(() => window.retryLabSections && window.retryLabSections.load && window.retryLabSections.load());
    await page.waitForFunction(() => window.retryLabTraces, null, { timeout: 10000 });
    await page.evaluate(() => window.retryLabTraces.selectTrace('A'));
    assert.equal(await page.evaluate(() => window.retryLab.getState().trace), 'A');
    assert.deepEqual(await checkedNames(page), ['Scripted answers: 429, 503, 503, then 200']);
  }));

  for (const colorScheme of ['light', 'dark']) {
    test(`axe-core: no violations with the scripted choice checked and set aside (${colorScheme})`, async () => {
      const context = await env.newContext({ colorScheme, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(`${env.server.origin}/`);
      await page.waitForFunction(() => document.documentElement.classList.contains('rl-ready'));
      await page.evaluate(() => window.retryLabEngine.load()); // loaded on first need (issue 18): loadRun computes
      const axe = async () => {
        if (!(await page.evaluate(() => Boolean(window.axe)))) await page.addScriptTag({ content: AXE });
        const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
        return result.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      };
      await loadRun(page, SCRIPTED_RUN);
      // axe does not ask a radio group to have a checked radio; the reader does.
      assert.deepEqual(await checkedNames(page), [LABEL]);
      assert.deepEqual(await axe(), []);
      await page.getByRole('radio', { name: 'Request lost before the server', exact: true }).check();
      assert.deepEqual(await axe(), []);
      await loadRun(page, {});
      assert.deepEqual(await axe(), []);
    });
  }
});
