// Playback maths, pure. A run, however long in virtual milliseconds, spans sixty inspection
// seconds on the slider; Play moves through it event by event (beatAt, below). The playhead is { s, shown }: `s` the inspection time, `shown`
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
  const shown = shownAt(result, clamped);
  // A seek while playing: Play's rhythm goes on from the new place.
  const from = playback.playing ? { from: { shown, tMs: msAt(clamped, warpOf(result)) }, clock: 0, gap: null } : {};
  return { ...playback, s: clamped, shown, ...from };
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

// Play's rhythm (issue 35 item 8): event by event. Each event, once revealed, holds for DWELL
// wall seconds; the run's own time between one event and the next is played as a pause of that
// many seconds, at least MIN_MOVE and never more than MAX_PAUSE: a 200 ms request plays in under
// two seconds, and
// attempt 1's 2.8 s wait for its timeout is a 2 s pause that the readout names ("⋯ 2.8 s
// later ⋯"). Wall seconds are at 1×; a speed divides them. The inspection scale (the warp above)
// stays what the slider, Next event and the marks use: during a pause the playhead glides to
// the next event's inspection second, and with reduced motion it rests on the event before
// and jumps, with the same rhythm.
export const DWELL = 0.6;
export const MAX_PAUSE = 2;
// A stretch in which the run's time passes at all takes at least this long, so that a message
// flying for 200 ms is seen to fly.
export const MIN_MOVE = 0.6;

// Where Play stands `wall` seconds (at 1×) after it started from `from` ({ shown, tMs }: the
// events revealed, and the run's time, when Play was pressed): { shown, s, gap, ended }, `gap`
// the stretch being paused over when it is longer than MAX_PAUSE ({ fromMs, toMs }), else null.
export function beatAt(result, from, wall, reducedMotion = false) {
  const { events } = result;
  const warp = warpOf(result);
  let at = 0; // wall seconds at which the current stretch begins
  let prevMs = from.tMs;
  let s = secondsAt(from.tMs, warp);
  for (let k = from.shown; k < events.length; k += 1) {
    const gapMs = Math.max(0, events[k].tMs - prevMs);
    const pause = gapMs > 0 ? Math.min(MAX_PAUSE, Math.max(MIN_MOVE, gapMs / 1000)) : 0;
    const next = secondsAt(events[k].tMs, warp);
    if (wall < at + pause) {
      const f = pause > 0 ? (wall - at) / pause : 1;
      return {
        shown: k, s: reducedMotion ? s : s + f * (next - s), ended: false,
        gap: gapMs / 1000 > MAX_PAUSE ? { fromMs: prevMs, toMs: events[k].tMs } : null,
      };
    }
    at += pause + DWELL;
    // Several events at one instant each hold for DWELL: the reader sees them one at a time.
    if (wall < at) return { shown: k + 1, s: Math.max(s, next), ended: false, gap: null };
    prevMs = events[k].tMs;
    s = Math.max(s, next);
  }
  return { shown: events.length, s: INSPECTION_SECONDS, ended: true, gap: null };
}

// One clock tick of `dt` wall seconds: Play's rhythm (beatAt), from where Play started.
export function advance(result, playback, dt, reducedMotion = false) {
  if (!playback.playing) return playback;
  const from = playback.from || { shown: playback.shown, tMs: msAt(playback.s, warpOf(result)) };
  const wall = (playback.clock || 0) + dt * playback.speed;
  const beat = beatAt(result, from, wall, reducedMotion);
  return {
    ...playback, from: beat.ended ? undefined : from, clock: beat.ended ? undefined : wall,
    s: beat.ended ? INSPECTION_SECONDS : Math.max(playback.s, beat.s), shown: Math.max(playback.shown, beat.shown), gap: beat.gap,
    playing: !beat.ended,
  };
}

export function play(result, playback) {
  // Play at the end starts over, as media players do.
  const fromStart = playback.s >= INSPECTION_SECONDS;
  const base = fromStart ? restart(result, playback.speed) : playback;
  return { ...base, playing: true, autoPaused: false, clock: 0, from: { shown: base.shown, tMs: msAt(base.s, warpOf(result)) }, gap: null };
}

export function pause(playback, autoPaused = false) {
  return { ...playback, playing: false, autoPaused, clock: undefined, from: undefined, gap: null };
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
