// The engine's codes in the page's words: the one place a stop reason or an agent report
// becomes English. The engine says what happened as codes (docs/engine.md: `stopReason`,
// `agentReport`); every view that words one asks here.

import { capitalise } from './format.js';

// What the agent reports (metrics.agentReport: success, timeout, not-sent, or "error" and the
// status): as a headline ("Success", "Error 400", "Nothing sent"), and in a sentence.
export function reportTitle(agentReport) {
  if (agentReport === 'not-sent') return 'Nothing sent';
  return capitalise(agentReport);
}

export function reportWords(agentReport) {
  if (agentReport === 'timeout') return 'a timeout';
  if (agentReport === 'not-sent') return 'nothing sent';
  return agentReport; // "success", "error 400"
}

// Why the last attempt was the last: `because` completes "stopped because …"; `short` is the
// traces matrix's cell ("limit reached"), which the seed's traces word more tersely.
const STOPS = {
  success: { because: 'it got a 2xx answer', short: () => 'done' },
  'not-retryable': { because: 'that failure is not one the policy retries', short: () => 'not retried: the policy does not retry this answer' },
  'write-without-key': { because: 'a write without a key is never retried', short: () => 'not retried: a write without an identifier' },
  'attempt-limit': { because: 'no retries were left', short: () => 'limit reached' },
  'wait-budget': {
    because: 'the next wait would exceed the wait budget',
    short: (result, sec) => `stopped and flagged: the next wait, ${sec(result.metrics.refusedWaitMs)}, would take the waiting past ${sec(result.inputs.waitBudgetMs)}`,
  },
  deadline: { because: 'the next attempt would not finish before the deadline', short: () => 'stopped: the next attempt would not finish before the deadline' },
};

// "stopped because …"; an unknown code is shown as it is.
export const stopBecause = (stopReason) => (STOPS[stopReason] ? STOPS[stopReason].because : stopReason);

// The matrix's words for a run's stop; `sec` formats milliseconds as the matrix does.
export const stopShort = (result, sec) => {
  const stop = STOPS[result.metrics.stopReason];
  return stop ? stop.short(result, sec) : result.metrics.stopReason;
};

// A committed side effect by its number: "charge #2", "record #1 for op-0001".
export const effectName = (inputs, k) => (inputs.operation === 'create' ? `record #${k} for ${inputs.operationId}` : `charge #${k}`);

// What an attempt of a write did at the provider: the effect it committed (chargeNumber), or
// why it committed none (a lost request, a 409 while the first is in flight, a replay of the
// stored effect: the one an earlier attempt with the key committed); null when it did nothing.
export function attemptEffect(result, a) {
  if (a.chargeNumber !== null) return effectName(result.inputs, a.chargeNumber);
  if (a.server === 'dropped') return 'the request never reached the server';
  const stored = result.attempts.find((b) => b.n < a.n && b.chargeNumber !== null);
  if (stored && a.server === '409') return `${effectName(result.inputs, stored.chargeNumber)} is still in flight`;
  if (stored && a.server === 'replay') return `replays ${effectName(result.inputs, stored.chargeNumber)}`;
  return null;
}

// The inputs no control of the explorable shows, by the names the page gives them ("Also in
// force", views/in-force.js); an input not named here is called by the engine's description.
const INPUT_NAMES = {
  operation: 'Operation', operationId: 'Operation identifier', backoffMultiplier: 'Backoff multiplier',
  maxBackoffMs: 'Backoff cap', jitter: 'Jitter', draws: 'Random draws', seed: 'Generator seed',
  waitBudgetMs: 'Wait budget', responseMs: 'Server response time', retryWritesWithoutKey: 'Retries a write without a key',
  honourRetryAfter: 'Obeys Retry-After', startDate: 'Start date', callers: 'Callers',
  firstRetryImmediate: 'First retry at once', minBackoffMs: 'Shortest backoff', jitterLow: 'Jitter from',
  jitterHigh: 'Jitter to', ceilingScheduleMs: 'Ceiling schedule', retryOnStatuses: 'Also retries statuses',
  retryAfterStatuses: 'Reads Retry-After on', retryAfterMode: 'Retry-After', retryAfterMaxMs: 'Longest Retry-After obeyed',
  retryAfterOverMax: 'A longer Retry-After', attemptStart: 'An attempt is sent',
};
export const inputName = (row) => INPUT_NAMES[row.name] || capitalise(row.description || row.name);
