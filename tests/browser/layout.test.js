// Issue 15's layout defects left, measured by bounding boxes: the figure a "Try it" changes is
// in view when it is pressed at 1,024, 768 and 390 px, its run and its Play (beside the
// article at 1,024, right after the button at 768 and 390); the first screen at 1280×720 and 390×844 shows the mechanism drawn (the
// lanes) with the question and Play; nothing in that first screen moves while the run plays
// (the card statement holds its lines' place); an error in the trace editor reads as a line
// across the table, not a word-wide column; the storm chart's labels at its right edge clear
// of each other; and axe-core finds nothing at the screenshots' widths, light and dark, while
// the run plays and at its end.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AXE, browserSuite, openPage, pageTest } from './lib/harness.js';
import { ID, frames, scrollSettled, setInputs } from './lib/ui.js';

const env = browserSuite();

// The viewport the page was given (innerWidth × innerHeight), known without asking the page.
const viewportOf = (page) => {
  const { width, height } = page.viewportSize();
  return { w: width, h: height };
};
async function inView(page, locator, what) {
  const box = await locator.boundingBox();
  const { w, h } = viewportOf(page);
  assert.ok(box, `${what} is drawn`);
  assert.ok(box.y >= 0 && box.y + box.height <= h && box.x >= 0 && box.x + box.width <= w,
    `${what} in the ${w}×${h} viewport (at y ${Math.round(box.y)}–${Math.round(box.y + box.height)})`);
  return box;
}
const intersect = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('issue 15 layout: the figure a "Try it" changes is in view when it is pressed', () => {
  for (const viewport of [{ width: 1024, height: 768 }, { width: 768, height: 1024 }, { width: 390, height: 844 }]) {
    test(`at ${viewport.width}×${viewport.height}, read to the middle of the screen and pressed, each step's figure is in view with its button`, pageTest(env, { viewport }, async ({ page }) => {
      const beside = viewport.width >= 960;
      const article = await page.locator('.story > article').boundingBox();
      const steps = await page.locator('button[data-try]').evaluateAll((els) => els.map((b) => b.dataset.try));
      assert.ok(steps.length >= 10, 'every "Try it" of the article');
      for (const step of steps) {
        const button = page.locator(`button[data-try="${step}"]`);
        await button.evaluate((el) => el.scrollIntoView({ block: 'center' }));
        await frames(page); // the reading band has seen where the reader is
        await button.click();
        const figure = beside
          ? page.locator('[data-story-figure]')
          : page.locator(`p.try:has(button[data-try="${step}"]) + .story-slot .story-figure`);
        await page.waitForFunction(([f, s]) => [...document.querySelectorAll(f)].some((b) => b.dataset.showing === s), [beside ? '[data-story-figure]' : '.story-slot .story-figure', step]);
        await scrollSettled(page); // a smooth scroll that brings an inline figure's Play into view
        const pressed = await inView(page, button, `${step}: its button`);
        await inView(page, figure.locator('.verdict'), `${step}: the figure's verdict`);
        await inView(page, figure.locator('.rl-lanes'), `${step}: the figure's lanes`);
        // The figure's Play too: beside the article, and inline at 768 and 390 px, where the
        // page scrolls as little as brings it into view with the button still in view.
        await inView(page, figure.getByRole('button', { name: 'Play' }), `${step}: the figure's Play`);
        const box = await figure.boundingBox();
        if (beside) {
          assert.ok(box.x >= article.x + article.width, `${step}: the figure stands beside the article (${box.x} ≥ ${article.x + article.width})`);
        } else {
          // Right after the button's line (a line of two buttons wraps on a phone).
          const line = await page.locator(`p.try:has(button[data-try="${step}"])`).boundingBox();
          const gap = box.y - (line.y + line.height);
          assert.ok(pressed.y + pressed.height <= line.y + line.height + 1 && gap >= 0 && gap <= 32, `${step}: the figure starts right after its button's line (${Math.round(gap)} px below it)`);
        }
      }
    }));
  }
});

describe('issue 15 layout: the first screen shows the mechanism', () => {
  for (const viewport of [{ width: 1280, height: 720 }, { width: 390, height: 844 }]) {
    test(`at ${viewport.width}×${viewport.height} the question, the lanes and Play are in the first screen, in that order`, pageTest(env, { viewport, inputs: false, sections: false }, async ({ page }) => {
      const question = await inView(page, page.locator(`${ID('verdict')} .verdict-line`), 'the question');
      assert.equal((await page.locator(`${ID('verdict')} .verdict-line`).textContent()).trim(), 'How many times was the card charged?');
      await inView(page, page.locator(ID('lanes-heading')), 'the mechanism’s heading');
      const lanes = await inView(page, page.locator(`${ID('lanes')} svg`), 'the lanes drawing');
      const play = await inView(page, page.locator(ID('play')), 'Play');
      assert.ok(question.y + question.height <= lanes.y && lanes.y + lanes.height <= play.y, 'the question, then the lanes, then Play');
      // The timeline stays on the page as the precise view, after the playback bar.
      const playback = await page.locator('.retry-lab .rl-playback').first().boundingBox();
      assert.ok((await page.locator(ID('timeline')).boundingBox()).y >= playback.y + playback.height, 'the timeline after the playback bar');
    }));
  }

  // Issue 35 item 9: the card statement beside the lanes on a phone too, as one line under them
  // (the statement itself follows the playback bar, so that Play stays in the first screen).
  test('at 390×844 the statement in one line stands between the lanes and Play, in the first screen, and counts the charges as they commit', pageTest(env, { viewport: { width: 390, height: 844 }, sections: false }, async ({ page }) => {
    const line = page.locator('.retry-lab .rl-mechanism .rl-statement-line').first();
    const box = await inView(page, line, 'the one-line statement');
    const lanes = await page.locator(`${ID('lanes')} svg`).boundingBox();
    const play = await inView(page, page.locator(ID('play')), 'Play');
    assert.ok(lanes.y + lanes.height <= box.y + 1 && box.y + box.height <= play.y, 'the lanes, the line, then Play');
    assert.equal(await line.textContent(), 'Card statement · no charges yet');
    await page.locator(ID('seek')).focus();
    await page.keyboard.press('End');
    assert.equal(await line.textContent(), 'Card statement · 2 × 49.00, order o-17');
    assert.equal((await line.boundingBox()).height, box.height, 'one line from start to end');
  }));
  test('at 1280×720 the statement stands beside the lanes itself, and the one-line statement is not shown', pageTest(env, { viewport: { width: 1280, height: 720 }, sections: false }, async ({ page }) => {
    assert.equal(await page.locator('.retry-lab .rl-mechanism .rl-statement-line').first().isVisible(), false);
    assert.ok(await page.locator('.retry-lab .rl-mechanism .rl-statement').first().isVisible());
  }));

  for (const viewport of [{ width: 1280, height: 720 }, { width: 390, height: 844 }]) {
    // The first screen's boxes, measured in the viewport near the top of a long article: the
    // sections below it change neither (issue 31: a page open without them costs 0.35 CPU·s, not 0.5).
    test(`at ${viewport.width}×${viewport.height} Play and the lanes do not move while a run of four charges plays`, pageTest(env, { viewport, sections: false }, async ({ page }) => {
      // A 150 ms timeout is shorter than the 200 ms the server takes to commit (SPEC §9's
      // opening run): every attempt times out after charging, four attempts, four charges.
      await setInputs(page, { clientTimeoutMs: 150 });
      await page.locator(ID('seek')).focus();
      await page.keyboard.press('Home');
      const at = async () => ({ play: (await page.locator(ID('play')).boundingBox()).y, lanes: (await page.locator(ID('lanes')).boundingBox()).height, timeline: (await page.locator(ID('timeline')).boundingBox()).y });
      const start = await at();
      assert.deepEqual(await page.locator(`${ID('lanes')} ~ * .st-line, .rl-statement-apart .st-line`).count(), 0, 'no charge yet');
      await page.keyboard.press('End');
      assert.equal(await page.locator('.retry-lab .rl-statement .st-line').count(), 4, 'four lines at the end');
      assert.deepEqual(await at(), start, 'nothing moved');
      // The lines still to come are read by no one.
      await page.keyboard.press('Home');
      const heard = await page.locator('.retry-lab .rl-statement').first().evaluate((box) => [...box.querySelectorAll('li')].filter((li) => getComputedStyle(li).visibility !== 'hidden').length);
      assert.equal(heard, 0, 'before the first commit no line is visible');
    }));
  }
});

describe('issue 15 layout: the trace editor’s errors', () => {
  for (const width of [1280, 390]) {
    test(`at ${width} px an answer's error reads as a line across the table, under its row`, pageTest(env, { viewport: { width, height: 900 } }, async ({ page }) => {
      const status = page.locator('#tr-ed-script-0-status');
      const rowOf = async () => (await page.locator('#tr-ed-script-0-status').locator('xpath=ancestor::tr[1]').boundingBox());
      const rowBefore = await rowOf();
      await status.fill('9999999');
      const error = page.locator('#tr-ed-script-0-status-error');
      assert.match(await error.textContent(), /Answer 1 status/);
      const box = await error.boundingBox();
      const lineHeight = await error.evaluate((p) => parseFloat(getComputedStyle(p).lineHeight) || parseFloat(getComputedStyle(p).fontSize) * 1.5);
      assert.ok(box.height <= lineHeight * 2.5, `at most two lines (${Math.round(box.height)} px, a line is ${Math.round(lineHeight)} px)`);
      assert.ok(box.width >= 240, `as wide as a sentence (${Math.round(box.width)} px)`);
      const row = await rowOf();
      assert.equal(Math.round(row.height), Math.round(rowBefore.height), 'the answer’s row keeps its height');
      assert.ok(box.y >= row.y + row.height - 1, 'under its row');
      // In view in the table's scroller: its left edge where the scroller's view begins.
      const scroller = await page.locator('.te-scroll').boundingBox();
      assert.ok(box.x >= scroller.x && box.x + box.width <= scroller.x + scroller.width + 1, 'inside the visible part of the table');
      assert.equal(await status.getAttribute('aria-describedby'), 'tr-ed-script-0-status-error', 'still the field’s description');
      // Fixed, the error row goes away.
      await status.fill('503');
      assert.equal(await page.locator('.te-row-errors').first().isVisible(), false);
    }));
  }
});

describe('issue 15 layout: the storm chart’s labels', () => {
  // The opening fleet run (its series end together at 0: three labels want one height), a
  // run that recovers (a third note at the top), no retries, and a LIFO queue.
  for (const link of ['', 'server.queueOrder=lifo', 'server.dropStale=unfinishable', 'policy.maxRetries=0']) {
    test(`no two of the chart's labels and notes overlap, and none leaves the chart (${link || 'the opening fleet run'})`, pageTest(env, { path: link ? `/#v=1&view=fleet&${link}` : '/', sections: false }, async ({ page }) => {
      await page.evaluate(() => window.retryLabFleetSection.load());
      await page.waitForFunction(() => window.retryLabFleet && window.retryLabFleet.state(), null, { timeout: 20000 });
      await page.evaluate(() => window.retryLabFleet.ready.then(() => window.retryLabFleet.settled()));
      const { boxes, width } = await page.locator('#fl-chart svg').evaluate((svg) => ({
        width: svg.viewBox.baseVal.width,
        boxes: [...svg.querySelectorAll('text.fl-label, text.fl-note')].map((t) => {
          const b = t.getBBox();
          return { text: t.textContent, x: b.x, y: b.y, width: b.width, height: b.height };
        }),
      }));
      assert.ok(boxes.filter((b) => /\/s$/.test(b.text)).length >= 3, `the series' labels are drawn: ${boxes.map((b) => b.text).join(', ')}`);
      for (const b of boxes) assert.ok(b.x >= 0 && b.x + b.width <= width, `"${b.text}" inside the chart's ${width} px (${Math.round(b.x)}–${Math.round(b.x + b.width)})`);
      for (let i = 0; i < boxes.length; i += 1) {
        for (let j = i + 1; j < boxes.length; j += 1) {
          assert.ok(!intersect(boxes[i], boxes[j]), `"${boxes[i].text}" (y ${Math.round(boxes[i].y)}+${Math.round(boxes[i].height)}) and "${boxes[j].text}" (y ${Math.round(boxes[j].y)}) overlap`);
        }
      }
    }));
  }
});

describe('issue 15 layout: axe-core at the screenshots’ widths', () => {
  // axe comes as a script of the page's own host (answered here), which the page's CSP
  // (script-src 'self') admits: the page keeps its CSP, and shares the file's one page kind
  // (issue 31: a bypassCSP page is a second context and renderer for the file).
  const axe = async (page) => {
    if (!(await page.evaluate(() => Boolean(window.axe)))) {
      const url = `${env.server.origin}/axe-core.min.js`; // an address the site lacks
      await page.route(url, (route) => route.fulfill({ body: AXE, contentType: 'text/javascript' }));
      await page.addScriptTag({ url });
    }
    const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
    return result.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')}`);
  };
  for (const width of [1440, 1024, 768, 390]) {
    for (const colorScheme of ['light', 'dark']) {
      test(`at ${width} px, ${colorScheme}: nothing while the run plays and at its end, with an article's figure shown`, async () => {
        const { page } = await openPage(env, { viewport: { width, height: 900 }, colorScheme });
        // An article's figure, beside the article or inline at this width.
        const tryKey = page.locator('button[data-try="key"]');
        await tryKey.evaluate((el) => el.scrollIntoView({ block: 'center' }));
        await tryKey.click();
        await page.waitForFunction(() => [...document.querySelectorAll('.story-figure')].some((f) => f.dataset.showing === 'key'));
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.locator(ID('play')).click();
        await page.waitForFunction(() => Number(document.querySelector('#rl-seek').getAttribute('aria-valuenow')) > 0);
        assert.equal(await page.locator(ID('play')).textContent(), 'Pause', 'playing');
        assert.deepEqual(await axe(page), [], 'while playing');
        await page.locator(ID('seek')).focus();
        await page.keyboard.press('End');
        assert.equal(await page.locator(ID('seek')).getAttribute('aria-valuenow'), '60');
        assert.deepEqual(await axe(page), [], 'at the end');
      });
    }
  }
});
