// The one writer of the build's generated C++ strings (presets-data.mjs, fleet-words-data.mjs,
// link-format-data.mjs): `data` (JSON text) as `const char* const retrysim::<name>`, a raw string
// whose delimiter `data` must not close, in a file that says where it came from.
import { writeFileSync } from 'node:fs';

export function writeJsonString(outPath, { source, by, header, name, delimiter, data }) {
  if (data.includes(`)${delimiter}"`)) throw new Error(`${source} holds the raw string's delimiter )${delimiter}"`);
  writeFileSync(outPath, [
    `// Generated from ${source} by ${by}; do not edit.`,
    `#include "${header}"`,
    '',
    `const char* const retrysim::${name} = R"${delimiter}(${data})${delimiter}";`,
    '',
  ].join('\n'));
}
