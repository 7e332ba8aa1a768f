// The fleet section's pure part (no DOM, testable in node): the controls and the fleet
// request they make, the fleet link (`#v=1&view=fleet&<path>=<value>…`, README "Links to a run"), and
// what a fleet result says in words (the verdict, the side effects), all read from the
// result's data (FLEET.md §8).

import { FORMAT, LINK_VERSION, VERSION_PAIR, objectListFormatOf, say } from '../share/codec.js';

// --- the field table ---------------------------------------------------------------------------

// The fleet request's fields as dotted paths, { rows: path → row, opening, from } with each
// row's type, default, bounds and choices, from the fleet engine file's fleetSchema() answer
// (FLEET.md §3 as data, docs/engine.md §7): the one place the section reads the field table.
// A variant's members are rows of their own (trigger.factor); a path two variants share
// (trigger.startMs) keeps the first variant's row, the one the default is; the variant's name
// (trigger.kind) is a choice row of its own. `opening` is the
// opening fleet run's request, the table's defaults (the echo of a run of {}). An answer that
// is not a table (the page's engine file, an error object) throws, naming what it got.
export function fleetTable(schema) {
  if (!schema || schema.ok === false || !Array.isArray(schema.fleet)) {
    const said = schema && Array.isArray(schema.errors) ? schema.errors.map((e) => e.message).join(' ') : 'no fleet table';
    throw new Error(`the engine gave no fleet request table (${said})`);
  }
  const rows = new Map();
  const walk = (list, prefix) => {
    for (const row of list) {
      const path = prefix ? `${prefix}.${row.name}` : row.name;
      if (!rows.has(path)) rows.set(path, row);
      if (row.type === 'object' && row.members) walk(row.members, path);
      if (row.type === 'variant' && row.variants) {
        // The variant's name is a field too (trigger.kind, network.dist).
        const key = `${path}.${row.discriminator}`;
        if (row.discriminator && !rows.has(key)) rows.set(key, { name: row.discriminator, type: 'choice', choices: row.variants.map((v) => ({ name: v.name, description: v.description })) });
        for (const v of row.variants) walk(v.members || [], path);
      }
    }
  };
  walk(schema.fleet, '');
  // A row echoed only away from its default (`sparse`: docs/servers.md §2's fields) is not in the
  // opening run's echo either.
  const opening = Object.fromEntries(schema.fleet.filter((row) => !row.sparse).map((row) => [row.name, row.default === undefined ? null : row.default]));
  return { rows, opening, from: 'fleetSchema' };
}

// --- the controls --------------------------------------------------------------------------

// The page's names for the gates, by the gate's name in the field table; a gate the engine
// adds without one here shows its row's description.
export const GATE_LABELS = {
  quota: 'AWS retry quota',
  bucket: 'Token bucket (Brooker)',
  throttle: 'gRPC retry throttling',
  budget: 'Retry budget (Finagle, Linkerd)',
  breaker: 'Circuit breaker (resilience4j)',
  adaptive: 'AWS adaptive mode (a send rate limiter)',
  local: 'Client-side throttling (SRE book, grpc-go)',
  admissionControl: 'Admission control (Envoy)',
};

// The gates (FLEET.md §5, docs/throttling.md §4, §5, §7): the members of the table's `gates`
// row, in its order (the order §4 asks them), each { name, label, row }. A gate the engine adds
// appears with no edit here (issue 34: the hand list missed adaptive, local, admissionControl).
export function gatesOf(table) {
  const gates = table && table.rows.get('gates');
  return ((gates && gates.members) || []).map((row) => ({ name: row.name, label: GATE_LABELS[row.name] || row.description, row }));
}
const isGate = (table, name) => gatesOf(table).some((g) => g.name === name);

// The page's words for some gate fields, by path: a label and an input step. A field without
// them shows its row's description, and a step of 1 for a whole number, else any.
export const FIELD_WORDS = {
  'gates.quota.capacity': ['capacity', 1],
  'gates.bucket.capacity': ['capacity', 1],
  'gates.quota.retryCost': ['cost after a 5xx', 1],
  'gates.quota.timeoutCost': ['cost after a timeout', 1],
  'gates.quota.successIncrement': ['a success that paid nothing adds', 1],
  'gates.bucket.deposit': ['a deposit', 0.01],
  'gates.bucket.cost': ['a retry takes', 0.1],
  'gates.throttle.maxTokens': ['max tokens', 1],
  'gates.throttle.tokenRatio': ['a success adds', 0.01],
  'gates.budget.percent': ['percent of first attempts', 1],
  'gates.budget.minPerSecond': ['retries/s besides', 1],
  'gates.budget.ttlMs': ['window (ms)', 1000],
  'gates.breaker.window': ['window (outcomes)', 1],
  'gates.breaker.minCalls': ['min calls', 1],
  'gates.breaker.failurePercent': ['opens at failure %', 1],
  'gates.breaker.openMs': ['open for (ms)', 1000],
  'gates.breaker.halfOpenCalls': ['half-open trial calls', 1],
  'gates.local.windowMs': ['window (ms)', 1000],
  'gates.local.bins': ['bins in the window', 1],
  'gates.local.ratio': ['K: requests per accept', 0.1],
  'gates.local.padding': ['padding (requests)', 1],
  'gates.admissionControl.windowMs': ['window (ms)', 1000],
  'gates.admissionControl.srThreshold': ['rejects below success %', 1],
  'gates.admissionControl.aggression': ['aggression', 0.1],
  'gates.admissionControl.rpsThreshold': ['never below (requests/s)', 1],
  'gates.admissionControl.maxRejectionProbability': ['rejects at most %', 1],
};

// A gate's fields but its scope, in the table's order: { name, row, label, step }. A row of the
// stack's group ("layers": the layer a gate acts on, docs/layers.md §9.3) is left to where a stack
// is built; this section runs the policy's own one layer.
export function gateFields(table, name) {
  const gate = table && table.rows.get(`gates.${name}`);
  return ((gate && gate.members) || []).filter((m) => m.name !== 'scope' && m.group !== 'layers').map((row) => {
    const [label, step] = FIELD_WORDS[`gates.${name}.${row.name}`] || [row.description, row.whole ? 1 : 'any'];
    return { name: row.name, row, label, step };
  });
}

// A gate choice in the section's words (issue 35 item 10: the card said "depositOn success" and
// the menus "first-attempt"): its description without the citation that ends it ("at least
// cost: a whole token (Brooker's 2022 post)"), another field of the gate named by its label, a
// path of the request by its row's description. `fields`: gateFields() of the choice's gate.
export function choiceWords(table, fields, choice) {
  const plain = String(choice.description).replace(/\s*\([^()]*\)$/, '');
  return fields.reduce((t, o) => (/[A-Z]/.test(o.name) ? t.split(o.name).join(`“${o.label}”`) : t), plain)
    .replace(/\b[a-z]+(?:\.[a-zA-Z]+)+\b/g, (path) => (table.rows.get(path) ? `“${table.rows.get(path).description}”` : path));
}

// A gate's defaults, which a gate switched on starts from: its row's members' defaults (a rule
// choice too, though the echo leaves it out at its default).
export function gateDefaults(table, name) {
  const out = {};
  const gate = table && table.rows.get(`gates.${name}`);
  for (const row of (gate && gate.members) || []) if (row.default !== undefined && row.default !== null) out[row.name] = row.default;
  return out;
}

// The server's and the policy's models switched on whole (docs/throttling.md §3, §6): the
// table's object rows one level under `server` and `policy` that are null by default (off), in
// the table's order, each { path, label, row }. A model the engine adds there appears with no
// edit here (its row's description its label); the page's names for them, by path:
export const SWITCH_LABELS = {
  'server.admission': 'A server that throttles (an admission limit that answers 429)',
  'policy.hedging': 'Hedging (gRPC A6): a copy of each request, on purpose',
};
export function switchesOf(table) {
  const out = [];
  for (const [path, row] of (table ? table.rows : new Map())) {
    const [parent, name, more] = path.split('.');
    if (more !== undefined || name === undefined || (parent !== 'server' && parent !== 'policy')) continue;
    if (row.type !== 'object' || !row.nullable || row.default !== null || row.group === 'layers') continue;
    out.push({ path, label: SWITCH_LABELS[path] || row.description, row });
  }
  return out;
}

// The page's words for the switched models' fields (as FIELD_WORDS for the gates'), by path.
export const SWITCH_WORDS = {
  'server.admission.scope': ['one limit per', null],
  'server.admission.ratePerSecond': ['tokens a second', 0.5],
  'server.admission.burst': ['burst (tokens)', 1],
  'server.admission.answerMs': ['a 429 takes (ms)', 1],
  'server.admission.retryAfterMs': ['Retry-After (ms; empty: none)', 100],
  'policy.hedging.maxAttempts': ['copies at most (the first included)', 1],
  'policy.hedging.delayMs': ['delay between copies (ms)', 10],
  'policy.hedging.nonFatal': ['the next copy at once after', null],
};

// A switched model's fields, in the table's order: { name, row, label, step }. A member that
// others are `onlyWhen` (a form's discriminator: policy.hedging.kind, docs/throttling.md §8) is
// not a control: the switch runs its default form, whose members are the ones shown.
export function switchFields(table, path) {
  const row = table && table.rows.get(path);
  const members = (row && row.members) || [];
  const forms = new Set(members.filter((m) => m.onlyWhen).map((m) => m.onlyWhen.field));
  return members.filter((m) => !forms.has(m.name)).map((m) => {
    const [label, step] = SWITCH_WORDS[`${path}.${m.name}`] || [m.description, m.whole ? 1 : 'any'];
    return { name: m.name, row: m, label, step: step === null ? (m.whole ? 1 : 'any') : step };
  });
}

// The values a model switched on starts from: its members' defaults, and for a member the
// engine needs but gives no default (A6's maxAttempts), its least value (2: one hedge).
export function switchDefaults(table, path) {
  const out = {};
  const row = table && table.rows.get(path);
  for (const m of (row && row.members) || []) {
    if (m.default !== undefined) out[m.name] = m.default;
    else if (neededAtDefaults(m, row.members) && typeof m.min === 'number') out[m.name] = m.min;
  }
  return out;
}

// A member the engine needs: always (`required`), or when its `requiredWhen` sibling holds at its
// default (A6's maxAttempts under the default kind).
function neededAtDefaults(m, members) {
  if (m.required) return true;
  if (!m.requiredWhen) return false;
  const sibling = members.find((o) => o.name === m.requiredWhen.field);
  return Boolean(sibling) && sameValue(sibling.default, m.requiredWhen.value);
}

// The object a switched model is sent as: its fields that differ from their defaults, and every
// field the engine needs (sent always: it has no default of its own).
export function switchValue(table, path, values) {
  const row = table && table.rows.get(path);
  const defaults = switchDefaults(table, path);
  const out = {};
  for (const m of (row && row.members) || []) {
    if (!(m.name in values)) continue;
    if (neededAtDefaults(m, row.members) || !sameValue(values[m.name], defaults[m.name])) out[m.name] = values[m.name];
  }
  return out;
}

// The controls of "what stops it": a path of the fleet request, a label, and the range the
// page offers (within FLEET.md §3's bounds, which the table narrows further if it must).
export const CONTROLS = [
  { path: 'policy.maxRetries', label: 'Retries per request', kind: 'range', min: 0, max: 10, step: 1 },
  { path: 'policy.baseBackoffMs', label: 'Backoff base (ms)', kind: 'range', min: 0, max: 2000, step: 10 },
  { path: 'policy.backoffMultiplier', label: 'Backoff multiplier', kind: 'range', min: 1, max: 4, step: 0.5 },
  { path: 'policy.jitter', label: 'Jitter', kind: 'choice', choices: ['none', 'full', 'equal', 'decorrelated'] },
  { path: 'server.dropStale', label: 'The server drops stale work', kind: 'choice', choices: ['never', 'expired', 'unfinishable'] },
  { path: 'server.queueOrder', label: 'Queue order', kind: 'choice', choices: ['fifo', 'lifo'] },
  { path: 'trigger.factor', label: 'Slowdown: service takes × as long', kind: 'range', min: 1, max: 10, step: 0.5 },
  { path: 'trigger.endMs', label: 'Slowdown ends at (ms; it starts at 10,000)', kind: 'range', min: 10000, max: 40000, step: 1000 },
  { path: 'ratePerClient', label: 'Load: requests/s per client (100 clients)', kind: 'range', min: 0.1, max: 2, step: 0.05 },
];

export const CHOICE_WORDS = {
  none: 'none', full: 'full', equal: 'equal', decorrelated: 'decorrelated',
  never: 'never', expired: 'only what has expired', unfinishable: 'what cannot finish in time',
  fifo: 'oldest first (FIFO)', lifo: 'newest first (LIFO)',
};

// The control's bounds: the page's range, narrowed to the table's bounds where it has them.
export function controlBounds(control, table) {
  const row = table && table.rows.get(control.path);
  let { min, max } = control;
  if (row && typeof row.min === 'number') min = Math.max(min, row.min);
  if (row && typeof row.max === 'number') max = Math.min(max, row.max);
  const choices = row && Array.isArray(row.choices) ? control.choices.filter((c) => row.choices.some((r) => r.name === c)) : control.choices;
  return { min, max, choices };
}

// --- requests as paths ----------------------------------------------------------------------

export const getPath = (obj, path) => path.split('.').reduce((o, k) => (o == null ? undefined : o[k]), obj);

// A copy of `obj` with `path` set to `value` (objects on the way copied, created if missing).
export function setPath(obj, path, value) {
  const keys = path.split('.');
  const out = { ...obj };
  let at = out;
  for (let i = 0; i < keys.length - 1; ++i) {
    const next = at[keys[i]];
    at[keys[i]] = next && typeof next === 'object' ? { ...next } : {};
    at = at[keys[i]];
  }
  at[keys[keys.length - 1]] = value;
  return out;
}

// The request's leaves as [path, value], an object that is a gate or null as one leaf.
export function leaves(obj, prefix = '') {
  const out = [];
  for (const [k, v] of Object.entries(obj || {})) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length) out.push(...leaves(v, path));
    else out.push([path, v]);
  }
  return out;
}

const sameValue = (a, b) => JSON.stringify(a) === JSON.stringify(b);

const isObject = (v) => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

// The value a run holds at `path`, from its echo: { held, value } (docs/engine.md §4, "What a
// sparse echo leaves out"). The echo's own value; else, for a field the sparse echo leaves out,
// the member of its object's held value when that object is itself left out at its default
// (balancer.kind), or the row's default when the row is sparse (server.serviceDist, and null
// for a part off by default: servers, trigger.servers). Nothing is held for a member of an
// object the run does not hold or holds as null (servers.count without servers), for a field
// whose onlyWhen does not hold (server.serviceSigma beside a fixed service time), and for a
// row that is not sparse (a member of another variant: trigger.factor in an outage).
export function heldValue(table, echo, path) {
  const own = getPath(echo, path);
  if (own !== undefined) return { held: true, value: own };
  const row = table && table.rows.get(path);
  if (!row) return { held: false };
  const dot = path.lastIndexOf('.');
  const parentPath = dot === -1 ? null : path.slice(0, dot);
  const parent = parentPath === null ? { held: true, value: echo } : heldValue(table, echo, parentPath);
  if (!parent.held || !isObject(parent.value)) return { held: false };
  if (row.onlyWhen) {
    const sibling = heldValue(table, echo, parentPath === null ? row.onlyWhen.field : `${parentPath}.${row.onlyWhen.field}`);
    if (!sibling.held || !sameValue(sibling.value, row.onlyWhen.value)) return { held: false };
  }
  if (parent.value[row.name] !== undefined) return { held: true, value: parent.value[row.name] };
  return row.sparse && row.default !== undefined ? { held: true, value: row.default } : { held: false };
}

// The request a run holds: its echo with every value heldValue finds that the echo leaves out
// (each a copy, so that the echo's defaults are never shared).
export function heldRequest(table, echo) {
  let out = echo;
  for (const path of table.rows.keys()) {
    if (getPath(echo, path) !== undefined) continue;
    const { held, value } = heldValue(table, echo, path);
    if (held && getPath(out, path) === undefined) out = setPath(out, path, JSON.parse(JSON.stringify(value)));
  }
  return out;
}

// The differences of a request (as the engine echoes it) from the opening run's echo, as the
// smallest request that makes it: every leaf that differs, and a gate that is on as its own
// fields that differ from the gate's defaults (an empty object when none do).
export function requestDiff(echo, openingEcho, table) {
  let out = {};
  const held = []; // members of an object with no default (`servers`) at their own row's default
  for (const [path, value] of leaves(echo)) {
    if (path.startsWith('gates.')) continue;
    const base = heldValue(table, openingEcho, path);
    const row = !base.held && table && table.rows.get(path);
    const parent = row && path.includes('.') ? table.rows.get(path.slice(0, path.lastIndexOf('.'))) : null;
    if (parent && parent.default == null && row.default !== undefined && sameValue(value, row.default)) held.push([path, value]);
    else if (!base.held || !sameValue(value, base.value)) out = setPath(out, path, value);
  }
  // Such a member is written only when nothing else brings its object into the request (the
  // engine gives it its default there): `servers.count=3`, not also `servers.overrides=`.
  for (const [path, value] of held) if (getPath(out, path.slice(0, path.lastIndexOf('.'))) === undefined) out = setPath(out, path, value);
  for (const gate of gatesOf(table)) {
    const on = echo.gates && echo.gates[gate.name];
    if (!on) continue;
    const defaults = gateDefaults(table, gate.name);
    const own = {};
    for (const [k, v] of Object.entries(on)) if (!sameValue(v, defaults[k])) own[k] = v;
    out = setPath(out, `gates.${gate.name}`, own);
  }
  return out;
}

// --- the fleet link --------------------------------------------------------------------------

export { LINK_VERSION };
const NULL = FORMAT.fleetNull;

const writeValue = (v) => (v === null ? NULL : Array.isArray(v) ? v.map((x) => encodeURIComponent(String(x))).join(FORMAT.items) : encodeURIComponent(String(v)));

// A stack of layers (`policy.layers`, docs/layers.md §9): a list of objects, which the fleet link
// writes as the single run's link writes `layers=` (README, "Links to a run"; share/codec.js): its
// layers joined by commas, each layer's fields `name:value` joined by "~". Written without the
// table (every field the layer holds, in its order), read by the table's row (stackFormatOf).
const isStackValue = (v) => Array.isArray(v) && v.length > 0 && v.every((x) => x && typeof x === 'object' && !Array.isArray(x));
const STACK_ROW = (layers) => ({
  type: 'list',
  items: {
    type: 'object',
    members: Object.keys(Object.assign({}, ...layers)).map((name) => {
      const sample = layers.map((l) => l[name]).find((v) => v !== undefined && v !== null);
      const type = sample === undefined || typeof sample === 'number' ? 'number' : typeof sample === 'boolean' ? 'boolean' : Array.isArray(sample) ? 'list' : 'string';
      return { name, type, items: type === 'list' ? { type: sample.every((x) => typeof x === 'number') ? 'number' : 'string' } : undefined };
    }),
  },
});

// A list of objects' format: by the members its entries hold (every one written: a stack's layers
// read back whole), unless an entry holds null where the table's row has a list (a fault's
// `servers: null`, every server), which only the row can write (leaving it out, its default).
function listFormat(path, value, table) {
  const row = table && table.rows.get(path);
  const lists = new Set(((row && row.items && row.items.members) || []).filter((m) => m.type === 'list').map((m) => m.name));
  const nullList = value.some((e) => Object.entries(e).some(([k, v]) => v === null && lists.has(k)));
  return (nullList && objectListFormatOf(row)) || objectListFormatOf(STACK_ROW(value));
}

// `#v=1&view=fleet&…` for a request given as its differences (requestDiff): each leaf as
// `path=value`, a gate on at its defaults as `gates.<name>=on`, a stack as above.
// `table` (fleetTable()): a list of objects (a stack, issue 39's `faults` and
// `servers.overrides`) is written by its own row, its members' defaults left out (a fault's
// `servers: null`, every server); without it, by the members the values hold.
export function encodeFleetLink(diff, table = null) {
  const parts = [VERSION_PAIR, `view${FORMAT.equals}fleet`];
  for (const [path, value] of leaves(diff)) {
    const text = path.startsWith('gates.') && path.split('.').length === 2 && value && typeof value === 'object' ? FORMAT.gateOn
      : isStackValue(value) ? listFormat(path, value, table).write(value) : writeValue(value);
    parts.push(path + FORMAT.equals + text);
  }
  return parts.join(FORMAT.pairs);
}

export function isFleetLink(hash) {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  return text.split(FORMAT.pairs).includes(`view${FORMAT.equals}fleet`);
}

function safeDecode(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

// A value from its text, by the type of the opening echo's value at that path (or the table's).
function readValue(text, row) {
  if (text === NULL) return null;
  const type = row ? row.type : 'string';
  if (type === 'number') {
    const n = Number(text);
    if (text.trim() === '' || !Number.isFinite(n)) throw new Error(say('notNumber'));
    return n;
  }
  if (type === 'boolean') {
    if (text === 'true') return true;
    if (text === 'false') return false;
    throw new Error(say('notBoolean'));
  }
  if (type === 'list') {
    const items = text === '' ? [] : text.split(FORMAT.items).map(safeDecode);
    // A list of numbers (issue 39's trigger.servers: server indices) reads each as a number.
    if (!row.items || row.items.type !== 'number') return items;
    return items.map((item) => {
      const n = Number(item);
      if (item.trim() === '' || !Number.isFinite(n)) throw new Error(say('notNumberList'));
      return n;
    });
  }
  return safeDecode(text);
}

// The workloads the fleet view draws: the service workload (one server, its queue, the storm
// over time from the result's `timeline`). An occ run (FLEET.md §7: clients contending for one
// row) has no timeline and no server; it is refused with a message, before it runs, wherever
// a request comes from (a link, <retry-lab>'s attributes, the console's load()). The section's
// AWS 2015 reproduction draws occ runs (web/README.md, "The fleet section").
export const DRAWN_WORKLOADS = ['service'];

// Why the view cannot draw a request's workload, in words, or '' when it can.
export function undrawnWorkload(request) {
  const workload = request && request.workload;
  if (workload === undefined || DRAWN_WORKLOADS.includes(workload)) return '';
  const what = workload === 'occ' ? 'the occ workload (clients contending for one row, FLEET.md §7)' : `the ${workload} workload`;
  return `is ${what}, which this view does not draw: it draws one server’s queue and its storm over time (the service workload), and an occ run has neither`;
}

// A fleet link to { request, problems } (and `refused: true`, below): `request` the fleet request it names (its
// differences from the opening run), `problems` [{ key, value, reason }] for parts not read
// (an unknown path, a value of the wrong kind, a version this page does not read). The engine
// judges the values themselves when the request runs. `refused`: a problem that makes the
// whole link a run the view cannot draw (a workload it does not draw, `undrawnWorkload`), so
// nothing of it is run.
export function parseFleetLink(hash, table) {
  const read = parseLinkParts(hash, table);
  const reason = undrawnWorkload(read.request);
  if (!reason) return read;
  return { request: {}, problems: [{ key: 'workload', value: String(read.request.workload), reason }, ...read.problems], refused: true };
}

function parseLinkParts(hash, table) {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  const problems = [];
  let request = {};
  const pairs = text.split(FORMAT.pairs).filter(Boolean).map((part) => {
    const eq = part.indexOf(FORMAT.equals);
    return [safeDecode(eq === -1 ? part : part.slice(0, eq)), eq === -1 ? '' : part.slice(eq + 1)];
  });
  // A name given more than once: none of its values is taken (the single run's rule, codec.js).
  const times = new Map();
  for (const [key] of pairs) times.set(key, (times.get(key) || 0) + 1);
  const said = new Set();
  for (const [key, raw] of pairs) {
    // `map` and `seeds` are the stability map's (web/fleet/stability.js mapLinkKeys).
    if (key === 'view' || key === 'map' || key === 'seeds') continue;
    if (times.get(key) > 1) {
      if (!said.has(key)) problems.push({ key, value: safeDecode(raw), reason: say('givenTwice') });
      said.add(key);
      continue;
    }
    if (key === FORMAT.versionKey) {
      if (safeDecode(raw) !== LINK_VERSION) return { request: {}, problems: [{ key, value: safeDecode(raw), reason: say('otherVersion', { reader: 'this page' }) }] };
      continue;
    }
    const gate = /^gates\.([A-Za-z]+)$/.exec(key);
    if (gate && isGate(table, gate[1])) {
      if (raw === FORMAT.gateOn) request = setPath(request, key, { ...(getPath(request, key) || {}) });
      else if (raw === NULL) request = setPath(request, key, null);
      else problems.push({ key, value: safeDecode(raw), reason: say('gateValue') });
      continue;
    }
    const row = table.rows.get(key);
    if (row && (row.type === 'object' || row.type === 'variant')) {
      // An object is written by its fields; `null` switches off one that may be (the
      // trigger, the spike): the engine says which may.
      if (raw === NULL) request = setPath(request, key, null);
      else problems.push({ key, value: safeDecode(raw), reason: say('objectValue') });
      continue;
    }
    if (!row) {
      problems.push({ key, value: safeDecode(raw), reason: say('notFleetField') });
      continue;
    }
    const stack = objectListFormatOf(row);
    try {
      // A stack (`policy.layers`): `null` (the policy's own one layer), or its layers as above.
      request = setPath(request, key, stack ? (raw === NULL ? null : stack.read(raw)) : readValue(raw, row));
    } catch (error) {
      problems.push({ key, value: safeDecode(raw), reason: error.message });
    }
  }
  return { request, problems };
}

// --- what a result says ----------------------------------------------------------------------

const seconds = (ms) => {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
};
const count = (n) => Math.round(n).toLocaleString('en-US');

// How most failed requests ended, in words (FLEET.md §8's `failed` reasons).
const REASON_WORDS = {
  'attempt-limit': 'out of attempts', 'not-retryable': 'on a failure not retried', deadline: 'at their deadline',
  'gate-quota': 'refused a retry by the quota', 'gate-bucket': 'refused a retry by the token bucket',
  'gate-throttle': 'refused a retry by the throttle', 'gate-budget': 'refused a retry by the budget',
  'circuit-open': 'refused by an open circuit breaker', unfinished: 'unfinished at the horizon',
  'local-throttle': 'refused a send by client-side throttling, before it left the client',
};
function failureCause(result) {
  const failed = Object.entries(result.totals.failed).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
  if (!failed.length) return '';
  const [reason, n] = failed[0];
  const total = failed.reduce((a, [, m]) => a + m, 0);
  return ` Of its ${count(total)} failed requests, ${count(n)} ended ${REASON_WORDS[reason] || reason}.`;
}

// What the verdict judges the fleet against, in a word: the trigger's kind, or a fault's
// (docs/servers.md §8.3: the disturbance runs from the earliest start of the trigger and the
// faults to the latest end), "disturbance" for more than one kind.
export function disturbanceWord(request) {
  const kinds = new Set((request.faults || []).map((f) => f.kind));
  if (request.trigger) kinds.add(request.trigger.kind === 'outage' ? 'outage' : 'slowdown');
  return kinds.size === 1 ? [...kinds][0] : kinds.size ? 'disturbance' : 'slowdown';
}

// The verdict of a service result, from `recovery` (FLEET.md v3 §8: five-bin windows, and
// `disrupted`, whether any window from the trigger's start on was unhealthy).
//   { kind: 'none' | 'rode-out' | 'recovered' | 'metastable' | 'undecided', text, shortText }
// A run that was never disrupted "rode it out": its `recoveredAtMs` is the trigger's end only
// because the judging starts there, so it is not called a recovery (a lighter load would
// otherwise read as recovering later than a heavier one that was knocked down and came back).
export function verdictOf(result) {
  const rec = result.recovery;
  const durationMs = result.request.durationMs;
  if (!rec) return { kind: 'none', shortText: 'no trigger', text: 'Nothing goes wrong in this run: it has no slowdown to recover from.' };
  const what = disturbanceWord(result.request);
  if (rec.disrupted === false) {
    return {
      kind: 'rode-out',
      shortText: 'rode it out',
      text: `Rode it out: from the ${what}’s start to the end of new requests at ${seconds(durationMs)}, every five seconds at least 90 % of the new requests succeeded. The ${what} (it ended at ${seconds(rec.triggerEndMs)}) never knocked the fleet down, so there was nothing to recover from.`,
    };
  }
  if (rec.recoveredAtMs !== null) {
    return {
      kind: 'recovered',
      shortText: `recovered ${seconds(rec.recoveredAtMs - rec.triggerEndMs)} after the ${what} ended`,
      text: `Recovered ${seconds(rec.recoveredAtMs - rec.triggerEndMs)} after the ${what} ended, at ${seconds(rec.recoveredAtMs)}: from then until new requests stop at ${seconds(durationMs)}, every five seconds at least 90 % of the new requests succeed. The ${what} ended at ${seconds(rec.triggerEndMs)}.`,
    };
  }
  if (rec.metastable) {
    return {
      kind: 'metastable',
      shortText: 'still down when new requests stopped',
      text: `Still down when new requests stopped at ${seconds(durationMs)}: a metastable failure. The ${what} ended at ${seconds(rec.triggerEndMs)}, and ${seconds(durationMs - rec.triggerEndMs)} later, in the last five seconds of new requests, fewer than 90 % of them succeeded.${failureCause(result)}`,
    };
  }
  return {
    kind: 'undecided',
    shortText: 'not recovered yet',
    text: `Not recovered by the time new requests stop at ${seconds(durationMs)}, but the ${what} ended at ${seconds(rec.triggerEndMs)}, less than five bins before: too soon to call it a metastable failure.`,
  };
}

// The side effects in the article's terms, from two runs of the same request that differ
// only in `idempotencyKey` (without, with). Each line is [label, without, with].
export function sideEffectsOf(without, withKey) {
  const a = without.totals;
  const b = withKey.totals;
  const charge = without.request.operation === 'charge';
  const rows = [
    ['payments asked for (requests)', count(a.requests), count(b.requests)],
    ['payments confirmed to the customer (succeeded)', count(a.succeeded), count(b.succeeded)],
    ['answers that came after the customer had stopped waiting (late)', count(a.late), count(b.late)],
  ];
  if (charge) {
    rows.push(['charges made', count(a.charges), count(b.charges)]);
    rows.push(['duplicate charges (beyond the first of a payment)', count(a.duplicateCharges), count(b.duplicateCharges)]);
    rows.push(['replays (a repeat the key recognised)', count(a.replays), count(b.replays)]);
  }
  rows.push(['server time spent on answers nobody waited for', seconds(a.wastedServiceMs), seconds(b.wastedServiceMs)]);
  // Commits whose 200 no one saw in time: every commit (charge or replay) less the
  // confirmations (each success is one 200 seen in time).
  const unconfirmed = charge ? a.charges + a.replays - a.succeeded : 0;
  const summary = charge
    ? `Without an idempotency key the fleet made ${count(a.charges)} charges for ${count(a.requests)} payments: ${count(a.duplicateCharges)} of them duplicates, and ${count(unconfirmed)} charges whose confirmation no customer saw in time. With a key, the same attempts make ${count(b.charges)} charges and ${count(b.duplicateCharges)} duplicates: the key stops the double charge, not the storm.`
    : `These requests are reads: no charge is made, however many attempts the storm sends.`;
  return { rows, summary, unconfirmed };
}

// --- the timeline as chart data -------------------------------------------------------------

// Per-second rates from each bin (FLEET.md §8's counts per bin), the capacity the servers can
// serve at full occupancy (the bin's `capacity`, docs/fleet.md: null for no bound), and the marks.
export function stormSeries(result) {
  const { binMs, bins } = result.timeline;
  const req = result.request;
  const perSecond = 1000 / binMs;
  const trig = req.trigger;
  const points = bins.map((b, i) => ({
    bin: i,
    startMs: i * binMs,
    offered: (b.firstAttempts + b.retries) * perSecond,
    firstAttempts: b.firstAttempts * perSecond,
    retries: b.retries * perSecond,
    succeeded: b.succeeded * perSecond,
    timeouts: b.timeouts * perSecond,
    // What the server did (issue 35): services started, and answers that reached no caller
    // (`late`, by arrival). Answered in time: served less late, never below 0 (the two are
    // counted at a service's start and at its answer, a service time apart).
    served: b.served * perSecond,
    late: b.late * perSecond,
    inTime: Math.max(0, b.served - b.late) * perSecond,
    // docs/throttling.md §3, §4: the server's 429s (by arrival; null where the bins have none, a
    // run with no admission limit) and the waits an adaptive client's limiter began in the bin.
    throttled: b.throttled === undefined ? null : b.throttled * perSecond,
    heldMs: b.gateWaitMs === undefined ? null : b.gateWaitMs,
    // §4.1: the limiters enabled at the bin's end and the mean of their fill rates (sends a second
    // a client; null while none is enabled, and in a run without gates.adaptive).
    limiting: b.limiting === undefined ? null : b.limiting,
    sendRate: b.sendRate === undefined ? null : b.sendRate,
    created: b.created * perSecond,
    queue: b.queue,
    capacity: b.capacity === null ? null : b.capacity * perSecond,
  }));
  return {
    binMs,
    points,
    trigger: trig,
    ended: disturbanceWord(req), // the mark at recovery.triggerEndMs: "<word> ends"
    durationMs: req.durationMs,
    recovery: result.recovery,
  };
}
