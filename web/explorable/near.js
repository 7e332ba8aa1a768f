// A drawing that waits while its box is far from the screen (issue 18): a subscriber whose box a
// reader cannot see (the client lab's card at the page's end) need not redraw on every change of
// the experiment; it is drawn for the current run before it is seen. Two ways in, so that no
// frame shows it stale:
//   - an IntersectionObserver with a margin of a screen's height above and below: the box is
//     drawn while it is still a screen away, as a reader scrolls towards it;
//   - while it waits, a passive scroll listener: a jump (a link to a section, scrollIntoView,
//     the End key) fires `scroll` before the frame that shows the new position is rendered, and
//     the box is drawn then, in that frame, if it has come near (a layout read, when the layout
//     is clean).
// `flush()` draws it now whatever its place (a test). The page needs an IntersectionObserver
// anyway (app.js pauses playback with one).

export function drawnNear(box, draw) {
  const view = box.ownerDocument.defaultView;
  let near = true; // until the observer's first report
  let stale = false;
  const onScroll = () => {
    const { top, bottom } = box.getBoundingClientRect();
    const h = view.innerHeight;
    if (bottom >= -h && top <= 2 * h) now();
  };
  function now() {
    stale = false;
    view.removeEventListener('scroll', onScroll, true);
    draw();
  }
  const observer = new view.IntersectionObserver((entries) => {
    near = entries[entries.length - 1].isIntersecting;
    if (near && stale) now();
  }, { rootMargin: '100% 0px' });
  observer.observe(box);
  return {
    // The run changed: drawn now if the box is near the screen, else when it comes near.
    request() {
      if (near) now();
      else if (!stale) {
        stale = true;
        view.addEventListener('scroll', onScroll, { capture: true, passive: true });
      }
    },
    flush: () => stale && now(),
    destroy: () => {
      view.removeEventListener('scroll', onScroll, true);
      observer.disconnect();
    },
  };
}

// Views a change need not draw in its own frame (issue 18: the explorable's timeline, event
// list, table and metrics, below the first screen while a reader works the inputs at the top,
// were 1.4 ms of a change's 6 ms of main-thread CPU). `parts`: [box, draw(result)] pairs;
// `current()`: the result they should show. On `request()` a part on screen is drawn at once;
// one off screen waits, and is drawn:
//   - after the frame that shows the change is painted: an idle callback asked for in that
//     frame, so it comes after its paint (asked for at once, it could come before the frame), and
//     a layout read after it, so that the next frame does not lay out what it drew; a stream of
//     changes draws only the newest run;
//   - before then, in the frame that brings it on screen, whatever does (a scroll, a jump to a
//     link, scrollIntoView, End, a layout shift in the change's own frame): `shifts`, the box
//     holding the parts, is observed afresh in each frame while a part waits, and a
//     ResizeObserver's first report of a box comes after that frame's layout (and its scroll,
//     a fragment's included) and before its paint; what it draws there is laid out again before
//     the paint. (A `scroll` listener is not enough: a jump to a fragment is scrolled in the
//     frame's layout, and its event comes a frame later.)
// `after(drawnBoxes)` is told what was drawn late (the playhead is drawn over it again);
// `flush()` draws every waiting part now (tests).
export function drawnOnScreen(view, parts, shifts, current, after) {
  const list = parts.map(([box, draw]) => ({ box, draw, at: null, onScreen: true })); // on screen until the observer says
  let waiting = false;
  let frame = 0;
  let idle = 0;
  const inView = (box) => {
    const { top, bottom } = box.getBoundingClientRect();
    return bottom > 0 && top < view.innerHeight;
  };
  function drawParts(which) {
    const result = current();
    const drew = [];
    for (const part of list) {
      if (part.at !== result && which(part)) {
        part.draw(result);
        part.at = result;
        drew.push(part.box);
      }
    }
    if (list.every((p) => p.at === result)) rest();
    if (drew.length) after(drew);
    return drew.length;
  }
  function rest() {
    if (!waiting) return;
    waiting = false;
    shift.unobserve(shifts);
    view.cancelAnimationFrame(frame);
    if (idle && view.cancelIdleCallback) view.cancelIdleCallback(idle);
    else if (idle) view.clearTimeout(idle);
    frame = idle = 0;
  }
  const shift = new view.ResizeObserver(() => {
    drawParts((p) => inView(p.box));
    if (waiting && !frame) frame = view.requestAnimationFrame(tick);
  });
  const done = () => {
    idle = 0;
    if (drawParts(() => true)) shifts.getBoundingClientRect(); // laid out now, not in the next change's frame
  };
  // Once a frame while a part waits: observed again (its report after this frame's layout), and
  // the idle draw asked for from inside a frame.
  function tick() {
    frame = 0;
    shift.unobserve(shifts);
    shift.observe(shifts);
    if (!idle) idle = view.requestIdleCallback ? view.requestIdleCallback(done, { timeout: 200 }) : view.setTimeout(done, 0);
  }
  const visible = new view.IntersectionObserver((entries) => {
    for (const entry of entries) {
      const part = list.find((p) => p.box === entry.target);
      if (part) part.onScreen = entry.isIntersecting;
    }
    if (waiting) drawParts((p) => p.onScreen);
  });
  for (const part of list) visible.observe(part.box);
  return {
    request() {
      drawParts((p) => p.onScreen);
      if (waiting || list.every((p) => p.at === current())) return;
      waiting = true;
      shift.observe(shifts); // its first report: after this frame's layout
      frame = view.requestAnimationFrame(tick);
    },
    // The parts are drawn for `result` already (a page the build drew).
    adopt(result) { for (const part of list) part.at = result; },
    waits: (box) => list.some((p) => p.box === box && p.at !== current()),
    flush: () => { drawParts(() => true); },
    destroy() {
      rest();
      visible.disconnect();
      shift.disconnect();
    },
  };
}
