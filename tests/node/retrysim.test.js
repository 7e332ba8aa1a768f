// retrysim, the native command (SPEC §8): the opening run from '{}', exit 2 and a clear message
// for every kind of bad input, in bounded time and without a crash.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { test } = require('node:test');

const { runRetrysim, loadEngine } = require('./support.js');

// Runs retrysim and checks the common promises of a refusal: exit 2, no signal, one clear line
// on stderr, quick.
function refused(input, args = [], label = 'input', options = {}) {
  const run = runRetrysim(input, args, options);
  assert.equal(run.signal, null, `${label}: killed by ${run.signal}`);
  assert.equal(run.status, 2, `${label}: exit ${run.status}; stderr: ${run.stderr.slice(0, 500)}`);
  assert.ok(run.ms < 20000, `${label}: took ${run.ms} ms`);
  assert.match(run.stderr, /^retrysim: \S/, `${label}: stderr ${JSON.stringify(run.stderr.slice(0, 200))}`);
  // The message and, after a bad command line, the usage (which grows with the options).
  assert.ok(run.stderr.length < 2500, `${label}: ${run.stderr.length} bytes on stderr`);
  return run;
}

test("'{}' on stdin is the opening run: 2 attempts, 2 charges, success at 3700 ms", () => {
  const run = runRetrysim('{}');
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stderr, '');
  const result = JSON.parse(run.stdout);
  assert.equal(result.ok, true);
  assert.equal(result.metrics.attempts, 2);
  assert.equal(result.metrics.charges, 2);
  assert.equal(result.metrics.outcome, 'success');
  assert.equal(result.metrics.elapsedMs, 3700);
  // Whole numbers print as integers.
  assert.match(run.stdout, /"elapsedMs": 3700[,\n]/);
  assert.doesNotMatch(run.stdout, /\d\.0[,\n\]]/);
});

test('FILE and - read the same inputs as stdin', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retrysim-'));
  try {
    const file = path.join(dir, 'inputs.json');
    fs.writeFileSync(file, '{ "maxRetries": 0 }');
    const fromFile = runRetrysim('', [file]);
    const fromStdin = runRetrysim('{ "maxRetries": 0 }', ['-']);
    assert.equal(fromFile.status, 0, fromFile.stderr);
    assert.equal(fromFile.stdout, fromStdin.stdout);
    assert.equal(JSON.parse(fromFile.stdout).metrics.outcome, 'unknown');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('--help and --version', async () => {
  const help = runRetrysim('', ['--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /usage: retrysim \[--sweep\] \[FILE\]/);
  const version = runRetrysim('', ['--version']);
  assert.equal(version.status, 0);
  assert.equal(version.stdout.trim(), `retrysim ${(await loadEngine()).version()}`);
  refused('', ['--frobnicate'], 'an unknown option');
  refused('', ['a.json', 'b.json'], 'two files');
});

test('every bad field: exit 2, the errors on stdout, the field named on stderr', () => {
  const bad = {
    scenario: 'nope', operation: 'delete', operationId: '', maxRetries: -1, baseBackoffMs: -1,
    backoffMultiplier: 0.5, maxBackoffMs: 'none', jitter: 'some', draws: [2], seed: -1, clientTimeoutMs: 0,
    deadlineMs: '10', waitBudgetMs: -1, responseMs: null, idempotencyKey: 'yes', retryOn: ['500'],
    retryWritesWithoutKey: 0, honourRetryAfter: 'true', startDate: 'tomorrow', callers: 0, colour: 'red',
  };
  for (const [field, value] of Object.entries(bad)) {
    const run = refused(JSON.stringify({ [field]: value }), [], field);
    const result = JSON.parse(run.stdout);
    assert.equal(result.ok, false);
    assert.ok(result.errors.some((e) => e.field === field || e.field.startsWith(`${field}[`)),
      `${field}: ${JSON.stringify(result.errors)}`);
    assert.match(run.stderr, new RegExp(`\\b${field}\\b`), `${field}: stderr ${run.stderr}`);
    assert.equal(run.stderr.trim().split('\n').length, 1, 'a one-line summary');
  }
  const script = refused(JSON.stringify({ scenario: 'script', script: [{ status: 200 }, { status: 99 }] }));
  assert.match(script.stderr, /script\[1\]\.status/);
});

test('inputs that are not an object: exit 2 with the error object', () => {
  for (const text of ['[]', '3', '"x"', 'null', 'true']) {
    const run = refused(text, [], text);
    assert.equal(JSON.parse(run.stdout).ok, false);
  }
});

test('malformed JSON: exit 2 naming the byte', () => {
  for (const [text, at] of [['{"maxRetries": }', 16], ['{', 2], ['', 1], ['{} x', 4], ['{"a": tru}', 10]]) {
    const run = refused(text, [], JSON.stringify(text));
    assert.match(run.stderr, new RegExp(`malformed JSON at byte ${at}\\b`), run.stderr);
    assert.equal(run.stdout, '');
  }
});

test('nesting 100,000 deep is refused at a named byte, without recursion', () => {
  for (const text of ['['.repeat(100000), '['.repeat(100000) + ']'.repeat(100000), '{"a":'.repeat(100000)]) {
    const run = refused(text, [], 'deep nesting');
    assert.match(run.stderr, /nests deeper than 512 levels at byte \d+/);
  }
  // Brackets inside strings do not count.
  const inString = runRetrysim(JSON.stringify({ operationId: '['.repeat(200) + '{'.repeat(55) }));
  assert.equal(inString.status, 0, inString.stderr);
});

test('a 50 MB string: exit 2, the string limit and the value named, in bounded time', () => {
  const big = 'x'.repeat(50 * 1000 * 1000);
  const asRoot = refused(`"${big}"`, [], 'a 50 MB string');
  assert.match(asRoot.stderr, /a string longer than 65,536 bytes, from byte 1\b/);
  const asId = refused(`{"operationId": "${big}"}`, [], 'a 50 MB operationId');
  assert.match(asId.stderr, /a string longer than 65,536 bytes, from byte 17 \(the value of "operationId"\)/);
  const unterminated = refused(`{"operationId": "${big}`, [], 'an unterminated 50 MB string');
  assert.match(unterminated.stderr, /a string longer than 65,536 bytes, from byte 17\b/);
  for (const run of [asRoot, asId, unterminated]) assert.equal(run.stdout, '');
});

test('more than 64 MiB of input is refused before parsing, from a file or stdin', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retrysim-'));
  try {
    const file = path.join(dir, 'big.json');
    fs.writeFileSync(file, Buffer.alloc(65 * 1024 * 1024, ' '));
    const byPath = refused('', [file], '65 MiB by path');
    assert.match(byPath.stderr, /larger than 64 MiB/);
    const fd = fs.openSync(file, 'r');
    try {
      const onStdin = refused('', [], '65 MiB on stdin', { stdinFd: fd });
      assert.match(onStdin.stderr, /standard input is larger than 64 MiB/);
    } finally {
      fs.closeSync(fd);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('huge lists and objects are cut to what validation needs', () => {
  const draws = refused(`{"draws": [${'0,'.repeat(3000000)}0]}`, [], '3,000,001 draws');
  assert.match(JSON.parse(draws.stdout).errors[0].message, /1000001|100,000|100000/);
  const members = Array.from({ length: 20000 }, (_, i) => `"k${i}": ${i}`).join(',');
  const wide = refused(`{"scenario": "script", "script": [{${members}}]}`, [], 'an entry of 20,000 members');
  assert.match(wide.stdout, /more than 10000 members/);
});

test('an unreadable path: exit 2 naming it', () => {
  const missing = path.join(os.tmpdir(), 'retrysim-no-such-dir', 'inputs.json');
  const run = refused('', [missing], 'a missing file');
  assert.ok(run.stderr.includes(missing), run.stderr);
  const directory = refused('', [os.tmpdir()], 'a directory');
  assert.ok(directory.stderr.includes(os.tmpdir()), directory.stderr);
});
