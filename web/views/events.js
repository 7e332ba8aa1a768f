// The list of events with their times and sentences, pure. Playback marks items after the
// playhead (class "future") and the latest revealed one (aria-current) on the mounted list.

import { h } from '../dom.js';
import { ms } from '../format.js';

export function eventsView(result) {
  return h('ol', { class: 'events' },
    result.events.map((e, i) => h('li', { class: `event event-${e.kind}`, 'data-index': i },
      h('span', { class: 'event-time' }, ms(e.tMs)),
      h('span', { class: 'event-text' }, e.text))));
}
