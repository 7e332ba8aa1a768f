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

// An input no control of the explorable shows, by its name in words ("Also in force",
// views/in-force.js): "maxBackoffMs" is "Max backoff", "retryOnStatuses" "Retry on statuses".
export const inputName = (row) => capitalise(row.name.replace(/Ms$/, '').replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`));
