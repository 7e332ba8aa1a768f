// The run on screen: the verdict, the timeline, the event list, the table and the metrics
// drawn from a result (`drawRun`), and the playhead over them (`drawPlayhead`: the timeline's
// line and veil, the events still to come, the seek slider and its readout), the cheap part
// redrawn on every frame of playback. The timeline is redrawn for its box's width.

import { patch, patchKnown } from '../dom.js';
import { INSPECTION_SECONDS, gapAt, momentPhrase, msAt, secondsAt, warpOf } from '../playback.js';
import { seekMarksView } from '../views/controls.js';
import { labelOwners, shadeLabels, timelineView } from '../views/timeline.js';
import { withLanes } from '../views/lanes.js';
import { FUTURE_WORDS, eventsView } from '../views/events.js';
import { tableView } from '../views/table.js';
import { metricsView, nowQuestionView, nowView, questionView, verdictView } from '../views/metrics.js';
import { ms, seconds } from '../format.js';
import { setAttr, setText } from './write.js';
import { drawnOnScreen } from './near.js';

const MARK_HALF = 8; // half the widest mark on the timeline (a commit's diamond is 14 px)

export function valueText(result, playback) {
  const t = msAt(playback.s, warpOf(result));
  return `${seconds(t)} — ${momentPhrase(result, t, playback.shown)}`;
}

// The timeline's playhead at `t` ms: its line and the veil over what is still to come.
function moveTimelinePlayhead(timeline, result, playback, t) {
  const { scale } = timeline;
  const px = scale.x0 + Math.min(1, scale.max > 0 ? t / scale.max : 0) * scale.plot;
  // At the run's end everything drawn is past: no veil, and no playhead through the last
  // marks. Before it, the veil starts a mark's half-width after the playhead, so a mark
  // the playhead has reached is drawn whole, not half in the future.
  const ended = playback.s >= INSPECTION_SECONDS && playback.shown >= result.events.length;
  const veilX = Math.min(scale.right, px + MARK_HALF);
  setAttr(timeline.line, 'x1', px);
  setAttr(timeline.line, 'x2', px);
  setAttr(timeline.line, 'visibility', ended ? 'hidden' : 'visible');
  setAttr(timeline.veil, 'x', veilX);
  setAttr(timeline.veil, 'width', ended ? 0 : Math.max(0, scale.right - veilX));
  shadeLabels(timeline.labels, { shown: playback.shown, tMs: t, ended });
}

// The event list's marks: the events still to come, and the last one shown as the current step.
function markEvents(eventItems, playback) {
  eventItems.forEach((li, i) => {
    const future = i >= playback.shown;
    li.classList.toggle('future', future);
    // Not only a class: the words say which events are still to come.
    const state = li.querySelector('.event-state');
    if (state) setText(state, future ? FUTURE_WORDS : '');
    if (i === playback.shown - 1) setAttr(li, 'aria-current', 'step');
    else li.removeAttribute('aria-current');
  });
}

// The seek slider, its readout, the run's clock, the gap and the Play button at `t` ms.
function drawSeek(els, result, playback, t) {
  const pct = `${(playback.s / INSPECTION_SECONDS) * 100}%`;
  els.seekFill.style.width = pct; // CSSOM, which a strict style-src allows
  els.seekThumb.style.left = pct;
  setAttr(els.seek, 'aria-valuenow', Math.round(playback.s * 10) / 10);
  const text = valueText(result, playback);
  setAttr(els.seek, 'aria-valuetext', text);
  setText(els.readout, `${text} · ${Math.floor(playback.s)} of ${INSPECTION_SECONDS} inspection seconds`);
  // The run's clock is the big number; a compressed quiet stretch is marked as a gap.
  setText(els.clock, ms(Math.round(t)));
  // Playing, the pause Play is in names its gap (playback.js beatAt); else the slider's place.
  const gap = playback.playing ? playback.gap : gapAt(result, playback.s);
  setText(els.gap, gap ? `⋯ ${seconds(gap.toMs - gap.fromMs)} later ⋯` : '');
  setText(els.play, playback.playing ? 'Pause' : 'Play');
}

export function createRunView(root, id, view, { lazy = false } = {}) {
  const $ = (name) => root.querySelector(`#${id(name)}`);
  const els = {
    verdict: $('verdict'), now: $('now'), timeline: $('timeline'), events: $('events'), table: $('table'),
    metrics: $('metrics'), play: $('play'), seek: $('seek'), seekFill: $('seek-fill'), seekThumb: $('seek-thumb'),
    seekMarks: $('seek-marks'), readout: $('seek-readout'), clock: $('clock'), gap: $('gap'),
  };
  let drawn = null; // the result the views show
  let timeline = null; // { width, scale, line, veil }
  let eventItems = [];
  let shown = null; // { result, playback } last drawn, for a redraw after a resize

  // The timeline's box width, as the ResizeObserver below last measured it: reading it here
  // would force a layout of the page in the middle of a redraw. Until the observer's first
  // report (it comes after the first layout, before the first paint) nothing is drawn, and
  // its report draws the timeline once, at its real width; a hidden box (0 wide) is drawn
  // when it is shown, the observer's next report (issue 18: it was drawn at 720 px, then again).
  let timelineWidth = Number(els.timeline.firstElementChild?.getAttribute('width')) || 0; // drawn by the build (web/prerender.mjs), or 0
  function drawTimeline(result) {
    if (!timelineWidth) {
      timeline = null;
      return;
    }
    const width = timelineWidth;
    const { tree, scale } = timelineView(result, { width });
    patchKnown(els.timeline, tree);
    timeline = drawnTimeline(width, scale);
  }
  // The drawn timeline's parts the playhead moves (scale null: worked out when it first moves).
  const drawnTimeline = (width, scale) => ({
    width, scale,
    line: els.timeline.querySelector('[data-playhead="line"]'),
    veil: els.timeline.querySelector('[data-playhead="veil"]'),
    labels: labelOwners(els.timeline), // shaded whole, each with its event (views/timeline.js)
  });

  // Until the reader plays the opening run to its end (or changes it), the verdict is a
  // question: the answer is not printed before Play.
  let asking = true;
  function drawVerdict(result) {
    patchKnown(els.verdict, asking ? questionView(result) : verdictView(result));
    patchKnown(els.now, asking ? nowQuestionView() : nowView(result));
    root.querySelector('.rl').classList.toggle('rl-asking', asking);
  }
  function answer() {
    if (!asking) return;
    asking = false;
    if (drawn) drawVerdict(drawn);
  }

  // `playback`: the playhead the run is drawn for (the event list's marks), if known.
  // Each view but the event list is drawn by patchKnown (web/dom.js: compared with the tree it
  // drew last, not read back from the DOM); the event list's marks are also written by
  // drawPlayhead, so it is patched against the DOM.
  const drawEvents = (result, playback) => {
    patch(els.events, eventsView(result, playback ? playback.shown : Infinity));
    eventItems = [...els.events.querySelectorAll('li')];
  };
  // The precise views and the timeline, each drawn now if it is on screen, else once the frame
  // that shows the change is painted, or in the frame that brings it on screen (near.js drawnOnScreen).
  const later = lazy ? drawnOnScreen(view, [
    [els.timeline, (r) => drawTimeline(r)],
    [els.events, (r) => drawEvents(r, shown && shown.result === r ? shown.playback : runPlayback)],
    [els.table, (r) => patchKnown(els.table, tableView(r))],
    [els.metrics, (r) => patchKnown(els.metrics, metricsView(r))],
  ], root.querySelector('.rl-results'), () => drawn, (boxes) => {
    if (shown && (boxes.includes(els.timeline) || boxes.includes(els.events))) drawPlayhead(shown.result, shown.playback);
  }) : null;

  let runPlayback = null; // the playhead drawRun was given
  function drawRun(result, playback = null) {
    if (drawn === result) return;
    if (drawn) asking = false; // a new run is the reader's own: its verdict is shown at once
    drawn = result;
    runPlayback = playback;
    drawVerdict(result);
    if (later) later.request();
    else {
      drawTimeline(result);
      drawEvents(result, playback);
      patchKnown(els.table, tableView(result));
      patchKnown(els.metrics, metricsView(result));
    }
    const warp = warpOf(result);
    patchKnown(els.seekMarks, seekMarksView(result, (t) => secondsAt(t, warp)));
  }

  // The run as the page's HTML already shows it, drawn by the build for this playhead
  // (web/prerender.mjs, app.js `hydrate`): taken as drawn, nothing written; the timeline's scale
  // is worked out when the playhead first moves.
  function adopt(result, playback) {
    drawn = result;
    shown = { result, playback };
    if (later) later.adopt(result);
    eventItems = [...els.events.querySelectorAll('li')];
    if (timelineWidth) timeline = drawnTimeline(timelineWidth, null);
  }

  function drawPlayhead(result, playback) {
    shown = { result, playback };
    if (asking && playback.shown >= result.events.length && playback.s >= INSPECTION_SECONDS) answer();
    const t = msAt(playback.s, warpOf(result));
    if (timeline && !(later && later.waits(els.timeline))) {
      if (!timeline.scale) timeline.scale = timelineView(drawn, { width: timeline.width }).scale;
      moveTimelinePlayhead(timeline, result, playback, t);
    }
    if (!(later && later.waits(els.events))) markEvents(eventItems, playback);
    drawSeek(els, result, playback, t);
    root.classList.toggle('rl-playing', playback.playing);
  }

  // Redraw the timeline for its box's width: the width the observer reports, not clientWidth.
  // Observers are told in the order they were made, and the lanes' (withLanes) draws before
  // this one is told: reading clientWidth here would make the browser lay the page out again
  // in the middle of the frame (issue 18: 2-3 ms of the first frame), where the entry's size
  // is the one the frame's layout measured (.rl-timeline has no padding: its content box).
  let resize = null;
  const run = withLanes({
    drawRun, drawPlayhead, adopt, answer, asking: () => asking,
    drawViews: () => later && later.flush(),
    destroy: () => { resize.disconnect(); if (later) later.destroy(); },
  }, els.timeline, view, id);
  resize = new view.ResizeObserver((entries) => {
    timelineWidth = Math.round(entries[entries.length - 1].contentRect.width);
    if (drawn && timelineWidth && (!timeline || Math.abs(timelineWidth - timeline.width) > 1) && !(later && later.waits(els.timeline))) {
      drawTimeline(drawn);
      if (shown) drawPlayhead(shown.result, shown.playback);
    }
  });
  resize.observe(els.timeline);
  return run;
}
