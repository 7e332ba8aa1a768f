// The third on-demand bundle, dist/retrylab-fleet-section.js (and .css): "Many callers, one
// server", the fleet section at the end of the article (web/fleet/). The page's first bundle
// loads it when the reader nears that section (web/load-sections.js); it runs the fleet engine
// file, retrylab-fleet.js (the page's engine with fleet() as well, docs/engine.md §7), in a
// worker, and that worker's script is this same bundle (fleet/compute.js). A classic script,
// like the others, so that the page still works from file:// (where no worker starts and the
// fleet computes on the page).

import { mountFleet as mount } from './fleet/section.js';
import { FLEET_CSS, mountFleetElement } from './fleet/embed.js';
import { serveFleet } from './fleet/compute.js';
import { loadBundle } from './bundles.js';

const ENGINE_FILE = 'retrylab-fleet.js';

if (typeof document === 'undefined') {
  serveFleet(self);
} else {
  // This bundle's own address, read while it runs: the engine file lives beside it.
  const bundleUrl = document.currentScript ? document.currentScript.src : null;
  const engineUrl = new URL(ENGINE_FILE, bundleUrl || location.href).href;
  // The fleet engine on the page, for a page where no worker can start. Its file defines the
  // same global as the page's engine file (RetryLabEngine): the page's is put back after it.
  let onPage = null;
  const mainEngine = () => {
    if (!onPage) {
      const before = window.RetryLabEngine;
      delete window.RetryLabEngine;
      onPage = loadBundle(document, ENGINE_FILE, 'RetryLabEngine').then((factory) => {
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
  const where = { engineUrl, bundleUrl, mainEngine };
  self.RetryLabFleetCode = {
    mountFleet: (box) => mount(box, where),
    // <retry-lab view="fleet"> (web/fleet/embed.js), its stylesheet beside this bundle.
    mountFleetElement: (options) => mountFleetElement((box, more) => mount(box, { ...where, ...more }), {
      ...options, styleUrl: new URL(FLEET_CSS, bundleUrl || location.href).href,
    }),
  };
}
