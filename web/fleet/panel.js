// A small line chart for the reproductions (pure, a dom.js tree): this engine's points as a
// line with a dot at each, the anchor's own as crosses, each series with its dash pattern and
// colour class, so that none is told by colour alone (the legend names each pattern).

import { h } from '../dom.js';

const W = 340;
const H = 240;
const BOX = { x: 52, y: 24, w: 270, h: 178 };

export function niceMax(v) {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}
const r1 = (n) => Math.round(n * 10) / 10;
const tick = (v) => (Math.abs(v) >= 1000 ? v.toLocaleString('en-US') : String(Math.round(v * 1000) / 1000));

// series: [{ cls, dash, ours: [[x, y]], peer: [[x, y]] }]; x from xMin to xMax.
export function linePanel(series, { id, title, unit, xLabel, xMin, xMax, xTicks, yMax = null, yFormat = tick }) {
  const all = series.flatMap((s) => [...s.ours, ...s.peer].map((p) => p[1]));
  const max = yMax === null ? niceMax(Math.max(0, ...all)) : yMax;
  const xOf = (x) => BOX.x + (BOX.w * (x - xMin)) / (xMax - xMin);
  const yOf = (v) => BOX.y + BOX.h - (BOX.h * Math.min(v, max)) / max;
  const kids = [h('title', { id: `${id}-title` }, title)];
  kids.push(h('line', { class: 'fl-axis', x1: BOX.x, y1: BOX.y + BOX.h, x2: BOX.x + BOX.w, y2: BOX.y + BOX.h }));
  for (const f of [0, 0.5, 1]) {
    const y = r1(yOf(max * f));
    kids.push(h('line', { class: 'fl-grid', x1: BOX.x, y1: y, x2: BOX.x + BOX.w, y2: y }));
    kids.push(h('text', { class: 'fl-tick', x: BOX.x - 4, y: y + 4, 'text-anchor': 'end' }, yFormat(max * f)));
  }
  for (const x of xTicks) kids.push(h('text', { class: 'fl-tick', x: r1(xOf(x)), y: BOX.y + BOX.h + 14, 'text-anchor': 'middle' }, tick(x)));
  kids.push(h('text', { class: 'fl-tick', x: BOX.x + BOX.w, y: BOX.y + BOX.h + 28, 'text-anchor': 'end' }, xLabel));
  kids.push(h('text', { class: 'fl-tick', x: BOX.x, y: BOX.y - 2 }, unit));
  for (const s of series) {
    let cross = '';
    for (const [x, y] of s.peer) {
      const cx = r1(xOf(x));
      const cy = r1(yOf(y));
      cross += `M${cx - 3} ${cy - 3}L${cx + 3} ${cy + 3}M${cx - 3} ${cy + 3}L${cx + 3} ${cy - 3}`;
    }
    if (cross) kids.push(h('path', { class: `fl-peer ${s.cls}`, d: cross }));
    if (s.ours.length) {
      const d = s.ours.map(([x, y], j) => `${j ? 'L' : 'M'}${r1(xOf(x))} ${r1(yOf(y))}`).join('');
      kids.push(h('path', { class: `fl-line ${s.cls}`, d, fill: 'none', 'stroke-dasharray': s.dash || null }));
      for (const [x, y] of s.ours) kids.push(h('circle', { class: `fl-dot ${s.cls}`, cx: r1(xOf(x)), cy: r1(yOf(y)), r: 2 }));
    }
  }
  return h('svg', { xmlns: 'http://www.w3.org/2000/svg', class: 'fl-chart fl-small', viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', 'aria-labelledby': `${id}-title` }, ...kids);
}

// The legend: each series' dash in its colour and its words, and the anchor's crosses.
export function legend(series, peerWords) {
  return h('ul', { class: 'fl-legend' },
    ...series.map((s) => h('li', {},
      h('svg', { width: 36, height: 10, viewBox: '0 0 36 10', 'aria-hidden': 'true' }, h('line', { class: `fl-line ${s.cls}`, x1: 0, y1: 5, x2: 36, y2: 5, 'stroke-dasharray': s.dash || null })),
      ` ${s.label}`)),
    h('li', {}, h('svg', { width: 12, height: 10, viewBox: '0 0 12 10', 'aria-hidden': 'true' }, h('path', { class: 'fl-peer fl-s0', d: 'M3 2L9 8M3 8L9 2' })), ` ${peerWords}`));
}
