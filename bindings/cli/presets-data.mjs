// Writes the real clients' presets (web/clients/presets.js, the one source of them) as C++ for
// retrysim, so that a comparison link's `client=<preset id>` means in retrysim exactly what it
// means on the page. Run by the build (bindings/cli/CMakeLists.txt):
//   node presets-data.mjs <web/clients/presets.js> <out.cpp>
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [, , presetsPath, outPath] = process.argv;
const { PRESETS, POLICY_FIELDS } = await import(pathToFileURL(presetsPath).href);
const data = JSON.stringify({
  policyFields: POLICY_FIELDS,
  presets: PRESETS.map((p) => ({ id: p.id, name: p.name, short: p.short, inputs: p.inputs })),
});
const delimiter = 'presets';
if (data.includes(`)${delimiter}"`)) throw new Error('the presets hold the raw string\'s delimiter');
writeFileSync(outPath, [
  '// Generated from web/clients/presets.js by bindings/cli/presets-data.mjs; do not edit.',
  '#include "presets.hpp"',
  '',
  `const char* const retrysim::kPresetsJson = R"${delimiter}(${data})${delimiter}";`,
  '',
].join('\n'));
