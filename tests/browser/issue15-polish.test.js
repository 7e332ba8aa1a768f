// Issue 15's defects left after the fourth session's merge, held by the page as a reader meets
// it: the fleet's storm chart legible on a phone (its words at 10 px or more, none over
// another, in a labelled box at the screen's width with its key above, issue 35 item 9); the timeline's labels each
// shaded whole with the event they belong to, never split where the playhead's veil begins;
// the inline figure's run and its Play in view after a "Try it" pressed mid-screen at 768 and
// 390 px, the reader left where they were; and the opening run, paused before Play, drawn at
// t = 0 (both lanes, attempt 1 about to be sent, its clock at 0, the statement empty) without
// its verdict; and, found on a new reader's tour, trace F's "at most 25" clear of the bars and
// the trace editor's checkboxes whole beside a label of two lines on a phone.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, pageTest } from './lib/harness.js';
import { ID } from './lib/ui.js';
import { TR, herdSettled } from './lib/traces-ui.js';

const env = browserSuite();

const PHONE = { width: 390, height: 844 };
const intersect = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function openFleet(page) {
  await page.evaluate(() => window.retryLabFleetSection.load());
  await page.waitForFunction(() => window.retryLabFleet && window.retryLabFleet.state(), null, { timeout: 20000 });
  await page.evaluate(() => window.retryLabFleet.ready.then(() => window.retryLabFleet.settled()));
}

describe('issue 15 polish: the storm chart on a phone', () => {
  test('at 390×844 the chart’s words are drawn at 10 px or more, none over another, at the screen’s width in a labelled box, its key above it', pageTest(env, { viewport: PHONE, sections: false }, async ({ page }) => {
    await openFleet(page);
    const box = page.locator('#fl-chart');
    await box.scrollIntoViewIfNeeded();
    const texts = await box.locator('svg').evaluate((svg) => {
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      return [...svg.querySelectorAll('text')].map((t) => {
        const r = t.getBoundingClientRect();
        return { text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * scale, x: r.x, y: r.y, width: r.width, height: r.height, cls: t.getAttribute('class') || '' };
      });
    });
    assert.ok(texts.length >= 10, 'the chart has its words');
    for (const t of texts) assert.ok(t.px >= 10, `"${t.text}" drawn at ${t.px.toFixed(1)} px (at least 10)`);
    // The words that name things (the series' labels, the notes) overlap neither each other
    // nor the axis words, in CSS pixels as drawn.
    const named = texts.filter((t) => /fl-label|fl-note/.test(t.cls));
    for (const a of named) {
      for (const b of texts) {
        if (a !== b) assert.ok(!intersect(a, b), `"${a.text}" and "${b.text}" overlap`);
      }
    }
    // The box: a stop for the keyboard, with a name, the chart at its width (issue 35 item 9:
    // no sideways scroll), the chart's key shown above it.
    assert.equal(await box.getAttribute('tabindex'), '0');
    assert.match(await box.getAttribute('aria-label'), /storm over time/);
    const { scrollWidth, clientWidth } = await box.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
    assert.ok(scrollWidth <= clientWidth, `the chart fits its box (${scrollWidth} in ${clientWidth})`);
    const key = page.locator('#fl-legend');
    assert.ok(await key.isVisible(), 'the key is shown');
    assert.ok((await key.boundingBox()).y + (await key.boundingBox()).height <= (await box.boundingBox()).y + 1, 'the key is above the chart');
    // The keys step the seconds to the last, drawn inside the box with no scroll.
    await box.focus();
    await page.keyboard.press('End');
    const cursor = await box.evaluate((el) => {
      const r = el.querySelector('.fl-cursor').getBoundingClientRect();
      const b = el.getBoundingClientRect();
      return { inside: r.x >= b.x - 1 && r.x + r.width <= b.x + b.width + 1, scrolled: el.scrollLeft };
    });
    assert.ok(cursor.scrolled === 0 && cursor.inside, `the last second is in the box's view (${JSON.stringify(cursor)})`);
  }));

  test('at 390×844 a comparison of two fleet runs draws both storm charts at 10 px or more, each in a labelled box that scrolls', pageTest(env, { viewport: PHONE, sections: false, path: '/#v=1&view=compare&of=fleet&after.policy.maxRetries=0' }, async ({ page }) => {
    await page.waitForFunction(() => document.querySelectorAll('.rl-compare [data-chart] svg.fl-chart').length === 2, null, { timeout: 30000 });
    const boxes = await page.locator('.rl-compare [data-chart]').evaluateAll((els) => els.map((el) => {
      const svg = el.querySelector('svg');
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      return {
        px: Math.min(...[...svg.querySelectorAll('text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale)),
        tab: el.getAttribute('tabindex'), name: el.getAttribute('aria-label'), scrolls: el.scrollWidth > el.clientWidth + 100,
        cue: el.previousElementSibling && el.previousElementSibling.checkVisibility() ? el.previousElementSibling.textContent : null,
      };
    }));
    for (const [i, b] of boxes.entries()) {
      assert.ok(b.px >= 10, `chart ${i + 1}: its words at ${b.px.toFixed(1)} px`);
      assert.equal(b.tab, '0');
      assert.match(b.name, /^(Before|After): the storm over time$/);
      assert.ok(b.scrolls, `chart ${i + 1} scrolls sideways`);
      assert.match(b.cue || '', /scroll it sideways/);
    }
  }));

  for (const colorScheme of ['light', 'dark']) {
    test(`the fleet section's buttons wear the page's button colours, ${colorScheme}`, pageTest(env, { colorScheme, sections: false }, async ({ page }) => {
      await openFleet(page);
      const looks = (selector) => page.locator(selector).evaluateAll((els) => els.map((el) => {
        const c = getComputedStyle(el);
        return { text: el.textContent, look: { background: c.backgroundColor, color: c.color, border: c.borderTopColor, font: c.fontFamily } };
      }));
      const [copy] = await looks(ID('copy')); // the page's own: "Copy link", an rl-button
      const fleet = await looks('.fl button');
      assert.ok(fleet.length >= 5, 'the section’s buttons');
      for (const b of fleet) assert.deepEqual(b.look, copy.look, `"${b.text}" looks as the page's buttons`);
    }));
  }

  for (const viewport of [{ width: 1280, height: 900 }, PHONE]) {
    test(`at ${viewport.width} px the pointer over a second of the chart reads that second`, pageTest(env, { viewport, sections: false }, async ({ page }) => {
      await openFleet(page);
      const box = page.locator('#fl-chart');
      await box.scrollIntoViewIfNeeded();
      // The run's number of bins, as the keys read it: End rests on the last.
      await box.focus();
      await page.keyboard.press('End');
      const n = Number((await page.locator('#fl-readout').textContent()).match(/^(\d+)–/)[1]) + 1;
      await page.keyboard.press('Escape');
      assert.ok(n > 100, `${n} bins`);
      for (const bin of [5, 40, 100]) {
        // The middle of the bin's column, from the chart's own drawing: its time axis's words
        // ("0 s" … "120 s", each centred on its time) give where a second is drawn.
        const at = await box.evaluate((el, k) => {
          const ticks = [...el.querySelectorAll('svg text.fl-tick')].filter((t) => /^\d+ s$/.test(t.textContent))
            .map((t) => { const r = t.getBoundingClientRect(); return { s: parseFloat(t.textContent), x: r.left + r.width / 2 }; });
          const [first, last] = [ticks[0], ticks[ticks.length - 1]];
          const perSecond = (last.x - first.x) / (last.s - first.s);
          const r = el.querySelector('svg').getBoundingClientRect();
          return { x: first.x + (k + 0.5 - first.s) * perSecond, y: r.top + r.height / 3 };
        }, bin);
        await page.mouse.move(at.x, at.y);
        assert.match(await page.locator('#fl-readout').textContent(), new RegExp(`^${bin}–${bin + 1} s:`), `the pointer over second ${bin}`);
      }
    }));
  }

  test('at 1280 px the chart fits its box: no sideways scroll, its series named at their peaks and no key', pageTest(env, { viewport: { width: 1280, height: 900 }, sections: false }, async ({ page }) => {
    await openFleet(page);
    const box = page.locator('#fl-chart');
    const { scrollWidth, clientWidth } = await box.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
    assert.ok(scrollWidth <= clientWidth, `no scroll (${scrollWidth} in ${clientWidth})`);
    assert.equal(await page.locator('#fl-legend').isVisible(), false);
    assert.ok(await box.locator('svg text.fl-label').count() >= 4, 'the series’ labels at their peaks');
  }));
});

// Each timeline label as drawn: its text, whether it is shaded as future, its box, whether
// the playhead's veil is painted over it, and the event it belongs to.
const timelineLabels = (page) => page.locator(`${ID('timeline')} svg`).evaluate((svg) => {
  const veil = svg.querySelector('.tl-veil');
  const v = veil.getBBox();
  const veilBox = { x: v.x, y: v.y, width: Number(veil.getAttribute('width')), height: v.height };
  return [...svg.querySelectorAll('text.tl-label')].map((t) => {
    const b = t.getBBox();
    const box = { x: b.x, y: b.y, width: b.width, height: b.height };
    const overlaps = veilBox.width > 0 && box.x < veilBox.x + veilBox.width && veilBox.x < box.x + box.width;
    // Painted under the veil: the veil comes after it in the document.
    const under = Boolean(t.compareDocumentPosition(veil) & Node.DOCUMENT_POSITION_FOLLOWING);
    return {
      text: t.textContent, future: t.classList.contains('tl-future'), opacity: getComputedStyle(t).fillOpacity,
      split: overlaps && under && box.x < veilBox.x, event: t.hasAttribute('data-event') ? Number(t.dataset.event) : null,
    };
  });
});
const futureEvents = (page) => page.locator(`${ID('events')} li`).evaluateAll((lis) => lis.map((li) => li.classList.contains('future')));

describe('issue 15 polish: a timeline label is shaded with its event, whole', () => {
  test('stepping through the opening run, no label is split by the veil and each is future exactly while its event is', pageTest(env, { sections: false }, async ({ page }) => {
    const next = () => page.locator(ID('next')).click();
    await page.locator(ID('seek')).focus();
    await page.keyboard.press('Home');
    const total = await page.locator(`${ID('events')} li`).count();
    for (let step = 0; step <= total; step += 1) {
      const labels = await timelineLabels(page);
      const future = await futureEvents(page);
      assert.ok(labels.length >= 4, 'the labels are drawn');
      for (const l of labels) {
        assert.equal(l.split, false, `step ${step}: "${l.text}" is split by the veil's edge`);
        if (l.event !== null) assert.equal(l.future, future[l.event], `step ${step}: "${l.text}" is shaded with its event (${l.event})`);
        assert.equal(l.opacity, l.future ? '0.45' : '1', `step ${step}: "${l.text}" shaded as ${l.future ? 'future' : 'past'}`);
      }
      if (step === 1) {
        // Attempt 1 is sent at 0 ms, the playhead is at its label's start: the label names
        // its timeout, still to come, and is future as a whole.
        const a1 = labels.find((l) => l.text.startsWith('attempt 1'));
        assert.equal(a1.text, 'attempt 1 · timeout');
        assert.equal(a1.future, true, 'attempt 1’s label waits for its timeout');
      }
      if (step < total) await next();
    }
    await page.keyboard.press('End');
    assert.deepEqual((await timelineLabels(page)).filter((l) => l.future).map((l) => l.text), [], 'at the end no label is future');
  }));
});

describe('issue 15 polish: the first screen draws the run paused at t = 0', () => {
  for (const viewport of [{ width: 1280, height: 720 }, PHONE]) {
    test(`at ${viewport.width}×${viewport.height}, before Play: both lanes, attempt 1 at the client with its clock at 0, the run's clock at 0 ms, the statement empty, no verdict`, pageTest(env, { viewport, inputs: false, sections: false }, async ({ page }) => {
      const lanes = page.locator(`${ID('lanes')} svg`);
      const inView = async (locator, what) => {
        const box = await locator.boundingBox();
        assert.ok(box && box.y >= 0 && box.y + box.height <= viewport.height && box.x >= 0 && box.x + box.width <= viewport.width, `${what} is in the first screen`);
      };
      // The lanes, named.
      assert.deepEqual(await lanes.locator('.lanes-lane').allTextContents(), ['Client', 'Server']);
      assert.equal(await lanes.locator('.lanes-track').count(), 2);
      // Attempt 1 about to leave: its clock face with none of its time gone (no swept path),
      // and the time it will wait: the opening run's client timeout, 3,000 ms (SPEC §9).
      const ready = lanes.locator('.lanes-ready');
      assert.equal(await ready.locator('.lanes-clock circle').count(), 1, 'attempt 1’s clock');
      assert.equal(await ready.locator('.lanes-clock path').count(), 0, 'its clock at 0');
      await inView(ready, 'attempt 1’s clock');
      const note = lanes.locator('.lanes-note-ready');
      assert.equal(await note.textContent(), 'attempt 1 · waits up to 3,000 ms');
      await inView(note, 'its note');
      const time = lanes.locator('.lanes-time');
      assert.equal(await time.textContent(), '0 ms');
      await inView(time, 'the run’s clock in the lanes');
      // Nothing sent yet, nothing charged, the answer not told.
      assert.equal(await lanes.locator('.lanes-attempt').count(), 0, 'no message sent');
      assert.equal(await page.locator('.retry-lab .rl-statement .st-line').count(), 0);
      assert.equal(await page.locator('.retry-lab .rl-statement .st-total').textContent(), 'No charges yet.');
      if (viewport.width >= 960) await inView(page.locator('.retry-lab .rl-statement').first(), 'the card statement');
      const experiment = await page.locator('.retry-lab').first().innerText();
      assert.match(experiment, /How many times was the card charged\?/);
      assert.doesNotMatch(experiment, /charged twice/i, 'the verdict is not printed in the experiment');
      // Next event sends attempt 1: the poised drawing gives way to the attempt itself, and
      // the clock reads on; at the run's end it reads the run's 3,700 ms.
      await page.locator(ID('next')).click();
      assert.equal(await lanes.locator('.lanes-ready').count(), 0);
      assert.equal(await lanes.locator('.lanes-attempt').count(), 1);
      assert.equal(await lanes.locator('.lanes-time').textContent(), '0 ms');
      await page.locator(ID('seek')).focus();
      await page.keyboard.press('End');
      assert.equal(await lanes.locator('.lanes-time').textContent(), '3,700 ms');
    }));
  }
});

describe('issue 15 polish: trace F’s histograms', () => {
  test('the limit’s words overlap no bar and no count, whichever bucket holds the callers', pageTest(env, {}, async ({ page }) => {
    for (const callers of ['50', '7', '200']) {
      await page.locator(TR('callers')).fill(callers);
      await herdSettled(page);
      const figures = await page.locator(`${TR('herd-figures')} figure[data-run]`).evaluateAll((figs) => figs.map((f) => {
        const box = (el) => { const b = el.getBBox(); return { x: b.x, y: b.y, width: b.width, height: b.height }; };
        const limit = f.querySelector('.th-limit-label');
        return { run: f.dataset.run, limit: box(limit), bars: [...f.querySelectorAll('.th-bar, .th-count')].map(box) };
      }));
      assert.equal(figures.length, 3, 'the three histograms');
      for (const f of figures) {
        for (const b of f.bars) assert.ok(!intersect(f.limit, b), `${callers} callers, ${f.run}: "at most" over a bar or a count`);
      }
    }
  }));
});

describe('issue 15 polish: the trace editor on a phone', () => {
  test('at 390 px every checkbox of the editor’s policy is drawn at its full size, whatever its label’s length', pageTest(env, { viewport: PHONE }, async ({ page }) => {
    const sizes = await page.locator('.te-check input[type="checkbox"]').evaluateAll((els) => els.map((el) => {
      const r = el.getBoundingClientRect();
      return { label: el.closest('label').textContent.trim(), width: Math.round(r.width), height: Math.round(r.height) };
    }));
    assert.ok(sizes.length >= 3, 'the policy’s checkboxes');
    const full = sizes[0].height;
    assert.ok(full >= 16, `a checkbox is ${full} px high`);
    for (const s of sizes) assert.deepEqual([s.width, s.height], [full, full], `"${s.label}": ${s.width}×${s.height}`);
  }));
});
