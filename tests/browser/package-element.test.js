// <retry-lab> from the installed npm package, as a blogger meets it: npm pack of the staged
// package (build/npm/retrylab, written by npm run build), installed offline into a scratch
// project, whose own page loads node_modules/retrylab/retry-lab-element.js with one tag (and
// the ES module, retry-lab-element.mjs), served under the strict CSP. The elements show the
// engine's own runs, the fleet view loads its parts from the package, nothing else is fetched,
// and no console error or CSP violation appears. (tests/node/package.test.js tests the tarball
// that scripts/package writes, in node.)

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { browserSuite, DIST, REPO } from './lib/harness.js';
import { serve, watchedPage } from './lib/sites.js';

const STAGED = join(REPO, 'build/npm/retrylab');
const env = browserSuite({ engine: true });
let scratch;
let server;

const page = (title, head, body) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title><link rel="icon" href="node_modules/retrylab/favicon.svg">${head}</head>
<body><main><h1>${title}</h1><p>A blog post.</p>${body}</main></body></html>`;

function ok(command, args, options) {
  const r = spawnSync(command, args, { encoding: 'utf8', timeout: 300000, ...options });
  assert.equal(r.status, 0, `${command} ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return r.stdout;
}

env.setUp(async () => {
  assert.ok(existsSync(join(STAGED, 'package.json')), 'build/npm/retrylab is missing: npm run build stages it');
  for (const file of ['retry-lab-element.js', 'retrylab-fleet.js']) {
    assert.ok(readFileSync(join(STAGED, file)).equals(readFileSync(join(DIST, file))), `build/npm/retrylab/${file} is not dist/'s: npm run build again`);
  }
  scratch = mkdtempSync(join(tmpdir(), 'retrylab-element-'));
  const tgz = ok('npm', ['pack', '--silent', '--pack-destination', scratch], { cwd: STAGED }).trim().split('\n').pop();
  writeFileSync(join(scratch, 'package.json'), '{ "name": "blog", "private": true }\n');
  ok('npm', ['install', '--offline', '--no-audit', '--no-fund', join(scratch, tgz)], { cwd: scratch });
  const tag = '<script src="node_modules/retrylab/retry-lab-element.js" defer></script>';
  writeFileSync(join(scratch, 'post.html'), page('One tag', tag,
    '<retry-lab id="one" scenario="outage-503-twice" max-retries="1"></retry-lab><retry-lab id="two" idempotency-key></retry-lab>'));
  writeFileSync(join(scratch, 'module.html'), page('An ES module', '<script type="module" src="node_modules/retrylab/retry-lab-element.mjs"></script>',
    '<retry-lab id="one" max-retries="0"></retry-lab>'));
  writeFileSync(join(scratch, 'fleet.html'), page('The fleet', tag, '<retry-lab id="f" view="fleet" server.drop-stale="unfinishable"></retry-lab>'));
  server = await serve(scratch);
});
env.tearDown(async () => {
  await server?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const plain = (x) => JSON.parse(JSON.stringify(x));
const ready = (p, n) => p.waitForFunction((count) => document.querySelectorAll('retry-lab.rl-ready, retry-lab.rl-engine-failed').length === count, n, { timeout: 30000 });
const resultOf = (p, id) => p.evaluate((x) => JSON.parse(JSON.stringify(document.getElementById(x).explorable.getState().result)), id);

async function clean(watched) {
  assert.deepEqual(watched.problems, [], 'console errors');
  assert.deepEqual(await watched.violations(), [], 'CSP violations');
  const foreign = watched.requests.filter((u) => !u.startsWith(`${server.origin}/`) && !u.startsWith('data:') && !u.startsWith('blob:'));
  assert.deepEqual(foreign, [], 'requests beyond the blog');
}

describe('<retry-lab> from the installed npm package', () => {
  test('one classic script tag: two elements show the engine\'s runs for their attributes', async () => {
    const watched = await watchedPage(env);
    const p = watched.page;
    await p.goto(`${server.origin}/post.html`);
    await ready(p, 2);
    assert.deepEqual(await resultOf(p, 'one'), plain(env.compute({ scenario: 'outage-503-twice', maxRetries: 1 })));
    assert.deepEqual(await resultOf(p, 'two'), plain(env.compute({ idempotencyKey: true })));
    assert.equal((await resultOf(p, 'two')).metrics.charges, 1);
    const version = JSON.parse(readFileSync(join(scratch, 'node_modules/retrylab/package.json'), 'utf8')).version;
    assert.equal((await resultOf(p, 'one')).engine, version, 'the package\'s version is its engine\'s');
    assert.ok(watched.requests.some((u) => u.endsWith('/node_modules/retrylab/retry-lab-element.js')));
    await clean(watched);
  });

  test('the ES module defines the same element from beside itself, and its ready promise resolves', async () => {
    const watched = await watchedPage(env);
    const p = watched.page;
    await p.goto(`${server.origin}/module.html`);
    await ready(p, 1);
    assert.deepEqual(await resultOf(p, 'one'), plain(env.compute({ maxRetries: 0 })));
    const name = await p.evaluate(async (url) => (await (await import(url)).ready).name, `${server.origin}/node_modules/retrylab/retry-lab-element.mjs`);
    assert.equal(typeof name, 'string');
    assert.equal(watched.requests.filter((u) => u.endsWith('/retry-lab-element.js')).length, 1, 'the classic script is added once');
    await clean(watched);
  });

  test('view="fleet" loads its code, engine and CSS from the package and shows the recovery at 20 s', async () => {
    const watched = await watchedPage(env);
    const p = watched.page;
    await p.goto(`${server.origin}/fleet.html`);
    await ready(p, 1);
    await p.evaluate(() => document.getElementById('f').fleet.settled());
    const recovery = await p.evaluate(() => JSON.parse(JSON.stringify(document.getElementById('f').fleet.state().result.recovery)));
    assert.equal(recovery.recoveredAtMs, 20000, 'FLEET.md §9.5: dropStale unfinishable recovers at 20,000 ms');
    for (const file of ['retrylab-fleet-section.js', 'retrylab-fleet.js', 'retry-lab-fleet.css']) {
      assert.ok(watched.requests.includes(`${server.origin}/node_modules/retrylab/${file}`), `${file} from the package`);
    }
    await clean(watched);
  });
});
