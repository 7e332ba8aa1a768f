// Config in, AWS (docs/config-in.md §8): the shared config file (an INI text, read at the
// binding edge, §8.1) and the environment, the profile (§8.2), retry_mode and max_attempts with
// the (SDK, mode) pair's preset (§8.3). Every expected figure is worked by hand in §8.4 or
// below; the presets' rules are held against web/clients/presets.js, never against retrysim.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { test } = require('node:test');

const { repo, runRetrysim } = require('./support.js');
const examples = require('../config-examples.js');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'config-aws-'));
let n = 0;
function file(text) {
  const p = path.join(dir, `f${n++}`);
  fs.writeFileSync(p, text);
  return p;
}
function run(args) {
  const r = runRetrysim('', args);
  assert.equal(r.signal, null, `${args.join(' ')}: killed`);
  return { run: r, answer: r.stdout ? JSON.parse(r.stdout) : null };
}
function read(text, extra = [], format = 'aws') { return run(['--from', format, ...extra, file(text)]); }
function ok(text, extra = [], format = 'aws') {
  const { run: r, answer } = read(text, extra, format);
  assert.equal(r.status, 0, `exit ${r.status}: ${r.stderr}\n${r.stdout.slice(0, 2000)}`);
  return { answer, stderr: r.stderr };
}
function refused(text, code, field, line, extra = []) {
  const { run: r, answer } = read(text, extra);
  assert.equal(r.status, 2, `expected exit 2; ${r.stdout.slice(0, 500)}`);
  const e = answer.errors.find((x) => x.code === code && x.field === field);
  assert.ok(e, `no ${code} at ${field} in ${JSON.stringify(answer.errors)}`);
  assert.equal(e.line, line, `${code} at ${field}: line ${e.line}`);
  assert.ok(!('result' in answer), 'no run for a file with errors');
  return e;
}
function textRefused(text, code, extra = [], format = 'aws') {
  const { run: r } = read(text, extra, format);
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '', 'nothing on stdout for a text that cannot be parsed');
  assert.match(r.stderr, new RegExp(`: ${code}: `));
  return r;
}
function entry(answer, p, status) {
  const e = answer.config.report.find((x) => x.path === p && (!status || x.status === status));
  assert.ok(e, `no ${status || ''} entry at ${p}: ${JSON.stringify(answer.config.report.map((x) => [x.path, x.status]))}`);
  return e;
}
// §2.5: the entries name exactly the inputs and the fleet's members, none twice.
function holdsInvariant(answer) {
  const named = [];
  const fleetNamed = [];
  for (const e of answer.config.report) {
    if (e.status === 'engine-default') continue;
    for (const i of e.inputs) (i.name.startsWith('fleet.') ? fleetNamed : named).push(i.name);
  }
  assert.deepEqual([...named].sort(), Object.keys(answer.config.inputs).sort());
  assert.equal(new Set(named).size, named.length);
  const keys = [];
  const { policy = {}, gates = {} } = answer.config.fleet;
  for (const k of Object.keys(policy)) keys.push(`fleet.policy.${k}`);
  for (const [g, v] of Object.entries(gates)) for (const k of Object.keys(v)) keys.push(`fleet.gates.${g}.${k}`);
  assert.deepEqual([...fleetNamed].sort(), keys.sort());
}

// The Boto3 retries guide's example (docs/config-in.md §8.4), as the guide prints it.
const guide = examples.aws.text;
const botocore2026 = {
  maxRetries: 2, baseBackoffMs: 50, backoffMultiplier: 2, maxBackoffMs: 20000, jitter: 'full', clientTimeoutMs: 60000,
  deadlineMs: null, retryOn: ['timeout', '429'], retryOnStatuses: [500, 502, 503, 504], honourRetryAfter: false,
  retryWritesWithoutKey: true, attemptStart: 'before-deadline', idempotencyKey: false,
};

test("AWS: the Boto3 guide's [myConfigProfile] is not a profile: a warning, and the default profile's defaults (§8.4)", () => {
  const { answer, stderr } = ok(guide, [], 'auto');
  holdsInvariant(answer);
  assert.deepEqual([answer.config.format, answer.config.detected.rule], ['aws', 'aws-shared-config']);
  assert.match(stderr, /--from auto chose aws \(aws-shared-config\)/);
  assert.match(stderr, /myConfigProfile \(line 1\): \[myConfigProfile\] is not a profile in the shared config file: the SDKs ignore it \(write \[profile myConfigProfile\]\)/);
  assert.deepEqual(answer.config.inputs, botocore2026);
  assert.deepEqual([answer.config.selection.rule, answer.config.selection.name, answer.config.selection.sdk], ['default', 'default', 'botocore-2026']);
  assert.deepEqual([entry(answer, 'default.retry_mode').status, entry(answer, 'default.retry_mode').source], ['defaulted', 'standard']);
  assert.deepEqual([entry(answer, 'default.max_attempts').status, entry(answer, 'default.max_attempts').source], ['defaulted', 3]);
  assert.equal(entry(answer, 'myConfigProfile', 'ignored').line, 1);
  // Selecting it by name is no-match, with the same hint.
  const e = refused(guide, 'no-match', '', null, ['--profile', 'myConfigProfile']);
  assert.match(e.message, /\[myConfigProfile\] is not a profile .*write \[profile myConfigProfile\]/);
});

test('AWS: [profile myConfigProfile] reads max_attempts 10 as 9 retries; the opening run with a 0.5 draw ends at 60,225 ms (§8.4)', () => {
  const text = guide.replace('[myConfigProfile]', '[profile myConfigProfile]');
  const { answer } = ok(text, ['--profile', 'myConfigProfile', '--run', file('{"draws": [0.5]}')]);
  holdsInvariant(answer);
  assert.deepEqual(answer.config.inputs, { ...botocore2026, maxRetries: 9, draws: [0.5] });
  const mode = entry(answer, 'profile myConfigProfile.retry_mode');
  const attempts = entry(answer, 'profile myConfigProfile.max_attempts');
  assert.deepEqual([mode.status, mode.line, attempts.status, attempts.line, attempts.source], ['read', 4, 'read', 3, '10']);
  const region = entry(answer, 'profile myConfigProfile.region');
  assert.deepEqual([region.status, region.line, 'source' in region], ['ignored', 2, false]);
  assert.equal(answer.config.selection.rule, 'option');
  assert.equal(answer.config.fleet.policy.maxRetries, 9);
  // retryOn timeout, 5xx (the statuses hold 500 and 503; 429 dropped) is FLEET's default: left out.
  assert.ok(!('retryOn' in answer.config.fleet.policy));
  assert.ok(entry(answer, 'profile myConfigProfile.retry_mode').inputs.some((i) => i.name === 'retryOnStatuses'));
  assert.deepEqual(answer.config.fleet.gates, { quota: { scope: 'client', capacity: 500, retryCost: 14, timeoutCost: 14, successIncrement: 1 } });
  // By hand: attempt 1 0–60,000 (charge at 200, the response lost), the 60 s read timeout is
  // retried; ceiling min(20,000, 50 × 2⁰) = 50, × 0.5 = 25; attempt 2 60,025–60,225, 200.
  const m = answer.result.metrics;
  assert.deepEqual([m.outcome, m.attempts, m.charges, m.elapsedMs, m.waitingMs], ['success', 2, 2, 60225, 25]);
});

test('AWS: every (--sdk, retry_mode) pair is its preset of web/clients/presets.js, gate and cannot-lines included', async () => {
  const { presetById } = await import(path.join(repo, 'web', 'clients', 'presets.js'));
  const pairs = {
    'botocore-2026': { standard: 'aws-botocore-2026', legacy: 'aws-botocore-legacy', timeout: 60000, mode: 'standard' },
    'botocore-1.43': { standard: 'aws-botocore-standard', legacy: 'aws-botocore-legacy', timeout: 60000, mode: 'legacy' },
    'js-v3': { standard: 'aws-js-v3', legacy: 'aws-js-v3', timeout: 86400000, mode: 'standard' },
    'go-v2-1.16': { standard: 'aws-sdk-go-v2', legacy: 'aws-sdk-go-v2', timeout: 86400000, mode: 'standard' },
  };
  const copied = ['maxRetries', 'baseBackoffMs', 'backoffMultiplier', 'maxBackoffMs', 'jitter', 'retryOn', 'retryOnStatuses', 'honourRetryAfter', 'retryWritesWithoutKey'];
  for (const [sdk, pair] of Object.entries(pairs)) {
    for (const mode of ['standard', 'legacy', 'adaptive', null]) {
      const text = mode ? `[default]\nretry_mode = ${mode}\n` : '[default]\nregion = eu-west-1\n';
      const { answer, stderr } = ok(text, ['--sdk', sdk]);
      holdsInvariant(answer);
      const id = pair[(mode || pair.mode) === 'legacy' ? 'legacy' : 'standard'];
      const preset = presetById(id);
      for (const k of copied) assert.deepEqual(answer.config.inputs[k], preset.inputs[k], `${sdk} ${mode} ${k}`);
      assert.equal(answer.config.inputs.clientTimeoutMs, pair.timeout);
      assert.equal(answer.config.inputs.deadlineMs, null);
      const quota = preset.gates.find((g) => g.gate === 'quota');
      // Adaptive mode adds the fleet's limiter, one a client (docs/config-in.md §8.3, "The limiter").
      const gates = { ...(quota ? { quota: { scope: 'client', ...quota.params } } : {}), ...(mode === 'adaptive' ? { adaptive: { scope: 'client' } } : {}) };
      assert.deepEqual(answer.config.fleet.gates, Object.keys(gates).length ? gates : undefined, `${sdk} ${mode} gate`);
      const cannot = answer.config.report.filter((e) => e.path === '' && e.status === 'not-modelled').map((e) => e.note);
      assert.deepEqual(cannot, preset.cannot, `${sdk} ${mode} cannot`);
      const limiter = answer.config.report.find((e) => e.path === 'default.retry_mode' && e.status === 'read' && /gates\.adaptive/.test(e.rule));
      assert.equal(Boolean(limiter), mode === 'adaptive', `${sdk} ${mode}: the adaptive limiter is read into the fleet's gates.adaptive`);
      if (limiter) {
        assert.deepEqual(limiter.inputs, [{ name: 'fleet.gates.adaptive.scope', value: 'client' }]);
        // Its start is botocore's: the JavaScript and Go SDKs' limiters start empty (docs/throttling.md §4.2).
        assert.equal(limiter.approximated, !sdk.startsWith('botocore'), `${sdk}: approximated`);
      }
      assert.ok(!answer.config.report.some((e) => e.path === 'default.retry_mode' && e.status === 'not-modelled'), `${sdk} ${mode}: nothing about the mode is not modelled`);
      assert.equal(/legacy is not read for this SDK/.test(stderr), mode === 'legacy' && pair.legacy === pair.standard);
      if (!mode) assert.equal(entry(answer, 'default.retry_mode', 'defaulted').source, pair.mode);
    }
  }
});

test('AWS: max_attempts as Python int() reads text, every attempt counted; the environment wins; AWS_PROFILE and [DEFAULT]', () => {
  const attempts = (v) => ok(`[default]\nmax_attempts = ${v}\n`).answer;
  for (const [v, retries] of [['1', 0], ['3', 2], [' 1_0', 9], ['+5', 4], ['101', 100]]) assert.equal(attempts(v).config.inputs.maxRetries, retries, v);
  const clamped = entry(attempts('250'), 'default.max_attempts');
  assert.deepEqual([clamped.status, clamped.inputs[0].value, clamped.note], ['clamped', 100, 'max_attempts 250: the engine allows at most 100 retries']);
  // botocore's legacy mode defaults to 5 attempts: 4 retries.
  const legacy = ok('[default]\nretry_mode = legacy\n').answer;
  assert.deepEqual([legacy.config.inputs.maxRetries, entry(legacy, 'default.max_attempts').source], [4, 5]);
  // The environment before the file (configprovider.py lines 171-175); its lines are its file's.
  const env = file('HOME=/root\nAWS_RETRY_MODE=legacy\nAWS_MAX_ATTEMPTS=7\nAWS_SECRET_ACCESS_KEY=hush-env\n');
  const text = '[default]\nretry_mode = standard\nmax_attempts = 2\naws_secret_access_key = hush-file\n';
  const { answer } = ok(text, ['--env', env]);
  const raw = JSON.stringify(answer);
  holdsInvariant(answer);
  assert.deepEqual([answer.config.inputs.maxRetries, answer.config.inputs.maxBackoffMs], [6, null]);
  assert.deepEqual([entry(answer, 'env.AWS_RETRY_MODE', 'read').line, entry(answer, 'env.AWS_MAX_ATTEMPTS', 'read').line], [2, 3]);
  assert.equal(entry(answer, 'default.retry_mode', 'ignored').line, 2);
  assert.match(entry(answer, 'env', 'ignored').note, /HOME, AWS_SECRET_ACCESS_KEY/);
  assert.ok(!raw.includes('hush'), 'the value of a key or variable not read is never shown');
  entry(answer, 'default.aws_secret_access_key', 'ignored');
  // AWS_PROFILE selects; --profile before it.
  const profiles = '[default]\nmax_attempts = 2\n[profile batch]\nmax_attempts = 8\n';
  const byEnv = ok(profiles, ['--env', file('AWS_PROFILE=batch\n')]).answer;
  assert.deepEqual([byEnv.config.inputs.maxRetries, byEnv.config.selection.rule, byEnv.config.selection.path], [7, 'environment', 'profile batch']);
  const byOption = ok(profiles, ['--env', file('AWS_PROFILE=batch\n'), '--profile', 'default']).answer;
  assert.deepEqual([byOption.config.inputs.maxRetries, byOption.config.selection.rule], [1, 'option']);
  // [DEFAULT] is configparser's defaults section: every section inherits its keys.
  const inherited = ok('[DEFAULT]\nmax_attempts = 4\n[default]\nretry_mode = standard\n').answer;
  assert.equal(inherited.config.inputs.maxRetries, 3);
  assert.deepEqual([entry(inherited, 'DEFAULT.max_attempts').line, entry(inherited, 'DEFAULT.max_attempts').note], [2, 'inherited from [DEFAULT]']);
  // The caller's deadline is the situation's (§1: AWS leaves it to the caller).
  assert.equal(ok('[default]\nretry_mode = standard\n', ['--run', file('{"deadlineMs": 5000}')]).answer.config.inputs.deadlineMs, 5000);
  // The environment alone, without a config file.
  const alone = run(['--from', 'auto', '--env', file('AWS_MAX_ATTEMPTS=4\n')]);
  assert.equal(alone.run.status, 0, alone.run.stderr);
  assert.deepEqual([alone.answer.config.detected.rule, alone.answer.config.inputs.maxRetries], ['aws-environment', 3]);
});

test('AWS: every error names its path and line', () => {
  let e = refused('[default]\nretry_mode = standrd\n', 'not-a-choice', 'default.retry_mode', 2);
  assert.match(e.message, /"standrd", which is not a retry mode .*did you mean standard\?\) \(line 2\)/);
  refused('[default]\nretry_mode = standard # the new one\n', 'not-a-choice', 'default.retry_mode', 2);
  refused('[default]\nregion = x\nmax_attempts = three\n', 'wrong-type', 'default.max_attempts', 3);
  refused('[default]\nmax_attempts = 1__0\n', 'wrong-type', 'default.max_attempts', 2);
  e = refused('[default]\nmax_attempts = 0\n', 'out-of-range', 'default.max_attempts', 2);
  assert.match(e.message, /at least 1/);
  refused('[default]\nmax_attempts = 2\n', 'out-of-range', 'env.AWS_MAX_ATTEMPTS', 2, ['--env', file('# x\nAWS_MAX_ATTEMPTS=-1\n')]);
  e = refused('[default]\nmax_attempts = 2\n[profile a]\nmax_attempts = 3\n', 'no-match', '', null, ['--profile', 'b']);
  assert.match(e.message, /--profile b selects no profile; the profiles are default, a/);
  refused('[default]\nmax_attempts = 2\n', 'no-match', 'env.AWS_PROFILE', 1, ['--env', file('AWS_PROFILE=ops\n')]);
  assert.equal(read('[default]\nmax_attempts = 2\n', ['--sdk', 'boto3']).answer.errors[0].code, 'not-a-choice');
  assert.equal(read('[default]\nmax_attempts = 2\n', ['--profile', 'a'], 'envoy').answer.errors[0].code, 'not-the-format');
  assert.equal(read('match: {prefix: /}\nroute: {cluster: c}\n', ['--profile', 'a'], 'envoy').answer.errors[0].code, 'conflict');
  assert.equal(read('a: 1\n').answer.errors[0].code, 'not-the-format');
  // The text: refused at its line, nothing on stdout (§8.1).
  assert.match(textRefused('[default]\nretry_mode\n', 'unreadable').stderr, /line 2, column 1/);
  assert.match(textRefused('[default]\n = standard\n', 'unreadable').stderr, /line 2/);
  assert.match(textRefused('[default]\nretry_mode = a\n[default]\n', 'duplicate-key').stderr, /again at line 3/);
  assert.match(textRefused('[default]\nretry_mode = a\nRetry_Mode = b\n', 'duplicate-key').stderr, /again at line 3/);
  const badEnv = run(['--from', 'aws', '--env', file('AWS_RETRY_MODE=standard\n1X=2\n'), file('[default]\n')]);
  assert.equal(badEnv.run.status, 2);
  assert.match(badEnv.run.stderr, /--env .*unreadable: malformed environment.* at line 2/);
});

test('AWS: detection (§3) and hostile INI and environment texts, refused within the limits in bounded time', () => {
  // A comment before the header; `[section]` is not JSON (a JSON array still is).
  assert.equal(ok('# mine\n; also\n[default]\nretry_mode = adaptive\n', [], 'auto').answer.config.format, 'aws');
  assert.equal(read('[default]\nregion = x\n', [], 'auto').answer.errors[0].code, 'unknown-format');
  assert.equal(read('["retry_mode"]\n', [], 'auto').answer.errors[0].code, 'unknown-format');
  const timed = (f) => { const t = Date.now(); f(); assert.ok(Date.now() - t < 2000); };
  timed(() => textRefused(`[default]\n${'k = v\n'.repeat(2 * 1024 * 1024 / 6)}`, 'too-large'));
  timed(() => textRefused(`[default]\n${Array.from({ length: 20001 }, (_, i) => `k${i} = v`).join('\n')}\n`, 'too-large'));
  textRefused(`[default]\nretry_mode = ${'x'.repeat(65537)}\n`, 'too-long');
  textRefused(`[default]\nretry_mode = a\n  ${'x'.repeat(65537)}\n`, 'too-long');
  textRefused(`[default]\n${'k'.repeat(1025)} = 1\n`, 'too-long');
  assert.equal(read(`[default]\n${'k'.repeat(1024)} = 1\nmax_attempts = 2\n`).run.status, 0);
  timed(() => {
    const env = run(['--from', 'aws', '--env', file(Array.from({ length: 10001 }, (_, i) => `V${i}=x`).join('\n')), file('[default]\n')]);
    assert.match(env.run.stderr, /too-large: the environment holds more than 10,000 variables/);
  });
  textRefused('[default]\nmax_attempts = 2\u0000\n', 'unreadable');
});
