// The mechanism drawn (issue 15), pure: the run as messages between two lanes, the client
// above and the server below, drawn from the result's fields (its attempts, its events and
// their kinds, never their sentences) up to the playhead. Each attempt's request flies down
// to the server, its answer back up; a lost answer stops halfway at a cross, a lost request
// short of the server. A clock at each attempt's start runs out toward the client's timeout,
// and the wait before the next attempt is a bracket that grows, labelled with its length.
// The x-axis is schematic: time in proportion, with room for each step at one instant (a
// commit and the answer the client receives at the same millisecond are two steps). The
// timeline stays the precise view. Events the playhead has not reached are not drawn.

import { ms } from '../format.js';
import { packRows } from './timeline.js';
import { statementLine, statementView } from './statement.js';
import { h, mount, patchKnown } from '../dom.js';
import { msAt, warpOf } from '../playback.js';
import { isStack, stackView, stackWords } from './stack.js';

/** @typedef {import('retrylab-types').ComputeSuccess} Run */

const LEFT = 64; // as the timeline's margin, which packRows keeps labels inside
const RIGHT = 14;
const CLIENT_Y = 50;
const SERVER_Y = 114;
const STEP = 26; // px between two steps at one instant
// Many servers (docs/servers.md §7.2): a run whose result has per-server rows draws one server
// lane per host, up to MAX_LANES of them, LANE_GAP apart (room for two rows of labels); a run of
// more hosts keeps one lane and names each host on its server label. A run without servers has
// the one lane it always had.
const MAX_LANES = 4;
const LANE_GAP = 60;
const hostsOf = (result) => (result.metrics && Array.isArray(result.metrics.servers) ? result.metrics.servers.length : 0);
export const serverLanes = (result) => (hostsOf(result) > 1 && hostsOf(result) <= MAX_LANES ? hostsOf(result) : 1);
// The y of an attempt's server lane, from its row's host (never from a sentence).
const laneOf = (lanes, a) => (lanes > 1 && Number.isInteger(a.host) ? a.host : 0);
const laneY = (lane) => SERVER_Y + lane * LANE_GAP;
const CHAR = 7; // a generous width of one character at the labels' 11–12px
// The hint before Play, as long as the lanes' width holds (issue 35 item 10: a narrow
// <retry-lab> cut "Play: the messages appear as they are sent." at its edge).
const HINTS = ['Play: the messages appear as they are sent.', 'Play: messages appear as sent.', 'Play to send them.'];
// Its words are 12 px and regular: 6.3 px a character (CHAR is a bold label's).
const hintFor = (room) => HINTS.find((t) => t.length * 6.3 <= room) || HINTS[HINTS.length - 1];
// A refused connection and a reset (docs/servers.md §5) are the server's answer at their instant.
const SERVER_KINDS = new Set(['commit', 'replay', 'conflict', 'server-error', 'request-lost', 'response-lost', 'refused', 'reset']);
const side = (kind) => (SERVER_KINDS.has(kind) ? 's' : 'c');
const clamp01 = (f) => Math.min(1, Math.max(0, f));

// The steps: each event, and the server's answer of an attempt that has no server event (a
// read answered 200), at its time; consecutive points at one instant on one side share a
// step. Each gets an x: STEP apart plus the time between them in proportion.
/** @param {Run} result */
export function steps(result, plot) {
  const { events, attempts } = result;
  const rMs = result.inputs.responseMs;
  /** @type {Array<{ t: number, side: string, seq: number, attempt?: number }>} */
  const points = events.map((e, i) => ({ t: e.tMs, side: side(e.kind), seq: i }));
  for (const a of attempts) {
    if (a.server === 'dropped' || events.some((e) => e.attempt === a.n && side(e.kind) === 's')) continue;
    const t = a.startMs + rMs;
    const at = events.findIndex((e) => e.tMs >= t);
    points.push({ t, side: 's', seq: (at === -1 ? events.length : at) - 0.5, attempt: a.n });
  }
  points.sort((p, q) => p.t - q.t || p.seq - q.seq);
  /** @type {Array<{ t: number, side: string, seqs: any[], x?: number }>} */
  const list = [];
  for (const p of points) {
    const last = list[list.length - 1];
    if (!last || last.t !== p.t || last.side !== p.side) list.push({ t: p.t, side: p.side, seqs: [] });
    list[list.length - 1].seqs.push(p);
  }
  const span = list.length ? list[list.length - 1].t - list[0].t : 0;
  const step = Math.min(STEP, plot / list.length / 2);
  const scale = span > 0 ? (plot - step * list.length) / span : 0; // a step spare at the right, for a late answer
  let x = LEFT;
  list.forEach((s, i) => {
    if (i > 0) x += step + (s.t - list[i - 1].t) * scale;
    s.x = x;
  });
  const byEvent = [];
  const serverOf = new Map(); // attempt n → its synthetic answer's step
  for (const s of list) {
    for (const p of s.seqs) {
      if (p.attempt) serverOf.set(p.attempt, s);
      else byEvent[p.seq] = s;
    }
  }
  return { list, byEvent, serverOf, step, scale };
}

// The x of instant t: between the steps around it, in proportion (at an instant of several
// steps, the last of them).
function xAt(list, t, scale) {
  let before = null;
  for (const s of list) {
    if (s.t > t) return before ? before.x + ((t - before.t) / (s.t - before.t)) * (s.x - before.x) : s.x;
    before = s;
  }
  return before ? before.x + (t - before.t) * scale : LEFT;
}

// An arrow from (x1, y1) toward (x2, y2), drawn to the fraction f of the way, its head (a
// path, not a marker: no id to clash between two explorables on one page) at the tip.
function arrow(cls, x1, y1, x2, y2, f, head = true) {
  const x = x1 + (x2 - x1) * f;
  const y = y1 + (y2 - y1) * f;
  const len = Math.hypot(x - x1, y - y1);
  const dx = len ? (x - x1) / len : 0;
  const dy = len ? (y - y1) / len : 0;
  const p = (u, v) => `${(x - dx * u - dy * v).toFixed(1)} ${(y - dy * u + dx * v).toFixed(1)}`;
  return h('g', { class: cls },
    h('line', { x1, y1, x2: x, y2: y }),
    head && len > 4 ? h('path', { class: 'lanes-head', d: `M${p(0, 0)}L${p(8, 4)}L${p(8, -4)}Z` }) : null);
}

const cross = (x, y) => h('path', { class: 'lanes-lost', d: `M${x - 5} ${y - 5}l10 10m0 -10l-10 10` });

// A clock face at (x, y) with the share f of its time gone, swept clockwise from twelve.
function clock(x, y, f, out) {
  const r = 6;
  const a = 2 * Math.PI * Math.min(f, 0.9999);
  const ex = x + r * Math.sin(a);
  const ey = y - r * Math.cos(a);
  return h('g', { class: out ? 'lanes-clock lanes-clock-out' : 'lanes-clock' },
    h('circle', { cx: x, cy: y, r }),
    f > 0 ? h('path', { d: `M${x} ${y}V${y - r}A${r} ${r} 0 ${a > Math.PI ? 1 : 0} 1 ${ex.toFixed(2)} ${ey.toFixed(2)}Z` }) : null);
}

// The server's label of an attempt whose request reached it: its charge once committed, else
// what it answered.
// On one lane for several hosts, the label names the host ("server 7 · charge #2"; its short form
// without it).
function serverLabel(a, x, committed, word, named = false) {
  const text = committed ? `${word} #${a.chargeNumber}` : a.server === 'replay' ? 'replay' : String(a.server);
  const cls = committed ? 'lanes-label lanes-label-commit' : 'lanes-label';
  return named && Number.isInteger(a.host) ? { x, align: 'middle', text: `server ${a.host} · ${text}`, short: text, cls } : { x, align: 'middle', text, cls };
}
const heightFor = (serverRows, lanes = 1) => laneY(lanes - 1) + 24 + Math.max(1, serverRows) * 15;
// The server labels packed lane by lane, each in at most two rows (between its lane and the
// next; the last lane's rows set the drawing's height).
function packLanes(labels, lanes, width) {
  return Array.from({ length: lanes }, (_, k) => packRows(labels.filter((l) => l.lane === k), width, 2));
}
export const lanesWidth = (width) => Math.max(280, Math.round(width));

// The drawing's height at the run's end (lanesView(result, { width }).attrs.height), from its
// server labels alone: what withLanes holds the drawing to from the run's start, without
// drawing the end of the run. At the end every event is seen, so an attempt has a server
// label when its request reached the server: a server event, or the answer of a read.
/** @param {Run} result */
export function lanesEndHeight(result, width = 640, geometry = null) {
  width = lanesWidth(width);
  const { events, attempts, inputs } = result;
  const { byEvent, serverOf } = geometry || steps(result, width - LEFT - RIGHT);
  const word = inputs.operation === 'create' ? 'record' : 'charge';
  const lanes = serverLanes(result);
  const named = lanes === 1 && hostsOf(result) > 1;
  const labels = [];
  for (const a of attempts) {
    if (a.server === 'dropped' || !events.some((e) => e.attempt === a.n && e.kind === 'send')) continue;
    const serverAt = events.findIndex((e) => e.attempt === a.n && SERVER_KINDS.has(e.kind));
    const station = serverAt !== -1 ? byEvent[serverAt] : serverOf.get(a.n);
    if (!station) continue;
    labels.push({ ...serverLabel(a, station.x, events.some((e) => e.attempt === a.n && e.kind === 'commit'), word, named), lane: laneOf(lanes, a) });
  }
  return heightFor(packLanes(labels, lanes, width)[lanes - 1].rows, lanes);
}

// What the drawing shows, in words, for its aria-label: every attempt's messages and waits.
/** @param {Run} result */
export function lanesSummary(result) {
  const lost = new Set(result.events.filter((e) => e.kind === 'response-lost').map((e) => e.attempt));
  const parts = result.attempts.map((a) => {
    let answer;
    if (a.server === 'dropped') answer = 'the request is lost before the server';
    else if (lost.has(a.n)) answer = 'the answer is lost on its way back';
    else if (a.clientSaw === 'timeout') answer = 'the answer comes after the client stopped waiting';
    else if (a.clientClass === 'cancelled' && 'hedge' in a) answer = 'the client stops listening when another attempt ends the run, and the answer comes to no one';
    else answer = `the answer ${a.clientSaw} arrives`;
    const timeout = a.clientSaw === 'timeout' ? `, and the client's clock runs out at ${ms(a.endMs)}` : '';
    const wait = a.waitAfterMs !== null && a.waitAfterMs !== undefined ? `; wait ${ms(a.waitAfterMs)}` : '';
    const to = Number.isInteger(a.host) ? ` to server ${a.host}` : '';
    return `attempt ${a.n} sent${to} at ${ms(a.startMs)}: ${answer}${timeout}${wait}`;
  });
  const between = hostsOf(result) > 1 ? `the client and ${hostsOf(result)} servers` : 'client and server';
  return `Messages between ${between}: ${parts.join('; ') || 'nothing is sent'}.`;
}

// The drawing at the playhead: virtual time tMs with the first `shown` events revealed.
// `reduced` (prefers-reduced-motion): a message in flight is drawn whole at once, dashed,
// rather than growing.
// `minHeight`: the drawing's height at the run's end (withLanes passes it), so the drawing
// does not grow while the run plays as the server's labels need a second row.
// `geometry`: steps(result, plot) for this width (withLanes computes it once per run and width
// and hands it to every draw; it depends on neither the playhead nor the motion setting).
/** @param {Run} result */
export function lanesView(result, { width = 640, tMs = Infinity, shown = Infinity, reduced = false, minHeight = 0, geometry = null } = {}) {
  width = lanesWidth(width);
  const plot = width - LEFT - RIGHT;
  const { events, attempts, inputs } = result;
  const { list, byEvent, serverOf, step, scale } = geometry || steps(result, plot);
  const seen = (i) => i !== -1 && i < shown;
  const index = (n, test) => events.findIndex((e) => e.attempt === n && test(e.kind));
  const word = inputs.operation === 'create' ? 'record' : 'charge';
  const lanes = serverLanes(result);
  const named = lanes === 1 && hostsOf(result) > 1;
  const marks = [];
  const serverLabels = [];
  const waitLabels = [];
  const notes = [];
  const drawn = attempts.map((a, i) => {
    const sendAt = index(a.n, (k) => k === 'send');
    if (!seen(sendAt)) return null;
    const x0 = byEvent[sendAt].x;
    const lane = laneOf(lanes, a);
    const SY = laneY(lane); // its server's lane
    const serverAt = index(a.n, (k) => SERVER_KINDS.has(k));
    const endAt = index(a.n, (k) => k === 'receive' || k === 'timeout' || k === 'deadline');
    const lostAt = index(a.n, (k) => k === 'response-lost');
    const station = serverAt !== -1 ? byEvent[serverAt] : serverOf.get(a.n);
    const reached = serverAt !== -1 ? seen(serverAt) : station && tMs >= station.t;
    const ended = seen(endAt);
    const now = Math.min(tMs, a.endMs);
    const xNow = ended ? byEvent[endAt].x : Math.max(x0, xAt(list, now, scale));
    const parts = [];
    // The client waits for its answer: its span grows, and its clock runs out.
    const outcome = ended ? (a.clientSaw === 'timeout' ? ' lanes-span-timeout' : ' lanes-span-ok') : '';
    parts.push(h('line', { class: `lanes-span${outcome}`, x1: x0, x2: xNow, y1: CLIENT_Y, y2: CLIENT_Y }));
    const timedOut = ended && a.clientSaw === 'timeout';
    parts.push(clock(x0 + 8, CLIENT_Y - 10, timedOut ? 1 : clamp01((now - a.startMs) / inputs.clientTimeoutMs), timedOut));
    // The clock's face is in the way of any note; a clock that ran out says so beside it.
    notes.push({ x: x0 + 2, text: '··', cls: '' });
    if (timedOut) notes.push({ x: x0 + 26, priority: 1, text: 'timeout', cls: 'lanes-label lanes-note' });
    // The request.
    if (station) {
      const f = reached ? 1 : clamp01((tMs - a.startMs) / (station.t - a.startMs || 1));
      const lostRequest = events[serverAt] && events[serverAt].kind === 'request-lost';
      if (lostRequest && reached) {
        parts.push(arrow('lanes-msg lanes-request', x0, CLIENT_Y, station.x, SY, 0.6, false), cross(x0 + (station.x - x0) * 0.6, CLIENT_Y + (SY - CLIENT_Y) * 0.6));
      } else {
        parts.push(arrow(`lanes-msg lanes-request${!reached && reduced ? ' lanes-flying' : ''}`, x0, CLIENT_Y, station.x, SY, reduced ? 1 : f));
      }
    }
    // What the server did, and its answer.
    if (station && reached && a.server !== 'dropped') {
      const sx = station.x;
      const good = a.server === 'replay' || String(a.server)[0] === '2'; // a 2xx or a replay; a 409, 4xx or 5xx is drawn as an error
      const answer = good ? 'lanes-msg lanes-answer' : 'lanes-msg lanes-answer lanes-answer-bad';
      const committed = events.findIndex((e) => e.attempt === a.n && e.kind === 'commit');
      if (seen(committed)) {
        marks.push(h('path', { class: 'lanes-commit', d: `M${sx} ${SY - 7}l7 7l-7 7l-7 -7Z` }));
      } else {
        marks.push(h('circle', { class: a.server === 'replay' ? 'lanes-replay' : good ? 'lanes-ok' : 'lanes-bad', cx: sx, cy: SY, r: 4.5 }));
      }
      serverLabels.push({ ...serverLabel(a, sx, seen(committed), word, named), lane });
      if (lostAt !== -1) {
        if (seen(lostAt)) {
          parts.push(arrow(answer, sx, SY, sx + step, CLIENT_Y, 0.5, false), cross(sx + step / 2, (SY + CLIENT_Y) / 2));
        }
      } else if (serverAt !== -1 && (events[serverAt].kind === 'refused' || events[serverAt].kind === 'reset')) {
        // The refusal or the reset reaches the client at once: the client's answer is that event.
        parts.push(arrow(answer, sx, SY, sx + step, CLIENT_Y, 1));
      } else if (endAt !== -1 && events[endAt].kind === 'receive') {
        const target = byEvent[endAt];
        const f = ended ? 1 : clamp01((tMs - station.t) / (target.t - station.t || Infinity));
        parts.push(arrow(`${answer}${!ended && reduced ? ' lanes-flying' : ''}`, sx, SY, target.x, CLIENT_Y, reduced ? 1 : f));
      } else {
        // The answer comes after the client stopped waiting: it arrives to no one.
        parts.push(arrow(`${answer} lanes-late`, sx, SY, sx + step, CLIENT_Y, 1));
      }
    }
    // The wait before the next attempt: a bracket that grows to its length.
    const next = attempts[i + 1];
    const waitAt = index(a.n, (k) => k === 'wait');
    if (next && seen(waitAt)) {
      const x1 = byEvent[waitAt].x;
      const nextSend = index(next.n, (k) => k === 'send');
      const x2 = byEvent[nextSend].x;
      const xw = seen(nextSend) ? x2 : Math.min(x2, Math.max(x1, xAt(list, tMs, scale)));
      parts.push(h('path', { class: 'lanes-wait', d: `M${x1} ${CLIENT_Y - 18}V${CLIENT_Y - 24}H${xw}V${CLIENT_Y - 18}` }));
      // Centred over its bracket; where it would overlap its neighbour, its short form.
      waitLabels.push({ x: (x1 + x2) / 2, align: 'middle', text: `wait ${ms(a.waitAfterMs)}`, short: ms(a.waitAfterMs), cls: 'lanes-label lanes-label-wait' });
    }
    return h('g', { class: 'lanes-attempt', 'data-attempt': a.n }, parts);
  });

  // Paused before its first event (the opening run before Play): the mechanism at t = 0,
  // attempt 1 about to leave the client, its clock at 0 and the time it waits named.
  let ready = null;
  const firstSend = attempts.length ? byEvent[index(attempts[0].n, (k) => k === 'send')] : null;
  if (shown === 0 && firstSend) {
    ready = h('g', { class: 'lanes-ready' }, clock(firstSend.x + 8, CLIENT_Y - 10, 0, false));
    notes.push({ x: firstSend.x + 2, text: '··', cls: '' },
      { x: firstSend.x + 26, priority: 1, text: `attempt ${attempts[0].n} · waits up to ${ms(inputs.clientTimeoutMs)}`, short: `waits up to ${ms(inputs.clientTimeoutMs)}`, cls: 'lanes-label lanes-note-ready' });
  }
  const label = (l, top) => h('text', { class: l.cls, x: l.anchorEnd ? l.right : l.left, y: top + l.row * 15, 'text-anchor': l.anchorEnd ? 'end' : 'start' }, l.text);
  const server = packLanes(serverLabels, lanes, width);
  const waits = packRows(waitLabels, width, 1);
  const said = packRows(notes, width, 1).placed.filter((l) => l.priority);
  const height = Math.max(minHeight, heightFor(server[lanes - 1].rows, lanes));
  const bottom = laneY(lanes - 1);
  const laneName = (k) => (lanes > 1 ? `Server ${k}` : 'Server');
  // The playhead: at the last revealed event's step when the time is its instant.
  const lastShown = shown > 0 && shown <= events.length ? byEvent[shown - 1] : null;
  const nowX = Math.min(width - RIGHT, lastShown && Math.abs(lastShown.t - tMs) < 1e-6 ? lastShown.x : xAt(list, tMs, scale));

  return h('svg', { class: 'lanes', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': lanesSummary(result) },
    h('text', { class: 'lanes-lane', x: 4, y: CLIENT_Y + 4 }, 'Client'),
    Array.from({ length: lanes }, (_, k) => h('text', { class: 'lanes-lane', x: 4, y: laneY(k) + 4 }, laneName(k))),
    h('line', { class: 'lanes-track', x1: LEFT, x2: width - RIGHT, y1: CLIENT_Y, y2: CLIENT_Y }),
    Array.from({ length: lanes }, (_, k) => h('line', { class: 'lanes-track', x1: LEFT, x2: width - RIGHT, y1: laneY(k), y2: laneY(k) })),
    shown < events.length ? h('line', { class: 'lanes-now', x1: nowX, x2: nowX, y1: CLIENT_Y - 16, y2: bottom + 8 }) : null,
    shown === 0 ? h('text', { class: 'lanes-hint', x: LEFT + 8, y: (CLIENT_Y + SERVER_Y) / 2 + 4 }, attempts.length ? hintFor(width - RIGHT - LEFT - 8) : 'Nothing is sent.') : null,
    // The run's clock, between the lanes' names: 0 ms before Play.
    Number.isFinite(tMs) ? h('text', { class: 'lanes-time', x: 4, y: (CLIENT_Y + SERVER_Y) / 2 + 4 }, ms(Math.round(tMs))) : null,
    ready, drawn, marks,
    waits.placed.map((l) => label(l, 20)),
    said.map((l) => label(l, CLIENT_Y - 6)),
    server.map((packed, k) => packed.placed.map((l) => label(l, laneY(k) + 24))));
}

// A stack's run in the explorable: what it is, then the one drawing of a stack (views/stack.js).
// The explorable's controls set the run's own fields, which a stack's layers do not read (each
// layer's policy is its own, docs/layers.md §2), so the words say where the stack is changed,
// and "Clear the stack" (explorable/clear-stack.js) runs it with one layer again.
function stackRunView(id, result, within) {
  const sid = (name) => id(`stack-${name}`);
  const n = result.inputs.layers.length;
  return h('div', { class: 'ly-stack' },
    h('p', { class: 'ly-stack-head', id: sid('head') },
      `This run is a stack of ${n === 1 ? 'one layer' : `${n} layers`}, top first: ${stackWords(result)}. Each layer has its own policy; the controls here set the server and the run’s own fields.`),
    h('p', { class: 'ly-clear' },
      h('button', { type: 'button', class: 'rl-button', id: sid('clear'), 'data-act': 'clear-stack', 'aria-describedby': sid('clear-help') }, 'Clear the stack'),
      ' ', h('span', { id: sid('clear-help') }, 'Back to one layer: the policy the controls set.')),
    stackView(sid, result, within));
}

// Mounted beside the timeline (explorable/run-view.js hands over its run view): the lanes and
// the statement are drawn from the same result and playhead as the timeline, on every call of
// drawPlayhead, and redrawn for their box's width.
export function withLanes(run, timeline, view, id) {
  // A page whose HTML holds the explorable drawn (web/prerender.mjs) has the box in place already.
  const drawnBox = timeline.closest('.rl')?.querySelector('.rl-mechanism');
  const box = drawnBox || mount(h('section', { class: 'rl-view rl-mechanism', 'aria-labelledby': id('lanes-heading') },
    h('h3', { id: id('lanes-heading') }, 'Client and server, message by message'),
    h('div', { class: 'rl-lanes', id: id('lanes') }), h('div', { class: 'rl-statement-box' })), timeline.ownerDocument);
  const [heading, lanes, statement] = box.children;
  let headingWords = null; // the heading's own words while a stack's run is drawn, else null
  // The statement in one line under the lanes, shown on a phone only (css/lanes.css).
  const line = box.querySelector('.rl-statement-line') || box.appendChild(mount(h('p', { class: 'rl-statement-line', 'aria-hidden': 'true' }), box.ownerDocument));
  // The mechanism is the figure: right after the question, then Play, then the timeline (the
  // precise view), so at 1280×720 and on a phone the first screen shows the lanes, the
  // question and Play. An article's figure (css/story.css) shows the lanes and the statement
  // in the timeline's place (issue 35), the timeline hidden.
  const results = timeline.closest('.rl-results');
  const figure = timeline.closest('.rl-figure');
  const playback = results && results.querySelector('.rl-playback');
  // Where the statement cannot stand beside the lanes (a phone), it follows the playback bar,
  // so Play is in the first screen too; it is back in the mechanism's box when there is room.
  const narrow = view.matchMedia('(max-width: 35rem)');
  const placeStatement = () => {
    if (narrow.matches) { if (playback.nextElementSibling !== statement) playback.after(statement); } else if (lanes.nextElementSibling !== statement) lanes.after(statement);
    statement.classList.toggle('rl-statement-apart', narrow.matches);
    box.classList.toggle('rl-mechanism-apart', narrow.matches); // its one-line statement shown
  };
  const firstScreen = figure && playback && !timeline.closest('.story-run');
  if (firstScreen) {
    if (!drawnBox) figure.before(box);
    if (!drawnBox) box.after(playback);
    placeStatement();
    narrow.addEventListener('change', placeStatement);
  } else if (figure && timeline.closest('.story-run')) {
    // An article's figure (explorable/steps.js) draws the lanes in the timeline's place, above
    // its Play (css/story.css shows them, not the timeline).
    figure.after(box);
  } else {
    (playback || timeline).after(box);
  }
  const reduced = view.matchMedia('(prefers-reduced-motion: reduce)');
  // The box's width as its observer last reported it (0: not yet, or hidden), or, for a box the
  // build drew into the page (issue 15/18, web/prerender.mjs), the width it was drawn at. The lanes
  // are drawn at it, once: not at a guessed width first and again when the observer reports (issue
  // 18), and never by reading clientWidth in the middle of a redraw (a forced layout). The
  // statement needs no width and is drawn at once.
  let width = drawnBox ? Number(lanes.firstElementChild?.getAttribute('width')) || 0 : 0;
  let last = null;
  // What a run's drawing keeps from one draw to the next at one width: its steps (the x of
  // every event) and its height at the run's end, which it holds from the start so that it
  // does not grow as it plays. Computed once per run and width, not on every playback frame.
  let drawing = { result: null, width: 0, geometry: null, height: 0 };
  const drawLanes = (result, playback) => {
    // A stack's run (a link's `layers`, docs/layers.md) is drawn as the section "Retries across
    // layers" draws it, lanes per layer, whole: these lanes draw one layer's messages.
    const stacked = isStack(result);
    lanes.classList.toggle('rl-lanes-stack', stacked);
    // The heading says what is drawn; its own words (another view may have set them) come back after.
    if (stacked && headingWords === null) {
      headingWords = heading.textContent;
      heading.textContent = 'Each layer’s attempts';
    } else if (!stacked && headingWords !== null) {
      heading.textContent = headingWords;
      headingWords = null;
    }
    if (stacked) { // drawn once per run: it has no playhead
      if (drawing.result !== result || !drawing.stack) patchKnown(lanes, stackRunView(id, result, box.getAttribute('aria-labelledby')));
      drawing = { result, width, geometry: null, height: 0, stack: true };
      return;
    }
    if (!width) return;
    if (drawing.result !== result || drawing.width !== width || drawing.stack) {
      const geometry = steps(result, lanesWidth(width) - LEFT - RIGHT);
      drawing = { result, width, geometry, height: lanesEndHeight(result, width, geometry) };
    }
    const tMs = msAt(playback.s, warpOf(result));
    patchKnown(lanes, lanesView(result, { width, tMs, shown: playback.shown, reduced: reduced.matches, minHeight: drawing.height, geometry: drawing.geometry }));
  };
  const draw = (result, playback) => {
    last = [result, playback];
    drawLanes(result, playback);
    patchKnown(statement, statementView(result, playback.shown, id('statement-heading')));
    patchKnown(line, statementLine(result, playback.shown));
  };
  const resize = new view.ResizeObserver((entries) => {
    const w = Math.round(entries[entries.length - 1].contentRect.width); // .rl-lanes has no padding
    if (Math.abs(w - width) > 1 || (w && !width)) {
      width = w;
      if (last) drawLanes(...last);
    }
  });
  resize.observe(lanes);
  return {
    ...run,
    adopt(result, playback) { run.adopt(result, playback); last = [result, playback]; }, // drawn by the build: nothing to write
    drawPlayhead(result, playback) {
      run.drawPlayhead(result, playback);
      draw(result, playback);
    },
    destroy() {
      resize.disconnect();
      if (firstScreen) narrow.removeEventListener('change', placeStatement);
      run.destroy();
    },
  };
}
