// The server-answer table as CSV (RFC 4180): the table's columns, with times as exact
// milliseconds (the engine's doubles, not the page's rounded text) and the wait split into
// its milliseconds and its rule. Every cell that holds a comma, a quote or a line break is
// quoted, quotes doubled; lines end in CRLF. No cell can start with = + - @ (a spreadsheet
// formula): each column starts with a number or one of the engine's fixed words.

import { answerHeaders, serverWords } from '../views/table.js';

export const CSV_HEADINGS = ['Attempt', 'Start (ms)', 'End (ms)', 'Server answered', 'Side effect', 'Client saw', 'Wait after (ms)', 'Wait rule'];

const number = (n) => (n === null || n === undefined ? '' : String(n));

export function answersRows(result) {
  return result.attempts.map((a) => [
    String(a.n), number(a.startMs), number(a.endMs), [serverWords(result, a), ...answerHeaders(result, a)].join('; '), a.effect, a.clientSaw,
    number(a.waitAfterMs), a.waitRule === null || a.waitRule === undefined ? '' : a.waitRule,
  ]);
}

export function csvCell(text) {
  const s = String(text);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** @param {Array<Array<string | number>>} rows */
export function toCsv(rows) {
  return rows.map((row) => row.map(csvCell).join(',')).map((line) => `${line}\r\n`).join('');
}

export function answersCsv(result) {
  return toCsv([CSV_HEADINGS, ...answersRows(result)]);
}
