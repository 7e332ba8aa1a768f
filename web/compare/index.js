// retrylab-compare.js: compare mode (issue 17), loaded by compare/hook.js the first time a
// reader opens a comparison. What it offers goes on a global, as the other later bundles do;
// in a worker it runs fleet requests (bundle.js).
import { attachCompareMode, compareLinkFrom, mountCompare } from './view.js';
import { startCompareBundle } from './bundle.js';
import { mountComparePaste } from '../config/paste.js';

startCompareBundle('RetryLabCompareCode', (fleet) => ({
  // "Paste your config: before and after" (web/config/): the page's compare mode only.
  attachCompareMode: (root, options) => attachCompareMode(root, { ...options, fleet, paste: mountComparePaste }),
  mountCompare,
  compareLinkFrom,
}));
