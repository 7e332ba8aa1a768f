// The event list's view (web/views/events.js) drawn for a playhead: the events after the ones
// revealed are marked "future" with words a screen reader hears, the last revealed one is the
// current step, and with no playhead (every event revealed) nothing is marked. The mounted list
// is redrawn with the same marks playback gives it (explorable/run-view.js), so a redraw need
// not rewrite them (issue 18).

import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { findAll, textOf } from '../../../web/dom.js';
import { FUTURE_WORDS, eventsView } from '../../../web/views/events.js';
import { loadEngineInNode } from '../../browser/lib/engine.js';

let result;
before(async () => {
  result = (await loadEngineInNode()).compute({});
});

const items = (tree) => findAll(tree, (n) => n.tag === 'li');
const future = (li) => li.attrs.class.split(' ').includes('future');
const words = (li) => textOf(findAll(li, (n) => n.tag === 'span' && n.attrs.class.includes('event-state'))[0]);

test('the events after the first `shown` are marked future, with words, and the last shown is the current step', () => {
  const n = result.events.length;
  assert.ok(n > 3);
  for (let shown = 0; shown <= n; ++shown) {
    const lis = items(eventsView(result, shown));
    assert.equal(lis.length, n);
    lis.forEach((li, i) => {
      assert.equal(future(li), i >= shown, `shown ${shown}, event ${i}: future`);
      assert.equal(words(li), i >= shown ? FUTURE_WORDS : '', `shown ${shown}, event ${i}: words`);
      assert.equal(li.attrs['aria-current'] ?? null, i === shown - 1 ? 'step' : null, `shown ${shown}, event ${i}: current`);
    });
  }
});

test('with no playhead every event is shown and none is marked', () => {
  for (const li of items(eventsView(result))) {
    assert.equal(future(li), false);
    assert.equal(words(li), '');
    assert.equal(li.attrs['aria-current'] ?? null, null);
  }
});
