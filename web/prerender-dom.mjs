// A small DOM in node, just enough for the page's own explorable code (app.js and what it
// mounts) to draw the opening run at build time (issue 15/18: the first frame is the page's
// HTML). web/prerender.mjs runs createExplorable() on it as the browser would, tells its
// resize observers the widths the page's wide layout gives the timeline and the lanes, and
// writes the result into dist/index.html; in the browser the script then finds the drawing
// already there and draws nothing again (app.js `hydrate`). What is not here fails loudly
// (a missing method is a TypeError at build time), and tests/browser/engine-on-demand.test.js
// holds that the browser's first load changes nothing the build wrote.

const SVG_NS = 'http://www.w3.org/2000/svg';
const HTML_NS = 'http://www.w3.org/1999/xhtml';
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

class Node {
  constructor(doc) {
    this.ownerDocument = doc;
    this.parentNode = null;
    this.childNodes = [];
  }

  get firstChild() { return this.childNodes[0] || null; }
  get lastChild() { return this.childNodes[this.childNodes.length - 1] || null; }
  get nextSibling() { return this.#sibling(1); }
  get previousSibling() { return this.#sibling(-1); }
  #sibling(d) {
    if (!this.parentNode) return null;
    const list = this.parentNode.childNodes;
    return list[list.indexOf(this) + d] || null;
  }

  get isConnected() {
    let n = this;
    while (n.parentNode) n = n.parentNode;
    return n === this.ownerDocument;
  }

  getRootNode() {
    let n = this;
    while (n.parentNode) n = n.parentNode;
    return n;
  }

  #adopt(child) {
    if (child.parentNode) child.parentNode.removeChild(child);
    child.parentNode = this;
    return child;
  }

  appendChild(child) {
    this.childNodes.push(this.#adopt(child));
    return child;
  }

  insertBefore(child, ref) {
    if (!ref) return this.appendChild(child);
    this.#adopt(child);
    this.childNodes.splice(this.childNodes.indexOf(ref), 0, child);
    return child;
  }

  removeChild(child) {
    const i = this.childNodes.indexOf(child);
    if (i === -1) throw new Error('prerender-dom: removeChild of a node that is not a child');
    this.childNodes.splice(i, 1);
    child.parentNode = null;
    return child;
  }

  replaceChild(child, old) {
    this.insertBefore(child, old);
    return this.removeChild(old);
  }

  replaceChildren(...nodes) {
    for (const c of [...this.childNodes]) this.removeChild(c);
    for (const n of nodes) this.appendChild(typeof n === 'string' ? this.ownerDocument.createTextNode(n) : n);
  }

  append(...nodes) {
    for (const n of nodes) this.appendChild(typeof n === 'string' ? this.ownerDocument.createTextNode(n) : n);
  }

  prepend(...nodes) {
    const first = this.firstChild;
    for (const n of nodes) this.insertBefore(typeof n === 'string' ? this.ownerDocument.createTextNode(n) : n, first);
  }

  before(...nodes) {
    for (const n of nodes) this.parentNode.insertBefore(n, this);
  }

  after(...nodes) {
    let ref = this.nextSibling;
    for (const n of nodes) {
      if (n === ref) ref = n.nextSibling; // already in place
      else this.parentNode.insertBefore(n, ref);
    }
  }

  remove() {
    if (this.parentNode) this.parentNode.removeChild(this);
  }

  get textContent() { return this.childNodes.map((c) => c.textContent).join(''); }
  set textContent(text) {
    this.replaceChildren();
    if (text !== '') this.appendChild(this.ownerDocument.createTextNode(String(text)));
  }

  addEventListener() {}
  removeEventListener() {}
}

class Text extends Node {
  constructor(doc, data) {
    super(doc);
    this.data = data;
    this.nodeType = 3;
    this.nodeName = '#text';
  }

  get textContent() { return this.data; }
  set textContent(text) { this.data = String(text); }
}

class ClassList {
  constructor(el) { this.el = el; }
  #list() { return (this.el.getAttribute('class') || '').split(/\s+/).filter(Boolean); }
  contains(name) { return this.#list().includes(name); }
  add(...names) {
    const list = this.#list();
    for (const n of names) if (!list.includes(n)) list.push(n);
    this.el.setAttribute('class', list.join(' '));
  }

  remove(...names) {
    if (!this.el.hasAttribute('class')) return;
    this.el.setAttribute('class', this.#list().filter((n) => !names.includes(n)).join(' '));
  }

  toggle(name, force) {
    const on = force === undefined ? !this.contains(name) : Boolean(force);
    if (on !== this.contains(name)) {
      if (on) this.add(name);
      else this.remove(name);
    }
    return on;
  }
}

// Selectors the explorable's code uses: compound selectors (tag, #id, .class, [name],
// [name="value"]) joined by descendant spaces, in comma lists. Anything else is refused.
function parseCompound(text) {
  const parts = { tag: null, id: null, classes: [], attrs: [] };
  const re = /^([a-zA-Z][a-zA-Z0-9-]*)|#([\w-]+)|\.([\w-]+)|\[([\w-]+)(?:="([^"]*)")?\]/y;
  let at = 0;
  while (at < text.length) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m || m.index !== at) throw new Error(`prerender-dom: selector not supported: ${text}`);
    if (m[1]) parts.tag = m[1].toLowerCase();
    else if (m[2]) parts.id = m[2];
    else if (m[3]) parts.classes.push(m[3]);
    else parts.attrs.push([m[4], m[5]]);
    at = re.lastIndex;
  }
  return parts;
}
const compile = (selector) => selector.split(',').map((s) => s.trim().split(/\s+/).map(parseCompound));
const matchesCompound = (el, c) => (!c.tag || el.localName === c.tag) && (!c.id || el.getAttribute('id') === c.id) &&
  c.classes.every((k) => el.classList.contains(k)) &&
  c.attrs.every(([n, v]) => (v === undefined ? el.hasAttribute(n) : el.getAttribute(n) === v));
function matchesChain(el, chain) {
  if (!matchesCompound(el, chain[chain.length - 1])) return false;
  let i = chain.length - 2;
  for (let p = el.parentNode; i >= 0 && p && p.nodeType === 1; p = p.parentNode) if (matchesCompound(p, chain[i])) --i;
  return i < 0;
}

class Element extends Node {
  constructor(doc, ns, tag) {
    super(doc);
    this.namespaceURI = ns;
    this.localName = tag;
    this.nodeType = 1;
    this.attrs = new Map();
    this.classList = new ClassList(this);
    this.style = {}; // CSSOM writes (the seek bar's fill): not markup, as the page's CSP wants
    // Form state that is a property, not an attribute (as in a browser, not written out).
    this.value = undefined;
    this.checked = undefined;
  }

  get nodeName() { return this.localName.toUpperCase(); }
  get tagName() { return this.nodeName; }
  get id() { return this.getAttribute('id') || ''; }
  get className() { return this.getAttribute('class') || ''; }
  get hidden() { return this.hasAttribute('hidden'); }
  set hidden(on) { if (on) this.setAttribute('hidden', ''); else this.removeAttribute('hidden'); }
  get disabled() { return this.hasAttribute('disabled'); }
  set disabled(on) { if (on) this.setAttribute('disabled', ''); else this.removeAttribute('disabled'); }
  // data-* attributes, read and written as a browser's dataset does.
  get dataset() {
    const attr = (key) => `data-${String(key).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    return new Proxy({}, {
      get: (_, key) => (typeof key === 'string' ? this.getAttribute(attr(key)) ?? undefined : undefined),
      set: (_, key, value) => { this.setAttribute(attr(key), value); return true; },
      deleteProperty: (_, key) => { this.removeAttribute(attr(key)); return true; },
      has: (_, key) => this.hasAttribute(attr(key)),
    });
  }

  toggleAttribute(name, force) {
    const on = force === undefined ? !this.hasAttribute(name) : Boolean(force);
    if (on && !this.hasAttribute(name)) this.setAttribute(name, '');
    if (!on) this.removeAttribute(name);
    return on;
  }

  get children() { return this.childNodes.filter((c) => c.nodeType === 1); }
  get firstElementChild() { return this.children[0] || null; }
  get nextElementSibling() {
    let n = this.nextSibling;
    while (n && n.nodeType !== 1) n = n.nextSibling;
    return n;
  }

  // The widths a layout would give (prerender.mjs sets them by id for the boxes it measures).
  get clientWidth() { return this.ownerDocument.widths[this.id] || 0; }

  getAttribute(name) { return this.attrs.has(name) ? this.attrs.get(name) : null; }
  setAttribute(name, value) { this.attrs.set(name, String(value)); }
  removeAttribute(name) { this.attrs.delete(name); }
  hasAttribute(name) { return this.attrs.has(name); }
  getAttributeNames() { return [...this.attrs.keys()]; }

  matches(selector) { return compile(selector).some((chain) => matchesChain(this, chain)); }
  closest(selector) {
    for (let n = this; n && n.nodeType === 1; n = n.parentNode) if (n.matches(selector)) return n;
    return null;
  }

  querySelectorAll(selector) {
    const chains = compile(selector);
    const out = [];
    const walk = (n) => {
      for (const c of n.childNodes) {
        if (c.nodeType !== 1) continue;
        if (chains.some((chain) => matchesChain(c, chain))) out.push(c);
        walk(c);
      }
    };
    walk(this);
    return out;
  }

  querySelector(selector) { return this.querySelectorAll(selector)[0] || null; }
  focus() {}
}

class Document extends Node {
  constructor(view) {
    super(null);
    this.ownerDocument = this;
    this.defaultView = view;
    this.nodeType = 9;
    this.widths = {};
    this.activeElement = null;
    this.documentElement = this.createElement('html');
    this.appendChild(this.documentElement);
    this.body = this.documentElement.appendChild(this.createElement('body'));
  }

  createElement(tag) { return new Element(this, HTML_NS, tag.toLowerCase()); }
  createElementNS(ns, tag) { return new Element(this, ns, tag); }
  createTextNode(text) { return new Text(this, String(text)); }
  querySelector(selector) { return this.documentElement.querySelector(selector); }
  querySelectorAll(selector) { return this.documentElement.querySelectorAll(selector); }
}

// A window: no media query matches (a wide screen, motion allowed), observers are recorded
// for the caller to tell (`resize(widths)`: each ResizeObserver, in the order made, as a
// browser's first layout does), no animation frame ever runs.
export function createWindow() {
  const observers = [];
  const view = {
    matchMedia: () => ({ matches: false, addEventListener() {}, removeEventListener() {} }),
    ResizeObserver: class {
      constructor(callback) {
        this.callback = callback;
        this.targets = [];
        observers.push(this);
      }

      observe(target) { this.targets.push(target); }
      disconnect() { this.targets = []; }
    },
    IntersectionObserver: class {
      observe() {}
      disconnect() {}
    },
    requestAnimationFrame: () => 1,
    cancelAnimationFrame() {},
    performance: { now: () => 0 },
  };
  const doc = new Document(view);
  view.document = doc;
  // Tell every observer the width of each box it watches (widths by element id).
  function resize(widths) {
    Object.assign(doc.widths, widths);
    for (const o of observers) {
      const entries = o.targets.map((target) => ({ target, contentRect: { width: widths[target.id] || 0 } }));
      if (entries.length) o.callback(entries, o);
    }
  }
  return { view, doc, resize };
}

const escapeText = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

// HTML text of a node's children, as an HTML parser will read it back (void elements have no
// end tag; adjacent text nodes would be read back as one, so none may be written).
export function innerHTML(node) {
  let out = '';
  let lastText = false;
  for (const c of node.childNodes) {
    if (c.nodeType === 3) {
      if (c.data === '') throw new Error('prerender-dom: an empty text node would not survive HTML parsing');
      if (lastText) throw new Error(`prerender-dom: two text nodes side by side in <${node.localName}> would be read back as one`);
      out += escapeText(c.data);
      lastText = true;
      continue;
    }
    lastText = false;
    let attrs = '';
    for (const [n, v] of c.attrs) attrs += v === '' ? ` ${n}` : ` ${n}="${escapeAttr(v)}"`;
    out += `<${c.localName}${attrs}>`;
    if (VOID.has(c.localName) && c.namespaceURI === HTML_NS) {
      if (c.childNodes.length) throw new Error(`prerender-dom: <${c.localName}> cannot hold children`);
      continue;
    }
    out += `${innerHTML(c)}</${c.localName}>`;
  }
  return out;
}

export { SVG_NS };
