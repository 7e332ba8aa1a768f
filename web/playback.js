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

export const msAt = (s, span) => (s / INSPECTION_SECONDS) * span;
export const secondsAt = (tMs, span) => (span > 0 ? (tMs / span) * INSPECTION_SECONDS : 0);

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
  return countUpTo(result.events, msAt(s, span), span);
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
  const s = atLast && span === 0 ? INSPECTION_SECONDS : secondsAt(events[shown - 1].tMs, span);
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
    const span = runSpan(result);
    s = shown > 0 ? Math.max(playback.s, secondsAt(result.events[shown - 1].tMs, span)) : playback.s;
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
