// Playback maths, pure. A run, however long in virtual milliseconds, replays over sixty
// inspection seconds at 1×. The playhead is { s, shown }: `s` the inspection time, `shown`
// how many events are revealed — usually every event at or before the playhead's time, but
// Next event reveals events one at a time even when several share an instant.

import { stopBecause } from './words.js';

export const INSPECTION_SECONDS = 60;
export const SPEEDS = [0.5, 1, 2, 4, 8];

// The run's last instant: events include work the server finishes after the client gave up.
export function runSpan(result) {
  let span = 0;
  for (const e of result.events) span = Math.max(span, e.tMs);
  for (const a of result.attempts) span = Math.max(span, a.endMs);
  return span;
}

// Rhythm: playback moves from event to event. Between two neighbouring instants of the run
// (its events' times, its start and its end) the playhead takes inspection time in proportion
// to the stretch's length, but no stretch counts for more than QUIET of the run: a long quiet
// stretch (attempt 1 waiting out its timeout) is compressed, and the readout marks it as a gap
// ("⋯ 2.8 s later ⋯"). The warp is a piecewise-linear map, exact at every instant, so an event
// is reached at the same inspection second by Play, Next event and the slider.
export const QUIET = 0.12;

const warps = new WeakMap();
export function warpOf(result) {
  let w = warps.get(result);
  if (w) return w;
  const span = runSpan(result);
  const instants = [...new Set([0, ...result.events.map((e) => e.tMs), span])].sort((a, b) => a - b);
  const cap = QUIET * span;
  const weights = [];
  for (let i = 1; i < instants.length; i += 1) weights.push(Math.min(instants[i] - instants[i - 1], cap));
  const total = weights.reduce((a, b) => a + b, 0);
  const knots = [0];
  for (const weight of weights) knots.push(knots[knots.length - 1] + (total > 0 ? (weight / total) * INSPECTION_SECONDS : 0));
  if (knots.length > 1) knots[knots.length - 1] = INSPECTION_SECONDS;
  w = { span, instants, knots, cap };
  warps.set(result, w);
  return w;
}

// The stretch [i−1, i] holding a value, by binary search over `list`.
function stretch(list, value) {
  let lo = 1;
  let hi = list.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Inspection seconds ↔ the run's milliseconds, through the warp (a plain number is a span,
// mapped linearly).
export function msAt(s, warp) {
  if (typeof warp === 'number') return (s / INSPECTION_SECONDS) * warp;
  const { instants, knots } = warp;
  if (instants.length < 2 || s <= 0) return 0;
  if (s >= INSPECTION_SECONDS) return warp.span;
  const i = stretch(knots, s);
  const f = (s - knots[i - 1]) / (knots[i] - knots[i - 1] || 1);
  return instants[i - 1] + f * (instants[i] - instants[i - 1]);
}
export function secondsAt(tMs, warp) {
  if (typeof warp === 'number') return warp > 0 ? (tMs / warp) * INSPECTION_SECONDS : 0;
  const { instants, knots } = warp;
  if (instants.length < 2 || tMs <= 0) return 0;
  if (tMs >= warp.span) return INSPECTION_SECONDS;
  const i = stretch(instants, tMs);
  if (instants[i] === tMs) return knots[i];
  const f = (tMs - instants[i - 1]) / (instants[i] - instants[i - 1]);
  return knots[i - 1] + f * (knots[i] - knots[i - 1]);
}

// The compressed quiet stretch the playhead is in at inspection time s, as { fromMs, toMs },
// or null: a stretch longer than the QUIET share of the run.
export function gapAt(result, s) {
  const w = warpOf(result);
  if (s <= 0 || s >= INSPECTION_SECONDS || w.instants.length < 2) return null;
  const i = stretch(w.knots, s);
  const fromMs = w.instants[i - 1];
  const toMs = w.instants[i];
  return toMs - fromMs > w.cap ? { fromMs, toMs } : null;
}

// Events at or before virtual time t (a hair of tolerance for the s ↔ ms round trip).
export function countUpTo(events, tMs, span) {
  const limit = tMs + span * 1e-9;
  let n = 0;
  while (n < events.length && events[n].tMs <= limit) n += 1;
  return n;
}

export function shownAt(result, s) {
  if (s <= 0) return 0;
  if (s >= INSPECTION_SECONDS) return result.events.length;
  const span = runSpan(result);
  return countUpTo(result.events, msAt(s, warpOf(result)), span);
}

export function restart(result, speed = 1) {
  return { s: 0, shown: 0, playing: false, speed, autoPaused: false };
}

export function clampSeconds(s) {
  return Math.min(INSPECTION_SECONDS, Math.max(0, s));
}

export function seek(result, playback, s) {
  const clamped = clampSeconds(s);
  return { ...playback, s: clamped, shown: shownAt(result, clamped) };
}

// Reveal the next event and move the playhead to its time. Stepping pauses, as in a player.
export function nextEvent(result, playback) {
  const { events } = result;
  if (playback.shown >= events.length) return { ...playback, playing: false, autoPaused: false, s: INSPECTION_SECONDS };
  const shown = playback.shown + 1;
  const span = runSpan(result);
  const atLast = shown === events.length;
  const s = atLast && span === 0 ? INSPECTION_SECONDS : secondsAt(events[shown - 1].tMs, warpOf(result));
  return { ...playback, playing: false, autoPaused: false, shown, s: Math.max(playback.s, s) };
}

// One clock tick of `dt` wall seconds. With reduced motion the playhead does not glide: it
// stays on the last revealed event and jumps to the next when that event's time comes.
export function advance(result, playback, dt, reducedMotion = false) {
  if (!playback.playing) return playback;
  const clock = clampSeconds((playback.clock ?? playback.s) + dt * playback.speed);
  const ended = clock >= INSPECTION_SECONDS;
  const shown = Math.max(playback.shown, shownAt(result, clock));
  let s = clock;
  if (reducedMotion && !ended) {
    s = shown > 0 ? Math.max(playback.s, secondsAt(result.events[shown - 1].tMs, warpOf(result))) : playback.s;
  }
  return { ...playback, clock: ended ? undefined : clock, s, shown, playing: !ended };
}

export function play(result, playback) {
  // Play at the end starts over, as media players do.
  const fromStart = playback.s >= INSPECTION_SECONDS;
  const base = fromStart ? restart(result, playback.speed) : playback;
  return { ...base, playing: true, autoPaused: false, clock: base.s };
}

export function pause(playback, autoPaused = false) {
  return { ...playback, playing: false, autoPaused, clock: undefined };
}

// What is happening at virtual time t, in words ("attempt 2 in flight").
export function momentPhrase(result, tMs, shown) {
  const { attempts, metrics } = result;
  if (attempts.length === 0) return shown > 0 ? `nothing sent: ${stopBecause(metrics.stopReason)}` : 'nothing is sent';
  if (shown === 0) return 'before attempt 1 is sent';
  for (let i = 0; i < attempts.length; i += 1) {
    const a = attempts[i];
    if (tMs >= a.startMs && tMs < a.endMs) return `attempt ${a.n} in flight`;
    const next = attempts[i + 1];
    if (next && tMs >= a.endMs && tMs < next.startMs) return `waiting before attempt ${next.n}`;
  }
  return `run over: ${metrics.outcome}`;
}
