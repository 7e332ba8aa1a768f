// The traces section's fixed frame, pure: the boxes the views are mounted into and the
// herd's controls. Ids carry a prefix, like the explorable's, so instances can share a page.

import { h } from '../dom.js';

// The range's stops: 1, 2, 5, 10, 20, 50 … 1,000,000 callers (the seed's fifty among them);
// the number box beside it takes any count.
export const CALLER_STOPS = Object.freeze([
  ...[1, 10, 100, 1000, 10000, 100000].flatMap((p) => [p, 2 * p, 5 * p]), 1000000,
]);

// The stop nearest a count, on a log scale.
export function callerStop(callers) {
  let best = 0;
  CALLER_STOPS.forEach((stop, i) => {
    if (Math.abs(Math.log(stop / callers)) < Math.abs(Math.log(CALLER_STOPS[best] / callers))) best = i;
  });
  return best;
}

export function tracesFrameView(id) {
  return h('div', { class: 'tr' },
    h('section', { class: 'tr-block tr-policy', 'aria-labelledby': id('policy-heading') },
      h('h3', { id: id('policy-heading') }, 'The policy'),
      h('div', { id: id('policy') })),

    h('section', { class: 'tr-block', 'aria-labelledby': id('matrix-heading') },
      h('h3', { id: id('matrix-heading') }, 'The traces, attempt by attempt'),
      h('div', { class: 'tm-scroll', id: id('matrix') }),
      h('div', { class: 'tm-status-line' },
        h('p', { class: 'tm-status', id: id('status'), role: 'status' }),
        h('button', { type: 'button', class: 'rl-button', id: id('show'), hidden: true }, 'Show the experiment'))),

    h('section', { class: 'tr-block th', 'aria-labelledby': id('herd-heading') },
      h('h3', { id: id('herd-heading') }, 'Trace F: many callers at once'),
      h('p', { class: 'th-intro', id: id('herd-intro') }),
      h('form', { class: 'th-controls', id: id('herd-controls'), novalidate: true, 'aria-label': 'Trace F’s herd' },
        h('div', { class: 'te-field th-callers' },
          h('label', { id: id('callers-label'), for: id('callers') }, 'Callers'),
          h('div', { class: 'te-pair' },
            h('input', {
              type: 'range', id: id('callers-range'), min: 0, max: CALLER_STOPS.length - 1, step: 1, value: 0,
              'aria-labelledby': id('callers-label'), 'aria-describedby': id('callers-range-help'),
            }),
            h('input', { type: 'text', inputmode: 'numeric', id: id('callers'), autocomplete: 'off', 'aria-describedby': id('callers-error') })),
          h('p', { class: 'visually-hidden', id: id('callers-range-help') }, 'In steps of 1, 2 and 5 times a power of ten, from one caller to a million.'),
          h('p', { class: 'rl-error', id: id('callers-error'), 'aria-live': 'polite' })),
        h('div', { class: 'te-field th-seed' },
          h('label', { for: id('seed') }, 'Generator seed'),
          h('div', { class: 'te-pair' },
            h('input', { type: 'text', inputmode: 'numeric', id: id('seed'), autocomplete: 'off', spellcheck: 'false', 'aria-describedby': `${id('seed-help')} ${id('seed-error')}` }),
            h('button', { type: 'button', class: 'rl-button', id: id('next-seed') }, 'Next seed')),
          h('p', { class: 'te-hint', id: id('seed-help') }, 'Where the draws come from when none are supplied: a whole number from 0 to 2^53 − 1.'),
          h('p', { class: 'rl-error', id: id('seed-error'), 'aria-live': 'polite' }))),
      h('p', { class: 'th-status', id: id('herd-status'), role: 'status' }),
      h('div', { class: 'th-figures', id: id('herd-figures') })),

    h('section', { class: 'tr-block tr-editor', 'aria-labelledby': id('editor-heading') },
      h('h3', { id: id('editor-heading') }, 'Your own trace'),
      h('p', { class: 'te-intro' },
        'Script the provider’s answers, supply draws, change the policy: your trace is the last row of the matrix, computed as you type. ',
        'An entry the engine cannot use is named beside its field, and the row keeps your last good trace until it is fixed.'),
      h('div', { id: id('editor-box') })));
}
