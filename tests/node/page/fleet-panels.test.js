// The reproductions' small line charts (web/fleet/panel.js, issue 35 item 10): the AWS 2015
// completion times span 382 ms to 101 s, so on a linear axis every strategy but exponential
// backoff lay within a few pixels of zero; on the log axis each line reads apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { yAxis } from '../../../web/fleet/panel.js';
import { awsPanel } from '../../../web/fleet/aws2015.js';
import { AWS_2015_PEER } from '../../../web/fleet/reference.js';
import { toMarkup } from '../../../web/dom.js';

test('a log axis runs from the power of ten below the least value to the nice maximum above the most, a tick at each power of ten', () => {
  const a = yAxis([382, 101357], { yLog: true });
  assert.deepEqual(a.ticks, [100, 1000, 10000, 100000]);
  assert.equal(a.at(100), 0);
  assert.equal(a.at(200000), 1);
  // Equal ratios are equal distances: 100 → 1,000 as far as 1,000 → 10,000.
  assert.ok(Math.abs((a.at(1000) - a.at(100)) - (a.at(10000) - a.at(1000))) < 1e-12);
  // A linear axis keeps 0, half and the top.
  assert.deepEqual(yAxis([0, 7997], {}).ticks, [0, 5000, 10000]);
});

// The peer's crosses of one strategy in a panel's markup: the y of its cross at `clients`.
function crossY(svg, cls, index) {
  const d = svg.match(new RegExp(`class="fl-peer ${cls}" d="([^"]+)"`))[1];
  const centres = [...d.matchAll(/M([\d.]+) ([\d.]+)L[\d.]+ [\d.]+M/g)].map((m) => Number(m[2]) + 3);
  return centres[index];
}

test('the AWS completion-time panel draws no backoff and full jitter at 190 clients at least 15 units apart (they were 4 on a linear axis)', () => {
  const svg = toMarkup(awsPanel(new Map(), 'makespanMs', { id: 't', title: 't', unit: 'ms' }));
  const last = AWS_2015_PEER.None.length - 1;
  const gap = crossY(svg, 'fl-s0', last) - crossY(svg, 'fl-s3', last);
  assert.ok(gap >= 15, `no backoff ${AWS_2015_PEER.None[last][1]} ms and full jitter ${AWS_2015_PEER.FullJitter[last][1]} ms drawn ${gap} apart`);
  assert.match(svg, /log scale/);
  // The writes keep their linear axis (their spread is 38 to 7,997 writes, drawn apart already).
  assert.doesNotMatch(toMarkup(awsPanel(new Map(), 'writes', { id: 'w', title: 'w', unit: 'writes' })), /log scale/);
});
