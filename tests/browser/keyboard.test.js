// Every control is reachable with Tab and operable with the keyboard alone, with a visible
// focus ring; nothing here clicks.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, pageTest } from './lib/harness.js';
import { ID, metricsOf, slider, futureCount } from './lib/ui.js';

const env = browserSuite();

const focused = (page) => page.evaluate(() => {
  const el = document.activeElement;
  const style = getComputedStyle(el);
  return {
    // Controls without an id are told apart by their place in the document.
    key: el.id || (el.dataset.try ? `try:${el.dataset.try}`
      : el === document.body ? 'body' : `${el.tagName.toLowerCase()}#${[...document.querySelectorAll('*')].indexOf(el)}`),
    ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
  };
});

// Press Tab until `key` has focus (wrapping round the page if need be: a lap of the page is
// longer since the fleet section at its end, with its controls and gates, and longer again with
// issue 39's step and Many servers box).
// focused's key where it is an id or a step (every key tabTo is asked for), else null: without
// its focus ring's style or its place among all the page's elements, a walk of the whole
// document at each of the hundreds of stops a Tab round the page makes.
const focusedKey = (page) => page.evaluate(() => {
  const el = document.activeElement;
  return el.id || (el.dataset && el.dataset.try ? `try:${el.dataset.try}` : null);
});

// Tab to `key`, or Shift+Tab when it comes before the focus: the page has no positive tabindex,
// so its tab order is the document's, and the keyboard's shorter way there is taken instead of
// the way round the whole page and its sections (issue 31: hundreds of stops, each a keypress,
// a focus and a look, for a control a few stops back).
async function tabTo(page, key, limit = 400) {
  const back = await page.evaluate((k) => {
    const target = k.startsWith('try:') ? document.querySelector(`button[data-try="${k.slice(4)}"]`) : document.getElementById(k);
    const from = document.activeElement;
    return Boolean(target && from && from !== document.body && (target.compareDocumentPosition(from) & Node.DOCUMENT_POSITION_FOLLOWING));
  }, key);
  for (let i = 0; i < limit; i += 1) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    if ((await focusedKey(page)) === key) return;
  }
  throw new Error(`Tab never reached ${key}`);
}

async function typeInto(page, key, text) {
  await tabTo(page, key);
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
}

describe('keyboard', () => {
  test('Tab reaches every control once, each with a visible focus ring', pageTest(env, {}, async ({ page }) => {
    const order = [];
    let wrapped = false;
    for (let i = 0; i < 400 && !wrapped; i += 1) {
      await page.keyboard.press('Tab');
      const f = await focused(page);
      wrapped = f.key === 'body';
      if (!wrapped) order.push(f);
    }
    assert.ok(wrapped, `Tab went round the whole page (${order.length} stops) back to the start`);
    const keys = order.map((f) => f.key);
    // The results come first (the figure and its playback), then the inputs, the key switch first.
    const expected = [
      'rl-play', 'rl-next', 'rl-restart', 'rl-speed', 'rl-seek', 'rl-table',
      'rl-idempotencyKey', 'rl-scenario-response-lost', 'rl-maxRetries-range', 'rl-maxRetries', 'rl-baseBackoffMs-range', 'rl-baseBackoffMs',
      'rl-clientTimeoutMs-range', 'rl-clientTimeoutMs', 'rl-deadlineMs-range', 'rl-deadlineMs',
      'rl-retryOn-timeouts-5xx',
      // Share and export (web/share/bar.js)
      'rl-link', 'rl-copy', 'rl-download-json', 'rl-download-csv', 'rl-download-svg',
    ];
    assert.deepEqual(keys.filter((k) => k.startsWith('rl-')), expected, 'the explorable\'s tab stops, in order');
    assert.ok(keys.includes('try:opening') && keys.includes('try:bad-request-every'), 'the article\'s Try it buttons are tab stops');
    assert.equal(new Set(keys).size, keys.length, 'no control is visited twice');
    for (const f of order) assert.ok(f.ring, `${f.key} shows a focus ring`);
  }));

  test('every input is operable from the keyboard, and each change recomputes', pageTest(env, {}, async ({ page }) => {

    await tabTo(page, 'rl-maxRetries-range');
    await page.keyboard.press('Home');
    assert.equal(await page.locator(ID('maxRetries')).inputValue(), '0', 'the range drives its number box');
    assert.deepEqual([(await metricsOf(page)).attempts, (await metricsOf(page)).outcome], ['1', 'unknown']);

    await typeInto(page, 'rl-maxRetries', '3');
    assert.equal(await page.locator(ID('maxRetries-range')).inputValue(), '3', 'the number box drives its range');
    assert.equal((await metricsOf(page)).attempts, '2');

    await tabTo(page, 'rl-baseBackoffMs-range');
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.locator(ID('baseBackoffMs')).inputValue(), '600');
    assert.equal((await metricsOf(page)).elapsed, '3,800 ms'); // 0–3,000, wait 600, 3,600–3,800

    await typeInto(page, 'rl-clientTimeoutMs', '500');
    assert.equal((await metricsOf(page)).elapsed, '1,300 ms'); // 0–500, wait 600, 1,100–1,300

    await tabTo(page, 'rl-deadlineMs-range');
    await page.keyboard.press('Home');
    assert.equal((await metricsOf(page)).attempts, '0', 'a zero deadline sends nothing');
    await typeInto(page, 'rl-deadlineMs', '10000');
    assert.equal((await metricsOf(page)).attempts, '2');

    await tabTo(page, 'rl-idempotencyKey');
    await page.keyboard.press('Space');
    assert.deepEqual([(await metricsOf(page)).charges, (await metricsOf(page)).replays], ['1', '1']);

    await tabTo(page, 'rl-retryOn-timeouts-5xx');
    await page.keyboard.press('ArrowDown');
    assert.ok(await page.locator(ID('retryOn-every-failure')).isChecked());

    await tabTo(page, 'rl-scenario-response-lost');
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowDown');
    assert.ok(await page.locator(ID('scenario-bad-request-400')).isChecked());
    // 400 retried: 0–200, wait 600, 800–1,000, wait 1,200, 2,200–2,400, wait 2,400, 4,800–5,000.
    assert.deepEqual([(await metricsOf(page)).attempts, (await metricsOf(page)).elapsed], ['4', '5,000 ms']);
  }));

  test('playback is operable from the keyboard: buttons, speed and the slider', pageTest(env, {}, async ({ page }) => {
    await tabTo(page, 'rl-play');
    await page.keyboard.press('Enter');
    assert.equal(await page.locator(ID('play')).textContent(), 'Pause');
    await page.keyboard.press('Space');
    assert.equal(await page.locator(ID('play')).textContent(), 'Play');

    await tabTo(page, 'rl-restart');
    await page.keyboard.press('Enter');
    assert.equal((await slider(page)).now, 0);
    await page.keyboard.press('Shift+Tab');
    assert.equal((await focused(page)).key, 'rl-next');
    await page.keyboard.press('Enter');
    assert.equal(await futureCount(page), 8);

    await tabTo(page, 'rl-speed');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.locator(ID('speed')).inputValue(), '2');

    await tabTo(page, 'rl-seek');
    await page.keyboard.press('End');
    assert.equal((await slider(page)).now, 60);
  }));

  test('a "Try it" button shows its step in the figure beside the article and keeps focus', pageTest(env, {}, async ({ page }) => {
    const figure = (step) => page.waitForFunction((s) => document.querySelector('[data-story-figure]').dataset.showing === s && window.retryLabStory.figures()[0].state.result.metrics, step).then((h) => h.jsonValue());
    await tabTo(page, 'try:key');
    await page.keyboard.press('Enter');
    let m = await figure('key');
    assert.equal((await focused(page)).key, 'try:key', 'focus stays where the reader is');
    assert.deepEqual([m.charges, m.replays], [1, 1]);
    await tabTo(page, 'try:opening');
    await page.keyboard.press('Enter');
    m = await figure('opening');
    assert.deepEqual([m.charges, m.replays], [2, 0]);
    assert.equal((await focused(page)).key, 'try:opening');
    assert.deepEqual([(await metricsOf(page)).charges, (await metricsOf(page)).replays], ['2', '0'], 'the experiment keeps its own run');
  }));
});
