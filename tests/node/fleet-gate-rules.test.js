// docs/engine.md §7.1 (issue 38): the gate rules beyond FLEET.md §5 through both bindings. Each
// worked figure, as worked there by hand, through the fleet engine file's fleet() and through
// `retrysim --fleet`, the two results equal; the new fields echoed only when given and not the
// default; and the fleet presets that set them (gRPC A6, aws-sdk-go-v2, Brooker's post) run.
'use strict';

const assert = require('node:assert/strict');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { test, before } = require('node:test');

const { repo, loadFleetEngine, fleetInBothBindings } = require('./support.js');

let fleetEngine;
before(async () => {
  fleetEngine = await loadFleetEngine();
});

const bothBindings = (request) => fleetInBothBindings(fleetEngine, request);

// §7.1's figures: clients at once, one worker, no queue, no trigger.
const figure = (clients, more) => ({
  clients, arrivals: 'once', trigger: null, ...more,
  server: { workers: 1, queueLimit: 0, ...(more.server || {}) },
});

const summary = (r) => ({
  succeeded: r.totals.succeeded,
  attempts: r.totals.attempts,
  failed: Object.fromEntries(Object.entries(r.totals.failed).filter(([, n]) => n > 0)),
  endMs: r.totals.endMs,
  tokens: r.timeline.bins[r.timeline.bins.length - 1].tokens,
});

test('figure 1, the throttle: all failures leave 2 tokens and refuse at 120; retryable ones leave 3', () => {
  const run = (countFailures) => bothBindings(figure(2, {
    server: { serviceMs: 200 },
    policy: { clientTimeoutMs: 30, retryOn: ['5xx'] },
    gates: { throttle: { scope: 'fleet', maxTokens: 5, ...(countFailures ? { countFailures } : {}) } },
  }));
  assert.deepEqual(summary(run(null)), { succeeded: 0, attempts: 3, failed: { 'not-retryable': 1, 'gate-throttle': 1 }, endMs: 210, tokens: 2 });
  assert.deepEqual(summary(run('all')), summary(run(null)));
  assert.deepEqual(summary(run('retryable')), { succeeded: 0, attempts: 4, failed: { 'not-retryable': 2 }, endMs: 530, tokens: 3 });
});

test('figure 2, the quota: a retried success leaves 6 (its cost back) or 7 (its cost and the increment)', () => {
  const run = (refund) => bothBindings(figure(3, { gates: { quota: { scope: 'fleet', capacity: 10, refund } } }));
  const expected = { succeeded: 2, attempts: 5, failed: { 'gate-quota': 1 }, endMs: 170 };
  assert.deepEqual(summary(run('cost-or-increment')), { ...expected, tokens: 6 });
  assert.deepEqual(summary(run('cost-and-increment')), { ...expected, tokens: 7 });
  // At the cap: 495 + 5 + 1 is 500.
  const capped = bothBindings({ clients: 1, arrivals: 'once', trigger: { kind: 'outage', startMs: 0, endMs: 10 }, gates: { quota: { scope: 'fleet', refund: 'cost-and-increment' } } });
  assert.equal(summary(capped).tokens, 500);
});

test('figure 3, the bucket: FLEET.md\'s rule, the post\'s, and the two mixed', () => {
  const run = (depositOn, allowWhen) => summary(bothBindings(figure(3, { gates: { bucket: { scope: 'fleet', capacity: 1, deposit: 0.5, depositOn, allowWhen } } })));
  assert.deepEqual(run('first-attempt', 'more-than-cost'), { succeeded: 1, attempts: 3, failed: { 'gate-bucket': 2 }, endMs: 60, tokens: 1 });
  assert.deepEqual(run('success', 'at-least-cost'), { succeeded: 2, attempts: 4, failed: { 'gate-bucket': 1 }, endMs: 170, tokens: 1 });
  assert.deepEqual(run('success', 'more-than-cost'), { succeeded: 1, attempts: 3, failed: { 'gate-bucket': 2 }, endMs: 60, tokens: 1 });
  assert.deepEqual(run('first-attempt', 'at-least-cost'), { succeeded: 2, attempts: 4, failed: { 'gate-bucket': 1 }, endMs: 170, tokens: 0 });
});

test('the rule fields are echoed only when given and not the default, in both bindings', () => {
  const gates = { quota: { capacity: 9 }, bucket: { cost: 2 }, throttle: { maxTokens: 4 } };
  const plain = bothBindings({ gates }).request.gates;
  const atDefaults = bothBindings({ gates: {
    quota: { capacity: 9, refund: 'cost-or-increment' },
    bucket: { cost: 2, depositOn: 'first-attempt', allowWhen: 'more-than-cost' },
    throttle: { maxTokens: 4, countFailures: 'all' },
  } }).request.gates;
  assert.deepEqual(atDefaults, plain);
  assert.deepEqual(Object.keys(plain.quota), ['scope', 'capacity', 'retryCost', 'timeoutCost', 'successIncrement']);
  const set = bothBindings({ gates: {
    quota: { refund: 'cost-and-increment' },
    bucket: { depositOn: 'success', allowWhen: 'at-least-cost' },
    throttle: { countFailures: 'retryable' },
  } }).request.gates;
  assert.equal(set.quota.refund, 'cost-and-increment');
  assert.deepEqual([set.bucket.depositOn, set.bucket.allowWhen], ['success', 'at-least-cost']);
  assert.equal(set.throttle.countFailures, 'retryable');
  // The schema says which rows echo so.
  const gatesRow = fleetEngine.fleetSchema().fleet.find((r) => r.name === 'gates');
  const sparse = gatesRow.members.flatMap((g) => g.members.filter((m) => m.sparse).map((m) => `${g.name}.${m.name}`));
  // docs/layers.md §9.3's `layer`, on each of FLEET's five gates, echoes so too (null: the bottom).
  assert.deepEqual(sparse, ['quota.refund', 'quota.layer', 'bucket.depositOn', 'bucket.allowWhen', 'bucket.layer',
    'throttle.countFailures', 'throttle.layer', 'budget.layer', 'breaker.layer']);
  // A bad choice is named by its path.
  const bad = fleetEngine.fleet({ gates: { throttle: { countFailures: 'timeouts' } } });
  assert.equal(bad.ok, false);
  assert.deepEqual(bad.errors.map((e) => e.field), ['gates.throttle.countFailures']);
});

test('the fleet presets that set the rules: gRPC A6 counts retryable failures, aws-sdk-go-v2 refunds both, the post\'s bucket', async () => {
  const { fleetPresets } = await import(pathToFileURL(path.join(repo, 'web', 'fleet', 'presets.js')).href);
  const byId = new Map(fleetPresets().map((p) => [p.id, p]));
  assert.equal(byId.get('client:grpc-go-169').gates.throttle.countFailures, 'retryable');
  assert.equal(byId.get('client:aws-sdk-go-v2').gates.quota.refund, 'cost-and-increment');
  assert.equal(byId.get('client:aws-botocore-standard').gates.quota.refund, undefined);
  const post = byId.get('bucket:brooker-post').gates.bucket;
  assert.deepEqual(post, { capacity: 5, deposit: 0.1, cost: 1, depositOn: 'success', allowWhen: 'at-least-cost' });
  // Each runs, and its echo holds what it set.
  for (const id of ['client:grpc-go-169', 'client:aws-sdk-go-v2', 'bucket:brooker-post']) {
    const p = byId.get(id);
    const echo = bothBindings({ durationMs: 20000, gates: p.gates }).request.gates;
    for (const [gate, fields] of Object.entries(p.gates)) for (const [k, v] of Object.entries(fields)) assert.equal(echo[gate][k], v, `${id}: ${gate}.${k}`);
  }
});
