// Writes the engine file, retrylab-engine.js: one self-contained classic script that loads on
// file://, over HTTP, in a worker (importScripts) and with node's require(). Run by the build
// (CMakeLists.txt here) after em++ has linked engine.wasm:
//
//   node assemble.js ENGINE.wasm compute.js loader.js OUT.js
//
// The wasm is inlined as the text of a "..." literal, byte by byte, instead of as base64:
// base64 cuts bytes across characters, so gzip finds few of the module's repeats and the
// gzipped file grows by a third; here each byte is one character (the 90 most frequent bytes)
// or two (a prefix and a character), which gzips within a few hundred bytes of the bare wasm,
// and the file stays ASCII, so a page in any charset loads it. loader.js decodes it.
//
// Whole-line comments and indentation are left out of the output (the sources keep them);
// nothing else is changed.
'use strict';

const fs = require('node:fs');

const [wasmPath, computePath, loaderPath, outPath] = process.argv.slice(2);
if (!outPath) {
  console.error('usage: node assemble.js ENGINE.wasm compute.js loader.js OUT.js');
  process.exit(2);
}

// The characters a "..." literal holds as themselves: ' ' to '~' without '"' and '\'. The
// first three are prefixes; the other 90 stand for one byte each, alone or after a prefix.
const CHARS = [];
for (let c = 0x20; c < 0x7f; ++c) if (c !== 0x22 && c !== 0x5c) CHARS.push(String.fromCharCode(c));
const PREFIXES = 3;
const SINGLES = CHARS.length - PREFIXES;  // 90

function encode(bytes) {
  const count = new Array(256).fill(0);
  for (const b of bytes) ++count[b];
  const order = [...Array(256).keys()].sort((a, b) => count[b] - count[a] || a - b);
  const code = new Array(256);
  order.forEach((byte, rank) => {
    if (rank < SINGLES) {
      code[byte] = CHARS[PREFIXES + rank];
    } else {
      const r = rank - SINGLES;
      code[byte] = CHARS[Math.floor(r / SINGLES)] + CHARS[PREFIXES + (r % SINGLES)];
    }
  });
  let text = '';
  for (const b of bytes) text += code[b];
  return { text, order: order.map((b) => b.toString(16).padStart(2, '0')).join('') };
}

function stripped(path) {
  return fs.readFileSync(path, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('//'))
    .join('\n');
}

const wasm = fs.readFileSync(wasmPath);
if (!WebAssembly.validate(wasm)) {
  console.error(`assemble.js: ${wasmPath} is not a valid WebAssembly module`);
  process.exit(1);
}
const { text, order } = encode(wasm);

const out = `// Retry Lab's engine (retrylab-engine.js): the C++ core compiled to WebAssembly, inlined, and
// its JavaScript binding. Built from bindings/wasm/ (assemble.js); see docs/engine.md.
var RetryLabEngine = (function () {
'use strict';
var RL_WASM = "${text}";
var RL_WASM_ORDER = "${order}";
${stripped(computePath)}
${stripped(loaderPath)}
return RetryLabEngine;
})();
if (typeof module === 'object' && module.exports) module.exports = RetryLabEngine;
`;
fs.writeFileSync(outPath, out);
