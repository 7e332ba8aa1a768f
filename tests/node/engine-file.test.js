// The built engine file: one self-contained classic script that loads with node's require()
// and as a browser's <script> would, and hands back plain data — no embind handles.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { test } = require('node:test');

const { enginePath, loadEngine, asJson } = require('./support.js');

test('require() gives a factory whose promise resolves to compute, version and heapInUse', async () => {
  const factory = require(enginePath);
  assert.equal(typeof factory, 'function');
  const engine = await factory();
  assert.equal(typeof engine.compute, 'function');
  assert.match(engine.version(), /^\d+\.\d+\.\d+/);
  assert.equal(typeof engine.heapInUse(), 'number');
  const result = engine.compute({});
  assert.equal(result.ok, true);
  assert.equal(result.engine, engine.version());
  assert.equal(result.metrics.attempts, 2);
  assert.equal(result.metrics.charges, 2);
  assert.equal(result.metrics.outcome, 'success');
  assert.equal(result.metrics.elapsedMs, 3700);
});

test('the file stands alone: no second file, no module syntax, no eval', () => {
  const text = fs.readFileSync(enginePath, 'utf8');
  const dir = path.dirname(enginePath);
  assert.deepEqual(fs.readdirSync(dir).filter((f) => f.endsWith('.wasm')), [], 'a .wasm beside the engine file');
  // The module is inlined (bindings/wasm/assemble.js): nothing is fetched or read from disk.
  assert.doesNotMatch(text, /\.wasm\b|\bfetch\(|\brequire\(|\bimportScripts\(/, 'the wasm is inlined, nothing else is loaded');
  // ASCII only: a page in any charset (and <retry-lab> on someone else's page) reads it the same.
  assert.ok(/^[\x00-\x7f]*$/.test(text), 'the file is ASCII');
  assert.doesNotMatch(text, /import\.meta|^\s*export\s/m, 'ES-module syntax would not load on file://');
  assert.doesNotMatch(text, /new Function\(|\beval\(/, 'dynamic code breaks a strict CSP');
});

test('loaded as a classic script in a page, it defines RetryLabEngine and computes the same', async () => {
  const text = fs.readFileSync(enginePath, 'utf8');
  // A browser-like global: window and document, and no require, module or process.
  const page = {
    window: {}, document: { currentScript: { src: 'file:///site/retrylab-engine.js' } },
    WebAssembly, TextEncoder, TextDecoder, atob, console, setTimeout, clearTimeout,
  };
  page.self = page.window;
  vm.createContext(page);
  vm.runInContext(text, page, { filename: 'retrylab-engine.js' });
  assert.equal(typeof page.RetryLabEngine, 'function');
  const engine = await page.RetryLabEngine();
  const inputs = { idempotencyKey: true, jitter: 'full', draws: [0.25, 0.75] };
  const fromNode = (await loadEngine()).compute(inputs);
  assert.deepEqual(asJson(engine.compute(inputs)), asJson(fromNode));
});

// The engine compiles its module on the spot where it may; a browser that refuses to compile
// more than a few KB on the main thread throws a RangeError, and gets the asynchronous calls.
async function engineWith(webAssembly) {
  const text = fs.readFileSync(enginePath, 'utf8');
  const page = { window: {}, document: {}, WebAssembly: webAssembly, TextEncoder, TextDecoder, console, setTimeout, clearTimeout };
  page.self = page.window;
  vm.createContext(page);
  vm.runInContext(text, page, { filename: 'retrylab-engine.js' });
  return page.RetryLabEngine();
}

test('the module is compiled and instantiated on the spot where the platform allows it', async () => {
  const calls = [];
  const counted = {
    ...WebAssembly,
    Module: new Proxy(WebAssembly.Module, { construct(target, args) { calls.push('Module'); return Reflect.construct(target, args); } }),
    Instance: new Proxy(WebAssembly.Instance, { construct(target, args) { calls.push('Instance'); return Reflect.construct(target, args); } }),
    compile: (...args) => { calls.push('compile'); return WebAssembly.compile(...args); },
    instantiate: (...args) => { calls.push('instantiate'); return WebAssembly.instantiate(...args); },
  };
  const engine = await engineWith(counted);
  assert.deepEqual(calls, ['Module', 'Instance']);
  assert.equal(engine.compute({}).metrics.charges, 2);
});

test('where compiling on the spot is refused (a RangeError), it compiles in the background, with the same results', async () => {
  const calls = [];
  const refusing = {
    ...WebAssembly,
    Module: function Module() { calls.push('Module refused'); throw new RangeError('WebAssembly.Module(): Compile is disallowed on the main thread, if the buffer size is larger than 4KB.'); },
    Instance: function Instance() { calls.push('Instance refused'); throw new RangeError('WebAssembly.Instance is disallowed on the main thread, if the buffer size is larger than 4KB.'); },
    compile: (...args) => { calls.push('compile'); return WebAssembly.compile(...args); },
    instantiate: (...args) => { calls.push('instantiate'); return WebAssembly.instantiate(...args); },
  };
  const engine = await engineWith(refusing);
  assert.deepEqual(calls, ['Module refused', 'compile', 'Instance refused', 'instantiate']);
  const inputs = { idempotencyKey: true, jitter: 'full', draws: [0.25, 0.75] };
  assert.deepEqual(asJson(engine.compute(inputs)), asJson((await loadEngine()).compute(inputs)));
});

test('a module the platform cannot compile rejects the promise with the reason; nothing is thrown', async () => {
  const broken = { ...WebAssembly, Module: function Module() { throw new WebAssembly.CompileError('bad module'); } };
  await assert.rejects(engineWith(broken), /bad module/);
});

test('results are plain objects and arrays: nothing to .delete(), nothing that is a function', async () => {
  const engine = await loadEngine();
  const results = [
    engine.compute({}),
    engine.compute({ maxRetries: -1, draws: ['x'] }),
    engine.compute({ callers: 50, jitter: 'full', scenario: 'script', script: [{ status: 429 }] }),
  ];
  const walk = (v, where) => {
    assert.notEqual(typeof v, 'function', `${where} is a function`);
    assert.notEqual(v, undefined, `${where} is undefined`);
    if (v === null || typeof v !== 'object') return;
    const proto = Object.getPrototypeOf(v);
    assert.ok(proto === Object.prototype || proto === Array.prototype, `${where} is not a plain object or array`);
    for (const [k, item] of Object.entries(v)) walk(item, `${where}.${k}`);
  };
  results.forEach((r, i) => walk(r, `result ${i}`));
  assert.ok(results[2].herd, 'fifty callers give a herd');
});

// --- An engine that cannot be broken from outside (issue 19) ------------------------------------
// The test build (bindings/wasm/CMakeLists.txt: the same engine.cpp with RETRYLAB_TEST_HOOKS, the
// same compute.js and loader.js) interrupts a call inside WebAssembly on demand: inputs with
// "__trap" hold 512 KB of heap and 4 KB of C stack, then trap (`unreachable`, an out-of-bounds
// read, a stack overflow inside wasm, or abort()). The page's engine file has no such hook.
const testHooksPath = path.join(path.dirname(enginePath), 'test-hooks', 'retrylab-engine-test-hooks.js');
const TRAPS = ['unreachable', 'memory', 'stack', 'abort'];
// Every entry point the engine has, with a request that carries the trap where it reads inputs.
const ENTRIES = {
  compute: (trap) => ({ ...(trap ? { __trap: trap } : {}), maxRetries: 1 }),
  sweep: (trap) => ({ inputs: { ...(trap ? { __trap: trap } : {}), maxRetries: 1 }, vary: 'maxRetries', from: 0, to: 3, points: 4 }),
  fleet: (trap) => ({ ...(trap ? { __trap: trap } : {}), clients: 2, durationMs: 1000 }),
};

test('a call interrupted inside WebAssembly answers { ok: false } saying so, and the next call is right, for every entry point', async () => {
  assert.ok(fs.existsSync(testHooksPath), `no test build at ${testHooksPath}: build the wasm preset`);
  const engine = await require(testHooksPath)();
  const fresh = await require(testHooksPath)();
  const names = Object.keys(ENTRIES).filter((name) => typeof engine[name] === 'function');
  assert.ok(names.includes('compute') && names.includes('sweep'), `entry points: ${names}`);
  const expected = Object.fromEntries(names.map((name) => [name, asJson(fresh[name](ENTRIES[name](null)))]));
  // What a fresh instance holds after that one good call alone (the input table and other
  // statics are made on first use, so each entry point's path has its own figure).
  const heapAtStart = {};
  for (const name of names) {
    const alone = await require(testHooksPath)();
    alone[name](ENTRIES[name](null));
    heapAtStart[name] = alone.heapInUse();
  }
  let restarts = 0;
  for (let round = 0; round < 3; ++round) {
    for (const name of names) {
      for (const trap of TRAPS) {
        let result;
        assert.doesNotThrow(() => { result = engine[name](ENTRIES[name](trap)); }, `${name} with a ${trap} trap threw`);
        assert.equal(result.ok, false, `${name}, ${trap}: ${JSON.stringify(result).slice(0, 200)}`);
        assert.match(result.errors[0].message, /interrupted.*restarted/, `${name}, ${trap}`);
        assert.equal(engine.restarts(), ++restarts, `${name}, ${trap}: the instance is replaced once`);
        // The next good call: the right answer, on an instance whose heap holds nothing of the trap.
        assert.deepEqual(asJson(engine[name](ENTRIES[name](null))), expected[name], `${name} after a ${trap} trap`);
        assert.equal(engine.heapInUse(), heapAtStart[name], `${name} after a ${trap} trap: heap in use`);
      }
    }
  }
  assert.match(engine.version(), /^\d+\.\d+\.\d+/);
});

test('a call cut short because it outgrew the memory says so in data (code "out-of-memory", memoryBytes); other interruptions do not', async () => {
  const engine = await require(testHooksPath)();
  const fresh = await require(testHooksPath)();
  const names = Object.keys(ENTRIES).filter((name) => typeof engine[name] === 'function');
  for (const name of names) {
    const result = engine[name](ENTRIES[name]('grow'));
    assert.equal(result.ok, false, name);
    assert.deepEqual(result.errors.map((e) => [e.field, e.code, e.memoryBytes]), [['', 'out-of-memory', engine.limits().memoryBytes]], name);
    assert.match(result.errors[0].message, /^The engine was interrupted \(the call needed more than its 256 MiB of memory\) and has been restarted; nothing was computed\.$/, name);
    for (const trap of TRAPS) assert.equal(engine[name](ENTRIES[name](trap)).errors[0].code, 'unreadable', `${name}, ${trap}`);
    // A growth refused in one call is not reported by the next: a good call is right.
    engine._malloc(engine.limits().memoryBytes + 1); // refused, the call itself goes on
    assert.equal(engine[name](ENTRIES[name]('unreachable')).errors[0].code, 'unreadable', name);
    assert.deepEqual(asJson(engine[name](ENTRIES[name](null))), asJson(fresh[name](ENTRIES[name](null))), name);
  }
});

test('the trap hooks are in the test build only: the page\'s engine file reads "__trap" as an unknown field', async () => {
  const engine = await loadEngine();
  for (const trap of TRAPS) {
    const result = engine.compute({ __trap: trap });
    assert.equal(result.ok, false);
    assert.deepEqual(result.errors.map((e) => e.field), ['__trap'], trap);
  }
  assert.equal(engine.restarts(), 0);
  assert.notEqual(fs.readFileSync(testHooksPath, 'latin1'), fs.readFileSync(enginePath, 'latin1'), 'the test build is another file');
});

test('a call that would grow WebAssembly memory past the ceiling fails inside the module, and the instance is replaced', async () => {
  // The test build's "memory" trap reads past the end; here the ceiling itself is what stops a
  // call: the module's own malloc is asked, from outside, for more than limits().memoryBytes.
  const engine = await loadEngine();
  const ceiling = engine.limits().memoryBytes;
  assert.equal(ceiling, 256 * 1024 * 1024);
  assert.equal(engine._malloc(ceiling), 0, 'no block as large as the ceiling');
  const block = engine._malloc(ceiling / 2);
  assert.ok(block > 0, 'half the ceiling fits');
  assert.ok(engine.heapTop() <= ceiling, `the heap's top at ${engine.heapTop()}`);
  assert.equal(engine._malloc(ceiling / 2), 0, 'a second half does not');
  engine._free(block);
  assert.equal(engine.compute({}).metrics.charges, 2);
  // The call after one that left the memory large runs on a fresh, small instance.
  engine.compute({});
  assert.ok(engine.heapTop() <= 64 * 1024 * 1024, `the heap's top at ${engine.heapTop()} after a big call`);
});

// --- The result's keys by number (issue 18, session 5) ---------------------------------------------
// engine.cpp numbers each key of a result the first time an instance writes it, and compute.js
// keeps the same list (`_keys()`): a known key crosses as its number. The two lists must grow in
// step, whatever the order of the calls, and start again with a new instance.
function keysOf(value, into = new Set()) {
  if (Array.isArray(value)) for (const item of value) keysOf(item, into);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) { into.add(k); keysOf(v, into); }
  }
  return into;
}

test('a result\'s keys cross as numbers once the instance knows them, and any order of calls gives the same results as fresh instances', async () => {
  const requests = [
    ['compute', {}],
    ['compute', { idempotencyKey: true, scenario: 'script', script: [{ status: 503, retryAfter: '2' }, { status: 200 }] }],
    ['compute', { maxRetries: -1, nonsense: 1 }],
    ['sweep', { inputs: { maxRetries: 2 }, vary: 'deadlineMs', from: 500, to: 9000, points: 20 }],
    ['validate', { baseBackoffMs: 'x' }],
    ['schema', undefined],
    ['compute', { callers: 1000, jitter: 'full', seed: 1, scenario: 'script', script: [{ status: 429 }] }],
  ];
  const expected = [];
  for (const [name, input] of requests) expected.push(asJson((await require(testHooksPath)())[name](input)));
  const engine = await require(testHooksPath)();
  assert.deepEqual(engine._keys(), [], 'a fresh instance knows no key');
  const first = engine.compute({});
  const known = engine._keys();
  assert.equal(new Set(known).size, known.length, 'each key numbered once');
  assert.deepEqual([...keysOf(first)].filter((k) => !known.includes(k)), [], 'every key of the result is numbered');
  assert.deepEqual(engine.compute({}), first, 'the same result with every key by number');
  assert.equal(engine._keys().length, known.length, 'a second call adds no key');
  // Any order: a seeded shuffle of many calls on one instance, each the same as on a fresh one.
  let seed = 7;
  for (let i = 0; i < 300; ++i) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const k = seed % requests.length;
    const [name, input] = requests[k];
    assert.deepEqual(asJson(engine[name](input)), expected[k], `call ${i}: ${name}`);
  }
  const all = engine._keys();
  assert.equal(new Set(all).size, all.length);
  // (schema()'s `limits` is added by compute.js, not written by the engine.)
  for (const e of expected) {
    const written = { ...e };
    delete written.limits;
    for (const k of keysOf(written)) assert.ok(all.includes(k), `key ${k} numbered`);
  }
  // An interrupted call replaces the instance, and its key table with it.
  assert.equal(engine.compute({ __trap: 'unreachable' }).ok, false);
  assert.deepEqual(engine._keys(), []);
  for (let k = 0; k < requests.length; ++k) {
    const [name, input] = requests[k];
    assert.deepEqual(asJson(engine[name](input)), expected[k], `after the restart: ${name}`);
  }
});

test('every entry point of entries.hpp is a method by its name, and each answers as its own entry', async () => {
  const header = fs.readFileSync(path.join(__dirname, '../../bindings/wasm/entries.hpp'), 'utf8');
  const names = [.../#define RL_ENTRY_LIST\(X\)((?:[^\n]*\\\n)*[^\n]*)/.exec(header)[1].matchAll(/X\((\w+)\)/g)].map((m) => m[1]);
  assert.ok(names.length >= 11, 'the list is read');
  const engine = await loadEngine();
  for (const name of names) assert.equal(typeof engine[name], 'function', `${name} is a method`);
  // Each name reaches its own C++ entry (a swap of two would answer the other's shape).
  assert.equal(engine.compute({}).metrics.attempts, 2);
  assert.ok(Array.isArray(engine.sweep({ inputs: {}, vary: 'maxRetries', from: 0, to: 2, points: 3 }).points));
  assert.equal(engine.validate({ maxRetries: -1 }).ok, false);
  assert.ok(engine.schema().inputs, 'schema() answers the input table');
  assert.ok(engine.compareMetrics().run, 'compareMetrics() answers the metrics a comparison lists');
  assert.match(engine.fleet({}).errors[0].message, /no fleet\(\)/, 'the page\'s file names the fleet file');
  assert.match(engine.readConfig({}).errors[0].message, /no config readers/);
});
