// The client presets (web/clients/presets.js) against their sources, with the real engine in
// node. docs/clients.md's tables are generated from presets.js, and the first tests check the
// docs hold exactly that text (one source). Every other expectation below is worked out by
// hand from the clients' own code, as quoted in the pins and in the comments here — never
// recorded from the engine: the waits each formula gives for given draws, which answers each
// client retries, and what the opening run does (the charges each card states). The tests
// named "item N" are issue 16's corrections; each fails on issue 9's presets.

import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../../browser/lib/dist.js';
import { loadEngineInNode } from '../../browser/lib/engine.js';
import { DIST } from '../../browser/lib/dist.js';
import { createRequire } from 'node:module';
import { GENERATED_BEGIN, GENERATED_END, GROUPS, NO_TIMEOUT_MS, POLICY_FIELDS, PRESETS, SEED_ID, groupSection, policyOf, presetById, presetInputs } from '../../../web/clients/presets.js';
import { SOURCES, compact, releaseOnPage, releasesOf } from '../../../web/clients/sources.js';
import { BEGIN, END, presetsModuleBlock, presetsTable } from '../../../web/clients/table.js';
import { describePolicy, expectedFigures, gateParams, presetCardView } from '../../../web/clients/view.js';
import { findAll, textOf } from '../../../web/dom.js';
import { ms, num } from '../../../web/format.js';
import { gateUnits } from '../../../web/clients/sources.js';

let engine;
let fleetEngine; // the fleet engine file, for a preset's gates in a fleet run
let fleetSchema; // the fleet engine file's table (FLEET §3), for the gates' units
before(async () => {
  engine = await loadEngineInNode();
  fleetEngine = await createRequire(import.meta.url)(join(DIST, 'retrylab-fleet.js'))();
  fleetSchema = fleetEngine.fleetSchema();
});
// The bound describePolicy reads from the engine's table: its longest client timeout.
const LIMITS = () => ({ noTimeoutMs: engine.schema().inputs.find((row) => row.name === 'clientTimeoutMs').max });
const compute = (inputs) => {
  const result = engine.compute(inputs);
  assert.equal(result.ok, true, JSON.stringify(result.errors));
  return result;
};
const p = (id) => {
  const preset = presetById(id);
  assert.ok(preset, `a preset ${id}`);
  return preset;
};

// The opening run of a preset: the seed's fixture with the client's policy.
const opening = (preset, extra = {}) => compute({ ...presetInputs({}, preset.inputs), ...extra });
// The presets of clients that hedge (docs/throttling.md §6.1 and §8).
const HEDGING_IDS = ['grpc-hedging', 'envoy-hedge', 'dotnet-hedging'];
// The presets whose retries are Envoy's router's, written by Istio's control plane.
const ISTIO_IDS = ['istio', 'istio-123', 'istio-example'];

// One answer, then 200: was the answer retried? A read with no deadline, so only the status decides.
function retries(preset, entry) {
  const r = compute({ ...preset.inputs, operation: 'read', deadlineMs: null, scenario: 'script', script: [entry, { status: 200 }] });
  return r.metrics.attempts > 1;
}

// The waits of a read that keeps failing with `entry`, drawing `draws`.
function waits(preset, draws, entry = { status: 503 }) {
  const r = compute({ ...preset.inputs, operation: 'read', deadlineMs: null, scenario: 'script', script: [entry], draws });
  return r.attempts.map((a) => a.waitAfterMs).filter((w) => w !== null);
}

const docs = readFileSync(join(REPO, 'docs/clients.md'), 'utf8');
const REAL = PRESETS; // every preset is a real client's

describe('the presets and docs/clients.md are one source', () => {
  test('presets.js holds exactly the compact presets of sources.js (run scripts/clients-table after changing a preset)', () => {
    const module = readFileSync(join(REPO, 'web/clients/presets.js'), 'utf8');
    const start = module.lastIndexOf(GENERATED_BEGIN);
    const end = module.indexOf(GENERATED_END, start);
    assert.equal(module.slice(start, end + GENERATED_END.length), presetsModuleBlock(fleetSchema));
    assert.deepEqual(PRESETS, SOURCES.map((s) => compact(s, fleetSchema)));
  });

  test('docs/clients.md holds exactly the generated tables (run scripts/clients-table after changing a preset)', () => {
    const start = docs.indexOf(BEGIN);
    const end = docs.indexOf(END);
    assert.ok(start >= 0 && end > start, 'the generated block is there');
    assert.equal(docs.slice(start, end + END.length), presetsTable());
  });

  for (const preset of PRESETS) {
    test(`${preset.id}: its values equal docs/clients.md ${groupSection(preset.group)}'s table`, () => {
      const section = docs.slice(docs.indexOf(`### ${preset.name}\n`));
      assert.ok(docs.includes(`### ${preset.name}\n`), 'its section');
      const rows = section.split('\n').slice(0, POLICY_FIELDS.length + 12).filter((l) => /^\| `[a-zA-Z]+` \|/.test(l));
      const documented = Object.fromEntries(rows.map((l) => {
        const [, name, value] = /^\| `([a-zA-Z]+)` \| `(.*?)` \|/.exec(l);
        return [name, JSON.parse(value.replace(/\\\|/g, '|'))];
      }));
      assert.deepEqual(documented, preset.inputs);
    });
  }

  test('each group is a numbered section of docs/clients.md, in the Client choice’s order', () => {
    let at = 0;
    for (const group of GROUPS) {
      const heading = `## ${groupSection(group)}. ${group}\n`;
      const found = docs.indexOf(heading);
      assert.ok(found > at, heading);
      at = found;
    }
  });
});

describe('every preset is pinned', () => {
  test('each preset sets every policy field, and the engine runs it as written', () => {
    for (const preset of PRESETS) {
      // jitterLow/jitterHigh only with proportional jitter; hedging only for a client that hedges.
      const hedges = HEDGING_IDS.includes(preset.id);
      const needed = POLICY_FIELDS.filter((f) => !(/^jitter(Low|High)$/.test(f) && preset.inputs.jitter !== 'proportional') && (f !== 'hedging' || hedges));
      assert.deepEqual(Object.keys(preset.inputs).sort(), needed.sort(), `${preset.id} sets exactly the policy fields`);
      assert.deepEqual(policyOf(compute(preset.inputs).inputs), preset.inputs, `${preset.id}: the engine echoes the values as written`);
    }
  });

  test('each value names its library, release tag, commit, file, line and text — or says the page set it, or that it is unverified', () => {
    const check = (where, pin) => {
      assert.ok(pin, `${where}: a pin`);
      const kinds = ['page', 'none', 'unverified', 'repo', 'package'].filter((k) => pin[k]);
      assert.ok(kinds.length >= 1, `${where}: says where it comes from`);
      if (pin.repo) {
        assert.match(pin.commit, /^[0-9a-f]{40}$/, `${where}: a full commit`);
        assert.ok(pin.tag && pin.file && pin.quote, `${where}: tag, file and text`);
        assert.match(pin.line, /^(\d+(-\d+)?|\?)$/, `${where}: a line`);
        assert.equal(pin.href, `https://github.com/${pin.repo}/blob/${pin.commit}/${pin.file}#L${pin.line.replace('-', '-L')}`);
        // A copy that is not a release, or a line not pinned, is only ever unverified.
        if (/no tag/.test(pin.tag) || pin.line === '?') assert.ok(pin.unverified, `${where}: a copy without a tag is marked unverified`);
      }
      if (pin.package) {
        // A package's tarball as npm fetches it: name, version, integrity, file, line, text; no link.
        assert.match(pin.version, /^\d+\.\d+\.\d+$/, `${where}: a version`);
        assert.match(pin.integrity, /^sha512-[A-Za-z0-9+/]{86}==$/, `${where}: the tarball's integrity`);
        assert.ok(pin.file && pin.quote, `${where}: file and text`);
        assert.match(pin.line, /^\d+(-\d+)?$/, `${where}: a line`);
        assert.equal(pin.href, undefined, `${where}: no link to a repository it was not read in`);
      }
      for (const [k, also] of (pin.also || []).entries()) check(`${where} also ${k}`, also);
    };
    for (const preset of SOURCES) {
      for (const f of Object.keys(preset.inputs)) check(`${preset.id}.${f}`, preset.pins[f]);
      for (const g of preset.gates) check(`${preset.id} gate ${g.gate}`, g.pin);
      assert.ok(preset.versions && preset.library, `${preset.id}: library and versions`);
      assert.ok(preset.cannot.length >= 1, `${preset.id}: what the engine cannot represent`);
      const unverifiedPins = Object.values(preset.pins).some((pin) => pin.unverified);
      if (unverifiedPins) assert.ok(preset.unverified.length >= 1, `${preset.id}: an unverified value makes the preset say so`);
    }
  });

  test('the repository that could not be read at its newest release is an unverified preset, and says why', () => {
    // envoyproxy/envoy: every value is read at a release (the route API at envoy/v1.39.0, the
    // router at v1.14.2); what stays open is whether v1.39.0's router still draws the same waits.
    assert.match(p('envoy').unverified.join(' '), /could not be fetched/);
    assert.deepEqual(p('envoy').unverifiedValues, {});
    assert.match(p('envoy').unverified.join(' '), /v1\.14\.2/);
    // Its router's code is read at v1.37.0 (its release commit, in a fork's copy) besides v1.14.2.
    const envoy = SOURCES.find((q) => q.id === 'envoy');
    for (const f of ['jitter', 'backoffMultiplier', 'retryWritesWithoutKey']) {
      assert.deepEqual([envoy.pins[f].repo, envoy.pins[f].tag, envoy.pins[f].commit], ['envoyproxy/envoy', 'v1.37.0', '6d9bb7d9a85d616b220d1f8fe67b61f82bbdb8d3'], f);
    }
    assert.match(p('envoy').unverified.join(' '), /v1\.37\.0.*v1\.38 and v1\.39/);
    // No pin of any preset, an "also" among them, is a copy without a release or unverified.
    const walk = (where, pin) => {
      assert.ok(!pin.unverified, `${where}: unverified`);
      if (pin.repo) assert.doesNotMatch(pin.tag, /no tag/, where);
      for (const [k, also] of (pin.also || []).entries()) walk(`${where} also ${k}`, also);
    };
    for (const preset of SOURCES) {
      for (const f of Object.keys(preset.inputs)) walk(`${preset.id}.${f}`, preset.pins[f]);
      for (const g of preset.gates) walk(`${preset.id} gate ${g.gate}`, g.pin);
    }
    // The others, grpc-core among them (read at v1.51.1 in Debian's source package), were read
    // at a release: no pin of theirs is a copy without a tag, and none is unverified.
    // Istio's presets retry through Envoy's router too, and say the same of its waits.
    for (const id of ISTIO_IDS) assert.match(p(id).unverified.join(' '), /Envoy v1\.37\.0 and v1\.14\.2.*istio\/proxy/, id);
    for (const preset of SOURCES.filter((q) => q.id !== 'envoy' && !ISTIO_IDS.includes(q.id))) {
      for (const r of releasesOf(preset)) assert.doesNotMatch(r.tag || r.version, /no tag/, `${preset.id}: ${r.repo || r.package}`);
      assert.deepEqual(p(preset.id).unverifiedValues, {}, `${preset.id}: no unverified value`);
      assert.deepEqual(p(preset.id).unverified, [], `${preset.id}: nothing unverified`);
      assert.deepEqual(p(preset.id).releases, releasesOf(preset).map(releaseOnPage), `${preset.id}: the card lists the releases its pins name`);
    }
  });

  test('grpc-core is pinned at the release v1.51.1 (commit 0a82c02a), every value, with A6’s example policy', () => {
    const core = SOURCES.find((q) => q.id === 'grpc-core');
    // The values, worked from v1.51.1's source (file and line in each pin) and A6's example:
    const expected = {
      maxRetries: 3, // A6 "maxAttempts": 4; retry_service_config.cc lines 141-147 keep it (≤ 5)
      baseBackoffMs: 100, backoffMultiplier: 2, maxBackoffMs: 1000, // A6 lines 360-362; backoff.cc lines 34-35
      jitter: 'proportional', jitterLow: 0.8, jitterHigh: 1.2, // backoff.cc lines 36-38, RETRY_BACKOFF_JITTER 0.2
      clientTimeoutMs: NO_TIMEOUT_MS, deadlineMs: 3000, // no per-attempt timeout; the seed's 3 s call deadline
      waitBudgetMs: null, idempotencyKey: false, retryOn: [], retryWritesWithoutKey: true,
      honourRetryAfter: false, // grpc-retry-pushback-ms, retry_filter.cc line 1607
      firstRetryImmediate: false, minBackoffMs: 0, ceilingScheduleMs: [],
      retryOnStatuses: [429, 502, 503, 504], // status_conversion.cc lines 65-89
      retryAfterStatuses: [], retryAfterMode: 'replace', retryAfterMaxMs: null, retryAfterOverMax: 'backoff',
      attemptStart: 'before-deadline',
    };
    assert.deepEqual(p('grpc-core').inputs, expected);
    // The core clamps maxAttempts at 5 (MAX_MAX_RETRY_ATTEMPTS): the attempts stay within it.
    assert.ok(p('grpc-core').inputs.maxRetries + 1 <= 5);
    // Every pin that names a source is grpc/grpc v1.51.1 at its commit, or A6's text.
    const CORE = { repo: 'grpc/grpc', tag: 'v1.51.1', commit: '0a82c02a9b817a53574994374dcff53f2e961df2' };
    const pins = [];
    const walk = (pin) => { if (pin && pin.repo) pins.push(pin); for (const a of (pin && pin.also) || []) walk(a); };
    for (const f of Object.keys(core.inputs)) walk(core.pins[f]);
    for (const g of core.gates) walk(g.pin);
    for (const pin of pins) {
      if (pin.repo === 'grpc/grpc') assert.deepEqual({ repo: pin.repo, tag: pin.tag, commit: pin.commit }, CORE, pin.file);
      else assert.equal(pin.repo, 'grpc/proposal', pin.file);
    }
    // The values grpc-go or grpc-java gave before are grpc-core's own now.
    for (const f of ['jitter', 'jitterLow', 'jitterHigh', 'retryOn', 'retryOnStatuses', 'honourRetryAfter']) {
      assert.equal(core.pins[f].repo, 'grpc/grpc', `${f}: read in grpc-core itself`);
    }
    assert.match(core.pins.jitter.file, /^src\/core\/lib\/backoff\/backoff\.cc$/);
    assert.match(core.pins.retryOnStatuses.file, /status_conversion\.cc$/);
    assert.deepEqual(p('grpc-core').releases.map((r) => `${r.repo} ${r.tag} ${r.commit}`),
      ['grpc/proposal A6 @ 2024-08-29 (#452) dc9fd4fe5b94', 'grpc/grpc v1.51.1 0a82c02a9b81']);
    assert.match(p('grpc-core').versions, /v1\.51\.1/);
    assert.match(p('grpc-core').name, /grpc-core 1\.51 \(Debian 12/);
  });

  test('grpc-core 1.51.1’s unjittered first wait: approximated within 20 ms, every later wait exact, and said on the card', () => {
    const core = p('grpc-core');
    // v1.51.1 (backoff.cc lines 29-40): wait 1 = the initial backoff, 100 ms, no draw; wait n ≥ 2 =
    // c_n + U(−0.2 c_n, 0.2 c_n), c_n = min(100 × 2^(n−1), 1000): 200, 400 for n = 2, 3. With a
    // draw d for the uniform, c_n × (0.8 + (1.2 − 0.8) d) as docs/engine.md §2 writes the factor.
    const factor = (d) => 0.8 + (1.2 - 0.8) * d;
    const release = (n, d) => (n === 1 ? 100 : Math.min(100 * 2 ** (n - 1), 1000) * factor(d));
    for (const draws of [[0, 0, 0], [1, 1, 1], [0.5, 0.25, 0.75], [0.1, 0.9, 0.3]]) {
      const w = waits(core, draws);
      assert.equal(w.length, 3, 'three retries');
      // The engine draws the first wait too: 100 × (0.8 + 0.4 d), 80–120 ms, at most 20 ms off.
      assert.equal(w[0], 100 * factor(draws[0]));
      assert.ok(Math.abs(w[0] - release(1)) <= 20, `first wait ${w[0]} within 20 ms of 100`);
      // The later waits are v1.51.1's own for the same draw.
      for (const n of [2, 3]) assert.equal(w[n - 1], release(n, draws[n - 1]), `wait ${n}`);
    }
    assert.deepEqual(waits(core, [0, 1, 0.5]), [80, 240, 400]);
    // The card says so, with the size of the difference.
    assert.match(core.approximated.jitter, /first retry/);
    assert.match(core.approximated.jitter, /80–120 ms here, at most 20 ms/);
    assert.match(core.approximated.jitter, /#37595/);
  });

  test('aws-sdk-go-v2 is pinned at v1.16.0 as vendored, and the old gRPC releases’ status mapping at v1.68.0 and v1.70.0', () => {
    const go = SOURCES.find((q) => q.id === 'aws-sdk-go-v2');
    for (const name of ['maxRetries', 'baseBackoffMs', 'maxBackoffMs', 'retryOnStatuses', 'retryOn']) {
      assert.equal(go.pins[name].tag, 'aws-sdk-go-v2 v1.16.0 (vendored)', name);
      assert.ok(!go.pins[name].unverified, name);
    }
    assert.deepEqual(go.unverified, []);
    const old = SOURCES.find((q) => q.id === 'grpc-go-168');
    assert.equal(old.pins.retryOnStatuses.tag, 'v1.68.0');
    assert.equal(old.pins.retryOnStatuses.also[0].tag, 'v1.70.0');
    assert.deepEqual(old.unverified, []);
  });

  test('versions of one client come newest first', () => {
    const order = (...ids) => ids.map((id) => PRESETS.findIndex((q) => q.id === id));
    for (const ids of [['grpc-go-169', 'grpc-java-171', 'grpc-go-168'], ['openai-python', 'openai-python-251'],
      ['stripe-current', 'stripe-retry-after'], ['stripe-go-821', 'stripe-go-81'],
      ['aws-botocore-2026', 'aws-botocore-standard', 'aws-botocore-legacy'], ['aws-js-v3', 'aws-botocore-standard', 'aws-sdk-go-v2']]) {
      const at = order(...ids);
      assert.deepEqual([...at].sort((a, b) => a - b), at, ids.join(' before '));
    }
  });

  test('the clients the issue names have presets', () => {
    for (const id of ['openai-python', 'anthropic-python', 'dotnet-standard', 'go-retryablehttp', 'envoy', 'google-api-core', 'aws-botocore-2026']) p(id);
    assert.equal(presetById(SEED_ID), null, 'the seed’s fixture is not a preset');
  });
});

// The opening run (SPEC §9's fixture), worked by hand for each client and stated on its card.
describe('the opening run under each preset gives the charges its card states', () => {
  // Worked from the sources: attempt 1 0–3000 commits charge #1 and loses the response.
  const WORKED = {
    // No per-attempt timeout: the answer never comes; the 3 s call deadline ends the call.
    'grpc-go-169': { attempts: 1, charges: 1, outcome: 'unknown', elapsedMs: 3000 },
    'grpc-java-171': { attempts: 1, charges: 1, outcome: 'unknown', elapsedMs: 3000 },
    'grpc-go-168': { attempts: 1, charges: 1, outcome: 'unknown', elapsedMs: 3000 },
    'grpc-core': { attempts: 1, charges: 1, outcome: 'unknown', elapsedMs: 3000 },
    // @grpc/grpc-js 1.14.7: the deadline timer cancels the call (DEADLINE_EXCEEDED, not retryable).
    'grpc-js': { attempts: 1, charges: 1, outcome: 'unknown', elapsedMs: 3000 },
    // The read timeout is retried after at most 50, 1,000, 1,000, 2,000 ms: no key, charged again.
    'aws-botocore-2026': { attempts: 2, charges: 2, outcome: 'success' },
    'aws-botocore-standard': { attempts: 2, charges: 2, outcome: 'success' },
    // Adaptive mode is standard mode in one request: its rate limiter is a fleet gate.
    'aws-botocore-adaptive': { attempts: 2, charges: 2, outcome: 'success' },
    'aws-botocore-legacy': { attempts: 2, charges: 2, outcome: 'success' },
    'aws-sdk-go-v2': { attempts: 2, charges: 2, outcome: 'success' },
    // @smithy/core 3.41.1: the TimeoutError is transient, retried after floor(d × min(50, 20 s)) < 50 ms; no key.
    'aws-js-v3': { attempts: 2, charges: 2, outcome: 'success' },
    // Its adaptive mode is the same strategy in one request: the rate limiter is a fleet gate.
    'aws-js-v3-adaptive': { attempts: 2, charges: 2, outcome: 'success' },
    // Retried after 375–500 ms on the POST too; no key is sent.
    'openai-python': { attempts: 2, charges: 2, outcome: 'success' },
    'openai-python-251': { attempts: 2, charges: 2, outcome: 'success' },
    'anthropic-python': { attempts: 2, charges: 2, outcome: 'success' },
    // The Node SDKs: the timed-out connection is retried after 500 × (0.75 … 1) ms, on the POST too; no key.
    'openai-node': { attempts: 2, charges: 2, outcome: 'success' },
    'anthropic-node': { attempts: 2, charges: 2, outcome: 'success' },
    // got retries no POST (its methods: GET, PUT, HEAD, DELETE, OPTIONS, TRACE, QUERY).
    got: { attempts: 1, charges: 1, outcome: 'unknown', elapsedMs: 3000 },
    // axios-retry never retries axios's timeout (ECONNABORTED), on any method.
    'axios-retry': { attempts: 1, charges: 1, outcome: 'unknown', elapsedMs: 3000 },
    // TimeoutRejectedException retried after < 2 s; no key.
    'dotnet-standard': { attempts: 2, charges: 2, outcome: 'success' },
    polly: { attempts: 1, charges: 1, outcome: 'unknown', elapsedMs: 3000 },
    'polly-timeout': { attempts: 2, charges: 2, outcome: 'success', elapsedMs: 5200, secondStartMs: 5000 },
    resilience4j: { attempts: 2, charges: 2, outcome: 'success', elapsedMs: 3700, secondStartMs: 3500 },
    // 1 s × 2^0 after the timeout: attempt 2 4000–4200.
    'go-retryablehttp': { attempts: 2, charges: 2, outcome: 'success', elapsedMs: 4200, secondStartMs: 4000 },
    // No per-try timeout: the 15 s route timeout ends the request, not retried.
    envoy: { attempts: 1, charges: 1, outcome: 'unknown', elapsedMs: 15000 },
    // Hedging (docs/throttling.md §6.1): copy 1 at 0 commits charge #1 at 200, its answer lost;
    // A6's copy 2 at 500 commits charge #2 at 700 and its 200 ends the run (no key: by design).
    'grpc-hedging': { attempts: 2, charges: 2, outcome: 'success', elapsedMs: 700, secondStartMs: 500 },
    // Polly's one hedged action after its 2 s delay: 2000–2200, before copy 1's 3 s timeout.
    'dotnet-hedging': { attempts: 2, charges: 2, outcome: 'success', elapsedMs: 2200, secondStartMs: 2000 },
    // §8: the 3 s per-try timeout hedges; the retry after U[0, 25) ms charges again.
    'envoy-hedge': { attempts: 2, charges: 2, outcome: 'success' },
    // Istio's default retries no timeout (connect-failure, refused-stream, gRPC's unavailable and
    // cancelled), and there is no per-try or route timeout: the seed's 10 s deadline ends it.
    istio: { attempts: 1, charges: 1, outcome: 'unknown', elapsedMs: 10000 },
    'istio-123': { attempts: 1, charges: 1, outcome: 'unknown', elapsedMs: 10000 },
    // The example's 2 s per-try timeout is retried (gateway-error) after U[0, 25) ms: no key.
    'istio-example': { attempts: 2, charges: 2, outcome: 'success' },
    // A read timeout is not a transient error of Retry().
    'google-api-core': { attempts: 1, charges: 1, outcome: 'unknown', elapsedMs: 3000 },
    urllib3: { attempts: 1, charges: 1, outcome: 'unknown', elapsedMs: 3000 },
    requests: { attempts: 1, charges: 1, outcome: 'unknown', elapsedMs: 3000 },
    // Keyed: the retry after max(500, 500 × (0.5 + 0.5 d)) = 500 ms replays charge #1.
    'stripe-current': { attempts: 2, charges: 1, replays: 1, outcome: 'success', elapsedMs: 3700 },
    'stripe-retry-after': { attempts: 2, charges: 1, replays: 1, outcome: 'success', elapsedMs: 3700 },
    'stripe-client': { attempts: 1, charges: 1, outcome: 'unknown', elapsedMs: 3000 },
    // max(500, 500 × (0.75 … 1)) = 500 ms, keyed: a replay.
    'stripe-go-821': { attempts: 2, charges: 1, replays: 1, outcome: 'success', elapsedMs: 3700 },
    'stripe-go-81': { attempts: 2, charges: 1, replays: 1, outcome: 'success', elapsedMs: 3700 },
  };

  test('every preset has its worked opening run', () => {
    assert.deepEqual(Object.keys(WORKED).sort(), PRESETS.map((q) => q.id).sort());
  });

  for (const [id, worked] of Object.entries(WORKED)) {
    test(`${id}: ${worked.charges} charge${worked.charges === 1 ? '' : 's'}, as its card states`, () => {
      const preset = p(id);
      const { secondStartMs, elapsedMs, ...stated } = worked;
      assert.deepEqual({ replays: 0, ...preset.opening, why: undefined }, { replays: 0, ...stated, why: undefined }, 'the card states the worked run');
      const r = opening(preset);
      for (const [key, value] of Object.entries({ replays: 0, ...stated })) assert.deepEqual(r.metrics[key], value, `${id}: ${key}`);
      if (elapsedMs !== undefined) assert.equal(r.metrics.elapsedMs, elapsedMs);
      if (secondStartMs !== undefined) assert.equal(r.attempts[1].startMs, secondStartMs);
    });
  }

  test('the hedging clients: the copy charges again without a key, is replayed with one, and the first attempt is left in flight', () => {
    // gRPC's example: copy 2 at 500 starts after charge #1's commit at 200, so with a key the
    // server replays it: 1 charge, 1 replay, still at 700.
    const grpc = opening(p('grpc-hedging'), { idempotencyKey: true });
    assert.deepEqual([grpc.metrics.charges, grpc.metrics.replays, grpc.metrics.elapsedMs], [1, 1, 700]);
    // Envoy's: the retry starts at 3,000 + w (w < 25, full jitter of 25 ms) while attempt 1 stays
    // in flight (its answer lost), and its 200 comes 200 ms later.
    const envoy = opening(p('envoy-hedge'));
    assert.ok(envoy.attempts[1].startMs >= 3000 && envoy.attempts[1].startMs < 3025, String(envoy.attempts[1].startMs));
    assert.equal(envoy.metrics.elapsedMs, envoy.attempts[1].startMs + 200);
    assert.deepEqual(envoy.attempts.map((a) => [a.hedge, a.clientClass]), [[false, 'cancelled'], [true, 'success']]);
    // .NET's: the copy is a hedge too; 2 copies at most (one hedged action).
    const dotnet = opening(p('dotnet-hedging'));
    assert.deepEqual([dotnet.metrics.hedges, dotnet.metrics.lateAnswers], [1, 1]);
    for (const id of HEDGING_IDS) assert.match(describePolicy(opening(p(id)).inputs, LIMITS()).join('; '), /hedg/, id);
  });

  test('the OpenAI Python SDK: 2 charges, because no idempotency key is sent', () => {
    const preset = p('openai-python');
    assert.equal(preset.inputs.idempotencyKey, false);
    assert.match(preset.opening.why, /no idempotency key is sent/);
    assert.equal(expectedFigures(preset.opening), '2 attempts, 2 charges, outcome success');
    // With a key (which the SDK never sends) the retry would replay instead.
    assert.equal(opening(preset, { idempotencyKey: true }).metrics.charges, 1);
  });
});

describe('issue 16’s corrections, each failing on issue 9’s presets', () => {
  test('item 1: gRPC’s backoff by version — 0.8–1.2 (A6 since 2024-08-29, grpc-go ≥ 1.69, grpc-java ≥ 1.80), 0.4–1.2 (grpc-java 1.71–1.79), full jitter before', () => {
    // Ceilings min(100 × 2^(n−1), 1000): 100, 200, 400.
    // grpc-go ≥ 1.69: cur *= 0.8 + 0.4·r: r = 0, 1, 0.5 → 80, 240, 400.
    assert.deepEqual(waits(p('grpc-go-169'), [0, 1, 0.5]), [80, 240, 400]);
    // grpc-java 1.71–1.79: 0.8·r + 0.4: r = 0, 1 → 40, 240.
    assert.deepEqual(waits(p('grpc-java-171'), [0, 1, 0.5]), [40, 240, 320]);
    // grpc-go ≤ 1.68: rand.Int63n(cur): r = 0.5 → 50, 100, 200.
    assert.deepEqual(waits(p('grpc-go-168'), [0.5, 0.5, 0.5]), [50, 100, 200]);
    assert.match(p('grpc-go-169').versions, /grpc-go ≥ 1\.69\.0.*grpc-java ≥ 1\.80\.0/);
    assert.match(p('grpc-java-171').versions, /1\.71\.0–1\.79/);
  });

  test('item 2: gRPC retries 429, 502, 503, 504 (UNAVAILABLE) and not 500 (UNKNOWN)', () => {
    for (const id of ['grpc-go-169', 'grpc-java-171', 'grpc-go-168', 'grpc-core']) {
      const preset = p(id);
      assert.deepEqual(preset.inputs.retryOn, []);
      for (const status of [429, 502, 503, 504]) assert.equal(retries(preset, { status }), true, `${id} retries ${status}`);
      for (const status of [500, 501, 505, 400, 408]) assert.equal(retries(preset, { status }), false, `${id} does not retry ${status}`);
    }
  });

  test('item 3: stripe-python’s module-level API makes 2 retries (since v11.0.0); StripeClient(…) none', () => {
    assert.equal(p('stripe-current').inputs.maxRetries, 2);
    assert.match(p('stripe-current').name, /stripe-python 15\.3\.1 \(module-level API\)/);
    assert.equal(p('stripe-retry-after').inputs.maxRetries, 2);
    assert.match(p('stripe-retry-after').name, /stripe-python 11\.0–15\.3\.0/);
    assert.equal(p('stripe-client').inputs.maxRetries, 0);
    assert.match(p('stripe-client').name, /StripeClient/);
  });

  test('item 4: Stripe’s current clients ignore Retry-After; 11.0–15.3.0 / 17.0–22.3.0 waited at least it, up to 60 s', () => {
    // max(500, 500 × (0.5 + 0.5 × 0)) = 500 ms whatever the header says now.
    assert.deepEqual(waits(p('stripe-current'), [0], { status: 503, retryAfter: '2' }).slice(0, 1), [500]);
    // Earlier: max(backoff, 2 s) = 2 s; a 61 s header is above the 60 s maximum: the backoff.
    assert.deepEqual(waits(p('stripe-retry-after'), [0], { status: 503, retryAfter: '2' }).slice(0, 1), [2000]);
    assert.deepEqual(waits(p('stripe-retry-after'), [0], { status: 503, retryAfter: '61' }).slice(0, 1), [500]);
  });

  test('item 5: stripe-go ≥ 82.1 retries no Stripe 5xx or 409, but still a timeout; 81.x retried them', () => {
    for (const status of [500, 503, 409, 429]) assert.equal(retries(p('stripe-go-821'), { status }), false, `≥ 82.1: ${status}`);
    for (const status of [500, 503, 409]) assert.equal(retries(p('stripe-go-81'), { status }), true, `81.x: ${status}`);
    // A timeout (a dropped request) is retried by both: waits max(500, (500 + 500k²) × (1 − U/4)).
    assert.deepEqual(waits(p('stripe-go-821'), [0, 0], { dropped: true }), [500, 750]);
    assert.deepEqual(waits(p('stripe-go-81'), [1, 1], { dropped: true }), [500, 1000]);
  });

  test('item 6: botocore’s legacy mode retries 500, 502, 503, 504 and 509 (and 429)', () => {
    for (const status of [500, 502, 503, 504, 509, 429]) assert.equal(retries(p('aws-botocore-legacy'), { status }), true, `legacy ${status}`);
    for (const status of [501, 505, 400]) assert.equal(retries(p('aws-botocore-legacy'), { status }), false, `legacy ${status}`);
  });

  test('item 7: every real client sends an attempt that starts before its deadline, and the extra charge shows', () => {
    for (const preset of REAL) assert.equal(preset.inputs.attemptStart, 'before-deadline', preset.id);
    // resilience4j: attempt 2 starts at 3500 (3000 + 500). Deadline 3600: sent, cut at 3600,
    // charge #2 at 3700 — 2 charges; SPEC's rule ("fits") would not send it (3700 > 3600).
    const r4j = p('resilience4j');
    assert.equal(opening(r4j, { deadlineMs: 3600 }).metrics.charges, 2);
    assert.equal(opening(r4j, { deadlineMs: 3600, attemptStart: 'fits' }).metrics.charges, 1);
    // OpenAI with the draw 0.5: 500 × (0.75 + 0.25 × 0.5) = 437.5; attempt 2 at 3437.5.
    // Deadline 3500: sent (3437.5 < 3500) and charged at 3637.5; "fits" would not (3637.5 > 3500).
    const openai = p('openai-python');
    const cut = opening(openai, { deadlineMs: 3500, draws: [0.5] });
    assert.equal(cut.attempts[1].startMs, 3437.5);
    assert.equal(cut.attempts[1].commitMs, 3637.5);
    assert.deepEqual([cut.metrics.charges, cut.metrics.outcome], [2, 'unknown']);
    assert.equal(opening(openai, { deadlineMs: 3500, draws: [0.5], attemptStart: 'fits' }).metrics.charges, 1);
    // A keyed client loses nothing: stripe's retry at 3500 under a 3600 deadline replays.
    assert.equal(opening(p('stripe-current'), { deadlineMs: 3600 }).metrics.charges, 1);
  });
});

describe('the new clients, from their sources', () => {
  test('the waits each formula gives for given draws', () => {
    // OpenAI, Anthropic: min(500 × 2^(n−1), 8000) × (0.75 + 0.25 d): d = 0, 1 → 375, 1000.
    for (const id of ['openai-python', 'openai-python-251', 'anthropic-python']) assert.deepEqual(waits(p(id), [0, 1]), [375, 1000], id);
    // botocore 2026: d × min(50 × 2^(n−1), 20000): 25, 50; without the switch: 500, 1000.
    assert.deepEqual(waits(p('aws-botocore-2026'), [0.5, 0.5]), [25, 50]);
    assert.deepEqual(waits(p('aws-botocore-standard'), [0.5, 0.5]), [500, 1000]);
    // legacy: rand × 2^(attempts−1) s, no cap.
    assert.deepEqual(waits(p('aws-botocore-legacy'), [1, 1, 1, 1]), [1000, 2000, 4000, 8000]);
    // go-retryablehttp: min(1 s × 2^i, 30 s), i from 0, no jitter; 4 retries.
    assert.deepEqual(waits(p('go-retryablehttp'), []), [1000, 2000, 4000, 8000]);
    // The .NET handler (approximated): 2 s × 2^(n−1) × d.
    assert.deepEqual(waits(p('dotnet-standard'), [0.5, 0.5, 0.5]), [1000, 2000, 4000]);
    // Google API core: U(0, min(1 s × 2^(n−1), 60 s)) until the 120 s timeout.
    assert.deepEqual(waits(p('google-api-core'), [0.5, 0.5, 0.5]).slice(0, 3), [500, 1000, 2000]);
    // Envoy: random % min(25 × 2^(n−1), 250); 1 retry.
    assert.deepEqual(waits(p('envoy'), [0.5]), [12.5]);
    // Istio's example: Envoy's U[0, min(25 × 2^(n−1), 250)) for 3 retries.
    assert.deepEqual(waits(p('istio-example'), [0.5, 0.5, 0.5]), [12.5, 25, 50]);
  });

  test('which answers they retry', () => {
    const cases = {
      'openai-python': { 408: true, 409: true, 429: true, 500: true, 503: true, 400: false, 404: false },
      'anthropic-python': { 408: true, 409: true, 429: true, 529: true, 400: false, 401: false },
      'dotnet-standard': { 408: true, 429: true, 500: true, 501: true, 400: false, 409: false },
      'go-retryablehttp': { 429: true, 500: true, 502: true, 503: true, 599: true, 501: false, 400: false, 409: false },
      'google-api-core': { 429: true, 500: true, 503: true, 502: false, 504: false, 400: false },
      'aws-botocore-2026': { 500: true, 502: true, 503: true, 504: true, 501: false, 429: true, 400: false },
      envoy: { 500: true, 503: true, 429: false, 409: false },
      // Istio from 1.24: no status at all; through 1.23, the 503 alone; the example, gateway-error's three.
      istio: { 503: false, 502: false, 500: false, 429: false },
      'istio-123': { 503: true, 502: false, 500: false, 504: false },
      'istio-example': { 502: true, 503: true, 504: true, 500: false, 429: false },
    };
    for (const [id, statuses] of Object.entries(cases)) {
      for (const [status, expected] of Object.entries(statuses)) {
        assert.equal(retries(p(id), { status: Number(status) }), expected, `${id} retries ${status}: ${expected}`);
      }
    }
    // Timeouts on the POST: retried (with a deadline far away) by these, not by those.
    const timeoutRetried = (id) => opening(p(id), { deadlineMs: 100000 }).metrics.attempts > 1;
    for (const id of ['openai-python', 'anthropic-python', 'dotnet-standard', 'go-retryablehttp', 'aws-botocore-2026', 'stripe-go-821', 'resilience4j', 'polly-timeout']) {
      assert.equal(timeoutRetried(id), true, id);
    }
    for (const id of ['grpc-go-169', 'envoy', 'google-api-core', 'urllib3', 'requests', 'polly', 'stripe-client', 'istio', 'istio-123']) assert.equal(timeoutRetried(id), false, id);
    assert.equal(timeoutRetried('istio-example'), true, 'Istio’s example: a per-try timeout is retried under gateway-error');
  });

  test('Retry-After: OpenAI ≥ 2.52 waits up to 120 s and gives up above; ≤ 2.51 and Anthropic use the backoff above 60 s', () => {
    // A 429 with Retry-After, then 200, no deadline.
    const run = (id, header) => compute({ ...p(id).inputs, operation: 'read', deadlineMs: null, scenario: 'script', script: [{ status: 429, retryAfter: header }, { status: 200 }], draws: [1] });
    assert.equal(run('openai-python', '120').attempts[0].waitAfterMs, 120000);
    const refused = run('openai-python', '121');
    assert.deepEqual([refused.metrics.attempts, refused.metrics.stopReason], [1, 'not-retryable']);
    for (const id of ['openai-python-251', 'anthropic-python']) {
      assert.equal(run(id, '60').attempts[0].waitAfterMs, 60000, id);
      assert.equal(run(id, '61').attempts[0].waitAfterMs, 500, `${id}: above 60 s, min(500, 8000) × 1`);
    }
    // go-retryablehttp: the header replaces the backoff, with no cap.
    assert.equal(compute({ ...p('go-retryablehttp').inputs, deadlineMs: null, operation: 'read', scenario: 'script', script: [{ status: 503, retryAfter: '90' }, { status: 200 }] }).attempts[0].waitAfterMs, 90000);
  });

  test('the settings in words say when an attempt is sent', () => {
    for (const preset of PRESETS) assert.ok(describePolicy(opening(preset).inputs, LIMITS()).includes('sends an attempt whenever it starts before the deadline'), preset.id);
    assert.ok(describePolicy(compute({}).inputs, LIMITS()).includes('sends an attempt only if its answer is due by the deadline'));
    assert.ok(describePolicy(opening(p('openai-python')).inputs, LIMITS()).includes('gives up on a longer Retry-After'));
    assert.ok(describePolicy(opening(p('grpc-go-169')).inputs, LIMITS()).includes('no per-attempt timeout'));
    assert.equal(p('grpc-go-169').inputs.clientTimeoutMs, NO_TIMEOUT_MS);
  });

  test('the card states the opening run’s charges and why, what the page set, what is approximated and what is unverified', () => {
    const id = (name) => `cl-${name}`;
    const text = (node) => (typeof node === 'string' ? node : (node.children || []).map(text).join(' '));
    const card = (preset) => text(presetCardView(id, { preset, opening: opening(preset), ...LIMITS() }));
    const openai = card(p('openai-python'));
    assert.ok(openai.includes('2 attempts, 2 charges, outcome success: the timeout is retried on a POST too, and no idempotency key is sent'));
    assert.ok(openai.includes('openai/openai-python v3.3.1'));
    assert.ok(openai.includes('Client timeout per attempt: the seed’s 3 s'));
    const dotnet = card(p('dotnet-standard'));
    assert.match(dotnet, /Jitter: full jitter stands in for Polly’s decorrelated jitter V2/);
    assert.match(dotnet, /0–2\.754 s/);
    assert.match(card(p('envoy')), /Unverified .*could not be fetched/);
    // grpc-core: nothing unverified now; its one approximation (the first wait) is on the card.
    assert.doesNotMatch(card(p('grpc-core')), /Unverified/);
    assert.match(card(p('grpc-core')), /What the engine cannot represent Jitter: v1\.51\.1 waits the initial backoff exactly before the first retry/);
    assert.match(card(p('grpc-core')), /grpc\/grpc v1\.51\.1/);
    assert.doesNotMatch(card(p('aws-sdk-go-v2')), /Unverified/);
  });
});

describe('the gates for the fleet (FLEET.md §5), as data', () => {
  // FLEET §5's gates and their parameters (docs/engine.md §7.1's rule choices included), from
  // the fleet table: { gate: [member...] }, scope aside.
  const fleetGates = () => Object.fromEntries(fleetSchema.fleet.find((r) => r.name === 'gates').members
    .map((g) => [g.name, g.members.map((m) => m.name).filter((n) => n !== 'scope')]));
  test('each gate is one of FLEET §5’s, with FLEET’s parameter names, or says it is not FLEET’s model', () => {
    const FLEET = fleetGates();
    // FLEET §5's five, then docs/throttling.md §4–§5's send gates and §7's admission control (issue 34).
    assert.deepEqual(Object.keys(FLEET),
      ['quota', 'bucket', 'throttle', 'budget', 'breaker', 'adaptive', 'local', 'admissionControl']);
    for (const preset of PRESETS) {
      for (const g of preset.gates) {
        assert.ok(FLEET[g.gate], `${preset.id}: ${g.gate}`);
        const fits = g.params && Object.keys(g.params).every((k) => FLEET[g.gate].includes(k));
        if (!fits) assert.match(g.note, /not FLEET|Not FLEET|not its parameters|not its settings|Not the fleet’s/, `${preset.id}: ${g.gate} says it is not FLEET’s model`);
      }
    }
  });
  test('botocore’s adaptive mode: standard mode’s policy and quota, and the rate limiter as the fleet’s adaptive gate, which holds docs/throttling.md §4’s worked figure', () => {
    const adaptive = p('aws-botocore-adaptive');
    const standard = p('aws-botocore-standard');
    assert.deepEqual(adaptive.inputs, standard.inputs);
    assert.deepEqual(adaptive.gates.map((g) => g.gate), ['quota', 'adaptive']);
    assert.deepEqual(adaptive.gates[0].params, standard.gates[0].params);
    // §4's figure with the preset's gates (the quota lets the one retry go: 500 tokens, cost 5):
    // client 1's 429 at 10, its retry held by the limiter to 1,990, latency 2,050.
    const gates = Object.fromEntries(adaptive.gates.map((g) => [g.gate, g.params]));
    const r = fleetEngine.fleet({
      clients: 2, arrivals: 'once', trigger: null, network: { dist: 'fixed', ms: 5 },
      server: { admission: { scope: 'fleet', ratePerSecond: 1, burst: 1 } },
      policy: { retryOn: ['429'], baseBackoffMs: 0 }, gates,
    });
    assert.equal(r.ok, true, JSON.stringify(r.errors));
    assert.deepEqual([r.totals.attempts, r.totals.throttled, r.totals.latencyMs.max], [3, 1, 2050]);
    assert.equal(r.timeline.bins[0].gateWaitMs, 1980);
    // Without the limiter (standard mode's gates alone) the retry goes at 10 and is throttled again.
    const plain = fleetEngine.fleet({
      clients: 2, arrivals: 'once', trigger: null, network: { dist: 'fixed', ms: 5 },
      server: { admission: { scope: 'fleet', ratePerSecond: 1, burst: 1 } },
      policy: { retryOn: ['429'], baseBackoffMs: 0 }, gates: { quota: standard.gates[0].params },
    });
    assert.ok(plain.totals.throttled > 1, `${plain.totals.throttled} throttled`);
  });

  test('the JavaScript SDK v3’s adaptive mode: its standard strategy’s policy and quota, and the rate limiter as the fleet’s adaptive gate, which holds docs/throttling.md §4.2’s worked figure', () => {
    const adaptive = p('aws-js-v3-adaptive');
    const standard = p('aws-js-v3');
    assert.deepEqual(adaptive.inputs, standard.inputs);
    assert.deepEqual(adaptive.gates.map((g) => g.gate), ['quota', 'adaptive']);
    assert.deepEqual(adaptive.gates[0].params, { capacity: 500, retryCost: 14, timeoutCost: 14, successIncrement: 1 });
    assert.deepEqual(adaptive.gates[1].params, {});
    // §4.2 by hand: the retry after client 1's 429 at 10 costs 14 of 500 and is let go; the limiter
    // holds it as §4's (1 − 0.01) / 0.5 = 1.98 s: sent at 1,990, latency 2,050.
    const gates = Object.fromEntries(adaptive.gates.map((g) => [g.gate, g.params]));
    const r = fleetEngine.fleet({
      clients: 2, arrivals: 'once', trigger: null, network: { dist: 'fixed', ms: 5 },
      server: { admission: { scope: 'fleet', ratePerSecond: 1, burst: 1 } },
      policy: { retryOn: ['429'], baseBackoffMs: 0 }, gates,
    });
    assert.equal(r.ok, true, JSON.stringify(r.errors));
    assert.deepEqual([r.totals.attempts, r.totals.throttled, r.totals.latencyMs.max], [3, 1, 2050]);
    assert.equal(r.timeline.bins[0].gateWaitMs, 1980);
    // The quota for the whole fleet, to read it in the bins: 486 at 10, + 1 at 60, + 14 back at 2,050 (capped).
    const fleetQuota = fleetEngine.fleet({
      clients: 2, arrivals: 'once', trigger: null, network: { dist: 'fixed', ms: 5 },
      server: { admission: { scope: 'fleet', ratePerSecond: 1, burst: 1 } },
      policy: { retryOn: ['429'], baseBackoffMs: 0 }, gates: { ...gates, quota: { ...gates.quota, scope: 'fleet' } },
    });
    assert.deepEqual(fleetQuota.timeline.bins.map((b) => b.tokens), [487, 487, 500]);
    // Its notes say what the model does not: the SDK's empty bucket (2,010 there) and its 8 decimals.
    assert.match(adaptive.gates[1].note, /no tokens and no refill time/);
    assert.match(adaptive.gates[1].note, /8 decimals/);
    const pin = SOURCES.find((q) => q.id === 'aws-js-v3-adaptive').gates[1].pin;
    assert.deepEqual([pin.package, pin.version, pin.file, pin.line], ['@smithy/core', '3.41.1', 'dist-cjs/submodules/retry/index.js', '806-811']);
  });

  test('the clients whose gates FLEET §5 takes its defaults from give exactly those defaults', () => {
    const gate = (id, name) => p(id).gates.find((g) => g.gate === name).params;
    assert.deepEqual(gate('aws-botocore-standard', 'quota'), { capacity: 500, retryCost: 5, timeoutCost: 10, successIncrement: 1 });
    // A6's numbers, and its rule: only a retryable failure takes a token (docs/engine.md §7.1).
    assert.deepEqual(gate('grpc-go-169', 'throttle'), { maxTokens: 10, tokenRatio: 0.1, countFailures: 'retryable' });
    // aws-sdk-go-v2: botocore's numbers, and a retried success gives back the cost and the increment.
    assert.deepEqual(gate('aws-sdk-go-v2', 'quota'), { capacity: 500, retryCost: 5, timeoutCost: 10, successIncrement: 1, refund: 'cost-and-increment' });
    assert.deepEqual(gate('resilience4j', 'breaker'), { window: 100, minCalls: 100, failurePercent: 50, openMs: 60000, halfOpenCalls: 10 });
    // The 2026 behaviour: a retry costs 14, a timeout too (throttling's 5 has no FLEET field).
    assert.deepEqual(gate('aws-botocore-2026', 'quota'), { capacity: 500, retryCost: 14, timeoutCost: 14, successIncrement: 1 });
  });

  // The fleet table's units, as the fleet engine file gives them: { gate: { member: unit } }.
  const fleetUnits = () => Object.fromEntries(fleetSchema.fleet.find((r) => r.name === 'gates').members
    .map((g) => [g.name, Object.fromEntries(g.members.map((m) => [m.name, m.unit || '']))]));

  test('each gate parameter carries a unit: the fleet table’s for FLEET §5’s parameters, else the preset’s own', () => {
    const table = fleetUnits();
    let fromTable = 0;
    for (const preset of PRESETS) {
      for (const g of preset.gates) {
        if (!g.params) { assert.equal(g.units, null, `${preset.id}: no parameters, no units`); continue; }
        assert.deepEqual(Object.keys(g.units), Object.keys(g.params), `${preset.id} ${g.gate}: a unit per parameter`);
        for (const [name, unit] of Object.entries(g.units)) {
          if (name in (table[g.gate] || {})) {
            assert.equal(unit, table[g.gate][name], `${preset.id} ${g.gate}.${name}: the fleet table's unit`);
            fromTable += 1;
          }
        }
      }
    }
    assert.ok(fromTable >= 10, `${fromTable} units read from the fleet table`);
    // A table that says otherwise changes the unit; a parameter neither the table nor the
    // preset gives a unit is refused by name.
    const edited = structuredClone(fleetSchema);
    edited.fleet.find((r) => r.name === 'gates').members.find((g) => g.name === 'quota').members.find((m) => m.name === 'capacity').unit = 'coins';
    const quota = SOURCES.find((s) => s.id === 'aws-botocore-standard').gates[0];
    assert.equal(gateUnits(quota, edited).capacity, 'coins');
    assert.throws(() => gateUnits({ gate: 'quota', params: { tokens: 1 } }, fleetSchema), /tokens/);
  });

  test('the card lists a gate’s parameters one a row, name then value with its unit, never as JSON', () => {
    const id = (name) => `cl-${name}`;
    const shown = [];
    for (const preset of PRESETS.filter((q) => q.gates.some((g) => g.params))) {
      const card = presetCardView(id, { preset, opening: compute(preset.inputs), ...LIMITS() });
      const [box] = findAll(card, (n) => n.attrs && n.attrs.class === 'cl-gates');
      assert.ok(box, `${preset.id}: a gates box`);
      assert.doesNotMatch(textOf(box), /[{}"]/, `${preset.id}: no JSON`);
      for (const g of preset.gates) {
        const [item] = findAll(box, (n) => n.attrs && n.attrs['data-gate'] === g.gate);
        const rows = findAll(item, (n) => n.attrs && n.attrs['data-param']);
        assert.deepEqual(rows.map((r) => r.attrs['data-param']), Object.keys(g.params || {}), `${preset.id} ${g.gate}: every parameter, in order`);
        for (const r of rows) {
          const name = r.attrs['data-param'];
          const [dt] = findAll(r, (n) => n.tag === 'dt');
          const [dd] = findAll(r, (n) => n.tag === 'dd');
          const value = g.params[name];
          const unit = g.units[name];
          const expected = unit === 'ms' ? ms(value) : unit ? `${num(value)} ${unit}` : num(value);
          assert.equal(textOf(dd), expected, `${preset.id} ${name}`);
          shown.push(`${textOf(dt)}: ${textOf(dd)}`);
        }
      }
    }
    // Worked from the data: botocore's quota in tokens, resilience4j's open state in ms, A6's
    // throttle, Polly's own names and units.
    for (const line of ['Capacity: 500 tokens', 'Retry cost: 5 tokens', 'Timeout cost: 10 tokens', 'Open: 60,000 ms',
      'Failure percent: 50 %', 'Window: 100 outcomes', 'Max tokens: 10 tokens', 'Sampling duration: 30,000 ms', 'Failure ratio: 0.1', 'Minimum throughput: 100 calls']) {
      assert.ok(shown.includes(line), `${line} in ${JSON.stringify([...new Set(shown)])}`);
    }
    assert.deepEqual(gateParams({ gate: 'budget', params: null }), []);
  });
});

test('loading a preset keeps the server’s behaviour and the fixture, and replaces the whole policy', () => {
  const world = compute({ scenario: 'outage-503-twice', responseMs: 150, seed: 7, idempotencyKey: true, maxRetries: 9 }).inputs;
  const inputs = presetInputs(world, p('resilience4j').inputs);
  assert.equal(inputs.scenario, 'outage-503-twice');
  assert.equal(inputs.responseMs, 150);
  assert.equal(inputs.seed, 7);
  assert.equal(inputs.maxRetries, 2);
  assert.equal(inputs.idempotencyKey, false);
  assert.equal(inputs.attemptStart, 'before-deadline');
  // From a proportional-jitter preset back to one without: no stray jitterLow/High.
  const fromGo = compute(presetInputs({}, p('grpc-go-169').inputs)).inputs;
  assert.equal(compute(presetInputs(fromGo, p('polly').inputs)).inputs.jitterLow, undefined);
});

// Issue 38: the labels by version range and date, and the clients read in their npm tarballs.
// Every figure below is worked from the quoted source lines, not from the engine.
describe('issue 38: AWS’s 2026 default, Stripe’s keys, the Node clients', () => {
  const script = (id, entries, extra = {}) => compute({ ...p(id).inputs, operation: 'read', deadlineMs: null, scenario: 'script', script: entries, ...extra });

  test('item 1: every AWS preset names its version range; the current defaults come first, the old ones say ≤ 1.43', () => {
    const aws = PRESETS.filter((q) => q.group === 'AWS SDKs').map((q) => q.id);
    assert.deepEqual(aws.slice(0, 2), ['aws-botocore-2026', 'aws-js-v3'], 'the 2026 retries, the default now, first');
    assert.match(p('aws-botocore-2026').name, /default from 1\.44\.0/);
    assert.match(p('aws-botocore-2026').versions, /1\.44\.0 itself not read/);
    for (const id of ['aws-botocore-standard', 'aws-botocore-legacy']) {
      assert.match(p(id).name, /≤ 1\.43/, id);
      assert.doesNotMatch(p(id).name, /\(the default without/, `${id}: no unqualified “default”`);
    }
    assert.match(p('aws-js-v3').name, /default from 3\.1166\.0/);
    // @smithy/core 3.40.0 made the 2026 rules unconditional (static v2026 = true); 3.39.0 read an env switch.
    const js = SOURCES.find((q) => q.id === 'aws-js-v3');
    assert.deepEqual(js.pins.baseBackoffMs.also.map((a) => `${a.package}@${a.version}`), ['@smithy/core@3.40.0', '@smithy/core@3.39.0']);
    assert.match(js.pins.baseBackoffMs.also[1].quote, /SMITHY_NEW_RETRIES_2026/);
  });

  test('item 2: aws-sdk-go-v2 says it is v1.16.0 (2022) and that v1.48.0 was not read', () => {
    assert.match(p('aws-sdk-go-v2').name, /v1\.16\.0 \(2022\)/);
    assert.match(p('aws-sdk-go-v2').versions, /default from v1\.48\.0, not read at a release/);
  });

  test('item 3: stripe-node keys every v1 POST from 22.6.0, maxNetworkRetries: 0 too', () => {
    const stripe = p('stripe-current');
    assert.match(stripe.cannot.join(' '), /from 22\.6\.0 it keys every v1 POST, maxNetworkRetries: 0 too/);
    const key = SOURCES.find((q) => q.id === 'stripe-current').pins.idempotencyKey;
    assert.deepEqual(key.also.slice(0, 2).map((a) => `${a.package}@${a.version}`), ['stripe@23.2.0', 'stripe@22.6.0']);
    assert.match(stripe.versions, /22\.6\.0 and 23\.2\.0/);
  });

  test('item 4: the labels that were open-ended say where and when they were read', () => {
    for (const id of ['openai-python', 'anthropic-python', 'google-api-core', 'urllib3', 'stripe-current', 'aws-js-v3', 'openai-node', 'anthropic-node', 'got', 'axios-retry']) {
      assert.match(p(id).versions, /2026-12-04/, id);
      assert.doesNotMatch(p(id).name, /≥|current/, `${id}: no open-ended name`);
    }
  });

  test('item 5: grpc-java 1.71–1.79’s jitter is cited at v1.71.0 and v1.79.0 only', () => {
    const java = SOURCES.find((q) => q.id === 'grpc-java-171');
    const tags = releasesOf(java).filter((r) => r.repo === 'grpc/grpc-java').map((r) => r.tag);
    assert.deepEqual(tags.filter((t) => t === 'v1.80.0'), []);
    for (const f of ['jitter', 'jitterLow', 'jitterHigh']) assert.ok(['v1.71.0', 'v1.79.0'].includes(java.pins[f].tag), f);
    // 0.8·U + 0.4: U = 0 → 0.4, U = 1 → 1.2, on the ceilings 100, 200, 400.
    assert.deepEqual(waits(p('grpc-java-171'), [0, 1, 0.5]), [40, 240, 320]);
  });

  test('item 10: @grpc/grpc-js 1.14.7 — 0.8–1.2 on the capped ceiling from the first wait, A6’s 4 attempts under its cap of 5, 429/502/503/504 retried', () => {
    const js = p('grpc-js');
    // Ceilings: 0.1 s, then min(0.1 × 2, 1) = 0.2 s, min(0.2 × 2, 1) = 0.4 s (lines 331-333), each
    // times Math.random() × 0.4 + 0.8 (line 322): r = 0 → 80, r = 1 → 1.2 × 200 = 240, r = 0.5 → 400.
    assert.deepEqual(waits(js, [0, 1, 0.5]), [80, 240, 400]);
    // min(maxAttempts 4, limit 5) = 4 attempts: three waits, then the fourth 503 ends the call.
    assert.equal(waits(js, [0.5, 0.5, 0.5, 0.5]).length, 3);
    assert.ok(js.inputs.maxRetries + 1 <= 5, 'DEFAULT_MAX_ATTEMPTS_LIMIT = 5');
    for (const [status, expected] of Object.entries({ 429: true, 502: true, 503: true, 504: true, 500: false, 501: false, 400: false, 404: false, 408: false })) {
      assert.equal(retries(js, { status: Number(status) }), expected, `retries ${status}: ${expected}`);
    }
    // Every pin is the tarball @grpc/grpc-js@1.14.7 or A6's text; the gate is A6's throttle.
    const src = SOURCES.find((q) => q.id === 'grpc-js');
    const rel = releasesOf(src).map((r) => (r.package ? `${r.package}@${r.version}` : `${r.repo} ${r.tag}`));
    assert.deepEqual(rel, ['grpc/proposal A6 @ 2024-08-29 (#452)', '@grpc/grpc-js@1.14.7']);
    assert.deepEqual(js.gates.map((g) => [g.gate, g.params]), [['throttle', { maxTokens: 10, tokenRatio: 0.1, countFailures: 'retryable' }]]);
    assert.match(js.cannot.join(' '), /committed, and never retried, once response headers or a message arrived/);
    assert.match(js.cannot.join(' '), /grpc-retry-pushback-ms is waited exactly and restarts the backoff/);
    assert.match(js.versions, /1\.14\.7 \(read in its npm tarball on 2026-12-04/);
  });

  test('AWS JS v3: d × min(50 × 2^i, 20 s); 429 and 500/502/503/504 retried, 501 not; no header honoured', () => {
    assert.deepEqual(waits(p('aws-js-v3'), [0.5, 0.5]), [25, 50]);
    assert.deepEqual(waits(p('aws-js-v3'), [1, 1]), [50, 100]);
    for (const [status, expected] of Object.entries({ 429: true, 500: true, 502: true, 503: true, 504: true, 501: false, 505: false, 400: false, 409: false })) {
      assert.equal(retries(p('aws-js-v3'), { status: Number(status) }), expected, `retries ${status}: ${expected}`);
    }
    // The clamp max(t, min(hint, t + 5 s)) is not the engine's: the preset ignores the header and says so.
    assert.equal(script('aws-js-v3', [{ status: 503, retryAfter: '2' }, { status: 200 }], { draws: [1] }).attempts[0].waitAfterMs, 50);
    assert.match(p('aws-js-v3').cannot.join(' '), /max\(t, min\(hint, t \+ 5,000 ms\)\)/);
  });

  test('the Node AI SDKs: the Python schedule; OpenAI takes Retry-After up to 60 s, Anthropic with no cap', () => {
    for (const id of ['openai-node', 'anthropic-node']) {
      // min(500 × 2^(n−1), 8000) × (0.75 + 0.25 d): d = 0, 1 → 375, 1000.
      assert.deepEqual(waits(p(id), [0, 1]), [375, 1000], id);
      for (const [status, expected] of Object.entries({ 408: true, 409: true, 429: true, 500: true, 529: true, 400: false, 404: false })) {
        assert.equal(retries(p(id), { status: Number(status) }), expected, `${id} retries ${status}`);
      }
    }
    const wait = (id, header) => script(id, [{ status: 429, retryAfter: header }, { status: 200 }], { draws: [1] }).attempts[0].waitAfterMs;
    assert.equal(wait('openai-node', '60'), 60000);
    assert.equal(wait('openai-node', '61'), 500, 'above 60 s: min(500, 8000) × 1');
    assert.equal(wait('anthropic-node', '61'), 61000);
    assert.equal(wait('anthropic-node', '3600'), 3600000);
  });

  test('got: 1 s × 2^(n−1) with no cap, no POST, its statuses, 413 only with Retry-After, none above timeout.request', () => {
    assert.deepEqual(waits(p('got'), []), [1000, 2000], 'limit 2; the 0–100 ms noise is not drawn (approximated)');
    for (const [status, expected] of Object.entries({ 408: true, 429: true, 500: true, 502: true, 503: true, 504: true, 521: true, 522: true, 524: true, 501: false, 505: false, 413: false, 400: false })) {
      assert.equal(retries(p('got'), { status: Number(status) }), expected, `retries ${status}: ${expected}`);
    }
    // 413 with a Retry-After: retried after it; the header replaces the backoff.
    const r413 = script('got', [{ status: 413, retryAfter: '2' }, { status: 200 }]);
    assert.deepEqual([r413.metrics.attempts, r413.attempts[0].waitAfterMs], [2, 2000]);
    // maxRetryAfter ?? timeout.request: 3 s; 3 is honoured, 4 refuses the retry.
    assert.equal(script('got', [{ status: 503, retryAfter: '3' }, { status: 200 }]).attempts[0].waitAfterMs, 3000);
    const refused = script('got', [{ status: 503, retryAfter: '4' }, { status: 200 }]);
    assert.deepEqual([refused.metrics.attempts, refused.metrics.stopReason], [1, 'not-retryable']);
    // A POST that failed with a 503 is not retried either.
    assert.equal(compute({ ...p('got').inputs, scenario: 'outage-503-twice' }).metrics.attempts, 1);
    // A read that timed out is (ETIMEDOUT): 1 s later.
    const read = compute({ ...p('got').inputs, operation: 'read' });
    assert.deepEqual([read.metrics.attempts, read.attempts[1].startMs], [2, 4000]);
  });

  test('axios-retry: 3 retries at once, 429 and 5xx on reads only, timeouts never, Retry-After waited', () => {
    assert.deepEqual(waits(p('axios-retry'), []), [0, 0, 0]);
    for (const [status, expected] of Object.entries({ 429: true, 500: true, 501: true, 503: true, 599: true, 408: false, 409: false, 400: false })) {
      assert.equal(retries(p('axios-retry'), { status: Number(status) }), expected, `retries ${status}: ${expected}`);
    }
    assert.equal(compute({ ...p('axios-retry').inputs, scenario: 'outage-503-twice' }).metrics.attempts, 1, 'no POST');
    assert.equal(compute({ ...p('axios-retry').inputs, operation: 'read' }).metrics.attempts, 1, 'a timed-out read is not retried');
    assert.equal(script('axios-retry', [{ status: 503, retryAfter: '2' }, { status: 200 }]).attempts[0].waitAfterMs, 2000);
    // axios's 3 s timeout spans the attempts (shouldResetTimeout: false): 503 at 200 ms, again at
    // 400, 600, 800 with no waits; with Retry-After 2 twice, attempt 3 would start at 4,400 > 3,000.
    const spent = compute({ ...p('axios-retry').inputs, operation: 'read', scenario: 'script', script: [{ status: 503, retryAfter: '2' }] });
    assert.deepEqual([spent.metrics.attempts, spent.attempts[1].startMs], [2, 2200]);
  });
});

// The article's mesh section (site/index.html, "The retries nobody wrote") quotes Istio's
// presets: each claim it makes is what the presets hold and what their runs give.
describe('the article’s mesh section says what Istio’s presets do', () => {
  const html = readFileSync(join(REPO, 'site/index.html'), 'utf8');
  const section = html.slice(html.indexOf('<section aria-labelledby="s-mesh">'), html.indexOf('</section>', html.indexOf('<section aria-labelledby="s-mesh">')));
  const prose = section.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');

  test('it is in the article, between the outages and the reading of the run', () => {
    assert.ok(section.length > 0);
    assert.ok(html.indexOf('s-errors') < html.indexOf('s-mesh') && html.indexOf('s-mesh') < html.indexOf('s-reading'));
  });

  test('the default: 2 retries with Envoy’s back-off, 25 ms doubling to 250 ms, any method', () => {
    assert.match(prose, /Istio gives each route 2 retries with Envoy’s back-off, a random wait under 25 ms, then under 50, doubling up to 250\./);
    for (const id of ['istio', 'istio-123']) {
      const { inputs } = p(id);
      assert.deepEqual([inputs.maxRetries, inputs.baseBackoffMs, inputs.backoffMultiplier, inputs.maxBackoffMs, inputs.jitter, inputs.retryWritesWithoutKey], [2, 25, 2, 250, 'full', true], id);
    }
    // Under 25, then under 50 (full jitter on the ceiling; the draw 1 is the ceiling itself).
    assert.deepEqual(waits(p('istio-123'), [1, 1]), [25, 50]);
  });

  test('through 1.23 a 503 is retried, from 1.24 not; the lost response is left alone: one charge, outcome unknown', () => {
    assert.match(prose, /Through Istio 1\.23 that default retried a 503\. Istio 1\.24 \(2024\) took the 503 out/);
    assert.equal(retries(p('istio-123'), { status: 503 }), true);
    assert.equal(retries(p('istio'), { status: 503 }), false);
    assert.match(prose, /The opening run’s lost response it leaves alone: one charge, outcome unknown\./);
    for (const id of ['istio', 'istio-123']) {
      const { metrics } = opening(p(id));
      assert.deepEqual([metrics.charges, metrics.outcome], [1, 'unknown'], id);
    }
  });

  test('the documented example: 3 retries, 2 s per try, the timed-out charge sent again within 25 ms and charged twice', () => {
    assert.match(prose, /3 retries with a 2 s timeout per try on gateway-error, treats the opening run’s timed-out charge as a gateway error and sends it again within 25 ms, with no key: the card is charged twice\./);
    const { inputs } = p('istio-example');
    assert.deepEqual([inputs.maxRetries, inputs.clientTimeoutMs, inputs.idempotencyKey], [3, 2000, false]);
    const r = opening(p('istio-example'));
    assert.equal(r.metrics.charges, 2);
    assert.equal(r.attempts[0].endMs, 2000);
    assert.ok(r.attempts[1].startMs - r.attempts[0].endMs < 25, `waited ${r.attempts[1].startMs - r.attempts[0].endMs} ms`);
  });

  test('its link compares the two presets in compare mode', () => {
    const href = section.match(/<a href="#([^"]+)" data-mesh-link>/)[1].replaceAll('&amp;', '&');
    const params = new URLSearchParams(href);
    assert.deepEqual([params.get('v'), params.get('view'), params.get('client'), params.get('after.client')], ['1', 'compare', 'istio', 'istio-example']);
  });
});
