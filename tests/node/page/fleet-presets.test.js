// The fleet's preset cards in the reader's words (issue 35 item 10): no spec section ("FLEET.md
// §5") and no engine field name in what a card says it sets; its source may cite a product's own
// files and names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fleetTable, gateFields } from '../../../web/fleet/model.js';
import { fleetPresets, presetCard, presetSettings } from '../../../web/fleet/presets.js';
import { toMarkup } from '../../../web/dom.js';
import { DIST } from '../../browser/lib/dist.js';

const require = createRequire(import.meta.url);
const table = fleetTable((await require(join(DIST, 'retrylab-fleet.js'))()).fleetSchema());

test('no preset card cites the fleet spec’s sections', () => {
  for (const p of fleetPresets()) {
    const text = toMarkup(presetCard(p, table));
    assert.doesNotMatch(text, /FLEET|§/, `${p.label}: ${text}`);
  }
});

test('what a preset sets is said by the controls’ labels, never the engine’s field names', () => {
  for (const p of fleetPresets()) {
    const said = presetSettings(p, table);
    for (const [gate, values] of Object.entries(p.gates)) {
      for (const name of Object.keys(values)) {
        // Every field the preset sets is said, under its control's label...
        const field = gateFields(table, gate).find((f) => f.name === name);
        assert.ok(field, `${p.label}: ${gate}.${name} is a field of the gate`);
        assert.ok(said.includes(`${field.label}:`), `${p.label}: "${field.label}" in ${said}`);
        // ...and no camel-cased engine name is (a lower-case one can be its own label: "capacity").
        if (/[A-Z]/.test(name)) assert.ok(!said.includes(name), `${p.label} says ${name}: ${said}`);
      }
    }
    assert.doesNotMatch(said, /\b[a-z]+\.[a-z]+[A-Z]/, `${p.label} names a request path: ${said}`);
  }
  const brooker = fleetPresets().find((p) => p.id === 'bucket:brooker-post');
  assert.equal(presetSettings(brooker, table), 'Token bucket (Brooker): capacity: 5 tokens; a deposit: 0.1 tokens; a retry takes: 1 token; what adds the deposit: each request that succeeds; how many tokens a retry needs: at least cost: a whole token');
});

// The gates' menus say each choice in words (issue 35 item 10: they showed "first-attempt",
// "cost-or-increment"); the engine's name stays the option's value.
test('each gate menu option is a choice in words, its value the engine’s name', async () => {
  const { gateNodes } = await import('../../../web/fleet/controls.js');
  const boxes = gateNodes(table, (name) => `t-${name}`);
  const markup = boxes.map((b) => toMarkup(b)).join('');
  assert.doesNotMatch(markup, /FLEET/, 'no spec section in the menus, their titles included');
  const options = [...markup.matchAll(/<option value="([^"]*)"[^>]*>([^<]*)<\/option>/g)];
  const gateOptions = options.filter(([, value]) => value !== 'client' && value !== 'fleet');
  assert.ok(gateOptions.length >= 6, `the gates' menus: ${gateOptions.length} options`);
  for (const [, value, words] of gateOptions) {
    assert.notEqual(words, value, `option ${value} says its engine name`);
    assert.doesNotMatch(words, /\(|FLEET|[a-z][A-Z]/, `option ${value}: ${words}`);
  }
  assert.ok(gateOptions.some(([, v, w]) => v === 'first-attempt' && w === 'each first attempt sent'));
  assert.ok(gateOptions.some(([, v, w]) => v === 'cost-or-increment' && w === 'its last cost, or “a success that paid nothing adds” if it paid none'), JSON.stringify(gateOptions.filter(([, v]) => v === 'cost-or-increment')));
});
