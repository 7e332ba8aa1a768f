// Many servers' controls (issue 39, docs/servers.md §2): the replicas, the balancer, the retry's
// host rule, one bad host, a fault on it, the service time's distribution and where the keys
// live, each a row of the fleet engine's table (its bounds and choices read from there, the
// choices in the table's own words), and the presets of §13.3 (servers-presets.js). Each
// change reruns the fleet (computing.js) and is carried by the fleet link (model.js).

import { h, mount, patch } from '../dom.js';
import { num } from '../format.js';
import { choiceWords, getPath, leaves, setPath } from './model.js';
import { serverPresets } from './servers-presets.js';

// The page's choice of controls, by the table's path, with its words. `override`: the field of
// server 0's override (servers.overrides, the one bad host); `fault`: server 0's fault, its
// window the slowdown's 10–20 s (its kind the fault row's choices, or none).
export const SERVER_CONTROLS = [
  { path: 'servers.count', label: 'Replicas behind the balancer', kind: 'range', min: 1, max: 20, step: 1 },
  { path: 'balancer.kind', label: 'The balancer picks', kind: 'choice' },
  { path: 'balancer.scope', label: 'One balancer per', kind: 'choice' },
  { path: 'policy.retryHost', label: 'A retry is sent to', kind: 'choice' },
  { path: 'policy.hostSelectionRetryMaxAttempts', label: 'Picks after the first, to find a host not yet tried', kind: 'range', min: 0, max: 10, step: 1 },
  { path: 'server.failureRate', override: 0, label: 'Server 0 fails this share of its attempts', kind: 'range', min: 0, max: 1, step: 0.05 },
  { path: 'faults', fault: 0, label: 'Server 0 from 10 s to 20 s', kind: 'choice' },
  { path: 'server.serviceDist', label: 'Service time', kind: 'choice' },
  { path: 'keyStore.scope', label: 'Idempotency keys are kept', kind: 'choice' },
];
const FAULT_WINDOW = { startMs: 10000, endMs: 20000 };

const words = (table, k) => (k.description ? choiceWords(table, [], k) : k.name);
const faultKinds = (table) => {
  const row = table.rows.get('faults');
  const kind = row && row.items && (row.items.members || []).find((m) => m.name === 'kind');
  return kind && Array.isArray(kind.choices) ? kind.choices : null;
};

// A control's row in the table (null: this engine has no such field, and the control is not shown).
function rowOf(table, c) {
  if (c.fault !== undefined) return faultKinds(table) ? table.rows.get('faults') : null;
  if (c.override !== undefined) return table.rows.get('servers.overrides') ? table.rows.get(c.path) : null;
  return table.rows.get(c.path) || null;
}

// A field's default: its row's, else its object's default's member (balancer's default object).
export function defaultAt(table, opening, path) {
  const own = getPath(opening, path);
  if (own !== undefined) return own;
  const row = table.rows.get(path);
  if (row && row.default !== undefined) return row.default;
  const parts = path.split('.');
  const parent = table.rows.get(parts.slice(0, -1).join('.'));
  return parent && parent.default && typeof parent.default === 'object' ? parent.default[parts[parts.length - 1]] : undefined;
}

// The choices a choice control offers: [{ value, words }].
function choicesOf(table, c, row) {
  if (c.fault !== undefined) return [{ value: 'none', words: 'no fault' }, ...faultKinds(table).map((k) => ({ value: k.name, words: words(table, k) }))];
  return (row.choices || []).map((k) => ({ value: k.name, words: words(table, k) }));
}

const overridesOf = (req) => (req.servers && Array.isArray(req.servers.overrides) ? req.servers.overrides : []);
const countOf = (req) => (req.servers && typeof req.servers.count === 'number' ? req.servers.count : req.servers ? 2 : 1);

// A control's value in `req` (the reader's request, its differences from the opening run).
export function controlValue(table, opening, c, req) {
  if (c.path === 'servers.count') return countOf(req);
  if (c.override !== undefined) {
    const own = overridesOf(req).find((o) => o.index === c.override);
    if (own && own[c.path.split('.').pop()] !== undefined) return own[c.path.split('.').pop()];
  }
  if (c.fault !== undefined) {
    const f = (req.faults || []).find((x) => Array.isArray(x.servers) && x.servers.includes(c.fault));
    return f ? f.kind : 'none';
  }
  const own = getPath(req, c.path);
  return own === undefined ? defaultAt(table, opening, c.path) : own;
}

// The request with a control set to `value`: indices beyond the replicas dropped from the
// overrides and the faults (docs/servers.md §2 refuses them).
export function withControl(table, opening, c, req, value) {
  let next = req;
  if (c.path === 'servers.count') {
    const servers = { ...(req.servers || {}), count: value };
    const kept = overridesOf(req).filter((o) => o.index < value);
    if (kept.length) servers.overrides = kept;
    else delete servers.overrides;
    next = setPath(next, 'servers', servers);
    if (Array.isArray(req.faults)) {
      const faults = req.faults.map((f) => (Array.isArray(f.servers) ? { ...f, servers: f.servers.filter((j) => j < value) } : f)).filter((f) => !Array.isArray(f.servers) || f.servers.length);
      next = setPath(next, 'faults', faults);
    }
    return next;
  }
  if (c.override !== undefined) {
    const field = c.path.split('.').pop();
    const base = defaultAt(table, opening, c.path);
    const own = getPath(req, c.path);
    const same = value === (own === undefined ? base : own);
    const others = overridesOf(req).filter((o) => o.index !== c.override);
    const mine = { ...(overridesOf(req).find((o) => o.index === c.override) || { index: c.override }) };
    if (same) delete mine[field];
    else mine[field] = value;
    const overrides = Object.keys(mine).length > 1 ? [...others, mine].sort((a, b) => a.index - b.index) : others;
    const servers = { ...(req.servers || {}), count: countOf(req) };
    if (overrides.length) servers.overrides = overrides;
    else delete servers.overrides;
    return setPath(next, 'servers', servers);
  }
  if (c.fault !== undefined) {
    const others = (req.faults || []).filter((f) => !(Array.isArray(f.servers) && f.servers.includes(c.fault)));
    return setPath(next, 'faults', value === 'none' ? others : [...others, { kind: value, servers: [c.fault], ...FAULT_WINDOW }]);
  }
  return setPath(next, c.path, value);
}

// Whether the table takes every choice a preset's request names (a value of a choice row, or
// each item of a list of choices): a preset the engine would refuse is not offered (an engine
// without docs/servers.md §2's `refused` class in policy.retryOn cannot run Istio's default).
export function tableTakes(table, request) {
  return leaves(request).every(([path, value]) => {
    const row = table.rows.get(path);
    const names = (r) => (r && Array.isArray(r.choices) ? r.choices.map((c) => c.name) : null);
    if (row && row.type === 'choice') return names(row).includes(value);
    if (row && row.type === 'list' && names(row.items) && Array.isArray(value)) return value.every((v) => names(row.items).includes(v));
    return true;
  });
}

// Two requests the same, whatever their keys' order.
const sameRequest = (a, b) => {
  const key = (r) => JSON.stringify(leaves(r).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
  return key(a) === key(b);
};

function presetCard(preset, result) {
  return h('div', {},
    h('p', {}, h('strong', {}, 'Source: '), preset.source),
    h('p', {}, h('strong', {}, 'It sets: '), preset.sets, ' The rest is the opening fleet run’s.'),
    h('p', {}, h('strong', {}, 'What this cannot represent: '), preset.cannot.join(' ')),
    result ? h('p', { class: 'fl-preset-said' }, preset.said(result)) : null);
}

// mountServerControls(ctx) → { build(), sync(req) }: `build` once the table is known; `sync(req)`
// shows `req` while it computes, else the run on show.
export function mountServerControls(ctx) {
  const { doc, root, id, $, s } = ctx;
  let presets = serverPresets();
  let shown = []; // [{ c, row, el }]
  const current = () => (s.pending ? s.pending.request : s.request);

  function controlNode(c, row) {
    const cid = id(`sv-${c.path.replace(/\./g, '-')}${c.override !== undefined ? `-${c.override}` : ''}`);
    if (c.kind === 'choice') {
      return h('div', { class: 'fl-control' },
        h('label', { for: cid }, c.label),
        h('select', { id: cid }, ...choicesOf(s.table, c, row).map((k) => h('option', { value: k.value }, k.words))));
    }
    const min = typeof row.min === 'number' ? Math.max(c.min, row.min) : c.min;
    const max = typeof row.max === 'number' ? Math.min(c.max, row.max) : c.max;
    return h('div', { class: 'fl-control' },
      h('label', { for: cid }, c.label),
      h('input', { type: 'range', id: cid, min, max, step: c.step }),
      h('output', { for: cid, id: `${cid}-out` }));
  }

  function build() {
    const box = $('servers-controls');
    if (!box) return;
    shown = SERVER_CONTROLS.map((c) => ({ c, row: rowOf(s.table, c), el: /** @type {any} */ (null) })).filter((x) => x.row);
    box.replaceChildren(...shown.map((x) => mount(controlNode(x.c, x.row), doc)));
    shown.forEach((x, i) => {
      x.el = box.children[i].querySelector('select, input');
      const read = () => (x.el.type === 'range' ? Number(x.el.value) : x.el.value);
      x.el.addEventListener(x.el.type === 'range' ? 'input' : 'change', () => {
        const out = root.querySelector(`#${x.el.id}-out`);
        if (out) out.textContent = num(read());
        ctx.run.compute(withControl(s.table, s.opening, x.c, current(), read()), { fromReader: true, by: x.c.path });
      });
      x.el.addEventListener('change', () => ctx.near.bring(x.el, x.el.closest('.fl-control')));
    });
    presets = serverPresets().filter((p) => tableTakes(s.table, p.request));
    const select = $('servers-preset');
    select.replaceChildren(...[h('option', { value: '' }, 'none (the run as the controls set it)'), ...presets.map((p) => h('option', { value: p.id }, p.label))].map((n) => mount(n, doc)));
    select.addEventListener('change', () => {
      const preset = presets.find((p) => p.id === select.value);
      ctx.run.compute(preset ? preset.request : {}, { fromReader: true, by: 'servers' });
      ctx.near.bring(select, select);
    });
    $('servers-box').hidden = !shown.length;
  }

  function sync(req = null) {
    if (!shown.length) return;
    const r = req || s.request;
    for (const x of shown) {
      const v = controlValue(s.table, s.opening, x.c, r);
      if (x.el.type === 'range') {
        if (Number(x.el.value) !== v) x.el.value = String(v);
        const out = root.querySelector(`#${x.el.id}-out`);
        if (out) out.textContent = num(v);
      } else if (x.el.value !== String(v)) x.el.value = String(v);
    }
    const preset = presets.find((p) => sameRequest(p.request, r));
    $('servers-preset').value = preset ? preset.id : '';
    patch($('servers-card'), preset ? presetCard(preset, req ? null : s.shown.result) : null);
  }

  return { build, sync, presets: () => presets };
}
