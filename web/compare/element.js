// retry-lab-compare.js: <retry-lab view="compare">'s compare mode (web/embed/element.js loads
// it beside retry-lab-element.js the first time an element asks for a comparison). The same
// compare mode as the page's bundle, with its stylesheet as text for the element's shadow root
// (scoped at build time as the element's own is, web/embed/build-element.mjs); in a worker it
// runs the fleet requests of a comparison of two fleet runs (of="fleet", bundle.js).
import COMPARE_CSS from 'retrylab:compare-css';
import { fleetCompareLinkOfAttributes, isFleetCompareLink, mountCompare, mountFleetCompareWith } from './view.js';
import { startCompareBundle } from './bundle.js';

startCompareBundle('RetryLabCompareElement', (fleet) => ({
  mountCompare,
  mountFleetCompare: (box, options) => mountFleetCompareWith(box, { ...options, fleet }),
  fleetCompareLinkOfAttributes,
  isFleetCompareLink,
  css: COMPARE_CSS,
}));
