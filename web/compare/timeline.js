// The two runs on one time axis: a lane per side (Before, After), the attempts as bars and
// the server's side effects as marks, both drawn on the same millisecond scale so that "the
// second charge comes 2,300 ms later" reads straight across. Pure: two results in, a tree out.
// The marks and the tick steps are the single timeline's own (views/timeline.js).

import { h } from '../dom.js';
import { ms, num } from '../format.js';
import { serverMarks, tickStep } from '../views/timeline.js';

const LEFT = 64;
const RIGHT = 16;
const TOP = 26;
const LANE = 46;
const BAR = 18;

// The last instant either run needs: its last event or attempt, and a deadline within reach.
export function sharedEnd(results) {
  let end = 1;
  for (const r of results) {
    for (const e of r.events) end = Math.max(end, e.tMs);
    for (const a of r.attempts) end = Math.max(end, a.endMs);
  }
  const last = end;
  for (const r of results) {
    const d = r.inputs.deadlineMs;
    if (d !== null && d !== undefined && d <= Math.max(last * 1.35, last + 1000)) end = Math.max(end, d);
  }
  return end;
}

const markClass = (kinds) => (kinds.includes('commit') ? 'cmp-mark cmp-mark-commit' : kinds.includes('replay') ? 'cmp-mark cmp-mark-replay' : 'cmp-mark cmp-mark-other');

// The attempts a lane draws: the server's (a stack's bottom layer, docs/layers.md §7: its upper
// layers' rows are calls below, drawn per layer in each side's own figure).
export const serverAttempts = (r) => (r.inputs.layers ? r.attempts.filter((a) => a.layer === r.inputs.layers.length) : r.attempts);

function laneWords(label, r) {
  const n = serverAttempts(r).length;
  const marks = serverMarks(r).map((m) => `${m.text} at ${ms(m.tMs)}`);
  return `${label}: ${n === 1 ? '1 attempt' : `${num(n)} attempts`}${r.inputs.layers ? ' at the server' : ''}, ending at ${ms(r.metrics.elapsedMs)}${marks.length ? `; ${marks.join(', ')}` : ''}`;
}

export function alignedTimelines(sides, { width = 720 } = {}) {
  width = Math.max(240, Math.round(width));
  const plot = width - LEFT - RIGHT;
  const end = sharedEnd(sides.map((s) => s.result));
  const step = tickStep(end, Math.floor(plot / 90));
  const max = Math.ceil(end / step) * step;
  const x = (t) => LEFT + (t / max) * plot;
  const height = TOP + sides.length * LANE + 8;
  const ticks = [];
  for (let t = 0; t <= max + step / 1000; t += step) {
    const lastTick = t + step > max + step / 1000;
    ticks.push(h('g', { class: 'cmp-tick' },
      h('line', { x1: x(t), x2: x(t), y1: TOP - 4, y2: height - 8 }),
      h('text', { x: x(t), y: TOP - 9, 'text-anchor': t === 0 ? 'start' : lastTick ? 'end' : 'middle' }, lastTick ? `${num(t)} ms` : num(t))));
  }
  const lanes = sides.map(({ label, result }, i) => {
    const y = TOP + i * LANE + 8;
    const d = result.inputs.deadlineMs;
    return h('g', { class: 'cmp-lane', 'data-side': label.toLowerCase() },
      h('text', { class: 'cmp-lane-label', x: 4, y: y + BAR / 2 + 4 }, label),
      serverAttempts(result).map((a) => h('rect', {
        class: `cmp-bar ${a.clientClass === 'success' ? 'cmp-bar-ok' : a.clientClass === 'timeout' ? 'cmp-bar-timeout' : 'cmp-bar-error'}`,
        x: x(a.startMs), y, width: Math.max(3, x(a.endMs) - x(a.startMs)), height: BAR, rx: 3, 'data-start': a.startMs, 'data-end': a.endMs,
      })),
      serverMarks(result).map((m) => h('path', {
        class: markClass(m.kinds), 'data-t': m.tMs,
        d: `M${x(m.tMs)} ${y + BAR + 2}L${x(m.tMs) + 6} ${y + BAR + 9}L${x(m.tMs)} ${y + BAR + 16}L${x(m.tMs) - 6} ${y + BAR + 9}Z`,
      })),
      d !== null && d !== undefined && d <= max ? h('line', { class: 'cmp-deadline', x1: x(d), x2: x(d), y1: y - 4, y2: y + BAR + 18 }) : null);
  });
  const words = `Both runs on one time axis, 0 to ${ms(max)}. ${sides.map((s) => laneWords(s.label, s.result)).join('. ')}.`;
  return h('svg', { class: 'cmp-timeline', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': words },
    h('g', { class: 'cmp-axis' }, ticks), lanes);
}
