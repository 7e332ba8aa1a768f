// Writes the fleet section's labels (web/compare/headline.js fleetLabels(), read from
// web/fleet/model.js: the one map) as C++ for retrysim, so that a fleet comparison's headline
// names each input in the section's words in retrysim exactly as on the page. Run by the build
// (bindings/cli/CMakeLists.txt):
//   node fleet-words-data.mjs <web/compare/headline.js> <out.cpp>
import { writeJsonString } from './embed-json.mjs';
import { pathToFileURL } from 'node:url';

const [, , modulePath, outPath] = process.argv;
const { fleetLabels } = await import(pathToFileURL(modulePath).href);
const data = JSON.stringify({ labels: fleetLabels() });
writeJsonString(outPath, {
  source: 'web/compare/headline.js', by: 'bindings/cli/fleet-words-data.mjs', header: 'presets.hpp', name: 'kFleetWordsJson', delimiter: 'words', data,
});
