// What scripts/clients-table writes from sources.js: docs/clients.md's preset tables (one
// section per group, one table per preset naming where each value comes from) and the compact
// presets of presets.js's generated block. Tests compare both with what these functions give,
// so the docs, the page and the sources are one source. Node and tests only: the page never
// loads this file or sources.js.

import { GENERATED_BEGIN, GENERATED_END, POLICY_FIELDS } from './presets.js';
import { SOURCES, compact } from './sources.js';

export const BEGIN = '<!-- presets: generated from web/clients/presets.js by web/clients/table.js; do not edit by hand -->';
export const END = '<!-- presets: end -->';

const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (text) => `\`${String(text).replace(/`/g, '\u2019')}\``;
const value = (v) => code(JSON.stringify(v));
const short = (commit) => commit.slice(0, 8);

// Where one value comes from, in words, for the table's last column.
export function pinText(pin) {
  if (!pin) return 'not pinned';
  const parts = [];
  if (pin.unverified) parts.push(`**unverified**: ${pin.unverified}`);
  if (pin.page) parts.push(`set by this page: ${pin.page}`);
  if (pin.none) parts.push(`no such setting: ${pin.none}`);
  if (pin.repo) {
    const line = pin.line === '?' ? 'line not pinned' : `${pin.line.includes('-') ? 'lines' : 'line'} ${pin.line}`;
    parts.push(`${pin.repo} ${pin.tag} (${short(pin.commit)}) ${code(pin.file)} ${line}: ${code(pin.quote)}`);
  }
  if (pin.package) {
    parts.push(`${pin.package} ${pin.version} (npm tarball, ${pin.integrity.slice(0, 15)}…) ${code(pin.file)} ${pin.line.includes('-') ? 'lines' : 'line'} ${pin.line}: ${code(pin.quote)}`);
  }
  for (const also of pin.also || []) parts.push(`also ${pinText(also)}`);
  if (pin.approximated) parts.push(`**approximated**: ${pin.approximated}`);
  return parts.join('; ');
}

function presetSection(p) {
  const lines = [`### ${p.name}`, '', `${p.library}: ${p.versions}. Preset \`${p.id}\`.`, ''];
  lines.push('| input | value | where it comes from |', '|---|---|---|');
  for (const field of POLICY_FIELDS.filter((f) => f in p.inputs)) lines.push(`| \`${field}\` | ${cell(value(p.inputs[field]))} | ${cell(pinText(p.pins[field]))} |`);
  lines.push('');
  const o = p.opening;
  lines.push(`**Opening run** (stated on the card, checked through the engine): ${o.attempts} attempt${o.attempts === 1 ? '' : 's'}, ` +
    `${o.charges} charge${o.charges === 1 ? '' : 's'}${o.replays ? `, ${o.replays} replay${o.replays === 1 ? '' : 's'}` : ''}, outcome ${o.outcome}: ${o.why}.`, '');
  if (p.gates.length) {
    lines.push('**Gates for the fleet** (FLEET.md §5, data only):', '');
    for (const g of p.gates) lines.push(`- \`${g.gate}\` ${g.params ? value(g.params) : '(no FLEET §5 parameters)'}: ${pinText(g.pin)}. ${g.note}`);
    lines.push('');
  }
  lines.push('**What the engine cannot represent:**', '');
  for (const c of p.cannot) lines.push(`- ${c}`);
  lines.push('');
  if (p.unverified.length) {
    lines.push('**Unverified:**', '');
    for (const u of p.unverified) lines.push(`- ${u}`);
    lines.push('');
  }
  return lines.join('\n');
}

// The whole generated block, markers included.
export function presetsTable() {
  const out = [BEGIN, ''];
  const groups = [...new Set(SOURCES.map((p) => p.group))];
  for (const group of groups) {
    out.push(`## §${groups.indexOf(group) + 1}. ${group}`, '');
    for (const p of SOURCES.filter((q) => q.group === group)) out.push(presetSection(p));
  }
  out.push(END);
  return out.join('\n');
}

// presets.js's generated block, markers included: the compact presets as a module literal.
// `fleetSchema`: the fleet engine's fleetSchema() (the gates' units).
export function presetsModuleBlock(fleetSchema) {
  const items = SOURCES.map((p) => `  ${JSON.stringify(compact(p, fleetSchema))},`);
  return [GENERATED_BEGIN, 'export const PRESETS = [', ...items, '];', GENERATED_END].join('\n');
}

// --- staleness (scripts/clients-table --outdated) ------------------------------------------------

// The Node packages some presets read in a GitHub repository rather than a tarball: the
// repository and the package it publishes (its tags are the versions, with a leading v).
export const NODE_REPOS = { 'stripe/stripe-node': 'stripe' };

// Numeric x.y.z order: -1, 0, 1 (never the strings' order: 16.10.0 is after 16.2.0).
export function compareVersions(a, b) {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] || 0) !== (pb[i] || 0)) return (pa[i] || 0) < (pb[i] || 0) ? -1 : 1;
  return 0;
}

// For each preset, the newest version of each Node package its pins read: [{ id, package, version }].
export function nodeVersionsRead(sources = SOURCES) {
  const rows = [];
  for (const preset of sources) {
    const newest = new Map();
    const add = (pin) => {
      if (!pin) return;
      let name = null;
      let version = null;
      if (pin.package) [name, version] = [pin.package, pin.version];
      else if (pin.repo && NODE_REPOS[pin.repo] && /^v\d+\.\d+\.\d+$/.test(pin.tag)) [name, version] = [NODE_REPOS[pin.repo], pin.tag.slice(1)];
      if (name && (!newest.has(name) || compareVersions(newest.get(name), version) < 0)) newest.set(name, version);
      for (const also of pin.also || []) add(also);
    };
    for (const f of Object.keys(preset.inputs)) add(preset.pins[f]);
    for (const g of preset.gates) add(g.pin);
    for (const [name, version] of newest) rows.push({ id: preset.id, package: name, version });
  }
  return rows;
}

// The rows read at a version older than the package's newest (`newest`: package → version).
export function outdatedRows(read, newest) {
  return read.filter((r) => newest[r.package] && compareVersions(r.version, newest[r.package]) < 0)
    .map((r) => ({ ...r, newest: newest[r.package] }));
}
