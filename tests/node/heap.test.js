// 100,000 compute() calls leave the WebAssembly heap where it was. WebAssembly memory only
// grows, so its size would hide a leak under spare room: heapInUse() is the allocator's own
// count of bytes handed out and not yet freed. (Results cross as data, not embind handles:
// bindings/wasm/engine.cpp.)
'use strict';

const assert = require('node:assert/strict');
const { test } = require('node:test');

const { loadEngine } = require('./support.js');

const CALLS = 100000;

// A mix: the opening run, a long script with every kind of answer, a herd, draws, and bad
// inputs (errors are built and freed too).
const cycle = { scenario: 'script' };
cycle.script = [cycle];
const inputs = [
  {},
  { idempotencyKey: true, maxRetries: 5, jitter: 'full', draws: [0.1, 0.9, 0.5] },
  {
    scenario: 'script', operation: 'create', idempotencyKey: true, clientTimeoutMs: 100, responseMs: 250,
    script: [{ status: 503, retryAfter: '1' }, { status: 429, retryAfter: 'Sun, 29 Nov 2026 10:00:09 GMT' },
      { dropped: true }, { status: 200, lost: true }, { status: 200 }],
  },
  { operation: 'read', maxRetries: 4, jitter: 'full', waitBudgetMs: 20000, deadlineMs: null, callers: 50,
    retryOn: ['timeout', '429', '5xx'], retryWritesWithoutKey: false, scenario: 'script', script: [{ status: 429 }] },
  { maxRetries: -1, draws: [0.5, 'x', NaN], bogus: () => 1 },
  cycle,
  [],
];

test(`${CALLS} compute() calls leave heapInUse() where it was`, async () => {
  const engine = await loadEngine();
  // Warm up: anything allocated once and kept (caches, statics) is allocated now.
  for (let i = 0; i < 100; ++i) for (const input of inputs) engine.compute(input);
  const heapBefore = engine.heapInUse();
  let ok = 0;
  for (let i = 0; i < CALLS; ++i) {
    if (engine.compute(inputs[i % inputs.length]).ok) ++ok;
  }
  let valid = 0;  // the first four inputs are valid, the last three not
  for (let i = 0; i < CALLS; ++i) if (i % inputs.length < 4) ++valid;
  assert.equal(ok, valid, 'valid inputs give results, invalid ones errors');
  assert.equal(engine.heapInUse(), heapBefore, 'bytes in use after the calls');
});

test('heapInUse() sees an allocation that is not freed', async () => {
  const engine = await loadEngine();
  const before = engine.heapInUse();
  const block = engine._malloc(4096);
  try {
    assert.ok(engine.heapInUse() >= before + 4096, `${engine.heapInUse()} after a 4096-byte malloc from ${before}`);
  } finally {
    engine._free(block);
  }
  assert.equal(engine.heapInUse(), before);
});

test('100,000 draws go through compute() and come back in the inputs', async () => {
  const engine = await loadEngine();
  const draws = Array.from({ length: 100000 }, (_, i) => (i % 1000) / 1000);
  const heapBefore = engine.heapInUse();
  const result = engine.compute({ jitter: 'full', draws });
  assert.equal(result.ok, true, JSON.stringify(result.errors));
  assert.equal(result.inputs.draws.length, 100000);
  assert.ok(Array.isArray(result.inputs.draws));
  assert.deepEqual(result.inputs.draws.slice(0, 3), [0, 0.001, 0.002]);
  assert.equal(engine.heapInUse(), heapBefore);
});
