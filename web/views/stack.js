// A stack's run (docs/layers.md), pure: the lanes (one per layer, top first, each attempt a bar
// from its start to its end; the server's charges marked on the bottom lane), the
// multiplication counted, and two tables a screen reader reads in place of the drawing: what
// each layer did (metrics.layers) and every attempt (the rows). Every figure comes from the
// run's result. One drawing, `stackView`, for every place that shows a stack's run: the
// section "Retries across layers", the experiment, compare mode's sides and <retry-lab>
// (explorable/run-view.js draws it in the place of the client-and-server lanes, which draw
// one layer). It imports nothing of the clients' presets, so the first bundle can carry it.

import { h } from '../dom.js';
import { ms, num, plural } from '../format.js';

// Is this result a stack's run (its echo has `layers`, docs/layers.md §2)?
export const isStack = (result) => Boolean(result && result.inputs && Array.isArray(result.inputs.layers));

// The stack in words, top first: "agent over payment SDK over urllib3".
export const stackWords = (result) => result.inputs.layers.map((l) => l.name).join(' over ');

// "4 × 4 × 4 = 64": each layer's attempts per call it received, when every one is a whole
// number and their product is the server's attempts; else the attempts layer by layer.
export function multiplication(metrics) {
  const rows = metrics.layers;
  const factors = rows.map((r) => (r.calls ? r.attempts / r.calls : 0));
  const whole = factors.every((f) => Number.isInteger(f)) && factors.reduce((a, b) => a * b, 1) === metrics.attempts;
  if (whole) return `${factors.map(num).join(' × ')} = ${plural(metrics.attempts, 'server attempt')}`;
  return `${rows.map((r) => `${r.name}: ${plural(r.attempts, 'attempt')}`).join(' → ')}: ${plural(metrics.attempts, 'server attempt')}`;
}

// The keys a layer's attempts carried, from the rows.
function keysOf(result, layer) {
  const keys = [...new Set(result.attempts.filter((a) => a.layer === layer).map((a) => a.key))];
  if (keys.length === 1 && keys[0] === null) return 'none';
  const shown = keys.map((k) => (k === null ? 'none' : k));
  return shown.length > 3 ? `${shown.length} keys (${shown.slice(0, 2).join(', ')}, …)` : shown.join(', ');
}

export function summaryView(id, result) {
  const m = result.metrics;
  return h('div', { class: 'ly-summary' },
    h('p', { class: 'ly-count', id: id('count') }, multiplication(m)),
    h('p', { class: 'ly-verdict' },
      h('span', { class: m.charges > 1 ? 'ly-bad' : 'ly-plain', id: id('charges') }, `Charged ${m.charges === 1 ? 'once' : m.charges === 2 ? 'twice' : `${num(m.charges)} times`}`),
      `, ${plural(m.replays, 'replay')}${m.orphanCharges ? `, ${num(m.orphanCharges)} by orphaned calls` : ''}. The ${result.inputs.layers[0].name} reports ${m.agentReport}, at ${ms(m.elapsedMs)}.`));
}

const SAW_CLASS = (row) => (row.clientSaw === 'cancelled' ? 'ly-cancelled' : /^2/.test(row.clientSaw || '') ? 'ly-ok' : 'ly-fail');
const WIDTH = 1000;

// One lane per layer, top first: each attempt a bar, its colour what that layer received (a
// 2xx, a failure, or cancelled); on the bottom lane a mark where the server committed a charge.
export function stackLanesView(id, result) {
  const end = Math.max(result.metrics.lastWorkMs, 1);
  const x = (t) => (t / end) * WIDTH;
  const layers = result.inputs.layers;
  return h('figure', { class: 'ly-lanes', 'aria-labelledby': id('lanes-caption') },
    h('figcaption', { id: id('lanes-caption') },
      `Each layer’s attempts over time, top layer first (${ms(0)} to ${ms(end)}); the tables below hold the same figures.`),
    layers.map((layer, i) => {
      const rows = result.attempts.filter((a) => a.layer === i + 1);
      return h('div', { class: 'ly-lane' },
        h('p', { class: 'ly-lane-name' }, `${i + 1}. ${layer.name}: ${plural(rows.length, 'attempt')}`),
        h('svg', { class: 'ly-strip', viewBox: `0 0 ${WIDTH} 24`, preserveAspectRatio: 'none', 'aria-hidden': 'true', focusable: 'false' },
          rows.map((a) => {
            const left = x(a.startMs);
            const width = Math.max(x(a.endMs) - left - 1.5, 1.5);
            return h('rect', { class: `ly-bar ${SAW_CLASS(a)}`, x: left.toFixed(2), y: 3, width: width.toFixed(2), height: 18 });
          }),
          rows.filter((a) => a.effect && a.effect.startsWith('charge')).map((a) => h('rect', { class: 'ly-charge', x: Math.max(x(a.commitMs) - 2, 0).toFixed(2), y: 0, width: 4, height: 24 }))));
    }),
    h('p', { class: 'ly-legend', 'aria-hidden': 'true' },
      h('span', { class: 'ly-key ly-ok' }), 'a 2xx received ',
      h('span', { class: 'ly-key ly-fail' }), 'a failure or timeout ',
      h('span', { class: 'ly-key ly-cancelled' }), 'cancelled ',
      h('span', { class: 'ly-key ly-charge' }), 'a charge committed'));
}

// `within`: ids naming where the drawing is ("Before", in compare mode), said before each
// region's own name so that two drawings on a page name their regions apart.
const named = (within, own) => (within ? `${within} ${own}` : own);

export function layersTable(id, result, within = '') {
  return h('div', { class: 'ly-per-layer-wrap', tabindex: 0, role: 'region', 'aria-labelledby': named(within, id('per-layer-caption')) }, h('table', { class: 'ly-table', id: id('per-layer') },
    h('caption', { id: id('per-layer-caption') }, 'What each layer did'),
    h('thead', null, h('tr', null, ['Layer', 'Keys sent', 'Calls', 'Attempts', 'Retries', 'Cancelled', 'Orphaned'].map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', null, result.metrics.layers.map((r, i) => h('tr', null,
      h('th', { scope: 'row' }, `${i + 1}. ${r.name}`), h('td', null, keysOf(result, i + 1)),
      [r.calls, r.attempts, r.retries, r.cancelled, r.orphaned].map((n) => h('td', { class: 'ly-num' }, num(n))))))));
}

export function attemptsTable(id, result, within = '') {
  return h('details', { class: 'ly-all' },
    h('summary', { id: id('all-summary') }, `Every attempt of every layer (${num(result.attempts.length)})`),
    h('div', { class: 'ly-scroll', tabindex: 0, role: 'region', 'aria-labelledby': named(within, id('all-summary')) },
      h('table', { class: 'ly-table' },
        h('thead', null, h('tr', null, ['Attempt', 'Layer', 'Start', 'End', 'Key', 'At the server', 'The layer received'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', null, result.attempts.map((a) => h('tr', null,
          h('th', { scope: 'row' }, a.path), h('td', null, result.inputs.layers[a.layer - 1].name),
          h('td', { class: 'ly-num' }, ms(a.startMs)), h('td', { class: 'ly-num' }, ms(a.endMs)),
          h('td', null, a.key || 'none'), h('td', null, a.server === null ? '(a call below)' : `${a.server}${a.effect ? `: ${a.effect}` : ''}`),
          h('td', null, a.clientSaw)))))));
}

// The whole drawing of a stack's run: the count, the verdict, the lanes and the two tables.
// `within`: see layersTable.
export function stackView(id, result, within = '') {
  return [summaryView(id, result), stackLanesView(id, result), layersTable(id, result, within), attemptsTable(id, result, within)];
}
