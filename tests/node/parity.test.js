// The same inputs give the same result in both bindings (SPEC §1, §8): 300 generated valid
// inputs, covering every row of the engine's input table (retrysim --schema), every choice
// and every scenario, through compute() and through retrysim, compared whole as JSON values.
'use strict';

const assert = require('node:assert/strict');
const { test, before } = require('node:test');

const { loadEngine, runRetrysim, runRetrysimEach, retrysimResultOf, asJson, firstDifference, seededRandom } = require('./support.js');

const COUNT = 300;
const rng = seededRandom(20261129);

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad2 = (n) => String(n).padStart(2, '0');

// An HTTP-date (RFC 9110 §5.6.7) for `seconds` since 1970, in the form named.
function httpDate(seconds, form) {
  const d = new Date(seconds * 1000);
  const time = `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
  const weekday = WEEKDAYS[d.getUTCDay()];
  const month = MONTHS[d.getUTCMonth()];
  switch (form) {
    case 'imf': return `${weekday.slice(0, 3)}, ${pad2(d.getUTCDate())} ${month} ${d.getUTCFullYear()} ${time} GMT`;
    case 'rfc850': return `${weekday}, ${pad2(d.getUTCDate())}-${month}-${pad2(d.getUTCFullYear() % 100)} ${time} GMT`;
    case 'asctime': return `${weekday.slice(0, 3)} ${month} ${String(d.getUTCDate()).padStart(2, ' ')} ${time} ${d.getUTCFullYear()}`;
  }
  throw new Error(`no form ${form}`);
}

const DATE_FORMS = ['imf', 'rfc850', 'asctime'];
const STATUSES = [100, 200, 201, 204, 302, 400, 401, 404, 409, 429, 500, 502, 503, 504, 599];
const seen = new Map();  // what the generator produced, to check it covers every field
const note = (what) => seen.set(what, (seen.get(what) || 0) + 1);

// The engine's own input table (docs/engine.md §4): the generator makes a value for every row
// from its type, bounds, choices and presence rules, so a new input is generated (and its
// coverage required below) without a line here.
const schemaRun = runRetrysim('', ['--schema']);
assert.equal(schemaRun.status, 0, schemaRun.stderr);
const ROWS = JSON.parse(schemaRun.stdout).inputs;

function number(lo, hi) {
  if (rng.chance(0.3)) return rng.int(Math.ceil(lo), Math.floor(hi));
  if (rng.chance(0.1)) return rng.pick([lo, hi]);
  return lo + rng.next() * (hi - lo);
}

function retryAfter(dateSeconds) {
  const kind = rng.pick(['seconds', 'seconds', 'imf', 'rfc850', 'asctime', 'past', 'unusable']);
  note(`retryAfter ${kind}`);
  switch (kind) {
    case 'seconds': return rng.pick(['', ' ', '\t']) + String(rng.int(0, 120)) + rng.pick(['', ' ']);
    case 'past': return httpDate(dateSeconds - rng.int(0, 600), rng.pick(DATE_FORMS));
    case 'unusable': return rng.pick(['soon', '1.5', '-3', '86401', 'Mon, 31 Nov 2026 10:00:00 GMT', '', '2 s']);
    default: return httpDate(dateSeconds + rng.int(0, 90), kind);
  }
}

// Where a generic value would be dull: an answer's status, its headers and dates near the
// run's start, an operation id with more than ASCII in it.
const SPECIAL = {
  'script[].status': () => rng.pick(STATUSES),
  'script[].retryAfter': (context) => retryAfter(context.dateSeconds),
  'script[].date': (context) => httpDate(context.dateSeconds, rng.pick(DATE_FORMS)),
  operationId: () => rng.pick(['op-0001', 'order-42', 'é-ü-😀', 'x'.repeat(rng.int(1, 255))]),
  startDate: (context) => httpDate(context.startSeconds, rng.pick(DATE_FORMS)),
};

// Whether a presence rule ({ field, value }) holds for `object` (a sibling left out is at its default).
function holds(rule, object, rows) {
  const sibling = rule.field in object ? object[rule.field] : rows.find((r) => r.name === rule.field).default;
  return JSON.stringify(sibling) === JSON.stringify(rule.value);
}

// A valid value for one row; `path` names it for `seen` and SPECIAL.
function valueFor(row, path, context) {
  if (SPECIAL[path]) return SPECIAL[path](context);
  if (row.nullable && rng.chance(0.2)) return null;
  switch (row.type) {
    case 'boolean': return rng.chance(0.5);
    case 'number': {
      // Milliseconds mostly below 20 s and whole numbers mostly near the bottom of their range,
      // so that runs stay short; sometimes the very top.
      if (rng.chance(0.05)) return row.max;
      const hi = row.unit === 'ms' ? Math.min(row.max, 20000) : row.whole ? Math.min(row.max, row.min + 60) : row.max;
      return row.whole ? rng.int(row.min, hi) : number(row.min, hi);
    }
    case 'string': {
      const length = rng.int(Math.max(row.minLength, 0), Math.min(row.maxLength ?? 40, 40));
      return Array.from({ length }, () => rng.pick(['a', 'Z', '0', '-', ' ', 'é', '😀'])).join('');
    }
    case 'choice': {
      const name = rng.pick(row.choices).name;
      note(`${path} ${name}`);
      return name;
    }
    case 'http-date': return httpDate(context.startSeconds + rng.int(0, 30), rng.pick(DATE_FORMS));
    case 'list': {
      const most = Math.min(row.maxItems ?? 40, row.items.type === 'object' ? 6 : 40);
      const length = rng.chance(0.9) ? rng.int(row.minItems, most) : rng.int(row.minItems, Math.min(row.maxItems ?? 60, 60));
      const items = [];
      for (let i = 0; i < length; ++i) {
        const item = valueFor(row.items, `${path}[]`, context);
        if (row.distinct && items.some((x) => JSON.stringify(x) === JSON.stringify(item))) continue;
        items.push(item);
      }
      return items;
    }
    case 'object': return objectFor(row.members, path, context);
  }
  throw new Error(`no generator for a ${row.type} (${path})`);
}

// An object of `rows`: each row given or left out at random, its presence rules kept.
function objectFor(rows, path, context) {
  const object = {};
  context.dateSeconds = context.startSeconds + rng.int(0, 30);
  for (const row of rows) {
    const here = path ? `${path}.${row.name}` : row.name;
    if (row.onlyWhen && !holds(row.onlyWhen, object, rows)) continue;
    const required = row.required || (row.requiredWhen && holds(row.requiredWhen, object, rows));
    if (!required && !rng.chance(0.6)) continue;
    object[row.name] = valueFor(row, here.replace(/^script\[\]/, 'script[]'), context);
    note(here);
  }
  return object;
}

function generateInputs() {
  const context = { startSeconds: rng.chance(0.5) ? 1795946400 : rng.int(946684800, 2208988800) };  // 2000–2040
  // The script scenario twice as often as each named one: its answers are where the variety is.
  const inputs = objectFor(ROWS, '', context);
  if (rng.chance(0.3) && !('script' in inputs)) {
    inputs.scenario = 'script';
    inputs.script = valueFor(ROWS.find((r) => r.name === 'script'), 'script', context);
  }
  // The rules between fields (docs/engine.md §4) that a row cannot say.
  for (const entry of inputs.script || []) {
    if (entry.lost && entry.dropped) delete entry.lost;
    if (entry.dropped) note('dropped true');
    if (entry.lost) note('lost true');
  }
  if (inputs.jitter === 'proportional') {
    const at = (name) => (name in inputs ? inputs[name] : ROWS.find((r) => r.name === name).default);
    const [low, high] = [at('jitterLow'), at('jitterHigh')];
    if (low > high) [inputs.jitterLow, inputs.jitterHigh] = [high, low];
  }
  // docs/layers.md §2: one caller, a layer's jitterLow/jitterHigh only with its own proportional
  // jitter (the run's when it gives none) and in order, at most 1,000 server attempts.
  if (Array.isArray(inputs.layers)) {
    delete inputs.callers;
    for (const layer of inputs.layers) {
      const jitter = layer.jitter ?? inputs.jitter ?? 'none';
      if (jitter !== 'proportional') {
        delete layer.jitterLow;
        delete layer.jitterHigh;
      } else {
        const at = (name) => layer[name] ?? inputs[name] ?? ROWS.find((r) => r.name === name).default;
        const [low, high] = [at('jitterLow'), at('jitterHigh')];
        if (low > high) [layer.jitterLow, layer.jitterHigh] = [high, low];
      }
    }
    const attempts = (layer) => (layer.maxRetries ?? inputs.maxRetries ?? 3) + 1;
    if (inputs.layers.reduce((product, layer) => product * attempts(layer), 1) > 1000)
      for (const layer of inputs.layers) layer.maxRetries = rng.int(0, 2);
  }
  // docs/throttling.md §6.1 and §8: hedging with no layers and one caller; gRPC A6's form with
  // maxRetries 0, the per-try timeout's with a deadline.
  if (inputs.hedging && typeof inputs.hedging === 'object') {
    if (Array.isArray(inputs.layers)) {
      delete inputs.hedging;
    } else {
      delete inputs.callers;
      if ((inputs.hedging.kind ?? 'a6') === 'a6') inputs.maxRetries = 0;
      else if (inputs.deadlineMs === null) inputs.deadlineMs = rng.int(1, 100000);
    }
  }
  // docs/servers.md §2: servers and faults with one caller, one layer and no hedging; each
  // override's index below the count and given once; a fault's servers below K, its window in
  // order, no server under two faults at once; lagMs only with a replicated store.
  const manyServers = inputs.servers !== null && typeof inputs.servers === 'object';
  const faulted = Array.isArray(inputs.faults) && inputs.faults.length > 0;
  if (manyServers || faulted) {
    delete inputs.callers;
    delete inputs.layers;
    delete inputs.hedging;
  }
  const count = manyServers ? (inputs.servers.count ?? 2) : 1;
  if (manyServers && Array.isArray(inputs.servers.overrides)) {
    const taken = new Set();
    inputs.servers.overrides = inputs.servers.overrides.filter((o) => {
      o.index %= count;
      if (taken.has(o.index)) return false;
      taken.add(o.index);
      return true;
    });
  }
  if (faulted) {
    const kept = [];
    for (const fault of inputs.faults) {
      if (fault.endMs < fault.startMs) [fault.startMs, fault.endMs] = [fault.endMs, fault.startMs];
      if (Array.isArray(fault.servers)) fault.servers = [...new Set(fault.servers.map((j) => j % count))];
      const names = (f) => (Array.isArray(f.servers) ? f.servers : Array.from({ length: count }, (_, j) => j));
      const clash = kept.some((f) => f.startMs < f.endMs && fault.startMs < fault.endMs && f.startMs < fault.endMs &&
        fault.startMs < f.endMs && names(f).some((j) => names(fault).includes(j)));
      if (!clash) kept.push(fault);
    }
    inputs.faults = kept;
  }
  if (inputs.keyStore && inputs.keyStore.lagMs && inputs.keyStore.scope !== 'replicated') inputs.keyStore.scope = 'replicated';
  if (inputs.callers > 1) note('callers > 1');
  return inputs;
}

const generated = Array.from({ length: COUNT }, generateInputs);

test('the generated inputs cover every row of the table, every choice, scenario and Retry-After form', () => {
  const wanted = ['callers > 1', 'lost true', 'dropped true', 'retryAfter seconds', 'retryAfter imf', 'retryAfter rfc850',
    'retryAfter asctime', 'retryAfter past', 'retryAfter unusable'];
  const walk = (rows, path) => {
    for (const row of rows) {
      const here = path ? `${path}.${row.name}` : row.name;
      wanted.push(here);
      if (row.type === 'choice') for (const c of row.choices) wanted.push(`${here} ${c.name}`);
      if (row.type === 'list' && row.items.type === 'object') walk(row.items.members, `${here}[]`);
      if (row.type === 'list' && row.items.type === 'choice') for (const c of row.items.choices) wanted.push(`${here}[] ${c.name}`);
    }
  };
  walk(ROWS, '');
  assert.ok(wanted.length > 60, `${wanted.length} things to cover`);
  for (const what of wanted) assert.ok((seen.get(what) || 0) >= 5, `only ${seen.get(what) || 0} inputs with ${what}`);
});

let engine;
before(async () => { engine = await loadEngine(); });
// retrysim's answer to every generated input, the runs started by one shell (support.js
// runRetrysimEach: node's spawnSync forks this whole process for each run); each test reads its own.
let runs;
before(() => { runs = runRetrysimEach(generated.map((inputs) => ({ input: JSON.stringify(inputs) }))); });

generated.forEach((inputs, i) => {
  test(`generated input ${i}: compute() equals retrysim`, () => {
    const fromEngine = engine.compute(inputs);
    assert.equal(fromEngine.ok, true, `input ${JSON.stringify(inputs)} is not valid: ${JSON.stringify(fromEngine.errors)}`);
    const { status, result, stderr } = retrysimResultOf(runs[i], `input ${i}`);
    assert.equal(status, 0, stderr);
    const difference = firstDifference(asJson(fromEngine), result);
    assert.equal(difference, null, `compute() vs retrysim differ at ${difference}; inputs: ${JSON.stringify(inputs)}`);
    assert.deepStrictEqual(asJson(fromEngine), result);
  });
});
