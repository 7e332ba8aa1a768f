// The fleet section's pure part (web/fleet/model.js, chart.js, presets.js) in node: the fleet
// link, the request's differences, the verdict and side effects read from results. The results
// are the independent model's (spec/conformance/fleet-cases.json), not the engine's, but for each
// bin's capacity (fleet-cases.js).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  GATE_LABELS, encodeFleetLink, fleetTable, gateDefaults, gateFields, gatesOf, isFleetLink, parseFleetLink, requestDiff, sideEffectsOf, stormSeries, verdictOf,
  switchDefaults, switchFields, switchValue,
} from '../../../web/fleet/model.js';
import { hedgingForm } from '../../../web/fleet/closed.js';
import { binText, heldSummary, limiterSaid, queueTop, sendRateSummary, stormChart, stormLegend, stormSummary, tableColumns, tableRows, timeAxisMs, workSummary } from '../../../web/fleet/chart.js';
import { awsCsv, collapseCsv, fleetFileName, stormSvg, timelineCsv } from '../../../web/fleet/export.js';
import { attributeOfPath, readFleetAttributes } from '../../../web/fleet/embed.js';
import { fleetPresets } from '../../../web/fleet/presets.js';
import { toMarkup } from '../../../web/dom.js';
import { DIST } from '../../browser/lib/dist.js';

import { caseNamed } from './fleet-cases.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '../../..');
// The cases' results with each bin's capacity the engine's (fleet-cases.js).
const opening = caseNamed('9.5 the opening fleet run').result;
// The fleet engine file the page serves (dist/retrylab-fleet.js) and its fleetSchema().
const require = createRequire(import.meta.url);
const fleetEngine = await require(join(DIST, 'retrylab-fleet.js'))();
const table = fleetTable(fleetEngine.fleetSchema());

test('fleetTable() is the fleet engine file’s fleetSchema(): FLEET.md §3’s fields by path, their defaults the opening run', () => {
  assert.equal(table.from, 'fleetSchema');
  // The opening run's request as the independent model echoes it (its defaults, FLEET.md §3).
  assert.deepEqual(table.opening, opening.request);
  // FLEET.md §3: the server's stale-work rule and its three values; the slowdown's factor of 4
  // (from 10 s to 20 s); maxRetries 0 to 100; a gate's fields under its path.
  assert.deepEqual(table.rows.get('server.dropStale').choices.map((c) => c.name), ['never', 'expired', 'unfinishable']);
  assert.equal(table.rows.get('trigger.factor').default, 4);
  assert.deepEqual(table.rows.get('trigger.kind').choices.map((c) => c.name), ['slowdown', 'outage']);
  assert.equal(table.rows.get('trigger.startMs').default, 10000, 'the slowdown’s row, not the outage’s (which has no default)');
  assert.deepEqual([table.rows.get('policy.maxRetries').min, table.rows.get('policy.maxRetries').max], [0, 100]);
  assert.equal(table.rows.get('gates.bucket.capacity').default, 5);
  assert.equal(table.rows.get('gates.bucket').type, 'object');
  assert.equal(table.rows.has('policy.maxRetriez'), false);
  // What is not a table is refused by name, never read as an empty one.
  assert.throws(() => fleetTable({ ok: false, errors: [{ message: 'This engine file has no fleetSchema().' }] }), /no fleetSchema\(\)/);
  assert.throws(() => fleetTable(null), /no fleet request table/);
});

test('the opening run is the empty request: its link is the view alone', () => {
  assert.deepEqual(requestDiff(opening.request, opening.request, table), {});
  assert.equal(encodeFleetLink({}), 'v=1&view=fleet');
});

test('a request’s differences are what the independent model was asked (FLEET §9.5’s variants)', () => {
  for (const name of ['9.5 no retries', '9.5 drop unfinishable', '9.5 lifo', '9.5 token bucket', 'fleet-scoped bucket', 'breaker']) {
    const c = caseNamed(name);
    assert.deepEqual(requestDiff(c.result.request, opening.request, table), c.request, name);
  }
});

test('a fleet link reads back as the request it was written from', () => {
  const requests = [
    {},
    { policy: { maxRetries: 0 } },
    { server: { dropStale: 'unfinishable', queueOrder: 'lifo' }, ratePerClient: 0.75 },
    { gates: { bucket: {} } },
    { gates: { bucket: { scope: 'fleet' }, breaker: { window: 20, minCalls: 10, openMs: 5000 } } },
    { trigger: { kind: 'slowdown', startMs: 10000, endMs: 30000, factor: 2.5 }, policy: { jitter: 'full', maxBackoffMs: null } },
    { trigger: null, policy: { retryOn: ['timeout'] } },
  ];
  for (const r of requests) {
    const link = encodeFleetLink(r);
    assert.ok(isFleetLink(`#${link}`), link);
    assert.deepEqual(parseFleetLink(`#${link}`, table), { request: r, problems: [] }, link);
  }
});

test('a fleet link’s unreadable parts are named, and the rest is read', () => {
  const { request, problems } = parseFleetLink('#v=1&view=fleet&policy.maxRetries=abc&no.such=1&gates.bucket=maybe&server.queueOrder=lifo&server.queueOrder=fifo&gates.quota.capacity=9', table);
  assert.deepEqual(request, { gates: { quota: { capacity: 9 } } });
  assert.deepEqual(problems.map((p) => p.key), ['policy.maxRetries', 'no.such', 'gates.bucket', 'server.queueOrder']);
  assert.deepEqual(parseFleetLink('#v=2&view=fleet&policy.maxRetries=1', table).request, {});
  assert.equal(isFleetLink('#v=1&maxRetries=2'), false);
});

test('the verdict is read from `recovery`: metastable for the opening run, the recovery time for its variants', () => {
  const v = verdictOf(opening);
  assert.equal(v.kind, 'metastable');
  assert.match(v.text, /^Still down when new requests stopped at 60 s: a metastable failure\. The slowdown ended at 20 s/);
  // The cause from the data: the opening run's failures all ran out of attempts.
  assert.match(v.text, new RegExp(`Of its ${opening.totals.failed['attempt-limit'].toLocaleString('en-US')} failed requests, ${opening.totals.failed['attempt-limit'].toLocaleString('en-US')} ended out of attempts\\.$`));
  for (const [name, s] of [['9.5 no retries', 23], ['9.5 token bucket', 29], ['9.5 drop unfinishable', 20], ['9.5 lifo', 20]]) {
    const r = caseNamed(name).result;
    assert.equal(verdictOf(r).kind, 'recovered');
    assert.match(verdictOf(r).text, new RegExp(`^Recovered ${s - 20} s after the slowdown ended, at ${s} s:`), name);
  }
  assert.equal(verdictOf({ ...opening, recovery: null }).kind, 'none');
  assert.equal(verdictOf({ ...opening, recovery: { triggerEndMs: 58000, recoveredAtMs: null, metastable: false, disrupted: true } }).kind, 'undecided');
});

test('side effects: every commit not confirmed in time is the late answers’ when nothing fails on the server', () => {
  const keyed = { ...opening, totals: { ...opening.totals, charges: opening.totals.requests, replays: opening.totals.charges - opening.totals.requests, duplicateCharges: 0 } };
  const fx = sideEffectsOf(opening, keyed);
  // failureRate 0 and no outage: every late answer is a 200, a charge no one saw confirmed.
  assert.equal(fx.unconfirmed, opening.totals.late);
  assert.ok(fx.summary.includes(opening.totals.duplicateCharges.toLocaleString('en-US')));
  const charges = fx.rows.find((r) => r[0] === 'charges made');
  assert.deepEqual(charges.slice(1), [opening.totals.charges.toLocaleString('en-US'), opening.totals.requests.toLocaleString('en-US')]);
  const reads = sideEffectsOf({ ...opening, request: { ...opening.request, operation: 'read' } }, keyed);
  assert.ok(!reads.rows.some((r) => r[0] === 'charges made'));
});

test('the storm’s series: offered = first attempts + retries, capacity = workers ÷ service time, slowed ×4 in the slowdown', () => {
  const s = stormSeries(opening);
  assert.equal(s.points.length, opening.timeline.bins.length);
  s.points.forEach((p, i) => {
    const b = opening.timeline.bins[i];
    assert.equal(p.offered, b.firstAttempts + b.retries);
    // FLEET §3: 10 workers, 50 ms each: 200 a second; ×4 as long from 10 to 20 s: 50.
    assert.equal(p.capacity, i >= 10 && i < 20 ? 50 : 200);
  });
  const svg = toMarkup(stormChart(s, { id: 't' }));
  assert.ok(svg.startsWith('<svg'));
  assert.ok(svg.includes('slowdown ends 20 s') && svg.includes('new requests stop 60 s') && !svg.includes('recovered '));
  assert.match(stormSummary(s), /metastable failure/);
  assert.match(binText(s, 12), /^12–13 s: /);
});

// The chart's text elements of one class, with their x, y and words.
const textsOf = (svg, cls) => [...svg.matchAll(/<text class="([^"]*)" x="([\d.-]+)" y="([\d.-]+)"[^>]*>([^<]*)</g)]
  .filter((m) => m[1].split(' ').includes(cls)).map((m) => ({ cls: m[1], x: Number(m[2]), y: Number(m[3]), text: m[4] }));

test('what the server did each second (issue 35): served in time and after the caller had gone, from the bins, stacked under the capacity line', () => {
  const s = stormSeries(opening);
  s.points.forEach((p, i) => {
    const b = opening.timeline.bins[i];
    assert.deepEqual([p.served, p.late, p.inTime], [b.served, b.late, Math.max(0, b.served - b.late)], `bin ${i}`);
  });
  // The metastable signature (FLEET §9.5): after the slowdown, while a queue waits through a
  // whole bin, all 10 workers start 1,000 / 50 = 20 services each: 200, the capacity — and of
  // what they serve, nearly nothing reaches a caller still waiting.
  let flatOut = 0;
  for (let i = 21; i < 60; i += 1) {
    if (s.points[i - 1].queue >= 10 && s.points[i].queue >= 10) {
      assert.equal(s.points[i].served, s.points[i].capacity, `bin ${i}`);
      flatOut += 1;
    }
  }
  assert.ok(flatOut >= 30, `${flatOut} bins flat out`);
  const perBin = (from, to, key) => s.points.slice(from, to).reduce((a, p) => a + p[key], 0);
  const served = perBin(10, 60, 'served');
  const late = perBin(10, 60, 'late');
  assert.ok(late >= 0.9 * served, `${late} of ${served} late`);
  assert.equal(workSummary(s), `From the slowdown’s start at 10 s to the end of new requests at 60 s the server served ${served.toLocaleString('en-US')} attempts; ${late.toLocaleString('en-US')} answers (${Math.round((100 * late) / served)} % of that) came after the caller had stopped waiting.`);
  assert.ok(stormSummary(s).includes(workSummary(s)), 'said in the chart’s description');
  // Drawn: the late answers hatched from 0, the answers in time stacked on them.
  const svg = toMarkup(stormChart(s, { id: 't' }));
  assert.match(svg, /<pattern id="t-hatch"/);
  assert.match(svg, /<path class="fl-work fl-late" d="M[^"]+Z" fill="url\(#t-hatch\)"/);
  assert.match(svg, /<path class="fl-work fl-in-time" d="M[^"]+Z"/);
  assert.deepEqual(textsOf(svg, 'fl-late').map((t) => t.text), ['served, caller gone /s']);
  // A run that recovers serves mostly in time: its in-time band is labelled too.
  const none = stormSeries(caseNamed('9.5 no retries').result);
  const noneSvg = toMarkup(stormChart(none, { id: 'n' }));
  assert.deepEqual(textsOf(noneSvg, 'fl-in-time').map((t) => t.text), ['served in time /s']);
  assert.ok(none.points.slice(25, 60).every((p) => p.late === 0), 'no answer late once recovered (no retries, §9.5)');
});

test('the storm’s axes are the same for every run of one length (issue 35): time to twice the end of new requests, the queue on a log scale to 100,000', () => {
  assert.equal(timeAxisMs(60000, 61000), 120000);
  assert.equal(timeAxisMs(60000, 118000), 120000);
  assert.equal(timeAxisMs(60000, 131000), 140000, 'a run that goes on past it: to the next whole tick');
  assert.deepEqual([queueTop(0), queueTop(10819), queueTop(100000), queueTop(100001)], [100000, 100000, 100000, 1000000]);
  const ticks = (result) => {
    const svg = toMarkup(stormChart(stormSeries(result), { id: 't' }));
    const all = textsOf(svg, 'fl-tick').map((t) => `${t.text}@${t.x},${t.y}`);
    // The time axis and the queue's (the rate's follows the runs drawn: the run and its ghost).
    return [...all.filter((t) => / s@/.test(t)), ...all.filter((t) => /@50,/.test(t)).slice(-6)];
  };
  const down = ticks(opening);
  for (const name of ['9.5 no retries', '9.5 lifo', 'fleet-scoped bucket']) assert.deepEqual(ticks(caseNamed(name).result), down, name);
  assert.deepEqual(down.filter((t) => / s@/.test(t)).map((t) => t.split('@')[0]), ['0 s', '20 s', '40 s', '60 s', '80 s', '100 s', '120 s']);
  // The queue's decades, each 100 / log10(100,001) px apart: 10 waiting is one fifth of the way up.
  const queue = down.filter((t) => /@50,/.test(t)).slice(-6).map((t) => t.split(/[@,]/).filter(Boolean));
  assert.deepEqual(queue.map((q) => q.slice(0, -2).join(',')), ['0', '10', '100', '1,000', '10,000', '100,000']);
  const ys = queue.map((q) => Number(q[q.length - 1]) - 4);
  assert.equal(ys[0], 362, 'the axis at the plot’s foot');
  assert.ok(Math.abs(ys[0] - ys[1] - (100 * Math.log10(11)) / Math.log10(100001)) < 0.1, `10 waiting at ${ys[1]}`);
  assert.ok(Math.abs(ys[0] - ys[5] - 100) < 0.1, `100,000 at the top (${ys[5]})`);
});

test('a throttling server and an adaptive client on the storm (issue 34): the 429s drawn, the limiter’s waits said and tabled; none of it for a run without them', () => {
  // docs/throttling.md §3: 1.5 tokens a second per client, a burst of 2, the 429 retried.
  const base = { server: { admission: { scope: 'client', ratePerSecond: 1.5, burst: 2 } }, policy: { retryOn: ['timeout', '5xx', '429'] } };
  const plain = fleetEngine.fleet(base);
  const adaptive = fleetEngine.fleet({ ...base, gates: { adaptive: {} } });
  assert.ok(plain.ok && adaptive.ok);
  for (const r of [plain, adaptive]) {
    const s = stormSeries(r);
    s.points.forEach((p, i) => {
      const b = r.timeline.bins[i];
      assert.equal(p.throttled, b.throttled);
      assert.equal(p.heldMs, b.gateWaitMs === undefined ? null : b.gateWaitMs);
    });
    const svg = toMarkup(stormChart(s, { id: 't' }));
    assert.match(svg, /<path class="fl-line fl-throttled"/);
    assert.ok(tableColumns(s).includes('throttled (429) /s'));
    assert.equal(tableRows(s)[0].length, tableColumns(s).length);
    assert.match(heldSummary(s), new RegExp(`^The server answered ${r.totals.throttled.toLocaleString('en-US')} attempts with a 429`));
  }
  // The limiter (§1.5, §4) slows a client after each 429: its waits are the adaptive run's alone.
  const held = stormSeries(adaptive).points.reduce((a, p) => a + p.heldMs, 0);
  assert.ok(held > 0);
  assert.equal(stormSeries(plain).points.every((p) => p.heldMs === null), true, 'no gateWaitMs without gates.adaptive (§4: echoed only when given)');
  assert.match(heldSummary(stormSeries(adaptive)), /held sends for [\d,.]+ s in all/);
  assert.ok(tableColumns(stormSeries(adaptive)).includes('waits begun by the rate limiters (s)'));
  // The trade it makes: fewer 429s, slower requests.
  assert.ok(adaptive.totals.throttled < plain.totals.throttled && adaptive.totals.latencyMs.p50 > plain.totals.latencyMs.p50);
  // The opening run has neither: no line, no column, no words.
  const s = stormSeries(opening);
  assert.doesNotMatch(toMarkup(stormChart(s, { id: 't' })), /fl-throttled/);
  assert.equal(tableColumns(s).length, 9);
  assert.equal(heldSummary(s), '');
});

test('the adaptive limiters’ send rate on the storm (docs/throttling.md §4.1): the bins’ figures drawn on their own right-hand axis, tabled, said, in the key; nothing of it without a limiter on', () => {
  // §4.1's worked run: client scope, sendRate 0.5, 0.5, 1.6 and limiting 1, 1, 1 (bins of 1 s).
  const r = fleetEngine.fleet({
    clients: 2, arrivals: 'once', trigger: null, network: { dist: 'fixed', ms: 5 },
    server: { admission: { scope: 'fleet', ratePerSecond: 1, burst: 1 } },
    policy: { retryOn: ['429'], baseBackoffMs: 0 }, gates: { adaptive: {} },
  });
  assert.ok(r.ok, JSON.stringify(r.errors));
  const s = stormSeries(r);
  assert.deepEqual(s.points.map((p) => [p.limiting, p.sendRate]), r.timeline.bins.map((b) => [b.limiting, b.sendRate]));
  const svg = toMarkup(stormChart(s, { id: 't' }));
  // Its own scale: a nice top of 2 over the 200 px plot from y 28 (a line lower, for the right axis's
  // words): 0.5 at 178, 1.6 at 68 (not the left axis's).
  const line = svg.match(/<path class="fl-line fl-send-rate" d="([^"]+)"/);
  assert.ok(line, 'the send rate drawn');
  const ys = [...line[1].matchAll(/[ML][\d.]+ ([\d.]+)/g)].map((m) => Number(m[1]));
  assert.deepEqual([...new Set(ys)], [178, 68]);
  const ticks = [...svg.matchAll(/<text class="fl-tick fl-send-rate"[^>]*>([^<]+)</g)].map((m) => m[1]);
  assert.deepEqual(ticks, ['0', '1', '2', 'limiter sends /s']);
  // The plot leaves the right axis its room: 750 − 56 − 44 px wide.
  assert.match(svg, /data-plot-w="650"/);
  assert.ok(stormLegend(s).some((item) => item.cls === 'fl-send-rate'));
  const cols = tableColumns(s);
  const rows = tableRows(s);
  assert.deepEqual(rows.map((row) => row.slice(cols.indexOf('clients limiting at end'))), [['1', '0.5'], ['1', '0.5'], ['1', '1.6']]);
  assert.match(binText(s, 2), /; 1 limiting, at 1\.6 sends a second each \(mean\)\.$/);
  assert.match(sendRateSummary(s), /1 client limiting by 1 s and 1 client at the end; the rate fell to 0\.5 in the bin ending 1 s\. So the limiters trade/);
  assert.ok(stormSummary(s).includes(sendRateSummary(s)), 'in the chart’s description');
  assert.equal(limiterSaid(r), ' By the end 1 of 2 clients’ limiters was on, their mean send rate down to 0.5 a second at its lowest (the chart’s dash-dot line, right axis).');
  // Without the gate, or with it and no 429: no line, no axis, no column, no words; the plot as wide as before.
  for (const q of [opening, fleetEngine.fleet({ clients: 2, arrivals: 'once', trigger: null, gates: { adaptive: {} } })]) {
    const plain = stormSeries(q);
    const markup = toMarkup(stormChart(plain, { id: 't' }));
    assert.doesNotMatch(markup, /fl-send-rate/);
    assert.match(markup, /data-plot-w="678"/);
    assert.equal(tableColumns(plain).includes('clients limiting at end'), false);
    assert.equal(sendRateSummary(plain), '');
  }
});

test('hedging’s closed form (docs/throttling.md §6): 0.09158 extra copies, p99 33.19 → 28.84 ms, p99.9 46.17 → 36.14 ms, and the engine’s runs within §6’s sampling error', () => {
  const request = { clients: 100, ratePerClient: 50, durationMs: 20000, network: { dist: 'exponential', mean: 5 }, server: { workers: null, serviceMs: 0 }, trigger: null, policy: { maxRetries: 0 } };
  const plain = fleetEngine.fleet(request);
  const hedged = fleetEngine.fleet({ ...request, policy: { maxRetries: 0, hedging: { maxAttempts: 2, delayMs: 20 } } });
  assert.ok(plain.ok && hedged.ok, JSON.stringify(plain.errors || hedged.errors));
  assert.equal(hedgingForm(plain.request).why, 'the policy does not hedge');
  const form = hedgingForm(hedged.request);
  // §6 by hand: e^(−4)(1 + 4); S(x) = e^(−x/5)(1 + x/5) at 0.01 and 0.001, alone and times S(x − 20).
  assert.equal(Math.round(form.extraCopies * 1e5) / 1e5, 0.09158);
  assert.deepEqual([form.plain.p99, form.hedged.p99, form.plain.p999, form.hedged.p999].map((x) => Math.round(x * 100) / 100), [33.19, 28.84, 46.17, 36.14]);
  assert.ok(Math.abs(Math.exp(-form.hedged.p99 / 5) * (1 + form.hedged.p99 / 5) * Math.exp(-(form.hedged.p99 - 20) / 5) * (1 + (form.hedged.p99 - 20) / 5) - 0.01) < 1e-9);
  assert.equal(form.plain.p50, form.hedged.p50, 'below the delay no copy has gone: the medians agree');
  // The engine, at about 100,000 requests: §6's four sds (0.004; 0.8 and 0.5 ms).
  assert.ok(hedged.totals.requests > 95000);
  assert.ok(Math.abs(hedged.totals.retries / hedged.totals.firstAttempts - form.extraCopies) < 0.004);
  assert.ok(Math.abs(plain.totals.latencyMs.p99 - form.plain.p99) < 0.8, `${plain.totals.latencyMs.p99}`);
  assert.ok(Math.abs(hedged.totals.latencyMs.p99 - form.hedged.p99) < 0.5, `${hedged.totals.latencyMs.p99}`);
  // Outside the form: a queue.
  assert.match(hedgingForm({ ...hedged.request, server: { ...hedged.request.server, workers: 10, serviceMs: 50 } }).why, /no queue/);
});

test('each line of the storm is labelled at its peak (issue 35), inside the plot, none over another', () => {
  for (const name of ['9.5 the opening fleet run', '9.5 no retries', '9.5 lifo']) {
    const s = stormSeries(caseNamed(name).result);
    const svg = toMarkup(stormChart(s, { id: 't' }));
    const end = timeAxisMs(s.durationMs, s.points.length * s.binMs);
    const xOf = (ms) => 56 + (678 * ms) / end;
    const peak = s.points.reduce((a, p) => (p.offered > a.offered ? p : a), s.points[0]);
    const [label] = textsOf(svg, 'fl-offered').filter((t) => t.cls.includes('fl-label'));
    assert.equal(label.text, 'attempts offered /s');
    const at = xOf(peak.startMs + s.binMs / 2);
    // Right of the peak's point, or left of it where the words would run past the plot.
    assert.ok(Math.abs(label.x - (at + 4)) < 0.1 || Math.abs(label.x + label.text.length * 7 - (at - 4)) < 0.1, `${name}: ${label.x} by ${at}`);
    const labels = textsOf(svg, 'fl-label').concat(textsOf(svg, 'fl-note'));
    for (const l of labels) assert.ok(l.x >= 56 && l.x + l.text.length * 7 <= 734 + 0.1, `${name}: "${l.text}" inside`);
  }
});

// An RFC 4180 file of plain cells (the fleet's hold no comma or quote) as objects by heading.
const csvRecords = (text) => {
  assert.ok(text.endsWith('\r\n'));
  const [head, ...lines] = text.slice(0, -2).split('\r\n');
  const names = head.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((v, i) => [names[i], v])));
};

test('the timeline CSV is the bins: one row per bin with every field of the bin (its capacity among them), its time, and offered per bin', () => {
  const bins = opening.timeline.bins;
  const rows = csvRecords(timelineCsv(opening));
  assert.equal(rows.length, bins.length);
  rows.forEach((row, i) => {
    // Every field the bin has, as the bin has it (null as an empty cell), and nothing else.
    assert.deepEqual(Object.keys(row), ['startMs', 'endMs', ...Object.keys(bins[i]), 'offered']);
    for (const [k, v] of Object.entries(bins[i])) assert.equal(row[k], v === null ? '' : String(v), `bin ${i} ${k}`);
    assert.equal(Number(row.startMs), i * 1000);
    assert.equal(Number(row.endMs), (i + 1) * 1000);
    assert.equal(Number(row.offered), bins[i].firstAttempts + bins[i].retries);
    // FLEET §3: 10 workers × 1,000 ms ÷ 50 ms = 200 attempts a bin; ×4 as long from 10 to 20 s.
    assert.equal(Number(row.capacity), i >= 10 && i < 20 ? 50 : 200);
  });
});

test('the timeline CSV of a many-servers run holds each server’s figures, a column each, and no object written as text', () => {
  // Three servers, server 1 crashed from 1 to 2 s (docs/servers.md §5): its connections refused.
  const r = fleetEngine.fleet({ durationMs: 3000, servers: { count: 3 }, faults: [{ kind: 'crash', servers: [1], startMs: 1000, endMs: 2000 }] });
  assert.equal(r.ok, true, JSON.stringify(r.errors));
  const text = timelineCsv(r);
  assert.equal(text.includes('[object'), false);
  const rows = csvRecords(text);
  const bins = r.timeline.bins;
  assert.equal(rows.length, bins.length);
  const members = Object.keys(bins[0].servers[0]);
  assert.ok(members.includes('attempts') && members.includes('refused'), members.join());
  const own = Object.keys(bins[0]).filter((k) => k !== 'servers');
  assert.deepEqual(Object.keys(rows[0]), ['startMs', 'endMs', ...own, ...[0, 1, 2].flatMap((i) => members.map((m) => `servers[${i}].${m}`)), 'offered']);
  rows.forEach((row, i) => {
    for (const k of own) assert.equal(row[k], bins[i][k] === null ? '' : String(bins[i][k]), `bin ${i} ${k}`);
    bins[i].servers.forEach((server, j) => {
      for (const m of members) assert.equal(row[`servers[${j}].${m}`], String(server[m]), `bin ${i} server ${j} ${m}`);
    });
    // The servers' attempts are the bin's: first attempts and retries, each sent to one server.
    assert.equal([0, 1, 2].reduce((sum, j) => sum + Number(row[`servers[${j}].attempts`]), 0), Number(row.offered), `bin ${i}`);
  });
  // In the crash, every attempt that reached server 1 was refused; before it, none.
  assert.ok(Number(rows[1]['servers[1].refused']) > 0);
  assert.equal(rows[1]['servers[1].refused'], rows[1]['servers[1].attempts']);
  assert.equal(rows[0]['servers[1].refused'], '0');
});

test('the fleet downloads are named after the run, and the SVG holds a title, the verdict and a key', () => {
  assert.equal(fleetFileName(opening, 'timeline', 'csv'),
    'retry-lab-fleet-100-clients-at-1-s-slowdown-x4-10-20-s-3-retries-jitter-none-drop-stale-never-fifo-no-gate-metastable-timeline.csv');
  const lifo = caseNamed('9.5 lifo').result;
  assert.match(fleetFileName(lifo, 'storm', 'svg'), /-lifo-no-gate-recovered-storm\.svg$/);
  const bucket = caseNamed('fleet-scoped bucket').result;
  assert.match(fleetFileName(bucket, 'storm', 'svg'), /-token-bucket-fleet-recovered-storm\.svg$/);
  const svg = stormSvg(opening);
  assert.ok(svg.startsWith('<?xml'));
  assert.match(svg, /<title>Retry Lab fleet: Still down when new requests stopped at 60 s: a metastable failure\./);
  assert.ok(svg.includes('Verdict: still down when new requests stopped.'));
  assert.ok(svg.includes('Retry Lab · 100 clients at 1/s, slowdown ×4 10–20 s'));
  const key = svg.slice(svg.indexOf('data-part="key"'));
  for (const label of ['attempts offered /s', 'capacity /s', 'successes /s', 'timeouts /s', 'served in time', 'served, answered after the caller had gone', 'waiting (the queue, log scale)', 'the slowdown']) assert.ok(key.includes(label), label);
  assert.ok(!/var\(--/.test(svg), 'no page tokens in a file that leaves the page');
});

test('the reproductions’ CSV: every point of the figure with the published one beside it', () => {
  const points = new Map([['full:10', { writes: 40, makespanMs: 470, failures: 30 }]]);
  const rows = csvRecords(awsCsv(points));
  assert.equal(rows.length, 19 * 5);
  const full10 = rows.find((r) => r.clients === '10' && r.strategy === 'full');
  // The peer's FullJitter at 10 clients (spec/reference/aws-2015-peer-seed1.csv): 465 ms, 38 writes.
  assert.deepEqual(full10, { clients: '10', strategy: 'full', writes: '40', makespanMs: '470', failures: '30', peerWrites: '38', peerMakespanMs: '465' });
  assert.equal(rows.find((r) => r.clients === '190' && r.strategy === 'none').writes, '', 'not computed yet: empty');
  const none = caseNamed('9.5 lifo').result; // any service result stands in for a collapse run
  const col = csvRecords(collapseCsv([none, null]));
  assert.equal(col.length, 80);
  assert.equal(col[12].noneSucceeded, String(none.timeline.bins[12].succeeded));
  assert.equal(col[12].jitterSucceeded, '');
  assert.equal(col[30].nonePeerSuccesses, '21'); // his spike_no_backoff, 30 s: 21 successes
});

test('<retry-lab view="fleet">: each field path in kebab-case per part is an attribute, its value as a link writes it', () => {
  assert.equal(attributeOfPath('server.dropStale'), 'server.drop-stale');
  assert.equal(attributeOfPath('gates.bucket.scope'), 'gates.bucket.scope');
  const read = (pairs) => readFleetAttributes(pairs, table);
  assert.deepEqual(read([['server.drop-stale', 'unfinishable'], ['policy.max-retries', '0'], ['policy.retry-on', 'timeout'], ['rate-per-client', '0.5']]),
    { request: { server: { dropStale: 'unfinishable' }, policy: { maxRetries: 0, retryOn: ['timeout'] }, ratePerClient: 0.5 }, problems: [] });
  assert.deepEqual(read([['gates.bucket', 'on'], ['gates.bucket.scope', 'fleet']]).request, { gates: { bucket: { scope: 'fleet' } } });
  // A link, which the attributes override.
  assert.deepEqual(read([['link', '#v=1&view=fleet&server.queueOrder=lifo&policy.maxRetries=5'], ['policy.max-retries', '1']]).request,
    { server: { queueOrder: 'lifo' }, policy: { maxRetries: 1 } });
  // Each unusable attribute is named as written.
  const bad = read([['policy.max-retries', 'many'], ['max-retries', '2'], ['colour', 'red'], ['link', '#v=1&maxRetries=2'], ['view', 'compare']]);
  assert.deepEqual(bad.problems.map((p) => p.key), ['max-retries', 'colour', 'link', 'view', 'policy.max-retries']);
  assert.match(bad.problems[0].reason, /did you mean policy\.max-retries\?/);
  assert.equal(bad.problems[4].reason, 'is not a number');
  assert.deepEqual(read([['link', '#v=1&view=fleet&policy.maxRetries=x']]).problems.map((p) => p.key), ['link (policy.maxRetries)']);
});

test('<retry-lab view="fleet">: a stack attribute (policy.layers) is read as a fleet link writes it, its ":" "~" ";" "," the format\'s own (issue 33)', () => {
  const read = (pairs) => readFleetAttributes(pairs, table);
  const layers = [{ name: 'agent', maxRetries: 2, retryOn: ['timeout', '5xx'] }, { name: 'pay SDK', key: 'mint' }];
  assert.deepEqual(read([['policy.layers', 'name:agent~maxRetries:2~retryOn:timeout;5xx,name:pay%20SDK~key:mint']]), { request: { policy: { layers } }, problems: [] });
  assert.deepEqual(read([['link', '#v=1&view=fleet&policy.layers=name:agent~maxRetries:2~retryOn:timeout;5xx,name:pay%20SDK~key:mint']]).request, { policy: { layers } });
  // What would end a link's part is the text's own: a name with "&" or "#".
  assert.deepEqual(read([['policy.layers', 'name:a&b#c']]).request, { policy: { layers: [{ name: 'a&b#c' }] } });
  assert.deepEqual(read([['policy.layers', 'null']]).request, { policy: { layers: null } });
  assert.deepEqual(read([['policy.layers', 'name:agent~colour:red']]).problems.map((p) => p.key), ['policy.layers']);
});

test('a gate’s controls are its rows in the table: a field or choice the engine adds appears with no edit in web/ (issue 31)', () => {
  // docs/engine.md §7.1's rule choices, each a choice row with both names, its default the gate's.
  const names = (gate) => gateFields(table, gate).map((f) => f.name);
  assert.deepEqual(names('quota'), ['capacity', 'retryCost', 'timeoutCost', 'successIncrement', 'refund']);
  assert.deepEqual(names('bucket'), ['capacity', 'deposit', 'cost', 'depositOn', 'allowWhen']);
  assert.deepEqual(names('throttle'), ['maxTokens', 'tokenRatio', 'countFailures']);
  const count = gateFields(table, 'throttle').find((f) => f.name === 'countFailures');
  assert.equal(count.row.type, 'choice');
  assert.deepEqual(count.row.choices.map((c) => c.name), ['all', 'retryable']);
  assert.equal(count.label, 'which failures take a token');
  assert.equal(gateDefaults(table, 'bucket').allowWhen, 'more-than-cost');
  // A row the engine might add (a scratch table: the real one with one more member) is a control too.
  const schema = fleetEngine.fleetSchema();
  const gates = schema.fleet.find((r) => r.name === 'gates');
  const budget = gates.members.find((g) => g.name === 'budget');
  budget.members.push({ name: 'scratch', type: 'choice', description: 'a scratch rule', default: 'a', choices: [{ name: 'a' }, { name: 'b' }] });
  const scratch = fleetTable(schema);
  assert.deepEqual(gateFields(scratch, 'budget').map((f) => [f.name, f.label]).pop(), ['scratch', 'a scratch rule']);
  assert.equal(gateDefaults(scratch, 'budget').scratch, 'a');
});

test('every gate of the table has a label of the section’s own, in the table’s order, so the comparison headline retrysim is built with (web/compare/headline.js fleetLabels, written without the engine) names each gate as the section does', () => {
  assert.deepEqual(Object.keys(GATE_LABELS), table.rows.get('gates').members.map((m) => m.name));
});

test('the gates are the table’s `gates` row’s members, in its order (issue 34: adaptive, local and admissionControl were missing from a hand list), each with its defaults and a link of its own', () => {
  const gates = gatesOf(table);
  const row = table.rows.get('gates');
  assert.deepEqual(gates.map((g) => g.name), row.members.map((m) => m.name));
  for (const name of ['adaptive', 'local', 'admissionControl']) assert.ok(gates.some((g) => g.name === name), name);
  for (const g of gates) assert.ok(g.label.length > 3, g.name);
  // docs/throttling.md §5: grpc-go's defaults; §7: Envoy's.
  assert.deepEqual(gateDefaults(table, 'local'), { scope: 'client', windowMs: 30000, bins: 100, ratio: 2, padding: 8 });
  assert.deepEqual(gateFields(table, 'local').map((f) => f.name), ['windowMs', 'bins', 'ratio', 'padding']);
  assert.deepEqual(gateDefaults(table, 'adaptive'), { scope: 'client' });
  // A gate's defaults are its row's, nothing kept by hand: a default the engine changes is the page's.
  const schema = fleetEngine.fleetSchema();
  schema.fleet.find((r) => r.name === 'gates').members.find((g) => g.name === 'bucket').members.find((m) => m.name === 'capacity').default = 7;
  assert.equal(gateDefaults(fleetTable(schema), 'bucket').capacity, 7);
  // A gate named in camel case rides the link: on, a field, off.
  const read = parseFleetLink('#v=1&view=fleet&gates.admissionControl=on&gates.local.ratio=1.1&gates.adaptive=on', table);
  assert.deepEqual(read.problems, []);
  assert.deepEqual(read.request.gates, { admissionControl: {}, local: { ratio: 1.1 }, adaptive: {} });
  const echo = { ...opening.request, gates: { ...opening.request.gates, admissionControl: gateDefaults(table, 'admissionControl'), local: { ...gateDefaults(table, 'local'), ratio: 1.1 } } };
  assert.equal(encodeFleetLink(requestDiff(echo, opening.request, table)), 'v=1&view=fleet&gates.local.ratio=1.1&gates.admissionControl=on', 'in the table’s order');
});

test('a request the local throttle refused ends in the reader’s words, not the engine’s reason', () => {
  const failed = Object.fromEntries(Object.keys(opening.totals.failed).map((k) => [k, 0]));
  const result = { ...opening, totals: { ...opening.totals, failed: { ...failed, 'local-throttle': 40, 'attempt-limit': 2 } } };
  const v = verdictOf(result);
  assert.match(v.text, /Of its 42 failed requests, 40 ended refused a send by client-side throttling, before it left the client\.$/);
  assert.doesNotMatch(v.text, /local-throttle/);
});

test('a gate rule choice rides the link and the request’s differences like any gate field, and is left out at its default', () => {
  const echo = { ...opening.request, gates: { ...opening.request.gates, quota: { scope: 'client', capacity: 500, retryCost: 5, timeoutCost: 10, successIncrement: 1, refund: 'cost-and-increment' } } };
  const diff = requestDiff(echo, opening.request, table);
  assert.deepEqual(diff, { gates: { quota: { refund: 'cost-and-increment' } } });
  const link = encodeFleetLink(diff);
  assert.equal(link, 'v=1&view=fleet&gates.quota.refund=cost-and-increment');
  assert.deepEqual(parseFleetLink(`#${link}`, table).request, diff);
  // A gate on at its defaults echoes no rule field, and its difference is {}.
  const plain = { ...opening.request, gates: { ...opening.request.gates, quota: { scope: 'client', capacity: 500, retryCost: 5, timeoutCost: 10, successIncrement: 1 } } };
  assert.deepEqual(requestDiff(plain, opening.request, table), { gates: { quota: {} } });
});

test('each fleet preset sets only gates, each with its source and what it cannot represent', () => {
  const presets = fleetPresets();
  const ids = presets.map((p) => p.id);
  for (const id of ['client:aws-botocore-standard', 'client:aws-botocore-2026', 'client:aws-sdk-go-v2', 'client:grpc-go-169', 'bucket:brooker-post', 'budget:finagle', 'budget:sre', 'client:resilience4j', 'client:dotnet-standard']) {
    assert.ok(ids.includes(id), id);
  }
  for (const p of presets) {
    assert.ok(Object.keys(p.gates).length > 0, p.id);
    assert.ok(Object.keys(p.gates).every((g) => ['quota', 'bucket', 'throttle', 'budget', 'breaker'].includes(g)), p.id);
    assert.ok(p.source && p.cannot.length > 0, p.id);
  }
  // The 2026 costs, as the client lab's sources read them (botocore: 14 for any retry).
  assert.deepEqual(presets.find((p) => p.id === 'client:aws-botocore-2026').gates.quota, { capacity: 500, retryCost: 14, timeoutCost: 14, successIncrement: 1 });
  // FLEET §5: the SRE book's 10 %.
  assert.deepEqual(presets.find((p) => p.id === 'budget:sre').gates.budget, { percent: 10, minPerSecond: 0 });
});

test('the copies of the anchors’ figures in web/fleet/reference.js are the reference files', async () => {
  const { AWS_2015_PEER, BROOKER_2022_POLICIES, BROOKER_2022_CLIENTS } = await import('../../../web/fleet/reference.js');
  const read = (file) => readFileSync(join(repo, 'spec/reference', file), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
  const aws = {};
  for (const [c, t, w, a] of read('aws-2015-peer-seed1.csv')) (aws[a] = aws[a] || []).push([+c, +t, +w]);
  for (const k of Object.keys(aws)) aws[k].sort((x, y) => x[0] - y[0]);
  assert.deepEqual(AWS_2015_PEER, aws);
  for (const [file, copy] of [['brooker-2022-policies.csv', BROOKER_2022_POLICIES], ['brooker-2022-clients.csv', BROOKER_2022_CLIENTS]]) {
    const by = {};
    for (const [p, s, t, u, n] of read(file)) (by[n] = by[n] || []).push([+p, +s, +t, +u]);
    assert.deepEqual(copy, by, file);
  }
});

// A fake page for fleetComputer: a clock the test moves, timers it runs, and workers that
// answer when the test says so.
function fakeView() {
  const view = { now: 0, workers: [], timers: [] };
  view.performance = { now: () => view.now };
  view.setTimeout = (fn) => { view.timers.push(fn); return view.timers.length; };
  view.clearTimeout = () => {};
  view.Worker = class {
    constructor(url) { this.url = url; this.listeners = {}; this.posted = []; this.ended = false; view.workers.push(this); }
    addEventListener(type, fn) { this.listeners[type] = fn; }
    postMessage(message) { this.posted.push(message); }
    terminate() { this.ended = true; }
    // The worker's answer to its last job: each result, then done.
    answer(results) {
      const { id } = this.posted[this.posted.length - 1];
      results.forEach((result, index) => this.listeners.message({ data: { id, index, result } }));
      this.listeners.message({ data: { id, done: true } });
    }
  };
  return view;
}

test('a newer input replaces a waiting one, a stale computation’s results are dropped, and one running over 300 ms is ended', async () => {
  const { fleetComputer, STALE_MS } = await import('../../../web/fleet/compute.js');
  const view = fakeView();
  const c = fleetComputer(view, { engineUrl: 'e.js', bundleUrl: 'b.js', mainEngine: () => Promise.reject(new Error('no')) });
  const seen = [];
  const handlers = (name) => ({ onResult: (i, r) => seen.push(`${name} result ${r}`), onDone: () => seen.push(`${name} done`) });
  c.run(['a'], handlers('A'));
  assert.equal(view.workers.length, 1);
  view.now = 100; // A is young: B waits for it, then C replaces B
  c.run(['b'], handlers('B'));
  c.run(['c'], handlers('C'));
  view.workers[0].answer(['ra']); // A finishes: its results are stale (C is newer), and C starts
  assert.deepEqual(seen, []);
  assert.deepEqual(view.workers[0].posted.map((m) => m.requests), [['a'], ['c']]);
  view.workers[0].answer(['rc']);
  assert.deepEqual(seen, ['C result rc', 'C done']);
  // D runs past STALE_MS: E ends its worker and starts in a fresh one.
  c.run(['d'], handlers('D'));
  view.now += STALE_MS + 1;
  c.run(['e'], handlers('E'));
  assert.equal(view.workers[0].ended, true);
  assert.equal(view.workers.length, 2);
  view.workers[1].answer(['re']);
  assert.deepEqual(seen.slice(2), ['E result re', 'E done']);
  assert.equal(c.busy(), false);
});

test('the field table is asked of the worker once, and of the engine on the page when the worker cannot answer', async () => {
  const { fleetComputer } = await import('../../../web/fleet/compute.js');
  const view = fakeView();
  const table = { fleet: [] };
  const c = fleetComputer(view, { engineUrl: 'e.js', bundleUrl: 'b.js', mainEngine: () => Promise.reject(new Error('not on the page')) });
  const asked = c.schema();
  assert.equal(c.schema(), asked, 'one question, however often it is asked');
  const [w] = view.workers;
  assert.deepEqual(w.posted.map((m) => m.schema), [true]);
  w.listeners.message({ data: { id: w.posted[0].id, schema: table } });
  assert.equal(await asked, table);
  // A worker that cannot load the engine: the page's engine is asked instead.
  const onPage = { fleetSchema: () => ({ fleet: ['on the page'] }) };
  const view2 = fakeView();
  const c2 = fleetComputer(view2, { engineUrl: 'e.js', bundleUrl: 'b.js', mainEngine: () => Promise.resolve(onPage) });
  const asked2 = c2.schema();
  view2.workers[0].listeners.message({ data: { id: view2.workers[0].posted[0].id, error: 'importScripts failed' } });
  assert.deepEqual(await asked2, { fleet: ['on the page'] });
  assert.equal(c2.where(), 'main');
});

test('each view’s link is recognised by one reader: the single run’s, compare’s or the fleet’s', async () => {
  const { isLink, linkCodec } = await import('../../../web/share/codec.js');
  const { isCompareLink } = await import('../../../web/share/compare-link.js');
  const readers = (hash) => [isLink(hash) && 'single', isCompareLink(hash) && 'compare', isFleetLink(hash) && 'fleet'].filter(Boolean);
  for (const [hash, want] of [
    ['#v=1&maxRetries=2', ['single']],
    ['#v=1&view=fleet&policy.maxRetries=0', ['fleet']],
    ['#v=1&view=fleet', ['fleet']],
    ['#view=fleet', ['fleet']],
    ['#v=1&view=compare&after.maxRetries=3', ['compare']],
    ['#v=1&view=compare&of=fleet&after.policy.maxRetries=0', ['compare']],
    // A view no reader takes is the single run's, which names the key it cannot use.
    ['#v=1&view=fleets&maxRetries=2', ['single']],
    ['#v=1&view=&maxRetries=2', ['single']],
    ['#v=1&preview=fleet', ['single']],
    // Anchors on the page are no link at all.
    ['#fleet', []],
    ['#experiment', []],
    ['', []],
  ]) assert.deepEqual(readers(hash), want, hash);
  const pageEngine = await require(join(DIST, 'retrylab-engine.js'))();
  const read = linkCodec(pageEngine.schema()).parseLink('#v=1&view=fleets&maxRetries=2');
  assert.equal(read.inputs.maxRetries, 2);
  assert.deepEqual(read.problems.map((p) => [p.key, p.value]), [['view', 'fleets']]);
});

test('the hedging switch runs A6’s form (docs/throttling.md §8’s kind is its discriminator, not a control): maxAttempts needed at the default kind, the least value to start', () => {
  assert.deepEqual(table.rows.get('policy.hedging.kind').choices.map((c) => c.name), ['a6', 'per-try-timeout']);
  assert.deepEqual(switchFields(table, 'policy.hedging').map((f) => f.name), ['maxAttempts', 'delayMs', 'nonFatal']);
  const d = switchDefaults(table, 'policy.hedging');
  assert.deepEqual(d, { kind: 'a6', maxAttempts: 2, delayMs: 0, nonFatal: [] });
  assert.deepEqual(switchValue(table, 'policy.hedging', d), { maxAttempts: 2 });
  assert.deepEqual(switchValue(table, 'policy.hedging', { ...d, delayMs: 200 }), { maxAttempts: 2, delayMs: 200 });
  // §8's form has no closed form of its own: the figure says why.
  assert.match(hedgingForm({ policy: { hedging: { kind: 'per-try-timeout' } } }).why, /gRPC A6/);
});
