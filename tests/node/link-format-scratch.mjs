// The link format's table (web/share/link-format.json) changed in every fact a reader could keep
// a copy of, for tests/node/link-format.test.js: the page's codec and a retrysim built on this
// table (tests/CMakeLists.txt, retrysim_scratch_format) must both read links by it.
//   node link-format-scratch.mjs <web/share/link-format.json> <out.json>
import { readFileSync, writeFileSync } from 'node:fs';

export function scratchFormat(table) {
  return {
    ...table,
    version: '7',
    maxLength: 400,
    items: '|',
    named: '@',
    none: 'nil',
    escaped: `${table.escaped}-`,
    partNames: { retryAfter: 'wait' },
    decimal: { ...table.decimal, signs: '-' },
    pageKeys: [...table.pageKeys, 'scratchKey'],
    words: {
      ...table.words,
      notNumberOrNone: 'is no number, nor nil (scratch)',
      givenTwice: 'is said twice (scratch)',
      otherVersion: 'is not v={version} ({reader})',
      bare: 'a code',
      entryPart: '{entry}: {part} is none of {parts}',
    },
  };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  const [, , from, to] = process.argv;
  writeFileSync(to, `${JSON.stringify(scratchFormat(JSON.parse(readFileSync(from, 'utf8'))), null, 2)}\n`);
}
