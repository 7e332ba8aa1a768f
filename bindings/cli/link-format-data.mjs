// Writes the link format's facts (web/share/link-format.json, the one table of them: its
// version, length limit, separators, escapes, `none`, part names, decimal grammar and the words
// of every problem) as a C++ string for retrysim's reader and writer (link.cpp), so that
// retrysim and the page's codec read links by the same facts. Run by the build
// (bindings/cli/CMakeLists.txt):
//   node link-format-data.mjs <web/share/link-format.json> <out.cpp>
import { readFileSync, writeFileSync } from 'node:fs';

const [, , formatPath, outPath] = process.argv;
const data = JSON.stringify(JSON.parse(readFileSync(formatPath, 'utf8')));
const delimiter = 'format';
if (data.includes(`)${delimiter}"`)) throw new Error('the table holds the raw string\'s delimiter');
writeFileSync(outPath, [
  '// Generated from web/share/link-format.json by bindings/cli/link-format-data.mjs; do not edit.',
  '#include "link.hpp"',
  '',
  `const char* const retrysim::kLinkFormatJson = R"${delimiter}(${data})${delimiter}";`,
  '',
].join('\n'));
