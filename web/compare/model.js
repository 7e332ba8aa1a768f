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

// The fleet's (FLEET.md §8), as retrysim lists them (bindings/cli/compare.cpp): the service
// workload's recovery and totals, the occ workload's means. A metric's name is its path.
export const FLEET_SERVICE_METRICS = [
  { path: 'recovery.recoveredAtMs', label: 'recovers at', flag: 'outcome' },
  { path: 'recovery.metastable', label: 'metastable', flag: 'outcome' },
  { path: 'totals.charges', label: 'charges', flag: 'side-effect' },
  { path: 'totals.duplicateCharges', label: 'duplicate charges', flag: 'side-effect' },
  { path: 'totals.requests', label: 'requests', flag: '' },
  { path: 'totals.succeeded', label: 'succeeded', flag: '' },
  { path: 'totals.successRate', label: 'success rate', flag: '' },
  { path: 'totals.attempts', label: 'attempts', flag: '' },
  { path: 'totals.retries', label: 'retries', flag: '' },
  { path: 'totals.load', label: 'load', flag: '' },
  { path: 'totals.latencyMs.p50', label: 'p50 latency', flag: '' },
  { path: 'totals.latencyMs.p90', label: 'p90 latency', flag: '' },
  { path: 'totals.latencyMs.p99', label: 'p99 latency', flag: '' },
  { path: 'totals.latencyMs.max', label: 'max latency', flag: '' },
  { path: 'totals.endMs', label: 'last event', flag: '' },
];
export const FLEET_OCC_METRICS = [
  { path: 'mean.writes', label: 'writes (mean)', flag: '' },
  { path: 'mean.failures', label: 'failed writes (mean)', flag: '' },
  { path: 'mean.makespanMs', label: 'makespan (mean)', flag: '' },
];

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
export function compareRuns(before, after, { codec, client = '', afterClient = client, presetName = (id) => id, of = 'run' }) {
  const fleet = of === 'fleet';
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
  if (fleet) {
    const b = new Map(requestLeaves(before.request));
    const a = new Map(requestLeaves(after.request));
    for (const [path, x] of b) add(path, x, a.get(path));
    for (const [path, y] of a) if (!b.has(path)) add(path, undefined, y);
  } else {
    for (const name of Object.keys(before.inputs)) add(name, before.inputs[name], after.inputs[name]);
    for (const name of Object.keys(after.inputs)) if (!(name in before.inputs)) add(name, undefined, after.inputs[name]);
  }
  const list = !fleet ? RUN_METRICS : [
    ...(before.totals || after.totals ? FLEET_SERVICE_METRICS : []),
    ...(before.mean || after.mean ? FLEET_OCC_METRICS : []),
  ];

  let sideEffectChanged = false;
  let outcomeChanged = false;
  const metrics = list.map(({ path, label, flag }) => {
    const x = at(before, path);
    const y = at(after, path);
    const changed = !(x !== undefined && y !== undefined && sameInputValue(x, y)) && (x !== undefined || y !== undefined);
    const shown = changed && flag ? flag : null;
    if (shown === 'side-effect') sideEffectChanged = true;
    if (shown === 'outcome') outcomeChanged = true;
    return {
      name: fleet ? path : path.slice(path.indexOf('.') + 1), label,
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
  return Object.assign(comparison, { summary, inputs, metrics, sideEffectChanged, outcomeChanged });
}
