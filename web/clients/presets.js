// Real clients' retry settings as engine inputs (issue 9). Every value comes from
// docs/clients.md, which quotes each library's own source; the comment beside a value names
// the line of docs/clients.md it comes from ("L84" = line 84). The sources linked are the ones
// docs/clients.md read, at the commit or version it names. Where docs/clients.md says a
// value is uncertain, the preset's `uncertain` list says so on the page.
//
// A preset sets every field of the client's *policy* (POLICY_FIELDS); the server's behaviour
// and the fixture (scenario, operation, response time, seed) stay as the reader has them.
//
// Two choices shared by every preset, as docs/clients.md §8 makes them (L17-L20, L481-L482):
// - the seed's 3 s client timeout is kept, so every client meets the same lost response
//   (each preset's own default timeout is named in `kept`);
// - the seed's 10 s overall deadline is kept for clients that set none by default (the
//   page's deadline box cannot hold "none"); gRPC's call deadline is the 3 s instead.
// One documented departure from docs/clients.md: gRPC has no per-attempt timeout, which
// docs/clients.md maps as clientTimeoutMs = deadlineMs (L89). The gRPC presets set the client
// timeout to the engine's largest value instead, so an attempt can only end at the call
// deadline whatever deadline a sweep tries; the opening run is the same (L112-L115).

// The engine's largest time (SPEC §7): "no per-attempt timeout".
export const NO_TIMEOUT_MS = 86400000;

// The fields a client's configuration decides. Loading a preset sets all of them.
export const POLICY_FIELDS = [
  'maxRetries', 'baseBackoffMs', 'backoffMultiplier', 'maxBackoffMs', 'jitter', 'jitterLow', 'jitterHigh',
  'clientTimeoutMs', 'deadlineMs', 'waitBudgetMs', 'idempotencyKey', 'retryOn', 'retryWritesWithoutKey',
  'honourRetryAfter', 'firstRetryImmediate', 'minBackoffMs', 'ceilingScheduleMs', 'retryOnStatuses',
  'retryAfterStatuses', 'retryAfterMode', 'retryAfterMaxMs',
];

// The value "Custom / the seed's fixture" stands for in the Client choice.
export const SEED_ID = 'seed';

const A6 = {
  label: 'gRFC A6: gRPC Retry Design', version: 'commit 0070717f',
  href: 'https://github.com/grpc/proposal/blob/0070717f/A6-client-retries.md',
};
const AWS_GUIDE = {
  label: 'AWS SDKs and Tools Reference Guide: Retry behavior', version: 'the page as read; its 2026 changes are opt-in',
  href: 'https://docs.aws.amazon.com/sdkref/latest/guide/feature-retry-behavior.html',
};
const STRIPE_CAVEATS = 'Stripe-Should-Retry (a server hint that overrides the decision), Retry-After given as an HTTP-date (Stripe reads whole seconds only), stripe-node’s extra retry of a connection closed on the first attempt';

export const PRESETS = [
  {
    id: 'grpc-a6',
    group: 'gRPC',
    name: 'gRPC: A6 example policy (grpc-go, grpc-java)',
    short: 'gRPC’s A6 example policy',
    docs: '§1',
    sources: [
      A6,
      { label: 'grpc-go stream.go (shouldRetry)', version: 'commit e26457d0', href: 'https://github.com/grpc/grpc-go/blob/e26457d0c976a5669aea35e3f97889c576324983/stream.go' },
      { label: 'grpc-java RetriableStream.java (makeRetryDecision)', version: 'commit 003b8789', href: 'https://github.com/grpc/grpc-java/blob/003b8789/core/src/main/java/io/grpc/internal/RetriableStream.java' },
    ],
    inputs: {
      maxRetries: 3, // L84, L39: maxAttempts 4 includes the original call
      baseBackoffMs: 100, // L85, L39: initialBackoff 0.1 s
      backoffMultiplier: 2, // L86, L39
      maxBackoffMs: 1000, // L87, L39: maxBackoff 1 s
      jitter: 'full', // L88, L50-L52: U[0, min(initial·mult^(n−1), max)) in grpc-go and grpc-java
      clientTimeoutMs: NO_TIMEOUT_MS, // L89, L107: no per-attempt timeout (see the header)
      deadlineMs: 3000, // L90, L112: the seed's 3 s is the call deadline, spanning all attempts (L40)
      waitBudgetMs: null, // no such setting in A6 (L32-L43)
      idempotencyKey: false, // L93, L43: no mechanism
      retryOn: ['5xx'], // L91: retryableStatusCodes [UNAVAILABLE] (L39); a client's DEADLINE_EXCEEDED is not retried (L114)
      retryWritesWithoutKey: true, // L92: gRPC does not tell writes apart
      honourRetryAfter: false, // L94: pushback is grpc-retry-pushback-ms, not Retry-After
      firstRetryImmediate: false, // L37: the first retry waits random(0, initialBackoff)
      minBackoffMs: 0, // L37: no floor
      ceilingScheduleMs: [], // L37: exponential
      retryOnStatuses: [], // L91
      retryAfterStatuses: [], // L94
      retryAfterMode: 'replace', // unused: Retry-After is not honoured (L94)
      retryAfterMaxMs: null, // unused (L94)
    },
    kept: [
      'gRPC has no retry policy unless the service config sets one; this is the example policy of A6, not a default.',
      'gRPC has no per-attempt timeout: the client timeout is set to the engine’s largest (86,400,000 ms) so that an attempt ends only at the call deadline, which takes the seed’s 3 s.',
    ],
    cannot: 'Retry throttling (retryThrottling tokens), hedging, transparent retries, pushback (grpc-retry-pushback-ms, which also restarts the backoff), grpc-go retrying only Trailers-Only answers, and gRPC status codes: UNAVAILABLE is shown as an HTTP 5xx.',
    uncertain: ['grpc-java’s client-side cap of 5 attempts was not checked (docs/clients.md §1); it does not matter for 4 attempts.'],
  },
  {
    id: 'grpc-core',
    group: 'gRPC',
    name: 'gRPC: A6 example policy on grpc-core (C++, Python, Ruby…)',
    short: 'grpc-core with A6’s example policy',
    docs: '§1',
    sources: [
      { label: 'grpc retry_filter.h (BackoffJitter 0.2)', version: 'commit 000f18f6', href: 'https://github.com/grpc/grpc/blob/000f18f6/src/core/client_channel/retry_filter.h' },
      { label: 'grpc backoff.cc (the jitter applied)', version: 'commit 15bab7a3', href: 'https://github.com/grpc/grpc/blob/15bab7a3/src/core/util/backoff.cc' },
      A6,
    ],
    inputs: {
      maxRetries: 3, // L487, L84
      baseBackoffMs: 100, // L487, L85
      backoffMultiplier: 2, // L487, L86
      maxBackoffMs: 1000, // L487, L87
      jitter: 'proportional', // L88, L69: min(initial·mult^(n−1), max) × U(0.8, 1.2)
      jitterLow: 0.8, // L68: 1 - options_.jitter(), jitter 0.2 (L65)
      jitterHigh: 1.2, // L68: 1 + options_.jitter()
      clientTimeoutMs: NO_TIMEOUT_MS, // L89, L107 (see the header)
      deadlineMs: 3000, // L112
      waitBudgetMs: null,
      idempotencyKey: false, // L93
      retryOn: ['5xx'], // L91
      retryWritesWithoutKey: true, // L92
      honourRetryAfter: false, // L94
      firstRetryImmediate: false,
      minBackoffMs: 0,
      ceilingScheduleMs: [],
      retryOnStatuses: [],
      retryAfterStatuses: [],
      retryAfterMode: 'replace',
      retryAfterMaxMs: null,
    },
    kept: [
      'gRPC has no retry policy unless the service config sets one; this is A6’s example policy as grpc-core runs it.',
      'No per-attempt timeout: the client timeout is the engine’s largest, and the seed’s 3 s is the call deadline.',
    ],
    cannot: 'Retry throttling, hedging, transparent retries, pushback, the experimental perAttemptRecvTimeout, and gRPC status codes (UNAVAILABLE is shown as an HTTP 5xx).',
    uncertain: [],
  },
  {
    id: 'aws-standard',
    group: 'AWS SDKs',
    name: 'AWS SDK, standard retry mode (botocore)',
    short: 'the AWS SDK’s standard mode (botocore)',
    docs: '§2',
    sources: [
      AWS_GUIDE,
      { label: 'botocore retries/standard.py', version: 'commit 0719e795, standard mode version 2.0', href: 'https://github.com/boto/botocore/blob/0719e795/botocore/retries/standard.py' },
    ],
    inputs: {
      maxRetries: 2, // L169, L127: "Makes three attempts"
      baseBackoffMs: 1000, // L170, L129: rand(0,1) × min(2^(attempt−1), 20) s
      backoffMultiplier: 2, // L171
      maxBackoffMs: 20000, // L172, L128: _MAX_BACKOFF = 20
      jitter: 'full', // L173, L165
      clientTimeoutMs: 3000, // the seed's (L482); botocore's own read timeout is 60 s (L174, L136)
      deadlineMs: 10000, // the seed's (L19); none by default (L175)
      waitBudgetMs: null,
      idempotencyKey: false, // L178: no key unless the operation models an idempotency token
      retryOn: ['timeout', '429'], // L176, L132: read timeouts and throttling; 5xx only as listed below
      retryWritesWithoutKey: true, // L177
      honourRetryAfter: false, // L179, L134
      firstRetryImmediate: false,
      minBackoffMs: 0,
      ceilingScheduleMs: [],
      retryOnStatuses: [500, 502, 503, 504], // L183, L500: _TRANSIENT_STATUS_CODES
      retryAfterStatuses: [],
      retryAfterMode: 'replace',
      retryAfterMaxMs: null,
    },
    kept: [
      'The seed’s 3 s client timeout; botocore’s own read timeout is 60 s.',
      'The seed’s 10 s overall deadline; the SDK sets none by default.',
      'botocore’s default mode is still legacy; standard mode is chosen with retry_mode = standard.',
    ],
    cannot: 'The retry quota (a token bucket of 500; 5 per retry, 10 after a timeout), adaptive mode’s client-side rate limiting, a 429 retried only with a throttling error code (here every 429 is), connect versus read timeouts, and the opt-in 2026 behaviour (x-amz-retry-after, 50 ms base).',
    uncertain: [
      'The 60 s read timeout was seen only in secondary copies, not in botocore’s source (docs/clients.md §2).',
      'That no overall deadline is set by default was not verified.',
    ],
  },
  {
    id: 'aws-standard-go',
    group: 'AWS SDKs',
    name: 'AWS SDK, standard retry mode (aws-sdk-go-v2)',
    short: 'aws-sdk-go-v2’s standard mode',
    docs: '§2',
    sources: [
      { label: 'aws-sdk-go-v2 aws/retry/standard.go', version: 'commit 1489ddb2', href: 'https://github.com/aws/aws-sdk-go-v2/blob/1489ddb2/aws/retry/standard.go' },
      { label: 'aws-sdk-go-v2 aws/retry/jitter_backoff.go', version: 'main branch; the copy read had no commit', href: 'https://github.com/aws/aws-sdk-go-v2/blob/main/aws/retry/jitter_backoff.go' },
      AWS_GUIDE,
    ],
    inputs: {
      maxRetries: 2, // L489, L127: DefaultMaxAttempts 3
      baseBackoffMs: 2000, // L489, L170, L130: rand[0,1) × 2^attempt with attempt 1 for the first retry
      backoffMultiplier: 2, // L489
      maxBackoffMs: 20000, // L489, L128: DefaultMaxBackoff 20 s
      jitter: 'full', // L489
      clientTimeoutMs: 3000, // the seed's (L482); no own value recorded (L489)
      deadlineMs: 10000, // the seed's (L19)
      waitBudgetMs: null,
      idempotencyKey: false, // L178
      retryOn: ['timeout', '429'], // L489 "same" as botocore
      retryWritesWithoutKey: true, // L489
      honourRetryAfter: false, // L489
      firstRetryImmediate: false,
      minBackoffMs: 0,
      ceilingScheduleMs: [],
      retryOnStatuses: [500, 502, 503, 504], // L132: DefaultRetryableHTTPStatusCodes
      retryAfterStatuses: [],
      retryAfterMode: 'replace',
      retryAfterMaxMs: null,
    },
    kept: ['The seed’s 3 s client timeout and 10 s overall deadline.'],
    cannot: 'The retry quota, client-side rate limiting, a 429 retried only with a throttling error code, and the un-jittered 20 s waits after the fourth attempt (only reached with more than 4 retries).',
    uncertain: [],
  },
  {
    id: 'aws-legacy',
    group: 'AWS SDKs',
    name: 'AWS SDK, legacy retry mode (botocore’s default)',
    short: 'botocore’s legacy mode',
    docs: '§2',
    sources: [
      { label: 'botocore data/_retry.json', version: 'commit 1521276d', href: 'https://github.com/boto/botocore/blob/1521276d/botocore/data/_retry.json' },
      { label: 'botocore retryhandler.py', version: 'commit 09925656', href: 'https://github.com/boto/botocore/blob/09925656/botocore/retryhandler.py' },
      AWS_GUIDE,
    ],
    inputs: {
      maxRetries: 4, // L169, L154: "max_attempts": 5
      baseBackoffMs: 1000, // L170, L155-L158: base "rand", growth_factor 2
      backoffMultiplier: 2, // L171
      maxBackoffMs: null, // L172, L159: no cap
      jitter: 'full', // L173: rand × 2^(attempts−1)
      clientTimeoutMs: 3000, // the seed's (L482); 60 s own (L174)
      deadlineMs: 10000, // the seed's (L19); none by default (L175)
      waitBudgetMs: null,
      idempotencyKey: false, // L178
      retryOn: ['timeout', '429'], // L176, L155-L156: socket errors (read timeouts) and 429
      retryWritesWithoutKey: true, // L177
      honourRetryAfter: false, // L179
      firstRetryImmediate: false,
      minBackoffMs: 0,
      ceilingScheduleMs: [],
      retryOnStatuses: [500, 503, 509], // L156, L500
      retryAfterStatuses: [],
      retryAfterMode: 'replace',
      retryAfterMaxMs: null,
    },
    kept: ['The seed’s 3 s client timeout (botocore’s own read timeout is 60 s) and 10 s overall deadline (none by default).'],
    cannot: 'Throttling recognised by error code (Throttling, ThrottlingException on a 400), per-service policies (DynamoDB: 10 attempts, 50 ms base), connect versus read timeouts. Legacy mode differs per SDK; this is botocore’s.',
    uncertain: [],
  },
  {
    id: 'urllib3',
    group: 'Python HTTP',
    name: 'urllib3 Retry.DEFAULT (the pool default, Retry(3))',
    short: 'urllib3’s default Retry',
    docs: '§3',
    sources: [
      { label: 'urllib3 src/urllib3/util/retry.py', version: 'urllib3 2.x, commit 00f30f01', href: 'https://github.com/urllib3/urllib3/blob/00f30f01/src/urllib3/util/retry.py' },
    ],
    inputs: {
      maxRetries: 3, // L238, L213: Retry.DEFAULT = Retry(3)
      baseBackoffMs: 0, // L239, L214: backoff_factor 0, "backoff is disabled"
      backoffMultiplier: 2, // L240, L215
      maxBackoffMs: 120000, // L241, L216: DEFAULT_BACKOFF_MAX = 120
      jitter: 'none', // L242, L217: backoff_jitter 0.0
      clientTimeoutMs: 3000, // the seed's (L482); urllib3 uses the caller's (L244)
      deadlineMs: 10000, // the seed's (L19)
      waitBudgetMs: null,
      idempotencyKey: false, // L247: urllib3 ignores keys
      retryOn: ['timeout'], // L245: read errors, for allowed methods only
      retryWritesWithoutKey: false, // L246, L254-L257: POST is not in allowed_methods (L218)
      honourRetryAfter: true, // L248, L220: respect_retry_after_header True
      firstRetryImmediate: true, // L243, L215: "if consecutive_errors_len <= 1: return 0"
      minBackoffMs: 0,
      ceilingScheduleMs: [],
      retryOnStatuses: [], // L219: status_forcelist None
      retryAfterStatuses: [413, 429, 503], // L245, L221: RETRY_AFTER_STATUS_CODES
      retryAfterMode: 'replace', // L226: the header's wait, else the backoff
      retryAfterMaxMs: null, // urllib3 caps at 6 h (L222) where the engine's maxMs would ignore; see `cannot`
    },
    kept: ['The seed’s 3 s client timeout (urllib3 uses the caller’s) and 10 s overall deadline.'],
    cannot: 'A POST is never retried even with an idempotency key (urllib3 has none: turning the key on here would retry), connect errors that are retried for POST, a Retry-After of 0 or in the past falling back to the backoff, the 6-hour Retry-After cap, and a date measured against the local clock.',
    uncertain: ['Which urllib3 2.x release added the 6-hour retry_after_max was not established (docs/clients.md §3).'],
  },
  {
    id: 'requests',
    group: 'Python HTTP',
    name: 'requests default (0 retries)',
    short: 'requests’ default',
    docs: '§3',
    sources: [
      { label: 'requests src/requests/adapters.py', version: 'commit 4089f3dc', href: 'https://github.com/psf/requests/blob/4089f3dc65f783beaa53cc032958ab625440d0ac/src/requests/adapters.py' },
    ],
    inputs: {
      maxRetries: 0, // L238, L228: Retry(0, read=False)
      baseBackoffMs: 0, // unused with 0 retries (L239 "–")
      backoffMultiplier: 2, // unused (L240 "–")
      maxBackoffMs: null, // unused (L241 "–")
      jitter: 'none', // unused (L242 "–")
      clientTimeoutMs: 3000, // the seed's (L482); requests has none by default (L244)
      deadlineMs: 10000, // the seed's (L19)
      waitBudgetMs: null,
      idempotencyKey: false, // L247
      retryOn: [], // L245: []
      retryWritesWithoutKey: false, // L228: read errors never retried
      honourRetryAfter: false, // nothing is retried
      firstRetryImmediate: false,
      minBackoffMs: 0,
      ceilingScheduleMs: [],
      retryOnStatuses: [],
      retryAfterStatuses: [],
      retryAfterMode: 'replace',
      retryAfterMaxMs: null,
    },
    kept: ['The seed’s 3 s client timeout: requests itself waits forever unless the caller passes a timeout.'],
    cannot: 'Nothing that matters here: requests makes one attempt. (Its own default of no timeout at all cannot be shown; the engine needs one.)',
    uncertain: ['That requests sets no timeout by default was not verified in its source (docs/clients.md §3).'],
  },
  {
    id: 'stripe-node',
    group: 'Stripe',
    name: 'Stripe: stripe-node (current default), stripe-python with 2 retries',
    short: 'Stripe’s node client',
    docs: '§4',
    sources: [
      { label: 'stripe-node src/RequestSender.ts', version: 'commit 272d011c', href: 'https://github.com/stripe/stripe-node/blob/272d011ceaa893abeb4ba3cfd8bb9a3ff598aef7/src/RequestSender.ts' },
      { label: 'stripe-node pull request #1808 (v13.0.0: retries on by default)', version: 'v13.0.0', href: 'https://github.com/stripe/stripe-node/pull/1808' },
      { label: 'stripe-python stripe/_http_client.py', version: 'commit 0861c88a', href: 'https://github.com/stripe/stripe-python/blob/0861c88a/stripe/_http_client.py' },
    ],
    inputs: {
      maxRetries: 2, // L303, L280: maxNetworkRetries default 2
      baseBackoffMs: 500, // L304, L281: INITIAL_NETWORK_RETRY_DELAY_SEC = 0.5
      backoffMultiplier: 2, // L305, L283: 2^(numRetries − 1)
      maxBackoffMs: 5000, // L306, L281: MAX_NETWORK_RETRY_DELAY_SEC = 5
      jitter: 'equal', // L307, L295: × 0.5·(1 + U(0,1))
      clientTimeoutMs: 3000, // the seed's (L482); own 80 s (L308, L288)
      deadlineMs: 10000, // the seed's (L19); none (L309)
      waitBudgetMs: null,
      idempotencyKey: true, // L312, L287: a key on every POST when retries > 0
      retryOn: ['timeout', '5xx'], // L310, L285: no response, ≥ 500
      retryWritesWithoutKey: true, // L311
      honourRetryAfter: true, // L313, L284: integer seconds, as a floor
      firstRetryImmediate: false,
      minBackoffMs: 500, // L307, L295-L297: max(initialNetworkRetryDelay, …)
      ceilingScheduleMs: [],
      retryOnStatuses: [409], // L310, L285
      retryAfterStatuses: [],
      retryAfterMode: 'at-least', // L313, L318-L319: max(sleep, retryAfter)
      retryAfterMaxMs: 60000, // L313, L281: MAX_RETRY_AFTER_WAIT = 60
    },
    kept: ['The seed’s 3 s client timeout (Stripe’s own is 80 s) and 10 s overall deadline (none by default).'],
    cannot: `${STRIPE_CAVEATS}.`,
    uncertain: [
      'stripe-node’s default of 2 retries was found in its newest copies by text search and could not be opened at a known commit; v13.0.0’s changelog says 1 (docs/clients.md §4).',
      'stripe-python’s own default read 0 retries in the copies checked: this preset is stripe-python only once max_network_retries = 2 is set.',
    ],
  },
  {
    id: 'stripe-python',
    group: 'Stripe',
    name: 'Stripe: stripe-python (module default, 0 retries)',
    short: 'stripe-python’s module default',
    docs: '§4',
    sources: [
      { label: 'stripe-python stripe/_http_client.py', version: 'commit 0861c88a', href: 'https://github.com/stripe/stripe-python/blob/0861c88a/stripe/_http_client.py' },
      { label: 'stripe-python stripe/_api_requestor.py (the key on every POST)', version: 'commit 047400fc', href: 'https://github.com/stripe/stripe-python/blob/047400fc/stripe/_api_requestor.py' },
    ],
    inputs: {
      maxRetries: 0, // L303, L280: max_network_retries = 0
      baseBackoffMs: 500, // L304
      backoffMultiplier: 2, // L305
      maxBackoffMs: 5000, // L306
      jitter: 'equal', // L307
      clientTimeoutMs: 3000, // the seed's (L482); own 80 s (L308)
      deadlineMs: 10000, // the seed's (L19)
      waitBudgetMs: null,
      idempotencyKey: true, // L312, L287: every POST, whatever the retries
      retryOn: ['timeout', '5xx'], // L310
      retryWritesWithoutKey: true, // L311
      honourRetryAfter: true, // L313
      firstRetryImmediate: false,
      minBackoffMs: 500, // L307
      ceilingScheduleMs: [],
      retryOnStatuses: [409], // L310
      retryAfterStatuses: [],
      retryAfterMode: 'at-least', // L313
      retryAfterMaxMs: 60000, // L313
    },
    kept: ['The seed’s 3 s client timeout (stripe-python’s own is 80 s) and 10 s overall deadline.'],
    cannot: `${STRIPE_CAVEATS}.`,
    uncertain: ['The default of 0 retries is what the copies read say; docs/clients.md §4 asks for it to be checked against the installed version.'],
  },
  {
    id: 'stripe-go',
    group: 'Stripe',
    name: 'Stripe: stripe-go',
    short: 'stripe-go',
    docs: '§4',
    sources: [
      { label: 'stripe-go stripe.go', version: 'v81.3.0', href: 'https://github.com/stripe/stripe-go/blob/v81.3.0/stripe.go' },
    ],
    inputs: {
      maxRetries: 2, // L303, L280: DefaultMaxNetworkRetries int64 = 2
      baseBackoffMs: 500, // unused beside the schedule (L304)
      backoffMultiplier: 2, // unused beside the schedule (L305 "–")
      maxBackoffMs: 5000, // L306, L281: maxNetworkRetriesDelay
      jitter: 'proportional', // L307, L299: 75–100 %
      jitterLow: 0.75, // L283: jitter := rand.Int63n(int64(delay / 4)), subtracted
      jitterHigh: 1, // L283
      clientTimeoutMs: 3000, // the seed's (L482); own 80 s (L308)
      deadlineMs: 10000, // the seed's (L19)
      waitBudgetMs: null,
      idempotencyKey: true, // L312, L287: every write method
      retryOn: ['timeout', '5xx'], // L310, L285
      retryWritesWithoutKey: true, // L311
      honourRetryAfter: false, // L313, L284: not read
      firstRetryImmediate: false,
      minBackoffMs: 500, // L307, L283: if delay < minNetworkRetriesDelay
      ceilingScheduleMs: [500, 1000, 2500, 5000], // L304, L298: 500 + 500·k², k = 0, 1, 2, 3
      retryOnStatuses: [409], // L310, L285
      retryAfterStatuses: [],
      retryAfterMode: 'replace', // unused (L313)
      retryAfterMaxMs: null, // unused
    },
    kept: ['The seed’s 3 s client timeout (stripe-go’s own is 80 s) and 10 s overall deadline (a context deadline would stop retries).'],
    cannot: 'Stripe-Should-Retry, a 429 retried only with the code lock_timeout, and retries stopped by a cancelled context.',
    uncertain: [],
  },
  {
    id: 'polly',
    group: '.NET and Java',
    name: 'Polly v8 defaults (HttpClient timeout, not retried)',
    short: 'Polly v8’s defaults',
    docs: '§5',
    sources: [
      { label: 'Polly documentation: Retry resilience strategy', version: 'Polly v8, docs commit 027c7321', href: 'https://github.com/App-vNext/Polly/blob/027c7321/docs/strategies/retry.md' },
      { label: 'Polly RetryConstants.cs', version: 'commit 243b0443', href: 'https://github.com/App-vNext/Polly/blob/243b0443/src/Polly.Core/Retry/RetryConstants.cs' },
    ],
    inputs: {
      maxRetries: 3, // L370, L344: MaxRetryAttempts 3
      baseBackoffMs: 2000, // L371, L345: Delay 2 s
      backoffMultiplier: 1, // L372, L346: BackoffType Constant
      maxBackoffMs: null, // L373, L348: MaxDelay null
      jitter: 'none', // L374, L347: UseJitter false
      clientTimeoutMs: 3000, // the seed's (L482); HttpClient's own is 100 s (L375, L355)
      deadlineMs: 10000, // the seed's (L19)
      waitBudgetMs: null,
      idempotencyKey: false, // L378
      retryOn: ['429', '5xx', '4xx'], // L376: thrown non-2xx; the timeout is not retried (L349, L392)
      retryWritesWithoutKey: true, // L377
      honourRetryAfter: false, // L379, L354
      firstRetryImmediate: false,
      minBackoffMs: 0,
      ceilingScheduleMs: [],
      retryOnStatuses: [],
      retryAfterStatuses: [],
      retryAfterMode: 'replace',
      retryAfterMaxMs: null,
    },
    kept: ['The seed’s 3 s client timeout (HttpClient’s own is 100 s) and 10 s overall deadline.'],
    cannot: 'What is retried depends on the caller’s code: a status is retried only if the call throws on it (EnsureSuccessStatusCode), and an HttpClient timeout is an OperationCanceledException, which the default ShouldHandle excludes.',
    uncertain: ['The retried statuses assume the usual wiring (EnsureSuccessStatusCode); without it no status is retried (docs/clients.md §5).'],
  },
  {
    id: 'polly-timeout',
    group: '.NET and Java',
    name: 'Polly v8 defaults with a Polly Timeout strategy inside the retry',
    short: 'Polly v8 with a Timeout strategy',
    docs: '§5',
    sources: [
      { label: 'Polly documentation: Retry resilience strategy', version: 'Polly v8, docs commit 027c7321', href: 'https://github.com/App-vNext/Polly/blob/027c7321/docs/strategies/retry.md' },
      { label: 'Polly RetryConstants.cs', version: 'commit 243b0443', href: 'https://github.com/App-vNext/Polly/blob/243b0443/src/Polly.Core/Retry/RetryConstants.cs' },
    ],
    inputs: {
      maxRetries: 3, // L370
      baseBackoffMs: 2000, // L371
      backoffMultiplier: 1, // L372
      maxBackoffMs: null, // L373
      jitter: 'none', // L374
      clientTimeoutMs: 3000, // L375: the Timeout strategy's value, here the seed's 3 s (L394)
      deadlineMs: 10000, // the seed's (L19)
      waitBudgetMs: null,
      idempotencyKey: false, // L378
      retryOn: ['timeout', '429', '5xx', '4xx'], // L376: TimeoutRejectedException is handled
      retryWritesWithoutKey: true, // L377
      honourRetryAfter: false, // L379
      firstRetryImmediate: false,
      minBackoffMs: 0,
      ceilingScheduleMs: [],
      retryOnStatuses: [],
      retryAfterStatuses: [],
      retryAfterMode: 'replace',
      retryAfterMaxMs: null,
    },
    kept: ['A Polly Timeout strategy of 3 s (the seed’s) inside the retry, and the seed’s 10 s overall deadline.'],
    cannot: 'Statuses are retried only if the call throws on them; Polly’s jitter options (±25 %, decorrelated V2) are not defaults and not modelled here.',
    uncertain: ['The retried statuses assume EnsureSuccessStatusCode (docs/clients.md §5).'],
  },
  {
    id: 'resilience4j',
    group: '.NET and Java',
    name: 'resilience4j Retry defaults',
    short: 'resilience4j’s defaults',
    docs: '§6',
    sources: [
      { label: 'resilience4j RetryConfig.java', version: 'commit 0124df71', href: 'https://github.com/resilience4j/resilience4j/blob/0124df71/resilience4j-retry/src/main/java/io/github/resilience4j/retry/RetryConfig.java' },
    ],
    inputs: {
      maxRetries: 2, // L425, L405: DEFAULT_MAX_ATTEMPTS = 3 includes the first call
      baseBackoffMs: 500, // L426, L406: DEFAULT_WAIT_DURATION = 500
      backoffMultiplier: 1, // L427, L406: a fixed interval
      maxBackoffMs: null, // L428
      jitter: 'none', // L429
      clientTimeoutMs: 3000, // the seed's (L482); resilience4j has none (L430)
      deadlineMs: 10000, // the seed's (L19); none (L431)
      waitBudgetMs: null,
      idempotencyKey: false, // L434
      retryOn: ['timeout'], // L432, L407: every exception; statuses only if the HTTP client throws
      retryWritesWithoutKey: true, // L433
      honourRetryAfter: false, // L435
      firstRetryImmediate: false,
      minBackoffMs: 0,
      ceilingScheduleMs: [],
      retryOnStatuses: [],
      retryAfterStatuses: [],
      retryAfterMode: 'replace',
      retryAfterMaxMs: null,
    },
    kept: ['The seed’s 3 s client timeout (resilience4j has none of its own) and 10 s overall deadline.'],
    cannot: 'Statuses retried only when the HTTP client throws on them, the retry budget, and whole-millisecond truncation of exponential intervals (not a default).',
    uncertain: ['Whether a retry budget is active by default was not checked (docs/clients.md §6).'],
  },
];

export const presetById = (id) => PRESETS.find((p) => p.id === id) || null;

// The policy part of a full inputs object (compute()'s `inputs` echo).
export function policyOf(inputs) {
  const policy = {};
  for (const name of POLICY_FIELDS) if (Object.prototype.hasOwnProperty.call(inputs, name)) policy[name] = inputs[name];
  return policy;
}

// The inputs a preset stands for, in the world the reader has set up: the scenario, the
// operation and the fixture stay; every policy field comes from the preset (or, for the seed's
// fixture, from the seed's defaults).
export function presetInputs(current, policy) {
  const world = {};
  for (const [name, value] of Object.entries(current)) if (!POLICY_FIELDS.includes(name)) world[name] = value;
  return { ...world, ...policy };
}
