// A small line chart for the reproductions (pure, a dom.js tree): this engine's points as a
// line with a dot at each, the anchor's own as crosses, each series with its dash pattern and
// colour class, so that none is told by colour alone (the legend names each pattern). Drawn 440
// units wide, so that at a phone's width its words stay near 10 px and at a column's 32rem near
// 14 px (issue 35: the reproductions were 340 px wide at any width). A series whose values span
// orders of magnitude (the AWS figure's completion times: 382 ms to 101 s) takes `yLog`, a log
// scale (yAxis), so that each line reads instead of all but one lying on zero.

import { h } from '../dom.js';

const W = 440;
const H = 290;
const BOX = { x: 60, y: 26, w: 360, h: 220 };

export function niceMax(v) {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}
const r1 = (n) => Math.round(n * 10) / 10;
const tick = (v) => (Math.abs(v) >= 1000 ? v.toLocaleString('en-US') : String(Math.round(v * 1000) / 1000));

// The y axis: a linear one from 0 to yMax (else the values' nice maximum), ticks at 0, half and
// the top; or, with yLog, from the power of ten at or below the least value to the nice maximum
// of the most (1, 2, 2.5 or 5 times a power of ten), a tick at each power of ten.
export function yAxis(values, { yMax = null, yLog = false }) {
  if (yLog) {
    const pos = values.filter((v) => v > 0);
    const lo = 10 ** Math.floor(Math.log10(pos.length ? Math.min(...pos) : 1));
    const hi = Math.max(lo * 10, niceMax(pos.length ? Math.max(...pos) : 10));
    const ticks = [];
    for (let t = lo; t <= hi * 1.0001; t *= 10) ticks.push(t);
    const span = Math.log10(hi / lo);
    return { ticks, at: (v) => Math.min(1, Math.max(0, Math.log10(Math.max(v, lo) / lo) / span)) };
  }
  const max = yMax === null ? niceMax(Math.max(0, ...values)) : yMax;
  return { ticks: [0, max / 2, max], at: (v) => Math.min(v, max) / max };
}

// series: [{ cls, dash, ours: [[x, y]], peer: [[x, y]] }]; x from xMin to xMax.
export function linePanel(series, { id, title, unit, xLabel, xMin, xMax, xTicks, yMax = null, yLog = false, yFormat = tick }) {
  const axis = yAxis(series.flatMap((s) => [...s.ours, ...s.peer].map((p) => p[1])), { yMax, yLog });
  const xOf = (x) => BOX.x + (BOX.w * (x - xMin)) / (xMax - xMin);
  const yOf = (v) => BOX.y + BOX.h - BOX.h * axis.at(v);
  const kids = [h('title', { id: `${id}-title` }, title)];
  kids.push(h('line', { class: 'fl-axis', x1: BOX.x, y1: BOX.y + BOX.h, x2: BOX.x + BOX.w, y2: BOX.y + BOX.h }));
  for (const v of axis.ticks) {
    const y = r1(yOf(v));
    kids.push(h('line', { class: 'fl-grid', x1: BOX.x, y1: y, x2: BOX.x + BOX.w, y2: y }));
    kids.push(h('text', { class: 'fl-tick', x: BOX.x - 4, y: y + 4, 'text-anchor': 'end' }, yFormat(v)));
  }
  for (const x of xTicks) kids.push(h('text', { class: 'fl-tick', x: r1(xOf(x)), y: BOX.y + BOX.h + 16, 'text-anchor': 'middle' }, tick(x)));
  kids.push(h('text', { class: 'fl-tick', x: BOX.x + BOX.w, y: BOX.y + BOX.h + 34, 'text-anchor': 'end' }, xLabel));
  kids.push(h('text', { class: 'fl-tick', x: BOX.x, y: BOX.y - 8 }, yLog ? `${unit} (log scale)` : unit));
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
