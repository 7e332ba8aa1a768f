// The core's own rules (STYLE.md, the developers' guide), read from its sources: no C library
// transcendental function (their last bit may differ between native and WebAssembly), no
// wall clock or global random generator, no I/O, no platform headers.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');

const { repo } = require('./support.js');

function coreSources() {
  const out = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.(cpp|hpp|h)$/.test(entry.name)) out.push(file);
    }
  };
  walk(path.join(repo, 'core'));
  return out;
}

// Code only: comments and string literals removed, so that a comment may name what it avoids.
const code = (text) => text
  .replace(/\/\*[\s\S]*?\*\//g, '')
  .replace(/\/\/.*$/gm, '')
  .replace(/"(?:[^"\\\n]|\\.)*"/g, '""');

const FORBIDDEN = [
  [/\b(?:std::)?(?:pow|powf|exp|exp2|expm1|log|log2|log10|log1p|sin|cos|tan|asin|acos|atan|atan2|sinh|cosh|tanh|cbrt|hypot|erf|tgamma|lgamma)\s*\(/, 'a C library transcendental function'],
  [/\b(?:rand|srand|random|time|clock|gettimeofday|clock_gettime)\s*\(|std::chrono|std::random_device/, 'a clock or a global random generator'],
  [/#include\s*<(?:iostream|fstream|cstdio|stdio\.h|regex|chrono|thread|emscripten[^>]*|unistd\.h|windows\.h)>/, 'I/O, a clock, threads or a platform header'],
];

test('the core uses no C library transcendental function, clock, global randomness, I/O or platform header', () => {
  const files = coreSources();
  assert.ok(files.length > 10, `${files.length} core sources`);
  const found = [];
  for (const file of files) {
    const lines = code(fs.readFileSync(file, 'utf8')).split('\n');
    lines.forEach((line, i) => {
      for (const [pattern, what] of FORBIDDEN) {
        if (pattern.test(line)) found.push(`${path.relative(repo, file)}:${i + 1}: ${what}: ${line.trim()}`);
      }
    });
  }
  assert.deepEqual(found, []);
});

test('the rules bite: each pattern finds what it forbids', () => {
  const hits = (text) => FORBIDDEN.filter(([pattern]) => pattern.test(code(text))).length;
  assert.equal(hits('double x = std::pow(10.0, n);'), 1);
  assert.equal(hits('int e = int(std::floor(std::log10(v)));'), 1);
  assert.equal(hits('auto t = std::chrono::steady_clock::now();'), 1);
  assert.equal(hits('#include <iostream>'), 1);
  assert.equal(hits('// std::pow may differ between C libraries\nint power(int);'), 0);
  assert.equal(hits('double p = power(base, n); double m = std::frexp(x, &e);'), 0);
});
