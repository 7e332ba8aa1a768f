// axe-core finds no violations in light and dark, wide and narrow, before and after
// playback; screenshots of the opening run (light, dark, narrow) go to build/artifacts/;
// print keeps the run legible without the playback machinery.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AXE, artifactPath, assertClean, browserSuite, openPage, pageTest } from './lib/harness.js';
import { ID } from './lib/ui.js';

const env = browserSuite();

// One page for axe and for assertClean (issue 31: a second page, opened only to be found clean,
// cost a page and its sections each test): axe comes as a script of the page's own host, which
// the page's CSP (script-src 'self') lets in, so the page axe reads runs under its CSP and its
// console errors, CSP violations and requests are the ones assertClean judges.
async function openForAxe(options) {
  const opened = await openPage(env, options);
  return { opened, page: opened.page, context: opened.context };
}

// axe-core's script, answered at an address of the test server's host that the site lacks.
async function injectAxe(page) {
  const url = `${env.server.origin}/axe-core.min.js`;
  await page.route(url, (route) => route.fulfill({ body: AXE, contentType: 'text/javascript' }));
  await page.addScriptTag({ url });
}

async function axe(page) {
  // Injected once a document: a test's later runs on the same page reuse it.
  if (!(await page.evaluate(() => Boolean(window.axe)))) await injectAxe(page);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')}`);
}

describe('accessibility, screenshots and print', () => {
  for (const colorScheme of ['light', 'dark']) {
    test(`axe-core reports no violations in ${colorScheme} mode, rewound and played to the end`, async (t) => {
      const { opened, page, context } = await openForAxe({ colorScheme });
      assert.deepEqual(await axe(page), []);
      // Half played: some events revealed, some still dimmed.
      await page.locator(ID('seek')).focus();
      for (const key of ['End', 'PageDown']) await page.keyboard.press(key);
      assert.deepEqual(await axe(page), []);
      // A bad value on show.
      await page.locator(ID('maxRetries')).fill('-1');
      assert.deepEqual(await axe(page), []);
      await assertClean(t, assert, opened);
    });
  }

  test('axe-core reports no violations while the sections are loading, or once they could not', async () => {
    // Their "Loading…" is a stop in the tab order while it waits (load-sections.js).
    const { page, context } = await openPage(env, { sections: false });
    assert.equal(await page.locator('[data-retry-traces] .rl-loading').getAttribute('tabindex'), '0');
    assert.deepEqual(await axe(page), []);
    const failed = await openPage(env, { route: ['**/retrylab-sections.js', (r) => r.abort()] });
    assert.equal(await failed.page.locator('[data-client-lab] [role="alert"]').count(), 1);
    assert.deepEqual(await axe(failed.page), []);
  });

  test('axe-core reports no violations at phone width', async (t) => {
    const { opened, page, context } = await openForAxe({ viewport: { width: 375, height: 812 } });
    assert.deepEqual(await axe(page), []);
    await assertClean(t, assert, opened);
  });

  test('screenshots of the opening run: light, dark, narrow', async (t) => {
    const shots = [
      ['opening-light.png', { colorScheme: 'light' }],
      ['opening-dark.png', { colorScheme: 'dark' }],
      ['opening-narrow.png', { colorScheme: 'light', viewport: { width: 390, height: 844 } }],
    ];
    for (const [name, options] of shots) {
      const opened = await openPage(env, options);
      const { page } = opened;
      // The page fits its width: nothing scrolls sideways except the boxes meant to.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.equal(overflow, 0, `${name}: no horizontal scroll`);
      await page.screenshot({ path: await artifactPath(name), fullPage: true });
      // And the run played to its end, every event shown.
      await page.locator(ID('seek')).focus();
      await page.keyboard.press('End');
      await page.locator('#experiment').screenshot({ path: await artifactPath(name.replace('.png', '-played.png')) });
      await assertClean(t, assert, opened);
    }
  });

  test('print hides playback, undims every event and keeps the run', pageTest(env, {}, async ({ page }) => {
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.locator('.rl-playback').isVisible(), false);
    assert.equal(await page.locator('.try-button').first().isVisible(), false);
    assert.equal(await page.locator(`${ID('events')} li.future`).first().evaluate((el) => getComputedStyle(el).color),
      await page.locator('article').evaluate((el) => getComputedStyle(el).color), 'future events print in full colour');
    assert.ok(await page.locator(`${ID('table')} table`).isVisible());
    assert.ok(await page.locator(`${ID('metrics')}`).isVisible());
    await page.pdf({ path: await artifactPath('opening-print.pdf'), format: 'A4', printBackground: false });
  }));
});
