// "What would your client do?": the Client choice loads a real client's retry settings into
// the explorable (through its load(), so every view updates), a card says where the values
// come from and what the model leaves out, and the sweep panel finds the boundaries of the
// experiment's current run. Everything here follows the explorable's result.

import { failureNote, h, mount, patchKnown } from '../dom.js';
import { makeIds } from '../views/controls.js';
import { createSweep } from '../sweep/controller.js';
import { POLICY_FIELDS, PRESETS, SEED_ID, policyOf, presetById, presetInputs } from './presets.js';
import { clientChoiceView, presetCardView } from './view.js';
import { sameInputs, sameInputValue } from '../share/codec.js';
import { drawnNear } from '../explorable/near.js';
import { mountConfigPaste } from '../config/paste.js';
import { runFigures } from './view.js';
import { verdictText } from '../views/metrics.js';


export function mountClientLab(root, app, engine, { idPrefix = 'cl-', sweepPrefix = 'sw-' } = {}) {
  const id = makeIds(idPrefix);
  const doc = root.ownerDocument;
  const seedPolicy = policyOf(app.compute({}).inputs); // the engine's defaults
  const noTimeoutMs = app.schema.inputs.find((row) => row.name === 'clientTimeoutMs').max;
  // The choice is the explorable's state.client; the lab's own until the reader or a run changes it.
  const selectedNow = () => app.getState().client || SEED_ID;

  root.replaceChildren(mount(h('div', { class: 'cl' },
    h('div', { class: 'cl-client' },
      clientChoiceView(id, selectedNow()),
      h('p', { class: 'visually-hidden', role: 'status', id: id('announce') }),
      h('div', { class: 'cl-card-box', id: id('card') })),
    h('section', { class: 'cl-sweep', 'aria-labelledby': id('sweep-heading') },
      h('h3', { id: id('sweep-heading') }, 'Where are the boundaries?'),
      h('p', { class: 'cl-sweep-intro' },
        'One input of the experiment’s current run, swept across a range: the engine computes every point in one call and names each place where the charges, the outcome or the number of attempts change.'),
      h('div', { id: id('sweep') })),
    h('div', { class: 'cl-paste', id: id('paste') })), doc));
  const select = root.querySelector(`#${id('client')}`);
  const card = root.querySelector(`#${id('card')}`);
  const sweepBox = root.querySelector(`#${id('sweep')}`);
  // "Paste your config" (web/config/): a config's translated inputs run in the experiment, as a
  // client's do; the server's behaviour (the situation) stays as the experiment has it.
  const paste = mountConfigPaste(root.querySelector(`#${id('paste')}`), {
    idPrefix: `${idPrefix}cfg-`,
    situation: () => app.getState().result.inputs,
    load: (inputs) => {
      app.load(inputs);
      const state = app.getState();
      return Object.keys(state.errors).length ? null : state.result;
    },
    runView: (result) => [h('p', { class: 'cl-run-verdict' }, `${verdictText(result)}.`), h('p', { class: 'cl-run-figures' }, `${runFigures(result)}.`),
      h('p', { class: 'cl-help' }, 'The experiment at the top of the page runs it now; its link carries these inputs.')],
  });

  const policyFor = (choice) => {
    const preset = presetById(choice);
    return preset ? preset.inputs : seedPolicy;
  };

  let sweep = null;
  if (typeof engine.sweep === 'function') {
    sweep = createSweep(sweepBox, {
      sweep: (request) => engine.sweep(request), load: (inputs) => app.load(inputs), numbers: app.getState().controls.numbers, idPrefix: sweepPrefix,
    });
  } else {
    sweepBox.replaceChildren(failureNote(doc, 'This build of the retry engine has no sweep(), so the boundaries cannot be computed.', { alert: false }));
  }

  // Each choice's whole policy, from the data: the preset's values over the engine's defaults.
  // A run whose policy is one of these is that client's (a shared link, a story step),
  // whatever was chosen before.
  const known = [{ choice: SEED_ID, policy: seedPolicy }, ...PRESETS.map((p) => ({ choice: p.id, policy: { ...seedPolicy, ...p.inputs } }))];

  // The opening run with a choice's settings (the seed's world, the client's policy): the same
  // whatever the experiment does, so computed once per choice, not on every change.
  const openings = new Map();
  const openingOf = (choice) => {
    if (!openings.has(choice)) openings.set(choice, app.compute(policyFor(choice)));
    return openings.get(choice);
  };

  // The card, for the explorable's run and the choice as they are when it is drawn: only while
  // it is near the screen (issue 18: it is at the page's end, and was redrawn on every change of
  // the experiment far above); it is drawn before a reader scrolls to it (explorable/near.js).
  function drawCard() {
    const result = app.getState().result;
    const now = policyOf(result.inputs);
    const selected = selectedNow();
    const preset = presetById(selected);
    const opening = openingOf(selected);
    const expected = policyOf(opening.inputs);
    const changed = POLICY_FIELDS.filter((f) => !sameInputValue(expected[f], now[f]));
    patchKnown(card, presetCardView(id, { // only this draws in the card (web/dom.js)
      preset, opening, current: sameInputs(result.inputs, opening.inputs) ? null : result, changed, noTimeoutMs,
    }));
  }
  const cardDrawing = drawnNear(card, drawCard);

  function draw(result) {
    const selected = selectedNow();
    if (select.value !== selected) select.value = selected; // setting it selects the option again (issue 18: on every change)
    cardDrawing.request();
    if (sweep) sweep.update(result.inputs);
  }

  // A new run: the client it is, if it is one, becomes the choice (drawn when the state says so).
  function follow(state, before) {
    if (before && state.result === before.result && state.client === before.client) return;
    const now = policyOf(state.result.inputs);
    // Two presets may share a policy: the one chosen wins.
    const chosen = state.client || SEED_ID;
    const match = known.find((k) => k.choice === chosen && sameInputs(k.policy, now)) || known.find((k) => sameInputs(k.policy, now));
    if (match && match.choice !== chosen) app.update({ client: match.choice });
    else draw(state.result);
  }

  function choose(choice) {
    const client = presetById(choice) ? choice : SEED_ID;
    const before = app.getState().result;
    app.load(presetInputs(before.inputs, policyFor(client)), { client });
    root.querySelector(`#${id('announce')}`).textContent =
      `Loaded ${presetById(client) ? presetById(client).name : 'the page’s fixture'} into the experiment.`;
    if (app.getState().result === before) { // a refused load leaves the run as it was
      app.update({ client });
      draw(before);
    }
  }

  select.addEventListener('change', () => choose(select.value));
  card.addEventListener('click', (event) => {
    if (event.target.closest(`#${id('reload')}`)) choose(selectedNow());
  });
  const unsubscribe = app.subscribe(follow);
  follow(app.getState(), null);

  return {
    choose,
    getSelected: selectedNow,
    sweep,
    paste,
    // The card drawn now if it waits for the screen (tests read it without scrolling to it).
    drawCard: () => cardDrawing.flush(),
    destroy() {
      unsubscribe();
      cardDrawing.destroy();
      if (sweep) sweep.destroy();
    },
  };
}
