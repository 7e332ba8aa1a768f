// The built site as files: what dist/ holds, that its script is one classic bundle, that
// the server speaks the right types, and that the page also runs straight from disk.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST, openBrowser } from './lib/harness.js';

let env;
before(async () => { env = await openBrowser(); });
after(async () => { await env?.close(); });

describe('the built site', () => {
  test('dist/ holds the page, one classic script, the styles and the engine', () => {
    // embed.html and retry-lab-element.js: the iframe page and the <retry-lab> script (issue 6).
    assert.deepEqual(readdirSync(DIST).sort(), ['embed.html', 'favicon.svg', 'index.html', 'retry-lab-element.js', 'retrylab-engine.js', 'retrylab.css', 'retrylab.js']);
    const bundle = readFileSync(join(DIST, 'retrylab.js'), 'utf8');
    assert.match(bundle, /^\(\(\)=>\{/, 'an IIFE');
    assert.doesNotMatch(bundle, /\bimport\s*[{(*]|\bexport\s*\{|\beval\(|new Function\(/, 'no module syntax, no eval');
    const html = readFileSync(join(DIST, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
    assert.deepEqual(scripts, [' src="retrylab-engine.js" defer', ' src="retrylab.js" defer']);
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

  test('the page runs from file:// too, with the opening run', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(pathToFileURL(join(DIST, 'index.html')).href);
    await page.waitForFunction(() => document.documentElement.classList.contains('rl-ready'));
    assert.equal(await page.locator('#rl-metrics [data-metric="elapsed"] dd').textContent(), '3,700 ms');
    assert.deepEqual(errors, []);
    await context.close();
  });
});
