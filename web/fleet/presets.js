// Real clients' defences as fleet presets: each sets the gates of FLEET.md §5 as a client
// ships them, from the client lab's sources (web/clients/sources.js, through the generated
// presets.js: the `gates` member) where a preset there carries them, or from FLEET.md §5's
// own text where no client preset does (Finagle's budget, the SRE book's 10 %). A preset sets
// only the gates: the rest of the fleet (its retries, backoff, timeouts) stays as the reader
// has it, and each says what the gate cannot represent.

import { presetById } from '../clients/presets.js';

const fromClient = (id) => {
  const p = presetById(id);
  return p ? p : null;
};

function clientGate(id, gate, { label, cannot = [] }) {
  const p = fromClient(id);
  const g = p && p.gates.find((x) => x.gate === gate);
  if (!p || !g || !g.params) return null;
  const releases = p.releases.map((r) => (r.package ? `${r.package} ${r.version}` : `${r.repo} ${r.tag || r.commit}`)).join('; ');
  return {
    id: `client:${id}`,
    label,
    gates: { [gate]: { ...g.params } },
    source: `${p.name}${releases ? ` (read at ${releases})` : ''}`,
    cannot: [g.note, ...cannot].filter(Boolean),
  };
}

// The presets, in the order the page lists them.
export function fleetPresets() {
  const list = [
    clientGate('aws-botocore-standard', 'quota', { label: 'AWS SDK standard mode before 2026 (botocore ≤ 1.43)' }),
    clientGate('aws-botocore-2026', 'quota', { label: 'AWS SDK 2026 retries, the default from botocore 1.44 (read at 1.43.67)' }),
    clientGate('aws-sdk-go-v2', 'quota', { label: 'AWS SDK standard mode, aws-sdk-go-v2 v1.16.0 (2022): a retried success gives back the cost and the increment' }),
    clientGate('grpc-go-169', 'throttle', { label: 'gRPC retry throttling (A6’s example)' }),
    {
      id: 'bucket:brooker-post',
      label: 'Token bucket as Brooker’s 2022 post writes it',
      gates: { bucket: { capacity: 5, deposit: 0.1, cost: 1, depositOn: 'success', allowWhen: 'at-least-cost' } },
      source: 'Marc Brooker, “Fixing retries with token buckets and circuit breakers” (2022-02-28), as jmason.ie quotes it (2022-03-04): “If it succeeds, it drops part of a token into a limited-size token bucket. If the call fails, retry up to N times as long as there are (whole) tokens in the bucket. For example, each success could deposit 0.1 tokens, and each retry could consume 1 token.” The size 5 is his simulator’s (mbrooker/simulator_example retry_sim, AdaptiveRetryFactory(0.1, 5)).',
      cannot: ['The post gives neither the bucket’s size nor its level at the start: 5 (his simulator’s) and full (FLEET §5’s). His simulator itself deposits on each first try and needs more than one token: FLEET §5’s default bucket, the reproduction below.'],
    },
    {
      id: 'budget:finagle',
      label: 'Finagle / Linkerd retry budget',
      gates: { budget: { percent: 20, minPerSecond: 10, ttlMs: 10000 } },
      source: 'FLEET.md §5: “a retry budget as in Finagle and Linkerd { percent: 20, minPerSecond: 10, ttlMs: 10000 }” (no client preset of the client lab carries it)',
      cannot: ['Finagle’s budget is kept per client and counts deposits and withdrawals over its TTL; FLEET §5’s counts retries and first attempts in the window before each decision. Finagle’s and Linkerd’s own sources were not read at a release for this page.'],
    },
    {
      id: 'budget:sre',
      label: 'The SRE book’s 10 % per client',
      gates: { budget: { percent: 10, minPerSecond: 0 } },
      source: 'FLEET.md §5: “The SRE book’s per-client 10 % is { percent: 10, minPerSecond: 0 }” (Site Reliability Engineering, “Handling Overload”)',
      cannot: ['The book also allows at most three attempts per request and retries at one layer of a stack only: set Retries per request to 2 for the first; the fleet has one layer.'],
    },
    clientGate('resilience4j', 'breaker', { label: 'resilience4j circuit breaker' }),
  ];
  const polly = fromClient('dotnet-standard');
  const pollyGate = polly && polly.gates.find((g) => g.gate === 'breaker');
  if (pollyGate && pollyGate.params) {
    const p = pollyGate.params;
    list.push({
      id: 'client:dotnet-standard',
      label: 'Polly’s breaker (.NET standard resilience handler), approximated',
      // Polly's ratio and minimum throughput and break duration carry over; its sampling over
      // time does not (FLEET §5's breaker counts the last `window` outcomes).
      gates: { breaker: { failurePercent: p.failureRatio * 100, minCalls: p.minimumThroughput, window: p.minimumThroughput, openMs: p.breakDurationMs, halfOpenCalls: 1 } },
      source: `${polly.name}: failureRatio ${p.failureRatio}, minimumThroughput ${p.minimumThroughput}, samplingDuration ${p.samplingDurationMs / 1000} s, breakDuration ${p.breakDurationMs / 1000} s`,
      cannot: [pollyGate.note, `Here the window is the last ${p.minimumThroughput} outcomes (minimumThroughput), not ${p.samplingDurationMs / 1000} s of them, and one trial call passes when half-open: this page’s approximation, not Polly’s own values.`],
    });
  }
  return list.filter(Boolean);
}
