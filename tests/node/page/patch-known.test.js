// web/dom.js patchKnown (issue 18): a container redrawn against the tree it drew last, not read
// back from the DOM, must end up as the DOM-reading patch() and a fresh mount() leave it,
// whatever trees came before. Checked over random sequences of random trees on a small DOM of
// plain objects (just what dom.js touches), so the relation holds for every change of tag,
// attribute (set, changed, removed, false, true), text and child count.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { h, mount, patch, patchKnown } from '../../../web/dom.js';
import { random } from '../../browser/lib/engine.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const HTML_NS = 'http://www.w3.org/1999/xhtml';

class Node {
  constructor(doc) { this.ownerDocument = doc; this.childNodes = []; this.parentNode = null; }
  get lastChild() { return this.childNodes[this.childNodes.length - 1] || null; }
  appendChild(child) { child.parentNode = this; this.childNodes.push(child); return child; }
  replaceChild(child, old) { const i = this.childNodes.indexOf(old); child.parentNode = this; this.childNodes[i] = child; return old; }
  removeChild(child) { this.childNodes.splice(this.childNodes.indexOf(child), 1); return child; }
  replaceChildren(...children) { this.childNodes = []; for (const c of children) this.appendChild(c); }
}
class Text extends Node {
  constructor(doc, data) { super(doc); this.nodeType = 3; this.data = data; }
}
class Element extends Node {
  constructor(doc, ns, tag) { super(doc); this.nodeType = 1; this.namespaceURI = ns; this.localName = tag; this.attributes = new Map(); }
  getAttributeNames() { return [...this.attributes.keys()]; }
  getAttribute(name) { return this.attributes.has(name) ? this.attributes.get(name) : null; }
  setAttribute(name, value) { this.attributes.set(name, String(value)); }
  removeAttribute(name) { this.attributes.delete(name); }
}
const makeDocument = () => {
  const doc = {
    createElement: (tag) => new Element(doc, HTML_NS, tag),
    createElementNS: (ns, tag) => new Element(doc, ns, tag),
    createTextNode: (data) => new Text(doc, data),
  };
  return doc;
};
// A DOM subtree as plain data, attributes sorted: what two ways of drawing must agree on.
const shape = (n) => (n.nodeType === 3 ? n.data : {
  tag: n.localName, ns: n.namespaceURI, attrs: [...n.attributes].sort(), children: n.childNodes.map(shape),
});

// Random trees over a few tags, attributes and texts, so that consecutive trees share some
// structure and differ in the rest.
function randomTree(next, depth = 0) {
  const pick = (xs) => xs[Math.floor(next() * xs.length)];
  if (depth > 0 && next() < 0.3) return pick(['a', 'b', '1,200 ms', '']);
  const attrs = {};
  for (const name of ['class', 'x', 'width', 'aria-label', 'hidden']) {
    const r = next();
    if (r < 0.35) continue;
    attrs[name] = r < 0.45 ? false : r < 0.55 ? null : r < 0.65 ? true : pick(['p', 'q', 3, 0, 'r s']);
  }
  const n = depth < 3 ? Math.floor(next() * 4) : 0;
  const children = Array.from({ length: n }, () => randomTree(next, depth + 1));
  return h(pick(depth === 0 ? ['div', 'svg'] : ['g', 'p', 'span', 'text', 'input']), attrs, ...children);
}

describe('patchKnown', () => {
  test('after any sequence of trees a container stands as patch() and a fresh mount() leave it', () => {
    const next = random(1818);
    for (let run = 0; run < 300; run += 1) {
      const doc = makeDocument();
      const known = doc.createElement('div');
      const read = doc.createElement('div');
      let last = null;
      for (let step = 0; step < 6; step += 1) {
        const trees = Array.from({ length: 1 + Math.floor(next() * 3) }, () => randomTree(next));
        patchKnown(known, ...trees);
        patch(read, ...trees);
        last = trees;
        assert.deepEqual(known.childNodes.map(shape), read.childNodes.map(shape), `run ${run}, step ${step}`);
      }
      const fresh = doc.createElement('div');
      fresh.replaceChildren(...last.map((t) => mount(t, doc)));
      assert.deepEqual(known.childNodes.map(shape), fresh.childNodes.map(shape), `run ${run}: as mounted`);
    }
  });

  test('children changed behind its back (a different count) are patched against the DOM', () => {
    const doc = makeDocument();
    const box = doc.createElement('div');
    patchKnown(box, h('p', { class: 'a' }, 'one'), h('p', { class: 'b' }, 'two'));
    box.removeChild(box.childNodes[0]);
    patchKnown(box, h('p', { class: 'a' }, 'one'), h('p', { class: 'b' }, 'two'));
    assert.deepEqual(box.childNodes.map(shape), [h('p', { class: 'a' }, 'one'), h('p', { class: 'b' }, 'two')].map((t) => shape(mount(t, doc))));
  });

  test('it refuses an inline style or handler, as patch() does', () => {
    const doc = makeDocument();
    const box = doc.createElement('div');
    patchKnown(box, h('p', { class: 'a' }));
    assert.throws(() => patchKnown(box, h('p', { style: 'color: red' })), /may not set "style"/);
    assert.throws(() => patchKnown(box, h('p', { onclick: 'x()' })), /may not set "onclick"/);
  });
});
