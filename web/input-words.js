// The page's one name for each of the single run's inputs (issue 31: the explorable's sliders,
// the traces editor, the client lab and their messages all say the same words for a field).
// What an input is (its type, unit, bounds, description) is the engine's table; this is only
// what the page calls it. An input not named here is called by its table description.
export const INPUT_LABELS = {
  scenario: 'Server behaviour',
  operation: 'Operation',
  operationId: 'Operation identifier',
  idempotencyKey: 'Send an idempotency key the server honours',
  maxRetries: 'Maximum retries',
  baseBackoffMs: 'Base backoff',
  backoffMultiplier: 'Backoff multiplier',
  maxBackoffMs: 'Maximum backoff',
  minBackoffMs: 'Minimum wait',
  ceilingScheduleMs: 'Ceiling schedule',
  firstRetryImmediate: 'First retry at once',
  jitter: 'Jitter',
  jitterLow: 'Jitter low',
  jitterHigh: 'Jitter high',
  clientTimeoutMs: 'Client timeout per attempt',
  deadlineMs: 'Overall deadline',
  waitBudgetMs: 'Wait budget',
  attemptStart: 'When an attempt is sent',
  retryOn: 'Retry on',
  retryOnStatuses: 'Statuses retried',
  retryWritesWithoutKey: 'Retry writes without a key',
  honourRetryAfter: 'Honour Retry-After',
  retryAfterStatuses: 'Retry-After statuses',
  retryAfterMode: 'Retry-After mode',
  retryAfterMaxMs: 'Largest Retry-After honoured',
  retryAfterOverMax: 'A larger Retry-After',
  responseMs: 'Server answer time',
  seed: 'Generator seed',
  startDate: 'Clock at time 0 (an HTTP-date)',
};

// A field's label: the page's name for it, else its row's description, else its name.
export const inputLabel = (name, row = null) => INPUT_LABELS[name] || (row && row.description) || name;
