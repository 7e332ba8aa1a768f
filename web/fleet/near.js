// The storm where the reader acts (issue 35), for the fleet section (section.js).
//
// A change made below the figure is seen without scrolling. On a wide screen the figure is
// sticky beside the story and the controls (fleet.css), so it is in view already; where the
// end of the controls has pushed it partly out, the page scrolls it back by as little as that
// takes. Elsewhere (a narrow screen, or the map, under the sticky part) the storm is drawn
// again in a small figure of its own right after the group the reader acted in, as the
// article's figure is on a phone (explorable/steps.js): made at the first such change, moved
// to the group of the latest (the page then scrolled by as much as the move shifted the
// control, so the control stays where it was on screen), then scrolled into view by as
// little as shows it whole, and so that the control the reader acted on stays in view where
// both can be (a change made while the last one's figure was still being drawn and scrolled
// to once left the slider above the window's top, the figure whole below it). It
// draws the state the figure does: the verdict in short, the chart, with the ghost of the run
// before.

import { h, mount, patch } from '../dom.js';
import { latch } from '../latch.js';
import { verdictOf } from './model.js';
import { stormChart } from './chart.js';
import { chartWidth } from './storm.js';

const MARGIN = 12;

// The figure near the change, made once: { box, verdict, chart, legend }.
function nearFigure(doc, id) {
  const box = mount(h('figure', { class: 'fl-near', id: id('near'), 'aria-labelledby': id('near-caption') },
    h('figcaption', { class: 'fl-near-caption', id: id('near-caption') },
      h('span', { class: 'fl-near-kicker' }, 'The storm with these settings'), ' ',
      h('span', { class: 'fl-near-verdict', id: id('near-verdict') })),
    h('ul', { class: 'fl-legend fl-storm-legend', id: id('near-legend'), 'aria-label': 'The chart’s key', hidden: true }),
    h('div', { class: 'fl-chart-box', id: id('near-chart'), tabindex: 0, role: 'group', 'aria-roledescription': 'chart', 'aria-label': 'The storm over time, drawn again where you changed it' })), doc);
  return { box, verdict: box.querySelector(`#${id('near-verdict')}`), chart: box.querySelector(`#${id('near-chart')}`), legend: box.querySelector(`#${id('near-legend')}`) };
}

// mountNear(ctx) → { bring(control, group), draw(), resized(entries), shown(), looked(), destroy() }:
// `bring` after a change made at `control` in `group`; `shown` once that change's run is drawn;
// `looked()` resolves once the last look shown() scheduled has run and no smooth scroll this
// started is under way (the state a reader then sees, for whoever must wait for it).
export function mountNear(ctx) {
  const { doc, win, id, s } = ctx;
  const chartBox = ctx.$('chart');
  let near = null; // nearFigure() once made
  const smooth = () => (win.matchMedia && win.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth');
  const inView = (el) => {
    const r = el.getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.bottom <= win.innerHeight;
  };
  // The box to show once the change's run is drawn too (a scroll under way may have been cut
  // short by the redraw, or the run's words have moved it), unless the reader scrolls first,
  // and the control the change was made at, which every such scroll keeps in view.
  let showAfter = null;
  let keep = null;
  // The looks shown() scheduled and not yet run, and the smooth scroll under way (until its scrollend).
  let looks = 0;
  let scrolling = false;
  const quiet = latch();
  const lookDone = () => {
    if (!looks && !scrolling) quiet.release();
  };
  const readerScrolls = () => {
    showAfter = null;
    keep = null;
  };
  for (const type of ['wheel', 'touchstart']) win.addEventListener(type, readerScrolls, { passive: true });

  // The scroll that shows the span from `top` to `bottom` (against the window) whole, by as
  // little as that takes, with margins of MARGIN or, where the span fits only closer to the
  // window's edges, of what is left: null where it does not fit at all.
  const spanScroll = (top, bottom) => {
    const margin = Math.min(MARGIN, (win.innerHeight - bottom + top) / 2);
    return margin < 0 ? null : Math.min(Math.max(0, bottom - (win.innerHeight - margin)), top - margin);
  };
  // How far to scroll to show `box`, with `keep` (the control acted on) when there is one,
  // wherever both fit in the window (a gate's switch, its fields and the storm after them fill
  // 829 of a 844 px phone: a scroll that ended a little low once left the switch above the top
  // and the storm whole, and asked for nothing more). Where they do not (a map cell far above
  // the storm drawn after the map), the box alone; its top at the margin if it is too tall.
  function scrollFor(box) {
    const r = box.getBoundingClientRect();
    const c = keep && keep.isConnected ? keep.getBoundingClientRect() : null;
    const both = c && c.height > 0 ? spanScroll(Math.min(r.top, c.top), Math.max(r.bottom, c.bottom)) : null;
    return both ?? spanScroll(r.top, r.bottom) ?? r.top - MARGIN;
  }
  // The box and the control are both shown as well as they can be: nothing left to scroll.
  const settled = (box) => Math.abs(scrollFor(box)) < 1;

  function scrollToShow(box) {
    showAfter = box;
    const by = scrollFor(box);
    if (Math.abs(by) < 1) return;
    const behavior = smooth();
    const from = win.scrollY;
    const to = Math.min(Math.max(0, from + by), doc.documentElement.scrollHeight - win.innerHeight);
    win.scrollBy({ top: by, behavior });
    // A smooth scroll runs to where it aimed, though the page moved under it meanwhile (the
    // run's redraw above, scroll anchoring): once it ends, the box and the control are shown
    // as scrollFor asks if they are not.
    if (behavior === 'smooth') {
      if (Math.abs(to - from) >= 1) scrolling = true; // one that moves ends with a scrollend
      win.addEventListener('scrollend', () => {
        if (showAfter === box && !settled(box)) {
          const by2 = scrollFor(box);
          if (Math.abs(by2) >= 1) win.scrollBy({ top: by2, behavior: 'auto' });
        }
        scrolling = false;
        lookDone();
      }, { once: true });
    }
  }

  function bring(control, group) {
    if (!s.shown || !control.isConnected || inView(chartBox)) return;
    keep = control;
    const figure = chartBox.closest('.fl-figure');
    if (win.getComputedStyle(figure).position === 'sticky' && control.closest('.fl-stops, .fl-effects, .fl-story, .fl-servers')) {
      scrollToShow(chartBox);
      return;
    }
    if (!near) {
      near = nearFigure(doc, id);
      ctx.storm.watch(near.chart);
    }
    if (group.nextElementSibling !== near.box) {
      const was = control.getBoundingClientRect().top;
      group.after(near.box);
      draw();
      const moved = control.getBoundingClientRect().top - was;
      if (Math.abs(moved) >= 1) win.scrollBy({ top: moved, behavior: 'auto' });
    }
    scrollToShow(near.box);
  }

  function draw() {
    if (!near || !s.shown) return;
    const width = chartWidth(near.chart);
    patch(near.chart, stormChart(s.shown.series, { id: id('near-svg'), ghost: s.shown.ghost, width }));
    ctx.storm.legend(near.legend, width, id('near-legend'));
    const verdict = verdictOf(s.shown.result);
    near.verdict.textContent = s.stale ? 'computing…' : verdict.shortText;
    if (s.stale) delete near.verdict.dataset.kind;
    else near.verdict.dataset.kind = verdict.kind;
  }

  // The box a change asked to show, once its run is drawn and the computing line above has
  // gone: two frames on (scroll anchoring has then moved the page for both), and once more
  // a little later, for a smooth scroll that was under way.
  function shown() {
    if (!showAfter) return;
    const box = showAfter;
    looks += 2;
    const check = () => {
      looks -= 1;
      if (showAfter === box && !settled(box)) scrollToShow(box);
      lookDone();
    };
    win.requestAnimationFrame(() => win.requestAnimationFrame(check));
    win.setTimeout(check, 400);
  }

  return {
    bring,
    draw,
    shown,
    looked: () => (!looks && !scrolling ? Promise.resolve() : quiet.wait()),
    resized(entries) {
      if (near && entries.some((e) => e.target === near.chart)) draw();
    },
    destroy() {
      for (const type of ['wheel', 'touchstart']) win.removeEventListener(type, readerScrolls);
    },
  };
}
