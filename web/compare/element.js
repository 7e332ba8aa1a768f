// retry-lab-compare.js: <retry-lab view="compare">'s compare mode (web/embed/element.js loads
// it beside retry-lab-element.js the first time an element asks for a comparison). The same
// compare mode as the page's bundle, with its stylesheet as text for the element's shadow root
// (scoped at build time as the element's own is, web/embed/build-element.mjs).
import COMPARE_CSS from 'retrylab:compare-css';
import { mountCompare } from './view.js';

window.RetryLabCompareElement = { mountCompare, css: COMPARE_CSS };
