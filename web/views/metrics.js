// Final metrics and the verdict, pure: what the agent reports beside what really happened,
// so "reports success, charged twice" cannot be missed.

import { h } from '../dom.js';
import { capitalise, ms, num, plural, times, word } from '../format.js';
import { reportTitle, reportWords, stopBecause } from '../words.js';

/** @typedef {import('retrylab-types').ComputeSuccess} Run */

const isWrite = (result) => result.inputs.operation !== 'read';

// "charged twice", "no charge", "one record created".
/** @param {Run} result */
export function effectWords(result) {
  const { charges } = result.metrics;
  if (!isWrite(result)) return 'no side effect (a read)';
  if (result.inputs.operation === 'create') return charges === 0 ? 'no record created' : `${plural(charges, 'record')} created`;
  return charges === 0 ? 'no charge' : `charged ${times(charges)}`;
}

// good: the report and the world agree and nothing was duplicated; bad: a duplicate, or
// a report that hides a side effect; neutral: an honest failure with nothing done.
/** @param {Run} result */
export function verdictTone(result) {
  const { metrics } = result;
  if (metrics.duplicates > 0) return 'bad';
  if (metrics.lookupNeeded) return 'bad';
  if (metrics.agentReport !== 'success' && metrics.charges > 0) return 'bad';
  if (metrics.agentReport === 'success') return 'good';
  return 'neutral';
}

/** @param {Run} result */
export function verdictText(result) {
  return `Reports ${reportWords(result.metrics.agentReport)}, ${effectWords(result)}`;
}

function realityDetail(result) {
  const { metrics } = result;
  const commits = result.attempts.filter((a) => a.chargeNumber !== null).sort((a, b) => a.chargeNumber - b.chargeNumber);
  const word = result.inputs.operation === 'create' ? 'record' : 'charge';
  const parts = [];
  if (commits.length) parts.push(commits.map((a) => `${word} #${a.chargeNumber} at ${ms(a.commitMs)}`).join(', '));
  if (metrics.replays) parts.push(`${plural(metrics.replays, 'stored-result replay')}`);
  if (metrics.duplicates) parts.push(`${plural(metrics.duplicates, 'duplicate')}`);
  if (metrics.lookupNeeded) parts.push('the agent cannot tell: only a status lookup can');
  return parts.length ? `${capitalise(parts.join('; '))}.` : 'Nothing was committed.';
}

function reportDetail(result) {
  const { metrics } = result;
  const n = metrics.attempts;
  const tried = n === 0 ? 'Sent nothing' : `After ${n === 1 ? 'one attempt' : `${word(n)} attempts`}`;
  return `${tried}; stopped because ${stopBecause(metrics.stopReason)}.`;
}

/** @param {Run} result */
export function verdictView(result) {
  return h('div', { class: `verdict verdict-${verdictTone(result)}` },
    h('p', { class: 'verdict-line' }, `${verdictText(result)}.`),
    h('div', { class: 'verdict-sides' },
      h('div', { class: 'side side-report' },
        h('p', { class: 'side-title' }, 'The agent reports'),
        h('p', { class: 'side-big' }, reportTitle(result.metrics.agentReport)),
        h('p', { class: 'side-detail' }, reportDetail(result))),
      h('div', { class: 'side side-real' },
        h('p', { class: 'side-title' }, 'What really happened'),
        h('p', { class: 'side-big' }, capitalise(effectWords(result))),
        h('p', { class: 'side-detail' }, realityDetail(result)))));
}

// The per-server rows (docs/servers.md §7.2, `metrics.servers`) as a table a screen reader reads
// cell by cell: a row per server, a column per count the rows hold, in their order; a column
// every server has at 0 is left out, and the caption says so. Its labels are the page's words for
// the rows' keys (a key without one is shown by its name).
const SERVER_COUNTS = {
  attempts: 'Attempts', charges: 'Charges', duplicates: 'Duplicate charges', replays: 'Replays', conflicts: '409s',
  refused: 'Refused', aborted: 'Aborted', dropped: 'Requests lost to a partition', answersLost: 'Answers lost to a partition',
};
/** @param {Run} result */
export function serversView(result) {
  const rows = result.metrics.servers;
  if (!Array.isArray(rows) || !rows.length) return null;
  const keys = Object.keys(rows[0]).filter((k) => k !== 'host');
  const shown = keys.filter((k) => k === 'attempts' || k === 'charges' || rows.some((r) => r[k] !== 0));
  const left = keys.length - shown.length;
  return h('table', { class: 'answers rl-servers' },
    h('caption', null, `Per server${left ? ` (the ${left === 1 ? 'count' : 'counts'} at 0 on every server left out)` : ''}`),
    h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Server'), shown.map((k) => h('th', { scope: 'col', 'data-count': k }, SERVER_COUNTS[k] || k)))),
    h('tbody', null, rows.map((r) => h('tr', { 'data-host': r.host },
      h('th', { scope: 'row' }, `server ${r.host}`),
      shown.map((k) => h('td', { class: 'num', 'data-count': k }, num(r[k])))))));
}

/** @param {Run} result */
export function metricsView(result) {
  const servers = serversView(result);
  return servers ? [metricsList(result), h('div', { class: 'rl-scroll rl-servers-box', role: 'region', tabindex: 0, 'aria-label': 'Per-server counts, scrollable' }, servers)] : metricsList(result);
}

function metricsList(result) {
  const m = result.metrics;
  const item = (key, label, value) => h('div', { class: 'metric', 'data-metric': key },
    h('dt', null, label), h('dd', null, value));
  return h('dl', { class: 'metrics' },
    item('attempts', 'Attempts', num(m.attempts)),
    item('charges', result.inputs.operation === 'create' ? 'Records' : 'Charges', num(m.charges)),
    item('replays', 'Stored-result replays', num(m.replays)),
    item('elapsed', 'Elapsed', ms(m.elapsedMs)),
    item('waiting', 'Waiting', ms(m.waitingMs)),
    item('outcome', 'Outcome', m.outcome),
    item('stop', 'Stopped because', stopBecause(m.stopReason)),
    item('lookup', 'Status lookup needed', m.lookupNeeded ? 'yes' : 'no'));
}

// One line under the inputs, so the effect of a change is visible without scrolling.
/** @param {Run} result */
export function nowView(result) {
  return h('p', { class: `rl-now rl-now-${verdictTone(result)}` },
    h('span', { class: 'rl-now-label' }, 'This run: '),
    `${verdictText(result)} · ${ms(result.metrics.elapsedMs)}`);
}

// Before the reader has played the opening run: the question its end answers, and no answer.
/** @param {Run} result */
export function questionText(result) {
  if (result.inputs.operation === 'create') return 'How many records were created?';
  if (result.inputs.operation === 'read') return 'What does the agent report?';
  return 'How many times was the card charged?';
}

/** @param {Run} result */
export function questionView(result) {
  return h('div', { class: 'verdict verdict-question' },
    h('p', { class: 'verdict-line' }, questionText(result)),
    h('p', { class: 'verdict-hint' }, 'The charge commits, its answer is lost, the client tries again. Play the run: the answer comes at its end.'));
}

export function nowQuestionView() {
  return h('p', { class: 'rl-now rl-now-neutral' }, h('span', { class: 'rl-now-label' }, 'This run: '), 'play it to find out');
}
