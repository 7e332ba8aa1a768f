// The article's step "The retry went to another server" (issue 39, docs/servers.md §11.1): a
// control for where the idempotency keys live, under the step's words, driving the figure beside
// them (explorable/steps.js `provide`: the sticky figure on a wide screen, a figure right after
// the control on a narrow one). Loaded as the reader nears the step (explorable/servers-door.js).
//
// Everything about the input is the engine's table's: the `keyStore` row's `scope` choices (each
// with its description) and its `lagMs` member's unit and bounds. The page chooses only its
// words for a choice and the lag slider's span (whole milliseconds, 0–5,000: the boundary of
// §11.1 is at 3,300 and 3,500); the number box beside it takes any value the row allows, so a
// reader can type 3,300.5. Whether the engine takes a value is the engine's to say
// (`validate`), under the field.

import { h, mount } from '../dom.js';
import { ms } from '../format.js';
import { sameInputs } from '../share/codec.js';

// The page's words for the row's choices (a choice without one is said by its description).
const SCOPE_WORDS = { shared: 'Shared', 'per-server': 'Per server', replicated: 'Replicated, with a lag' };
const NAMES = { shared: 'one shared key store', 'per-server': 'keys per server', replicated: 'a replicated key store' };
const SLIDER_MS = 5000; // the lag slider's span: the page's choice, within the row's bounds
const LAG_START = 3300; // where the lag control starts: §11.1's boundary

const memberOf = (row, name) => (row && Array.isArray(row.members) ? row.members.find((m) => m.name === name) : null);

// The keyStore row's scope and lag, or an error naming what the table lacks.
export function keyStoreRow(schema) {
  const row = schema && Array.isArray(schema.inputs) ? schema.inputs.find((r) => r.name === 'keyStore') : null;
  const scope = memberOf(row, 'scope');
  const lag = memberOf(row, 'lagMs');
  if (!scope || !Array.isArray(scope.choices) || !lag || lag.type !== 'number') throw new Error('The engine’s table has no "keyStore" with a scope and a lag, so the step cannot be shown.');
  return { row, scope, lag };
}

// The inputs for a scope and a lag over the step's base run; the lag is sent with a scope that
// reads it only (the row's `onlyWhen`, else "replicated").
export function stepInputs(base, table, scope, lagMs) {
  const when = table.lag.onlyWhen;
  const readsLag = when ? when.field === 'scope' && when.value === scope : scope === 'replicated';
  return { ...base, keyStore: readsLag ? { scope, lagMs } : { scope } };
}

export function stepName(count, scope, lagMs, readsLag) {
  const servers = count === 2 ? 'two servers' : `${count} servers`;
  return `${servers}, ${NAMES[scope] || scope}${readsLag ? ` with a ${ms(lagMs)} lag` : ''}`;
}

function frame(id, table) {
  const { scope, lag } = table;
  const lagMax = Math.min(lag.max, SLIDER_MS);
  return h('fieldset', { class: 'sv-step' },
    h('legend', null, 'Where the idempotency keys live'),
    scope.choices.map((c) => h('div', { class: 'sv-choice' },
      h('input', { type: 'radio', name: id('scope'), id: id(`scope-${c.name}`), value: c.name, checked: c.name === scope.default, 'aria-describedby': id(`scope-${c.name}-note`) }),
      h('label', { for: id(`scope-${c.name}`) }, SCOPE_WORDS[c.name] || c.description),
      h('span', { class: 'sv-note', id: id(`scope-${c.name}-note`) }, c.description))),
    h('div', { class: 'sv-lag', id: id('lag-box') },
      h('label', { class: 'sv-lag-label', for: id('lag'), id: id('lag-label') }, 'Replication lag'),
      h('div', { class: 'sv-pair' },
        h('input', { type: 'range', id: id('lag-range'), min: lag.min, max: lagMax, step: 1, value: LAG_START, 'aria-labelledby': id('lag-label'), 'aria-describedby': id('lag-help') }),
        h('input', { type: 'number', id: id('lag'), min: lag.min, max: lag.max, step: 'any', value: LAG_START, inputmode: 'decimal', 'aria-describedby': `${id('lag-unit')} ${id('lag-help')} ${id('lag-error')}` }),
        h('span', { class: 'sv-unit', id: id('lag-unit') }, lag.unit || '')),
      h('p', { class: 'sv-help', id: id('lag-help') }, `The slider moves in whole ${lag.unit || 'units'} up to ${ms(lagMax)}; the box takes any lag from ${ms(lag.min)} to ${ms(lag.max)}, 3,300.5 too.`),
      h('p', { class: 'rl-error sv-error', id: id('lag-error'), 'aria-live': 'polite' })),
    h('p', { class: 'sv-link' }, 'This run as a link: ', h('a', { id: id('link'), href: '#' }, 'open it in your experiment at the top'), '.'));
}

// Mounts the control in `box` (site/index.html [data-servers-step]). `story`: steps.js's api;
// `base`: the step's run (story.js STORY.servers); `schema`, `codec`, `validate`: the engine's
// table, the link format and the engine's checks (app.js); `ready()`: a promise of the engine,
// which a change awaits before it asks it anything.
export function mountServersStep(box, { story, base, schema, codec, validate, ready }) {
  const doc = box.ownerDocument;
  const id = (name) => `sv-${name}`;
  const table = keyStoreRow(schema);
  box.replaceChildren(mount(frame(id, table), doc));
  box.hidden = false;
  const $ = (name) => box.querySelector(`#${id(name)}`);
  const lagBox = $('lag-box');
  const range = $('lag-range');
  const number = $('lag');
  const errorLine = $('lag-error');
  const link = $('link');
  const state = { scope: table.scope.default, lagMs: LAG_START };

  const readsLag = (scope) => (table.lag.onlyWhen ? table.lag.onlyWhen.value === scope : scope === 'replicated');
  const choice = () => {
    const inputs = stepInputs(base, table, state.scope, state.lagMs);
    return { inputs, name: stepName(base.servers.count, state.scope, state.lagMs, readsLag(state.scope)) };
  };
  // The link is offered only when it carries every input of the run (read back, it is the same
  // inputs): a run holding one the format cannot carry (`servers`, codec.js uncarried) has none,
  // and the hidden link keeps the text of the inputs it can.
  const draw = () => {
    lagBox.hidden = !readsLag(state.scope);
    const { inputs } = choice();
    const left = codec.uncarried(inputs);
    const text = codec.encodeLink({ ...inputs, ...Object.fromEntries(left.map((name) => [name, undefined])) });
    link.setAttribute('href', `#${text}`);
    link.parentElement.hidden = left.length > 0 || !sameInputs(codec.parseLink(`#${text}`).inputs, inputs);
  };
  const showChoice = story.provide('servers', choice, box);
  draw();
  // Followed, the link's run is the experiment's (share/link.js reads the new address): the
  // reader is taken there, focus with them.
  link.addEventListener('click', () => {
    const experiment = doc.getElementById('experiment');
    if (!experiment) return;
    doc.defaultView.requestAnimationFrame(() => {
      experiment.scrollIntoView({ block: 'start' });
      experiment.focus({ preventScroll: true });
    });
  });

  // A change: the engine's verdict on the inputs first; a refused lag is said under its box
  // (the figure keeps its run), an accepted one shown in the figure.
  let asked = 0; // the latest change wins
  async function changed(from) {
    const mine = ++asked;
    const inputs = choice().inputs;
    try {
      await ready();
    } catch {
      return; // an engine that cannot load: the page says so where the explorable would be
    }
    if (mine !== asked) return;
    const errors = validate(inputs);
    const message = errors.map((e) => e.message).join(' ');
    errorLine.textContent = message;
    if (message) {
      number.setAttribute('aria-invalid', 'true');
      return;
    }
    number.removeAttribute('aria-invalid');
    if (from !== number) number.value = String(state.lagMs);
    if (from !== range) range.value = String(Math.min(Number(range.max), Math.max(Number(range.min), Math.round(state.lagMs))));
    draw();
    showChoice();
  }
  box.addEventListener('change', (event) => {
    if (event.target.type !== 'radio' || !event.target.checked) return;
    state.scope = event.target.value;
    changed(event.target);
  });
  range.addEventListener('input', () => {
    state.lagMs = Number(range.value);
    changed(range);
  });
  number.addEventListener('input', () => {
    // An empty or unreadable box is not a lag: said, and nothing shown.
    if (number.value === '' || !Number.isFinite(Number(number.value))) {
      errorLine.textContent = 'Type a lag in milliseconds.';
      number.setAttribute('aria-invalid', 'true');
      return;
    }
    state.lagMs = Number(number.value);
    changed(number);
  });
  return { state: () => ({ ...state }), choice };
}
