// The playback clock: requestAnimationFrame while it runs, nothing otherwise. `onTick(dt)`
// gets the wall seconds since the last frame (at most a quarter of a second, so a tab that
// slept does not jump) and returns whether to keep going.

export function createClock(view, onTick) {
  let frame = 0;
  let last = 0;
  function tick(now) {
    const dt = Math.min(0.25, Math.max(0, (now - last) / 1000));
    last = now;
    frame = onTick(dt) ? view.requestAnimationFrame(tick) : 0;
  }
  return {
    running: () => frame !== 0,
    start() {
      if (frame) return;
      last = view.performance.now();
      frame = view.requestAnimationFrame(tick);
    },
    stop() {
      if (!frame) return;
      view.cancelAnimationFrame(frame);
      frame = 0;
    },
  };
}
