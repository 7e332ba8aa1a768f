// Writes the fleet section's labels (web/compare/headline.js fleetLabels(), read from
// web/fleet/model.js: the one map) as C++ for retrysim, so that a fleet comparison's headline
// names each input in the section's words in retrysim exactly as on the page. Run by the build
// (bindings/cli/CMakeLists.txt):
//   node fleet-words-data.mjs <web/compare/headline.js> <out.cpp>
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [, , modulePath, outPath] = process.argv;
const { fleetLabels } = await import(pathToFileURL(modulePath).href);
const data = JSON.stringify({ labels: fleetLabels() });
const delimiter = 'words';
if (data.includes(`)${delimiter}"`)) throw new Error('the labels hold the raw string\'s delimiter');
writeFileSync(outPath, [
  '// Generated from web/compare/headline.js by bindings/cli/fleet-words-data.mjs; do not edit.',
  '#include "presets.hpp"',
  '',
  `const char* const retrysim::kFleetWordsJson = R"${delimiter}(${data})${delimiter}";`,
  '',
].join('\n'));
