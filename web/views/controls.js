// The explorable's fixed frame, pure: the input controls, the playback bar and the empty
// boxes the views are mounted into. Ids carry a prefix so that several instances can share
// a page.

import { h } from '../dom.js';
import { RETRY_ON, SCENARIOS, SCRIPTED, scriptSummary } from '../state.js';
import { INSPECTION_SECONDS, SPEEDS } from '../playback.js';
import { INPUT_LABELS } from '../input-words.js';

export const makeIds = (prefix) => (name) => `${prefix}${name}`;

function radioGroup(id, name, legend, options, checked, after = null) {
  return h('fieldset', { class: `rl-group rl-group-${name}` },
    h('legend', null, legend),
    options.map((o) => h('div', { class: 'rl-radio' },
      h('input', { type: 'radio', name: id(name), id: id(`${name}-${o.value}`), value: o.value, 'data-field': name, checked: o.value === checked }),
      h('label', { for: id(`${name}-${o.value}`) }, o.label))),
    after);
}

// The label of the scripted choice: what the loaded answers are.
export const scriptedLabel = (script) => `Scripted answers: ${script ? scriptSummary(script) : 'none loaded'}`;

// The fifth "Server behaviour" choice: the answers a policy trace, the trace editor or a link
// loaded (scenario "script"). It is in the group only while there is a script to choose
// (`script`, state.loadedScript): otherwise it is hidden and disabled, so neither a click,
// Tab nor the arrow keys can reach it and choosing it can never be the engine's "script is
// missing". app.js shows, hides and relabels it as loads come and go.
export function scriptedOption(id, script, checked) {
  const inputId = id(`scenario-${SCRIPTED}`);
  return h('div', { class: 'rl-radio rl-radio-scripted', id: id('scenario-scripted'), hidden: !script },
    h('input', {
      type: 'radio', name: id('scenario'), id: inputId, value: SCRIPTED, 'data-field': 'scenario',
      checked: Boolean(script) && checked === SCRIPTED, disabled: !script, 'aria-describedby': id('scenario-scripted-note'),
    }),
    h('span', { class: 'rl-radio-text' },
      h('label', { for: inputId, id: id('scenario-scripted-label') }, scriptedLabel(script)),
      h('span', { class: 'rl-radio-note', id: id('scenario-scripted-note') }, 'From the policy trace or link you loaded; the last answer repeats.')));
}

function numberField(id, f, value) {
  const describedBy = [f.unit ? id(`${f.name}-unit`) : null, id(`${f.name}-error`)].filter(Boolean).join(' ');
  return h('div', { class: 'rl-field' },
    h('label', { class: 'rl-label', for: id(f.name), id: id(`${f.name}-label`) }, f.label),
    h('div', { class: 'rl-pair' },
      h('input', {
        type: 'range', id: id(`${f.name}-range`), 'data-field': f.name, 'data-role': 'range',
        min: f.min, max: f.max, step: f.step, value, 'aria-labelledby': id(`${f.name}-label`),
      }),
      h('input', {
        type: 'number', id: id(f.name), 'data-field': f.name, 'data-role': 'number',
        step: 'any', value, inputmode: 'decimal', 'aria-describedby': describedBy,
        placeholder: f.nullable ? 'none' : null, // an empty deadline box is no deadline
      }),
      f.unit ? h('span', { class: 'rl-unit', id: id(`${f.name}-unit`) }, f.unit) : h('span', { class: 'rl-unit', 'aria-hidden': 'true' })),
    h('p', { class: 'rl-error', id: id(`${f.name}-error`), 'aria-live': 'polite' }));
}

// `controls`: state.controls (state.js explorableControls, from the engine's table).
export function controlsView(id, controls, fields, script = null) {
  // The key switch first: it is the one change that ends the double charge.
  return h('form', { class: 'rl-controls', id: id('controls'), 'aria-label': 'Inputs', novalidate: true },
    h('div', { class: 'rl-check rl-key' },
      h('input', { type: 'checkbox', id: id('idempotencyKey'), 'data-field': 'idempotencyKey', checked: fields.idempotencyKey }),
      h('label', { for: id('idempotencyKey') }, INPUT_LABELS.idempotencyKey)),
    h('div', { class: 'rl-more', id: id('more') },
      radioGroup(id, 'scenario', INPUT_LABELS.scenario, SCENARIOS, fields.scenario, scriptedOption(id, script, fields.scenario)),
      h('fieldset', { class: 'rl-group rl-group-policy' },
        h('legend', null, 'Client retry policy'),
        controls.numbers.map((f) => numberField(id, f, fields[f.name]))),
      radioGroup(id, 'retryOn', INPUT_LABELS.retryOn, RETRY_ON, fields.retryOn)),
    h('button', { type: 'button', class: 'rl-button rl-open-inputs', id: id('open-inputs'), 'aria-controls': id('more'), 'aria-expanded': 'false' }, 'All the inputs'),
    h('p', { class: 'rl-error rl-general-error', id: id('general-error'), 'aria-live': 'polite' }),
    // Shown while a change waits for the engine, which the page loads on first need (engine.js).
    h('p', { class: 'rl-engine-loading', id: id('engine-loading'), role: 'status', hidden: true }, 'Loading the engine…'));
}

export function playbackView(id) {
  return h('div', { class: 'rl-playback', role: 'group', 'aria-label': 'Playback' },
    h('div', { class: 'rl-buttons' },
      h('button', { type: 'button', id: id('play'), class: 'rl-button rl-play' }, 'Play'),
      h('button', { type: 'button', id: id('next'), class: 'rl-button' }, 'Next event'),
      h('button', { type: 'button', id: id('restart'), class: 'rl-button' }, 'Restart'),
      h('label', { class: 'rl-speed', for: id('speed') }, 'Speed',
        h('select', { id: id('speed') },
          SPEEDS.map((s) => h('option', { value: s, selected: s === 1 }, `${s}×`))))),
    h('div', { class: 'rl-seek' },
      h('span', { class: 'rl-seek-label', id: id('seek-label') }, 'Inspection time'),
      h('div', {
        class: 'rl-seek-slider', id: id('seek'), role: 'slider', tabindex: 0,
        'aria-labelledby': id('seek-label'), 'aria-valuemin': 0, 'aria-valuemax': INSPECTION_SECONDS,
        'aria-valuenow': 0, 'aria-describedby': id('seek-help'),
      },
      h('div', { class: 'rl-seek-track' },
        h('div', { class: 'rl-seek-marks', id: id('seek-marks') }),
        h('div', { class: 'rl-seek-fill', id: id('seek-fill') }),
        h('div', { class: 'rl-seek-thumb', id: id('seek-thumb') }))),
      h('p', { class: 'rl-seek-readout', id: id('seek-readout'), 'aria-hidden': 'true' }),
      h('p', { class: 'rl-clock-line', 'aria-hidden': 'true' },
        h('span', { class: 'rl-clock-label' }, 'Run clock'), h('span', { class: 'rl-clock', id: id('clock') }, '0 ms'),
        h('span', { class: 'rl-gap', id: id('gap') })),
      h('p', { class: 'rl-motion-note' }, 'Reduced motion is on: Play steps from event to event without animation.'),
      h('p', { class: 'visually-hidden', id: id('seek-help') },
        `Replays the run over ${INSPECTION_SECONDS} inspection seconds. Arrow keys move one second, Page Up and Page Down ten, Home and End to the ends.`)));
}

// The results come first in the document: the question (or verdict), the figure and its
// playback, then the precise views. On a wide screen the inputs stand to their left.
export function frameView(id, controls, fields, script = null) {
  return h('div', { class: 'rl rl-asking' },
    h('div', { class: 'rl-results' },
      h('div', { class: 'rl-verdict', id: id('verdict') }),
      h('p', { class: 'visually-hidden', role: 'status', id: id('announce') }),
      h('section', { class: 'rl-view rl-figure', 'aria-labelledby': id('figure-heading') },
        h('h3', { class: 'visually-hidden', id: id('figure-heading') }, 'The run, drawn'),
        h('div', { class: 'rl-timeline', id: id('timeline') })),
      playbackView(id),
      h('section', { class: 'rl-view rl-precise', 'aria-labelledby': id('trace-heading') },
        h('h3', { id: id('trace-heading') }, 'Event trace'),
        h('div', { class: 'rl-events', id: id('events') })),
      h('section', { class: 'rl-view rl-precise', 'aria-labelledby': id('data-heading') },
        h('h3', { id: id('data-heading') }, 'Computed data'),
        h('div', { class: 'rl-scroll', id: id('table'), role: 'region', tabindex: 0, 'aria-label': 'Server-answer table, scrollable' })),
      h('section', { class: 'rl-view rl-precise', 'aria-labelledby': id('metrics-heading') },
        h('h3', { id: id('metrics-heading') }, 'Final metrics'),
        h('div', { id: id('metrics') }))),
    h('div', { class: 'rl-inputs' }, h('div', { class: 'rl-now-box', id: id('now') }), controlsView(id, controls, fields, script), h('div', { id: id('in-force') })));
}

// Marks on the inspection-time track where events fall, as SVG (attributes, not styles).
export function seekMarksView(result, secondsOf) {
  const seen = new Set();
  const lines = [];
  for (const e of result.events) {
    const x = Math.round(secondsOf(e.tMs) * 10000 / 60) / 10;
    if (seen.has(x)) continue;
    seen.add(x);
    lines.push(h('line', { x1: x, x2: x, y1: 0, y2: 10, class: `rl-seek-mark rl-seek-mark-${e.kind}` }));
  }
  return h('svg', { class: 'rl-seek-svg', viewBox: '0 0 1000 10', preserveAspectRatio: 'none', 'aria-hidden': 'true', focusable: 'false' }, lines);
}
