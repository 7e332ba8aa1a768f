// Exports, downloaded the way a reader downloads them (the buttons, Blob URLs, under the
// strict CSP): the JSON is compute()'s result, the CSV parses back to the table on the page,
// and the SVG is well-formed, self-contained, and painted as the live timeline is.

import { eventText } from '../../web/views/events.js';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { assertClean, browserSuite, openPage, reopenPage } from './lib/harness.js';
import { parseCsv } from './lib/sites.js';
import { ID, drawViews } from './lib/ui.js';
import { linkCodec } from '../../web/share/codec.js';
import { CSV_HEADINGS, answersCsv, csvCell } from '../../web/export/csv.js';
import { timelineSvg } from '../../web/export/svg.js';

const env = browserSuite({ engine: true });

const plain = (x) => JSON.parse(JSON.stringify(x));

// Runs that exercise the exports: retries and waits, a Retry-After, a herd, a write whose
// id needs quoting in CSV, nothing sent at all.
const RUNS = {
  opening: {},
  traceA: {
    scenario: 'script', script: [{ status: 429, retryAfter: '2' }, { status: 503 }, { status: 503 }, { status: 200 }],
    operation: 'read', maxRetries: 4, maxBackoffMs: 8000, jitter: 'full', draws: [0.4, 0.75], deadlineMs: null,
    waitBudgetMs: 20000, retryOn: ['timeout', '429', '5xx'], retryWritesWithoutKey: false,
  },
  herd: { scenario: 'script', script: [{ status: 429 }], operation: 'read', jitter: 'full', retryOn: ['timeout', '429', '5xx'], callers: 50 },
  quoting: { operation: 'create', operationId: 'a,"b"\r\nc=1;<img src=x>', idempotencyKey: true, scenario: 'outage-503-twice' },
  nothingSent: { deadlineMs: 100 },
};

// The file a button downloads, saved under its own name (it outlives the page's context).
async function downloadOf(page, label) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: label }).click()]);
  const path = join(mkdtempSync(join(tmpdir(), 'retrylab-export-')), download.suggestedFilename());
  await download.saveAs(path);
  return { name: download.suggestedFilename(), path, text: await readFile(path, 'utf8') };
}

// The top experiment alone (no test here looks below the article): the sections are not loaded.
// A run's link opened with openPage's steps: in a new page (openPage's), or in `into`, a page of
// this test's that is done with (issue 31: a new context is a renderer process of its own, about
// half a CPU·s), taken through about:blank to the link as the harness's reused page is between
// tests: a fresh document and engine in the colour scheme asked for, its recorder (console, CSP,
// other hosts) kept, so assertClean on it also covers the runs it showed before.
async function openRun(inputs, options = {}, into = null) {
  const path = `/#${linkCodec(env.engine.schema()).encodeLink(env.engine.compute(inputs).inputs)}`;
  if (!into) return openPage(env, { sections: false, ...options, path });
  return reopenPage(env, into, { path, colorScheme: options.colorScheme || 'light', sections: false });
}

describe('exports', () => {
  test('Run as JSON is exactly compute()\'s result, in the page and in node', async (t) => {
    let opened = null;
    for (const [name, inputs] of Object.entries(RUNS)) {
      opened = await openRun(inputs, {}, opened);
      const { page } = opened;
      const file = await downloadOf(page, 'Run as JSON');
      assert.match(file.name, /^retry-lab-[a-z0-9-]+-run\.json$/, 'the name says the run');
      const exported = JSON.parse(file.text);
      const inPage = await page.evaluate(() => JSON.parse(JSON.stringify(window.retryLab.compute(window.retryLab.getState().result.inputs))));
      assert.deepEqual(exported, inPage, name);
      assert.deepEqual(exported, plain(env.engine.compute(inputs)), `${name}: the same as node's engine`);
      assert.deepEqual(plain(env.engine.compute(exported.inputs)), exported, `${name}: its inputs reproduce it`);
      if (name === 'herd') assert.equal(exported.herd.callers, 50);
      await assertClean(t, assert, opened);
    }
  });

  test('Table as CSV parses back (strict RFC 4180) to the table on the page', async (t) => {
    let opened = null;
    for (const [name, inputs] of Object.entries(RUNS)) {
      opened = await openRun(inputs, {}, opened);
      const { page } = opened;
      const file = await downloadOf(page, 'Table as CSV');
      assert.match(file.name, /^retry-lab-[a-z0-9-]+-attempts\.csv$/, 'the name says the run');
      const [head, ...rows] = parseCsv(file.text);
      assert.deepEqual(head, CSV_HEADINGS);
      // The table as the page shows it: cells' text, and the wait's two parts.
      await drawViews(page);
      const table = await page.locator(`${ID('table')} tbody tr`).evaluateAll((trs) => trs.map((tr) => ({
        cells: [...tr.cells].map((c) => c.textContent),
        waitMs: tr.querySelector('.wait-ms')?.textContent ?? null,
        waitRule: tr.querySelector('.wait-rule')?.textContent ?? null,
      })));
      const result = env.engine.compute(inputs);
      if (result.attempts.length === 0) {
        assert.deepEqual(rows, [], `${name}: no attempt, no row`);
        assert.equal(table.length, 1, 'the page says no attempt was sent');
      } else {
        assert.equal(rows.length, table.length, name);
      }
      const shownMs = (text) => `${new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(Number(text))} ms`;
      rows.forEach((row, i) => {
        const [n, start, end, server, effect, saw, waitMs, waitRule] = row;
        const { cells } = table[i];
        assert.deepEqual([n, shownMs(start), shownMs(end), server, effect, saw], cells.slice(0, 6), `${name} row ${i + 1}`);
        assert.equal(Number(start), result.attempts[i].startMs, 'exact milliseconds');
        if (waitMs === '') assert.equal(cells[6], 'none');
        else assert.equal(table[i].waitMs, shownMs(waitMs));
        // The CSV keeps the engine's exact rule; the page writes its times in the page's style.
        assert.equal(table[i].waitRule, waitRule === '' ? null : ` (${eventText(waitRule)})`);
        for (const cell of row) assert.doesNotMatch(cell, /^[=+\-@\t\r]/, 'no cell a spreadsheet would run as a formula');
      });
      if (name === 'quoting') assert.ok(rows.some((r) => r[4].includes('a,"b"\r\nc=1;<img src=x>')), 'the id with a comma, quotes and CRLF came back whole');
      await assertClean(t, assert, opened);
    }
  });

  test('CSV cells: quoted exactly when they must be', () => {
    assert.equal(csvCell('plain text'), 'plain text');
    assert.equal(csvCell('a,b'), '"a,b"');
    assert.equal(csvCell('say "hi"'), '"say ""hi"""');
    assert.equal(csvCell('two\nlines'), '"two\nlines"');
    assert.equal(csvCell('cr\r'), '"cr\r"');
    const text = answersCsv(env.engine.compute(RUNS.quoting));
    assert.ok(text.endsWith('\r\n'));
    assert.deepEqual(parseCsv(text)[0], CSV_HEADINGS);
  });

  test('Timeline as SVG: well-formed, self-contained, painted as the live timeline, and opens on its own', async (t) => {
    let opened = null;
    let alone = null;
    for (const [name, inputs] of Object.entries(RUNS)) {
      opened = await openRun(inputs, {}, opened);
      const { page } = opened;
      const file = await downloadOf(page, 'Timeline as SVG');
      assert.match(file.name, /^retry-lab-[a-z0-9-]+-timeline\.svg$/, 'the name says the run');
      assert.doesNotMatch(file.text, /var\(|class=|href|url\(|<style|<script|\son\w+=/i, `${name}: nothing that depends on the page`);
      const check = await page.evaluate((svgText) => {
        const parsed = new DOMParser().parseFromString(svgText, 'image/svg+xml');
        if (parsed.getElementsByTagName('parsererror').length) return { error: parsed.documentElement.textContent };
        const root = parsed.documentElement;
        // The file's paint, computed with no stylesheet at all (an empty shadow root).
        const host = document.createElement('div');
        document.body.append(host);
        const shadow = host.attachShadow({ mode: 'open' });
        const exported = document.importNode(root, true);
        shadow.append(exported);
        const live = document.querySelector('#rl-timeline svg');
        const liveEls = [live, ...live.querySelectorAll('*')].filter((el) => !el.closest('[data-playhead]'));
        const fileEls = [exported, ...[...exported.querySelector('[data-part="timeline"]').children].flatMap((el) => [el, ...el.querySelectorAll('*')])];
        const props = ['fill', 'stroke', 'stroke-width', 'stroke-dasharray', 'font-weight', 'font-size', 'font-family', 'opacity', 'visibility', 'text-anchor'];
        const paint = (el) => `${el.tagName} ${props.map((p) => getComputedStyle(el).getPropertyValue(p)).join(' | ')} ${el.textContent.length < 80 && el.tagName === 'text' ? el.textContent : ''}`;
        const out = {
          ns: root.namespaceURI,
          tag: root.tagName,
          width: root.getAttribute('width'),
          liveWidth: live.getAttribute('width'),
          title: root.firstElementChild.tagName,
          background: root.children[1].getAttribute('fill'),
          live: liveEls.map(paint),
          file: fileEls.map(paint),
        };
        host.remove();
        return out;
      }, file.text);
      assert.equal(check.error, undefined, `${name}: ${check.error}`);
      assert.equal(check.ns, 'http://www.w3.org/2000/svg');
      assert.equal(check.tag, 'svg');
      assert.equal(check.width, check.liveWidth, 'as wide as drawn');
      assert.equal(check.title, 'title');
      assert.equal(check.background, '#ffffff');
      assert.deepEqual(check.file, check.live, `${name}: every element painted as on the page`);
      await assertClean(t, assert, opened);

      // The file on its own, as a browser opens it (one page of its own for the five files, each
      // a fresh document).
      alone ??= await (await env.newContext()).newPage();
      await alone.goto(pathToFileURL(file.path).href);
      const shown = await alone.evaluate(() => ({
        tag: document.documentElement.tagName,
        errors: document.getElementsByTagName('parsererror').length,
        box: document.documentElement.getBBox().width,
        texts: document.querySelectorAll('text').length,
      }));
      assert.equal(shown.tag, 'svg');
      assert.equal(shown.errors, 0);
      assert.ok(shown.box > 100 && shown.texts > 3, JSON.stringify(shown));
    }
  });

  test('each file is named for its run, and the SVG carries a title, the verdict and a key to its marks', async (t) => {
    const opening = await openRun(RUNS.opening);
    const svg = await downloadOf(opening.page, 'Timeline as SVG');
    assert.equal(svg.name, 'retry-lab-response-lost-3-retries-no-key-deadline-10000-ms-2-charges-timeline.svg');
    assert.match(svg.text, /<title>Retry Lab: Reports success, charged twice\. Timeline of 2 attempts/);
    assert.match(svg.text, />Retry Lab · response-lost, 3 retries, no key, deadline 10000 ms: 2 charges</);
    assert.match(svg.text, />Reports success, charged twice\.</);
    for (const key of ['charge', 'replay', 'error answer', 'lost', 'attempt answered', 'attempt timed out', 'wait', 'deadline']) assert.ok(svg.text.includes(`>${key}</text>`), key);
    await assertClean(t, assert, opening);
    const keyed = await openRun({ idempotencyKey: true }, {}, opening);
    assert.equal((await downloadOf(keyed.page, 'Run as JSON')).name, 'retry-lab-response-lost-3-retries-key-deadline-10000-ms-1-charge-run.json');
    await assertClean(t, assert, keyed);
  });

  test('the SVG is the same file in dark mode: a blog gets the light colours either way', async (t) => {
    const files = [];
    let opened = null;
    for (const colorScheme of ['light', 'dark']) {
      opened = await openRun(RUNS.traceA, { colorScheme }, opened);
      files.push((await downloadOf(opened.page, 'Timeline as SVG')).text);
      await assertClean(t, assert, opened);
    }
    assert.equal(files[1], files[0]);
    assert.equal(files[0], timelineSvg(env.engine.compute(RUNS.traceA), { width: Number(/width="(\d+)"/.exec(files[0])[1]) }), 'the pure function in node gives the same file');
  });

  test('the downloads\' code arrives with the first download, once; if it cannot, the bar says so and a second try works', async (t) => {
    const opened = await openPage(env);
    const { page, context } = opened;
    const exportLoads = () => page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/retrylab-export.js')).length);
    assert.equal(await exportLoads(), 0, 'not before a reader asks for a file');
    // The first try fails to load the code: nothing downloads, and the status says why.
    await context.route('**/retrylab-export.js', (route) => route.abort());
    await page.getByRole('button', { name: 'Run as JSON' }).click();
    await page.waitForFunction(() => /could not start/.test(document.querySelector('#rl-share-status').textContent));
    assert.match(await page.locator('#rl-share-status').textContent(), /^The download could not start: .*retrylab-export\.js did not load\. Try again, or copy the link\.$/);
    // The second try loads it, and the third uses what is there.
    await context.unroute('**/retrylab-export.js');
    assert.equal((await downloadOf(page, 'Run as JSON')).name, 'retry-lab-response-lost-3-retries-no-key-deadline-10000-ms-2-charges-run.json');
    const loads = await exportLoads(); // the failed request and this one
    assert.equal((await downloadOf(page, 'Table as CSV')).name, 'retry-lab-response-lost-3-retries-no-key-deadline-10000-ms-2-charges-attempts.csv');
    assert.equal(await exportLoads(), loads, 'loaded once it has arrived');
    assert.equal(await page.locator('#rl-share-status').textContent(), 'Downloading retry-lab-response-lost-3-retries-no-key-deadline-10000-ms-2-charges-attempts.csv.');
    // The failed try left a console error for the aborted script; nothing else.
    opened.problems.splice(0, opened.problems.length, ...opened.problems.filter((p) => !/retrylab-export\.js|ERR_FAILED/.test(p)));
    await assertClean(t, assert, opened);
  });
});
