// The repository's copy of the contract (spec/) against the team's source of truth beside the
// checkout (../shared), when there is one. spec/ is what the tests and the docs read, so that a
// clone stands alone; this test is how a changed contract shows up: it names each file to copy
// again. A clone with nothing beside it has no source to compare with, and the test says so
// and passes (node's skip).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const repo = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const spec = path.join(repo, 'spec');
const shared = path.join(repo, '..', 'shared');

// What the repository keeps of ../shared: the two contracts, the toolchain notes the README
// cites, and three folders whole. STYLE.md and hooks/ are the team's, not the project's.
const FILES = ['SPEC.md', 'FLEET.md', 'TOOLCHAIN.md'];
const FOLDERS = ['conformance', 'seeds', 'reference'];

function listed(root) {
  const out = [...FILES];
  for (const folder of FOLDERS) {
    const dir = path.join(root, folder);
    if (!fs.existsSync(dir)) continue;
    for (const name of fs.readdirSync(dir).sort()) out.push(`${folder}/${name}`);
  }
  return out;
}

test('spec/ holds every file the tests read, with nothing beside it needed', () => {
  for (const file of ['SPEC.md', 'FLEET.md', 'conformance/cases.json', 'conformance/fleet-cases.json',
    'seeds/000_0a5354d27fdd3fee.txt', 'reference/aws-2015-peer-seed1.csv']) {
    assert.ok(fs.existsSync(path.join(spec, file)), `spec/${file} is missing`);
  }
  JSON.parse(fs.readFileSync(path.join(spec, 'conformance', 'fleet-cases.json'), 'utf8'));
});

test('spec/ equals ../shared file for file (a changed contract names the file to copy again)',
  { skip: fs.existsSync(shared) ? false : 'no ../shared beside this checkout: spec/ is the contract' }, () => {
    const theirs = listed(shared);
    const ours = listed(spec);
    assert.deepEqual(ours.filter((f) => !theirs.includes(f)), [], 'spec/ holds files ../shared no longer has: remove them');
    const stale = theirs.filter((f) => {
      const mine = path.join(spec, f);
      return !fs.existsSync(mine) || !fs.readFileSync(mine).equals(fs.readFileSync(path.join(shared, f)));
    });
    assert.deepEqual(stale, [], `copy these from ../shared into spec/ (and update the engine if a contract changed): ${stale.join(', ')}`);
  });
