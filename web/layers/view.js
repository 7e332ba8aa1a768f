// "Retries across layers", pure views: the stack's controls (a fieldset per layer). The run is
// drawn by views/stack.js, the one drawing of a stack's run that the experiment, compare mode
// and <retry-lab> draw too.

import { h } from '../dom.js';
import { PRESETS, GROUPS } from '../clients/presets.js';
import { AGENT_ID } from './model.js';

const option = (value, label, selected) => h('option', { value, selected: value === selected }, label);

function clientSelect(id, layer, i) {
  return h('select', { id: id(`client-${i}`), 'data-layer': i, 'data-set': 'client' },
    option(AGENT_ID, 'An agent’s tool loop (this page’s)', layer.client),
    GROUPS.map((group) => h('optgroup', { label: group },
      PRESETS.filter((p) => p.group === group).map((p) => option(p.id, p.short, layer.client)))));
}

// A choice of the table (key, giveUp, cancel): its names, and the chosen one's words below it.
function choiceSelect(id, name, member, value, i) {
  const chosen = member.choices.find((c) => c.name === value);
  return [
    h('select', { id: id(`${name}-${i}`), 'data-layer': i, 'data-set': name, 'aria-describedby': id(`${name}-${i}-help`) },
      member.choices.map((c) => option(c.name, c.name, value))),
    h('span', { class: 'ly-help', id: id(`${name}-${i}-help`) }, chosen ? chosen.description : ''),
  ];
}

const numberInput = (id, name, member, value, i) => h('input', {
  type: 'number', id: id(`${name}-${i}`), 'data-layer': i, 'data-set': name, inputmode: 'numeric',
  min: member.min, max: member.max, step: 1, value: String(value),
});

const field = (id, name, i, label, control) => h('div', { class: 'ly-field' },
  h('label', { for: id(`${name}-${i}`) }, label), control);

function layerControls(id, table, layer, i, count) {
  return h('fieldset', { class: 'ly-layer' },
    h('legend', null, `Layer ${i + 1}${i === 0 ? ' (top)' : i === count - 1 ? ' (bottom: sends to the server)' : ''}`),
    field(id, 'client', i, `Layer ${i + 1}’s client`, clientSelect(id, layer, i)),
    h('div', { class: 'ly-pair' },
      field(id, 'maxRetries', i, 'Retries', numberInput(id, 'maxRetries', table.member('maxRetries'), layer.maxRetries, i)),
      field(id, 'clientTimeoutMs', i, 'Timeout per attempt (ms)', numberInput(id, 'clientTimeoutMs', table.member('clientTimeoutMs'), layer.clientTimeoutMs, i))),
    field(id, 'key', i, 'Idempotency key', choiceSelect(id, 'key', table.member('key'), layer.key, i)),
    field(id, 'giveUp', i, 'When it gives up, it answers', choiceSelect(id, 'giveUp', table.member('giveUp'), layer.giveUp, i)),
    field(id, 'cancel', i, 'When it stops waiting, the call below', choiceSelect(id, 'cancel', table.member('cancel'), layer.cancel, i)),
    h('button', { type: 'button', class: 'ly-small', 'data-act': 'remove', 'data-layer': i, disabled: count === 1 }, `Remove layer ${i + 1}`));
}

export function controlsView(id, table, stack, servers) {
  return h('div', { class: 'ly-controls' },
    h('div', { class: 'ly-field ly-server' },
      h('label', { for: id('server') }, 'The server'),
      h('select', { id: id('server'), 'data-set': 'server' }, servers.map((s) => option(s.value, s.label, stack.server)))),
    stack.layers.map((layer, i) => layerControls(id, table, layer, i, stack.layers.length)),
    h('button', { type: 'button', class: 'ly-small', 'data-act': 'add', disabled: stack.layers.length >= table.maxLayers },
      `Add a layer below (at most ${table.maxLayers})`));
}
