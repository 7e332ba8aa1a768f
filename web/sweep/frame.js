// The sweep panel's fixed frame, pure: the form (which input, from, to, how many points), the
// chart's keyboard-operable box, the cursor's readout, the boundary list and the table of
// points inside a <details>. The controller fills the empty boxes.

import { h } from '../dom.js';
import { MAX_POINTS } from './model.js';

function numberBox(id, key, label, value, unitId) {
  return h('div', { class: 'sw-field' },
    h('label', { for: id(key) }, label),
    h('input', {
      type: 'number', id: id(key), 'data-sweep': key, value, step: 'any', inputmode: 'decimal',
      'aria-describedby': [unitId, id(`${key}-error`)].filter(Boolean).join(' '),
    }),
    h('p', { class: 'rl-error', id: id(`${key}-error`), 'aria-live': 'polite' }));
}

// `choices`: the inputs that can be swept (model.js varyChoices()).
export function sweepFrameView(id, form, choices) {
  const unit = id('unit');
  return h('div', { class: 'sw' },
    h('form', { class: 'sw-form', id: id('form'), 'aria-label': 'Sweep settings', novalidate: true },
      h('div', { class: 'sw-field' },
        h('label', { for: id('vary') }, 'Input to sweep'),
        h('select', { id: id('vary'), 'data-sweep': 'vary' },
          choices.map((v) => h('option', { value: v.name, selected: v.name === form.vary }, v.label)))),
      numberBox(id, 'from', 'From', form.from, unit),
      numberBox(id, 'to', 'To', form.to, unit),
      numberBox(id, 'points', `Points (up to ${MAX_POINTS.toLocaleString('en-US')})`, form.points, null),
      h('p', { class: 'sw-unit', id: unit }),
      h('p', { class: 'rl-error sw-general-error', id: id('general-error'), 'aria-live': 'polite' })),
    h('p', { class: 'sw-summary', id: id('summary') }),
    h('div', { class: 'sw-boundaries-box', id: id('boundaries') }),
    // Becomes a slider (role, tabindex, labels) with the first sweep; a slider needs a value.
    h('div', { class: 'sw-slider', id: id('chart') }, h('p', { class: 'sw-waiting' }, 'The sweep is computed when this panel is on screen.')),
    h('p', { class: 'visually-hidden', id: id('chart-label') }, 'Sweep point'),
    h('p', { class: 'sw-help', id: id('chart-help') },
      'The chart is a slider over the points: arrow keys move one point, Page Up and Page Down a tenth of the range, Home and End to the ends. A click picks the nearest point.'),
    h('div', { class: 'sw-cursor-box' },
      h('p', { class: 'sw-readout', id: id('readout'), 'aria-hidden': 'true' }),
      h('button', { type: 'button', class: 'rl-button', id: id('run-point') }, 'Run this point in the experiment')),
    h('details', { class: 'sw-details', id: id('details') },
      h('summary', { id: id('details-summary') }, 'Table of every point'),
      h('div', { class: 'rl-scroll', id: id('table'), role: 'region', tabindex: 0, 'aria-label': 'Table of the sweep’s points, scrollable' })));
}
