// Issue 39: a run holding an input the link format cannot carry (`servers`, whose overrides'
// scripts are lists inside a list; web/share/codec.js uncarried) has no link. The page never
// writes one that leaves the input out (it would open another run): the address keeps the last
// link that fit, as for a run too big for a link, and the share bar's box is empty with a line
// saying which input and what carries the whole run (the JSON download).

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pageTest, browserSuite } from './lib/harness.js';
import { STORY } from '../../web/story.js';

const env = browserSuite({ engine: true });

// The page's write of the address waits until the changes rest (share/link.js, 200 ms): a
// page-side timer past it, so that a write that was going to happen has happened.
const pastTheWrite = (page) => page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 400)));

describe('a run a link cannot carry', () => {
  test('a run holding servers keeps the last link, empties the link box and names servers; a run without them is written again', pageTest(env, { sections: false }, async ({ page }) => {
    await page.evaluate(() => window.retryLab.load({ maxRetries: 2 }));
    await page.waitForFunction(() => location.hash === '#v=1&maxRetries=2');
    // What a link that left servers out would have been.
    const dropped = '#v=1&maxRetries=1&idempotencyKey=true';
    await page.evaluate((inputs) => window.retryLab.load(inputs), { ...STORY.servers, maxRetries: 1 });
    await page.waitForFunction(() => Array.isArray(window.retryLab.getState().result.metrics.servers));
    await pastTheWrite(page);
    assert.equal(await page.evaluate(() => location.hash), '#v=1&maxRetries=2', 'the last link that fit, not one without servers');
    assert.notEqual(await page.evaluate(() => location.hash), dropped);
    assert.equal(await page.locator('#rl-link').inputValue(), '', 'no link in the box');
    assert.equal(await page.locator('#rl-share-status').textContent(), 'This run\'s servers cannot be written into a link yet; the JSON download carries the whole run.');
    await page.getByRole('button', { name: 'Copy link' }).click();
    assert.equal(await page.locator('#rl-link').inputValue(), '', 'Copy link copies nothing');
    assert.match(await page.locator('#rl-share-status').textContent(), /^This run's servers cannot be written into a link yet/);
    // A run without servers has its link again, in the address and the box.
    await page.evaluate(() => window.retryLab.load({ maxRetries: 4 }));
    await page.waitForFunction(() => location.hash === '#v=1&maxRetries=4');
    assert.ok((await page.locator('#rl-link').inputValue()).endsWith('#v=1&maxRetries=4'));
    assert.equal(await page.locator('#rl-share-status').textContent(), '');
  }));
});
