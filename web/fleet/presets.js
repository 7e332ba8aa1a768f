// Real clients' defences as fleet presets: each sets the gates of FLEET.md §5 as a client
// ships them, from the client lab's sources (web/clients/sources.js, through the generated
// presets.js: the `gates` member) where a preset there carries them, or from FLEET.md §5's
// own text where no client preset does (Finagle's budget, the SRE book's 10 %). A preset sets
// only the gates: the rest of the fleet (its retries, backoff, timeouts) stays as the reader
// has it, and each says what the gate cannot represent.

import { h } from '../dom.js';
import { num } from '../format.js';
import { presetById } from '../clients/presets.js';
import { choiceWords, gateFields, gatesOf } from './model.js';

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
      cannot: ['The post gives neither the bucket’s size nor its level at the start: 5 (his simulator’s) and full (as the fleet’s bucket starts). His simulator itself deposits on each first try and needs more than one token: the fleet’s default bucket, the reproduction below.'],
    },
    {
      id: 'budget:finagle',
      label: 'Finagle / Linkerd retry budget',
      gates: { budget: { percent: 20, minPerSecond: 10, ttlMs: 10000 } },
      source: 'The retry budget Finagle and Linkerd describe, as this page’s fleet models it: retries up to 20 % of first attempts, and 10 a second besides, counted over 10 s (no client of the client lab carries it)',
      cannot: ['Finagle’s budget is kept per client and counts deposits and withdrawals over its time to live; the fleet’s counts retries and first attempts in the window before each decision. Finagle’s and Linkerd’s own sources were not read at a release for this page.'],
    },
    {
      id: 'budget:sre',
      label: 'The SRE book’s 10 % per client',
      gates: { budget: { percent: 10, minPerSecond: 0 } },
      source: 'Site Reliability Engineering, “Handling Overload”: a per-client retry budget of 10 % of requests, with no allowance besides',
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

// What a preset sets, in the section's words (issue 35 item 10: the card said "bucket capacity 5,
// depositOn success"): each gate by its label, each field by the label its control has (the
// table's description where the page has none) with its unit, a choice by its words.
export function presetSettings(preset, table) {
  return Object.entries(preset.gates).map(([gate, values]) => {
    const label = (gatesOf(table).find((g) => g.name === gate) || { label: gate }).label;
    const fields = gateFields(table, gate);
    const parts = Object.entries(values).map(([name, v]) => {
      const f = fields.find((x) => x.name === name);
      if (!f) return null;
      if (f.row.type === 'choice') {
        const choice = (f.row.choices || []).find((c) => c.name === v);
        return `${f.label}: ${choice ? choiceWords(table, fields, choice) : v}`;
      }
      const unit = !f.row.unit || f.label.includes(f.row.unit) ? '' : ` ${v === 1 && /^[a-z]+s$/.test(f.row.unit) ? f.row.unit.slice(0, -1) : f.row.unit}`;
      return `${f.label}: ${typeof v === 'number' ? num(v) : v}${unit}`;
    }).filter(Boolean);
    return `${label}: ${parts.join('; ')}`;
  }).join('. ');
}

// The preset's card: its source, what it sets, what it cannot represent.
export function presetCard(preset, table) {
  return h('div', {},
    h('p', {}, h('strong', {}, 'Source: '), preset.source),
    h('p', {}, h('strong', {}, 'It sets: '), presetSettings(preset, table)),
    h('p', {}, h('strong', {}, 'What this cannot represent: '), [...preset.cannot, 'Only the gate is set: the client’s own retry count, backoff and timeouts are not applied; the fleet keeps the ones above.'].join(' ')));
}
