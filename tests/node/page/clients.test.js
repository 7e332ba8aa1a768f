// The client presets (web/clients/presets.js) against docs/clients.md, with the real engine in
// node. Every expectation below is transcribed from docs/clients.md — its line is named —
// never recorded from the engine: each preset's values, the waits its formula gives for given
// draws, which answers it retries, and what the opening run does with it (§8's last column).
// A last test reads §8's table itself, so this file and the docs cannot drift apart.

import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../../browser/lib/dist.js';
import { loadEngineInNode } from '../../browser/lib/engine.js';
import { NO_TIMEOUT_MS, POLICY_FIELDS, PRESETS, SEED_ID, policyOf, presetById, presetInputs } from '../../../web/clients/presets.js';
import { describePolicy } from '../../../web/clients/view.js';

let engine;
before(async () => { engine = await loadEngineInNode(); });
// The bound describePolicy reads from the engine's table: its longest client timeout.
const LIMITS = () => ({ noTimeoutMs: engine.schema().inputs.find((row) => row.name === 'clientTimeoutMs').max });
const compute = (inputs) => {
  const result = engine.compute(inputs);
  assert.equal(result.ok, true, JSON.stringify(result.errors));
  return result;
};

// docs/clients.md, transcribed. `values`: engine inputs the docs state; `opening`: the
// opening run (response-lost, the seed's 3 s timeout) as the docs predict it.
const EXPECTED = {
  'grpc-a6': {
    row: 'gRPC (A6 example; go/java)', // L486
    values: { maxRetries: 3, baseBackoffMs: 100, backoffMultiplier: 2, maxBackoffMs: 1000, jitter: 'full', retryOn: ['5xx'], retryWritesWithoutKey: true, idempotencyKey: false, honourRetryAfter: false, deadlineMs: 3000 }, // L84-L94, L112
    opening: { attempts: 1, charges: 1, outcome: 'unknown', lookupNeeded: true, elapsedMs: 3000 }, // L113-L115
  },
  'grpc-core': {
    row: 'gRPC (grpc-core)', // L487
    values: { maxRetries: 3, baseBackoffMs: 100, backoffMultiplier: 2, maxBackoffMs: 1000, jitter: 'proportional', jitterLow: 0.8, jitterHigh: 1.2, retryOn: ['5xx'], retryWritesWithoutKey: true, idempotencyKey: false, honourRetryAfter: false, deadlineMs: 3000 }, // L69, L88, L487
    opening: { attempts: 1, charges: 1, outcome: 'unknown', lookupNeeded: true, elapsedMs: 3000 }, // L487 "same"
  },
  'aws-standard': {
    row: 'AWS standard (botocore 2.0)', // L488
    values: { maxRetries: 2, baseBackoffMs: 1000, backoffMultiplier: 2, maxBackoffMs: 20000, jitter: 'full', retryWritesWithoutKey: true, idempotencyKey: false, honourRetryAfter: false }, // L169-L179
    opening: { attempts: 2, charges: 2, outcome: 'success' }, // L197-L199
  },
  'aws-standard-go': {
    row: 'AWS standard (Go v2)', // L489
    values: { maxRetries: 2, baseBackoffMs: 2000, backoffMultiplier: 2, maxBackoffMs: 20000, jitter: 'full', retryWritesWithoutKey: true, idempotencyKey: false, honourRetryAfter: false }, // L170, L489
    opening: { attempts: 2, charges: 2, outcome: 'success' }, // L489
  },
  'aws-legacy': {
    row: 'AWS legacy (botocore)', // L490
    values: { maxRetries: 4, baseBackoffMs: 1000, backoffMultiplier: 2, maxBackoffMs: null, jitter: 'full', retryWritesWithoutKey: true, idempotencyKey: false, honourRetryAfter: false }, // L169-L179
    opening: { attempts: 2, charges: 2, outcome: 'success' }, // L200, L490
  },
  urllib3: {
    row: 'urllib3 `Retry.DEFAULT`', // L491
    values: { maxRetries: 3, baseBackoffMs: 0, backoffMultiplier: 2, maxBackoffMs: 120000, jitter: 'none', firstRetryImmediate: true, retryOn: ['timeout'], retryAfterStatuses: [413, 429, 503], idempotencyKey: false, retryWritesWithoutKey: false, honourRetryAfter: true }, // L238-L248, L254-L257
    opening: { attempts: 1, charges: 1, outcome: 'unknown', lookupNeeded: true }, // L268-L269
  },
  requests: {
    row: 'requests default', // L492
    values: { maxRetries: 0 }, // L228, L238
    opening: { attempts: 1, charges: 1, outcome: 'unknown' }, // L268-L269, L492
  },
  'stripe-node': {
    row: 'Stripe node (current) / python once configured', // L493
    values: { maxRetries: 2, baseBackoffMs: 500, backoffMultiplier: 2, maxBackoffMs: 5000, jitter: 'equal', minBackoffMs: 500, idempotencyKey: true, retryWritesWithoutKey: true, retryOn: ['timeout', '5xx'], retryOnStatuses: [409], honourRetryAfter: true, retryAfterMode: 'at-least', retryAfterMaxMs: 60000 }, // L303-L313
    opening: { attempts: 2, charges: 1, replays: 1, outcome: 'success', elapsedMs: 3700 }, // L330-L332
  },
  'stripe-python': {
    row: 'Stripe python (module default)', // L494
    values: { maxRetries: 0, baseBackoffMs: 500, backoffMultiplier: 2, maxBackoffMs: 5000, jitter: 'equal', minBackoffMs: 500, idempotencyKey: true }, // L303-L307, L312
    opening: { attempts: 1, charges: 1, outcome: 'unknown' }, // L332-L334
  },
  'stripe-go': {
    row: 'Stripe go', // L495
    values: { maxRetries: 2, ceilingScheduleMs: [500, 1000, 2500, 5000], maxBackoffMs: 5000, jitter: 'proportional', jitterLow: 0.75, jitterHigh: 1, minBackoffMs: 500, idempotencyKey: true, retryWritesWithoutKey: true, retryOn: ['timeout', '5xx'], retryOnStatuses: [409], honourRetryAfter: false }, // L303-L313, L298-L299
    opening: { attempts: 2, charges: 1, replays: 1, outcome: 'success', elapsedMs: 3700 }, // L330-L332
  },
  polly: {
    row: 'Polly v8 defaults (HttpClient timeout)', // L496
    values: { maxRetries: 3, baseBackoffMs: 2000, backoffMultiplier: 1, maxBackoffMs: null, jitter: 'none', retryOn: ['429', '5xx', '4xx'], retryWritesWithoutKey: true, idempotencyKey: false, honourRetryAfter: false }, // L370-L379
    opening: { attempts: 1, charges: 1, outcome: 'unknown' }, // L392-L393
  },
  'polly-timeout': {
    row: 'Polly v8 + Polly Timeout inside', // L497
    values: { maxRetries: 3, baseBackoffMs: 2000, backoffMultiplier: 1, maxBackoffMs: null, jitter: 'none', clientTimeoutMs: 3000, retryOn: ['timeout', '429', '5xx', '4xx'], retryWritesWithoutKey: true, idempotencyKey: false, honourRetryAfter: false }, // L370-L379, L394
    opening: { attempts: 2, charges: 2, outcome: 'success', elapsedMs: 5200, secondStartMs: 5000 }, // L394-L395
  },
  resilience4j: {
    row: 'resilience4j defaults', // L498
    values: { maxRetries: 2, baseBackoffMs: 500, backoffMultiplier: 1, maxBackoffMs: null, jitter: 'none', retryOn: ['timeout'], retryWritesWithoutKey: true, idempotencyKey: false, honourRetryAfter: false }, // L425-L435
    opening: { attempts: 2, charges: 2, outcome: 'success', elapsedMs: 3700 }, // L446-L448
  },
};

// The list of clients that must be covered.
const REQUIRED = ['grpc-a6', 'grpc-core', 'aws-standard', 'aws-legacy', 'urllib3', 'requests', 'stripe-node', 'stripe-go', 'polly', 'resilience4j'];

// The opening run of a preset: the seed's fixture with the client's policy.
const opening = (preset) => compute(presetInputs({}, preset.inputs));

// One answer, then 200: was the answer retried? A read, so that only the status decides.
function retries(preset, entry) {
  const r = compute({ ...preset.inputs, operation: 'read', deadlineMs: null, scenario: 'script', script: [entry, { status: 200 }] });
  return r.metrics.attempts > 1;
}

// The waits of a read that keeps failing with `status`, drawing `draws`.
function waits(preset, draws, status = 503, retryAfter) {
  const entry = retryAfter === undefined ? { status } : { status, retryAfter };
  const r = compute({ ...preset.inputs, operation: 'read', deadlineMs: null, scenario: 'script', script: [entry], draws });
  return r.attempts.map((a) => a.waitAfterMs).filter((w) => w !== null);
}

describe('client presets', () => {
  test('every client the issue names has a preset, and every preset is checked here', () => {
    for (const id of REQUIRED) assert.ok(presetById(id), `a preset for ${id}`);
    assert.deepEqual(PRESETS.map((p) => p.id).sort(), Object.keys(EXPECTED).sort());
    assert.equal(presetById(SEED_ID), null, 'the seed’s fixture is not a preset');
  });

  test('each preset sets every policy field, and the engine accepts it as it is', () => {
    for (const p of PRESETS) {
      const needed = POLICY_FIELDS.filter((f) => !(/^jitter(Low|High)$/.test(f) && p.inputs.jitter !== 'proportional'));
      assert.deepEqual(Object.keys(p.inputs).sort(), needed.sort(), `${p.id} sets exactly the policy fields`);
      const echoed = policyOf(compute(p.inputs).inputs);
      assert.deepEqual(echoed, p.inputs, `${p.id}: the engine runs the values as written`);
    }
  });

  test('each preset names its sources with links and versions, and what the model cannot represent', () => {
    for (const p of PRESETS) {
      assert.ok(p.sources.length >= 1, p.id);
      for (const s of p.sources) {
        assert.match(s.href, /^https:\/\/[a-z0-9.-]+\/\S+$/, `${p.id}: ${s.href}`);
        assert.ok(s.label && s.version, `${p.id}: a label and a version for ${s.href}`);
      }
      assert.ok(p.cannot.length > 20, `${p.id}: a "cannot represent" line`);
      assert.match(p.docs, /^§[1-6]$/);
    }
  });

  // Where docs/clients.md says it did not verify a value, the page says so too.
  test('the values docs/clients.md flags as uncertain are flagged on the preset', () => {
    const flagged = {
      'aws-standard': /read timeout/, // L136, L174 (secondary source), L175 (not verified)
      urllib3: /retry_after_max/, // L222
      requests: /timeout/, // L244
      'stripe-node': /could not be opened at a known commit/, // L280
      'stripe-python': /0 retries/, // L280, L520-L522
      polly: /EnsureSuccessStatusCode/, // L376, L383
      resilience4j: /retry budget/, // L414
    };
    for (const [id, pattern] of Object.entries(flagged)) {
      assert.ok(presetById(id).uncertain.some((u) => pattern.test(u)), `${id} flags ${pattern}`);
    }
  });

  for (const [id, expected] of Object.entries(EXPECTED)) {
    test(`${id}: the values docs/clients.md cites`, () => {
      const p = presetById(id);
      for (const [field, value] of Object.entries(expected.values)) {
        assert.deepEqual(p.inputs[field], value, `${id}.${field}`);
      }
    });

    test(`${id}: the opening run docs/clients.md §8 predicts`, () => {
      const r = opening(presetById(id));
      const { secondStartMs, ...metrics } = expected.opening;
      for (const [key, value] of Object.entries(metrics)) assert.deepEqual(r.metrics[key], value, `${id}: ${key}`);
      if (secondStartMs !== undefined) assert.equal(r.attempts[1].startMs, secondStartMs);
    });
  }

  test('gRPC: no per-attempt timeout, so an attempt ends only at the call deadline (L89, L107)', () => {
    for (const id of ['grpc-a6', 'grpc-core']) {
      const p = presetById(id);
      assert.equal(p.inputs.clientTimeoutMs, NO_TIMEOUT_MS);
      assert.ok(p.inputs.clientTimeoutMs >= p.inputs.deadlineMs);
      // A longer deadline only makes the single attempt wait longer (L115-L117).
      const r = compute(presetInputs({}, { ...p.inputs, deadlineMs: 9000 }));
      assert.deepEqual([r.metrics.attempts, r.metrics.charges, r.metrics.elapsedMs], [1, 1, 9000]);
    }
  });

  test('the waits follow each client’s formula for given draws', () => {
    // grpc-go/java: U[0, min(100·2^(n−1), 1000)) (L50-L51): ceiling × draw.
    assert.deepEqual(waits(presetById('grpc-a6'), [0.5, 0.5, 0.5]), [50, 100, 200]);
    // grpc-core: min(…) × U(0.8, 1.2) (L69).
    assert.deepEqual(waits(presetById('grpc-core'), [0, 1, 0.5]), [80, 240, 400]);
    // botocore 2.0: d × min(1000·2^(n−1), 20000) (L165).
    assert.deepEqual(waits(presetById('aws-standard'), [0.5, 0.5]), [500, 1000]);
    // aws-sdk-go-v2: rand × 2^attempt s, attempt 1 first (L130).
    assert.deepEqual(waits(presetById('aws-standard-go'), [0.5, 0.5]), [1000, 2000]);
    // botocore legacy: rand × 2^(attempts−1) s, no cap (L158-L159).
    assert.deepEqual(waits(presetById('aws-legacy'), [1, 1, 1, 1]), [1000, 2000, 4000, 8000]);
    // Stripe python/node: max(500, min(5000, 500·2^(n−1)) × (0.5 + 0.5d)) (L295-L297).
    assert.deepEqual(waits(presetById('stripe-node'), [0, 0]), [500, 500]);
    assert.deepEqual(waits(presetById('stripe-node'), [1, 1]), [500, 1000]);
    // stripe-go: max(500, (500 + 500·k²) × (1 − U[0, 0.25))) (L298-L299).
    assert.deepEqual(waits(presetById('stripe-go'), [0, 0]), [500, 750]);
    assert.deepEqual(waits(presetById('stripe-go'), [1, 1]), [500, 1000]);
    // Polly: a constant 2 s (L359); resilience4j: a fixed 500 ms (L418). Reads of 503 are
    // retried by Polly; resilience4j retries timeouts, so a dropped request stands in.
    assert.deepEqual(waits(presetById('polly'), [], 503), [2000, 2000, 2000]);
    const r4j = compute({ ...presetById('resilience4j').inputs, deadlineMs: null, scenario: 'script', script: [{ dropped: true }] });
    assert.deepEqual(r4j.attempts.map((a) => a.waitAfterMs).filter((w) => w !== null), [500, 500]);
  });

  test('urllib3: the first retry waits nothing, later ones factor × 2^(n−1) (L214-L215, L232-L234)', () => {
    // A read that times out every time (GET is an allowed method, L218).
    const readWaits = (inputs) => compute({ ...inputs, operation: 'read', deadlineMs: null, scenario: 'script', script: [{ dropped: true }] })
      .attempts.map((a) => a.waitAfterMs).filter((w) => w !== null);
    const p = presetById('urllib3');
    assert.deepEqual(readWaits(p.inputs), [0, 0, 0], 'backoff_factor 0: no waits at all');
    // The typical explicit use, backoff_factor 0.5 (L236): [0, 1 s, 2 s].
    assert.deepEqual(readWaits({ ...p.inputs, baseBackoffMs: 500 }), [0, 1000, 2000]);
  });

  test('each client retries the answers docs/clients.md lists, and no others', () => {
    const cases = {
      // gRPC: UNAVAILABLE only, as a 5xx (L91); its own deadline is never retried (L114).
      'grpc-a6': { 503: true, 500: true, 400: false, 429: false },
      // botocore standard: 500, 502, 503, 504; 429 as throttling (L132, L500).
      'aws-standard': { 500: true, 502: true, 503: true, 504: true, 501: false, 505: false, 429: true, 400: false },
      'aws-standard-go': { 500: true, 502: true, 503: true, 504: true, 501: false, 429: true },
      // legacy: 500, 503, 509, 429 (L155-L156).
      'aws-legacy': { 500: true, 503: true, 509: true, 502: false, 504: false, 429: true },
      // urllib3: no forcelist, so a status alone is never retried (L219, L225).
      urllib3: { 503: false, 429: false, 500: false },
      requests: { 503: false },
      // Stripe: 409, ≥ 500; not 429 (L285-L286).
      'stripe-node': { 409: true, 500: true, 503: true, 429: false, 400: false },
      'stripe-go': { 409: true, 500: true, 429: false, 400: false },
      // Polly as usually wired: every thrown non-2xx (L376).
      polly: { 400: true, 429: true, 503: true },
      // resilience4j: exceptions, here timeouts; a returned status is a result (L407-L408, L432).
      resilience4j: { 503: false, 400: false },
    };
    for (const [id, statuses] of Object.entries(cases)) {
      for (const [status, expected] of Object.entries(statuses)) {
        assert.equal(retries(presetById(id), { status: Number(status) }), expected, `${id} retries ${status}: ${expected}`);
      }
    }
    // urllib3: 413, 429 and 503 are retried when they carry a Retry-After (L221, L225).
    for (const status of [413, 429, 503]) assert.equal(retries(presetById('urllib3'), { status, retryAfter: '1' }), true, `urllib3 ${status} + Retry-After`);
    assert.equal(retries(presetById('urllib3'), { status: 500, retryAfter: '1' }), false);
    // Timeouts: retried by AWS, Stripe, resilience4j and Polly with a Timeout strategy; not by
    // gRPC, urllib3 for a POST, or Polly as usually wired (L114, L268, L392).
    const timeoutRetried = (id) => compute(presetInputs({}, { ...presetById(id).inputs, deadlineMs: 20000 })).metrics.attempts > 1;
    for (const id of ['aws-standard', 'aws-legacy', 'stripe-node', 'stripe-go', 'resilience4j', 'polly-timeout']) assert.equal(timeoutRetried(id), true, id);
    for (const id of ['grpc-a6', 'grpc-core', 'urllib3', 'requests', 'polly', 'stripe-python']) assert.equal(timeoutRetried(id), false, id);
  });

  test('Stripe python/node: Retry-After is a floor, ignored above 60 s (L284, L318-L319)', () => {
    const p = presetById('stripe-node');
    assert.deepEqual(waits(p, [0], 503, '2').slice(0, 1), [2000], 'a 2 s header beats the 500 ms backoff');
    assert.deepEqual(waits(p, [0], 503, '61').slice(0, 1), [500], 'a 61 s header is ignored');
    assert.deepEqual(waits(presetById('stripe-go'), [0], 503, '2').slice(0, 1), [500], 'stripe-go does not read it (L284)');
  });

  test('the settings in words come from the inputs', () => {
    assert.deepEqual(describePolicy(opening(presetById('stripe-go')).inputs, LIMITS()).slice(0, 2), [
      '2 retries (3 attempts at most)',
      'wait ceilings 500, 1,000, 2,500, 5,000 ms, the last repeating, capped at 5,000 ms, jitter of 75–100 % of the ceiling, at least 500 ms',
    ]);
    assert.ok(describePolicy(opening(presetById('urllib3')).inputs, LIMITS())[1].startsWith('the first retry at once'));
    assert.ok(describePolicy(opening(presetById('grpc-a6')).inputs, LIMITS()).includes('no per-attempt timeout'));
  });

  test('loading a preset keeps the server’s behaviour and the fixture, and replaces the whole policy', () => {
    const world = compute({ scenario: 'outage-503-twice', responseMs: 150, seed: 7, idempotencyKey: true, maxRetries: 9 }).inputs;
    const inputs = presetInputs(world, presetById('resilience4j').inputs);
    assert.equal(inputs.scenario, 'outage-503-twice');
    assert.equal(inputs.responseMs, 150);
    assert.equal(inputs.seed, 7);
    assert.equal(inputs.maxRetries, 2);
    assert.equal(inputs.idempotencyKey, false);
    // From a proportional-jitter preset back to one without: no stray jitterLow/High.
    const fromCore = compute(presetInputs({}, presetById('grpc-core').inputs)).inputs;
    assert.equal(compute(presetInputs(fromCore, presetById('polly').inputs)).inputs.jitterLow, undefined);
  });
});

// §8's table, read from docs/clients.md itself: the numbers in its columns and the charges in
// its last column agree with EXPECTED above.
describe('docs/clients.md §8 agrees with these expectations', () => {
  const docs = readFileSync(join(REPO, 'docs/clients.md'), 'utf8');
  const section = docs.slice(docs.indexOf('## 8. Summary'));
  const rows = section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Client') && !l.startsWith('|---'))
    .map((l) => l.split('|').slice(1, -1).map((c) => c.trim()));
  const byName = Object.fromEntries(rows.map((r) => [r[0], r]));
  const numberOrNull = (cell) => (cell === 'null' ? null : Number(cell));

  test('every preset has its row', () => {
    for (const [id, e] of Object.entries(EXPECTED)) assert.ok(byName[e.row], `${id}: a §8 row named "${e.row}"`);
  });

  for (const [id, e] of Object.entries(EXPECTED)) {
    test(`${id}: §8's retries, base, multiplier, cap, jitter and charges`, () => {
      const [, retriesCell, baseCell, multCell, maxCell, jitterCell] = byName[e.row];
      let chargesCell = byName[e.row][10];
      if (chargesCell === 'same') chargesCell = rows[rows.indexOf(byName[e.row]) - 1][10];
      assert.equal(Number(retriesCell), e.values.maxRetries);
      if (baseCell.startsWith('K7:')) assert.deepEqual(baseCell.slice(3).split(',').map(Number), e.values.ceilingScheduleMs);
      else if (baseCell !== '–') assert.equal(Number(baseCell), e.values.baseBackoffMs);
      if (multCell !== '–') assert.equal(Number(multCell), e.values.backoffMultiplier);
      if (maxCell !== '–') assert.equal(numberOrNull(maxCell), e.values.maxBackoffMs);
      if (jitterCell !== '–') assert.ok(jitterCell.startsWith(e.values.jitter), `${jitterCell} starts with ${e.values.jitter}`);
      const proportional = /proportional (\d\.\d+)–(\d(?:\.\d+)?)/.exec(jitterCell);
      if (proportional) assert.deepEqual([Number(proportional[1]), Number(proportional[2])], [e.values.jitterLow, e.values.jitterHigh]);
      if (/min 500|\+ K2/.test(jitterCell)) assert.equal(e.values.minBackoffMs, 500, 'K2: a 500 ms floor');
      const charges = /(\d+) charges?/.exec(chargesCell);
      assert.equal(Number(charges[1]), e.opening.charges, `charges in "${chargesCell}"`);
      const replay = /(\d+) replay/.exec(chargesCell);
      assert.equal(replay ? Number(replay[1]) : 0, e.opening.replays ?? 0);
      for (const outcome of ['unknown', 'success']) if (chargesCell.includes(outcome)) assert.equal(e.opening.outcome, outcome);
      const elapsed = /success (\d+)/.exec(chargesCell);
      if (elapsed) assert.equal(Number(elapsed[1]), e.opening.elapsedMs);
    });
  }
});
