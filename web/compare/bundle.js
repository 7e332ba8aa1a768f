// What compare mode's two bundles do as they run (retrylab-compare.js for the page, index.js;
// retry-lab-compare.js for the element, element.js): each doubles as the worker's script for a
// comparison of two fleet runs (compare/fleet.js), as the fleet section's bundle does for its
// own (web/fleet.js, fleet/compute.js), and the worker loads the fleet engine file,
// retrylab-fleet.js, beside it. On a page, `offer(fleet)` is put on the global `name`, `fleet`
// saying where that engine file is (read while the bundle's script runs).
import { fleetEngineWhere, serveFleet } from '../fleet/compute.js';

const FLEET_ENGINE = 'retrylab-fleet.js';

export function startCompareBundle(name, offer) {
  if (typeof document === 'undefined') serveFleet(self);
  else window[name] = offer(fleetEngineWhere(document, FLEET_ENGINE));
}
