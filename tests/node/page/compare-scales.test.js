// Compare mode's two storm charts share their scales (issue 35): each draws the other run as
// its ghost, and a chart with a ghost takes every axis from both runs, so the before and after
// charts have the same time axis, rate axis and queue axis whatever the two runs are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stormChart } from '../../../web/fleet/chart.js';
import { alignedSeries } from '../../../web/compare/fleet.js';
import { toMarkup } from '../../../web/dom.js';
import { caseNamed } from './fleet-cases.js';

// The independent model's results, each bin's capacity the engine's (fleet-cases.js).
const result = (name) => caseNamed(name).result;
// The axis labels a chart writes: its ticks, not its ghost's note.
const ticks = (svg) => [...toMarkup(svg).matchAll(/<text class="fl-tick"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);

test('a 60 s run and a 3 s run, each the other’s ghost, are drawn on the same axes', () => {
  // FLEET.md §9.5 "no retries" (60 s of requests, 61 bins, capacity 200 a second) against an
  // edge case (3 s, a handful of requests): alone, one would end at 120 s and reach 200 a second,
  // the other end at 70 s and reach far less.
  const [a, b] = alignedSeries(result('9.5 no retries'), result('edge 1'));
  const before = stormChart(a, { id: 'b', ghost: b, ghostName: 'the after run' });
  const after = stormChart(b, { id: 'a', ghost: a, ghostName: 'the before run' });
  assert.deepEqual(ticks(after), ticks(before));
  assert.ok(ticks(before).includes('120 s'), ticks(before).join(' '));
  assert.ok(ticks(before).includes('200'), ticks(before).join(' '));
  assert.match(toMarkup(before), /faint: the after run/);
  assert.match(toMarkup(after), /The faint lines are the before run, for comparison/);
});
