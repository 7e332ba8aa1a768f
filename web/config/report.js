// "Paste your config", pure: what a reading says (docs/config-in.md §2.5), drawn from the
// reader's own data — the format and the rule that chose it, the selection, the warnings, and
// every report entry: the source field, its line, what became of it (read, the product's
// default, clamped, not modelled, ignored, set by the situation or the preset, or left at the
// engine's default) and the engine inputs it became. Nothing here re-derives a reading.
import { h } from '../dom.js';

// How each status reads (the core's words are the codes).
const STATUS = {
  read: 'read', defaulted: 'the product’s default', clamped: 'clamped', 'not-modelled': 'not modelled',
  ignored: 'ignored (not a retry setting)', set: 'set', 'engine-default': 'the engine’s default',
};
export const statusWords = (status) => STATUS[status] || status;

// A value as written in the file (a string as it is, anything else as JSON).
export const written = (v) => (typeof v === 'string' ? v : JSON.stringify(v));

function formatTitle(formats, name) {
  const f = (formats || []).find((x) => x.name === name);
  return f ? f.title : name;
}

// "Detected: Envoy route (envoy-bootstrap)" or "Read as: Envoy route (chosen)".
export function detectedText(answer, formats) {
  const title = formatTitle(formats, answer.format);
  return answer.detected ? `Detected: ${title} (rule ${answer.detected.rule})` : `Read as: ${title} (as chosen)`;
}

export function selectionText(selection) {
  if (!selection) return '';
  const what = selection.name || selection.path || '';
  const rule = selection.rule ? ` (${selection.rule})` : '';
  const others = selection.others && selection.others.length ? `; also in the file: ${selection.others.join(', ')}` : '';
  return what ? `Selected: ${what}${rule}${others}` : '';
}

const inputText = (i) => `${i.name} = ${written(i.value)}`;

function entryRow(e) {
  const marks = [e.approximated ? 'approximated' : '', e.status === 'not-modelled' ? 'not modelled' : ''].filter(Boolean);
  return h('tr', { class: `rl-cfg-entry rl-cfg-${e.status}${e.approximated ? ' rl-cfg-approximated' : ''}`, 'data-path': e.path, 'data-status': e.status },
    h('th', { scope: 'row' }, e.path ? h('code', null, e.path) : h('span', { class: 'rl-cfg-none' }, e.origin === 'engine' ? 'no field' : e.rule || 'no field')),
    h('td', { class: 'rl-cfg-line' }, e.line ? String(e.line) : '—'),
    h('td', { class: 'rl-cfg-became' }, statusWords(e.status), marks.length && e.status !== 'not-modelled' ? ` (${marks.join(', ')})` : ''),
    h('td', { class: 'rl-cfg-source' }, 'source' in e ? h('code', null, written(e.source)) : '—'),
    h('td', { class: 'rl-cfg-inputs' }, e.inputs.length ? e.inputs.map((i, n) => [n ? ', ' : '', h('code', null, inputText(i))]) : '—'),
    h('td', { class: 'rl-cfg-note' }, e.note || ''));
}

// The reading, field by field: the table retrysim prints as `config.report`. Entries with a
// source field first (the file's order, as the reader wrote them), then those with none.
// `side`: "Before" or "After" in compare mode, so that each table's region has a name of its own.
export function readingView(id, answer, formats, side = '') {
  const fromFile = answer.report.filter((e) => e.status !== 'engine-default');
  const defaults = answer.report.filter((e) => e.status === 'engine-default');
  const count = (s) => answer.report.filter((e) => e.status === s).length;
  return h('div', { class: 'rl-cfg-reading', 'data-format': answer.format },
    h('p', { class: 'rl-cfg-detected', id: id('detected') }, detectedText(answer, formats)),
    selectionText(answer.selection) ? h('p', { class: 'rl-cfg-selection' }, selectionText(answer.selection)) : null,
    answer.warnings.length ? h('ul', { class: 'rl-cfg-warnings', 'aria-label': 'Warnings' },
      answer.warnings.map((w) => h('li', null, h('strong', null, 'Warning: '), w.field ? [h('code', null, w.field), w.line ? ` (line ${w.line})` : '', ': '] : '', w.message))) : null,
    h('p', { class: 'rl-cfg-counts' },
      `${count('read')} read, ${count('defaulted')} at the product’s default, ${count('clamped')} clamped, ${count('not-modelled')} not modelled, ${count('ignored')} ignored; ${defaults.length} engine inputs left at the engine’s default.`),
    h('div', { class: 'rl-cfg-table-box', tabindex: '0', role: 'region', 'aria-labelledby': id('table-caption') },
      h('table', { class: 'rl-cfg-table' },
        h('caption', { id: id('table-caption') }, side ? `${side}: the reading, field by field` : 'The reading, field by field'),
        h('thead', null, h('tr', null,
          ['Source field', 'Line', 'Became', 'In the file', 'Engine inputs', 'Why'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', null, fromFile.map(entryRow)))),
    defaults.length ? h('details', { class: 'rl-cfg-defaults' },
      h('summary', null, `The ${defaults.length} inputs no field set (the engine’s defaults)`),
      h('p', null, defaults.map((e, n) => [n ? ', ' : '', h('code', null, e.inputs.map((i) => i.name).join(', ') || e.rule)]))) : null);
}

// §10.3's `changed`: what moved between the two pastes, and the engine inputs each moved.
export function changedView(id, changed) {
  if (!changed.length) return h('p', { class: 'rl-cfg-changed-none', id: id('changed') }, 'No field changed between the two configs.');
  const side = (v) => (v === null ? '—' : written(v));
  const line = (c) => (c.lineBefore === c.lineAfter ? String(c.lineBefore) : `${c.lineBefore ?? '—'} → ${c.lineAfter ?? '—'}`);
  return h('div', { class: 'rl-cfg-table-box rl-cfg-changed-box', tabindex: '0', role: 'region', 'aria-labelledby': id('changed-caption') }, h('table', { class: 'rl-cfg-table rl-cfg-changed', id: id('changed') },
    h('caption', { id: id('changed-caption') }, 'What changed between the two configs'),
    h('thead', null, h('tr', null, ['Config field', 'Line', 'Before', 'After', 'Engine inputs moved'].map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', null, changed.map((c) => h('tr', { 'data-path': c.path },
      h('th', { scope: 'row' }, h('code', null, c.path)),
      h('td', null, line(c)),
      h('td', null, h('code', null, side(c.before))),
      h('td', null, h('code', null, side(c.after))),
      h('td', { class: 'rl-cfg-inputs' }, c.inputs.length ? c.inputs.map((m, n) => [n ? '; ' : '', h('code', null, m.name), ` ${written(m.before)} → ${written(m.after)}`]) : 'none'))))));
}
