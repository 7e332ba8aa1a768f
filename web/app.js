// The explorable: one state object, changed only through state.js's pure steps and drawn by
// the pure views. This file is the controller that wires the pieces in explorable/ together:
//
//   control / section / link ─▶ change(step) ─▶ state ─▶ render (fields, run, playhead)
//                                                   └──▶ subscribers (the link, the sections)
//
// explorable/fields.js (the form both ways), run-view.js (the run and the playhead),
// seek.js (the slider's keys and pointer), clock.js (playback frames).

import { mount } from './dom.js';
import { initialState, withFields, withInputs, withSections } from './state.js';
import { INSPECTION_SECONDS, advance, clampSeconds, nextEvent, pause, play, restart, seek } from './playback.js';
import { frameView, makeIds } from './views/controls.js';
import { verdictText } from './views/metrics.js';
import { eventSentence } from './views/events.js';
import { inForceView } from './views/in-force.js';
import { patch } from './dom.js';
import { ms } from './format.js';
import { bindFields } from './explorable/fields.js';
import { createRunView } from './explorable/run-view.js';
import { attachSeek } from './explorable/seek.js';
import { createClock } from './explorable/clock.js';
import { withClearStack } from './explorable/clear-stack.js';
import { validateInputs } from './validate.js';
import { linkCodec } from './share/codec.js';

// An engine that throws (a WebAssembly trap, an abort) or answers with something that is no
// result must not take the page down: either becomes an error result, so the last good run
// stays on screen with a message.
export function guardedCompute(engine) {
  return (inputs) => {
    let result;
    try {
      result = engine.compute(inputs);
    } catch (error) {
      const why = error && error.message ? error.message : String(error);
      return { ok: false, errors: [{ field: 'general', message: `The retry engine failed on this run (${why}).` }] };
    }
    if (result && result.ok === true && !(result.inputs && result.metrics && Array.isArray(result.events) && Array.isArray(result.attempts))) {
      return { ok: false, errors: [{ field: 'general', message: 'The retry engine returned a result the page cannot read.' }] };
    }
    return result;
  };
}

// What subscribers hear about: a new run, or a change to what the sections keep in the state.
const newsworthy = (a, b) => a.result !== b.result || a.trace !== b.trace || a.herd !== b.herd || a.custom !== b.custom || a.client !== b.client;

// The opening run, computed here unless the build gave it: a run the engine cannot make is the
// page's to say, not a blank explorable.
function openingRun(compute, opening) {
  const run = opening || compute({});
  if (!run || run.ok !== true) {
    const why = run && Array.isArray(run.errors) && run.errors[0] ? ` ${run.errors[0].message}` : '';
    throw new Error(`The retry engine could not compute the opening run.${why}`);
  }
  return run;
}

// The engine's table of its inputs (engine.schema()) and the link format for it.
function inputTable(engine, schema) {
  try {
    const table = schema || engine.schema();
    return { schema: table, codec: linkCodec(table) };
  } catch (error) {
    throw new Error(`The retry engine could not describe its inputs (${error && error.message ? error.message : error}).`);
  }
}

// Playback: the clock's frames, Play, Next event, Restart, the speed and the slider, and the
// pause while the explorable is off screen. `ctx`: { root, $, view, state(), setState(s),
// drawPlayhead(), openInputs() }. Each event Next event or Play reveals is said in the polite
// live region (a seek, which can jump over many, is said by the slider's own value text); the
// run's end adds the verdict.
function mountPlayback(ctx) {
  const { root, $, view } = ctx;
  const reducedMotion = view.matchMedia('(prefers-reduced-motion: reduce)');
  const announce = $('announce');
  function announceShown(before, after) {
    const { events } = ctx.state().result;
    if (after.shown <= before.shown || after.shown - before.shown > 3) return;
    const result = ctx.state().result;
    const said = events.slice(before.shown, after.shown).map((e) => `${ms(e.tMs)}: ${eventSentence(result, e)}.`);
    if (after.shown === events.length) said.push(`Run over: ${verdictText(result)}.`);
    announce.textContent = said.join(' ');
  }
  const clock = createClock(view, (dt) => {
    const s = ctx.state();
    const playback = advance(s.result, s.playback, dt, reducedMotion.matches);
    ctx.setState({ ...s, playback });
    announceShown(s.playback, playback);
    ctx.drawPlayhead();
    return playback.playing;
  });
  function set(playback, { say = false } = {}) {
    if (say) announceShown(ctx.state().playback, playback);
    ctx.setState({ ...ctx.state(), playback });
    if (playback.playing) clock.start();
    else clock.stop();
    ctx.drawPlayhead();
  }
  const now = () => ctx.state();
  $('play').addEventListener('click', () => {
    ctx.openInputs();
    set(now().playback.playing ? pause(now().playback) : play(now().result, now().playback));
  });
  $('next').addEventListener('click', () => { ctx.openInputs(); set(nextEvent(now().result, now().playback), { say: true }); });
  $('restart').addEventListener('click', () => { ctx.openInputs(); set(restart(now().result, now().playback.speed)); });
  const speed = $('speed');
  speed.addEventListener('change', () => set({ ...now().playback, speed: Number(speed.value) }));
  attachSeek($('seek'), {
    position: () => now().playback.s,
    max: INSPECTION_SECONDS,
    onSeek: (s) => { ctx.openInputs(); set(seek(now().result, pause(now().playback), clampSeconds(s))); },
  });
  // Pause while the explorable is off-screen; carry on when it is back.
  const visibility = new view.IntersectionObserver((entries) => {
    const visible = entries.some((e) => e.isIntersecting);
    if (!visible && now().playback.playing) set(pause(now().playback, true));
    else if (visible && now().playback.autoPaused) set(play(now().result, now().playback));
  });
  visibility.observe(root);
  return {
    set,
    running: () => clock.running(),
    destroy() {
      set(pause(now().playback));
      visibility.disconnect();
    },
  };
}

// A computation asked for before the engine has arrived waits for it, in order; the engine's
// failure to load is the page's to show (`ensure()` rejects: main.js). Returns whenEngine(work).
function engineWait(root, $, ready, ensure) {
  const loadingNote = $('engine-loading');
  let waiting = [];
  return function whenEngine(work) {
    if (ready()) return work();
    waiting.push(work);
    if (waiting.length > 1) return undefined;
    loadingNote.hidden = false;
    root.setAttribute('aria-busy', 'true');
    ensure().then(() => {
      const queued = waiting;
      waiting = [];
      loadingNote.hidden = true;
      root.removeAttribute('aria-busy');
      for (const w of queued) w();
    }, () => {
      waiting = [];
    });
    return undefined;
  };
}

// The first screen asks before it explains: only the key switch shows until the reader's first
// interaction (Play, Next event, the slider, a control, a load), or "All the inputs". Returns
// openInputs(focusFirst).
function inputsOpener(root, $) {
  const more = $('more');
  const openButton = $('open-inputs');
  let inputsOpen = false;
  function openInputs(focusFirst = false) {
    if (inputsOpen) return;
    inputsOpen = true;
    more.hidden = false;
    openButton.hidden = true;
    openButton.setAttribute('aria-expanded', 'true');
    if (focusFirst) more.querySelector('input:checked, input')?.focus();
  }
  if (!more.hidden) more.hidden = true;
  openButton.addEventListener('click', () => openInputs(true));
  root.querySelector('.rl-controls').addEventListener('change', () => openInputs());
  return openInputs;
}

// `engine`: the engine, or one that stands for it until it has loaded (engine.js,
// engineOnDemand): then `opening` and `schema` are what the build computed with the same
// engine (compute({}) and schema(), web/prerender.mjs), `ready()` says whether the engine is
// there and `ensure()` is a promise of it. Until it is, playback works on the opening run, and
// a change that needs a computation says "Loading the engine…" and is made when it arrives.
//
// `hydrate`: `root` holds the explorable already drawn for the opening run, as the build wrote it
// into index.html with this very function (web/prerender.mjs): the frame is taken as it is and
// every first draw below finds what it would write already there, so the page's first frame
// is its HTML's (issue 15/18: the script attaches the behaviour, it does not redraw).
//
// `lazy`: the timeline, event list, table and metrics are drawn in a change's frame only if they
// are on screen; off screen, after that frame is painted, or in the frame that brings them on
// screen (explorable/near.js `drawnOnScreen`; issue 18). index.html's explorable only.
/**
 * @param {any} root
 * @param {any} engine
 * @param {{ idPrefix?: string, opening?: any, schema?: any, ready?: () => boolean, ensure?: any, hydrate?: boolean, lazy?: boolean }} [options]
 */
export function createExplorable(root, engine, { idPrefix = 'rl-', opening = null, schema = null, ready = () => true, ensure = null, hydrate = false, lazy = false } = {}) {
  const id = makeIds(idPrefix);
  const compute = guardedCompute(engine);
  opening = openingRun(compute, opening);
  const table = inputTable(engine, schema);
  schema = table.schema;

  let state = initialState(opening, schema);
  if (!hydrate) root.replaceChildren(mount(frameView(id, state.controls, state.fields, state.loadedScript), root.ownerDocument));
  const $ = (name) => root.querySelector(`#${id(name)}`);
  const view = root.ownerDocument.defaultView;
  const announce = $('announce');
  const run = createRunView(root, id, view, { lazy });
  const inForce = $('in-force');
  const drawPlayhead = () => run.drawPlayhead(state.result, state.playback);
  const openInputs = inputsOpener(root, $);
  const whenEngine = engineWait(root, $, ready, ensure);

  const listeners = new Set(); // called with (state, before) after each newsworthy change
  let fields = null;
  let playback = null;
  function change(step, changedElement = null) {
    const before = state;
    if (playback.running()) playback.set(pause(state.playback));
    state = step(state);
    run.drawRun(state.result, state.playback);
    fields.draw(state, changedElement);
    if (state.result !== before.result || state.fields !== before.fields) patch(inForce, inForceView(state.result, state.fields, schema));
    drawPlayhead();
    if (state.result !== before.result) {
      announce.textContent = `Recomputed: ${verdictText(state.result)}.`;
      openInputs();
    }
    tell(before);
  }
  function tell(before) {
    if (newsworthy(state, before)) for (const listener of listeners) listener(state, before); // e.g. the link in the URL
  }
  const setFields = (changes, changedElement) => whenEngine(() => change((s) => withFields(s, changes, compute), changedElement));
  fields = bindFields(root, id, { onChange: setFields, numbers: state.controls.numbers, script: state.loadedScript });
  playback = mountPlayback({ root, $, view, state: () => state, setState: (s) => { state = s; }, drawPlayhead, openInputs: () => openInputs() });

  // The first draw; a page whose HTML holds it already (`hydrate`) takes it as drawn: the
  // fields, the policy in force, the run and the playhead are the opening state's there.
  if (hydrate) run.adopt(state.result, state.playback);
  else change((s) => s);

  return withClearStack(root, id, {
    getState: () => state,
    // Be told of every new run (a control, a story step, a loaded link) and of every change to
    // the sections' part of the state (state.js: trace, herd, custom, client); returns the unsubscribe.
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setFields: (changes) => setFields(changes, null),
    // Open the full control panel (as the reader's first interaction does), focus left alone.
    openInputs: () => openInputs(false),
    // Draw now the views that wait off screen for the main thread's next idle moment (`lazy`:
    // explorable/near.js drawnOnScreen); tests read them this way without scrolling to them.
    drawViews: () => run.drawViews(),
    // `trace`: the policy trace the inputs are ('A'…'F', 'custom'; see web/traces/), kept in
    // state.trace; `herd`, `custom`, `client`: the sections' part of the state, set in the same step.
    // A load the engine refuses changes nothing but the errors.
    load: (inputs, { trace = null, ...sections } = {}) => whenEngine(() => change((s) => {
      const next = withInputs(s, inputs, compute, trace);
      return next.result === s.result ? next : withSections(next, sections);
    })),
    // Is the engine there (computations are made at once), and a promise of it.
    engineReady: ready,
    ensureEngine: () => (ensure ? ensure() : Promise.resolve(engine)),
    // The sections' part of the state without a new run (nothing here draws it, and playback
    // carries on).
    update(sections) {
      const before = state;
      state = withSections(state, sections);
      tell(before);
    },
    compute,
    // The engine's errors for inputs without running them (validate.js).
    validate: (inputs) => validateInputs(engine, inputs),
    // The engine's table of its inputs (docs/engine.md §4), and the link format for it (share/codec.js).
    schema,
    codec: table.codec,
    destroy() {
      playback.destroy();
      run.destroy();
    },
  });
}
