// Many servers' presets (issue 39): docs/servers.md §13.3 fixes them, §13.1 and §13.2 give
// their sources (Envoy read at v1.37.0, Istio at 126806ab), cited as docs/clients.md cites a
// client. Each is a whole run: the opening fleet run with the fields it names, so that what the
// card says of it is what the chart shows. Its words come from the run on show (`said`), never
// typed in as figures.

import { num } from '../format.js';

const ENVOY = 'Envoy v1.37.0 (release commit 6d9bb7d9, read in the fork penguingao/envoy)';
const ISTIO = 'Istio at commit 126806ab (2025-03-25; between 1.25 and 1.26)';

// The fleet Istio's default route policy puts in front of 10 replicas (§13.3): Istio's default
// LEAST_REQUEST, Envoy's two choices, one balancer per sidecar; previous_hosts with 5 picks.
const MESH = {
  servers: { count: 10 },
  balancer: { kind: 'two-choices', scope: 'client' },
};
const badHost = (retryOn) => ({
  ...MESH,
  servers: { count: 10, overrides: [{ index: 0, failureRate: 1 }] },
  policy: { maxRetries: 2, retryHost: 'previous-hosts', hostSelectionRetryMaxAttempts: 5, retryOn },
});
const fault = (kind) => ({
  ...MESH,
  policy: { retryHost: 'previous-hosts', hostSelectionRetryMaxAttempts: 5 },
  trigger: null,
  faults: [{ kind, servers: [0], startMs: 10000, endMs: 20000 }],
});

const failedOf = (r, reason) => r.totals.failed[reason] || 0;
const pct = (n, of) => `${of ? Math.round((100 * n) / of) : 0} %`;

const NO_OUTLIER = 'Outlier detection (ejecting a failing host) is not modelled: the balancer keeps sending to the bad host. Istio sets none unless a DestinationRule asks for it (pilot/pkg/networking/core/cluster_traffic_policy.go lines 414-465); with Envoy’s defaults (source/common/upstream/outlier_detection_impl.h lines 348-368: five 5xx in a row, checked every 10 s, ejected for 30 s at first, at most 10 % of the hosts) one host of ten would be ejected after five failures in a row.';
const NOT_READ = 'Envoy’s own repository was too large to fetch: its code was read at the v1.37.0 release commit in a fork; whether 1.38 and 1.39 keep the same host rule and defaults was not checked (docs/servers.md §15).';

export function serverPresets() {
  return [
    {
      id: 'servers:bad-host',
      label: 'One bad host of ten, Istio’s default retry policy',
      request: badHost(['refused']),
      source: `${ISTIO}: pilot/pkg/networking/core/route/retry/retry.go lines 35-56 — DefaultPolicy() adds the previous_hosts predicate, 2 retries, retry_on “connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes” and host_selection_retry_max_attempts 5; pilot/pkg/features/pilot.go line 258 leaves 503 out of the retried codes; cluster_traffic_policy.go lines 305-316 make LEAST_REQUEST the default balancer. ${ENVOY}: least_request_lb.cc lines 119-138 and least_request_lb.h line 37 (two choices, the first kept on a tie); previous_hosts.h lines 9-15 and load_balancer_impl.cc lines 617-634 (up to 1 + 5 picks for a host not yet tried, else the last pick).`,
      sets: 'Ten replicas; server 0 fails every attempt (a 500); the balancer picks the less busy of two hosts drawn at random, one balancer per client (a sidecar each); 2 retries per request; a retry is sent to a host this request has not tried, up to 5 more picks; only a refused connection is retried.',
      cannot: ['Istio retries a refused connection, not a 500: its default retry_on has no 5xx and leaves 503 out, and refused-stream, unavailable and cancelled are HTTP/2 and gRPC answers no server here gives. So every request whose first attempt the bad host gets fails, whatever the host rule. The next preset retries 5xx, as Envoy’s common retry_on does.', NO_OUTLIER, NOT_READ],
      said: (r) => {
        const notRetried = failedOf(r, 'not-retryable');
        const down = r.recovery && r.recovery.disrupted !== false && r.recovery.recoveredAtMs === null;
        return `In the run on show ${num(notRetried)} of ${num(r.totals.requests)} requests (${pct(notRetried, r.totals.requests)}) ended on a failure not retried: a 500 from the bad host, which this policy does not retry.${down ? ' So the fleet’s verdict says it is still down: a window is healthy when at least 90 % of its new requests succeed, and the bad host’s share fails in every window, the slowdown or not. No storm keeps it down; the host does.' : ''}`;
      },
    },
    {
      id: 'servers:bad-host-5xx',
      label: 'One bad host of ten, retrying 5xx (Envoy’s common retry_on)',
      request: badHost(['5xx']),
      source: `As the preset above, with retry_on 5xx: ${ENVOY}, docs/root/configuration/http/http_filters/router_filter.rst lines 74-76 (“5xx” includes connect-failure and refused-stream).`,
      sets: 'As “One bad host of ten, Istio’s default retry policy”, but a 500 is retried too.',
      cannot: [NO_OUTLIER, NOT_READ],
      said: (r) => {
        const failed = Object.values(r.totals.failed).reduce((a, n) => a + n, 0);
        return `In the run on show the retry of a request the bad host failed went to another host: ${num(r.totals.succeeded)} of ${num(r.totals.requests)} requests succeeded and ${num(failed)} failed.`;
      },
    },
    {
      id: 'servers:crash',
      label: 'A crash vs a partition: one host of ten crashes from 10 s to 20 s',
      request: fault('crash'),
      source: `Issue 39 and docs/servers.md §5, §13.3; the host rule as Istio’s default (${ISTIO}, retry.go lines 35-56), the client’s own retry policy the fleet’s (a 1 s timeout per attempt: Istio sets none). ${ENVOY}: router.cc lines 1582-1586 count a refused host as tried.`,
      sets: 'Ten replicas behind two-choice balancers; a retry goes to a host not yet tried (up to 5 more picks); server 0 is down from 10 s to 20 s: it refuses connections at once. No slowdown.',
      cannot: ['Switch the fault to a partition (server 0’s fault, above) to compare: the crash’s run then stays faint under it. ' + NO_OUTLIER],
      said: (r) => `In the run on show server 0 refused ${num(r.totals.refused || 0)} attempts, each failing at once and retried on another host: ${num(r.totals.succeeded)} of ${num(r.totals.requests)} requests succeeded, the slowest in ${num(r.totals.latencyMs.max)} ms.`,
    },
    {
      id: 'servers:partition',
      label: 'A crash vs a partition: one host of ten cut off from 10 s to 20 s',
      request: fault('partition'),
      source: 'As the crash above: the same fleet, the fault a partition (docs/servers.md §5).',
      sets: 'As the crash, but server 0 is cut off from 10 s to 20 s: attempts to it never arrive, and each waits out its 1 s timeout before it is retried.',
      cannot: ['Switch the fault to a crash to compare: the partition’s run then stays faint under it. ' + NO_OUTLIER],
      said: (r) => `In the run on show ${num(r.totals.partitioned || 0)} attempts went to server 0 and were never answered: each waited out its ${num(r.request.policy.clientTimeoutMs)} ms timeout before its retry; ${num(r.totals.succeeded)} of ${num(r.totals.requests)} requests succeeded, the slowest in ${num(r.totals.latencyMs.max)} ms.`,
    },
  ];
}
