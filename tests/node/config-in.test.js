// Config in (issue 36, docs/config-in.md): retrysim --from reads a gRPC service config or an
// Envoy route into the engine's inputs with a report of every field's fate, runs it, and
// compares two commits of a file as a pull-request comment. Every expected figure is worked by
// hand in docs/config-in.md (§4.5, §5.5, §10.4) or below, never recorded from retrysim.
'use strict';

const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { test } = require('node:test');

const { repo, retrysimPath, runRetrysim } = require('./support.js');
const examples = require('../config-examples.js');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'config-in-'));
function file(name, text) {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
}
function from(args, label = args.join(' ')) {
  const run = runRetrysim('', args);
  assert.equal(run.signal, null, `${label}: killed`);
  return run;
}
function read(format, text, extra = [], name = 'config') {
  const p = file(`${name}-${Math.random().toString(36).slice(2)}`, text);
  const run = from(['--from', format, ...extra, p]);
  return { run, answer: run.stdout ? JSON.parse(run.stdout) : null };
}
function ok(format, text, extra = []) {
  const { run, answer } = read(format, text, extra);
  assert.equal(run.status, 0, `exit ${run.status}: ${run.stderr}\n${run.stdout.slice(0, 2000)}`);
  return answer;
}
function refusedWith(format, text, code, field, line, extra = []) {
  const { run, answer } = read(format, text, extra);
  assert.equal(run.status, 2, `expected exit 2; stdout ${run.stdout.slice(0, 500)}`);
  const e = answer.errors.find((x) => x.code === code && x.field === field);
  assert.ok(e, `no ${code} at ${field} in ${JSON.stringify(answer.errors)}`);
  assert.equal(e.line, line, `${code} at ${field}: line ${e.line}`);
  assert.ok(e.message.includes(field), e.message);
  assert.ok(!('result' in answer), 'no run is printed for a file with errors');
  return e;
}
function textRefused(format, text, code, extra = []) {
  const { run } = read(format, text, extra);
  assert.equal(run.status, 2);
  assert.equal(run.stdout, '', 'nothing on stdout for a text that cannot be parsed');
  assert.match(run.stderr, new RegExp(`^retrysim: .*: ${code}: `));
  return run;
}
function entries(answer, p) { return answer.config.report.filter((e) => e.path === p); }
function entry(answer, p, status) {
  const e = entries(answer, p).find((x) => !status || x.status === status);
  assert.ok(e, `no ${status || ''} entry at ${p}: ${JSON.stringify(answer.config.report.map((x) => [x.path, x.status]))}`);
  return e;
}

// §2.5's invariant: every input is named by exactly one entry, and nothing else is.
function holdsInvariant(answer) {
  const named = [];
  for (const e of answer.config.report) {
    if (e.status === 'engine-default') continue;
    for (const i of e.inputs) if (!i.name.startsWith('fleet.')) named.push(i.name);
  }
  assert.deepEqual([...named].sort(), Object.keys(answer.config.inputs).sort(), 'entries name exactly the inputs');
  assert.equal(new Set(named).size, named.length, 'no input named twice');
  const fleetNamed = [];
  for (const e of answer.config.report) for (const i of e.inputs) if (i.name.startsWith('fleet.')) fleetNamed.push(i.name);
  const fleetKeys = [];
  const walk = (v, p) => {
    if (v && typeof v === 'object' && !Array.isArray(v) && (p === 'fleet' || p === 'fleet.gates' || p === 'fleet.policy' || p.startsWith('fleet.gates.') && p.split('.').length === 3)) {
      for (const [k, x] of Object.entries(v)) walk(x, `${p}.${k}`);
    } else fleetKeys.push(p);
  };
  walk(answer.config.fleet, 'fleet');
  assert.deepEqual([...fleetNamed].sort(), fleetKeys.sort(), 'entries name exactly the fleet members');
}

// ---- gRPC (§4) ---------------------------------------------------------------------------------

// grpc-java v1.83.1's retrying example's settings (docs/config-in.md §4.5), in this file's own
// layout (the lines below are this text's).
const grpcExample = examples.grpc.text;

test("gRPC: grpc-java's retrying example reads as §4.5's inputs, and its opening run waits 86,400,000 ms", () => {
  const a = ok('grpc', grpcExample);
  holdsInvariant(a);
  assert.deepEqual(a.config.inputs, {
    maxRetries: 4, baseBackoffMs: 500, backoffMultiplier: 2, maxBackoffMs: 30000, jitter: 'proportional',
    clientTimeoutMs: 86400000, deadlineMs: null, idempotencyKey: false, retryOn: [], retryWritesWithoutKey: true,
    honourRetryAfter: false, jitterLow: 0.8, jitterHigh: 1.2, retryOnStatuses: [429, 502, 503, 504],
    attemptStart: 'before-deadline',
  });
  assert.deepEqual(a.config.selection.name, 'helloworld.Greeter/SayHello');
  const p = 'methodConfig[0].retryPolicy.';
  for (const [key, line] of [['maxAttempts', 6], ['initialBackoff', 7], ['maxBackoff', 8], ['backoffMultiplier', 9], ['retryableStatusCodes', 10]])
    assert.equal(entry(a, p + key, 'read').line, line, key);
  assert.equal(entry(a, 'methodConfig[0].timeout', 'defaulted').inputs[0].name, 'deadlineMs');
  assert.ok(a.config.warnings.some((w) => /24-hour client timeout/.test(w.message)));
  // By hand (§4.5): charge #1 at 200, the response lost, no deadline: the timeout at 86,400,000.
  const m = a.result.metrics;
  assert.deepEqual([m.attempts, m.charges, m.outcome, m.elapsedMs, m.stopReason], [1, 1, 'unknown', 86400000, 'not-retryable']);
  // The caller's 3 s deadline (--run): min(86,400,000, 3,000) = 3,000; docs/clients.md §1's figure.
  const withDeadline = ok('grpc', grpcExample, ['--run', file('deadline.json', '{"deadlineMs": 3000}')]);
  const d = withDeadline.result.metrics;
  assert.deepEqual([d.attempts, d.charges, d.outcome, d.elapsedMs], [1, 1, 'unknown', 3000]);
  assert.equal(withDeadline.config.inputs.deadlineMs, 3000);
});

test('gRPC: --impl takes each preset\'s jitter, the same as web/clients/presets.js', async () => {
  const { presetById } = await import(path.join(repo, 'web', 'clients', 'presets.js'));
  for (const id of ['grpc-go-169', 'grpc-java-171', 'grpc-go-168', 'grpc-core', 'grpc-js']) {
    const a = ok('grpc', grpcExample, ['--impl', id]);
    const preset = presetById(id).inputs;
    for (const k of ['jitter', 'jitterLow', 'jitterHigh']) assert.equal(a.config.inputs[k], preset[k], `${id} ${k}`);
  }
  assert.equal(read('grpc', grpcExample, ['--impl', 'grpc-rust']).answer.errors[0].code, 'not-a-choice');
});

// One gRPC method config around `policy` (a JSON text) and optional extra members.
function grpcWith(policy, extra = '') {
  return `{"methodConfig": [{"name": [{"service": "s"}]${extra}${policy ? `, "retryPolicy": ${policy}` : ''}}]}`;
}
const base = '"maxAttempts": 3, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2';

test('gRPC: a round trip for every field read, and its defaulted twin', () => {
  const cases = [
    [grpcWith(`{${base}, "retryableStatusCodes": ["UNAVAILABLE"]}`), { maxRetries: 2, baseBackoffMs: 100, maxBackoffMs: 1000, backoffMultiplier: 2, retryOnStatuses: [429, 502, 503, 504] }],
    [grpcWith(`{"maxAttempts": 7, "initialBackoff": "0.25s", "maxBackoff": "2.000000001s", "backoffMultiplier": 1.5, "retryableStatusCodes": [14]}`), { maxRetries: 4, baseBackoffMs: 250, maxBackoffMs: 2000.000001, backoffMultiplier: 1.5, retryOnStatuses: [429, 502, 503, 504] }],
    [grpcWith(`{${base}, "retryableStatusCodes": ["permission_denied", "UNAUTHENTICATED"]}`), { retryOnStatuses: [401, 403] }],
    [grpcWith(`{${base}, "retryableStatusCodes": ["UNIMPLEMENTED", "INTERNAL"]}`), { retryOnStatuses: [100, 101, 102, 103].concat(Array.from({ length: 96 }, (_, i) => 104 + i), [400, 404, 431]) }],
    [grpcWith(`{${base}, "retryableStatusCodes": ["CANCELLED"]}`), { retryOnStatuses: [], retryOn: [] }],
    [grpcWith(`{${base}, "retryableStatusCodes": ["UNAVAILABLE"]}`, ', "timeout": "1.5s"'), { deadlineMs: 1500 }],
    [grpcWith(`{${base}, "retryableStatusCodes": ["UNAVAILABLE"]}`), { deadlineMs: null }],
    [grpcWith(null), { maxRetries: 0, retryOn: [] }],
    [grpcWith(`{${base}, "retryableStatusCodes": [], "perAttemptRecvTimeout": "1s"}`), { retryOnStatuses: [] }],
  ];
  for (const [text, expected] of cases) {
    const a = ok('grpc', text);
    holdsInvariant(a);
    for (const [k, v] of Object.entries(expected)) assert.deepEqual(a.config.inputs[k], v, `${text}: ${k}`);
  }
  // UNKNOWN: every status 100–599 but 2xx and the rows above (§4.4): 300–399, 402, 405–428, 430, 432–499, 500, 501, 505–599.
  const unknown = ok('grpc', grpcWith(`{${base}, "retryableStatusCodes": ["UNKNOWN"]}`)).config.inputs.retryOnStatuses;
  const expected = [];
  for (let s = 300; s <= 599; s++) if (![400, 401, 403, 404, 429, 431, 502, 503, 504].includes(s)) expected.push(s);
  assert.deepEqual(unknown, expected);
  // Clamped to the engine's 1–10, with both values in the note.
  const shrink = ok('grpc', grpcWith(`{"maxAttempts": 3, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 0.5, "retryableStatusCodes": ["UNAVAILABLE"]}`));
  assert.equal(shrink.config.inputs.backoffMultiplier, 1);
  assert.equal(entry(shrink, 'methodConfig[0].retryPolicy.backoffMultiplier').status, 'clamped');
  const grow = ok('grpc', grpcWith(`{"maxAttempts": 3, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 12, "retryableStatusCodes": ["UNAVAILABLE"]}`));
  assert.equal(grow.config.inputs.backoffMultiplier, 10);
});

test('gRPC: not-modelled fields are listed with their path and line, never dropped', () => {
  const a = ok('grpc', `{"methodConfig": [{"name": [{"service": "s"}],
  "waitForReady": true,
  "maxRequestMessageBytes": 1024,
  "hedgingPolicy": {"maxAttempts": 3, "hedgingDelay": "1s"}}],
 "retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1234},
 "loadBalancingConfig": [{"round_robin": {}}]}`);
  holdsInvariant(a);
  assert.equal(entry(a, 'methodConfig[0].waitForReady', 'not-modelled').line, 2);
  assert.equal(entry(a, 'methodConfig[0].maxRequestMessageBytes', 'not-modelled').line, 3);
  assert.equal(entry(a, 'methodConfig[0].hedgingPolicy', 'read').line, 4);
  assert.equal(a.config.inputs.maxRetries, 0);
  // hedgingPolicy → hedging (docs/config-in.md §4.3), in the single run and the fleet's policy.
  assert.deepEqual(a.config.inputs.hedging, { maxAttempts: 3, delayMs: 1000, nonFatal: [] });
  assert.deepEqual(a.config.fleet.policy.hedging, { maxAttempts: 3, delayMs: 1000, nonFatal: [] });
  assert.equal(entry(a, 'loadBalancingConfig', 'ignored').line, 6);
  // retryThrottling → the fleet's throttle; tokenRatio to 3 decimals (A6).
  assert.deepEqual(a.config.fleet.gates.throttle, { scope: 'client', maxTokens: 10, tokenRatio: 0.123, countFailures: 'retryable' });
  // The opening run's answers, hedged (docs/throttling.md §6.1): copy 1 at 0 commits at 200 ms and
  // its response is lost (no per-attempt timeout: it is never given up); copy 2 goes 1 s later and
  // its success comes at 1,000 + 200 ms, so copy 3 (due at 2,000) is never sent. Two charges.
  const m = a.result.metrics;
  assert.deepEqual([m.attempts, m.charges, m.elapsedMs, m.outcome, m.hedges], [2, 2, 1200, 'success', 1]);
});

test('gRPC: hedgingPolicy\'s copies are capped at 5 as gRPC caps them, and its non-fatal statuses become the failure classes they stand for', () => {
  const hedged = (policy) => ok('grpc', `{"methodConfig": [{"name": [{"service": "s"}], "hedgingPolicy": ${policy}}]}`);
  const seven = hedged('{"maxAttempts": 7, "hedgingDelay": "0.25s", "nonFatalStatusCodes": ["UNAVAILABLE", 4]}');
  holdsInvariant(seven);
  assert.deepEqual(seven.config.inputs.hedging, { maxAttempts: 5, delayMs: 250, nonFatal: ['timeout', '5xx'] });
  const e = entry(seven, 'methodConfig[0].hedgingPolicy', 'read');
  assert.equal(e.approximated, true);
  assert.match(e.note, /maxAttempts 7: gRPC sends at most 5 copies/);
  assert.match(e.note, /nonFatalStatusCodes UNAVAILABLE, DEADLINE_EXCEEDED/);
  // RESOURCE_EXHAUSTED stands for no class the engine's nonFatal holds; CANCELLED is a timeout.
  assert.deepEqual(hedged('{"maxAttempts": 2, "nonFatalStatusCodes": ["RESOURCE_EXHAUSTED"]}').config.inputs.hedging, { maxAttempts: 2, delayMs: 0, nonFatal: [] });
  assert.deepEqual(hedged('{"maxAttempts": 2, "nonFatalStatusCodes": ["cancelled", "INTERNAL", "UNKNOWN"]}').config.inputs.hedging.nonFatal, ['timeout', '5xx']);
  // No delay: every copy at once (A6 line 468): copy 2 at 0 is answered at 200 ms.
  const now = hedged('{"maxAttempts": 2}');
  assert.deepEqual([now.result.metrics.attempts, now.result.metrics.elapsedMs], [2, 200]);
});

test('gRPC: every error names its path and line', () => {
  refusedWith('grpc', grpcWith('{"maxAttempts": 1, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}'), 'out-of-range', 'methodConfig[0].retryPolicy.maxAttempts', 1);
  refusedWith('grpc', grpcWith('{"maxAttempts": "4", "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}'), 'wrong-type', 'methodConfig[0].retryPolicy.maxAttempts', 1);
  const typo = refusedWith('grpc', `{"methodConfig": [{"name": [{"service": "s"}],
 "retryPolicy": {"maxAttempt": 4,
  "initialBackoff": "25ms", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABEL"]}}]}`, 'unknown-field', 'methodConfig[0].retryPolicy.maxAttempt', 2);
  assert.match(typo.message, /did you mean maxAttempts\?/);
  const answer = read('grpc', `{"methodConfig": [{"name": [{"service": "s"}],
 "retryPolicy": {"maxAttempt": 4,
  "initialBackoff": "25ms", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABEL"]}}]}`).answer;
  const codes = answer.errors.map((e) => [e.code, e.field, e.line]);
  assert.deepEqual(codes, [
    ['unknown-field', 'methodConfig[0].retryPolicy.maxAttempt', 2],
    ['missing', 'methodConfig[0].retryPolicy.maxAttempts', 2],
    ['bad-duration', 'methodConfig[0].retryPolicy.initialBackoff', 3],
    ['not-a-choice', 'methodConfig[0].retryPolicy.retryableStatusCodes[0]', 3],
  ], 'all errors of the file, not only the first');
  refusedWith('grpc', grpcWith(`{${base}, "retryableStatusCodes": ["UNAVAILABLE"]}`, ', "hedgingPolicy": {"maxAttempts": 2}'), 'conflict', 'methodConfig[0]', 1);
  refusedWith('grpc', grpcWith(`{${base}, "retryableStatusCodes": ["OK"]}`), 'out-of-range', 'methodConfig[0].retryPolicy.retryableStatusCodes[0]', 1);
  refusedWith('grpc', grpcWith(`{${base}, "retryableStatusCodes": ["UNAVAILABLE"]}`, ', "timeout": "+1s"'), 'bad-duration', 'methodConfig[0].timeout', 1);
  refusedWith('grpc', '{"methodConfig": [{"name": [{"service": "s"}]}, {"name": [{"service": "s"}]}]}', 'conflict', 'methodConfig[1].name', 1);
  const none = read('grpc', grpcExample, ['--method', 'pay.Charges/Refund']).answer;
  assert.equal(none.errors[0].code, 'no-match');
  assert.match(none.errors[0].message, /helloworld\.Greeter\/SayHello/);
  assert.equal(read('grpc', '{"route": {}, "match": {}}').answer.errors[0].code, 'not-the-format');
  refusedWith('grpc', grpcExample, 'unknown-field', 'run.responsMs', null, ['--run', file('typo-run.json', '{"responsMs": 800}')]);
});

test('gRPC: --method selects method, then service, then the default entry', () => {
  const text = `{"methodConfig": [
 {"name": [{}], "retryPolicy": {${base}, "retryableStatusCodes": ["UNAVAILABLE"]}},
 {"name": [{"service": "pay.Charges"}], "timeout": "2s"},
 {"name": [{"service": "pay.Charges", "method": "Create"}], "timeout": "1s"}]}`;
  assert.equal(ok('grpc', text, ['--method', 'pay.Charges/Create']).config.inputs.deadlineMs, 1000);
  assert.equal(ok('grpc', text, ['--method', 'pay.Charges/Refund']).config.inputs.deadlineMs, 2000);
  assert.equal(ok('grpc', text, ['--method', 'other.S/M']).config.selection.name, '(default)');
  const first = ok('grpc', text);
  assert.equal(first.config.selection.rule, 'first-with-retries');
  assert.equal(entry(first, 'methodConfig[1]', 'ignored').note, 'applies to pay.Charges (service)');
});

// ---- Envoy (§5) --------------------------------------------------------------------------------

// Envoy's retry-previous-hosts documentation example's settings (docs/config-in.md §5.5), in
// this file's own layout: a bootstrap, one route whose retry_policy has only the host
// predicate and host_selection_retry_max_attempts, a cluster without circuit breakers.
const envoyBootstrap = examples.envoy.text;

test("Envoy: the retry-previous-hosts example reads as §5.5's inputs; its opening run ends at the 15 s route timeout", () => {
  const a = ok('envoy', envoyBootstrap);
  holdsInvariant(a);
  assert.deepEqual(a.config.inputs, {
    maxRetries: 1, baseBackoffMs: 25, backoffMultiplier: 2, maxBackoffMs: 250, jitter: 'full', clientTimeoutMs: 86400000,
    deadlineMs: 15000, idempotencyKey: false, retryOn: [], retryWritesWithoutKey: true, honourRetryAfter: false,
    retryOnStatuses: [], attemptStart: 'before-deadline',
  });
  const route = 'static_resources.listeners[0].filter_chains[0].filters[0].typed_config.route_config.virtual_hosts[0].routes[0]';
  assert.equal(a.config.selection.path, route);
  assert.equal(a.config.selection.rule, 'only');
  assert.equal(entry(a, `${route}.route.retry_policy.retry_host_predicate[0]`, 'not-modelled').line, 22);
  assert.equal(entry(a, `${route}.route.retry_policy.host_selection_retry_max_attempts`, 'not-modelled').line, 23);
  assert.equal(entry(a, `${route}.route.retry_policy.num_retries`, 'defaulted').source, 1);
  assert.equal(entry(a, `${route}.route.timeout`, 'defaulted').source, '15s');
  assert.equal(entry(a, 'static_resources.clusters[0].circuit_breakers', 'not-modelled').source, 3);
  assert.ok(a.config.warnings.some((w) => /retry_on is empty/.test(w.message)));
  const m = a.result.metrics;
  assert.deepEqual([m.attempts, m.charges, m.outcome, m.elapsedMs, m.stopReason], [1, 1, 'unknown', 15000, 'not-retryable']);
});

function route(policy, action = 'timeout: 3s') {
  return `name: r\nmatch: {prefix: "/"}\nroute:\n  cluster: c\n  ${action}\n  retry_policy:\n${policy.split('\n').map((l) => `    ${l}`).join('\n')}\n`;
}

test('Envoy: a round trip for every field read, and its defaulted twin', () => {
  const cases = [
    [route('retry_on: gateway-error'), { retryOn: ['timeout'], retryOnStatuses: [502, 503, 504] }],
    [route('retry_on: 5xx, retriable-4xx'), { retryOn: ['timeout', '5xx'], retryOnStatuses: [409] }],
    [route('retry_on: reset'), { retryOn: ['timeout'], retryOnStatuses: [] }],
    [route('retry_on: retriable-status-codes\nretriable_status_codes: [500, 418, 700]'), { retryOn: [], retryOnStatuses: [418, 500] }],
    [route('retry_on: connect-failure'), { retryOn: [], retryOnStatuses: [] }],
    [route('retry_on: 5xx\nnum_retries: 250'), { maxRetries: 100 }],
    [route('retry_on: 5xx\nnum_retries: 0'), { maxRetries: 0 }],
    [route('retry_on: 5xx\nnumRetries: 2'), { maxRetries: 2 }],
    [route('retry_on: 5xx'), { maxRetries: 1, clientTimeoutMs: 86400000, baseBackoffMs: 25, maxBackoffMs: 250, honourRetryAfter: false }],
    [route('retry_on: 5xx\nper_try_timeout: 0.25s'), { clientTimeoutMs: 250 }],
    [route('retry_on: 5xx\nper_try_timeout: 0s'), { clientTimeoutMs: 86400000 }],
    [route('retry_on: 5xx\nretry_back_off: {base_interval: 0.1s}'), { baseBackoffMs: 100, maxBackoffMs: 1000 }],
    [route('retry_on: 5xx\nretry_back_off: {base_interval: 0.1s, max_interval: 0.3s}'), { baseBackoffMs: 100, maxBackoffMs: 300 }],
    // Below 1 ms: max(1, ⌊0.5⌋) = 1, and the default max 10 × 1.
    [route('retry_on: 5xx\nretry_back_off: {base_interval: 0.0005s}'), { baseBackoffMs: 1, maxBackoffMs: 10 }],
    [route('retry_on: 5xx\nrate_limited_retry_back_off: {reset_headers: [{name: retry-after}]}'), { honourRetryAfter: true, retryAfterMaxMs: 300000, retryAfterOverMax: 'backoff' }],
    [route('retry_on: 5xx\nrate_limited_retry_back_off: {reset_headers: [{name: Retry-After, format: SECONDS}], max_interval: 10s}'), { honourRetryAfter: true, retryAfterMaxMs: 10000 }],
    [route('retry_on: 5xx\nrate_limited_retry_back_off: {reset_headers: [{name: X-RateLimit-Reset, format: UNIX_TIMESTAMP}]}'), { honourRetryAfter: false }],
    [route('retry_on: 5xx', 'timeout: 0s'), { deadlineMs: null }],
    [route('retry_on: 5xx', 'timeout: 2.5s'), { deadlineMs: 2500 }],
    [route('retry_on: 5xx', 'prefix_rewrite: /x'), { deadlineMs: 15000 }],
  ];
  for (const [text, expected] of cases) {
    const a = ok('envoy', text);
    holdsInvariant(a);
    for (const [k, v] of Object.entries(expected)) assert.deepEqual(a.config.inputs[k], v, `${text}: ${k}`);
  }
  const clamped = ok('envoy', route('retry_on: 5xx\nnum_retries: 250'));
  assert.equal(entry(clamped, 'route.retry_policy.num_retries').status, 'clamped');
  assert.match(entry(clamped, 'route.retry_policy.num_retries').note, /250/);
  const notModelled = ok('envoy', route('retry_on: 5xx,connect-failure\nper_try_idle_timeout: 1s\nretriable_request_headers: [{name: x}]', 'idle_timeout: 5s'));
  assert.deepEqual(entries(notModelled, 'route.retry_policy.retry_on').map((e) => [e.status, e.source]), [['read', '5xx,connect-failure'], ['not-modelled', 'connect-failure']]);
  assert.equal(entry(notModelled, 'route.retry_policy.per_try_idle_timeout', 'not-modelled').line, 8);
  assert.equal(entry(notModelled, 'route.retry_policy.retriable_request_headers[0]', 'not-modelled').line, 9);
  assert.equal(entry(notModelled, 'route.idle_timeout', 'not-modelled').line, 5);
  const warned = ok('envoy', route('retry_on: 5xx\nper_try_timeout: 4s'));
  assert.ok(warned.config.warnings.some((w) => /per_try_timeout ≥ route timeout/.test(w.message)));
});

test('Envoy: a route without a policy takes its virtual host\'s whole, and with neither retries nothing', () => {
  const config = `virtual_hosts:
- name: vh
  retry_policy: {retry_on: 5xx, num_retries: 2}
  routes:
  - name: a
    match: {prefix: /a}
    redirect: {path_redirect: /b}
  - name: b
    match: {prefix: /b}
    route: {cluster: c}
`;
  const a = ok('envoy', config);
  assert.equal(a.config.selection.name, 'b');
  assert.equal(a.config.inputs.maxRetries, 2);
  const none = ok('envoy', 'match: {prefix: /}\nroute: {cluster: c}\n');
  assert.equal(none.config.inputs.maxRetries, 0);
  assert.equal(entry(none, 'route.retry_policy', 'defaulted').source, 'none');
  const two = `virtual_hosts:
- name: vh
  routes:
  - {name: plain, match: {prefix: /a}, route: {cluster: c}}
  - {name: retried, match: {prefix: /b}, route: {cluster: c, retry_policy: {retry_on: 5xx, num_retries: 4}}}
`;
  const picked = ok('envoy', two);
  assert.deepEqual([picked.config.selection.name, picked.config.selection.rule, picked.config.inputs.maxRetries], ['retried', 'first-with-retries', 4]);
  assert.equal(ok('envoy', two, ['--route', 'plain']).config.inputs.maxRetries, 0);
  assert.equal(ok('envoy', two, ['--route', '0/1']).config.selection.name, 'retried');
  const nothing = read('envoy', two, ['--route', 'nope']).answer.errors[0];
  assert.equal(nothing.code, 'no-match');
  assert.match(nothing.message, /plain, retried/);
});

test('Envoy: every error names its path and line', () => {
  const e = refusedWith('envoy', route('retry_on: 5xx\nnum_retires: 3'), 'unknown-field', 'route.retry_policy.num_retires', 8);
  assert.match(e.message, /did you mean num_retries\?/);
  // Three edits away (y → i, then e and s): no guess.
  const far = refusedWith('envoy', route('retry_on: 5xx\nnum_retry: 3'), 'unknown-field', 'route.retry_policy.num_retry', 8);
  assert.doesNotMatch(far.message, /did you mean/);
  const c = refusedWith('envoy', route('retry_on: 5xxx'), 'not-a-choice', 'route.retry_policy.retry_on', 7);
  assert.match(c.message, /did you mean 5xx\?/);
  refusedWith('envoy', route('retry_on: 5xx\nper_try_timeout: 500ms'), 'bad-duration', 'route.retry_policy.per_try_timeout', 8);
  refusedWith('envoy', route('retry_on: 5xx\nnum_retries: "3"'), 'wrong-type', 'route.retry_policy.num_retries', 8);
  refusedWith('envoy', route('retry_on: 5xx\nnum_retries: -1'), 'out-of-range', 'route.retry_policy.num_retries', 8);
  refusedWith('envoy', route('retry_on: 5xx\nnum_retries: 2\nnumRetries: 2'), 'duplicate-key', 'route.retry_policy.numRetries', 9);
  refusedWith('envoy', route('retry_on: 5xx\nretry_back_off: {base_interval: 1s, max_interval: 0.5s}'), 'out-of-range', 'route.retry_policy.retry_back_off.max_interval', 8);
  refusedWith('envoy', route('retry_on: 5xx\nretry_back_off: {max_interval: 0.5s}'), 'missing', 'route.retry_policy.retry_back_off.base_interval', 8);
  refusedWith('envoy', route('retry_on: 5xx', 'timeout: 1.5'), 'wrong-type', 'route.timeout', 5);
  // The route action's other keys are not retry settings: one ignored entry lists them (§5.3).
  const other = ok('envoy', route('retry_on: 5xx', 'timeout: 1s\n  retry_policy_x: 1'));
  assert.match(entry(other, 'route', 'ignored').note, /cluster, retry_policy_x/);
  assert.equal(read('envoy', grpcExample).answer.errors[0].code, 'not-the-format');
});

// ---- Istio (§6) --------------------------------------------------------------------------------

// istio/api's HTTPRetry reference example (ratings-route, docs/config-in.md §6.4), in this
// file's own layout.
const istioExample = examples.istio.text;

test("Istio: the HTTPRetry example reads as §6.4's inputs, and with a 0.4 draw succeeds on the second attempt at 2,210 ms", () => {
  const a = ok('istio', istioExample, ['--run', file('istio-run.json', '{"draws": [0.4]}')]);
  holdsInvariant(a);
  // draws is the situation's (--run); the rest as §6.4.
  assert.deepEqual(a.config.inputs, {
    maxRetries: 3, baseBackoffMs: 25, backoffMultiplier: 2, maxBackoffMs: 250, jitter: 'full', clientTimeoutMs: 2000,
    deadlineMs: null, draws: [0.4], idempotencyKey: false, retryOn: ['timeout'], retryWritesWithoutKey: true,
    honourRetryAfter: false, retryOnStatuses: [502, 503, 504], attemptStart: 'before-deadline',
  });
  for (const [key, line] of [['attempts', 14], ['perTryTimeout', 15], ['retryOn', 16]])
    assert.equal(entry(a, `spec.http[0].retries.${key}`, 'read').line, line, key);
  assert.deepEqual(entries(a, 'spec.http[0].retries.retryOn').filter((e) => e.status === 'not-modelled').map((e) => e.source), ['connect-failure', 'refused-stream']);
  assert.equal(entry(a, 'spec.http[0].retries.retryIgnorePreviousHosts', 'not-modelled').source, true);
  assert.equal(entry(a, 'spec.http[0].timeout', 'defaulted').source, 'none');
  for (const p of ['metadata', 'spec.hosts', 'spec.http[0].route']) entry(a, p, 'ignored');
  // By hand (§6.4): attempt 1 0–2,000 (charge #1 at 200, the response lost); wait 25 × 0.4 = 10;
  // attempt 2 at 2,010, its 200 at 2,210.
  const m = a.result.metrics;
  assert.deepEqual([m.outcome, m.attempts, m.charges, m.duplicates, m.elapsedMs, m.waitingMs], ['success', 2, 2, 1, 2210, 10]);
});

function vs(retries, timeout = '') {
  return `apiVersion: networking.istio.io/v1beta1\nkind: VirtualService\nmetadata: {name: x}\nspec:\n  http:\n  - name: r\n${timeout ? `    timeout: ${timeout}\n` : ''}${retries === null ? '' : `    retries:\n${retries.split('\n').map((l) => `      ${l}`).join('\n')}\n`}`;
}

test("Istio: without retries, Istio's default policy, which retries nothing the engine can send", () => {
  const a = ok('istio', vs(null));
  holdsInvariant(a);
  assert.deepEqual([a.config.inputs.maxRetries, a.config.inputs.retryOn, a.config.inputs.retryOnStatuses, a.config.inputs.deadlineMs], [2, [], [], null]);
  assert.ok(a.config.warnings.some((w) => /defaultHttpRetryPolicy/.test(w.message)));
  assert.ok(a.config.warnings.some((w) => /the run retries nothing/.test(w.message)));
  assert.deepEqual(entries(a, 'spec.http[0].retries').filter((e) => e.status === 'not-modelled').map((e) => e.source).slice(0, 4),
    ['connect-failure', 'refused-stream', 'unavailable', 'cancelled']);
  const m = a.result.metrics;
  assert.deepEqual([m.attempts, m.elapsedMs, m.stopReason], [1, 86400000, 'not-retryable']);
  // --istio-default 1.25-503: the 503 of a mesh that set EXCLUDE_UNSAFE_503_FROM_DEFAULT_RETRY=false.
  const old = ok('istio', vs(null), ['--istio-default', '1.25-503']);
  holdsInvariant(old);
  assert.deepEqual(old.config.inputs.retryOnStatuses, [503]);
  assert.equal(read('istio', vs(null), ['--istio-default', '1.24']).answer.errors[0].code, 'not-a-choice');
  assert.equal(read('envoy', route('retry_on: 5xx'), ['--istio-default', '1.25-503']).answer.errors[0].code, 'conflict');
});

test('--document N reads that document of a YAML stream; without it, the first a rule accepts', () => {
  const stream = `${route('retry_on: 5xx\nnum_retries: 2')}---\n${route('retry_on: 5xx\nnum_retries: 4')}`;
  assert.equal(ok('auto', stream).config.inputs.maxRetries, 2);
  const second = ok('auto', stream, ['--document', '2']);
  assert.equal(second.config.inputs.maxRetries, 4);
  assert.equal(second.config.report.find((e) => e.status === 'ignored' && e.rule === 'document 1').note, 'another document of the stream, not read');
  assert.equal(read('auto', stream, ['--document', '3']).answer.errors[0].code, 'no-match');
});

test('Istio: a round trip for every field read, Go durations, and every error with its path and line', () => {
  const cases = [
    [vs('attempts: 2\nretryOn: 5xx,503'), { maxRetries: 2, retryOn: ['timeout', '5xx'], retryOnStatuses: [503] }],
    [vs('attempts: 2\nretryOn: "425"'), { retryOn: [], retryOnStatuses: [425] }],
    [vs('attempts: 2\nretryOn: retriable-4xx'), { retryOnStatuses: [409] }],
    [vs('attempts: 250\nretryOn: 5xx'), { maxRetries: 100 }],
    [vs('retryIgnorePreviousHosts: false'), { maxRetries: 0, retryOn: [], clientTimeoutMs: 86400000 }],
    [vs('attempts: 1\nbackoff: 100ms'), { baseBackoffMs: 100, maxBackoffMs: 1000 }],
    [vs('attempts: 1\nperTryTimeout: .5s'), { clientTimeoutMs: 500 }],
    [vs('attempts: 1', '1h30m'), { deadlineMs: 5400000 }],
    [vs('attempts: 1', '1.5s'), { deadlineMs: 1500 }],
    [vs('attempts: 1', '2500000us'), { deadlineMs: 2500 }],
    // Go reads "1." as 1 (a digit before the point is enough), then ".5s": 1.5 s.
    [vs('attempts: 1', '1.s.5s'), { deadlineMs: 1500 }],
    [vs('attempts: 1', '1µs1ms'), null],
  ];
  for (const [text, expected] of cases) {
    if (!expected) continue;
    const a = ok('istio', text);
    holdsInvariant(a);
    for (const [k, v] of Object.entries(expected)) assert.deepEqual(a.config.inputs[k], v, `${text}: ${k}`);
  }
  // The last: 1 µs + 1 ms is not a whole number of ms (Istio's validation).
  refusedWith('istio', vs('attempts: 1', '1µs1ms'), 'out-of-range', 'spec.http[0].timeout', 7);
  refusedWith('istio', vs('attempts: 1', '0.5ms'), 'out-of-range', 'spec.http[0].timeout', 7);
  refusedWith('istio', vs('attempts: 1', '0s'), 'out-of-range', 'spec.http[0].timeout', 7);
  for (const bad of ['"2"', '1sec', '""', '"1.5"', 'h', '.s']) refusedWith('istio', vs('attempts: 1', bad), 'bad-duration', 'spec.http[0].timeout', 7);
  refusedWith('istio', vs('attempts: 1', '-1s'), 'out-of-range', 'spec.http[0].timeout', 7);
  refusedWith('istio', vs('attempts: 1', '9999999999h'), 'out-of-range', 'spec.http[0].timeout', 7);
  const spaced = refusedWith('istio', vs('attempts: 1\nretryOn: "5xx, reset"'), 'not-a-choice', 'spec.http[0].retries.retryOn', 9);
  assert.match(spaced.message, /" reset"/);
  refusedWith('istio', vs('attempts: 1\nretryOn: "999"'), 'not-a-choice', 'spec.http[0].retries.retryOn', 9);
  refusedWith('istio', vs('attempts: 0\nretryOn: 5xx'), 'conflict', 'spec.http[0].retries.retryOn', 9);
  refusedWith('istio', vs('attempts: -1'), 'out-of-range', 'spec.http[0].retries.attempts', 8);
  const typo = refusedWith('istio', vs('attempts: 1\nperTryTimout: 1s'), 'unknown-field', 'spec.http[0].retries.perTryTimout', 9);
  assert.match(typo.message, /did you mean perTryTimeout\?/);
  const yes = refusedWith('istio', vs('attempts: 1\nretryRemoteLocalities: yes'), 'wrong-type', 'spec.http[0].retries.retryRemoteLocalities', 9);
  assert.match(yes.message, /YAML 1\.2 reads yes as text/);
  assert.equal(read('istio', route('retry_on: 5xx')).answer.errors[0].code, 'not-the-format');
});

// ---- Linkerd (§7) ------------------------------------------------------------------------------

// The books app's authors profile with its HEAD route made retryable (linkerd/website's
// "Retries" task, docs/config-in.md §7.3), in this file's own layout.
const linkerdExample = examples.linkerd.text;

test("Linkerd: the books app's retryable route reads as §7.3's inputs and budget; an outage of two 503s succeeds on the third attempt at 600 ms", () => {
  const a = ok('linkerd', linkerdExample, ['--run', file('linkerd-run.json', '{"scenario": "outage-503-twice", "operation": "read"}')]);
  holdsInvariant(a);
  assert.deepEqual(a.config.inputs, {
    maxRetries: 100, baseBackoffMs: 0, jitter: 'none', retryOn: ['5xx'], retryOnStatuses: [], clientTimeoutMs: 86400000,
    deadlineMs: null, honourRetryAfter: false, retryWritesWithoutKey: true, attemptStart: 'before-deadline', idempotencyKey: false,
    scenario: 'outage-503-twice', operation: 'read',
  });
  assert.deepEqual(a.config.fleet.gates, { budget: { scope: 'client', percent: 20, minPerSecond: 10, ttlMs: 10000 } });
  assert.equal(a.config.fleet.policy.maxRetries, 100);
  // X = 100 × 0.2 + 10 × 10,000 / 10 = 10,020: ⌈100.2⌉ = 101, clamped to 100.
  const flag = entry(a, 'spec.routes[0].isRetryable');
  assert.deepEqual([flag.status, flag.line], ['clamped', 12]);
  assert.equal(entry(a, 'spec.retryBudget', 'defaulted').source, 'retryRatio 0.2, minRetriesPerSecond 10, ttl 10s');
  entry(a, 'spec.routes[0].condition', 'ignored');
  entry(a, 'metadata', 'ignored');
  // By hand (§7.3): 503 at 200, wait 0, 503 at 400, wait 0, 200 at 600; a read charges nothing.
  const m = a.result.metrics;
  assert.deepEqual([m.outcome, m.attempts, m.charges, m.elapsedMs, m.waitingMs], ['success', 3, 0, 600, 0]);
});

function profile(route, budget = '') {
  return `apiVersion: linkerd.io/v1alpha2\nkind: ServiceProfile\nmetadata: {name: x}\nspec:\n${budget ? `  retryBudget: ${budget}\n` : ''}  routes:\n  - name: r\n    condition: {method: GET}\n${route.split('\n').map((l) => `    ${l}`).join('\n')}\n`;
}
const range = (lo, hi) => Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);

test('Linkerd: the budget, the timeout and the response classes, field by field', () => {
  const cases = [
    [profile('isRetryable: true', '{retryRatio: 0.5, minRetriesPerSecond: 1, ttl: 5s}'), { maxRetries: 6 }, { percent: 50, minPerSecond: 1, ttlMs: 5000 }],
    [profile('isRetryable: true', '{retryRatio: 0, minRetriesPerSecond: 0, ttl: 10s}'), { maxRetries: 0 }, { percent: 0, minPerSecond: 0, ttlMs: 10000 }],
    [profile('isRetryable: true', '{retryRatio: 0.2, minRetriesPerSecond: 10, ttl: 90s}'), { maxRetries: 0 }, null],
    [profile('isRetryable: true', '{retryRatio: 2000, minRetriesPerSecond: 10, ttl: 10s}'), { maxRetries: 0 }, { percent: 100 }],
    [profile('isRetryable: false'), { maxRetries: 0 }, null],
    [profile('isRetryable: true\ntimeout: 250ms'), { deadlineMs: 250 }, null],
    [profile('isRetryable: true\nresponseClasses: [{condition: {status: {min: 500, max: 504}}, isFailure: true}]'), { retryOn: ['5xx'], retryOnStatuses: [] }, null],
    [profile('isRetryable: true\nresponseClasses: [{condition: {status: {min: 500, max: 500}}, isFailure: false}]'), { retryOn: [], retryOnStatuses: range(501, 599) }, null],
    [profile('isRetryable: true\nresponseClasses: [{condition: {status: {min: 429, max: 429}}, isFailure: true}]'), { retryOn: [], retryOnStatuses: [429, ...range(500, 599)] }, null],
    [profile('isRetryable: true\nresponseClasses: [{condition: {not: {status: {min: 200, max: 299}}}, isFailure: true}]'), { retryOnStatuses: [...range(100, 199), ...range(300, 599)] }, null],
    [profile('isRetryable: true\nresponseClasses: [{condition: {all: [{status: {min: 400, max: 499}}, {not: {status: {min: 404, max: 404}}}]}, isFailure: true}]'),
      { retryOnStatuses: [...range(400, 403), ...range(405, 599)] }, null],
    [profile('isRetryable: true\nresponseClasses: [{condition: {any: [{status: {min: 502, max: 502}}, {status: {min: 503, max: 503}}]}, isFailure: false}]'),
      { retryOnStatuses: [500, 501, ...range(504, 599)] }, null],
  ];
  for (const [text, inputs, gate] of cases) {
    const a = ok('linkerd', text);
    holdsInvariant(a);
    for (const [k, v] of Object.entries(inputs)) assert.deepEqual(a.config.inputs[k], v, `${text}: ${k}`);
    for (const [k, v] of Object.entries(gate || {})) assert.deepEqual(a.config.fleet.gates.budget[k], v, `${text}: budget ${k}`);
  }
  assert.ok(ok('linkerd', profile('isRetryable: true', '{retryRatio: 0.2, minRetriesPerSecond: 10, ttl: 90s}')).config.warnings
    .some((w) => /ttl 90s: the proxy ignores a retry budget/.test(w.message)));
  const dropped = ok('linkerd', profile('isRetryable: true\nresponseClasses: [{condition: {status: {min: 500}}, isFailure: false}]'));
  assert.deepEqual(dropped.config.inputs.retryOn, ['5xx'], 'a class without max is dropped, as the proxy drops it');
  assert.ok(dropped.config.warnings.some((w) => /the proxy ignores this response class/.test(w.message)));
  const none = ok('linkerd', 'apiVersion: linkerd.io/v1alpha2\nkind: ServiceProfile\nspec: {}\n');
  assert.deepEqual([none.config.selection.rule, none.config.inputs.maxRetries], ['none', 0]);
});

test('Linkerd: every error names its path and line', () => {
  const typo = refusedWith('linkerd', profile('isRetriable: true'), 'unknown-field', 'spec.routes[0].isRetriable', 8);
  assert.match(typo.message, /did you mean isRetryable\?/);
  refusedWith('linkerd', profile('isRetryable: true', '{retryRatio: 0.2, minRetriesPerSecond: 10}'), 'missing', 'spec.retryBudget.ttl', 5);
  refusedWith('linkerd', profile('isRetryable: true', '{retryRatio: 0.2, minRetriesPerSecond: 10, ttl: "10"}'), 'bad-duration', 'spec.retryBudget.ttl', 5);
  refusedWith('linkerd', profile('isRetryable: true\nresponseClasses: [{condition: {status: {min: 700, max: 800}}, isFailure: true}]'), 'out-of-range',
    'spec.routes[0].responseClasses[0].condition.status', 9);
  refusedWith('linkerd', profile('isRetryable: "true"'), 'wrong-type', 'spec.routes[0].isRetryable', 8);
  assert.equal(read('linkerd', istioExample).answer.errors[0].code, 'not-the-format');
});

// ---- The text (§2.1, §11) ----------------------------------------------------------------------

test('YAML and JSON: refusals of the text name the line and print nothing on stdout', () => {
  let run = textRefused('envoy', 'match: {prefix: /}\nroute:\n  cluster: a\n  cluster: b\n', 'duplicate-key');
  assert.match(run.stderr, /again at line 4/);
  run = textRefused('grpc', '{"methodConfig": [], "methodConfig": []}', 'duplicate-key');
  assert.match(run.stderr, /line 1/);
  run = textRefused('auto', 'a: [1\nb: 2\n', 'unreadable');
  assert.match(run.stderr, /malformed YAML at line \d+, column \d+/);
  run = textRefused('auto', '{"a": }', 'unreadable');
  assert.match(run.stderr, /malformed JSON at line 1, column 7/);
  textRefused('auto', 'a: !!str 3\n', 'yaml-unsupported');
  textRefused('auto', 'a: 1\n<<: {b: 2}\n', 'yaml-unsupported');
  textRefused('auto', '? [a]\n: 1\n', 'yaml-unsupported');
  textRefused('auto', '%YAML 1.3\n---\na: 1\n', 'yaml-unsupported');
  run = textRefused('auto', 'a: 1\u0000\n', 'unreadable');
  assert.match(run.stderr, /NUL byte at line 1, column 5/);
});

test('YAML: the core schema, not YAML 1.1 (yes is text, 010 a number, 0x10 sixteen)', () => {
  const yes = refusedWith('envoy', route('retry_on: 5xx\nnum_retries: yes'), 'wrong-type', 'route.retry_policy.num_retries', 8);
  assert.match(yes.message, /the string "yes"/);
  assert.equal(ok('envoy', route('retry_on: 5xx\nnum_retries: 0x10')).config.inputs.maxRetries, 16);
  assert.equal(ok('envoy', route('retry_on: 5xx\nnum_retries: 0o10')).config.inputs.maxRetries, 8);
  assert.equal(ok('envoy', route('retry_on: 5xx\nnum_retries: 010')).config.inputs.maxRetries, 10);
  refusedWith('envoy', route('retry_on: 5xx\nnum_retries: .inf'), 'wrong-type', 'route.retry_policy.num_retries', 8);
  refusedWith('envoy', route("retry_on: 5xx\nnum_retries: '3'"), 'wrong-type', 'route.retry_policy.num_retries', 8);
});

test('hostile YAML is refused within the limits, in bounded time', () => {
  const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
  for (let i = 1; i < 10; i++) bomb.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)}]`);
  let started = Date.now();
  textRefused('auto', `${bomb.join('\n')}\n`, 'yaml-unsupported');
  assert.ok(Date.now() - started < 2000);
  const nest = (n) => `${'['.repeat(n)}${']'.repeat(n)}`;
  const deep = (n) => Array.from({ length: n }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n') + ` 1\n`;
  textRefused('auto', `a: ${nest(64)}\n`, 'too-deep');
  const at64 = read('auto', deep(64)).run;
  assert.doesNotMatch(at64.stderr, /too-deep/, '64 levels are read');
  textRefused('auto', deep(65), 'too-deep');
  started = Date.now();
  textRefused('auto', 'a: b\n'.repeat(2 * 1024 * 1024 / 5), 'too-large');
  assert.ok(Date.now() - started < 2000);
  started = Date.now();
  const docs = read('auto', '---\na: 1\n'.repeat(10000)).run;
  assert.equal(docs.status, 2);
  assert.match(docs.stdout, /unknown-format/);
  assert.ok(Date.now() - started < 2000);
  textRefused('auto', `a: "${'x'.repeat(65537)}"\n`, 'too-long');
  // An explicit key: libyaml refuses a simple key over 1,024 characters itself (unreadable).
  textRefused('auto', `? ${'k'.repeat(1025)}\n: 1\n`, 'too-long');
  assert.doesNotMatch(read('auto', `? ${'k'.repeat(1024)}\n: 1\n`).run.stderr, /too-long/);
});

// ---- Detection (§3) ----------------------------------------------------------------------------

test('--from auto: each rule of §3, in its order, and what it says it chose', () => {
  const chosen = [
    ['{"Logging": {}, "Payments": {"Retry": {"MaxRetryAttempts": 2}}}', 'dotnet', 'dotnet-appsettings'],
    ['[default]\nretry_mode = standard\n', 'aws', 'aws-shared-config'],
    // Rule 4 before rule 5: a gRPC config holding a member named Retry is gRPC's.
    ['{"methodConfig": [], "x": {"Retry": {}}}', 'grpc', 'grpc-service-config'],
    [envoyBootstrap, 'envoy', 'envoy-bootstrap'],
    ['virtual_hosts: [{name: v, routes: [{match: {prefix: /}, route: {cluster: c}}]}]\n', 'envoy', 'envoy-route-config'],
    [route('retry_on: 5xx'), 'envoy', 'envoy-route'],
    [grpcExample, 'grpc', 'grpc-service-config'],
    [istioExample, 'istio', 'istio-virtual-service'],
    [linkerdExample, 'linkerd', 'linkerd-service-profile'],
    ['{"retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1}}', 'grpc', 'grpc-service-config'],
    // Rule 3 before rule 4: a file with both shapes is an Envoy route.
    ['{"match": {"prefix": "/"}, "route": {"cluster": "c"}, "methodConfig": []}', 'envoy', 'envoy-route'],
    // A stream: the first document some rule accepts.
    [`apiVersion: v1\nkind: Service\n---\n${route('retry_on: 5xx')}`, 'envoy', 'envoy-route'],
  ];
  for (const [text, format, rule] of chosen) {
    const { run, answer } = read('auto', text);
    assert.equal(run.status, 0, run.stdout.slice(0, 500));
    assert.deepEqual([answer.config.format, answer.config.detected.rule], [format, rule]);
    assert.match(run.stderr, new RegExp(`--from auto chose ${format} \\(${rule}\\)`));
  }
  const service = read('auto', 'apiVersion: v1\nkind: Service\nmetadata: {name: x}\n').answer;
  assert.equal(service.errors[0].code, 'unknown-format');
  assert.match(service.errors[0].message, /Kubernetes Service, not a VirtualService or ServiceProfile/);
  assert.equal(read('auto', '{"foo": 1}').answer.errors[0].code, 'unknown-format');
  assert.equal(read('toml', '{"foo": 1}').answer.errors[0].code, 'unknown-format');
});

// ---- The comparison (§10.4) --------------------------------------------------------------------

const routeOld = `name: charge
match:
  prefix: "/v1/charges"
route:
  cluster: payments
  timeout: 3s
  retry_policy:
    retry_on: 5xx
    num_retries: 1
    per_try_timeout: 0.5s
`;
const routeNew = routeOld.replace('num_retries: 1', 'num_retries: 3');
const situation = '{ "scenario": "script", "script": [ { "status": 200 } ], "responseMs": 800, "draws": [0.4, 0.8, 0.5] }\n';

// docs/config-in.md §10.4, line by line (the figures worked by hand there).
const comment = [
  '**Retry Lab, before → after:** Envoy route `charge`: `route.retry_policy.num_retries` 1 → 3',
  '',
  '| config field | line | before | after | engine input |',
  '|---|---:|---|---|---|',
  '| `route.retry_policy.num_retries` | 9 | 1 | 3 | `maxRetries` 1 → 3 |',
  '',
  '| input | before | after |',
  '|---|---|---|',
  '| `maxRetries` | 1 | 3 |',
  '',
  '| metric | before | after | change |',
  '|---|---:|---:|---|',
  '| **charges** | 2 | 4 | +2, **side effect changes** |',
  '| **duplicate charges** | 1 | 3 | +2, **side effect changes** |',
  '| attempts | 2 | 4 | +2 |',
  '| elapsed | 1,010 ms | 2,100 ms | +1,090 ms |',
  '| waiting | 10 ms | 100 ms | +90 ms |',
  '',
  'Unchanged: outcome, replays, stop reason, agent report, lookup needed, refused wait.',
  '',
  'Situation (--run run.json): `scenario` script, `script` \\[{"status":200}\\], `responseMs` 800, `draws` \\[0.4, 0.8, 0.5\\]; the rest as the opening run.',
  '',
  'Read: `route.timeout` 3s → `deadlineMs` 3,000; `route.retry_policy.retry_on` 5xx → `retryOn` timeout, 5xx; `route.retry_policy.per_try_timeout` 0.5s → `clientTimeoutMs` 500',
  'Defaulted: `route.retry_policy.retry_back_off` → `baseBackoffMs` 25, `maxBackoffMs` 250; `route.retry_policy.rate_limited_retry_back_off` → `honourRetryAfter` false',
  'Not modelled: none',
  'Approximated: the back-off: Envoy waits a whole number of ms in \\[0, interval − 1\\], the run a real number in \\[0, interval)',
  'Warnings: none',
];

test('§10.4: Envoy num_retries 1 → 3 behind a 0.5 s per-try timeout, the comment line by line', () => {
  const work = fs.mkdtempSync(path.join(dir, 'compare-'));
  fs.writeFileSync(path.join(work, 'route-old.yaml'), routeOld);
  fs.writeFileSync(path.join(work, 'route-new.yaml'), routeNew);
  fs.writeFileSync(path.join(work, 'run.json'), situation);
  const run = spawnSync(retrysimPath, ['--compare', '--from', 'auto', '--run', 'run.json', 'route-old.yaml', 'route-new.yaml', '--format', 'markdown'],
    { cwd: work, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const lines = run.stdout.replace(/\n$/, '').split('\n');
  for (let i = 0; i < Math.max(lines.length, comment.length); i++) assert.equal(lines[i], comment[i], `line ${i + 1}`);
  // The JSON form: config.changed names the one field and the one input it moved.
  const json = spawnSync(retrysimPath, ['--compare', '--from', 'envoy', '--run', 'run.json', 'route-old.yaml', 'route-new.yaml'], { cwd: work, encoding: 'utf8' });
  const c = JSON.parse(json.stdout).config;
  assert.deepEqual(c.changed, [{ path: 'route.retry_policy.num_retries', lineBefore: 9, lineAfter: 9, before: 1, after: 3,
    inputs: [{ name: 'maxRetries', before: 1, after: 3 }] }]);
  // With --base-url, the last line links to the comparison: the link retrysim --compare writes for the inputs.
  const linked = spawnSync(retrysimPath, ['--compare', '--from', 'envoy', '--run', 'run.json', 'route-old.yaml', 'route-new.yaml', '--format', 'markdown',
    '--base-url', 'https://retrylab.example/'], { cwd: work, encoding: 'utf8' });
  const last = linked.stdout.trim().split('\n').pop();
  assert.match(last, /^\[Open the comparison in Retry Lab\]\(https:\/\/retrylab\.example\/index\.html#/);
  // An error on either side fails the whole command; the after side's paths are prefixed.
  fs.writeFileSync(path.join(work, 'route-bad.yaml'), routeOld.replace('num_retries: 1', 'num_retry: 3'));
  const bad = spawnSync(retrysimPath, ['--compare', '--from', 'envoy', 'route-old.yaml', 'route-bad.yaml', '--format', 'markdown'], { cwd: work, encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.equal(JSON.parse(bad.stdout).errors[0].field, 'after.route.retry_policy.num_retry');
});

test('scripts/config-diff prints the comment for two commits of a file in a repository it builds', () => {
  const git = (cwd, ...args) => {
    const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
    assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const work = fs.mkdtempSync(path.join(dir, 'repo-'));
  git(work, 'init', '-q', '-b', 'main');
  git(work, 'config', 'user.email', 'test@example.invalid');
  git(work, 'config', 'user.name', 'test');
  fs.mkdirSync(path.join(work, 'deploy'));
  fs.writeFileSync(path.join(work, 'deploy', 'route.yaml'), routeOld);
  git(work, 'add', '.');
  git(work, 'commit', '-qm', 'one retry');
  fs.writeFileSync(path.join(work, 'deploy', 'route.yaml'), routeNew);
  git(work, 'commit', '-qam', 'three retries');
  fs.writeFileSync(path.join(work, 'run.json'), situation);
  const script = path.join(repo, 'scripts', 'config-diff');
  const env = { ...process.env, RETRYSIM: retrysimPath };
  const run = spawnSync(script, ['--run', 'run.json', 'deploy/route.yaml'], { cwd: work, encoding: 'utf8', env });
  assert.equal(run.status, 0, run.stderr);
  const lines = run.stdout.replace(/\n$/, '').split('\n');
  for (let i = 0; i < Math.max(lines.length, comment.length); i++) assert.equal(lines[i], comment[i], `line ${i + 1}`);
  // Explicit commits, and a file new at BASE.
  const explicit = spawnSync(script, ['--from', 'envoy', '--run', 'run.json', 'deploy/route.yaml', 'HEAD~1', 'HEAD'], { cwd: work, encoding: 'utf8', env });
  assert.equal(explicit.stdout, run.stdout);
  fs.writeFileSync(path.join(work, 'deploy', 'other.yaml'), routeOld);
  git(work, 'add', '.');
  git(work, 'commit', '-qm', 'another');
  const fresh = spawnSync(script, ['deploy/other.yaml'], { cwd: work, encoding: 'utf8', env });
  assert.equal(fresh.status, 0);
  assert.equal(fresh.stdout, 'deploy/other.yaml is new in HEAD: nothing to compare\n');
});

test('--check prints the reading without a run; --fleet runs the fleet request', () => {
  const p = file('check.json', grpcExample);
  const check = JSON.parse(from(['--from', 'grpc', '--check', p]).stdout);
  assert.equal(check.ok, true);
  assert.ok(!('result' in check));
  const fleet = from(['--from', 'grpc', '--fleet', p]);
  assert.equal(fleet.status, 0, fleet.stderr);
  assert.equal(JSON.parse(fleet.stdout).result.ok, true);
  assert.equal(from(['--from', 'grpc', '--route', 'x', p]).status, 2);
});

test("third_party/libyaml holds Debian's libyaml 0.2.5 files unchanged, with its licence", () => {
  const crypto = require('node:crypto');
  const root = path.join(repo, 'third_party', 'libyaml');
  const sums = fs.readFileSync(path.join(root, 'SHA256SUMS'), 'utf8').trim().split('\n');
  assert.ok(sums.length >= 11);
  for (const line of sums) {
    const [sum, name] = line.split(/\s+/);
    const actual = crypto.createHash('sha256').update(fs.readFileSync(path.join(root, name))).digest('hex');
    assert.equal(actual, sum, name);
  }
  assert.ok(sums.some((l) => l.endsWith(' License')));
  // The tarball's checksum in the README is the one the source package's .dsc lists.
  const dsc = fs.readFileSync(path.join(root, 'libyaml_0.2.5-1.dsc'), 'utf8');
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const tarball = dsc.match(/^ ([0-9a-f]{64}) 85055 libyaml_0\.2\.5\.orig\.tar\.gz$/m)[1];
  assert.ok(readme.includes(`${tarball}  libyaml_0.2.5.orig.tar.gz`));
});
