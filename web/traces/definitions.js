// The seed's invented policy and its traces A–F (spec/seeds/000_0a5354d27fdd3fee.txt) as
// engine inputs. Nothing here is a result: every figure the page shows for a trace comes from
// engine.compute() of these inputs. The only numbers written down are the seed's own inputs —
// the policy, the scripted answers and the draws the seed supplies.

// SPEC §2's "seed-000 policy as inputs": ceiling min(8 s, 0.5 s × 2^(n−1)), full jitter, at
// most 5 attempts and 20 s of waiting, Retry-After wins (the default), no overall deadline,
// and a write without an identifier never retried.
export const SEED_POLICY = Object.freeze({
  operation: 'read',
  maxRetries: 4,
  baseBackoffMs: 500,
  maxBackoffMs: 8000,
  jitter: 'full',
  waitBudgetMs: 20000,
  deadlineMs: null,
  retryOn: ['timeout', '429', '5xx'],
  retryWritesWithoutKey: false,
});

// The herd of trace F as the seed sets it; the herd panel lets a reader change both.
export const SEED_HERD = Object.freeze({ callers: 50, seed: 1 });

const script = (...answers) => ({ scenario: 'script', script: answers });

// Each trace: an id (URL-safe, for links), the seed's label and request line, and its inputs
// on top of the policy.
export const TRACES = Object.freeze([
  {
    id: 'A', label: 'A', request: 'GET /items',
    inputs: { ...script({ status: 429, retryAfter: '2' }, { status: 503 }, { status: 503 }, { status: 200 }), draws: [0.40, 0.75] },
  },
  {
    id: 'B', label: 'B', request: 'GET /items, provider down',
    inputs: { ...script({ status: 503 }), draws: [0.90, 0.20, 0.60, 0.50] },
  },
  {
    id: 'C', label: 'C', request: 'GET /items',
    inputs: script(
      { status: 429, date: 'Sun, 29 Nov 2026 10:00:00 GMT', retryAfter: 'Sun, 29 Nov 2026 10:00:07 GMT' },
      { status: 200 },
    ),
  },
  { id: 'D', label: 'D', request: 'GET /items', inputs: script({ status: 400 }) },
  { id: 'D-401', label: 'D · 401', request: 'GET /items', inputs: script({ status: 401 }) },
  { id: 'D-404', label: 'D · 404', request: 'GET /items', inputs: script({ status: 404 }) },
  {
    id: 'E', label: 'E · with identifier', request: 'create op-0001, identifier sent',
    inputs: { operation: 'create', operationId: 'op-0001', scenario: 'response-lost', idempotencyKey: true },
  },
  {
    id: 'E-no-id', label: 'E · no identifier', request: 'create op-0001, no identifier',
    inputs: { operation: 'create', operationId: 'op-0001', scenario: 'response-lost', idempotencyKey: false },
  },
  {
    id: 'F', label: 'F', request: 'GET /items, many callers',
    inputs: script({ status: 429 }),
    herd: true,
  },
]);

export const CUSTOM_ID = 'custom';
export const TRACE_IDS = Object.freeze([...TRACES.map((t) => t.id), CUSTOM_ID]);

export const traceById = (id) => TRACES.find((t) => t.id === id) || null;

// The full inputs of a trace: the policy, then the trace's own inputs. Trace F takes the
// herd's callers and seed; `callers: 1` gives its one-caller run (SPEC §6: the events,
// attempts and metrics of a herd are those of one caller).
/**
 * @param {any} trace
 * @param {{ callers: number, seed: number }} [herd]
 * @param {{ callers?: number }} [options]
 */
export function traceInputs(trace, herd = SEED_HERD, { callers = herd.callers } = {}) {
  const inputs = { ...SEED_POLICY, ...trace.inputs };
  if (trace.herd) {
    inputs.seed = herd.seed;
    if (callers > 1) inputs.callers = callers;
  }
  return inputs;
}

// The custom trace starts as a copy of trace A, so the editor opens on something that works.
export const DEFAULT_CUSTOM = Object.freeze(traceInputs(TRACES[0]));
