// Every repository path a source file names (in a comment or a string) exists: a comment that
// sends a reader to a file that was renamed or never written is a wrong comment. A path is
// read from the repository's root, or from the naming file's own folder (CMakeLists.txt names
// its sources so); build outputs (build/, dist/) and globs are not paths of the tree.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const repo = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const SOURCE = /\.(js|mjs|cjs|cpp|hpp|h|css|html|sh)$|^scripts\/|(^|\/)CMakeLists\.txt$/;
// A path of the tree: a top folder, folders, and a file with one of these endings. Not part of
// a longer path (build/wasm/bindings/…, ../../web/…) and not a glob.
const NAMED = /(?<![\w./*-])((?:web|core|bindings|tests|docs|scripts|bench|fuzz|spec|site|cmake|\.ci)\/[\w./-]*[\w-]\.(?:js|mjs|cjs|cpp|hpp|md|css|html|json|txt|csv))\b(?!\/|\*)/g;
// Files the build writes beside its sources' names (bindings/wasm/CMakeLists.txt).
const BUILT = new Set(['bindings/wasm/retrylab-engine.js', 'bindings/wasm/retrylab-fleet.js']);

export function missingPaths(files, read, exists) {
  const missing = [];
  for (const file of files) {
    for (const m of read(file).matchAll(NAMED)) {
      const named = m[1];
      if (BUILT.has(named)) continue;
      if (exists(named) || exists(path.join(path.dirname(file), named))) continue;
      missing.push(`${file} names ${named}`);
    }
  }
  return missing;
}

const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: repo, encoding: 'utf8' })
  .split('\n').filter((f) => f && SOURCE.test(f) && !f.startsWith('spec/') && fs.existsSync(path.join(repo, f)))
  .filter((f) => f !== 'tests/node/page/comment-paths.test.js');  // its own fixtures name paths that are not there
const read = (f) => fs.readFileSync(path.join(repo, f), 'utf8');
const exists = (p) => fs.existsSync(path.join(repo, p));

test('every path a source file names is a file of the tree', () => {
  assert.ok(tracked.length > 200, `only ${tracked.length} source files found`);
  assert.deepEqual(missingPaths(tracked, read, exists), []);
});

test('the reader finds a wrong path, reads CMake paths from their own folder, and passes build outputs and globs', () => {
  const files = { 'web/a.js': '// see web/nowhere.js and tests/browser/*.test.js, and build/wasm/core/x.cpp', 'tests/CMakeLists.txt': 'core/main.cpp' };
  const has = (p) => p === 'tests/core/main.cpp';
  assert.deepEqual(missingPaths(Object.keys(files), (f) => files[f], has), ['web/a.js names web/nowhere.js']);
});
