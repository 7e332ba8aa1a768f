// The list of events with their times and sentences, pure. Playback marks items after the
// playhead (class "future") and the latest revealed one (aria-current) on the mounted list.

import { h } from '../dom.js';
import { ms, plural } from '../format.js';
import { stopBecause } from '../words.js';

// The engine's sentence with its times in the page's number style: "3000 ms" and
// "2747.951 ms" read "3,000 ms" and "2,747.95 ms" as everywhere else. Only the digits'
// presentation changes; the page reads no fact from the sentence.
export const eventText = (text) => text.replace(/\b(\d+(?:\.\d+)?) ms\b/g, (_, n) => ms(Number(n)));

// An event's sentence: the run's stop in the page's words (from its stop code, so "1 attempt"
// is never "1 attempts is the limit"), every other event as the engine says it.
export const eventSentence = (result, e) => (e.kind === 'stop' ? `the run stops after ${plural(result.metrics.attempts, 'attempt')}: ${stopBecause(result.metrics.stopReason)}` : eventText(e.text));

export function eventsView(result) {
  return h('ol', { class: 'events' },
    result.events.map((e, i) => h('li', { class: `event event-${e.kind}`, 'data-index': i },
      h('span', { class: 'event-time' }, ms(e.tMs)),
      h('span', { class: 'event-text' }, h('span', { class: 'event-state visually-hidden' }), eventSentence(result, e)))));
}
