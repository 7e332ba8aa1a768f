// web/format.js writes numbers as Intl.NumberFormat('en-US', { maximumFractionDigits: 2 })
// would, without making one (the page's first render would pay for the locale data). Held to
// Intl's own text over the values the page shows and the edges of rounding.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ms, num, seconds } from '../../../web/format.js';

const intl = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

// A small deterministic generator (no global randomness in tests either).
function* numbers(count, seed = 7) {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  for (let i = 0; i < count; ++i) {
    const scale = 10 ** Math.floor(next() * 30 - 8); // 1e-8 … 1e21
    const sign = next() < 0.2 ? -1 : 1;
    yield sign * next() * scale;
    yield sign * Math.round(next() * 1e6) / 1000; // three decimals: ties at .xx5
    yield sign * Math.round(next() * 1e5); // whole
  }
}

test('num writes what Intl.NumberFormat en-US with at most two decimals writes', () => {
  const edges = [0, -0, 0.005, 0.004999, 1.005, 2.675, 0.125, 0.135, 999.995, 999.994, 9.995, 99999.995,
    -0.001, -0.005, -1234.5, 1234567.891, 1e-7, 5e-3, 4.9999e-3, 1e20, 1e21, 1.2345e25, 3700, 1234.5678,
    Number.MAX_SAFE_INTEGER, Number.MIN_VALUE, Number.MAX_VALUE, NaN, Infinity, -Infinity];
  for (const n of edges) assert.equal(num(n), intl.format(n), `num(${n})`);
  let checked = 0;
  for (const n of numbers(20000)) {
    assert.equal(num(n), intl.format(n), `num(${n})`);
    ++checked;
  }
  assert.equal(checked, 60000);
});

test('ms and seconds wrap num', () => {
  assert.equal(ms(3700), '3,700 ms');
  assert.equal(ms(1234.567), '1,234.57 ms');
  assert.equal(seconds(1500), '1.5 s');
  assert.equal(seconds(61005), '61.01 s');
});
