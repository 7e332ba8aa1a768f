// The strict CSP (default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self')
// on the page, the embed and a host page of <retry-lab>, with everything a reader can do
// done: no violation is reported (securitypolicyviolation events and a ReportingObserver,
// which also sees violations inside shadow roots) and no console error or CSP warning. A
// deliberate violation first proves the watch would see one.

import { describe } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, hostSite, test } from './lib/harness.js';
import { STRICT_CSP } from './lib/server.js';
import { waitReady, watchedPage } from './lib/sites.js';

const env = browserSuite();
const host = hostSite(env, {
  'host.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title><link rel="icon" href="favicon.svg">
<script src="retry-lab-element.js" defer></script></head><body><main><h1>Host</h1>
<retry-lab id="a" max-retries="0"></retry-lab><retry-lab id="b" scenario="outage-503-twice" oops="1"></retry-lab></main></body></html>`,
});

// Every CSP report the document gets, from anywhere in it (shadow roots included).
function observeReports() {
  window.__reports = [];
  const observer = new ReportingObserver((reports) => {
    for (const r of reports) window.__reports.push(`${r.body.effectiveDirective}: ${r.body.blockedURL} ${r.body.sample || ''}`);
  }, { types: ['csp-violation'], buffered: true });
  observer.observe();
}

async function open(path) {
  const watched = await watchedPage(env);
  await watched.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: host.server.origin });
  await watched.page.addInitScript(observeReports);
  const response = await watched.page.goto(`${host.server.origin}${path}`);
  assert.equal(response.headers()['content-security-policy'], STRICT_CSP);
  return watched;
}

async function reports(watched) {
  await watched.page.waitForTimeout(300); // reports are delivered in a later task
  return { events: await watched.violations(), reports: await watched.page.evaluate(() => window.__reports) };
}

// What a reader does in one explorable, `scope` being the page or an element's locator.
async function useEverything(p, scope) {
  await scope.getByRole('radio', { name: 'HTTP 503 twice, then succeeds', exact: true }).check();
  await scope.getByRole('checkbox', { name: 'Send an idempotency key the server honours' }).check();
  await scope.locator('input[type="number"]').first().fill('5');
  await scope.locator('input[type="range"]').nth(1).evaluate((range) => {
    range.value = '1200';
    range.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await scope.getByRole('button', { name: 'Play' }).click();
  await p.waitForTimeout(300);
  await scope.getByRole('button', { name: 'Pause' }).click();
  await scope.getByRole('button', { name: 'Next event' }).click();
  await scope.getByRole('slider', { name: 'Inspection time' }).press('End');
  await scope.getByRole('button', { name: 'Copy link' }).click();
  for (const label of ['Run as JSON', 'Table as CSV', 'Timeline as SVG']) {
    await Promise.all([p.waitForEvent('download'), scope.getByRole('button', { name: label }).click()]);
  }
  const dismiss = scope.getByRole('button', { name: 'Dismiss' });
  if (await dismiss.count()) await dismiss.click();
}

// Its tests run two at a time, each on a page of its own (issue 31): they wait for playback
// and for the reports, which come in a later task.
describe('the strict CSP', { concurrency: 2 }, () => {
  test('the watch sees a violation when there is one, in the page and in a shadow root', async () => {
    const watched = await open('/host.html');
    await watched.page.waitForFunction(() => document.querySelectorAll('retry-lab.rl-ready').length === 2);
    await watched.page.evaluate(() => {
      document.body.setAttribute('style', 'color: red'); // an inline style attribute: refused
      const inside = document.getElementById('a').shadowRoot.querySelector('.rl-root');
      const style = document.createElement('style');
      style.textContent = '.rl-root { color: red }';
      inside.append(style); // a <style> element in a shadow root: refused
    });
    const seen = await reports(watched);
    assert.equal(seen.reports.filter((r) => r.startsWith('style-src')).length, 2, JSON.stringify(seen));
    assert.ok(seen.events.length >= 1, JSON.stringify(seen));
  });

  test('index.html: a link with a notice, every control, playback, Copy link, every download, a hash edited by hand', async () => {
    const watched = await open('/#v=1&maxRetries=2&nope=%3Cimg%20src%3Dx%3E');
    const p = watched.page;
    await waitReady(p);
    await useEverything(p, p.locator('[data-retry-lab]'));
    await p.evaluate(() => { location.hash = '#v=1&scenario=script&script=429~ra:2,503,200&retryOn=timeout,429,5xx'; });
    await p.waitForFunction(() => window.retryLab.getState().result.inputs.scenario === 'script');
    assert.deepEqual(await reports(watched), { events: [], reports: [] });
    assert.deepEqual(watched.problems, []);
  });

  test('embed.html: the same, in the page the iframe shows', async () => {
    const watched = await open('/embed.html#v=1&jitter=full&draws=0.3&bad=1');
    const p = watched.page;
    await waitReady(p);
    await useEverything(p, p.locator('[data-retry-lab]'));
    assert.deepEqual(await reports(watched), { events: [], reports: [] });
    assert.deepEqual(watched.problems, []);
  });

  test('a host page with two <retry-lab> elements: styles from adoptedStyleSheets, nothing refused', async () => {
    const watched = await open('/host.html');
    const p = watched.page;
    await p.waitForFunction(() => document.querySelectorAll('retry-lab.rl-ready').length === 2);
    assert.equal(await p.evaluate(() => document.getElementById('a').shadowRoot.adoptedStyleSheets.length), 1);
    assert.equal(await p.evaluate(() => document.getElementById('a').shadowRoot.querySelectorAll('style, [style*=":"]:not([id$="seek-fill"]):not([id$="seek-thumb"]):not(.rl-shell)').length), 0,
      'no <style> element; style only set through the CSSOM');
    await useEverything(p, p.locator('#b'));
    await useEverything(p, p.locator('#a'));
    assert.deepEqual(await reports(watched), { events: [], reports: [] });
    assert.deepEqual(watched.problems, []);
  });
});
