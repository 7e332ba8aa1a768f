// Hosting: the site copied under a subpath of a static host (strict CSP), and opened
// straight from disk (file://). The page, a link to a run, embed.html and <retry-lab> all
// work from either, every file they ask for is found, and the links they give out stay
// under the same folder.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { browserSuite } from './lib/harness.js';
import { serve, siteCopy, waitReady, watchedPage } from './lib/sites.js';

const SUB = 'blog/tools/retry-lab';
const HOST_PAGE = (script, frame) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A post</title><link rel="icon" href="${script.replace('retry-lab-element.js', 'favicon.svg')}">
<script src="${script}" defer></script></head>
<body><main><h1>A post</h1><retry-lab scenario="request-lost" max-retries="0"></retry-lab>
${frame ? `<iframe id="frame" title="Retry Lab" src="${frame}" width="100%" height="900"></iframe>` : ''}</main></body></html>`;

const env = browserSuite({ engine: true });
let site;
let server;
env.setUp(async () => {
  site = siteCopy({
    subpath: SUB,
    files: {
      'blog/post.html': HOST_PAGE('tools/retry-lab/retry-lab-element.js', 'tools/retry-lab/embed.html#v=1&scenario=outage-503-twice'),
      [`${SUB}/post.html`]: HOST_PAGE('retry-lab-element.js', null),
    },
  });
  server = await serve(site.dir);
});
env.tearDown(async () => {
  await server?.close();
  site?.remove();
});

const plain = (x) => JSON.parse(JSON.stringify(x));
const run = (p) => p.evaluate(() => JSON.parse(JSON.stringify(window.retryLab.getState().result)));
const elementRun = (p) => p.evaluate(() => JSON.parse(JSON.stringify(document.querySelector('retry-lab').explorable.getState().result)));
const elementReady = (p) => p.waitForFunction(() => document.querySelector('retry-lab.rl-ready, retry-lab.rl-engine-failed'));

// Everything the page asked for was found.
function watchResponses(p) {
  const missing = [];
  p.on('response', (r) => { if (r.status() >= 400) missing.push(`${r.status()} ${r.url()}`); });
  p.on('requestfailed', (r) => { if (!r.url().startsWith('blob:')) missing.push(`failed ${r.url()}`); });
  return missing;
}

async function clean(watched, missing = []) {
  assert.deepEqual(watched.problems, [], 'console errors');
  assert.deepEqual(await watched.violations(), [], 'CSP violations');
  assert.deepEqual(missing, [], 'files not found');
}

describe('the site under a subpath', () => {
  test('the page at /blog/tools/retry-lab/ opens a link, keeps its path in the hash it writes, and Copy link says so', async () => {
    const watched = await watchedPage(env);
    const p = watched.page;
    const missing = watchResponses(p);
    await watched.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
    await p.goto(`${server.origin}/${SUB}/#v=1&maxRetries=0`);
    await waitReady(p);
    assert.equal(await p.evaluate(() => document.documentElement.classList.contains('rl-ready')), true);
    assert.deepEqual(await run(p), plain(env.engine.compute({ maxRetries: 0 })));
    await p.locator('#rl-maxRetries').fill('2');
    await p.waitForFunction(() => location.hash === '#v=1&maxRetries=2');
    assert.equal(await p.evaluate(() => location.pathname), `/${SUB}/`);
    await p.getByRole('button', { name: 'Copy link' }).click();
    await p.getByText('Link copied.').waitFor();
    assert.equal(await p.evaluate(() => navigator.clipboard.readText()), `${server.origin}/${SUB}/#v=1&maxRetries=2`);
    await clean(watched, missing);
  });

  test('embed.html and <retry-lab> from the subpath, in a post one folder up', async () => {
    const watched = await watchedPage(env);
    const p = watched.page;
    const missing = watchResponses(p);
    await p.goto(`${server.origin}/blog/post.html`);
    await elementReady(p);
    assert.deepEqual(await elementRun(p), plain(env.engine.compute({ scenario: 'request-lost', maxRetries: 0 })));
    const open = await p.locator('retry-lab').getByRole('link', { name: 'Open in Retry Lab' }).getAttribute('href');
    assert.equal(open, `${server.origin}/${SUB}/index.html#v=1&scenario=request-lost&maxRetries=0`);
    const frame = await (await p.locator('#frame').elementHandle()).contentFrame();
    await frame.waitForFunction(() => document.documentElement.classList.contains('rl-ready'));
    assert.equal(await frame.evaluate(() => window.retryLab.getState().result.inputs.scenario), 'outage-503-twice');
    assert.equal(await frame.locator('#rl-open').getAttribute('href'), `${server.origin}/${SUB}/index.html#v=1&scenario=outage-503-twice`);
    await clean(watched, missing);
    for (const f of p.frames()) assert.deepEqual(await f.evaluate(() => window.__violations), [], f.url());

    // The element's link opens the full page under the subpath on the same run.
    const full = await p.context().newPage();
    await full.goto(open);
    await full.waitForFunction(() => document.documentElement.classList.contains('rl-ready'));
    assert.deepEqual(await run(full), await elementRun(p));
  });
});

describe('the site from file://', () => {
  test('index.html with a link: the run, the hash it writes, the notice, a download', async () => {
    const watched = await watchedPage(env);
    const p = watched.page;
    const url = pathToFileURL(join(site.site, 'index.html')).href;
    await p.goto(`${url}#v=1&idempotencyKey=true&bogus=%3Cb%3E`);
    await waitReady(p);
    assert.deepEqual(await run(p), plain(env.engine.compute({ idempotencyKey: true })));
    assert.match(await p.locator('#rl-notice').textContent(), /bogus=<b>: is not an input/);
    await p.locator('#rl-deadlineMs').fill('3000');
    await p.waitForFunction(() => location.hash === '#v=1&deadlineMs=3000&idempotencyKey=true');
    assert.equal(await p.locator('#rl-link').inputValue(), `${url}#v=1&deadlineMs=3000&idempotencyKey=true`);
    const [download] = await Promise.all([p.waitForEvent('download'), p.getByRole('button', { name: 'Run as JSON' }).click()]);
    assert.deepEqual(JSON.parse(readFileSync(await download.path(), 'utf8')), await run(p));
    assert.deepEqual(watched.problems, []);
  });

  test('embed.html and a post with <retry-lab>, both from disk', async () => {
    const watched = await watchedPage(env);
    const p = watched.page;
    await p.goto(`${pathToFileURL(join(site.site, 'embed.html')).href}#v=1&scenario=bad-request-400`);
    await waitReady(p);
    assert.equal((await run(p)).inputs.scenario, 'bad-request-400');
    assert.equal(await p.locator('#rl-open').getAttribute('href'), `${pathToFileURL(join(site.site, 'index.html')).href}#v=1&scenario=bad-request-400`);

    await p.goto(pathToFileURL(join(site.site, 'post.html')).href);
    await elementReady(p);
    assert.deepEqual(await elementRun(p), plain(env.engine.compute({ scenario: 'request-lost', maxRetries: 0 })));
    assert.equal(await p.locator('retry-lab').getByRole('link', { name: 'Open in Retry Lab' }).getAttribute('href'),
      `${pathToFileURL(join(site.site, 'index.html')).href}#v=1&scenario=request-lost&maxRetries=0`);
    assert.deepEqual(watched.problems, []);
  });
});
