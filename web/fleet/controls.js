// What stops it: the fleet section's controls (section.js). The sliders and choices of the
// policy, the server and the load (model.js CONTROLS, bounded by the fleet table), the gates of
// FLEET.md §5 with their fields from the table's rows, the switched models (switches.js), the
// presets of real clients' defences (presets.js) and the way back to the opening run. Each
// change reruns the fleet (computing.js); the controls show the run on show, or the request
// computing while it does, and what each did beside it (said.js).

import { h, mount, patch } from '../dom.js';
import { CHOICE_WORDS, CONTROLS, choiceWords, controlBounds, gateDefaults, gateFields, gatesOf, getPath, setPath } from './model.js';
import { fieldProblem, markField } from './field-check.js';
import { drawSaid } from './said.js';
import { presetCard } from './presets.js';
import { mountSwitches } from './switches.js';
import { mountServerControls } from './servers-controls.js';

// The sliders and choices, one per CONTROLS row.
function controlNodes(table, id) {
  return CONTROLS.map((c) => {
    const b = controlBounds(c, table);
    const cid = id(`c-${c.path.replace(/\./g, '-')}`);
    if (c.kind === 'choice') {
      return h('div', { class: 'fl-control' },
        h('label', { for: cid }, c.label),
        h('select', { id: cid, 'data-path': c.path }, ...b.choices.map((v) => h('option', { value: v }, CHOICE_WORDS[v] || v))),
        h('p', { class: 'fl-said', 'data-said': c.path }));
    }
    return h('div', { class: 'fl-control' },
      h('label', { for: cid }, c.label),
      h('input', { type: 'range', id: cid, 'data-path': c.path, min: b.min, max: b.max, step: c.step }),
      h('output', { for: cid, id: `${cid}-out` }),
      h('p', { class: 'fl-said', 'data-said': c.path }));
  });
}

// The gates: each a switch, its scope and its fields, starting from its defaults.
export function gateNodes(table, id) {
  return gatesOf(table).map((g) => {
    const d = gateDefaults(table, g.name);
    const gid = id(`g-${g.name}`);
    return h('fieldset', { class: 'fl-gate', 'data-gate': g.name },
      h('legend', {}, h('input', { type: 'checkbox', id: gid, 'data-gate-on': g.name }), ' ', h('label', { for: gid }, g.label)),
      h('p', { class: 'fl-said', 'data-said': `gates.${g.name}` }),
      h('div', { class: 'fl-gate-fields' },
        h('label', { for: `${gid}-scope` }, 'one per'),
        h('select', { id: `${gid}-scope`, 'data-gate-field': 'scope' }, h('option', { value: 'client' }, 'client (as an SDK keeps it)'), h('option', { value: 'fleet' }, 'fleet (shared by all clients)')),
        ...gateFields(table, g.name).map(({ name, row, label, step }) => [
          h('label', { for: `${gid}-${name}` }, label),
          row.type === 'choice'
            ? h('select', { id: `${gid}-${name}`, 'data-gate-field': name },
              // Each choice in words (the engine's name stays the value).
              ...row.choices.map((c) => h('option', { value: c.name }, choiceWords(table, gateFields(table, g.name), c))))
            : h('input', { type: 'number', id: `${gid}-${name}`, 'data-gate-field': name, step, value: d[name] }),
          // What is wrong with a typed value, under its field (issue 35): empty until then.
          row.type === 'choice' ? null : h('p', { class: 'fl-field-error', id: `${gid}-${name}-error`, 'aria-live': 'polite' }),
        ])));
  });
}

// Do a request's gates (as echoed) equal a preset's (its gates over their defaults, the others off)?
function sameGates(table, echoed, gates) {
  return gatesOf(table).every((g) => {
    const want = gates[g.name] ? { ...gateDefaults(table, g.name), ...gates[g.name] } : null;
    const have = echoed[g.name] && { ...gateDefaults(table, g.name), ...echoed[g.name] };
    if (!want || !have) return !want && !have;
    return Object.keys(want).every((k) => want[k] === have[k]);
  });
}

// A gate's fieldset wired: its switch and fields change the request's `gates.<name>`, each typed
// field judged by its row first (a gate with a value it does not take is not run).
function wireGate(ctx, set, change) {
  const { root, s } = ctx;
  const name = set.dataset.gate;
  const gateNow = () => {
    const out = {};
    for (const el of set.querySelectorAll('[data-gate-field]')) {
      const key = el.dataset.gateField;
      const v = el.tagName === 'SELECT' ? el.value : el.value === '' ? NaN : Number(el.value);
      if (key === 'scope' && v === 'client') continue;
      if (key !== 'scope' && v === gateDefaults(s.table, name)[key]) continue;
      out[key] = v;
    }
    return out;
  };
  const fields = new Map(gateFields(s.table, name).map((f) => [f.name, f]));
  const judge = (el) => {
    const f = fields.get(el.dataset.gateField);
    if (!f || el.tagName === 'SELECT') return true;
    const problem = fieldProblem(el.value, f.row, f.label, { badInput: Boolean(el.validity && el.validity.badInput) });
    markField(root, el, problem);
    return !problem;
  };
  const allTaken = () => [...set.querySelectorAll('input[data-gate-field]')].map(judge).every(Boolean);
  const sw = set.querySelector('[data-gate-on]');
  sw.addEventListener('change', () => {
    if (sw.checked && !allTaken()) return;
    change(`gates.${name}`, sw.checked ? gateNow() : null);
    ctx.near.bring(sw, set);
  });
  for (const el of set.querySelectorAll('[data-gate-field]')) {
    el.addEventListener('change', () => {
      if (!allTaken() || !sw.checked) return;
      change(`gates.${name}`, gateNow());
      ctx.near.bring(el, set);
    });
    // A message goes as soon as the value is one the field takes.
    if (el.tagName === 'INPUT') el.addEventListener('input', () => { if (el.getAttribute('aria-invalid')) judge(el); });
  }
}

// mountControls(ctx) → { build(), sync(req), said(), refusedAtSwitch(result, req, by) }: `build`
// once the table is known; `sync(req)` shows `req` (computing) or, without one, the run on show.
export function mountControls(ctx) {
  const { doc, root, id, $, s } = ctx;
  // The request the controls show and change: the one computing, else the one on show.
  const current = () => (s.pending ? s.pending.request : s.request);
  const valueOf = (path, req = s.request) => {
    const own = getPath(req, path);
    return own === undefined ? getPath(s.opening, path) : own;
  };
  const switches = mountSwitches(ctx, { current, valueOf });
  const servers = mountServerControls(ctx);

  function change(path, value) {
    const base = current();
    let next = setPath(base, path, value);
    if (path.startsWith('trigger.') && base.trigger === undefined) next = setPath(next, 'trigger', { ...s.opening.trigger, ...next.trigger });
    ctx.run.compute(next, { fromReader: true, by: path });
  }
  // A request's gates as the engine echoes them: each null (off) or its fields over the defaults.
  const gatesOfRequest = (req) => Object.fromEntries(gatesOf(s.table).map((g) => {
    const own = getPath(req, `gates.${g.name}`);
    if (own === undefined) return [g.name, s.opening.gates ? s.opening.gates[g.name] : null];
    return [g.name, own === null ? null : { ...gateDefaults(s.table, g.name), ...own }];
  }));

  function build() {
    const box = $('controls');
    box.replaceChildren(...controlNodes(s.table, id).map((n) => mount(n, doc)));
    for (const el of box.querySelectorAll('[data-path]')) {
      const path = el.dataset.path;
      const read = () => (el.type === 'range' ? Number(el.value) : el.value);
      el.addEventListener(el.type === 'range' ? 'input' : 'change', () => {
        const out = root.querySelector(`#${el.id}-out`);
        if (out) out.textContent = String(read());
        change(path, read());
      });
      // A slider brings the storm near once let go (or at each key), not while dragged.
      el.addEventListener('change', () => ctx.near.bring(el, el.closest('.fl-control')));
    }
    $('gates').replaceChildren(...gateNodes(s.table, id).map((n) => mount(n, doc)));
    for (const set of $('gates').querySelectorAll('[data-gate]')) wireGate(ctx, set, change);
    switches.build();
    servers.build();
  }

  function syncGates(gatesShown) {
    for (const set of root.querySelectorAll('[data-gate]')) {
      const name = set.dataset.gate;
      const g = gatesShown[name];
      const sw = set.querySelector('[data-gate-on]');
      sw.checked = Boolean(g);
      set.classList.toggle('fl-gate-on', Boolean(g));
      const values = { ...gateDefaults(s.table, name), ...(g || {}) };
      for (const el of set.querySelectorAll('[data-gate-field]')) {
        const v = values[el.dataset.gateField];
        if (v !== undefined && el.value !== String(v) && doc.activeElement !== el) {
          el.value = String(v);
          markField(root, el, ''); // the field shows the run's value again
        }
      }
    }
  }

  // The controls show the run on show (after a link, a preset, a reset), or `req` while it computes.
  function sync(req = null) {
    const gatesShown = req ? gatesOfRequest(req) : s.shown.result.request.gates;
    for (const el of root.querySelectorAll('#fl-controls [data-path]')) {
      const v = valueOf(el.dataset.path, req || s.request);
      if (el.type === 'range') {
        if (Number(el.value) !== v) el.value = String(v);
        const out = root.querySelector(`#${el.id}-out`);
        if (out) out.textContent = String(v);
      } else if (el.value !== v) el.value = v;
    }
    syncGates(gatesShown);
    switches.sync(req);
    servers.sync(req);
    const preset = ctx.presets.find((p) => sameGates(s.table, gatesShown, p.gates));
    $('preset').value = preset ? preset.id : '';
    patch($('preset-card'), preset ? presetCard(preset, s.table) : null);
  }

  $('preset').addEventListener('change', (e) => {
    const preset = ctx.presets.find((p) => p.id === e.target.value);
    let next = setPath(current(), 'gates', {});
    if (preset) for (const [g, v] of Object.entries(preset.gates)) next = setPath(next, `gates.${g}`, { ...v });
    if (!Object.keys(next.gates).length) delete next.gates;
    ctx.run.compute(next, { fromReader: true });
    ctx.near.bring(e.target, e.target); // before the preset's card, whose words come with the run
  });
  $('reset').addEventListener('click', () => {
    ctx.run.compute({}, { fromReader: true });
    ctx.near.bring($('reset'), $('reset'));
  });

  return { build, sync, said: () => drawSaid(root, s.shown), refusedAtSwitch: switches.refusedAtSwitch };
}
