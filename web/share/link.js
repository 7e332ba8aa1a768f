// The run in the page's URL. Opening a link (or editing the hash by hand) loads its inputs;
// every new run after that rewrites the hash with history.replaceState, so the Back button
// is not flooded. Writes are batched: a dragged slider makes one write when it rests.

import { encodeLink, isLink, parseLink } from './codec.js';
import { acceptInputs } from './accept.js';

const WRITE_DELAY_MS = 200;

// { inputs, result, problems } for a hash, checked field by field by the engine.
export function readLink(hash, compute) {
  const parsed = parseLink(hash);
  const accepted = acceptInputs(parsed.inputs, compute);
  return { inputs: accepted.inputs, result: accepted.result, problems: [...parsed.problems, ...accepted.problems] };
}

// onProblems(problems) is told after each link is read (an empty list clears the notice).
export function syncLink(win, app, { onProblems }) {
  const location = win.location;

  // Loading a link does not rewrite it: the reader's own text stays in the address bar
  // until they change something.
  let loading = false;
  function load() {
    if (!isLink(location.hash)) return false;
    const { inputs, problems } = readLink(location.hash, app.compute);
    loading = true;
    try {
      app.load(inputs);
    } finally {
      loading = false;
    }
    onProblems(problems);
    return true;
  }

  let timer = 0;
  let written = null;
  function write() {
    timer = 0;
    const hash = `#${encodeLink(app.getState().result.inputs)}`;
    if (hash === written && location.hash === hash) return;
    written = hash;
    // Keep whatever history.state another script put there.
    win.history.replaceState(win.history.state, '', hash);
  }
  const schedule = () => {
    if (!loading && !timer) timer = win.setTimeout(write, WRITE_DELAY_MS);
  };

  const unsubscribe = app.subscribe(schedule);
  const loaded = load();
  // A hash typed or pasted into the address bar, or a link on the page to another run.
  // replaceState fires no hashchange, so the page's own writes do not come back here.
  const onHash = () => {
    if (timer) {
      win.clearTimeout(timer);
      timer = 0;
    }
    load();
  };
  win.addEventListener('hashchange', onHash);
  return {
    loaded,
    flush: () => { if (timer) { win.clearTimeout(timer); write(); } },
    destroy() {
      unsubscribe();
      win.removeEventListener('hashchange', onHash);
      if (timer) win.clearTimeout(timer);
    },
  };
}
