// Writes the cases scripts/bench times (bench/cases.json) with their "expand" filled in: a
// sweep's inputs given n draws or an n-answer script, which would make cases.json megabytes.
// Native (bench/native.cpp), node (bench/node.js) and Chromium (bench/browser.mjs) all read
// the file this writes, so every side times the same inputs.
//
//   node bench/cases.mjs bench/cases.json build/bench/cases.json

import { readFileSync, writeFileSync } from 'node:fs';

const [from, to] = process.argv.slice(2);
const file = JSON.parse(readFileSync(from, 'utf8'));
for (const c of file.cases) {
  if (!c.expand) continue;
  const inputs = c.entry === 'sweep' ? c.inputs.inputs : c.inputs;
  if (c.expand.draws) {
    // Spread over [0, 1) without a generator: the golden ratio's fractional steps.
    inputs.draws = Array.from({ length: c.expand.draws }, (_, i) => Math.round(((i * 0.6180339887) % 1) * 1e6) / 1e6);
  }
  if (c.expand.script) {
    inputs.script = Array.from({ length: c.expand.script }, (_, i) => (i % 2 ? { status: 429, retryAfter: '1' } : { status: 503 }));
  }
  delete c.expand;
}
writeFileSync(to, JSON.stringify(file) + '\n');
