// The seed's policy card, pure, written from the engine's own echo of the policy's inputs
// and from the ceilings it used in trace B — so the card cannot drift from what was run.

import { h } from '../dom.js';
import { num } from '../format.js';
import { sec } from './matrix.js';

const CLASS_WORDS = { timeout: 'timeouts', 429: '429', '5xx': '5xx', '4xx': 'other 4xx' };

function listWords(items) {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

const JITTER_WORDS = {
  full: 'the ceiling × a draw between 0 and 1 (full jitter); each trace supplies its draws so the arithmetic can be checked',
  equal: 'half the ceiling + half the ceiling × a draw (equal jitter)',
  decorrelated: 'a draw between the base and three times the last wait (decorrelated jitter)',
  none: 'the ceiling itself (no jitter)',
};

// `policy` is a result of the policy (its `inputs` echo every field); `ceilings` a result
// whose attempts show the ceilings one after another (trace B: 503 until the limit).
export function policyCardView(policy, ceilings) {
  const i = policy.inputs;
  const used = ceilings.attempts.filter((a) => a.ceilingMs !== null);
  const cap = i.maxBackoffMs === null ? '' : `min(${sec(i.maxBackoffMs)}, `;
  const formula = `${cap}${sec(i.baseBackoffMs)} × ${num(i.backoffMultiplier)}^(n−1)${cap ? ')' : ''}`;
  const items = [
    ['Ceiling after failure n', `${formula}: ${listWords(used.map((a) => sec(a.ceilingMs)))} after failures ${listWords(used.map((a) => num(a.n)))} (trace B).`],
    ['Wait after failure n', `${JITTER_WORDS[i.jitter] || i.jitter}.`],
    ['Retry-After', i.honourRetryAfter
      ? 'wait exactly what the header says instead: seconds, or an HTTP-date counted from the response’s own Date. A date in the past waits nothing.'
      : 'ignored; the backoff applies.'],
    ['Limits', `at most ${num(i.maxRetries + 1)} attempts (${num(i.maxRetries)} waits)${i.waitBudgetMs === null ? '' : ` and ${sec(i.waitBudgetMs)} of waiting in total; a wait that would pass it is not slept but flagged`}${i.deadlineMs === null ? '; no overall deadline' : `; a deadline of ${sec(i.deadlineMs)}`}.`],
    ['Retried', `${listWords(i.retryOn.map((c) => CLASS_WORDS[c] || c))}; ${i.retryWritesWithoutKey ? 'writes too, with or without an identifier' : 'a write only when it carries an operation identifier'}.`],
    ['The fixture', `every answer takes ${sec(i.responseMs)}; the client gives up on an attempt after ${sec(i.clientTimeoutMs)}.`],
  ];
  return h('dl', { class: 'tp-card' },
    items.map(([term, text]) => h('div', { class: 'tp-item' }, h('dt', null, term), h('dd', null, text))));
}
