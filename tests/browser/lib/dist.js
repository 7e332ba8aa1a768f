// Where the built site is, and the check that it is not older than its sources: shared by the
// browser tests (harness.js) and the page's node-only tests (tests/node/page/), which must not
// need a browser to start.

import { existsSync, statSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
// RETRYLAB_DIST lets several people build and test side by side without sharing dist/.
export const DIST = process.env.RETRYLAB_DIST ? resolve(REPO, process.env.RETRYLAB_DIST) : join(REPO, 'dist');

function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return t;
}

// The tests run against dist/: refuse a missing or stale build rather than test old code.
export function checkBuilt() {
  const page = join(DIST, 'index.html');
  if (!existsSync(page)) throw new Error('dist/ is missing: run `npm run build` first.');
  const built = statSync(page).mtimeMs;
  const sources = Math.max(newest(join(REPO, 'web')), newest(join(REPO, 'site')));
  if (sources > built + 1000) throw new Error('dist/ is older than web/ or site/: run `npm run build` again.');
}
