// retrylab-compare.js: compare mode (issue 17), loaded by compare/hook.js the first time a
// reader opens a comparison. What it offers goes on a global, as the other later bundles do.
// It doubles as the worker's script for a comparison of two fleet runs (compare/fleet.js), as
// the fleet section's bundle does for its own (web/fleet.js, fleet/compute.js): the worker
// loads the fleet engine file, retrylab-fleet.js, beside it.
import { attachCompareMode, compareLinkFrom, mountCompare } from './view.js';
import { serveFleet } from '../fleet/compute.js';
import { loadBundle } from '../bundles.js';

const FLEET_ENGINE = 'retrylab-fleet.js';

if (typeof document === 'undefined') {
  serveFleet(self);
} else {
  const bundleUrl = document.currentScript ? document.currentScript.src : null;
  const engineUrl = new URL(FLEET_ENGINE, bundleUrl || location.href).href;
  // Where no worker starts (file://): the fleet engine on the page. Its file defines the same
  // global as the page's engine file (RetryLabEngine): the page's is put back after it.
  let onPage = null;
  const mainEngine = () => {
    if (!onPage) {
      const before = window.RetryLabEngine;
      delete window.RetryLabEngine;
      onPage = loadBundle(document, FLEET_ENGINE, 'RetryLabEngine').then((factory) => {
        window.RetryLabEngine = before;
        return factory();
      }, (error) => {
        window.RetryLabEngine = before;
        onPage = null;
        throw error;
      });
    }
    return onPage;
  };
  const fleet = { engineUrl, bundleUrl, mainEngine };
  window.RetryLabCompareCode = {
    attachCompareMode: (root, options) => attachCompareMode(root, { ...options, fleet }),
    mountCompare,
    compareLinkFrom,
  };
}
