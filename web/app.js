// The explorable's controller: one state object, changed only through state.js and
// playback.js, drawn by the pure views. This file is the only place that touches the DOM
// after mounting: listeners, the playback clock, and the cheap per-frame playhead updates.

import { mount, patch } from './dom.js';
import { NUMBER_FIELDS, initialState, withFields, withInputs } from './state.js';
import {
  INSPECTION_SECONDS, advance, clampSeconds, momentPhrase, msAt, nextEvent, pause, play,
  restart, runSpan, secondsAt, seek,
} from './playback.js';
import { frameView, makeIds, scriptedLabel, seekMarksView } from './views/controls.js';
import { timelineView } from './views/timeline.js';
import { eventsView } from './views/events.js';
import { tableView } from './views/table.js';
import { metricsView, nowView, verdictText, verdictView } from './views/metrics.js';
import { seconds } from './format.js';

const UNREADABLE = 'unreadable'; // a number box's text that is no number: the field's error says so

export function valueText(result, playback) {
  const t = msAt(playback.s, runSpan(result));
  return `${seconds(t)} — ${momentPhrase(result, t, playback.shown)}`;
}

export function createExplorable(root, engine, { idPrefix = 'rl-' } = {}) {
  const id = makeIds(idPrefix);
  // An engine that throws (a WebAssembly trap, an abort) or answers with something that is no
  // result must not take the page down: either becomes an error result, so the last good run
  // stays on screen with a message.
  const compute = (inputs) => {
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
  const opening = compute({});
  if (!opening || opening.ok !== true) {
    const why = opening && Array.isArray(opening.errors) && opening.errors[0] ? ` ${opening.errors[0].message}` : '';
    throw new Error(`The retry engine could not compute the opening run.${why}`);
  }

  let state = initialState(opening);
  root.replaceChildren(mount(frameView(id, state.fields, state.loadedScript), root.ownerDocument));
  const $ = (name) => root.querySelector(`#${id(name)}`);
  const els = {
    form: $('controls'), verdict: $('verdict'), now: $('now'), announce: $('announce'), timeline: $('timeline'),
    events: $('events'), table: $('table'), metrics: $('metrics'), play: $('play'), next: $('next'),
    restart: $('restart'), speed: $('speed'), seek: $('seek'), seekFill: $('seek-fill'),
    seekThumb: $('seek-thumb'), seekMarks: $('seek-marks'), readout: $('seek-readout'),
    generalError: $('general-error'), scripted: $('scenario-scripted'), scriptedInput: $('scenario-script'),
    scriptedLabel: $('scenario-scripted-label'),
  };
  const view = root.ownerDocument.defaultView;
  // Writes that leave the DOM alone when it already says the same: a redraw, and every frame of
  // playback, then restyles and lays out only what changed.
  const setText = (el, text) => { if (el.textContent !== text) el.textContent = text; };
  const setAttr = (el, name, value) => { const text = String(value); if (el.getAttribute(name) !== text) el.setAttribute(name, text); };
  const reducedMotion = view.matchMedia('(prefers-reduced-motion: reduce)');
  let drawn = null; // the result the views show
  let timeline = null; // { width, scale, line, veil }
  let eventItems = [];

  // The timeline's box width, as the ResizeObserver below last measured it: reading it here
  // would force a layout of the page in the middle of a redraw. Before the first measure (the
  // observer reports before the first paint) the timeline is drawn 720 pixels wide.
  let timelineWidth = 0;
  function drawTimeline() {
    const width = timelineWidth || 720;
    const { tree, scale } = timelineView(state.result, { width });
    patch(els.timeline, tree);
    timeline = {
      width, scale,
      line: els.timeline.querySelector('[data-playhead="line"]'),
      veil: els.timeline.querySelector('[data-playhead="veil"]'),
    };
  }

  function drawRun() {
    const { result } = state;
    patch(els.verdict, verdictView(result));
    patch(els.now, nowView(result));
    drawTimeline();
    patch(els.events, eventsView(result));
    eventItems = [...els.events.querySelectorAll('li')];
    patch(els.table, tableView(result));
    patch(els.metrics, metricsView(result));
    const span = runSpan(result);
    patch(els.seekMarks, seekMarksView(result, (t) => secondsAt(t, span)));
    drawn = result;
  }

  // Each number field's box, slider and error line, found once.
  const fieldEls = NUMBER_FIELDS.map((f) => ({ f, box: $(f.name), range: $(`${f.name}-range`), errorLine: $(`${f.name}-error`) }));
  const radios = [...els.form.querySelectorAll('input[type="radio"]')];
  const keyBox = $('idempotencyKey');

  function drawFields(changedElement) {
    for (const { f, box, range, errorLine } of fieldEls) {
      const error = state.errors[f.name] || '';
      const text = state.fields[f.name];
      // A box still holding the unreadable text it was given keeps it on screen.
      // (UNREADABLE is no text to show: the box keeps what it holds.)
      if (box !== changedElement && box.value !== text && text !== UNREADABLE) box.value = text;
      const n = Number(text);
      if (range !== changedElement && text !== '' && Number.isFinite(n)) range.value = String(n);
      setText(errorLine, error);
      if (error) box.setAttribute('aria-invalid', 'true');
      else box.removeAttribute('aria-invalid');
    }
    drawScripted();
    for (const input of radios) input.checked = state.fields[input.dataset.field] === input.value;
    keyBox.checked = state.fields.idempotencyKey;
    const general = state.errors.general || '';
    const anyError = Object.keys(state.errors).length > 0;
    setText(els.generalError, general || (anyError ? 'Showing the last good run until the highlighted value is fixed.' : ''));
    root.classList.toggle('rl-stale', anyError);
  }

  // The scripted "Server behaviour" choice is there exactly while a script is loaded, and
  // names its answers. Taken away while it has the focus (a link without a script loaded
  // over it), the focus goes to the choice the run now has, not to the page.
  let drawnScript = state.loadedScript;
  function drawScripted() {
    const script = state.loadedScript;
    if (script === drawnScript) return;
    drawnScript = script;
    const { scripted, scriptedInput } = els;
    const hadFocus = !script && root.getRootNode().activeElement === scriptedInput; // the document, or a shadow root
    scriptedInput.disabled = !script;
    scripted.hidden = !script;
    els.scriptedLabel.textContent = scriptedLabel(script);
    if (hadFocus) els.form.querySelector(`input[data-field="scenario"][value="${state.fields.scenario}"]`)?.focus();
  }

  function drawPlayhead() {
    const { result, playback } = state;
    const span = runSpan(result);
    const t = msAt(playback.s, span);
    if (timeline) {
      const { scale } = timeline;
      const px = scale.x0 + Math.min(1, scale.max > 0 ? t / scale.max : 0) * scale.plot;
      setAttr(timeline.line, 'x1', px);
      setAttr(timeline.line, 'x2', px);
      setAttr(timeline.veil, 'x', px);
      setAttr(timeline.veil, 'width', Math.max(0, scale.right - px));
    }
    eventItems.forEach((li, i) => {
      li.classList.toggle('future', i >= playback.shown);
      if (i === playback.shown - 1) setAttr(li, 'aria-current', 'step');
      else li.removeAttribute('aria-current');
    });
    const pct = `${(playback.s / INSPECTION_SECONDS) * 100}%`;
    els.seekFill.style.width = pct; // CSSOM, which a strict style-src allows
    els.seekThumb.style.left = pct;
    setAttr(els.seek, 'aria-valuenow', Math.round(playback.s * 10) / 10);
    const text = valueText(result, playback);
    setAttr(els.seek, 'aria-valuetext', text);
    setText(els.readout, `${text} · ${Math.floor(playback.s)} of ${INSPECTION_SECONDS} inspection seconds`);
    setText(els.play, playback.playing ? 'Pause' : 'Play');
    root.classList.toggle('rl-playing', playback.playing);
  }

  function render(changedElement) {
    if (drawn !== state.result) drawRun();
    drawFields(changedElement);
    drawPlayhead();
  }

  // The playback clock: requestAnimationFrame while playing, nothing otherwise.
  let frame = 0;
  let lastNow = 0;
  function tick(now) {
    const dt = Math.min(0.25, Math.max(0, (now - lastNow) / 1000));
    lastNow = now;
    state = { ...state, playback: advance(state.result, state.playback, dt, reducedMotion.matches) };
    drawPlayhead();
    frame = state.playback.playing ? view.requestAnimationFrame(tick) : 0;
  }
  function setPlayback(playback) {
    state = { ...state, playback };
    if (playback.playing && !frame) {
      lastNow = view.performance.now();
      frame = view.requestAnimationFrame(tick);
    } else if (!playback.playing && frame) {
      view.cancelAnimationFrame(frame);
      frame = 0;
    }
    drawPlayhead();
  }

  const listeners = new Set(); // called with the state after each change that recomputed the run
  function change(next, changedElement) {
    const before = state.result;
    if (frame) setPlayback(pause(state.playback));
    state = next(state);
    render(changedElement);
    if (state.result !== before) {
      els.announce.textContent = `Recomputed: ${verdictText(state.result)}.`;
      for (const listener of listeners) listener(state); // e.g. the link in the URL
    }
  }
  const setFields = (changes, changedElement) => change((s) => withFields(s, changes, compute), changedElement);

  // Inputs.
  els.form.addEventListener('submit', (event) => event.preventDefault());
  els.form.addEventListener('input', (event) => {
    const input = event.target;
    const field = input.dataset.field;
    if (!field || input.type === 'radio' || input.type === 'checkbox') return;
    // A number box holding text it cannot read ("1e400", "-") reports "" as its value, and so
    // does one whose text was typed or pasted over with text that is no number ("abc", "NaN",
    // Arabic digits: Chromium drops it and leaves the box empty, an insertion that left nothing).
    // Pass either on as unreadable, not as an empty box: an empty deadline means none, which the
    // reader asks for by clearing the box (a deletion), never by typing letters into it.
    const dropped = input.type === 'number' && input.value === '' && typeof event.inputType === 'string' && event.inputType.startsWith('insert');
    setFields({ [field]: (input.validity && input.validity.badInput) || dropped ? UNREADABLE : input.value }, input);
  });
  els.form.addEventListener('change', (event) => {
    const input = event.target;
    const field = input.dataset.field;
    if (input.type === 'radio' && input.checked) setFields({ [field]: input.value }, input);
    if (input.type === 'checkbox') setFields({ [field]: input.checked }, input);
  });

  // Playback controls.
  els.play.addEventListener('click', () => {
    setPlayback(state.playback.playing ? pause(state.playback) : play(state.result, state.playback));
  });
  els.next.addEventListener('click', () => setPlayback(nextEvent(state.result, state.playback)));
  els.restart.addEventListener('click', () => setPlayback(restart(state.result, state.playback.speed)));
  els.speed.addEventListener('change', () => {
    const playback = { ...state.playback, speed: Number(els.speed.value) };
    setPlayback(playback);
  });

  // The inspection-time slider: the WAI-ARIA media-seek pattern.
  const KEYS = {
    ArrowRight: (s) => s + 1, ArrowUp: (s) => s + 1, ArrowLeft: (s) => s - 1, ArrowDown: (s) => s - 1,
    PageUp: (s) => s + 10, PageDown: (s) => s - 10, Home: () => 0, End: () => INSPECTION_SECONDS,
  };
  const seekTo = (s) => setPlayback(seek(state.result, pause(state.playback), clampSeconds(s)));
  els.seek.addEventListener('keydown', (event) => {
    const move = KEYS[event.key];
    if (!move) return;
    event.preventDefault();
    seekTo(move(state.playback.s));
  });
  const seekFromPointer = (event) => {
    const box = els.seek.querySelector('.rl-seek-track').getBoundingClientRect();
    seekTo(((event.clientX - box.left) / Math.max(1, box.width)) * INSPECTION_SECONDS);
  };
  els.seek.addEventListener('pointerdown', (event) => {
    els.seek.setPointerCapture(event.pointerId);
    els.seek.focus();
    seekFromPointer(event);
  });
  els.seek.addEventListener('pointermove', (event) => {
    if (els.seek.hasPointerCapture(event.pointerId)) seekFromPointer(event);
  });

  // Pause while the explorable is off-screen; carry on when it is back.
  const visibility = new view.IntersectionObserver((entries) => {
    const visible = entries.some((e) => e.isIntersecting);
    if (!visible && state.playback.playing) setPlayback(pause(state.playback, true));
    else if (visible && state.playback.autoPaused) setPlayback(play(state.result, state.playback));
  });
  visibility.observe(root);

  // Redraw the timeline for its box's width.
  const resize = new view.ResizeObserver(() => {
    timelineWidth = els.timeline.clientWidth; // layout is up to date while observers run
    if (timeline && Math.abs(timelineWidth - timeline.width) > 1) {
      drawTimeline();
      drawPlayhead();
    }
  });
  resize.observe(els.timeline);

  render(null);

  return {
    getState: () => state,
    // Be told of every new run (a control, a story step, a loaded link); returns the unsubscribe.
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setFields: (changes) => setFields(changes, null),
    // `trace`: the policy trace the inputs are ('A'…'F', 'custom'; see web/traces/), kept in state.trace.
    load: (inputs, { trace = null } = {}) => change((s) => withInputs(s, inputs, compute, trace), null),
    compute,
    destroy() {
      setPlayback(pause(state.playback));
      visibility.disconnect();
      resize.disconnect();
    },
  };
}
