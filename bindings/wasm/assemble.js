// Writes the engine file, retrylab-engine.js: one self-contained classic script that loads on
// file://, over HTTP, in a worker (importScripts) and with node's require(). Run by the build
// (CMakeLists.txt here) after em++ has linked engine.wasm:
//
//   node assemble.js ENGINE.wasm compute.js loader.js OUT.js [GLOBAL [MAX_STRING]]
//
// GLOBAL names the factory's global (RetryLabEngine by default; the config file's is
// RetryLabConfig, so that loading it never replaces the page's engine), MAX_STRING the longest
// string the binding hands over whole (compute.js's RL_MAX_STRING; the config file takes a pasted
// file of 1 MiB and one byte more, so that the core, not the binding, refuses a larger one).
//
// The wasm is inlined as the text of a "..." literal, byte by byte, instead of as base64:
// base64 cuts bytes across characters, so gzip finds few of the module's repeats and the
// gzipped file grows by a third; here each byte is one character (the 90 most frequent bytes)
// or two (a prefix and a character), which gzips within a few hundred bytes of the bare wasm,
// and the file stays ASCII, so a page in any charset loads it. loader.js decodes it.
//
// The scripts are minified with esbuild (the page's own bundler, installed by scripts/setup
// with the page's packages), which saves about 2 KB gzipped; where it is not installed, only
// whole-line comments and indentation are left out, and a note says so.
'use strict';

const fs = require('node:fs');

const [wasmPath, computePath, loaderPath, outPath, globalName = 'RetryLabEngine', maxString] = process.argv.slice(2);
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
// What loader.js gives the module: a link flag that makes it import anything else (a
// filesystem, a clock, or emscripten_memcpy_big, which builds at -O2 and above import) must fail
// here, not in a reader's browser.
const PROVIDED = ['env.emscripten_resize_heap', 'env.abort'];
const missing = WebAssembly.Module.imports(new WebAssembly.Module(wasm))
  .map((i) => `${i.module}.${i.name}`).filter((name) => !PROVIDED.includes(name));
if (missing.length) {
  console.error(`assemble.js: the module imports ${missing.join(', ')}, which loader.js does not provide`);
  process.exit(1);
}
const { text, order } = encode(wasm);

// The module's text goes in after minifying: free names the minifier keeps as they are.
let compute = stripped(computePath);
if (maxString) {
  const line = /^var RL_MAX_STRING = \d+;$/m;
  if (!line.test(compute)) throw new Error('assemble.js: compute.js has no RL_MAX_STRING line');
  compute = compute.replace(line, `var RL_MAX_STRING = ${Number(maxString)};`);
}
// The entry points' names, from the one list engine.cpp switches on (entries.hpp).
const entryList = /#define RL_ENTRY_LIST\(X\)((?:[^\n]*\\\n)*[^\n]*)/.exec(
  fs.readFileSync(require('node:path').join(__dirname, 'entries.hpp'), 'utf8'));
const entries = entryList ? [...entryList[1].matchAll(/X\((\w+)\)/g)].map((m) => m[1]) : [];
if (!entries.length) throw new Error('assemble.js: entries.hpp has no RL_ENTRY_LIST');
if (compute.split('RL_ENTRIES__').length !== 2) throw new Error('assemble.js: RL_ENTRIES__ is not in compute.js once');
compute = compute.replace('RL_ENTRIES__', JSON.stringify(entries));
let code = `var ${globalName} = (function () {
'use strict';
var RL_WASM = RL_WASM_TEXT__;
var RL_WASM_ORDER = RL_WASM_ORDER__;
${compute}
${stripped(loaderPath)}
return RetryLabEngine;
})();
if (typeof module === 'object' && module.exports) module.exports = ${globalName};
`;
let esbuild = null;
try {
  esbuild = require('esbuild');
} catch {
  console.warn('assemble.js: esbuild is not installed (scripts/setup installs it): the engine file is not minified');
}
if (esbuild) code = esbuild.transformSync(code, { minify: true, target: 'es2017', legalComments: 'none' }).code;
for (const name of ['RL_WASM_TEXT__', 'RL_WASM_ORDER__']) {
  if (code.split(name).length !== 2) throw new Error(`assemble.js: ${name} is not in the script once`);
}
code = code.replace('RL_WASM_TEXT__', () => `"${text}"`).replace('RL_WASM_ORDER__', () => `"${order}"`);

fs.writeFileSync(outPath, `// Retry Lab's engine: the C++ core as WebAssembly, and its binding (bindings/wasm/).
${code}`);
