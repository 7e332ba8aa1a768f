// The storm drawn over time (pure: a virtual tree from dom.js, so it mounts on the page and
// serialises as an SVG download alike). Top: attempts offered per second against the
// server's capacity, the slowdown shaded, successes and timeouts per second; below: the queue.
// Every series has its own dash pattern and a label at its end, so none is told by colour
// alone; the colours are the page's tokens (light and dark), written as CSS classes.

import { h } from '../dom.js';

// 750 wide: the series' labels at the right of the 560 px plot need 120 px ("attempts
// offered /s" ran past a 720 px edge).
const W = 750;
const LABEL_GAP = 16; // px between two labels' baselines: a 12 px line is 15 px from ascent to descent
const CHAR_W = 7; // a generous width of one character at 12 px, for a note near the edge
const TOP = { x: 56, y: 14, w: 560, h: 200 };
const LOW = { x: 56, y: 262, w: 560, h: 80 };
const H = 372;

function niceMax(v) {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}
const fmt = (n) => (Math.abs(n) >= 1000 ? n.toLocaleString('en-US') : String(Math.round(n * 10) / 10));
const round1 = (n) => Math.round(n * 10) / 10;

// The series the chart draws: [key, label, css class, dash].
export const SERIES = [
  ['offered', 'attempts offered /s', 'fl-offered', ''],
  ['capacity', 'capacity /s', 'fl-capacity', '6 3'],
  ['succeeded', 'successes /s', 'fl-succeeded', '2 2'],
  ['timeouts', 'timeouts /s', 'fl-timeouts', '8 3 2 3'],
];

// The labels at the right edge, none closer than LABEL_GAP to the next: in the order of their
// heights, each pushed down below the one above it, then, where the last runs past `bottom`,
// each pushed back up above the one below it (never above `top`, room allowing). Each stays
// as near its line's end as that lets it.
export function spreadLabels(labels, top, bottom) {
  const out = labels.map((l, i) => ({ ...l, want: l.y, i })).sort((a, b) => a.want - b.want || a.i - b.i);
  out.forEach((l, k) => { l.y = Math.max(l.want, top, k ? out[k - 1].y + LABEL_GAP : -Infinity); });
  for (let k = out.length - 1; k >= 0; k -= 1) {
    const limit = k === out.length - 1 ? bottom : out[k + 1].y - LABEL_GAP;
    if (out[k].y > limit) out[k].y = limit;
  }
  return out;
}

// The series the ghost of the run before draws (issue 35): the storm and what got through.
const GHOSTED = ['offered', 'succeeded'];

// The chart's view of stormSeries(result); `cursor`: the bin a keyboard or pointer rests on;
// `ghost`: the run shown before (its stormSeries), drawn faint under this one on the same
// axes, so a change is visible at a glance (its words are in the chart's description).
export function stormChart(series, { id, cursor = null, title = 'The storm over time', ghost = null } = {}) {
  const { points, binMs, trigger, durationMs, recovery } = series;
  const n = points.length;
  // The time axis runs to the later end of the two runs, so the run before is drawn whole.
  const endMs = Math.max(n, ghost && ghost.binMs === binMs ? ghost.points.length : 0) * binMs;
  const xOf = (ms) => TOP.x + (TOP.w * ms) / endMs;
  const before = ghost ? ghost.points.filter((p) => p.startMs < endMs) : [];
  const rateMax = niceMax(Math.max(1, ...points.map((p) => Math.max(p.offered, p.capacity || 0, p.succeeded, p.timeouts)), ...before.map((p) => Math.max(p.offered, p.succeeded))));
  const queueMax = niceMax(Math.max(1, ...points.map((p) => p.queue), ...before.map((p) => p.queue)));
  const yTop = (v) => TOP.y + TOP.h - (TOP.h * Math.min(v, rateMax)) / rateMax;
  const yLow = (v) => LOW.y + LOW.h - (LOW.h * v) / queueMax;
  const line = (key, from = points) => {
    let d = '';
    let open = false;
    for (const p of from) {
      const v = p[key];
      if (v === null || v === undefined) {
        open = false;
        continue;
      }
      const x0 = round1(xOf(p.startMs));
      const x1 = round1(xOf(Math.min(p.startMs + binMs, endMs)));
      const y = round1(yTop(v));
      d += `${open ? 'L' : 'M'}${x0} ${y}L${x1} ${y}`;
      open = true;
    }
    return d;
  };
  const children = [];
  // The notes at the top are drawn last, over the lines, each on a halo of the chart's
  // background (fleet.css): a line that peaks under one does not cross its words.
  const notes = [];
  children.push(h('title', { id: `${id}-title` }, title));
  // The slowdown (or outage), shaded, with its words.
  if (trigger && trigger.endMs > trigger.startMs) {
    const x0 = round1(xOf(trigger.startMs));
    const x1 = round1(xOf(Math.min(trigger.endMs, endMs)));
    children.push(h('rect', { class: 'fl-trigger', x: x0, y: TOP.y, width: Math.max(0, x1 - x0), height: TOP.h + (LOW.y - TOP.y) + LOW.h }));
    notes.push(h('text', { class: 'fl-note', x: x0 + 4, y: TOP.y + 12 }, trigger.kind === 'outage' ? 'outage' : `slowdown ×${trigger.factor}`));
  }
  // Axes and grid.
  for (const [box, max, label] of [[TOP, rateMax, 'per second'], [LOW, queueMax, 'queue']]) {
    children.push(h('line', { class: 'fl-axis', x1: box.x, y1: box.y + box.h, x2: box.x + box.w, y2: box.y + box.h }));
    for (const f of [0, 0.5, 1]) {
      const y = round1(box.y + box.h - box.h * f);
      children.push(h('line', { class: 'fl-grid', x1: box.x, y1: y, x2: box.x + box.w, y2: y }));
      children.push(h('text', { class: 'fl-tick', x: box.x - 6, y: y + 4, 'text-anchor': 'end' }, fmt(max * f)));
    }
    children.push(h('text', { class: 'fl-tick', x: box.x, y: box.y - 3 }, label));
  }
  const step = endMs > 90000 ? 20000 : 10000;
  for (let t = 0; t <= endMs; t += step) {
    children.push(h('text', { class: 'fl-tick', x: round1(xOf(t)), y: LOW.y + LOW.h + 16, 'text-anchor': 'middle' }, `${t / 1000} s`));
  }
  // The marks: the trigger's end, the recovery or the end of new requests.
  const mark = (ms, text, cls, row) => {
    if (ms > endMs) return;
    const x = round1(xOf(ms));
    children.push(h('line', { class: `fl-mark ${cls}`, x1: x, y1: TOP.y, x2: x, y2: LOW.y + LOW.h }));
    // A note that would run into the labels at the right ends at its line instead.
    const end = x + 4 + text.length * CHAR_W > TOP.x + TOP.w;
    notes.push(h('text', { class: 'fl-note', x: end ? x - 4 : x + 4, y: TOP.y + 12 + (row + 1) * LABEL_GAP, 'text-anchor': end ? 'end' : null }, text));
  };
  if (recovery) mark(recovery.triggerEndMs, `slowdown ends ${recovery.triggerEndMs / 1000} s`, 'fl-mark-end', 0);
  // A fleet that rode the trigger out has no recovery to mark (FLEET.md v3 §8 `disrupted`).
  const back = recovery && recovery.disrupted !== false && recovery.recoveredAtMs !== null;
  if (back) mark(recovery.recoveredAtMs, `recovered ${recovery.recoveredAtMs / 1000} s`, 'fl-mark-good', 1);
  mark(durationMs, `new requests stop ${durationMs / 1000} s`, 'fl-mark-stop', back ? 2 : 1);
  // The run before, faint, under this run's lines, with a word at the top right; its queue an outline.
  if (before.length) {
    for (const [key, , cls, dash] of SERIES.filter(([key]) => GHOSTED.includes(key))) {
      const d = line(key, before);
      if (d) children.push(h('path', { class: `fl-line fl-ghost ${cls}`, d, fill: 'none', 'stroke-dasharray': dash || null }));
    }
    let gq = '';
    for (const p of before) gq += `${gq ? 'L' : 'M'}${round1(xOf(p.startMs))} ${round1(yLow(p.queue))}L${round1(xOf(Math.min(p.startMs + binMs, endMs)))} ${round1(yLow(p.queue))}`;
    children.push(h('path', { class: 'fl-ghost fl-ghost-queue', d: gq, fill: 'none' }));
    children.push(h('text', { class: 'fl-tick fl-ghost-label', x: TOP.x + TOP.w, y: TOP.y - 3, 'text-anchor': 'end' }, 'faint: the run before'));
  }
  // The series, each with its label at the right, at its line's last height.
  const labels = [];
  for (const [key, label, cls, dash] of SERIES) {
    const d = line(key);
    if (!d) continue;
    children.push(h('path', { class: `fl-line ${cls}`, d, fill: 'none', 'stroke-dasharray': dash || null }));
    const last = [...points].reverse().find((p) => p[key] !== null && p[key] !== undefined);
    labels.push({ y: yTop(last ? last[key] : 0), label, cls });
  }
  for (const l of spreadLabels(labels, TOP.y + 6, TOP.y + TOP.h + 20)) {
    children.push(h('text', { class: `fl-label ${l.cls}`, x: TOP.x + TOP.w + 4, y: round1(l.y + 4) }, l.label));
  }
  // The queue as an area.
  let qd = `M${TOP.x} ${yLow(0)}`;
  for (const p of points) qd += `L${round1(xOf(p.startMs))} ${round1(yLow(p.queue))}L${round1(xOf(p.startMs + binMs))} ${round1(yLow(p.queue))}`;
  qd += `L${round1(xOf(endMs))} ${yLow(0)}Z`;
  children.push(h('path', { class: 'fl-queue', d: qd }));
  children.push(h('text', { class: 'fl-label fl-queue-label', x: LOW.x + LOW.w + 4, y: LOW.y + 12 }, 'waiting'));
  // The cursor.
  if (cursor !== null && points[cursor]) {
    const p = points[cursor];
    const x = round1(xOf(p.startMs));
    children.push(h('rect', { class: 'fl-cursor', x, y: TOP.y, width: Math.max(1, round1(xOf(p.startMs + binMs) - x)), height: LOW.y + LOW.h - TOP.y }));
  }
  children.push(...notes);
  return h('svg', {
    xmlns: 'http://www.w3.org/2000/svg', class: 'fl-chart', viewBox: `0 0 ${W} ${H}`, width: W, height: H,
    role: 'img', 'aria-labelledby': `${id}-title ${id}-desc`,
  }, h('desc', { id: `${id}-desc` }, `${stormSummary(series)}${before.length ? ` ${ghostSummary(ghost)}` : ''}`), ...children);
}

// The faint run before, in words (the chart's description).
export function ghostSummary(ghost) {
  const peak = ghost.points.reduce((a, p) => Math.max(a, p.offered), 0);
  const rec = ghost.recovery;
  const how = !rec ? 'had no slowdown' : rec.disrupted === false ? 'rode it out' : rec.recoveredAtMs !== null ? `recovered ${(rec.recoveredAtMs - rec.triggerEndMs) / 1000} s after the slowdown ended` : 'was still down when new requests stopped';
  return `The faint lines are the run before this change, for comparison: its attempts offered peaked at ${fmt(peak)} per second, and it ${how}.`;
}

// The chart in words: what a screen reader hears, and the text beside the chart.
export function stormSummary(series) {
  const { points, binMs, trigger, recovery } = series;
  if (!points.length) return 'No bins.';
  const peak = points.reduce((a, p) => (p.offered > a.offered ? p : a), points[0]);
  const qPeak = points.reduce((a, p) => (p.queue > a.queue ? p : a), points[0]);
  const parts = [];
  if (trigger) parts.push(`A ${trigger.kind === 'outage' ? 'outage' : `slowdown ×${trigger.factor}`} from ${trigger.startMs / 1000} s to ${trigger.endMs / 1000} s.`);
  parts.push(`Attempts offered peak at ${fmt(peak.offered)} per second in the bin from ${peak.startMs / 1000} s.`);
  const cap = points.find((p) => p.capacity !== null);
  if (cap) parts.push(`The server can serve ${fmt(cap.capacity)} per second outside the slowdown.`);
  parts.push(`The queue peaks at ${fmt(qPeak.queue)} waiting attempts at ${(qPeak.startMs + binMs) / 1000} s.`);
  if (recovery) parts.push(recovery.disrupted === false ? 'The fleet rode it out: never knocked down.' : recovery.recoveredAtMs !== null ? `Recovered ${(recovery.recoveredAtMs - recovery.triggerEndMs) / 1000} s after the trigger ended, at ${recovery.recoveredAtMs / 1000} s.` : recovery.metastable ? 'It does not recover before new requests stop: a metastable failure.' : 'Not recovered when new requests stop.');
  return parts.join(' ');
}

// One bin in words, for the keyboard cursor's readout.
export function binText(series, i) {
  const p = series.points[i];
  if (!p) return '';
  const s = (ms) => ms / 1000;
  return `${s(p.startMs)}–${s(p.startMs + series.binMs)} s: ${fmt(p.offered)} attempts offered per second (${fmt(p.retries)} retries), ` +
    `capacity ${p.capacity === null ? 'unlimited' : fmt(p.capacity)}, ${fmt(p.succeeded)} successes, ${fmt(p.timeouts)} timeouts per second; ${fmt(p.queue)} waiting at its end.`;
}

// The data table's rows (and the CSV's): one per bin.
export const TABLE_COLUMNS = ['from (s)', 'attempts offered /s', 'of them retries /s', 'capacity /s', 'successes /s', 'timeouts /s', 'waiting at end'];
export function tableRows(series) {
  return series.points.map((p) => [p.startMs / 1000, fmt(p.offered), fmt(p.retries), p.capacity === null ? 'unlimited' : fmt(p.capacity), fmt(p.succeeded), fmt(p.timeouts), fmt(p.queue)]);
}
