// The run in the page's URL. Opening a link (or editing the hash by hand) loads its inputs;
// every new run after that rewrites the hash with history.replaceState, so the Back button
// is not flooded. Writes are batched: a dragged slider makes one write when it rests.

import { MAX_LINK_LENGTH, isLink } from './codec.js';
import { acceptInputs } from './accept.js';
import { isCompareLink } from './compare-link.js';

const WRITE_DELAY_MS = 200;

// { inputs, page, result, problems } for a hash, its inputs checked by the engine. `engine`:
// { codec, validate, compute } (an explorable has all three: app.js).
export function readLink(hash, engine, { pageKeys = [] } = {}) {
  const parsed = engine.codec.parseLink(hash, { pageKeys });
  const accepted = acceptInputs(parsed.inputs, engine);
  // A value the engine refused is named as the link wrote it ("1e999", not "Infinity").
  const asWritten = accepted.problems.map((p) => (parsed.texts && p.key in parsed.texts ? { ...p, value: parsed.texts[p.key] } : p));
  return {
    inputs: accepted.inputs, page: parsed.page || {}, result: accepted.result,
    problems: [...parsed.problems, ...asWritten],
  };
}

// Keep the hash and the explorable together.
//   onProblems(problems): told after each link is read (an empty list clears the notice);
//   pageKeys, pageOf(state): the page's own keys (`trace`), and their values in a state;
//   apply(inputs, result, page): load a link's accepted inputs (whose run is `result`) and
//     page keys, returning problems (default: app.load(inputs)).
const samePage = (a, b) => Object.keys(a).length === Object.keys(b).length && Object.keys(a).every((k) => a[k] === b[k]);
// Does the link differ between two states: a new run, or new page keys (trace F's herd callers
// change no run on show, but they are in its link)?
export const linkMoved = (pageOf) => (state, before) => state.result !== before.result || !samePage(pageOf(state), pageOf(before));

export function syncLink(win, app, { onProblems, pageKeys = [], pageOf = (_state) => ({}), apply = null }) {
  const location = win.location;
  const load = apply || ((inputs) => { app.load(inputs); return []; });

  // Loading a link does not rewrite it: the reader's own text stays in the address bar
  // until they change something.
  let loading = false;
  function read() {
    // A comparison (view=compare) is compare mode's to read (web/compare/hook.js).
    if (!isLink(location.hash) || isCompareLink(location.hash)) return false;
    // A page whose engine comes on first need (main.js): the link is read when it is there.
    if (app.engineReady && !app.engineReady()) {
      app.ensureEngine().then(() => read(), () => {});
      return false;
    }
    const { inputs, result, page, problems } = readLink(location.hash, app, { pageKeys });
    loading = true;
    let more;
    try {
      more = load(inputs, result, page);
    } finally {
      loading = false;
    }
    onProblems([...problems, ...more]);
    return true;
  }

  let timer = 0;
  const hashNow = () => `#${app.codec.encodeLink(app.getState().result.inputs, pageOf(app.getState()))}`;
  function write() {
    timer = 0;
    // A run too big for a link (100,000 draws), or holding an input the format cannot carry
    // (codec.js uncarried: `servers`), keeps the last link that fit; the share bar says why, and
    // its JSON export carries it whole.
    if (app.codec.uncarried(app.getState().result.inputs).length > 0) return;
    const hash = hashNow();
    if (location.hash === hash || hash.length > MAX_LINK_LENGTH) return;
    try {
      // Keep whatever history.state another script put there.
      win.history.replaceState(win.history.state, '', hash);
    } catch {
      // A browser that refuses (a URL past its limit) keeps the link it has.
    }
  }
  // Each change puts the write off again, so it is made once the changes rest (a debounce, not
  // a write every 200 ms): a write costs the page a same-document navigation, and Chromium
  // fetches and decodes the favicon again after each (3-6 ms on the main thread, issue 18), which
  // a write in the middle of a dragged slider would put inside one of its frames.
  const schedule = () => {
    if (loading) return;
    if (timer) win.clearTimeout(timer);
    timer = win.setTimeout(write, WRITE_DELAY_MS);
  };

  const moved = linkMoved(pageOf);
  const unsubscribe = app.subscribe((state, before) => { if (moved(state, before)) schedule(); });
  const loaded = read();
  // A hash typed or pasted into the address bar, or a link on the page to another run.
  // replaceState fires no hashchange, so the page's own writes do not come back here.
  const onHash = () => {
    if (timer) {
      win.clearTimeout(timer);
      timer = 0;
    }
    read();
  };
  win.addEventListener('hashchange', onHash);
  return {
    loaded,
    read, // the link again, when what it names has arrived (the traces section)
    hashNow,
    destroy() {
      unsubscribe();
      win.removeEventListener('hashchange', onHash);
      if (timer) win.clearTimeout(timer);
    },
  };
}
