// <retry-lab> against attributes a script can set but HTML cannot write: values with lone
// surrogates (issue 19 item 5: one at the end of a value paired with one at the start of the
// next, the engine could not read its inputs, and every attribute, a valid max-retries="0"
// among them, was dropped), and the same attribute name twice (in two namespaces), which
// follows the one rule for a name given more than once: none of its values is used, and the
// notice names it. The link's `v` follows it too (tests/browser/share.test.js has the others).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from './lib/harness.js';
import { serve, siteCopy, watchedPage } from './lib/sites.js';
import { linkCodec } from '../../web/share/codec.js';
import { loadEngineInNode } from './lib/engine.js';
import { problemText } from '../../web/share/notice.js';

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Element</title><link rel="icon" href="favicon.svg">
<script src="retry-lab-element.js" defer></script></head>
<body><main><h1>Element</h1><retry-lab id="lab"></retry-lab></main></body></html>`;

let env;
let site;
let server;
before(async () => {
  env = await openBrowser();
  site = siteCopy({ files: { 'element.html': PAGE } });
  server = await serve(site.dir);
});
after(async () => {
  await server?.close();
  site?.remove();
  await env?.close();
});

// Sets the attributes in order, in one task (one reload), and returns what the element runs
// and the notice it shows.
async function withAttributes(page, set) {
  await page.evaluate((set) => {
    const el = document.getElementById('lab');
    for (const [namespace, name, value] of set) {
      if (namespace) el.setAttributeNS(namespace, name, value);
      else el.setAttribute(name, value);
    }
  }, set);
  await page.waitForFunction(() => {
    const el = document.getElementById('lab');
    return el.explorable && el.shadowRoot && el.shadowRoot.textContent.includes('attribute');
  }, null, { timeout: 5000 }).catch(() => {});
  return page.evaluate(() => {
    const el = document.getElementById('lab');
    return { inputs: JSON.parse(JSON.stringify(el.explorable.getState().result.inputs)), notice: el.shadowRoot.textContent };
  });
}

describe('<retry-lab> attributes read exactly', () => {
  test('lone surrogates side by side in a list attribute: that attribute is named, max-retries="0" is kept', async () => {
    const watched = await watchedPage(env.browser);
    const { page } = watched;
    await page.goto(`${server.origin}/element.html`);
    await page.waitForFunction(() => document.getElementById('lab').explorable);
    // retry-on's two items are adjacent strings: one ends with a high half, the next starts with
    // a low one, which paired up when all strings were encoded together.
    const { inputs, notice } = await withAttributes(page, [[null, 'max-retries', '0'], [null, 'retry-on', 'timeout\uD800,\uDC005xx'],
      [null, 'operation-id', 'op\uD800']]);
    assert.equal(inputs.maxRetries, 0, 'the valid max-retries="0" is used');
    assert.deepEqual(inputs.retryOn, ['timeout', '5xx'], 'retry-on falls back to its default');
    assert.equal(inputs.operationId, 'op-0001', 'operation-id falls back to its default');
    assert.match(notice, /retry-on/);
    assert.match(notice, /operation-id/);
    assert.match(notice, /lone surrogate/);
    assert.doesNotMatch(notice, /could not read/);
    assert.deepEqual(watched.problems, []);
    await watched.close();
  });

  test('the same attribute twice (two namespaces): neither value is used, and the notice says so once', async () => {
    const watched = await watchedPage(env.browser);
    const { page } = watched;
    await page.goto(`${server.origin}/element.html`);
    await page.waitForFunction(() => document.getElementById('lab').explorable);
    const { inputs, notice } = await withAttributes(page, [[null, 'max-retries', '0'], ['urn:x-elsewhere', 'max-retries', '5'],
      [null, 'scenario', 'outage-503-twice'], [null, 'colour', 'red'], ['urn:x-elsewhere', 'colour', 'blue']]);
    assert.equal(inputs.maxRetries, 3, 'max-retries given twice: the default');
    assert.equal(inputs.scenario, 'outage-503-twice', 'the other attributes are used');
    assert.equal(notice.split('max-retries').length - 1, 1, `max-retries named once: ${notice}`);
    assert.match(notice, /more than once/);
    assert.equal(notice.split('colour').length - 1, 1, `an unknown attribute given twice is named once: ${notice}`);
    assert.deepEqual(watched.problems, []);
    await watched.close();
  });
});

describe('links: v follows the rule for a name given more than once', () => {
  test('v given twice, whatever its values: named, and nothing of the link is read', async () => {
    const { parseLink } = linkCodec((await loadEngineInNode()).schema());
    for (const hash of ['#v=1&v=2&maxRetries=0', '#v=2&v=1&maxRetries=0', '#v=1&v=1&maxRetries=0', '#maxRetries=0&v=1&v=1']) {
      const read = parseLink(hash);
      assert.deepEqual(read.inputs, {}, hash);
      assert.equal(read.problems.length, 1, hash);
      assert.match(problemText(read.problems[0]), /^v=1: is given more than once|^v=2: is given more than once/, hash);
    }
    // As for an input given twice: every value left out, the name reported.
    const input = parseLink('#v=1&maxRetries=0&maxRetries=1&deadlineMs=2000');
    assert.deepEqual(input.inputs, { deadlineMs: 2000 });
    assert.match(problemText(input.problems[0]), /more than once/);
    assert.deepEqual(parseLink('#v=1&maxRetries=0').inputs, { maxRetries: 0 });
  });
});
