// The link format: every engine input as text, for the URL's hash and for the custom
// element's attributes. Pure and DOM-free. Version 1 reads
//
//   #v=1&maxRetries=0&idempotencyKey=true&retryOn=timeout,5xx&deadlineMs=none
//
// Only inputs that differ from their defaults are written; a key left out means its
// default (SPEC §2 and docs/engine.md, pinned below and checked against the engine by the
// tests, so a change of default shows up as a failing test and a new version, not as old
// links that silently mean something else). The README documents the format for people who
// write links by hand.
//
// Nothing here interprets a value beyond its type: whether a value is allowed is the
// engine's call (see accept.js), so the page and the link never disagree about bounds.

export const LINK_VERSION = 1;

// Every engine input, in the order links are written, with how its value is written.
//   number: decimal text, `none` for null     boolean: true or false
//   string: the text                          numbers, strings: items joined by commas
//   script: entries joined by commas, each entry's parts joined by "~" (see parseScript)
export const FIELDS = [
  ['scenario', 'string'], ['script', 'script'], ['operation', 'string'], ['operationId', 'string'],
  ['maxRetries', 'number'], ['baseBackoffMs', 'number'], ['backoffMultiplier', 'number'],
  ['maxBackoffMs', 'number'], ['jitter', 'string'], ['jitterLow', 'number'], ['jitterHigh', 'number'],
  ['draws', 'numbers'], ['seed', 'number'], ['clientTimeoutMs', 'number'], ['deadlineMs', 'number'],
  ['waitBudgetMs', 'number'], ['responseMs', 'number'], ['idempotencyKey', 'boolean'],
  ['retryOn', 'strings'], ['retryWritesWithoutKey', 'boolean'], ['honourRetryAfter', 'boolean'],
  ['startDate', 'string'], ['callers', 'number'], ['firstRetryImmediate', 'boolean'],
  ['minBackoffMs', 'number'], ['ceilingScheduleMs', 'numbers'], ['retryOnStatuses', 'numbers'],
  ['retryAfterStatuses', 'numbers'], ['retryAfterMode', 'string'], ['retryAfterMaxMs', 'number'],
];
const TYPES = new Map(FIELDS);
export const FIELD_NAMES = FIELDS.map(([name]) => name);

// The defaults a v=1 link leaves out. `script` has none (it comes with scenario "script");
// jitterLow and jitterHigh are 0 and 1 under jitter "proportional".
export const DEFAULTS_V1 = Object.freeze({
  scenario: 'response-lost', operation: 'charge', operationId: 'op-0001', maxRetries: 3,
  baseBackoffMs: 500, backoffMultiplier: 2, maxBackoffMs: null, jitter: 'none', jitterLow: 0,
  jitterHigh: 1, draws: [], seed: 1, clientTimeoutMs: 3000, deadlineMs: 10000,
  waitBudgetMs: null, responseMs: 200, idempotencyKey: false, retryOn: ['timeout', '5xx'],
  retryWritesWithoutKey: true, honourRetryAfter: true, startDate: 'Sun, 29 Nov 2026 10:00:00 GMT',
  callers: 1, firstRetryImmediate: false, minBackoffMs: 0, ceilingScheduleMs: [],
  retryOnStatuses: [], retryAfterStatuses: [], retryAfterMode: 'replace', retryAfterMaxMs: null,
});

// A hash of more than this is not read at all (the engine's own limits are far below it).
export const MAX_LINK_LENGTH = 2_000_000;

// --- writing -------------------------------------------------------------------------------

// encodeURIComponent leaves ! ' ( ) * ~ alone; "~" separates a script entry's parts, and the
// rest are escaped too so a link survives being pasted into Markdown or a chat.
export const escapeText = (text) => encodeURIComponent(String(text)).replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

// String(n) is the shortest text that reads back as exactly n (3700, 0.1, 1e-7).
const numberText = (n) => (n === null ? 'none' : String(Object.is(n, -0) ? 0 : n));

function scriptText(script) {
  return script.map((entry) => {
    const parts = [];
    if (entry.status !== undefined) parts.push(String(entry.status));
    if (entry.dropped) parts.push('dropped');
    if (entry.lost) parts.push('lost');
    if (entry.retryAfter !== undefined) parts.push(`ra:${escapeText(entry.retryAfter)}`);
    if (entry.date !== undefined) parts.push(`date:${escapeText(entry.date)}`);
    return parts.join('~');
  }).join(',');
}

// The text of one input's value, as a link or an attribute carries it.
export function valueText(name, value) {
  switch (TYPES.get(name)) {
    case 'number': return numberText(value);
    case 'boolean': return value ? 'true' : 'false';
    case 'string': return escapeText(value);
    case 'numbers': return value.map(numberText).join(',');
    case 'strings': return value.map(escapeText).join(',');
    case 'script': return scriptText(value);
    default: throw new Error(`not an engine input: ${name}`);
  }
}

// Does one input hold the same value in two sets (numbers, -0 and 0 alike; lists and script
// entries item by item)?
export function sameInputValue(a, b) {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameInputValue(x, b[i]));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') { // a script entry
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && sameInputValue(a[k], b[k]));
  }
  return Object.is(a, b) || (a === 0 && b === 0);
}

// Do two full sets of inputs (compute()'s echoes) hold the same value for every input?
export const sameInputs = (a, b) => FIELD_NAMES.every((name) => (name in a) === (name in b) && (!(name in a) || sameInputValue(a[name], b[name])));

// The hash (without "#") for a full set of inputs, such as compute()'s `inputs` echo, and
// the page's own keys that are not engine inputs (`trace`: the policy trace on show, right
// after the version; null values are left out).
export function encodeLink(inputs, page = {}) {
  const parts = [`v=${LINK_VERSION}`];
  for (const [key, value] of Object.entries(page)) {
    if (value !== null && value !== undefined) parts.push(`${escapeText(key)}=${escapeText(value)}`);
  }
  for (const name of FIELD_NAMES) {
    if (!(name in inputs) || inputs[name] === undefined) continue;
    if (name in DEFAULTS_V1 && sameInputValue(inputs[name], DEFAULTS_V1[name])) continue;
    parts.push(`${name}=${valueText(name, inputs[name])}`);
  }
  return parts.join('&');
}

// --- reading -------------------------------------------------------------------------------

// A problem is { key, value, reason }: what the reader wrote and why it was not used.
const problem = (key, value, reason) => ({ key, value, reason });

class Unreadable extends Error {}

function decode(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new Unreadable('has a broken %-escape');
  }
}

// Decimal numbers only: no hex, no "Infinity", no empty text read as 0. A number too big
// for a double reads as Infinity, which the engine then refuses by name.
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

function readNumber(text, nullable) {
  if (nullable && text === 'none') return null;
  if (!NUMBER.test(text)) throw new Unreadable(nullable ? 'is not a number (or none)' : 'is not a number');
  return Number(text);
}

const list = (raw) => (raw === '' ? [] : raw.split(','));

// A script: `200~lost,200` (the opening run), `dropped,200`, `429~ra:2,503,503,200`,
// `429~date:Sun%2C%2029%20Nov%202026%2010%3A00%3A00%20GMT~ra:7`. Each entry is a status and
// any of `lost`, `dropped`, `ra:<Retry-After>` and `date:<Date>`, in any order.
export function parseScript(raw) {
  return list(raw).map((entryText, i) => {
    const entry = {};
    const seen = new Set();
    for (const part of entryText.split('~')) {
      const colon = part.indexOf(':');
      const name = colon === -1 ? (/^\d+$/.test(part) ? 'status' : part) : part.slice(0, colon);
      if (seen.has(name)) throw new Unreadable(`entry ${i + 1} says ${name} twice`);
      seen.add(name);
      if (name === 'status') entry.status = Number(part);
      else if (name === 'lost' || name === 'dropped') entry[name] = true;
      else if (name === 'ra' && colon !== -1) entry.retryAfter = decode(part.slice(colon + 1));
      else if (name === 'date' && colon !== -1) entry.date = decode(part.slice(colon + 1));
      else throw new Unreadable(`entry ${i + 1} has a part that is not a status, lost, dropped, ra: or date: (${decode(part) || 'empty'})`);
    }
    return entry;
  });
}

// The typed value of one input from its text (still %-escaped). Throws Unreadable.
function readValue(name, raw) {
  switch (TYPES.get(name)) {
    case 'number': return readNumber(decode(raw), true);
    case 'boolean': {
      const text = decode(raw);
      if (text === 'true' || text === '') return true; // a bare key reads as true
      if (text === 'false') return false;
      throw new Unreadable('is not true or false');
    }
    case 'string': return decode(raw);
    case 'numbers': return list(raw).map((item) => readNumber(decode(item), false));
    case 'strings': return list(raw).map(decode);
    case 'script': return parseScript(raw);
    default: throw new Unreadable('is not an input of the engine');
  }
}

// Typed inputs from [key, raw value] pairs (keys already plain text). Keys that are not
// inputs, said twice, or whose value cannot be read are left out and reported; the
// inputs object only ever holds known field names (no "__proto__" can reach it).
export function readPairs(pairs) {
  const inputs = {};
  const texts = {}; // each read input's text as written, to name it in a notice
  const problems = [];
  const counts = new Map();
  for (const [key] of pairs) counts.set(key, (counts.get(key) || 0) + 1);
  const reported = new Set();
  for (const [key, raw] of pairs) {
    if (!TYPES.has(key)) {
      problems.push(problem(key, safeDecode(raw), 'is not an input of the engine'));
      continue;
    }
    if (counts.get(key) > 1) {
      if (!reported.has(key)) problems.push(problem(key, safeDecode(raw), 'is given more than once'));
      reported.add(key);
      continue;
    }
    try {
      inputs[key] = readValue(key, raw);
      texts[key] = safeDecode(raw);
    } catch (error) {
      if (!(error instanceof Unreadable)) throw error;
      problems.push(problem(key, safeDecode(raw), error.message));
    }
  }
  return { inputs, texts, problems };
}

function safeDecode(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

// Is this hash a link to a run? "#experiment" is an anchor on the page, not a link: a link
// has at least one "key=value".
export function isLink(hash) {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  return text.includes('=');
}

// A hash ("#v=1&...", or without the "#") to { version, inputs, page, problems }. `v` may be
// left out by someone writing a link by hand: it then means 1. `pageKeys`: the keys the page
// reads itself (such as `trace`); their text goes to `page`, for the page to judge.
export function parseLink(hash, { pageKeys = [] } = {}) {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  if (text.length > MAX_LINK_LENGTH) {
    return { version: null, inputs: {}, page: {}, problems: [problem('link', `${text.slice(0, 40)}…`, `is ${text.length.toLocaleString('en-US')} characters long, more than this page reads`)] };
  }
  const pairs = [];
  const problems = [];
  const page = {};
  const twice = new Set();
  let version = LINK_VERSION;
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawKey = eq === -1 ? part : part.slice(0, eq);
    const raw = eq === -1 ? '' : part.slice(eq + 1);
    const key = safeDecode(rawKey);
    if (key === 'v') {
      version = safeDecode(raw);
    } else if (pageKeys.includes(key)) {
      if (key in page && !twice.has(key)) problems.push(problem(key, safeDecode(raw), 'is given more than once'));
      if (key in page) twice.add(key);
      page[key] = safeDecode(raw);
    } else {
      pairs.push([key, raw]);
    }
  }
  if (String(version) !== String(LINK_VERSION)) {
    return { version, inputs: {}, page: {}, problems: [problem('v', String(version), `is a link format this page does not read (it reads v=${LINK_VERSION})`)] };
  }
  for (const key of twice) delete page[key];
  const read = readPairs(pairs);
  return { version: LINK_VERSION, inputs: read.inputs, texts: read.texts, page, problems: [...problems, ...read.problems] };
}

// --- attributes ----------------------------------------------------------------------------

// <retry-lab max-retries="0" idempotency-key> : the kebab-case of each input's name.
export const attributeName = (field) => field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
export const ATTRIBUTES = FIELD_NAMES.map(attributeName);
const FIELD_OF_ATTRIBUTE = new Map(FIELD_NAMES.map((f) => [attributeName(f), f]));
export const fieldOfAttribute = (attribute) => FIELD_OF_ATTRIBUTE.get(attribute);

// HTML lowercases attribute names, so maxRetries="3" arrives as "maxretries": say which
// name was meant.
export function attributeHint(attribute) {
  const field = FIELD_NAMES.find((f) => f.toLowerCase() === attribute.toLowerCase().replace(/-/g, ''));
  return field ? `is not an attribute of <retry-lab>; did you mean ${attributeName(field)}?` : 'is not an attribute of <retry-lab>';
}
