// A stack's run drawn (web/views/stack.js) and said in a comparison's words (web/compare/
// stack-words.js), in node: docs/layers.md §8.1's three layers of four attempts against a server
// that always fails (4 × 4 × 4 = 64, worked by hand there) and §8.5's two stacks.

import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { findAll, textOf } from '../../../web/dom.js';
import { isStack, multiplication, stackView } from '../../../web/views/stack.js';
import { stackText } from '../../../web/compare/stack-words.js';
import { runSummary } from '../../../web/fleet/stack.js';
import { loadEngineInNode } from '../../browser/lib/engine.js';

let engine;
before(async () => {
  engine = await loadEngineInNode();
});
const id = (name) => `t-${name}`;
const SRE = { scenario: 'script', script: [{ status: 503 }], maxRetries: 3, baseBackoffMs: 0, clientTimeoutMs: 60000, deadlineMs: null, layers: [{ name: 'agent' }, { name: 'SDK' }, { name: 'HTTP' }] };

test('§8.1 drawn: 4 × 4 × 4 = 64 server attempts, a lane per layer with a bar per attempt (4, 16, 64)', () => {
  const result = engine.compute(SRE);
  assert.equal(isStack(result), true);
  assert.equal(isStack(engine.compute({})), false, 'a one-layer run is no stack');
  assert.equal(multiplication(result.metrics), '4 × 4 × 4 = 64 server attempts');
  const tree = { tag: 'div', attrs: {}, children: stackView(id, result) };
  const lanes = findAll(tree, (n) => n.attrs && n.attrs.class === 'ly-lane');
  assert.deepEqual(lanes.map((lane) => findAll(lane, (n) => n.tag === 'rect' && /\bly-bar\b/.test(n.attrs.class)).length), [4, 16, 64]);
  const rows = findAll(tree, (n) => n.tag === 'tbody')[0];
  assert.deepEqual(findAll(rows, (n) => n.tag === 'tr').map((tr) => textOf(tr.children[0])), ['1. agent', '2. SDK', '3. HTTP']);
  // Two drawings on a page name their regions apart (`within`).
  const within = { tag: 'div', attrs: {}, children: stackView(id, result, 'side-b') };
  assert.ok(findAll(within, (n) => n.attrs && n.attrs.role === 'region').every((n) => n.attrs['aria-labelledby'].startsWith('side-b ')));
});

test('a stack in words: each layer top first, joined by "over", its retries and key, and what differs from the other side', () => {
  const stack = (agentKey, sdkKey) => engine.compute({ layers: [{ name: 'agent', maxRetries: 2, key: agentKey }, { name: 'SDK', key: sdkKey }] }).inputs.layers;
  const text = (field, v) => (v === null ? 'none' : String(v));
  const a = stack('none', 'mint');
  const b = stack('mint', 'pass');
  assert.equal(stackText(a, b, text), 'agent (maxRetries 2, key none) over SDK (maxRetries 3, key mint)');
  assert.equal(stackText(a, null, text), stackText(a, b, text), 'only key differs: nothing more is named');
  const slower = engine.compute({ layers: [{ name: 'agent', maxRetries: 2, key: 'none', clientTimeoutMs: 900 }, { name: 'SDK', key: 'mint' }] }).inputs.layers;
  assert.equal(stackText(slower, a, text), 'agent (maxRetries 2, clientTimeoutMs 900, key none) over SDK (maxRetries 3, key mint)');
  assert.equal(stackText(a, slower, text), 'agent (maxRetries 2, clientTimeoutMs 3000, key none) over SDK (maxRetries 3, key mint)');
});

test('the storm\'s line under its chart says one request and one attempt in the singular, and groups thousands', () => {
  assert.equal(runSummary({ requests: 1, attempts: 1, load: 1, succeeded: 1 }), '1 request made 1 attempt (load 1.00×); 1 succeeded.');
  assert.equal(runSummary({ requests: 20895, attempts: 41790, load: 2, succeeded: 1000 }), '20,895 requests made 41,790 attempts (load 2.00×); 1,000 succeeded.');
  assert.equal(runSummary({ requests: 2, attempts: 8, load: 1, attemptsPerRequest: 4, layers: [{}, {}], succeeded: 0 }),
    '2 requests made 8 attempts (load 4.00× a request through 2 retry layers; 1.00 attempts per call of the bottom layer); 0 succeeded.');
});
