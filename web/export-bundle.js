// dist/retrylab-export.js: the downloads (web/export/), loaded by the page the first time a
// reader asks for a file (web/share/page.js, web/bundles.js).

import * as all from './export/all.js';

self.RetryLabExportCode = all;
