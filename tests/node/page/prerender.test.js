// The opening page's prerendered numbers and data (issue 18, web/prerender.mjs): dist/index.html
// carries the article's numbers in its text and the opening run, the engine's input table and
// its version as a data block, all computed by the build with the
// engine file it ships. Here the same engine file (dist/retrylab-engine.js) computes every
// story step again, and the page must carry exactly that: a page built with one engine and
// served with another (a stale dist/, a file copied by hand) fails here. Then the filler's
// own rules: every slot filled, a slot naming no step or no fact stops the build, and text
// and data are escaped.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIST, REPO, checkBuilt } from '../../browser/lib/dist.js';
import { loadEngineInNode } from '../../browser/lib/engine.js';
import { DATA_ID, EXPLORABLE_WIDTHS, dataBlock, explorableMarkup, factSlots, fillPage, readDataBlock } from '../../../web/prerender.mjs';
import { STORY, factsOf, formatFact } from '../../../web/story.js';
import { createWindow, innerHTML } from '../../../web/prerender-dom.mjs';
import { h, mount } from '../../../web/dom.js';

const built = () => readFileSync(join(DIST, 'index.html'), 'utf8');
const source = () => readFileSync(join(REPO, 'site/index.html'), 'utf8');

test('every number the built page quotes is what its engine computes for that story step', async () => {
  checkBuilt();
  const engine = await loadEngineInNode();
  const slots = factSlots(built());
  const inSource = factSlots(source());
  assert.ok(slots.length > 0 && slots.length === inSource.length, `the built page has the source's ${inSource.length} slots (${slots.length})`);
  const facts = {};
  for (const [i, slot] of slots.entries()) {
    assert.deepEqual([slot.step, slot.fact, slot.format], [inSource[i].step, inSource[i].fact, inSource[i].format], `slot ${i} is the source's`);
    assert.ok(slot.step in STORY, `slot ${i} names a story step (${slot.step})`);
    facts[slot.step] ||= factsOf(engine.compute(STORY[slot.step]));
    const text = formatFact(facts[slot.step], slot.fact, slot.format);
    assert.ok(text, `${slot.step} ${slot.fact}: the engine has it`);
    // The HTML text as the page holds it (the filler escapes &, < and >).
    assert.equal(slot.text, text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'), `${slot.step} ${slot.fact}`);
  }
  const version = [...built().matchAll(/<span data-engine-version>([^<]*)<\/span>/g)].map((m) => m[1]);
  assert.deepEqual(version, [String(engine.version())], 'the engine version in the footer');
});

test('the built page\'s data block is the opening run, the input table and the version its engine gives, nothing else', async () => {
  checkBuilt();
  const engine = await loadEngineInNode();
  const data = readDataBlock(built());
  assert.ok(data, `dist/index.html has the #${DATA_ID} block`);
  // Nothing the page does not read (the story steps' inputs were, until issue 18 had a "Try it"
  // compute its step with the engine it loads first).
  assert.deepEqual(Object.keys(data).sort(), ['opening', 'schema', 'version']);
  assert.deepEqual(data.opening, engine.compute({}), 'the opening run');
  assert.equal(data.opening.ok, true);
  assert.deepEqual(data.schema, engine.schema(), 'the input table');
  assert.equal(data.version, String(engine.version()));
});

test('the filler fills every slot, stops on a slot it cannot fill, and escapes what it writes', () => {
  const result = { ok: true, inputs: { responseMs: 200, operationId: 'a<b&c' }, events: [], attempts: [], metrics: { attempts: 1, agentReport: 'success', charges: 0 } };
  const data = { opening: result, schema: { inputs: [] }, version: '1.0 </script>' };
  const page = '<p><span class="fact" data-story="opening" data-fact="inputs.responseMs" data-format="ms"></span> and <b data-story="opening" data-fact="inputs.operationId"></b>'
    + ' <span data-engine-version></span></p>\n</body>';
  const out = fillPage(page, { results: { opening: result }, data });
  assert.deepEqual(factSlots(out).map((s) => s.text), ['200 ms', 'a&lt;b&amp;c']);
  assert.match(out, /<span data-engine-version>1\.0 &lt;\/script&gt;<\/span>/);
  assert.equal((out.match(/<\/script>/g) || []).length, 1, 'the data cannot end its own <script> early');
  assert.deepEqual(readDataBlock(out), data, 'the data block reads back as it was');
  assert.ok(out.endsWith(`${dataBlock(data)}\n</body>`));
  assert.throws(() => fillPage('<span data-story="nope" data-fact="inputs.responseMs"></span></body>', { results: { opening: result }, data }), /1 fact slots could not be filled: nope: inputs.responseMs/);
  assert.throws(() => fillPage('<span data-story="opening" data-fact="inputs.missing"></span></body>', { results: { opening: result }, data }), /could not be filled: opening: inputs.missing/);
  assert.throws(() => fillPage('<p></p>', { results: {}, data }), /no <\/body>/);
});

// Issue 15/18 (session 4): the explorable drawn into index.html by the page's own code on the
// build's small DOM (web/prerender-dom.mjs); the browser tests (engine-on-demand.test.js) hold
// that the page's script then writes nothing into it and that it is what the script would draw.
test('the built page holds the explorable drawn for its opening run, in place of the "Loading…" line', async () => {
  checkBuilt();
  const data = readDataBlock(built());
  const markup = explorableMarkup(data);
  assert.ok(built().includes(`<div class="retry-lab" data-retry-lab>\n    ${markup}\n`), 'the drawing, where the source says "Loading the retry engine…"');
  assert.ok(!built().includes('Loading the retry engine…'));
  // Drawn for the opening run: the question first, the lanes and the timeline at the wide widths.
  assert.match(markup, /^<div class="rl rl-asking">/);
  assert.match(markup, new RegExp(`<div class="rl-lanes" id="rl-lanes"><svg class="lanes" width="${EXPLORABLE_WIDTHS['rl-lanes']}"`));
  assert.match(markup, new RegExp(`<div class="rl-timeline" id="rl-timeline"><svg [^>]*width="${EXPLORABLE_WIDTHS['rl-timeline']}"`));
  assert.equal((markup.match(/<li /g) || []).length, data.opening.events.length, 'one event-list item per event');
  // Nothing a strict CSP would refuse in HTML: no style attribute, no handler.
  assert.doesNotMatch(markup, /\sstyle=|\son[a-z]+=/);
});

test('the filler puts the drawing in the one "Loading…" line, and stops without one', () => {
  const result = { ok: true, inputs: {}, events: [], attempts: [], metrics: {} };
  const data = { opening: result, schema: { inputs: [] }, version: '1' };
  const slot = '<p class="rl-loading">Loading the retry engine…</p>';
  const out = fillPage(`<div data-retry-lab>${slot}</div></body>`, { results: { opening: result }, data, explorable: '<div class="rl">$&</div>' });
  assert.ok(out.startsWith('<div data-retry-lab><div class="rl">$&</div></div>'), 'placed as it is (no replacement patterns)');
  assert.throws(() => fillPage('<div></div></body>', { results: {}, data, explorable: '<div></div>' }), /no single <p class="rl-loading">/);
  assert.throws(() => fillPage(`${slot}${slot}</body>`, { results: {}, data, explorable: '<div></div>' }), /no single/);
});

// The build's small DOM (web/prerender-dom.mjs) writes HTML an HTML parser reads back as the same
// tree, and refuses what it could not: two text nodes side by side (read back as one), an empty
// text node (read back as none), a child inside a void element, a selector it does not know.
test('the build\'s small DOM writes what a parser reads back, and refuses what it could not', () => {
  const { doc, resize } = createWindow();
  const tree = h('div', { class: 'a b', id: 'x', hidden: true, 'data-step-name': 'key' },
    h('input', { type: 'number', value: '1 < 2 & "3"' }), 'text & <more>',
    h('svg', { viewBox: '0 0 10 10', width: 10 }, h('line', { x1: 0 })));
  const el = mount(tree, doc);
  doc.body.appendChild(el);
  assert.equal(innerHTML(doc.body), '<div class="a b" id="x" hidden data-step-name="key"><input type="number" value="1 < 2 &amp; &quot;3&quot;">text &amp; &lt;more&gt;<svg viewBox="0 0 10 10" width="10"><line x1="0"></line></svg></div>');
  assert.equal(el.dataset.stepName, 'key');
  el.dataset.stepName = 'no-retries';
  assert.equal(el.getAttribute('data-step-name'), 'no-retries', 'dataset writes are attributes');
  assert.equal(doc.querySelector('#x input[type="number"]').localName, 'input');
  assert.equal(doc.querySelector('div.a.b svg line').getAttribute('x1'), '0');
  assert.equal(el.querySelector('line').closest('.a'), el);
  assert.throws(() => doc.querySelector('input:checked'), /selector not supported/);
  el.classList.toggle('b', false);
  el.classList.toggle('c');
  assert.equal(el.className, 'a c');
  // Resize observers are told each box's width, in the order they were made.
  const told = [];
  new doc.defaultView.ResizeObserver((entries) => told.push(['first', entries[0].contentRect.width])).observe(el);
  new doc.defaultView.ResizeObserver((entries) => told.push(['second', entries[0].contentRect.width])).observe(el);
  resize({ x: 640 });
  assert.deepEqual(told, [['first', 640], ['second', 640]]);
  assert.equal(el.clientWidth, 640);
  const two = doc.createElement('p');
  two.append('a', 'b');
  assert.throws(() => innerHTML({ childNodes: [two], localName: 'div' }), /two text nodes side by side/);
  const empty = doc.createElement('p');
  empty.appendChild(doc.createTextNode(''));
  assert.throws(() => innerHTML({ childNodes: [empty], localName: 'div' }), /empty text node/);
  const voidEl = doc.createElement('input');
  voidEl.appendChild(doc.createTextNode('x'));
  assert.throws(() => innerHTML({ childNodes: [voidEl], localName: 'div' }), /cannot hold children/);
});
