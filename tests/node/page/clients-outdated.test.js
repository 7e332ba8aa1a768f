// scripts/clients-table --outdated without the network: RETRYLAB_NPM names a fake `npm` that
// answers `npm view <package> version` from a table, and the test checks which presets the
// script calls outdated. The versions read are the pins' own (web/clients/sources.js): got
// 16.2.0, stripe 23.2.0 for stripe-current and 22.3.0 for stripe-retry-after, axios-retry 4.5.0.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from '../../browser/lib/dist.js';
import { compareVersions, nodeVersionsRead, outdatedRows } from '../../../web/clients/table.js';

function runOutdated(newest) {
  const dir = mkdtempSync(join(tmpdir(), 'clients-outdated-'));
  try {
    const fake = join(dir, 'npm');
    writeFileSync(fake, `#!/usr/bin/env node
const [cmd, name, field] = process.argv.slice(2);
const table = JSON.parse(process.env.FAKE_NPM_NEWEST);
if (cmd !== 'view' || field !== 'version' || !(name in table)) { console.error('fake npm: ' + process.argv.slice(2).join(' ')); process.exit(1); }
console.log(table[name]);
`);
    chmodSync(fake, 0o755);
    return execFileSync(join(REPO, 'scripts/clients-table'), ['--outdated'], {
      encoding: 'utf8', env: { ...process.env, RETRYLAB_NPM: fake, FAKE_NPM_NEWEST: JSON.stringify(newest) },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Every package the presets read, at the versions read (so nothing is outdated), then some newer.
const AT_READ = {
  '@anthropic-ai/sdk': '1.17.0', '@grpc/grpc-js': '1.14.7', '@smithy/core': '3.41.1', '@smithy/node-http-handler': '4.14.2', 'axios-retry': '4.5.0',
  got: '16.2.0', openai: '7.60.0', stripe: '23.2.0',
};

test('the versions read: the newest of each package per preset, a repository’s tag as the package’s version', () => {
  const read = nodeVersionsRead();
  const of = (id) => Object.fromEntries(read.filter((r) => r.id === id).map((r) => [r.package, r.version]));
  assert.deepEqual(of('got'), { got: '16.2.0' });
  assert.deepEqual(of('aws-js-v3'), { '@smithy/core': '3.41.1', '@smithy/node-http-handler': '4.14.2' }, '3.41.1, not 3.39.0 or 3.40.0');
  assert.deepEqual(of('stripe-current'), { stripe: '23.2.0' }, 'the tarball 23.2.0 over the repository’s v22.5.0');
  assert.deepEqual(of('stripe-retry-after'), { stripe: '22.3.0' }, 'stripe/stripe-node v22.3.0 and v17.0.0: the newest');
  assert.deepEqual(of('openai-python'), {}, 'no Node package');
  assert.deepEqual([...new Set(read.map((r) => r.package))].sort(), Object.keys(AT_READ).sort());
});

test('versions compare as numbers, not strings', () => {
  assert.equal(compareVersions('16.10.0', '16.2.0'), 1);
  assert.equal(compareVersions('16.2.0', '16.10.0'), -1);
  assert.equal(compareVersions('3.41.1', '3.41.1'), 0);
  assert.equal(compareVersions('9.0.0', '10.0.0'), -1);
  assert.deepEqual(outdatedRows([{ id: 'x', package: 'got', version: '16.9.0' }], { got: '16.10.0' }), [{ id: 'x', package: 'got', version: '16.9.0', newest: '16.10.0' }]);
  assert.deepEqual(outdatedRows([{ id: 'x', package: 'got', version: '16.10.0' }], { got: '16.9.0' }), []);
});

test('--outdated, everything at its newest: only the closed ranges read at older releases are listed', () => {
  const out = runOutdated(AT_READ);
  const listed = out.split('\n').filter((l) => l.startsWith('outdated '));
  // stripe-retry-after (node 17.0–22.3.0) and stripe-current's own pins are the only Node readings below 23.2.0.
  assert.deepEqual(listed, ['outdated stripe-retry-after: stripe read at 22.3.0, newest 23.2.0']);
});

test('--outdated lists each preset read below the newest, by numeric order', () => {
  const out = runOutdated({ ...AT_READ, got: '16.10.0', '@smithy/core': '3.41.1', openai: '7.100.0', 'axios-retry': '4.4.9' });
  const listed = out.split('\n').filter((l) => l.startsWith('outdated ')).sort();
  assert.deepEqual(listed, [
    'outdated got: got read at 16.2.0, newest 16.10.0',
    'outdated openai-node: openai read at 7.60.0, newest 7.100.0',
    'outdated stripe-retry-after: stripe read at 22.3.0, newest 23.2.0',
  ]);
  assert.match(out, /newest axios-retry 4\.4\.9/);
  assert.match(out, /3 preset readings older than the newest release/);
});
