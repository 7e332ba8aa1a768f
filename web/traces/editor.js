// The editor for a reader's own trace, pure: the fields as typed text, their reading as
// engine inputs, the engine's error paths ("script[2].status", "draws[1]") mapped back to
// the field that holds them, and the form itself. The controller (section.js) keeps the
// last good run while a field is wrong.

import { h } from '../dom.js';
import { sameInputValue } from '../share/codec.js';
import { fieldProblem } from '../fleet/field-check.js';
import { inputLabel } from '../input-words.js';

// What the form holds comes from the engine's table of its inputs (engine.schema(), docs/engine.md
// §4), so an input added there shows up here with nothing written in this file:
//   - the rows of FORM_GROUPS (the run of one caller: its request, policy, limits, server and
//     randomness; the client lab owns the "client" knobs and the herd section "herd") make the
//     fields, by type: numbers, texts (strings and HTTP-dates), switches, choices;
//   - `scenario` and `script` are the table of answers, `draws` the draws box, `retryOn` its
//     checkboxes (one per class the row names);
//   - each named scenario's answers are the engine's own (schema().scenarios), so any trace
//     can be edited answer by answer.
// The page's words for a field (WORDS) are the only thing said here per input; a row without
// them is labelled by its description.
const FORM_GROUPS = ['request', 'policy', 'limits', 'server', 'randomness'];
// The rows with a widget of their own rather than a field of their type (and what shows them).
const OWN_WIDGETS = { scenario: 'answers', script: 'answers', draws: 'draws', retryOn: 'checkboxes' };
const OWN_ROWS = new Set(Object.keys(OWN_WIDGETS));

const UNITS = { backoffMultiplier: '×' };
// The page's words for some choices' names; another shows as its name.
const CHOICE_WORDS = {
  operation: { read: 'read (no side effect)', create: 'create (one record per commit)', charge: 'charge (one charge per commit)' },
  jitter: {
    full: 'full: ceiling × draw', equal: 'equal: half the ceiling + half × draw', decorrelated: 'decorrelated', none: 'none: the ceiling itself',
    proportional: 'proportional',
  },
  attemptStart: { fits: 'if its answer is due in time', 'before-deadline': 'if it starts in time' },
  retryOn: { timeout: 'timeouts', 429: '429', '5xx': '5xx', '4xx': 'other 4xx' },
};

const labelOf = (row) => inputLabel(row.name, row);
const choiceLabel = (field, c) => (CHOICE_WORDS[field] || {})[c.name] || c.name;

// The form for an engine's table: { numbers, texts, flags, choices, retryClasses, scripts,
// owned, labels }. Built once per engine (the panel does, from engine.schema()).
export function editorForm(schema) {
  const rows = schema.inputs.filter((r) => FORM_GROUPS.includes(r.group) && !OWN_ROWS.has(r.name));
  const of = (...types) => rows.filter((r) => types.includes(r.type)).map((r) => ({
    name: r.name, label: labelOf(r), unit: UNITS[r.name] || r.unit || '', nullable: r.nullable, row: r,
    options: r.choices && r.choices.map((c) => [c.name, choiceLabel(r.name, c)]),
  }));
  const numbers = of('number');
  const choices = of('choice');
  const texts = of('string', 'http-date');
  const flags = of('boolean');
  const retryOn = schema.inputs.find((r) => r.name === 'retryOn');
  const all = [...numbers, ...choices, ...texts, ...flags];
  return {
    numbers, texts, flags, choices,
    retryClasses: retryOn.items.choices.map((c) => [c.name, choiceLabel('retryOn', c)]),
    scripts: schema.scenarios || {},
    owned: new Set([...OWN_ROWS, ...all.map((f) => f.name)]),
    labels: Object.fromEntries([...all, retryOn].map((f) => [f.name, f.label || labelOf(f)])),
  };
}

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
export function editorFromInputs(form, inputs, defaults = {}) {
  const script = inputs.scenario === 'script' ? inputs.script : form.scripts[inputs.scenario];
  const fields = {
    script: (script || [{ status: 200 }]).map(answerFields),
    draws: (inputs.draws || []).map(String).join(', '),
    retryOn: form.retryClasses.map(([c]) => c).filter((c) => (inputs.retryOn || []).includes(c)),
  };
  for (const f of form.numbers) fields[f.name] = text(inputs[f.name]);
  for (const f of form.choices) fields[f.name] = inputs[f.name];
  for (const f of form.texts) fields[f.name] = text(inputs[f.name]);
  for (const f of form.flags) fields[f.name] = inputs[f.name] === true;
  const extra = {};
  for (const [name, value] of Object.entries(inputs)) {
    if (form.owned.has(name) || name === 'callers' || sameInputValue(value, defaults[name])) continue;
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
export function inputsFromEditor(form, fields, extra = {}) {
  const errors = {};
  /** @type {Record<string, any>} */
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
  for (const f of form.numbers) {
    const t = fields[f.name].trim();
    if (t === '' && f.nullable) inputs[f.name] = null;
    else if (Number.isNaN(readNumber(t))) errors[f.name] = f.nullable ? 'Enter a number, or leave it empty for none.' : 'Enter a number.';
    else {
      inputs[f.name] = readNumber(t);
      // Judged by its row of the engine's table at once, in the page's words and numbers (issue
      // 35 item 10: "First ceiling" −1 was the engine's "must be a number from 0 to 86400000").
      const problem = f.row ? fieldProblem(String(inputs[f.name]), f.row, f.label, { kept: '' }) : '';
      if (problem) errors[f.name] = problem;
    }
  }
  for (const f of form.choices) inputs[f.name] = fields[f.name];
  for (const f of form.texts) inputs[f.name] = fields[f.name];
  for (const f of form.flags) inputs[f.name] = fields[f.name];
  inputs.retryOn = [...fields.retryOn];
  return { inputs, errors };
}

// Where an engine error path is shown: a field's key, an answer's row, or 'general'.
export function errorKey(form, path) {
  let m = /^script\[(\d+)\]\.(status|retryAfter|date)$/.exec(path);
  if (m) return path;
  m = /^script\[(\d+)\]/.exec(path);
  if (m) return `script[${m[1]}]`;
  if (/^draws(\[|$)/.test(path)) return 'draws';
  if (/^retryOn(\[|$)/.test(path)) return 'retryOn';
  if (path === 'script') return 'script';
  if (form.owned.has(path)) return path;
  return 'general';
}

const COLUMN_WORDS = { status: 'status', retryAfter: 'Retry-After', date: 'Date' };

// The reader's name for an engine path: "Answer 3 status", "Draw 2", "Ceiling cap".
export function pathLabel(form, path) {
  let m = /^script\[(\d+)\](?:\.(\w+))?$/.exec(path);
  if (m) return `Answer ${Number(m[1]) + 1}${m[2] ? ` ${COLUMN_WORDS[m[2]] || m[2]}` : ''}`;
  m = /^draws\[(\d+)\]$/.exec(path);
  if (m) return `Draw ${Number(m[1]) + 1}`;
  return form.labels[path] || null;
}

// The engine's errors by the key of the field that shows them, each sentence starting with
// the field's label instead of its path. The engine's message is its subject (the path, or
// the answer a conflict belongs to: "script[0] cannot be both…"), a space and `detail`.
export function editorErrors(form, engineErrors) {
  const out = {};
  for (const { field, message, detail } of engineErrors) {
    const key = errorKey(form, field);
    const subject = typeof detail === 'string' && message.length > detail.length ? message.slice(0, message.length - detail.length - 1) : null;
    const label = subject && pathLabel(form, subject);
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

// An answer's row, and under it a row for its errors across the table's width: an error
// inside its cell wrapped to a tall column a word wide (the Status column is 5rem).
function answerRow(id, row, i, count) {
  const cellInput = (name, attrs) => {
    const key = `script[${i}].${name}`;
    return h('td', null,
      h('input', {
        id: fieldId(id, key), 'data-key': key, 'data-answer': i, 'data-part': name,
        'aria-labelledby': `${id(`ed-answer-${i}`)} ${id(`ed-col-${name}`)}`, 'aria-describedby': `${fieldId(id, key)}-error`,
        ...attrs,
      }));
  };
  const check = (name) => h('td', { class: 'te-flag' },
    h('input', {
      type: 'checkbox', id: fieldId(id, `script[${i}].${name}`), 'data-answer': i, 'data-part': name, checked: row[name],
      'aria-labelledby': `${id(`ed-answer-${i}`)} ${id(`ed-col-${name}`)}`,
    }));
  return [h('tr', { 'data-answer-row': i },
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
      }, 'Remove'))),
  h('tr', { class: 'te-row-errors', 'data-errors-for': i },
    h('td', { colspan: 7 },
      ['status', 'retryAfter', 'date'].map((name) => errorLine(id, `script[${i}].${name}`)),
      h('p', { class: 'rl-error te-error', id: `${fieldId(id, `script[${i}]`)}-error`, 'aria-live': 'polite' })))];
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

export function editorView(form, id, fields, { traces }) {
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
      form.choices.map(({ name, ...c }) => h('div', { class: 'te-field' },
        h('label', { for: fieldId(id, name) }, c.label),
        h('select', { id: fieldId(id, name), 'data-key': name, 'aria-describedby': `${fieldId(id, name)}-error` },
          c.options.map(([value, label]) => h('option', { value, selected: fields[name] === value }, label))),
        errorLine(id, name))),
      form.numbers.map((f) => numberField(id, f, fields[f.name])),
      form.texts.map((f) => h('div', { class: 'te-field' },
        h('label', { for: fieldId(id, f.name) }, f.label),
        h('input', { type: 'text', id: fieldId(id, f.name), 'data-key': f.name, value: fields[f.name], autocomplete: 'off', spellcheck: 'false', 'aria-describedby': `${fieldId(id, f.name)}-error` }),
        errorLine(id, f.name))),
      h('fieldset', { class: 'te-retry-on', 'aria-describedby': `${fieldId(id, 'retryOn')}-error` },
        h('legend', null, 'Retry on'),
        form.retryClasses.map(([value, label]) => h('label', { class: 'te-check' },
          h('input', { type: 'checkbox', 'data-retry-on': value, checked: fields.retryOn.includes(value) }), ` ${label}`)),
        errorLine(id, 'retryOn')),
      form.flags.map((f) => h('label', { class: 'te-check te-flag-line' },
        h('input', { type: 'checkbox', id: fieldId(id, f.name), 'data-flag': f.name, checked: fields[f.name] }), ` ${f.label}`))),
    h('p', { class: 'rl-error te-error', id: `${fieldId(id, 'general')}-error`, 'aria-live': 'polite' }));
}
