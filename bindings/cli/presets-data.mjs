// Writes the real clients' presets (web/clients/presets.js, the one source of them) as C++ for
// retrysim, so that a comparison link's `client=<preset id>` means in retrysim exactly what it
// means on the page. Run by the build (bindings/cli/CMakeLists.txt):
//   node presets-data.mjs <web/clients/presets.js> <out.cpp>
import { writeJsonString } from './embed-json.mjs';
import { pathToFileURL } from 'node:url';

const [, , presetsPath, outPath] = process.argv;
const { PRESETS, POLICY_FIELDS } = await import(pathToFileURL(presetsPath).href);
const data = JSON.stringify({
  policyFields: POLICY_FIELDS,
  presets: PRESETS.map((p) => ({ id: p.id, name: p.name, short: p.short, inputs: p.inputs })),
});
writeJsonString(outPath, {
  source: 'web/clients/presets.js', by: 'bindings/cli/presets-data.mjs', header: 'presets.hpp', name: 'kPresetsJson', delimiter: 'presets', data,
});
