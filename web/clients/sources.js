// Real clients' retry settings, with where every value comes from (issues 9 and 16): the one
// source of the presets. `scripts/clients-table` writes two things from this file, and tests
// check both are exactly what it gives: docs/clients.md's per-preset tables (table.js), and the
// compact presets the page loads (the generated block of presets.js: the pins' quotes stay
// out of the page's bundle).
//
// Every value is pinned: the library, the release tag and its commit, the file and the line,
// and the line's text as read there. A value the page sets for itself (the seed's 3 s client
// timeout, so that every client meets the same lost response) says so and why. A value that
// could not be read at a release says so (`unverified`), and the card shows it. Presets that
// changed across releases come as versions, the newest first.
//
// A preset sets every field of the client's *policy* (POLICY_FIELDS); the server's behaviour
// and the fixture (scenario, operation, response time, seed) stay as the reader has them.
//
// Choices shared by every preset (docs/clients.md §0):
// - the seed's 3 s client timeout is kept where the client has a longer one or none that
//   ends an attempt (each preset's own value is named beside it);
// - the overall deadline is the client's own where it has one by default, else the seed's
//   10 s (the page's deadline box cannot hold "none"); gRPC's and Envoy's deadline is the
//   call's, and they have no per-attempt timeout, so the client timeout is the engine's largest;
// - every real client sends an attempt whenever it starts before its deadline
//   (attemptStart "before-deadline"): none of them knows the server's response time.

import { NO_TIMEOUT_MS, POLICY_FIELDS } from './presets.js';

// --- sources --------------------------------------------------------------------------------

// A release of a library as read: `repo` on GitHub, `tag`, and the tag's commit.
const release = (repo, tag, commit) => ({ repo, tag, commit });

// One line (or range, "777-779") of a file at a release, with its text.
const at = (rel, file, line, quote) => ({
  ...rel, file, line: String(line), quote,
  href: `https://github.com/${rel.repo}/blob/${rel.commit}/${file}#L${String(line).replace('-', '-L')}`,
});
// A package as the npm client fetches it (`npm pack name@version`): its name, version and the
// tarball's integrity (the sha512 its manifest lists). Its published files are what was read
// (built JavaScript, not the repository's sources): a pin names a file and line of the
// tarball, so it has no link, and staleness is checked against the package's newest version
// (scripts/clients-table --outdated).
const pkg = (name, version, integrity) => ({ package: name, version, integrity });
// One line (or range) of a file in a package's tarball, with its text.
const inPkg = (rel, file, line, quote) => ({ ...rel, file, line: String(line), quote });
// A value this page sets, not the client.
const page = (why) => ({ page: why });
// A value read only in a copy that is not a release, or not read at all.
const unverified = (why, pin = {}) => ({ ...pin, unverified: why });

const GRPC_GO = release('grpc/grpc-go', 'v1.83.1', '1550d9e0cddb30ce99e61a2102e8294a49461e5e');
const GRPC_GO_168 = release('grpc/grpc-go', 'v1.68.0', 'acba4d3e9d537eb5adc09947ebc7cfb85ec774cc');
const GRPC_GO_169 = release('grpc/grpc-go', 'v1.69.0', '317271b232677b7869576a49855b01b9f4775d67');
const GRPC_JAVA = release('grpc/grpc-java', 'v1.83.1', '8f621c03b776eed114c39969ce1bf347625d2e9d');
const GRPC_JAVA_170 = release('grpc/grpc-java', 'v1.70.0', '22a42c88d80fb96326b8c507591e4017c5e15ed3');
const GRPC_JAVA_171 = release('grpc/grpc-java', 'v1.71.0', '865c4432569dfdf738b3cf07bcdb6d6e3285f761');
const GRPC_JAVA_179 = release('grpc/grpc-java', 'v1.79.0', '381593f39e37b530177faad3c6035cfce4536ec7');
// gRFC A6 has no releases: the commit of its 2024-08-29 change (grpc/proposal #452), and the one before.
const A6 = release('grpc/proposal', 'A6 @ 2024-08-29 (#452)', 'dc9fd4fe5b94b90b82fe2833ad1d80938e6a49c1');
const A6_OLD = release('grpc/proposal', 'A6 @ 2023-02-03 (#339)', 'df5e8a8db094df56e5eb693a17749201b19f5e02');
const BOTO = release('boto/botocore', '1.43.67', 'c10ac1e37a0e37167b11c401dc062313ff89adba');
const BOTO_1414 = release('boto/botocore', '1.4.14', 'b40a4c9929f26e1ca01c0bd44975075a1baa45ba');
const BOTO_1415 = release('boto/botocore', '1.4.15', 'e882a4f05882bb72c72549fc77c5e02453d3689a');
const OPENAI = release('openai/openai-python', 'v3.3.1', '753ab5c1a81cd85e8bf0aef4c04c51a2e8dae6cd');
const OPENAI_252 = release('openai/openai-python', 'v2.52.0', 'ca693fbaa20a620ce53a48f4419a1a01444564e7');
const OPENAI_251 = release('openai/openai-python', 'v2.51.0', '3844843c277f42b0b18beaa58152cfda61df524a');
const OPENAI_100 = release('openai/openai-python', 'v1.0.0', '08b8179a6b3e46ca8eb117f819cc6563ae74e27d');
const ANTHROPIC = release('anthropics/anthropic-sdk-python', 'v0.121.0', '204fa8e7ebc0c289a91c1fa337b21263e2f0da0e');
const DOTNET = release('dotnet/extensions', 'v10.9.0', 'b10f9c0a081b5dbb7755b8f5592e1d3c3f550a3a');
const POLLY = release('App-vNext/Polly', '8.7.0', 'a824c6b9258daa2879b8fa2ea768bf06bd5e6cf0');
const R4J = release('resilience4j/resilience4j', 'v2.4.0', 'f1c3be8e79d09c70d457b2f89c3f89d03f1b5720');
const RETRYABLEHTTP = release('hashicorp/go-retryablehttp', 'v0.7.8', 'e1f5485fe84728709b857cb89e17088894c301d6');
const CLEANHTTP = release('hashicorp/go-cleanhttp', 'v0.5.2', '6d9e2ac5d828e5f8594b97f88c4bde14a67bb6d2');
const API_CORE = release('googleapis/python-api-core', 'v2.29.0', '014d3def6ac4fdd5b39d5296a5aad10a546fde21');
const REQUESTS = release('psf/requests', 'v2.34.2', '6e83187b8feb273ed4c6cdab5efd8d54901dfab3');
const URLLIB3 = release('urllib3/urllib3', '2.7.0', '9a950b92d999f906b6020bb2d1076ee56cddd5d2');
const STRIPE_PY = release('stripe/stripe-python', 'v15.3.1', 'd941aca69d046996d0dd63fe0a79b627b283a75b');
const STRIPE_PY_1530 = release('stripe/stripe-python', 'v15.3.0', '4454934a9bd1d957e50d6f9b4d6c11cb827348db');
const STRIPE_PY_11 = release('stripe/stripe-python', 'v11.0.0', '9bc3689f3736eab961aa937ff9ddee9105b375e9');
const STRIPE_PY_10 = release('stripe/stripe-python', 'v10.12.0', '3587026b839435d072b7d220967c476d4c6b9a9b');
const STRIPE_NODE = release('stripe/stripe-node', 'v22.5.0', '65d99a2b76d0786d7cec8544920affadccc8b670');
const STRIPE_NODE_2231 = release('stripe/stripe-node', 'v22.3.1', 'aa6e20ee670f2d74c352bd0353ae1d280573759c');
const STRIPE_NODE_2230 = release('stripe/stripe-node', 'v22.3.0', '3c5c172c0dbabc0c34a1fd14b910ad5ada110a53');
const STRIPE_NODE_17 = release('stripe/stripe-node', 'v17.0.0', '2399b97ca3634a78986790dc92db151b53fb202c');
const STRIPE_GO = release('stripe/stripe-go', 'v86.2.0', 'cb52f09a01f50f390776c5adc850e9d5ce4d1d9c');
const STRIPE_GO_821 = release('stripe/stripe-go', 'v82.1.0', '69a9399034d9d4f976a1579385c114d4108482c1');
const STRIPE_GO_81 = release('stripe/stripe-go', 'v81.3.0', 'fffcd5634f9e7ce4baf8bb65b0583257495ea6ce');
// npm packages, read in their tarballs on 2026-12-04 (the newest version of each that day, and
// the releases either side of a change).
const SMITHY_CORE_339 = pkg('@smithy/core', '3.39.0', 'sha512-JJ/46AWQ4ipS1N2eZmUj7yzIhH8NhQIfAE+dce7NSB6dmFh+7hvD4pbofcoT4I0Xzfy/LNhZx3V2QhwYyAiqdg==');
const SMITHY_CORE_340 = pkg('@smithy/core', '3.40.0', 'sha512-DssGno52pzZ5m6RlDtyKuBIpZNPg9pqgs0CnNDKz9IatxCsmvNmJNn5Zn6rf77MthZo9wf89OvZFhTY/RwxhxQ==');
const SMITHY_CORE = pkg('@smithy/core', '3.41.1', 'sha512-24LyiHSY0R/MLcbTylurWXU6Uy4lzI6KJgsdzxkNnjT9/OLWc2zGPb/3k5AM1f0vcgCGrExanUG339t+TBiIrA==');
const SMITHY_RETRY = 'dist-cjs/submodules/retry/index.js';
const NODE_HTTP_HANDLER = pkg('@smithy/node-http-handler', '4.14.2', 'sha512-i1uORV1v3qBqP43ayRKzIdm1q5x14tf8N4Dd06/QUX1Szm6VxHMrTsu20X5E63UFsaNZCRjI4SXG0jDmqYa+3w==');
const STRIPE_NODE_NPM_2260 = pkg('stripe', '22.6.0', 'sha512-Ezk+WYEEwX2DLxFrKfb6coznlCMZvCaCYMNPXNHFSZkBIEzF5Hgm7RLb38q/0h9Ol5jsUJGJRorvhzAvckgfhw==');
const STRIPE_NODE_NPM = pkg('stripe', '23.2.0', 'sha512-0W0J4yA9qFO2rnF61v8Y62OiO2SmAR+Cv04VJaFUMpCxiq8lG5bxEYbeSMSpMDR9ofFZGd+Z/iUIgSFbOolmUw==');
const OPENAI_NODE = pkg('openai', '7.60.0', 'sha512-vipS79MnBZX6zpWjMGdRQazRcbYc3CxGUNZYLpd8YANeq1ZlTAZeHctkeUJvqDVcET7+kHI2osGWyhk3Co9odg==');
const ANTHROPIC_NODE = pkg('@anthropic-ai/sdk', '1.17.0', 'sha512-5rVmx+2NYKv1UBMyG0kmPsG3IBcxeynpXfQexIZYiWeZZRsE2fP0/S9LQy/yCJ97yVkyj4r3sAheQ0WQHd8NjQ==');
const GOT = pkg('got', '16.2.0', 'sha512-aOgWdlVL/pipu3Cqr9okwOdRZPsWwntgTup+eTn2fE1k4vky6oybjVUZxCSdAfOJkSxoyGKcGlgxf2+LcPdgVg==');
const GOT_CORE = 'dist/source/core';
const AXIOS_RETRY = pkg('axios-retry', '4.5.0', 'sha512-aR99oXhpEDGo0UuAlYcn2iGRds30k366Zfa05XWScR9QaQD4JYiP3/1Qt1u7YlefUOK+cn0CcwoL1oefavQUlQ==');
const GRPC_JS = pkg('@grpc/grpc-js', '1.14.7', 'sha512-W4W/fcBMGRVtG6dW2c7cw2mnpS3hvbBd+oQXjh2iYFTZDk1JJmcNqkM5KSaPubQpamlUUurrlb7G1s9NJeERmQ==');
const GRPC_JS_RETRY = 'build/src/retrying-call.js';
const GRPC_JS_CALL = 'build/src/subchannel-call.js';
// aws/aws-sdk-go-v2 (1.5 GB), envoyproxy/envoy (1.7 GB) and grpc/grpc are too large to fetch
// here; what stands in for them, release by release, follows. A copy named "no tag" is a stored
// copy at a commit whose release is not established: its values are only ever unverified.
// aws-sdk-go-v2 v1.16.0 as `go mod vendor` copies it (the module's files at that tag, checked by
// go.sum): grafana/loki's vendor/ at a commit whose vendor/modules.txt names that version.
const GO_V2 = release('grafana/loki', 'aws-sdk-go-v2 v1.16.0 (vendored)', '1d397605766d388594fbcdbfbffda4ff86937748');
const GO_V2_DIR = 'vendor/github.com/aws/aws-sdk-go-v2/aws/retry';
// Envoy's route API at a release: go-control-plane's tag envoy/v1.39.0 holds the Go generated
// from Envoy's protos, with their comments (the defaults) verbatim.
const ENVOY_API = release('envoyproxy/go-control-plane', 'envoy/v1.39.0', 'ca8ce173c36fedaaf7549d780273423c125aa360');
const ENVOY_ROUTE = 'envoy/config/route/v3/route_components.pb.go';
// Envoy's router code at a release: the tag v1.14.2 (Envoy's own commit, read in a fork's copy).
const ENVOY_1142 = release('envoyproxy/envoy', 'v1.14.2', '1a0363c885c2dbb1e48b03847dbd706d1ba43eba');
const ENVOY_BACKOFF = 'source/common/common/backoff_strategy.cc';
const ENVOY_RETRY_STATE = 'source/common/router/retry_state_impl.cc';
// And at v1.37.0: its release commit ("repo: Release v1.37.0", VERSION.txt 1.37.0; other
// projects pin v1.37.0 as this commit), read in a fork's copy of Envoy's main history
// (penguingao/envoy, at 1.38.0-dev); v1.38 and v1.39 are later than any copy reachable here.
const ENVOY_1370 = release('envoyproxy/envoy', 'v1.37.0', '6d9bb7d9a85d616b220d1f8fe67b61f82bbdb8d3');
// Istio's control plane writes the Envoy route retry policy every route gets (istio/istio), from
// its VirtualService API (istio/api): the newest release in the snapshot reachable here (1.30.3,
// 2026-07-13; 1.31.0-rc.0 writes the same policy), the last that retried a 503 by default
// (1.23.6), and the release that took the 503 out (1.24.0).
const ISTIO = release('istio/istio', '1.30.3', '56df41f63e513f834c9a3af33d8aed82d1d961f2');
const ISTIO_123 = release('istio/istio', '1.23.6', '6a112a28410654328342c68f82da48920e34f062');
const ISTIO_124 = release('istio/istio', '1.24.0', '8825a6b7f8c9a2d66005a5f8b64e98aaee0dda99');
const ISTIO_API = release('istio/api', '1.30.3', '2e43f07b30b6744bc8252fce39fb58b03f85ff8b');
const ISTIO_API_123 = release('istio/api', '1.23.6', 'ed909087eb364d7e219723c1ea77827838f1c5af');
const ISTIO_RETRY = 'pilot/pkg/networking/core/route/retry/retry.go';
const ISTIO_VS = 'networking/v1alpha3/virtual_service.proto';
// grpc/grpc (992 MB) at the release v1.51.1, read in Debian's source package grpc 1.51.1-3
// (Debian 12; Debian 13 and unstable ship the same upstream 1.51.1): its grpc_1.51.1.orig.tar.gz
// is GitHub's archive of the tag, whose pax header names the commit below (sha256 b55696fb…, as
// grpc_1.51.1-3.dsc lists it, the .dsc's signature good by the Debian maintainer's key; none of
// Debian's patches touches the files pinned here).
const GRPC_CORE_151 = release('grpc/grpc', 'v1.51.1', '0a82c02a9b817a53574994374dcff53f2e961df2');
const CORE_BACKOFF = 'src/core/lib/backoff/backoff.cc';
const CORE_RETRY = 'src/core/ext/filters/client_channel/retry_filter.cc';
const CORE_RETRY_CONFIG = 'src/core/ext/filters/client_channel/retry_service_config.cc';
const CORE_THROTTLE = 'src/core/ext/filters/client_channel/retry_throttle.cc';

// --- shared pins ------------------------------------------------------------------------------

const SEED_TIMEOUT = (own) => page(`the seed’s 3 s, so every client meets the same lost response; ${own}`);
const SEED_DEADLINE = (own) => page(`the seed’s 10 s (the page’s deadline box cannot hold “none”); ${own}`);
const BEFORE_DEADLINE = page('a real client sends an attempt whenever it starts before its deadline: not knowing the server’s response time, it cannot check first that the answer would arrive in time');
const NONE = (why) => ({ none: why });

// Policy fields a client does not have, at their "off" values. A preset lists the ones it sets.
const OFF = {
  waitBudgetMs: null, firstRetryImmediate: false, minBackoffMs: 0, ceilingScheduleMs: [], retryOnStatuses: [],
  retryAfterStatuses: [], retryAfterMode: 'replace', retryAfterMaxMs: null, retryAfterOverMax: 'backoff',
  attemptStart: 'before-deadline',
};
const OFF_PINS = {
  waitBudgetMs: NONE('no limit on the total waiting in the settings pinned here'),
  firstRetryImmediate: NONE('the backoff pinned here waits from the first retry'),
  minBackoffMs: NONE('no minimum in the backoff pinned here'),
  ceilingScheduleMs: NONE('the backoff pinned here is a formula, not a list'),
  retryOnStatuses: NONE('no exact statuses beyond the classes pinned here'),
  retryAfterStatuses: NONE('a Retry-After makes no status retryable by itself'),
  retryAfterMode: NONE('“replace”: a header honoured replaces the backoff, or none is honoured'),
  retryAfterMaxMs: NONE('no largest Retry-After, or none is honoured'),
  retryAfterOverMax: NONE('“backoff”: nothing is refused for a large Retry-After'),
  attemptStart: BEFORE_DEADLINE,
};

// A preset from its distinct parts: `inputs` over OFF, `pins` over OFF_PINS.
function preset(p) {
  const inputs = { ...OFF, ...p.inputs };
  const pins = { ...OFF_PINS, ...p.pins };
  return { unverified: [], gates: [], ...p, inputs, pins };
}

// --- the presets --------------------------------------------------------------------------------

const GRPC_STATUS_PINS = {
  retryOn: at(GRPC_GO, 'stream.go', 758, 'if rp == nil || !rp.RetryableStatusCodes[code] {'),
  retryOnStatuses: at(GRPC_GO, 'internal/transport/http_util.go', '80-87', '// 429 Too Many Requests - UNAVAILABLE. http.StatusTooManyRequests: codes.Unavailable, … http.StatusBadGateway: codes.Unavailable, … http.StatusServiceUnavailable: codes.Unavailable, … http.StatusGatewayTimeout: codes.Unavailable,'),
};
const GRPC_COMMON_PINS = {
  maxRetries: at(A6, 'A6-client-retries.md', 359, '"maxAttempts": 4,'),
  baseBackoffMs: at(A6, 'A6-client-retries.md', 360, '"initialBackoff": "0.1s",'),
  maxBackoffMs: at(A6, 'A6-client-retries.md', 361, '"maxBackoff": "1s",'),
  backoffMultiplier: at(A6, 'A6-client-retries.md', 362, '"backoffMultiplier": 2,'),
  clientTimeoutMs: page('none: gRPC has no per-attempt timeout, so the engine’s largest, and an attempt ends only at the call deadline'),
  deadlineMs: page('the seed’s 3 s as the call deadline, which spans every attempt (A6 line 101: “gRPC’s call deadline applies across all attempts”); gRPC sets none unless the caller does'),
  idempotencyKey: NONE('gRPC sends no key'),
  retryWritesWithoutKey: NONE('gRPC does not tell writes from reads: the service owner chooses the codes'),
  honourRetryAfter: NONE('gRPC reads grpc-retry-pushback-ms, not Retry-After'),
  ...GRPC_STATUS_PINS,
};
const GRPC_STATUSES = { retryOn: [], retryOnStatuses: [429, 502, 503, 504] };
const GRPC_BASE = {
  maxRetries: 3, baseBackoffMs: 100, backoffMultiplier: 2, maxBackoffMs: 1000, clientTimeoutMs: NO_TIMEOUT_MS,
  deadlineMs: 3000, idempotencyKey: false, retryWritesWithoutKey: true, honourRetryAfter: false, ...GRPC_STATUSES,
};
const GRPC_CANNOT = [
  'gRPC retries by status code, not by HTTP status: the engine’s answers are HTTP statuses, so the preset retries the four HTTP statuses grpc-go and grpc-java map to UNAVAILABLE (429, 502, 503, 504) and not 500 (UNKNOWN). A gRPC server’s own UNAVAILABLE is one of these.',
  'Retry throttling (retryThrottling) in one request (the fleet runs it: the throttle gate below), hedging, transparent retries, pushback (grpc-retry-pushback-ms, which also restarts the backoff), and grpc-go retrying only answers that came as Trailers-Only.',
  'gRPC retries nothing unless the service config sets a policy: this is A6’s example policy, not a default.',
];
const GRPC_THROTTLE = {
  gate: 'throttle', params: { maxTokens: 10, tokenRatio: 0.1, countFailures: 'retryable' },
  pin: {
    ...at(A6, 'A6-client-retries.md', '404-405', '"maxTokens": 10, "tokenRatio": 0.1'),
    also: [at(A6, 'A6-client-retries.md', 193, 'The only RPCs that are counted as failures for the throttling policy are RPCs that fail with a status code that qualifies as a retryable or non-fatal status code, or that receive a pushback response indicating not to retry.')],
  },
  note: 'A6’s example retryThrottling; gRPC throttles only when the service config sets it. The rule (line 187): “If token_count is less than or equal to the threshold, defined to be (maxTokens / 2), then RPCs will not be retried”. Only a failure with a retryable status takes a token (line 193): in the fleet, a failure whose class is in Retry on, so a timeout counts only while Retry on holds it; A6’s example policy retries UNAVAILABLE alone, so for A6 as written take “timeout” out of Retry on.',
};
// GRPC_THROTTLE as one implementation reads it: A6's pins and that implementation's, and its note.
const grpcThrottleAlso = (pins, note) => ({ ...GRPC_THROTTLE, pin: { ...GRPC_THROTTLE.pin, also: [...GRPC_THROTTLE.pin.also, ...pins] }, note });
const GRPC_OPENING = { attempts: 1, charges: 1, outcome: 'unknown', why: 'the response is lost and nothing ends the attempt before the 3 s call deadline, at which the call fails with DEADLINE_EXCEEDED; gRPC does not retry past its deadline' };

const BOTO_COMMON_PINS = {
  maxRetries: at(BOTO, 'botocore/retries/standard.py', 44, 'DEFAULT_MAX_ATTEMPTS = 3'),
  backoffMultiplier: at(BOTO, 'botocore/retries/standard.py', 366, '_BASE = 2'),
  maxBackoffMs: at(BOTO, 'botocore/retries/standard.py', 367, '_MAX_BACKOFF = 20'),
  clientTimeoutMs: SEED_TIMEOUT('botocore’s own read timeout is 60 s (botocore/endpoint.py line 39: DEFAULT_TIMEOUT = 60)'),
  deadlineMs: SEED_DEADLINE('botocore sets no overall deadline'),
  idempotencyKey: NONE('a key only for operations whose model has an idempotency token; a charge here has none'),
  retryWritesWithoutKey: NONE('botocore does not tell writes from reads'),
  retryOn: at(BOTO, 'botocore/retries/standard.py', '492-494', '_TRANSIENT_EXCEPTION_CLS = ( ConnectionError, HTTPClientError, ): a ReadTimeoutError is an HTTPClientError (botocore/exceptions.py line 140); a 429 is retried with a throttling error code, _THROTTLED_ERROR_CODES, line 532'),
  retryOnStatuses: at(BOTO, 'botocore/retries/standard.py', 491, '_TRANSIENT_STATUS_CODES = [500, 502, 503, 504]'),
};
const BOTO_CANNOT = [
  'A 429 is retried only when its error code is a throttling one (Throttling, ThrottlingException, TooManyRequestsException…); here every 429 is.',
  'Connect timeouts apart from read timeouts; modeled retryable errors; adaptive mode’s client-side rate limiting.',
];
const AWS_OPENING = { attempts: 2, charges: 2, outcome: 'success', why: 'the read timeout is retried and no idempotency key is sent for a call that models none, so the second attempt charges again' };
// botocore ≤ 1.43's standard mode, which its adaptive mode runs too (client.py lines 250-254).
const BOTO_STANDARD_INPUTS = { maxRetries: 2, baseBackoffMs: 1000, backoffMultiplier: 2, maxBackoffMs: 20000, jitter: 'full', clientTimeoutMs: 3000, deadlineMs: 10000, idempotencyKey: false, retryOn: ['timeout', '429'], retryWritesWithoutKey: true, honourRetryAfter: false, retryOnStatuses: [500, 502, 503, 504] };
const BOTO_STANDARD_PINS = {
  ...BOTO_COMMON_PINS,
  baseBackoffMs: at(BOTO, 'botocore/retries/standard.py', '426-429', 'return self._random() * min( (self._base ** (context.attempt_number - 1)), self._max_backoff, ) (seconds)'),
  jitter: at(BOTO, 'botocore/retries/standard.py', '426-429', 'self._random() * min(…)'),
  honourRetryAfter: at(BOTO, 'botocore/retries/standard.py', '407-429', 'without NEW_RETRIES_ENABLED the delay is the formula alone; no header is read'),
};
const BOTO_STANDARD_QUOTA = {
  gate: 'quota', params: { capacity: 500, retryCost: 5, timeoutCost: 10, successIncrement: 1 },
  pin: at(BOTO, 'botocore/retries/standard.py', '696-699', 'else: if self._is_timeout_error(context): capacity_amount = self._TIMEOUT_RETRY_REQUEST else: capacity_amount = self._RETRY_COST (_RETRY_COST = 5, line 670; _TIMEOUT_RETRY_REQUEST = 10, line 674)'),
  note: 'The fleet’s AWS retry quota has exactly these as its defaults.',
};

// The AWS SDK for JavaScript v3's standard strategy (@smithy/core 3.40.0–3.41.1), which its
// adaptive strategy wraps (AdaptiveRetryStrategy, dist-cjs/submodules/retry/index.js lines 577-586).
const JS_V3_INPUTS = { maxRetries: 2, baseBackoffMs: 50, backoffMultiplier: 2, maxBackoffMs: 20000, jitter: 'full', clientTimeoutMs: 3000, deadlineMs: 10000, idempotencyKey: false, retryOn: ['timeout', '429'], retryWritesWithoutKey: true, honourRetryAfter: false, retryOnStatuses: [500, 502, 503, 504] };
const JS_V3_PINS = {
    maxRetries: inPkg(SMITHY_CORE, SMITHY_RETRY, 477, 'const DEFAULT_MAX_ATTEMPTS = 3;'),
    baseBackoffMs: { ...inPkg(SMITHY_CORE, SMITHY_RETRY, '413-416', 'static v2026 = true; static delay() { return 50; }'), also: [inPkg(SMITHY_CORE_340, SMITHY_RETRY, 404, 'static v2026 = true; (the first release with it)'), inPkg(SMITHY_CORE_339, SMITHY_RETRY, 404, 'static v2026 = typeof process !== "undefined" && process.env?.SMITHY_NEW_RETRIES_2026 === "true"; (before: return Retry.v2026 ? 50 : 100;, line 406)')] },
    backoffMultiplier: inPkg(SMITHY_CORE, SMITHY_RETRY, '435-436', 'const r = 2; const t_i = b * Math.min(this.x * r ** i, MAXIMUM_RETRY_DELAY); (i is the retries so far: 0 before the first retry, refreshRetryTokenForRetry line 518)'),
    maxBackoffMs: inPkg(SMITHY_CORE, SMITHY_RETRY, 116, 'const MAXIMUM_RETRY_DELAY = 20 * 1000;'),
    jitter: { ...inPkg(SMITHY_CORE, SMITHY_RETRY, '434-437', 'const b = Math.random(); … const t_i = b * Math.min(this.x * r ** i, MAXIMUM_RETRY_DELAY); return Math.floor(t_i);'), approximated: 'the SDK rounds each wait down to a whole millisecond (Math.floor); the engine does not, so a wait here is at most 1 ms longer than the SDK’s for the same draw' },
    clientTimeoutMs: SEED_TIMEOUT('the SDK sets none by default (@smithy/node-http-handler 4.14.2 dist-cjs/index.js line 232: const DEFAULT_REQUEST_TIMEOUT = 0;); a timeout the caller sets raises a TimeoutError (line 144), a transient error'),
    deadlineMs: SEED_DEADLINE('the SDK sets no overall deadline (an abortSignal ends the retries)'),
    idempotencyKey: { ...inPkg(SMITHY_CORE, SMITHY_RETRY, 204, 'request.headers[INVOCATION_ID_HEADER] = v4(); (amz-sdk-invocation-id, one per call: a header for tracing, not a key the service dedupes by; a key only for operations whose model has an idempotency token)') },
    retryOn: { ...inPkg(SMITHY_CORE, SMITHY_RETRY, 36, 'const TRANSIENT_ERROR_CODES = ["TimeoutError", "RequestTimeout", "RequestTimeoutException"];'), also: [inPkg(SMITHY_CORE, SMITHY_RETRY, 58, 'const isThrottlingError = (error) => error.$metadata?.httpStatusCode === 429 || (429 by its status, whatever the error code)'), inPkg(NODE_HTTP_HANDLER, 'dist-cjs/index.js', 144, '{ name: "TimeoutError" } (the socket timeout’s error)')] },
    retryWritesWithoutKey: inPkg(SMITHY_CORE, SMITHY_RETRY, '273-284', 'const getRetryErrorType = (error) => { if (isThrottlingError(error)) { return "THROTTLING"; } if (isTransientError(error)) { return "TRANSIENT"; } … (no check looks at the method)'),
    honourRetryAfter: { ...inPkg(SMITHY_CORE, SMITHY_RETRY, 521, 'retryDelay = Math.max(delayFromErrorType, Math.min(errorInfo.retryAfterHint.getTime() - Date.now(), delayFromErrorType + 5_000));') },
    retryOnStatuses: inPkg(SMITHY_CORE, SMITHY_RETRY, 37, 'const TRANSIENT_ERROR_STATUS_CODES = [500, 502, 503, 504];'),
  };
const JS_V3_QUOTA = {
    gate: 'quota', params: { capacity: 500, retryCost: 14, timeoutCost: 14, successIncrement: 1 },
    pin: inPkg(SMITHY_CORE, SMITHY_RETRY, '420-425', 'static cost() { return 14; } static throttlingCost() { return 5; } (INITIAL_RETRY_TOKENS = 500, line 118; NO_RETRY_INCREMENT = 1, line 121; a TimeoutError is TRANSIENT and costs 14)'),
    note: 'A timeout costs 14 like any other transient error; a throttling error (a 429 among them) costs 5, which the fleet’s quota has no setting for. After a retried success the cost comes back, not the +1 (recordSuccess, line 541: this.capacity + (token.getRetryCost() ?? NO_RETRY_INCREMENT)).',
  };

// Envoy's router, as every Envoy route retry policy meets it (the Envoy preset's, and Istio's,
// which writes an Envoy policy for every route): its back-off, blind to the method, no Retry-After.
const ENVOY_ROUTER_PINS = {
  baseBackoffMs: { ...at(ENVOY_API, ENVOY_ROUTE, '2755-2757', '// Specifies parameters that control exponential retry back off. This parameter is optional, in which case the // default base interval is 25 milliseconds or, if set, the current value of the // “upstream.base_retry_backoff_ms“ runtime parameter.'), also: [at(ENVOY_1370, ENVOY_RETRY_STATE, '90-91', 'std::chrono::milliseconds base_interval( runtime_.snapshot().getInteger("upstream.base_retry_backoff_ms", 25));'), at(ENVOY_1142, ENVOY_RETRY_STATE, 68, 'runtime_.snapshot().getInteger("upstream.base_retry_backoff_ms", 25));')] },
  backoffMultiplier: { ...at(ENVOY_1370, ENVOY_BACKOFF, 17, 'next_interval_ = (next_interval_ < doubling_limit_) ? (next_interval_ * 2u) : max_interval_; (doubling_limit_ = max_interval_ / 2u, backoff_strategy.h line 47)'), also: [at(ENVOY_1142, ENVOY_BACKOFF, '17-21', 'if (next_interval_ < max_interval_ / 2) { next_interval_ *= 2; } else { next_interval_ = max_interval_; }')] },
  maxBackoffMs: { ...at(ENVOY_API, ENVOY_ROUTE, '2757-2758', 'The default maximum interval is 10 times // the base interval.'), also: [at(ENVOY_1370, ENVOY_RETRY_STATE, 98, 'std::chrono::milliseconds max_interval = base_interval * 10;'), at(ENVOY_1142, ENVOY_RETRY_STATE, 75, 'std::chrono::milliseconds max_interval = base_interval * 10;')] },
  jitter: {
    ...at(ENVOY_1370, ENVOY_BACKOFF, '13-19', 'uint64_t JitteredExponentialBackOffStrategy::nextBackOffMs() { const uint64_t backoff = next_interval_; … return (random_.random() % backoff); } (a wait uniform in [0, interval): 0–24, 0–49, 0–99 ms…)'),
    also: [
      at(ENVOY_1142, ENVOY_BACKOFF, '13-23', 'uint64_t JitteredBackOffStrategy::nextBackOffMs() { const uint64_t backoff = next_interval_; … return std::min(random_.random() % backoff, max_interval_); }'),
      at(ENVOY_1370, 'docs/root/configuration/http/http_filters/router_filter.rst', '46-48', 'the back-off for the retry is in the range :math:`\\big[0, (2^N-1)B\\big)`. For example, given the default interval, the first retry will be delayed randomly by 0-24ms, the 2nd by 0-74ms, the 3rd by 0-174ms (the documentation, at v1.14.2 as at v1.37.0; the code above draws 0–49 ms for the 2nd)'),
      at(ENVOY_1142, 'docs/root/configuration/http/http_filters/router_filter.rst', '46-48', 'the back-off for the retry is in the range :math:`\\big[0, (2^N-1)B\\big)`. For example, given the default interval, the first retry will be delayed randomly by 0-24ms, the 2nd by 0-74ms, the 3rd by 0-174ms (the documentation; the code above draws 0–49 ms for the 2nd)'),
    ],
  },
  retryWritesWithoutKey: { ...at(ENVOY_1370, ENVOY_RETRY_STATE, '395-399', 'if (retry_on_ & RetryPolicy::RETRY_ON_5XX) { if (Http::CodeUtility::is5xx(response_status)) { return RetryDecision::RetryWithBackoff; (no method is looked at; only HTTP/3 0-RTT-safe requests get 425 added, lines 80-89)'), also: [at(ENVOY_1142, ENVOY_RETRY_STATE, '283-294', 'bool RetryStateImpl::wouldRetryFromHeaders(const Http::ResponseHeaderMap& response_headers) { … if (retry_on_ & RetryPolicy::RETRY_ON_5XX) { if (Http::CodeUtility::is5xx(Http::Utility::getResponseStatus(response_headers))) { return true; (the decision reads the answer and the policy, never the request’s method)')] },
  honourRetryAfter: { ...at(ENVOY_API, ENVOY_ROUTE, '2761-2767', '// Specifies parameters that control a retry back-off strategy that is used // when the request is rate limited by the upstream server. The server may // return a response header like “Retry-After“ … If // configured, this back-off strategy will be used instead of the // default exponential back off strategy (not configured by default: no header is read)'), also: [at(ENVOY_API, ENVOY_ROUTE, '6019-6021', '//	Configuring ``rate_limited_retry_back_off`` will not by itself cause a request //	to be retried.')] },
};

// Istio writes one Envoy route retry policy for every route (istio/istio, route/retry/retry.go):
// Envoy's router then retries, blind to the method, with Envoy's back-off.
const ISTIO_INPUTS = {
  maxRetries: 2, baseBackoffMs: 25, backoffMultiplier: 2, maxBackoffMs: 250, jitter: 'full', clientTimeoutMs: NO_TIMEOUT_MS,
  deadlineMs: 10000, idempotencyKey: false, retryOn: [], retryWritesWithoutKey: true, honourRetryAfter: false,
};
const ISTIO_PINS = { ...ENVOY_ROUTER_PINS, idempotencyKey: NONE('the mesh adds no key') };
const ISTIO_CLUSTER = 'pilot/pkg/networking/core/cluster_traffic_policy.go';
const istioNoRetryCap = (pin) => ({
  gate: 'budget', params: null, pin,
  note: 'Not the fleet’s retry budget, and no gate at all: Envoy caps concurrent retries per cluster at 3 by default, and Istio raises that cap to 4,294,967,295 on every cluster it writes; it sets no retry budget.',
});
const ISTIO_CANNOT = [
  'connect-failure and refused-stream (the request never reached the application, so resending it is safe) and gRPC’s UNAVAILABLE and CANCELLED in the grpc-status header (which a server can send after it has done the work) are retried; the engine’s answers are HTTP statuses and its only network failure is the timeout.',
  'Each retry goes to a host not yet tried (previous_hosts, up to 5 host selections: retry.go); the engine has one server.',
  'Whole-millisecond waits (Envoy’s random % interval); a mesh-wide defaultHttpRetryPolicy (Mesh Config) can replace the default.',
];
const ISTIO_UNVERIFIED = ['The waits are Envoy’s router’s, read at Envoy v1.37.0 and v1.14.2 (the same back-off at both); the Envoy build that Istio ships (istio/proxy) was not read.'];

export const SOURCES = [
  // ---- gRPC ----
  preset({
    id: 'grpc-go-169',
    group: 'gRPC',
    name: 'gRPC A6 example policy: grpc-go ≥ 1.69, grpc-java ≥ 1.80',
    short: 'grpc-go ≥ 1.69 with A6’s example policy',
    library: 'grpc/grpc-go, grpc/grpc-java',
    versions: 'grpc-go ≥ 1.69.0 (read at v1.69.0 and v1.83.1), grpc-java ≥ 1.80.0 (read at v1.80.0 and v1.83.1), A6 since 2024-08-29',
    inputs: { ...GRPC_BASE, jitter: 'proportional', jitterLow: 0.8, jitterHigh: 1.2 },
    pins: {
      ...GRPC_COMMON_PINS,
      jitter: { ...at(GRPC_GO, 'stream.go', '777-779', 'cur := min(float64(rp.InitialBackoff)*fact, float64(rp.MaxBackoff)) // Apply jitter by multiplying with a random factor between 0.8 and 1.2 cur *= 0.8 + 0.4*rand.Float64()'), also: [at(GRPC_GO_169, 'stream.go', '711-713', 'cur := min(float64(rp.InitialBackoff)*fact, float64(rp.MaxBackoff)) // Apply jitter … cur *= 0.8 + 0.4*rand.Float64() (the first release with it)')] },
      jitterLow: at(GRPC_JAVA, 'core/src/main/java/io/grpc/internal/RetriableStream.java', '857-859', 'double inverseJitterFactor = isExperimentalRetryJitterEnabled ? 0.4 * random.nextDouble() + 0.8 : random.nextDouble();'),
      jitterHigh: at(A6, 'A6-client-retries.md', 113, 'the n-th attempt will occur after min(initialBackoff*backoffMultiplier**(n-1), maxBackoff) * random(0.8, 1.2))'),
    },
    gates: [GRPC_THROTTLE],
    cannot: [
      ...GRPC_CANNOT,
      'grpc-java’s new jitter is behind GRPC_EXPERIMENTAL_XDS_RLS_LB, on by default (RetriableStream.java line 855); switched off, grpc-java waits as ≤ 1.70 does.',
    ],
    opening: GRPC_OPENING,
  }),
  preset({
    id: 'grpc-java-171',
    group: 'gRPC',
    name: 'gRPC A6 example policy: grpc-java 1.71–1.79 (jitter 0.4–1.2)',
    short: 'grpc-java 1.71–1.79 with A6’s example policy',
    library: 'grpc/grpc-java',
    versions: 'grpc-java 1.71.0–1.79.x (read at v1.71.0 and v1.79.0; fixed in v1.80.0)',
    inputs: { ...GRPC_BASE, jitter: 'proportional', jitterLow: 0.4, jitterHigh: 1.2 },
    pins: {
      ...GRPC_COMMON_PINS,
      jitter: at(GRPC_JAVA_171, 'core/src/main/java/io/grpc/internal/RetriableStream.java', '853-856', 'double inverseJitterFactor = isExperimentalRetryJitterEnabled ? 0.8 * random.nextDouble() + 0.4 : random.nextDouble(); return (long) (intervalNanos * inverseJitterFactor);'),
      jitterLow: at(GRPC_JAVA_179, 'core/src/main/java/io/grpc/internal/RetriableStream.java', 856, '? 0.8 * random.nextDouble() + 0.4 : random.nextDouble();'),
      jitterHigh: { ...at(GRPC_JAVA_179, 'core/src/main/java/io/grpc/internal/RetriableStream.java', 856, '? 0.8 * random.nextDouble() + 0.4 : random.nextDouble(); (at most 0.8 + 0.4 = 1.2)'), also: [at(GRPC_JAVA_171, 'core/src/main/java/io/grpc/internal/RetriableStream.java', 854, '? 0.8 * random.nextDouble() + 0.4 : random.nextDouble();')] },
      retryOnStatuses: at(GRPC_JAVA, 'core/src/main/java/io/grpc/internal/GrpcUtil.java', '321-327', 'case 429: case HTTP_BAD_GATEWAY: case HTTP_UNAVAILABLE: case HTTP_GATEWAY_TIMEOUT: return Status.Code.UNAVAILABLE; default: return Status.Code.UNKNOWN;'),
    },
    gates: [GRPC_THROTTLE],
    cannot: [...GRPC_CANNOT, 'The jitter is 0.8·U + 0.4, not A6’s 0.8–1.2: a bug, fixed in v1.80.0.'],
    opening: GRPC_OPENING,
  }),
  preset({
    id: 'grpc-go-168',
    group: 'gRPC',
    name: 'gRPC A6 example policy: grpc-go ≤ 1.68, grpc-java ≤ 1.70 (full jitter)',
    short: 'grpc-go ≤ 1.68 with A6’s example policy',
    library: 'grpc/grpc-go, grpc/grpc-java',
    versions: 'grpc-go ≤ 1.68.x (read at v1.68.0), grpc-java ≤ 1.70.x (read at v1.70.0), A6 before 2024-08-29',
    inputs: { ...GRPC_BASE, jitter: 'full' },
    pins: {
      ...GRPC_COMMON_PINS,
      jitter: {
        ...at(GRPC_GO_168, 'stream.go', '708-713', 'fact := math.Pow(rp.BackoffMultiplier, float64(cs.numRetriesSincePushback)) cur := float64(rp.InitialBackoff) * fact if max := float64(rp.MaxBackoff); cur > max { cur = max } dur = time.Duration(rand.Int63n(int64(cur)))'),
        also: [
          at(GRPC_JAVA_170, 'core/src/main/java/io/grpc/internal/RetriableStream.java', 1069, 'backoffNanos = (long) (nextBackoffIntervalNanos * random.nextDouble());'),
          at(A6_OLD, 'A6-client-retries.md', 111, 'The initial retry attempt will occur at random(0, initialBackoff). In general, the n-th attempt will occur at random(0, min(initialBackoff*backoffMultiplier**(n-1), maxBackoff)).'),
        ],
      },
      // The mapping at these releases themselves (issue 16 item 2 held for the old versions too).
      retryOn: at(GRPC_GO_168, 'stream.go', 690, 'if rp == nil || !rp.RetryableStatusCodes[code] {'),
      retryOnStatuses: {
        ...at(GRPC_GO_168, 'internal/transport/http_util.go', '77-84', '// 429 Too Many Requests - UNAVAILABLE. http.StatusTooManyRequests: codes.Unavailable, // 502 Bad Gateway - UNAVAILABLE. http.StatusBadGateway: codes.Unavailable, // 503 Service Unavailable - UNAVAILABLE. http.StatusServiceUnavailable: codes.Unavailable, // 504 Gateway timeout - UNAVAILABLE. http.StatusGatewayTimeout: codes.Unavailable,'),
        also: [at(GRPC_JAVA_170, 'core/src/main/java/io/grpc/internal/GrpcUtil.java', '315-321', 'case 429:  // Too Many Requests case HttpURLConnection.HTTP_BAD_GATEWAY:  // 502 case HttpURLConnection.HTTP_UNAVAILABLE:  // 503 case HttpURLConnection.HTTP_GATEWAY_TIMEOUT:  // 504 return Status.Code.UNAVAILABLE; default: return Status.Code.UNKNOWN;')],
      },
    },
    gates: [GRPC_THROTTLE],
    cannot: GRPC_CANNOT,
    opening: GRPC_OPENING,
  }),
  preset({
    id: 'grpc-hedging',
    group: 'gRPC',
    name: 'gRPC A6 example hedging policy (4 copies, 0.5 s apart)',
    short: 'gRPC’s hedging example',
    library: 'grpc/proposal',
    versions: 'A6’s example hedgingPolicy (grpc/proposal A6 @ 2024-08-29, read there); grpc-go and grpc-java implement hedging from the same text',
    inputs: {
      ...GRPC_BASE, maxRetries: 0, jitter: 'none',
      hedging: { kind: 'a6', maxAttempts: 4, delayMs: 500, nonFatal: ['429', '5xx'] },
    },
    pins: {
      ...GRPC_COMMON_PINS,
      maxRetries: at(A6, 'A6-client-retries.md', 155, 'If all instances of a hedged RPC fail, there are no additional retry attempts. (a method has a retryPolicy or a hedgingPolicy, not both)'),
      jitter: NONE('no retry, so no backoff: hedging excludes a retry policy'),
      hedging: {
        ...at(A6, 'A6-client-retries.md', '374-382', '"hedgingPolicy": { "maxAttempts": 4, "hedgingDelay": "0.5s", "nonFatalStatusCodes": [ "UNAVAILABLE", "INTERNAL", "ABORTED" ] }'),
        also: [at(A6, 'A6-client-retries.md', 153, 'If a non-fatal status code is received from a hedged request, then the next hedged request in line is sent immediately, shortcutting its hedging delay. If any other status code is received, all outstanding RPCs are canceled and the error is returned to the client application layer.')],
        approximated: 'non-fatal by HTTP class: 429 and 5xx stand for UNAVAILABLE (429, 502, 503, 504) and INTERNAL; a 500 (UNKNOWN) is non-fatal here and fatal in gRPC, and ABORTED has no HTTP status',
      },
    },
    gates: [GRPC_THROTTLE],
    cannot: [
      'gRPC hedges by status code, not by HTTP status: the engine’s non-fatal classes are HTTP classes (the hedging pin says how they stand for A6’s codes).',
      'Retry throttling in one request (the fleet runs it: the throttle gate below; A6 line 189: “subsequent hedged RPCs will only be sent if token_count is greater than the threshold”), pushback, and the commit of a streaming call.',
      'gRPC hedges nothing unless the service config sets a hedgingPolicy: this is A6’s example policy, not a default.',
    ],
    opening: { attempts: 2, charges: 2, outcome: 'success', why: 'the copy sent 500 ms after the first is answered at 700 ms while the first’s response is lost, and gRPC sends no key: the copy charges again, by design' },
  }),
  preset({
    id: 'grpc-core',
    group: 'gRPC',
    name: 'gRPC A6 example policy on grpc-core 1.51 (Debian 12; C++, Python, Ruby…)',
    short: 'grpc-core 1.51 with A6’s example policy',
    library: 'grpc/grpc',
    versions: 'grpc-core v1.51.1 (read there, in Debian 12’s source package; Debian 13 ships 1.51.1 too); newer code also jitters the first wait (grpc/grpc #37595), as the engine does, but no release with it could be read',
    inputs: { ...GRPC_BASE, jitter: 'proportional', jitterLow: 0.8, jitterHigh: 1.2 },
    pins: {
      ...GRPC_COMMON_PINS,
      maxRetries: {
        ...GRPC_COMMON_PINS.maxRetries,
        also: [
          at(GRPC_CORE_151, CORE_RETRY_CONFIG, '141-147', 'if (max_attempts_ <= 1) { errors->AddError("must be at least 2"); } else if (max_attempts_ > MAX_MAX_RETRY_ATTEMPTS) { … max_attempts_ = MAX_MAX_RETRY_ATTEMPTS; (MAX_MAX_RETRY_ATTEMPTS 5, line 40: A6’s 4 is kept)'),
          at(GRPC_CORE_151, CORE_RETRY, '1182-1184', '++calld_->num_attempts_completed_; if (calld_->num_attempts_completed_ >= calld_->retry_policy_->max_attempts()) {'),
        ],
      },
      baseBackoffMs: { ...GRPC_COMMON_PINS.baseBackoffMs, also: [at(GRPC_CORE_151, CORE_RETRY, '2144-2146', '.set_initial_backoff(retry_policy_ == nullptr ? Duration::Zero() : retry_policy_->initial_backoff())')] },
      backoffMultiplier: { ...GRPC_COMMON_PINS.backoffMultiplier, also: [at(GRPC_CORE_151, CORE_BACKOFF, '34-35', 'current_backoff_ = std::min(current_backoff_ * options_.multiplier(), options_.max_backoff());')] },
      maxBackoffMs: { ...GRPC_COMMON_PINS.maxBackoffMs, also: [at(GRPC_CORE_151, CORE_BACKOFF, '34-35', 'current_backoff_ = std::min(current_backoff_ * options_.multiplier(), options_.max_backoff()); (the cap bounds the ceiling; the jitter then goes 20 % either side of it)')] },
      jitter: {
        ...at(GRPC_CORE_151, CORE_BACKOFF, '29-40', 'Timestamp BackOff::NextAttemptTime() { if (initial_) { initial_ = false; return current_backoff_ + Timestamp::Now(); } current_backoff_ = std::min(current_backoff_ * options_.multiplier(), options_.max_backoff()); const Duration jitter = Duration::FromSecondsAsDouble( absl::Uniform(rand_gen_, -options_.jitter() * current_backoff_.seconds(), options_.jitter() * current_backoff_.seconds())); return Timestamp::Now() + current_backoff_ + jitter; }'),
        also: [
          at(GRPC_CORE_151, CORE_RETRY, 129, '#define RETRY_BACKOFF_JITTER 0.2'),
          at(GRPC_CORE_151, CORE_RETRY, 2150, '.set_jitter(RETRY_BACKOFF_JITTER)'),
        ],
        approximated: 'v1.51.1 waits the initial backoff exactly before the first retry (100 ms, backoff.cc lines 30-33), then jitters; the engine jitters every wait, so the first is 80–120 ms here, at most 20 ms (20 %) off, the same on average; later waits are exact. Newer grpc-core (#37595, 2024-08-28) jitters the first too, as here',
      },
      jitterLow: at(GRPC_CORE_151, CORE_BACKOFF, '36-38', 'absl::Uniform(rand_gen_, -options_.jitter() * current_backoff_.seconds(), options_.jitter() * current_backoff_.seconds()) (the ceiling minus 0.2 of it: 0.8)'),
      jitterHigh: at(GRPC_CORE_151, CORE_BACKOFF, '36-38', 'absl::Uniform(rand_gen_, -options_.jitter() * current_backoff_.seconds(), options_.jitter() * current_backoff_.seconds()) (the ceiling plus 0.2 of it: 1.2)'),
      clientTimeoutMs: { ...GRPC_COMMON_PINS.clientTimeoutMs, also: [at(GRPC_CORE_151, CORE_RETRY_CONFIG, '128-130', '.OptionalField("perAttemptRecvTimeout", &RetryMethodConfig::per_attempt_recv_timeout_, GRPC_ARG_EXPERIMENTAL_ENABLE_HEDGING) (a per-attempt timeout only behind the experimental hedging argument)')] },
      retryOn: { ...at(GRPC_CORE_151, CORE_RETRY, 1146, 'if (!calld_->retry_policy_->retryable_status_codes().Contains(*status)) {'), also: [at(A6, 'A6-client-retries.md', '363-364', '"retryableStatusCodes": [ "UNAVAILABLE"')] },
      honourRetryAfter: at(GRPC_CORE_151, CORE_RETRY, 1607, '*server_pushback = md_batch->get(GrpcRetryPushbackMsMetadata()); (grpc-retry-pushback-ms; no Retry-After is read)'),
      retryOnStatuses: {
        ...at(GRPC_CORE_151, 'src/core/lib/transport/status_conversion.cc', '65-89', 'grpc_status_code grpc_http2_status_to_grpc_status(int status) { switch (status) { … case 429: return GRPC_STATUS_UNAVAILABLE; case 502: return GRPC_STATUS_UNAVAILABLE; case 503: return GRPC_STATUS_UNAVAILABLE; case 504: return GRPC_STATUS_UNAVAILABLE; /* everything else is unknown */ default: return GRPC_STATUS_UNKNOWN;'),
        also: [at(GRPC_CORE_151, 'src/core/ext/filters/http/client/http_client_filter.cc', '66-73', 'const grpc_status_code* grpc_status = b->get_pointer(GrpcStatusMetadata()); if (grpc_status != nullptr || *status == 200) { b->Remove(HttpStatusMetadata()); } else { return absl::Status( static_cast<absl::StatusCode>( grpc_http2_status_to_grpc_status(*status)), (an HTTP status decides only when no grpc-status came)')],
      },
    },
    gates: [grpcThrottleAlso([
      at(GRPC_CORE_151, CORE_THROTTLE, '84-97', 'bool ServerRetryThrottleData::RecordFailure() { … // We decrement milli_tokens by 1000 (1 token) for each failure. … // Retries are allowed as long as the new value is above the threshold // (max_milli_tokens / 2). return new_value > throttle_data->max_milli_tokens_ / 2;'),
      at(GRPC_CORE_151, CORE_THROTTLE, '99-109', 'void ServerRetryThrottleData::RecordSuccess() { … // We increment milli_tokens by milli_token_ratio for each success.'),
      at(GRPC_CORE_151, CORE_RETRY, '1157-1171', '// Record the failure and check whether retries are throttled. // Note that it\'s important for this check to come after the status // code check above, since we should only record failures whose statuses // match the configured retryable status codes, … if (calld_->retry_throttle_data_ != nullptr && !calld_->retry_throttle_data_->RecordFailure()) {'),
    ], 'A6’s example retryThrottling; grpc-core throttles only when the service config sets it, one throttle per server name in a process (retry_filter.cc lines 208-211). grpc-core takes a token only for a failure whose status is retryable (UNAVAILABLE here): a 500 (UNKNOWN) or a deadline costs none. The fleet’s countFailures “retryable” takes one for a failure whose class is in Retry on: its 5xx class holds the 500 as well, and a timeout counts while Retry on holds it (take “timeout” out of Retry on for A6’s policy).')],
    cannot: [
      'gRPC retries by status code, not by HTTP status: the engine’s answers are HTTP statuses, so the preset retries the four HTTP statuses grpc-core maps to UNAVAILABLE (429, 502, 503, 504) and not 500 (UNKNOWN); grpc-core reads the HTTP status only when no grpc-status came. A gRPC server’s own UNAVAILABLE is one of these.',
      'Retry throttling (data only, in the gates), hedging, transparent retries, and pushback: grpc-retry-pushback-ms is waited exactly and restarts the backoff, a negative one stops the retries (retry_filter.cc lines 2582-2585, 1193-1201).',
      'gRPC retries nothing unless the service config sets a policy: this is A6’s example policy, not a default.',
    ],
    opening: GRPC_OPENING,
  }),

  preset({
    id: 'grpc-js',
    group: 'gRPC',
    name: 'gRPC A6 example policy: @grpc/grpc-js 1.14.7 (Node)',
    short: '@grpc/grpc-js 1.14 with A6’s example policy',
    library: '@grpc/grpc-js (npm), gRPC for Node',
    versions: '@grpc/grpc-js 1.14.7 (read in its npm tarball on 2026-12-04, the newest that day; earlier versions not read), A6 since 2024-08-29',
    inputs: { ...GRPC_BASE, jitter: 'proportional', jitterLow: 0.8, jitterHigh: 1.2 },
    pins: {
      ...GRPC_COMMON_PINS,
      maxRetries: {
        ...GRPC_COMMON_PINS.maxRetries,
        also: [
          inPkg(GRPC_JS, GRPC_JS_RETRY, 143, 'this.maxAttempts = Math.min(retryPolicy.maxAttempts, maxAttemptsLimit); (maxAttemptsLimit: grpc-node.retry_max_attempts_limit, else DEFAULT_MAX_ATTEMPTS_LIMIT = 5, lines 94 and 134: A6’s 4 is kept)'),
          inPkg(GRPC_JS, GRPC_JS_RETRY, 341, 'if (this.attempts >= this.maxAttempts) {'),
        ],
      },
      baseBackoffMs: { ...GRPC_COMMON_PINS.baseBackoffMs, also: [inPkg(GRPC_JS, GRPC_JS_RETRY, 142, 'this.nextRetryBackoffSec = this.initialRetryBackoffSec = Number(retryPolicy.initialBackoff.substring(0, retryPolicy.initialBackoff.length - 1));')] },
      backoffMultiplier: { ...GRPC_COMMON_PINS.backoffMultiplier, also: [inPkg(GRPC_JS, GRPC_JS_RETRY, 333, 'this.nextRetryBackoffSec = Math.min(this.nextRetryBackoffSec * retryPolicy.backoffMultiplier, maxBackoffSec);')] },
      maxBackoffMs: { ...GRPC_COMMON_PINS.maxBackoffMs, also: [inPkg(GRPC_JS, GRPC_JS_RETRY, '332-333', 'const maxBackoffSec = Number(retryPolicy.maxBackoff.substring(0, retryPolicy.maxBackoff.length - 1)); this.nextRetryBackoffSec = Math.min(this.nextRetryBackoffSec * retryPolicy.backoffMultiplier, maxBackoffSec); (the cap bounds the ceiling, which the jitter then multiplies)')] },
      jitter: inPkg(GRPC_JS, GRPC_JS_RETRY, '330-331', 'const jitter = this.getNextRetryJitter(); const nextBackoffMs = jitter * this.nextRetryBackoffSec * 1000; (the first wait too: nextRetryBackoffSec starts at initialBackoff, line 142)'),
      jitterLow: inPkg(GRPC_JS, GRPC_JS_RETRY, 322, 'return Math.random() * (1.2 - 0.8) + 0.8; (at least 0.8)'),
      jitterHigh: inPkg(GRPC_JS, GRPC_JS_RETRY, 322, 'return Math.random() * (1.2 - 0.8) + 0.8; (below 1.2)'),
      clientTimeoutMs: { ...GRPC_COMMON_PINS.clientTimeoutMs, also: [inPkg(GRPC_JS, 'build/src/service-config.js', '113-119', 'return { maxAttempts: obj.maxAttempts, initialBackoff: obj.initialBackoff, maxBackoff: obj.maxBackoff, backoffMultiplier: obj.backoffMultiplier, retryableStatusCodes: obj.retryableStatusCodes, }; (no per-attempt timeout in the retry policy)')] },
      deadlineMs: { ...GRPC_COMMON_PINS.deadlineMs, also: [inPkg(GRPC_JS, 'build/src/resolving-call.js', 99, "this.cancelWithStatus(constants_1.Status.DEADLINE_EXCEEDED, 'Deadline exceeded'); (the call's deadline, over every attempt; a cancelled call starts no new attempt: retrying-call.js line 210, this.state = 'NO_RETRY';)")] },
      retryOn: { ...inPkg(GRPC_JS, GRPC_JS_RETRY, 425, 'if (this.isStatusCodeInList(this.callConfig.methodConfig.retryPolicy.retryableStatusCodes, status.code)) {'), also: [at(A6, 'A6-client-retries.md', '363-364', '"retryableStatusCodes": [ "UNAVAILABLE"')] },
      honourRetryAfter: inPkg(GRPC_JS, GRPC_JS_RETRY, 442, "const mdValue = metadata.get('grpc-retry-pushback-ms'); (no Retry-After is read)"),
      retryOnStatuses: {
        ...inPkg(GRPC_JS, GRPC_JS_CALL, '59-63', 'case 429: case 502: case 503: case 504: mappedStatusCode = constants_1.Status.UNAVAILABLE; (default: UNKNOWN, line 66)'),
        also: [inPkg(GRPC_JS, GRPC_JS_CALL, '459-460', 'else if (this.httpStatusCode) { status = mapHttpStatusCode(this.httpStatusCode); (an HTTP status decides only when no grpc-status came)')],
      },
    },
    gates: [grpcThrottleAlso([
      inPkg(GRPC_JS, GRPC_JS_RETRY, '41-49', 'addCallSucceeded() { this.tokens = Math.min(this.tokens + this.tokenRatio, this.maxTokens); } addCallFailed() { this.tokens = Math.max(this.tokens - 1, 0); } canRetryCall() { return this.tokens > (this.maxTokens / 2); }'),
      inPkg(GRPC_JS, GRPC_JS_RETRY, '425-426', 'if (this.isStatusCodeInList(this.callConfig.methodConfig.retryPolicy.retryableStatusCodes, status.code)) { (_c = this.retryThrottler) === null || _c === void 0 ? void 0 : _c.addCallFailed(); (a token only for a retryable status)'),
      inPkg(GRPC_JS, 'build/src/internal-channel.js', '251-252', 'if (serviceConfig.retryThrottling) { RETRY_THROTTLER_MAP.set(this.getTarget(), new retrying_call_1.RetryThrottler(serviceConfig.retryThrottling.maxTokens, serviceConfig.retryThrottling.tokenRatio, RETRY_THROTTLER_MAP.get(this.getTarget())));'),
    ], 'A6’s example retryThrottling; grpc-js throttles only when the service config sets it, one throttle per target in a process, shared by its channels (internal-channel.js lines 251-252). A token is taken only for a failure whose status is retryable (UNAVAILABLE here: retrying-call.js lines 425-426), a success (OK) adds 0.1, and a retry is let through while the tokens are more than 5. grpc-js asks the throttle when the backoff has been waited (line 365, in the retry timer), the fleet at the failure; the tokens a call sees can differ by what other calls did during its wait. The preset’s Retry on holds no timeout, so a deadline costs no token, as in grpc-js.')],
    cannot: [
      'gRPC retries by status code, not by HTTP status: the engine’s answers are HTTP statuses, so the preset retries the four HTTP statuses grpc-js maps to UNAVAILABLE (429, 502, 503, 504; subchannel-call.js lines 59-63) and not 500 (UNKNOWN). A gRPC server’s own UNAVAILABLE is one of these.',
      'The commit rule: a call is committed, and never retried, once response headers or a message arrived (retrying-call.js lines 573 and 586); an HTTP error status is retried only when it came with no body (END_STREAM on the headers, subchannel-call.js lines 108-109), so a proxy’s 503 with an HTML page is not retried.',
      'Pushback: grpc-retry-pushback-ms is waited exactly and restarts the backoff at initialBackoff (lines 354-356); a negative one stops the retries (lines 349-352); one that is not a number (parseInt gives NaN, line 447) is neither: the retry timer gets a NaN delay, which Node runs after 1 ms.',
      'Retry throttling (data only, in the gates), hedging, and transparent retries (a stream the server refused, retried once at once, lines 490-498).',
      'gRPC retries nothing unless the service config sets a policy: this is A6’s example policy, not a default (without one a call is TRANSPARENT_ONLY, one attempt: lines 149-151).',
    ],
    opening: { attempts: 1, charges: 1, outcome: 'unknown', why: 'the response is lost and grpc-js has no per-attempt timeout: at the 3 s call deadline the call is cancelled with DEADLINE_EXCEEDED (not UNAVAILABLE, and a cancelled call starts no new attempt), so charge #1’s outcome stays unknown' },
  }),

  // ---- AWS ----
  preset({
    id: 'aws-botocore-2026',
    group: 'AWS SDKs',
    name: 'AWS SDK for Python (botocore): the 2026 retries, the default from 1.44.0 (1.43.3–1.43.x: AWS_NEW_RETRIES_2026=true)',
    short: 'botocore’s 2026 retries',
    library: 'boto/botocore',
    versions: 'botocore 1.43.3–1.43.x with AWS_NEW_RETRIES_2026=true (read at 1.43.67, the newest release reachable here on 2026-12-04; the switch also makes standard the default mode, botocore/configprovider.py line 41: _DEFAULT_RETRY_MODE = \'standard\' if NEW_RETRIES_ENABLED else \'legacy\'); the default from 1.44.0 (2026-11-10, AWS’s post “Updated default retry behavior for AWS SDKs and tools”): 1.44.0 itself not read',
    inputs: { maxRetries: 2, baseBackoffMs: 50, backoffMultiplier: 2, maxBackoffMs: 20000, jitter: 'full', clientTimeoutMs: 3000, deadlineMs: 10000, idempotencyKey: false, retryOn: ['timeout', '429'], retryWritesWithoutKey: true, honourRetryAfter: false, retryOnStatuses: [500, 502, 503, 504] },
    pins: {
      ...BOTO_COMMON_PINS,
      baseBackoffMs: at(BOTO, 'botocore/retries/standard.py', '371-374', "_DEFAULT_BACKOFF_CONFIG = { 'throttling_base_scale': 1, 'non_throttling_base_scale': 0.05, }"),
      jitter: at(BOTO, 'botocore/retries/standard.py', '408-413', 'if NEW_RETRIES_ENABLED: t_i = self._random() * min( self._get_base_scale(context) * (self._base ** (context.attempt_number - 1)), self._max_backoff, )'),
      honourRetryAfter: at(BOTO, 'botocore/retries/standard.py', 368, "_RETRY_AFTER_HEADER = 'x-amz-retry-after' (milliseconds; Retry-After itself is not read)"),
    },
    gates: [{
      gate: 'quota', params: { capacity: 500, retryCost: 14, timeoutCost: 14, successIncrement: 1 },
      pin: at(BOTO, 'botocore/retries/standard.py', '690-694', 'if NEW_RETRIES_ENABLED: if self._is_throttling_error(context): capacity_amount = self._THROTTLING_RETRY_COST else: capacity_amount = self._RETRY_COST_V2 (_RETRY_COST_V2 = 14, line 671; _THROTTLING_RETRY_COST = 5, line 673; INITIAL_CAPACITY = 500, botocore/retries/quota.py line 7; _NO_RETRY_INCREMENT = 1, line 672)'),
      note: 'A timeout costs 14 like any other non-throttling error under the switch; a throttling error costs 5, which the fleet’s quota has no setting for (a 429 there is not a failure that pays).',
    }],
    cannot: [
      ...BOTO_CANNOT,
      'A throttling error backs off from 1 s, not 50 ms (throttling_base_scale 1); x-amz-retry-after (milliseconds, kept between the backoff and the backoff + 5 s); DynamoDB’s 4 attempts and 25 ms base.',
    ],
    opening: AWS_OPENING,
  }),
  preset({
    id: 'aws-js-v3',
    group: 'AWS SDKs',
    name: 'AWS SDK for JavaScript v3 (@smithy/core 3.40.0–3.41.1): the 2026 retries, the default from 3.1166.0',
    short: 'the AWS SDK for JavaScript v3',
    library: '@smithy/core (npm), the AWS SDK for JavaScript v3’s retry strategy',
    versions: '@smithy/core 3.40.0–3.41.1 (read at 3.40.0 and 3.41.1 in their npm tarballs on 2026-12-04, 3.41.1 the newest that day; @aws-sdk/client-s3 3.1166.0 requires @smithy/core ^3.40.0, 3.1178.0 ^3.41.1; @smithy/util-retry 4.6.2 re-exports @smithy/core/retry); 3.39.0 had the same rules behind SMITHY_NEW_RETRIES_2026=true and 100 ms, 5 and 10 without it (read at 3.39.0)',
    inputs: JS_V3_INPUTS,
    pins: JS_V3_PINS,
    gates: [JS_V3_QUOTA],
    cannot: [
      'Retry-After and x-amz-retry-after: the wait is max(t, min(hint, t + 5,000 ms)), t the drawn backoff (line 521); the engine has no rule for that clamp, so the preset honours no header.',
      'A throttling error (a 429, or a throttling error code) backs off from 1 s, not 50 ms (static throttlingDelay() { return 1_000; }, line 418), and costs 5.',
      'Other transient errors (connection resets, clock skew, $retryable traits); a streaming request body is never retried (line 220); adaptive mode’s client-side rate limiting (the aws-js-v3-adaptive preset).',
    ],
    opening: { attempts: 2, charges: 2, outcome: 'success', why: 'the timeout (a TimeoutError, transient) is retried after at most 50 ms and no idempotency key is sent for a call that models none, so the second attempt charges again' },
  }),
  preset({
    id: 'aws-js-v3-adaptive',
    group: 'AWS SDKs',
    name: 'AWS SDK for JavaScript v3 (@smithy/core 3.40.0–3.41.1), retryMode = "adaptive" (the 2026 retries and a client rate limiter)',
    short: 'the AWS SDK for JavaScript v3’s adaptive mode',
    library: '@smithy/core (npm), the AWS SDK for JavaScript v3’s retry strategy',
    versions: '@smithy/core 3.40.0–3.41.1, retryMode "adaptive" (read at 3.41.1 and 3.40.0 in their npm tarballs on 2026-12-07, 3.41.1 the newest that day: DefaultRateLimiter and AdaptiveRetryStrategy the same in both); the standard strategy it wraps as the aws-js-v3 preset',
    inputs: JS_V3_INPUTS,
    pins: JS_V3_PINS,
    gates: [JS_V3_QUOTA, {
      gate: 'adaptive', params: {},
      pin: {
        ...inPkg(SMITHY_CORE, SMITHY_RETRY, '806-811', 'const adaptive = (await normalizeProvider(retryMode)()) === RETRY_MODES.ADAPTIVE; if (adaptive) { return new AdaptiveRetryStrategy$1(maxAttemptsProvider, { maxAttempts, baseDelay: defaultBaseDelay, }); }'),
        also: [
          inPkg(SMITHY_CORE, SMITHY_RETRY, '587-597', 'async acquireInitialRetryToken(retryTokenScope) { const token = await this.standardRetryStrategy.acquireInitialRetryToken(retryTokenScope); await this.rateLimiter.getSendToken(); … async refreshRetryTokenForRetry(tokenToRenew, errorInfo) { this.rateLimiter.updateClientSendingRate(errorInfo); const token = await this.standardRetryStrategy.refreshRetryTokenForRetry(tokenToRenew, errorInfo); await this.rateLimiter.getSendToken();'),
          inPkg(SMITHY_CORE, SMITHY_RETRY, '320-328', 'this.beta = options?.beta ?? 0.7; this.minCapacity = options?.minCapacity ?? 1; this.minFillRate = options?.minFillRate ?? 0.5; this.scaleConstant = options?.scaleConstant ?? 0.4; this.smooth = options?.smooth ?? 0.8; … this.fillRate = this.minFillRate; this.maxCapacity = this.minCapacity;'),
          inPkg(SMITHY_CORE, SMITHY_RETRY, 350, 'const newRate = Math.min(calculatedRate, 2 * this.measuredTxRate);'),
          inPkg(SMITHY_CORE, SMITHY_RETRY, '368-373', 'refillTokenBucket() { const timestamp = this.getCurrentTimeInSeconds(); if (!this.lastTimestamp) { this.lastTimestamp = timestamp; return; }'),
          inPkg(SMITHY_CORE, SMITHY_RETRY, '407-409', 'getPrecise(num) { return parseFloat(num.toFixed(8)); }'),
        ],
      },
      note: 'The SDK’s DefaultRateLimiter is botocore’s limiter (docs/throttling.md §1, the fleet’s gate §4) with the same constants, clock, CUBIC and wait, heard at every attempt’s outcome and waited for before the first attempt and after each retry’s backoff (§4.2). Not modelled (§4.2): its bucket starts with no tokens and no refill time, where botocore’s starts refilling at rate 1 from the clock’s start, so the SDK’s first held send after its first throttle waits up to 1 / fill (2 s at 0.5 a second) longer, once per limiter; it rounds every rate to 8 decimals (getPrecise); its clock is whole milliseconds. It reacts to the 429s of a server with an admission limit (server.admission, §3).',
    }],
    cannot: [
      'Retry-After and x-amz-retry-after: the wait is max(t, min(hint, t + 5,000 ms)), t the drawn backoff (line 521); the engine has no rule for that clamp, so the preset honours no header.',
      'A throttling error (a 429, or a throttling error code) backs off from 1 s, not 50 ms (static throttlingDelay() { return 1_000; }, line 418), and costs 5.',
      'Other transient errors (connection resets, clock skew, $retryable traits); a streaming request body is never retried (line 220).',
      'The rate limiter acts across a client’s requests: it is a gate of the fleet, and one request never waits for it. Its first held wait is botocore’s, up to 2 s shorter than the SDK’s (docs/throttling.md §4.2).',
    ],
    opening: { attempts: 2, charges: 2, outcome: 'success', why: 'adaptive mode is the standard strategy in one request (its rate limiter is a fleet gate, off until a throttling answer): the timeout (a TimeoutError, transient) is retried after at most 50 ms and no idempotency key is sent for a call that models none, so the second attempt charges again' },
  }),
  preset({
    id: 'aws-botocore-standard',
    group: 'AWS SDKs',
    name: 'AWS SDK for Python (botocore) ≤ 1.43, retry_mode = standard, without the 2026 switch',
    short: 'botocore ≤ 1.43’s standard mode',
    library: 'boto/botocore',
    versions: 'botocore ≤ 1.43.x, standard mode, AWS_NEW_RETRIES_2026 unset (read at 1.43.67, the newest release reachable here on 2026-12-04); no longer the standard mode’s costs from 1.44.0 (not read)',
    inputs: BOTO_STANDARD_INPUTS,
    pins: BOTO_STANDARD_PINS,
    gates: [BOTO_STANDARD_QUOTA],
    cannot: BOTO_CANNOT,
    opening: AWS_OPENING,
  }),
  preset({
    id: 'aws-botocore-adaptive',
    group: 'AWS SDKs',
    name: 'AWS SDK for Python (botocore) ≤ 1.43, retry_mode = adaptive (standard mode and a client rate limiter)',
    short: 'botocore ≤ 1.43’s adaptive mode',
    library: 'boto/botocore',
    versions: 'botocore ≤ 1.43.x, adaptive mode, AWS_NEW_RETRIES_2026 unset (read at 1.43.67, the newest release reachable here on 2026-12-04); 1.44.0 not read',
    inputs: BOTO_STANDARD_INPUTS,
    pins: BOTO_STANDARD_PINS,
    gates: [BOTO_STANDARD_QUOTA, {
      gate: 'adaptive', params: {},
      pin: {
        ...at(BOTO, 'botocore/client.py', '252-254', "elif retry_mode == 'adaptive': self._register_v2_standard_retries(client) self._register_v2_adaptive_retries(client)"),
        also: [
          at(BOTO, 'botocore/retries/adaptive.py', '57-59', 'def on_sending_request(self, request, **kwargs): if self._enabled: self._token_bucket.acquire()'),
          at(BOTO, 'botocore/retries/adaptive.py', '62-89', 'def on_receiving_response(self, **kwargs): measured_rate = self._rate_clocker.record() … self._token_bucket.max_rate = min( new_rate, self._MAX_RATE_ADJUST_SCALE * measured_rate )'),
        ],
      },
      note: 'Adaptive mode is standard mode (its quota, above) with a client rate limiter (docs/throttling.md §1, as a fleet gate §4): a token bucket whose rate follows CUBIC, cut by each throttling answer; off until the first one, then it delays every send, first attempts included. It reacts to the 429s of a server with an admission limit (server.admission, §3).',
    }],
    cannot: [
      BOTO_CANNOT[0],
      'Connect timeouts apart from read timeouts; modeled retryable errors.',
      'The rate limiter acts across a client’s requests: it is a gate of the fleet, and one request never waits for it.',
    ],
    opening: AWS_OPENING,
  }),
  preset({
    id: 'aws-botocore-legacy',
    group: 'AWS SDKs',
    name: 'AWS SDK for Python (botocore) ≤ 1.43, legacy mode (the default ≤ 1.43 without the 2026 switch)',
    short: 'botocore ≤ 1.43’s legacy mode',
    library: 'boto/botocore',
    versions: 'botocore ≤ 1.43.x legacy mode, the default there without the 2026 switch (read at 1.43.67, the newest release reachable here on 2026-12-04; 504 retried since 1.4.15, 502 at least since 1.4.14); from 1.44.0 the default is the 2026 retries (1.44.0 not read)',
    inputs: { maxRetries: 4, baseBackoffMs: 1000, backoffMultiplier: 2, maxBackoffMs: null, jitter: 'full', clientTimeoutMs: 3000, deadlineMs: 10000, idempotencyKey: false, retryOn: ['timeout', '429'], retryWritesWithoutKey: true, honourRetryAfter: false, retryOnStatuses: [500, 502, 503, 504, 509] },
    pins: {
      ...BOTO_COMMON_PINS,
      maxRetries: at(BOTO, 'botocore/data/_retry.json', 93, '"max_attempts": 5,'),
      baseBackoffMs: at(BOTO, 'botocore/data/_retry.json', '95-97', '"type": "exponential", "base": "rand", "growth_factor": 2'),
      backoffMultiplier: at(BOTO, 'botocore/data/_retry.json', 97, '"growth_factor": 2'),
      maxBackoffMs: NONE('legacy mode has no cap'),
      jitter: at(BOTO, 'botocore/data/_retry.json', 96, '"base": "rand": rand × 2^(attempts − 1) s'),
      retryOn: at(BOTO, 'botocore/data/_retry.json', 38, '"http_status_code": 429 (and “general_socket_errors”, line 42)'),
      retryOnStatuses: { ...at(BOTO, 'botocore/data/_retry.json', '50-78', '"http_status_code": 500 … 502 (line 57) … 503 (line 64) … 504 (line 71) … 509 (line 78)'), also: [at(BOTO_1415, 'botocore/data/_retry.json', 55, '"http_status_code": 504 (the first release with it)'), at(BOTO_1414, 'botocore/data/_retry.json', 41, '"http_status_code": 502 (already there)')] },
      honourRetryAfter: NONE('legacy mode reads no header'),
    },
    cannot: ['Throttling recognised by error code on a 400 (Throttling, ThrottlingException…); per-service policies (DynamoDB: 10 attempts, 50 ms base); connect apart from read timeouts. Legacy mode differs per SDK: this is botocore’s.'],
    opening: AWS_OPENING,
  }),
  preset({
    id: 'aws-sdk-go-v2',
    group: 'AWS SDKs',
    name: 'AWS SDK for Go v2 v1.16.0 (2022), standard mode before the 2026 retries',
    short: 'aws-sdk-go-v2 v1.16.0’s standard mode',
    library: 'aws/aws-sdk-go-v2',
    versions: 'aws-sdk-go-v2 v1.16.0 (2022), read as Go vendors it (grafana/loki at 1d397605, vendor/modules.txt); the 2026 retries, the default from v1.48.0, not read at a release: the SDK’s repository (1.5 GB) is too large to fetch here, and on 2026-12-04 no copy tied to a release was reachable (an untagged commit of its main branch, 058d9848, has them behind AWS_NEW_RETRIES_2026 in aws/retry/retry2026_test.go)',
    inputs: { maxRetries: 2, baseBackoffMs: 2000, backoffMultiplier: 2, maxBackoffMs: 20000, jitter: 'full', clientTimeoutMs: 3000, deadlineMs: 10000, idempotencyKey: false, retryOn: ['timeout', '429'], retryWritesWithoutKey: true, honourRetryAfter: false, retryOnStatuses: [500, 502, 503, 504] },
    pins: {
      maxRetries: at(GO_V2, `${GO_V2_DIR}/standard.go`, 28, 'DefaultMaxAttempts int = 3'),
      baseBackoffMs: { ...at(GO_V2, `${GO_V2_DIR}/jitter_backoff.go`, '44-46', '// [0.0, 1.0) * 2 ^ attempts ri := int64(1 << uint64(attempt)) delaySeconds := b * float64(ri) (seconds; attempt is 1 before the first retry: 2 s)'), also: [at(GO_V2, `${GO_V2_DIR}/middleware.go`, 228, 'retryDelay, reqErr := r.retryer.RetryDelay(attemptNum, err) (attemptNum is the failed attempt’s own number, from 1: attemptNum++ at line 77)')] },
      backoffMultiplier: at(GO_V2, `${GO_V2_DIR}/jitter_backoff.go`, 45, 'ri := int64(1 << uint64(attempt))'),
      maxBackoffMs: at(GO_V2, `${GO_V2_DIR}/standard.go`, 31, 'DefaultMaxBackoff time.Duration = 20 * time.Second'),
      jitter: at(GO_V2, `${GO_V2_DIR}/jitter_backoff.go`, '39-46', 'b, err := j.randFloat64() … delaySeconds := b * float64(ri)'),
      clientTimeoutMs: SEED_TIMEOUT('aws-sdk-go-v2’s own HTTP client timeouts were not read'),
      deadlineMs: SEED_DEADLINE('a context deadline, if the caller sets one'),
      idempotencyKey: NONE('a key only for operations with an idempotency token'),
      retryOn: at(GO_V2, `${GO_V2_DIR}/retryable_error.go`, '129-132', 'case errors.As(err, &timeoutErr) && timeoutErr.Timeout(): // Fallback to the generic timeout check, with timeout errors // retryable. retryable = true (a 429 only with a throttle error code: var DefaultThrottleErrorCodes, standard.go line 60)'),
      retryWritesWithoutKey: at(GO_V2, `${GO_V2_DIR}/standard.go`, '79-92', 'var DefaultRetryables = []IsErrorRetryable{ NoRetryCanceledError{}, RetryableError{}, RetryableConnectionError{}, RetryableHTTPStatusCode{…}, RetryableErrorCode{…}, RetryableErrorCode{…}, } (no check looks at the method)'),
      honourRetryAfter: at(GO_V2, `${GO_V2_DIR}/jitter_backoff.go`, 34, 'func (j *ExponentialJitterBackoff) BackoffDelay(attempt int, err error) (time.Duration, error) { (the delay is the formula alone: no header is read)'),
      retryOnStatuses: at(GO_V2, `${GO_V2_DIR}/standard.go`, '44-49', 'var DefaultRetryableHTTPStatusCodes = map[int]struct{}{ 500: {}, 502: {}, 503: {}, 504: {}, }'),
    },
    gates: [{
      gate: 'quota', params: { capacity: 500, retryCost: 5, timeoutCost: 10, successIncrement: 1, refund: 'cost-and-increment' },
      pin: {
        ...at(GO_V2, `${GO_V2_DIR}/standard.go`, '35-40', 'const ( DefaultRetryRateTokens uint = 500 DefaultRetryCost uint = 5 DefaultRetryTimeoutCost uint = 10 DefaultNoRetryIncrement uint = 1 )'),
        also: [
          at(GO_V2, `${GO_V2_DIR}/standard.go`, '209-213', '// GetAttemptToken returns the token to be released after then attempt completes. // The release token will add NoRetryIncrement to the RateLimiter token pool if // the attempt was successful. … return s.GetInitialToken(), nil'),
          at(GO_V2, `${GO_V2_DIR}/middleware.go`, '172-181', '// Release the retry token based on the state of the attempt’s error (if any). if releaseError := releaseRetryToken(err); … // Release the attempt token based on the state of the attempt’s error (if any). if releaseError := releaseAttemptToken(err); … (a retried success gives back its cost and the increment)'),
        ],
      },
      note: 'A retried success gives back the retry’s cost and the attempt’s NoRetryIncrement (refund “cost-and-increment”); botocore and the JavaScript SDK give back the cost only. The 2026 behaviour (the default from v1.48.0) was read only in an untagged test of the SDK’s main branch (058d9848, aws/retry/retry2026_test.go, behind AWS_NEW_RETRIES_2026): a retry costs 14, a throttling error 5 (after 1 s), the first delay is 50 ms, as in botocore 1.43.67; v1.48.0 itself not read.',
    }],
    cannot: [
      'After a fifth attempt fails the wait is 20 s without jitter (jitter_backoff.go lines 35-37: attempt > int(log2(20)) returns maxBackoff); a 429 is retried only with a throttling error code; a context deadline or cancel is not retried (NoRetryCanceledError).',
      'The 2026 retries, the default from v1.48.0: not read at a release (botocore’s and the JavaScript SDK’s presets have them).',
    ],
    opening: AWS_OPENING,
  }),

  // ---- AI SDKs ----
  preset({
    id: 'openai-python',
    group: 'AI SDKs',
    name: 'OpenAI Python SDK (openai-python 2.52–3.3.1)',
    short: 'the OpenAI Python SDK',
    library: 'openai/openai-python',
    versions: 'openai-python 2.52.0–3.3.1 (read at v2.52.0 and v3.3.1, the newest tag reachable here on 2026-12-04; later releases not read)',
    inputs: { maxRetries: 2, baseBackoffMs: 500, backoffMultiplier: 2, maxBackoffMs: 8000, jitter: 'proportional', jitterLow: 0.75, jitterHigh: 1, clientTimeoutMs: 3000, deadlineMs: 10000, idempotencyKey: false, retryOn: ['timeout', '429', '5xx'], retryWritesWithoutKey: true, honourRetryAfter: true, retryOnStatuses: [408, 409], retryAfterMaxMs: 120000, retryAfterOverMax: 'stop' },
    pins: {
      maxRetries: at(OPENAI, 'src/openai/_constants.py', 8, 'DEFAULT_MAX_RETRIES = 2'),
      baseBackoffMs: at(OPENAI, 'src/openai/_constants.py', 11, 'INITIAL_RETRY_DELAY = 0.5'),
      backoffMultiplier: at(OPENAI, 'src/openai/_base_client.py', '815-818', 'nb_retries = min(max_retries - remaining_retries, 1000) … sleep_seconds = min(INITIAL_RETRY_DELAY * pow(2.0, nb_retries), MAX_RETRY_DELAY)'),
      maxBackoffMs: at(OPENAI, 'src/openai/_constants.py', 12, 'MAX_RETRY_DELAY = 8.0'),
      jitter: at(OPENAI, 'src/openai/_base_client.py', '821-822', 'jitter = 1 - 0.25 * random() timeout = sleep_seconds * jitter'),
      jitterLow: at(OPENAI, 'src/openai/_base_client.py', 821, 'jitter = 1 - 0.25 * random(): 0.75 + 0.25·d with d = 1 − random(), the same distribution'),
      jitterHigh: at(OPENAI, 'src/openai/_base_client.py', 821, 'jitter = 1 - 0.25 * random(): at most 1'),
      clientTimeoutMs: SEED_TIMEOUT('the SDK’s own is 600 s (src/openai/_constants.py line 7: DEFAULT_TIMEOUT = httpx2.Timeout(timeout=600, connect=5.0))'),
      deadlineMs: SEED_DEADLINE('the SDK sets no overall deadline'),
      idempotencyKey: at(OPENAI, 'src/openai/_base_client.py', 410, 'self._idempotency_header = None (and line 481: if idempotency_header and options.idempotency_key …: the key made for a POST is never sent)'),
      retryOn: at(OPENAI, 'src/openai/_base_client.py', '1091-1101', 'except timeout_exceptions() as err: … if remaining_retries > 0: self._sleep_for_retry(…) continue; statuses: line 857 (429), line 862 (status_code >= 500)'),
      retryWritesWithoutKey: at(OPENAI, 'src/openai/_base_client.py', 1091, 'except timeout_exceptions() as err: (any method, POST too)'),
      honourRetryAfter: at(OPENAI, 'src/openai/_base_client.py', '810-812', 'retry_after = self._parse_retry_after_header(response_headers) if retry_after is not None and math.isfinite(retry_after) and 0 < retry_after <= MAX_RETRY_AFTER_DELAY: return retry_after'),
      retryOnStatuses: at(OPENAI, 'src/openai/_base_client.py', '847-852', 'if response.status_code == 408: … if response.status_code == 409:'),
      retryAfterMaxMs: { ...at(OPENAI, 'src/openai/_constants.py', 13, 'MAX_RETRY_AFTER_DELAY = 2 * 60'), also: [at(OPENAI_252, 'src/openai/_constants.py', 15, 'MAX_RETRY_AFTER_DELAY = 2 * 60 (the first release with it: “honor Retry-After delays up to two minutes”, #3555)')] },
      retryAfterOverMax: { ...at(OPENAI, 'src/openai/_base_client.py', '826-833', 'if retry_after is not None and math.isfinite(retry_after) and retry_after > MAX_RETRY_AFTER_DELAY: … return False'), also: [at(OPENAI_252, 'src/openai/_base_client.py', 823, 'if retry_after is not None and math.isfinite(retry_after) and retry_after > MAX_RETRY_AFTER_DELAY:')] },
    },
    cannot: [
      'x-should-retry (a server hint that overrides the decision) and retry-after-ms (milliseconds).',
      'A Retry-After of 0, or a date now or past, falls back to the backoff (0 < retry_after); here it waits 0.',
      'An HTTP-date Retry-After is measured against the local clock; here against the response’s Date.',
      'The jitter: the SDK multiplies by 1 − 0.25·r; the engine by 0.75 + 0.25·d. The same range and distribution (d = 1 − r): a given draw gives the wait another draw gives there.',
    ],
    opening: { attempts: 2, charges: 2, outcome: 'success', why: 'the timeout is retried on a POST too, and no idempotency key is sent (the SDK makes one but has no header to put it in), so the second attempt charges again' },
  }),
  preset({
    id: 'openai-python-251',
    group: 'AI SDKs',
    name: 'OpenAI Python SDK (openai-python ≤ 2.51: Retry-After up to 60 s)',
    short: 'openai-python ≤ 2.51',
    library: 'openai/openai-python',
    versions: 'openai-python 1.0.0–2.51.x (read at v1.0.0 and v2.51.0, the same values, and so at v1.10.0 and v2.0.0; the SDK before 1.0 is another client)',
    inputs: { maxRetries: 2, baseBackoffMs: 500, backoffMultiplier: 2, maxBackoffMs: 8000, jitter: 'proportional', jitterLow: 0.75, jitterHigh: 1, clientTimeoutMs: 3000, deadlineMs: 10000, idempotencyKey: false, retryOn: ['timeout', '429', '5xx'], retryWritesWithoutKey: true, honourRetryAfter: true, retryOnStatuses: [408, 409], retryAfterMaxMs: 60000 },
    pins: {
      maxRetries: { ...at(OPENAI_251, 'src/openai/_constants.py', 10, 'DEFAULT_MAX_RETRIES = 2'), also: [at(OPENAI_100, 'src/openai/_constants.py', 9, 'DEFAULT_MAX_RETRIES = 2')] },
      baseBackoffMs: { ...at(OPENAI_251, 'src/openai/_constants.py', 13, 'INITIAL_RETRY_DELAY = 0.5'), also: [at(OPENAI_100, 'src/openai/_base_client.py', 619, 'initial_retry_delay = 0.5')] },
      backoffMultiplier: { ...at(OPENAI_251, 'src/openai/_base_client.py', 808, 'sleep_seconds = min(INITIAL_RETRY_DELAY * pow(2.0, nb_retries), MAX_RETRY_DELAY)'), also: [at(OPENAI_100, 'src/openai/_base_client.py', 624, 'sleep_seconds = min(initial_retry_delay * pow(2.0, nb_retries), max_retry_delay)')] },
      maxBackoffMs: { ...at(OPENAI_251, 'src/openai/_constants.py', 14, 'MAX_RETRY_DELAY = 8.0'), also: [at(OPENAI_100, 'src/openai/_base_client.py', 620, 'max_retry_delay = 8.0')] },
      jitter: { ...at(OPENAI_251, 'src/openai/_base_client.py', 811, 'jitter = 1 - 0.25 * random()'), also: [at(OPENAI_100, 'src/openai/_base_client.py', 627, 'jitter = 1 - 0.25 * random()')] },
      jitterLow: at(OPENAI_251, 'src/openai/_base_client.py', 811, 'jitter = 1 - 0.25 * random()'),
      jitterHigh: at(OPENAI_251, 'src/openai/_base_client.py', 811, 'jitter = 1 - 0.25 * random()'),
      clientTimeoutMs: SEED_TIMEOUT('the SDK’s own is 600 s (src/openai/_constants.py line 9)'),
      deadlineMs: SEED_DEADLINE('the SDK sets no overall deadline'),
      idempotencyKey: { ...at(OPENAI_251, 'src/openai/_base_client.py', 404, 'self._idempotency_header = None'), also: [at(OPENAI_100, 'src/openai/_base_client.py', 350, 'self._idempotency_header = None')] },
      retryOn: { ...at(OPENAI_251, 'src/openai/_base_client.py', '838-843', 'if response.status_code == 429: … if response.status_code >= 500: (timeouts: as in ≥ 2.52)'), also: [at(OPENAI_100, 'src/openai/_base_client.py', '650-655', 'if response.status_code == 429: return True # Retry internal errors. if response.status_code >= 500: (timeouts: except httpx.TimeoutException as err: if retries > 0:, lines 878-879)')] },
      retryWritesWithoutKey: at(OPENAI_251, 'src/openai/_base_client.py', 404, 'no key, and timeouts are retried for every method'),
      honourRetryAfter: { ...at(OPENAI_251, 'src/openai/_base_client.py', 801, 'if retry_after is not None and 0 < retry_after <= 60:'), also: [at(OPENAI_100, 'src/openai/_base_client.py', 616, 'if 0 < retry_after <= 60:')] },
      retryOnStatuses: { ...at(OPENAI_251, 'src/openai/_base_client.py', '828-833', 'if response.status_code == 408: … if response.status_code == 409:'), also: [at(OPENAI_100, 'src/openai/_base_client.py', '642-646', 'if response.status_code == 408: return True # Retry on lock timeouts. if response.status_code == 409:')] },
      retryAfterMaxMs: { ...at(OPENAI_251, 'src/openai/_base_client.py', 801, '0 < retry_after <= 60: above, the backoff applies'), also: [at(OPENAI_100, 'src/openai/_base_client.py', 616, 'if 0 < retry_after <= 60:')] },
    },
    cannot: [
      'x-should-retry and retry-after-ms; a Retry-After of 0 falls back to the backoff (here it waits 0); dates against the local clock.',
      'The jitter is 1 − 0.25·r there, 0.75 + 0.25·d here: the same distribution.',
    ],
    opening: { attempts: 2, charges: 2, outcome: 'success', why: 'the timeout is retried and no idempotency key is sent, so the second attempt charges again' },
  }),
  preset({
    id: 'anthropic-python',
    group: 'AI SDKs',
    name: 'Anthropic Python SDK (anthropic-sdk-python v0.121.0)',
    short: 'the Anthropic Python SDK',
    library: 'anthropics/anthropic-sdk-python',
    versions: 'anthropic-sdk-python v0.121.0 (read there only, the newest tag reachable here on 2026-12-04; later releases not read)',
    inputs: { maxRetries: 2, baseBackoffMs: 500, backoffMultiplier: 2, maxBackoffMs: 8000, jitter: 'proportional', jitterLow: 0.75, jitterHigh: 1, clientTimeoutMs: 3000, deadlineMs: 10000, idempotencyKey: false, retryOn: ['timeout', '429', '5xx'], retryWritesWithoutKey: true, honourRetryAfter: true, retryOnStatuses: [408, 409], retryAfterMaxMs: 60000, waitBudgetMs: null },
    pins: {
      maxRetries: at(ANTHROPIC, 'src/anthropic/_constants.py', 10, 'DEFAULT_MAX_RETRIES = 2'),
      baseBackoffMs: at(ANTHROPIC, 'src/anthropic/_constants.py', 13, 'INITIAL_RETRY_DELAY = 0.5'),
      backoffMultiplier: at(ANTHROPIC, 'src/anthropic/_base_client.py', '832-835', 'nb_retries = min(max_retries - remaining_retries, 1000) … sleep_seconds = min(INITIAL_RETRY_DELAY * pow(2.0, nb_retries), MAX_RETRY_DELAY)'),
      maxBackoffMs: at(ANTHROPIC, 'src/anthropic/_constants.py', 14, 'MAX_RETRY_DELAY = 8.0'),
      jitter: at(ANTHROPIC, 'src/anthropic/_base_client.py', 838, 'jitter = 1 - 0.25 * random()'),
      jitterLow: at(ANTHROPIC, 'src/anthropic/_base_client.py', 838, 'jitter = 1 - 0.25 * random()'),
      jitterHigh: at(ANTHROPIC, 'src/anthropic/_base_client.py', 838, 'jitter = 1 - 0.25 * random()'),
      clientTimeoutMs: SEED_TIMEOUT('the SDK’s own is 10 minutes (src/anthropic/_constants.py line 9), longer for large non-streaming requests'),
      deadlineMs: SEED_DEADLINE('the SDK sets no overall deadline'),
      idempotencyKey: at(ANTHROPIC, 'src/anthropic/_base_client.py', 412, 'self._idempotency_header = None'),
      retryOn: at(ANTHROPIC, 'src/anthropic/_base_client.py', '897-898', 'if isinstance(current, APIConnectionError): return True, None (APITimeoutError is an APIConnectionError, src/anthropic/_exceptions.py line 91); statuses: line 865 (429), line 870 (>= 500)'),
      retryWritesWithoutKey: at(ANTHROPIC, 'src/anthropic/_base_client.py', 1162, 'should_retry, failed_response = self._should_retry_exception(err) (any method)'),
      honourRetryAfter: at(ANTHROPIC, 'src/anthropic/_base_client.py', 828, 'if retry_after is not None and 0 < retry_after <= 60: return retry_after'),
      retryOnStatuses: at(ANTHROPIC, 'src/anthropic/_base_client.py', '855-860', 'if response.status_code == 408: … if response.status_code == 409:'),
      retryAfterMaxMs: at(ANTHROPIC, 'src/anthropic/_base_client.py', 828, '0 < retry_after <= 60: above, the backoff applies'),
      waitBudgetMs: NONE('no limit on the total waiting'),
    },
    cannot: [
      'x-should-retry and retry-after-ms; a Retry-After of 0 falls back to the backoff (here it waits 0); a 401 retried once after refreshing a cached token.',
      'The jitter is 1 − 0.25·r there, 0.75 + 0.25·d here: the same distribution.',
    ],
    opening: { attempts: 2, charges: 2, outcome: 'success', why: 'the timeout is retried and no idempotency key is sent, so the second attempt charges again' },
  }),

  preset({
    id: 'openai-node',
    group: 'AI SDKs',
    name: 'OpenAI Node SDK (openai 7.60.0: Retry-After up to 60 s)',
    short: 'the OpenAI Node SDK',
    library: 'openai (npm), the OpenAI Node SDK',
    versions: 'openai 7.60.0 (read in its npm tarball on 2026-12-04, the newest that day; earlier versions not read)',
    inputs: { maxRetries: 2, baseBackoffMs: 500, backoffMultiplier: 2, maxBackoffMs: 8000, jitter: 'proportional', jitterLow: 0.75, jitterHigh: 1, clientTimeoutMs: 3000, deadlineMs: 10000, idempotencyKey: false, retryOn: ['timeout', '429', '5xx'], retryWritesWithoutKey: true, honourRetryAfter: true, retryOnStatuses: [408, 409], retryAfterMaxMs: 60000 },
    pins: {
      maxRetries: inPkg(OPENAI_NODE, 'client.js', 1508, "return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 2;"),
      baseBackoffMs: inPkg(OPENAI_NODE, 'client.js', 1199, 'const initialRetryDelay = 0.5;'),
      backoffMultiplier: inPkg(OPENAI_NODE, 'client.js', '1201-1203', 'const numRetries = maxRetries - retriesRemaining; … const sleepSeconds = Math.min(initialRetryDelay * Math.pow(2, numRetries), maxRetryDelay);'),
      maxBackoffMs: inPkg(OPENAI_NODE, 'client.js', 1200, 'const maxRetryDelay = 8.0;'),
      jitter: inPkg(OPENAI_NODE, 'client.js', '1205-1206', 'const jitter = 1 - Math.random() * 0.25; return sleepSeconds * jitter * 1000;'),
      jitterLow: inPkg(OPENAI_NODE, 'client.js', 1205, 'const jitter = 1 - Math.random() * 0.25;: 0.75 + 0.25·d with d = 1 − random, the same distribution'),
      jitterHigh: inPkg(OPENAI_NODE, 'client.js', 1205, 'const jitter = 1 - Math.random() * 0.25;: at most 1'),
      clientTimeoutMs: SEED_TIMEOUT('the SDK’s own is 10 minutes (client.js line 1824: OpenAI.DEFAULT_TIMEOUT = 600000;)'),
      deadlineMs: SEED_DEADLINE('the SDK sets no overall deadline'),
      idempotencyKey: inPkg(OPENAI_NODE, 'client.js', 1398, "if (this.idempotencyHeader && method !== 'get') { (the OpenAI client sets no idempotencyHeader: no key is sent)"),
      retryOn: inPkg(OPENAI_NODE, 'client.js', '888-900', 'const isTimeout = (0, errors_1.isAbortError)(response) || … if (retriesRemaining && !hasStreamingBody && …) { … return this.retryRequest(…); (statuses: line 1136, 429; line 1139, >= 500)'),
      retryWritesWithoutKey: inPkg(OPENAI_NODE, 'client.js', '890-892', 'if (retriesRemaining && !hasStreamingBody && … (any method, POST too)'),
      honourRetryAfter: inPkg(OPENAI_NODE, 'client.js', '1154-1161', "const retryAfterHeader = responseHeaders?.get('retry-after'); if (retryAfterHeader && timeoutMillis === undefined) { const timeoutSeconds = parseFloat(retryAfterHeader); …"),
      retryOnStatuses: inPkg(OPENAI_NODE, 'client.js', '1130-1134', 'if (response.status === 408) return true; … if (response.status === 409) return true;'),
      retryAfterMaxMs: inPkg(OPENAI_NODE, 'client.js', '1166-1171', 'if (timeoutMillis === undefined || !Number.isFinite(timeoutMillis) || timeoutMillis < 0 || timeoutMillis > 60 * 1000) { … timeoutMillis = this.calculateDefaultRetryTimeoutMillis(…); (above 60 s, the backoff)'),
    },
    cannot: [
      'x-should-retry (a server hint that overrides the decision) and retry-after-ms (milliseconds, read before Retry-After); a request whose body is a stream is never retried (hasStreamingBody, line 891).',
      'A Retry-After date in the past falls back to the backoff (timeoutMillis < 0); here it waits 0. Dates are measured against the local clock; here against the response’s Date.',
      'The jitter is 1 − 0.25·r there, 0.75 + 0.25·d here: the same distribution.',
    ],
    opening: { attempts: 2, charges: 2, outcome: 'success', why: 'the timeout is retried on a POST too, and no idempotency key is sent, so the second attempt charges again' },
  }),
  preset({
    id: 'anthropic-node',
    group: 'AI SDKs',
    name: 'Anthropic Node SDK (@anthropic-ai/sdk 1.17.0: Retry-After with no cap)',
    short: 'the Anthropic Node SDK',
    library: '@anthropic-ai/sdk (npm), the Anthropic Node SDK',
    versions: '@anthropic-ai/sdk 1.17.0 (read in its npm tarball on 2026-12-04, the newest that day; earlier versions not read)',
    inputs: { maxRetries: 2, baseBackoffMs: 500, backoffMultiplier: 2, maxBackoffMs: 8000, jitter: 'proportional', jitterLow: 0.75, jitterHigh: 1, clientTimeoutMs: 3000, deadlineMs: 10000, idempotencyKey: false, retryOn: ['timeout', '429', '5xx'], retryWritesWithoutKey: true, honourRetryAfter: true, retryOnStatuses: [408, 409] },
    pins: {
      maxRetries: inPkg(ANTHROPIC_NODE, 'client.js', 170, "this.maxRetries = (0, values_1.validatePositiveInteger)('maxRetries', options.maxRetries ?? 2);"),
      baseBackoffMs: inPkg(ANTHROPIC_NODE, 'client.js', 958, 'const initialRetryDelay = 0.5;'),
      backoffMultiplier: inPkg(ANTHROPIC_NODE, 'client.js', 962, 'const sleepSeconds = Math.min(initialRetryDelay * Math.pow(2, numRetries), maxRetryDelay);'),
      maxBackoffMs: inPkg(ANTHROPIC_NODE, 'client.js', 959, 'const maxRetryDelay = 8.0;'),
      jitter: inPkg(ANTHROPIC_NODE, 'client.js', 964, 'const jitter = 1 - Math.random() * 0.25;'),
      jitterLow: inPkg(ANTHROPIC_NODE, 'client.js', 964, 'const jitter = 1 - Math.random() * 0.25;: 0.75 + 0.25·d with d = 1 − random'),
      jitterHigh: inPkg(ANTHROPIC_NODE, 'client.js', 964, 'const jitter = 1 - Math.random() * 0.25;: at most 1'),
      clientTimeoutMs: SEED_TIMEOUT('the SDK’s own is 10 minutes (client.js line 1094: BaseAnthropic.DEFAULT_TIMEOUT = 600000;), longer for large non-streaming requests'),
      deadlineMs: SEED_DEADLINE('the SDK sets no overall deadline'),
      idempotencyKey: NONE('the client sends no idempotency header (no file of the package names one)'),
      retryOn: inPkg(ANTHROPIC_NODE, 'client.js', '683-691', 'if (retriesRemaining) { … return this.retryRequest(options, retriesRemaining, …); (a failed or timed-out connection; statuses: line 919, 429; line 922, >= 500)'),
      retryWritesWithoutKey: inPkg(ANTHROPIC_NODE, 'client.js', 683, 'if (retriesRemaining) { (any method, POST too)'),
      honourRetryAfter: inPkg(ANTHROPIC_NODE, 'client.js', '936-945', "const retryAfterHeader = responseHeaders?.get('retry-after'); if (retryAfterHeader && !timeoutMillis) { const timeoutSeconds = parseFloat(retryAfterHeader); …"),
      retryOnStatuses: inPkg(ANTHROPIC_NODE, 'client.js', '913-917', 'if (response.status === 408) return true; … if (response.status === 409) return true;'),
      retryAfterMaxMs: inPkg(ANTHROPIC_NODE, 'client.js', 950, 'if (timeoutMillis === undefined || !(timeoutMillis > 0 && timeoutMillis <= 2 ** 31 - 1)) { (no cap below 2^31 − 1 ms, 24.8 days: longer than the engine’s largest time, 1 day)'),
    },
    cannot: [
      'x-should-retry and retry-after-ms (milliseconds, read before Retry-After); a 401 retried once after refreshing a cached token.',
      'A Retry-After of 0, or a date now or past, falls back to the backoff (timeoutMillis > 0); here it waits 0. Dates are measured against the local clock.',
      'The jitter is 1 − 0.25·r there, 0.75 + 0.25·d here: the same distribution.',
    ],
    opening: { attempts: 2, charges: 2, outcome: 'success', why: 'the timeout is retried on a POST too, and no idempotency key is sent, so the second attempt charges again' },
  }),

  // ---- .NET and Java ----
  preset({
    id: 'dotnet-standard',
    group: '.NET and Java',
    name: '.NET AddStandardResilienceHandler (Microsoft.Extensions.Http.Resilience)',
    short: '.NET’s standard resilience handler',
    library: 'dotnet/extensions (on App-vNext/Polly)',
    versions: 'Microsoft.Extensions.Http.Resilience v10.9.0, Polly 8.7.0',
    inputs: { maxRetries: 3, baseBackoffMs: 2000, backoffMultiplier: 2, maxBackoffMs: null, jitter: 'full', clientTimeoutMs: 3000, deadlineMs: 30000, idempotencyKey: false, retryOn: ['timeout', '429', '5xx'], retryWritesWithoutKey: true, honourRetryAfter: true, retryOnStatuses: [408] },
    pins: {
      maxRetries: at(POLLY, 'src/Polly.Core/Retry/RetryConstants.cs', 11, 'public const int DefaultRetryCount = 3;'),
      baseBackoffMs: at(POLLY, 'src/Polly.Core/Retry/RetryConstants.cs', 15, 'public static readonly TimeSpan DefaultBaseDelay = TimeSpan.FromSeconds(2);'),
      backoffMultiplier: at(DOTNET, 'src/Libraries/Microsoft.Extensions.Http.Resilience/Polly/HttpRetryStrategyOptions.cs', 30, 'BackoffType = DelayBackoffType.Exponential;'),
      maxBackoffMs: at(POLLY, 'src/Polly.Core/Retry/RetryStrategyOptions.TResult.cs', 90, 'public TimeSpan? MaxDelay { get; set; } (null: no cap)'),
      jitter: { ...at(DOTNET, 'src/Libraries/Microsoft.Extensions.Http.Resilience/Polly/HttpRetryStrategyOptions.cs', 32, 'UseJitter = true; (exponential with jitter is Polly’s DecorrelatedJitterBackoffV2, src/Polly.Core/Retry/RetryHelper.cs lines 75-91)'), approximated: 'full jitter stands in for Polly’s decorrelated jitter V2' },
      clientTimeoutMs: SEED_TIMEOUT('the handler’s own attempt timeout is 10 s (HttpStandardResilienceOptions.cs lines 93-95); a timeout there is a TimeoutRejectedException, retried'),
      deadlineMs: at(POLLY, 'src/Polly.Core/Timeout/TimeoutStrategyOptions.cs', 24, 'public TimeSpan Timeout { get; set; } = TimeSpan.FromSeconds(30); (the handler’s TotalRequestTimeout, HttpStandardResilienceOptions.cs line 53)'),
      idempotencyKey: NONE('the handler sends no key'),
      retryOn: at(DOTNET, 'src/Libraries/Microsoft.Extensions.Http.Resilience/Polly/HttpClientResiliencePredicates.cs', '50', 'return exception is HttpRequestException or TimeoutRejectedException; (statuses: lines 69-71)'),
      retryWritesWithoutKey: at(DOTNET, 'src/Libraries/Microsoft.Extensions.Http.Resilience/Polly/HttpRetryStrategyOptions.cs', 29, 'ShouldHandle = args => … IsTransient(args.Outcome, …) (no method is excluded)'),
      honourRetryAfter: at(DOTNET, 'src/Libraries/Microsoft.Extensions.Http.Resilience/Polly/HttpRetryStrategyOptions.cs', 31, 'ShouldRetryAfterHeader = true;'),
      retryOnStatuses: at(DOTNET, 'src/Libraries/Microsoft.Extensions.Http.Resilience/Polly/HttpClientResiliencePredicates.cs', '69-71', 'return statusCode >= InternalServerErrorCode || response.StatusCode == HttpStatusCode.RequestTimeout || statusCode == TooManyRequests;'),
    },
    gates: [{
      gate: 'breaker', params: { failureRatio: 0.1, minimumThroughput: 100, samplingDurationMs: 30000, breakDurationMs: 5000 },
      units: { failureRatio: '', minimumThroughput: 'calls', samplingDurationMs: 'ms', breakDurationMs: 'ms' }, // Polly's own, not FLEET §5's
      pin: at(POLLY, 'src/Polly.Core/CircuitBreaker/CircuitBreakerConstants.cs', '13-21', 'DefaultFailureRatio = 0.1; DefaultMinimumThroughput = 100; DefaultBreakDuration = TimeSpan.FromSeconds(5); DefaultSamplingDuration = TimeSpan.FromSeconds(30);'),
      note: 'Polly samples outcomes over 30 s of time, not over the last N calls: the fleet’s circuit breaker counts calls, so these values are data, not its settings.',
    }],
    cannot: [
      'Polly’s decorrelated jitter V2 (t = n − 1 + d; 2^t·tanh(√(4t)) differences × Delay/1.4) is approximated by full jitter of 2 s × 2^(n−1): Polly’s first wait lies in 0–2.754 s with a median near 1.795 s, here 0–2 s with a median of 1 s; later waits differ likewise. The opening run’s charges do not depend on the wait.',
      'A Retry-After is honoured on any answer the strategy handles, with Polly’s own parsing; the rate limiter and the hedging options of the handler.',
    ],
    opening: { attempts: 2, charges: 2, outcome: 'success', why: 'the attempt timeout’s TimeoutRejectedException is retried, and no idempotency key is sent, so the second attempt charges again' },
  }),
  preset({
    id: 'dotnet-hedging',
    group: '.NET and Java',
    name: '.NET AddStandardHedgingHandler (Microsoft.Extensions.Http.Resilience)',
    short: '.NET’s standard hedging handler',
    library: 'dotnet/extensions (on App-vNext/Polly)',
    versions: 'Microsoft.Extensions.Http.Resilience v10.9.0 (HttpStandardHedgingResilienceOptions), Polly 8.7.0',
    inputs: {
      maxRetries: 0, baseBackoffMs: 2000, backoffMultiplier: 1, maxBackoffMs: null, jitter: 'none', clientTimeoutMs: 3000,
      deadlineMs: 30000, idempotencyKey: false, retryOn: [], retryWritesWithoutKey: true, honourRetryAfter: false,
      hedging: { kind: 'a6', maxAttempts: 2, delayMs: 2000, nonFatal: ['timeout', '429', '5xx'] },
    },
    pins: {
      maxRetries: NONE('the hedging handler has no retry strategy: its pipeline is total timeout, hedging, then per endpoint a rate limiter, a breaker and the attempt timeout (HttpStandardHedgingResilienceOptions.cs, HedgingEndpointOptions.cs)'),
      baseBackoffMs: NONE('no retry, so no backoff; the hedging delay is in hedging'),
      backoffMultiplier: NONE('no retry, so no backoff'),
      maxBackoffMs: NONE('no retry, so no backoff'),
      jitter: NONE('no retry, so no backoff'),
      clientTimeoutMs: SEED_TIMEOUT('the handler’s own attempt timeout is 10 s (HedgingEndpointOptions.cs line 57: Timeout = TimeSpan.FromSeconds(10),); its TimeoutRejectedException is a handled outcome'),
      deadlineMs: at(POLLY, 'src/Polly.Core/Timeout/TimeoutStrategyOptions.cs', 24, 'public TimeSpan Timeout { get; set; } = TimeSpan.FromSeconds(30); (the handler’s TotalRequestTimeout, HttpStandardHedgingResilienceOptions.cs line 48)'),
      idempotencyKey: NONE('the handler sends no key'),
      retryOn: NONE('no retry: which outcomes send the next copy at once is hedging’s nonFatal'),
      retryWritesWithoutKey: NONE('no retry; the handler hedges every method (DisableForUnsafeHttpMethods exists for the retry strategy only: HttpRetryStrategyOptionsExtensions.cs line 29)'),
      honourRetryAfter: NONE('the hedging strategy reads no header'),
      hedging: {
        ...at(POLLY, 'src/Polly.Core/Hedging/HedgingConstants.cs', '9-15', 'public const int DefaultMaxHedgedAttempts = 1; … public static readonly TimeSpan DefaultHedgingDelay = TimeSpan.FromSeconds(2); (one hedged action besides the original: 2 copies, 2 s apart)'),
        also: [
          at(DOTNET, 'src/Libraries/Microsoft.Extensions.Http.Resilience/Hedging/HttpHedgingStrategyOptions.cs', 27, 'ShouldHandle = args => new ValueTask<bool>(HttpClientHedgingResiliencePredicates.IsTransient(args.Outcome, args.Context.CancellationToken)); (a handled outcome: the next copy at once)'),
          at(DOTNET, 'src/Libraries/Microsoft.Extensions.Http.Resilience/Polly/HttpClientResiliencePredicates.cs', '50', 'return exception is HttpRequestException or TimeoutRejectedException; (statuses: lines 69-71, 5xx, 408 and 429)'),
          at(POLLY, 'src/Polly.Core/Hedging/HedgingResilienceStrategy.cs', '64-77', 'var delay = await GetHedgingDelayAsync(…); var execution = await hedgingContext.TryWaitForCompletedExecutionAsync(delay); if (execution is null) { continue; } outcome = execution.Outcome; if (!execution.IsHandled) { execution.AcceptOutcome(); return outcome…; } (an unhandled outcome, a 2xx or a 400, is the answer; a handled one loads the next copy at once)'),
        ],
        approximated: 'a 408 is handled there (non-fatal) and is in the 4xx class here, which is fatal',
      },
    },
    cannot: [
      'A 408 is a handled outcome there; here the 4xx class is fatal, so a 408 ends the run.',
      'The per-endpoint rate limiter and circuit breaker (the fleet’s breaker is count-based, Polly’s samples 30 s); hedging to other endpoints (one server here).',
    ],
    opening: { attempts: 2, charges: 2, outcome: 'success', why: 'the copy sent 2 s after the first is answered at 2,200 ms while the first’s response is lost, and no key is sent: the copy charges again, by design' },
  }),
  preset({
    id: 'polly',
    group: '.NET and Java',
    name: 'Polly v8 retry defaults (HttpClient timeout, not retried)',
    short: 'Polly v8’s defaults',
    library: 'App-vNext/Polly',
    versions: 'Polly 8.7.0 (read there)',
    inputs: { maxRetries: 3, baseBackoffMs: 2000, backoffMultiplier: 1, maxBackoffMs: null, jitter: 'none', clientTimeoutMs: 3000, deadlineMs: 10000, idempotencyKey: false, retryOn: ['429', '5xx', '4xx'], retryWritesWithoutKey: true, honourRetryAfter: false },
    pins: {
      maxRetries: at(POLLY, 'src/Polly.Core/Retry/RetryConstants.cs', 11, 'public const int DefaultRetryCount = 3;'),
      baseBackoffMs: at(POLLY, 'src/Polly.Core/Retry/RetryConstants.cs', 15, 'public static readonly TimeSpan DefaultBaseDelay = TimeSpan.FromSeconds(2);'),
      backoffMultiplier: at(POLLY, 'src/Polly.Core/Retry/RetryConstants.cs', 9, 'public const DelayBackoffType DefaultBackoffType = DelayBackoffType.Constant;'),
      maxBackoffMs: at(POLLY, 'src/Polly.Core/Retry/RetryStrategyOptions.TResult.cs', 90, 'public TimeSpan? MaxDelay { get; set; }'),
      jitter: at(POLLY, 'src/Polly.Core/Retry/RetryStrategyOptions.TResult.cs', 52, 'public bool UseJitter { get; set; } (false)'),
      clientTimeoutMs: SEED_TIMEOUT('HttpClient’s own is 100 s'),
      deadlineMs: SEED_DEADLINE('Polly sets none'),
      idempotencyKey: NONE('Polly sends no key'),
      retryOn: at(POLLY, 'src/Polly.Core/Utils/DefaultPredicates.cs', 6, 'HandleOutcome = args => new(args.Outcome.Exception is { } and not OperationCanceledException); (statuses only if the call throws on them, as EnsureSuccessStatusCode does; an HttpClient timeout is an OperationCanceledException)'),
      retryWritesWithoutKey: at(POLLY, 'src/Polly.Core/Utils/DefaultPredicates.cs', 6, 'no method is excluded'),
      honourRetryAfter: NONE('Polly reads no header unless a DelayGenerator does'),
    },
    cannot: ['What is retried depends on the caller’s code: a status only if the call throws on it (EnsureSuccessStatusCode), and an HttpClient timeout is an OperationCanceledException, which the default ShouldHandle excludes.'],
    opening: { attempts: 1, charges: 1, outcome: 'unknown', why: 'HttpClient’s timeout is an OperationCanceledException, which Polly’s default ShouldHandle does not retry' },
  }),
  preset({
    id: 'polly-timeout',
    group: '.NET and Java',
    name: 'Polly v8 retry defaults with a Polly Timeout strategy inside',
    short: 'Polly v8 with a Timeout strategy',
    library: 'App-vNext/Polly',
    versions: 'Polly 8.7.0 (read there)',
    inputs: { maxRetries: 3, baseBackoffMs: 2000, backoffMultiplier: 1, maxBackoffMs: null, jitter: 'none', clientTimeoutMs: 3000, deadlineMs: 10000, idempotencyKey: false, retryOn: ['timeout', '429', '5xx', '4xx'], retryWritesWithoutKey: true, honourRetryAfter: false, waitBudgetMs: null },
    pins: {
      maxRetries: at(POLLY, 'src/Polly.Core/Retry/RetryConstants.cs', 11, 'public const int DefaultRetryCount = 3;'),
      baseBackoffMs: at(POLLY, 'src/Polly.Core/Retry/RetryConstants.cs', 15, 'public static readonly TimeSpan DefaultBaseDelay = TimeSpan.FromSeconds(2);'),
      backoffMultiplier: at(POLLY, 'src/Polly.Core/Retry/RetryConstants.cs', 9, 'DelayBackoffType.Constant'),
      maxBackoffMs: at(POLLY, 'src/Polly.Core/Retry/RetryStrategyOptions.TResult.cs', 90, 'public TimeSpan? MaxDelay { get; set; }'),
      jitter: at(POLLY, 'src/Polly.Core/Retry/RetryStrategyOptions.TResult.cs', 52, 'public bool UseJitter { get; set; }'),
      clientTimeoutMs: page('the Timeout strategy’s value, here the seed’s 3 s (Polly’s own default would be 30 s, src/Polly.Core/Timeout/TimeoutStrategyOptions.cs line 24)'),
      deadlineMs: SEED_DEADLINE('Polly sets none outside the retry'),
      idempotencyKey: NONE('Polly sends no key'),
      retryOn: at(POLLY, 'src/Polly.Core/Utils/DefaultPredicates.cs', 6, 'Exception is { } and not OperationCanceledException: a TimeoutRejectedException is handled'),
      retryWritesWithoutKey: at(POLLY, 'src/Polly.Core/Utils/DefaultPredicates.cs', 6, 'no method is excluded'),
      honourRetryAfter: NONE('no DelayGenerator by default'),
      waitBudgetMs: NONE('no limit on the total waiting'),
    },
    cannot: ['Statuses are retried only if the call throws on them.'],
    opening: { attempts: 2, charges: 2, outcome: 'success', why: 'the Timeout strategy’s TimeoutRejectedException is retried after 2 s without a key: attempt 2 at 5,000 ms charges again' },
  }),
  preset({
    id: 'resilience4j',
    group: '.NET and Java',
    name: 'resilience4j Retry defaults',
    short: 'resilience4j’s defaults',
    library: 'resilience4j/resilience4j',
    versions: 'resilience4j v2.4.0 (read there)',
    inputs: { maxRetries: 2, baseBackoffMs: 500, backoffMultiplier: 1, maxBackoffMs: null, jitter: 'none', clientTimeoutMs: 3000, deadlineMs: 10000, idempotencyKey: false, retryOn: ['timeout'], retryWritesWithoutKey: true, honourRetryAfter: false },
    pins: {
      maxRetries: at(R4J, 'resilience4j-retry/src/main/java/io/github/resilience4j/retry/RetryConfig.java', 40, 'public static final int DEFAULT_MAX_ATTEMPTS = 3; (the first call included)'),
      baseBackoffMs: at(R4J, 'resilience4j-retry/src/main/java/io/github/resilience4j/retry/RetryConfig.java', 39, 'public static final long DEFAULT_WAIT_DURATION = 500;'),
      backoffMultiplier: at(R4J, 'resilience4j-retry/src/main/java/io/github/resilience4j/retry/RetryConfig.java', 41, 'DEFAULT_INTERVAL_FUNCTION = numOfAttempts -> DEFAULT_WAIT_DURATION;'),
      maxBackoffMs: at(R4J, 'resilience4j-retry/src/main/java/io/github/resilience4j/retry/RetryConfig.java', 41, 'a fixed interval: nothing to cap'),
      jitter: at(R4J, 'resilience4j-retry/src/main/java/io/github/resilience4j/retry/RetryConfig.java', 41, 'a fixed interval, no randomization'),
      clientTimeoutMs: SEED_TIMEOUT('resilience4j has none of its own'),
      deadlineMs: SEED_DEADLINE('resilience4j sets none'),
      idempotencyKey: NONE('resilience4j sends no key'),
      retryOn: at(R4J, 'resilience4j-retry/src/main/java/io/github/resilience4j/retry/RetryConfig.java', 43, 'DEFAULT_RECORD_FAILURE_PREDICATE = throwable -> true; (every exception; a returned status is a result, not retried by default)'),
      retryWritesWithoutKey: at(R4J, 'resilience4j-retry/src/main/java/io/github/resilience4j/retry/RetryConfig.java', 43, 'every exception, whatever the method'),
      honourRetryAfter: NONE('resilience4j reads no header'),
    },
    gates: [{
      gate: 'breaker', params: { window: 100, minCalls: 100, failurePercent: 50, openMs: 60000, halfOpenCalls: 10 },
      pin: at(R4J, 'resilience4j-circuitbreaker/src/main/java/io/github/resilience4j/circuitbreaker/CircuitBreakerConfig.java', '43-52', 'DEFAULT_FAILURE_RATE_THRESHOLD = 50; DEFAULT_WAIT_DURATION_IN_OPEN_STATE = 60; // Seconds DEFAULT_PERMITTED_CALLS_IN_HALF_OPEN_STATE = 10; DEFAULT_MINIMUM_NUMBER_OF_CALLS = 100; DEFAULT_SLIDING_WINDOW_SIZE = 100; DEFAULT_SLIDING_WINDOW_TYPE = SlidingWindowType.COUNT_BASED;'),
      note: 'A separate CircuitBreaker, not part of Retry; the fleet’s circuit breaker has exactly these as its defaults.',
    }],
    cannot: ['Statuses retried only when the HTTP client throws on them; whole-millisecond truncation of exponential intervals (not a default).'],
    opening: { attempts: 2, charges: 2, outcome: 'success', why: 'the timeout exception is retried after 500 ms without a key: exactly the seed’s opening run, whose policy resilience4j’s defaults are' },
  }),

  // ---- Go, proxies, Google ----
  preset({
    id: 'go-retryablehttp',
    group: 'Go, proxies and Google',
    name: 'hashicorp/go-retryablehttp v0.7.8',
    short: 'go-retryablehttp',
    library: 'hashicorp/go-retryablehttp',
    versions: 'go-retryablehttp v0.7.8 (read there)',
    inputs: { maxRetries: 4, baseBackoffMs: 1000, backoffMultiplier: 2, maxBackoffMs: 30000, jitter: 'none', clientTimeoutMs: 3000, deadlineMs: 10000, idempotencyKey: false, retryOn: ['timeout', '429'], retryWritesWithoutKey: true, honourRetryAfter: true, retryOnStatuses: [500, ...Array.from({ length: 98 }, (_, k) => 502 + k)] },
    pins: {
      maxRetries: at(RETRYABLEHTTP, 'client.go', 51, 'defaultRetryMax     = 4'),
      baseBackoffMs: at(RETRYABLEHTTP, 'client.go', 49, 'defaultRetryWaitMin = 1 * time.Second'),
      backoffMultiplier: at(RETRYABLEHTTP, 'client.go', 560, 'mult := math.Pow(2, float64(attemptNum)) * float64(min) (attemptNum 0 before the first retry)'),
      maxBackoffMs: at(RETRYABLEHTTP, 'client.go', 50, 'defaultRetryWaitMax = 30 * time.Second'),
      jitter: at(RETRYABLEHTTP, 'client.go', '560-565', 'DefaultBackoff: no random part'),
      clientTimeoutMs: { ...SEED_TIMEOUT('cleanhttp.DefaultPooledClient sets no http.Client Timeout, only a 30 s dial timeout'), also: [at(CLEANHTTP, 'cleanhttp.go', 27, 'Timeout:   30 * time.Second, (the dialer’s; DefaultPooledClient, line 54, sets no Timeout)')] },
      deadlineMs: SEED_DEADLINE('a context deadline if the caller sets one: DefaultRetryPolicy stops on ctx.Err() (client.go line 474)'),
      idempotencyKey: NONE('no key is sent'),
      retryOn: at(RETRYABLEHTTP, 'client.go', '527-531', 'if resp.StatusCode == http.StatusTooManyRequests { return true, nil } (and errors, a timeout among them: “The error is likely recoverable so retry.”, line 522)'),
      retryWritesWithoutKey: at(RETRYABLEHTTP, 'client.go', 472, 'DefaultRetryPolicy looks at no method'),
      honourRetryAfter: at(RETRYABLEHTTP, 'client.go', '552-557', 'if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable { if sleep, ok := parseRetryAfterHeader(resp.Header["Retry-After"]); ok { return sleep'),
      retryOnStatuses: at(RETRYABLEHTTP, 'client.go', 537, 'if resp.StatusCode == 0 || (resp.StatusCode >= 500 && resp.StatusCode != http.StatusNotImplemented) {'),
    },
    cannot: [
      'A Retry-After is honoured only on a 429 or a 503 (here on any retried answer), with no cap; a date is measured against the local clock and parsed as RFC 1123 only.',
      'A status of 0 or above 599 (retried there) cannot be given to the engine.',
    ],
    opening: { attempts: 2, charges: 2, outcome: 'success', why: 'the timeout is an error, retried after 1 s, and no key is sent: attempt 2 at 4,000 ms charges again' },
  }),
  preset({
    id: 'envoy',
    group: 'Go, proxies and Google',
    name: 'Envoy route retry policy, retry_on: 5xx',
    short: 'Envoy’s route retry policy',
    library: 'envoyproxy/envoy',
    versions: 'Envoy v1.39.0’s route API (envoyproxy/go-control-plane at its tag envoy/v1.39.0, generated from Envoy’s protos); the router at v1.37.0 and v1.14.2 (forks’ copies of Envoy’s release commits); Envoy itself (1.7 GB) is too large to fetch here',
    inputs: { maxRetries: 1, baseBackoffMs: 25, backoffMultiplier: 2, maxBackoffMs: 250, jitter: 'full', clientTimeoutMs: NO_TIMEOUT_MS, deadlineMs: 15000, idempotencyKey: false, retryOn: ['timeout', '5xx'], retryWritesWithoutKey: true, honourRetryAfter: false },
    pins: {
      ...ENVOY_ROUTER_PINS,
      maxRetries: at(ENVOY_API, ENVOY_ROUTE, '2700-2701', '// Specifies the allowed number of retries. This parameter is optional and // defaults to 1.'),
      clientTimeoutMs: at(ENVOY_API, ENVOY_ROUTE, '2704-2711', '// Specifies a non-zero upstream timeout per retry attempt (including the initial attempt). This // parameter is optional. … //	If left unspecified, Envoy will use the global //	:ref:`route timeout …` for the request. (so the engine’s largest: no per-try timeout)'),
      deadlineMs: at(ENVOY_API, ENVOY_ROUTE, 2033, '// Specifies the upstream timeout for the route. If not specified, the default is 15s.'),
      idempotencyKey: NONE('Envoy adds no key'),
      retryOn: page('retry_on has no default: “5xx”, the most common choice, is this preset’s; it covers a 5xx, a reset and a per-try timeout (v1.37.0 retry_state_impl.cc lines 395-399 and 509-512, router.cc line 1359; v1.14.2 retry_state_impl.cc lines 275-276, 294, 364-365)'),
    },
    gates: [{
      gate: 'budget', params: null,
      pin: { ...at(ENVOY_API, 'envoy/config/cluster/v3/circuit_breaker.pb.go', '120-121', '// The maximum number of parallel retries that Envoy will allow to the // upstream cluster. If not specified, the default is 3.'), also: [at(ENVOY_API, 'envoy/config/cluster/v3/circuit_breaker.pb.go', 242, '// This parameter is optional. Defaults to 20%. (RetryBudget.budget_percent; min_retry_concurrency defaults to 3, line 265)')] },
      note: 'Not the fleet’s retry budget: Envoy caps concurrent retries per cluster (max_retries, 3 by default); a retry_budget (20 %, at least 3) is off unless configured.',
    }],
    cannot: [
      'Whole-millisecond waits (random % backoff); retry host predicates, priorities, hedging, rate-limited back-off with Retry-After or X-RateLimit-Reset (off by default).',
      'Envoy’s documentation gives the n-th wait as [0, (2^n − 1) × 25 ms); its code draws from [0, 2^(n−1) × 25 ms): the preset follows the code.',
    ],
    unverified: ['envoyproxy/envoy could not be fetched (1.7 GB): the router’s code was read at v1.37.0 (2026-01-13) and v1.14.2, the same back-off at both; the route API at v1.39.0. That the router of v1.38 and v1.39 draws the same waits is not established: no copy of their code is reachable here.'],
    opening: { attempts: 1, charges: 1, outcome: 'unknown', why: 'without a per-try timeout nothing ends the attempt before the 15 s route timeout, which is not retried' },
  }),
  preset({
    id: 'envoy-hedge',
    group: 'Go, proxies and Google',
    name: 'Envoy route retry policy with hedge_on_per_try_timeout (3 s per try)',
    short: 'Envoy’s hedge on per-try timeout',
    library: 'envoyproxy/envoy',
    versions: 'Envoy v1.39.0’s route API (envoyproxy/go-control-plane at its tag envoy/v1.39.0); the router as the Envoy preset reads it',
    inputs: {
      maxRetries: 1, baseBackoffMs: 25, backoffMultiplier: 2, maxBackoffMs: 250, jitter: 'full', clientTimeoutMs: 3000,
      deadlineMs: 15000, idempotencyKey: false, retryOn: ['timeout', '5xx'], retryWritesWithoutKey: true, honourRetryAfter: false,
      hedging: { kind: 'per-try-timeout' },
    },
    pins: {
      ...ENVOY_ROUTER_PINS,
      maxRetries: at(ENVOY_API, ENVOY_ROUTE, '2700-2701', '// Specifies the allowed number of retries. This parameter is optional and // defaults to 1.'),
      clientTimeoutMs: page('a per-try timeout must be set for the hedge to act (it has none by default): the seed’s 3 s'),
      deadlineMs: at(ENVOY_API, ENVOY_ROUTE, 2033, '// Specifies the upstream timeout for the route. If not specified, the default is 15s.'),
      idempotencyKey: NONE('Envoy adds no key'),
      retryOn: page('retry_on has no default: “5xx”, as the Envoy preset; a hedge needs a retry policy that retries something (the note in the hedging pin)'),
      hedging: at(ENVOY_API, ENVOY_ROUTE, '2934-2949', '// Indicates that a hedged request should be sent when the per-try timeout is hit. // This means that a retry will be issued without resetting the original request, leaving multiple upstream requests in flight. // The first request to complete successfully will be the one returned to the caller. … //   - After per-try timeout, an error response would be discarded, as a retry in the form of a hedged request is already in progress. … // Defaults to “false“. (set true here)'),
    },
    cannot: [
      'Whole-millisecond waits (random % backoff); initial_requests and additional_request_chance (not implemented in Envoy); retry host predicates and priorities.',
      'The router’s code for the hedge (router.cc, read at v1.37.0 for docs/throttling.md §8) could not be read at v1.39.0 here: the preset follows the route API’s words and §8.',
    ],
    opening: { attempts: 2, charges: 2, outcome: 'success', why: 'the first response is lost, so the per-try timeout at 3 s hedges: the retry, after at most 25 ms, charges again while the first attempt stays in flight; a slow answer rather than a lost one would have won the race' },
  }),
  // ---- Istio: the mesh's retries, on every route, asked for by no one ----
  preset({
    id: 'istio',
    group: 'Go, proxies and Google',
    name: 'Istio’s default route retry, 1.24 on (2 retries, no 503)',
    short: 'Istio’s default retry',
    library: 'istio/istio',
    versions: 'Istio 1.24 and later (read at 1.30.3, released 2026-07-13, the newest release in the snapshot reachable here, and the same at 1.31.0-rc.0; read on 2026-12-04); through 1.23 it retried a 503 too (the next preset)',
    inputs: { ...ISTIO_INPUTS, retryOnStatuses: [] },
    pins: {
      ...ISTIO_PINS,
      maxRetries: { ...at(ISTIO, ISTIO_RETRY, 36, 'defaultNumRetries = &wrappers.UInt32Value{Value: 2}'), also: [at(ISTIO_API, ISTIO_VS, '449-454', '// Note: the default cluster-wide retry policy, if not specified, is: … // attempts: 2 // retryOn: "connect-failure,refused-stream,unavailable,cancelled"')] },
      baseBackoffMs: { ...at(ISTIO_API, ISTIO_VS, '1336-1337', '// Specifies the minimum duration between retry attempts. // If unset, default minimum duration of 25ms is used as base interval for exponetial backoff.'), also: [ENVOY_ROUTER_PINS.baseBackoffMs] },
      clientTimeoutMs: at(ISTIO_API, ISTIO_VS, '1309-1312', '// Timeout per attempt for a given request, including the initial call and any retries. … // Default is same value as request // `timeout` of the [HTTP route](…), // which means no timeout. (so the engine’s largest)'),
      deadlineMs: SEED_DEADLINE('Istio sets no route timeout: “Timeout for HTTP requests, default is disabled.” (istio/api 1.30.3 virtual_service.proto line 444; istio 1.30.3 route.go line 1338: action.Timeout = Notimeout, 0, no timeout)'),
      retryOn: at(ISTIO, ISTIO_RETRY, 37, 'defaultRetryOn = "connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes" (none of these is a timeout: a lost response is not retried)'),
      retryOnStatuses: { ...at(ISTIO, ISTIO_RETRY, '45-50', 'cachedDefaultPolicy = &route.RetryPolicy{ NumRetries: defaultNumRetries, RetryOn: defaultRetryOn, HostSelectionRetryMaxAttempts: 5, RetryHostPredicate: defaultRetryHostPredicate, } (no RetriableStatusCodes, so retriable-status-codes matches nothing)'), also: [at(ISTIO_124, 'pilot/pkg/features/pilot.go', '240-241', 'Exclude503FromDefaultRetries = env.Register("EXCLUDE_UNSAFE_503_FROM_DEFAULT_RETRY", true, "If true, excludes unsafe retry on 503 from default retry policy.").Get() (1.24.0, its release note: “Fixed default retry policy to exclude retries on 503 which is potentially unsafe”; the switch is gone from 1.27.0)')] },
    },
    gates: [istioNoRetryCap(at(ISTIO, ISTIO_CLUSTER, 445, 'MaxRetries: &wrapperspb.UInt32Value{Value: math.MaxUint32}, (“Envoy defaults this value to 3, however that has shown to be insufficient during periods of pod churn”, lines 440-444)'))],
    cannot: ISTIO_CANNOT,
    unverified: ISTIO_UNVERIFIED,
    opening: { attempts: 1, charges: 1, outcome: 'unknown', why: 'nothing Istio retries by default happens here: the lost response is no refused connection or stream, and with no per-try or route timeout only the seed’s 10 s deadline ends the attempt' },
  }),
  preset({
    id: 'istio-123',
    group: 'Go, proxies and Google',
    name: 'Istio’s default route retry through 1.23 (2 retries, 503 included)',
    short: 'Istio ≤ 1.23’s default retry',
    library: 'istio/istio',
    versions: 'Istio 1.23 and earlier (read at 1.23.6, released 2025-04-03, on 2026-12-04; earlier releases not read); 1.24–1.26 kept it behind EXCLUDE_UNSAFE_503_FROM_DEFAULT_RETRY=false (their compatibility profile for 1.23); 1.27.0 removed the switch',
    inputs: { ...ISTIO_INPUTS, retryOnStatuses: [503] },
    pins: {
      ...ISTIO_PINS,
      maxRetries: at(ISTIO_123, ISTIO_RETRY, 46, 'NumRetries: &wrappers.UInt32Value{Value: 2},'),
      baseBackoffMs: { ...at(ISTIO_API_123, ISTIO_VS, '1286-1287', '// Number of retries to be allowed for a given request. The interval // between retries will be determined automatically (25ms+).'), also: [ENVOY_ROUTER_PINS.baseBackoffMs] },
      clientTimeoutMs: at(ISTIO_API_123, ISTIO_VS, '1295-1297', '// Default is same value as request // `timeout` of the [HTTP route](…), // which means no timeout. (so the engine’s largest)'),
      deadlineMs: SEED_DEADLINE('Istio sets no route timeout: “Timeout for HTTP requests, default is disabled.” (istio/api 1.23.6 virtual_service.proto line 444; istio 1.23.6 route.go line 1282: action.Timeout = Notimeout)'),
      retryOn: at(ISTIO_123, ISTIO_RETRY, 47, 'RetryOn: "connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes", (none of these is a timeout: a lost response is not retried)'),
      retryOnStatuses: at(ISTIO_123, ISTIO_RETRY, 48, 'RetriableStatusCodes: []uint32{http.StatusServiceUnavailable},'),
    },
    gates: [istioNoRetryCap(at(ISTIO_123, ISTIO_CLUSTER, 351, 'MaxRetries: &wrapperspb.UInt32Value{Value: math.MaxUint32},'))],
    cannot: ISTIO_CANNOT,
    unverified: ISTIO_UNVERIFIED,
    opening: { attempts: 1, charges: 1, outcome: 'unknown', why: 'the lost response is no refused connection and no 503, and with no per-try or route timeout only the seed’s 10 s deadline ends the attempt; a 503, on a POST too, is sent twice more' },
  }),
  preset({
    id: 'istio-example',
    group: 'Go, proxies and Google',
    name: 'Istio’s documented retry example (3 retries, 2 s per try, gateway-error)',
    short: 'Istio’s retry example',
    library: 'istio/api',
    versions: 'the HTTPRetry example of Istio’s VirtualService API, as teams copy it (istio/api 1.30.3, read on 2026-12-04)',
    inputs: { ...ISTIO_INPUTS, maxRetries: 3, clientTimeoutMs: 2000, retryOn: ['timeout'], retryOnStatuses: [502, 503, 504] },
    pins: {
      ...ISTIO_PINS,
      maxRetries: at(ISTIO_API, ISTIO_VS, 1296, '//       attempts: 3'),
      baseBackoffMs: { ...at(ISTIO_API, ISTIO_VS, '1336-1337', '// If unset, default minimum duration of 25ms is used as base interval for exponetial backoff.'), also: [ENVOY_ROUTER_PINS.baseBackoffMs] },
      clientTimeoutMs: at(ISTIO_API, ISTIO_VS, 1297, '//       perTryTimeout: 2s'),
      deadlineMs: SEED_DEADLINE('the example sets no route timeout, and Istio’s default is none (istio/api 1.30.3 virtual_service.proto line 444: “Timeout for HTTP requests, default is disabled.”)'),
      retryOn: { ...at(ISTIO_API, ISTIO_VS, 1298, '//       retryOn: gateway-error,connect-failure,refused-stream'), also: [at(ENVOY_1370, 'source/common/router/router.cc', 1359, 'if (maybeRetryReset(Http::StreamResetReason::LocalReset, upstream_request, TimeoutRetry::Yes)) { (a per-try timeout is a reset, retried under gateway-error: retry_state_impl.cc lines 509-512, if (retry_on_ & (RetryPolicy::RETRY_ON_5XX | RetryPolicy::RETRY_ON_GATEWAY_ERROR)) {)')] },
      retryOnStatuses: { ...at(ENVOY_1370, ENVOY_RETRY_STATE, '401-402', 'if (retry_on_ & RetryPolicy::RETRY_ON_GATEWAY_ERROR) { if (Http::CodeUtility::isGatewayError(response_status)) {'), also: [at(ENVOY_1370, 'source/common/http/codes.h', 138, 'static bool isGatewayError(uint64_t code) { return code >= 502 && code < 505; }')] },
    },
    gates: [istioNoRetryCap(at(ISTIO, ISTIO_CLUSTER, 445, 'MaxRetries: &wrapperspb.UInt32Value{Value: math.MaxUint32},'))],
    cannot: ISTIO_CANNOT,
    unverified: ISTIO_UNVERIFIED,
    opening: { attempts: 2, charges: 2, outcome: 'success', why: 'the 2 s per-try timeout is a reset that gateway-error retries, after at most 25 ms, on the POST too, and the mesh sends no key: attempt 2 charges again' },
  }),
  preset({
    id: 'google-api-core',
    group: 'Go, proxies and Google',
    name: 'Google API core Retry() defaults (google-api-core v2.29.0)',
    short: 'Google API core’s Retry()',
    library: 'googleapis/python-api-core',
    versions: 'google-api-core v2.29.0 (read there, in googleapis/python-api-core; the package has since moved into googleapis/google-cloud-python, too large to fetch here on 2026-12-04: later releases not read)',
    inputs: { maxRetries: 100, baseBackoffMs: 1000, backoffMultiplier: 2, maxBackoffMs: 60000, jitter: 'full', clientTimeoutMs: 3000, deadlineMs: 120000, idempotencyKey: false, retryOn: ['429'], retryWritesWithoutKey: true, honourRetryAfter: false, retryOnStatuses: [500, 503] },
    pins: {
      maxRetries: { ...at(API_CORE, 'google/api_core/retry/retry_unary.py', '137-139', 'timeout = kwargs.get("deadline", timeout) … deadline = time.monotonic() + timeout if timeout is not None else None (no attempt limit: only the timeout ends it)'), approximated: 'no attempt limit: 100 retries here, the engine’s largest; the 120 s timeout ends a run first' },
      baseBackoffMs: at(API_CORE, 'google/api_core/retry/retry_base.py', 43, '_DEFAULT_INITIAL_DELAY = 1.0  # seconds'),
      backoffMultiplier: at(API_CORE, 'google/api_core/retry/retry_base.py', 45, '_DEFAULT_DELAY_MULTIPLIER = 2.0'),
      maxBackoffMs: at(API_CORE, 'google/api_core/retry/retry_base.py', 44, '_DEFAULT_MAXIMUM_DELAY = 60.0  # seconds'),
      jitter: at(API_CORE, 'google/api_core/retry/retry_base.py', '119-122', 'max_delay = min(initial, maximum) while True: yield random.uniform(0.0, max_delay) max_delay = min(max_delay * multiplier, maximum)'),
      clientTimeoutMs: SEED_TIMEOUT('Retry() has no per-attempt timeout; the transport’s is the caller’s'),
      deadlineMs: at(API_CORE, 'google/api_core/retry/retry_base.py', 46, '_DEFAULT_DEADLINE = 60.0 * 2.0  # seconds'),
      idempotencyKey: NONE('Retry() sends no key'),
      retryOn: at(API_CORE, 'google/api_core/retry/retry_base.py', '75-82', 'if_transient_error = if_exception_type( exceptions.InternalServerError, exceptions.TooManyRequests, exceptions.ServiceUnavailable, requests.exceptions.ConnectionError, requests.exceptions.ChunkedEncodingError, auth_exceptions.TransportError, ) (a read timeout is requests’ ReadTimeout, not a ConnectionError: requests v2.34.2 src/requests/exceptions.py line 98)'),
      retryWritesWithoutKey: at(API_CORE, 'google/api_core/retry/retry_base.py', 75, 'the predicate looks at the exception only'),
      honourRetryAfter: NONE('Retry() reads no header'),
      retryOnStatuses: at(API_CORE, 'google/api_core/retry/retry_base.py', '87-90', 'InternalServerError - HTTP 500 … TooManyRequests - HTTP 429 … ServiceUnavailable - HTTP 503'),
    },
    cannot: [
      'Retry() lets an attempt started before its timeout run past it (“timeout is only checked before initiating a retry”, retry_unary.py line 111), and starts one at exactly the timeout (time.monotonic() + next_sleep > deadline, retry_base.py line 223); here the answer is cut at the deadline and an attempt at the deadline is not sent.',
      'The generated Google Cloud clients pass their own predicates, timeouts and per-attempt timeouts: this is Retry() with its defaults.',
    ],
    opening: { attempts: 1, charges: 1, outcome: 'unknown', why: 'a read timeout is not one of the transient errors Retry() retries by default' },
  }),

  // ---- Python HTTP ----
  preset({
    id: 'urllib3',
    group: 'Python HTTP',
    name: 'urllib3 2.7.0 Retry.DEFAULT (the pool default, Retry(3))',
    short: 'urllib3’s default Retry',
    library: 'urllib3/urllib3',
    versions: 'urllib3 2.7.0 (read there, the newest tag reachable here on 2026-12-04; later releases not read)',
    inputs: { maxRetries: 3, baseBackoffMs: 0, backoffMultiplier: 2, maxBackoffMs: 120000, jitter: 'none', clientTimeoutMs: 3000, deadlineMs: 10000, idempotencyKey: false, retryOn: ['timeout'], retryWritesWithoutKey: false, honourRetryAfter: true, firstRetryImmediate: true, retryAfterStatuses: [413, 429, 503] },
    pins: {
      maxRetries: at(URLLIB3, 'src/urllib3/util/retry.py', 557, 'Retry.DEFAULT = Retry(3)'),
      baseBackoffMs: at(URLLIB3, 'src/urllib3/util/retry.py', 229, 'backoff_factor: float = 0,'),
      backoffMultiplier: at(URLLIB3, 'src/urllib3/util/retry.py', 323, 'backoff_value = self.backoff_factor * (2 ** (consecutive_errors_len - 1))'),
      maxBackoffMs: at(URLLIB3, 'src/urllib3/util/retry.py', 210, 'DEFAULT_BACKOFF_MAX = 120'),
      jitter: at(URLLIB3, 'src/urllib3/util/retry.py', 238, 'backoff_jitter: float = 0.0,'),
      firstRetryImmediate: at(URLLIB3, 'src/urllib3/util/retry.py', 320, 'if consecutive_errors_len <= 1: return 0'),
      clientTimeoutMs: SEED_TIMEOUT('urllib3 uses the caller’s'),
      deadlineMs: SEED_DEADLINE('urllib3 sets none'),
      idempotencyKey: NONE('urllib3 sends no key'),
      retryOn: at(URLLIB3, 'src/urllib3/util/retry.py', 221, 'total: bool | int | None = 10, (read errors are retried for the allowed methods; Retry(3) sets total 3)'),
      retryWritesWithoutKey: at(URLLIB3, 'src/urllib3/util/retry.py', '197-199', 'DEFAULT_ALLOWED_METHODS = frozenset( ["HEAD", "GET", "PUT", "DELETE", "OPTIONS", "TRACE"] ) (no POST)'),
      honourRetryAfter: at(URLLIB3, 'src/urllib3/util/retry.py', 234, 'respect_retry_after_header: bool = True,'),
      retryAfterStatuses: at(URLLIB3, 'src/urllib3/util/retry.py', 202, 'RETRY_AFTER_STATUS_CODES = frozenset([413, 429, 503])'),
      retryAfterMaxMs: { ...at(URLLIB3, 'src/urllib3/util/retry.py', '344-345', 'if seconds > self.retry_after_max: seconds = self.retry_after_max (DEFAULT_RETRY_AFTER_MAX = 21600, line 214)'), approximated: 'urllib3 caps a Retry-After at 6 h; the engine’s maximum would ignore it instead, so none is set (6 h is beyond any run here)' },
    },
    cannot: ['A POST is never retried even with an idempotency key (urllib3 has none: turning the key on here would retry); connect errors, retried for POST too; a Retry-After of 0 or in the past falling back to the backoff; the 6-hour cap; dates against the local clock.'],
    opening: { attempts: 1, charges: 1, outcome: 'unknown', why: 'a POST is not among the methods urllib3 retries after a read timeout' },
  }),
  preset({
    id: 'requests',
    group: 'Python HTTP',
    name: 'requests default (0 retries)',
    short: 'requests’ default',
    library: 'psf/requests',
    versions: 'requests v2.34.2 (read there)',
    inputs: { maxRetries: 0, baseBackoffMs: 0, backoffMultiplier: 2, maxBackoffMs: null, jitter: 'none', clientTimeoutMs: 3000, deadlineMs: 10000, idempotencyKey: false, retryOn: [], retryWritesWithoutKey: false, honourRetryAfter: false },
    pins: {
      maxRetries: at(REQUESTS, 'src/requests/adapters.py', 209, 'self.max_retries = Retry(0, read=False) (DEFAULT_RETRIES = 0, line 81)'),
      baseBackoffMs: NONE('unused: nothing is retried'),
      backoffMultiplier: NONE('unused: nothing is retried'),
      maxBackoffMs: NONE('unused: nothing is retried'),
      jitter: NONE('unused: nothing is retried'),
      clientTimeoutMs: SEED_TIMEOUT('requests waits forever unless the caller passes a timeout'),
      deadlineMs: SEED_DEADLINE('requests sets none'),
      idempotencyKey: NONE('requests sends no key'),
      retryOn: at(REQUESTS, 'src/requests/adapters.py', 209, 'Retry(0, read=False)'),
      retryWritesWithoutKey: at(REQUESTS, 'src/requests/adapters.py', 209, 'read=False: a read error is never retried'),
      honourRetryAfter: NONE('nothing is retried'),
    },
    cannot: ['Nothing that matters here: requests makes one attempt. (Its own default of no timeout at all cannot be shown; the engine needs one.)'],
    opening: { attempts: 1, charges: 1, outcome: 'unknown', why: 'requests makes one attempt' },
  }),

  // ---- Stripe ----
  preset({
    id: 'stripe-current',
    group: 'Stripe',
    name: 'Stripe: stripe-python 15.3.1 (module-level API), stripe-node 22.3.1–23.2.0',
    short: 'Stripe’s python 15.3.1 and node 22.3.1–23.2.0 clients',
    library: 'stripe/stripe-python, stripe/stripe-node',
    versions: 'stripe-python 15.3.1 (read at v15.3.1, the newest release read; later ones not read), stripe-node 22.3.1–23.2.0 (read at v22.3.1 and v22.5.0 in its repository, and at 22.6.0 and 23.2.0, the newest on 2026-12-04, in their npm tarballs)',
    inputs: { maxRetries: 2, baseBackoffMs: 500, backoffMultiplier: 2, maxBackoffMs: 5000, jitter: 'equal', clientTimeoutMs: 3000, deadlineMs: 10000, idempotencyKey: true, retryOn: ['timeout', '5xx'], retryWritesWithoutKey: true, honourRetryAfter: false, minBackoffMs: 500, retryOnStatuses: [409] },
    pins: {
      maxRetries: { ...at(STRIPE_PY, 'stripe/__init__.py', 38, 'max_network_retries: int = 2'), also: [at(STRIPE_NODE, 'src/platform/PlatformFunctions.ts', '84-86', 'getDefaultMaxNetworkRetries(): number { return 2; }')] },
      baseBackoffMs: at(STRIPE_PY, 'stripe/_http_client.py', 87, 'INITIAL_DELAY = 0.5'),
      backoffMultiplier: at(STRIPE_PY, 'stripe/_http_client.py', '169-172', 'sleep_seconds = min( HTTPClient.INITIAL_DELAY * (2 ** (num_retries - 1)), HTTPClient.MAX_DELAY, )'),
      maxBackoffMs: at(STRIPE_PY, 'stripe/_http_client.py', 86, 'MAX_DELAY = 5'),
      jitter: { ...at(STRIPE_PY, 'stripe/_http_client.py', 186, 'sleep_seconds *= 0.5 * (1 + random.uniform(0, 1))'), also: [at(STRIPE_NODE_2231, 'src/RequestSender.ts', 320, 'sleepSeconds *= 0.5 * (1 + Math.random());')] },
      minBackoffMs: { ...at(STRIPE_PY, 'stripe/_http_client.py', 177, 'sleep_seconds = max(HTTPClient.INITIAL_DELAY, sleep_seconds)'), also: [at(STRIPE_NODE_2231, 'src/RequestSender.ts', 323, 'sleepSeconds = Math.max(initialNetworkRetryDelay, sleepSeconds);')] },
      clientTimeoutMs: SEED_TIMEOUT('Stripe’s own is 80 s (stripe/_http_client.py line 512; stripe-node DEFAULT_TIMEOUT = 80000, src/stripe.core.ts line 925 at v22.5.0)'),
      deadlineMs: SEED_DEADLINE('none by default'),
      idempotencyKey: { ...at(STRIPE_PY, 'stripe/_api_requestor.py', '571-573', '# IKs should be set for all POST requests and v2 delete requests if method == "post" or (api_mode == "V2" and method == "delete"): headers.setdefault("Idempotency-Key", _generate_idempotency_key())'), also: [inPkg(STRIPE_NODE_NPM, 'cjs/RequestSender.js', '279-286', "} else if (apiMode === 'v1') { // Key every POST, including when maxNetworkRetries is 0. … if (method === 'POST') { return genKey(); }"), inPkg(STRIPE_NODE_NPM_2260, 'cjs/RequestSender.js', '250-256', "else if (apiMode === 'v1') { // Key every POST, including when maxNetworkRetries is 0. … if (method === 'POST') { (the first release with it)"), at(STRIPE_NODE, 'src/RequestSender.ts', 357, "if (method === 'POST' && maxRetries > 0) { (22.3.1–22.5.x)")] },
      retryOn: at(STRIPE_PY, 'stripe/_http_client.py', '159-160', 'if status_code >= 500: return True (no response: the connection error’s should_retry, set for a timeout, line 652)'),
      retryWritesWithoutKey: at(STRIPE_PY, 'stripe/_http_client.py', 117, '_should_retry looks at no method'),
      honourRetryAfter: { ...at(STRIPE_PY, 'stripe/_http_client.py', '164-179', '_sleep_time_seconds(self, num_retries) takes no response: Retry-After is no longer read (removed in v15.3.1)'), also: [at(STRIPE_NODE_2231, 'src/RequestSender.ts', 306, '_getSleepTimeInMS(numRetries: number): number { (no retryAfter since v22.3.1; v22.3.0 line 309: _getSleepTimeInMS(numRetries: number, retryAfter?: number))')] },
      retryOnStatuses: { ...at(STRIPE_PY, 'stripe/_http_client.py', '151-152', 'if status_code == 409: return True'), also: [at(STRIPE_NODE_2231, 'src/RequestSender.ts', 290, 'if (res.getStatusCode() === 409) {')] },
    },
    cannot: ['Stripe-Should-Retry (a server hint that overrides the decision); stripe-node’s extra retry of a connection closed on the first attempt, made even with maxNetworkRetries: 0 (cjs/RequestSender.js lines 193-199 at 23.2.0). stripe-node 22.3.1–22.5.x sends a key on a POST only when retries are on (they are by default); from 22.6.0 it keys every v1 POST, maxNetworkRetries: 0 too.'],
    opening: { attempts: 2, charges: 1, replays: 1, outcome: 'success', why: 'the retry carries the same idempotency key, so Stripe replays charge #1 instead of charging again' },
  }),
  preset({
    id: 'stripe-retry-after',
    group: 'Stripe',
    name: 'Stripe: stripe-python 11.0–15.3.0 (module-level API), stripe-node 17.0–22.3.0 (Retry-After up to 60 s)',
    short: 'Stripe’s python 11–15.3.0 and node 17–22.3.0 clients',
    library: 'stripe/stripe-python, stripe/stripe-node',
    versions: 'stripe-python 11.0.0–15.3.0 (read at v11.0.0 and v15.3.0), stripe-node 17.0.0–22.3.0 (read at v17.0.0 and v22.3.0)',
    inputs: { maxRetries: 2, baseBackoffMs: 500, backoffMultiplier: 2, maxBackoffMs: 5000, jitter: 'equal', clientTimeoutMs: 3000, deadlineMs: 10000, idempotencyKey: true, retryOn: ['timeout', '5xx'], retryWritesWithoutKey: true, honourRetryAfter: true, minBackoffMs: 500, retryOnStatuses: [409], retryAfterMode: 'at-least', retryAfterMaxMs: 60000 },
    pins: {
      maxRetries: {
        ...at(STRIPE_PY_11, 'stripe/__init__.py', 44, 'max_network_retries: int = 2'),
        also: [
          at(STRIPE_PY_10, 'stripe/__init__.py', 41, 'max_network_retries: int = 0 (before v11.0.0)'),
          at(STRIPE_NODE_17, 'src/stripe.core.ts', '126-130', "maxNetworkRetries: validateInteger( 'maxNetworkRetries', props.maxNetworkRetries, 2 ),"),
        ],
      },
      baseBackoffMs: at(STRIPE_PY_1530, 'stripe/_http_client.py', 137, 'INITIAL_DELAY = 0.5'),
      backoffMultiplier: at(STRIPE_PY_1530, 'stripe/_http_client.py', '237-238', 'HTTPClient.INITIAL_DELAY * (2 ** (num_retries - 1)), HTTPClient.MAX_DELAY,'),
      maxBackoffMs: at(STRIPE_PY_1530, 'stripe/_http_client.py', 136, 'MAX_DELAY = 5'),
      jitter: at(STRIPE_PY_1530, 'stripe/_http_client.py', 258, 'sleep_seconds *= 0.5 * (1 + random.uniform(0, 1))'),
      minBackoffMs: at(STRIPE_PY_1530, 'stripe/_http_client.py', 244, 'sleep_seconds = max(HTTPClient.INITIAL_DELAY, sleep_seconds)'),
      clientTimeoutMs: SEED_TIMEOUT('Stripe’s own is 80 s'),
      deadlineMs: SEED_DEADLINE('none by default'),
      idempotencyKey: at(STRIPE_PY_11, 'stripe/_api_requestor.py', '505-506', 'if method == "post" or (api_mode == "V2" and method == "delete"): headers.setdefault("Idempotency-Key", str(uuid.uuid4()))'),
      retryOn: at(STRIPE_PY_1530, 'stripe/_http_client.py', '210-211', 'if status_code >= 500: return True'),
      retryWritesWithoutKey: at(STRIPE_PY_1530, 'stripe/_http_client.py', 168, '_should_retry looks at no method'),
      honourRetryAfter: at(STRIPE_PY_1530, 'stripe/_http_client.py', 247, 'retry_after = self._retry_after_header(response) or 0'),
      retryOnStatuses: at(STRIPE_PY_1530, 'stripe/_http_client.py', '202-203', 'if status_code == 409: return True'),
      retryAfterMode: { ...at(STRIPE_PY_1530, 'stripe/_http_client.py', 249, 'sleep_seconds = max(retry_after, sleep_seconds)'), also: [at(STRIPE_NODE_2230, 'src/RequestSender.ts', 330, 'sleepSeconds = Math.max(sleepSeconds, retryAfter!);')] },
      retryAfterMaxMs: { ...at(STRIPE_PY_1530, 'stripe/_http_client.py', 138, 'MAX_RETRY_AFTER = 60 (line 248: if retry_after <= HTTPClient.MAX_RETRY_AFTER:)'), also: [at(STRIPE_NODE_17, 'src/RequestSender.ts', 42, 'const MAX_RETRY_AFTER_WAIT = 60;'), at(STRIPE_NODE_2230, 'src/RequestSender.ts', 41, 'const MAX_RETRY_AFTER_WAIT = 60;')] },
    },
    cannot: ['Stripe-Should-Retry; a Retry-After given as an HTTP-date (Stripe reads whole seconds only); stripe-node’s extra retry of a connection closed on the first attempt.'],
    opening: { attempts: 2, charges: 1, replays: 1, outcome: 'success', why: 'the retry carries the same idempotency key, so Stripe replays charge #1 instead of charging again' },
  }),
  preset({
    id: 'stripe-client',
    group: 'Stripe',
    name: 'Stripe: stripe-python StripeClient(…) (0 retries)',
    short: 'stripe-python’s StripeClient',
    library: 'stripe/stripe-python',
    versions: 'stripe-python v15.3.1 (read there)',
    inputs: { maxRetries: 0, baseBackoffMs: 500, backoffMultiplier: 2, maxBackoffMs: 5000, jitter: 'equal', clientTimeoutMs: 3000, deadlineMs: 10000, idempotencyKey: true, retryOn: ['timeout', '5xx'], retryWritesWithoutKey: true, honourRetryAfter: false, minBackoffMs: 500, retryOnStatuses: [409] },
    pins: {
      maxRetries: at(STRIPE_PY, 'stripe/_http_client.py', '124-126', 'max_network_retries = ( max_network_retries if max_network_retries is not None else 0 ) (StripeClient passes max_network_retries: Optional[int] = None, stripe/_stripe_client.py line 148; the module-level API passes stripe.max_network_retries, stripe/_requestor_options.py lines 95-96)'),
      baseBackoffMs: at(STRIPE_PY, 'stripe/_http_client.py', 87, 'INITIAL_DELAY = 0.5 (unused with 0 retries)'),
      backoffMultiplier: at(STRIPE_PY, 'stripe/_http_client.py', 170, '(unused with 0 retries)'),
      maxBackoffMs: at(STRIPE_PY, 'stripe/_http_client.py', 86, 'MAX_DELAY = 5 (unused with 0 retries)'),
      jitter: at(STRIPE_PY, 'stripe/_http_client.py', 186, '(unused with 0 retries)'),
      minBackoffMs: at(STRIPE_PY, 'stripe/_http_client.py', 177, '(unused with 0 retries)'),
      clientTimeoutMs: SEED_TIMEOUT('stripe-python’s own is 80 s'),
      deadlineMs: SEED_DEADLINE('none by default'),
      idempotencyKey: at(STRIPE_PY, 'stripe/_api_requestor.py', '572-573', 'if method == "post" …: headers.setdefault("Idempotency-Key", _generate_idempotency_key()) (whatever the retries)'),
      retryOn: at(STRIPE_PY, 'stripe/_http_client.py', '159-160', '(unused with 0 retries)'),
      retryWritesWithoutKey: at(STRIPE_PY, 'stripe/_http_client.py', 117, '(unused with 0 retries)'),
      honourRetryAfter: at(STRIPE_PY, 'stripe/_http_client.py', 164, 'not read since v15.3.1'),
      retryOnStatuses: at(STRIPE_PY, 'stripe/_http_client.py', 151, '(unused with 0 retries)'),
    },
    cannot: ['Nothing that matters here: one attempt, keyed.'],
    opening: { attempts: 1, charges: 1, outcome: 'unknown', why: 'StripeClient makes no retries unless max_network_retries is passed' },
  }),
  preset({
    id: 'stripe-go-821',
    group: 'Stripe',
    name: 'Stripe: stripe-go ≥ 82.1 (Stripe’s own errors not retried)',
    short: 'stripe-go ≥ 82.1',
    library: 'stripe/stripe-go',
    versions: 'stripe-go ≥ 82.1.0 (read at v82.1.0 and v86.2.0)',
    inputs: { maxRetries: 2, baseBackoffMs: 500, backoffMultiplier: 2, maxBackoffMs: 5000, jitter: 'proportional', jitterLow: 0.75, jitterHigh: 1, clientTimeoutMs: 3000, deadlineMs: 10000, idempotencyKey: true, retryOn: ['timeout'], retryWritesWithoutKey: true, honourRetryAfter: false, minBackoffMs: 500, ceilingScheduleMs: [500, 1000, 2500, 5000] },
    pins: {
      maxRetries: at(STRIPE_GO, 'stripe.go', 50, 'DefaultMaxNetworkRetries int64 = 2'),
      baseBackoffMs: at(STRIPE_GO, 'stripe.go', 1783, 'const minNetworkRetriesDelay = 500 * time.Millisecond (the schedule decides)'),
      backoffMultiplier: at(STRIPE_GO, 'stripe.go', 1389, 'unused beside the schedule'),
      maxBackoffMs: at(STRIPE_GO, 'stripe.go', 1782, 'const maxNetworkRetriesDelay = 5000 * time.Millisecond'),
      ceilingScheduleMs: at(STRIPE_GO, 'stripe.go', 1389, 'delay := minNetworkRetriesDelay + minNetworkRetriesDelay*time.Duration(numRetries*numRetries) (500, 1000, 2500, 5000 for numRetries 0–3)'),
      jitter: at(STRIPE_GO, 'stripe.go', '1397-1398', 'jitter := rand.Int63n(int64(delay / 4)) delay -= time.Duration(jitter)'),
      jitterLow: at(STRIPE_GO, 'stripe.go', 1397, 'delay − U[0, delay/4): 75 %'),
      jitterHigh: at(STRIPE_GO, 'stripe.go', 1397, 'delay − U[0, delay/4): 100 %'),
      minBackoffMs: at(STRIPE_GO, 'stripe.go', '1400-1403', 'if delay < minNetworkRetriesDelay { delay = minNetworkRetriesDelay }'),
      clientTimeoutMs: SEED_TIMEOUT('stripe-go’s own is 80 s (stripe.go line 1778)'),
      deadlineMs: SEED_DEADLINE('a context deadline would stop retries'),
      idempotencyKey: at(STRIPE_GO, 'stripe.go', 794, '} else if isHTTPWriteMethod(method) { req.Header.Add("Idempotency-Key", NewIdempotencyKey())'),
      retryOn: at(STRIPE_GO_821, 'stripe.go', '1040-1041', 'if err, ok := err.(retrier); ok { return err.canRetry(), "not retriable error" } (canRetry: only a 429 with the code lock_timeout, error.go lines 324-341, the test at line 337; a timeout is not a Stripe error and is retried, line 1068)'),
      retryWritesWithoutKey: at(STRIPE_GO, 'stripe.go', 1302, 'shouldRetry looks at no method'),
      honourRetryAfter: NONE('stripe-go reads no Retry-After'),
      retryOnStatuses: at(STRIPE_GO, 'stripe.go', 1322, 'return err.canRetry(), "not retriable error": a 409 or 5xx with Stripe’s JSON error is not retried'),
    },
    cannot: ['A 429 with the code lock_timeout is retried (the engine’s answers carry no error code); a 5xx or 409 whose body is not Stripe’s JSON error (from a proxy, say) is still retried; Stripe-Should-Retry; retries stopped by a cancelled context.'],
    opening: { attempts: 2, charges: 1, replays: 1, outcome: 'success', why: 'the timeout is retried with the same idempotency key, so Stripe replays charge #1' },
  }),
  preset({
    id: 'stripe-go-81',
    group: 'Stripe',
    name: 'Stripe: stripe-go 81.x (5xx and 409 retried)',
    short: 'stripe-go 81',
    library: 'stripe/stripe-go',
    versions: 'stripe-go v81.x (read at v81.3.0; changed in v82.1.0)',
    inputs: { maxRetries: 2, baseBackoffMs: 500, backoffMultiplier: 2, maxBackoffMs: 5000, jitter: 'proportional', jitterLow: 0.75, jitterHigh: 1, clientTimeoutMs: 3000, deadlineMs: 10000, idempotencyKey: true, retryOn: ['timeout', '5xx'], retryWritesWithoutKey: true, honourRetryAfter: false, minBackoffMs: 500, ceilingScheduleMs: [500, 1000, 2500, 5000], retryOnStatuses: [409] },
    pins: {
      maxRetries: at(STRIPE_GO_81, 'stripe.go', 54, 'DefaultMaxNetworkRetries int64 = 2'),
      baseBackoffMs: at(STRIPE_GO_81, 'stripe.go', 1399, 'const minNetworkRetriesDelay = 500 * time.Millisecond'),
      backoffMultiplier: at(STRIPE_GO_81, 'stripe.go', 1399, 'unused beside the schedule'),
      maxBackoffMs: at(STRIPE_GO_81, 'stripe.go', 1398, 'const maxNetworkRetriesDelay = 5000 * time.Millisecond'),
      ceilingScheduleMs: at(STRIPE_GO_81, 'stripe.go', 1043, 'delay := minNetworkRetriesDelay + minNetworkRetriesDelay*time.Duration(numRetries*numRetries)'),
      jitter: at(STRIPE_GO_81, 'stripe.go', 1051, 'jitter := rand.Int63n(int64(delay / 4))'),
      jitterLow: at(STRIPE_GO_81, 'stripe.go', 1051, '75 %'),
      jitterHigh: at(STRIPE_GO_81, 'stripe.go', 1051, '100 %'),
      minBackoffMs: at(STRIPE_GO_81, 'stripe.go', 1055, 'if delay < minNetworkRetriesDelay {'),
      clientTimeoutMs: SEED_TIMEOUT('stripe-go’s own is 80 s (stripe.go line 1394)'),
      deadlineMs: SEED_DEADLINE('a context deadline would stop retries'),
      idempotencyKey: at(STRIPE_GO_81, 'stripe.go', 575, '} else if isHTTPWriteMethod(method) {'),
      retryOn: at(STRIPE_GO_81, 'stripe.go', 1027, 'if resp.StatusCode >= http.StatusInternalServerError { (no retrier interface before v82.1.0)'),
      retryWritesWithoutKey: at(STRIPE_GO_81, 'stripe.go', 946, 'shouldRetry looks at no method'),
      honourRetryAfter: NONE('stripe-go reads no Retry-After'),
      retryOnStatuses: at(STRIPE_GO_81, 'stripe.go', 1004, 'if resp.StatusCode == http.StatusConflict {'),
    },
    cannot: ['A 429 retried only with the code lock_timeout; Stripe-Should-Retry; retries stopped by a cancelled context.'],
    opening: { attempts: 2, charges: 1, replays: 1, outcome: 'success', why: 'the timeout is retried with the same idempotency key, so Stripe replays charge #1' },
  }),
  // ---- Node HTTP clients ----
  preset({
    id: 'got',
    group: 'Node HTTP clients',
    name: 'got 16 defaults (2 retries, no POST)',
    short: 'got’s defaults',
    library: 'got (npm)',
    versions: 'got 16.2.0 (read in its npm tarball on 2026-12-04, the newest that day; earlier versions not read)',
    inputs: { maxRetries: 2, baseBackoffMs: 1000, backoffMultiplier: 2, maxBackoffMs: null, jitter: 'none', clientTimeoutMs: 3000, deadlineMs: 10000, idempotencyKey: false, retryOn: ['timeout'], retryWritesWithoutKey: false, honourRetryAfter: true, retryOnStatuses: [408, 429, 500, 502, 503, 504, 521, 522, 524], retryAfterStatuses: [413], retryAfterMaxMs: 3000, retryAfterOverMax: 'stop' },
    pins: {
      maxRetries: inPkg(GOT, `${GOT_CORE}/options.js`, 350, 'limit: 2,'),
      baseBackoffMs: inPkg(GOT, `${GOT_CORE}/calculate-retry-delay.js`, 26, 'return Math.max(1, Math.min(((2 ** (attemptCount - 1)) * 1000), retryOptions.backoffLimit) + noise);'),
      backoffMultiplier: inPkg(GOT, `${GOT_CORE}/calculate-retry-delay.js`, 26, '(2 ** (attemptCount - 1)) * 1000'),
      maxBackoffMs: inPkg(GOT, `${GOT_CORE}/options.js`, 384, 'backoffLimit: Infinity,'),
      jitter: { ...inPkg(GOT, `${GOT_CORE}/calculate-retry-delay.js`, 24, 'const noise = Math.random() * retryOptions.noise; (noise: 100, options.js line 385)'), approximated: 'got adds U[0, 100) ms to each wait; the engine has no additive jitter, so each wait here is the formula’s alone: 0–100 ms shorter than got’s, 50 ms on average' },
      clientTimeoutMs: SEED_TIMEOUT('set as got’s timeout.request, per attempt; got sets none by default (options.js line 307: request: undefined,)'),
      deadlineMs: SEED_DEADLINE('got sets no overall deadline'),
      idempotencyKey: NONE('got sends no key'),
      retryOn: inPkg(GOT, `${GOT_CORE}/options.js`, '372-373', "errorCodes: [ 'ETIMEDOUT', (got’s TimeoutError has code = 'ETIMEDOUT', timed-out.js line 6)"),
      retryWritesWithoutKey: inPkg(GOT, `${GOT_CORE}/options.js`, '351-359', "methods: [ 'GET', 'PUT', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'QUERY', ], (no POST: calculate-retry-delay.js line 11, if (!hasMethod || …) return 0)"),
      honourRetryAfter: { ...inPkg(GOT, `${GOT_CORE}/calculate-retry-delay.js`, '15-18', 'if (retryAfter !== undefined) { … return retryAfter > computedValue ? 0 : Math.max(1, retryAfter);'), approximated: 'a Retry-After of 0, or a date now or past, waits 1 ms there (Math.max(1, retryAfter)), 0 here' },
      retryOnStatuses: inPkg(GOT, `${GOT_CORE}/options.js`, '360-371', 'statusCodes: [ 408, 413, 429, 500, 502, 503, 504, 521, 522, 524, ], (413 only with a Retry-After: calculate-retry-delay.js lines 20-21)'),
      retryAfterStatuses: inPkg(GOT, `${GOT_CORE}/calculate-retry-delay.js`, '20-21', 'if (error.response.statusCode === 413) { return 0; (reached only when no Retry-After came, line 15)'),
      retryAfterMode: NONE('“replace”: a Retry-After honoured is the wait (calculate-retry-delay.js line 18)'),
      retryAfterMaxMs: { ...inPkg(GOT, `${GOT_CORE}/index.js`, 379, 'computedValue: retryOptions.maxRetryAfter ?? options.timeout.request ?? Infinity,'), page: 'the seed’s 3 s as timeout.request, so 3 s: maxRetryAfter is undefined by default (options.js line 382)' },
      retryAfterOverMax: inPkg(GOT, `${GOT_CORE}/calculate-retry-delay.js`, 18, 'return retryAfter > computedValue ? 0 : Math.max(1, retryAfter); (0: no retry)'),
    },
    cannot: [
      'The other error codes got retries (ECONNRESET, ECONNREFUSED, EPIPE, ENOTFOUND…, options.js lines 372-381) on its methods; the engine’s only network failure is the timeout.',
      'An HTTP-date Retry-After is measured against the local clock; here against the response’s Date.',
    ],
    opening: { attempts: 1, charges: 1, outcome: 'unknown', why: 'got retries no POST, so the timed-out charge is not retried and its outcome stays unknown' },
  }),
  preset({
    id: 'axios-retry',
    group: 'Node HTTP clients',
    name: 'axios-retry 4.5 defaults (3 retries, no delay, timeouts not retried)',
    short: 'axios-retry’s defaults',
    library: 'axios-retry (npm)',
    versions: 'axios-retry 4.5.0 (read in its npm tarball on 2026-12-04, the newest that day; earlier versions not read; axios itself not read)',
    inputs: { maxRetries: 3, baseBackoffMs: 0, backoffMultiplier: 1, maxBackoffMs: null, jitter: 'none', clientTimeoutMs: 3000, deadlineMs: 3000, idempotencyKey: false, retryOn: ['429', '5xx'], retryWritesWithoutKey: false, honourRetryAfter: true },
    pins: {
      maxRetries: inPkg(AXIOS_RETRY, 'dist/cjs/index.js', 103, 'retries: 3,'),
      baseBackoffMs: inPkg(AXIOS_RETRY, 'dist/cjs/index.js', '80-81', 'function noDelay(_retryNumber = 0, error = undefined) { return Math.max(0, retryAfter(error)); (retryDelay: noDelay, line 105)'),
      backoffMultiplier: inPkg(AXIOS_RETRY, 'dist/cjs/index.js', 105, 'retryDelay: noDelay, (no growth: every wait is 0 without a Retry-After)'),
      maxBackoffMs: NONE('no backoff, so no cap'),
      jitter: NONE('no backoff, so no jitter'),
      clientTimeoutMs: SEED_TIMEOUT('set as axios’s timeout; axios’s own default was not read here'),
      deadlineMs: { ...inPkg(AXIOS_RETRY, 'dist/cjs/index.js', '163-169', 'if (!shouldResetTimeout && config.timeout && currentState.lastRequestTime) { const lastRequestDuration = Date.now() - currentState.lastRequestTime; const timeout = config.timeout - lastRequestDuration - delay; if (timeout <= 0) { return Promise.reject(error); } config.timeout = timeout;'), page: 'axios’s timeout, the seed’s 3 s: with shouldResetTimeout: false (line 106) each retry gets what is left of it after the attempts and waits before, and none is sent when nothing is left, so the 3 s span every attempt' },
      idempotencyKey: NONE('axios-retry sends no key'),
      retryOn: inPkg(AXIOS_RETRY, 'dist/cjs/index.js', '36-41', "function isRetryableError(error) { return (error.code !== 'ECONNABORTED' && (!error.response || error.response.status === 429 || (error.response.status >= 500 && error.response.status <= 599))); } (ECONNABORTED: axios’s timeout, not retried: line 26, // Prevents retrying timed out & cancelled requests)"),
      retryWritesWithoutKey: inPkg(AXIOS_RETRY, 'dist/cjs/index.js', '34-35', "const SAFE_HTTP_METHODS = ['get', 'head', 'options']; const IDEMPOTENT_HTTP_METHODS = SAFE_HTTP_METHODS.concat(['put', 'delete']); (a 5xx or 429 retried only on these, line 58)"),
      honourRetryAfter: inPkg(AXIOS_RETRY, 'dist/cjs/index.js', 81, 'return Math.max(0, retryAfter(error)); (the Retry-After, in seconds or as a date, is the wait: lines 65-78)'),
    },
    cannot: [
      'A network error (no response, a code other than ECONNABORTED or ERR_CANCELED: a reset, a refused connection) is retried on any method, POST too (isNetworkError, lines 18-32); the engine’s only network failure is the timeout, which axios-retry does not retry.',
      'An HTTP-date Retry-After is measured against the local clock; here against the response’s Date.',
    ],
    opening: { attempts: 1, charges: 1, outcome: 'unknown', why: 'axios’s timeout (ECONNABORTED) is never retried, on any method, so the charge’s outcome stays unknown' },
  }),
];

// The releases a preset's pins were read at, once each, in the order the pins name them.
export function releasesOf(preset) {
  const seen = new Map();
  const add = (pin) => {
    if (!pin) return;
    if (pin.repo) {
      const key = `${pin.repo} ${pin.commit}`;
      if (!seen.has(key)) seen.set(key, { repo: pin.repo, tag: pin.tag, commit: pin.commit });
    } else if (pin.package) {
      const key = `${pin.package}@${pin.version}`;
      if (!seen.has(key)) seen.set(key, { package: pin.package, version: pin.version, integrity: pin.integrity });
    }
    for (const also of pin.also || []) add(also);
  };
  for (const name of POLICY_FIELDS) add(preset.pins[name]);
  for (const g of preset.gates) add(g.pin);
  return [...seen.values()];
}

// A release as the page lists it: a commit in 12 hex digits (GitHub resolves it; the pins keep
// all 40), a package's tarball integrity in full.
export const releaseOnPage = (r) => (r.commit ? { ...r, commit: r.commit.slice(0, 12) } : r);

// The unit of each of a gate's parameters: the fleet table's (engine.fleetSchema().fleet, the
// `gates` row's members, FLEET §5) where the parameter is one of its gate's members, else the
// gate's own `units` (a client's gate that is not FLEET's model, in its own names). A
// parameter with neither is an error that names it.
export function gateUnits(gate, fleetSchema) {
  if (!gate.params) return null;
  const gates = (fleetSchema && fleetSchema.fleet || []).find((row) => row.name === 'gates');
  const members = (gates && gates.members || []).find((row) => row.name === gate.gate)?.members || [];
  const units = {};
  for (const name of Object.keys(gate.params)) {
    const row = members.find((m) => m.name === name);
    const unit = row ? row.unit || '' : gate.units && gate.units[name];
    if (typeof unit !== 'string') throw new Error(`gate ${gate.gate}: no unit for ${name} in the fleet table or the preset`);
    units[name] = unit;
  }
  return units;
}

// The preset as the page loads it: everything the card shows, none of the pins' quotes.
// `fleetSchema`: the fleet engine's fleetSchema(), for the gates' units (scripts/clients-table).
export function compact(preset, fleetSchema) {
  const fields = POLICY_FIELDS.filter((f) => f in preset.inputs);
  const picked = (key) => Object.fromEntries(fields.filter((f) => preset.pins[f][key]).map((f) => [f, preset.pins[f][key]]));
  return {
    id: preset.id, group: preset.group, name: preset.name, short: preset.short, library: preset.library,
    versions: preset.versions, inputs: preset.inputs, opening: preset.opening, cannot: preset.cannot,
    unverified: preset.unverified, unverifiedValues: picked('unverified'), kept: picked('page'),
    approximated: picked('approximated'), releases: releasesOf(preset).map(releaseOnPage),
    gates: preset.gates.map((g) => ({ gate: g.gate, params: g.params, units: gateUnits(g, fleetSchema), note: g.note })),
  };
}
