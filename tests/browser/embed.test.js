// embed.html in an iframe on a page from another origin, wired with the README's own parent
// snippet: the frame takes its content's height and follows it, forged height messages
// (another frame, the parent itself) change nothing, a link configures the embed, an engine
// that cannot load is said plainly at full height, and axe-core finds nothing.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { REPO, browserSuite, pageFor, watchedPage } from './lib/harness.js';
import { serve, siteCopy } from './lib/sites.js';
import { frames } from './lib/ui.js';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

// The parent's snippet, exactly as the README gives it.
function readmeSnippet() {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const marker = readme.indexOf('<!-- The browser tests run this snippet');
  assert.ok(marker > 0, 'the README marks its parent snippet');
  const block = /```html\n([\s\S]*?)```/.exec(readme.slice(marker));
  return block[1];
}

const env = browserSuite(); // the site, strict CSP, origin A
let parent; // the blog, origin B
let parentFiles;
env.setUp(async () => {
  const snippet = readmeSnippet();
  assert.match(snippet, /https:\/\/retrylab\.example/);
  const use = (hash) => snippet.replaceAll('https://retrylab.example', env.server.origin).replace('#v=1&maxRetries=0', hash);
  const page = (title, body) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><link rel="icon" href="data:,"></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
  parentFiles = siteCopy({
    copySite: false,
    files: {
      // Another frame of the blog's own origin, posting a height as if it were Retry Lab.
      'evil.html': page('Not Retry Lab', '<script src="evil.js"></script>'),
      'evil.js': "setInterval(() => parent.postMessage({ type: 'retry-lab:height', height: 5 }, '*'), 50);",
      // Beside the embed: a frame of the blog's origin that forges heights, and a second Retry
      // Lab embed (the right origin, the wrong source) whose real, different heights are not ours.
      'blog.html': page('A post about retries', `<p>Before the embed.</p>${use('#v=1&maxRetries=0')}<p>After it.</p>`
        + '<iframe id="other" title="Something else" src="evil.html" width="300" height="80"></iframe>'
        + `<iframe id="second" title="Another Retry Lab" src="${env.server.origin}/embed.html#v=1&scenario=bad-request-400" width="320" height="100"></iframe>`),
      'blog-outage.html': page('Outage', use('#v=1&scenario=outage-503-twice&bogus=1')),
    },
  });
  parent = await serve(parentFiles.dir, { csp: null });
});
env.tearDown(async () => {
  await parent?.close();
  parentFiles?.remove();
});

// The iframe's height attribute, its content's height, and whether it scrolls inside.
const embedFrame = async (page) => (await page.locator('#retry-lab').elementHandle()).contentFrame();

async function sizes(page) {
  const frame = await embedFrame(page);
  const attribute = Number(await page.locator('#retry-lab').getAttribute('height'));
  const content = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
  const box = await page.locator('#retry-lab').evaluate((el) => el.clientHeight);
  const scrolls = await frame.evaluate(() => document.documentElement.scrollHeight > window.innerHeight + 1);
  return { attribute, content, box, scrolls };
}

async function settled(page) {
  // The frame's height equals its content's, and stays so over a few frames.
  await page.waitForFunction(() => {
    const frame = document.getElementById('retry-lab');
    try {
      return frame.height !== '900';
    } catch {
      return false;
    }
  });
  let last = null;
  for (let i = 0; i < 20; i += 1) {
    const now = await sizes(page);
    if (last && now.attribute === now.content && JSON.stringify(now) === JSON.stringify(last)) return now;
    last = now;
    await frames(page, 3);
  }
  return last;
}

describe('embed.html in an iframe', () => {
  test('on a page from another origin, the README snippet sizes the frame to its content and follows it', async () => {
    const watched = await watchedPage(env);
    const { page } = watched;
    await page.goto(`${parent.origin}/blog.html`);
    assert.notEqual(parent.origin, env.server.origin, 'two origins');
    const first = await settled(page);
    assert.equal(first.attribute, first.content, 'the frame is as tall as its content');
    assert.equal(first.box, first.content);
    assert.equal(first.scrolls, false, 'no scrollbar inside');
    assert.ok(first.content > 900, `a tall explorable (${first.content}px)`);

    // The embed is the link's run.
    const frame = await embedFrame(page);
    assert.equal(await frame.evaluate(() => window.retryLab.getState().result.inputs.maxRetries), 0);
    assert.equal(await frame.locator('#rl-open').getAttribute('href'), `${env.server.origin}/index.html#v=1&maxRetries=0`);

    // More attempts, more rows: the frame grows with them.
    await frame.getByRole('radio', { name: 'HTTP 400 on every attempt', exact: true }).check();
    await frame.getByRole('radio', { name: 'Every failure, including 400', exact: true }).check();
    await frame.locator('#rl-maxRetries').fill('10');
    await page.waitForFunction((h) => Number(document.getElementById('retry-lab').height) > h + 100, first.attribute);
    const grown = await settled(page);
    assert.equal(grown.attribute, grown.content);
    assert.ok(grown.content > first.content + 100, `${first.content} → ${grown.content}`);

    // A narrow column: the layout stacks, the frame follows.
    await page.setViewportSize({ width: 480, height: 800 });
    await page.waitForFunction((h) => Number(document.getElementById('retry-lab').height) > h + 300, grown.attribute);
    const narrow = await settled(page);
    assert.equal(narrow.attribute, narrow.content);
    assert.equal(narrow.scrolls, false);

    // Forged heights: another frame of the blog's origin posts all along; the parent posts to
    // itself; the second embed, from the right origin, posts its own new height.
    await page.evaluate(() => window.postMessage({ type: 'retry-lab:height', height: 5 }, '*'));
    const other = await (await page.locator('#second').elementHandle()).contentFrame();
    await other.waitForFunction(() => document.documentElement.classList.contains('rl-ready'));
    const otherBefore = await other.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    // The second embed's message of its new height, heard here after the snippet's own listener
    // (added first, so it has had the message by then): the one a careless parent would take.
    await page.evaluate((before) => {
      window.__secondPosted = new Promise((resolve) => window.addEventListener('message', (e) => {
        if (e.source === document.getElementById('second').contentWindow && e.data?.type === 'retry-lab:height' && e.data.height !== before) resolve(e.data.height);
      }));
    }, otherBefore);
    await other.getByRole('radio', { name: 'Every failure, including 400', exact: true }).check();
    await other.locator('#rl-maxRetries').fill('10');
    await other.waitForFunction((h) => Math.ceil(document.documentElement.getBoundingClientRect().height) !== h, otherBefore);
    await page.evaluate(() => window.__secondPosted);
    await frames(page, 2); // a frame resized by it would show by now
    const after = await sizes(page);
    assert.equal(after.attribute, narrow.attribute, 'no forged height was taken');
    const second = await page.locator('#second').evaluate((el) => [el.height, el.contentWindow === null]);
    assert.deepEqual(second, ['100', false], 'the second embed is there, and nobody sized it');
    assert.deepEqual(watched.problems, []);
    for (const f of page.frames()) assert.deepEqual(await f.evaluate(() => window.__violations), [], `CSP violations in ${f.url()}`);
  });

  test('a link\'s unusable values show in the embed\'s notice, and the frame grows by it', async () => {
    const watched = await watchedPage(env);
    const { page } = watched;
    await page.goto(`${parent.origin}/blog-outage.html`);
    const shown = await settled(page);
    const frame = await embedFrame(page);
    assert.match(await frame.locator('#rl-notice').textContent(), /bogus=1: is not an input of the engine/);
    assert.equal(await frame.evaluate(() => window.retryLab.getState().result.inputs.scenario), 'outage-503-twice');
    await frame.getByRole('button', { name: 'Dismiss' }).click();
    await page.waitForFunction((h) => Number(document.getElementById('retry-lab').height) < h, shown.attribute);
    const dismissed = await settled(page);
    assert.equal(dismissed.attribute, dismissed.content);
    assert.deepEqual(watched.problems, []);
  });

  test('when the engine cannot load, the embed says so, and the frame shrinks to that message', async () => {
    const watched = await watchedPage(env);
    const { page, context } = watched;
    await context.route('**/retrylab-engine.js', (route) => route.fulfill({ status: 404, body: 'gone' }));
    await page.goto(`${parent.origin}/blog.html`);
    const frame = await embedFrame(page);
    await frame.waitForFunction(() => document.documentElement.classList.contains('rl-engine-failed'));
    const alert = await frame.locator('[role="alert"]').textContent();
    assert.match(alert, /retry engine .* did not load/);
    assert.match(alert, /cannot run here/);
    assert.doesNotMatch(alert, /article below/, 'the embed has no article');
    const failed = await settled(page);
    assert.equal(failed.attribute, failed.content);
    assert.ok(failed.content < 300, `a short frame for a short message (${failed.content}px)`);
  });

  for (const options of [{ colorScheme: 'light' }, { colorScheme: 'dark' }, { viewport: { width: 375, height: 700 } }]) {
    test(`axe-core finds nothing in the embed (${JSON.stringify(options)}), with a notice on show too`, async () => {
      // The file's reused page for CSP bypassed, in these options (issue 31: a context of its own
      // is a renderer process, about half a CPU·s); each link opened afresh through about:blank
      // (a new hash on the same page would be a hashchange), one load each.
      const { page } = await pageFor(env, { ...options, bypassCSP: true });
      for (const hash of ['#v=1&maxRetries=0', '#v=1&maxRetries=oops']) {
        await page.goto('about:blank');
        await page.goto(`${env.server.origin}/embed.html${hash}`);
        await page.waitForFunction(() => document.documentElement.classList.contains('rl-ready'));
        await page.addScriptTag({ content: AXE });
        const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
        const violations = result.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')}`);
        assert.deepEqual(violations, [], hash);
        if (hash.includes('oops')) assert.equal(await page.locator('#rl-notice').count(), 1);
      }
    });
  }
});
