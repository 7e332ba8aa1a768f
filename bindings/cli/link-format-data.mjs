// Writes the link format's facts (web/share/link-format.json, the one table of them: its
// version, length limit, separators, escapes, `none`, part names, decimal grammar and the words
// of every problem) as a C++ string for retrysim's reader and writer (link.cpp), so that
// retrysim and the page's codec read links by the same facts. Run by the build
// (bindings/cli/CMakeLists.txt):
//   node link-format-data.mjs <web/share/link-format.json> <out.cpp>
import { readFileSync } from 'node:fs';
import { writeJsonString } from './embed-json.mjs';

const [, , formatPath, outPath] = process.argv;
const table = JSON.parse(readFileSync(formatPath, 'utf8'));
// What link.cpp's linkFormat() reads without asking again: a fact missing or of another shape
// stops the build here rather than reading as empty.
const texts = ['versionKey', 'version', 'none', 'after', 'fleetNull', 'gateOn', 'escaped'];
const chars = ['pairs', 'equals', 'items', 'parts', 'named', 'memberItems'];
const wrong = [
  ...texts.filter((k) => typeof table[k] !== 'string'),
  ...chars.filter((k) => typeof table[k] !== 'string' || table[k].length !== 1),
  ...(Number.isInteger(table.maxLength) && table.maxLength > 0 ? [] : ['maxLength']),
  ...['signs', 'point', 'exponent'].filter((k) => typeof (table.decimal || {})[k] !== 'string').map((k) => `decimal.${k}`),
  ...['partNames', 'words'].filter((k) => !table[k] || typeof table[k] !== 'object'),
  ...['pageKeys', 'compareKeys'].filter((k) => !Array.isArray(table[k])),
];
if (wrong.length) throw new Error(`${formatPath}: these facts are missing or not of their shape: ${wrong.join(', ')}`);
const data = JSON.stringify(table);
writeJsonString(outPath, {
  source: 'web/share/link-format.json', by: 'bindings/cli/link-format-data.mjs', header: 'link.hpp', name: 'kLinkFormatJson', delimiter: 'format', data,
});
