// docs/metastability.md in node: the closed forms (web/fleet/closed.js) against the figures the
// doc works by hand, the recovery rule's JS copy against the independent model's results, the
// verdict's words from `recovery.disrupted`, and the maps' cells, lines and files (map.js). The
// results read are the independent model's (spec/conformance/fleet-cases.json).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collapseEdges, fluidEdge, fluidRun, fluidUnfit, stormEdge, windowVerdict } from '../../../web/fleet/closed.js';
import { MAPS, axisPosition, cellVerdict, mapCells, mapCsv, mapLines, mapSvg, markedCell, runState } from '../../../web/fleet/map.js';
import { mapLinkKeys } from '../../../web/fleet/stability.js';
import { PRESETS, collapseDown, collapseMeasured, presetClosedForm } from '../../../web/fleet/literature.js';
import { verdictOf, parseFleetLink } from '../../../web/fleet/model.js';
import { toMarkup } from '../../../web/dom.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const CASES = JSON.parse(readFileSync(join(repo, 'spec/conformance/fleet-cases.json'), 'utf8')).cases;
const caseNamed = (name) => CASES.find((c) => c.name === name);
const opening = caseNamed('9.5 the opening fleet run').result;
const echo = opening.request; // FLEET.md §3's defaults, as the independent model echoes them
const healthy = caseNamed('8 a healthy fleet at 18 requests a second is not metastable').result;
const withTrigger = (t) => ({ ...echo, trigger: { ...echo.trigger, ...t } });

test('§1: the opening fleet run’s lower edge is 200 / 4 = 50 requests a second; HotOS §2.1’s is 300 / 2 = 150, its budget edge 300 − 280 = 20', () => {
  const e = stormEdge(echo);
  assert.deepEqual([e.capacity, e.attempts, e.lower, e.upper, e.lambda, e.state, e.lowerPerClient, e.upperPerClient], [200, 4, 50, 200, 100, 'bistable', 0.5, 2]);
  const one = stormEdge({ ...echo, policy: { ...echo.policy, maxRetries: 1 } });
  assert.deepEqual([one.lower, one.state], [100, 'bistable'], 'at N·λ = μ exactly the storm is not drained: the bad side');
  assert.equal(stormEdge({ ...echo, ratePerClient: 0.45 }).state, 'stable');
  assert.equal(stormEdge({ ...echo, ratePerClient: 2 }).state, 'overloaded');
  const hotos = { ...echo, clients: 280, server: { ...echo.server, workers: 30, serviceMs: 100 }, policy: { ...echo.policy, maxRetries: 1 } };
  const h = stormEdge(hotos);
  assert.deepEqual([h.capacity, h.lower, h.capacity - h.lambda], [300, 150, 20]);
  assert.match(presetClosedForm(PRESETS[0], hotos), /μ \/ 2 = 150 QPS \(the paper’s 150\).*r ≥ μ − λ = 20 \(the paper’s 20\)/);
  assert.match(stormEdge({ ...echo, server: { ...echo.server, workers: null } }).why, /no worker limit/);
  assert.match(stormEdge({ ...echo, server: { ...echo.server, serviceMsPerInFlight: 1 } }).why, /collapse model/);
});

test('§3: Brooker’s collapse: the good state ends at 450/7 ≈ 64.29 requests a second, the bad begins at 150/7 ≈ 21.43', () => {
  const collapse = PRESETS.find((p) => p.id === 'collapse').runs[0].request;
  const full = { ...echo, ...collapse, server: { ...echo.server, ...collapse.server }, policy: { ...echo.policy, ...collapse.policy }, network: collapse.network };
  const c = collapseEdges(full);
  assert.ok(Math.abs(c.good - 450 / 7) < 1e-9, c.good);
  assert.ok(Math.abs(c.bad - 150 / 7) < 1e-9, c.bad);
  assert.deepEqual([c.attempts, c.ceiling, c.room], [3, 100, 2800]);
  assert.match(collapseEdges(echo).why, /no worker limit/);
});

test('the recovery rule’s copy (windowVerdict) gives the independent model’s `recovery` for every case with a trigger', () => {
  let n = 0;
  for (const c of CASES) {
    const r = c.result;
    if (!r || !r.ok || !r.recovery || !r.timeline) continue;
    const bins = r.timeline.bins;
    const got = windowVerdict(bins.map((b) => b.created), bins.map((b) => b.succeeded), {
      binMs: r.timeline.binMs, durationMs: r.request.durationMs, startMs: r.request.trigger.startMs, endMs: r.request.trigger.endMs,
    });
    assert.deepEqual(got, { recoveredAtMs: r.recovery.recoveredAtMs, metastable: r.recovery.metastable, disrupted: r.recovery.disrupted }, c.name);
    n += 1;
  }
  assert.ok(n >= 40, `${n} cases`);
});

test('§2, by hand: a ×4 slowdown of at most 1.58 s costs the fluid fleet no timeout; in a longer one flow first times out at t₀ + 1.785 s; 10 s stays down', () => {
  const short = fluidRun(withTrigger({ endMs: 10750 }));
  assert.equal(short.firstTimeoutMs, null);
  assert.equal(short.verdict.disrupted, false);
  const created = short.created.reduce((a, b) => a + b);
  const succeeded = short.succeeded.reduce((a, b) => a + b);
  assert.ok(Math.abs(created - 6000) < 1e-6, created);
  assert.ok(created - succeeded < 100 * 0.06 + 1e-6, 'only the last 60 ms of requests answer after the end');
  // No timeout unless the slowdown lasts until flow that arrived 0.79 s in is served: 1.58 s.
  assert.equal(fluidRun(withTrigger({ endMs: 10850 })).verdict.disrupted, false);
  assert.equal(fluidRun(withTrigger({ endMs: 11550 })).firstTimeoutMs, null);
  const just = fluidRun(withTrigger({ endMs: 11600 }));
  assert.ok(just.firstTimeoutMs !== null && Math.abs(just.firstTimeoutMs - 11785) <= 5, just.firstTimeoutMs);
  const long = fluidRun(echo);
  assert.ok(Math.abs(long.firstTimeoutMs - 11785) <= 5, long.firstTimeoutMs);
  assert.deepEqual(long.verdict, { recoveredAtMs: null, metastable: true, disrupted: true });
  // ×2: the slowed server (100 a second) keeps up with 100 a second of new requests.
  assert.deepEqual(fluidRun(withTrigger({ factor: 2 })).verdict.metastable, false);
});

test('§2: the fluid model’s shortest slowdown that stays down lies past 0.79 s, shortens as the factor grows, and is none at ×2', () => {
  const edges = [3, 4, 5, 10].map((f) => fluidEdge(echo, f).lengthMs);
  assert.ok(edges.every((e) => e > 790), edges);
  for (let i = 1; i < edges.length; ++i) assert.ok(edges[i] < edges[i - 1], edges);
  // docs/metastability.md §2's figures, which the doc reads from this model.
  assert.deepEqual(edges, [3520, 2555, 2205, 1765]);
  const none = fluidEdge(echo, 2);
  assert.equal(none.lengthMs, null);
  assert.match(none.why, /no slowdown of ×2 up to 45 s leaves it down/);
  // Just under the edge the model recovers, at it it stays.
  assert.equal(fluidRun(withTrigger({ endMs: 10000 + edges[1] - 50 })).verdict.metastable, false);
  assert.equal(fluidRun(withTrigger({ endMs: 10000 + edges[1] })).verdict.metastable, true);
  assert.match(fluidUnfit({ ...echo, server: { ...echo.server, dropStale: 'expired' } }), /drops nothing/);
  assert.match(fluidUnfit({ ...echo, policy: { ...echo.policy, jitter: 'decorrelated' } }), /decorrelated/);
  assert.equal(fluidUnfit(echo), null);
});

test('the verdict tells the truth in words: rode it out when not disrupted, recovered N s after, still down', () => {
  const v18 = verdictOf(healthy);
  assert.equal(v18.kind, 'rode-out');
  assert.match(v18.text, /^Rode it out: /);
  assert.doesNotMatch(v18.text, /Recovered/);
  const none = verdictOf(caseNamed('9.5 no retries').result);
  assert.equal(none.kind, 'recovered');
  assert.match(none.text, /^Recovered 3 s after the slowdown ended, at 23 s: /);
  const lifo = verdictOf(caseNamed('9.5 lifo').result);
  assert.match(lifo.text, /^Recovered 0 s after the slowdown ended, at 20 s: /, 'knocked down, and back by the slowdown’s end');
  const down = verdictOf(opening);
  assert.equal(down.kind, 'metastable');
  assert.match(down.text, /^Still down when new requests stopped at 60 s: a metastable failure\./);
  assert.deepEqual([v18.shortText, none.shortText, lifo.shortText, down.shortText],
    ['rode it out', 'recovered 3 s after the slowdown ended', 'recovered 0 s after the slowdown ended', 'still down when new requests stopped']);
  // A relation over every case: "rode it out" exactly when not disrupted; never "Recovered" then.
  for (const c of CASES) {
    const r = c.result;
    if (!r || !r.ok || !r.recovery) continue;
    const v = verdictOf(r);
    assert.equal(v.kind === 'rode-out', r.recovery.disrupted === false, c.name);
    if (!r.recovery.disrupted) assert.doesNotMatch(v.text, /Recovered|recovered at/, c.name);
    // The short words (the figure near a control, the SVG file, a comparison's side) say the
    // same three states, a recovery as its lag after the trigger's end, never as a clock time.
    const what = r.request.trigger.kind === 'outage' ? 'outage' : 'slowdown';
    const lag = (r.recovery.recoveredAtMs - r.recovery.triggerEndMs) / 1000;
    const short = { 'rode-out': 'rode it out', metastable: 'still down when new requests stopped', recovered: `recovered ${Number.isInteger(lag) ? lag : lag.toFixed(1)} s after the ${what} ended` }[v.kind];
    if (short) assert.equal(v.shortText, short, c.name);
    assert.equal(runState(r), v.kind, c.name);
  }
});

test('a map cell’s verdict: ok, +N, down, and the seeds disagreeing shown as such', () => {
  const at = (rec) => ({ ok: true, recovery: { triggerEndMs: 20000, ...rec } });
  const rode = at({ recoveredAtMs: 20000, metastable: false, disrupted: false });
  const back = at({ recoveredAtMs: 23000, metastable: false, disrupted: true });
  const later = at({ recoveredAtMs: 25500, metastable: false, disrupted: true });
  const stuck = at({ recoveredAtMs: null, metastable: true, disrupted: true });
  assert.deepEqual([cellVerdict([rode]).kind, cellVerdict([rode]).text], ['rode-out', 'ok']);
  assert.deepEqual([cellVerdict([back]).kind, cellVerdict([back]).text, cellVerdict([back]).words], ['recovered', '+3', 'recovered 3 s after the slowdown ended']);
  assert.equal(cellVerdict([back, later]).words, 'recovered 3–5.5 s after the slowdown ended');
  assert.deepEqual([cellVerdict([stuck]).kind, cellVerdict([stuck]).text], ['metastable', 'down']);
  const mixed = cellVerdict([back, stuck, stuck]);
  assert.deepEqual([mixed.kind, mixed.text, mixed.down], ['mixed', '2/3↓', 2]);
  assert.equal(mixed.words, 'the seeds disagree: 1 recovered, 2 stayed down');
  assert.equal(cellVerdict([rode, back]).kind, 'mixed', 'riding it out and recovering are different states');
  assert.equal(cellVerdict([back, undefined], 2).kind, 'pending');
  assert.equal(cellVerdict([{ ok: false, errors: [{ message: 'bad' }] }]).kind, 'error');
});

test('the maps’ cells: 12 × 12 requests at each seed, the run on show marked, the lines where §1 and §2 put them', () => {
  const cells = mapCells('trigger', {}, echo, 3);
  assert.equal(cells.length, 144);
  const c = cells.find((x) => x.r === 4 && x.c === 2.5);
  assert.deepEqual(c.requests[0].trigger, { kind: 'slowdown', startMs: 10000, endMs: 12500, factor: 4 });
  assert.deepEqual(c.requests.map((r) => r.seed), [undefined, 2, 3]);
  assert.deepEqual(markedCell('trigger', echo), [5, 11]);
  assert.deepEqual(markedCell('load', echo), [8, 3]);
  const load = mapCells('load', {}, echo, 1).find((x) => x.r === 0.5 && x.c === 7).requests[0];
  assert.deepEqual([load.ratePerClient, load.policy.maxRetries, load.trigger.factor], [0.5, 7, 4]);
  // The lower edge at k retries lies at 2 / (k + 1) per client: k = 3 → 0.5 (row 5's centre),
  // k = 1 → 1 (row 8's), k = 0 → 2 (row 11's, where the upper edge lies too).
  const [lower, upper] = mapLines('load', { edge: stormEdge(echo), clients: 100 });
  assert.deepEqual([lower.points[3], lower.points[1], lower.points[0]], [[3.5, 5.5], [1.5, 8.5], [0.5, 11.5]]);
  assert.deepEqual(upper.points, [[0, 11.5], [12, 11.5]]);
  assert.equal(lower.points[11][1].toFixed(4), (0.5 + (1 / 6 - 0.15) / 0.05).toFixed(4), 'k = 11: 1/6 between 0.15 and 0.2');
  // The fluid line at ×4 (2.555 s) between the 2.5 s and 3 s columns.
  assert.ok(Math.abs(axisPosition(MAPS.trigger.cols, 2.555) - 4.61) < 1e-9);
  const [fluid] = mapLines('trigger', { fluid: new Map([[4, { lengthMs: 2555 }], [2, { lengthMs: null }]]) });
  assert.deepEqual([fluid.points[5][1], fluid.points[1]], [5.5, null]);
});

test('the map’s files: a CSV row per cell and seed, an SVG with its cells and lines; its link keys', () => {
  const cells = mapCells('trigger', {}, echo, 1);
  const results = new Map([['5:11:0', opening]]);
  const csv = mapCsv('trigger', cells, results, 1).split('\r\n');
  assert.equal(csv.length, 1 + 144 + 1);
  assert.equal(csv[0], 'slowdown ×,slowdown length (s),seed,cell verdict,run verdict,disrupted,recoveredAtMs,metastable,triggerEndMs,requests,succeeded');
  assert.ok(csv.includes(`4,10,1,metastable,metastable,true,,true,20000,${opening.totals.requests},${opening.totals.succeeded}`), csv.slice(60, 70));
  const verdicts = new Map([['5:11', cellVerdict([opening])]]);
  const svg = toMarkup(mapSvg('trigger', cells, verdicts, { title: 't', lines: mapLines('trigger', { fluid: new Map([[4, { lengthMs: 2555 }], [5, { lengthMs: 2205 }]]) }) }));
  assert.match(svg, /<title>a 10 s slowdown of ×4: still down when new requests stopped: a metastable failure\.<\/title>down<\/text>/);
  assert.match(svg, /fluid model: the shortest slowdown that stays down/);
  assert.deepEqual(mapLinkKeys('#v=1&view=fleet&policy.maxRetries=2&map=load&seeds=3'), { kind: 'load', seeds: 3 });
  assert.deepEqual(mapLinkKeys('#v=1&view=fleet&map=other&seeds=4'), { kind: null, seeds: null });
  assert.deepEqual(parseFleetLink('#v=1&view=fleet&map=load&seeds=3', { rows: new Map() }).problems, [], 'the fleet link’s reader leaves the map’s keys alone');
});

test('Brooker’s measured edges from a preset’s runs: the highest rate that holds below the lowest that falls', () => {
  const p = PRESETS.find((x) => x.id === 'collapse');
  const run = (down) => ({ request: { durationMs: 80000 }, timeline: { binMs: 1000, bins: Array.from({ length: 80 }, (_, i) => ({ succeeded: down && i >= 30 ? 0 : 5 })) } });
  assert.equal(collapseDown(run(true)), true);
  assert.equal(collapseDown(run(false)), false);
  const results = new Map(p.runs.map((r) => [r.key, run(r.spike ? r.rate >= 22 : r.rate >= 58)]));
  assert.deepEqual(collapseMeasured(p.runs, results), { good: [56, 58], bad: [20, 22] });
});
