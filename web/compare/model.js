// Two runs and what differs between them, as data (issue 17). Pure: results in, a comparison
// out. retrysim --compare builds the same object in C++ (bindings/cli/compare.cpp) from the
// same results, and tests/node/link-cli.test.js holds the two to the same figures; the
// Markdown table a reviewer pastes and the page's difference lines read these rows.

import { num } from '../format.js';
import { sameInputValue } from '../share/codec.js';

// The single run's metrics (SPEC §5), in the order the comparison lists them; `flag` marks
// those whose change is a side effect or an outcome.
export const RUN_METRICS = [
  { path: 'metrics.outcome', label: 'outcome', flag: 'outcome' },
  { path: 'metrics.charges', label: 'charges', flag: 'side-effect' },
  { path: 'metrics.duplicates', label: 'duplicate charges', flag: 'side-effect' },
  { path: 'metrics.replays', label: 'replays', flag: '' },
  { path: 'metrics.attempts', label: 'attempts', flag: '' },
  { path: 'metrics.elapsedMs', label: 'elapsed', flag: '' },
  { path: 'metrics.waitingMs', label: 'waiting', flag: '' },
  { path: 'metrics.stopReason', label: 'stop reason', flag: '' },
  { path: 'metrics.agentReport', label: 'agent report', flag: '' },
  { path: 'metrics.lookupNeeded', label: 'lookup needed', flag: '' },
  { path: 'metrics.refusedWaitMs', label: 'refused wait', flag: '' },
];

const at = (value, path) => path.split('.').reduce((v, key) => (v && typeof v === 'object' && key in v ? v[key] : undefined), value);
const inMs = (path) => /Ms$/.test(path.split('.').pop()) || path.includes('latencyMs.');

// An input's value in words: numbers as the page writes them, null as "none", lists joined by
// commas, a script as a link writes it.
export function inputText(name, value, codec) {
  if (value === undefined) return '(not set)';
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

// A metric's value in words ("3,700 ms", "never", "yes").
export function metricText(path, value) {
  if (value === undefined) return '-';
  if (value === null) return path === 'recovery.recoveredAtMs' ? 'never' : 'none';
  if (typeof value === 'number') return `${num(value)}${inMs(path) ? ' ms' : ''}`;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

// "+1", "-700 ms": the change of a metric whose sides are both numbers.
export function deltaText(path, delta) {
  if (typeof delta !== 'number') return '';
  return `${delta > 0 ? '+' : delta < 0 ? '-' : ''}${num(Math.abs(delta))}${inMs(path) ? ' ms' : ''}`;
}

// { of, client?, summary, inputs: [{ name, before?, after? }], metrics: [{ name, label, before,
// after, delta, changed, flag }], sideEffectChanged, outcomeChanged } for two compute() results.
// `presetName(id)`: a preset's short name.
export function compareRuns(before, after, { codec, client = '', afterClient = client, presetName = (id) => id }) {
  const inputs = [];
  const said = [];
  const add = (name, x, y) => {
    if (x !== undefined && y !== undefined && sameInputValue(x, y)) return;
    const row = { name };
    if (x !== undefined) row.before = x;
    if (y !== undefined) row.after = y;
    inputs.push(row);
    said.push(`\`${name}\` ${inputText(name, x, codec)} → ${inputText(name, y, codec)}`);
  };
  for (const name of Object.keys(before.inputs)) add(name, before.inputs[name], after.inputs[name]);
  for (const name of Object.keys(after.inputs)) if (!(name in before.inputs)) add(name, undefined, after.inputs[name]);

  let sideEffectChanged = false;
  let outcomeChanged = false;
  const metrics = RUN_METRICS.map(({ path, label, flag }) => {
    const x = at(before, path);
    const y = at(after, path);
    const changed = !(x !== undefined && y !== undefined && sameInputValue(x, y)) && (x !== undefined || y !== undefined);
    const shown = changed && flag ? flag : null;
    if (shown === 'side-effect') sideEffectChanged = true;
    if (shown === 'outcome') outcomeChanged = true;
    return {
      name: path.slice(path.indexOf('.') + 1), label,
      before: x === undefined ? null : x, after: y === undefined ? null : y,
      delta: typeof x === 'number' && typeof y === 'number' ? y - x : null,
      changed, flag: shown,
    };
  });

  let summary = client ? presetName(client) : '';
  if (afterClient !== client) summary = `client ${client ? presetName(client) : '(none)'} → ${afterClient ? presetName(afterClient) : '(none)'}`;
  for (const s of said) summary += (summary ? ', ' : '') + s;
  if (said.length === 0 && afterClient === client) summary += `${summary ? ', ' : ''}the same inputs`;

  const comparison = { of: 'run' };
  if (client || afterClient) comparison.client = { before: client || null, after: afterClient || null };
  return Object.assign(comparison, { summary, inputs, metrics, sideEffectChanged, outcomeChanged });
}
