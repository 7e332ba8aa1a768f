// The inspection-time slider's keys and pointer: the WAI-ARIA media-seek pattern, shaped like
// traces/grid.js's attachGrid. `position()` is the playhead's inspection second now, `max` the
// last one, `onSeek(s)` asks for a new one (unclamped; the caller clamps). Drawing the slider
// is the caller's (run-view.js).

const KEYS = {
  ArrowRight: (s) => s + 1, ArrowUp: (s) => s + 1, ArrowLeft: (s) => s - 1, ArrowDown: (s) => s - 1,
  PageUp: (s) => s + 10, PageDown: (s) => s - 10, Home: () => 0, End: (s, max) => max,
};

export function attachSeek(el, { position, max, onSeek, track = '.rl-seek-track' }) {
  el.addEventListener('keydown', (event) => {
    const move = KEYS[event.key];
    if (!move) return;
    event.preventDefault();
    onSeek(move(position(), max));
  });
  const fromPointer = (event) => {
    const box = el.querySelector(track).getBoundingClientRect();
    onSeek(((event.clientX - box.left) / Math.max(1, box.width)) * max);
  };
  el.addEventListener('pointerdown', (event) => {
    el.setPointerCapture(event.pointerId);
    el.focus();
    fromPointer(event);
  });
  el.addEventListener('pointermove', (event) => {
    if (el.hasPointerCapture(event.pointerId)) fromPointer(event);
  });
}
