// "What would your client do?": the Client choice loads a real client's retry settings into
// the explorable (through its load(), so every view updates), a card says where the values
// come from and what the model leaves out, and the sweep panel finds the boundaries of the
// experiment's current run. Everything here follows the explorable's result.

import { h, mount, patch } from '../dom.js';
import { makeIds } from '../views/controls.js';
import { createSweep } from '../sweep/controller.js';
import { POLICY_FIELDS, PRESETS, SEED_ID, policyOf, presetById, presetInputs } from './presets.js';
import { clientChoiceView, presetCardView } from './view.js';

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

export function mountClientLab(root, app, engine, { idPrefix = 'cl-', sweepPrefix = 'sw-' } = {}) {
  const id = makeIds(idPrefix);
  const doc = root.ownerDocument;
  const seedPolicy = policyOf(app.compute({}).inputs);
  let selected = SEED_ID;

  root.replaceChildren(mount(h('div', { class: 'cl' },
    h('div', { class: 'cl-client' },
      clientChoiceView(id, selected),
      h('p', { class: 'visually-hidden', role: 'status', id: id('announce') }),
      h('div', { class: 'cl-card-box', id: id('card') })),
    h('section', { class: 'cl-sweep', 'aria-labelledby': id('sweep-heading') },
      h('h3', { id: id('sweep-heading') }, 'Where are the boundaries?'),
      h('p', { class: 'cl-sweep-intro' },
        'One input of the experiment’s current run, swept across a range: the engine computes every point in one call and names each place where the charges, the outcome or the number of attempts change.'),
      h('div', { id: id('sweep') }))), doc));
  const select = root.querySelector(`#${id('client')}`);
  const card = root.querySelector(`#${id('card')}`);
  const sweepBox = root.querySelector(`#${id('sweep')}`);

  const policyFor = (choice) => {
    const preset = presetById(choice);
    return preset ? preset.inputs : seedPolicy;
  };

  let sweep = null;
  if (typeof engine.sweep === 'function') {
    sweep = createSweep(sweepBox, { sweep: (request) => engine.sweep(request), load: (inputs) => app.load(inputs), idPrefix: sweepPrefix });
  } else {
    const p = doc.createElement('p');
    p.className = 'rl-failure';
    p.textContent = 'This build of the retry engine has no sweep(), so the boundaries cannot be computed.';
    sweepBox.replaceChildren(p);
  }

  // Each choice's policy as the engine echoes it, to recognise a client in a loaded run (a
  // shared link, a story step) whatever was chosen before.
  const known = [SEED_ID, ...PRESETS.map((p) => p.id)].map((choice) => ({ choice, policy: policyOf(app.compute(policyFor(choice)).inputs) }));

  // The opening run with a choice's settings (the seed's world, the client's policy): the same
  // whatever the experiment does, so computed once per choice, not on every change.
  const openings = new Map();
  const openingOf = (choice) => {
    if (!openings.has(choice)) openings.set(choice, app.compute(policyFor(choice)));
    return openings.get(choice);
  };

  function refresh(result) {
    const now = policyOf(result.inputs);
    // Two presets may share a policy (openai-python ≤ 2.51 and Anthropic's SDK): the chosen one wins.
    const match = known.find((k) => k.choice === selected && same(k.policy, now)) || known.find((k) => same(k.policy, now));
    if (match && match.choice !== selected) {
      selected = match.choice;
      select.value = selected;
    }
    const preset = presetById(selected);
    const opening = openingOf(selected);
    const expected = policyOf(opening.inputs);
    const changed = POLICY_FIELDS.filter((f) => !same(expected[f], now[f]));
    patch(card, presetCardView(id, {
      preset, opening, current: same(result.inputs, opening.inputs) ? null : result, changed,
    }));
    if (sweep) sweep.update(result.inputs);
  }

  function choose(choice) {
    selected = presetById(choice) ? choice : SEED_ID;
    select.value = selected;
    const before = app.getState().result;
    app.load(presetInputs(before.inputs, policyFor(selected)));
    const after = app.getState().result;
    root.querySelector(`#${id('announce')}`).textContent =
      `Loaded ${presetById(selected) ? presetById(selected).name : 'the seed’s fixture'} into the experiment.`;
    if (after === before) refresh(before); // a refused load leaves the result as it was
  }

  select.addEventListener('change', () => choose(select.value));
  card.addEventListener('click', (event) => {
    if (event.target.closest(`#${id('reload')}`)) choose(selected);
  });
  const unsubscribe = app.subscribe((state) => refresh(state.result));
  refresh(app.getState().result);

  return {
    choose,
    getSelected: () => selected,
    sweep,
    destroy() {
      unsubscribe();
      if (sweep) sweep.destroy();
    },
  };
}
