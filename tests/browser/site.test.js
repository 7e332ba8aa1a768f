// The built site as files: what dist/ holds, that its script is one classic bundle, that
// the server speaks the right types, and that the page also runs straight from disk.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST, browserSuite, openPage } from './lib/harness.js';

const env = browserSuite();

describe('the built site', () => {
  test('dist/ holds the page, its classic scripts, the styles and the engine', () => {
    // embed.html and retry-lab-element.js: the iframe page and the <retry-lab> script (issue 6);
    // retrylab-sections.js and .css: the sections below the article, loaded on demand.
    // retrylab-export.js: the downloads' code, loaded the first time a reader asks for a file.
    // retrylab-compare.js and .css: compare mode, loaded with the first comparison (issue 17).
    // retrylab-fleet-section.js and .css: the fleet section at the article's end (issue 20),
    // and retrylab-fleet.js, the engine file with fleet() that it runs in a worker;
    // retry-lab-fleet.css, its styles scoped for <retry-lab view="fleet">'s shadow root;
    // retry-lab-compare.js, <retry-lab view="compare">'s code, loaded from beside the element's;
    // retrylab-fleet-map.js and .css, the stability maps the fleet section loads near them (issue 32);
    // og-image.png, the picture a pasted link unfurls with (issue 35, site/og-image.png);
    // retrylab-config.js, the config readers "Paste your config" loads when opened (issue 36);
    // retrylab-servers-step.js and .css, the article's step on many servers, loaded near it (issue 39).
    assert.deepEqual(readdirSync(DIST).sort(), ['embed.html', 'favicon.svg', 'index.html', 'og-image.png', 'retry-lab-compare.js', 'retry-lab-element.js', 'retry-lab-fleet.css', 'retrylab-compare.css',
      'retrylab-compare.js', 'retrylab-config.js', 'retrylab-engine.js', 'retrylab-export.js', 'retrylab-fleet-map.css', 'retrylab-fleet-map.js', 'retrylab-fleet-section.css',
      'retrylab-fleet-section.js', 'retrylab-fleet.js', 'retrylab-sections.css', 'retrylab-sections.js', 'retrylab-servers-step.css', 'retrylab-servers-step.js', 'retrylab.css', 'retrylab.js']);
    for (const name of ['retrylab.js', 'retrylab-sections.js', 'retrylab-export.js', 'retrylab-compare.js', 'retrylab-fleet-section.js', 'retrylab-fleet-map.js', 'retrylab-servers-step.js']) {
      const bundle = readFileSync(join(DIST, name), 'utf8');
      assert.match(bundle, /^\(\(\)=>\{/, `${name}: an IIFE`);
      assert.doesNotMatch(bundle, /\bimport\s*[{(*]|\bexport\s*\{|\beval\(|new Function\(/, `${name}: no module syntax, no eval`);
    }
    const html = readFileSync(join(DIST, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
    // The engine file is not on the opening page (issue 18): the page's bundle adds it on first
    // need; the build's data block (web/prerender.mjs) carries what the first screen shows.
    // Render-blocking (issue 18): the first frame is the explorable drawn, not the article with
    // "Loading…" laid out, painted, and laid out again once the script has mounted the figure.
    assert.deepEqual(scripts, [' src="retrylab.js" defer blocking="render"', ' type="application/json" id="rl-prerendered"']);
    const embed = readFileSync(join(DIST, 'embed.html'), 'utf8');
    assert.deepEqual([...embed.matchAll(/<script([^>]*)>/g)].map((m) => m[1]), [' src="retrylab-engine.js" defer', ' src="retrylab.js" defer'], 'embed.html loads its engine as it opens');
  });

  test('the server sends each file with its type and the strict CSP', async () => {
    const expected = {
      '/': 'text/html', '/retrylab.js': 'text/javascript', '/retrylab-engine.js': 'text/javascript',
      '/retrylab.css': 'text/css', '/favicon.svg': 'image/svg+xml',
    };
    for (const [path, type] of Object.entries(expected)) {
      const response = await fetch(env.server.origin + path);
      assert.equal(response.status, 200, path);
      assert.ok(response.headers.get('content-type').startsWith(type), `${path}: ${response.headers.get('content-type')}`);
      assert.match(response.headers.get('content-security-policy'), /script-src 'self' 'wasm-unsafe-eval'; style-src 'self'/);
    }
    assert.equal((await fetch(`${env.server.origin}/../package.json`)).status, 404);
  });

  test('the experiment is drawn by DOMContentLoaded: the engine starts in the task that runs the page\'s script', async () => {
    // Compiled on the spot (bindings/wasm/loader.js), the engine is ready before the page's
    // deferred scripts finish, so the first frame after them has the run, not "Loading…".
    const context = await env.newContext();
    const page = await context.newPage();
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        window.__atDomContentLoaded = {
          ready: document.documentElement.classList.contains('rl-ready'),
          loading: document.querySelector('[data-retry-lab] .rl-loading') !== null,
          elapsed: document.querySelector('#rl-metrics [data-metric="elapsed"] dd')?.textContent ?? null,
        };
      });
    });
    await page.goto(`${env.server.origin}/`);
    await page.waitForFunction(() => window.__atDomContentLoaded !== undefined);
    assert.deepEqual(await page.evaluate(() => window.__atDomContentLoaded), { ready: true, loading: false, elapsed: '3,700 ms' });
  });

  test('the page runs from file:// too, with the opening run and the sections below it', async () => {
    const { page, context, problems } = await openPage(env, { url: pathToFileURL(join(DIST, 'index.html')).href, sections: false });
    assert.equal(await page.locator('#rl-metrics [data-metric="elapsed"] dd').textContent(), '3,700 ms');
    // The second bundle loads from disk as the first did: the reader scrolls to the traces.
    await page.locator('#traces').scrollIntoViewIfNeeded();
    await page.locator('#tr-matrix tr[data-trace="A"]').waitFor();
    await page.locator('#cl-client').waitFor();
    assert.deepEqual(problems, []);
  });
});
