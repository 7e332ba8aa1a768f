// The fleet running a stack of retry layers (issue 33, docs/layers.md §9): the layers section's
// "Run this stack in the fleet" door comes in here (`runStack`), and the section shows the stack
// it runs, read only, with a way to clear it. Mounted by one call on the fleet section's API
// (web/fleet.js): nothing in fleet/section.js knows of it. It reads the run on show through that
// API (state(), table(), load(), settled()) and redraws when the section draws a run (the
// section sets `data-verdict` on its root with every drawing).

import { h, mount, patch } from '../dom.js';
import { num, plural } from '../format.js';
import { stackText } from '../compare/stack-words.js';
import { setPath } from './model.js';

// A single run's layers (the layers section's echo, docs/layers.md §2) as the fleet's: the fields
// a fleet layer takes (its table row's members, §9), and of `retryOn` the classes the fleet
// answers with (`retryOn`'s choices there; a fleet server never answers a 4xx). `dropped`: the
// classes left out, said beside the door.
export function fleetLayers(layers, itemRow) {
  const members = itemRow.members || [];
  const retryOn = members.find((m) => m.name === 'retryOn');
  const classes = retryOn && retryOn.items && Array.isArray(retryOn.items.choices) ? retryOn.items.choices.map((c) => c.name) : null;
  const dropped = new Set();
  const out = layers.map((layer) => Object.fromEntries(members.filter((m) => Object.hasOwn(layer, m.name)).map((m) => {
    if (m.name !== 'retryOn' || !classes || !Array.isArray(layer.retryOn)) return [m.name, layer[m.name]];
    for (const c of layer.retryOn) if (!classes.includes(c)) dropped.add(c);
    return [m.name, layer.retryOn.filter((c) => classes.includes(c))];
  })));
  return { layers: out, dropped: [...dropped] };
}

// The summary's load (docs/layers.md §9.2): FLEET's `load` (attempts per first attempt) without
// a stack; with one, the server's attempts per request (`attemptsPerRequest`, the layers'
// attempts multiplied), and `load` said for what it counts there: the bottom layer's attempts
// per call, 1.00 under any stack whose bottom layer does not retry.
function loadText(totals) {
  if (!Array.isArray(totals.layers)) return `load ${totals.load.toFixed(2)}×`;
  return `load ${totals.attemptsPerRequest.toFixed(2)}× a request through ${plural(totals.layers.length, 'retry layer')}; ${totals.load.toFixed(2)} attempts per call of the bottom layer`;
}

// The storm's line under its chart: the requests, the attempts they made, the load, what succeeded;
// "1 request made 1 attempt" in the singular.
export function runSummary(totals) {
  return `${plural(totals.requests, 'request')} made ${plural(totals.attempts, 'attempt')} (${loadText(totals)}); ${num(totals.succeeded)} succeeded.`;
}

const valueText = (v) => (v === null ? 'none' : typeof v === 'number' ? num(v) : Array.isArray(v) ? v.join(',') || '(none)' : String(v));

// Where a fleet run's stack is set, in words: the section's ("Retries across layers"), or the
// element's (<retry-lab view="fleet">, fleet.js).
export const SET_IN_SECTION = 'set in “Retries across layers”';

// The stack a fleet result runs, in words and a table, or null when it runs none.
export function fleetStackView(id, result, setIn = SET_IN_SECTION) {
  const layers = result.request.policy && result.request.policy.layers;
  if (!Array.isArray(layers)) return null;
  const rows = result.totals.layers || [];
  return [
    h('h4', { id: id('stack-h'), tabindex: -1 }, 'The stack each client runs'),
    h('p', { id: id('stack-words') }, `Every request goes through ${plural(layers.length, 'retry layer')}, top first: ${stackText(layers, null, (field, v) => valueText(v))}. `,
      `${num(result.totals.attemptsPerRequest)} attempts reached the server per request. Each layer has its own policy, ${setIn}: the retry controls below do not change it.`),
    h('div', { class: 'fl-scroll', tabindex: 0, role: 'region', 'aria-labelledby': id('stack-caption') },
      h('table', { class: 'fl-table' },
        h('caption', { id: id('stack-caption') }, 'What each layer did, the whole fleet'),
        h('thead', {}, h('tr', {}, ...['Layer', 'Calls', 'Attempts', 'Retries', 'Cancelled', 'Orphaned'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, ...rows.map((r, i) => h('tr', {}, h('th', { scope: 'row' }, `${i + 1}. ${r.name}`),
          ...[r.calls, r.attempts, r.retries, r.cancelled, r.orphaned].map((n) => h('td', {}, num(n)))))))),
    h('button', { type: 'button', id: id('stack-clear') }, 'Run without the stack'),
  ];
}

// `root`: the fleet section's box; `api`: mountFleet()'s answer; `setIn`: see fleetStackView.
// Returns the API with `runStack`.
export function withStack(root, api, { id = (name) => `fl-${name}`, setIn = SET_IN_SECTION } = {}) {
  const doc = root.ownerDocument;
  const win = doc.defaultView;
  const box = mount(h('div', { class: 'fl-stack', id: id('stack'), hidden: true }), doc);
  const controls = root.querySelector(`#${id('controls')}`);
  if (controls) controls.before(box);
  let drawn = null;
  const draw = () => {
    const state = api.state();
    const result = state ? state.result : null;
    if (result === drawn) return;
    drawn = result;
    const view = result ? fleetStackView(id, result, setIn) : null;
    box.hidden = !view;
    patch(box, ...(view || []));
  };
  const redraws = new win.MutationObserver(draw);
  redraws.observe(root, { attributes: true, attributeFilter: ['data-verdict'] });
  box.addEventListener('click', (event) => {
    if (!event.target.closest(`#${id('stack-clear')}`)) return;
    const state = api.state();
    if (!state) return;
    api.load(setPath(state.request, 'policy.layers', null));
    api.settled().then(() => root.querySelector(`#${id('controls')} select, #${id('controls')} input`)?.focus({ preventScroll: true }));
  });

  // The door: `layers`, a single run's echoed stack, run as this fleet's `policy.layers` over the
  // request on show. { ok: true, dropped } once the fleet draws it; else { ok: false, said }: the
  // engine's words, as the section shows them (a stack it refuses beside a gate of §9.6, a
  // work bound), the run on show kept.
  async function runStack(layers) {
    await api.ready;
    const table = api.table();
    const row = table && table.rows.get('policy.layers');
    if (!row || !row.items) return { ok: false, said: 'this fleet engine has no stack of layers (policy.layers).' };
    const { layers: fleet, dropped } = fleetLayers(layers, row.items);
    const state = api.state();
    const request = setPath(state ? state.request : {}, 'policy.layers', fleet);
    api.load(request);
    await api.settled();
    const now = api.state();
    if (now && now.request === request) {
      draw();
      return { ok: true, dropped };
    }
    const error = root.querySelector(`#${id('error')}`);
    return { ok: false, said: (error && !error.hidden && error.textContent) || 'the fleet did not draw it (it was stopped, or another run replaced it).' };
  }
  // The stack's box, for the door to bring into view.
  const show = () => {
    box.scrollIntoView({ block: 'start' });
    box.querySelector(`#${id('stack-h')}`)?.focus({ preventScroll: true });
  };
  draw();
  const { destroy } = api;
  return Object.assign(api, { runStack, showStack: show, destroy: () => { redraws.disconnect(); destroy(); } });
}
