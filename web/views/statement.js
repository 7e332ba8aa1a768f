// The customer's card statement beside the lanes (issue 15), pure: one line per charge the
// server has committed by the playhead, so a duplicate charge appears as a second line when
// it commits. Read from the result's commit events; the amount and the order are the payment
// seed's scenario ("charge order o-17 for 49.00"), which the engine's inputs do not carry:
// ORDER is their one place in the code (the article says the same in words, and a browser
// test holds the two together).

import { h } from '../dom.js';
import { plural } from '../format.js';

export const ORDER = { id: 'o-17', cents: 4900 };

const money = (cents) => (cents / 100).toFixed(2);
export const lineText = () => `${money(ORDER.cents)} · order ${ORDER.id}`;

// A charge a hedged copy made (docs/throttling.md §6.1: the attempt row's `hedge`), marked on its line.
const hedgeOf = (result) => new Set(result.attempts.filter((a) => a.hedge === true).map((a) => a.n));
// A run on many servers: the server that committed each charge, from its commit event's `host`
// (docs/servers.md §7.2), said on its line ("49.00 · order o-17 · by server 1").
const byHost = (e) => (e && Number.isInteger(e.host) ? ` · by server ${e.host}` : null);

export function statementView(result, shown = Infinity, headingId = null) {
  const { operation } = result.inputs;
  const hedges = hedgeOf(result);
  const commitEvents = result.events.filter((e) => e.kind === 'commit');
  const chargedBy = commitEvents.map((e) => e.attempt);
  const commits = operation === 'charge' ? result.events.filter((e) => e.kind === 'commit').length : 0;
  const charges = operation === 'charge' ? result.events.slice(0, shown).filter((e) => e.kind === 'commit').length : 0;
  // A plain box, not a section: a landmark per explorable would need a name per explorable.
  // The run's later lines hold their room unseen under the total (css/lanes.css: hidden from
  // every reader, the accessibility tree too), so the statement's height is the run's from
  // its start and nothing below it moves while it plays.
  return h('div', { class: 'rl-statement' },
    h('h4', { class: 'st-heading', id: headingId }, 'Card statement'),
    charges ? h('ol', { class: 'st-lines' },
      Array.from({ length: charges }, (_, k) => h('li', { class: k ? 'st-line st-again' : 'st-line' },
        lineText(), byHost(commitEvents[k]), hedges.has(chargedBy[k]) ? ' · a hedged copy' : null))) : null,
    h('p', { class: 'st-total' }, operation !== 'charge'
      ? `No charge: this run's operation is a ${operation}.`
      : charges ? `${plural(charges, 'charge')} · total ${money(ORDER.cents * charges)}` : shown < result.events.length ? 'No charges yet.' : 'No charges.'),
    commits > charges ? h('div', { class: 'st-room', 'aria-hidden': 'true' },
      Array.from({ length: commits - charges }, (_, k) => h('p', { class: 'st-later' },
        lineText(), byHost(commitEvents[charges + k]), hedges.has(chargedBy[charges + k]) ? ' · a hedged copy' : null))) : null);
}

// The statement in one line (issue 35 item 9), for a phone, where the statement itself follows
// the playback bar: under the lanes, so the charges are seen beside the messages and Play stays
// in the first screen. For the eye only (the statement says the same to a screen reader); one
// line from start to end, so nothing below it moves while the run plays.
export function statementLine(result, shown = Infinity) {
  const charge = result.inputs.operation === 'charge';
  const charges = charge ? result.events.slice(0, shown).filter((e) => e.kind === 'commit').length : 0;
  const heading = h('span', { class: 'st-line-heading' }, 'Card statement');
  const hosts = [...new Set(result.events.slice(0, shown).filter((e) => e.kind === 'commit' && Number.isInteger(e.host)).map((e) => e.host))];
  const by = hosts.length ? ` · by server ${hosts.join(' and ')}` : '';
  if (charge && charges) return [heading, ' · ', h('span', { class: charges > 1 ? 'st-again' : null }, `${charges} × ${money(ORDER.cents)}, order ${ORDER.id}${by}`)];
  return [heading, ` · ${!charge ? 'no charge' : shown < result.events.length ? 'no charges yet' : 'no charges'}`];
}
