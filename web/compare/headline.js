// A fleet comparison's headline (issue 35 item 6, docs/compare.md §6): what changed, in the
// fleet section's own words, then what it did to the recovery and the duplicate charges:
//   "Token bucket (per client, capacity 5): recovers 9 s after the slowdown instead of never;
//    duplicate charges 14,874 → 617"
// retrysim words the same headline in C++ (bindings/cli/compare.cpp, fleetHeadline) from the
// same label map, which the build writes for it from this file (bindings/cli/fleet-words-data.mjs);
// tests/node/link-cli.test.js holds the two to the same words, link for link.

import { CONTROLS, FIELD_WORDS, GATE_LABELS } from '../fleet/model.js';
import { num } from '../format.js';
import { isStackInput, stackText } from './stack-words.js';

// A gate's name without the source its label credits ("Token bucket (Brooker)" → "Token bucket").
const gateName = (label) => label.replace(/\s*\([^)]*\)$/, '');

// The one map of labels: [path, label] for every path the fleet section labels (its controls,
// each gate, each gate field as "<gate>: <field words>"), in that order; a gate's first field in
// the list is its size, the one its headline names. The gates are the section's GATE_LABELS (one
// per gate of the table's gates row): the build writes this map for retrysim without the engine.
export function fleetLabels() {
  const out = CONTROLS.map((c) => [c.path, c.label]);
  for (const [name, label] of Object.entries(GATE_LABELS)) {
    out.push([`gates.${name}`, gateName(label)]);
    for (const [path, [words]] of Object.entries(FIELD_WORDS)) {
      if (path.startsWith(`gates.${name}.`)) out.push([path, `${gateName(label)}: ${words}`]);
    }
  }
  return out;
}

const at = (value, path) => path.split('.').reduce((v, key) => (v && typeof v === 'object' ? v[key] : undefined), value);
// A value as retrysim's inputText() writes it (compare.cpp): numbers as the page writes them.
const valueText = (v) => (v === undefined ? '(not set)' : v === null ? 'none' : typeof v === 'number' ? num(v)
  : Array.isArray(v) ? (v.length ? v.map(valueText).join(',') : '(none)') : typeof v === 'object' ? JSON.stringify(v) : String(v));
// A path's value, a stack of layers as stack-words.js says it (`other`: the other side's).
const pathText = (name, v, other) => (isStackInput(name, v) ? stackText(v, other, (field, x) => valueText(x)) : valueText(v));

// The recovery of one side as { kind, after }: kind 'none' (no trigger), 'rode-out',
// 'recovered' (`after`: seconds from the trigger's end), 'metastable' or 'undecided' (FLEET.md §8).
function recoveryOf(result) {
  const rec = result.recovery;
  if (!rec) return { kind: 'none' };
  if (rec.disrupted === false) return { kind: 'rode-out' };
  if (rec.recoveredAtMs !== null) return { kind: 'recovered', after: num((rec.recoveredAtMs - rec.triggerEndMs) / 1000) };
  return { kind: rec.metastable ? 'metastable' : 'undecided' };
}

function recoveryClause(before, after) {
  const b = recoveryOf(before);
  const a = recoveryOf(after);
  if (a.kind === 'none' && b.kind === 'none') return '';
  const what = after.request.trigger && after.request.trigger.kind === 'outage' ? 'outage' : 'slowdown';
  const said = {
    none: 'nothing goes wrong', 'rode-out': 'rides it out', recovered: `recovers ${a.after} s after the ${what}`,
    metastable: 'never recovers', undecided: 'has not recovered when new requests stop',
  }[a.kind];
  if (a.kind === b.kind && a.after === b.after) return `${said}, as before`;
  const was = { none: 'nothing going wrong', 'rode-out': 'riding it out', recovered: `${b.after} s after`, metastable: 'never', undecided: 'not recovered when new requests stop' }[b.kind];
  return `${said} instead of ${was}`;
}

// The headline's parts, [text | { code }] as the Markdown writer takes them (docs/compare.md
// §5): `inputs` compareRuns()'s rows (the paths that differ, in the requests' order), `before`
// and `after` the two fleet results. A gate switched on is its name, scope and size; one
// switched off "<gate> off"; another path its label, or its path as code where the section
// has no label for it, with "x → y".
export function fleetHeadline(inputs, before, after, labels = new Map(/** @type {Array<[string, string]>} */ (fleetLabels()))) {
  const parts = [];
  const said = new Set();
  const add = (...items) => {
    if (parts.length) parts.push(', ');
    parts.push(...items);
  };
  for (const { name, before: x, after: y } of inputs) {
    const gate = /^gates\.([^.]+)/.exec(name);
    const switched = gate && (at(before.request, gate[0]) === null || at(after.request, gate[0]) === null);
    if (switched) {
      if (said.has(gate[0])) continue;
      said.add(gate[0]);
      const on = at(after.request, gate[0]);
      const label = labels.get(gate[0]) || gate[0];
      if (!on) {
        add(`${label} off`);
        continue;
      }
      const size = [...labels.keys()].find((p) => p.startsWith(`${gate[0]}.`) && on[p.slice(gate[0].length + 1)] !== undefined);
      const sizeText = size ? `, ${labels.get(size).slice(label.length + 2)} ${valueText(on[size.slice(gate[0].length + 1)])}` : '';
      add(`${label} (per ${valueText(on.scope)}${sizeText})`);
      continue;
    }
    const label = labels.get(name);
    if (label) add(`${label} ${pathText(name, x, y)} → ${pathText(name, y, x)}`);
    else add({ code: name }, ` ${pathText(name, x, y)} → ${pathText(name, y, x)}`);
  }
  if (!parts.length) parts.push('the same inputs');
  const clauses = [];
  const recovery = recoveryClause(before, after);
  if (recovery) clauses.push(recovery);
  const x = at(before, 'totals.duplicateCharges');
  const y = at(after, 'totals.duplicateCharges');
  if (typeof x === 'number' && typeof y === 'number') clauses.push(x === y ? `duplicate charges ${num(y)}, as before` : `duplicate charges ${num(x)} → ${num(y)}`);
  if (clauses.length) parts.push(`: ${clauses.join('; ')}`);
  return parts;
}

// The parts as one line, names in backticks (retrysim's JSON `headline`).
export const headlineText = (parts) => parts.map((p) => (typeof p === 'string' ? p : `\`${p.code}\``)).join('');
