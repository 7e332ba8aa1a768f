// The fifth on-demand bundle, dist/retrylab-fleet-map.js (and .css): the fleet section's
// stability maps and the published thresholds reproduced (web/fleet/stability.js,
// literature.js), loaded by the fleet section when the reader nears its map. Its runs go to the
// fleet section's workers (the section's bundle is their script), so this bundle holds no engine.

import { mountStability } from './fleet/stability.js';

self.RetryLabFleetMapCode = { mountStability };
