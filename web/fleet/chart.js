// The storm drawn over time (pure: a virtual tree from dom.js, so it mounts on the page and
// serialises as an SVG download alike). Top: attempts offered per second against the
// server's capacity, the slowdown shaded, successes and timeouts per second; below: the queue.
// Every series has its own dash pattern and a label at its end, so none is told by colour
// alone; the colours are the page's tokens (light and dark), written as CSS classes.

import { h } from '../dom.js';

// 750 wide, the plots as wide as that leaves (each line is labelled at its peak, inside the
// plot, so no margin is kept for labels at the right); the page draws it at the card's width.
// On a phone (issue 35 item 9) the page asks for the box's own width instead, down to MIN_W:
// the chart then fits the screen with its words at 12 px, its series named by the legend
// above it (stormLegend) rather than at their peaks, where a narrow plot has no room.
const W = 750;
const MIN_W = 280;
const RIGHT = 16; // the plots' margin at the right
const RIGHT_AXIS = 44; // the margin with the limiters' send rate's own axis at the right (docs/throttling.md §4.1)
const HEAD = 14; // above the plots: the axes' words
const HEAD_RIGHT = 28; // … and a line more for the right axis's words above its top tick
const LABEL_GAP = 16; // px between two labels' baselines: a 12 px line is 15 px from ascent to descent
const CHAR_W = 7; // a generous width of one character at 12 px, for a label's room
// The plots of a chart `width` wide, and its height: a phone's (narrower than W) shorter, so
// that a gate's switch and the chart drawn after it share a 844 px screen (section.js bringNear).
const plots = (width, right = RIGHT, head = HEAD) => {
  // [the rates' plot, the gap under it, the queue's plot (six decades 16 px apart), the time axis]
  const [top, gap, low, foot] = width < W ? [90, 40, 80, 24] : [200, 48, 100, 30];
  const TOP = { x: 56, y: head, w: width - 56 - right, h: top };
  const LOW = { x: 56, y: TOP.y + top + gap, w: TOP.w, h: low };
  return { TOP, LOW, H: LOW.y + low + foot };
};

function niceMax(v) {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}
const fmt = (n) => (Math.abs(n) >= 1000 ? n.toLocaleString('en-US') : String(Math.round(n * 10) / 10));
const round1 = (n) => Math.round(n * 10) / 10;
// A send rate (sends a second): two decimals below 10 (the limiter's floor is 0.5; a tick at half
// of 2.5 is 1.25), else as fmt.
const fmtRate = (n) => (n < 10 ? String(Math.round(n * 100) / 100) : fmt(n));

// The series the chart draws as lines: [key, label, css class, dash].
export const SERIES = [
  ['offered', 'attempts offered /s', 'fl-offered', ''],
  ['capacity', 'capacity /s', 'fl-capacity', '6 3'],
  ['succeeded', 'successes /s', 'fl-succeeded', '2 2'],
  ['timeouts', 'timeouts /s', 'fl-timeouts', '8 3 2 3'],
  ['throttled', 'throttled (429) /s', 'fl-throttled', '1 3'],
  // docs/throttling.md §4.1: the mean fill rate of the adaptive limiters enabled, on its own axis
  // at the right (sends a second one limiting client may make, not the fleet's).
  ['sendRate', 'limiter’s send rate /s a client (right axis)', 'fl-send-rate', '6 2 1 2'],
];
// A series drawn only where the run has it: the 429s only with an admission limit that gave one;
// the limiters' send rate only once some limiter is enabled.
const drawn = (points, key) => (key === 'throttled' ? points.some((p) => p.throttled > 0)
  : key === 'sendRate' ? points.some((p) => p.sendRate !== null && p.sendRate !== undefined) : true);
// The series on the right-hand axis.
const RIGHT_KEYS = ['sendRate'];
export const seriesDrawn = (points) => SERIES.filter(([key]) => drawn(points, key));

// What the server did each second, drawn as two stacked areas under the capacity line
// (issue 35): the attempts it served whose answer reached a caller still waiting, and those
// answered after the caller had gone (`late`, hatched). [key, label, css class].
export const WORK = [
  ['late', 'served, caller gone /s', 'fl-late'],
  ['inTime', 'served in time /s', 'fl-in-time'],
];

// The time axis, the same for every run of one length (issue 35: two runs compare by eye):
// from 0 to twice the end of new requests (the opening run's queue drains for 58 s after its
// 60 s of new requests), further only when a run's bins go on past that, to a whole tick.
export const timeStep = (endMs) => (endMs > 90000 ? 20000 : 10000);
// The step of a plot `plotW` px wide: doubled until its ticks ("100 s") stand 44 px apart.
const tickStep = (endMs, plotW) => {
  let step = timeStep(endMs);
  while ((plotW * step) / endMs < 44) step *= 2;
  return step;
};
export function timeAxisMs(durationMs, binsEndMs = 0) {
  const fixed = 2 * durationMs;
  if (binsEndMs <= fixed) return fixed;
  const step = timeStep(binsEndMs);
  return Math.ceil(binsEndMs / step) * step;
}

// The queue on a log scale (issue 35): log10(1 + waiting) against a top of a power of ten, at
// least 100,000 (the opening run's peak is 10,819), so a queue of 50 and one of 10,000 are both
// seen on one axis, every run alike.
export function queueTop(peak) {
  let top = 100000;
  while (top < peak) top *= 10;
  return top;
}
const logQ = (v) => Math.log10(1 + Math.max(0, v));

// A text's room: { x0, x1, y0, y1 } for a 12 px line at baseline y, anchored at x.
const room = (x, y, text, anchor = 'start') => {
  const w = text.length * CHAR_W;
  const x0 = anchor === 'end' ? x - w : anchor === 'middle' ? x - w / 2 : x;
  return { x0, x1: x0 + w, y0: y - 12, y1: y + 4 };
};
const clash = (a, b) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

// Each label at its line's peak (issue 35): just above the peak's point, else just below it,
// else stepped away from it a line at a time, inside `box` and clear of every room taken
// (`taken`: the notes' and the labels placed before). Right of the point, or left of it where
// the words would run past the box. `wants`: [{ label, cls, x, y }] in px, in the order placed.
export function peakLabels(wants, box, taken = []) {
  const placed = [];
  const rooms = [...taken];
  for (const w of wants) {
    const width = w.label.length * CHAR_W;
    const left = w.x + 4 + width > box.x + box.w;
    const x = left ? Math.max(box.x + 2, w.x - 4 - width) : Math.max(box.x + 2, w.x + 4);
    const tries = [w.y - 6, w.y + 16];
    for (let k = 1; k <= Math.ceil(box.h / LABEL_GAP); k += 1) tries.push(w.y - 6 - k * LABEL_GAP, w.y + 16 + k * LABEL_GAP);
    const fits = tries.filter((y) => y - 12 >= box.y && y + 4 <= box.y + box.h);
    const y = fits.find((t) => !rooms.some((r) => clash(r, room(x, t, w.label)))) ?? fits[0] ?? box.y + 12;
    rooms.push(room(x, y, w.label));
    placed.push({ ...w, x: round1(x), y: round1(y) });
  }
  return placed;
}

// The series the ghost of the run before draws (issue 35): the storm and what got through.
const GHOSTED = ['offered', 'succeeded'];

// A step line through the points' `key` (a gap where it is null) and a stacked area between two
// of their values, with `xOf`/`yOf` to px.
function stepLine(points, key, xOf, yOf, binMs, endMs) {
  let d = '';
  let open = false;
  for (const p of points) {
    const v = p[key];
    if (v === null || v === undefined) {
      open = false;
      continue;
    }
    const y = round1(yOf(v));
    d += `${open ? 'L' : 'M'}${round1(xOf(p.startMs))} ${y}L${round1(xOf(Math.min(p.startMs + binMs, endMs)))} ${y}`;
    open = true;
  }
  return d;
}
function stepArea(points, lo, hi, xOf, yOf, binMs, endMs) {
  if (!points.length) return '';
  let top = '';
  let bottom = '';
  for (const p of points) {
    const x0 = round1(xOf(p.startMs));
    const x1 = round1(xOf(Math.min(p.startMs + binMs, endMs)));
    top += `${top ? 'L' : 'M'}${x0} ${round1(yOf(hi(p)))}L${x1} ${round1(yOf(hi(p)))}`;
    bottom = `L${x1} ${round1(yOf(lo(p)))}L${x0} ${round1(yOf(lo(p)))}${bottom}`;
  }
  return `${top}${bottom}Z`;
}

// The peak of a series: its point with the largest value (the first of equals).
const peakOf = (points, value) => points.reduce((a, p) => (value(p) > value(a) ? p : a), points[0]);

// The chart's view of stormSeries(result); `cursor`: the bin a keyboard or pointer rests on;
// `ghost`: the run shown before (its stormSeries), drawn faint under this one on the same
// axes, so a change is visible at a glance (its words are in the chart's description).
// `width`: the px the page draws it at where that is less than 750 (a phone): the chart is
// drawn that wide, without the labels at the peaks (the page shows stormLegend above it).
// `ghostName`: what the ghost is, in words ("the run before"; compare mode: "the after run").
/**
 * @param {any} series
 * @param {{ id?: string, cursor?: any, title?: string, ghost?: any, ghostName?: string, width?: number }} [options]
 */
export function stormChart(series, { id, cursor = null, title = 'The storm over time', ghost = null, ghostName = 'the run before', width = W } = {}) {
  const { points, binMs, trigger, durationMs, recovery } = series;
  const wide = Math.max(MIN_W, Math.min(W, Math.round(width) || W));
  const peaksLabelled = wide === W;
  const limited = drawn(points, 'sendRate');
  const { TOP, LOW, H } = plots(wide, limited ? RIGHT_AXIS : RIGHT, limited ? HEAD_RIGHT : HEAD);
  const n = points.length;
  const ghostEnd = ghost && ghost.binMs === binMs ? ghost.points.length * binMs : 0;
  const span = Math.max(n * binMs, ghostEnd);
  const endMs = Math.max(timeAxisMs(durationMs, span), ghostEnd ? timeAxisMs(ghost.durationMs, span) : 0);
  const xOf = (ms) => TOP.x + (TOP.w * ms) / endMs;
  const before = ghost && ghost.binMs === binMs ? ghost.points.filter((p) => p.startMs < endMs) : [];
  // The rate axis is the larger of the two runs' own (a run drawn with the other as its ghost,
  // and that one with this as its ghost, share every axis: compare mode, issue 35).
  const rateOf = (p) => Math.max(p.offered, p.capacity || 0, p.succeeded, p.timeouts, p.served || 0, p.late || 0, p.throttled || 0);
  const rateMax = niceMax(Math.max(1, ...points.map(rateOf), ...before.map(rateOf)));
  const qTop = queueTop(Math.max(0, ...points.map((p) => p.queue), ...before.map((p) => p.queue)));
  const yTop = (v) => TOP.y + TOP.h - (TOP.h * Math.min(v, rateMax)) / rateMax;
  // The limiters' send rate on its own scale (its ticks at the right), from 0 to a nice top.
  const sendMax = limited ? niceMax(Math.max(...points.map((p) => p.sendRate || 0))) : 1;
  const ySend = (v) => TOP.y + TOP.h - (TOP.h * Math.min(v, sendMax)) / sendMax;
  const yOfKey = (key) => (RIGHT_KEYS.includes(key) ? ySend : yTop);
  const yLow = (v) => LOW.y + LOW.h - (LOW.h * logQ(v)) / logQ(qTop);
  const children = [];
  // The notes at the top are drawn last, over the lines, each on a halo of the chart's
  // background (fleet.css): a line that peaks under one does not cross its words.
  const notes = [];
  const rooms = [];
  const note = (x, y, text, anchor = null) => {
    notes.push(h('text', { class: 'fl-note', x, y, 'text-anchor': anchor }, text));
    rooms.push(room(x, y, text, anchor || 'start'));
  };
  children.push(h('title', { id: `${id}-title` }, title));
  children.push(h('defs', {}, h('pattern', { id: `${id}-hatch`, width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
    h('rect', { class: 'fl-late-ground', width: 6, height: 6 }), h('line', { class: 'fl-late-hatch', x1: 0, y1: 0, x2: 0, y2: 6 }))));
  // The slowdown (or outage), shaded, with its words.
  if (trigger && trigger.endMs > trigger.startMs) {
    const x0 = round1(xOf(trigger.startMs));
    const x1 = round1(xOf(Math.min(trigger.endMs, endMs)));
    children.push(h('rect', { class: 'fl-trigger', x: x0, y: TOP.y, width: Math.max(0, x1 - x0), height: LOW.y + LOW.h - TOP.y }));
    note(x0 + 4, TOP.y + 12, trigger.kind === 'outage' ? 'outage' : `slowdown ×${trigger.factor}`);
  }
  // Axes and grid: the rate in halves, the queue in powers of ten.
  const ticks = /** @type {Array<[{ x: number, y: number, w: number, h: number }, Array<[number, string]>, string]>} */ ([[TOP, [0, 0.5, 1].map((f) => [TOP.y + TOP.h - TOP.h * f, fmt(rateMax * f)]), 'per second']]);
  const decades = [0];
  for (let v = 10; v <= qTop; v *= 10) decades.push(v);
  ticks.push([LOW, decades.map((v) => [yLow(v), fmt(v)]), 'queue (log scale)']);
  for (const [box, marks, label] of ticks) {
    children.push(h('line', { class: 'fl-axis', x1: box.x, y1: box.y + box.h, x2: box.x + box.w, y2: box.y + box.h }));
    for (const [yy, text] of marks) {
      const y = round1(yy);
      children.push(h('line', { class: 'fl-grid', x1: box.x, y1: y, x2: box.x + box.w, y2: y }));
      children.push(h('text', { class: 'fl-tick', x: box.x - 6, y: y + 4, 'text-anchor': 'end' }, text));
    }
    children.push(h('text', { class: 'fl-tick', x: box.x, y: box.y - 3 }, label));
  }
  const rightLabel = 'limiter sends /s';
  if (limited) {
    const x = TOP.x + TOP.w;
    children.push(h('line', { class: 'fl-axis fl-send-rate', x1: x, y1: TOP.y, x2: x, y2: TOP.y + TOP.h }));
    for (const f of [0, 0.5, 1]) {
      const y = round1(ySend(sendMax * f));
      children.push(h('line', { class: 'fl-axis fl-send-rate', x1: x, y1: y, x2: x + 4, y2: y }));
      children.push(h('text', { class: 'fl-tick fl-send-rate', x: x + 6, y: y + 4 }, fmtRate(sendMax * f)));
    }
    children.push(h('text', { class: 'fl-tick fl-send-rate', x: wide - 2, y: TOP.y - 15, 'text-anchor': 'end' }, rightLabel));
  }
  const step = tickStep(endMs, TOP.w);
  for (let t = 0; t <= endMs; t += step) {
    children.push(h('text', { class: 'fl-tick', x: round1(xOf(t)), y: LOW.y + LOW.h + 16, 'text-anchor': 'middle' }, `${t / 1000} s`));
  }
  // The marks: the trigger's end, the recovery or the end of new requests.
  const mark = (ms, text, cls, row) => {
    if (ms > endMs) return;
    const x = round1(xOf(ms));
    children.push(h('line', { class: `fl-mark ${cls}`, x1: x, y1: TOP.y, x2: x, y2: LOW.y + LOW.h }));
    // A note that would run into the plot's right edge ends at its line instead; one that
    // fits neither side of its line (a phone's narrow plot) ends at the plot's right edge.
    const width = text.length * CHAR_W;
    const y = TOP.y + 12 + (row + 1) * LABEL_GAP;
    if (x + 4 + width <= TOP.x + TOP.w) note(x + 4, y, text);
    else if (x - 4 - width >= TOP.x) note(x - 4, y, text, 'end');
    else note(Math.max(TOP.x + 2, TOP.x + TOP.w - width), y, text);
  };
  if (recovery) mark(recovery.triggerEndMs, `${series.ended || 'slowdown'} ends ${recovery.triggerEndMs / 1000} s`, 'fl-mark-end', 0);
  // A fleet that rode the trigger out has no recovery to mark (FLEET.md v3 §8 `disrupted`).
  const back = recovery && recovery.disrupted !== false && recovery.recoveredAtMs !== null;
  if (back) mark(recovery.recoveredAtMs, `recovered ${recovery.recoveredAtMs / 1000} s`, 'fl-mark-good', 1);
  mark(durationMs, `new requests stop ${durationMs / 1000} s`, 'fl-mark-stop', back ? 2 : 1);
  // What the server did: the answers too late at the bottom, those in time above them.
  // (A bin padded with nothing, as compare mode pads the shorter run, draws no work.)
  const worked = points.filter((p) => Number.isFinite(p.served) && Number.isFinite(p.late));
  const lateOf = (p) => p.late;
  const doneOf = (p) => p.late + p.inTime;
  children.push(h('path', { class: 'fl-work fl-late', d: stepArea(worked, () => 0, lateOf, xOf, yTop, binMs, endMs), fill: `url(#${id}-hatch)` }));
  children.push(h('path', { class: 'fl-work fl-in-time', d: stepArea(worked, lateOf, doneOf, xOf, yTop, binMs, endMs) }));
  // The run before, faint, under this run's lines, with a word at the top right; its queue an outline.
  if (before.length) {
    for (const [key, , cls, dash] of SERIES.filter(([key]) => GHOSTED.includes(key))) {
      const d = stepLine(before, key, xOf, yTop, binMs, endMs);
      if (d) children.push(h('path', { class: `fl-line fl-ghost ${cls}`, d, fill: 'none', 'stroke-dasharray': dash || null }));
    }
    children.push(h('path', { class: 'fl-ghost fl-ghost-queue', d: stepLine(before, 'queue', xOf, yLow, binMs, endMs), fill: 'none' }));
    children.push(h('text', { class: 'fl-tick fl-ghost-label', x: TOP.x + TOP.w, y: TOP.y - 3, 'text-anchor': 'end' }, `faint: ${ghostName}`));
  }
  // The series, each labelled at its peak (the areas at the middle of their peak's band).
  const wants = [];
  const centre = (p) => xOf(p.startMs + binMs / 2);
  for (const [key, label, cls, dash] of SERIES.filter(([key]) => drawn(points, key))) {
    const yOf = yOfKey(key);
    const d = stepLine(points, key, xOf, yOf, binMs, endMs);
    if (!d) continue;
    children.push(h('path', { class: `fl-line ${cls}`, d, fill: 'none', 'stroke-dasharray': dash || null }));
    const drawn = points.filter((p) => p[key] !== null && p[key] !== undefined);
    const peak = peakOf(drawn, (p) => p[key]);
    wants.push({ label, cls, x: centre(peak), y: yOf(peak[key]) });
  }
  if (worked.length) {
    const latePeak = peakOf(worked, lateOf);
    if (latePeak.late > 0) wants.push({ label: WORK[0][1], cls: WORK[0][2], x: centre(latePeak), y: yTop(latePeak.late) });
    const inPeak = peakOf(worked, (p) => p.inTime);
    if (inPeak.inTime > 0) wants.push({ label: WORK[1][1], cls: WORK[1][2], x: centre(inPeak), y: yTop(doneOf(inPeak)) });
  }
  for (const l of peaksLabelled ? peakLabels(wants, { x: TOP.x, y: TOP.y, w: TOP.w, h: TOP.h }, rooms) : []) {
    children.push(h('text', { class: `fl-label ${l.cls}`, x: l.x, y: l.y }, l.label));
  }
  // The queue as an area, labelled at its peak.
  let qd = `M${TOP.x} ${yLow(0)}`;
  for (const p of points) qd += `L${round1(xOf(p.startMs))} ${round1(yLow(p.queue))}L${round1(xOf(p.startMs + binMs))} ${round1(yLow(p.queue))}`;
  qd += `L${round1(xOf(n * binMs))} ${yLow(0)}Z`;
  children.push(h('path', { class: 'fl-queue', d: qd }));
  if (n && peaksLabelled) {
    const qPeak = peakOf(points, (p) => p.queue);
    const [q] = peakLabels([{ label: 'waiting', cls: 'fl-queue-label', x: centre(qPeak), y: yLow(qPeak.queue) }], { x: LOW.x, y: LOW.y, w: LOW.w, h: LOW.h });
    children.push(h('text', { class: 'fl-label fl-queue-label', x: q.x, y: q.y }, q.label));
  }
  // The cursor.
  if (cursor !== null && points[cursor]) {
    const p = points[cursor];
    const x = round1(xOf(p.startMs));
    children.push(h('rect', { class: 'fl-cursor', x, y: TOP.y, width: Math.max(1, round1(xOf(p.startMs + binMs) - x)), height: LOW.y + LOW.h - TOP.y }));
  }
  children.push(...notes);
  return h('svg', {
    xmlns: 'http://www.w3.org/2000/svg', class: 'fl-chart', viewBox: `0 0 ${wide} ${H}`, width: wide, height: H,
    role: 'img', 'aria-labelledby': `${id}-title ${id}-desc`,
    // The time axis in the chart's units, for the pointer (section.js) to find the second under it.
    'data-plot-x': TOP.x, 'data-plot-w': TOP.w, 'data-axis-ms': endMs, 'data-bin-ms': binMs,
  }, h('desc', { id: `${id}-desc` }, `${stormSummary(series)}${before.length ? ` ${ghostSummary(ghost, ghostName)}` : ''}`), ...children);
}

// The chart's key, for a chart drawn without its labels at the peaks (a phone): each series
// drawn, in the order of the chart's own labels, as { label, cls, dash } for a line or
// { label, cls, area: true } for an area (the work served, the queue).
export function stormLegend(series) {
  const { points } = series;
  const lines = SERIES.filter(([key]) => drawn(points, key) && points.some((p) => p[key] !== null && p[key] !== undefined))
    .map(([, label, cls, dash]) => ({ label, cls, dash }));
  const worked = points.some((p) => Number.isFinite(p.served) && Number.isFinite(p.late));
  const work = worked ? [...WORK].reverse().map(([, label, cls]) => ({ label, cls, area: true })) : [];
  return [...lines, ...work, { label: 'waiting (the queue)', cls: 'fl-queue', area: true }];
}

// The faint run before, in words (the chart's description).
export function ghostSummary(ghost, name = 'the run before') {
  const peak = ghost.points.reduce((a, p) => Math.max(a, p.offered), 0);
  const rec = ghost.recovery;
  const how = !rec ? 'had no slowdown' : rec.disrupted === false ? 'rode it out' : rec.recoveredAtMs !== null ? `recovered ${(rec.recoveredAtMs - rec.triggerEndMs) / 1000} s after the ${ghost.ended || 'slowdown'} ended` : 'was still down when new requests stopped';
  return `The faint lines are ${name === 'the run before' ? 'the run before this change' : name}, for comparison: its attempts offered peaked at ${fmt(peak)} per second, and it ${how}.`;
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
  const work = workSummary(series);
  if (work) parts.push(work);
  const held = heldSummary(series);
  if (held) parts.push(held);
  const send = sendRateSummary(series);
  if (send) parts.push(send);
  if (recovery) parts.push(recovery.disrupted === false ? 'The fleet rode it out: never knocked down.' : recovery.recoveredAtMs !== null ? `Recovered ${(recovery.recoveredAtMs - recovery.triggerEndMs) / 1000} s after the trigger ended, at ${recovery.recoveredAtMs / 1000} s.` : recovery.metastable ? 'It does not recover before new requests stop: a metastable failure.' : 'Not recovered when new requests stop.');
  return parts.join(' ');
}

// What the server did from the trigger's start to the end of new requests, in words: how many
// services it started, and how many of their answers came after the caller had gone (issue 35:
// a metastable failure is a server working flat out while almost nothing it does is used).
export function workSummary(series) {
  const { points, binMs, trigger, durationMs } = series;
  if (!trigger) return '';
  const from = points.filter((p) => p.startMs >= trigger.startMs && p.startMs + binMs <= durationMs);
  const perBin = binMs / 1000;
  const served = Math.round(from.reduce((a, p) => a + (p.served || 0), 0) * perBin);
  const late = Math.round(from.reduce((a, p) => a + (p.late || 0), 0) * perBin);
  if (!from.length || !served) return '';
  const pct = Math.round((100 * late) / served);
  return `From the ${trigger.kind === 'outage' ? 'outage' : 'slowdown'}’s start at ${trigger.startMs / 1000} s to the end of new requests at ${durationMs / 1000} s the server served ${fmt(served)} attempts; ${fmt(late)} answers (${pct} % of that) came after the caller had stopped waiting.`;
}

// The throttling in words (docs/throttling.md §3, §4): how many 429s the server gave, and how
// long an adaptive client's limiter held sends — the latency it trades for fewer errors.
export function heldSummary(series) {
  const perBin = series.binMs / 1000;
  const throttled = Math.round(series.points.reduce((a, p) => a + (p.throttled || 0), 0) * perBin);
  const heldMs = series.points.reduce((a, p) => a + (p.heldMs || 0), 0);
  const parts = [];
  if (throttled) parts.push(`The server answered ${fmt(throttled)} attempts with a 429 (throttled).`);
  if (heldMs) {
    const top = series.points.reduce((a, p) => ((p.heldMs || 0) > (a.heldMs || 0) ? p : a), series.points[0]);
    parts.push(`The clients’ rate limiters held sends for ${fmt(Math.round(heldMs / 100) / 10)} s in all, most in the second from ${top.startMs / 1000} s (${fmt(Math.round(top.heldMs / 100) / 10)} s of waits begun): a send that waits is not refused, but its request takes longer.`);
  }
  return parts.join(' ');
}

// The adaptive limiters' send rate in words (docs/throttling.md §4.1: the bins' `limiting` and
// `sendRate`, the state at each bin's end): when the first limiter was enabled, how many were by
// the end, the lowest mean rate and where, and the rate when new requests stopped.
export function sendRateSummary(series) {
  const { points, binMs, durationMs } = series;
  const on = points.filter((p) => p.sendRate !== null && p.sendRate !== undefined);
  if (!on.length) return '';
  const low = on.reduce((a, p) => (p.sendRate < a.sendRate ? p : a), on[0]);
  const last = points[points.length - 1];
  const stop = points.find((p) => p.startMs + binMs >= durationMs);
  const clients = (n) => `${fmt(n)} ${n === 1 ? 'client' : 'clients'}`;
  const atStop = !stop || stop.sendRate === null || stop.sendRate === undefined ? '' : `, and ${fmtRate(stop.sendRate)} when new requests stopped at ${durationMs / 1000} s`;
  return `After its first throttling answer a client’s limiter holds every send to its rate (the dash-dot line, on its own axis at the right: the mean over the limiting clients, in sends a second each): ${clients(on[0].limiting)} limiting by ${(on[0].startMs + binMs) / 1000} s and ${clients(last.limiting)} at the end; the rate fell to ${fmtRate(low.sendRate)} in the bin ending ${(low.startMs + binMs) / 1000} s${atStop}. So the limiters trade the server’s 429s for waits at the client.`;
}

// The same in the adaptive gate's own words beside its switch, from a result's bins (§4.1).
export function limiterSaid(result) {
  const bins = result.timeline.bins.filter((b) => b.sendRate !== null && b.sendRate !== undefined);
  if (!bins.length) return '';
  const low = Math.min(...bins.map((b) => b.sendRate));
  const n = bins[bins.length - 1].limiting;
  const on = result.request.gates.adaptive.scope === 'fleet' ? 'the fleet’s one limiter was on, its send rate'
    : `${fmt(n)} of ${fmt(result.request.clients)} clients’ limiters ${n === 1 ? 'was' : 'were'} on, their mean send rate`;
  return ` By the end ${on} down to ${fmtRate(low)} a second at its lowest (the chart’s dash-dot line, right axis).`;
}

// One bin in words, for the keyboard cursor's readout.
export function binText(series, i) {
  const p = series.points[i];
  if (!p) return '';
  const s = (ms) => ms / 1000;
  return `${s(p.startMs)}–${s(p.startMs + series.binMs)} s: ${fmt(p.offered)} attempts offered per second (${fmt(p.retries)} retries), ` +
    `capacity ${p.capacity === null ? 'unlimited' : fmt(p.capacity)}, ${fmt(p.served)} served (${fmt(p.late)} answers after the caller had gone), ${fmt(p.succeeded)} successes, ${fmt(p.timeouts)} timeouts${p.throttled ? `, ${fmt(p.throttled)} throttled (429)` : ''} per second; ${fmt(p.queue)} waiting at its end` +
    `${p.heldMs ? `; the rate limiters began ${fmt(Math.round(p.heldMs / 100) / 10)} s of waits` : ''}` +
    `${p.sendRate !== null && p.sendRate !== undefined ? `; ${fmt(p.limiting)} limiting, at ${fmtRate(p.sendRate)} sends a second each (mean)` : ''}.`;
}

// The data table's rows (and the CSV's): one per bin.
export const TABLE_COLUMNS = ['from (s)', 'attempts offered /s', 'of them retries /s', 'capacity /s', 'served /s', 'answers after the caller had gone /s', 'successes /s', 'timeouts /s', 'waiting at end'];
// The columns of a run's table: the throttling's two where the run has them.
const THROTTLING = (series) => [
  ...(series.points.some((p) => p.throttled > 0) ? [['throttled (429) /s', (p) => fmt(p.throttled)]] : []),
  ...(series.points.some((p) => p.heldMs > 0) ? [['waits begun by the rate limiters (s)', (p) => fmt(Math.round((p.heldMs || 0) / 100) / 10)]] : []),
  // docs/throttling.md §4.1: the limiters enabled at the bin's end and their mean send rate.
  ...(drawn(series.points, 'sendRate') ? [
    ['clients limiting at end', (p) => fmt(p.limiting || 0)],
    ['limiter’s send rate /s a client (mean)', (p) => (p.sendRate === null || p.sendRate === undefined ? '–' : fmtRate(p.sendRate))],
  ] : []),
];
export const tableColumns = (series) => [...TABLE_COLUMNS, ...THROTTLING(series).map(([name]) => name)];
export function tableRows(series) {
  const more = THROTTLING(series);
  return series.points.map((p) => [p.startMs / 1000, fmt(p.offered), fmt(p.retries), p.capacity === null ? 'unlimited' : fmt(p.capacity), fmt(p.served), fmt(p.late), fmt(p.succeeded), fmt(p.timeouts), fmt(p.queue), ...more.map(([, f]) => /** @type {(p: any) => string} */ (f)(p))]);
}
