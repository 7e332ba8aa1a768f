// The fleet section's downloads (web/fleet/export.js): the storm's timeline as CSV holds the
// bins of the run on show exactly as the worker computed them, the chart as an SVG file with
// its title, verdict and key, and the three reproductions' figures as CSV, each file named
// after its run. The file name's words are FLEET.md §3's opening run (100 clients at 1 a
// second, a ×4 slowdown from 10 to 20 s, 3 retries, no jitter, nothing dropped, FIFO, no gate).

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { browserSuite, pageTest } from './lib/harness.js';
import { parseCsv } from './lib/sites.js';

const env = browserSuite();

async function fleetSettled(page) {
  await page.evaluate(() => window.retryLabFleetSection.load());
  await page.waitForFunction(() => window.retryLabFleet && window.retryLabFleet.state(), null, { timeout: 20000 });
  await page.evaluate(() => window.retryLabFleet.ready.then(() => window.retryLabFleet.settled()));
}

// Click a download button; the file's name and text.
async function downloaded(page, selector) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.locator(selector).click()]);
  return { name: file.suggestedFilename(), text: readFileSync(await file.path(), 'utf8') };
}

const records = (text) => {
  const [head, ...rows] = parseCsv(text);
  return rows.map((row) => Object.fromEntries(row.map((v, i) => [head[i], v])));
};

describe('the fleet section’s downloads', () => {
  test('the timeline CSV is the bins of the run on show, the worker’s figures cell for cell, before and after a control', pageTest(env, { sections: false }, async ({ page }) => {
    await fleetSettled(page);
    for (const step of ['opening', 'unfinishable']) {
      if (step === 'unfinishable') {
        await page.selectOption('[data-path="server.dropStale"]', 'unfinishable');
        await page.evaluate(() => window.retryLabFleet.settled()); // the change's handler started its run
      }
      const result = await page.evaluate(() => JSON.parse(JSON.stringify(window.retryLabFleet.state().result)));
      const { name, text } = await downloaded(page, '#fl-csv');
      assert.equal(name, step === 'opening'
        ? 'retry-lab-fleet-100-clients-at-1-s-slowdown-x4-10-20-s-3-retries-jitter-none-drop-stale-never-fifo-no-gate-metastable-timeline.csv'
        : 'retry-lab-fleet-100-clients-at-1-s-slowdown-x4-10-20-s-3-retries-jitter-none-drop-stale-unfinishable-fifo-no-gate-recovered-timeline.csv');
      const rows = records(text);
      const { bins, binMs } = result.timeline;
      assert.equal(rows.length, bins.length);
      rows.forEach((row, i) => {
        for (const [k, v] of Object.entries(bins[i])) assert.equal(row[k], v === null ? '' : String(v), `${step} bin ${i} ${k}`);
        assert.equal(Number(row.startMs), i * binMs);
        assert.equal(Number(row.endMs), (i + 1) * binMs);
        assert.equal(Number(row.offered), bins[i].firstAttempts + bins[i].retries);
        // 10 workers, 50 ms each (FLEET.md §3): 200 attempts a second, 50 in the ×4 slowdown.
        assert.equal(Number(row.capacity), i >= 10 && i < 20 ? 50 : 200);
      });
    }
  }));

  test('the chart as an SVG file: its title, the verdict, the chart and a key to every series', pageTest(env, { sections: false }, async ({ page }) => {
    await fleetSettled(page);
    const { name, text } = await downloaded(page, '#fl-svg');
    assert.match(name, /^retry-lab-fleet-100-clients-at-1-s-.*-metastable-storm\.svg$/);
    const verdict = await page.locator('#fl-verdict').textContent();
    // Read back by the browser as an SVG document, on a blank page (the file's own <style> is
    // not the section page's to apply under its CSP).
    const blank = await (await env.newContext()).newPage();
    const read = await blank.evaluate((svg) => {
      const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
      const key = doc.querySelector('[data-part="key"]');
      return {
        error: doc.querySelector('parsererror') ? doc.querySelector('parsererror').textContent : null,
        title: doc.querySelector('svg > title').textContent,
        texts: [...doc.querySelectorAll('svg > text')].map((t) => t.textContent),
        key: key ? [...key.querySelectorAll('text')].map((t) => t.textContent) : [],
        lines: doc.querySelectorAll('[data-part="chart"] path.fl-line').length,
        shade: doc.querySelectorAll('[data-part="chart"] rect.fl-trigger').length,
      };
    }, text);
    assert.equal(read.error, null);
    assert.equal(read.title, `Retry Lab fleet: ${verdict}`);
    assert.equal(read.texts[1], 'Verdict: still down when new requests stopped.');
    assert.match(read.texts[0], /^Retry Lab · 100 clients at 1\/s, slowdown ×4 10–20 s, 3 retries/);
    assert.deepEqual(read.key, ['attempts offered /s', 'capacity /s', 'successes /s', 'timeouts /s', 'served in time', 'served, answered after the caller had gone', 'waiting (the queue, log scale)', 'the slowdown']);
    assert.equal(read.lines, 4);
    assert.equal(read.shade, 1);
  }));

  test('the reproductions’ figures as CSV: each point computed in the page beside the published one', pageTest(env, { sections: false }, async ({ page }) => {
    await fleetSettled(page);
    const aws = await page.evaluate(() => window.retryLabFleet.aws());
    const a = await downloaded(page, '#fl-aws-csv');
    assert.equal(a.name, 'retry-lab-fleet-aws-2015-occ-10-190-clients-5-strategies.csv');
    const rows = records(a.text);
    assert.equal(rows.length, 19 * 5);
    for (const row of rows) {
      const mean = aws.points[`${row.strategy}:${row.clients}`];
      assert.equal(Number(row.writes), mean.writes, `${row.strategy}:${row.clients}`);
      assert.equal(Number(row.makespanMs), mean.makespanMs);
    }
    // The peer's own means (spec/reference/aws-2015-peer-seed1.csv), e.g. no backoff at 100 clients.
    assert.deepEqual([rows.find((r) => r.strategy === 'none' && r.clients === '100').peerWrites, rows.find((r) => r.strategy === 'none' && r.clients === '100').peerMakespanMs], ['2421', '2027']);
    const bk = await page.evaluate(() => window.retryLabFleet.brooker());
    const b = records((await downloaded(page, '#fl-bk-csv')).text);
    const three = b.find((r) => r.series === 'three' && r.failureRate === '0.3');
    assert.equal(Number(three.load), bk.points['three:0.3'].load);
    assert.equal(Number(three.successRate), bk.points['three:0.3'].successRate);
    assert.deepEqual([three.peerSuccesses, three.peerCalls, three.peerUniqueCalls], ['10044', '14255', '10131']); // brooker-2022-policies.csv
    const col = await page.evaluate(() => window.retryLabFleet.collapse());
    const c = records((await downloaded(page, '#fl-col-csv')).text);
    assert.equal(c.length, 80);
    // Without backoff no request succeeds from the onset on (the section's own reading of the bins).
    assert.ok(col.onset !== null);
    assert.ok(c.slice(col.onset).every((r) => r.noneSucceeded === '0'));
    assert.ok(c.slice(0, 80).reduce((n, r) => n + Number(r.jitterSucceeded), 0) <= col.totals[1].succeeded);
  }));
});
