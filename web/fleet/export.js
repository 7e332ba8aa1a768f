// The fleet's downloads (pure: text in, text out; the section saves them with
// export/download.js): the storm's timeline as CSV, one row per bin with the bin's own fields
// (FLEET.md §8) and what the chart derives from them; the storm chart as an SVG file with a
// title, the verdict and a key; the three reproductions' figures as CSV. File names say the
// run, as the single run's downloads do (export/download.js's runFileName).

import { h, toMarkup } from '../dom.js';
import { toCsv } from '../export/csv.js';
import { LIGHT } from '../export/svg.js';
import { seriesDrawn, stormChart } from './chart.js';
import { stormSeries, verdictOf } from './model.js';
import { CLIENTS, STRATEGIES, peerPoint } from './aws2015.js';
import { CLIENT_COUNTS, POLICIES, peerRowsOf } from './brooker.js';
import { BROOKER_2022_CLIENTS, BROOKER_COLLAPSE } from './reference.js';
import { COLLAPSE_RUNS } from './collapse.js';

const cell = (v) => (v === null || v === undefined ? '' : String(v));

// --- the storm's timeline -----------------------------------------------------------------------

// A bin field that is a list of objects (`servers`, one per server with many servers,
// docs/servers.md) is one column per item and member, `servers[0].attempts` (the path as the
// engine's errors write one, docs/engine.md §4), items in order, members in the engine's order:
// a number in each cell, for a spreadsheet to sum or chart.
const isObjectList = (v) => Array.isArray(v) && v.length > 0 && v.every((x) => x && typeof x === 'object' && !Array.isArray(x));
const binFields = (bin) => Object.entries(bin).flatMap(([k, v]) => (isObjectList(v)
  ? v.flatMap((item, i) => Object.keys(item).map((m) => ({ name: `${k}[${i}].${m}`, of: (b) => b[k][i][m] })))
  : [{ name: k, of: (b) => b[k] }]));

// The bin's own fields in the engine's order (every bin has the same; its `capacity` the
// servers' capacity in the bin, docs/fleet.md), then what the chart derives: `offered` (first
// attempts + retries sent in the bin).
export function timelineColumns(result) {
  const bins = result.timeline.bins;
  return ['startMs', 'endMs', ...(bins.length ? binFields(bins[0]).map((f) => f.name) : []), 'offered'];
}

export function timelineCsv(result) {
  const { binMs, bins } = result.timeline;
  const own = bins.length ? binFields(bins[0]) : [];
  const rows = bins.map((b, i) => [i * binMs, (i + 1) * binMs, ...own.map((f) => cell(f.of(b))), b.firstAttempts + b.retries]);
  return toCsv([timelineColumns(result), ...rows]);
}

// --- names ----------------------------------------------------------------------------------------

const GATE_WORDS = { quota: 'quota', bucket: 'token bucket', throttle: 'throttle', budget: 'budget', breaker: 'breaker' };

// What the run is, in words: the fleet, the trigger, the policy, the server's rules, the gates.
export function fleetTitle(result) {
  const r = result.request;
  if (r.workload === 'occ') return `occ, ${r.clients} clients, ${r.policy.jitter} jitter`;
  const t = r.trigger;
  const trigger = !t ? 'no trigger' : t.kind === 'outage' ? `outage ${t.startMs / 1000}–${t.endMs / 1000} s` : `slowdown ×${t.factor} ${t.startMs / 1000}–${t.endMs / 1000} s`;
  const gates = Object.entries(r.gates || {}).filter(([, g]) => g).map(([name, g]) => `${GATE_WORDS[name] || name}${g.scope === 'fleet' ? ' (fleet)' : ''}`);
  return [
    `${r.clients} clients at ${r.ratePerClient}/s`, trigger,
    `${r.policy.maxRetries === null ? 'unlimited' : r.policy.maxRetries} retries`, `jitter ${r.policy.jitter}`,
    `drop stale ${r.server.dropStale}`, r.server.queueOrder,
    gates.length ? gates.join(' + ') : 'no gate',
  ].join(', ');
}

const slug = (text) => text.toLowerCase().replace(/×/g, 'x').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

// "retry-lab-fleet-100-clients-at-1-s-slowdown-x4-10-20-s-3-retries-…-metastable-timeline.csv"
export function fleetFileName(result, part, extension) {
  const verdict = result.recovery ? verdictOf(result).kind : 'no-trigger';
  return `retry-lab-fleet-${slug(fleetTitle(result))}-${verdict}-${part}.${extension}`;
}

// --- the storm chart as a file ----------------------------------------------------------------------

// The chart's classes painted in the light theme (css/tokens.css, as export/svg.js's LIGHT).
const STYLE = [
  `svg{font:12px system-ui,sans-serif}`, `text{fill:${LIGHT.fg}}`, `.fl-tick{fill:${LIGHT.muted}}`,
  `.fl-axis{stroke:${LIGHT.muted}}`, `.fl-grid{stroke:${LIGHT.rule};stroke-width:.5}`, `.fl-trigger{fill:${LIGHT.chargeSoft}}`,
  `.fl-line{stroke-width:2}`, `.fl-offered{stroke:${LIGHT.client};fill:${LIGHT.client}}`, `.fl-capacity{stroke:${LIGHT.fg};fill:${LIGHT.fg}}`,
  `.fl-succeeded{stroke:${LIGHT.replay};fill:${LIGHT.replay}}`, `.fl-timeouts{stroke:${LIGHT.error};fill:${LIGHT.error}}`, `.fl-throttled{stroke:${LIGHT.deadline};fill:${LIGHT.deadline}}`, `.fl-send-rate{stroke:${LIGHT.wait};fill:${LIGHT.wait}}`, `path.fl-send-rate{stroke-width:2.5}`,
  `path.fl-line{fill:none}`, `.fl-queue{fill:${LIGHT.lost};opacity:.45}`, `text.fl-queue-label{fill:${LIGHT.fg}}`,
  `text.fl-note{paint-order:stroke;stroke:${LIGHT.panel};stroke-width:4px;stroke-linejoin:round}`, `.fl-mark{stroke:${LIGHT.fg};stroke-dasharray:3 3}`, `.fl-mark-good{stroke:${LIGHT.replay};stroke-width:2}`, '.fl-cursor{display:none}',
  `.fl-in-time{fill:#e3f4e8;stroke:${LIGHT.replay};stroke-width:.75}`, `.fl-late{stroke:${LIGHT.charge};stroke-width:.75}`,
  `.fl-late-ground{fill:${LIGHT.panel}}`, `.fl-late-hatch{stroke:${LIGHT.charge};stroke-width:2}`, `text.fl-in-time{fill:${LIGHT.replay}}`, `text.fl-late{fill:${LIGHT.charge}}`,
  `text.fl-label{paint-order:stroke;stroke:${LIGHT.panel};stroke-width:4px;stroke-linejoin:round}`,
].join('');

const HEAD = 56;
const KEY = 44;

// The key: each series' line with its dash and label, the queue's area, the slowdown's shade.
function chartKey(y, points) {
  const items = [
    ...seriesDrawn(points).map(([, label, cls, dash]) => [label, (x) => h('line', { class: `fl-line ${cls}`, x1: x, y1: y, x2: x + 24, y2: y, 'stroke-dasharray': dash || null })]),
    ['served in time', (x) => h('rect', { class: 'fl-in-time', x, y: y - 5, width: 24, height: 10 })],
    ['served, answered after the caller had gone', (x) => h('rect', { class: 'fl-late', x, y: y - 5, width: 24, height: 10, fill: 'url(#fleet-hatch)' })],
    ['waiting (the queue, log scale)', (x) => h('rect', { class: 'fl-queue', x, y: y - 5, width: 24, height: 10 })],
    ['the slowdown', (x) => h('rect', { class: 'fl-trigger', x, y: y - 5, width: 24, height: 10 })],
  ];
  const out = [];
  let x = 16;
  let row = 0;
  for (const [label, mark] of items) {
    const w = 34 + label.length * 6.4;
    if (x + w > 704 && x > 16) { x = 16; row += 1; }
    out.push(/** @type {(x: number) => import('../dom.js').VNode} */ (mark)(x), h('text', { class: 'fl-tick', x: x + 30, y: y + row * 18 + 4 }, label));
    x += w;
  }
  return { tree: h('g', { 'data-part': 'key' }, out), rows: row + 1 };
}

// The SVG file's text: "Retry Lab · <the run>", its verdict, the chart, and the key.
export function stormSvg(result) {
  const series = stormSeries(result);
  const chart = stormChart(series, { id: 'fleet' });
  const verdict = verdictOf(result);
  const height = Number(chart.attrs.height);
  const key = chartKey(HEAD + height + 18, series.points);
  const total = HEAD + height + KEY + (key.rows - 1) * 18;
  const file = h('svg', { xmlns: 'http://www.w3.org/2000/svg', width: chart.attrs.width, height: total, viewBox: `0 0 ${chart.attrs.width} ${total}` },
    h('title', {}, `Retry Lab fleet: ${verdict.text}`),
    h('style', {}, STYLE),
    h('rect', { width: '100%', height: '100%', fill: LIGHT.panel }),
    h('text', { x: 16, y: 22, 'font-size': 15, 'font-weight': 700 }, `Retry Lab · ${fleetTitle(result)}`),
    h('text', { x: 16, y: 42, 'font-size': 13, 'font-weight': 600, fill: verdict.kind === 'metastable' ? LIGHT.charge : verdict.kind === 'recovered' || verdict.kind === 'rode-out' ? LIGHT.replay : LIGHT.fg }, `Verdict: ${verdict.shortText}.`),
    h('g', { 'data-part': 'chart', transform: `translate(0 ${HEAD})` }, chart.children),
    key.tree);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${toMarkup(file)}\n`;
}

// --- the reproductions' figures ---------------------------------------------------------------------

// AWS 2015: per client count and strategy, the engine's means and the peer's.
export function awsCsv(points) {
  /** @type {Array<Array<string | number>>} */
  const rows = [['clients', 'strategy', 'writes', 'makespanMs', 'failures', 'peerWrites', 'peerMakespanMs']];
  for (const c of CLIENTS) {
    for (const s of STRATEGIES) {
      const m = points.get(`${s.key}:${c}`);
      const p = peerPoint(s.key, c);
      rows.push([c, s.key, cell(m && m.writes), cell(m && m.makespanMs), cell(m && m.failures), cell(p && p.writes), cell(p && p.makespanMs)]);
    }
  }
  return toCsv(rows);
}

// Brooker 2022: per policy (and client count) and failure rate, the engine's totals and his.
export function brookerCsv(points) {
  const rows = [['series', 'clients', 'failureRate', 'requests', 'succeeded', 'attempts', 'successRate', 'load', 'peerSuccesses', 'peerCalls', 'peerUniqueCalls']];
  const add = (name, key, clients, peerRows) => {
    for (const [p, s, t, u] of peerRows) {
      const m = points.get(`${key}:${p}`);
      rows.push([name, clients, p, cell(m && m.requests), cell(m && m.succeeded), cell(m && m.attempts), cell(m && m.successRate), cell(m && m.load), cell(s), cell(t), cell(u)]);
    }
  };
  for (const pol of POLICIES) add(pol.key, pol.key, 100, peerRowsOf(pol.peer));
  for (const c of CLIENT_COUNTS) add(`bucket-${c.clients}-clients`, `c${c.clients}`, c.clients, BROOKER_2022_CLIENTS[c.peer]);
  return toCsv(rows);
}

// The collapse: per second, each run's successes, retries and timeouts, and his runs' successes.
export function collapseCsv(results) {
  /** @type {Array<string | number>} */
  const head = ['second'];
  for (const run of COLLAPSE_RUNS) head.push(`${run.key}Succeeded`, `${run.key}Retries`, `${run.key}Timeouts`, `${run.key}PeerSuccesses`);
  const rows = [head];
  for (let s = 0; s < 80; ++s) {
    /** @type {Array<string | number>} */
    const row = [s];
    COLLAPSE_RUNS.forEach((run, i) => {
      const b = results[i] && results[i].timeline.bins[s];
      const peer = BROOKER_COLLAPSE[run.peer].find((r) => r[0] === s);
      row.push(cell(b && b.succeeded), cell(b && b.retries), cell(b && b.timeouts), cell(peer && peer[2]));
    });
    rows.push(row);
  }
  return toCsv(rows);
}
