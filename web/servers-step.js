// The sixth on-demand bundle, dist/retrylab-servers-step.js (and .css): the article's step "The
// retry went to another server" (web/servers/step.js), loaded as the reader nears it
// (web/explorable/servers-door.js). It computes nothing itself: the figure beside the words does.

import { mountServersStep } from './servers/step.js';

self.RetryLabServersStepCode = { mountServersStep };
