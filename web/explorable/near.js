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
