// The article figure's "what changed" line (web/explorable/steps.js changeWords), in node,
// fed by the real engine's runs of the story's steps (web/story.js STORY): relations that must
// hold for every pair, and the pairs the article talks about worked out from the spec.

import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngineInNode } from '../../browser/lib/engine.js';
import { STORY } from '../../../web/story.js';
import { changeWords } from '../../../web/explorable/steps.js';

let runs;
before(async () => {
  const engine = await loadEngineInNode();
  runs = Object.fromEntries(Object.entries(STORY).map(([name, inputs]) => [name, engine.compute(inputs)]));
  for (const [name, r] of Object.entries(runs)) assert.equal(r.ok, true, name);
});

const parts = (words) => (words === 'no count changed' ? [] : words.split(' · '));

describe('the figure says what changed from the run before', () => {
  test('nothing before: nothing said; the same counts: "no count changed"', () => {
    assert.equal(changeWords(null, runs.opening), '');
    for (const r of Object.values(runs)) assert.equal(changeWords(r, r), 'no count changed');
  });

  test('every pair: one part per metric that differs, and the reverse pair says each part backwards', () => {
    const keys = ['attempts', 'charges', 'replays', 'outcome', 'elapsedMs'];
    for (const a of Object.values(runs)) {
      for (const b of Object.values(runs)) {
        const forward = parts(changeWords(a, b));
        assert.equal(forward.length, keys.filter((k) => a.metrics[k] !== b.metrics[k]).length);
        const backward = parts(changeWords(b, a)).map((p) => p.replace(/^(\S+) (.+) → (.+)$/, '$1 $3 → $2'));
        assert.deepEqual(backward, forward);
      }
    }
  });

  test('the article’s steps: the key replays instead of charging; no retries leaves the outcome unknown', () => {
    // SPEC: attempt 2 carries the key, so the server replays the stored result.
    assert.equal(changeWords(runs.opening, runs.key), 'charges 2 → 1 · replays 0 → 1');
    // No retries: attempt 1 alone, its charge committed and its answer lost at the 3,000 ms timeout.
    assert.equal(changeWords(runs.opening, runs['no-retries']), 'attempts 2 → 1 · charges 2 → 1 · outcome success → unknown · elapsed 3,700 ms → 3,000 ms');
    // A 4,000 ms deadline still fits attempt 2 (it ends at 3,700 ms): the same run.
    assert.equal(changeWords(runs.opening, runs['deadline-4000']), 'no count changed');
  });

  test('the hedged payment: the copy answers at 700 ms and charges again; with the key it is replayed', () => {
    // docs/throttling.md §6.1 on the opening run: copy 1 at 0 commits charge #1 at 200, its answer
    // lost; copy 2 at 500 commits charge #2 at 700 and its 200 ends the run. With the key, copy 2
    // starts after charge #1's commit: the stored result is replayed.
    assert.equal(changeWords(runs.opening, runs.hedged), 'elapsed 3,700 ms → 700 ms');
    assert.equal(changeWords(runs.hedged, runs['hedged-key']), 'charges 2 → 1 · replays 0 → 1');
    assert.equal(runs.hedged.metrics.hedges, 1);
    assert.deepEqual(runs.hedged.attempts.map((a) => [a.startMs, a.hedge, a.clientSaw]), [[0, false, 'cancelled'], [500, true, '200']]);
  });

  test('a created record is counted as a record, not a charge', () => {
    const create = { ...runs.key, inputs: { ...runs.key.inputs, operation: 'create' } };
    assert.equal(changeWords(runs.opening, create), 'records 2 → 1 · replays 0 → 1');
  });
});
