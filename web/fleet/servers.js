// The storm server by server (pure: a virtual tree from dom.js; issue 39, docs/servers.md §8.3).
// A run with `servers` (or a fault) has a row per server in `totals.servers`, a `servers` array in
// every bin and a verdict per server in `recovery.servers`; this module turns them into the
// per-server strip under the storm (one small plot per server on the storm's own time axis:
// its attempts a second as a line, those answered in time as a solid area, its late answers
// hatched above them), the per-server verdicts in words, and the table a screen reader reads.
// Nothing here re-derives a count: each figure is a field of the result.

import { h } from '../dom.js';
import { timeAxisMs } from './chart.js';

const W = 750;
const MIN_W = 280;
const fmt = (n) => (Math.abs(n) >= 1000 ? Math.round(n).toLocaleString('en-US') : String(Math.round(n * 10) / 10));
const round1 = (n) => Math.round(n * 10) / 10;
const sec = (ms) => `${fmt(ms / 1000)} s`;

// Whether a result has the per-server rows (docs/servers.md §8.3: with `servers` not null or a fault).
export const hasServers = (result) => Boolean(result && result.totals && Array.isArray(result.totals.servers));

// The most rows the strip draws; the table lists every server.
export const DRAWN_ROWS = 20;

// One server's verdict (recovery.servers[j], FLEET.md §8's rule on its own bins) in words:
// { kind, words }, the kinds the fleet's verdict uses (model.js verdictOf).
export function serverVerdict(rec) {
  if (!rec) return { kind: 'none', words: 'no verdict (nothing goes wrong in this run)' };
  if (rec.disrupted === false) return { kind: 'rode-out', words: 'never disrupted' };
  if (rec.recoveredAtMs !== null) return { kind: 'recovered', words: `disrupted; healthy again from ${sec(rec.recoveredAtMs)}` };
  if (rec.metastable) return { kind: 'metastable', words: 'disrupted, and still unhealthy when new requests stopped' };
  return { kind: 'undecided', words: 'disrupted, not healthy again yet' };
}

// "server 0", "servers 1–9", "servers 0, 2 and 5": indices in words, runs joined by a dash.
export function serversWords(indices) {
  if (indices.length === 1) return `server ${indices[0]}`;
  const runs = [];
  for (const i of indices) {
    const last = runs[runs.length - 1];
    if (last && last[1] === i - 1) last[1] = i;
    else runs.push([i, i]);
  }
  const parts = runs.map(([a, b]) => (a === b ? String(a) : b === a + 1 ? `${a}, ${b}` : `${a}–${b}`));
  return `servers ${parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`}`;
}

// The per-server verdicts beside the fleet's, grouped by their words: "Server by server:
// server 0 disrupted, still unhealthy when new requests stopped; servers 1–9 never disrupted."
// '' when the run has no per-server verdicts.
export function serverVerdictsText(result) {
  const rec = result.recovery;
  if (!hasServers(result) || !rec || !Array.isArray(rec.servers)) return '';
  const groups = new Map();
  rec.servers.forEach((r, j) => {
    const v = serverVerdict(r);
    if (!groups.has(v.words)) groups.set(v.words, []);
    groups.get(v.words).push(j);
  });
  const parts = [...groups].map(([words, list]) => `${serversWords(list)}: ${words}`);
  return `Server by server (each judged by its own attempts, as the fleet is): ${parts.join('; ')}.`;
}

// The table's rows: one per server, from `totals.servers` and `recovery.servers`.
export const SERVER_COLUMNS = ['server', 'attempts', 'answered in time (200)', 'failed (500)', 'late answers', 'refused', 'partitioned', 'aborted', 'charges', 'duplicate charges', 'verdict'];
export function serverRows(result) {
  const recs = result.recovery && Array.isArray(result.recovery.servers) ? result.recovery.servers : [];
  return result.totals.servers.map((row, j) => [
    String(j), fmt(row.attempts), fmt(row.okInTime), fmt(row.failed), fmt(row.late), fmt(row.refused), fmt(row.partitioned), fmt(row.aborted),
    fmt(row.charges), fmt(row.duplicateCharges), serverVerdict(recs[j]).words,
  ]);
}

// Each server's share of the fleet's attempts and of its answers in time, in words.
export function serversSummary(result) {
  const rows = result.totals.servers;
  const all = rows.reduce((a, r) => a + r.attempts, 0);
  const ok = rows.reduce((a, r) => a + r.okInTime, 0);
  if (!all) return `${rows.length} servers; no attempt reached any of them.`;
  const pct = (n, of) => `${of ? Math.round((100 * n) / of) : 0} %`;
  const worst = rows.reduce((a, r, j) => {
    const share = r.attempts ? r.okInTime / r.attempts : 1;
    return share < a.share ? { j, share } : a;
  }, { j: 0, share: Infinity });
  const w = rows[worst.j];
  return `${rows.length} servers took ${fmt(all)} attempts, ${fmt(ok)} of them answered in time. Server ${worst.j}, the one with the smallest share answered in time, took ${fmt(w.attempts)} (${pct(w.attempts, all)} of all) and answered ${fmt(w.okInTime)} of them in time (${pct(w.okInTime, w.attempts)}).`;
}

// The windows a fault or the trigger covers server j: [{ startMs, endMs, kind }].
function windowsOf(request, j) {
  const out = [];
  for (const f of request.faults || []) {
    if (f.servers === null || f.servers === undefined || f.servers.includes(j)) out.push({ startMs: f.startMs, endMs: f.endMs, kind: f.kind });
  }
  const t = request.trigger;
  if (t && (t.servers === null || t.servers === undefined || t.servers.includes(j))) out.push({ startMs: t.startMs, endMs: t.endMs, kind: t.kind === 'outage' ? 'outage' : 'slowdown' });
  return out.filter((w) => w.endMs > w.startMs);
}

// The strip: a row per server (at most DRAWN_ROWS), on the storm's time axis (chart.js
// timeAxisMs), every row on one scale of attempts a second so that shares compare by eye.
// `width`: the px the page draws it at below 750 (a phone), as the storm chart's.
/**
 * @param {any} result
 * @param {{ id?: string, width?: number, cursor?: number | null }} [options]
 */
export function serversChart(result, { id, width = W, cursor = null } = {}) {
  const { binMs, bins } = result.timeline;
  const perSecond = 1000 / binMs;
  const k = Math.min(result.totals.servers.length, DRAWN_ROWS);
  const wide = Math.max(MIN_W, Math.min(W, Math.round(width) || W));
  const left = wide < W ? 44 : 76;
  const right = wide < W ? 16 : 150;
  const rowH = k > 12 ? 18 : 28;
  const gap = 4;
  const head = 16;
  const foot = 24;
  const plotW = wide - left - right;
  const H = head + k * (rowH + gap) + foot;
  const endMs = timeAxisMs(result.request.durationMs, bins.length * binMs);
  const xOf = (ms) => left + (plotW * Math.min(ms, endMs)) / endMs;
  const top = Math.max(1, ...bins.flatMap((b) => (b.servers || []).slice(0, k).map((s) => s.attempts * perSecond)));
  const recs = result.recovery && Array.isArray(result.recovery.servers) ? result.recovery.servers : [];
  const children = [h('title', { id: `${id}-title` }, 'Each server over time'),
    h('defs', {}, h('pattern', { id: `${id}-hatch`, width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
      h('rect', { class: 'fl-late-ground', width: 6, height: 6 }), h('line', { class: 'fl-late-hatch', x1: 0, y1: 0, x2: 0, y2: 6 })))];
  children.push(h('text', { class: 'fl-tick', x: left, y: head - 4 }, wide < W ? `each row to ${fmt(top)} attempts /s` : `each row: attempts /s (line), answered in time (solid), late (hatched); top ${fmt(top)} /s`));
  for (let j = 0; j < k; j += 1) {
    const y0 = head + j * (rowH + gap);
    const yOf = (v) => y0 + rowH - (rowH * Math.min(v, top)) / top;
    for (const w of windowsOf(result.request, j)) {
      children.push(h('rect', { class: `fl-trigger fl-window-${w.kind}`, x: round1(xOf(w.startMs)), y: y0, width: Math.max(1, round1(xOf(w.endMs) - xOf(w.startMs))), height: rowH }));
    }
    children.push(h('line', { class: 'fl-axis', x1: left, y1: y0 + rowH, x2: left + plotW, y2: y0 + rowH }));
    let ok = '';
    let late = '';
    let att = '';
    bins.forEach((b, i) => {
      const s = b.servers && b.servers[j];
      if (!s) return;
      const x0 = round1(xOf(i * binMs));
      const x1 = round1(xOf((i + 1) * binMs));
      const base = y0 + rowH;
      const yOk = round1(yOf(s.okInTime * perSecond));
      const yLate = round1(yOf((s.okInTime + s.late) * perSecond));
      const yAtt = round1(yOf(s.attempts * perSecond));
      if (s.okInTime) ok += `M${x0} ${base}L${x0} ${yOk}L${x1} ${yOk}L${x1} ${base}Z`;
      if (s.late) late += `M${x0} ${yOk}L${x0} ${yLate}L${x1} ${yLate}L${x1} ${yOk}Z`;
      att += `${att ? 'L' : 'M'}${x0} ${yAtt}L${x1} ${yAtt}`;
    });
    if (ok) children.push(h('path', { class: 'fl-work fl-in-time', d: ok }));
    if (late) children.push(h('path', { class: 'fl-work fl-late', d: late, fill: `url(#${id}-hatch)` }));
    if (att) children.push(h('path', { class: 'fl-line fl-offered', d: att, fill: 'none' }));
    children.push(h('text', { class: 'fl-tick', x: left - 6, y: y0 + rowH / 2 + 4, 'text-anchor': 'end' }, wide < W ? `#${j}` : `server ${j}`));
    if (wide >= W) {
      const v = serverVerdict(recs[j]);
      children.push(h('text', { class: `fl-server-verdict fl-kind-${v.kind}`, x: left + plotW + 8, y: y0 + rowH / 2 + 4 }, v.kind === 'rode-out' ? 'never disrupted' : v.kind === 'recovered' ? `healthy from ${sec(recs[j].recoveredAtMs)}` : v.kind === 'metastable' ? 'still unhealthy' : v.kind === 'none' ? '' : 'not healthy yet'));
    }
  }
  const yAxis = head + k * (rowH + gap);
  const step = endMs > 90000 ? 20000 : endMs > 40000 ? 10000 : 5000;
  for (let t = 0; t <= endMs; t += wide < W ? 2 * step : step) children.push(h('text', { class: 'fl-tick', x: round1(xOf(t)), y: yAxis + 14, 'text-anchor': 'middle' }, `${t / 1000} s`));
  if (cursor !== null && cursor < bins.length) {
    const x = round1(xOf(cursor * binMs));
    children.push(h('rect', { class: 'fl-cursor', x, y: head, width: Math.max(1, round1(xOf((cursor + 1) * binMs) - x)), height: k * (rowH + gap) }));
  }
  return h('svg', {
    xmlns: 'http://www.w3.org/2000/svg', class: 'fl-chart fl-servers-chart', viewBox: `0 0 ${wide} ${H}`, width: wide, height: H,
    role: 'img', 'aria-labelledby': `${id}-title ${id}-desc`,
  }, h('desc', { id: `${id}-desc` }, `${serversSummary(result)}${result.totals.servers.length > k ? ` The first ${k} servers are drawn; the table lists all ${result.totals.servers.length}.` : ''} The table below gives each server’s figures.`), ...children);
}

// One bin, server by server, for the storm's cursor (the readout under the strip).
export function serversBinText(result, i) {
  const b = result.timeline.bins[i];
  if (!b || !b.servers) return '';
  const binMs = result.timeline.binMs;
  const parts = b.servers.slice(0, DRAWN_ROWS).map((s, j) => `server ${j} ${fmt(s.attempts)} attempts, ${fmt(s.okInTime)} in time${s.late ? `, ${fmt(s.late)} late` : ''}${s.refused ? `, ${fmt(s.refused)} refused` : ''}${s.partitioned ? `, ${fmt(s.partitioned)} cut off` : ''}`);
  return `${sec(i * binMs)}–${sec((i + 1) * binMs)}, sent in this bin: ${parts.join('; ')}.`;
}
