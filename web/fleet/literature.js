// Presets that reproduce the literature on metastability (docs/metastability.md §5), each with
// its source as paper, section and figure, its published threshold beside the closed form and
// the engine's runs, computed on demand in the map's workers:
//   - Bronson et al., HotOS 2021, §2.1: the retry example (FLEET.md §9.10's requests);
//   - Huang et al., OSDI 2022, §5.2, Fig. 5: the four panels' shape;
//   - Brooker's retry collapse (FLEET.md §9.8): where the good state ends and the bad begins.

import { h, patch } from '../dom.js';
import { download } from '../export/download.js';
import { toCsv } from '../export/csv.js';
import { linePanel } from './panel.js';
import { verdictOf } from './model.js';
import { collapseEdges, stormEdge } from './closed.js';
import { COLLAPSE_RUNS } from './collapse.js';

const HOTOS_BASE = {
  clients: 280, durationMs: 600000, server: { workers: 30, serviceMs: 100 },
  policy: { clientTimeoutMs: 1000, maxRetries: 1, baseBackoffMs: 0, retryOn: ['timeout'] },
  trigger: { kind: 'slowdown', startMs: 10000, endMs: 12000, factor: 20 },
};
const budget = (perSecond) => ({ ...HOTOS_BASE, gates: { budget: { scope: 'fleet', percent: 0, minPerSecond: perSecond, ttlMs: 10000 } } });

const slow = (lengthMs, factor) => ({ kind: 'slowdown', startMs: 10000, endMs: 10000 + lengthMs, factor });
const OSDI_DURATION = 120000;

export const PRESETS = [
  {
    id: 'hotos2021',
    title: 'Bronson et al. 2021: the retry example',
    cite: 'Nathan Bronson, Abutalib Aghayev, Aleksey Charapko, Timothy Zhu, “Metastable Failures in Distributed Systems”, HotOS ’21, §2.1 (the retry example; no figure). Its requests: FLEET.md §9.10.',
    intro: 'A database that serves 300 queries a second; each client retries once after a 1 s timeout. The paper: at 280 QPS a trigger leaves it down; it is stable below 150 QPS, and a retry budget of fewer than 20 retries a second saves it.',
    runs: [
      { key: '280', label: '280 QPS (the paper’s load)', published: 'a trigger leaves it down', request: HOTOS_BASE },
      { key: '151', label: '151 QPS', published: 'above 150: down', request: { ...HOTOS_BASE, clients: 151 } },
      { key: '149', label: '149 QPS', published: 'below 150: recovers', request: { ...HOTOS_BASE, clients: 149 } },
      { key: 'b19', label: '280 QPS, a fleet budget of 19 retries/s', published: 'fewer than 20: recovers', request: budget(19) },
      { key: 'b25', label: '280 QPS, a fleet budget of 25 retries/s', published: 'more than 20: down', request: budget(25) },
    ],
  },
  {
    id: 'osdi2022',
    title: 'Huang et al. 2022: Fig. 5’s four panels, in shape',
    cite: 'Lexiang Huang, Matthew Magnusson, Abishek Bangalore Muralikrishna, Salman Estyak, Rebecca Isaacs, Abutalib Aghayev, Timothy Zhu, Aleksey Charapko, “Metastable Failures in the Wild”, OSDI ’22, §5.2, Fig. 5.',
    intro: 'The paper’s figure comes from a replicated MongoDB on real hardware, and its seconds and loads are that hardware’s: only the shape is reproduced here, with the opening fleet (100 clients, 200 attempts a second of capacity) and a ×10 slowdown: with retries a long trigger leaves it down; without retries, with a shorter trigger, or at a lower load, the same fleet comes back.',
    panels: true,
    runs: [
      { key: 'a', label: 'no retries: recovers', published: 'recovers', request: { durationMs: OSDI_DURATION, trigger: slow(10000, 10), policy: { maxRetries: 0 } } },
      { key: 'b', label: '3 retries, a 10 s trigger: metastable', published: 'metastable', request: { durationMs: OSDI_DURATION, trigger: slow(10000, 10) } },
      { key: 'c', label: 'a shorter trigger (1.5 s): recovers', published: 'recovers', request: { durationMs: OSDI_DURATION, trigger: slow(1500, 10) } },
      { key: 'd', label: 'a lower load (0.4 /s per client): recovers', published: 'recovers', request: { durationMs: OSDI_DURATION, trigger: slow(10000, 10), ratePerClient: 0.4 } },
    ],
  },
  {
    id: 'collapse',
    title: 'Brooker’s retry collapse: where each state ends',
    cite: 'Marc Brooker, “Retries and metastable failures” simulation (simple_collapse_sim); FLEET.md §9.8. The closed form: docs/metastability.md §3.',
    intro: 'One client, a server whose service grows with the work in flight, timeouts retried twice at once. Each rate below is run twice: without a spike (does the good state hold?) and with a 5 s spike to 100 requests a second (does the bad state hold after it?). A run is down when no request succeeds in its last 10 s of new requests.',
    collapse: true,
    runs: [16, 18, 20, 22, 24, 26, 30, 40, 50, 54, 56, 58, 60, 62, 64, 66, 70].flatMap((rate) => [
      { key: `q${rate}`, rate, spike: false, request: { ...COLLAPSE_RUNS[0].request, ratePerClient: rate, spike: null } },
      { key: `s${rate}`, rate, spike: true, request: { ...COLLAPSE_RUNS[0].request, ratePerClient: rate, spike: { startMs: 20000, endMs: 25000, factor: 100 / rate } } },
    ]),
  },
];

// Is a collapse run down at its end: no success in its last 10 s of new requests?
export function collapseDown(result) {
  const per = result.timeline.binMs;
  const end = Math.floor(result.request.durationMs / per);
  const from = Math.max(0, end - Math.round(10000 / per));
  return result.timeline.bins.slice(from, end).every((b) => b.succeeded === 0);
}

// The engine's edges from a collapse preset's results: the highest rate whose unspiked run holds
// below the lowest that collapses by itself; the highest spiked run that comes back below the
// lowest that stays down. { good: [held, fell], bad: [back, stayed] } (null where none).
export function collapseMeasured(runs, results) {
  const at = (spike, down) => runs.filter((r) => r.spike === spike && results.has(r.key) && collapseDown(results.get(r.key)) === down).map((r) => r.rate);
  const held = at(false, false);
  const fell = at(false, true);
  const back = at(true, false);
  const stayed = at(true, true);
  const firstFell = fell.length ? Math.min(...fell) : null;
  const firstStayed = stayed.length ? Math.min(...stayed) : null;
  return {
    good: [Math.max(...held.filter((r) => firstFell === null || r < firstFell), -Infinity), firstFell],
    bad: [Math.max(...back.filter((r) => firstStayed === null || r < firstStayed), -Infinity), firstStayed],
  };
}

const fmt = (n) => (Number.isFinite(n) ? String(Math.round(n * 10) / 10) : '–');

// The closed form beside a preset, in words, from a result's echo.
export function presetClosedForm(preset, echo) {
  if (preset.collapse) {
    const c = collapseEdges(echo);
    if (c.why) return c.why;
    return `Closed form (§3): service at a steady attempt rate a takes S(a) = ${echo.server.serviceMs} / (1 − a/${fmt(c.ceiling)}) ms; an attempt is in time while S + 2 × ${fmt((echo.policy.clientTimeoutMs - c.room) / 2)} ms ≤ ${echo.policy.clientTimeoutMs} ms. The good state ends at λg = ${fmt(c.good)} requests a second; the bad state (every attempt timed out and retried, ${c.attempts} attempts a request) holds from λb = λg / ${c.attempts} = ${fmt(c.bad)}.`;
  }
  const e = stormEdge(echo);
  if (e.why) return e.why;
  if (preset.id === 'hotos2021') return `Closed form (§1): μ = ${e.capacity} a second and ${e.attempts} attempts a request in a storm, so the lower edge is μ / ${e.attempts} = ${fmt(e.lower)} QPS (the paper’s 150); with retries capped at r a second the storm offers λ + r, which holds iff r ≥ μ − λ = ${fmt(e.capacity - e.lambda)} (the paper’s 20).`;
  return `Closed form (§1): μ = ${e.capacity} a second; with ${e.attempts} attempts a request in a storm the lower edge is ${fmt(e.lower)} requests a second (${fmt(e.lowerPerClient)} per client). Panel (d)’s load is below it, (b)’s and (c)’s above; (a) makes one attempt a request, so its edge is μ itself.`;
}

export function mountLiterature(box, host) {
  const doc = box.ownerDocument;
  const id = (name) => `${host.prefix}lit-${name}`;
  const inFlight = new Set();
  const results = new Map(); // preset id → Map(key → result)
  const computers = [];
  const waiters = new Map();
  patch(box,
    h('h4', {}, 'Published thresholds, reproduced'),
    h('p', {}, 'Each preset’s runs are computed here on request (in the map’s workers); every one opens in the storm chart above.'),
    ...PRESETS.map((p) => h('section', { class: 'fl-lit', 'aria-labelledby': id(`${p.id}-h`), id: id(p.id) },
      h('h5', { id: id(`${p.id}-h`) }, p.title),
      h('p', { class: 'fl-cite' }, h('strong', {}, 'Source: '), p.cite),
      h('p', {}, p.intro),
      h('p', { class: 'fl-exports' },
        h('button', { type: 'button', id: id(`${p.id}-run`), 'data-preset': p.id }, `Compute its ${p.runs.length} runs`),
        h('button', { type: 'button', id: id(`${p.id}-csv`), 'data-preset-csv': p.id }, 'Download its runs (CSV)')),
      h('p', { id: id(`${p.id}-status`) }), // progress, not announced (issue 35 item 10)
      h('div', { id: id(`${p.id}-body`) }))));
  const $ = (name) => box.querySelector(`#${id(name)}`);

  function rowsOf(p) {
    const got = results.get(p.id) || new Map();
    return p.runs.map((r) => ({ run: r, result: got.get(r.key) }));
  }

  function drawPreset(p) {
    const rows = rowsOf(p);
    // The closed form from a run that retries (the band's edge needs N > 1), else the first.
    const done0 = rows.filter((r) => r.result && r.result.ok);
    const first = done0.find((r) => r.result.request.policy.maxRetries > 0) || done0[0];
    const closed = first ? presetClosedForm(p, first.result.request) : 'The closed form appears with the first run.';
    const done = rows.filter((r) => r.result).length;
    $(`${p.id}-status`).textContent = done === p.runs.length ? `All ${done} runs computed.` : `${done} of ${p.runs.length} runs computed…`;
    const open = (r) => h('button', { type: 'button', class: 'fl-open', 'data-open': `${p.id}:${r.run.key}` }, 'Open');
    if (p.collapse) {
      const m = collapseMeasured(p.runs, results.get(p.id) || new Map());
      patch($(`${p.id}-body`),
        h('p', {}, closed),
        h('p', {}, `The engine: the good state holds at ${fmt(m.good[0])} and falls by itself at ${fmt(m.good[1])} requests a second; after the spike it comes back at ${fmt(m.bad[0])} and stays down from ${fmt(m.bad[1])}. The closed form reads the network's legs as their mean; the engine draws them (exponential, mean 100 ms) and its arrivals are Poisson, so bursts end the good state below λg.`),
        h('div', { class: 'fl-scroll', tabindex: 0, role: 'region', 'aria-label': 'Brooker’s collapse: each rate with and without a spike' }, h('table', { class: 'fl-table' },
          h('caption', {}, 'Down at the end (no success in the last 10 s of new requests)?'),
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'requests/s'), h('th', { scope: 'col' }, 'no spike'), h('th', { scope: 'col' }, 'after a spike to 100/s'))),
          h('tbody', {}, ...[...new Set(p.runs.map((r) => r.rate))].map((rate) => {
            const cell = (spike) => {
              const r = rows.find((x) => x.run.rate === rate && x.run.spike === spike);
              return h('td', {}, r.result ? (collapseDown(r.result) ? 'down ' : 'up ') : '… ', r.result ? open(r) : null);
            };
            return h('tr', {}, h('th', { scope: 'row' }, String(rate)), cell(false), cell(true));
          })))));
      return;
    }
    patch($(`${p.id}-body`),
      h('p', {}, closed),
      h('div', { class: 'fl-scroll', tabindex: 0, role: 'region', 'aria-label': `${p.title}: each run beside what was published` }, h('table', { class: 'fl-table' },
        h('caption', {}, 'Each run, what the source says of it, and the engine’s verdict'),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'run'), h('th', { scope: 'col' }, 'published'), h('th', { scope: 'col' }, 'this engine'), h('th', { scope: 'col' }, 'storm chart'))),
        h('tbody', {}, ...rows.map((r) => h('tr', {}, h('th', { scope: 'row' }, r.run.label), h('td', {}, r.run.published),
          h('td', { 'data-verdict': r.result && r.result.ok ? verdictOf(r.result).kind : '' }, r.result ? (r.result.ok ? verdictOf(r.result).shortText : r.result.errors.map((e) => e.message).join(' ')) : '…'),
          h('td', {}, open(r))))))),
      p.panels ? h('p', { class: 'fl-note-text' }, 'Each panel: attempts sent a second (solid) and requests that succeed a second (dashed), 0 to 120 s; the slowdown from 10 s.') : null,
      p.panels ? h('div', { class: 'fl-panels' }, ...rows.map((r) => h('figure', {},
        linePanel([
          { cls: 'fl-s1', dash: '', ours: r.result && r.result.ok ? r.result.timeline.bins.slice(0, OSDI_DURATION / 1000).map((b, s) => [s, b.firstAttempts + b.retries]) : [], peer: [] },
          { cls: 'fl-s2', dash: '4 2', ours: r.result && r.result.ok ? r.result.timeline.bins.slice(0, OSDI_DURATION / 1000).map((b, s) => [s, b.succeeded]) : [], peer: [] },
        ], { id: id(`${p.id}-${r.run.key}`), title: `${r.run.label}: attempts sent (solid) and successes (dashed) per second`, unit: 'per s', xLabel: 's', xMin: 0, xMax: OSDI_DURATION / 1000, xTicks: [0, 30, 60, 90, 120], yMax: 500 }),
        h('figcaption', {}, `${r.run.label}${r.result && r.result.ok ? ` — ${verdictOf(r.result).shortText}` : ''}`)))) : null);
  }

  function compute(p) {
    if (!results.has(p.id)) results.set(p.id, new Map());
    const got = results.get(p.id);
    const todo = p.runs.filter((r) => !got.has(r.key));
    if (!todo.length || inFlight.has(p.id)) return;
    inFlight.add(p.id);
    const parts = [0, 1].map((w) => todo.filter((_, i) => i % 2 === w)).filter((x) => x.length);
    let left = parts.length;
    for (const part of parts) {
      const c = host.computer();
      computers.push(c);
      c.run(part.map((r) => r.request), {
        onResult(index, result) {
          got.set(part[index].key, result);
          drawPreset(p);
        },
        onDone() {
          c.destroy();
          left -= 1;
          if (left) return;
          inFlight.delete(p.id);
          const w = waiters.get(p.id) || [];
          waiters.delete(p.id);
          for (const f of w) f();
        },
        onError(message) {
          $(`${p.id}-status`).textContent = `These runs could not be computed here (${message}).`;
        },
      });
    }
    drawPreset(p);
  }

  box.addEventListener('click', (event) => {
    const t = event.target;
    if (t.dataset.preset) compute(PRESETS.find((p) => p.id === t.dataset.preset));
    if (t.dataset.presetCsv) {
      const p = PRESETS.find((x) => x.id === t.dataset.presetCsv);
      const rows = [['run', 'published', 'verdict', 'disrupted', 'recoveredAtMs', 'metastable', 'requests', 'succeeded', 'request']];
      for (const r of rowsOf(p)) {
        const ok = r.result && r.result.ok;
        rows.push([r.run.label || `${r.run.rate}/s${r.run.spike ? ' spiked' : ''}`, r.run.published || (ok ? (collapseDown(r.result) ? 'down' : 'up') : ''), ok ? verdictOf(r.result).kind : '',
          ok && r.result.recovery ? r.result.recovery.disrupted : '', ok && r.result.recovery && r.result.recovery.recoveredAtMs !== null ? r.result.recovery.recoveredAtMs : '',
          ok && r.result.recovery ? r.result.recovery.metastable : '', ok ? r.result.totals.requests : '', ok ? r.result.totals.succeeded : '', JSON.stringify(r.run.request)]);
      }
      download(doc, `retry-lab-fleet-${p.id}-runs.csv`, 'text/csv', toCsv(rows));
    }
    if (t.dataset.open) {
      const [pid, key] = t.dataset.open.split(':');
      const run = PRESETS.find((p) => p.id === pid).runs.find((r) => r.key === key);
      host.open(run.request);
      const chart = doc.getElementById(`${host.prefix}chart`);
      if (chart) chart.scrollIntoView({ block: 'center' });
    }
  });
  for (const p of PRESETS) drawPreset(p);

  return {
    // Computes a preset's runs (if not yet) and resolves with its rows once all are in.
    compute: (pid) => {
      const p = PRESETS.find((x) => x.id === pid);
      const got = results.get(pid);
      if (got && p.runs.every((r) => got.has(r.key))) return Promise.resolve(rowsOf(p));
      const promise = new Promise((resolve) => waiters.set(pid, [...(waiters.get(pid) || []), () => resolve(rowsOf(p))]));
      compute(p);
      return promise;
    },
    destroy() {
      for (const c of computers) c.destroy();
    },
  };
}
