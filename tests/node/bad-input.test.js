// Bad input of every kind gives an { ok: false, errors } object naming the field, and never
// throws, aborts or hangs (SPEC §7) — including what only JavaScript can pass: functions,
// symbols, BigInts, cycles, getters that throw, revoked proxies, nesting 100,000 deep.
'use strict';

const assert = require('node:assert/strict');
const { test, before } = require('node:test');

const { loadEngine } = require('./support.js');

let engine;
before(async () => { engine = await loadEngine(); });

// compute() must return (not throw) an error object, quickly; returns its errors.
function errorsOf(inputs, label) {
  const started = Date.now();
  let result;
  assert.doesNotThrow(() => { result = engine.compute(inputs); }, `${label} threw`);
  assert.ok(Date.now() - started < 5000, `${label} took ${Date.now() - started} ms`);
  assert.equal(Object.getPrototypeOf(result), Object.prototype, `${label}: a plain object`);
  assert.equal(result.ok, false, `${label} was accepted: ${JSON.stringify(result).slice(0, 300)}`);
  assert.ok(Array.isArray(result.errors) && result.errors.length > 0, `${label}: no errors listed`);
  for (const e of result.errors) {
    assert.equal(typeof e.field, 'string');
    assert.ok(typeof e.message === 'string' && e.message.length > 10, `${label}: message ${JSON.stringify(e.message)}`);
  }
  return result.errors;
}

// The errors name `field` itself or a path inside it (draws -> draws[0]).
function assertNames(inputs, field, label = `${field} = ${String(inputs[field])}`) {
  const errors = errorsOf(inputs, label);
  const inside = (path) => path === field || path.startsWith(`${field}[`) || path.startsWith(`${field}.`);
  assert.ok(errors.some((e) => inside(e.field)),
    `${label}: no error names ${field}: ${JSON.stringify(errors)}`);
}

test('maxRetries: -1 is an error naming maxRetries', () => {
  const errors = errorsOf({ maxRetries: -1 }, 'maxRetries -1');
  assert.deepEqual(errors.map((e) => e.field), ['maxRetries']);
  assert.match(errors[0].message, /maxRetries/);
});

test('every field with a value of the wrong type or range is named', () => {
  const bad = {
    scenario: ['nope', 3, null], operation: ['delete', true], operationId: ['', 'x'.repeat(256), 7],
    maxRetries: [-1, 101, 1.5, '3', NaN, Infinity], baseBackoffMs: [-1, 86400001, '500', NaN],
    backoffMultiplier: [0.5, 11, null], maxBackoffMs: [-1, 'none', false], jitter: ['some', 1],
    draws: [[1.5], [-0.1], 'x', [NaN], {}], seed: [-1, 0.5, 2 ** 53, '1'],
    clientTimeoutMs: [0, 86400001, null], deadlineMs: [-5, '10000', Infinity], waitBudgetMs: [-1, [], -Infinity],
    responseMs: [-1, null, {}], idempotencyKey: ['yes', 1, null], retryOn: ['timeout', ['timeout', 'timeout'], ['500'], [1]],
    retryWritesWithoutKey: [0, 'false'], honourRetryAfter: [null, 'true'],
    startDate: ['tomorrow', 1795946400, '2026-11-29T10:00:00Z'], callers: [0, 1000001, 2.5, '50'],
  };
  for (const [field, values] of Object.entries(bad)) {
    for (const value of values) assertNames({ [field]: value }, field, `${field} = ${JSON.stringify(value)}`);
  }
});

test('bad script entries are named with their path', () => {
  const script = (entries) => ({ scenario: 'script', script: entries });
  assertNames(script([{ status: 200 }, { status: 200 }, { status: 99 }]), 'script[2].status');
  errorsOf(script([{ status: 200, lost: true, dropped: true }]), 'lost and dropped')
    .forEach((e) => assert.match(e.field, /^script\[0\]/));
  assertNames(script([{ status: 200, retryAfter: 'x'.repeat(1001) }]), 'script[0].retryAfter');
  assertNames(script([{ status: 200, date: 'yesterday' }]), 'script[0].date');
  assertNames(script([{ status: 200, colour: 'red' }]), 'script[0].colour');
  assertNames(script([{ status: 200, lost: 'yes' }]), 'script[0].lost');
  errorsOf(script([]), 'an empty script');
  errorsOf(script(Array.from({ length: 1001 }, () => ({ status: 200 }))), 'a script of 1001 answers');
  errorsOf({ scenario: 'script' }, 'the script scenario without a script');
  assertNames({ script: [{ status: 200 }] }, 'script', 'a script without the script scenario');
});

test('unknown fields are errors, never ignored', () => {
  assertNames({ maxRetrys: 3 }, 'maxRetrys');
  assertNames({ __proto__x: 1, retries: 2 }, 'retries');
});

test('what only JavaScript can pass becomes an error on its field', () => {
  assertNames({ maxRetries: () => 3 }, 'maxRetries', 'a function');
  assertNames({ maxRetries: Symbol('3') }, 'maxRetries', 'a symbol');
  assertNames({ seed: 5n }, 'seed', 'a BigInt');
  assertNames({ draws: [0.5, undefined] }, 'draws[1]', 'an undefined list item');
  assertNames({ draws: [0.5, 'x'] }, 'draws[1]', 'a string among the draws');
  assertNames({ startDate: new Date() }, 'startDate', 'a Date object');
  const cycle = [];
  cycle.push(cycle);
  assertNames({ draws: cycle }, 'draws[0]', 'a list that contains itself');
  const loop = { status: 200 };
  loop.self = loop;
  errorsOf({ scenario: 'script', script: [loop] }, 'an object that contains itself');
  assertNames({ get maxRetries() { throw new Error('boom'); } }, 'maxRetries', 'a getter that throws');
  assert.equal(engine.compute({ get maxRetries() { return 2; } }).inputs.maxRetries, 2, 'a getter that returns');
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  assertNames({ draws: proxy }, 'draws', 'a revoked proxy');
  assertNames({ retryOn: new Proxy([], { get() { throw new Error('trap'); } }) }, 'retryOn', 'a throwing proxy');
});

test('undefined members are absent, as in JSON', () => {
  const result = engine.compute({ maxRetries: undefined, jitter: undefined });
  assert.equal(result.ok, true, JSON.stringify(result.errors));
  assert.equal(result.inputs.maxRetries, 3);
});

test('the inputs must be an object', () => {
  for (const root of [[], 3, 'x', null, true, undefined, () => ({}), Symbol('s')]) errorsOf(root, `inputs ${String(root)}`);
  errorsOf(undefined, 'compute() with no argument');
  assert.doesNotThrow(() => engine.compute());
  assert.equal(engine.compute().ok, false);
});

test('hostile sizes are refused in bounded time', () => {
  let deep = {};
  for (let i = 0; i < 100000; ++i) deep = { a: deep };
  errorsOf(deep, 'objects nested 100,000 deep');
  let deepList = [];
  for (let i = 0; i < 100000; ++i) deepList = [deepList];
  assertNames({ draws: deepList }, 'draws', 'lists nested 100,000 deep');
  assertNames({ draws: new Array(2000000).fill(0.5) }, 'draws', '2,000,000 draws');
  assertNames({ draws: new Float64Array(100001) }, 'draws', '100,001 draws in a typed array');
  assertNames({ operationId: 'x'.repeat(50 * 1000 * 1000) }, 'operationId', 'a 50-million-character id');
  const wide = {};
  for (let i = 0; i < 20000; ++i) wide[`k${i}`] = i;
  errorsOf(wide, 'an object of 20,000 members');
  // One big list shared many times: a graph that would be billions of values as a tree.
  const shared = new Array(1000000).fill(0.5);
  errorsOf({ scenario: 'script', script: new Array(1000).fill({ status: 200, retryAfter: shared }) }, 'a shared list');
});

test('after all that, the engine still computes', () => {
  const result = engine.compute({});
  assert.equal(result.ok, true);
  assert.equal(result.metrics.charges, 2);
});
