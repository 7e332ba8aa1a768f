// The server-answer table, pure: one row per attempt.

import { h } from '../dom.js';
import { ms } from '../format.js';
import { eventText } from './events.js';

// What the server did, with the fate of its answer where the events tell it.
export function serverWords(result, attempt) {
  const fate = result.events.filter((e) => e.attempt === attempt.n).map((e) => e.kind);
  const lost = fate.includes('response-lost') ? ', response lost' : '';
  if (attempt.server === 'dropped') return 'nothing: request lost';
  if (attempt.server === 'replay') return `stored result replayed${lost}`;
  if (attempt.server === '409') return `409 Conflict${lost}`;
  if (attempt.server === 'refused') return 'refused the connection (down)';
  if (attempt.server === 'aborted') return 'aborted by a crash: nothing committed';
  return `${attempt.server}${lost}`;
}

// The headers the answer carried, from the run's data: the Retry-After the client read, and
// the Date of a scripted answer that set one (trace C's, counted from for an HTTP-date).
export function answerHeaders(result, attempt) {
  const script = result.inputs.script;
  const answer = Array.isArray(script) && attempt.scriptIndex !== null && attempt.scriptIndex !== undefined ? script[attempt.scriptIndex] : null;
  const headers = [];
  if (answer && answer.date) headers.push(`Date: ${answer.date}`);
  if (attempt.retryAfter && attempt.retryAfter.raw !== undefined) headers.push(`Retry-After: ${attempt.retryAfter.raw}`);
  return headers;
}

// The wait on one line, the rule that made it beneath.
function waitCell(attempt) {
  if (attempt.waitAfterMs === null || attempt.waitAfterMs === undefined) return h('td', null, 'none');
  return h('td', null,
    h('span', { class: 'wait-ms' }, ms(attempt.waitAfterMs)),
    attempt.waitRule ? h('span', { class: 'wait-rule' }, ` (${eventText(attempt.waitRule)})`) : null);
}

const HEADINGS = ['Attempt', 'Start', 'End', 'Server answered', 'Side effect', 'Client saw', 'Wait after'];

// A run on many servers (docs/servers.md §7.2: each attempt row's `host`) has a column for the
// server each attempt went to, after the attempt's number; a run on one server has none.
const hosted = (result) => result.attempts.some((a) => Number.isInteger(a.host));
export const hostWords = (host) => `server ${host}`;

export function tableView(result) {
  const withHost = hosted(result);
  const headings = withHost ? [HEADINGS[0], 'Server', ...HEADINGS.slice(1)] : HEADINGS;
  const rows = result.attempts.map((a) => h('tr', { 'data-start': a.startMs },
    h('th', { scope: 'row' }, String(a.n), a.hedge ? h('span', { class: 'hedge-mark' }, ' (hedge)') : null),
    withHost ? h('td', { 'data-host': a.host }, Number.isInteger(a.host) ? hostWords(a.host) : 'none') : null,
    h('td', { class: 'num' }, ms(a.startMs)),
    h('td', { class: 'num' }, ms(a.endMs)),
    h('td', null, serverWords(result, a), answerHeaders(result, a).map((t) => [h('span', { class: 'visually-hidden' }, '; '), h('span', { class: 'answer-header' }, t)])),
    h('td', null, a.effect),
    h('td', null, a.clientSaw),
    waitCell(a)));
  return h('table', { class: 'answers' },
    h('caption', null, h('span', { class: 'answers-caption' }, withHost ? 'What each server answered and did, and what the client saw, per attempt' : 'What the server answered and did, and what the client saw, per attempt')),
    h('thead', null, h('tr', null, headings.map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', null, rows.length ? rows : h('tr', null, h('td', { colspan: headings.length }, 'No attempt was sent.'))));
}
