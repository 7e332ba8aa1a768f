// <retry-lab>: one script tag, several independent elements whose attributes are the
// inputs, styles scoped in shadow roots — hostile host CSS changes nothing inside and the
// element's CSS changes nothing outside — under the strict CSP, from another origin, and
// saying so plainly when WebAssembly is unavailable or forbidden.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { browserSuite } from './lib/harness.js';
import { serve, siteCopy, watchedPage } from './lib/sites.js';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

const HOSTILE_CSS = `
html { font-size: 62.5%; }
:root { --fg: #f00; --panel: #000; --bg: #0f0; --font: serif; --rl-rem: 1px; --client: #ff0; }
body { direction: rtl; }
* { color: #f00 !important; letter-spacing: 3px; word-spacing: 9px; text-transform: uppercase; line-height: 3 !important;
    font-family: serif !important; font-style: italic; text-align: center; text-indent: 4em; cursor: wait; visibility: visible; }
h3, p, table, button, input, svg, div, section, dl, ol, label { display: none !important; }
.rl-view, .rl-button, .verdict, .rl-root, .rl-shell, .retry-lab, .rl { display: block !important; border: 5px solid lime !important;
    background: #ff0 !important; padding: 3em !important; font-size: 40px !important; }
retry-lab { white-space: nowrap; font-weight: 900; }
`;
// Elements of the host's own with the element's class names: the element must not style them.
const LOOKALIKES = '<section class="rl-view"><h2 class="verdict-line">Host heading</h2><button class="rl-button rl-play" type="button">Host button</button><p class="rl-error">Host text</p></section>';

const page = ({ title, css = null, script = 'retry-lab-element.js', body }) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title><link rel="icon" href="favicon.svg">
${css ? `<link rel="stylesheet" href="${css}">` : ''}<script src="${script}" defer></script></head>
<body><main><h1>${title}</h1><p>A blog post.</p>${body}</main></body></html>`;

const TWO = `${LOOKALIKES}
<retry-lab id="one" scenario="outage-503-twice" max-retries="1"></retry-lab>
<p>Between the two.</p>
<retry-lab id="two" scenario="script" script="200~lost,200" idempotency-key client-timeout-ms="500" data-note="ignored"></retry-lab>`;
const INPUTS = {
  one: { scenario: 'outage-503-twice', maxRetries: 1 },
  two: { scenario: 'script', script: [{ status: 200, lost: true }, { status: 200 }], idempotencyKey: true, clientTimeoutMs: 500 },
};

const env = browserSuite({ engine: true });
let site; // the site with host pages beside it, served same-origin under the strict CSP
let server;
let blog; // a host on another origin that loads the element from the site's server
let blogFiles;
env.setUp(async () => {
  site = siteCopy({
    files: {
      'two.html': page({ title: 'Two elements', body: TWO }),
      'two-hostile.html': page({ title: 'Two elements', css: 'hostile.css', body: TWO }),
      'lookalikes.html': page({ title: 'Two elements', css: 'hostile.css', script: 'none.js', body: TWO }),
      'hostile.css': HOSTILE_CSS,
      'none.js': '',
      'bad.html': page({ title: 'Bad attributes', body: '<retry-lab maxRetries="2" deadline-ms="soon" max-retries="1e999" jitter="proportional" jitter-low="0.5" colour="red" class="x" data-x="1"></retry-lab>' }),
    },
  });
  server = await serve(site.dir);
  blogFiles = siteCopy({ copySite: false, files: { 'favicon.svg': readFileSync(`${site.site}/favicon.svg`, 'utf8'), 'post.html': page({ title: 'Elsewhere', script: `${server.origin}/retry-lab-element.js`, body: '<retry-lab max-retries="0"></retry-lab>' }) } });
});
env.tearDown(async () => {
  await blog?.close();
  blogFiles?.remove();
  await server?.close();
  site?.remove();
});

const plain = (x) => JSON.parse(JSON.stringify(x));
const ready = (p, n) => p.waitForFunction((count) => document.querySelectorAll('retry-lab.rl-ready, retry-lab.rl-engine-failed').length === count, n);
const resultOf = (p, id) => p.evaluate((x) => JSON.parse(JSON.stringify(document.getElementById(x).explorable.getState().result)), id);
const inShadow = (p, id, selector) => p.evaluate(([x, s]) => document.getElementById(x).shadowRoot.querySelector(s)?.textContent ?? null, [id, selector]);

async function clean(watched) {
  assert.deepEqual(watched.problems, [], 'console errors');
  assert.deepEqual(await watched.violations(), [], 'CSP violations');
}

// Every element inside a shadow root, as the styles that decide how it looks.
function fingerprint(id) {
  const root = document.getElementById(id).shadowRoot;
  const props = ['display', 'font-size', 'font-family', 'font-weight', 'font-style', 'color', 'background-color', 'letter-spacing',
    'word-spacing', 'text-transform', 'text-align', 'text-indent', 'line-height', 'white-space', 'direction', 'padding-top', 'border-top-width', 'width', 'height', 'cursor'];
  return [...root.querySelectorAll('*')].map((el) => {
    const cs = getComputedStyle(el);
    return `${el.tagName}${el.id ? `#${el.id}` : ''} ${props.map((p) => cs.getPropertyValue(p)).join('|')}`;
  });
}

describe('<retry-lab>', () => {
  test('two elements with different attributes show different runs, each exactly its inputs\' run', async () => {
    const watched = await watchedPage(env);
    const p = watched.page;
    await p.goto(`${server.origin}/two.html`);
    await ready(p, 2);
    const one = await resultOf(p, 'one');
    const two = await resultOf(p, 'two');
    assert.deepEqual(one, plain(env.engine.compute(INPUTS.one)));
    assert.deepEqual(two, plain(env.engine.compute(INPUTS.two)));
    assert.notDeepEqual(one.metrics, two.metrics);
    assert.equal(await inShadow(p, 'one', '[id$="metrics"] [data-metric="elapsed"] dd'), '900 ms');
    assert.equal(await inShadow(p, 'two', '[id$="metrics"] [data-metric="elapsed"] dd'), '1,200 ms');
    assert.equal(await inShadow(p, 'two', '#rl-2-notice'), null, 'data- and aria- attributes are not mistakes');
    // Issue 35 item 10: the run in detail (events, answers, metrics) folded under one closed
    // disclosure; the element is that much shorter, and opening it shows them.
    const fold = await p.evaluate(() => {
      const root = document.getElementById('one').shadowRoot;
      const details = root.querySelector('details.rl-fold');
      const tall = () => document.getElementById('one').getBoundingClientRect().height;
      const closed = tall();
      const inside = ['events', 'table', 'metrics'].map((n) => Boolean(details && details.querySelector(`[id$="${n}"]`)));
      details.open = true;
      const open = tall();
      const seen = root.querySelector('[id$="metrics"]').checkVisibility();
      details.open = false;
      return { wasOpen: false, inside, closed, open, seen };
    });
    assert.deepEqual(fold.inside, [true, true, true]);
    assert.ok(fold.seen, 'opened, the metrics are seen');
    assert.ok(fold.open - fold.closed > 300, `closed ${fold.closed} px, open ${fold.open} px`);

    // Independent: a control inside one changes only that one.
    await p.locator('#one').getByRole('radio', { name: 'HTTP 400 on every attempt', exact: true }).check();
    assert.equal((await resultOf(p, 'one')).inputs.scenario, 'bad-request-400');
    assert.deepEqual(await resultOf(p, 'two'), two);
    // An attribute set later recomputes that one, with the others it holds.
    await p.evaluate(() => document.getElementById('two').setAttribute('idempotency-key', 'false'));
    await p.waitForFunction(() => document.getElementById('two').explorable.getState().result.inputs.idempotencyKey === false);
    assert.deepEqual(await resultOf(p, 'two'), plain(env.engine.compute({ ...INPUTS.two, idempotencyKey: false })));
    assert.equal((await resultOf(p, 'one')).inputs.scenario, 'bad-request-400');

    // Its link opens the full page beside the script on the same run; its downloads work.
    const link = await p.locator('#two').locator('input[readonly]').inputValue();
    assert.ok(link.startsWith(`${server.origin}/index.html#v=1&scenario=script&`), link);
    assert.equal(await p.locator('#two').getByRole('link', { name: 'Open in Retry Lab' }).getAttribute('href'), link);
    const [download] = await Promise.all([p.waitForEvent('download'), p.locator('#two').getByRole('button', { name: 'Run as JSON' }).click()]);
    assert.deepEqual(JSON.parse(readFileSync(await download.path(), 'utf8')), await resultOf(p, 'two'));
    await clean(watched);

    const full = await watchedPage(env);
    await full.page.goto(link);
    await full.page.waitForFunction(() => document.documentElement.classList.contains('rl-ready'));
    assert.deepEqual(await full.page.evaluate(() => JSON.parse(JSON.stringify(window.retryLab.getState().result))), await (async () => plain(env.engine.compute({ ...INPUTS.two, idempotencyKey: false })))());
  });

  test('hostile host CSS changes nothing inside, and the element changes nothing outside', async () => {
    const prints = {};
    for (const name of ['two', 'two-hostile']) {
      const watched = await watchedPage(env);
      await watched.page.goto(`${server.origin}/${name}.html`);
      await ready(watched.page, 2);
      prints[name] = { one: await watched.page.evaluate(fingerprint, 'one'), two: await watched.page.evaluate(fingerprint, 'two') };
      await clean(watched);
    }
    assert.ok(prints.two.one.length > 150, `${prints.two.one.length} elements compared`);
    assert.deepEqual(prints['two-hostile'].one, prints.two.one, 'the first element looks the same on the hostile page');
    assert.deepEqual(prints['two-hostile'].two, prints.two.two, 'so does the second');
    const rootFont = prints.two.one.find((line) => line.startsWith('DIV ') && line.includes('17px'));
    assert.ok(rootFont, 'the element\'s text is 17px: the reader\'s 16px default, not the host\'s 62.5% root');

    // Outside: the host's own look-alike elements keep the host's styles, element or not.
    const outside = async (path) => {
      const watched = await watchedPage(env);
      await watched.page.goto(`${server.origin}/${path}`);
      await watched.page.waitForLoadState('load');
      if (path === 'two-hostile.html') await ready(watched.page, 2);
      const styles = await watched.page.evaluate(() => ['.rl-view', '.verdict-line', '.rl-button', '.rl-error', 'h1', 'h2', 'main', 'body'].map((s) => {
        const cs = getComputedStyle(document.querySelector(s));
        return `${s} ${cs.display} ${cs.fontSize} ${cs.color} ${cs.backgroundColor} ${cs.borderTopWidth} ${cs.padding} ${cs.fontWeight}`;
      }));
      return styles;
    };
    assert.deepEqual(await outside('two-hostile.html'), await outside('lookalikes.html'));
  });

  test('attributes it cannot use keep their defaults and are named, by their attribute names, inside the element', async () => {
    const watched = await watchedPage(env);
    const p = watched.page;
    await p.goto(`${server.origin}/bad.html`);
    await ready(p, 1);
    const notice = await p.evaluate(() => document.querySelector('retry-lab').shadowRoot.querySelector('.rl-notice').textContent);
    assert.match(notice, /maxretries=2: is not an attribute of <retry-lab>; did you mean max-retries\?/);
    assert.match(notice, /deadline-ms=soon: is not a number/);
    assert.match(notice, /max-retries=1e999: must be a whole number from 0 to 100/);
    assert.match(notice, /colour=red: is not an attribute/);
    assert.doesNotMatch(notice, /class|data-x/);
    const result = await p.evaluate(() => JSON.parse(JSON.stringify(document.querySelector('retry-lab').explorable.getState().result)));
    assert.deepEqual(result, plain(env.engine.compute({ jitter: 'proportional', jitterLow: 0.5 })), 'the usable attributes are used');
    assert.equal(await p.evaluate(() => document.querySelectorAll('.rl-notice').length), 0, 'the notice is inside, not on the page');
    await clean(watched);
  });

  test('axe-core finds nothing on a host page with two elements, light and dark', async () => {
    for (const colorScheme of ['light', 'dark']) {
      const context = await env.newContext({ colorScheme, bypassCSP: true });
      const p = await context.newPage();
      await p.goto(`${server.origin}/two.html`);
      await ready(p, 2);
      await p.addScriptTag({ content: AXE });
      const result = await p.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
      assert.deepEqual(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).slice(0, 3).join(', ')}`), [], colorScheme);
    }
  });

  test('from another origin: the host allows the script\'s origin and wasm, and nothing more', async () => {
    const csp = `default-src 'self'; script-src 'self' ${server.origin} 'wasm-unsafe-eval'; style-src 'self'`;
    blog = await serve(blogFiles.dir, { csp });
    const watched = await watchedPage(env);
    const p = watched.page;
    await p.goto(`${blog.origin}/post.html`);
    await ready(p, 1);
    const result = await p.evaluate(() => JSON.parse(JSON.stringify(document.querySelector('retry-lab').explorable.getState().result)));
    assert.deepEqual(result, plain(env.engine.compute({ maxRetries: 0 })));
    assert.equal(await p.locator('retry-lab').getByRole('link', { name: 'Open in Retry Lab' }).getAttribute('href'), `${server.origin}/index.html#v=1&maxRetries=0`);
    await clean(watched);
    await blog.close();
    blog = null;
  });

  test('a host whose CSP forbids WebAssembly, or a browser without it: the element says so plainly', async () => {
    const noWasm = await serve(blogFiles.dir, { csp: `default-src 'self'; script-src 'self' ${server.origin}; style-src 'self'` });
    const watched = await watchedPage(env);
    await watched.page.goto(`${noWasm.origin}/post.html`);
    await ready(watched.page, 1);
    const text = await watched.page.evaluate(() => document.querySelector('retry-lab').shadowRoot.querySelector('[role="alert"]').textContent);
    assert.match(text, /failed to start/);
    assert.match(text, /'wasm-unsafe-eval'/);
    assert.match(text, /cannot run here/);
    await noWasm.close();

    const context = await env.newContext();
    const p = await context.newPage();
    await p.addInitScript(() => { delete window.WebAssembly; });
    await p.goto(`${server.origin}/two.html`);
    await ready(p, 2);
    const alerts = await p.evaluate(() => [...document.querySelectorAll('retry-lab')].map((el) => el.shadowRoot.querySelector('[role="alert"]').textContent));
    assert.equal(alerts.length, 2);
    for (const alert of alerts) assert.match(alert, /This browser cannot run WebAssembly/);
  });
});
