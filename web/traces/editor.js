// The editor for a reader's own trace, pure: the fields as typed text, their reading as
// engine inputs, the engine's error paths ("script[2].status", "draws[1]") mapped back to
// the field that holds them, and the form itself. The controller (section.js) keeps the
// last good run while a field is wrong.

import { h } from '../dom.js';
import { sameInputValue } from '../share/codec.js';

// SPEC §2's named scenarios as scripts, so any trace can be edited answer by answer.
export const NAMED_SCRIPTS = Object.freeze({
  'response-lost': [{ status: 200, lost: true }, { status: 200 }],
  'request-lost': [{ dropped: true }, { status: 200 }],
  'outage-503-twice': [{ status: 503 }, { status: 503 }, { status: 200 }],
  'bad-request-400': [{ status: 400 }],
});

export const NUMBER_FIELDS = Object.freeze([
  { name: 'maxRetries', label: 'Retries after the first attempt', unit: '' },
  { name: 'baseBackoffMs', label: 'First ceiling', unit: 'ms' },
  { name: 'backoffMultiplier', label: 'Ceiling growth per failure', unit: '×' },
  { name: 'maxBackoffMs', label: 'Ceiling cap', unit: 'ms', nullable: true },
  { name: 'waitBudgetMs', label: 'Total waiting allowed', unit: 'ms', nullable: true },
  { name: 'deadlineMs', label: 'Overall deadline', unit: 'ms', nullable: true },
  { name: 'clientTimeoutMs', label: 'Client timeout per attempt', unit: 'ms' },
  { name: 'responseMs', label: 'Server answer time', unit: 'ms' },
  { name: 'seed', label: 'Generator seed, after the draws run out', unit: '' },
]);

export const CHOICES = Object.freeze({
  operation: { label: 'Operation', options: [['read', 'read (no side effect)'], ['create', 'create (one record per commit)'], ['charge', 'charge (one charge per commit)']] },
  jitter: { label: 'Jitter', options: [['full', 'full: ceiling × draw'], ['equal', 'equal: half the ceiling + half × draw'], ['decorrelated', 'decorrelated'], ['none', 'none: the ceiling itself']] },
});

export const TEXT_FIELDS = Object.freeze([
  { name: 'operationId', label: 'Operation identifier' },
  { name: 'startDate', label: 'Clock at time 0 (an HTTP-date)' },
]);

export const FLAGS = Object.freeze([
  { name: 'idempotencyKey', label: 'Send the identifier as an idempotency key the provider honours' },
  { name: 'retryWritesWithoutKey', label: 'Retry a write that carries no identifier' },
  { name: 'honourRetryAfter', label: 'Honour Retry-After: the header replaces the backoff' },
]);

export const RETRY_CLASSES = Object.freeze([
  ['timeout', 'timeouts'], ['429', '429'], ['5xx', '5xx'], ['4xx', 'other 4xx'],
]);

const OWNED = new Set([
  'scenario', 'script', 'draws', 'retryOn',
  ...NUMBER_FIELDS.map((f) => f.name), ...Object.keys(CHOICES), ...TEXT_FIELDS.map((f) => f.name), ...FLAGS.map((f) => f.name),
]);

const text = (v) => (v === null || v === undefined ? '' : String(v));

function answerFields(entry) {
  return {
    status: text(entry.status), retryAfter: text(entry.retryAfter), date: text(entry.date),
    lost: entry.lost === true, dropped: entry.dropped === true,
  };
}

// Editor fields from a full inputs object (compute()'s echo, so every field is there).
// Inputs the editor has no field for ride along in `extra`, unless they hold the engine's
// default (`defaults`, the echo of {}); a herd's callers do not (the editor's trace is one
// caller's).
export function editorFromInputs(inputs, defaults = {}) {
  const script = inputs.scenario === 'script' ? inputs.script : NAMED_SCRIPTS[inputs.scenario];
  const fields = {
    script: (script || [{ status: 200 }]).map(answerFields),
    draws: (inputs.draws || []).map(String).join(', '),
    retryOn: RETRY_CLASSES.map(([c]) => c).filter((c) => (inputs.retryOn || []).includes(c)),
  };
  for (const f of NUMBER_FIELDS) fields[f.name] = text(inputs[f.name]);
  for (const name of Object.keys(CHOICES)) fields[name] = inputs[name];
  for (const f of TEXT_FIELDS) fields[f.name] = text(inputs[f.name]);
  for (const f of FLAGS) fields[f.name] = inputs[f.name] === true;
  const extra = {};
  for (const [name, value] of Object.entries(inputs)) {
    if (OWNED.has(name) || name === 'callers' || sameInputValue(value, defaults[name])) continue;
    extra[name] = value;
  }
  return { fields, extra };
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

function readNumber(textValue) {
  const t = textValue.trim();
  return NUMBER.test(t) ? Number(t) : NaN;
}

// The inputs the fields stand for, and the fields that cannot be read at all (keyed as the
// engine keys its errors). The engine judges everything that can be read.
export function inputsFromEditor(fields, extra = {}) {
  const errors = {};
  const inputs = { ...extra, scenario: 'script' };
  inputs.script = fields.script.map((row, i) => {
    const entry = {};
    if (row.status.trim() !== '') {
      const status = readNumber(row.status);
      if (Number.isNaN(status)) errors[`script[${i}].status`] = 'Enter a status code, such as 503.';
      else entry.status = status;
    }
    if (row.retryAfter !== '') entry.retryAfter = row.retryAfter;
    if (row.date.trim() !== '') entry.date = row.date.trim();
    if (row.lost) entry.lost = true;
    if (row.dropped) entry.dropped = true;
    return entry;
  });
  const draws = fields.draws.split(/[\s,;]+/).filter(Boolean);
  inputs.draws = draws.map((d, i) => {
    const value = readNumber(d);
    if (Number.isNaN(value)) errors.draws = `Draw ${i + 1}, “${d}”, is not a number.`;
    return value;
  });
  for (const f of NUMBER_FIELDS) {
    const t = fields[f.name].trim();
    if (t === '' && f.nullable) inputs[f.name] = null;
    else if (Number.isNaN(readNumber(t))) errors[f.name] = f.nullable ? 'Enter a number, or leave it empty for none.' : 'Enter a number.';
    else inputs[f.name] = readNumber(t);
  }
  for (const name of Object.keys(CHOICES)) inputs[name] = fields[name];
  for (const f of TEXT_FIELDS) inputs[f.name] = fields[f.name];
  for (const f of FLAGS) inputs[f.name] = fields[f.name];
  inputs.retryOn = [...fields.retryOn];
  return { inputs, errors };
}

// Where an engine error path is shown: a field's key, an answer's row, or 'general'.
export function errorKey(path) {
  let m = /^script\[(\d+)\]\.(status|retryAfter|date)$/.exec(path);
  if (m) return path;
  m = /^script\[(\d+)\]/.exec(path);
  if (m) return `script[${m[1]}]`;
  if (/^draws(\[|$)/.test(path)) return 'draws';
  if (/^retryOn(\[|$)/.test(path)) return 'retryOn';
  if (path === 'script') return 'script';
  if (OWNED.has(path)) return path;
  return 'general';
}

const COLUMN_WORDS = { status: 'status', retryAfter: 'Retry-After', date: 'Date' };
const LABELS = Object.fromEntries([
  ...NUMBER_FIELDS.map((f) => [f.name, f.label]), ...TEXT_FIELDS.map((f) => [f.name, f.label]),
  ...Object.entries(CHOICES).map(([name, c]) => [name, c.label]), ['retryOn', 'Retry on'],
]);

// The reader's name for an engine path: "Answer 3 status", "Draw 2", "Ceiling cap".
export function pathLabel(path) {
  let m = /^script\[(\d+)\](?:\.(\w+))?$/.exec(path);
  if (m) return `Answer ${Number(m[1]) + 1}${m[2] ? ` ${COLUMN_WORDS[m[2]] || m[2]}` : ''}`;
  m = /^draws\[(\d+)\]$/.exec(path);
  if (m) return `Draw ${Number(m[1]) + 1}`;
  return LABELS[path] || null;
}

// The engine's errors by the key of the field that shows them, each sentence starting with
// the field's label instead of its path. The engine's message is its subject (the path, or
// the answer a conflict belongs to: "script[0] cannot be both…"), a space and `detail`.
export function editorErrors(engineErrors) {
  const out = {};
  for (const { field, message, detail } of engineErrors) {
    const key = errorKey(field);
    const subject = typeof detail === 'string' && message.length > detail.length ? message.slice(0, message.length - detail.length - 1) : null;
    const label = subject && pathLabel(subject);
    const sentence = label ? `${label} ${detail}` : message;
    out[key] = out[key] ? `${out[key]} ${sentence}` : sentence;
  }
  return out;
}

// --- The form -----------------------------------------------------------------------------------

// Element ids for a field key: "script[2].status" → "<prefix>ed-script-2-status".
export const fieldId = (id, key) => id(`ed-${key.replace(/\[(\d+)\]\.?/g, '-$1-').replace(/-$/, '')}`);

function errorLine(id, key) {
  return h('p', { class: 'rl-error te-error', id: `${fieldId(id, key)}-error`, 'aria-live': 'polite' });
}

function answerRow(id, row, i, count) {
  const cellInput = (name, attrs) => {
    const key = `script[${i}].${name}`;
    return h('td', null,
      h('input', {
        id: fieldId(id, key), 'data-key': key, 'data-answer': i, 'data-part': name,
        'aria-labelledby': `${id(`ed-answer-${i}`)} ${id(`ed-col-${name}`)}`, 'aria-describedby': `${fieldId(id, key)}-error`,
        ...attrs,
      }),
      errorLine(id, key));
  };
  const check = (name) => h('td', { class: 'te-flag' },
    h('input', {
      type: 'checkbox', id: fieldId(id, `script[${i}].${name}`), 'data-answer': i, 'data-part': name, checked: row[name],
      'aria-labelledby': `${id(`ed-answer-${i}`)} ${id(`ed-col-${name}`)}`,
    }));
  return h('tr', { 'data-answer-row': i },
    h('th', { scope: 'row', id: id(`ed-answer-${i}`) }, `Answer ${i + 1}`),
    cellInput('status', { type: 'text', inputmode: 'numeric', class: 'te-status', value: row.status, autocomplete: 'off' }),
    cellInput('retryAfter', { type: 'text', class: 'te-header', value: row.retryAfter, autocomplete: 'off', spellcheck: 'false' }),
    cellInput('date', { type: 'text', class: 'te-header', value: row.date, autocomplete: 'off', spellcheck: 'false' }),
    check('lost'),
    check('dropped'),
    h('td', null,
      h('button', {
        type: 'button', class: 'rl-button te-remove', 'data-remove': i, disabled: count === 1,
        'aria-label': `Remove answer ${i + 1}`,
      }, 'Remove'),
      h('p', { class: 'rl-error te-error', id: `${fieldId(id, `script[${i}]`)}-error`, 'aria-live': 'polite' })));
}

function numberField(id, f, value) {
  const key = f.name;
  const hint = f.nullable ? 'empty: none' : null;
  const described = [f.unit ? `${fieldId(id, key)}-unit` : null, hint ? `${fieldId(id, key)}-hint` : null, `${fieldId(id, key)}-error`].filter(Boolean).join(' ');
  return h('div', { class: 'te-field' },
    h('label', { for: fieldId(id, key) }, f.label),
    h('div', { class: 'te-pair' },
      h('input', { type: 'text', inputmode: 'decimal', id: fieldId(id, key), 'data-key': key, value, autocomplete: 'off', 'aria-describedby': described }),
      f.unit ? h('span', { class: 'rl-unit', id: `${fieldId(id, key)}-unit` }, f.unit) : null,
      hint ? h('span', { class: 'te-hint', id: `${fieldId(id, key)}-hint` }, hint) : null),
    errorLine(id, key));
}

export function editorView(id, fields, { traces }) {
  const n = fields.script.length;
  return h('form', { class: 'te', id: id('editor'), novalidate: true, 'aria-labelledby': id('editor-heading') },
    h('div', { class: 'te-start' },
      h('label', { for: id('ed-from') }, 'Start from'),
      h('select', { id: id('ed-from') }, traces.map((t) => h('option', { value: t.id }, `Trace ${t.label}`))),
      h('button', { type: 'button', class: 'rl-button', id: id('ed-copy') }, 'Copy into the editor')),
    h('fieldset', { class: 'te-group' },
      h('legend', null, 'Scripted answers, one per attempt; the last repeats'),
      h('div', { class: 'te-scroll', role: 'region', 'aria-label': 'Scripted answers', tabindex: '-1' },
        h('table', { class: 'te-script' },
          h('thead', null, h('tr', null,
            h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Answer')),
            h('th', { scope: 'col', id: id('ed-col-status') }, 'Status'),
            h('th', { scope: 'col', id: id('ed-col-retryAfter') }, 'Retry-After (seconds or an HTTP-date)'),
            h('th', { scope: 'col', id: id('ed-col-date') }, 'Date (an HTTP-date; empty: the clock)'),
            h('th', { scope: 'col', id: id('ed-col-lost') }, 'Lost'),
            h('th', { scope: 'col', id: id('ed-col-dropped') }, 'Dropped'),
            h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Remove')))),
          h('tbody', null, fields.script.map((row, i) => answerRow(id, row, i, n))))),
      h('p', { class: 'te-help' }, 'Lost: the provider does the work and its answer never arrives. Dropped: the request never reaches the provider.'),
      h('button', { type: 'button', class: 'rl-button', id: id('ed-add') }, 'Add an answer'),
      errorLine(id, 'script')),
    h('div', { class: 'te-field te-draws' },
      h('label', { for: fieldId(id, 'draws') }, 'Draws, in order: numbers from 0 to 1, separated by commas'),
      h('input', { type: 'text', id: fieldId(id, 'draws'), 'data-key': 'draws', value: fields.draws, autocomplete: 'off', 'aria-describedby': `${fieldId(id, 'draws')}-error` }),
      errorLine(id, 'draws')),
    h('fieldset', { class: 'te-group te-policy' },
      h('legend', null, 'Policy'),
      Object.entries(CHOICES).map(([name, c]) => h('div', { class: 'te-field' },
        h('label', { for: fieldId(id, name) }, c.label),
        h('select', { id: fieldId(id, name), 'data-key': name, 'aria-describedby': `${fieldId(id, name)}-error` },
          c.options.map(([value, label]) => h('option', { value, selected: fields[name] === value }, label))),
        errorLine(id, name))),
      NUMBER_FIELDS.map((f) => numberField(id, f, fields[f.name])),
      TEXT_FIELDS.map((f) => h('div', { class: 'te-field' },
        h('label', { for: fieldId(id, f.name) }, f.label),
        h('input', { type: 'text', id: fieldId(id, f.name), 'data-key': f.name, value: fields[f.name], autocomplete: 'off', spellcheck: 'false', 'aria-describedby': `${fieldId(id, f.name)}-error` }),
        errorLine(id, f.name))),
      h('fieldset', { class: 'te-retry-on', 'aria-describedby': `${fieldId(id, 'retryOn')}-error` },
        h('legend', null, 'Retry on'),
        RETRY_CLASSES.map(([value, label]) => h('label', { class: 'te-check' },
          h('input', { type: 'checkbox', 'data-retry-on': value, checked: fields.retryOn.includes(value) }), ` ${label}`)),
        errorLine(id, 'retryOn')),
      FLAGS.map((f) => h('label', { class: 'te-check te-flag-line' },
        h('input', { type: 'checkbox', id: fieldId(id, f.name), 'data-flag': f.name, checked: fields[f.name] }), ` ${f.label}`))),
    h('p', { class: 'rl-error te-error', id: `${fieldId(id, 'general')}-error`, 'aria-live': 'polite' }));
}
