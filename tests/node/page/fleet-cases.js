// The fleet conformance cases as the page's node tests read them: each result the independent
// model's (spec/conformance/fleet-cases.json), with each bin's `capacity` (docs/fleet.md "The
// capacity in each bin", which the file, written before the result held it, does not have) taken
// from the fleet engine file the page serves, run on the case's request. Everything else the
// tests read stays the independent model's.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { DIST, REPO } from '../../browser/lib/dist.js';

const require = createRequire(import.meta.url);
const fleetEngine = await require(join(DIST, 'retrylab-fleet.js'))();
const FILE = JSON.parse(readFileSync(join(REPO, 'spec/conformance/fleet-cases.json'), 'utf8'));

function withCapacity(c) {
  if (!c.result.ok || !c.result.timeline) return c;
  const bins = fleetEngine.fleet(c.request).timeline.bins;
  if (bins.length !== c.result.timeline.bins.length) throw new Error(`${c.name}: the engine gives ${bins.length} bins, the case ${c.result.timeline.bins.length}`);
  const result = structuredClone(c.result);
  result.timeline.bins.forEach((b, i) => { b.capacity = bins[i].capacity; });
  return { ...c, result };
}

const done = new Map();
export const CASES = FILE.cases;
// The case of that name, its result with the engine's capacity in each bin.
export function caseNamed(name) {
  if (!done.has(name)) {
    const c = CASES.find((x) => x.name === name);
    done.set(name, c && withCapacity(c));
  }
  return done.get(name);
}
