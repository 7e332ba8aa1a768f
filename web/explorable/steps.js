// The figure beside the words (issue 15): the article's story steps (web/story.js STORY, the
// `button[data-try]` and `[data-step]` markup of site/index.html) drive a figure of their own,
// never the reader's experiment at the top, and the scroll position only as revealFigure says.
//
//   wide screen (WIDE): one sticky figure beside the article ([data-story-figure]); each step
//     paragraph that comes into the reading band shows its run there, and its "Try it"
//     changes it in place;
//   narrow screen: a step's "Try it" shows its run in a figure inline right after the button's
//     paragraph (made on the first press, below the reader, so nothing they read moves).
//
// A figure is an explorable of its own (app.js, with its own id prefix) drawn as its run
// view only: the verdict, the timeline and playback (css/story.css hides its inputs and the
// precise views). It says which step it shows, what changed from the run it showed before
// (from the results' metrics, never from engine sentences), and always offers "Back to the
// opening run". What changed is against the run the step's paragraph names (story.js
// baselineOf), and says which; that line is the figure's polite live region (issue 35: the
// explorable's own region sits with its hidden inputs, so it was silent); focus stays on
// the button pressed. Nothing scrolls, but for one case: on a narrow screen, where the inline
// figure's run and its Play end below the screen, the page scrolls just far enough to show
// them and never so far that the button pressed leaves the screen (revealFigure).
//
// `ready()` resolves, with the engine, once the engine can compute: everything here awaits it
// first, so the figure can be built before the engine has loaded.

import { createExplorable } from '../app.js';
import { STORY, baselineOf } from '../story.js';
import { verdictText } from '../views/metrics.js';
import { ms, num } from '../format.js';

// The width from which the figure stands beside the article (css/story.css says the same):
// 960 px, so at 1,024 px too the figure a "Try it" changes is in view beside it.
export const WIDE = '(min-width: 60rem)';
// The reading band: a step is being read while it crosses this band of the viewport.
const BAND = '-45% 0px -50% 0px';

// "charges 2 → 1 · outcome success → unknown": the metrics that differ between two runs.
export function changeWords(before, after) {
  if (!before) return '';
  const counted = after.inputs.operation === 'create' ? 'records' : 'charges';
  /** @type {Array<[string, string, (n: any) => string]>} */
  const fields = [
    ['attempts', 'attempts', num],
    ['charges', counted, num],
    ['replays', 'replays', num],
    ['outcome', 'outcome', String],
    ['elapsedMs', 'elapsed', ms],
  ];
  const changed = fields
    .filter(([key]) => before.metrics[key] !== after.metrics[key])
    .map(([key, label, format]) => `${label} ${format(before.metrics[key])} → ${format(after.metrics[key])}`);
  return changed.length ? changed.join(' · ') : 'no count changed';
}

// A button's step, in words: "key on", "the outage, with one retry".
function stepName(button) {
  if (button.dataset.try === 'opening') return 'the opening run';
  const text = (b) => b.textContent.replace(/^Try it:\s*/, '').trim();
  const own = text(button);
  if (!own.startsWith('…')) return own;
  const first = button.closest('.try')?.querySelector('button[data-try]');
  return first && first !== button ? `${text(first)}, ${own.slice(1)}` : own.slice(1);
}

function el(doc, tag, attrs = {}, text = null) {
  const node = doc.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  if (text !== null) node.textContent = text;
  return node;
}

// The inline figure after a "Try it" (issue 15): its run and its Play in view, the reader
// left where they were reading. A figure whose Play is on screen does not move; one whose Play
// ends below it is scrolled up by as much as that takes, at most until the button pressed
// reaches the screen's top margin, so the paragraph being read stays in view.
const MARGIN = 12;
export function revealFigure(win, button, figure) {
  const play = figure && figure.box.querySelector(`#${figure.prefix}play`);
  if (!play) return;
  const below = play.getBoundingClientRect().bottom + MARGIN - win.innerHeight;
  const room = button.getBoundingClientRect().top - MARGIN;
  const by = Math.min(below, room);
  if (by <= 0) return;
  const reduced = win.matchMedia('(prefers-reduced-motion: reduce)').matches;
  win.scrollBy({ top: Math.ceil(by), behavior: reduced ? 'auto' : 'smooth' });
}

// A figure in `place`: its caption, what changed, "Back to the opening run", a line for an
// engine that failed, and the explorable. `side`: the sticky figure's box; `prefix`: its ids';
// `names`: each step's name (`after`, the step whose slot this is); `provided`: the steps a
// control chooses (attachSteps); `onBack(figure)`: "Back to the opening run" pressed. Null when
// the explorable cannot be made (said in the figure).
function createFigure(doc, place, engine, { side, prefix, names, provided, after, onBack }) {
  const box = place === side ? place.querySelector('[data-story-figure]') : el(doc, 'figure', { class: 'story-figure' });
  box.setAttribute('aria-labelledby', `${prefix}story-caption`);
  const caption = el(doc, 'figcaption', { class: 'story-caption', id: `${prefix}story-caption` });
  const kicker = el(doc, 'span', { class: 'story-kicker' }, 'Showing ');
  const name = el(doc, 'span', { class: 'story-name' });
  caption.append(kicker, name);
  // The figure's live region: the step, its verdict (for a screen reader) and what changed.
  const change = el(doc, 'p', { class: 'story-change', role: 'status' });
  const said = el(doc, 'span', { class: 'visually-hidden' });
  const changed = el(doc, 'span');
  change.append(said, changed);
  const baselines = new Map(); // baseline step → its result, computed once
  const back = el(doc, 'button', { type: 'button', class: 'rl-button story-back' }, 'Back to the opening run');
  const error = el(doc, 'p', { class: 'rl-error story-error', role: 'alert' });
  const root = el(doc, 'div', { class: 'retry-lab story-run' });
  const bar = el(doc, 'div', { class: 'story-bar' });
  bar.append(caption, back);
  box.replaceChildren(bar, change, error, root);
  if (place !== side) place.append(box);
  let app;
  try {
    app = createExplorable(root, engine, { idPrefix: prefix });
  } catch (failure) {
    error.textContent = `${failure.message} The article still reads; its figure cannot be drawn.`;
    root.replaceChildren();
    return null;
  }
  const announce = root.querySelector(`#${prefix}announce`);
  // Its drawing's region has a name of its own: a page with several figures names each once.
  const heading = root.querySelector(`#${prefix}figure-heading`);
  if (heading) heading.textContent = place === side ? 'The run, drawn, beside the article' : `The run, drawn, after “${after}”`;
  const lanesHeading = root.querySelector(`#${prefix}lanes-heading`);
  if (lanesHeading) lanesHeading.textContent = place === side ? 'Client and server, message by message, beside the article' : `Client and server, message by message, after “${after}”`;
  const figure = { place, box, app, step: null, inputs: null, what: '', prefix };
  back.addEventListener('click', () => onBack(figure));
  figure.show = (step) => {
    const before = app.getState().result;
    // A step with a control of its own (a `provide`d step) shows what its control chose.
    const own = provided.get(step)?.();
    const inputs = own ? own.inputs : STORY[step];
    if (own) names[step] = own.name;
    app.load(inputs);
    const after = app.getState();
    if (after.result === before) {
      // The engine refused or failed: the figure keeps the run it showed, and says so.
      error.textContent = `${after.errors.general || Object.values(after.errors)[0] || 'The run could not be computed.'} The figure still shows ${names[figure.step] || 'the run before'}.`;
      return false;
    }
    error.textContent = '';
    const again = step === figure.step && inputs === figure.inputs; // the same run again: rewound, its change kept
    figure.step = step;
    figure.inputs = inputs;
    box.dataset.showing = step;
    name.textContent = names[step];
    // Against the run the step's paragraph names, whatever the figure showed before.
    const base = baselineOf(step);
    if (base && !baselines.has(base)) baselines.set(base, base === step ? null : engine.compute(STORY[base]));
    const baseResult = base ? baselines.get(base) : null;
    figure.what = baseResult && baseResult.ok ? changeWords(baseResult, after.result) : '';
    const { what } = figure;
    const against = `What changed against ${base === 'opening' ? 'the opening run' : names[base]}: `;
    said.textContent = `The figure shows ${names[step]}${again ? ', rewound' : ''}: ${verdictText(after.result)}. `;
    changed.textContent = what ? `${against}${what}` : 'Read on, or press a “Try it”: each step says here what it changes against the run its paragraph names.';
    announce.textContent = `The figure shows ${names[step]}${again ? ', rewound' : ''}: ${verdictText(after.result)}.${what ? ` ${against}${what.replaceAll(' · ', ', ')}.` : ''}`;
    return true;
  };
  return figure;
}

export function attachSteps(doc, { ready }) {
  const win = doc.defaultView;
  const buttons = [...doc.querySelectorAll('button[data-try]')].filter((b) => Object.prototype.hasOwnProperty.call(STORY, b.dataset.try));
  if (!buttons.length) return null; // embed.html: no article
  const wide = win.matchMedia(WIDE);
  const side = doc.querySelector('[data-story-side]');
  const names = {};
  for (const b of buttons) names[b.dataset.try] ||= stepName(b);
  // A step a control reaches instead of a button (story.js CONTROLLED) is named by its box.
  for (const box of doc.querySelectorAll('[data-step][data-step-name]')) names[box.dataset.step] ||= box.dataset.stepName;

  const figures = new Map(); // place (the sticky figure's box, or an inline slot) → figure
  let made = 0;
  // Steps whose inputs a control in the article chooses (step → () => ({ inputs, name })):
  // the figure shows the control's choice, whether the reading band or the control asks.
  const provided = new Map();

  // A figure in `place`, numbered in the order they are made (the sticky one first: rs-).
  function makeFigure(place, engine) {
    const prefix = made === 0 && place === side ? 'rs-' : `rs${made + 1}-`;
    made += 1;
    const figure = createFigure(doc, place, engine, {
      side, prefix, names, provided, after: names[firstStep(place)], onBack: (f) => show(f, 'opening'),
    });
    if (figure) figures.set(place, figure);
    return figure;
  }

  // A slot's step: its paragraph's first button's.
  const firstStep = (slot) => slot.previousElementSibling?.querySelector('button[data-try]')?.dataset.try || slot.previousElementSibling?.dataset.step || 'opening';

  // The place a button's step is shown: the sticky figure on a wide screen, else the slot
  // right after the button's paragraph.
  function placeFor(button) {
    if (wide.matches && side) return side;
    const paragraph = button.closest('.try') || button;
    let slot = paragraph.nextElementSibling;
    if (!slot || !slot.matches('[data-story-slot]')) {
      slot = el(doc, 'div', { class: 'story-slot', 'data-story-slot': '' });
      paragraph.after(slot);
    }
    return slot;
  }

  let asked = 0; // the latest request wins, however the engine's readiness interleaves them
  async function showAt(place, step) {
    const mine = ++asked;
    let engine;
    try {
      engine = await ready();
    } catch {
      return; // an engine that cannot load: the page says so where the explorable would be
    }
    if (mine !== asked) return;
    let figure = figures.get(place);
    if (!figure) {
      if (place === side) side.hidden = false;
      figure = makeFigure(place, engine);
      if (!figure) return;
    }
    show(figure, step);
  }
  function show(figure, step) {
    if (figure.show(step) && figure.place === side) markCurrent(step);
  }
  function markCurrent(step) {
    for (const p of doc.querySelectorAll('[data-step]')) p.classList.toggle('story-current', p.dataset.step === step);
  }

  // Where the reader was when they last pressed a "Try it": the reading band drives the figure
  // again only once they have read on from there, so a band change that arrives just after the
  // press (the button scrolled into view by the focus that pressed it) cannot undo it.
  let pressedAt = null;
  for (const button of buttons) {
    button.hidden = false;
    button.addEventListener('click', async () => {
      pressedAt = win.scrollY;
      const place = placeFor(button);
      await showAt(place, button.dataset.try);
      // Measured at the next frame: a new figure's timeline is drawn once its box is laid out.
      if (place !== side) win.requestAnimationFrame(() => win.requestAnimationFrame(() => revealFigure(win, button, figures.get(place))));
    });
  }

  // Wide: the paragraph in the reading band drives the sticky figure. A step is shown when
  // the band enters it from another step, so a "Try it" pressed inside a paragraph is not
  // undone by reading on in it.
  let scrolled = null;
  let reader = null;
  if (side && win.IntersectionObserver) {
    reader = new win.IntersectionObserver((entries) => {
      if (!wide.matches) return;
      const entered = entries.filter((e) => e.isIntersecting).pop();
      if (!entered) return;
      if (pressedAt !== null && Math.abs(win.scrollY - pressedAt) < win.innerHeight / 4) return;
      pressedAt = null;
      const step = entered.target.dataset.step;
      if (step === scrolled || !(Object.prototype.hasOwnProperty.call(STORY, step) || provided.has(step))) return;
      scrolled = step;
      showAt(side, step);
    }, { rootMargin: BAND });
    for (const p of doc.querySelectorAll('[data-step]')) reader.observe(p);
    // The figure is drawn (with the opening run) as the article comes near, not when its
    // first paragraph reaches the band.
    const near = new win.IntersectionObserver((entries) => {
      if (!wide.matches || !entries.some((e) => e.isIntersecting)) return;
      near.disconnect();
      if (!figures.has(side)) showAt(side, 'opening');
    }, { rootMargin: '0px 0px 50% 0px' });
    const story = side.closest('.story') || side;
    near.observe(story);
  }

  const api = {
    // A control in the article for `step` (loaded as the reader nears it: servers/step.js):
    // `choice()` is { inputs, name }, what the figure shows for the step from now on; the returned
    // function shows the current choice where `anchor`'s step is shown (the sticky figure on a
    // wide screen, else a figure right after `anchor`), as a "Try it" would.
    provide(step, choice, anchor) {
      provided.set(step, choice);
      names[step] = choice().name;
      return async () => {
        pressedAt = win.scrollY;
        const place = placeFor(anchor);
        await showAt(place, step);
        if (place !== side) win.requestAnimationFrame(() => win.requestAnimationFrame(() => revealFigure(win, anchor, figures.get(place))));
      };
    },
    // The figure showing runs at the sticky place (wide) or in the slot after `button`.
    figureAt: (place) => figures.get(place) || null,
    figures: () => [...figures.values()].map((f) => ({ step: f.step, prefix: f.prefix, state: f.app.getState() })),
    destroy() {
      reader?.disconnect();
      for (const f of figures.values()) f.app.destroy();
    },
  };
  win.retryLabStory = api; // for the console and for tests
  return api;
}
