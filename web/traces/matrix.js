// The traces matrix, pure: one row per trace, one column per attempt, the result last. Every
// figure in a cell is read from a compute() result (the waits, ceilings, draws, outcomes);
// the only arithmetic here is the running total of the waits the engine made, in the seed's
// "elapsed wait" column. Rendered as a WAI-ARIA grid (grid.js moves the focus).

import { h } from '../dom.js';
import { num, plural } from '../format.js';
import { serverWords } from '../views/table.js';
import { herdCheck } from './herd.js';
import { attemptEffect, reportWords, stopShort } from '../words.js';

// Seconds as the seed writes them: two decimals ("3.90 s").
const twoDecimals = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
export const sec = (milliseconds) => `${twoDecimals.format(milliseconds / 1000)} s`;

// A draw with at least two decimals, as the seed and the engine write them ("0.40", "0.607115").
const drawDigits = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 });
export const drawText = (d) => drawDigits.format(d);

const isWrite = (inputs) => inputs.operation !== 'read';

// The scripted answer an attempt drew (the engine says which: scriptIndex), for a script the
// inputs carry; a named scenario's built-in script has no headers to show.
export function scriptEntry(inputs, attempt) {
  return Array.isArray(inputs.script) ? inputs.script[attempt.scriptIndex] || null : null;
}

// What came back, from the client's side, with what the server did when that differs.
export function answerText(result, attempt) {
  if (attempt.clientSaw === 'timeout') {
    const server = attempt.server === 'dropped' ? 'request lost before the server' : `server: ${serverWords(result, attempt)}`;
    return `timeout (${server})`;
  }
  if (attempt.server === 'replay') return `${attempt.clientSaw} (stored result replayed)`;
  return attempt.clientSaw;
}

// The headers that decide a wait: the Date of the answer when the script sets one, and
// Retry-After (or "no header" on a failure, as the seed's trace A writes it).
export function headerTexts(result, attempt) {
  const out = [];
  // `scripted`: the entry's own answer reached the client (docs/engine.md §5), so its headers
  // are the ones the client read.
  const entry = attempt.scripted ? scriptEntry(result.inputs, attempt) : null;
  if (entry && entry.date) out.push(`Date: ${entry.date}`);
  if (attempt.retryAfter) out.push(`Retry-After: ${attempt.retryAfter.raw}`);
  else if (attempt.scripted && attempt.clientClass !== 'success') out.push('no header');
  return out;
}

// How the wait after an attempt was made, in the seed's words.
export function waitText(result, attempt) {
  const ra = attempt.retryAfter;
  const wait = attempt.waitAfterMs;
  if (attempt.waitKind === 'header') {
    if (ra && ra.note === 'date') return `wait ${sec(wait)}: the header’s date, counted from the response’s Date (header wins)`;
    if (ra && ra.note === 'past') return `wait ${sec(wait)}: the header’s date has already passed (header wins)`;
    return `wait ${sec(wait)} (header wins)`;
  }
  const unusable = ra && ra.note === 'unusable' ? 'Retry-After unusable, ignored; ' : '';
  // `rule`: the wait is the backoff rule's figure and nothing else (docs/engine.md §5), under full
  // jitter the ceiling × the draw: no minimum raised it, no honoured Retry-After was weighed.
  if (result.inputs.jitter === 'full' && attempt.waitShape === 'rule') {
    return `${unusable}ceiling ${sec(attempt.ceilingMs)} × draw ${drawText(attempt.draw)} → ${sec(wait)}`;
  }
  return `${unusable}wait ${sec(wait)} (${attempt.waitRule})`;
}

// Why the last attempt was the last, in a few words (words.js).
export const stopText = (result) => stopShort(result, sec);

// The cells of one row's attempts: answer, headers, the write's effect, the wait and the
// running total of waiting, or why it stopped.
export function attemptCells(result) {
  let elapsed = 0;
  const last = result.attempts.length - 1;
  return result.attempts.map((a, i) => {
    const cell = { n: a.n, answer: answerText(result, a), headers: headerTexts(result, a), effect: null, wait: null, elapsed: null, stop: null };
    if (isWrite(result.inputs)) cell.effect = attemptEffect(result, a);
    if (a.waitAfterMs !== null && a.waitAfterMs !== undefined) {
      elapsed += a.waitAfterMs;
      cell.wait = waitText(result, a);
      cell.elapsed = `elapsed wait ${sec(elapsed)}`;
    } else if (i === last) {
      cell.stop = stopText(result);
    }
    return cell;
  });
}

// What the provider received and kept, for writes: the seed's trace E check.
export function providerText(result) {
  const { metrics, inputs, attempts } = result;
  const received = attempts.filter((a) => a.server !== 'dropped').length;
  const thing = inputs.operation === 'create' ? 'record' : 'charge';
  const retries = Math.max(0, metrics.attempts - 1);
  return `The provider holds ${plural(metrics.charges, thing)} for ${inputs.operationId} after ${plural(received, 'request')}; ${plural(retries, 'automatic retry', 'automatic retries')}.`;
}

// The sentence the seed asks for when a write's outcome cannot be known: from the metrics,
// not from the trace's name.
export function lookupText(metrics) {
  if (!metrics.lookupNeeded) return null;
  const why = metrics.stopReason === 'write-without-key' ? 'It is not retried without an identifier: the' : 'The';
  return `${why} operation is marked unknown, a person is told, and a status lookup runs before anything is sent again.`;
}

export function resultSummary(result) {
  const m = result.metrics;
  return `${m.outcome}, ${plural(m.attempts, 'attempt')}, ${sec(m.waitingMs)} waiting`;
}

export function resultTone(result, herd) {
  const m = result.metrics;
  if (m.duplicates > 0 || m.lookupNeeded) return 'bad';
  if (herd && herd.result && !herdCheck(herd.result).passes) return 'bad';
  if (m.outcome === 'success') return 'good';
  return 'neutral';
}

// Lines of the result column.
export function resultLines(result, herd) {
  const m = result.metrics;
  const lines = [{ cls: 'tm-summary', text: resultSummary(result) }];
  if (m.agentReport !== 'success') lines.push({ cls: 'tm-report', text: `The client reports ${reportWords(m.agentReport)}.` });
  if (isWrite(result.inputs)) {
    lines.push({ cls: 'tm-provider', text: providerText(result) });
    if (m.duplicates > 0) lines.push({ cls: 'tm-flag', text: `${plural(m.duplicates, 'duplicate')}: the check fails.` });
  }
  const lookup = lookupText(m);
  if (lookup) lines.push({ cls: 'tm-lookup', text: lookup });
  if (herd) lines.push(herdLine(herd));
  return lines;
}

function herdLine(herd) {
  if (!herd.result) return { cls: 'tm-herd', text: herd.error || `${num(herd.callers)} callers: computing…` };
  const c = herdCheck(herd.result);
  const { callers, occupied, fullest, buckets } = herd.result;
  return {
    cls: `tm-herd tm-herd-${c.passes ? 'pass' : 'fail'}`,
    text: `${num(callers)} callers: ${num(occupied)} of ${num(buckets.length)} buckets occupied, fullest ${num(fullest)} — check ${c.passes ? 'passes' : 'fails'}.`,
  };
}

// A row of the matrix: { id, title, request, result, herd?, stale?, error? }.
export function matrixColumns(rows) {
  let n = 1;
  for (const row of rows) if (row.result) n = Math.max(n, row.result.attempts.length);
  return n;
}

function attemptCell(cell, rowIndex, col, focus) {
  const focused = focus.row === rowIndex && focus.col === col;
  if (!cell) {
    return h('td', { role: 'gridcell', class: 'tm-cell tm-none', tabindex: focused ? 0 : -1, 'data-row': rowIndex, 'data-col': col },
      h('span', { class: 'visually-hidden' }, 'no attempt'));
  }
  return h('td', { role: 'gridcell', class: `tm-cell${cell.stop ? ' tm-last' : ''}`, tabindex: focused ? 0 : -1, 'data-row': rowIndex, 'data-col': col },
    h('span', { class: 'tm-answer' }, cell.answer),
    cell.headers.map((t) => h('span', { class: 'tm-header' }, t)),
    cell.effect ? h('span', { class: 'tm-effect' }, cell.effect) : null,
    cell.wait ? h('span', { class: 'tm-wait' }, cell.wait) : null,
    cell.elapsed ? h('span', { class: 'tm-elapsed' }, cell.elapsed) : null,
    cell.stop ? h('span', { class: 'tm-stop' }, cell.stop) : null);
}

// The grid's caption: how to use it.
export const GRID_HELP = 'The matrix is wider than its box: scroll it sideways, or use the keys. Tab moves into the matrix (a single stop); '
  + 'the arrow keys move one cell and stop at the edges; Home and End go to the ends of a row, Ctrl+Home and Ctrl+End '
  + 'to the first and the last cell. Enter, or a click, loads a row’s trace into the experiment above: its event trace, table and final metrics.';

// The grid. `focus` is the roving tab stop { row, col } (row 0 is the header row); `selected`
// the id of the trace loaded into the experiment; `captionId` the caption's id.
export function matrixView(rows, { focus, selected, captionId, labelledBy }) {
  const columns = matrixColumns(rows);
  const lastCol = columns + 1;
  const tab = (r, c) => (focus.row === r && focus.col === c ? 0 : -1);
  const header = h('tr', { role: 'row', class: 'tm-head' },
    h('th', { role: 'columnheader', scope: 'col', class: 'tm-trace-col', tabindex: tab(0, 0), 'data-row': 0, 'data-col': 0 }, 'Trace'),
    Array.from({ length: columns }, (_, i) => h('th', { role: 'columnheader', scope: 'col', tabindex: tab(0, i + 1), 'data-row': 0, 'data-col': i + 1 }, `Attempt ${i + 1}`)),
    h('th', { role: 'columnheader', scope: 'col', class: 'tm-result-col', tabindex: tab(0, lastCol), 'data-row': 0, 'data-col': lastCol }, 'Result'));

  const body = rows.map((row, i) => {
    const r = i + 1;
    const cells = row.result ? attemptCells(row.result) : [];
    const tone = row.result ? resultTone(row.result, row.herd) : 'neutral';
    return h('tr', {
      role: 'row', class: `tm-row${row.stale ? ' tm-stale' : ''}`, 'data-trace': row.id, 'aria-selected': selected === row.id ? 'true' : 'false',
    },
    h('th', { role: 'rowheader', scope: 'row', class: 'tm-trace-col', tabindex: tab(r, 0), 'data-row': r, 'data-col': 0 },
      h('span', { class: 'tm-label' }, row.title),
      h('span', { class: 'tm-request' }, row.request),
      selected === row.id ? h('span', { class: 'tm-loaded' }, 'in the experiment') : null,
      // On a phone the Result column is a screen's scroll away: its summary is shown here too,
      // for the eye only (the Result cell says it to a screen reader). traces.css, issue 35.
      row.result ? h('span', { class: `tm-row-result tm-${tone}`, 'aria-hidden': 'true' }, resultSummary(row.result)) : null),
    Array.from({ length: columns }, (_, c) => attemptCell(cells[c], r, c + 1, focus)),
    h('td', { role: 'gridcell', class: `tm-cell tm-result tm-${tone}`, tabindex: tab(r, lastCol), 'data-row': r, 'data-col': lastCol },
      row.result
        ? resultLines(row.result, row.herd).map((l) => h('span', { class: l.cls }, l.text))
        : h('span', { class: 'tm-summary' }, row.error || 'not computed'),
      row.stale ? h('span', { class: 'tm-flag' }, 'Showing the last good version until the editor’s entries are fixed.') : null));
  });

  return h('table', { class: 'tm-grid', role: 'grid', 'aria-labelledby': labelledBy, 'aria-describedby': captionId },
  // The caption's text stays in the box's view however far the table scrolls (traces.css).
  h('caption', { id: captionId }, h('span', { class: 'tm-caption-text' }, GRID_HELP)),
  h('thead', null, header),
  h('tbody', null, body));
}
