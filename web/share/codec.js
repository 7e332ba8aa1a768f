// The link format: every engine input as text, for the URL's hash and for the custom
// element's attributes. Pure and DOM-free. Version 1 reads
//
//   #v=1&maxRetries=0&idempotencyKey=true&retryOn=timeout,5xx&deadlineMs=none
//
// The inputs, how each is written and its default all come from the engine's own table
// (engine.schema(), docs/engine.md §4): `linkCodec(schema)` builds the format for it, so an
// input added to the table is carried by links and attributes with nothing written here. Only
// inputs that differ from their defaults are written; a key left out means its default. The
// defaults v=1 leaves out are pinned by the tests (tests/browser/share.test.js), so a change of
// default shows up as a failing test and a new version, not as old links that silently mean
// something else. The README documents the format for people who write links by hand.
//
// Nothing here interprets a value beyond its type: whether a value is allowed is the
// engine's call (see accept.js), so the page and the link never disagree about bounds.

import FORMAT from './link-format.json' with { type: 'json' };

// The format's facts (its version, length limit, separators, escapes, `none`, part names, decimal
// grammar and the words of every problem) are data, link-format.json, which retrysim reads too
// (bindings/cli/link.cpp): the rules below walk them.
export { FORMAT };
export const LINK_VERSION = FORMAT.version;
export const VERSION_PAIR = FORMAT.versionKey + FORMAT.equals + LINK_VERSION; // v=1
const { items: ITEM, parts: PART, named: NAMED, memberItems: MEMBER_ITEM, none: NONE } = FORMAT;

// A problem's words from the table, each {name} filled from `fill`, else from the table's own facts.
export const say = (word, fill = {}) => FORMAT.words[word].replace(/\{(\w+)\}/g, (m, name) => String(name in fill ? fill[name] : FORMAT[name]));
// An entry of a list, as a reason names it: "entry 2".
const entryName = (i) => say('entry', { n: i + 1 });

// How a value is written, from its row's type:
//   number: decimal text, `none` for null     boolean: true or false
//   string (also a choice, an HTTP-date): the text
//   numbers, strings (a list of those): items joined by commas
//   entries (a list of objects, such as the script): entries joined by commas, each entry's
//     parts joined by "~": its first number member bare, a true switch by its name, any other
//     member `name:value` (see readEntries)
//   a stack (a list of objects with a list among their members: layers, docs/layers.md): `none`
//     for null, else entries joined by commas, each entry's members `name:value` joined by
//     "~", a member's list items joined by ";" (see objectFormat)
//   a record (one object whose members are those of a stack's entry: hedging): `none` for null,
//     else one entry as a stack writes it (see recordFormat)
function kindOf(row) {
  switch (row.type) {
    case 'number': return 'number';
    case 'boolean': return 'boolean';
    case 'string': case 'choice': case 'http-date': return 'string';
    case 'list': {
      const item = row.items ? kindOf(row.items) : null;
      if (item === 'number') return 'numbers';
      if (item === 'string') return 'strings';
      // Entries are flat: each member a number, a switch or a text (the script). A list of
      // objects with a list of numbers or texts among its members (layers' retryOn) is a stack.
      if (row.items && row.items.type === 'object') {
        const kinds = (row.items.members || []).map(kindOf);
        if (kinds.every((k) => ['number', 'boolean', 'string'].includes(k))) return 'entries';
        return kinds.every((k) => ['number', 'boolean', 'string', 'numbers', 'strings'].includes(k)) ? 'stack' : null;
      }
      return null;
    }
    case 'object': {
      // One object whose members are each a number, a switch, a text or a list of those
      // (hedging) is a record; any other object, and a variant, is not in the v=1 format.
      const kinds = (row.members || []).map(kindOf);
      return kinds.every((k) => ['number', 'boolean', 'string', 'numbers', 'strings'].includes(k)) ? 'record' : null;
    }
    default: return null; // a variant input: not in the v=1 format
  }
}

// A hash of more than this is not read at all (the engine's own limits are far below it).
export const MAX_LINK_LENGTH = FORMAT.maxLength;

// A problem is { key, value, reason }: what the reader wrote and why it was not used.
const problem = (key, value, reason) => ({ key, value, reason });

// --- values, whatever the table -----------------------------------------------------------

// A regular expression's class of the characters of `chars`.
const charClass = (chars) => `[${chars.replace(/[\\\]^-]/g, '\\$&')}]`;

// encodeURIComponent leaves ! ' ( ) * ~ alone; "~" separates a script entry's parts, and the
// rest are escaped too so a link survives being pasted into Markdown or a chat (FORMAT.escaped).
const ESCAPED = new RegExp(charClass(FORMAT.escaped), 'g');
export const escapeText = (text) => encodeURIComponent(String(text)).replace(ESCAPED, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

// String(n) is the shortest text that reads back as exactly n (3700, 0.1, 1e-7).
const numberText = (n) => (n === null ? NONE : String(Object.is(n, -0) ? 0 : n));

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

// Do two sets of inputs (compute()'s echoes) hold the same inputs, each with the same value?
export function sameInputs(a, b) {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => k in b && sameInputValue(a[k], b[k]));
}

class Unreadable extends Error {}

// A run a link cannot be written for: `field` names the input the format has no form for.
export class LinkError extends Error {
  constructor(field, message) {
    super(message);
    this.name = 'LinkError';
    this.field = field;
  }
}

function decode(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new Unreadable(say('brokenEscape'));
  }
}

function safeDecode(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

// Decimal numbers only: no hex, no "Infinity", no empty text read as 0 (FORMAT.decimal: a sign,
// digits with a point, an exponent). A number too big for a double reads as Infinity, which the
// engine then refuses by name.
const { signs, point, exponent } = FORMAT.decimal;
const NUMBER = new RegExp(`^${charClass(signs)}?(\\d+${charClass(point)}?\\d*|${charClass(point)}\\d+)(${charClass(exponent)}${charClass(signs)}?\\d+)?$`);

function readNumber(text, nullable) {
  if (nullable && text === NONE) return null;
  if (!NUMBER.test(text)) throw new Unreadable(say(nullable ? 'notNumberOrNone' : 'notNumber'));
  return Number(text);
}

function readBoolean(text) {
  if (text === 'true' || text === '') return true; // a bare key reads as true
  if (text === 'false') return false;
  throw new Unreadable(say('notBoolean'));
}

const list = (raw) => (raw === '' ? [] : raw.split(ITEM));
const items = (text) => (text === '' ? [] : text.split(MEMBER_ITEM));
const shown = (part) => decode(part) || say('empty');

// Is this hash a link to a run? "#experiment" is an anchor on the page, not a link: a link
// has at least one "key=value".
export function isLink(hash) {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  // `view=compare` and `view=fleet` (README, "Links to a run") are those views' links, which
  // their own readers take (share/compare-link.js isCompareLink, fleet/model.js isFleetLink),
  // matched as they match them. Any other `view` is read here, as a single run's link, so that
  // the reader is told which key was not used rather than the link going unread.
  const parts = text.split(FORMAT.pairs);
  return text.includes(FORMAT.equals) && !OTHER_VIEWS.some((view) => parts.includes(`view${FORMAT.equals}${view}`));
}
export const OTHER_VIEWS = ['compare', 'fleet'];

// <retry-lab max-retries="0" idempotency-key> : the kebab-case of each input's name.
export const attributeName = (field) => field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

// --- the format for one table ---------------------------------------------------------------

// Entries (a script): `200~lost,200` (the opening run), `dropped,200`, `429~ra:2,503,503,200`,
// `429~date:Sun%2C%2029%20Nov%202026%2010%3A00%3A00%20GMT~ra:7`. Each entry is its first number
// member bare (the status), a true switch by name (`lost`, `dropped`), and any other member as
// `name:<text>` (`ra:` for retryAfter, `date:`), in any order.
function entryFormat(itemRow) {
  const members = itemRow.members || [];
  const bare = members.find((m) => m.type === 'number') || null;
  const switches = members.filter((m) => m.type === 'boolean');
  const named = members.filter((m) => m !== bare && m.type !== 'boolean');
  const partName = (m) => FORMAT.partNames[m.name] || m.name;
  const byPart = new Map(named.map((m) => [partName(m), m]));
  const partsList = [bare && say('bare'), ...switches.map((m) => m.name), ...named.map((m) => partName(m) + NAMED)].filter(Boolean);
  const said = partsList.length > 1 ? partsList.slice(0, -1).join(', ') + say('or') + partsList[partsList.length - 1] : partsList[0];
  return {
    write(entries) {
      return entries.map((entry) => {
        const parts = [];
        if (bare && entry[bare.name] !== undefined) parts.push(numberText(entry[bare.name]));
        for (const m of switches) if (entry[m.name]) parts.push(m.name);
        for (const m of named) {
          if (entry[m.name] === undefined) continue;
          parts.push(partName(m) + NAMED + (m.type === 'number' ? numberText(entry[m.name]) : escapeText(entry[m.name])));
        }
        return parts.join(PART);
      }).join(ITEM);
    },
    read(raw) {
      return list(raw).map((entryText, i) => {
        const entry = {};
        const seen = new Set();
        for (const part of entryText.split(PART)) {
          const colon = part.indexOf(NAMED);
          const isBare = colon === -1 && bare && /^\d+$/.test(part);
          const name = isBare ? bare.name : colon === -1 ? part : part.slice(0, colon);
          if (seen.has(name)) throw new Unreadable(say('entryTwice', { entry: entryName(i), name }));
          seen.add(name);
          const flag = colon === -1 ? switches.find((m) => m.name === part) : null;
          const member = colon !== -1 ? byPart.get(name) : null;
          if (isBare) entry[bare.name] = Number(part);
          else if (flag) entry[flag.name] = true;
          else if (member) entry[member.name] = member.type === 'number' ? readNumber(decode(part.slice(colon + 1)), false) : decode(part.slice(colon + 1));
          else throw new Unreadable(say('entryPart', { entry: entryName(i), parts: said, part: shown(part) }));
        }
        return entry;
      });
    },
  };
}

// One object as `name:value` members joined by "~" (README, "Links to a run"): a stack's entry
// (a layer) and a record (hedging) alike. Each member's text as a link writes the input of its
// kind, with ";" between a list's items (";" is always escaped inside a text, and no number's
// text holds it); an empty text is an object with nothing set. Written from a run (`inputs`, its
// echo), a member is left out when leaving it out gives the same value, as far as the table
// tells: equal to its own default, or, having none, to the run's input of the same name (a
// layer's absent policy field is the run's, docs/layers.md §2); without `inputs` only the first
// applies. `subject` names the object in a reason ("entry 2", or "" for the key itself).
function objectFormat(members) {
  const byName = new Map(members.map((m) => [m.name, m]));
  const memberText = (m, value) => {
    switch (kindOf(m)) {
      case 'number': return numberText(value);
      case 'boolean': return value ? 'true' : 'false';
      case 'string': return escapeText(value);
      case 'numbers': return value.map(numberText).join(MEMBER_ITEM);
      default: return value.map(escapeText).join(MEMBER_ITEM);
    }
  };
  const readMember = (m, text) => {
    switch (kindOf(m)) {
      case 'number': return readNumber(decode(text), true);
      case 'boolean': return readBoolean(decode(text));
      case 'string': return decode(text);
      case 'numbers': return items(text).map((item) => readNumber(decode(item), false));
      default: return items(text).map(decode);
    }
  };
  return {
    write(object, inputs = null) {
      return members.filter((m) => {
        if (object[m.name] === undefined) return false;
        if ('default' in m) return !sameInputValue(object[m.name], m.default);
        return !(inputs && Object.hasOwn(inputs, m.name) && sameInputValue(object[m.name], inputs[m.name]));
      }).map((m) => m.name + NAMED + memberText(m, object[m.name])).join(PART);
    },
    read(text, subject = '') {
      const object = {};
      const lead = subject ? `${subject} ` : '';
      if (text === '') return object;
      for (const part of text.split(PART)) {
        const colon = part.indexOf(NAMED);
        const member = colon === -1 ? null : byName.get(part.slice(0, colon));
        if (!member) throw new Unreadable(lead + say('objectPart', { part: shown(part) }));
        if (Object.hasOwn(object, member.name)) throw new Unreadable(lead + say('objectTwice', { name: member.name }));
        try {
          object[member.name] = readMember(member, part.slice(colon + 1));
        } catch (error) {
          if (error instanceof Unreadable) throw new Unreadable(`${subject ? say('whose', { entry: subject }) : say('its')} ${member.name} ${error.message}`);
          throw error;
        }
      }
      return object;
    },
  };
}

// A stack: `layers=none`, or `layers=name:agent~maxRetries:2~retryOn:timeout;5xx,name:SDK~key:mint`,
// its entries (objectFormat) joined by commas. The fleet link writes `policy.layers` the same way
// (fleet/model.js), from its own table's row: `stackFormatOf(row)`, null for a row that is no stack.
export const stackFormatOf = (row) => (row && kindOf(row) === 'stack' ? stackFormat(row.items) : null);
// Any list of objects written so (the fleet link's `faults` and `servers.overrides`, docs/servers.md §2,
// whose members are all flat: the single run's `entries`, written here as a stack's).
export const objectListFormatOf = (row) => (row && ['stack', 'entries'].includes(kindOf(row)) && row.items.type === 'object' ? stackFormat(row.items) : null);
function stackFormat(itemRow) {
  const entry = objectFormat(itemRow.members || []);
  return {
    write: (stack, inputs = null) => (stack === null ? NONE : stack.map((e) => entry.write(e, inputs)).join(ITEM)),
    read: (raw) => (raw === NONE ? null : list(raw).map((text, i) => entry.read(text, entryName(i)))),
  };
}

// A record (one object input: hedging): `hedging=none`, or its members as one objectFormat,
// `hedging=maxAttempts:4~delayMs:500~nonFatal:429;5xx`. Its members are not the run's inputs, so
// only their own defaults are left out.
function recordFormat(row) {
  const object = objectFormat(row.members || []);
  return {
    write: (value) => (value === null ? NONE : object.write(value)),
    read: (raw) => (raw === NONE ? null : object.read(raw)),
  };
}

// The names of the inputs a run holds that the table has and v=1 has no form for (`servers`,
// whose overrides' scripts are lists inside a list, docs/servers.md §2), each held at other than
// its default: a link written without them would open another run (issue 39).
function uncarriedIn(allRows) {
  const left = allRows.filter((row) => kindOf(row) === null);
  return (inputs) => left.filter((row) => inputs[row.name] !== undefined
    && !('default' in row && sameInputValue(inputs[row.name], row.default))).map((row) => row.name);
}
function refuseUncarried(names) {
  if (names.length > 0) throw new LinkError(names[0], `${names[0]} ${say('uncarried')}, so this run has no link`);
}

// HTML lowercases attribute names, so maxRetries="3" arrives as "maxretries": say which name
// was meant.
const attributeHintOf = (fieldNames) => (attribute) => {
  const field = fieldNames.find((f) => f.toLowerCase() === attribute.toLowerCase().replace(/-/g, ''));
  return field ? `is not an attribute of <retry-lab>; did you mean ${attributeName(field)}?` : 'is not an attribute of <retry-lab>';
};

// Each input's text from its value, and its value from its text, by its row's kind.
function valueFormats(rows) {
  const kinds = new Map(rows.map((row) => [row.name, kindOf(row)]));
  const entries = new Map(rows.filter((row) => kinds.get(row.name) === 'entries').map((row) => [row.name, entryFormat(row.items)]));
  const stacks = new Map(rows.filter((row) => kinds.get(row.name) === 'stack').map((row) => [row.name, stackFormat(row.items)]));
  const records = new Map(rows.filter((row) => kinds.get(row.name) === 'record').map((row) => [row.name, recordFormat(row)]));
  // The text of one input's value, as a link or an attribute carries it; `inputs`, the run it
  // belongs to, lets a stack leave out what it would take from the run (stackFormat).
  function valueText(name, value, inputs = null) {
    switch (kinds.get(name)) {
      case 'number': return numberText(value);
      case 'boolean': return value ? 'true' : 'false';
      case 'string': return escapeText(value);
      case 'numbers': return value.map(numberText).join(ITEM);
      case 'strings': return value.map(escapeText).join(ITEM);
      case 'entries': return entries.get(name).write(value);
      case 'stack': return stacks.get(name).write(value, inputs);
      case 'record': return records.get(name).write(value);
      default: throw new Error(`not an engine input: ${name}`);
    }
  }
  // The typed value of one input from its text (still %-escaped). Throws Unreadable.
  function readValue(name, raw) {
    switch (kinds.get(name)) {
      case 'number': return readNumber(decode(raw), true);
      case 'boolean': return readBoolean(decode(raw));
      case 'string': return decode(raw);
      case 'numbers': return list(raw).map((item) => readNumber(decode(item), false));
      case 'strings': return list(raw).map(decode);
      case 'entries': return entries.get(name).read(raw);
      case 'stack': return stacks.get(name).read(raw);
      case 'record': return records.get(name).read(raw);
      default: throw new Unreadable(say('notInput'));
    }
  }
  return { valueText, readValue };
}

// The page reads a link's words as "this page" (retrysim: "retrysim").
const READER = 'this page';

// A hash ("#v=1&...", or without the "#") as its parts: `pairs`, [key, raw value] (keys decoded,
// values still %-escaped), `page`, the text of each of `pageKeys` (the keys the page reads
// itself, such as `trace`, or a comparison's), and `problems`. A key given more than once is not
// taken (readPairs' one rule); for `v` that leaves no version to read the link by, so nothing of
// it is read: then { version, unread } instead, as for a link too long or of another version.
// `v` may be left out by someone writing a link by hand: it then means 1.
export function linkParts(hash, pageKeys) {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  if (text.length > MAX_LINK_LENGTH) {
    return { version: null, unread: problem('link', `${text.slice(0, 40)}…`, say('tooLong', { length: text.length.toLocaleString('en-US'), reader: READER })) };
  }
  const pairs = [];
  const problems = [];
  const page = {};
  const twice = new Set();
  let version = LINK_VERSION;
  let versions = 0;
  for (const part of text.split(FORMAT.pairs)) {
    if (part === '') continue;
    const eq = part.indexOf(FORMAT.equals);
    const key = safeDecode(eq === -1 ? part : part.slice(0, eq));
    const raw = eq === -1 ? '' : part.slice(eq + 1);
    if (key === FORMAT.versionKey) {
      version = safeDecode(raw);
      versions += 1;
    } else if (pageKeys.includes(key)) {
      if (key in page && !twice.has(key)) problems.push(problem(key, safeDecode(raw), say('givenTwice')));
      if (key in page) twice.add(key);
      page[key] = safeDecode(raw);
    } else {
      pairs.push([key, raw]);
    }
  }
  if (versions > 1) return { version: null, unread: problem(FORMAT.versionKey, version, say('versionTwice')) };
  if (version !== LINK_VERSION) return { version, unread: problem(FORMAT.versionKey, version, say('otherVersion', { reader: READER })) };
  for (const key of twice) delete page[key];
  return { version, pairs, page, problems };
}

// Typed inputs from a link's pairs, and the whole link read (parseLink), by one table's kinds.
function readerOf(kinds, engineNames, readValue) {
  // Typed inputs from [key, raw value] pairs (keys already plain text). Keys that are not
  // inputs, said twice, or whose value cannot be read are left out and reported; the
  // inputs object only ever holds known field names (no "__proto__" can reach it).
  function readPairs(pairs) {
    const inputs = {};
    const texts = {}; // each read input's text as written, to name it in a notice
    const problems = [];
    const counts = new Map();
    for (const [key] of pairs) counts.set(key, (counts.get(key) || 0) + 1);
    const reported = new Set();
    for (const [key, raw] of pairs) {
      if (!kinds.has(key)) {
        // An input the v=1 format has no form for is named as such, not as unknown.
        problems.push(problem(key, safeDecode(raw), say(engineNames.has(key) ? 'uncarried' : 'notInput')));
        continue;
      }
      if (counts.get(key) > 1) {
        if (!reported.has(key)) problems.push(problem(key, safeDecode(raw), say('givenTwice')));
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
  // A hash to { version, inputs, texts, page, problems } (linkParts, then readPairs).
  function parseLink(hash, { pageKeys = [] } = {}) {
    const parts = linkParts(hash, pageKeys);
    if (parts.unread) return { version: parts.version, inputs: {}, page: {}, problems: [parts.unread] };
    const read = readPairs(parts.pairs);
    return { version: LINK_VERSION, inputs: read.inputs, texts: read.texts, page: parts.page, problems: [...parts.problems, ...read.problems] };
  }
  return { readPairs, parseLink };
}

// The link format for a schema() answer ({ inputs: [row...] }, docs/engine.md §4): the names,
// kinds and defaults of its inputs, in the table's order, which is the order links are written.
// One format per schema object.
const formats = new WeakMap();
export function linkCodec(schema) {
  if (formats.has(schema)) return formats.get(schema);
  const allRows = schema && Array.isArray(schema.inputs) ? schema.inputs : [];
  const engineNames = new Set(allRows.map((row) => row.name));
  const rows = allRows.filter((row) => kindOf(row) !== null);
  const kinds = new Map(rows.map((row) => [row.name, kindOf(row)]));
  const fieldNames = rows.map((row) => row.name);
  const uncarried = uncarriedIn(allRows);
  // The defaults a link leaves out; an input with none (the script) is always written.
  const defaults = Object.freeze(Object.fromEntries(rows.filter((row) => 'default' in row).map((row) => [row.name, row.default])));

  const { valueText, readValue } = valueFormats(rows);
  const { readPairs, parseLink } = readerOf(kinds, engineNames, readValue);

  // The hash (without "#") for a full set of inputs, such as compute()'s `inputs` echo, and
  // the page's own keys that are not engine inputs (`trace`: the policy trace on show, right
  // after the version; null values are left out). A run holding an input the format cannot
  // carry (uncarried) has no link: a LinkError naming that input, never a link without it.
  function encodeLink(inputs, page = {}) {
    refuseUncarried(uncarried(inputs));
    const parts = [VERSION_PAIR];
    for (const [key, value] of Object.entries(page)) {
      if (value !== null && value !== undefined) parts.push(escapeText(key) + FORMAT.equals + escapeText(value));
    }
    for (const name of fieldNames) {
      if (!(name in inputs) || inputs[name] === undefined) continue;
      if (name in defaults && sameInputValue(inputs[name], defaults[name])) continue;
      parts.push(name + FORMAT.equals + valueText(name, inputs[name], inputs));
    }
    return parts.join(FORMAT.pairs);
  }

  // <retry-lab>'s attributes: each input's name in kebab-case.
  const attributes = fieldNames.map(attributeName);
  const fieldOfAttributeMap = new Map(fieldNames.map((f) => [attributeName(f), f]));

  // The input each one given only with another's value depends on (its onlyWhen rule):
  // `script` on `scenario`, `jitterLow` on `jitter`.
  const dependsOn = Object.freeze(Object.fromEntries(rows.filter((row) => row.onlyWhen).map((row) => [row.name, row.onlyWhen.field])));

  const codec = Object.freeze({
    fieldNames: Object.freeze(fieldNames),
    defaults,
    dependsOn,
    isInput: (name) => kinds.has(name),
    valueText,
    encodeLink,
    uncarried,
    readPairs,
    parseLink,
    attributes: Object.freeze(attributes),
    fieldOfAttribute: (attribute) => fieldOfAttributeMap.get(attribute),
    attributeOf: (field) => (kinds.has(field) ? attributeName(field) : field),
    attributeHint: attributeHintOf(fieldNames),
  });
  formats.set(schema, codec);
  return codec;
}
