// The WebAssembly half of scripts/bench in node: the engine file (RETRYLAB_ENGINE, or the
// wasm preset's) on bench/cases.json, one JSON line per case, as native.cpp prints them.
//
//   node bench/node.js bench/cases.json
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { measureCases } = require('./measure.js');

const enginePath = process.env.RETRYLAB_ENGINE ||
  path.join(__dirname, '..', 'build', 'wasm', 'bindings', 'wasm', 'retrylab-engine.js');
const { cases, rounds } = JSON.parse(fs.readFileSync(process.argv[2] || path.join(__dirname, 'cases.json'), 'utf8'));
const factory = require(enginePath);

measureCases(cases, rounds, () => factory(), () => performance.now()).then((records) => {
  for (const record of records) console.log(JSON.stringify(record));
}, (error) => {
  console.error(`bench/node.js: ${error && error.stack || error}`);
  process.exit(1);
});
