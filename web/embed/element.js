// <retry-lab>: the explorable as one script tag. retry-lab-element.js is the engine file and
// this bundle in one classic script (web/build.mjs), so it needs nothing else and runs
// from file:// too:
//
//   <script src="retry-lab-element.js" defer></script>
//   <retry-lab scenario="outage-503-twice" max-retries="1"></retry-lab>
//
// Attributes are the engine's inputs in kebab-case, their values written as in a link
// (share/codec.js). Each element is its own explorable in its own shadow root, styled by a
// constructed stylesheet (adoptedStyleSheets, which a strict `style-src 'self'` allows); the
// host page's CSS does not reach in and the element's does not reach out.
//
// <retry-lab view="fleet"> is the fleet view instead (web/fleet/embed.js, docs/fleet.md): its
// attributes are the fleet request's paths, and its code and engine load on demand.

import ELEMENT_CSS from 'retrylab:element-css';
import { createExplorable } from '../app.js';
import { loadEngine } from '../engine.js';
import { makeIds } from '../views/controls.js';
import { acceptInputs } from '../share/accept.js';
import { compareLinkOfAttributes } from '../share/compare-link.js';
import { attachShareBar, showNotice } from '../share/bar.js';
import * as exportFiles from '../export/all.js';
import { loadBundle } from '../bundles.js';
import { failureNote } from '../dom.js';

const TAG = 'retry-lab';

// The run in detail (the event trace, the server's answers, the metrics) folded under one
// disclosure, closed: an element is a figure in someone else's article, and with them open it
// stood 2,700 px tall at 900 px wide and 4,400 px at 300 (issue 35 item 10). The page keeps them open.
export function foldPrecise(box) {
  const precise = [...box.querySelectorAll('.rl-precise')];
  if (!precise.length) return;
  const doc = box.ownerDocument;
  const fold = doc.createElement('details');
  fold.className = 'rl-view rl-fold';
  const summary = doc.createElement('summary');
  summary.textContent = 'The run in detail: every event, the server’s answers, the metrics';
  fold.append(summary);
  precise[0].before(fold);
  fold.append(...precise);
}
// Attributes any element may carry, which are not inputs and not mistakes.
// `theme` (light, dark or auto) is the element's colours, not an input of the run.
const GLOBAL = new Set(['theme', 'id', 'class', 'style', 'title', 'lang', 'dir', 'hidden', 'tabindex', 'slot', 'part', 'role', 'translate', 'inert', 'nonce', 'autofocus', 'exportparts', 'is', 'itemscope', 'itemprop', 'itemtype', 'itemid', 'itemref']);
const isGlobal = (name) => GLOBAL.has(name) || name.startsWith('data-') || name.startsWith('aria-');

// The site beside this script: "Copy link" and "Open in Retry Lab" go to its index.html.
const SCRIPT_URL = typeof document !== 'undefined' && document.currentScript ? /** @type {HTMLScriptElement} */ (document.currentScript).src : '';
const SITE = SCRIPT_URL ? new URL('index.html', SCRIPT_URL).href : null;
// The page a link goes to: the site beside this script, or (without one) the host page.
const linkBase = () => SITE || window.location.href.split('#')[0];

let sheet = null;
function styleSheet() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(ELEMENT_CSS);
  }
  return sheet;
}

let enginePromise = null;
const engine = () => (enginePromise ||= loadEngine(window));

let instances = 0;

class RetryLabElement extends HTMLElement {
  constructor() {
    super();
    instances += 1;
    this.ordinal = instances;
    this.idPrefix = `rl-${instances}-`;
    this.id_ = makeIds(this.idPrefix);
    const shadow = this.attachShadow({ mode: 'open' });
    shadow.adoptedStyleSheets = [styleSheet()];
    this.shell = document.createElement('div');
    this.shell.className = 'rl-shell';
    this.rootBox = document.createElement('div');
    this.rootBox.className = 'rl-root';
    this.box = document.createElement('div');
    this.box.className = 'retry-lab';
    this.box.setAttribute('role', 'region');
    this.box.setAttribute('aria-label', 'Retry Lab');
    const loading = document.createElement('p');
    loading.className = 'rl-loading';
    loading.textContent = 'Loading the retry engine…';
    this.box.append(loading);
    this.rootBox.append(this.box);
    this.shell.append(this.rootBox);
    shadow.append(this.shell);
    this.app = null;
    this.pending = false;
    // Any attribute may be an input (their names come from the engine's table, which arrives
    // with the engine): watch them all, and read them again together.
    this.watch = new MutationObserver((records) => {
      if (records.some((r) => r.attributeName === 'theme')) this.drawTheme();
      if (records.some((r) => !isGlobal(r.attributeName))) this.attributesChanged();
    });
    this.drawTheme();
    this.watch.observe(this, { attributes: true });
  }

  // theme="light" or "dark" fixes the element's colours whatever the reader's system says
  // (a white host page keeps a light element); "auto", none or anything else follows it.
  drawTheme() {
    const theme = this.getAttribute('theme');
    if (theme === 'light' || theme === 'dark') this.rootBox.dataset.theme = theme;
    else delete this.rootBox.dataset.theme;
  }

  connectedCallback() {
    // rem inside the element is the reader's default font size, not the host's root size.
    this.shell.style.setProperty('--rl-rem', getComputedStyle(this.shell).fontSize);
    if (!this.started) {
      this.started = true;
      this.start();
    }
  }

  disconnectedCallback() {
    // Moving the element keeps it; only an element that stays out of the page is stopped.
    queueMicrotask(() => {
      if (!this.isConnected && this.app) {
        if (this.compare) this.leaveCompare();
        this.watch.disconnect();
        this.share.destroy();
        this.app.destroy();
        this.app = null;
        this.started = false;
      }
      if (!this.isConnected && this.fleetView) {
        this.watch.disconnect();
        this.fleetView.destroy();
        this.fleetView = null;
        this.started = false;
      }
    });
  }

  attributesChanged() {
    // One reload for any number of attributes set together.
    if (!(this.app || this.fleetView) || this.pending) return;
    this.pending = true;
    queueMicrotask(() => {
      this.pending = false;
      if (this.fleetView) this.fleetView.attributesChanged();
      else if (this.app) this.loadAttributes();
    });
  }

  // Loads what a view needs (`load()`, a promise), then, while `current()` still holds (the
  // element is on the page), mounts it: `mountWith(loaded)`'s answer, or null. A load that
  // fails is said in the element (`failed(error)`, by default fail() below); an element taken
  // off the page meanwhile starts again when it comes back (`gone()`). The single run, the
  // fleet view and compare mode all start this way.
  async loadThenMount(load, mountWith, { failed = (error) => this.fail(error), current = () => this.isConnected, gone = () => { this.started = false; } } = {}) {
    let loaded;
    try {
      loaded = await load();
    } catch (error) {
      failed(error);
      return null;
    }
    if (!current()) {
      gone();
      return null;
    }
    return mountWith(loaded);
  }

  ready() {
    this.classList.add('rl-ready');
    this.dispatchEvent(new CustomEvent('retry-lab-ready', { bubbles: true }));
  }

  // view="fleet": the fleet view (web/fleet/embed.js), whose code (retrylab-fleet-section.js)
  // and engine (retrylab-fleet.js) load beside this script only for such an element.
  async startFleet() {
    this.box.querySelector('.rl-loading').textContent = 'Loading the fleet…';
    this.box.setAttribute('aria-label', 'Retry Lab: many callers, one server');
    await this.loadThenMount(() => loadBundle(document, 'retrylab-fleet-section.js', 'RetryLabFleetCode'), async (code) => {
      this.fleetView = code.mountFleetElement({
        box: this.box,
        attributes: () => [...this.attributes].filter((a) => !isGlobal(a.name)).map((a) => [a.name, a.value]),
        linkBase: () => linkBase(),
      });
      await this.fleetView.ready;
      this.ready();
    });
  }

  async start() {
    if (this.getAttribute('view') === 'fleet') {
      this.startFleet();
      return;
    }
    await this.loadThenMount(engine, (loaded) => {
      this.box.replaceChildren();
      this.loaded = loaded;
      this.app = createExplorable(this.box, loaded, { idPrefix: this.idPrefix });
      foldPrecise(this.box);
      this.share = attachShareBar(this.box, this.app, {
        id: this.id_,
        linkBase,
        openLabel: SITE ? 'Open in Retry Lab' : null,
        loadExports: () => Promise.resolve(exportFiles), // one script: the downloads are inside
      });
      this.nameLandmarks();
      this.loadAttributes();
      this.ready();
    });
  }

  // Several elements on a page each hold the same landmarks (the inputs' form, the event
  // trace, ...): each instance's landmarks carry its name too ("Retry Lab 2"), so a screen
  // reader's list of landmarks tells them apart.
  nameLandmarks() {
    const name = document.createElement('span');
    name.id = this.id_('instance');
    name.className = 'visually-hidden';
    name.textContent = `Retry Lab ${this.ordinal}`;
    this.box.prepend(name);
    this.box.removeAttribute('aria-label');
    this.box.setAttribute('aria-labelledby', name.id);
    for (const el of this.box.querySelectorAll('section[aria-labelledby], form[aria-labelledby]')) {
      el.setAttribute('aria-labelledby', `${el.getAttribute('aria-labelledby')} ${name.id}`);
    }
    for (const el of this.box.querySelectorAll('form[aria-label], [role="group"][aria-label], [role="region"][aria-label]')) {
      el.setAttribute('aria-label', `${el.getAttribute('aria-label')}, ${name.textContent}`);
    }
  }

  // The inputs the attributes hold; unusable ones keep their defaults, named in a notice by
  // their attribute names.
  readAttributes() {
    const { codec } = this.app;
    const pairs = [];
    const problems = [];
    const seen = new Set(); // an unknown name given twice (in two namespaces) is named once
    for (const { name, value } of this.attributes) {
      const field = codec.fieldOfAttribute(name);
      if (field) pairs.push([field, value]); // given twice: readPairs uses neither, and says so
      else if (!isGlobal(name) && !seen.has(name)) problems.push({ key: name, value, reason: codec.attributeHint(name) });
      seen.add(name);
    }
    const read = codec.readPairs(pairs);
    const accepted = acceptInputs(read.inputs, this.app);
    // Name them as they were written: attributes, not input names.
    const asWritten = accepted.problems.map((p) => (p.key in read.texts ? { ...p, value: read.texts[p.key] } : p));
    const named = [...read.problems, ...asWritten].map((p) => ({ ...p, key: codec.attributeOf(p.key) }));
    return { inputs: accepted.inputs, problems: [...problems, ...named] };
  }

  loadAttributes() {
    // view="compare": a comparison instead of one run (below); any other view, one run.
    if (this.getAttribute('view') === 'compare') {
      this.loadCompare();
      return;
    }
    if (this.compare) this.leaveCompare();
    const { inputs, problems } = this.readAttributes();
    this.app.load(inputs); // a stack of layers too: the explorable draws it (views/stack.js)
    showNotice(this.box, this.id_, problems, 'attributes');
  }

  // Compare mode (issue 17, docs/compare.md §3): its code is a bundle of its own,
  // retry-lab-compare.js beside this script, loaded the first time an element asks for it. It
  // shows in place of the single run, reads the attributes as a compare link
  // (share/compare-link.js; of="fleet", or a link of two fleet runs: compare/fleet.js) and
  // never writes the host page's address.
  wantsFleetCompare() {
    const link = this.getAttribute('link') || '';
    return this.getAttribute('of') === 'fleet' || link.split(/[#&]/).includes('of=fleet');
  }

  loadCompare() {
    const fleet = this.wantsFleetCompare();
    if (this.compare && this.compareFleet !== fleet) this.leaveCompare();
    if (this.compare) {
      this.compare.then((view) => view && view.read({ keep: true }));
      return;
    }
    this.box.hidden = true;
    const holder = document.createElement('div');
    holder.className = 'retry-lab rl-el-compare';
    holder.setAttribute('role', 'region');
    holder.setAttribute('aria-label', `Retry Lab ${this.ordinal}, before and after`);
    const loading = document.createElement('p');
    loading.textContent = 'Loading the comparison…';
    holder.append(loading);
    this.rootBox.append(holder);
    const base = linkBase();
    const app = this.app;
    const token = {}; // this entry into compare mode (one left before its code came is dropped)
    this.compareToken = token;
    this.compareFleet = fleet;
    this.compareBox = holder;
    this.compare = this.loadThenMount(() => loadBundle(document, 'retry-lab-compare.js', 'RetryLabCompareElement'), (code) => {
      const css = new CSSStyleSheet();
      css.replaceSync(code.css);
      this.shadowRoot.adoptedStyleSheets = [styleSheet(), css];
      // The attributes as a link, and a link's key named as the author wrote it.
      const source = (readIt) => ({
        hash: (table) => readIt(table).hash,
        write: null,
        address: () => base,
        read: (table) => {
          const now = readIt(table);
          const rename = (p) => ({ ...p, key: now.names.get(p.key) || (this.hasAttribute('link') ? `link's ${p.key}` : p.key) });
          return { problems: now.problems, rename, source: 'attributes' };
        },
        newTab: false,
      });
      const view = fleet
        ? code.mountFleetCompare(holder, {
          source: source((table) => code.fleetCompareLinkOfAttributes(this.attributes, table, isGlobal)),
          linkBase: () => base, metrics: this.loaded.compareMetrics(), idPrefix: `${this.idPrefix}cmpf-`,
        })
        : code.mountCompare(holder, {
          app, engine: this.loaded, createExplorable, linkBase: () => base,
          source: source(() => compareLinkOfAttributes(this.attributes, app.codec, isGlobal)),
        });
      this.classList.add('rl-compare-ready');
      return view;
    }, {
      current: () => this.compareToken === token && Boolean(this.app),
      gone: () => {},
      failed: (error) => {
        holder.replaceChildren(failureNote(document, `The comparison could not load (${error.message}): retry-lab-compare.js belongs beside retry-lab-element.js.`));
      },
    });
  }

  leaveCompare() {
    const pending = this.compare;
    this.compare = null;
    this.compareToken = null;
    pending.then((view) => view && view.destroy());
    this.classList.remove('rl-compare-ready');
    this.compareBox.remove();
    this.compareBox = null;
    this.box.hidden = false;
  }

  // `error`: loadEngine's EngineUnavailable (engine.js), whose code says why.
  fail(error) {
    const { message } = error;
    const csp = error.code === 'no-webassembly' || error.code === 'start-failed'
      ? " If this page sets a Content-Security-Policy, its script-src needs 'wasm-unsafe-eval'."
      : '';
    this.box.replaceChildren(failureNote(document, `${message}${csp} The Retry Lab explorable cannot run here.`));
    this.classList.add('rl-engine-failed');
    this.dispatchEvent(new CustomEvent('retry-lab-failed', { bubbles: true, detail: { message } }));
  }

  // For scripts and tests: the explorable's API once it is running (null before).
  get explorable() {
    return this.app;
  }

  // view="fleet": the fleet view's API once it is mounted (web/fleet/section.js), else null.
  get fleet() {
    return this.fleetView ? this.fleetView.api : null;
  }
}

if (typeof customElements !== 'undefined' && !customElements.get(TAG)) customElements.define(TAG, RetryLabElement);
