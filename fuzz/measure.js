#!/usr/bin/env node
// Measures retrysim against each family of hostile input (issue 19) at its largest size: the
// time and peak memory (RSS) of one run, its exit status and how much it printed. Not a test:
// it prints figures for docs/robustness.md, which states the target (every input of at most
// 64 MiB answers in under 2 s and under 256 MB of RSS).
//
//   node fuzz/measure.js [--retrysim PATH] [--timeout SECONDS] [--memory-cap MB] [--only NAME,...]
//
// Each input is written to a scratch file, then run as
//   /usr/bin/time -f '%e %U %S %M %x' prlimit --cpu=SECONDS --as=BYTES retrysim FILE
// (prlimit execs retrysim, so time reports retrysim's own peak RSS) so that a run that would
// hang or take gigabytes (retrysim before issue 19) is stopped (SIGXCPU, or out of memory,
// exit 1) and reported as such instead of taking the machine down. Defaults: build/native's
// retrysim, 60 s of CPU, a 4,096 MB address-space cap.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const MiB = 1024 * 1024;
const LIMIT = 64 * MiB;

function options(argv) {
  const o = { retrysim: 'build/native/bindings/cli/retrysim', timeout: 60, memoryCap: 4096, only: null };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '--retrysim') o.retrysim = argv[++i];
    else if (a === '--timeout') o.timeout = Number(argv[++i]);
    else if (a === '--memory-cap') o.memoryCap = Number(argv[++i]);
    else if (a === '--only') o.only = argv[++i].split(',');
    else throw new Error(`unknown argument ${a}`);
  }
  return o;
}

// Repeats `piece(i)` (joined by `sep`) between `head` and `tail` while the whole stays within
// `bytes`; `count` caps the number of pieces.
function repeated(head, piece, sep, tail, bytes, count = Infinity) {
  const parts = [head];
  let size = head.length + tail.length;
  for (let i = 0; i < count; ++i) {
    const p = (i ? sep : '') + piece(i);
    if (size + p.length > bytes) break;
    parts.push(p);
    size += p.length;
  }
  parts.push(tail);
  return parts.join('');
}

const key = (i) => `"k${String(i).padStart(7, '0')}":0`;
const deep = (n) => '['.repeat(n) + ']'.repeat(n);
const deepObject = (n) => '{"a":'.repeat(n - 1) + '{}' + '}'.repeat(n - 1);

// Each family: a name, what it is, and its input (a Buffer or string of at most 64 MiB).
const families = [
  ['wide object, 200,000 keys', 'issue 19 item 1: one object of 200,000 members',
    () => repeated('{', key, ',', '}', LIMIT, 200000)],
  ['wide object, 64 MiB', 'the same to the size limit (about 5.6 million members)',
    () => repeated('{', key, ',', '}', LIMIT)],
  ['keys in draws[0], 200,000', 'item 1 inside a list: {"draws":[{200,000 members}]}',
    () => repeated('{"draws":[{', key, ',', '}]}', LIMIT, 200000)],
  ['keys in draws[0], 64 MiB', 'the same to the size limit',
    () => repeated('{"draws":[{', key, ',', '}]}', LIMIT)],
  ['1,000 entries x 7,500 unknown keys', 'item 2: a script of 1,000 answers, each with 7,500 unknown keys',
    () => {
      const entry = '{' + Array.from({ length: 7500 }, (_, i) => `"${i.toString(36)}":0`).join(',') + '}';
      return repeated('{"scenario":"script","script":[', () => entry, ',', ']}', LIMIT, 1000);
    }],
  ['511-deep arrays to 64 MiB', 'item 2: [[[…511…]]] repeated in one list',
    () => repeated('[', () => deep(510), ',', ']', LIMIT)],
  ['511-deep objects to 64 MiB', '{"a":{"a":…}} 511 deep, repeated in one list',
    () => repeated('[', () => deepObject(510), ',', ']', LIMIT)],
  ['["",…] to 64 MiB', 'item 2: a list of 22 million empty strings',
    () => repeated('[', () => '""', ',', ']', LIMIT)],
  ['draws of 0 to 64 MiB', '{"draws":[0,0,…]}: 33 million numbers',
    () => repeated('{"draws":[', () => '0', ',', ']}', LIMIT)],
  ['[[],…] to 64 MiB', 'a list of 16 million empty lists',
    () => repeated('[', () => '[]', ',', ']', LIMIT)],
  ['64 MiB string', '{"operationId":"xxx…"}',
    () => '{"operationId":"' + 'x'.repeat(LIMIT - 19) + '"}'],
  ['64 MiB key', '{"xxx…":0}',
    () => '{"' + 'x'.repeat(LIMIT - 6) + '":0}'],
  ['64 MiB number', '{"maxRetries":111…}',
    () => '{"maxRetries":' + '1'.repeat(LIMIT - 16) + '}'],
  ['64 MiB of spaces', '[ followed by spaces, then ]',
    () => '[' + ' '.repeat(LIMIT - 2) + ']'],
  ['10,000 unknown 1 KB keys', 'errors that echo long keys: 10,000 unknown top-level keys of 1,000 bytes',
    () => repeated('{', (i) => `"${String(i).padStart(1000, 'y')}":0`, ',', '}', LIMIT, 10000)],
  ['10,000 unknown 6 KB keys', 'the same with 6,000-byte keys (60 MB)',
    () => repeated('{', (i) => `"${String(i).padStart(6000, 'y')}":0`, ',', '}', LIMIT, 10000)],
  ['repeated key to 64 MiB', '{"maxRetries":1,"maxRetries":1,…}',
    () => repeated('{', () => '"maxRetries":1', ',', '}', LIMIT)],
  ['NUL then 64 MiB', 'item 4: {"maxRetries":0} NUL, then garbage to 64 MiB',
    () => Buffer.concat([Buffer.from('{"maxRetries":0}\0'), Buffer.alloc(LIMIT - 17, 'g')])],
  ['valid: 100,000 draws', 'the largest valid list: full jitter, 100 retries, 100,000 draws',
    () => JSON.stringify({ jitter: 'full', maxRetries: 100, draws: Array.from({ length: 100000 }, (_, i) => (i % 997) / 997) })],
  ['valid: 1,000-answer script', 'the longest valid script, every answer with Retry-After and a Date',
    () => JSON.stringify({ scenario: 'script', maxRetries: 100, honourRetryAfter: true, script: Array.from({ length: 1000 }, () => ({ status: 503, retryAfter: '1', date: 'Sun, 06 Nov 1994 08:49:37 GMT' })) })],
];

function run(o, file) {
  const timing = path.join(path.dirname(file), 'time');
  const out = path.join(path.dirname(file), 'stdout');
  const err = path.join(path.dirname(file), 'stderr');
  const outFd = fs.openSync(out, 'w');
  const errFd = fs.openSync(err, 'w');
  const res = spawnSync('/usr/bin/time',
    ['-o', timing, '-f', '%e %U %S %M %x', 'prlimit', `--cpu=${o.timeout}`, `--as=${o.memoryCap * MiB}`,
      o.retrysim, file],
    { stdio: ['ignore', outFd, errFd] });
  fs.closeSync(outFd);
  fs.closeSync(errFd);
  const lines = fs.readFileSync(timing, 'utf8').trim().split('\n');
  const [seconds, user, system, kb, status] = lines[lines.length - 1].split(' ').map(Number);
  const stderr = fs.readFileSync(err, 'utf8');
  return {
    seconds, cpu: user + system, rssMB: kb / 1024, status: res.status === 0 ? 0 : status,
    killed: /signal/.test(lines.join(' ')),
    stdoutBytes: fs.statSync(out).size, stderrBytes: stderr.length,
    stderr: stderr.length > 160 ? stderr.slice(0, 160) + '…' : stderr,
  };
}

function main() {
  const o = options(process.argv.slice(2));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retrylab-measure-'));
  const rows = [];
  try {
    for (const [name, what, make] of families) {
      if (o.only && !o.only.some((n) => name.includes(n))) continue;
      const file = path.join(dir, 'input.json');
      const input = make();
      fs.writeFileSync(file, input);
      const size = fs.statSync(file).size;
      if (size > LIMIT) throw new Error(`${name}: ${size} bytes, over the limit`);
      const r = run(o, file);
      fs.rmSync(file);
      rows.push({ name, what, size, ...r });
      const shown = r.killed ? `stopped at ${o.timeout} s of CPU` : `exit ${r.status}`;
      process.stdout.write(`${name}: ${(size / MiB).toFixed(1)} MiB, ${r.seconds.toFixed(2)} s, ${r.cpu.toFixed(2)} s CPU, ` +
        `${r.rssMB.toFixed(0)} MB RSS, ${shown}, stdout ${r.stdoutBytes} B, stderr ${r.stderrBytes} B: ` +
        `${JSON.stringify(r.stderr.trim())}\n`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write('\n| family | input | time (CPU) | peak RSS | exit | stdout |\n|---|---|---|---|---|---|\n');
  for (const r of rows) {
    process.stdout.write(`| ${r.name} | ${(r.size / MiB).toFixed(1)} MiB | ${r.seconds.toFixed(2)} s (${r.cpu.toFixed(2)} s) | ` +
      `${r.rssMB.toFixed(0)} MB | ${r.killed ? 'stopped' : r.status} | ${r.stdoutBytes} B |\n`);
  }
}

main();
