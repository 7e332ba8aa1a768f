// Issue 18: the opening page carries no engine. Its first screen, the article's numbers and
// playback come from what the build computed with the same engine (web/prerender.mjs); the
// engine file loads the first time something needs a computation (web/main.js), a change that
// waits for it says so, a failure to load is said where the explorable would be, and once it
// is there the page shows exactly what the build wrote. The timeline is drawn once, at its
// real width, and a hidden explorable draws it when it is shown. Since issue 15/18's session 4
// the build draws the explorable itself into the HTML (web/prerender.mjs), and the page's script
// draws none of it again where the layout gives the widths it was drawn at.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertClean, browserSuite, openPage } from './lib/harness.js';
import { ID, metricsOf } from './lib/ui.js';
import { STORY, factsOf, formatFact } from '../../web/story.js';

const env = browserSuite({ engine: true });

const asReaderOpens = { engine: false, sections: false, inputs: false };
const engineFetched = (page) => page.evaluate(() => performance.getEntriesByType('resource').some((e) => /\/retrylab-engine\.js$/.test(e.name)));
const engineState = (page) => page.evaluate(() => ({
  ready: window.retryLabEngine.ready(),
  flag: document.documentElement.classList.contains('rl-engine'),
  global: typeof window.RetryLabEngine,
}));
const OPENING = { attempts: '2', charges: '2', replays: '0', elapsed: '3,700 ms', outcome: 'success', lookup: 'no' };
const slotTexts = (page) => page.locator('[data-story][data-fact]').evaluateAll((els) => els.map((e) => ({ step: e.dataset.story, fact: e.dataset.fact, format: e.dataset.format, text: e.textContent })));

describe('the engine, on first need', () => {
  test('the page opens without it: the first screen, the numbers and playback to the end need no engine', async (t) => {
    const opened = await openPage(env, asReaderOpens);
    const { page } = opened;
    assert.deepEqual(await metricsOf(page), OPENING, 'the opening run, from the build');
    const slots = await slotTexts(page);
    assert.ok(slots.length > 10 && slots.every((s) => s.text !== ''), 'every number of the article is in the page');
    assert.ok(await page.locator('button[data-try="key"]').isVisible(), 'the "Try it" buttons are there');
    assert.match(await page.locator('[data-engine-version]').textContent(), /\S/, 'the engine version');
    // Playback is the opening run's: Next event to the end, then the answer.
    await page.locator(ID('next')).click();
    await page.locator(ID('seek')).focus();
    await page.keyboard.press('End');
    assert.match(await page.locator(ID('seek')).getAttribute('aria-valuetext'), /3\.7 s/, 'played to its end');
    await page.locator(ID('verdict')).getByText(/charged twice/i).first().waitFor();
    assert.equal(await engineFetched(page), false, 'no engine file was fetched');
    assert.deepEqual(await engineState(page), { ready: false, flag: false, global: 'undefined' });
    await assertClean(t, assert, opened);
  });

  test('a change loads it, says "Loading the engine…" while it waits, and is made when it arrives', async (t) => {
    let release;
    const gate = new Promise((resolve) => { release = resolve; });
    const opened = await openPage(env, { ...asReaderOpens, inputs: true, route: ['**/retrylab-engine.js', async (route) => { await gate; await route.continue(); }] });
    const { page } = opened;
    await page.locator(ID('maxRetries')).fill('0');
    const note = page.locator(ID('engine-loading'));
    await note.waitFor({ state: 'visible' });
    assert.equal(await note.textContent(), 'Loading the engine…');
    assert.equal(await page.locator('[data-retry-lab]').getAttribute('aria-busy'), 'true');
    assert.deepEqual(await metricsOf(page), OPENING, 'the opening run stays until the engine answers');
    release();
    await page.waitForFunction(() => document.documentElement.classList.contains('rl-engine'));
    await note.waitFor({ state: 'hidden' });
    assert.equal((await metricsOf(page)).outcome, 'unknown', 'maxRetries 0 computed (SPEC §9: unknown)');
    assert.equal(await page.locator('[data-retry-lab]').getAttribute('aria-busy'), null);
    await assertClean(t, assert, opened);
  });

  test('a "Try it" loads it and then its step; pointing at the button already fetches it', async (t) => {
    const opened = await openPage(env, asReaderOpens);
    const { page } = opened;
    const button = page.locator('button[data-try="key"]');
    await button.scrollIntoViewIfNeeded();
    await button.hover();
    await page.waitForFunction(() => window.retryLabEngine.ready());
    assert.equal(await engineFetched(page), true, 'the pointer on the button loaded the engine');
    await button.click();
    // The step is shown in the article's figure (explorable/steps.js); the reader's own
    // experiment keeps the opening run.
    await page.waitForFunction(() => (window.retryLabStory?.figures() || []).some((f) => f.step === 'key'));
    const shown = await page.evaluate(() => window.retryLabStory.figures().find((f) => f.step === 'key').state.result.metrics);
    assert.equal(shown.charges, 1, 'the key step: one charge (SPEC §9, with an idempotency key)');
    assert.equal(shown.replays, 1, 'the key step: the retry is a replay');
    assert.deepEqual(await metricsOf(page), OPENING, 'the experiment still shows the opening run');
    await assertClean(t, assert, opened);
  });

  test('with the engine there, the page shows exactly what the build wrote', async (t) => {
    const opened = await openPage(env, { ...asReaderOpens, engine: true });
    const { page } = opened;
    assert.deepEqual(await engineState(page), { ready: true, flag: true, global: 'function' });
    const slots = await slotTexts(page);
    // The page's own engine computes each story step; the article's words for it are the build's.
    const results = await page.evaluate((story) => Object.fromEntries(Object.entries(story).map(([name, inputs]) => [name, window.retryLab.compute(inputs)])), STORY);
    for (const slot of slots) {
      assert.equal(slot.text, formatFact(factsOf(results[slot.step]), slot.fact, slot.format), `${slot.step} ${slot.fact}`);
    }
    const data = await page.evaluate(() => JSON.parse(document.getElementById('rl-prerendered').textContent));
    assert.deepEqual(await page.evaluate(() => window.retryLab.compute({})), data.opening, 'the opening run');
    assert.deepEqual(data.opening, env.compute({}), 'and the engine file in node agrees');
    // And a change now is made at once.
    await page.evaluate(() => window.retryLab.openInputs());
    await page.locator(ID('maxRetries')).fill('0');
    assert.equal((await metricsOf(page)).outcome, 'unknown');
    await assertClean(t, assert, opened);
  });

  test('an engine that cannot load: the page opens, and the first change says so where the explorable would be', async () => {
    const opened = await openPage(env, { ...asReaderOpens, inputs: true, route: ['**/retrylab-engine.js', (route) => route.abort()] });
    const { page } = opened;
    assert.deepEqual(await metricsOf(page), OPENING, 'the first screen is there');
    assert.equal(await page.evaluate(() => document.documentElement.classList.contains('rl-engine-failed')), false);
    await page.locator(ID('maxRetries')).fill('0');
    await page.waitForFunction(() => document.documentElement.classList.contains('rl-engine-failed'));
    assert.match(await page.locator('[data-retry-lab] [role="alert"]').textContent(), /retry engine \(retrylab-engine\.js\) did not load/);
    assert.deepEqual(opened.problems.filter((p) => !/Failed to load resource/.test(p)), [], 'handled, not thrown');
  });

  test('a link in the address loads the engine as the page opens, and its run is the first screen', async (t) => {
    const opened = await openPage(env, { ...asReaderOpens, path: '/#v=1&maxRetries=0' });
    const { page } = opened;
    assert.equal(await page.evaluate(() => window.retryLabEngine.ready()), true, 'ready by rl-ready');
    assert.equal((await metricsOf(page)).outcome, 'unknown');
    assert.equal(await page.locator(ID('maxRetries')).inputValue(), '0');
    await assertClean(t, assert, opened);
  });

  test('a link followed later, before the engine is there, is read when it arrives', async (t) => {
    const opened = await openPage(env, asReaderOpens);
    const { page } = opened;
    await page.evaluate(() => { location.hash = '#v=1&maxRetries=0'; });
    await page.waitForFunction(() => document.documentElement.classList.contains('rl-engine'));
    await page.waitForFunction(() => document.querySelector('#rl-metrics [data-metric="outcome"] dd').textContent.trim() === 'unknown');
    assert.equal(await page.locator(ID('maxRetries')).inputValue(), '0');
    assert.equal(await page.locator('.rl-notice').count(), 0, 'no notice: the link is good');
    await assertClean(t, assert, opened);
  });
});

// Each width the page's script draws the timeline's <svg> at, as it happens (a MutationObserver
// from the end of parsing, before the page's deferred script runs: what the HTML itself holds,
// the build's drawing, is `__timelineInHtml`). `hide`: the explorable hidden (display: none)
// then, before the page's script runs.
function recordTimelineWidths(hide = false) {
  window.__timelineWidths = [];
  document.addEventListener('readystatechange', () => {
    if (document.readyState !== 'interactive') return;
    if (hide) document.querySelector('[data-retry-lab]').style.display = 'none';
    window.__timelineInHtml = [...document.querySelectorAll('#rl-timeline svg.timeline')].map((svg) => Number(svg.getAttribute('width')));
    new MutationObserver((records) => {
      for (const r of records) {
        const svgs = r.type === 'attributes' ? [r.target] : [...r.addedNodes].filter((n) => n.nodeType === 1).flatMap((n) => (n.matches('svg.timeline') ? [n] : [...n.querySelectorAll('svg.timeline')]));
        for (const svg of svgs) if (svg.matches('#rl-timeline svg.timeline')) window.__timelineWidths.push(Number(svg.getAttribute('width')));
      }
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['width'] });
  });
}

const afterFrames = (page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

// The widths web/prerender.mjs draws the timeline and the lanes at (the page's layout from about
// 1,200 px wide); a narrower window's layout gives its own.
const WIDE = { timeline: 810, lanes: 602 };

describe('the timeline, drawn once', () => {
  test('at 1280 px the HTML holds it drawn at its box\'s width, and the script draws it no more', async (t) => {
    const opened = await openPage(env, { ...asReaderOpens, viewport: { width: 1280, height: 720 }, init: [recordTimelineWidths] });
    const { page } = opened;
    await afterFrames(page);
    const box = await page.locator(ID('timeline')).evaluate((el) => el.clientWidth);
    assert.equal(box, WIDE.timeline, 'the box the build drew for');
    assert.deepEqual(await page.evaluate(() => window.__timelineInHtml), [box], 'drawn in the HTML');
    assert.deepEqual(await page.evaluate(() => window.__timelineWidths), [], 'not drawn again');
    await assertClean(t, assert, opened);
  });

  test('at 390 px the script draws it once, at its box\'s width', async (t) => {
    const opened = await openPage(env, { ...asReaderOpens, viewport: { width: 390, height: 844 }, init: [recordTimelineWidths] });
    const { page } = opened;
    await afterFrames(page);
    const box = await page.locator(ID('timeline')).evaluate((el) => el.clientWidth);
    assert.ok(box < WIDE.timeline - 100, `a narrow box (${box} px)`);
    assert.deepEqual(await page.evaluate(() => window.__timelineWidths), [box]);
    await assertClean(t, assert, opened);
  });

  test('a hidden explorable draws its timeline when it is shown', async (t) => {
    const opened = await openPage(env, { ...asReaderOpens, viewport: { width: 390, height: 844 }, init: [recordTimelineWidths, true] });
    const { page } = opened;
    await afterFrames(page);
    assert.deepEqual(await page.evaluate(() => window.__timelineWidths), [], 'nothing drawn while hidden');
    await page.evaluate(() => { document.querySelector('[data-retry-lab]').style.display = ''; });
    await page.waitForFunction(() => window.__timelineWidths.length > 0);
    const [width, box] = await page.locator(ID('timeline')).evaluate((el) => [Number(el.querySelector('svg').getAttribute('width')), el.clientWidth]);
    assert.ok(box > 300 && width === box, `drawn at its width (${width} in a ${box} px box)`);
    await assertClean(t, assert, opened);
  });
});

// Issue 15/18 (session 4): the page's first frame is its HTML. The build draws the explorable
// for the opening run with the page's own code (web/prerender.mjs); the script takes it as
// drawn (app.js `hydrate`): from the end of parsing to the first painted frame after rl-ready
// it writes nothing into the explorable where the layout gives the widths it was drawn at, and
// what it leaves is what it would have drawn itself on a page without the drawing.
function recordExplorableWrites() {
  window.__explorableWrites = [];
  document.addEventListener('readystatechange', () => {
    if (document.readyState !== 'interactive') return;
    const rl = document.querySelector('[data-retry-lab] > .rl');
    window.__drawnInHtml = Boolean(rl);
    if (!rl) return;
    const where = (n) => (n.nodeType === 1 ? `${n.localName}${n.id ? `#${n.id}` : ''}.${n.getAttribute('class') || ''}` : `text in ${where(n.parentNode)}`);
    // The whole box (a script that mounted the explorable afresh would replace `.rl` in it), less
    // the share bar, which the script appends after the explorable (share/bar.js).
    const root = rl.parentNode;
    const shareBar = (r) => (r.target === root && r.type === 'childList' && !r.removedNodes.length && [...r.addedNodes].every((n) => n.nodeType === 1 && n.matches('.rl-share'))) ||
      Boolean((r.target.nodeType === 1 ? r.target : r.target.parentNode).closest('.rl-share')); // and its compare button (compare/hook.js)
    const note = (records) => {
      for (const r of records) if (!shareBar(r)) window.__explorableWrites.push(`${r.type} ${r.attributeName || ''} ${where(r.target)}`);
    };
    const observer = new MutationObserver(note);
    observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
    const stop = () => requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { note(observer.takeRecords()); observer.disconnect(); window.__firstFrameDone = true; };
      channel.port2.postMessage(0);
    });
    new MutationObserver((_, o) => {
      if (document.documentElement.classList.contains('rl-ready')) { o.disconnect(); stop(); }
    }).observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
  });
}

// The page's HTML without the build's drawing: the "Loading…" line the site's source has there.
const withoutDrawing = async (route) => {
  const response = await route.fetch();
  const html = await response.text();
  const start = html.indexOf('<div class="rl rl-asking">');
  const end = html.indexOf('<noscript>', start);
  if (start === -1 || end === -1) throw new Error('no drawn explorable in the page');
  await route.fulfill({ response, body: `${html.slice(0, start)}<p class="rl-loading">Loading the retry engine…</p>\n    ${html.slice(end)}` });
};

describe('the first frame is the HTML the build drew', () => {
  for (const viewport of [{ width: 1280, height: 720 }, { width: 1440, height: 900 }]) {
    test(`at ${viewport.width}×${viewport.height} the script writes nothing into the explorable before its first frame`, async (t) => {
      const opened = await openPage(env, { ...asReaderOpens, viewport, init: [recordExplorableWrites] });
      const { page } = opened;
      await page.waitForFunction(() => window.__firstFrameDone === true);
      assert.equal(await page.evaluate(() => window.__drawnInHtml), true, 'the HTML holds the explorable drawn');
      // The seek bar's fill and thumb are placed through the CSSOM (a strict style-src), which the
      // HTML cannot carry; the playhead at 0 leaves them where css/explorable.css has them.
      assert.deepEqual(await page.evaluate(() => window.__explorableWrites), []);
      await assertClean(t, assert, opened);
    });
  }

  test('what the page shows once drawn is what its script draws on a page without the drawing', async (t) => {
    const read = (page) => page.evaluate(() => {
      const rl = document.querySelector('[data-retry-lab] > .rl');
      for (const el of rl.querySelectorAll('[style]')) el.removeAttribute('style');
      return rl.outerHTML;
    });
    const drawn = await openPage(env, { ...asReaderOpens, viewport: { width: 1280, height: 720 } });
    await afterFrames(drawn.page);
    const fresh = await openPage(env, { ...asReaderOpens, viewport: { width: 1280, height: 720 }, init: [recordExplorableWrites], route: ['**/', withoutDrawing] });
    await afterFrames(fresh.page);
    assert.equal(await fresh.page.evaluate(() => window.__drawnInHtml), false, 'the second page had no drawing');
    const [a, b] = [await read(drawn.page), await read(fresh.page)];
    assert.ok(a.length > 10000, `a whole explorable (${a.length} characters)`);
    assert.equal(a, b);
    // And both play the same run: Next event reveals the first event in each.
    for (const { page } of [drawn, fresh]) await page.locator(ID('next')).click();
    assert.equal(await read(drawn.page), await read(fresh.page), 'after Next event');
    await assertClean(t, assert, drawn);
    await assertClean(t, assert, fresh);
  });
});

// Issue 18, input change → painted frame: a redraw writes only what changed. The event list is
// drawn for the playhead it is shown at (views/events.js), so an input change, which rewinds
// the run, does not first clear each event's "not yet shown" marks and then set them again.
describe('a redraw writes only what changed', () => {
  test('an input change leaves the event list\'s playback marks alone when they stay the same', async (t) => {
    const opened = await openPage(env, { sections: false });
    const { page } = opened;
    const writes = await page.evaluate(async () => {
      const list = document.querySelector('#rl-events');
      const field = document.querySelector('[data-retry-lab] input[data-field="baseBackoffMs"][data-role="number"]');
      const marks = [];
      const observer = new MutationObserver((records) => {
        for (const r of records) {
          const li = (r.target.nodeType === 1 ? r.target : r.target.parentElement).closest('li');
          if (r.type === 'attributes' && ['class', 'aria-current'].includes(r.attributeName)) marks.push(`${r.attributeName} of event ${li.dataset.index}`);
          else if (r.target.nodeType === 1 ? r.target.matches('.event-state') : r.target.parentElement.matches('.event-state')) marks.push(`words of event ${li.dataset.index}`);
        }
      });
      observer.observe(list, { subtree: true, attributes: true, childList: true, characterData: true });
      field.value = '450';
      field.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((resolve) => requestAnimationFrame(resolve));
      marks.push(...observer.takeRecords().map(() => 'late record'));
      observer.disconnect();
      return marks;
    });
    assert.deepEqual(writes, [], 'no event\'s class, aria-current or "not yet shown" words rewritten');
    // The marks are still right: the rewound run shows no event yet.
    const marks = await page.locator('#rl-events li').evaluateAll((items) => items.map((li) => [li.classList.contains('future'), li.querySelector('.event-state').textContent, li.getAttribute('aria-current')]));
    assert.ok(marks.length > 3 && marks.every(([future, words, current]) => future && words === 'not yet shown: ' && current === null), JSON.stringify(marks));
    // And Next event moves them as before.
    await page.locator(ID('next')).click();
    const first = await page.locator('#rl-events li').first().evaluate((li) => [li.classList.contains('future'), li.querySelector('.event-state').textContent, li.getAttribute('aria-current')]);
    assert.deepEqual(first, [false, '', 'step']);
    await assertClean(t, assert, opened);
  });
});

// Issue 18, first render: the first frame lays out the first screen; the precise views below it
// and the share bar are in the page (their text by DOMContentLoaded) but laid out from the
// frame after (css/contain.css, web/main.js), and nothing in the first screen moves then.
function recordFirstFrames() {
  const boxes = () => Object.fromEntries(['.rl-verdict', '.rl-figure', '.rl-playback', '.rl-mechanism', '.rl-inputs'].map((s) => {
    const r = document.querySelector(`[data-retry-lab] ${s}`)?.getBoundingClientRect();
    return [s, r ? [r.x, r.y, r.width, r.height] : null];
  }));
  const precise = () => [...document.querySelectorAll('[data-retry-lab] .rl-precise, [data-retry-lab] .rl-share')].map((el) => getComputedStyle(el).contentVisibility);
  // The first frame as it is painted: a resize observer made after the page's own is told last,
  // after the page's observers have drawn the timeline and the lanes in that frame.
  new MutationObserver((_, observer) => {
    if (!document.documentElement.classList.contains('rl-ready')) return;
    observer.disconnect();
    const seen = new ResizeObserver(() => {
      seen.disconnect();
      window.__firstFrame = { deferring: document.documentElement.classList.contains('rl-first-frame'), precise: precise(), metrics: document.querySelector('#rl-metrics')?.textContent.includes('3,700 ms'), boxes: boxes() };
      requestAnimationFrame(() => requestAnimationFrame(() => {
        window.__laterFrame = { deferring: document.documentElement.classList.contains('rl-first-frame'), precise: precise(), boxes: boxes() };
      }));
    });
    seen.observe(document.querySelector('[data-retry-lab] .rl-playback'));
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['class'] });
}

describe('the first frame, the first screen', () => {
  for (const viewport of [{ width: 1280, height: 720 }, { width: 390, height: 844 }]) {
    test(`at ${viewport.width} px the views below the first screen wait a frame, and nothing above them moves`, async (t) => {
      const opened = await openPage(env, { ...asReaderOpens, viewport, init: [recordFirstFrames] });
      const { page } = opened;
      await page.waitForFunction(() => window.__laterFrame !== undefined);
      const { first, later } = await page.evaluate(() => ({ first: window.__firstFrame, later: window.__laterFrame }));
      assert.equal(first.deferring, true, 'the first frame after rl-ready is the first screen only');
      assert.deepEqual(first.precise, ['hidden', 'hidden', 'hidden', 'hidden'], 'the event trace, the data, the metrics and the share bar not laid out yet');
      assert.equal(first.metrics, true, 'their text is there already');
      assert.equal(later.deferring, false);
      assert.deepEqual(later.precise, ['visible', 'visible', 'visible', 'visible'], 'laid out from the next frame');
      // What the first screen shows (a box whose top is in it) did not move.
      const inView = (boxes) => Object.fromEntries(Object.entries(boxes).filter(([, r]) => r && r[1] < viewport.height));
      assert.ok(Object.keys(inView(later.boxes)).length >= 3, JSON.stringify(later.boxes));
      assert.deepEqual(inView(later.boxes), inView(first.boxes), 'the first screen did not move');
      const below = await page.locator('#rl-metrics').evaluate((el) => el.getBoundingClientRect().height);
      assert.ok(below > 50, `the metrics have their own height once laid out (${below})`);
      await assertClean(t, assert, opened);
    });
  }

  test('the article\'s sections are drawn once after the first frame, so they keep their real height before the reader gets there', async (t) => {
    const opened = await openPage(env, { ...asReaderOpens, viewport: { width: 1280, height: 720 } });
    const { page } = opened;
    await afterFrames(page);
    await afterFrames(page);
    // The heights the page lays the sections out at while they are off screen (what
    // content-visibility: auto keeps), against their heights drawn in the same layout (no
    // scrolling, so the story's figure stays as it is): a section never drawn would have its
    // 36rem estimate (css/page.css).
    const heights = await page.evaluate(() => {
      const sections = [...document.querySelectorAll('article.prose > section')];
      const kept = sections.map((s) => [s.getBoundingClientRect().height, s.firstElementChild.checkVisibility({ contentVisibilityAuto: true })]);
      // Drawn as content-visibility: auto draws a section on screen: with its containment.
      for (const s of sections) Object.assign(s.style, { contentVisibility: 'visible', contain: 'layout style paint' }); // CSSOM: the strict CSP allows it
      const drawn = sections.map((s) => s.getBoundingClientRect().height);
      for (const s of sections) Object.assign(s.style, { contentVisibility: '', contain: '' });
      return { kept, drawn };
    });
    assert.ok(heights.kept.length >= 4 && heights.kept.some(([, drawnNow]) => !drawnNow), `some sections are off screen, skipped: ${JSON.stringify(heights)}`);
    assert.deepEqual(heights.kept.map(([h]) => h), heights.drawn, 'each section off screen keeps its drawn height, not the estimate');
    await assertClean(t, assert, opened);
  });

  test('embed.html lays its views out in its first frame (its frame is sized by its height)', async (t) => {
    const opened = await openPage(env, { ...asReaderOpens, path: '/embed.html', engine: true, init: [recordFirstFrames] });
    const { page } = opened;
    await page.waitForFunction(() => window.__laterFrame !== undefined);
    const first = await page.evaluate(() => window.__firstFrame);
    assert.equal(first.deferring, false);
    assert.ok(first.precise.every((v) => v === 'visible'), JSON.stringify(first.precise));
    await assertClean(t, assert, opened);
  });
});

describe('without JavaScript', () => {
  test('the experiment says first what it needs, then shows the run the build computed, and no control that would do nothing', async () => {
    const context = await env.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`${env.server.origin}/`);
      const box = page.locator('[data-retry-lab]');
      const note = box.locator('.rl-failure');
      assert.equal(await note.isVisible(), true, 'the note is shown');
      assert.match(await note.textContent(), /needs JavaScript to play and to change/);
      // The opening run (SPEC: the lost response is retried and the server commits twice).
      assert.deepEqual(await metricsOf(page), OPENING, 'the opening run, as the build computed it');
      for (const id of ['timeline', 'events', 'table', 'metrics']) assert.equal(await page.locator(ID(id)).isVisible(), true, `${id} is shown`);
      const noteBottom = (await note.boundingBox()).y + (await note.boundingBox()).height;
      assert.ok(noteBottom <= (await page.locator(ID('timeline')).boundingBox()).y, 'the note comes before the run');
      // Inputs, Play, the lanes it plays and the question it answers need the script.
      const controls = await box.locator('button, input, select, textarea').evaluateAll((els) => els.filter((e) => e.getClientRects().length > 0).map((e) => e.id || e.textContent.trim()));
      assert.deepEqual(controls, [], 'no control is drawn');
      for (const id of ['lanes', 'verdict']) assert.equal(await page.locator(ID(id)).isVisible(), false, `${id} is not drawn`);
      // The run as a whole, not a playback paused at its start: nothing shaded as still to come.
      const shaded = await page.evaluate(() => ({
        events: [...document.querySelectorAll('#rl-events li')].filter((li) => getComputedStyle(li).borderLeftStyle !== 'solid').length,
        // One rule down each entry's side, its kind's colour: none beside its time.
        times: [...document.querySelectorAll('#rl-events .event-time')].filter((e) => getComputedStyle(e).borderLeftStyle !== 'none').length,
        labels: [...document.querySelectorAll('#rl-timeline text')].filter((t) => getComputedStyle(t).fillOpacity !== '1').length,
        veil: getComputedStyle(document.documentElement).getPropertyValue('--veil').trim(),
      }));
      assert.deepEqual(shaded, { events: 0, times: 0, labels: 0, veil: 'transparent' }, 'nothing is shaded as future');
      assert.doesNotMatch(await page.locator(ID('events')).innerText(), /not yet shown/, 'nor said to be');
      // The run's views take the whole width once the inputs are gone.
      const wide = await page.evaluate(() => document.querySelector('[data-retry-lab] .rl-results').getBoundingClientRect().width / document.querySelector('[data-retry-lab]').getBoundingClientRect().width);
      assert.ok(wide > 0.99, `the results span the explorable (${wide.toFixed(2)})`);
    } finally {
      await context.close();
    }
  });
});
