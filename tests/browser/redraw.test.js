// A redraw after an input change keeps the DOM that did not change (web/dom.js patch()): the
// browser then restyles, lays out and re-shapes only what changed (BENCHMARKS.md). Checked by
// identity: the elements and text nodes a change leaves alone are the very same objects.

import { describe } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, openPage, pageTest, test } from './lib/harness.js';
import { ID, metricsOf, scrollSettled, setInputs } from './lib/ui.js';

const env = browserSuite();

// Its tests run two at a time, each on a page of its own (issue 31): they wait on the page's
// frames, its idle callbacks and its 200 ms link timer, not on one another.
describe('redrawing the experiment', { concurrency: 2 }, () => {
  test('a change keeps the elements and text it does not change, and updates the rest in place', pageTest(env, { sections: false }, async ({ page }) => {
    await page.evaluate(() => {
      const metric = (key) => document.querySelector(`#rl-metrics [data-metric="${key}"] dd`);
      window.__before = {
        attempts: metric('attempts'), attemptsText: metric('attempts').firstChild,
        elapsed: metric('elapsed'), elapsedText: metric('elapsed').firstChild,
        rows: [...document.querySelectorAll('#rl-table tbody tr')],
        svg: document.querySelector('#rl-timeline svg'),
        events: [...document.querySelectorAll('#rl-events li')],
      };
    });
    // A shorter base backoff: the same attempts, earlier times.
    await page.locator(ID('baseBackoffMs')).fill('400');
    assert.equal((await metricsOf(page)).elapsed, '3,600 ms');
    const kept = await page.evaluate(() => {
      const b = window.__before;
      const metric = (key) => document.querySelector(`#rl-metrics [data-metric="${key}"] dd`);
      return {
        attempts: metric('attempts') === b.attempts && metric('attempts').firstChild === b.attemptsText,
        elapsedElement: metric('elapsed') === b.elapsed,
        elapsedTextNode: metric('elapsed').firstChild === b.elapsedText,
        elapsedText: b.elapsedText.data,
        rows: b.rows.every((r) => r.isConnected),
        svg: document.querySelector('#rl-timeline svg') === b.svg,
        events: b.events.every((li) => li.isConnected),
      };
    });
    assert.deepEqual(kept, {
      attempts: true, elapsedElement: true, elapsedTextNode: true, elapsedText: '3,600 ms', rows: true, svg: true, events: true,
    });
  }));

  // Issue 18: each write of the link is a same-document navigation, after which Chromium fetches
  // and decodes the favicon again (3-6 ms of main thread); written every 200 ms while changes
  // kept coming, one change in a dozen paid it inside its frame. The write waits for them to rest.
  test('a stream of changes writes the link once, when it rests, not while it goes on', pageTest(env, { sections: false }, async ({ page }) => {
    const { during, rests, after, hash } = await page.evaluate(async () => {
      const writes = [];
      const replace = history.replaceState.bind(history);
      history.replaceState = (...args) => { writes.push(args[2]); return replace(...args); };
      const box = document.querySelector('#rl-baseBackoffMs');
      // 16 changes 50 ms apart: 750 ms of changes, more than three of the old 200 ms batches.
      // A gap the machine stretched to the write's delay (a loaded machine) is a rest: counted.
      let rests = 0;
      let at = performance.now();
      for (let i = 0; i < 16; ++i) {
        box.value = String(400 + i * 10);
        box.dispatchEvent(new Event('input', { bubbles: true }));
        await new Promise((done) => setTimeout(done, 50));
        const now = performance.now();
        if (i < 15 && now - at >= 190) rests += 1;
        at = now;
      }
      const during = writes.length;
      await new Promise((done) => setTimeout(done, 600));
      return { during, rests, after: writes.length, hash: location.hash };
    });
    assert.ok(during <= rests, `no write while the changes go on (${during} writes, ${rests} gaps of 190 ms or more)`);
    assert.equal(after - during, 1, 'one write once they rest');
    assert.match(hash, /[#&]baseBackoffMs=550(&|$)/, 'the link is the last change\'s');
  }));

  // Issue 18: the lanes (web/views/lanes.js) were drawn at 640 px as the page opened, then again
  // at their box's width when its observer reported it. Every width the lanes' drawing is given
  // by the page's script, from before it runs: at most one, the box's. The page's HTML holds the
  // lanes as the build drew them (web/prerender.mjs, at the width the layout gives them from
  // about 1,200 px wide): where that is the box's width the script draws them no more; where it
  // is not (a phone) the script draws them once, at the box's.
  const watchLanesWidths = () => {
    window.__lanesWidths = { html: [], script: [] };
    const note = (el) => {
      if (el.nodeType === 1 && el.matches('#rl-lanes > svg')) {
        window.__lanesWidths[document.readyState === 'loading' ? 'html' : 'script'].push(Number(el.getAttribute('width')));
      }
    };
    new MutationObserver((records) => {
      for (const r of records) {
        if (r.type === 'attributes') note(r.target);
        else for (const n of r.addedNodes) note(n);
      }
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['width'] });
  };
  for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
    test(`at ${viewport.width} px the lanes are drawn once as the page opens, at their box's width, and a change keeps it`, pageTest(env, { sections: false, viewport, init: [watchLanesWidths] }, async ({ page }) => {
      const box = () => page.evaluate(() => Math.round(document.querySelector('#rl-lanes').getBoundingClientRect().width));
      const drawn = () => page.evaluate(() => Number(document.querySelector('#rl-lanes > svg').getAttribute('width')));
      await page.waitForFunction(() => document.documentElement.classList.contains('rl-ready'));
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      const { html, script } = await page.evaluate(() => window.__lanesWidths);
      const width = await box();
      assert.equal(await drawn(), width, 'the lanes stand at their box\'s width');
      assert.deepEqual(script, html.length === 1 && html[0] === width ? [] : [width], `the script draws them at most once, at the box's width (the page's HTML: ${html})`);
      await page.locator(ID('baseBackoffMs')).fill('400');
      await page.locator(ID('next')).click();
      const after = await page.evaluate(() => window.__lanesWidths.script);
      assert.ok(after.every((w) => w === width), `no redraw at another width (${after})`);
      assert.equal(await drawn(), width);
    }));
  }

  // Issue 18: the views but the event list are redrawn against the tree they drew last
  // (web/dom.js patchKnown), not read back from the DOM. Whatever runs they went through, they
  // must stand as a fresh page draws the same run at the same playhead.
  test('after a string of different runs the views are what a fresh page draws for the last one', pageTest(env, { sections: false }, async ({ page }) => {
    const views = (p) => p.evaluate(() => {
      window.retryLab.drawViews(); // off screen, they are drawn after the change's frame
      return Object.fromEntries(['verdict', 'now', 'lanes', 'timeline', 'table', 'metrics', 'seek-marks', 'events']
        .map((name) => [name, document.querySelector(`#rl-${name}`).innerHTML]));
    });
    const runs = [
      { maxRetries: 0 }, { maxRetries: 4, baseBackoffMs: 300 }, { scenario: 'HTTP 503 twice, then succeeds', idempotencyKey: true },
      { clientTimeoutMs: 900 }, { deadlineMs: 2500 }, { idempotencyKey: false, maxRetries: 2 },
    ];
    for (const inputs of runs) {
      await setInputs(page, inputs);
      await page.locator(ID('next')).click();
    }
    for (let i = 0; i < 3; ++i) await page.locator(ID('next')).click();
    await page.waitForFunction(() => /deadlineMs=2500/.test(location.hash));
    const fresh = await openPage(env, { sections: false, url: await page.evaluate(() => location.href) });
    try {
      for (let i = 0; i < 4; ++i) await fresh.page.locator(ID('next')).click();
      assert.deepEqual(await views(page), await views(fresh.page));
    } finally {
      await fresh.context.close();
    }
  }));

  test('a run with fewer attempts drops the rows and events it no longer has', pageTest(env, { sections: false }, async ({ page }) => {
    const count = () => page.evaluate(() => {
      window.retryLab.drawViews(); // off screen, they are drawn after the change's frame
      return [document.querySelectorAll('#rl-table tbody tr').length, document.querySelectorAll('#rl-events li').length];
    });
    const [rows, events] = await count();
    await page.locator(ID('maxRetries')).fill('0');
    const [fewerRows, fewerEvents] = await count();
    assert.equal(rows, 2);
    assert.equal(fewerRows, 1);
    assert.ok(fewerEvents < events, `${fewerEvents} events after, ${events} before`);
    await page.locator(ID('maxRetries')).fill('3');
    assert.deepEqual(await count(), [rows, events], 'and grows them back');
  }));

  // Issue 18: the client lab's card is at the page's end; it was redrawn on every change of the
  // experiment far above it. It is drawn while it is near the screen, and before a reader sees it:
  // a jump to it (scrollIntoView, a link, the End key) fires `scroll` before the frame that shows
  // it is rendered, and the card is drawn then, so that frame's animation callback (which runs
  // before its paint) already finds the current run in it.
  test('the client lab\'s card is not redrawn while far off screen, and shows the current run in the frame that scrolls to it', pageTest(env, {}, async ({ page }) => {
    const { writes, during, inFrame, expected } = await page.evaluate(async () => {
      const card = document.querySelector('#cl-card');
      const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
      document.querySelector('#rl-baseBackoffMs').scrollIntoView({ block: 'center' });
      await frame();
      await frame();
      let writes = 0;
      const watch = new MutationObserver((records) => { writes += records.length; });
      watch.observe(card, { subtree: true, childList: true, characterData: true, attributes: true });
      const box = document.querySelector('#rl-baseBackoffMs');
      for (const value of ['450', '520', '610']) {
        box.value = value;
        box.dispatchEvent(new Event('input', { bubbles: true }));
        await frame();
      }
      await new Promise((done) => setTimeout(done, 100));
      const during = writes;
      const expected = window.retryLab.getState().result.metrics.elapsedMs;
      const inFrame = await new Promise((done) => {
        card.scrollIntoView({ block: 'center' });
        requestAnimationFrame(() => done(document.querySelector('#cl-current-run')?.textContent || ''));
      });
      watch.disconnect();
      return { writes, during, inFrame, expected };
    });
    assert.equal(during, 0, 'three changes far above it wrote nothing in the card');
    assert.ok(writes > 0, 'scrolled to, it is drawn');
    const shown = expected.toLocaleString('en-US');
    assert.ok(inFrame.includes(`${shown} ms`), `the frame that scrolls to the card shows the current run (${expected} ms): ${inFrame}`);
  }));
  // The page's own explorable (web/main.js `lazy`, explorable/near.js drawnOnScreen): the
  // timeline, event list, table and metrics are below the first screen while a reader works
  // the inputs at the top, and are drawn after the change's frame is painted, not in it.
  test('a change draws the views off screen after its painted frame, and those on screen in it', pageTest(env, { sections: false }, async ({ page }) => {
    const seen = await page.evaluate(async () => {
      const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
      const box = document.querySelector('#rl-baseBackoffMs');
      const elapsed = () => document.querySelector('#rl-metrics [data-metric="elapsed"] dd').textContent.trim();
      const want = () => `${window.retryLab.getState().result.metrics.elapsedMs.toLocaleString('en-US')} ms`;
      const change = (value) => { box.value = value; box.dispatchEvent(new Event('input', { bubbles: true })); };
      scrollTo(0, 0);
      await frame();
      await frame();
      const below = document.querySelector('#rl-metrics').getBoundingClientRect().top > innerHeight;
      change('450');
      const inTask = elapsed() === want();
      const inFrame = await new Promise((done) => requestAnimationFrame(() => done(elapsed() === want())));
      // After the frame, once the main thread is idle (this callback is asked for after the page's).
      const afterPaint = await new Promise((done) => requestIdleCallback(() => done(elapsed() === want())));
      document.querySelector('#rl-metrics').scrollIntoView({ block: 'center' });
      // once the page's IntersectionObserver has said they are on screen (this one's report comes after it)
      await new Promise((done) => {
        const io = new IntersectionObserver((entries) => {
          if (entries[entries.length - 1].isIntersecting) { io.disconnect(); requestAnimationFrame(() => requestAnimationFrame(done)); }
        });
        io.observe(document.querySelector('#rl-metrics'));
      });
      change('520');
      const onScreenInTask = elapsed() === want();
      return { below, inTask, inFrame, afterPaint, onScreenInTask };
    });
    assert.deepEqual(seen, { below: true, inTask: false, inFrame: false, afterPaint: true, onScreenInTask: true });
  }));

  test('with the idle draw held back, the views are current in the frame that brings them on screen: a scroll, a jump link, the keyboard, a layout shift', pageTest(env, { sections: false }, async ({ page }) => {
    await page.evaluate(() => {
      window.requestIdleCallback = () => 0; // the page's draw after the painted frame never comes
      window.cancelIdleCallback = () => {};
      window.__rl = {
        elapsed: () => document.querySelector('#rl-metrics [data-metric="elapsed"] dd').textContent.trim(),
        want: () => `${window.retryLab.getState().result.metrics.elapsedMs.toLocaleString('en-US')} ms`,
        change(value) {
          const box = document.querySelector('#rl-baseBackoffMs');
          box.value = value;
          box.dispatchEvent(new Event('input', { bubbles: true }));
        },
        frame: () => new Promise((done) => requestAnimationFrame(() => done())),
        // Whether the metrics are current in each frame that shows them, seen after the frame's
        // layout and before its paint: a ResizeObserver made after the page's, its box observed
        // afresh in each frame (its first report of a box comes after that frame's layout).
        watch() {
          const seen = [];
          const metrics = document.querySelector('#rl-metrics');
          const probe = document.createElement('div');
          document.body.append(probe);
          const ro = new ResizeObserver(() => {
            const { top, bottom } = metrics.getBoundingClientRect();
            if (bottom > 0 && top < innerHeight) seen.push(window.__rl.elapsed() === window.__rl.want());
          });
          let on = true;
          (function look() {
            ro.unobserve(probe);
            ro.observe(probe);
            if (on) requestAnimationFrame(look);
          }());
          return { seen, stop: () => { on = false; ro.disconnect(); probe.remove(); } };
        },
        // At the page's top, once the page's IntersectionObserver has said the metrics are off
        // screen (this one's report comes in the same task, after the page's).
        offScreen: () => new Promise((done) => {
          const io = new IntersectionObserver((entries) => {
            if (!entries[entries.length - 1].isIntersecting) {
              io.disconnect();
              // and two frames more, for the page's own observer's report on a loaded machine
              requestAnimationFrame(() => requestAnimationFrame(() => done()));
            }
          });
          io.observe(document.querySelector('#rl-metrics'));
        }),
        async atTop(value) {
          scrollTo(0, 0);
          await this.offScreen();
          this.change(value);
          await this.frame();
          return this.elapsed() !== this.want(); // waiting, off screen
        },
      };
    });
    const waits = [];
    const firstFrames = {};
    // A scroll.
    waits.push(await page.evaluate(() => window.__rl.atTop('450')));
    firstFrames.scroll = await page.evaluate(async () => {
      const w = window.__rl.watch();
      document.querySelector('#rl-metrics').scrollIntoView({ block: 'center' });
      for (let i = 0; i < 3; ++i) await window.__rl.frame();
      w.stop();
      return w.seen[0];
    });
    // The keyboard, as a reader presses it: Page Down twice from the top (End goes past them, to
    // the article's end), Chromium's smooth scroll over several frames.
    waits.push(await page.evaluate(() => window.__rl.atTop('610')));
    await page.evaluate(() => { window.__w = window.__rl.watch(); document.activeElement?.blur(); });
    await page.keyboard.press('PageDown');
    await page.keyboard.press('PageDown');
    await page.evaluate(async () => {
      for (let i = 0; i < 300 && scrollY === 0; ++i) await window.__rl.frame(); // the scroll has begun
    });
    await scrollSettled(page);
    firstFrames.keys = await page.evaluate(() => {
      window.__w.stop();
      return window.__w.seen[0];
    });
    // A layout shift in the change's own frame: the metrics just below the screen, then the
    // change and something above them shrinking bring them up into view without a scroll.
    await page.evaluate(() => scrollBy(0, document.querySelector('#rl-metrics').getBoundingClientRect().top - innerHeight - 20));
    await scrollSettled(page);
    firstFrames.shift = await page.evaluate(async () => {
      const metrics = document.querySelector('#rl-metrics');
      const above = document.querySelector('#rl-table').closest('section');
      await window.__rl.offScreen();
      const offBefore = metrics.getBoundingClientRect().top >= innerHeight;
      const shrink = above.getBoundingClientRect().height;
      // The change in an animation frame callback, as Chromium hands over a dragged slider's input.
      // Seen after that frame's layout, before its paint: a ResizeObserver made after the page's.
      const inFrame = await new Promise((done) => requestAnimationFrame(() => {
        window.__rl.change('680');
        above.hidden = true; // the table's section, in view above them: what is below moves up by its height
        const probe = document.createElement('div');
        document.body.append(probe);
        const ro = new ResizeObserver(() => {
          ro.disconnect();
          probe.remove();
          const { top, bottom } = metrics.getBoundingClientRect();
          done({ onScreen: bottom > 0 && top < innerHeight, current: window.__rl.elapsed() === window.__rl.want() });
        });
        ro.observe(probe);
      }));
      above.hidden = false;
      return { offBefore, shrink: shrink > 20, ...inFrame };
    });
    // A jump link (last: the fragment it leaves in the address keeps the page scrolled to it).
    waits.push(await page.evaluate(() => window.__rl.atTop('520')));
    firstFrames.link = await page.evaluate(async () => {
      const w = window.__rl.watch();
      const a = document.createElement('a');
      a.href = '#rl-metrics';
      a.textContent = 'metrics';
      document.body.append(a);
      a.click();
      for (let i = 0; i < 3; ++i) await window.__rl.frame();
      w.stop();
      a.remove();
      return w.seen[0];
    });
    assert.deepEqual(waits, [true, true, true], 'each change left the metrics off screen waiting');
    assert.deepEqual(firstFrames, { scroll: true, link: true, keys: true, shift: { offBefore: true, shrink: true, onScreen: true, current: true } });
  }));
});
