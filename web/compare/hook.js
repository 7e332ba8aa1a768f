// The page's way into compare mode (issue 17), in the page's own bundle and kept small: compare
// mode itself is a bundle of its own (retrylab-compare.js, web/compare/index.js), loaded the
// first time a reader opens a comparison (a view=compare link, share/compare-link.js) or asks
// for one ("Compare with…" beside Copy link), so the opening page does not carry it.

import { createExplorable } from '../app.js';
import { loadBundle } from '../bundles.js';
import { failureNote } from '../dom.js';
import { isCompareLink } from '../share/compare-link.js';

// `linkBase()`: the address (without hash) of the page a side opens alone on.
export function attachCompare(doc, root, app, engine, { linkBase }) {
  const win = doc.defaultView;
  let mode = null; // a promise of compare mode, attached once (it follows the hash itself)
  // `arrived`: a link followed in the page (a hash change), not the one it opened with.
  const start = ({ arrived = false } = {}) => {
    // Compare mode computes: the page's engine too, if it has not arrived (web/main.js).
    mode = mode || Promise.all([loadBundle(doc, 'retrylab-compare.js', 'RetryLabCompareCode', { style: 'retrylab-compare.css' }), app.ensureEngine()])
      .then(([code]) => code.attachCompareMode(root, { app, engine, createExplorable, linkBase, arrived }));
    mode.catch((error) => {
      mode = null;
      if (!isCompareLink(win.location.hash)) return;
      root.prepend(failureNote(doc, `The comparison could not load (${error.message}). Reload the page to try again.`));
    });
    return mode;
  };
  const onHash = () => { if (isCompareLink(win.location.hash)) start({ arrived: true }); };
  win.addEventListener('hashchange', onHash);
  const copy = root.querySelector('.rl-share-row .rl-button');
  const button = doc.createElement('button');
  button.type = 'button';
  button.className = 'rl-button';
  button.textContent = 'Compare with…';
  if (copy) copy.after(button);
  button.addEventListener('click', () => start().then((m) => m.startFrom(app), () => {}));
  return {
    ready: isCompareLink(win.location.hash) ? start() : Promise.resolve(null),
    destroy() {
      win.removeEventListener('hashchange', onHash);
      button.remove();
      if (mode) mode.then((m) => m.destroy(), () => {});
    },
  };
}
