// The second bundle, dist/retrylab-sections.js: the sections below the article — the policy
// traces A–F with trace F's herd and the trace editor (web/traces/), and "What would your
// client do?" with the sweep panel (web/clients/, web/sweep/), and "Retries across layers"
// (web/layers/). The page's first bundle
// (main.js) loads it when the reader nears those sections (web/load-sections.js), so a reader
// who never scrolls that far never downloads them. A classic script, like the first bundle,
// so that the page still works from file://.
//
// In a worker this bundle computes large herds for the traces section (traces/herd-worker.js).

import { mountTraces } from './traces/section.js';
import { serveHerd } from './traces/herd-worker.js';
import { mountClientLab } from './clients/lab.js';
import { mountLayers } from './layers/section.js';

if (typeof document === 'undefined') serveHerd(self);
else self.RetryLabSectionCode = { mountTraces, mountClientLab, mountLayers };
