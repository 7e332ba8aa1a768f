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

// Issue 19 item 8: one call within the binding's limits grew WebAssembly memory to 1.9-2.0 GB
// (1,000 script answers with 1,990 unknown keys each: an error per key, each error copied
// several times on its way out). The binding's limits (compute.js, docs/engine.md) bound what a
// call can make the engine build; the memory's growth is watched through
// WebAssembly.Memory.prototype.grow, across every instance the engine makes.
test('the worst inputs within the binding\'s limits keep WebAssembly memory under a third of its 256 MB ceiling', async () => {
  const engine = await loadEngine();
  const limits = engine.limits();
  assert.equal(limits.memoryBytes, 256 * 1024 * 1024);
  let peak = 0;
  const grow = WebAssembly.Memory.prototype.grow;
  WebAssembly.Memory.prototype.grow = function (pages) {
    const before = grow.call(this, pages);
    peak = Math.max(peak, this.buffer.byteLength);
    return before;
  };
  const unknownKeys = (n, length, base) => {
    const o = { ...base };
    for (let k = 0; k < n; ++k) o[`k${k}`.padEnd(length, 'x')] = 0;
    return o;
  };
  // As many unknown keys as the limits let through, long and short, at the top and in a script,
  // in compute() and sweep(); keys as long as a string may be; and the heaviest valid runs.
  const perAnswer = Math.floor((limits.allMembers - 1000) / 1000);
  const script = (length) => Array.from({ length: 1000 }, () => unknownKeys(perAnswer, length, { status: 200 }));
  const longHeaders = Array.from({ length: 1000 }, (_, i) => ({ status: i % 2 ? 503 : 429, retryAfter: '1'.padStart(1000, ' ') }));
  const draws = Array.from({ length: 100000 }, (_, i) => (i % 997) / 997);
  const cases = {
    'the issue\'s input: 1,000 answers with 1,990 unknown keys each': ['compute', { scenario: 'script', script: Array.from({ length: 1000 }, () => unknownKeys(1990, 7, { status: 200 })) }],
    'short unknown keys in every answer': ['compute', { scenario: 'script', script: script(3) }],
    '100-character unknown keys in every answer': ['compute', { scenario: 'script', script: script(100) }],
    'the same in a sweep': ['sweep', { inputs: { scenario: 'script', script: script(100) }, vary: 'deadlineMs', from: 0, to: 1, points: 2 }],
    'an object as wide as allowed, keys of 199 characters': ['compute', unknownKeys(limits.objectMembers - 1, 199, {})],
    'two unknown keys of 999,000 characters': ['sweep', { inputs: { ['a'.repeat(999000)]: 1, ['b'.repeat(999000)]: 2 }, vary: 'x'.repeat(1000), from: 0, to: 1, points: 2 }],
    'a million callers, 100 retries, 100,000 draws': ['compute', { callers: 1000000, maxRetries: 100, jitter: 'full', draws, deadlineMs: null }],
    'a 300-point sweep of 1,000 answers with 1,000-character headers and 100,000 draws': ['sweep', {
      inputs: { maxRetries: 100, deadlineMs: null, jitter: 'full', draws, scenario: 'script', script: longHeaders },
      vary: 'baseBackoffMs', from: 0, to: 86400000, points: 300,
    }],
  };
  try {
    for (const [label, [entry, request]] of Object.entries(cases)) {
      peak = 0;
      const result = engine[entry](request);
      assert.equal(typeof result.ok, 'boolean', label);
      assert.ok(peak < limits.memoryBytes / 3, `${label}: WebAssembly memory grew to ${(peak / 1048576).toFixed(1)} MB`);
    }
  } finally {
    WebAssembly.Memory.prototype.grow = grow;
  }
  assert.equal(engine.restarts(), 0, 'no call reached the ceiling');
  assert.equal(engine.compute({}).metrics.charges, 2);
});
