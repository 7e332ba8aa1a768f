// Shared by tests/node/*.test.js: where the built engine file, retrysim and the conformance
// cases are, and small helpers to run them. ctest passes the paths in the environment; the
// defaults are the presets' build folders, so `node --test tests/node/` works after
// scripts/build as well. Nothing here skips: a missing file fails the test that needs it.
'use strict';

const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const repo = path.resolve(__dirname, '..', '..');
const enginePath = process.env.RETRYLAB_ENGINE ||
  path.join(repo, 'build', 'wasm', 'bindings', 'wasm', 'retrylab-engine.js');
const retrysimPath = process.env.RETRYSIM || path.join(repo, 'build', 'native', 'bindings', 'cli', 'retrysim');
const fleetEnginePath = process.env.RETRYLAB_FLEET_ENGINE ||
  path.join(repo, 'build', 'wasm', 'bindings', 'wasm', 'retrylab-fleet.js');
// The config file (docs/config-in.md §13), built beside the page's engine file.
const configEnginePath = process.env.RETRYLAB_CONFIG_ENGINE || path.join(path.dirname(enginePath), 'retrylab-config.js');
const casesPath = process.env.RETRYLAB_CASES || path.join(repo, 'spec', 'conformance', 'cases.json');

let enginePromise;
// The engine module, loaded once per test file the way a node user loads it.
function loadEngine() {
  if (!enginePromise) {
    assert.ok(fs.existsSync(enginePath), `no engine file at ${enginePath}: build the wasm preset`);
    enginePromise = require(enginePath)();
  }
  return enginePromise;
}

let fleetEnginePromise;
// The fleet engine file's module (retrylab-fleet.js), loaded once per test file.
function loadFleetEngine() {
  if (!fleetEnginePromise) {
    assert.ok(fs.existsSync(fleetEnginePath), `no fleet engine file at ${fleetEnginePath}: build the wasm preset`);
    fleetEnginePromise = require(fleetEnginePath)();
  }
  return fleetEnginePromise;
}

let configEnginePromise;
// The config file's module (retrylab-config.js: readConfig, compareConfigs, configFormats), loaded once per test file.
function loadConfigEngine() {
  if (!configEnginePromise) {
    assert.ok(fs.existsSync(configEnginePath), `no config file at ${configEnginePath}: build the wasm preset`);
    configEnginePromise = require(configEnginePath)();
  }
  return configEnginePromise;
}

// Runs retrysim with `input` (a string or Buffer) on stdin, or with `args`.
// options.stdinFd: a file descriptor to read stdin from instead.
function runRetrysim(input, args = [], options = {}) {
  assert.ok(fs.existsSync(retrysimPath), `no retrysim at ${retrysimPath}: build the native preset`);
  const started = process.hrtime.bigint();
  const run = spawnSync(retrysimPath, args, {
    input: options.stdinFd === undefined ? input : undefined,
    stdio: [options.stdinFd === undefined ? 'pipe' : options.stdinFd, 'pipe', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
    timeout: options.timeoutMs || 60000,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.error) throw run.error;
  return { status: run.status, signal: run.signal, stdout: run.stdout, stderr: run.stderr, ms };
}

// Runs retrysim once for each job ({ input, args }), every run started by one shell, and
// answers each as runRetrysim does ({ status, signal, stdout, stderr }), in the jobs' order.
// Issue 31: node's spawnSync forks the whole test process, whose heap holds the engine files,
// for every run (10–15 ms, more than most runs take); a shell forks in a fraction of that. Each
// run is still its own retrysim process reading its own stdin. `timeoutMs` bounds them all.
// Every run appends to the same three files (stdout, stderr, exit statuses), opened once, each
// run's stdout and stderr ended by a marker no output holds (a random 128-bit number): on this
// machine a file created by the shell cost about 1 ms, and three files a run had eaten most of
// what leaving spawnSync saved (300 runs: 1.4 s with a file each, 0.5 s appending). An empty
// input is /dev/null (end of input at once, as spawnSync's empty pipe), another its own file.
function runRetrysimEach(jobs, { timeoutMs = 600000 } = {}) {
  assert.ok(fs.existsSync(retrysimPath), `no retrysim at ${retrysimPath}: build the native preset`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retrysim-each-'));
  const quote = (word) => `'${String(word).replace(/'/g, "'\\''")}'`;
  const marker = Buffer.from(`\n<retrysim-each ${require('node:crypto').randomBytes(16).toString('hex')}>\n`);
  try {
    const lines = jobs.map(({ input = '', args = [] }, i) => {
      let stdin = '/dev/null';
      if (input.length > 0) {
        stdin = `${i}.in`;
        fs.writeFileSync(path.join(dir, stdin), input);
      }
      return `${[retrysimPath, ...args].map(quote).join(' ')} <${stdin} >&3 2>&4; echo $? >&5; printf %s "$M" >&3; printf %s "$M" >&4`;
    });
    fs.writeFileSync(path.join(dir, 'runs.sh'), `M=${quote(marker)}\nexec 3>out 4>err 5>rc\n${lines.join('\n')}\n`);
    const shell = spawnSync('/bin/sh', ['runs.sh'], { cwd: dir, encoding: 'utf8', timeout: timeoutMs });
    if (shell.error) throw shell.error;
    assert.equal(shell.status, 0, `the shell running retrysim ${jobs.length} times: ${shell.stderr}`);
    // Each run's bytes: what lies between one marker and the next.
    const parts = (name) => {
      const all = fs.readFileSync(path.join(dir, name));
      const found = [];
      for (let at = 0; at < all.length;) {
        const end = all.indexOf(marker, at);
        assert.ok(end >= 0, `${name}: run ${found.length} is not ended by its marker`);
        found.push(all.subarray(at, end).toString('utf8'));
        at = end + marker.length;
      }
      assert.equal(found.length, jobs.length, `${name}: ${found.length} runs answered of ${jobs.length}`);
      return found;
    };
    const stdouts = parts('out');
    const stderrs = parts('err');
    const codes = fs.readFileSync(path.join(dir, 'rc'), 'utf8').split('\n').slice(0, jobs.length).map(Number);
    const signals = Object.entries(os.constants.signals);
    return jobs.map((_, i) => {
      const code = codes[i];
      // The shell's $? is 128 + the signal's number for a run a signal ended.
      const signal = code > 128 ? (signals.find(([, n]) => n === code - 128) || [`signal ${code - 128}`])[0] : null;
      return { status: signal ? null : code, signal, stdout: stdouts[i], stderr: stderrs[i] };
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// retrysim's result for inputs given as a JS value (sent as JSON).
function retrysimResult(inputs) {
  return retrysimResultOf(runRetrysim(JSON.stringify(inputs)));
}

// retrysimResult's answer from a run already made (runRetrysimEach's), its message naming `label`.
function retrysimResultOf(run, label = '') {
  assert.equal(run.signal, null, `${label ? `${label}: ` : ''}retrysim was killed by ${run.signal}`);
  return { status: run.status, result: JSON.parse(run.stdout), stderr: run.stderr };
}

function loadCases() {
  assert.ok(fs.existsSync(casesPath), `no conformance cases at ${casesPath}`);
  const { cases } = JSON.parse(fs.readFileSync(casesPath, 'utf8'));
  assert.ok(Array.isArray(cases) && cases.length > 0, 'the conformance file lists no cases');
  return cases;
}

// A value as JSON sees it: what retrysim prints and JSON.parse reads back (-0 becomes 0,
// undefined members vanish), so results compare "equal as JSON values" (SPEC §1).
function asJson(value) {
  return JSON.parse(JSON.stringify(value));
}

// The first place two JSON values differ, as "path: a vs b", or null when they are equal.
function firstDifference(a, b, where = '') {
  if (Object.is(a, b) || (typeof a === 'number' && a === b)) return null;
  const kind = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  if (kind(a) !== kind(b) || (kind(a) !== 'array' && kind(a) !== 'object')) {
    return `${where || '(the whole value)'}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
  }
  if (kind(a) === 'array' && a.length !== b.length) return `${where}.length: ${a.length} vs ${b.length}`;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    const here = kind(a) === 'array' ? `${where}[${key}]` : where ? `${where}.${key}` : key;
    if (!(key in a) || !(key in b)) return `${here}: present on one side only`;
    const difference = firstDifference(a[key], b[key], here);
    if (difference) return difference;
  }
  return null;
}

// A small seeded generator (mulberry32): the same seed gives the same test inputs everywhere.
function seededRandom(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (items) => items[Math.floor(next() * items.length)],
    chance: (p) => next() < p,
  };
}

// A fleet request through both bindings: the fleet engine file's fleet() and `retrysim --fleet`
// give the same result (the engine's version aside), and it is { ok: true }.
function fleetInBothBindings(fleetEngine, request) {
  return sameFleetResult(fleetEngine, request, runRetrysim(JSON.stringify(request), ['--fleet']));
}

// fleetInBothBindings for many requests, their `retrysim --fleet` runs started by one shell
// (runRetrysimEach). It answers, for each request, a function that makes fleetInBothBindings'
// checks when called (its messages begin with `label`, which names the request) and returns the
// result, so a test still checks each request where it did, in the same order.
function fleetInBothBindingsEach(fleetEngine, requests) {
  const runs = runRetrysimEach(requests.map((request) => ({ input: JSON.stringify(request), args: ['--fleet'] })));
  return runs.map((run, i) => (label) => sameFleetResult(fleetEngine, requests[i], run, label));
}

function sameFleetResult(fleetEngine, request, run, label = '') {
  return sameInBothBindings(asJson(fleetEngine.fleet(request)), run, label);
}

// One input through both bindings, retrysim's run already made (runRetrysim's or
// runRetrysimEach's): it answered with exit 0, the engine file's result `wasm` (as JSON sees it)
// is the same as retrysim's, and it is { ok: true }. The messages begin with `label`, which
// names the input. Answers `wasm`. The fleet (sameFleetResult) and the single run's tests
// (servers, layers) share it.
function sameInBothBindings(wasm, run, label = '') {
  const named = (text) => (label ? `${label}: ${text}` : text);
  assert.equal(run.signal, null, named(`retrysim was killed by ${run.signal}`));
  assert.equal(run.status, 0, named(run.stderr));
  assert.equal(firstDifference(wasm, JSON.parse(run.stdout)), null, named('native and WebAssembly differ'));
  assert.equal(wasm.ok, true, named(JSON.stringify(wasm.errors)));
  return wasm;
}

// A fleet result as the conformance file (FLEET.md §8, written before it) holds it: without each
// bin's `capacity` (docs/fleet.md "The capacity in each bin", an addition to the result), which
// every bin of a service result must hold, a number or null; its figures are tested on their own
// (tests/core/fleet_capacity_test.cpp, tests/node/result-facts.test.js).
function withoutCapacity(result) {
  const assert = require('node:assert/strict');
  const copy = asJson(result);
  if (!copy || !copy.timeline) return copy;
  for (const bin of copy.timeline.bins) {
    assert.ok(bin.capacity === null || typeof bin.capacity === 'number', `a bin's capacity: ${JSON.stringify(bin.capacity)}`);
    delete bin.capacity;
  }
  return copy;
}

// What the link tests share (tests/node/*-link.test.js): the engine, the page's codec for its
// schema, the page's link reader, an explorable's stand-in for readLink, and `retrysim --link`.
async function loadLinkSide() {
  const engine = await loadEngine();
  const { linkCodec } = await import(path.join(repo, 'web/share/codec.js'));
  const { readLink } = await import(path.join(repo, 'web/share/link.js'));
  const { validateInputs } = await import(path.join(repo, 'web/validate.js'));
  const codec = linkCodec(engine.schema());
  const explorable = { codec, validate: (inputs) => validateInputs(engine, inputs), compute: (inputs) => engine.compute(inputs) };
  return { engine, codec, readLink, explorable };
}
function cliLinkRun(link) {
  const run = runRetrysim('', ['--link', link]);
  assert.equal(run.signal, null);
  return { status: run.status, json: JSON.parse(run.stdout), stderr: run.stderr };
}

module.exports = {
  repo, enginePath, fleetEnginePath, configEnginePath, retrysimPath, casesPath,
  loadEngine, loadFleetEngine, loadConfigEngine, runRetrysim, runRetrysimEach, retrysimResult, retrysimResultOf, loadCases, asJson, firstDifference, seededRandom,
  fleetInBothBindings, fleetInBothBindingsEach, sameInBothBindings, withoutCapacity, loadLinkSide, cliLinkRun,
};
