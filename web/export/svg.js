// The timeline as a self-contained SVG file for a blog post: the same tree the page draws
// (views/timeline.js), with the colours that css/timeline.css gives it in the light theme
// written onto each element as SVG presentation attributes (no classes, no CSS variables,
// no stylesheet), a white background and a <title>. The playhead and its veil are left out.
//
// PAINT mirrors timeline.css rule by rule, specificity included (`.timeline text` beats
// `.tl-label-wait`); a browser test compares every element's computed paint with the live
// timeline's, so the two cannot drift apart unnoticed.

import { h, toMarkup } from '../dom.js';
import { summary, timelineView } from '../views/timeline.js';
import { verdictText, verdictTone } from '../views/metrics.js';
import { runTitle } from './download.js';

// css/tokens.css, light theme.
export const LIGHT = {
  panel: '#ffffff', fg: '#1d1c1a', muted: '#595650', rule: '#d9d4ca', client: '#2a5db0',
  clientSoft: '#dbe6f7', wait: '#6a665f', charge: '#b42318', chargeSoft: '#fde6e3',
  replay: '#16713f', error: '#9a4a00', lost: '#6c3ba6', deadline: '#8a1c7c',
};
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

// [test, paint] pairs in cascade order: a later match overrides an earlier one.
/** @type {Array<[(n: any) => boolean, Record<string, string | number>]>} */
const PAINT = [
  [(n) => n.tag === 'svg', { 'font-size': 12, 'font-family': FONT }],
  [(n) => n.tag === 'text', { fill: LIGHT.fg }], // .timeline text (0,1,1)
  [(n) => n.has('tl-lane'), { 'font-weight': 700, 'font-size': 12 }],
  [(n) => n.has('tl-server-line'), { stroke: LIGHT.rule, 'stroke-width': 1.5 }],
  [(n) => n.has('tl-bar'), { 'stroke-width': 1.5 }],
  [(n) => n.has('tl-bar-ok'), { fill: LIGHT.client, stroke: LIGHT.client }],
  [(n) => n.has('tl-bar-timeout'), { fill: LIGHT.clientSoft, stroke: LIGHT.client, 'stroke-dasharray': '5 3' }],
  [(n) => n.has('tl-bar-error'), { fill: LIGHT.chargeSoft, stroke: LIGHT.error }],
  [(n) => n.has('tl-wait'), { stroke: LIGHT.wait, 'stroke-width': 2, 'stroke-dasharray': '2 4' }],
  [(n) => n.has('tl-wait-end'), { fill: 'none', stroke: LIGHT.wait, 'stroke-width': 2 }],
  [(n) => n.has('tl-label-attempt') || n.has('tl-label-inbar'), { 'font-weight': 600 }],
  [(n) => n.has('tl-stem'), { stroke: LIGHT.rule, 'stroke-width': 1, 'stroke-dasharray': '2 2' }],
  [(n) => n.has('tl-mark-commit'), { fill: LIGHT.charge }],
  [(n) => n.has('tl-label-server'), { 'font-weight': 600 }],
  [(n) => n.has('tl-mark-replay'), { fill: LIGHT.replay }],
  [(n) => n.has('tl-mark-error'), { fill: LIGHT.error }],
  [(n) => n.has('tl-mark-lost'), { stroke: LIGHT.lost, 'stroke-width': 2.5, fill: 'none' }],
  [(n) => n.has('tl-deadline'), { stroke: LIGHT.deadline, 'stroke-width': 2, 'stroke-dasharray': '6 3' }],
  // (0,1,1) rules that come later in the file, then (0,2,0) ones.
  [(n) => n.tag === 'line' && n.within('tl-tick'), { stroke: LIGHT.rule, 'stroke-width': 1 }],
  [(n) => n.tag === 'text' && n.within('tl-tick'), { fill: LIGHT.muted, 'font-size': 11 }],
  [(n) => n.has('on-tl-bar-ok'), { fill: LIGHT.panel }],
  [(n) => n.has('on-tl-bar-timeout') || n.has('on-tl-bar-error'), { fill: LIGHT.fg }],
  [(n) => n.has('tl-deadline-label'), { fill: LIGHT.deadline, 'font-weight': 600 }],
];

function paintTree(node, ancestors = []) {
  if (typeof node === 'string') return node;
  if (node.attrs['data-playhead']) return null;
  const classes = String(node.attrs.class || '').split(/\s+/);
  const probe = {
    tag: node.tag,
    has: (c) => classes.includes(c),
    within: (c) => ancestors.some((a) => a.includes(c)),
  };
  const attrs = {};
  for (const [name, value] of Object.entries(node.attrs)) if (name !== 'class') attrs[name] = value;
  for (const [test, paint] of PAINT) if (test(probe)) Object.assign(attrs, paint);
  const children = node.children.map((c) => paintTree(c, [...ancestors, classes])).filter((c) => c !== null);
  return { tag: node.tag, attrs, children };
}

const HEAD = 52; // the title and the verdict above the timeline
const LEGEND = 30; // the key below it

// The key to the marks, painted as the timeline paints them.
function legend(y, width) {
  /** @type {Array<[string, (x: number, y: number) => import('../dom.js').VNode]>} */
  const items = [
    ['charge', (x) => h('path', { d: `M${x} ${y - 6}L${x + 6} ${y}L${x} ${y + 6}L${x - 6} ${y}Z`, fill: LIGHT.charge })],
    ['replay', (x) => h('circle', { cx: x, cy: y, r: 5, fill: LIGHT.replay })],
    ['error answer', (x) => h('rect', { x: x - 5, y: y - 5, width: 10, height: 10, fill: LIGHT.error })],
    ['lost', (x) => h('path', { d: `M${x - 4} ${y - 4}L${x + 4} ${y + 4}M${x + 4} ${y - 4}L${x - 4} ${y + 4}`, stroke: LIGHT.lost, 'stroke-width': 2.5, fill: 'none' })],
    ['attempt answered', (x) => h('rect', { x: x - 8, y: y - 5, width: 16, height: 10, rx: 2, fill: LIGHT.client })],
    ['attempt timed out', (x) => h('rect', { x: x - 8, y: y - 5, width: 16, height: 10, rx: 2, fill: LIGHT.clientSoft, stroke: LIGHT.client, 'stroke-dasharray': '5 3' })],
    ['wait', (x) => h('line', { x1: x - 8, x2: x + 8, y1: y, y2: y, stroke: LIGHT.wait, 'stroke-width': 2, 'stroke-dasharray': '2 4' })],
    ['deadline', (x) => h('line', { x1: x, x2: x, y1: y - 7, y2: y + 7, stroke: LIGHT.deadline, 'stroke-width': 2, 'stroke-dasharray': '6 3' })],
  ];
  const out = [];
  let x = 16;
  let row = 0;
  for (const [label, mark] of items) {
    const w = 26 + label.length * 6.6;
    if (x + w > width - 8 && x > 16) { x = 16; row += 1; }
    out.push(mark(x + 8, y + row * 18), h('text', { x: x + 20, y: y + row * 18 + 4, fill: LIGHT.muted, 'font-size': 11 }, label));
    x += w;
  }
  return { tree: h('g', { 'data-part': 'legend' }, out), rows: row + 1 };
}

// The SVG file's text for a run, `width` pixels wide: a title and the run's verdict, the
// timeline, and a key to its marks.
export function timelineSvg(result, { width = 720 } = {}) {
  const { tree } = timelineView(result, { width });
  const painted = /** @type {import('../dom.js').VNode} */ (paintTree(tree));
  const height = Number(painted.attrs.height);
  const key = legend(HEAD + height + 14, Number(painted.attrs.width));
  const total = HEAD + height + LEGEND + (key.rows - 1) * 18;
  const body = h('g', { 'data-part': 'timeline', transform: `translate(0 ${HEAD})` }, painted.children);
  const file = {
    tag: 'svg',
    attrs: { ...painted.attrs, height: total, viewBox: `0 0 ${painted.attrs.width} ${total}` },
    children: [
      h('title', null, `Retry Lab: ${verdictText(result)}. ${summary(result)}`),
      h('rect', { width: '100%', height: '100%', fill: LIGHT.panel }),
      body,
      h('text', { x: 16, y: 22, fill: LIGHT.fg, 'font-size': 15, 'font-weight': 700 }, `Retry Lab · ${runTitle(result)}`),
      h('text', { x: 16, y: 42, fill: verdictTone(result) === 'bad' ? LIGHT.charge : LIGHT.fg, 'font-size': 13, 'font-weight': 600 }, `${verdictText(result)}.`),
      key.tree,
    ],
  };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${toMarkup(file)}\n`;
}
