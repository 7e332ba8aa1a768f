// retrylab-compare.js: compare mode (issue 17), loaded by compare/hook.js the first time a
// reader opens a comparison. What it offers goes on a global, as the other later bundles do.
import { attachCompareMode, compareLinkFrom, mountCompare } from './view.js';

window.RetryLabCompareCode = { attachCompareMode, mountCompare, compareLinkFrom };
