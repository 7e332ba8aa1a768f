// The explorable's defects found by a reader (issue 15), each held fixed: the run's end drawn
// as past, the inputs in force after a load, one number style in the event text, the stop in
// the page's words, the live region and the words for events still to come, and "This run"
// in view at the top of the sticky panel in a short window.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, pageTest } from './lib/harness.js';
import { serve, siteCopy, watchedPage } from './lib/sites.js';
import { ID, drawViews, futureCount, setInputs } from './lib/ui.js';

const env = browserSuite();

const veil = (page) => page.locator(`${ID('timeline')} [data-playhead="veil"]`);
const playhead = (page) => page.locator(`${ID('timeline')} [data-playhead="line"]`);
const toEnd = async (page) => {
  await page.locator(ID('seek')).focus();
  await page.keyboard.press('End');
};
const inForce = (page) => page.locator(`${ID('in-force')} .rl-in-force-row`).evaluateAll((rows) => rows.map((r) => [r.querySelector('dt').textContent, r.querySelector('dd').textContent]));

// The tests that read the explorable alone (its run, its controls, its table's width) open the
// page without the sections below the article (issue 31: a page open with them costs about
// 0.5 CPU·s, without them 0.35); none of them scrolls or measures a height the sections change.
describe('issue 15: the run on screen', () => {
  test('at the end of a run every event drawn is past: no veil, no playhead through the last marks', pageTest(env, { sections: false }, async ({ page }) => {
    for (const inputs of [{}, { scenario: 'HTTP 400 on every attempt', retryOn: 'Every failure, including 400' }, { scenario: 'HTTP 503 twice, then succeeds', idempotencyKey: true }]) {
      await setInputs(page, inputs);
      await toEnd(page);
      assert.equal(await futureCount(page), 0);
      assert.equal(Number(await veil(page).getAttribute('width')), 0, `no veil at the end (${JSON.stringify(inputs)})`);
      assert.equal(await playhead(page).getAttribute('visibility'), 'hidden');
    }
    // Before the end a mark the playhead has reached is drawn whole: the veil starts past it.
    await page.keyboard.press('Home');
    await page.locator(ID('next')).click();
    await page.locator(ID('next')).click(); // the commit at 200 ms
    const x = Number(await playhead(page).getAttribute('x1'));
    assert.ok(Number(await veil(page).getAttribute('x')) >= x + 7, 'the veil leaves the reached diamond whole');
  }));

  test('after a policy trace loads, every input in force is on screen', pageTest(env, {}, async ({ page }) => {
    assert.equal(await page.locator(ID('in-force')).isHidden(), true, 'the opening run has nothing beyond its controls');
    await page.evaluate(() => window.retryLabTraces.selectTrace('A'));
    const rows = Object.fromEntries(await inForce(page));
    // Trace A is the seed's policy: a cap of 8 s, full jitter, a 20 s wait budget, a read,
    // no overall deadline, and "Retry on" timeouts, 429 and 5xx, neither of the two choices.
    assert.equal(rows['Max backoff'], '8,000 ms');
    assert.equal(rows.Jitter, 'full');
    assert.equal(rows['Wait budget'], '20,000 ms');
    assert.equal(rows['Retry writes without key'], 'no');
    assert.equal(rows.Operation, 'read');
    assert.equal(rows['Overall deadline'], 'none');
    assert.equal(rows['Retry on'], 'timeout, 429, 5xx');
    assert.equal(await page.locator('input[name="rl-retryOn"]:checked').count(), 0);
    // The deadline's slider says "none" by standing at its far end, not at the last number.
    const range = page.locator(ID('deadlineMs-range'));
    assert.equal(await range.inputValue(), await range.getAttribute('max'));
    // Choosing a control's value puts it back under the controls: the list loses that row.
    await setInputs(page, { retryOn: 'Timeouts and 5xx only' });
    assert.equal(Object.fromEntries(await inForce(page))['Retry on'], undefined);
  }));

  test('the event list writes times as the rest of the page does, and the stop in the page’s words', pageTest(env, {}, async ({ page }) => {
    await page.evaluate(() => window.retryLabTraces.selectTrace('E'));
    await drawViews(page);
    const texts = await page.locator(`${ID('events')} .event-text`).allTextContents();
    const times = texts.join(' ').match(/[\d,.]+ ms/g);
    assert.ok(times.includes('3,000 ms'), texts.join('\n'));
    for (const t of times) assert.match(t, /^\d{1,3}(,\d{3})*(\.\d{1,3})? ms$/, `"${t}" in the page's style`);
    await page.evaluate(() => window.retryLabTraces.selectTrace('D'));
    await drawViews(page);
    const stop = (await page.locator(`${ID('events')} li.event-stop .event-text`).textContent()).replace('not yet shown: ', '');
    assert.equal(stop, 'the run stops after 1 attempt: that failure is not one the policy retries');
  }));

  test('Next event is said in a polite live region, and events still to come say so in words', pageTest(env, { sections: false }, async ({ page }) => {
    const status = page.locator(`${ID('announce')}[role="status"]`);
    const first = page.locator(`${ID('events')} li`).first();
    assert.match(await first.textContent(), /not yet shown/);
    await page.locator(ID('next')).click();
    assert.match(await status.textContent(), /^0 ms: attempt 1: the client sends charge/);
    assert.doesNotMatch(await first.textContent(), /not yet shown/);
    await page.locator(ID('next')).click();
    assert.match(await status.textContent(), /^200 ms: attempt 1: the server commits charge #1/);
    // Play says each event as it is revealed, and the verdict at the end.
    await page.locator(ID('speed')).selectOption('8');
    await page.locator(ID('play')).click();
    await page.waitForFunction(() => /Run over: Reports success, charged twice/.test(document.querySelector('#rl-announce').textContent), null, { timeout: 15000 });
  }));

  test('in a 1440×700 window "This run" is in view at the top of the sticky panel', pageTest(env, { viewport: { width: 1440, height: 700 } }, async ({ page }) => {
    await page.locator(ID('timeline')).scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, 300));
    const box = await page.locator(`${ID('now')} .rl-now`).boundingBox();
    assert.ok(box.y >= 0 && box.y + box.height <= 700, `"This run" at y=${box.y}`);
  }));

  test('the traces matrix at 1440 px shows its Result column beside the attempts that scroll', pageTest(env, { viewport: { width: 1440, height: 900 } }, async ({ page }) => {
    const box = await page.locator('#tr-matrix').boundingBox();
    const result = await page.locator('#tr-matrix .tm-result-col').boundingBox();
    assert.ok(result.x >= box.x && result.x + result.width <= box.x + box.width + 1, `Result at ${result.x}–${result.x + result.width}, the box ${box.x}–${box.x + box.width}`);
    assert.equal(await page.locator('#tr-matrix .tm-result-col').textContent(), 'Result');
  }));

  for (const width of [1024, 768]) {
    test(`the computed-data table fits its box at ${width} px`, pageTest(env, { viewport: { width, height: 900 } }, async ({ page }) => {
      await page.evaluate(() => window.retryLabTraces.selectTrace('C'));
      const { scroll, client } = await page.locator(ID('table')).evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      assert.ok(scroll <= client, `${scroll} px of table in ${client} px`);
    }));
  }

  test('on a phone the computed-data table’s caption is whole inside its box', pageTest(env, { viewport: { width: 390, height: 844 }, sections: false }, async ({ page }) => {
    const box = await page.locator(ID('table')).boundingBox();
    const caption = await page.locator(`${ID('table')} .answers-caption`).boundingBox();
    assert.ok(caption.x >= box.x - 1 && caption.x + caption.width <= box.x + box.width + 1, `caption ${caption.x}–${caption.x + caption.width} in ${box.x}–${box.x + box.width}`);
  }));

  test('trace C’s Date header is in the experiment’s table, and the order is named', pageTest(env, {}, async ({ page }) => {
    await page.evaluate(() => window.retryLabTraces.selectTrace('C'));
    await drawViews(page);
    const headers = await page.locator(`${ID('table')} tbody tr:first-child .answer-header`).allTextContents();
    assert.deepEqual(headers, ['Date: Sun, 29 Nov 2026 10:00:00 GMT', 'Retry-After: Sun, 29 Nov 2026 10:00:07 GMT']);
    assert.match(await page.locator('#experiment .prose').textContent(), /order o-17 for 49\.00/);
  }));

  test('reader text names no file of the repository and gives "seed" one meaning', pageTest(env, {}, async ({ page }) => {
    await page.getByLabel('Client', { exact: true }).selectOption({ index: 1 });
    // The page's own words (the presets' notes are generated from web/clients/sources.js).
    const text = `${await page.locator('#experiment, article').allInnerTexts()} ${await page.locator('.cl-docs').innerText()}`;
    assert.doesNotMatch(text, /docs\/[a-z]+\.md|shared\/seeds/);
    assert.doesNotMatch(text, /seed’s fixture|the seed supplies/);
  }));

  test('the run’s clock is the big number, and a compressed quiet stretch is marked as a gap', pageTest(env, { sections: false }, async ({ page }) => {
    assert.equal(await page.locator(ID('clock')).textContent(), '0 ms');
    await page.locator(ID('next')).click();
    await page.locator(ID('next')).click();
    assert.equal(await page.locator(ID('clock')).textContent(), '200 ms');
    // One second past the commit the playhead is in attempt 1's quiet wait for its timeout,
    // 200 → 3,000 ms, compressed: the gap is marked.
    await page.locator(ID('seek')).focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.locator(ID('gap')).textContent(), '⋯ 2.8 s later ⋯');
    await page.keyboard.press('End');
    assert.equal(await page.locator(ID('clock')).textContent(), '3,700 ms');
    assert.equal(await page.locator(ID('gap')).textContent(), '');
    assert.equal(await page.locator('.rl-motion-note').isVisible(), false, 'no reduced-motion note without reduced motion');
  }));

  test('with reduced motion the page says that Play steps without animation', pageTest(env, { reducedMotion: 'reduce', sections: false }, async ({ page }) => {
    assert.equal(await page.locator('.rl-motion-note').isVisible(), true);
  }));
});

describe('issue 15: a first screen that asks', () => {
  for (const viewport of [{ width: 1280, height: 720 }, { width: 390, height: 844 }]) {
    test(`at ${viewport.width}×${viewport.height} the figure, the question and Play are in the first screen, paused, the answer not yet printed`, pageTest(env, { viewport, inputs: false, sections: false }, async ({ page }) => {
      const inView = async (selector) => {
        const box = await page.locator(selector).boundingBox();
        return box && box.y >= 0 && box.y + box.height <= viewport.height;
      };
      assert.ok(await inView(`${ID('lanes')} svg`), 'the whole mechanism drawn (the lanes) in the first screen');
      assert.ok(await inView(ID('play')), 'Play in the first screen');
      assert.equal(await page.locator(ID('play')).textContent(), 'Play', 'paused');
      assert.equal((await page.locator(`${ID('verdict')} .verdict-line`).textContent()).trim(), 'How many times was the card charged?');
      const text = await page.locator('.retry-lab').innerText();
      assert.doesNotMatch(text, /charged twice/i, 'the answer is not printed before Play');
      // Only the key switch until the first interaction; then the full panel.
      assert.equal(await page.locator('#rl-controls').getByRole('checkbox', { name: 'Send an idempotency key the server honours' }).isVisible(), true);
      assert.equal(await page.getByRole('radio', { name: 'Charge commits, response lost' }).isVisible(), false);
      await page.locator(ID('next')).click();
      assert.equal(await page.getByRole('radio', { name: 'Charge commits, response lost' }).isVisible(), true, 'the first interaction opens every input');
      // Playing to the end answers the question.
      await page.locator(ID('seek')).focus();
      await page.keyboard.press('End');
      assert.equal((await page.locator(`${ID('verdict')} .verdict-line`).textContent()).trim(), 'Reports success, charged twice.');
    }));
  }

  test('a changed run shows its verdict at once; "All the inputs" opens the panel and focuses its first control', pageTest(env, { inputs: false }, async ({ page }) => {
    await page.locator(ID('open-inputs')).click();
    assert.equal(await page.evaluate(() => document.activeElement.id), 'rl-scenario-response-lost');
    assert.match(await page.locator(`${ID('verdict')} .verdict-line`).textContent(), /^How many/, 'opening the panel answers nothing');
    await setInputs(page, { idempotencyKey: true });
    assert.equal((await page.locator(`${ID('verdict')} .verdict-line`).textContent()).trim(), 'Reports success, charged once.');
  }));
});

describe('issue 15: a theme for the embeds', () => {
  let site;
  let server;
  env.setUp(async () => {
    site = siteCopy({ files: { 'host.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title><link rel="icon" href="favicon.svg"><script src="retry-lab-element.js" defer></script></head><body><main><retry-lab id="light" theme="light"></retry-lab><retry-lab id="auto"></retry-lab></main></body></html>` } });
    server = await serve(site.dir);
  });
  env.tearDown(async () => { await server.close(); site.remove(); });

  test('embed.html?theme=light stays light in a dark system; auto follows the system', async () => {
    const { page } = await watchedPage(env, { colorScheme: 'dark' });
    const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    await page.goto(`${server.origin}/embed.html?theme=light`);
    await page.waitForFunction(() => document.documentElement.classList.contains('rl-ready'));
    assert.equal(await background(), 'rgb(250, 248, 244)');
    await page.goto(`${server.origin}/embed.html?theme=auto`);
    await page.waitForFunction(() => document.documentElement.classList.contains('rl-ready'));
    assert.equal(await background(), 'rgb(20, 21, 24)');
    const light = await watchedPage(env, { colorScheme: 'light' });
    await light.page.goto(`${server.origin}/embed.html?theme=dark`);
    await light.page.waitForFunction(() => document.documentElement.classList.contains('rl-ready'));
    assert.equal(await light.page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), 'rgb(20, 21, 24)');
  });

  test('<retry-lab theme="light"> stays light in a dark system, and its theme is no input', async () => {
    const { page, problems } = await watchedPage(env, { colorScheme: 'dark' });
    await page.goto(`${server.origin}/host.html`);
    await page.waitForFunction(() => [...document.querySelectorAll('retry-lab')].every((e) => e.classList.contains('rl-ready')));
    // The panel colour as painted inside the element (the token is light-dark(), css/tokens.css).
    const panel = (id) => page.evaluate((which) => {
      const probe = document.createElement('span');
      probe.style.color = 'var(--panel)';
      document.getElementById(which).shadowRoot.querySelector('.rl-root').append(probe);
      const colour = getComputedStyle(probe).color;
      probe.remove();
      return colour;
    }, id);
    assert.equal(await panel('light'), 'rgb(255, 255, 255)');
    assert.equal(await panel('auto'), 'rgb(28, 30, 34)');
    assert.equal(await page.evaluate(() => document.getElementById('light').shadowRoot.querySelector('.rl-notice, [role="alert"]')?.textContent ?? ''), '', 'no notice about a "theme" input');
    await page.evaluate(() => document.getElementById('auto').setAttribute('theme', 'light'));
    assert.equal(await panel('auto'), 'rgb(255, 255, 255)');
    assert.deepEqual(problems, []);
  });
});
