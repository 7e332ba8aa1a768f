// Hostile input at every field of the page: letters, negative, huge and overflowing numbers,
// an empty box and pasted text. Each refused value is named at its field (aria-invalid and the
// field's own message), the section keeps its last good run, nothing is thrown, and putting
// the old value back brings the run back. The few values a field accepts by design (an empty
// deadline is no deadline, a Retry-After header is any text) are checked to be accepted.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, pageTest } from './lib/harness.js';
import { metricsOf } from './lib/ui.js';

const env = browserSuite();

const DEADLINE_MESSAGE = 'Enter a number of milliseconds, or clear the box for no deadline.';
const PASTED = 'Retry budget: 3000 ms\nper attempt, then\t"give up" — see the runbook § 4.2 ';
const PASTED_LONG = `${PASTED.repeat(20)}`; // about 1,500 characters: longer than any text field allows

// How to put a value into a box the way a reader would: typed keys, or text pasted in one go.
// (A number box refuses to take typed letters at all, so letters arrive by pasting.)
// The new text replaces the old in one go, as typing or pasting over a selection does (clearing
// the box first would be a step of its own: an empty deadline is a run without one).
// The box's text is selected as playwright's selectText and fill select it (focus and select()
// once the box is visible; for fill also enabled and editable, and a number box given a
// number), in one visit to the page: a locator action costs about ten times a page.evaluate's
// CPU (issue 31), and these tests make hundreds. fill then inserts the text, or presses Delete
// for an empty one, as playwright's fill does.
async function enter(page, id, how, text) {
  await page.evaluate(([id, fill, text]) => new Promise((resolve, reject) => {
    const until = performance.now() + 5000;
    (function select() {
      const el = document.getElementById(id);
      const box = el && el.getBoundingClientRect();
      const ready = el && el.checkVisibility({ visibilityProperty: true }) && box.width > 0 && box.height > 0
        && (!fill || (!el.disabled && !el.readOnly));
      if (!ready) {
        if (performance.now() > until) reject(new Error(`#${id} is not ${fill ? 'visible, enabled and editable' : 'visible'}`));
        else requestAnimationFrame(select);
        return;
      }
      if (fill && el.type === 'number' && (text.trim() !== text || Number.isNaN(Number(text)))) {
        reject(new Error(`Cannot type text into input[type=number] (#${id})`));
        return;
      }
      if (el.tagName === 'TEXTAREA') {
        el.selectionStart = 0;
        el.selectionEnd = el.value.length;
      } else el.select();
      el.focus();
      resolve();
    }());
  }), [id, how === 'fill', text]);
  if (how === 'type') await page.keyboard.type(text);
  else if (how === 'fill' && text === '') await page.keyboard.press('Delete');
  else await page.keyboard.insertText(text);
}

// The field's state: aria-invalid and the text of the message element it is described by.
async function fieldState(page, id) {
  return page.locator(`#${id}`).evaluate((el) => {
    const errorId = (el.getAttribute('aria-describedby') || '').split(/\s+/).find((x) => x.endsWith('-error'));
    const message = errorId ? document.getElementById(errorId) : null;
    return { invalid: el.getAttribute('aria-invalid'), message: message ? message.textContent.trim() : null };
  });
}

// Each section's last good run, as a value to compare: the page's own state objects. A section's
// `match` says which fields are its own; its snapshot is read in the page (readField).
const SECTIONS = {
  experiment: { match: (id) => id.startsWith('rl-') },
  herd: { match: (id) => id === 'tr-callers' || id === 'tr-seed' },
  editor: { match: (id) => id.startsWith('tr-ed-') },
  sweep: { match: (id) => id.startsWith('sw-') },
};
const sectionOf = (id) => Object.entries(SECTIONS).find(([, s]) => s.match(id));

// One visit to the page (issue 31: these tests read hundreds of states; four round trips a value
// were most of their CPU): once the field `id` shows its message (`present` true) or has none
// (false), checked at once and then at each frame as waitForFunction does, or at once (null), or
// after 5 s without it (a wait that times out leaves the state to the assertions): the field's
// state (fieldState), its section's last good run (the page's own state object, as JSON), and for
// the experiment its six figures on screen as metricsOf reads them (drawn first, each figure's
// one element, waited for).
function readField(page, id, section, present = null) {
  return page.evaluate(([id, section, present]) => new Promise((resolve) => {
    const snapshots = {
      experiment: () => window.retryLab.getState().result,
      herd: () => window.retryLabTraces.getState().herd,
      editor: () => window.retryLabTraces.getState().custom,
      sweep: () => window.retryLabClients.sweep.getSweep(),
    };
    const keys = ['attempts', 'charges', 'replays', 'elapsed', 'outcome', 'lookup'];
    const until = performance.now() + 5000;
    const read = () => {
      const el = document.getElementById(id);
      const errorId = (el.getAttribute('aria-describedby') || '').split(/\s+/).find((x) => x.endsWith('-error'));
      const message = errorId ? document.getElementById(errorId) : null;
      const state = { invalid: el.getAttribute('aria-invalid'), message: message ? message.textContent.trim() : null };
      const waiting = present !== null && performance.now() < until && (present
        ? !(state.message !== '' && state.invalid === 'true')
        : !(state.message === '' && state.invalid !== 'true'));
      let metrics = null;
      if (!waiting && section === 'experiment') {
        window.retryLab?.drawViews?.();
        const found = keys.map((k) => document.querySelectorAll(`#rl-metrics [data-metric="${k}"] dd`));
        if (found.every((els) => els.length === 1)) metrics = Object.fromEntries(keys.map((k, i) => [k, found[i][0].textContent.trim()]));
      }
      if (waiting || (section === 'experiment' && !metrics)) return requestAnimationFrame(read);
      return resolve({ value: el.value, type: el.getAttribute('type'), state, run: JSON.stringify(snapshots[section]()), metrics });
    };
    read();
  }), [id, section, present]);
}

// The hostile values, and how they arrive.
const GARBAGE = [
  { name: 'pasted letters', how: 'insert', text: 'Lorem ipsum' },
  { name: 'pasted text with a number in it', how: 'insert', text: PASTED },
  { name: 'a pasted page of text', how: 'insert', text: PASTED_LONG },
  { name: 'a negative number', how: 'fill', text: '-5' },
  { name: 'a huge number', how: 'fill', text: '123456789012345678901234567890' },
  { name: 'a number beyond a double', how: 'insert', text: '1e400' },
  { name: 'a lone minus sign', how: 'type', text: '-' },
  { name: 'an empty box', how: 'fill', text: '' },
];

// Values a field takes by design (the page's and the engine's documented choices).
function acceptedByDesign(id, garbage) {
  const { text } = garbage;
  if (text === '' && /^(rl-deadlineMs|tr-ed-(maxBackoffMs|waitBudgetMs|deadlineMs|draws)|tr-ed-script-\d+-date)$/.test(id)) {
    return 'empty means none (no deadline, cap or budget; no draws; the default Date)';
  }
  if (/^tr-ed-script-\d+-retryAfter$/.test(id) && text.length <= 1000) return 'a Retry-After header is any text up to 1,000 characters; an unusable one is noted in the trace';
  if (id === 'tr-ed-operationId' && text.length >= 1 && text.length <= 255) return 'an operation identifier is any text of 1 to 255 characters';
  return null;
}

describe('hostile input at every field', () => {
  test('text that is no number, typed or pasted over a number box\'s selected text, is named there and keeps the last good run', pageTest(env, {}, async ({ page }) => {
    // Chromium drops what a number box cannot hold and leaves it empty: for the deadline, an
    // empty box is no deadline, so these used to change the run with no error shown.
    const OVER = [['type', 'abc'], ['type', 'NaN'], ['type', '\u0663\u0665\u0660\u0660'], ['insert', '\u0663\u0665\u0660\u0660'],
      ['insert', 'x'.repeat(100000)], ['insert', 'NaN'], ['type', 'Infinity']];
    const boxes = ['rl-maxRetries', 'rl-baseBackoffMs', 'rl-clientTimeoutMs', 'rl-deadlineMs', 'sw-from', 'sw-to', 'sw-points'];
    for (const id of boxes) {
      const [section] = sectionOf(id);
      const { value: original } = await readField(page, id, section);
      for (const [how, text] of OVER) {
        const label = `${id} given ${how === 'type' ? 'typed' : 'pasted'} ${JSON.stringify(text.slice(0, 12))}${text.length > 12 ? ` (${text.length} characters)` : ''}`;
        await enter(page, id, 'fill', original);
        const { run: good, metrics } = await readField(page, id, section, false);
        await enter(page, id, how, text);
        const { state, run, metrics: shown } = await readField(page, id, section, true);
        assert.equal(state.invalid, 'true', `${label}: marked invalid`);
        assert.match(state.message, /Enter a number/, `${label}: named`);
        if (id === 'rl-deadlineMs') assert.equal(state.message, DEADLINE_MESSAGE, label);
        assert.equal(run, good, `${label}: the ${section} keeps its last good run`);
        if (metrics) assert.deepEqual(shown, metrics, `${label}: the figures on screen stay`);
      }
      await enter(page, id, 'fill', original);
      assert.deepEqual((await readField(page, id, section, false)).state, { invalid: null, message: '' }, `${id} restored`);
    }
    assert.equal(await page.evaluate(() => window.retryLab.getState().result.inputs.deadlineMs), 10000);
  }));

  test('every field names each refused value at the field and keeps its section\'s last good run', pageTest(env, {}, async ({ page }) => {
    const ids = await page.evaluate(() => [...document.querySelectorAll('input[type="text"], input[type="number"], textarea')]
      .filter((el) => (el.getAttribute('aria-describedby') || '').split(/\s+/).some((x) => x.endsWith('-error')))
      .map((el) => el.id));
    // The fields this test knows to be there: the experiment's numbers, the herd, the editor, the sweep.
    for (const id of ['rl-maxRetries', 'rl-baseBackoffMs', 'rl-clientTimeoutMs', 'rl-deadlineMs', 'tr-callers', 'tr-seed',
      'tr-ed-script-0-status', 'tr-ed-script-0-retryAfter', 'tr-ed-draws', 'tr-ed-backoffMultiplier', 'tr-ed-operationId',
      'tr-ed-startDate', 'sw-from', 'sw-to', 'sw-points']) {
      assert.ok(ids.includes(id), `the page has the field ${id}`);
    }
    let refused = 0;
    for (const id of ids) {
      const found = sectionOf(id);
      assert.ok(found, `${id} belongs to a known section`);
      const [section] = found;
      const { value: original, type, state: first, run: opening, metrics: openingMetrics } = await readField(page, id, section);
      let good = opening;
      let metrics = openingMetrics;
      assert.deepEqual(first, { invalid: null, message: '' }, `${id} starts without a message`);
      const isNumberBox = type === 'number';
      for (const garbage of GARBAGE) {
        const label = `${id} given ${garbage.name}`;
        const how = garbage.how === 'fill' && isNumberBox && !/^-?\d*$/.test(garbage.text) ? 'insert' : garbage.how;
        await enter(page, id, how, garbage.text);
        const byDesign = acceptedByDesign(id, garbage);
        if (byDesign) {
          const now = await readField(page, id, section, false);
          assert.deepEqual(now.state, { invalid: null, message: '' }, `${label} is accepted: ${byDesign}`);
          good = now.run; // the run it made is now the last good one
          if (metrics) metrics = now.metrics;
        } else {
          const { state, run, metrics: shown } = await readField(page, id, section, true);
          assert.equal(state.invalid, 'true', `${label}: the field is marked invalid`);
          assert.match(state.message, /\S/, `${label}: a message at the field`);
          assert.ok(state.message.length < 400, `${label}: a sentence, not the pasted text back (${state.message.length} characters)`);
          assert.equal(run, good, `${label}: the ${section} keeps its last good run`);
          if (metrics) assert.deepEqual(shown, metrics, `${label}: the figures on screen stay`);
          ++refused;
        }
      }
      // The old value back: no message, and the run it had.
      await enter(page, id, 'fill', original);
      const back = await readField(page, id, section, false);
      assert.deepEqual(back.state, { invalid: null, message: '' }, `${id} restored to ${JSON.stringify(original)}`);
      assert.equal(back.run, opening, `${id} restored: the ${section} shows its run again`);
    }
    assert.ok(refused > ids.length * 4, `${refused} refusals seen over ${ids.length} fields`);
  }));

  // The experiment's own boxes alone: the sections below the article are not loaded (issue 31).
  test('letters typed into a number box never reach it; the run stays', pageTest(env, { sections: false }, async ({ page }) => {
    const good = await page.evaluate(() => window.retryLab.getState().result);
    for (const id of ['rl-maxRetries', 'rl-baseBackoffMs', 'rl-clientTimeoutMs', 'rl-deadlineMs']) {
      const box = page.locator(`#${id}`);
      const value = await box.inputValue();
      await box.focus();
      await page.keyboard.press('End');
      await page.keyboard.type('abc xyz');
      assert.equal(await box.inputValue(), value, `${id} holds what it held`);
      assert.deepEqual(await fieldState(page, id), { invalid: null, message: '' });
    }
    assert.deepEqual(await page.evaluate(() => window.retryLab.getState().result), good);
  }));

  test('an unreadable deadline is named, not read as "no deadline"', pageTest(env, { sections: false }, async ({ page }) => {
    await enter(page, 'rl-deadlineMs', 'fill', '3500');
    assert.equal((await metricsOf(page)).outcome, 'unknown', 'deadline 3500: attempt 2 never sent (SPEC §9)');
    const good = await metricsOf(page);
    for (const [how, text] of [['insert', '1e400'], ['insert', 'ten seconds'], ['type', '-']]) {
      await enter(page, 'rl-deadlineMs', 'fill', '3500');
      await enter(page, 'rl-deadlineMs', how, text);
      const state = await fieldState(page, 'rl-deadlineMs');
      assert.equal(state.invalid, 'true', `${text}: marked invalid`);
      assert.equal(state.message, DEADLINE_MESSAGE, `${text}: named`);
      assert.deepEqual(await metricsOf(page), good, `${text}: still the 3,500 ms run, not a run without a deadline`);
      // Another control changed meanwhile: the box keeps the reader's text and its message.
      await page.locator('#rl-maxRetries').fill('4');
      assert.equal((await fieldState(page, 'rl-deadlineMs')).message, DEADLINE_MESSAGE);
      assert.equal(await page.locator('#rl-deadlineMs').evaluate((el) => el.validity.badInput), true, `${text}: still in the box`);
      await page.locator('#rl-maxRetries').fill('3');
    }
    // Chromium keeps only a number's characters of pasted text: 'soon' leaves an empty box, but
    // it was an insertion, not a clearing: named, and the 3,500 ms run stays.
    await enter(page, 'rl-deadlineMs', 'fill', '3500');
    await enter(page, 'rl-deadlineMs', 'insert', 'soon');
    assert.equal(await page.locator('#rl-deadlineMs').inputValue(), '');
    assert.deepEqual(await fieldState(page, 'rl-deadlineMs'), { invalid: 'true', message: DEADLINE_MESSAGE });
    assert.deepEqual(await metricsOf(page), good, 'pasted "soon": still the 3,500 ms run');
    // No deadline is asked for by clearing the box (Backspace over the selection): the empty box
    // shows "none".
    await enter(page, 'rl-deadlineMs', 'fill', '3500');
    await page.locator('#rl-deadlineMs').selectText();
    await page.keyboard.press('Backspace');
    assert.deepEqual(await fieldState(page, 'rl-deadlineMs'), { invalid: null, message: '' });
    assert.equal(await page.locator('#rl-deadlineMs').getAttribute('placeholder'), 'none');
    assert.equal(await page.evaluate(() => window.retryLab.getState().result.inputs.deadlineMs), null, 'a cleared box is no deadline');
    assert.equal((await metricsOf(page)).outcome, 'success');
  }));
});
