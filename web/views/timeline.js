// The event trace as an SVG timeline on a millisecond axis, pure: result + width in, a tree
// and its x-scale out. Two lanes: what the client did (attempt bars, the waits between them
// with their rule) and what the server did (charges, replays, errors, lost messages), the
// overall deadline as a line. Labels are packed into rows so none overlaps another. Each label
// belongs to an event (data-event, its index in the run's events) or an instant (data-at, ms)
// and is drawn over the playhead's veil, shaded as future whole until the playhead reveals
// its event (shadeLabels), never split where the veil's edge crosses it.

import { h } from '../dom.js';
import { ms, num } from '../format.js';
import { eventText } from './events.js';

/** @typedef {import('retrylab-types').ComputeSuccess} Run */

const MARGIN = { left: 64, right: 16, top: 26, bottom: 10 };
const ROW = 18; // height of one row of labels
const BAR = 28; // height of an attempt bar
const CHAR = 7.4; // a generous width of one character at the labels' 12px (some are bold)
const GAP = 8;
const MAX_ROWS = 4; // past this, labels give way: the list and the table carry every detail

// A round step for about `target` ticks over [0, max]: 1, 2, 2.5 or 5 × 10^k.
export function tickStep(max, target) {
  const raw = max / Math.max(1, target);
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * power >= raw) return m * power;
  return 10 * power;
}

// The last instant any mark needs, and the deadline if it is close enough to be worth the room.
/** @param {Run} result */
export function domain(result, plotWidth) {
  let last = 0;
  for (const e of result.events) last = Math.max(last, e.tMs);
  for (const a of result.attempts) last = Math.max(last, a.endMs);
  const deadline = result.inputs.deadlineMs;
  const deadlineShown = deadline !== null && deadline !== undefined && deadline <= Math.max(last * 1.35, last + 1000);
  const end = Math.max(last, deadlineShown ? deadline : 0, 1);
  const step = tickStep(end, Math.floor(plotWidth / 90));
  return { max: Math.ceil(end / step) * step, step, deadlineShown };
}

// Greedy rows: each label takes the first row where it overlaps no other label. Centred
// labels sit over their span; every label stays inside the plot, and one that would overflow
// the right edge ends there instead. A label with a `short` form that finds no row in full
// (or is wider than the plot) takes a row in its short form; one that still finds none is
// left out (the list and the table carry every detail).
export function packRows(labels, width, maxRows = Infinity) {
  const limit = width - MARGIN.right;
  const size = (label, text) => {
    const w = text.length * CHAR;
    const wanted = label.align === 'middle' ? Math.max(MARGIN.left, label.x - w / 2) : label.x;
    const anchorEnd = wanted + w > limit;
    const left = Math.max(MARGIN.left, anchorEnd ? limit - w : wanted);
    return { ...label, text, anchorEnd, left, right: left + w, fits: w <= limit - MARGIN.left };
  };
  const sized = labels.map((label) => size(label, label.text));
  // Marks first, then waits above the bars (0.5), then notes (priority 1, such as a far
  // deadline), left to right within each.
  sized.sort((a, b) => (a.priority || 0) - (b.priority || 0) || a.left - b.left);
  const rows = [];
  const placed = [];
  const omitted = [];
  const clear = (row, label) => row.every((o) => label.left >= o.right + GAP || label.right + GAP <= o.left);
  const rowFor = (label) => {
    if (!label.fits) return -1;
    const row = rows.findIndex((r) => clear(r, label));
    return row !== -1 || rows.length >= maxRows ? row : rows.push([]) - 1;
  };
  for (const full of sized) {
    let label = full;
    let row = rowFor(label);
    if (row === -1 && full.short) {
      label = size(full, full.short);
      row = rowFor(label);
    }
    if (row === -1) {
      omitted.push(full);
      continue;
    }
    rows[row].push(label);
    placed.push({ ...label, row });
  }
  return { placed, rows: rows.length, omitted };
}

const commitWord = (operation) => (operation === 'create' ? 'record' : 'charge');

// Server-side marks: one per (attempt, instant), their words joined ("charge #1, response lost").
/** @param {Run} result */
export function serverMarks(result) {
  const marks = [];
  const word = commitWord(result.inputs.operation);
  result.events.forEach((e, i) => {
    let text = null;
    let kind = e.kind;
    if (e.kind === 'commit') text = `${word} #${result.attempts[e.attempt - 1].chargeNumber}`;
    else if (e.kind === 'replay') text = 'replay';
    else if (e.kind === 'conflict') text = '409 conflict';
    else if (e.kind === 'server-error') text = (result.attempts[e.attempt - 1] || {}).server || 'error';
    else if (e.kind === 'response-lost') text = 'response lost';
    else if (e.kind === 'request-lost') text = 'request lost';
    if (text === null) return;
    const same = marks.find((m) => m.attempt === e.attempt && m.tMs === e.tMs);
    if (same) {
      same.text += `, ${text}`;
      same.kinds.push(kind);
      same.event = i;
    } else {
      marks.push({ tMs: e.tMs, attempt: e.attempt, text, kinds: [kind], event: i });
    }
  });
  return marks;
}

// A wait's label, with the rule that made it where the plot has room for it (at most half
// its width), its short form ("wait 500 ms") otherwise.
function waitLabel(a, plot) {
  const short = `wait ${ms(a.waitAfterMs)}`;
  const full = a.waitRule ? `${short} (${eventText(a.waitRule)})` : short;
  return full.length * CHAR <= plot / 2 ? { text: full, short } : { text: short };
}

function barClass(a) {
  if (a.clientClass === 'timeout') return 'tl-bar tl-bar-timeout';
  if (a.clientClass === 'success') return 'tl-bar tl-bar-ok';
  return 'tl-bar tl-bar-error';
}

function glyph(kinds, x, y) {
  const k = kinds[0];
  if (k === 'commit') return h('path', { class: 'tl-mark tl-mark-commit', d: `M${x} ${y - 7}L${x + 7} ${y}L${x} ${y + 7}L${x - 7} ${y}Z` });
  if (k === 'replay') return h('circle', { class: 'tl-mark tl-mark-replay', cx: x, cy: y, r: 6 });
  if (k === 'response-lost' || k === 'request-lost') {
    return h('path', { class: 'tl-mark tl-mark-lost', d: `M${x - 5} ${y - 5}L${x + 5} ${y + 5}M${x + 5} ${y - 5}L${x - 5} ${y + 5}` });
  }
  return h('rect', { class: 'tl-mark tl-mark-error', x: x - 5.5, y: y - 5.5, width: 11, height: 11 });
}

/** @param {Run} result */
export function summary(result) {
  const parts = result.attempts.map((a, i) => {
    const wait = a.waitAfterMs !== null && result.attempts[i + 1] ? `; wait ${ms(a.waitAfterMs)}` : '';
    return `attempt ${a.n} from ${ms(a.startMs)} to ${ms(a.endMs)}, client saw ${a.clientSaw}${wait}`;
  });
  const marks = serverMarks(result).map((m) => `at ${ms(m.tMs)}, ${m.text}`);
  const head = `Timeline of ${result.attempts.length === 1 ? '1 attempt' : `${num(result.attempts.length)} attempts`}`;
  return `${head}. ${parts.join('; ') || 'Nothing sent'}. Server: ${marks.join('; ') || 'nothing happened'}.`;
}

/** @param {Run} result */
export function timelineView(result, { width = 720 } = {}) {
  width = Math.max(300, Math.round(width));
  const plot = width - MARGIN.left - MARGIN.right;
  const dom = domain(result, plot);
  const x = (t) => MARGIN.left + (t / dom.max) * plot;
  const { attempts, events } = result;
  // The event a label belongs to: an attempt's label names what the client saw, so it is the
  // attempt's end (its answer, timeout or deadline); a wait's, the wait.
  const eventOf = (n, kinds) => {
    const i = events.findIndex((e) => e.attempt === n && kinds.includes(e.kind));
    return i === -1 ? null : i;
  };
  const END = ['receive', 'timeout', 'deadline'];

  // A hedged run's attempts overlap (docs/throttling.md §6.1): they share the bar's height, each
  // in the first row free at its start, their labels above. Any other run has one row, as before.
  const rowOf = [];
  const rowEnds = [];
  if (result.metrics.hedges !== undefined) {
    for (const a of attempts) {
      let r = rowEnds.findIndex((end) => end <= a.startMs);
      if (r === -1) r = rowEnds.push(0) - 1;
      rowEnds[r] = a.endMs;
      rowOf.push(r);
    }
  }
  const barRows = Math.max(1, rowEnds.length);
  const barH = BAR / barRows;
  const barTop = (i) => barY + (rowOf[i] || 0) * barH;

  // Client lane: labels above the bars.
  const clientLabels = [];
  const inBar = [];
  const onArrow = [];
  attempts.forEach((a, i) => {
    // An attempt's label goes inside its bar when it fits, above it otherwise.
    const text = `attempt ${a.n} · ${a.clientSaw}`;
    const event = eventOf(a.n, END);
    if (barRows === 1 && x(a.endMs) - x(a.startMs) >= text.length * CHAR + 12) inBar.push({ a, text, event });
    else clientLabels.push({ x: x(a.startMs), text, cls: 'tl-label tl-label-attempt', event, at: a.endMs });
    if (a.waitAfterMs !== null && attempts[i + 1] && attempts[i + 1].startMs >= a.endMs) {
      // A wait's label stands on its arrow, between the two bars, where it fits there (in full,
      // else short); else above, with the attempts' (issue 35 item 10: stacked in rows above,
      // "HTTP 400, retrying every failure"'s waits pushed the attempts' labels away from their bars).
      const wait = { ...waitLabel(a, plot), cls: 'tl-label tl-label-wait', event: eventOf(a.n, ['wait']), at: a.endMs };
      const room = x(attempts[i + 1].startMs) - x(a.endMs) - 14;
      const fits = [wait.text, wait.short].find((t) => t && t.length * CHAR <= room);
      if (barRows === 1 && fits) onArrow.push({ ...wait, text: fits, x: (x(a.endMs) + x(attempts[i + 1].startMs)) / 2 });
      else clientLabels.push({ x: (x(a.endMs) + x(attempts[i + 1].startMs)) / 2, align: 'middle', priority: 0.5, ...wait });
    }
  });
  const client = packRows(clientLabels, width, MAX_ROWS);
  const laneTop = MARGIN.top + 6;
  const barY = laneTop + client.rows * ROW + 6;

  // Server lane: marks below the bars, their labels below the marks.
  const marks = serverMarks(result);
  const deadline = result.inputs.deadlineMs;
  /** @type {Array<{ x: number, text: string, cls: string, mark?: any, event: any, at: number, priority?: number }>} */
  const serverLabels = marks.map((m) => ({ x: x(m.tMs), text: m.text, cls: 'tl-label tl-label-server', mark: m, event: m.event, at: m.tMs }));
  // The deadline's label belongs to its instant (the run may stop before it).
  if (dom.deadlineShown) serverLabels.push({ x: x(deadline) + 4, text: `deadline ${ms(deadline)}`, cls: 'tl-label tl-deadline-label', event: null, at: deadline });
  else if (deadline !== null && deadline !== undefined) serverLabels.push({ x: width, priority: 1, text: `deadline ${ms(deadline)} →`, cls: 'tl-label tl-deadline-label', event: null, at: deadline });
  const server = packRows(serverLabels, width, MAX_ROWS);
  const serverY = barY + BAR + 22;
  const serverLabelTop = serverY + 12;
  const height = serverLabelTop + Math.max(1, server.rows) * ROW + MARGIN.bottom;

  const ticks = [];
  for (let t = 0; t <= dom.max + dom.step / 1000; t += dom.step) {
    ticks.push(h('g', { class: 'tl-tick' },
      h('line', { x1: x(t), x2: x(t), y1: MARGIN.top - 4, y2: height - MARGIN.bottom }),
      h('text', { x: x(t), y: MARGIN.top - 9, 'text-anchor': t === 0 ? 'start' : t + dom.step > dom.max + dom.step / 1000 ? 'end' : 'middle' }, t + dom.step > dom.max + dom.step / 1000 ? `${num(t)} ms` : num(t))));
  }

  const owner = (l) => (l.event !== null && l.event !== undefined ? { 'data-event': l.event } : { 'data-at': l.at });
  // `rows`: the client's, whose labels stand above the bars, so row 0 (the first a label finds,
  // the attempts' before later ones) is the one nearest the bars; the server's row 0 is its top.
  const label = (l, top, rows = 0) => h('text', {
    class: l.cls, x: l.anchorEnd ? l.right : l.left, y: top + (rows ? rows - 1 - l.row : l.row) * ROW + 12, 'text-anchor': l.anchorEnd ? 'end' : 'start', ...owner(l),
  }, l.text);

  const deadlineMark = dom.deadlineShown
    ? h('line', { class: 'tl-deadline', x1: x(deadline), x2: x(deadline), y1: MARGIN.top - 4, y2: height - MARGIN.bottom })
    : null;

  const tree = h('svg', {
    class: 'timeline', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': summary(result),
  },
  h('g', { class: 'tl-axis' }, ticks),
  h('text', { class: 'tl-lane', x: 4, y: barY + BAR / 2 + 4 }, 'Client'),
  h('text', { class: 'tl-lane', x: 4, y: serverY + 4 }, 'Server'),
  h('line', { class: 'tl-server-line', x1: MARGIN.left, x2: width - MARGIN.right, y1: serverY, y2: serverY }),
  attempts.map((a, i) => {
    // The wait to the next attempt, when it follows this one's end (a hedge's does not).
    const next = attempts[i + 1] && attempts[i + 1].startMs >= a.endMs ? attempts[i + 1] : null;
    const y = barTop(i) + barH / 2;
    return h('g', { class: 'tl-attempt', 'data-start': a.startMs, 'data-end': a.endMs },
      h('rect', { class: barClass(a), x: x(a.startMs), y: barTop(i), width: Math.max(3, x(a.endMs) - x(a.startMs)), height: barH, rx: 3 }),
      next ? h('line', { class: 'tl-wait', x1: x(a.endMs), x2: x(next.startMs), y1: y, y2: y }) : null,
      next ? h('path', { class: 'tl-wait-end', d: `M${x(next.startMs) - 5} ${y - 4}L${x(next.startMs)} ${y}L${x(next.startMs) - 5} ${y + 4}` }) : null);
  }),
  marks.map((m) => h('g', { class: 'tl-server-mark' },
    h('line', { class: 'tl-stem', x1: x(m.tMs), x2: x(m.tMs), y1: barY + BAR, y2: serverY }),
    glyph(m.kinds, x(m.tMs), serverY))),
  deadlineMark,
  // The veil and the line as explorable/run-view.js's playhead leaves them at the start (the veil a
  // mark's half-width, 8 px, after the line), so a page drawn by the build is not redrawn (issue 18).
  h('rect', { class: 'tl-veil', 'data-playhead': 'veil', x: x(0) + 8, y: MARGIN.top - 4, width: Math.max(0, plot - 8), height: height - MARGIN.top - MARGIN.bottom + 4 }),
  // The labels over the veil: each shaded whole, with its event (shadeLabels).
  inBar.map(({ a, text, event }) => h('text', { class: `tl-label tl-label-inbar ${barClass(a).replace('tl-bar ', 'on-')}`, x: x(a.startMs) + 7, y: barY + BAR / 2 + 4, ...owner({ event, at: a.endMs }) }, text)),
  onArrow.map((l) => h('text', { class: `${l.cls} tl-label-on-arrow`, x: l.x, y: barY + BAR / 2 - 4, 'text-anchor': 'middle', ...owner(l) }, l.text)),
  client.placed.map((l) => label(l, laneTop, client.rows)),
  server.placed.map((l) => label(l, serverLabelTop)),
  // The playhead runs from the bars' lower edge through the server's marks: the rows of labels
  // above the bars, the labels inside them and those below the marks stay clear of it, so no
  // label is struck through as the run plays (in the bars the veil's edge marks the time).
  h('line', { class: 'tl-playhead', 'data-playhead': 'line', x1: x(0), x2: x(0), y1: barY + BAR, y2: serverY + 9, visibility: 'visible' }));

  return { tree, scale: { x0: MARGIN.left, plot, max: dom.max, right: width - MARGIN.right } };
}

// The timeline's labels, each with the event or instant it belongs to, as mounted: what
// shadeLabels reads on every frame.
export function labelOwners(svgRoot) {
  return [...svgRoot.querySelectorAll('text[data-event], text[data-at]')].map((el) => ({
    el, event: el.hasAttribute('data-event') ? Number(el.getAttribute('data-event')) : null, at: Number(el.getAttribute('data-at')),
  }));
}

// A label is shaded as future, whole, until the playhead has revealed its event (`shown`
// events are) or, for an instant's label, reached that instant (tMs); at the run's end
// (`ended`) none is. The veil behind shades the bars and marks by time; the labels are over it.
export const labelFuture = (owner, { shown, tMs, ended }) => !ended && (owner.event !== null ? owner.event >= shown : tMs < owner.at);
export function shadeLabels(owners, playhead) {
  for (const o of owners) o.el.classList.toggle('tl-future', labelFuture(o, playhead));
}
