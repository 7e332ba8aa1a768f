// <retry-lab view="compare"> (issue 17, docs/compare.md §3): the element shows two runs and
// what differs between them, from attributes (the single-run element's, `after-` for the after
// side) or from a compare link in `link` (which attributes override); its code loads on demand beside the element's script;
// a bad attribute is named in the element, by the name the author wrote, and the comparison on
// show stays; axe-core finds nothing, light and dark.
//
// The figures are SPEC §9's: the opening run (charges 2, outcome success, 3,700 ms) against
// maxRetries 0 (one attempt, one charge, outcome unknown at the 3,000 ms timeout), and against an
// idempotency key (the second attempt is a replay: charges 1, replays 1, the same 3,700 ms).

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { artifactPath, axeViolations, browserSuite, differenceLines, elementHost, hostSite, retrysimMarkdown } from './lib/harness.js';
import { watchedPage } from './lib/sites.js';

const page = (title, body) => elementHost(title, body, 'A pull request\'s description.');

const env = browserSuite({ engine: true });
const host = hostSite(env, {
  'attrs.html': page('Before and after', '<retry-lab id="c" view="compare" after-max-retries="0"></retry-lab>'),
  'link.html': page('Before and after', '<retry-lab id="c" view="compare" link="https://retrylab.example/index.html#v=1&amp;view=compare&amp;after.idempotencyKey=true"></retry-lab>'),
  'override.html': page('Before and after', '<retry-lab id="c" view="compare" link="#v=1&amp;view=compare&amp;after.idempotencyKey=true&amp;after.maxRetries=1" after-max-retries="0"></retry-lab>'),
  'bad.html': page('Before and after', '<retry-lab id="c" view="compare" after-max-retries="lots" after-maxRetries="1" after-idempotency-key="true"></retry-lab>'),
  'single.html': page('One run', '<retry-lab id="c" max-retries="0"></retry-lab>'),
  'fleet.html': page('Two fleet runs', '<retry-lab id="c" view="compare" of="fleet" after-policy.max-retries="0"></retry-lab>'),
  'fleet-link.html': page('Two fleet runs', '<retry-lab id="c" view="compare" link="https://retrylab.example/index.html#v=1&amp;view=compare&amp;of=fleet&amp;after.gates.bucket=on&amp;after.policy.nope=1"></retry-lab>'),
  'fleet-bad.html': page('Two fleet runs', '<retry-lab id="c" view="compare" of="fleet" after-policy.max-retries="lots" after-max-retries="0" server.drop-stale="expired" after-server.drop-stale="unfinishable"></retry-lab>'),
});

const compared = (p) => p.waitForFunction(() => document.getElementById('c').classList.contains('rl-compare-ready'));
// The difference lines inside the element: metric → [before, after, change].
const diffs = (p) => p.evaluate(() => Object.fromEntries([...document.getElementById('c').shadowRoot.querySelectorAll('.rl-compare-diffs tbody tr')]
  .map((r) => [r.dataset.metric, [r.querySelector('[data-side="before"]').textContent, r.querySelector('[data-side="after"]').textContent, r.querySelector('.rl-diff-change').textContent]])));
const inShadow = (p, selector, what = 'textContent') => p.evaluate(([s, w]) => {
  const el = document.getElementById('c').shadowRoot.querySelector(s);
  return el ? el[w] : null;
}, [selector, what]);
const notice = (p) => inShadow(p, '.rl-notice');
// A host page in a fresh, watched page, once `ready(p)` holds.
async function openHost(file, ready) {
  const watched = await watchedPage(env);
  await watched.page.goto(`${host.server.origin}/${file}`);
  await ready(watched.page);
  return { watched, p: watched.page };
}
// A host page for axe-core (which goes in as an inline script: the page's CSP bypassed).
async function axePage(file, ready, colorScheme) {
  const context = await env.newContext({ colorScheme, bypassCSP: true });
  const p = await context.newPage();
  await p.goto(`${host.server.origin}/${file}`);
  await ready(p);
  return p;
}

describe('<retry-lab view="compare">', () => {
  test('from attributes: both runs, each with its own controls, and the difference lines; the host page\'s address is untouched', async () => {
    const { watched, p } = await openHost('attrs.html', compared);
    assert.equal(await inShadow(p, '#cmp-b-maxRetries', 'value'), '3');
    assert.equal(await inShadow(p, '#cmp-a-maxRetries', 'value'), '0');
    assert.equal(await inShadow(p, '[data-compare-summary]'), 'maxRetries 3 → 0');
    const d = await diffs(p);
    assert.deepEqual(d.charges, ['2', '1', '-1, side effect changes']);
    assert.deepEqual(d.outcome, ['success', 'unknown', 'outcome changes']);
    assert.deepEqual(d.elapsedMs, ['3,700 ms', '3,000 ms', '-700 ms']);
    assert.deepEqual(d.replays, ['0', '0', 'same']);
    // Both runs on one axis: the before lane has two attempts, the after lane one.
    assert.equal(await p.evaluate(() => document.getElementById('c').shadowRoot.querySelectorAll('.cmp-lane[data-side="before"] .cmp-bar').length), 2);
    assert.equal(await p.evaluate(() => document.getElementById('c').shadowRoot.querySelectorAll('.cmp-lane[data-side="after"] .cmp-bar').length), 1);
    // The single run steps aside; the comparison's link goes to the page beside the script.
    assert.equal(await inShadow(p, '.retry-lab:not(.rl-el-compare)', 'hidden'), true);
    assert.equal(await inShadow(p, '#cmp-link', 'value'), `${host.server.origin}/index.html#v=1&view=compare&after.maxRetries=0`);
    assert.equal(await inShadow(p, '[data-alone="after"]', 'href'), `${host.server.origin}/index.html#v=1&maxRetries=0`);
    // A side's own control recomputes the comparison; the host page's address stays as it was.
    await p.locator('#c').locator('#cmp-a-idempotencyKey').check();
    await p.waitForFunction(() => document.getElementById('c').shadowRoot.querySelector('[data-compare-summary]').textContent.includes('idempotencyKey'));
    assert.deepEqual((await diffs(p)).charges, ['2', '1', '-1, side effect changes']);
    assert.equal(await p.evaluate(() => window.location.hash), '');
    // Its code came on demand, from beside the element's script.
    assert.ok(watched.requests.some((url) => url === `${host.server.origin}/retry-lab-compare.js`), 'retry-lab-compare.js loaded');
    assert.deepEqual(watched.problems, []);
    assert.deepEqual(await watched.violations(), []);
  });

  test('from a compare link in `link`: the same comparison the page shows for that link', async () => {
    const { watched, p } = await openHost('link.html', compared);
    const d = await diffs(p);
    assert.deepEqual(d.charges, ['2', '1', '-1, side effect changes']);
    assert.deepEqual(d.replays, ['0', '1', '+1']);
    assert.deepEqual(d.elapsedMs, ['3,700 ms', '3,700 ms', 'same']);
    assert.equal(await notice(p), null);
    assert.deepEqual(watched.problems, []);
  });

  test('an attribute overrides the link\'s key for the same input', async () => {
    const { watched, p } = await openHost('override.html', compared);
    assert.equal(await inShadow(p, '#cmp-a-maxRetries', 'value'), '0');
    assert.equal(await notice(p), null);
    // One attempt with a key: one charge and nothing to replay; the outcome is unknown.
    const d = await diffs(p);
    assert.deepEqual(d.charges, ['2', '1', '-1, side effect changes']);
    assert.deepEqual(d.replays, ['0', '0', 'same']);
    assert.deepEqual(d.outcome, ['success', 'unknown', 'outcome changes']);
  });

  test('a bad attribute is named by its attribute name; a later bad value keeps the comparison on show', async () => {
    const { watched, p } = await openHost('bad.html', compared);
    const first = await notice(p);
    assert.match(first, /after-max-retries=lots: is not a number/);
    assert.match(first, /after-maxretries=1: is not an attribute of <retry-lab>; did you mean after-max-retries\?/);
    // What could be used is used: the after side's key, its retries the default.
    assert.equal(await inShadow(p, '#cmp-a-maxRetries', 'value'), '3');
    assert.equal(await inShadow(p, '#cmp-a-idempotencyKey', 'checked'), true);
    assert.deepEqual((await diffs(p)).replays, ['0', '1', '+1']);

    // Good attributes: the notice goes, the comparison follows them.
    await p.evaluate(() => {
      const el = document.getElementById('c');
      el.removeAttribute('after-maxretries');
      el.setAttribute('after-max-retries', '0');
    });
    await p.waitForFunction(() => document.getElementById('c').shadowRoot.querySelector('#cmp-a-maxRetries').value === '0');
    assert.equal(await notice(p), null);
    const good = await diffs(p);
    // A bad value later: named, and the comparison on show stays the last good one.
    await p.evaluate(() => document.getElementById('c').setAttribute('after-max-retries', '-1'));
    await p.waitForFunction(() => document.getElementById('c').shadowRoot.querySelector('.rl-notice'));
    const later = await notice(p);
    assert.match(later, /after-max-retries=-1: /);
    assert.match(later, /the comparison on show is the last one/);
    assert.equal(await inShadow(p, '#cmp-a-maxRetries', 'value'), '0');
    assert.deepEqual(await diffs(p), good);
    assert.deepEqual(watched.problems, []);

    // view removed: the element is one run again, with the attributes it holds.
    await p.evaluate(() => {
      const el = document.getElementById('c');
      for (const name of ['view', 'after-max-retries', 'after-idempotency-key']) el.removeAttribute(name);
      el.setAttribute('max-retries', '1');
    });
    await p.waitForFunction(() => !document.getElementById('c').classList.contains('rl-compare-ready'));
    await p.waitForFunction(() => document.getElementById('c').explorable.getState().result.inputs.maxRetries === 1);
    assert.equal(await inShadow(p, '.rl-el-compare'), null);
    assert.equal(await inShadow(p, '.retry-lab', 'hidden'), false);
  });

  // Both modes on one page, its colour scheme switched (the element's colours are its
  // stylesheet's alone): its runs computed once.
  test('axe-core finds nothing on the element in compare mode, light and dark', async () => {
    const p = await axePage('attrs.html', compared, 'light');
    for (const colorScheme of ['light', 'dark']) {
      await p.emulateMedia({ colorScheme });
      assert.deepEqual(await axeViolations(p), [], colorScheme);
    }
  });

  test('an element that shows one run does not load compare mode', async () => {
    const watched = await watchedPage(env);
    await watched.page.goto(`${host.server.origin}/single.html`);
    await watched.page.waitForFunction(() => document.getElementById('c').classList.contains('rl-ready'));
    assert.ok(!watched.requests.some((url) => url.includes('compare')), watched.requests.join('\n'));
  });
});

// <retry-lab view="compare" of="fleet">: two fleet runs in the element, as the page draws them.
// FLEET.md §9.5: the opening fleet run never recovers; without retries it recovers at 23,000 ms,
// with the token bucket at 29,000 ms; dropping what cannot finish (not only what has expired)
// at 20,000 ms.
const fleetCompared = (p) => p.waitForFunction(() => document.getElementById('c').shadowRoot.querySelector('.rl-compare-fleet')?.dataset.compared === 'true', null, { timeout: 60000 });
const fleetDiffs = (p) => differenceLines(p, { host: 'c', root: '.rl-compare-fleet' });

describe('<retry-lab view="compare" of="fleet">', () => {
  test('from attributes: both fleet runs, their differences, each side\'s controls, in a worker; the host page\'s address untouched', async () => {
    const { watched, p } = await openHost('fleet.html', fleetCompared);
    // The headline (docs/compare.md §6): recovered 3 s after the slowdown's end (23,000 − 20,000 ms).
    assert.equal(await inShadow(p, '.rl-compare-fleet [data-compare-summary]'), 'Retries per request 3 → 0: recovers 3 s after the slowdown instead of never; duplicate charges 14,874 → 0');
    const d = await fleetDiffs(p);
    assert.deepEqual([d['recovery.recoveredAtMs'].before, d['recovery.recoveredAtMs'].after, d['recovery.recoveredAtMs'].flag], ['never', '23,000 ms', 'outcome']);
    assert.deepEqual([d['totals.requests'].before, d['totals.attempts'].before], ['6,021', '20,895']);
    assert.equal(d['totals.attempts'].after, d['totals.requests'].after, 'no retries: one attempt per request');
    // The figures retrysim prints for the same comparison.
    const rows = retrysimMarkdown('#v=1&view=compare&of=fleet&after.policy.maxRetries=0').rows;
    for (const x of Object.values(d).filter((y) => y.changed)) assert.deepEqual([x.before, x.after, x.change], [rows[x.label].before, rows[x.label].after, rows[x.label].change], x.label);
    // Its links go beside the script, never to the host page.
    assert.equal(await inShadow(p, '.rl-compare-fleet .rl-share-link', 'value'), `${host.server.origin}/index.html#v=1&view=compare&of=fleet&after.policy.maxRetries=0`);
    assert.equal(await inShadow(p, '.rl-compare-fleet [data-alone="after"]', 'href'), `${host.server.origin}/index.html#v=1&view=fleet&policy.maxRetries=0`);
    // A side's own control: the after side computed again, the link follows, the host's address stays.
    await p.locator('#c').locator('[data-controls="after"] [data-path="policy.maxRetries"]').fill('1');
    await p.locator('#c').locator('[data-controls="after"] [data-path="policy.maxRetries"]').press('Tab');
    await p.waitForFunction(() => document.getElementById('c').shadowRoot.querySelector('.rl-compare-fleet [data-compare-summary]').textContent.startsWith('Retries per request 3 → 1: '), null, { timeout: 60000 });
    assert.ok((await inShadow(p, '.rl-compare-fleet .rl-share-link', 'value')).endsWith('#v=1&view=compare&of=fleet&after.policy.maxRetries=1'));
    assert.equal(await p.evaluate(() => window.location.hash), '');
    assert.ok(p.workers().some((w) => w.url() === `${host.server.origin}/retry-lab-compare.js`), p.workers().map((w) => w.url()).join(' '));
    assert.deepEqual(watched.problems, []);
    assert.deepEqual(await watched.violations(), []);
  });

  test('from a fleet comparison link in `link`: the bucket\'s 29,000 ms; a key the link cannot use is named', async () => {
    const { watched, p } = await openHost('fleet-link.html', fleetCompared);
    assert.equal((await fleetDiffs(p))['recovery.recoveredAtMs'].after, '29,000 ms');
    assert.match(await notice(p), /link's after\.policy\.nope=1: is not a field of the fleet request/);
    assert.deepEqual(watched.problems, []);
  });

  test('a bad attribute is named as written; a later bad value keeps the last good comparison', async () => {
    const { watched, p } = await openHost('fleet-bad.html', fleetCompared);
    const first = await notice(p);
    assert.match(first, /after-policy\.max-retries=lots: is not a number/);
    assert.match(first, /after-max-retries=0: is not an attribute of <retry-lab view="compare" of="fleet">; did you mean after-policy\.max-retries\?/);
    // What could be used is used: stale work dropped when expired against when it cannot finish.
    assert.deepEqual([(await fleetDiffs(p))['recovery.recoveredAtMs'].before, (await fleetDiffs(p))['recovery.recoveredAtMs'].after], ['never', '20,000 ms']);
    // Good attributes: the notice goes; then a bad one keeps the comparison on show.
    await p.evaluate(() => {
      const el = document.getElementById('c');
      el.removeAttribute('after-max-retries');
      el.setAttribute('after-policy.max-retries', '0');
    });
    await p.waitForFunction(() => !document.getElementById('c').shadowRoot.querySelector('.rl-notice') && document.getElementById('c').shadowRoot.querySelector('.rl-compare-fleet [data-compare-summary]').textContent.includes('Retries per request'), null, { timeout: 60000 });
    await fleetCompared(p);
    const good = await fleetDiffs(p);
    await p.evaluate(() => document.getElementById('c').setAttribute('after-policy.max-retries', 'many'));
    await p.waitForFunction(() => document.getElementById('c').shadowRoot.querySelector('.rl-notice'));
    assert.match(await notice(p), /after-policy\.max-retries=many: is not a number/);
    assert.match(await notice(p), /the comparison on show is the last one/);
    assert.deepEqual(await fleetDiffs(p), good);
    // of removed: a comparison of single runs again.
    await p.evaluate(() => {
      const el = document.getElementById('c');
      for (const name of [...el.getAttributeNames()]) if (name !== 'id' && name !== 'view') el.removeAttribute(name);
      el.setAttribute('after-max-retries', '0');
    });
    await compared(p);
    await p.waitForFunction(() => document.getElementById('c').shadowRoot.querySelector('[data-compare-summary]')?.textContent === 'maxRetries 3 → 0');
    assert.equal(await inShadow(p, '.rl-compare-fleet'), null);
    assert.deepEqual(watched.problems, []);
  });

  test('axe-core finds nothing on two fleet runs in the element, every group of controls open, light and dark', async () => {
    const p = await axePage('fleet.html', fleetCompared, 'light');
    for (const colorScheme of ['light', 'dark']) {
      await p.emulateMedia({ colorScheme });
      await p.evaluate(() => { for (const d of document.getElementById('c').shadowRoot.querySelectorAll('.rl-fc-group')) d.open = true; });
      assert.deepEqual(await axeViolations(p), [], colorScheme);
      await p.locator('#c').screenshot({ path: await artifactPath(`compare-element-fleet-${colorScheme}.png`) });
    }
  });
});
