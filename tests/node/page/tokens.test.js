// The page's colours are described once (web/css/tokens.css): each token is declared in one
// place with its light and its dark colour (light-dark()), so the system setting and a
// `data-theme` cannot drift apart (tests/browser/theme.test.js compares what they paint).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../../browser/lib/dist.js';

const css = readFileSync(join(REPO, 'web/css/tokens.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');

test('each colour token is declared once, with its light and dark colours side by side', () => {
  const declared = [...css.matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)].map(([, name, value]) => ({ name, value: value.trim() }));
  const counts = {};
  for (const { name } of declared) counts[name] = (counts[name] || 0) + 1;
  assert.deepEqual(Object.entries(counts).filter(([, n]) => n > 1).map(([name]) => name), [], 'declared more than once');
  const colours = declared.filter(({ name }) => !/^--(font|serif|mono)$/.test(name));
  assert.ok(colours.length >= 20, `${colours.length} colour tokens`);
  for (const { name, value } of colours) assert.match(value, /^light-dark\(.+,.+\)$/, `${name}: light-dark(light, dark)`);
});

test('no stylesheet of the page picks colours by the system setting itself', () => {
  assert.doesNotMatch(css, /prefers-color-scheme/, 'the theme is color-scheme, which the system setting and data-theme both set');
});
