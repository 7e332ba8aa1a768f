// "Also in force": every input of the run that the controls above cannot show, pure. A policy
// trace, a client preset or a link can set inputs the explorable has no control for (the
// backoff cap, jitter, a wait budget, a read), or a value its controls cannot hold (a "Retry
// on" that is neither of its two choices, no deadline): each is listed here by name with its
// value, read from the run's own inputs (compute()'s echo) against the engine's defaults
// (engine.schema()), so nothing in force is hidden.

import { h } from '../dom.js';
import { ms, num } from '../format.js';
import { inputName } from '../words.js';

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

function valueWords(row, value) {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) {
    if (value.length === 0) return 'none';
    const items = value.map((v) => (typeof v === 'number' ? (row.unit === 'ms' ? ms(v) : num(v)) : String(v)));
    return items.length > 6 ? `${items.slice(0, 5).join(', ')}… (${num(items.length)} in all)` : items.join(', ');
  }
  if (typeof value === 'number') return row.unit === 'ms' ? ms(value) : num(value);
  // An object input (hedging): each member by the table's name for it, as the table orders them.
  if (typeof value === 'object') {
    return (row.members || []).filter((m) => m.name in value).map((m) => `${inputName(m)} ${valueWords(m, value[m.name])}`).join(' · ');
  }
  return String(value);
}

// [{ name, label, value }] for the run's inputs in force that no control shows.
// The inputs the controls show are the fields' own names (state.js: one per control); the
// scripted answers are shown as the fifth "Server behaviour" choice.
export function inForce(result, fields, schema) {
  const inputs = result.inputs;
  const shown = new Set([...Object.keys(fields), 'script']);
  const rows = [];
  for (const row of schema.inputs) {
    if (!(row.name in inputs) || shown.has(row.name)) continue;
    if ('default' in row && same(inputs[row.name], row.default)) continue;
    if (row.onlyWhen && inputs[row.onlyWhen.field] !== row.onlyWhen.value) continue;
    rows.push({ name: row.name, label: inputName(row), value: valueWords(row, inputs[row.name]) });
  }
  // Values the controls cannot hold: the box and slider cannot say "none", and a "Retry on"
  // that is neither choice leaves both unchecked.
  if (inputs.deadlineMs === null) rows.unshift({ name: 'deadlineMs', label: 'Overall deadline', value: 'none' });
  if (fields.retryOn === null && Array.isArray(inputs.retryOn)) {
    rows.unshift({ name: 'retryOn', label: 'Retry on', value: inputs.retryOn.length ? inputs.retryOn.join(', ') : 'nothing' });
  }
  return rows;
}

export function inForceView(result, fields, schema) {
  const rows = inForce(result, fields, schema);
  if (rows.length === 0) return h('div', { class: 'rl-in-force', hidden: true });
  return h('div', { class: 'rl-in-force' },
    h('p', { class: 'rl-in-force-title' }, 'Also in force (no control above shows it)'),
    h('dl', null, rows.map((r) => h('div', { class: 'rl-in-force-row', 'data-input': r.name },
      h('dt', null, r.label), h('dd', null, r.value)))));
}
