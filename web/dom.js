// A tiny virtual tree: render functions return plain { tag, attrs, children } objects, and
// mount() turns them into DOM. Views stay pure (testable in node, serialisable as SVG or
// HTML text for exports) and nothing ever goes through innerHTML, so text from anywhere is
// inert. There are no inline styles or handlers here by construction: a strict CSP holds.

const SVG_NS = 'http://www.w3.org/2000/svg';

/** @typedef {{ tag: string, attrs: Record<string, any>, children: Array<VNode | string> }} VNode */

/** @returns {VNode} */
export function h(tag, attrs, ...children) {
  return { tag, attrs: attrs || {}, children: flatten(children) };
}

function flatten(children) {
  const out = [];
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) out.push(...flatten(child));
    else out.push(typeof child === 'number' ? String(child) : child);
  }
  return out;
}

function checkAttr(name) {
  // Guard the CSP promise in one place: a view that tries an inline style or handler fails loudly.
  if (name === 'style' || /^on/i.test(name)) throw new Error(`views may not set "${name}"`);
}

export function mount(node, doc = document, inSvg = false) {
  if (typeof node === 'string') return doc.createTextNode(node);
  const svg = inSvg || node.tag === 'svg';
  const el = svg ? doc.createElementNS(SVG_NS, node.tag) : doc.createElement(node.tag);
  for (const [name, value] of Object.entries(node.attrs)) {
    checkAttr(name);
    if (value === null || value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of node.children) el.appendChild(mount(child, doc, svg));
  return el;
}

// The paragraph that says something could not run or load, in every place the page says so:
// styled as a failure (.rl-failure) and, unless `alert` is false, announced (role="alert").
export function failureNote(doc, text, { alert = true } = {}) {
  const p = doc.createElement('p');
  p.className = 'rl-failure';
  if (alert) p.setAttribute('role', 'alert');
  p.textContent = text;
  return p;
}

// Replace everything inside `container` with the mounted tree(s).
export function show(container, ...nodes) {
  const doc = container.ownerDocument;
  container.replaceChildren(...flatten(nodes).map((n) => mount(n, doc)));
}

// As show(), but the DOM already there is kept wherever the new tree matches it: an element
// of the same tag has its attributes and children brought up to date, a text node its text.
// The browser then restyles and lays out only what changed, and re-shapes no text that stayed
// the same (what a redraw of the experiment costs, BENCHMARKS.md). Form controls are replaced
// whole, as show() would, so that no typed value survives a redraw that means to reset it.
// Only for containers whose children nothing but their views decorates.
const REPLACED = new Set(['input', 'select', 'textarea']);

export function patch(container, ...nodes) {
  patchChildren(container, flatten(nodes), container.ownerDocument, container.namespaceURI === SVG_NS);
}

function patchChildren(parent, nodes, doc, inSvg) {
  const existing = parent.childNodes;
  for (let i = 0; i < nodes.length; ++i) patchOne(parent, existing[i], nodes[i], doc, inSvg);
  while (existing.length > nodes.length) parent.removeChild(parent.lastChild);
}

// One child brought up to date with `node`, read from the DOM (`current`: what stands there).
function patchOne(parent, current, node, doc, inSvg) {
  if (!current) {
    parent.appendChild(mount(node, doc, inSvg));
  } else if (typeof node === 'string') {
    if (current.nodeType !== 3) parent.replaceChild(doc.createTextNode(node), current);
    else if (current.data !== node) current.data = node;
  } else {
    const svg = inSvg || node.tag === 'svg';
    const same = current.nodeType === 1 && current.localName === node.tag && !REPLACED.has(node.tag) &&
      (current.namespaceURI === SVG_NS) === svg;
    if (!same) {
      parent.replaceChild(mount(node, doc, inSvg), current);
      return;
    }
    const wanted = node.attrs;
    for (const name of current.getAttributeNames()) {
      const value = wanted[name];
      if (value === undefined || value === null || value === false) current.removeAttribute(name);
    }
    for (const [name, value] of Object.entries(wanted)) {
      checkAttr(name);
      if (value === null || value === undefined || value === false) continue;
      const text = value === true ? '' : String(value);
      if (current.getAttribute(name) !== text) current.setAttribute(name, text);
    }
    patchChildren(current, node.children, doc, svg);
  }
}

// As patch(), for a container whose children only its one view draws (issue 18): the tree it
// drew last is kept beside it, and the next is compared with that tree instead of with the DOM,
// so what did not change costs no DOM read (getAttribute on every attribute of every element
// was most of a redraw's script). The writes are patch()'s: only what changed. Anything else
// that sets an attribute the view also sets would be overwritten only when the view's value
// changes; an attribute the view does not set is left alone (the timeline's playhead, whose
// position run-view.js writes on every frame). The first draw, or a container whose children
// were changed behind its back (their count differs), is patched against the DOM.
const drawnTrees = new WeakMap();

export function patchKnown(container, ...nodes) {
  const next = flatten(nodes);
  const before = drawnTrees.get(container);
  const doc = container.ownerDocument;
  const inSvg = container.namespaceURI === SVG_NS;
  if (before && before.length === container.childNodes.length) diffChildren(container, before, next, doc, inSvg);
  else patchChildren(container, next, doc, inSvg);
  drawnTrees.set(container, next);
}

const absent = (value) => value === undefined || value === null || value === false;
const attrText = (value) => (value === true ? '' : String(value));

function diffChildren(parent, before, nodes, doc, inSvg) {
  const existing = parent.childNodes;
  for (let i = 0; i < nodes.length; ++i) {
    const node = nodes[i];
    const old = before[i];
    const current = existing[i];
    if (!current || old === undefined || typeof old !== typeof node) patchOne(parent, current, node, doc, inSvg);
    else if (typeof node === 'string') {
      if (node !== old) current.data = node;
    } else if (old.tag !== node.tag || REPLACED.has(node.tag)) parent.replaceChild(mount(node, doc, inSvg), current);
    else {
      const { attrs } = node;
      for (const name in old.attrs) if (absent(attrs[name]) && !absent(old.attrs[name])) current.removeAttribute(name);
      for (const name in attrs) {
        checkAttr(name);
        const value = attrs[name];
        if (!absent(value) && (absent(old.attrs[name]) || attrText(old.attrs[name]) !== attrText(value))) current.setAttribute(name, attrText(value));
      }
      diffChildren(current, old.children, node.children, doc, inSvg || node.tag === 'svg');
    }
  }
  while (existing.length > nodes.length) parent.removeChild(parent.lastChild);
}

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escape = (text) => String(text).replace(/[&<>"]/g, (c) => ESCAPES[c]);

// Markup text for a tree (tests, and later the SVG export).
export function toMarkup(node) {
  if (typeof node === 'string') return escape(node);
  let attrs = '';
  for (const [name, value] of Object.entries(node.attrs)) {
    checkAttr(name);
    if (value === null || value === undefined || value === false) continue;
    attrs += value === true ? ` ${name}` : ` ${name}="${escape(value)}"`;
  }
  const xmlns = node.tag === 'svg' && !node.attrs.xmlns ? ` xmlns="${SVG_NS}"` : '';
  return `<${node.tag}${xmlns}${attrs}>${node.children.map(toMarkup).join('')}</${node.tag}>`;
}

// Plain text of a tree, as a reader (or a test) sees it.
export function textOf(node) {
  if (typeof node === 'string') return node;
  return node.children.map(textOf).join('');
}

// Every element of a tree matching a predicate, depth first.
export function findAll(node, predicate, found = []) {
  if (typeof node === 'string') return found;
  if (predicate(node)) found.push(node);
  for (const child of node.children) findAll(child, predicate, found);
  return found;
}
