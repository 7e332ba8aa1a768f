// Two runs and what differs between them, as data (issue 17). Pure: results in, a comparison
// out, by the rules of docs/compare.md §2 and the rows of the engine's table. retrysim prints
// the core's comparison by the same table (core/src/compare_metrics.cpp, compareResults(), also
// the engine files' compareResults()); tests/node/link-cli.test.js and compare-stack.test.js
// hold the two to the same figures. The page reads the table and compares here, in its compare
// bundle, rather than calling the engine: docs/compare.md §7 gives the bytes and the reason.

import { num } from '../format.js';
import { sameInputValue } from '../share/codec.js';
import { fleetHeadline } from './headline.js';
import { isStackInput, stackText } from './stack-words.js';

// The metrics a comparison lists are the engine's table, compareMetrics() (core/src/
// compare_metrics.cpp, the one retrysim reads): `{ run: [row…], fleet: [row…] }`, each row
// `{ path, name, label, flag, unit, none, when }` (docs/compare.md §2). An answer that is not
// that table (an engine file without it, an error object) throws, naming what it got.
export function metricTable(answer) {
  if (!answer || answer.ok === false || !Array.isArray(answer.run) || !Array.isArray(answer.fleet)) {
    const said = answer && Array.isArray(answer.errors) ? answer.errors.map((e) => e.message).join(' ') : 'no table of compare metrics';
    throw new Error(`the engine gave no table of compare metrics (${said})`);
  }
  return answer;
}

// A fleet request's leaves as [path, value] (an empty object, or a null, is one leaf), as
// retrysim lists the inputs that differ.
function requestLeaves(value, prefix = '', out = []) {
  for (const [k, v] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length) requestLeaves(v, path, out);
    else out.push([path, v]);
  }
  return out;
}

const valueAt = (value, path) => path.split('.').reduce((v, key) => (v && typeof v === 'object' && key in v ? v[key] : undefined), value);
// A row's value: the first of its path's alternatives ("a.b|c", docs/compare.md §2) the result holds.
const at = (value, path) => path.split('|').map((p) => valueAt(value, p)).find((v) => v !== undefined);
const unitText = (row) => (row && row.unit === 'ms' ? ' ms' : '');

// An input's value in words: numbers as the page writes them, null as "none", lists joined by
// commas, a script as a link writes it, a stack of layers as stack-words.js says it (`other`:
// the other side's value, which a stack's words name the differences from).
export function inputText(name, value, codec, other) {
  if (value === undefined) return '(not set)';
  if (isStackInput(name, value)) return stackText(value, other, (field, v) => inputText(field, v, codec));
  if (value === null) return 'none';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return num(value);
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    if (name === 'script') return codec.valueText(name, value);
    return value.length ? value.map((v) => inputText(name, v, codec)).join(',') : '(none)';
  }
  return JSON.stringify(value);
}

// A metric's value in words ("3,700 ms", "never", "yes"); `row` its row of the table.
export function metricText(row, value) {
  if (value === undefined) return '-';
  if (value === null) return row && row.none ? row.none : 'none';
  if (typeof value === 'number') return `${num(value)}${unitText(row)}`;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

// "+1", "-700 ms": the change of a metric whose sides are both numbers.
export function deltaText(row, delta) {
  if (typeof delta !== 'number') return '';
  return `${delta > 0 ? '+' : delta < 0 ? '-' : ''}${num(Math.abs(delta))}${unitText(row)}`;
}

// { of, client?, summary, headline? (fleet), inputs: [{ name, before?, after? }], metrics: [{ name, label, before,
// after, delta, changed, flag }], sideEffectChanged, outcomeChanged } for two compute() results
// (or two fleet() results, `of: 'fleet'`). `metrics`: metricTable(engine.compareMetrics());
// `presetName(id)`: a preset's short name.
export function compareRuns(before, after, { metrics: table, codec = null, client = '', afterClient = client, presetName = (id) => id, of = 'run' }) {
  const rows = metricTable(table)[of === 'fleet' ? 'fleet' : 'run'];
  const fleet = of === 'fleet';
  const inputs = [];
  const said = [];
  const add = (name, x, y) => {
    if (x !== undefined && y !== undefined && sameInputValue(x, y)) return;
    const row = { name };
    if (x !== undefined) row.before = x;
    if (y !== undefined) row.after = y;
    inputs.push(row);
    said.push(`\`${name}\` ${inputText(name, x, codec, y)} → ${inputText(name, y, codec, x)}`);
  };
  if (fleet) {
    const b = new Map(requestLeaves(before.request));
    const a = new Map(requestLeaves(after.request));
    for (const [path, x] of b) add(path, x, a.get(path));
    for (const [path, y] of a) if (!b.has(path)) add(path, undefined, y);
  } else {
    for (const name of Object.keys(before.inputs)) add(name, before.inputs[name], after.inputs[name]);
    for (const name of Object.keys(after.inputs)) if (!(name in before.inputs)) add(name, undefined, after.inputs[name]);
  }
  // A row is listed when either run has its `when` member (the fleet's two workloads differ; a stack's row).
  const list = rows.filter((row) => valueAt(before, row.when) !== undefined || valueAt(after, row.when) !== undefined);

  let sideEffectChanged = false;
  let outcomeChanged = false;
  const metrics = list.map(({ path, name, label, flag }) => {
    const x = at(before, path);
    const y = at(after, path);
    const changed = !(x !== undefined && y !== undefined && sameInputValue(x, y)) && (x !== undefined || y !== undefined);
    const shown = changed && flag ? flag : null;
    if (shown === 'side-effect') sideEffectChanged = true;
    if (shown === 'outcome') outcomeChanged = true;
    return {
      name, label,
      before: x === undefined ? null : x, after: y === undefined ? null : y,
      delta: typeof x === 'number' && typeof y === 'number' ? y - x : null,
      changed, flag: shown,
    };
  });

  let summary = client ? presetName(client) : '';
  if (afterClient !== client) summary = `client ${client ? presetName(client) : '(none)'} → ${afterClient ? presetName(afterClient) : '(none)'}`;
  for (const s of said) summary += (summary ? ', ' : '') + s;
  if (said.length === 0 && afterClient === client) summary += `${summary ? ', ' : ''}the same inputs`;

  const comparison = { of };
  if (client || afterClient) comparison.client = { before: client || null, after: afterClient || null };
  Object.assign(comparison, { summary, inputs, metrics, sideEffectChanged, outcomeChanged });
  // A fleet comparison's headline in the section's words (headline.js): what the page shows
  // and the Markdown's summary.
  if (fleet) comparison.headline = fleetHeadline(inputs, before, after);
  return comparison;
}
