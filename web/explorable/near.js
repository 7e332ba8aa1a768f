// A drawing that waits while its box is far from the screen (issue 18): a subscriber whose box a
// reader cannot see (the client lab's card at the page's end, the share bar below the metrics)
// need not redraw on every change of the experiment; it is drawn for the current run before it
// is seen. Three ways in, so that no frame shows it stale:
//   - an IntersectionObserver with a margin of a screen's height above and below: the box is
//     drawn while it is still a screen away, as a reader scrolls towards it;
//   - while it waits, a passive scroll listener: a jump (a link to a section, scrollIntoView,
//     the End key) fires `scroll` before the frame that shows the new position is rendered, and
//     the box is drawn then, in that frame, if it has come near;
//   - `flush()`: drawn now whatever its place (a reader's action inside the box, a test).
// Without an IntersectionObserver (an old browser) every request draws at once.

export function drawnNear(box, draw, { margin = 1 } = {}) {
  const view = box.ownerDocument.defaultView;
  let near = true; // until the observer's first report
  let stale = false;
  const listening = { on: false };
  const now = () => {
    stale = false;
    stopListening();
    draw();
  };
  // Is the box within `margin` screens of the viewport? (A layout read: only on a scroll while
  // a drawing waits, when the layout is clean.)
  const isNear = () => {
    const r = box.getBoundingClientRect();
    const h = view.innerHeight;
    return r.bottom >= -margin * h && r.top <= h + margin * h;
  };
  const onScroll = () => {
    if (stale && isNear()) now();
  };
  function stopListening() {
    if (!listening.on) return;
    listening.on = false;
    view.removeEventListener('scroll', onScroll, true);
  }
  let observer = null;
  if (view && typeof view.IntersectionObserver === 'function') {
    observer = new view.IntersectionObserver((entries) => {
      near = entries[entries.length - 1].isIntersecting;
      if (near && stale) now();
    }, { rootMargin: `${margin * 100}% 0px` });
    observer.observe(box);
  }
  return {
    // The run changed: drawn now if the box is near the screen, else when it comes near.
    request() {
      if (near || !observer) {
        now();
        return;
      }
      stale = true;
      if (!listening.on) {
        listening.on = true;
        view.addEventListener('scroll', onScroll, { capture: true, passive: true });
      }
    },
    flush() {
      if (stale) now();
    },
    stale: () => stale,
    destroy() {
      stopListening();
      if (observer) observer.disconnect();
    },
  };
}
