// The third on-demand bundle, dist/retrylab-fleet-section.js (and .css): "Many callers, one
// server", the fleet section at the end of the article (web/fleet/). The page's first bundle
// loads it when the reader nears that section (web/load-sections.js); it runs the fleet engine
// file, retrylab-fleet.js (the page's engine with fleet() as well, docs/engine.md §7), in a
// worker, and that worker's script is this same bundle (fleet/compute.js). A classic script,
// like the others, so that the page still works from file:// (where no worker starts and the
// fleet computes on the page).

import { mountFleet as mount } from './fleet/section.js';
import { FLEET_CSS, mountFleetElement } from './fleet/embed.js';
import { fleetEngineWhere, serveFleet } from './fleet/compute.js';
import { withStack } from './fleet/stack.js';

const ENGINE_FILE = 'retrylab-fleet.js';
const ELEMENT_SETS = 'given by this element’s policy.layers (its attribute, or its link)';

if (typeof document === 'undefined') {
  serveFleet(self);
} else {
  const where = fleetEngineWhere(document, ENGINE_FILE); // read while this bundle runs
  const { bundleUrl } = where;
  self.RetryLabFleetCode = {
    // The section, and the stack of layers it can run (fleet/stack.js: the layers section's door).
    mountFleet: (box) => withStack(box, mount(box, where)),
    // <retry-lab view="fleet"> (web/fleet/embed.js), its stylesheet beside this bundle; the
    // stack its attributes give (policy.layers) is drawn as the section draws it.
    mountFleetElement: (options) => mountFleetElement((box, more) => withStack(box, mount(box, { ...where, ...more }), { setIn: ELEMENT_SETS }), {
      ...options, styleUrl: new URL(FLEET_CSS, bundleUrl || location.href).href,
    }),
  };
}
