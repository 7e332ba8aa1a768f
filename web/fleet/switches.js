// The server's and the policy's models, switched on whole (docs/throttling.md §3, §6), among
// the fleet section's controls (controls.js). Each a fieldset as a gate's: a switch, its fields
// from the table's row (model.js switchesOf), a message under each typed field and under the
// switch (a refusal of the engine's that names it: docs/layers.md §9.6's stack, A6's retries),
// and what it did beside it (said.js).

import { h, mount } from '../dom.js';
import { getPath, setPath, switchDefaults, switchFields, switchValue, switchesOf } from './model.js';
import { fieldProblem, markField } from './field-check.js';
import { refusalText } from './refusal.js';

// One switched model's fieldset, its fields from the table's row.
function switchNode(table, id, s) {
  const sid = id(`s-${s.path.replace(/\./g, '-')}`);
  const d = switchDefaults(table, s.path);
  const field = ({ name, row, label, step }) => {
    const fid = `${sid}-${name}`;
    if (row.type === 'choice') {
      return [h('label', { for: fid }, label),
        h('select', { id: fid, 'data-switch-field': name }, ...row.choices.map((c) => h('option', { value: c.name, title: c.description }, c.name)))];
    }
    if (row.type === 'list' && row.items && row.items.type === 'choice') {
      return [h('span', { class: 'fl-switch-list-label', id: `${fid}-label` }, label),
        h('span', { class: 'fl-switch-list', role: 'group', 'aria-labelledby': `${fid}-label`, 'data-switch-field': name, 'data-list': '' },
          ...row.items.choices.map((c) => h('label', { title: c.description }, h('input', { type: 'checkbox', value: c.name }), ` ${c.name}`)))];
    }
    return [h('label', { for: fid }, label),
      h('input', { type: 'number', id: fid, 'data-switch-field': name, step, value: d[name] === null ? '' : d[name] }),
      h('p', { class: 'fl-field-error', id: `${fid}-error`, 'aria-live': 'polite' })];
  };
  return h('fieldset', { class: 'fl-gate fl-switch', 'data-switch': s.path },
    h('legend', {}, h('input', { type: 'checkbox', id: sid, 'data-switch-on': s.path }), ' ', h('label', { for: sid }, s.label)),
    h('p', { class: 'fl-field-error', id: `${sid}-error`, 'aria-live': 'polite' }),
    h('p', { class: 'fl-said', 'data-said': s.path }),
    h('div', { class: 'fl-gate-fields' }, ...switchFields(table, s.path).map(field)));
}

// mountSwitches(ctx, { current, valueOf }) → { build(), sync(req), refusedAtSwitch(result, req, by) }:
// `current()` the request the controls change, `valueOf(path, req)` a value over the opening run's.
export function mountSwitches(ctx, { current, valueOf }) {
  const { doc, root, id, s } = ctx;
  const mark = (el, problem) => markField(root, el, problem);
  let retriesBeforeHedging = null; // policy.maxRetries when hedging was switched on, given back when off

  // A switched model's typed values, or null when a field holds one its row does not take (its
  // message then under it).
  function switchValues(set, path) {
    const values = {};
    let taken = true;
    for (const f of switchFields(s.table, path)) {
      const el = set.querySelector(`[data-switch-field="${f.name}"]`);
      if (!el) continue;
      if (el.dataset.list !== undefined) values[f.name] = [...el.querySelectorAll('input:checked')].map((c) => c.value);
      else if (el.tagName === 'SELECT') values[f.name] = el.value;
      else if (f.row.nullable && el.value === '' && !(el.validity && el.validity.badInput)) {
        values[f.name] = null;
        mark(el, '');
      } else {
        const problem = fieldProblem(el.value, f.row, f.label, { badInput: Boolean(el.validity && el.validity.badInput) });
        mark(el, problem);
        if (problem) taken = false;
        else values[f.name] = Number(el.value);
      }
    }
    return taken ? values : null;
  }

  function switchChanged(set, path, fromSwitch) {
    const sw = set.querySelector('[data-switch-on]');
    const values = switchValues(set, path);
    if (!sw.checked) {
      if (!fromSwitch) return;
      mark(sw, '');
      let next = setPath(current(), path, null);
      // gRPC A6: hedging and retries exclude each other; switching hedging on set retries to 0.
      if (path === 'policy.hedging' && retriesBeforeHedging !== null) next = setPath(next, 'policy.maxRetries', retriesBeforeHedging);
      retriesBeforeHedging = null;
      ctx.run.compute(next, { fromReader: true, by: path });
    } else {
      if (!values) return;
      let next = setPath(current(), path, switchValue(s.table, path, values));
      if (path === 'policy.hedging' && valueOf('policy.maxRetries', current()) !== 0) {
        if (fromSwitch) retriesBeforeHedging = valueOf('policy.maxRetries', current());
        next = setPath(next, 'policy.maxRetries', 0);
      }
      ctx.run.compute(next, { fromReader: true, by: path });
    }
    ctx.near.bring(sw, set);
  }

  function build() {
    const box = ctx.$('switches');
    box.replaceChildren(...switchesOf(s.table).map((sw) => mount(switchNode(s.table, id, sw), doc)));
    for (const set of box.querySelectorAll('[data-switch]')) {
      const path = set.dataset.switch;
      set.querySelector('[data-switch-on]').addEventListener('change', () => switchChanged(set, path, true));
      for (const el of set.querySelectorAll('[data-switch-field]')) {
        el.addEventListener('change', () => switchChanged(set, path, false));
        if (el.tagName === 'INPUT') el.addEventListener('input', () => { if (el.getAttribute('aria-invalid')) switchValues(set, path); });
      }
    }
  }

  // The switched models show the run on show's (or `req`'s while it computes); a refusal under a
  // switch goes once a run is drawn.
  function sync(req) {
    for (const set of root.querySelectorAll('[data-switch]')) {
      const path = set.dataset.switch;
      const own = req ? getPath(req, path) : getPath(s.shown.result.request, path);
      const sw = set.querySelector('[data-switch-on]');
      if (!req) mark(sw, '');
      sw.checked = Boolean(own);
      set.classList.toggle('fl-gate-on', Boolean(own));
      const values = { ...switchDefaults(s.table, path), ...(own || {}) };
      for (const el of set.querySelectorAll('[data-switch-field]')) {
        const v = values[el.dataset.switchField];
        if (el.dataset.list !== undefined) {
          for (const c of el.querySelectorAll('input')) c.checked = Array.isArray(v) && v.includes(c.value);
        } else if (v !== undefined && doc.activeElement !== el && el.value !== (v === null ? '' : String(v))) {
          el.value = v === null ? '' : String(v);
          mark(el, '');
        }
      }
    }
  }

  // An engine refusal of a run a switched model's control asked for, or one naming that model
  // (docs/layers.md §9.6's stack, code layers-excluded; A6's retries, on policy.hedging), said
  // under its switch, as a gate's field says what it does not take; the run on show stays.
  function refusedAtSwitch(result, req, by) {
    const names = (path) => (e) => e.field === path || (e.field || '').startsWith(`${path}.`) || (by === path);
    for (const set of root.querySelectorAll('[data-switch]')) {
      const path = set.dataset.switch;
      if (!result.errors.some(names(path))) continue;
      const label = set.querySelector('legend label').textContent;
      const stack = result.errors.some((e) => e.code === 'layers-excluded');
      const why = stack ? 'the run has a stack of retry layers (policy.layers), and a stack runs FLEET.md’s gates only: where this model would sit in one is not settled (docs/layers.md §9.6). Switch it off, or go back to the opening fleet run.'
        : refusalText(result, req, { fieldName: ctx.fieldName, opening: s.opening });
      mark(set.querySelector('[data-switch-on]'), `“${label}” cannot run here: ${why} The run on show is unchanged.`);
      return true;
    }
    return false;
  }

  return { build, sync, refusedAtSwitch };
}
