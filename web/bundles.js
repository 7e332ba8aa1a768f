// The page's later bundles (retrylab-sections.js, retrylab-export.js): classic scripts beside
// the page's own bundle, added to the page when they are needed, so that a reader pays only
// for what they use and the page still works from file://. Each one puts what it offers on
// a global, which the promise resolves to.

// The page bundle's own address, read while it runs: the others live beside it.
const BUNDLE_URL = typeof document !== 'undefined' && document.currentScript ? /** @type {HTMLScriptElement} */ (document.currentScript).src : '';

const loaded = new WeakMap(); // document → Map(file → promise): one load per file and page

function add(doc, el) {
  return new Promise((resolve, reject) => {
    el.addEventListener('load', () => resolve(el), { once: true });
    el.addEventListener('error', () => reject(new Error(`${el.src || el.href} did not load`)), { once: true });
    doc.head.append(el);
  });
}

// The script `file` (and the stylesheet `style`, if any), loaded once; resolves to
// window[globalName].
export function loadBundle(doc, file, globalName, { style = null } = {}) {
  const win = doc.defaultView;
  if (!loaded.has(doc)) loaded.set(doc, new Map());
  const pending = loaded.get(doc);
  if (pending.has(file)) return pending.get(file);
  const base = BUNDLE_URL || win.location.href;
  const loads = [];
  if (style) {
    const link = doc.createElement('link');
    link.rel = 'stylesheet';
    link.href = new win.URL(style, base).href;
    loads.push(add(doc, link));
  }
  const script = doc.createElement('script');
  script.src = new win.URL(file, base).href;
  loads.push(add(doc, script));
  const promise = Promise.all(loads).then(() => {
    if (!win[globalName]) throw new Error(`${file} defined nothing`);
    return win[globalName];
  });
  // A failed load may be tried again (a reader who clicks once more).
  promise.catch(() => pending.delete(file));
  pending.set(file, promise);
  return promise;
}
