// The list of events with their times and sentences, pure. Playback marks items after the
// playhead (class "future", and words for a screen reader) and the latest revealed one
// (aria-current) on the mounted list; the view draws them so for the playhead it is given
// (`shown`, the events revealed), so that a redraw does not undo what playback marked and
// playback then mark it again (issue 18: two writes per event per input change).

import { h } from '../dom.js';
import { ms, plural } from '../format.js';
import { stopBecause } from '../words.js';

/** @typedef {import('retrylab-types').ComputeSuccess} Run */

// The engine's sentence with its times in the page's number style: "3000 ms" and
// "2747.951 ms" read "3,000 ms" and "2,747.95 ms" as everywhere else. Only the digits'
// presentation changes; the page reads no fact from the sentence.
export const eventText = (text) => text.replace(/\b(\d+(?:\.\d+)?) ms\b/g, (_, n) => ms(Number(n)));

// An event's sentence: the run's stop in the page's words (from its stop code and the attempt
// count), every other event as the engine says it.
export const eventSentence = (result, e) => (e.kind === 'stop' ? `the run stops after ${plural(result.metrics.attempts, 'attempt')}: ${stopBecause(result.metrics.stopReason)}` : eventText(e.text));

export const FUTURE_WORDS = 'not yet shown: ';

/** @param {Run} result */
export function eventsView(result, shown = Infinity) {
  return h('ol', { class: 'events' },
    result.events.map((e, i) => h('li', { class: `event event-${e.kind}${i >= shown ? ' future' : ''}`, 'data-index': i, 'aria-current': i === shown - 1 ? 'step' : null },
      h('span', { class: 'event-time' }, ms(e.tMs)),
      h('span', { class: 'event-text' }, h('span', { class: 'event-state visually-hidden' }, i >= shown ? FUTURE_WORDS : null),
        // A run on many servers: the event's server, from its `host` (docs/servers.md §7.2).
        Number.isInteger(e.host) ? h('span', { class: 'event-host', 'data-host': e.host }, `server ${e.host}`, h('span', { class: 'visually-hidden' }, ': ')) : null,
        eventSentence(result, e)))));
}
