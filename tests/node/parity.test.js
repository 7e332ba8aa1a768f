// The same inputs give the same result in both bindings (SPEC §1, §8): 300 generated valid
// inputs, covering every field and every scenario, through compute() and through retrysim,
// compared whole as JSON values.
'use strict';

const assert = require('node:assert/strict');
const { test, before } = require('node:test');

const { loadEngine, retrysimResult, asJson, firstDifference, seededRandom } = require('./support.js');

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
const RETRY_CLASSES = ['timeout', '429', '5xx', '4xx'];
const seen = new Map();  // what the generator produced, to check it covers every field
const note = (what) => seen.set(what, (seen.get(what) || 0) + 1);

function number(lo, hi) {
  if (rng.chance(0.3)) return rng.int(lo, hi);
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

function scriptEntry(startSeconds) {
  const entry = {};
  if (rng.chance(0.12)) {
    entry.dropped = true;
    note('dropped');
    if (rng.chance(0.3)) entry.status = rng.pick(STATUSES);
    return entry;
  }
  entry.status = rng.pick(STATUSES);
  if (rng.chance(0.2)) { entry.lost = true; note('lost'); } else if (rng.chance(0.1)) entry.lost = false;
  let dateSeconds = startSeconds + rng.int(0, 30);
  if (rng.chance(0.3)) {
    entry.date = httpDate(dateSeconds, rng.pick(DATE_FORMS));
    note('date');
  }
  if (rng.chance(0.5)) entry.retryAfter = retryAfter(dateSeconds);
  return entry;
}

function generateInputs() {
  const inputs = {};
  const maybe = (field, make, p = 0.6) => { if (rng.chance(p)) { inputs[field] = make(); note(field); } };
  const startSeconds = rng.chance(0.5) ? 1795946400 : rng.int(946684800, 2208988800);  // 2000–2040
  maybe('startDate', () => httpDate(startSeconds, rng.pick(DATE_FORMS)));
  const scenario = rng.pick(['response-lost', 'request-lost', 'outage-503-twice', 'bad-request-400', 'script', 'script']);
  note(`scenario ${scenario}`);
  if (scenario === 'script') {
    inputs.scenario = scenario;
    const length = rng.chance(0.9) ? rng.int(1, 6) : rng.int(7, 60);
    inputs.script = Array.from({ length }, () => scriptEntry(startSeconds));
  } else if (rng.chance(0.7)) {
    inputs.scenario = scenario;
  }
  maybe('operation', () => rng.pick(['charge', 'create', 'read']));
  maybe('operationId', () => rng.pick(['op-0001', 'order-42', 'é-ü-😀', 'x'.repeat(rng.int(1, 255))]), 0.3);
  maybe('maxRetries', () => (rng.chance(0.9) ? rng.int(0, 10) : rng.int(0, 100)));
  maybe('baseBackoffMs', () => number(0, 5000));
  maybe('backoffMultiplier', () => number(1, 10));
  maybe('maxBackoffMs', () => (rng.chance(0.3) ? null : number(0, 20000)));
  maybe('jitter', () => rng.pick(['none', 'full', 'equal', 'decorrelated']));
  maybe('draws', () => Array.from({ length: rng.int(0, 40) }, () => (rng.chance(0.05) ? rng.pick([0, 1]) : rng.next())));
  maybe('seed', () => (rng.chance(0.2) ? 2 ** 53 - 1 - rng.int(0, 1000) : rng.int(0, 1e6)));
  maybe('clientTimeoutMs', () => number(1, 10000));
  maybe('deadlineMs', () => (rng.chance(0.2) ? null : number(0, 60000)));
  maybe('waitBudgetMs', () => (rng.chance(0.3) ? null : number(0, 30000)));
  maybe('responseMs', () => number(0, 5000));
  maybe('idempotencyKey', () => rng.chance(0.5));
  maybe('retryOn', () => RETRY_CLASSES.filter(() => rng.chance(0.5)).sort(() => rng.next() - 0.5));
  maybe('retryWritesWithoutKey', () => rng.chance(0.5));
  maybe('honourRetryAfter', () => rng.chance(0.7));
  maybe('callers', () => (rng.chance(0.8) ? rng.int(2, 100) : rng.int(1, 1000)), 0.3);
  if (inputs.callers > 1) note('callers > 1');
  return inputs;
}

const generated = Array.from({ length: COUNT }, generateInputs);

test('the generated inputs cover every field, scenario and Retry-After form', () => {
  const wanted = [
    'startDate', 'operation', 'operationId', 'maxRetries', 'baseBackoffMs', 'backoffMultiplier', 'maxBackoffMs',
    'jitter', 'draws', 'seed', 'clientTimeoutMs', 'deadlineMs', 'waitBudgetMs', 'responseMs', 'idempotencyKey',
    'retryOn', 'retryWritesWithoutKey', 'honourRetryAfter', 'callers', 'callers > 1', 'lost', 'dropped', 'date',
    'scenario response-lost', 'scenario request-lost', 'scenario outage-503-twice', 'scenario bad-request-400',
    'scenario script', 'retryAfter seconds', 'retryAfter imf', 'retryAfter rfc850', 'retryAfter asctime',
    'retryAfter past', 'retryAfter unusable',
  ];
  for (const what of wanted) assert.ok((seen.get(what) || 0) >= 5, `only ${seen.get(what) || 0} inputs with ${what}`);
});

let engine;
before(async () => { engine = await loadEngine(); });

generated.forEach((inputs, i) => {
  test(`generated input ${i}: compute() equals retrysim`, () => {
    const fromEngine = engine.compute(inputs);
    assert.equal(fromEngine.ok, true, `input ${JSON.stringify(inputs)} is not valid: ${JSON.stringify(fromEngine.errors)}`);
    const { status, result, stderr } = retrysimResult(inputs);
    assert.equal(status, 0, stderr);
    const difference = firstDifference(asJson(fromEngine), result);
    assert.equal(difference, null, `compute() vs retrysim differ at ${difference}; inputs: ${JSON.stringify(inputs)}`);
    assert.deepStrictEqual(asJson(fromEngine), result);
  });
});
