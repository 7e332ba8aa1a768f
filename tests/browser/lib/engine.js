// The engine file the site ships (dist/retrylab-engine.js), loaded in node for the tests of
// the page's pure functions.

import { createRequire } from 'node:module';
import { join } from 'node:path';
import { DIST, checkBuilt } from './dist.js';

export async function loadEngineInNode() {
  checkBuilt();
  const require = createRequire(import.meta.url);
  const factory = require(join(DIST, 'retrylab-engine.js'));
  const engine = await factory();
  return engine;
}

// A small seeded generator (mulberry32) so generated cases repeat exactly.
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
