// The article's story: each step is a set of inputs the prose talks about. Every number the
// prose quotes is filled in from compute() for that step (elements with data-story and
// data-fact; for index.html the build fills them, web/prerender.mjs), and a "Try it" button shows
// the step in the article's figure (explorable/steps.js).

import { effectWords } from './views/metrics.js';
import { reportWords } from './words.js';
import { ms, num, times, word } from './format.js';

const EVERY_FAILURE = ['timeout', '429', '5xx', '4xx'];
export const SERVERS = { idempotencyKey: true, servers: { count: 2 } };

export const STORY = {
  opening: {},
  key: { idempotencyKey: true },
  'no-retries': { maxRetries: 0 },
  'deadline-4000': { deadlineMs: 4000 },
  'deadline-3500': { deadlineMs: 3500 },
  'timeout-500': { clientTimeoutMs: 500 },
  // docs/throttling.md §6.1: gRPC A6's example policy (copies 500 ms apart, at most 4) on the opening run.
  hedged: { maxRetries: 0, hedging: { maxAttempts: 4, delayMs: 500 } },
  'hedged-key': { maxRetries: 0, hedging: { maxAttempts: 4, delayMs: 500 }, idempotencyKey: true },
  outage: { scenario: 'outage-503-twice' },
  'outage-one-retry': { scenario: 'outage-503-twice', maxRetries: 1 },
  'outage-deadline': { scenario: 'outage-503-twice', deadlineMs: 2000 },
  'bad-request': { scenario: 'bad-request-400' },
  'bad-request-every': { scenario: 'bad-request-400', retryOn: EVERY_FAILURE },
  // docs/servers.md §11.1: the opening run with a key on two replicas behind a round-robin
  // balancer; the retry goes to server 1, and where the keys live decides. The article's control
  // (servers/step.js) sets `keyStore` over SERVERS; the prose quotes these five.
  servers: SERVERS,
  'servers-per-server': { ...SERVERS, keyStore: { scope: 'per-server' } },
  'servers-lag-replay': { ...SERVERS, keyStore: { scope: 'replicated', lagMs: 3300 } },
  'servers-lag-409': { ...SERVERS, keyStore: { scope: 'replicated', lagMs: 3301 } },
  'servers-lag-charge': { ...SERVERS, keyStore: { scope: 'replicated', lagMs: 3501 } },
};

// The steps the article reaches with a control instead of a "Try it" (its box `[data-step]` in
// site/index.html): each is a position of the control (servers/step.js: the key store's scope
// and lag), and the prose quotes its run.
export const CONTROLLED = { servers: ['servers', 'servers-per-server', 'servers-lag-replay', 'servers-lag-409', 'servers-lag-charge'] };

// The run each step's paragraph compares it with (issue 35 item 7), for the figure's "What
// changed": the opening run unless the paragraph builds on a step of its own ("At 3,500 ms the
// same attempt…" on the 4,000 ms deadline; "with one retry" and "a 2,000 ms deadline" on the
// outage; "retrying every failure" on the 400 retried only on 5xx).
export const BASELINE = {
  'deadline-3500': 'deadline-4000',
  'outage-one-retry': 'outage',
  'outage-deadline': 'outage',
  'bad-request-every': 'bad-request',
  // Two servers against one, both with the key: "key on".
  servers: 'key',
  'servers-per-server': 'key',
  'servers-lag-replay': 'key',
  'servers-lag-409': 'key',
  'servers-lag-charge': 'key',
};
export const baselineOf = (step) => (step === 'opening' ? null : BASELINE[step] || 'opening');

const ORDINALS = ['zeroth', 'first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];

export const FORMATS = {
  ms,
  num,
  word,
  times,
  ordinal: (n) => ORDINALS[n] || `${num(n)}th`,
  text: (v) => String(v),
};

// What the prose can name besides the result's own fields.
export function factsOf(result) {
  const { attempts, metrics } = result;
  return {
    ...result,
    commits: result.events.filter((e) => e.kind === 'commit'),
    durations: attempts.map((a) => a.endMs - a.startMs),
    last: attempts[attempts.length - 1] || null,
    retries: Math.max(0, metrics.attempts - 1),
    report: reportWords(metrics.agentReport),
    effect: effectWords(result),
  };
}

// "attempts.1.endMs" → the value, own properties only; undefined when absent.
export function lookup(facts, path) {
  let value = facts;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.prototype.hasOwnProperty.call(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

export function formatFact(facts, path, format) {
  const value = lookup(facts, path);
  const fmt = FORMATS[format || 'text'];
  if (value === undefined || value === null || typeof value === 'object' || !fmt) return null;
  return fmt(value);
}

export function computeStory(compute) {
  const results = {};
  for (const [name, inputs] of Object.entries(STORY)) {
    const result = compute(inputs);
    if (!result || result.ok !== true) throw new Error(`The story step "${name}" did not compute.`);
    results[name] = result;
  }
  return results;
}

// Fill every fact slot under `root`. Returns the slots that could not be filled (a bug).
export function fillFacts(root, results) {
  const missing = [];
  const factsByStep = {};
  for (const slot of root.querySelectorAll('[data-story][data-fact]')) {
    const step = slot.dataset.story;
    if (!results[step]) {
      missing.push(slot);
      continue;
    }
    factsByStep[step] ||= factsOf(results[step]);
    const text = formatFact(factsByStep[step], slot.dataset.fact, slot.dataset.format);
    if (text === null) missing.push(slot);
    else slot.textContent = text;
  }
  return missing;
}
