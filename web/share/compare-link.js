// A link that holds two runs, before and after (issue 17; one
// format with codec.js's single-run links, docs/compare.md):
//
//   #v=1&view=compare&client=urllib3&after.maxRetries=10
//
// Keys without a prefix are the before run (and the scenario both share); `after.<name>` keys
// are what the after side changes. `client=<preset id>` sets every policy field of a preset
// (web/clients/presets.js) on both sides, `after.client=` on the after side only; a side's own
// keys win over its preset. An input that depends on another (its onlyWhen rule: `script` on
// `scenario`, `jitterLow` on `jitter`) and that a side did not give itself is left out where
// the side no longer meets the rule, so a preset's jitter bounds do not outlive its jitter.
//
// Pure and DOM-free. retrysim reads the same links by the same rules, in C++ from the same
// table (bindings/cli/link.cpp, compare.cpp): tests/node/link-cli.test.js holds the two to it.

import { FORMAT, VERSION_PAIR, escapeText, linkParts, sameInputValue, say } from './codec.js';
import { acceptInputs } from './accept.js';

export const AFTER = FORMAT.after;
// The keys of a link that are not engine inputs: the page's own (codec's page keys) and the
// comparison's (link-format.json, which retrysim reads too).
export const COMPARE_KEYS = FORMAT.compareKeys;
const PAGE_KEYS = FORMAT.pageKeys;

const problem = (key, value, reason) => ({ key, value, reason });
function safeDecode(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

// Does a hash open the compare view? (`view=compare` among its pairs.)
export function isCompareLink(hash) {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  return text.split(FORMAT.pairs).some((part) => part === 'view=compare');
}

// A compare link to { read, client, afterClient, before, after, problems }: `before` and
// `after` are each side's own typed keys (codec.readPairs), `problems` the page's
// { key, value, reason } (after keys named with their prefix).
export function parseCompareLink(hash, codec) {
  const parts = linkParts(hash, [...PAGE_KEYS, ...COMPARE_KEYS]);
  if (parts.unread) return { read: false, client: '', afterClient: '', before: {}, after: {}, texts: {}, problems: [parts.unread] };
  const { pairs, page, problems } = parts;
  for (const key of PAGE_KEYS) if (key in page) problems.push(problem(key, page[key], say('singleRunOnly')));
  if (page.view !== 'compare') problems.push(problem('view', page.view || '', 'is not compare'));
  if ('of' in page) {
    problems.push(problem('of', page.of, page.of === 'fleet' ? 'is a comparison of fleet runs, which this view does not draw (Retry Lab\'s page does: open the link there)' : say('notCompared')));
  }
  const beforePairs = pairs.filter(([key]) => !key.startsWith(AFTER));
  const afterPairs = pairs.filter(([key]) => key.startsWith(AFTER)).map(([key, raw]) => [key.slice(AFTER.length), raw]);
  const before = codec.readPairs(beforePairs);
  const after = codec.readPairs(afterPairs);
  return {
    read: true,
    client: page.client || '',
    afterClient: page['after.client'] || '',
    before: before.inputs,
    after: after.inputs,
    texts: { ...before.texts, ...Object.fromEntries(Object.entries(after.texts).map(([k, v]) => [AFTER + k, v])) },
    problems: [...problems, ...before.problems, ...after.problems.map((p) => ({ ...p, key: AFTER + p.key }))],
  };
}

// The schema's presence rules: { input: { field, value } }.
const onlyWhenOf = (schema) => Object.fromEntries(schema.inputs.filter((row) => row.onlyWhen).map((row) => [row.name, row.onlyWhen]));

// Leaves out each input `own` did not give whose onlyWhen rule `inputs` no longer meet.
function dropStranded(inputs, own, schema, codec) {
  const out = { ...inputs };
  for (const [name, rule] of Object.entries(onlyWhenOf(schema))) {
    if (!(name in out) || name in own) continue;
    const sibling = rule.field in out ? out[rule.field] : codec.defaults[rule.field];
    if (!sameInputValue(sibling, rule.value)) delete out[name];
  }
  return out;
}

// Each side's inputs (not yet judged by the engine): { before, after, client, afterClient,
// problems }. `presetById(id)` → { inputs } or null (web/clients/presets.js).
export function sidesOf(parsed, { schema, codec, presetById }) {
  const problems = [];
  const preset = (key, id) => {
    if (!id) return null;
    const found = presetById(id);
    if (!found) problems.push(problem(key, id, 'is not one of the presets'));
    return found;
  };
  const beforePreset = preset('client', parsed.client);
  const afterPreset = preset('after.client', parsed.afterClient);
  const client = beforePreset ? parsed.client : '';
  const before = dropStranded({ ...(beforePreset ? beforePreset.inputs : {}), ...parsed.before }, parsed.before, schema, codec);
  const after = dropStranded({ ...before, ...(afterPreset ? afterPreset.inputs : {}), ...parsed.after }, parsed.after, schema, codec);
  return { before, after, client, afterClient: afterPreset ? parsed.afterClient : client, problems };
}

// A compare link read and judged as the page shows it: each side's accepted inputs and run
// (accept.js: a value the engine refuses falls back, and is named), and every problem.
// `engine`: { codec, schema, validate, compute }.
export function readCompareLink(hash, engine, { presetById }) {
  const parsed = parseCompareLink(hash, engine.codec);
  const sides = sidesOf(parsed, { schema: engine.schema, codec: engine.codec, presetById });
  const before = acceptInputs(sides.before, engine);
  const after = acceptInputs(sides.after, engine);
  const asWritten = (p, prefix) => {
    const key = prefix + p.key;
    return parsed.texts && key in parsed.texts ? { ...p, key, value: parsed.texts[key] } : { ...p, key };
  };
  const beforeKeys = new Set(before.problems.map((p) => p.key));
  return {
    before: { inputs: before.inputs, result: before.result, client: sides.client },
    after: { inputs: after.inputs, result: after.result, client: sides.afterClient },
    problems: [
      ...parsed.problems, ...sides.problems,
      ...before.problems.map((p) => asWritten(p, '')),
      ...after.problems.filter((p) => !beforeKeys.has(p.key)).map((p) => asWritten(p, AFTER)),
    ],
  };
}

// The link for two runs (their `inputs` echoes) and the presets they start from: the before
// side's keys against the defaults (or its preset's run), then `after.` keys where the after
// side differs from the before side (under the after preset). retrysim writes the same link
// (bindings/cli/compare.cpp). `compute`: the engine's, to run a preset alone.
export function encodeCompareLink(beforeEcho, afterEcho, { client = '', afterClient = client, codec, compute, presetById }) {
  const parts = [VERSION_PAIR, 'view=compare'];
  if (client) parts.push(`client=${escapeText(client)}`);
  if (afterClient && afterClient !== client) parts.push(`after.client=${escapeText(afterClient)}`);
  // An input an echo leaves out is at its default (layers and hedging are echoed only when
  // given), unless it has none or depends on another input (the script, a proportional
  // jitter's bounds): then it is not there.
  const valueIn = (echo, name) => (name in echo ? echo[name] : name in codec.defaults && !(name in codec.dependsOn) ? codec.defaults[name] : undefined);
  const base = client ? compute(presetById(client).inputs).inputs : codec.defaults;
  for (const name of codec.fieldNames) {
    const value = valueIn(beforeEcho, name);
    const from = valueIn(base, name);
    if (value === undefined || (from !== undefined && sameInputValue(value, from))) continue;
    parts.push(`${name}=${codec.valueText(name, value)}`);
  }
  const afterBase = afterClient && afterClient !== client ? { ...beforeEcho, ...presetById(afterClient).inputs } : beforeEcho;
  for (const name of codec.fieldNames) {
    const value = valueIn(afterEcho, name);
    const from = valueIn(afterBase, name);
    if (value === undefined || (from !== undefined && sameInputValue(value, from))) continue;
    parts.push(`${AFTER}${name}=${codec.valueText(name, value)}`);
  }
  return parts.join(FORMAT.pairs);
}

// <retry-lab view="compare">'s attributes as a compare link (docs/compare.md §3). `link` holds
// a compare link as the page writes it (a whole address or its hash); every other attribute is
// an input of the before side in kebab-case (the single-run element's attributes), `after-` and
// an input's attribute the after side's, `client` and `after-client` the presets. Both may be
// given: an attribute overrides the link's key for the same input (as <retry-lab view="fleet">'s
// attributes override its link). { hash, names, problems }: `names` maps each link key the attributes wrote to its
// attribute name (so a notice names what the page's author wrote); `problems`, the attributes
// that are not inputs. `ignored(name)`: the element's own attributes (theme, id, data-…).
export function compareLinkOfAttributes(attributes, codec, ignored) {
  return attributesAsCompareLink(attributes, ignored, {
    keyOf: (own) => (own === 'client' ? 'client' : codec.fieldOfAttribute(own)),
    hintOf: (own, after) => codec.attributeHint(own).replace(/did you mean (\S+)\?$/, (m, x) => `did you mean ${after ? 'after-' : ''}${x}?`),
    marks: ['view=compare'],
    notOne: 'is not a comparison link (it has no view=compare)',
  });
}

// The reading both kinds of <retry-lab view="compare"> share (single runs above; two fleet
// runs in compare/fleet.js): `keyOf(own)` the link key an attribute (without `after-`) names,
// or none; `hintOf(own, after)` why one is not; `marks` the link's keys that say what it is
// (`view=compare`, `of=fleet`), added where `link` lacks them; `notOne` the problem of a `link`
// without the last of them. The attributes `view` and `of` say what the element is.
export function attributesAsCompareLink(attributes, ignored, { keyOf, hintOf, marks, notOne }) {
  const parts = [];
  const names = new Map();
  const problems = [];
  let link = '';
  for (const { name, value } of attributes) {
    if (name === 'view' || name === 'of' || ignored(name)) continue;
    if (name === 'link') {
      link = value;
      continue;
    }
    const after = name.startsWith('after-');
    const own = after ? name.slice('after-'.length) : name;
    const field = keyOf(own);
    if (!field) {
      problems.push(problem(name, value, hintOf(own, after)));
      continue;
    }
    const key = (after ? AFTER : '') + field;
    names.set(key, name);
    parts.push(`${key}=${String(value).replace(/[&#%]/g, (c) => encodeURIComponent(c))}`);
  }
  let head = [VERSION_PAIR, ...marks];
  if (link) {
    const text = link.includes('#') ? link.slice(link.indexOf('#') + 1) : link;
    // An attribute overrides the link's key for the same input (as <retry-lab view="fleet">'s do).
    const own = text.split(FORMAT.pairs).filter(Boolean).filter((part) => !names.has(safeDecode(part.split(FORMAT.equals)[0])));
    if (!own.includes(marks[marks.length - 1])) problems.push(problem('link', link, notOne));
    head = [...(own.some((p) => p.startsWith(FORMAT.versionKey + FORMAT.equals)) ? [] : [VERSION_PAIR]), ...marks.filter((m) => !own.includes(m)), ...own];
  }
  return { hash: `#${[...head, ...parts].join(FORMAT.pairs)}`, names, problems };
}
