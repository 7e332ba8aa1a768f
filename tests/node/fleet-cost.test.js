// Issue 30 at retrysim's doors: the fleet's cost bound (docs/robustness.md, "The fleet's cost
// bound") refuses the issue's requests and its 230-character link before any work, naming the
// estimate, the limit and the fields to lower; `--fleet --no-limits` runs a refused request on
// purpose and goes with nothing else; a 2 MB link of unknown names stays small; `none` is read
// where the fleet allows null; no message repeats a raw control, bidi or invalid byte.
//
// No test is timed: each run has resource limits (prlimit: CPU seconds and address space) far
// below what the refused requests took before the bound (15–30 s, 1.6–2.1 GB).
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { test } = require('node:test');

const repo = path.resolve(__dirname, '..', '..');
const retrysim = process.env.RETRYSIM || path.join(repo, 'build', 'native', 'bindings', 'cli', 'retrysim');
const MiB = 1024 * 1024;

// retrysim with `args` (FILE stands for a file holding `input`), `stdin` on its standard input.
function run(args, { input, stdin, cpu = 5, memory = 512 } = {}) {
  assert.ok(fs.existsSync(retrysim), `no retrysim at ${retrysim}: build the native preset`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retrysim-cost-'));
  try {
    const file = path.join(dir, 'request.json');
    if (input !== undefined) fs.writeFileSync(file, typeof input === 'string' || Buffer.isBuffer(input) ? input : JSON.stringify(input));
    const argv = args.map((a) => (a === 'FILE' ? file : a));
    const r = spawnSync('prlimit', [`--cpu=${cpu}`, `--as=${memory * MiB}`, retrysim, ...argv],
      { input: stdin, maxBuffer: 64 * MiB });
    if (r.error) throw r.error;
    return { status: r.status, signal: r.signal, stdout: r.stdout.toString('utf8'), stderr: r.stderr, stderrText: r.stderr.toString('utf8') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const DEEP_QUEUE = { clients: 10000, ratePerClient: 1000, durationMs: 2000, policy: { maxRetries: 0 }, server: { workers: 1, serviceMs: 600000 }, trigger: null };
const LONG_RUN = { clients: 100, ratePerClient: 1000, durationMs: 200000, policy: { maxRetries: 0 } };
const LINK = '#v=1&view=compare&of=fleet&clients=10000&ratePerClient=1000&durationMs=2000&policy.maxRetries=0&server.workers=1&server.serviceMs=600000&trigger=null&after.server.queueOrder=lifo';
// Refused by its estimate (600,000 requests × 4 attempts × 5 events), cheap in fact: a healthy
// run, one attempt a request.
const REFUSED_CHEAP = { clients: 10000, ratePerClient: 1, durationMs: 60000, server: { workers: 1000 }, trigger: null };

function refusedByCost(r, label) {
  assert.equal(r.signal, null, `${label}: killed by ${r.signal}`);
  assert.equal(r.status, 2, `${label}: exit ${r.status}; ${r.stderrText.slice(0, 300)}`);
  const result = JSON.parse(r.stdout);
  assert.equal(result.ok, false, label);
  const costly = result.errors.filter((e) => e.code === 'too-much-work' || e.code === 'too-much-memory');
  assert.ok(costly.length > 0, `${label}: ${JSON.stringify(result.errors).slice(0, 400)}`);
  for (const e of costly) {
    assert.match(e.message, /an estimated [\d,]+ (ms|MB)/, `${label}: the estimate`);
    assert.match(e.message, /over the limit of (2,000 ms|192 MB)/, `${label}: the limit`);
    for (const field of ['durationMs', 'clients', 'ratePerClient', 'policy.maxRetries']) assert.ok(e.message.includes(field), `${label}: ${field}`);
    assert.ok(e.field.endsWith('durationMs'), `${label}: on ${e.field}`);
  }
  assert.match(r.stderrText, /durationMs/, `${label}: stderr names the field`);
  return result;
}

test('the issue\'s requests are refused before any work, naming estimate, limit and fields', () => {
  const queue = refusedByCost(run(['--fleet', 'FILE'], { input: DEEP_QUEUE }), 'a deep queue');
  assert.deepEqual(queue.errors.map((e) => e.code).sort(), ['too-much-memory', 'too-much-work']);
  assert.match(queue.errors.find((e) => e.code === 'too-much-memory').message, /20,022,361 queued attempts.*server\.queueLimit/);
  refusedByCost(run(['--fleet', 'FILE'], { input: LONG_RUN }), 'a long run');
});

test('the 230-character link is refused, in Markdown mode and without it', () => {
  for (const args of [['--format', 'markdown', '--link', LINK], ['--link', LINK], ['--compare', '--link', LINK]]) {
    const r = run(args);
    assert.equal(r.signal, null);
    assert.equal(r.status, 2, `${args.join(' ')}: exit ${r.status}`);
    const result = JSON.parse(r.stdout);
    assert.ok(result.errors.some((e) => /over the limit of 2,000 ms/.test(e.message)), JSON.stringify(result.errors).slice(0, 300));
  }
});

test('--fleet --no-limits runs a request the bound refuses; it goes with --fleet FILE only', () => {
  refusedByCost(run(['--fleet', 'FILE'], { input: REFUSED_CHEAP }), 'refused without the flag');
  const r = run(['--fleet', '--no-limits', 'FILE'], { input: REFUSED_CHEAP, cpu: 60, memory: 1024 });
  assert.equal(r.status, 0, r.stderrText);
  const result = JSON.parse(r.stdout);
  assert.equal(result.ok, true);
  assert.ok(result.totals.requests > 590000 && result.totals.requests < 610000, String(result.totals.requests));
  // FLEET.md §3's own bound still holds: 10,000 × 1 × 600 s × 4 attempts = 24,000,000.
  const spec = run(['--fleet', '--no-limits', 'FILE'], { input: { clients: 10000, durationMs: 600000 } });
  assert.equal(spec.status, 2);
  assert.match(JSON.parse(spec.stdout).errors[0].message, /20,000,000 attempts/);
  for (const args of [['--no-limits', '--link', LINK], ['--compare', '--no-limits', '--link', LINK], ['--compare', '--fleet', '--no-limits', 'FILE', 'FILE'],
    ['--no-limits', 'FILE'], ['--sweep', '--no-limits', 'FILE'], ['--fleet', '--no-limits', '--format', 'markdown', 'FILE']]) {
    const refused = run(args, { input: REFUSED_CHEAP });
    assert.equal(refused.status, 2, args.join(' '));
    assert.equal(refused.stdout, '', args.join(' '));
    assert.match(refused.stderrText, /--no-limits goes with --fleet FILE only/, args.join(' '));
  }
  assert.match(run(['--help']).stdout, /--no-limits/);
});

test('a 2 MB link of 263,887 unknown names is refused within 192 MB', () => {
  const names = [];
  for (let i = 0, length = 4; length < 2000000 - 16; ++i) {
    names.push(`z${i.toString(36)}=1`);
    length += names[names.length - 1].length + 1;
  }
  const link = `#v=1&${names.join('&')}`;
  assert.ok(link.length <= 2000000);
  // retrysim's own limit on a link read from stdin is about 2 MB; well over 200,000 names.
  assert.ok(names.length > 200000, String(names.length));
  const r = run(['--link', '-'], { stdin: link, memory: 192 });
  assert.equal(r.signal, null);
  assert.equal(r.status, 2, r.stderrText.slice(0, 300));
  const result = JSON.parse(r.stdout);
  assert.equal(result.errors.length, 101);
  assert.equal(result.errors[0].code, 'unknown-field');
  assert.equal(result.errors[100].code, 'more-errors');
  assert.equal(result.errors[100].message, `${(names.length - 100).toLocaleString('en-US')} more errors are not listed here (retrysim shows the first 100).`);
  assert.match(r.stderrText, new RegExp(`, and ${(names.length - 100).toLocaleString('en-US')} more`));
});

test('none is read where the fleet allows null, in a fleet comparison link', () => {
  const r = run(['--link', '#v=1&view=compare&of=fleet&server.workers=none&server.queueLimit=none&policy.deadlineMs=none&after.server.workers=10&trigger=null&clients=5&durationMs=2000']);
  assert.equal(r.status, 0, r.stdout.slice(0, 400) + r.stderrText);
  const result = JSON.parse(r.stdout);
  assert.equal(result.before.request.server.workers, null);
  assert.equal(result.before.request.server.queueLimit, null);
  assert.equal(result.before.request.policy.deadlineMs, null);
  assert.equal(result.after.request.server.workers, 10);
  // Not where the engine allows no null: the page's words.
  const bad = run(['--link', '#v=1&view=compare&of=fleet&clients=none']);
  assert.equal(bad.status, 2);
  const error = JSON.parse(bad.stdout).errors[0];
  assert.equal(error.field, 'clients');
  assert.match(error.message, /is not a number$/);
  const unreadable = JSON.parse(run(['--link', '#v=1&view=compare&of=fleet&server.workers=many']).stdout).errors[0];
  assert.equal(unreadable.field, 'server.workers');
});

// The characters no message may show raw, and how each is written.
const HIDDEN = [['\u202E', '\\u202E'], ['\u2066', '\\u2066'], ['\u200F', '\\u200F'], ['\u061C', '\\u061C'], ['\u0085', '\\u0085'],
  ['\u001B', '\\u001B'], ['\u007F', '\\u007F'], ['\u2028', '\\u2028'], ['\n', '\\u000A']];

function assertClean(bytes, label) {
  const text = bytes.toString('utf8');
  assert.ok(!text.includes('\uFFFD') && Buffer.from(text, 'utf8').equals(bytes), `${label}: invalid UTF-8 on stderr`);
  for (const [raw] of HIDDEN) {
    const body = raw === '\n' ? text.replace(/\n$/, '') : text;
    assert.ok(!body.includes(raw), `${label}: a raw U+${raw.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
  }
}

test('control and bidi characters and invalid UTF-8 are escaped in every message, stderr and the JSON errors', () => {
  for (const [raw, shown] of HIDDEN) {
    const key = `max${raw}Retries`;
    for (const args of [['FILE'], ['--fleet', 'FILE'], ['--check', 'FILE']]) {
      const r = run(args, { input: JSON.stringify({ [key]: 1 }) });
      const label = `${args[0]} ${JSON.stringify(raw)}`;
      assert.equal(r.status, 2, label);
      assertClean(r.stderr, label);
      // shownText()'s \u202E, or the engine's own JSON escape of a C0 control in a key it
      // writes as ["..."] (\u001b, \n): escaped either way.
      const escaped = (text) => text.toLowerCase().includes(`max${shown}retries`.toLowerCase()) || /max\\(u00[01][0-9a-f]|n)Retries/.test(text);
      assert.ok(escaped(r.stderrText), `${label}: ${r.stderrText}`);
      const error = JSON.parse(r.stdout).errors[0];
      assert.ok(escaped(error.field) && !error.field.includes(raw), `${label}: ${error.field}`);
      assert.ok(error.message.startsWith(error.field), `${label}: ${error.message}`);
      assert.ok(!error.message.includes(raw) && !error.detail.includes(raw), label);
    }
    // In a link: its key, and its value.
    const link = run(['--link', `#v=1&${encodeURIComponent(key)}=1&operationId=${encodeURIComponent(`a${raw}b`)}x`]);
    assertClean(link.stderr, `link ${JSON.stringify(raw)}`);
    for (const e of JSON.parse(link.stdout).errors) for (const m of [e.field, e.message, e.detail]) assert.ok(!m.includes(raw), m);
  }
  // Invalid UTF-8: in a link's key (percent-decoded to a lone byte), in an option, in a path.
  for (const args of [['--link', '#v=1&a%FFb=1'], ['--link', '#v=1&operationId=%C0%80%FF'], ['--link', '#v=1&view=compare&of=fleet&a%FF=1'], ['--bogus\u202E']]) {
    const r = run(args);
    assert.equal(r.status, 2);
    // The first line: the usage after a bad option is the program's own text, on lines of its own.
    assertClean(r.stderr.subarray(0, r.stderr.indexOf(10) + 1), args.join(' '));
  }
  // A file whose key is not UTF-8: the parser's message quotes what it read last.
  const bytes = run(['FILE'], { input: Buffer.from([0x7b, 0x22, 0x61, 0xff, 0x62, 0xe2, 0x80, 0xae, 0x22, 0x3a, 0x31, 0x7d]) });
  assert.equal(bytes.status, 2);
  assertClean(bytes.stderr, 'a key not UTF-8');
  assert.match(bytes.stderrText, /malformed JSON at byte 4: .*"a\\xFF/);
  // A link's key decoded to a bidi control; one whose bytes are no UTF-8 stays as written (%FF).
  assert.match(run(['--link', '#v=1&a%E2%80%AEb=1']).stderrText, /a\\u202Eb/);
  assert.match(run(['--link', '#v=1&a%FFb=1']).stderrText, /a%FFb/);
});
