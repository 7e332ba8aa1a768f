// Issue 15's mechanism drawn and its small defects: the client and server lanes with the
// messages in flight up to the playhead, the card statement gaining a line per charge, the
// timeline's labels clear of each other and of the playhead in a 360 px element and at 1280,
// the trace editor's grid unmoved by an error, and reader text that names no repository file.
// Expected figures come from the spec: the opening run (SPEC §9) commits charge #1 at 200 ms
// with its answer lost, times out at 3,000 ms, waits 500 ms and commits charge #2 at 3,700 ms.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, pageTest, watchedPage } from './lib/harness.js';
import { serve, siteCopy } from './lib/sites.js';
import { ID, frames, setInputs } from './lib/ui.js';

const env = browserSuite();

const lines = (page) => page.locator(`${ID('lanes')} + div .st-line`).allTextContents();
const total = (page) => page.locator(`${ID('lanes')} + div .st-total`).textContent();
const attemptsDrawn = (page) => page.locator(`${ID('lanes')} .lanes-attempt`).evaluateAll((gs) => gs.map((g) => Number(g.dataset.attempt)));
const next = (page, n = 1) => page.evaluate((k) => { for (let i = 0; i < k; i += 1) document.querySelector('#rl-next').click(); }, n);
const toEnd = async (page) => {
  await page.locator(ID('seek')).focus();
  await page.keyboard.press('End');
};
// The request line of attempt n: its length as drawn, and the whole length to the server.
const request = (page, n) => page.locator(`${ID('lanes')} [data-attempt="${n}"] .lanes-request line`).evaluate((l) => {
  const num = (name) => Number(l.getAttribute(name));
  return { length: Math.hypot(num('x2') - num('x1'), num('y2') - num('y1')), flying: l.parentNode.classList.contains('lanes-flying') };
});

describe('issue 15: the mechanism drawn', () => {
  test('the lanes follow the playhead: nothing before Next event, attempt 1 then 2, the lost answer stopping halfway, the wait labelled', pageTest(env, {}, async ({ page }) => {
    const svg = page.locator(`${ID('lanes')} svg`);
    assert.equal(await svg.getAttribute('role'), 'img');
    assert.match(await svg.getAttribute('aria-label'), /attempt 1 sent at 0 ms: the answer is lost on its way back, and the client's clock runs out at 3,000 ms; wait 500 ms; attempt 2 sent at 3,500 ms: the answer 200 arrives/);
    assert.deepEqual(await attemptsDrawn(page), [], 'nothing sent before the playhead moves');
    await next(page); // 0 ms: attempt 1 is sent
    assert.deepEqual(await attemptsDrawn(page), [1]);
    assert.equal(await page.locator(`${ID('lanes')} .lanes-lost`).count(), 0, 'nothing lost yet');
    await next(page, 2); // 200 ms: charge #1 commits, its answer is lost
    assert.equal(await page.locator(`${ID('lanes')} .lanes-lost`).count(), 1);
    // The lost answer stops halfway between the lanes: its line ends at the middle height.
    const answer = await page.locator(`${ID('lanes')} [data-attempt="1"] .lanes-answer line`).evaluate((l) => [Number(l.getAttribute('y1')), Number(l.getAttribute('y2'))]);
    const request1 = await page.locator(`${ID('lanes')} [data-attempt="1"] .lanes-request line`).evaluate((l) => [Number(l.getAttribute('y1')), Number(l.getAttribute('y2'))]);
    assert.equal(answer[1], (request1[0] + request1[1]) / 2, 'the answer vanishes midway');
    assert.equal(await page.locator(`${ID('lanes')} .lanes-label-wait`).count(), 0, 'no wait before the timeout');
    await next(page, 2); // 3,000 ms: the timeout, then the wait
    assert.equal(await page.locator(`${ID('lanes')} .lanes-clock-out`).count(), 1, "attempt 1's clock has run out");
    assert.equal(await page.locator(`${ID('lanes')} .lanes-label-wait`).textContent(), 'wait 500 ms');
    assert.deepEqual(await attemptsDrawn(page), [1], 'attempt 2 not yet sent');
    await toEnd(page);
    assert.deepEqual(await attemptsDrawn(page), [1, 2]);
    assert.equal(await page.locator(`${ID('lanes')} .lanes-commit`).count(), 2);
    assert.equal(await page.locator(`${ID('lanes')} .lanes-now`).count(), 0, 'no playhead at the end');
  }));

  test('the card statement gains a second 49.00 line for order o-17 when the duplicate charge commits', pageTest(env, {}, async ({ page }) => {
    assert.equal(await page.locator('.rl-statement h4').textContent(), 'Card statement');
    assert.deepEqual(await lines(page), []);
    assert.equal(await total(page), 'No charges yet.');
    await next(page, 2); // the commit at 200 ms
    assert.deepEqual(await lines(page), ['49.00 · order o-17']);
    await next(page, 4); // the timeout, the wait, attempt 2 sent: still one charge
    assert.deepEqual(await lines(page), ['49.00 · order o-17']);
    await next(page); // charge #2 at 3,700 ms
    assert.deepEqual(await lines(page), ['49.00 · order o-17', '49.00 · order o-17']);
    assert.equal(await total(page), '2 charges · total 98.00');
    // The article names the same order and amount as the statement.
    assert.match(await page.locator('#experiment .prose').textContent(), /order o-17 for 49\.00/);
    // With the key the second attempt is a replay: one line at the end. A read charges nothing.
    await setInputs(page, { idempotencyKey: true });
    await toEnd(page);
    assert.deepEqual(await lines(page), ['49.00 · order o-17']);
    await page.evaluate(() => window.retryLab.load({ operation: 'read' }));
    await toEnd(page);
    assert.deepEqual(await lines(page), []);
    assert.equal(await total(page), 'No charge: this run\'s operation is a read.');
  }));

  test('a lost request stops before the server, and a 503 comes back to the client', pageTest(env, {}, async ({ page }) => {
    await setInputs(page, { scenario: 'Request lost before the server' });
    await toEnd(page);
    const cross = await page.locator(`${ID('lanes')} [data-attempt="1"] .lanes-lost`).boundingBox();
    const server = await page.locator(`${ID('lanes')} .lanes-track`).nth(1).boundingBox();
    assert.ok(cross.y + cross.height < server.y, 'the cross is above the server lane');
    assert.equal(await page.locator(`${ID('lanes')} [data-attempt="1"] .lanes-answer`).count(), 0, 'no answer to a lost request');
    assert.deepEqual(await lines(page), ['49.00 · order o-17'], 'only attempt 2 charges');
    await setInputs(page, { scenario: 'HTTP 503 twice, then succeeds' });
    await toEnd(page);
    assert.deepEqual(await attemptsDrawn(page), [1, 2, 3]);
    assert.deepEqual(await page.locator(`${ID('lanes')} .lanes-label-wait`).allTextContents(), ['wait 500 ms', 'wait 1,000 ms']);
  }));

  for (const reducedMotion of ['no-preference', 'reduce']) {
    test(`while playing, a request in flight ${reducedMotion === 'reduce' ? 'is drawn whole at once (reduced motion: positions step)' : 'grows toward the server'}`, pageTest(env, { reducedMotion }, async ({ page }) => {
      // At 1×: Play's rhythm (issue 35) gives attempt 1's 200 ms flight 0.6 s (MIN_MOVE).
      await page.locator(ID('play')).click();
      await page.waitForFunction(() => document.querySelector('#rl-lanes [data-attempt="1"] .lanes-request line'));
      const seen = [];
      for (let i = 0; i < 30 && !seen.some((s) => s.whole && !s.flying); i += 1) {
        const r = await request(page, 1);
        const whole = await page.locator(`${ID('lanes')} [data-attempt="1"] .lanes-request line`).evaluate((l) => {
          const svg = l.ownerSVGElement;
          return Math.abs(Number(l.getAttribute('y2')) - Number(svg.querySelectorAll('.lanes-track')[1].getAttribute('y1'))) < 0.01;
        });
        seen.push({ ...r, whole });
        await frames(page, 3); // the next sample a few of the clock's frames on
      }
      const partial = seen.filter((s) => !s.whole);
      if (reducedMotion === 'reduce') {
        assert.deepEqual(partial, [], 'never a part-drawn request');
        assert.ok(seen.some((s) => s.flying), 'in flight, it is drawn whole and dashed');
      } else {
        assert.ok(partial.some((s) => s.length > 0), `a request part of the way: ${JSON.stringify(seen.slice(0, 5))}`);
      }
    }));
  }

  test('dark mode draws the lanes and the statement in the dark tokens', pageTest(env, { colorScheme: 'dark' }, async ({ page }) => {
    await next(page, 2);
    const colours = await page.evaluate(() => {
      const line = document.querySelector('#rl-lanes .lanes-request line');
      const statement = document.querySelector('.rl-statement');
      return { stroke: getComputedStyle(line).stroke, background: getComputedStyle(statement).backgroundColor };
    });
    assert.equal(colours.stroke, 'rgb(126, 170, 240)', '--client, dark');
    assert.equal(colours.background, 'rgb(35, 38, 43)', '--panel-2, dark');
  }));
});

// Every pair of the timeline's labels, and each label against the playhead line: their boxes
// on screen do not overlap, and every label is inside the timeline's box.
function collisions(root) {
  const svg = root.querySelector('[id$="timeline"] svg');
  const texts = [...svg.querySelectorAll('text')].map((t) => ({ text: t.textContent, box: t.getBoundingClientRect() }));
  const hit = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const found = [];
  texts.forEach((a, i) => texts.slice(i + 1).forEach((b) => { if (hit(a.box, b.box)) found.push(`${a.text} × ${b.text}`); }));
  const line = svg.querySelector('[data-playhead="line"]');
  if (line.getAttribute('visibility') !== 'hidden') {
    const b = line.getBoundingClientRect();
    const box = { left: b.left - 1, right: b.right + 1, top: b.top, bottom: b.bottom };
    for (const t of texts) if (hit(box, t.box)) found.push(`the playhead × ${t.text}`);
  }
  const frame = svg.parentNode.getBoundingClientRect();
  for (const t of texts) if (t.box.left < frame.left - 0.5 || t.box.right > frame.right + 0.5) found.push(`${t.text} outside the box`);
  // The lanes' words inside their drawing too (issue 35 item 10: a narrow element cut the hint).
  const lanes = root.querySelector('[id$="lanes"] svg');
  const edge = lanes.getBoundingClientRect();
  for (const t of lanes.querySelectorAll('text')) {
    const b = t.getBoundingClientRect();
    if (b.width && (b.left < edge.left - 0.5 || b.right > edge.right + 0.5)) found.push(`lanes: ${t.textContent} outside the drawing`);
  }
  return found;
}

const RUNS = [
  {}, { scenario: 'request-lost' }, { scenario: 'outage-503-twice' }, { idempotencyKey: true }, { clientTimeoutMs: 100 },
  { maxRetries: 6, baseBackoffMs: 50, scenario: 'outage-503-twice' }, { deadlineMs: 3300 },
  { operation: 'read', scenario: 'outage-503-twice', maxRetries: 5, jitter: 'full' },
  { clientTimeoutMs: 100, maxRetries: 8, baseBackoffMs: 10, backoffMultiplier: 1 },
];

// Each run at its start, after three events (the playhead inside attempt 1's bar) and at its end.
async function checkLabels(page, rootHandle, load, where) {
  for (const inputs of RUNS) {
    await load(inputs);
    for (const at of ['start', 'inside', 'end']) {
      await rootHandle.evaluate((root) => root.querySelector('[id$="seek"]').focus());
      await page.keyboard.press(at === 'end' ? 'End' : 'Home');
      if (at === 'inside') await rootHandle.evaluate((root) => { for (let i = 0; i < 3; i += 1) root.querySelector('[id$="next"]').click(); });
      assert.deepEqual(await rootHandle.evaluate(collisions), [], `${where}, ${JSON.stringify(inputs)}, ${at}`);
    }
  }
}

describe('issue 15: timeline labels clear of each other and of the playhead', () => {
  for (const width of [360, 1280]) {
    test(`the page at ${width} px`, pageTest(env, { viewport: { width, height: 900 }, sections: false }, async ({ page }) => {
      const root = await page.evaluateHandle(() => document);
      await checkLabels(page, root, (inputs) => page.evaluate((i) => window.retryLab.load(i), inputs), `page ${width}`);
    }));
  }

  let site;
  let server;
  env.setUp(async () => {
    const host = (w) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title><link rel="icon" href="favicon.svg"><link rel="stylesheet" href="host-${w}.css"><script src="retry-lab-element.js" defer></script></head><body><main><retry-lab id="el"></retry-lab></main></body></html>`;
    const css = (w) => `retry-lab { display: block; width: ${w}px; }`;
    site = siteCopy({ files: { 'host-360.html': host(360), 'host-1280.html': host(1280), 'host-360.css': css(360), 'host-1280.css': css(1280) } });
    server = await serve(site.dir);
  });
  env.tearDown(async () => { await server?.close(); site?.remove(); });

  for (const width of [360, 1280]) {
    test(`a <retry-lab> ${width} px wide`, async () => {
      const { page, problems } = await watchedPage(env, { viewport: { width: Math.max(width + 40, 400), height: 900 } });
      await page.goto(`${server.origin}/host-${width}.html`);
      await page.waitForFunction(() => document.getElementById('el').classList.contains('rl-ready'));
      assert.equal(Math.round(await page.evaluate(() => document.getElementById('el').getBoundingClientRect().width)), width);
      const root = await page.evaluateHandle(() => document.getElementById('el').shadowRoot);
      await checkLabels(page, root, (inputs) => page.evaluate((i) => document.getElementById('el').app.load(i), inputs), `element ${width}`);
      assert.deepEqual(problems, []);
    });
  }
});

describe('issue 15: the trace editor and the presets’ words', () => {
  for (const width of [1280, 390]) {
    test(`at ${width} px an error in the trace editor leaves its grid’s columns as they were`, pageTest(env, { viewport: { width, height: 900 } }, async ({ page }) => {
      const columns = () => page.evaluate(() => [...document.querySelectorAll('.te-script thead th, .te-policy > .te-field, .te-draws')].map((e) => Math.round(e.getBoundingClientRect().width)));
      const before = await columns();
      for (const [key, bad] of [['script-0-status', '9999999'], ['draws', '0.5, 7, abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz'], ['maxRetries', '99999999999999999999']]) {
        await page.locator(`#tr-ed-${key}`).fill(bad);
        assert.notEqual((await page.locator(`#tr-ed-${key}-error`).textContent()).trim(), '', `${key}: an error shows`);
        assert.deepEqual(await columns(), before, `${key}: the columns keep their widths`);
        await page.getByRole('button', { name: 'Copy into the editor' }).click();
      }
    }));
  }

  test('no reader text names a repository file, with any client preset chosen', pageTest(env, {}, async ({ page }) => {
    const select = page.getByLabel('Client', { exact: true });
    const count = await select.locator('option').count();
    assert.ok(count > 20, 'the presets are there');
    for (let i = 1; i < count; i += 1) {
      await select.selectOption({ index: i });
      const text = await page.locator('body').innerText();
      assert.doesNotMatch(text, /docs\/|\.md §/, `preset ${i}: ${(text.match(/.{0,60}(docs\/|\.md §).{0,20}/) || [''])[0]}`);
    }
  }));
});
