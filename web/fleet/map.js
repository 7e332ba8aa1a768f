// The stability map: for each offered load and slowdown length, does the fleet recover, and
// when? A grid of engine runs of one request with `ratePerClient` and `trigger.endMs` varied
// (the slowdown starting where the request's does), each cell its verdict in words, so that
// none is told by colour alone; the opening fleet run's cell marked. Pure: the requests, the
// cells, the grid's view (an HTML table with the grid pattern: one cell in the tab order,
// arrow keys between cells).

import { h } from '../dom.js';
import { setPath } from './model.js';

export const LOADS = [0.5, 0.75, 1, 1.25, 1.5];
export const LENGTHS_S = [2, 4, 6, 8, 10, 15, 20];

// The base request's trigger (a slowdown, the opening run's when it has none of its own).
const slowdownOf = (echo) => (echo.trigger && echo.trigger.kind === 'slowdown' ? echo.trigger : { kind: 'slowdown', startMs: 10000, endMs: 20000, factor: 4 });

// [{ row, col, load, lengthS, request }] over `base` (a request) whose echo is `echo`.
export function mapRequests(base, echo) {
  const trig = slowdownOf(echo);
  const out = [];
  LOADS.forEach((load, row) => LENGTHS_S.forEach((lengthS, col) => {
    let request = setPath(base, 'ratePerClient', load);
    request = setPath(request, 'trigger', { ...trig, endMs: trig.startMs + lengthS * 1000 });
    out.push({ row, col, load, lengthS, request });
  }));
  return out;
}

// A cell's verdict from its run's `recovery` (FLEET.md §8).
export function cellVerdict(result) {
  if (!result) return { kind: 'pending', text: '…', words: 'not computed yet' };
  if (!result.ok) return { kind: 'error', text: '!', words: result.errors.map((e) => e.message).join(' ') };
  const r = result.recovery;
  if (r.recoveredAtMs !== null) return { kind: 'recovered', text: `${r.recoveredAtMs / 1000} s`, words: `recovers at ${r.recoveredAtMs / 1000} s` };
  if (r.metastable) return { kind: 'metastable', text: 'down', words: 'still down when new requests stop: a metastable failure' };
  return { kind: 'undecided', text: '–', words: 'not recovered, too close to the end to call' };
}

export const cellWords = (item, result, opening) =>
  `${item.load} requests/s per client, a ${item.lengthS} s slowdown: ${cellVerdict(result).words}${opening ? ' (the opening fleet run)' : ''}.`;

// results: Map `${row}:${col}` → result; focus: [row, col]; marked: [row, col] of the opening run or null.
export function mapView(items, results, { id, focus, marked }) {
  const at = (r, c) => items.find((x) => x.row === r && x.col === c);
  return h('table', { class: 'fl-map', role: 'grid', id, 'aria-label': 'Stability map: rows are the load, columns the slowdown’s length; each cell says whether and when the fleet recovers' },
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, 'load ↓ · slowdown →'),
      ...LENGTHS_S.map((s) => h('th', { scope: 'col' }, `${s} s`)))),
    h('tbody', {}, ...LOADS.map((load, r) => h('tr', {},
      h('th', { scope: 'row' }, `${load} /s`),
      ...LENGTHS_S.map((_, c) => {
        const item = at(r, c);
        const result = results.get(`${r}:${c}`);
        const v = cellVerdict(result);
        const isMarked = marked && marked[0] === r && marked[1] === c;
        const focused = focus[0] === r && focus[1] === c;
        return h('td', {
          role: 'gridcell', class: `fl-cell fl-cell-${v.kind}${isMarked ? ' fl-cell-opening' : ''}`, tabindex: focused ? 0 : -1,
          'data-row': r, 'data-col': c, 'aria-label': cellWords(item, result, isMarked),
        }, v.text, isMarked ? h('span', { class: 'fl-cell-mark', 'aria-hidden': 'true' }, ' ●') : null);
      })))));
}
