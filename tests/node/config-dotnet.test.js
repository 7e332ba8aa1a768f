// Config in, .NET (docs/config-in.md §9): HttpStandardResilienceOptions (and the hedging
// handler's options) in appsettings.json, read as the configuration binder reads text, with
// Polly 8.7.0's backoff rule. Every expected figure is worked by hand in §9 or below.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { test } = require('node:test');

const { runRetrysim } = require('./support.js');
const examples = require('../config-examples.js');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'config-dotnet-'));
let n = 0;
function file(text) {
  const p = path.join(dir, `f${n++}`);
  fs.writeFileSync(p, text);
  return p;
}
function read(text, extra = [], format = 'dotnet') {
  const r = runRetrysim('', ['--from', format, ...extra, file(text)]);
  assert.equal(r.signal, null);
  return { run: r, answer: r.stdout ? JSON.parse(r.stdout) : null };
}
function ok(text, extra = [], format = 'dotnet') {
  const { run, answer } = read(text, extra, format);
  assert.equal(run.status, 0, `exit ${run.status}: ${run.stderr}\n${run.stdout.slice(0, 1500)}`);
  return { answer, stderr: run.stderr };
}
function refused(text, code, field, line, extra = []) {
  const { run, answer } = read(text, extra);
  assert.equal(run.status, 2, run.stdout.slice(0, 500));
  const e = answer.errors.find((x) => x.code === code && x.field === field);
  assert.ok(e, `no ${code} at ${field} in ${JSON.stringify(answer.errors)}`);
  assert.equal(e.line, line);
  assert.ok(!('result' in answer));
  return e;
}
function entry(answer, p, status) {
  const e = answer.config.report.find((x) => x.path === p && (!status || x.status === status));
  assert.ok(e, `no ${status || ''} entry at ${p}: ${JSON.stringify(answer.config.report.map((x) => [x.path, x.status]))}`);
  return e;
}
function holdsInvariant(answer) {
  const named = [];
  for (const e of answer.config.report) if (e.status !== 'engine-default') for (const i of e.inputs) if (!i.name.startsWith('fleet.')) named.push(i.name);
  assert.deepEqual([...named].sort(), Object.keys(answer.config.inputs).sort());
  assert.equal(new Set(named).size, named.length);
}
// One section `Client` holding `body` (JSON members), at line 2.
const section = (body) => `{\n  "Client": {\n${body}\n  }\n}\n`;

// docs/config-in.md §9.5 (constructed: no real example was found), in its own layout.
const example = examples.dotnet.text;

test('.NET: §9.5\'s constructed example reads as its inputs; the opening run succeeds on the second attempt at 2,700 ms', () => {
  const { answer, stderr } = ok(example, [], 'auto');
  holdsInvariant(answer);
  assert.match(stderr, /--from auto chose dotnet \(dotnet-appsettings\)/);
  assert.deepEqual(answer.config.inputs, {
    maxRetries: 5, baseBackoffMs: 500, backoffMultiplier: 1, jitter: 'none', maxBackoffMs: null, clientTimeoutMs: 2000,
    deadlineMs: 10000, honourRetryAfter: true, retryOn: ['timeout', '429', '5xx'], retryOnStatuses: [408],
    retryWritesWithoutKey: true, attemptStart: 'before-deadline', idempotencyKey: false,
  });
  assert.deepEqual([answer.config.selection.name, answer.config.selection.path], ['PaymentsClient', 'PaymentsClient']);
  assert.equal(entry(answer, 'PaymentsClient.Retry.ShouldRetryAfterHeader').status, 'defaulted');
  assert.equal(entry(answer, 'PaymentsClient.CircuitBreaker').status, 'not-modelled');
  assert.equal(entry(answer, 'Logging').status, 'ignored');
  assert.deepEqual([entry(answer, 'PaymentsClient.Retry.Delay').line, entry(answer, 'PaymentsClient.AttemptTimeout.Timeout').line], [5, 6]);
  // By hand: attempt 1 0–2,000 (charge at 200, the response lost, the attempt timeout at 2,000),
  // a constant 500 ms wait, attempt 2 2,500–2,700, 200.
  const m = answer.result.metrics;
  assert.deepEqual([m.outcome, m.attempts, m.charges, m.elapsedMs, m.waitingMs], ['success', 2, 2, 2700, 500]);
});

test('.NET: each field, read as the binder reads text, and its default', () => {
  const inputs = (body) => ok(section(body)).answer.config.inputs;
  const d = inputs('    "Retry": {}');
  // The HTTP defaults: 3 retries, 2 s, Exponential with jitter (full, approximated), Retry-After honoured, 10 s and 30 s.
  assert.deepEqual([d.maxRetries, d.baseBackoffMs, d.backoffMultiplier, d.jitter, d.maxBackoffMs, d.honourRetryAfter, d.clientTimeoutMs, d.deadlineMs],
    [3, 2000, 2, 'full', null, true, 10000, 30000]);
  assert.equal(inputs('    "retry": { "maxretryattempts": "7" }').maxRetries, 7);  // case and text
  assert.equal(inputs('    "Retry": { "ShouldRetryAfterHeader": "False" }').honourRetryAfter, false);
  assert.equal(inputs('    "Retry": { "MaxDelay": "00:00:05" }').maxBackoffMs, 5000);
  assert.equal(inputs('    "AttemptTimeout": { "Timeout": "00:00:00.250" }').clientTimeoutMs, 250);
  assert.equal(inputs('    "TotalRequestTimeout": { "Timeout": "00:01" }').deadlineMs, 60000);  // h:m: one minute
  const many = ok(section('    "Retry": { "MaxRetryAttempts": 250 }')).answer;
  assert.deepEqual([many.config.inputs.maxRetries, entry(many, 'Client.Retry.MaxRetryAttempts').status], [100, 'clamped']);
  // §9.3's backoff table, every row.
  const rule = (type, jitter) => inputs(`    "Retry": { "BackoffType": "${type}", "UseJitter": ${jitter}, "Delay": "00:00:01", "MaxRetryAttempts": 3 }`);
  let r = rule('Constant', false);
  assert.deepEqual([r.backoffMultiplier, r.jitter], [1, 'none']);
  r = rule('Constant', true);
  assert.deepEqual([r.backoffMultiplier, r.jitter, r.jitterLow, r.jitterHigh], [1, 'proportional', 0.75, 1.25]);
  r = rule('Linear', false);
  assert.deepEqual([r.ceilingScheduleMs, r.jitter, 'backoffMultiplier' in r], [[1000, 2000, 3000], 'none', false]);
  r = rule('1', true);  // an enum by number
  assert.deepEqual([r.ceilingScheduleMs, r.jitter], [[1000, 2000, 3000], 'proportional']);
  r = rule('Exponential', false);
  assert.deepEqual([r.backoffMultiplier, r.jitter], [2, 'none']);
  const jittered = ok(section('    "Retry": { "BackoffType": "exponential", "MaxDelay": "00:00:03" }')).answer;
  assert.equal(entry(jittered, 'Client.Retry.UseJitter').approximated, true);
  assert.equal(entry(jittered, 'Client.Retry.MaxDelay').approximated, true);
  // A bare number is days (TimeSpan.Parse("1")), with a warning.
  const days = ok(section('    "Retry": { "Delay": 1 }'));
  assert.equal(days.answer.config.inputs.baseBackoffMs, 86400000);
  assert.match(days.stderr, /Client\.Retry\.Delay 1 reads as 1\.00:00:00, 1 day/);
  // Name is read into nothing; delegates are set in code; the breaker and limiter are listed.
  const listed = ok(section('    "Retry": { "Name": "r", "OnRetry": null },\n    "CircuitBreaker": { "FailureRatio": 0.5, "SamplingDuration": "00:01:00" },\n    "RateLimiter": {}')).answer;
  assert.deepEqual(entry(listed, 'Client.Retry.Name').inputs, []);
  assert.equal(entry(listed, 'Client.Retry.OnRetry').status, 'not-modelled');
  assert.deepEqual([entry(listed, 'Client.CircuitBreaker').status, entry(listed, 'Client.CircuitBreaker').line], ['not-modelled', 4]);
  assert.equal(entry(listed, 'Client.RateLimiter').status, 'not-modelled');
  holdsInvariant(listed);
});

test('.NET: every error names its path and line', () => {
  let e = refused(section('    "Retry": { "MaxRetryAttempt": 4 }'), 'unknown-field', 'Client.Retry.MaxRetryAttempt', 3);
  assert.match(e.message, /did you mean MaxRetryAttempts\?/);
  e = refused(section('    "Retry": {},\n    "Retyr": {}'), 'unknown-field', 'Client.Retyr', 4);
  assert.match(e.message, /did you mean Retry\?/);
  refused(section('    "Retry": { "MaxRetryAttempts": "five" }'), 'wrong-type', 'Client.Retry.MaxRetryAttempts', 3);
  refused(section('    "Retry": { "MaxRetryAttempts": 0 }'), 'out-of-range', 'Client.Retry.MaxRetryAttempts', 3);
  refused(section('    "Retry": { "Delay": "2s" }'), 'bad-duration', 'Client.Retry.Delay', 3);
  refused(section('    "Retry": { "Delay": "2" }'), 'out-of-range', 'Client.Retry.Delay', 3);  // two days > one day
  refused(section('    "AttemptTimeout": { "Timeout": "00:00:00.005" }'), 'out-of-range', 'Client.AttemptTimeout.Timeout', 3);
  e = refused(section('    "Retry": { "BackoffType": "Exponental" }'), 'not-a-choice', 'Client.Retry.BackoffType', 3);
  assert.match(e.message, /did you mean Exponential\?/);
  refused(section('    "Retry": { "UseJitter": "yes" }'), 'wrong-type', 'Client.Retry.UseJitter', 3);
  refused(section('    "CircuitBreaker": { "FailureRatio": 2 }'), 'out-of-range', 'Client.CircuitBreaker.FailureRatio', 3);
  refused(section('    "Retry": {},\n    "Hedging": {}'), 'conflict', 'Client', 2);
  refused(section('    "Retry": {}'), 'no-match', '', null, ['--section', 'Other']);
  assert.equal(read('{"Client": {"Retry": {}}}', ['--section', 'Client'], 'grpc').answer.errors[0].code, 'not-the-format');
});

test('.NET: comments are read for .NET only; the section chosen depth first; the validator\'s rules warn; the hedging handler', () => {
  const commented = '{\n  // the payments client\n  "A": { "B": { "Retry": { "MaxRetryAttempts": 2 } } },\n  "C": { "Retry": {} }\n}\n';
  const a = ok(commented, [], 'auto').answer;
  assert.deepEqual([a.config.format, a.config.selection.name, a.config.selection.rule, a.config.inputs.maxRetries], ['dotnet', 'A:B', 'first', 2]);
  assert.equal(ok(commented, ['--section', 'c']).answer.config.inputs.maxRetries, 3);
  const strict = read(commented, [], 'grpc').run;
  assert.equal(strict.status, 2);
  assert.match(strict.stderr, /unreadable/);
  // The validator (warnings): attempt above total; sampling under twice the attempt; the delays' sum above the total.
  const w = ok(section('    "Retry": { "BackoffType": "Linear", "UseJitter": false, "Delay": "00:00:04", "MaxRetryAttempts": 3 },\n    "AttemptTimeout": { "Timeout": "00:00:20" },\n    "TotalRequestTimeout": { "Timeout": "00:00:15" }')).stderr;
  assert.match(w, /attempt timeout 20,000 ms is above the total request timeout 15,000 ms/);
  assert.match(w, /sampling duration 30,000 ms is under twice the attempt timeout 20,000 ms/);
  // 4 + 8 + 12 = 24 s > 15 s.
  assert.match(w, /cumulative delay 24,000 ms is above the total request timeout 15,000 ms/);
  // The hedging handler (§9.4): two hedged actions besides the original, 1 s apart.
  const h = ok(section('    "Hedging": { "MaxHedgedAttempts": 2, "Delay": "00:00:01" },\n    "Endpoint": { "Timeout": { "Timeout": "00:00:03" } }')).answer;
  holdsInvariant(h);
  assert.deepEqual([h.config.inputs.maxRetries, h.config.inputs.clientTimeoutMs, h.config.inputs.deadlineMs], [0, 3000, 30000]);
  entry(h, 'Client.Hedging', 'read');
  assert.deepEqual(h.config.inputs.hedging, { maxAttempts: 3, delayMs: 1000, nonFatal: ['timeout', '5xx'] });
  assert.deepEqual(h.config.fleet.policy.hedging, { maxAttempts: 3, delayMs: 1000, nonFatal: ['timeout', '5xx'] });
  // The opening run hedged: copy 1's response is lost; copy 2 at 1,000 ms succeeds at 1,200, before
  // copy 1's 3 s timeout (a timeout would send the next copy at once: nonFatal holds it).
  const m = h.result.metrics;
  assert.deepEqual([m.attempts, m.charges, m.elapsedMs, m.outcome], [2, 2, 1200, 'success']);
  // Ten hedged actions are eleven copies; the engine sends at most five.
  const ten = ok(section('    "Hedging": { "MaxHedgedAttempts": 10 }')).answer;
  assert.equal(entry(ten, 'Client.Hedging', 'clamped').note, 'MaxHedgedAttempts 10 hedged actions besides the original: the engine sends at most 5 copies');
  assert.deepEqual(ten.config.inputs.hedging, { maxAttempts: 5, delayMs: 2000, nonFatal: ['timeout', '5xx'] });
});
