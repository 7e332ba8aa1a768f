// The opening page, prerendered by the build with the engine it ships (issue 18): the engine
// file is not on the opening page, so what its first screen shows is computed here, in node,
// by the very file copied to dist/ (web/build.mjs), and written into dist/index.html:
//   - every number the article quotes (the `data-story`/`data-fact` slots, web/story.js),
//     straight into the HTML text, and the engine's version (`data-engine-version`);
//   - a data block, <script type="application/json" id="rl-prerendered">, which the page's
//     script reads instead of calling the engine: the opening run (compute({})), the engine's
//     table of its inputs (schema(), the link format) and its version. (A "Try it" computes
//     its step with the engine, which it loads first: explorable/steps.js.)
// tests/node/page/prerender.test.js recomputes all of it from dist/'s engine and finds the
// same in dist/index.html; the page checks the opening run again when its engine arrives.

import { STORY, factsOf, formatFact } from './story.js';

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
  return { results, data };
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

// The page's HTML with its slots filled and the data block before </body>. A slot that names
// no step, or a fact its step's result does not have, stops the build (a bug in the page).
export function fillPage(html, { results, data }) {
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
  if (!out.includes('</body>')) throw new Error('prerender: the page has no </body> to put its data before');
  return out.replace('</body>', `${dataBlock(data)}\n</body>`);
}

// The data block a page carries, parsed; null if it has none.
export function readDataBlock(html) {
  const found = html.match(new RegExp(`<script type="application/json" id="${DATA_ID}">([^<]*)</script>`));
  return found ? JSON.parse(found[1]) : null;
}
