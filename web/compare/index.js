// retrylab-compare.js: compare mode (issue 17), loaded by compare/hook.js the first time a
// reader opens a comparison. What it offers goes on a global, as the other later bundles do.
// It doubles as the worker's script for a comparison of two fleet runs (compare/fleet.js), as
// the fleet section's bundle does for its own (web/fleet.js, fleet/compute.js): the worker
// loads the fleet engine file, retrylab-fleet.js, beside it.
import { attachCompareMode, compareLinkFrom, mountCompare } from './view.js';
import { fleetEngineWhere, serveFleet } from '../fleet/compute.js';

const FLEET_ENGINE = 'retrylab-fleet.js';

if (typeof document === 'undefined') {
  serveFleet(self);
} else {
  const fleet = fleetEngineWhere(document, FLEET_ENGINE); // read while this bundle runs
  window.RetryLabCompareCode = {
    attachCompareMode: (root, options) => attachCompareMode(root, { ...options, fleet }),
    mountCompare,
    compareLinkFrom,
  };
}
