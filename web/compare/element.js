// retry-lab-compare.js: <retry-lab view="compare">'s compare mode (web/embed/element.js loads
// it beside retry-lab-element.js the first time an element asks for a comparison). The same
// compare mode as the page's bundle, with its stylesheet as text for the element's shadow root
// (scoped at build time as the element's own is, web/embed/build-element.mjs). For a comparison
// of two fleet runs (of="fleet") it doubles as the worker's script, as the page's compare bundle
// does (web/compare/index.js): the worker loads the fleet engine file, retrylab-fleet.js,
// beside it.
import COMPARE_CSS from 'retrylab:compare-css';
import { fleetCompareLinkOfAttributes, isFleetCompareLink, mountCompare, mountFleetCompareWith } from './view.js';
import { fleetEngineWhere, serveFleet } from '../fleet/compute.js';

const FLEET_ENGINE = 'retrylab-fleet.js';

if (typeof document === 'undefined') {
  serveFleet(self);
} else {
  const fleet = fleetEngineWhere(document, FLEET_ENGINE); // read while this bundle runs
  window.RetryLabCompareElement = {
    mountCompare,
    mountFleetCompare: (box, options) => mountFleetCompareWith(box, { ...options, fleet }),
    fleetCompareLinkOfAttributes,
    isFleetCompareLink,
    css: COMPARE_CSS,
  };
}
