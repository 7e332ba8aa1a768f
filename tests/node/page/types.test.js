// Issue 31's type check: every file of web/ is checked by TypeScript (web/jsconfig.json:
// checkJs, so every file as if it began with // @ts-check), with the views that draw a run typed
// by the declarations the npm package ships (packages/retrylab/types.mjs, written into
// build/npm/retrylab/types.d.ts by `npm run build`; tests/node/package.test.js holds those to
// the engine's real results). A page that reads a member the engine's result does not declare,
// calls a function with arguments it does not take, or passes options it does not read fails
// here.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const tsc = path.join(repo, 'node_modules', 'typescript', 'bin', 'tsc');

test('web/ type-checks with the package\'s declarations of the engine\'s results (tsc --noEmit -p web/jsconfig.json)', () => {
  assert.ok(fs.existsSync(tsc), 'typescript is a devDependency (npm ci)');
  assert.ok(fs.existsSync(path.join(repo, 'build', 'npm', 'retrylab', 'types.d.ts')), 'npm run build writes the declarations');
  const run = spawnSync(process.execPath, [tsc, '-p', path.join(repo, 'web', 'jsconfig.json')], { cwd: repo, encoding: 'utf8' });
  assert.equal(run.error, undefined);
  const errors = run.stdout.split('\n').filter((l) => /error TS\d+/.test(l));
  assert.deepEqual(errors, [], `tsc found errors in web/:\n${run.stdout.slice(0, 6000)}`);
  assert.equal(run.status, 0, run.stderr);
});
