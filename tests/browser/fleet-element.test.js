// <retry-lab view="fleet"> (web/fleet/embed.js): the fleet view in the element, its request
// from attributes named after the fleet engine's field paths or from a fleet link, its code and
// engine loaded only for such an element, unusable attributes named while the run on show
// stays, and nothing for axe-core in light and dark. Expected figures are the independent
// model's (spec/conformance/fleet-cases.json), never the engine's own output.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, artifactPath, axeViolations, browserSuite, elementHost, hostSite, pageFor } from './lib/harness.js';
import { watchedPage } from './lib/sites.js';

const CASES = JSON.parse(readFileSync(join(REPO, 'spec/conformance/fleet-cases.json'), 'utf8')).cases;
const caseNamed = (name) => {
  const c = CASES.find((k) => k.name === name);
  assert.ok(c, `no conformance case "${name}"`);
  return c.result;
};

const page = (title, body) => elementHost(title, body, 'A blog post about retry storms.');

const env = browserSuite();
const host = hostSite(env, {
  'single.html': page('One run', '<retry-lab max-retries="0"></retry-lab>'),
  'fleet.html': page('The fleet', '<retry-lab id="f" view="fleet" server.drop-stale="unfinishable"></retry-lab>'),
  'link.html': page('A fleet link', '<retry-lab id="f" view="fleet" link="#v=1&amp;view=fleet&amp;server.queueOrder=lifo"></retry-lab>'),
  'bad.html': page('Bad attributes', '<retry-lab id="f" view="fleet" policy.max-retries="many" max-retries="2" class="x" data-note="y"></retry-lab>'),
  'both.html': page('Two views', '<h2>One payment</h2><retry-lab id="one" max-retries="1"></retry-lab><h2>Many callers</h2><retry-lab id="f" view="fleet" gates.bucket="on"></retry-lab>'),
});

const FLEET_FILES = /\/(retrylab-fleet(-section)?\.js|retry-lab-fleet\.css)$/;
// The fleet element drawn and with nothing left to compute.
async function fleetReady(p, id = 'f') {
  await p.waitForFunction((x) => document.getElementById(x).classList.contains('rl-ready') || document.getElementById(x).classList.contains('rl-engine-failed'), id, { timeout: 30000 });
  await p.evaluate((x) => document.getElementById(x).fleet.settled(), id);
}
const shown = (p, id = 'f') => p.evaluate((x) => {
  const s = document.getElementById(x).fleet.state();
  return JSON.parse(JSON.stringify({ request: s.result.request, totals: s.result.totals, recovery: s.result.recovery }));
}, id);
const inside = (p, selector, id = 'f') => p.evaluate(([x, s]) => {
  const el = document.getElementById(x).shadowRoot.querySelector(s);
  return el && !el.hidden ? el.textContent : null;
}, [id, selector]);
// Attributes set by a script: one recomputation, once it has settled. The element reads them
// in microtasks (its MutationObserver, then one queued reload: web/embed/element.js) and starts
// the run there, so after the next task settled() waits for it.
async function setAttributes(p, attrs, id = 'f') {
  await p.evaluate(([x, a]) => {
    const el = document.getElementById(x);
    for (const [k, v] of Object.entries(a)) if (v === null) el.removeAttribute(k); else el.setAttribute(k, v);
    return new Promise((r) => setTimeout(r, 0)).then(() => el.fleet.settled());
  }, [id, attrs]);
}

async function clean(watched) {
  assert.deepEqual(watched.problems, [], 'console errors');
  assert.deepEqual(await watched.violations(), [], 'CSP violations');
}

describe('<retry-lab view="fleet">', () => {
  test('a single-run element loads nothing of the fleet', async () => {
    const watched = await watchedPage(env);
    await watched.page.goto(`${host.server.origin}/single.html`);
    await watched.page.waitForFunction(() => document.querySelector('retry-lab.rl-ready'));
    // Ready, the element has chosen its view (element.js start()): the fleet's files would have
    // been asked for by then, their script and stylesheet put in the page as the load began.
    const added = await watched.page.evaluate(() => [
      ...[...document.querySelectorAll('script[src], link[href]')].map((el) => el.src || el.href),
      ...performance.getEntriesByType('resource').map((e) => e.name),
    ]);
    assert.deepEqual([...added, ...watched.requests].filter((u) => FLEET_FILES.test(new URL(u).pathname)), []);
    await clean(watched);
  });

  test('its attributes are the fleet request: server.drop-stale="unfinishable" draws the recovery at 20 s, in a worker', async () => {
    const watched = await watchedPage(env);
    const p = watched.page;
    await p.goto(`${host.server.origin}/fleet.html`);
    await fleetReady(p);
    const expected = caseNamed('9.5 drop unfinishable');
    const s = await shown(p);
    assert.deepEqual(s.recovery, expected.recovery);
    assert.equal(s.totals.requests, expected.totals.requests);
    assert.equal(s.totals.succeeded, expected.totals.succeeded);
    assert.equal(s.request.server.dropStale, 'unfinishable');
    assert.match(await inside(p, '#fl-verdict'), /^Recovered 0 s after the slowdown ended, at 20 s:/);
    // The view: the storm with its words, the side effects and the controls; not the story,
    // the map or the reproductions, which are the article's.
    assert.equal(await p.evaluate(() => document.getElementById('f').shadowRoot.querySelectorAll('svg.fl-chart rect.fl-trigger').length), 1);
    assert.notEqual(await inside(p, '#fl-effects'), null);
    assert.equal(await p.evaluate(() => document.getElementById('f').shadowRoot.querySelector('[data-path="server.dropStale"]').value), 'unfinishable');
    for (const gone of ['.fl-story', '#fl-map', '#fl-aws-writes']) assert.equal(await inside(p, gone), null, gone);
    assert.equal(await p.evaluate(() => document.getElementById('f').fleet.where()), 'worker');
    // Its code and engine came on demand, beside the element's script; its styles are inside it.
    const files = watched.requests.map((u) => new URL(u).pathname).filter((f) => FLEET_FILES.test(f)).sort();
    assert.deepEqual([...new Set(files)], ['/retry-lab-fleet.css', '/retrylab-fleet-section.js', '/retrylab-fleet.js']);
    assert.equal(await p.evaluate(() => document.querySelectorAll('link[rel="stylesheet"]').length), 0, 'no stylesheet on the host page');
    assert.equal(await p.evaluate(() => getComputedStyle(document.getElementById('f').shadowRoot.querySelector('.fl-figure')).borderTopStyle), 'solid', 'the fleet view is styled');
    // A control inside recomputes, as in the article.
    await p.evaluate(() => {
      const sel = document.getElementById('f').shadowRoot.querySelector('[data-path="server.dropStale"]');
      sel.value = 'never';
      sel.dispatchEvent(new Event('change'));
    });
    await p.evaluate(() => document.getElementById('f').fleet.settled()); // the change's handler started its run
    assert.deepEqual((await shown(p)).recovery, caseNamed('9.5 the opening fleet run').recovery);
    // Its link opens the article's fleet section on the same run.
    assert.equal(await p.evaluate(() => document.getElementById('f').fleet.link()), '#v=1&view=fleet');
    assert.equal(new URL(p.url()).hash, '', 'the host page’s address is not the element’s');
    await clean(watched);
  });

  test('a fleet link as its `link` attribute: server.queueOrder=lifo recovers at 20 s; a later attribute recomputes it', async () => {
    const watched = await watchedPage(env);
    const p = watched.page;
    await p.goto(`${host.server.origin}/link.html`);
    await fleetReady(p);
    assert.deepEqual((await shown(p)).recovery, caseNamed('9.5 lifo').recovery);
    await setAttributes(p, { link: null, 'gates.bucket': 'on' });
    assert.deepEqual((await shown(p)).recovery, caseNamed('9.5 token bucket').recovery);
    await setAttributes(p, { 'gates.bucket.scope': 'fleet' });
    assert.deepEqual((await shown(p)).recovery, caseNamed('fleet-scoped bucket').recovery);
    assert.match(await inside(p, '#fl-verdict'), /^Recovered 5 s after the slowdown ended, at 25 s:/);
    await clean(watched);
  });

  test('an attribute it cannot use is named in a visible message, and the run on show stays', async () => {
    const watched = await watchedPage(env);
    const p = watched.page;
    await p.goto(`${host.server.origin}/bad.html`);
    await fleetReady(p);
    const opening = caseNamed('9.5 the opening fleet run');
    assert.deepEqual((await shown(p)).recovery, opening.recovery, 'the opening fleet run, not a run with some attributes dropped');
    const message = await inside(p, '#fl-error');
    assert.match(message, /policy\.max-retries="many" is not a number/);
    assert.match(message, /max-retries="2" is not an attribute of <retry-lab view="fleet">; did you mean policy\.max-retries\?/);
    assert.doesNotMatch(message, /class|data-note/);
    // Fixed: the run is the attributes', and the message goes.
    await setAttributes(p, { 'max-retries': null, 'policy.max-retries': '0' });
    assert.equal((await shown(p)).request.policy.maxRetries, 0);
    assert.deepEqual((await shown(p)).recovery, caseNamed('9.5 no retries').recovery);
    assert.equal(await inside(p, '#fl-error'), null);
    // A value the engine refuses is named by its attribute too; the last good run stays.
    await setAttributes(p, { 'policy.max-retries': '1000' });
    assert.match(await inside(p, '#fl-error'), /policy\.max-retries must be a whole number from 0 to 100; got 1000\. The last good run stays on show\./);
    assert.equal((await shown(p)).request.policy.maxRetries, 0);
    // A value it cannot read after a good run: named, and the good run stays (not the opening
    // run, which the request without it would be).
    await setAttributes(p, { 'policy.max-retries': 'lots' });
    assert.match(await inside(p, '#fl-error'), /policy\.max-retries="lots" is not a number/);
    assert.equal((await shown(p)).request.policy.maxRetries, 0);
    await clean(watched);
  });

  for (const colorScheme of ['light', 'dark']) {
    test(`axe-core finds nothing on a page with a single-run and a fleet element, ${colorScheme}; screenshots at 1280 and 390`, async () => {
      // The file's reused page of its kind (harness.js pageFor), reset and given this scheme and
      // width: a fresh context for each mode cost a renderer's start (issue 31).
      const { page: p } = await pageFor(env, { colorScheme, bypassCSP: true, viewport: { width: 1280, height: 900 } });
      await p.goto(`${host.server.origin}/both.html`);
      await p.waitForFunction(() => document.getElementById('one').classList.contains('rl-ready'));
      await fleetReady(p);
      assert.deepEqual((await shown(p)).recovery, caseNamed('9.5 token bucket').recovery);
      assert.deepEqual(await axeViolations(p), [], colorScheme);
      // The theme attribute holds against the reader's scheme.
      const other = colorScheme === 'light' ? 'dark' : 'light';
      await p.evaluate((t) => document.getElementById('f').setAttribute('theme', t), other);
      const themed = await p.evaluate(() => window.axe.run(document.getElementById('f'), { resultTypes: ['violations'] }));
      assert.deepEqual(themed.violations.map((v) => v.id), [], `theme="${other}"`);
      await p.evaluate(() => document.getElementById('f').removeAttribute('theme'));
      await p.locator('#f').screenshot({ path: await artifactPath(`fleet-element-1280-${colorScheme}.png`) });
      await p.setViewportSize({ width: 390, height: 844 });
      await p.locator('#f').screenshot({ path: await artifactPath(`fleet-element-390-${colorScheme}.png`) });
      const wide = await p.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= 390, `the page is ${wide} px wide at 390`);
    });
  }
});
