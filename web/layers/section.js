// "Retries across layers" (docs/layers.md): the reader builds a stack of retry layers from real
// clients' presets, and the engine's run of it is drawn as lanes per layer with the
// multiplication counted, the keys each layer sent, and two tables. The section has its own
// run, not the experiment's (reading on never changes the reader's experiment); its link is a
// single run's link with `layers` (README, "Links to a run"), which `retrysim --link` reads too.
// A link in the address with a stack opens here (share/page.js: the experiment draws one
// layer): the link's run is drawn whole, and the controls show its stack when its layers are
// this section's clients (model.js stackOf), else they keep theirs and say so.

import { h, show } from '../dom.js';
import { sameInputs } from '../share/codec.js';
import { makeIds } from '../views/controls.js';
import { STORIES, layerFor, layerTable, serverChoices, stackInputs, stackOf } from './model.js';
import { controlsView } from './view.js';
import { stackView } from '../views/stack.js';
import { doorView, fleetDoor } from './fleet-door.js';

export function mountLayers(root, app, engine, { idPrefix = 'ly-' } = {}) {
  const id = makeIds(idPrefix);
  const doc = root.ownerDocument;
  const win = doc.defaultView;
  const table = layerTable(app.schema);
  const servers = serverChoices(app.schema);

  // The section: a status region that stays, and the drawing under it, replaced on each run.
  const live = doc.createElement('p');
  live.className = 'visually-hidden';
  live.setAttribute('role', 'status');
  live.id = id('live');
  const body = doc.createElement('div');
  root.replaceChildren(live, body);

  let quiet = true;
  let stack = STORIES.story();
  let result = null; // the last run the engine accepted
  let problem = null; // the engine's words for a stack it refused, shown until the next good one
  let linkOnly = false; // the run is a link's whose stack the controls cannot show
  // "Run this stack in the fleet" (fleet-door.js), on a page with the fleet section: what it
  // last said, { text, failed }, shown under it until the stack changes.
  const fleet = win.retryLabFleetSection ? fleetDoor(win) : null;
  let doorSaid = null;

  function run(candidate) {
    linkOnly = false;
    doorSaid = null;
    const next = engine.compute(stackInputs(candidate, table));
    stack = candidate;
    if (next && next.ok === true) {
      result = next;
      problem = null;
    } else {
      problem = next && Array.isArray(next.errors) ? next.errors.map((e) => e.message).join(' ') : 'The engine gave no result.';
    }
    draw();
  }

  const linkHref = () => `#${app.codec.encodeLink(result.inputs)}`;

  function draw() {
    const focused = doc.activeElement && root.contains(doc.activeElement) ? doc.activeElement.id : null;
    show(body, h('div', { class: 'ly' },
      h('div', { class: 'ly-stories', role: 'group', 'aria-label': 'Stacks to try' },
        h('button', { type: 'button', 'data-story': 'story', id: id('try-story') }, 'The agent over Stripe’s client'),
        h('button', { type: 'button', 'data-story': 'key-down', id: id('try-key-down') }, 'The agent’s key passed down'),
        h('button', { type: 'button', 'data-story': 'sre', id: id('try-sre') }, 'Three layers of four attempts'),
        h('button', { type: 'button', 'data-story': 'one-layer', id: id('try-one-layer') }, 'Retry at one layer only')),
      h('div', { class: 'ly-grid' },
        controlsView(id, table, stack, servers),
        h('div', { class: 'ly-run' },
          linkOnly ? h('p', { class: 'ly-note', id: id('link-note') }, 'This is the stack of the link you opened. Its layers are not all clients of this section, so the controls show another stack; change one to run theirs.') : null,
          problem ? h('p', { class: 'rl-failure', role: 'alert', id: id('problem') }, `Not run: ${problem} The figures below are the last stack the engine ran.`) : null,
          stackView(id, result),
          h('p', { class: 'ly-link' }, h('a', { href: linkHref(), id: id('link') }, 'A link to this stack'),
            ' (opens it here and in the experiment above; retrysim --link runs it too)'),
          fleet ? doorView(id, doorSaid) : null))));
    if (focused) {
      const again = doc.getElementById(focused);
      if (again) again.focus({ preventScroll: true });
    }
    // Said once per new run or refusal, in a region that stays (a replaced one is not read).
    const said = problem ? `Not run: ${problem}` : `${body.querySelector(`#${id('count')}`).textContent}. ${body.querySelector('.ly-verdict').textContent}`;
    if (quiet) quiet = false; // not on the section's first drawing: the reader asked for nothing yet
    else if (live.textContent !== said) live.textContent = said;
  }

  function setLayer(i, name, raw) {
    const layers = stack.layers.map((l) => ({ ...l }));
    if (name === 'client') layers[i] = { ...layerFor(raw, i), giveUp: layers[i].giveUp, cancel: layers[i].cancel };
    else if (name === 'maxRetries' || name === 'clientTimeoutMs') {
      const n = raw.trim() === '' ? NaN : Number(raw);
      layers[i][name] = n; // the engine judges it: a value it refuses is named, the last run kept
    } else layers[i][name] = raw;
    run({ ...stack, layers });
  }

  root.addEventListener('change', (event) => {
    const target = event.target;
    const set = target.dataset && target.dataset.set;
    if (!set) return;
    if (set === 'server') run({ ...stack, server: target.value });
    else setLayer(Number(target.dataset.layer), set, target.value);
  });
  root.addEventListener('click', (event) => {
    const button = event.target.closest('button');
    if (!button || !root.contains(button)) return;
    if (button.dataset.act === 'fleet' && fleet) {
      toFleet();
      return;
    }
    if (button.dataset.story) {
      run(STORIES[button.dataset.story](stack.server));
      return;
    }
    if (button.dataset.act === 'add' && stack.layers.length < table.maxLayers) {
      const bottom = stack.layers.length;
      run({ ...stack, layers: [...stack.layers, layerFor('urllib3', bottom)] });
      doc.getElementById(id(`client-${bottom}`)).focus();
    } else if (button.dataset.act === 'remove' && stack.layers.length > 1) {
      const at = Number(button.dataset.layer);
      run({ ...stack, layers: stack.layers.filter((_, i) => i !== at) });
      doc.getElementById(id('server')).focus();
    }
  });

  // The door: the stack on show, run by the fleet section; what it says is drawn under it and
  // said in the status region. On success the fleet's stack is brought into view.
  function toFleet() {
    const asked = result;
    doorSaid = { text: 'Opening the fleet section and running this stack there…', failed: false };
    draw();
    fleet.run(asked.inputs.layers).then((said) => {
      if (result !== asked) return; // the reader changed the stack meanwhile
      doorSaid = said;
      draw();
      live.textContent = said.text;
      if (!said.failed) fleet.show();
    });
  }

  // A link's stack (its inputs as the engine accepted them): its run drawn as it is, the
  // controls showing its stack only when their stack is exactly that run; scrolled to.
  function showLink(inputs) {
    const next = engine.compute(inputs);
    if (!next || next.ok !== true) return;
    const shown = stackOf(next.inputs, table);
    const same = shown !== null && sameInputs(engine.compute(stackInputs(shown, table)).inputs, next.inputs);
    if (same) stack = shown;
    result = next;
    problem = null;
    linkOnly = !same;
    draw();
    root.closest('section').scrollIntoView();
  }
  run(stack);

  return {
    getStack: () => stack,
    getResult: () => result,
    link: linkHref,
    load(story, server) { run(STORIES[story](server || stack.server)); },
    showLink,
  };
}
