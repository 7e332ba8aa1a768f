// The opening page, prerendered by the build with the engine it ships (issue 18): the engine
// file is not on the opening page, so what its first screen shows is computed here, in node,
// by the very file copied to dist/ (web/build.mjs), and written into dist/index.html:
//   - every number the article quotes (the `data-story`/`data-fact` slots, web/story.js),
//     straight into the HTML text, and the engine's version (`data-engine-version`);
//   - a data block, <script type="application/json" id="rl-prerendered">, which the page's
//     script reads instead of calling the engine: the opening run (compute({})), the engine's
//     table of its inputs (schema(), the link format) and its version. (A "Try it" computes
//     its step with the engine, which it loads first: explorable/steps.js.)
//   - the explorable itself, drawn for the opening run (issue 15/18, session 4): the page's own
//     code (app.js createExplorable) run on a small DOM in node (prerender-dom.mjs), its
//     timeline and lanes at the widths of the page's wide layout (EXPLORABLE_WIDTHS), written
//     in place of the "Loading…" line. The page's script then finds its first frame already in
//     the HTML and attaches the behaviour without drawing it again (app.js `hydrate`); a window
//     whose layout gives other widths redraws those two drawings, as every window did before.
// tests/node/page/prerender.test.js recomputes all of it from dist/'s engine and finds the
// same in dist/index.html; the page checks the opening run again when its engine arrives.

import { STORY, factsOf, formatFact } from './story.js';
import { createExplorable } from './app.js';
import { createWindow, innerHTML } from './prerender-dom.mjs';

export const DATA_ID = 'rl-prerendered';

// { results: { step: compute(inputs) }, data } from an engine (the factory's answer).
export function prerender(engine) {
  const results = {};
  for (const [name, inputs] of Object.entries(STORY)) {
    const result = engine.compute(inputs);
    if (!result || result.ok !== true) throw new Error(`prerender: the story step "${name}" did not compute: ${JSON.stringify(result && result.errors)}`);
    results[name] = result;
  }
  const data = { opening: results.opening, schema: engine.schema(), version: String(engine.version()) };
  return { results, data, explorable: explorableMarkup(data) };
}

// The content-box widths of the timeline and of the lanes in the page's layout from about
// 1,200 px wide up (css/explorable.css, css/lanes.css: their boxes stop growing there; at
// 1280, 1440 and 1920 px both are these); narrower windows redraw them at their own width.
export const EXPLORABLE_WIDTHS = { 'rl-timeline': 810, 'rl-lanes': 602 };

// The explorable's markup for the opening run, as the page's script draws it before its first
// frame: mounted by createExplorable as main.js calls it (the build's opening run and input
// table, no engine yet), then told its boxes' widths, as the first layout's resize observers do.
export function explorableMarkup(data, widths = EXPLORABLE_WIDTHS) {
  const { doc, resize } = createWindow();
  const root = doc.body.appendChild(doc.createElement('div'));
  const noEngine = {
    compute() { throw new Error('prerender: the explorable computed while it was drawn'); },
    schema() { throw new Error('prerender: the explorable asked the engine for its table'); },
  };
  createExplorable(root, noEngine, { opening: data.opening, schema: data.schema, ready: () => false, ensure: () => new Promise(() => {}) });
  resize(widths);
  return innerHTML(root);
}

const escapeText = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const attrOf = (attrs, name) => (attrs.match(new RegExp(`\\b${name}="([^"]*)"`)) || [])[1];

// An element with data-fact and no element inside it: [whole, tag, attrs, text].
const FACT_SLOT = /<([a-z][a-z0-9]*)\b([^>]*\bdata-fact="[^"]*"[^>]*)>([^<]*)<\/\1>/g;
const VERSION_SLOT = /<([a-z][a-z0-9]*)\b([^>]*\bdata-engine-version\b[^>]*)>([^<]*)<\/\1>/g;

// Every fact slot of a page: [{ step, fact, format, text }] (text: what the slot holds).
export function factSlots(html) {
  return [...html.matchAll(FACT_SLOT)].map(([, , attrs, text]) => ({
    step: attrOf(attrs, 'data-story'), fact: attrOf(attrs, 'data-fact'), format: attrOf(attrs, 'data-format'), text,
  }));
}

// The data block's JSON, safe inside a <script> element (no "</script>" can end it early).
export const dataBlock = (data) => `<script type="application/json" id="${DATA_ID}">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>`;

// Where the explorable's drawing goes: the line the page shows until its script has run.
const EXPLORABLE_SLOT = '<p class="rl-loading">Loading the retry engine…</p>';

// The page's HTML with its slots filled, the explorable drawn (`explorable`, if given) and the
// data block before </body>. A slot that names no step, or a fact its step's result does not
// have, stops the build (a bug in the page); so does a page with no place for the explorable.
export function fillPage(html, { results, data, explorable = null }) {
  const facts = {};
  const missing = [];
  let out = html.replace(FACT_SLOT, (whole, tag, attrs) => {
    const step = attrOf(attrs, 'data-story');
    const fact = attrOf(attrs, 'data-fact');
    if (!results[step]) {
      missing.push(`${step}: ${fact}`);
      return whole;
    }
    facts[step] ||= factsOf(results[step]);
    const text = formatFact(facts[step], fact, attrOf(attrs, 'data-format'));
    if (text === null) {
      missing.push(`${step}: ${fact}`);
      return whole;
    }
    return `<${tag}${attrs}>${escapeText(text)}</${tag}>`;
  });
  if (missing.length) throw new Error(`prerender: ${missing.length} fact slots could not be filled: ${missing.join(', ')}`);
  out = out.replace(VERSION_SLOT, (whole, tag, attrs) => `<${tag}${attrs}>${escapeText(data.version)}</${tag}>`);
  if (explorable !== null) {
    if (out.split(EXPLORABLE_SLOT).length !== 2) throw new Error(`prerender: the page has no single ${EXPLORABLE_SLOT} to draw the explorable in`);
    out = out.replace(EXPLORABLE_SLOT, () => explorable);
  }
  if (!out.includes('</body>')) throw new Error('prerender: the page has no </body> to put its data before');
  return out.replace('</body>', `${dataBlock(data)}\n</body>`);
}

// The data block a page carries, parsed; null if it has none.
export function readDataBlock(html) {
  const found = html.match(new RegExp(`<script type="application/json" id="${DATA_ID}">([^<]*)</script>`));
  return found ? JSON.parse(found[1]) : null;
}
