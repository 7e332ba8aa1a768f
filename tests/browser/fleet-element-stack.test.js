// <retry-lab view="fleet"> with a stack of retry layers (issue 33, docs/layers.md §9; web/fleet.js
// mounts web/fleet/stack.js's box in the element as the fleet section does): an element whose
// `policy.layers` attribute (or link) holds a stack draws the stack box above its controls, its
// layers in words and what each did across the fleet (the run's totals.layers), with words that
// say where the element's stack is set; "Run without the stack" runs one layer again. axe finds
// nothing in it, light and dark.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { axeViolations, browserSuite, elementHost, hostSite, pageFor } from './lib/harness.js';

const env = browserSuite();
const STACK = 'name:agent~maxRetries:2~baseBackoffMs:0,name:SDK~maxRetries:1';
const host = hostSite(env, {
  'stack.html': elementHost('A stacked fleet', `<h2>Many agents over one payment SDK</h2><retry-lab id="f" view="fleet" policy.layers="${STACK}"></retry-lab>`),
  'link.html': elementHost('A stacked fleet link', `<h2>The same, as a link</h2><retry-lab id="f" view="fleet" link="#v=1&amp;view=fleet&amp;policy.layers=${STACK}"></retry-lab>`),
  'plain.html': elementHost('A fleet', '<h2>No stack</h2><retry-lab id="f" view="fleet"></retry-lab>'),
});

async function opened(file, options = {}) {
  const { page, on } = await pageFor(env, options);
  const errors = [];
  on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${host.server.origin}/${file}`);
  await page.waitForFunction(() => document.getElementById('f').classList.contains('rl-ready'), null, { timeout: 120000 });
  await page.evaluate(() => document.getElementById('f').fleet.settled());
  return { page, errors };
}
// The element's stack box, as a reader sees it (null while hidden).
const box = (page) => page.evaluate(() => {
  const el = document.getElementById('f').shadowRoot.querySelector('#fl-stack');
  if (!el || el.hidden) return null;
  return {
    words: el.querySelector('#fl-stack-words').textContent,
    rows: [...el.querySelectorAll('tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent)),
    before: el.nextElementSibling && el.nextElementSibling.id,
  };
});
const totals = (page) => page.evaluate(() => document.getElementById('f').fleet.state().result.totals);

describe('<retry-lab view="fleet"> with a stack of layers', () => {
  test('its policy.layers attribute draws the stack box: the layers in words, what each did across the fleet, and where the stack is set', async () => {
    const { page, errors } = await opened('stack.html');
    const shown = await box(page);
    assert.ok(shown, 'the stack box is drawn');
    assert.match(shown.words, /^Every request goes through 2 retry layers, top first: agent \(maxRetries 2, key none.*\) over SDK \(maxRetries 1, key \w+.*\)\. /);
    const t = await totals(page);
    assert.match(shown.words, new RegExp(` ${t.attemptsPerRequest.toLocaleString('en-US', { maximumFractionDigits: 2 }).replace('.', '\\.')} attempts reached the server per request\\.`));
    assert.match(shown.words, /given by this element’s policy\.layers \(its attribute, or its link\): the retry controls below do not change it\.$/);
    assert.doesNotMatch(shown.words, /Retries across layers/, 'the element has no such section');
    assert.deepEqual(shown.rows.map((r) => r[0]), ['1. agent', '2. SDK']);
    assert.deepEqual(shown.rows.map((r) => r[2]), t.layers.map((l) => l.attempts.toLocaleString('en-US')));
    // The calls below are the attempts above (every agent attempt calls the SDK once).
    assert.equal(shown.rows[1][1], shown.rows[0][2]);
    assert.equal(shown.before, 'fl-controls', 'above the controls, as in the fleet section');
    assert.deepEqual(errors, []);
  });

  test('a fleet link as its link attribute draws the same box; without a stack there is none; "Run without the stack" runs one layer', async () => {
    const { page } = await opened('link.html');
    assert.match((await box(page)).words, /^Every request goes through 2 retry layers/);
    const clear = page.locator('#f').getByRole('button', { name: 'Run without the stack' });
    await clear.focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => !document.getElementById('f').fleet.state().result.request.policy.layers, null, { timeout: 120000 });
    assert.equal(await box(page), null, 'the box is hidden with the stack gone');
    assert.equal(await page.evaluate(() => document.getElementById('f').shadowRoot.activeElement?.closest('#fl-controls') !== null), true, 'focus on the first retry control');
    const plain = await opened('plain.html');
    assert.equal(await box(plain.page), null);
  });

  // The two modes on one page kept for them (issue 31: the host page, the element and its runs
  // once for both), in a context of its own that no test's end closes, closed after the file's
  // last test; the colour scheme switched between them (the element's colours are its
  // stylesheet's alone). It reads the page as opened and leaves it so.
  let keptStack = null;
  env.tearDown(async () => {
    if (keptStack) await keptStack.then((p) => p.context().close(), () => {});
  });
  const stackPage = () => {
    keptStack ||= env.browser.newContext({ bypassCSP: true }).then(async (context) => {
      const page = await context.newPage();
      await page.goto(`${host.server.origin}/stack.html`);
      await page.waitForFunction(() => document.getElementById('f').classList.contains('rl-ready'), null, { timeout: 120000 });
      await page.evaluate(() => document.getElementById('f').fleet.settled());
      return page;
    });
    return keptStack;
  };
  for (const colorScheme of ['light', 'dark']) {
    test(`axe finds nothing in the element's stack box (${colorScheme})`, async () => {
      const page = await stackPage();
      await page.emulateMedia({ colorScheme });
      assert.ok(await box(page));
      assert.deepEqual(await axeViolations(page), []);
    });
  }
});
