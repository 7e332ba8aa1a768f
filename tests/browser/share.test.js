// Links: the format against the real engine in node (random runs both ways, the pinned
// defaults, every way a hand-written link goes wrong), then in the browser: a link opens
// exactly its run, the page's changes reach the hash by replaceState only, Copy link copies
// it, and a hostile hash shows the notice, runs nothing and keeps the defaults.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, assertClean, browserSuite, openPage, reopenPage } from './lib/harness.js';
import { random } from './lib/engine.js';
import { ID, drawViews, frames, metricsOf } from './lib/ui.js';
import { MAX_LINK_LENGTH, attributeName, isLink, linkCodec } from '../../web/share/codec.js';
import { acceptInputs } from '../../web/share/accept.js';
import { readLink } from '../../web/share/link.js';
import { problemText } from '../../web/share/notice.js';
import { validateInputs } from '../../web/validate.js';

const env = browserSuite({ engine: true });
const compute = (inputs) => env.compute(inputs);
// The link format for the engine's own table, and what readLink asks the engine.
const codec = () => linkCodec(env.codec ??= env.engine.schema());
const engine = () => ({ codec: codec(), compute, validate: (inputs) => validateInputs(env.engine, inputs) });
const encodeLink = (inputs, page) => codec().encodeLink(inputs, page);
const parseLink = (hash, options) => codec().parseLink(hash, options);

// The defaults a v=1 link leaves out, pinned: a change of the engine's default must show up
// here as a failing test (and a new link version), never as old links that silently mean
// something else. An input added later leaves out its own default, which old links (that
// never name it) already had. `script` has none (it comes with scenario "script"); jitterLow and
// jitterHigh are 0 and 1 under jitter "proportional".
const DEFAULTS_V1 = Object.freeze({
  scenario: 'response-lost', operation: 'charge', operationId: 'op-0001', maxRetries: 3,
  baseBackoffMs: 500, backoffMultiplier: 2, maxBackoffMs: null, jitter: 'none', jitterLow: 0,
  jitterHigh: 1, draws: [], seed: 1, clientTimeoutMs: 3000, deadlineMs: 10000,
  waitBudgetMs: null, responseMs: 200, idempotencyKey: false, retryOn: ['timeout', '5xx'],
  retryWritesWithoutKey: true, honourRetryAfter: true, startDate: 'Sun, 29 Nov 2026 10:00:00 GMT',
  callers: 1, firstRetryImmediate: false, minBackoffMs: 0, ceilingScheduleMs: [],
  retryOnStatuses: [], retryAfterStatuses: [], retryAfterMode: 'replace', retryAfterMaxMs: null,
  // Added within v=1 (issue 16): their defaults are the behaviour every earlier link had.
  retryAfterOverMax: 'backoff', attemptStart: 'fits',
});

const plain = (x) => JSON.parse(JSON.stringify(x));
const OPENING = { attempts: '2', charges: '2', replays: '0', elapsed: '3,700 ms', outcome: 'success', lookup: 'no' };

// Text that a link must carry through its separators and escapes untouched.
const AWKWARD = ['order #42 & co', 'a,b~c=d&e', 'é✓ 😀', '<img src=x onerror=alert(1)>', '%41%', 'none', ' spaced ', '+plus+', "it's (quoted) *!", 'x'.repeat(255)];
const DATES = ['Sun, 29 Nov 2026 10:00:00 GMT', 'Sunday, 29-Nov-26 10:00:07 GMT', 'Sun Nov 29 10:00:09 2026', 'Mon, 30 Nov 2026 00:00:00 GMT'];
const RETRY_AFTERS = ['2', '0', ' 3 ', '86400', 'soon', '', 'a~b,c;d&e=f#g%h+i <b>', ...DATES];

// Random inputs over every engine input; each is present with probability 0.6.
export function randomInputs(next) {
  const pick = (list) => list[Math.floor(next() * list.length)];
  const some = (list) => list.filter(() => next() < 0.5);
  const maybe = (name, make, inputs) => { if (next() < 0.6) inputs[name] = make(); };
  const inputs = {};
  if (next() < 0.35) {
    inputs.scenario = 'script';
    inputs.script = Array.from({ length: 1 + Math.floor(next() * 5) }, () => {
      const entry = {};
      const fate = next();
      if (fate < 0.15) entry.dropped = true;
      if (fate >= 0.15 || next() < 0.5) entry.status = pick([200, 201, 302, 400, 404, 409, 429, 500, 503]);
      if (fate > 0.8) entry.lost = true;
      if (next() < 0.3) entry.retryAfter = pick(RETRY_AFTERS);
      if (next() < 0.2) entry.date = pick(DATES);
      return entry;
    });
  } else {
    maybe('scenario', () => pick(['response-lost', 'request-lost', 'outage-503-twice', 'bad-request-400']), inputs);
  }
  maybe('operation', () => pick(['charge', 'create', 'read']), inputs);
  maybe('operationId', () => pick(AWKWARD), inputs);
  maybe('maxRetries', () => Math.floor(next() * 11), inputs);
  maybe('baseBackoffMs', () => pick([0, 0.1, 500, 123.456, 1e-7, 86400000, next() * 5000]), inputs);
  maybe('backoffMultiplier', () => pick([1, 1.5, 2, 10, 1 + next()]), inputs);
  maybe('maxBackoffMs', () => pick([null, 0, 800, 8000]), inputs);
  maybe('jitter', () => pick(['none', 'full', 'equal', 'decorrelated', 'proportional']), inputs);
  if (inputs.jitter === 'proportional') {
    maybe('jitterLow', () => pick([0, 0.5, 0.8]), inputs);
    maybe('jitterHigh', () => pick([1, 1.2, 2]), inputs);
  }
  maybe('draws', () => Array.from({ length: Math.floor(next() * 6) }, () => pick([0, 1, 0.4, next()])), inputs);
  maybe('seed', () => pick([0, 1, 42, 2 ** 53 - 1]), inputs);
  maybe('clientTimeoutMs', () => pick([1, 0.5, 200, 500, 3000]), inputs);
  maybe('deadlineMs', () => pick([null, 0, 3500, 10000]), inputs);
  maybe('waitBudgetMs', () => pick([null, 0, 20000]), inputs);
  maybe('responseMs', () => pick([0, 200, 4000]), inputs);
  for (const name of ['idempotencyKey', 'retryWritesWithoutKey', 'honourRetryAfter', 'firstRetryImmediate']) maybe(name, () => next() < 0.5, inputs);
  maybe('retryOn', () => some(['5xx', 'timeout', '429', '4xx']), inputs);
  maybe('startDate', () => pick(DATES.slice(0, 1).concat(['Tue, 01 Dec 2026 08:30:00 GMT'])), inputs);
  maybe('callers', () => pick([1, 2, 50]), inputs);
  maybe('minBackoffMs', () => pick([0, 500]), inputs);
  maybe('ceilingScheduleMs', () => some([100, 250.5, 1000, 0]), inputs);
  maybe('retryOnStatuses', () => some([409, 500, 502, 503]), inputs);
  maybe('retryAfterStatuses', () => some([413, 429, 503]), inputs);
  maybe('retryAfterMode', () => pick(['replace', 'at-least']), inputs);
  maybe('retryAfterMaxMs', () => pick([null, 0, 60000]), inputs);
  return inputs;
}

// n random runs the engine accepts, each with its result.
function randomRuns(seed, n) {
  const next = random(seed);
  const runs = [];
  let tries = 0;
  while (runs.length < n) {
    tries += 1;
    const inputs = randomInputs(next);
    const result = compute(inputs);
    if (result.ok) runs.push({ inputs, result });
  }
  assert.ok(runs.length / tries > 0.7, `the generator makes mostly valid runs (${runs.length} of ${tries})`);
  return runs;
}

describe('the link format, against the engine', () => {
  test('the defaults a v=1 link leaves out are the engine\'s, and every engine input has a name', () => {
    const echo = compute({}).inputs;
    const proportional = compute({ jitter: 'proportional', scenario: 'script', script: [{ status: 200 }] }).inputs;
    for (const [name, value] of Object.entries({ ...proportional, ...echo })) {
      if (name === 'script') continue; // no default: it comes with scenario "script"
      assert.deepEqual(DEFAULTS_V1[name], value, `default of ${name}`);
    }
    // An input the table adds later takes its own default; none of v=1's may change.
    for (const [name, value] of Object.entries(DEFAULTS_V1)) assert.deepEqual(codec().defaults[name], value, `v=1's default of ${name}`);
    // `layers` and `hedging` are echoed only when given (docs/layers.md §2, docs/throttling.md
    // §6.1); a link carries each as one key.
    const stacked = compute({ layers: [{}] }).inputs;
    const hedged = compute({ maxRetries: 0, hedging: { maxAttempts: 2 } }).inputs;
    // docs/servers.md §2's rows are echoed only when given too.
    const replicated = compute({
      servers: { count: 2 }, balancer: { kind: 'random' }, retryHost: 'previous-hosts', hostSelectionRetryMaxAttempts: 2,
      faults: [{ kind: 'crash', servers: [0], startMs: 0, endMs: 100 }], keyStore: { scope: 'replicated', lagMs: 5 },
    }).inputs;
    const engineNames = [...new Set([...Object.keys(proportional), ...Object.keys(stacked), ...Object.keys(hedged), ...Object.keys(replicated)])].sort();
    // `servers` (its overrides hold scripts: lists of objects in a list) is the one input a v=1
    // link does not carry yet (README, "Links to a run"); every other is named.
    assert.deepEqual(engineNames.filter((n) => !codec().fieldNames.includes(n)), ['servers'], 'the inputs a link cannot carry');
    assert.deepEqual([...codec().fieldNames].sort(), engineNames.filter((n) => n !== 'servers'), 'the link names exactly the engine\'s other inputs');
    assert.equal(encodeLink(echo), 'v=1', 'the opening run is the bare link');
  });

  test('600 random runs survive encode → parse → engine, every input and every awkward character', () => {
    for (const { inputs, result } of randomRuns(6, 600)) {
      const link = encodeLink(result.inputs);
      const read = readLink(`#${link}`, engine());
      assert.deepEqual(read.problems, [], `${link} reads without a problem`);
      assert.deepEqual(plain(read.result), plain(result), `${JSON.stringify(inputs)} → ${link}`);
      assert.equal(encodeLink(read.result.inputs), link, 'the link is canonical');
    }
  });

  test('a hand-written link: defaults by omission, bare switches, a missing v, %-escapes, none', () => {
    const read = (hash) => readLink(hash, engine());
    assert.deepEqual(read('#maxRetries=0').inputs, { maxRetries: 0 }, 'v may be left out');
    assert.deepEqual(read('#v=1&idempotencyKey').inputs, { idempotencyKey: true });
    assert.deepEqual(read('#v=1&deadlineMs=none&retryOn=').inputs, { deadlineMs: null, retryOn: [] });
    assert.deepEqual(read('#v=1&operationId=order%2042%20%26%20co').inputs, { operationId: 'order 42 & co' });
    assert.deepEqual(read('#v=1&%6DaxRetries=2').inputs, { maxRetries: 2 }, 'an escaped name');
    const script = read('#v=1&scenario=script&script=429~date:Sun%2C%2029%20Nov%202026%2010%3A00%3A00%20GMT~ra:Sun%2C%2029%20Nov%202026%2010%3A00%3A07%20GMT,200&operation=read&retryOn=timeout,429,5xx');
    assert.deepEqual(script.problems, []);
    assert.deepEqual(script.inputs.script, [{ status: 429, date: 'Sun, 29 Nov 2026 10:00:00 GMT', retryAfter: 'Sun, 29 Nov 2026 10:00:07 GMT' }, { status: 200 }]);
    assert.equal(script.result.attempts[0].waitAfterMs, 7000, 'trace C: 7 s from the response\'s Date');
  });

  test('everything that can go wrong in a link falls back to the default, named with a reason', () => {
    const { inputs, problems } = readLink('#v=1&maxRetries=1e999&baseBackoffMs=0x10&deadlineMs=-5&scenario=%3Cimg%20src%3Dx%3E'
      + '&nope=1&__proto__=x&constructor=1&idempotencyKey=maybe&draws=0.5,NaN&seed=1&seed=2&operationId=%E0%A4%A'
      + '&script=200~lost&jitterLow=0.5&responseMs=300&retryOn=timeout,timeout', engine());
    assert.deepEqual(inputs, { responseMs: 300 }, 'only the good input is used');
    assert.equal(Object.getPrototypeOf(inputs), Object.prototype, '__proto__ is not the object\'s prototype');
    assert.equal({}.x, undefined);
    const named = Object.fromEntries(problems.map((p) => [p.key, problemText(p)]));
    assert.deepEqual(Object.keys(named).sort(), ['__proto__', 'baseBackoffMs', 'constructor', 'deadlineMs', 'draws', 'idempotencyKey', 'jitterLow', 'maxRetries', 'nope', 'operationId', 'retryOn', 'scenario', 'script', 'seed'].sort());
    assert.match(named.maxRetries, /^maxRetries=1e999: must be a whole number from 0 to 100/);
    assert.match(named.baseBackoffMs, /is not a number/);
    assert.match(named.scenario, /^scenario=<img src=x>: must be one of/);
    assert.match(named.nope, /not an input/);
    assert.match(named.seed, /more than once/);
    assert.match(named.operationId, /broken %-escape/);
    assert.match(named.script, /only with scenario "script"/);
    assert.match(named.jitterLow, /only with jitter "proportional"/);
    assert.match(named.retryOn, /\S/);
  });

  test('a dependent input: scenario=script without a script falls back, and so does a script with a bad entry', () => {
    const alone = readLink('#v=1&scenario=script', engine());
    assert.deepEqual(alone.inputs, {});
    assert.match(problemText(alone.problems[0]), /^scenario=script: script is missing/);
    const bad = readLink('#v=1&scenario=script&script=200,999,bogus', engine());
    assert.deepEqual(bad.inputs, {});
    assert.deepEqual(bad.problems.map((p) => p.key).sort(), ['scenario', 'script']);
    const status = readLink('#v=1&scenario=script&script=200,999', engine());
    assert.deepEqual(status.problems.map((p) => p.key).sort(), ['scenario', 'script'], 'the engine names script[1].status; the script goes, then its scenario');
  });

  test('a link of another version, an anchor, and a link too long to read', () => {
    const v2 = parseLink('#v=2&maxRetries=0');
    assert.deepEqual(v2.inputs, {});
    assert.match(problemText(v2.problems[0]), /^v=2: is a link format this page does not read/);
    assert.equal(isLink('#experiment'), false);
    assert.equal(isLink(''), false);
    assert.equal(isLink('#v=1'), true);
    const long = parseLink(`#v=1&draws=${'0.5,'.repeat(MAX_LINK_LENGTH / 4)}0.5`);
    assert.deepEqual(long.inputs, {});
    assert.match(problemText(long.problems[0]), /characters long, more than this page reads/);
  });

  test('attribute names are the inputs in kebab-case, both ways', () => {
    assert.equal(attributeName('maxRetries'), 'max-retries');
    assert.equal(attributeName('retryAfterMaxMs'), 'retry-after-max-ms');
    for (const name of codec().fieldNames) assert.equal(codec().fieldOfAttribute(attributeName(name)), name);
  });

  test('the README\'s hand-written links read without a problem and give the runs it says', () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Links and embedding'));
    // (Its comparison links, view=compare, are compare mode's: tests/node/link-cli.test.js.)
    const links = [...section.matchAll(/`index\.html(#v=1[^`]*)`/g)].map((m) => m[1]).filter((l) => !l.includes('view=compare'));
    assert.ok(links.length >= 6, `${links.length} example links`);
    const said = {
      '#v=1': { charges: 2, outcome: 'success' },
      '#v=1&maxRetries=0': { charges: 1, outcome: 'unknown', attempts: 1 },
      '#v=1&idempotencyKey=true': { charges: 1, replays: 1, elapsedMs: 3700 },
      '#v=1&scenario=outage-503-twice&deadlineMs=2000': { elapsedMs: 900, charges: 0 },
      '#v=1&scenario=script&script=200~lost,200&clientTimeoutMs=500': { charges: 2, elapsedMs: 1200 },
    };
    for (const link of links) {
      const { problems, result } = readLink(link, engine());
      assert.deepEqual(problems, [], link);
      for (const [key, value] of Object.entries(said[link] || {})) assert.equal(result.metrics[key], value, `${link}: ${key}`);
    }
    const traceA = links.find((l) => l.includes('429~ra:2'));
    assert.deepEqual([readLink(traceA, engine()).result.metrics.attempts, readLink(traceA, engine()).result.metrics.outcome], [4, 'success']);
    // Every input the README lists by name is one the link format knows, and none is missing.
    // (The list ends at its sentence's full stop: the next sentence names what links leave out.)
    const listFrom = section.indexOf("The names are the engine's own");
    const listed = section.slice(listFrom, section.indexOf('.\n', listFrom));
    assert.deepEqual([...listed.matchAll(/`(\w+)`/g)].map((m) => m[1]).sort(), [...codec().fieldNames].sort());
  });

  test('acceptInputs never loops: each round leaves out an input, even when the engine blames none', () => {
    let calls = 0;
    const stubborn = (inputs) => { calls += 1; return Object.keys(inputs).length ? [{ field: 'general', code: 'conflict', message: 'no', detail: 'no' }] : []; };
    const out = acceptInputs({ maxRetries: 1, seed: 2 }, { validate: stubborn, compute });
    assert.deepEqual(out.inputs, {});
    assert.equal(out.problems.length, 2);
    assert.ok(calls <= 3);
  });
});

// Open the page on a hash and return what it shows: in a new page (openPage's), or in `into`, a
// page of this test's that is done with (issue 31: a new context is a renderer process of its
// own, about half a CPU·s), with openPage's steps again, through about:blank as the harness's
// reused page is between tests: a fresh document, engine and sections, its recorder (console,
// CSP, other hosts) kept, so assertClean on it also covers what it showed before.
async function openAt(hash, options = {}, into = null) {
  if (!into) return openPage(env, { ...options, path: `/${hash}` });
  return reopenPage(env, into, { path: `/${hash}` });
}

const pageResult = (page) => page.evaluate(() => JSON.parse(JSON.stringify(window.retryLab.getState().result)));
const pageFields = (page) => page.evaluate(() => window.retryLab.getState().fields);
// The notice's text now, or null when there is none (no waiting for one to appear).
const noticeText = (page) => page.evaluate(() => document.querySelector('#rl-notice')?.textContent ?? null);

describe('links in the browser', () => {
  test('random runs: a link opens exactly its run, the link box shows it, and it opens again the same', async (t) => {
    const runs = randomRuns(61, 16);
    const opened = await openAt('#v=1');
    const { page } = opened;
    for (const { result } of runs) {
      const link = encodeLink(result.inputs);
      // Editing the hash (a hashchange) loads the run.
      await page.evaluate((hash) => { location.hash = hash; }, link);
      await page.waitForFunction((hash) => document.querySelector('#rl-link').value.endsWith(`#${hash}`), link);
      assert.deepEqual(await pageResult(page), plain(result), link);
      assert.equal(await page.locator(ID('link')).inputValue(), `${env.server.origin}/#${link}`);
      assert.equal(await noticeText(page), null, 'no notice for a good link');
    }
    await assertClean(t, assert, opened);

    // Fresh pages opened on a few of those links.
    for (const { result } of runs.slice(0, 3)) {
      const link = encodeLink(result.inputs);
      const fresh = await openAt(`#${link}`, {}, opened);
      assert.deepEqual(await pageResult(fresh.page), plain(result));
      assert.equal(await fresh.page.evaluate(() => location.hash), `#${link}`, 'opening a link does not rewrite it');
      await assertClean(t, assert, fresh);
    }
  });

  test('changing inputs writes the hash with replaceState only; Copy link copies it; the link reopens the run', async (t) => {
    const opened = await openPage(env);
    const { page, context } = opened;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.origin });
    const historyBefore = await page.evaluate(() => history.length);
    for (const value of ['1', '2', '3', '4', '5', '0']) await page.locator(ID('maxRetries')).fill(value);
    await page.getByRole('radio', { name: 'HTTP 503 twice, then succeeds', exact: true }).check();
    await page.locator('#rl-controls').getByRole('checkbox', { name: 'Send an idempotency key the server honours' }).check();
    await page.locator(ID('deadlineMs')).fill('2500');
    await page.waitForFunction(() => location.hash === '#v=1&scenario=outage-503-twice&maxRetries=0&deadlineMs=2500&idempotencyKey=true');
    assert.equal(await page.evaluate(() => history.length), historyBefore, 'no history entries');
    const shown = await metricsOf(page);
    const fields = await pageFields(page);

    await page.getByRole('button', { name: 'Copy link' }).click();
    await page.getByText('Link copied.').waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, await page.evaluate(() => location.href));
    await assertClean(t, assert, opened);

    const again = await openAt(copied.slice(`${env.server.origin}/`.length), {}, opened);
    assert.deepEqual(await metricsOf(again.page), shown);
    assert.deepEqual(await pageFields(again.page), fields);
    await assertClean(t, assert, again);
  });

  test('a hostile hash shows the notice as text, runs nothing, requests nothing, and keeps the defaults', async (t) => {
    const img = '<img src=x onerror=window.__pwned=1>';
    const hash = `#v=1&scenario=${encodeURIComponent(img)}&${img}=1&maxRetries=1e999&baseBackoffMs=${'9'.repeat(400)}`
      + '&deadlineMs=-1&__proto__=polluted&constructor=%3Cscript%3Ewindow.__pwned%3D2%3C%2Fscript%3E&idempotencyKey=%3Csvg%20onload%3Dwindow.__pwned%3D3%3E'
      + `&draws=${'0.5,'.repeat(120000)}0.5&javascript:window.__pwned=4`;
    const opened = await openAt(hash);
    const { page } = opened;
    const requests = [];
    page.on('request', (r) => requests.push(r.url()));
    const notice = await noticeText(page);
    assert.ok(notice, 'the notice is shown');
    for (const word of ['scenario', img, 'maxRetries', 'baseBackoffMs', 'deadlineMs', '__proto__', 'constructor', 'idempotencyKey', 'draws', 'javascript:window.__pwned']) {
      assert.ok(notice.includes(word), `the notice names ${word}`);
    }
    assert.ok(notice.includes('<svg onload=window.__pwned=3>'), 'the value is shown as the text it is');
    assert.ok(notice.length < 4000, 'long values are shortened');
    assert.deepEqual(await metricsOf(page), OPENING, 'the defaults');
    assert.deepEqual(await pageFields(page), { scenario: 'response-lost', maxRetries: '3', baseBackoffMs: '500', clientTimeoutMs: '3000', deadlineMs: '10000', idempotencyKey: false, retryOn: 'timeouts-5xx' });
    const state = await page.evaluate(() => ({
      pwned: window.__pwned,
      polluted: ({}).polluted,
      images: document.querySelectorAll('img').length,
      svgs: [...document.querySelectorAll('svg')].filter((s) => s.hasAttribute('onload')).length,
      // The build's data block (web/prerender.mjs) is the page's one script without src; it runs nothing.
      inlineScripts: [...document.scripts].filter((s) => !s.src && !(s.id === 'rl-prerendered' && s.type === 'application/json')).length,
      noticeElements: document.querySelectorAll('.rl-notice *:not(p):not(ul):not(li):not(button)').length,
    }));
    assert.deepEqual(state, { pwned: undefined, polluted: undefined, images: 0, svgs: 0, inlineScripts: 0, noticeElements: 0 });
    await frames(page, 2); // an element that fetches starts when it is drawn: its request has been seen by now
    assert.deepEqual(requests.filter((u) => !u.startsWith('data:')), [], 'nothing was fetched (no /x)');
    assert.equal(await page.evaluate(() => location.hash.startsWith('#v=1&scenario=')), true, 'the link is left as it was');

    // The notice goes away when dismissed, and a later good link clears it too.
    await page.getByRole('button', { name: 'Dismiss' }).click();
    assert.equal(await noticeText(page), null);
    await page.evaluate(() => { location.hash = '#v=1&maxRetries=9&bogus=%3Cb%3E'; });
    await page.waitForFunction(() => document.querySelector('.rl-notice'));
    assert.match(await noticeText(page), /bogus=<b>: is not an input of the engine/);
    assert.equal((await metricsOf(page)).outcome, 'success');
    assert.equal(await page.locator(ID('maxRetries')).inputValue(), '9', 'the good input of a partly bad link is used');
    await page.evaluate(() => { location.hash = '#v=1&maxRetries=0'; });
    await page.waitForFunction(() => !document.querySelector('.rl-notice'));
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    await assertClean(t, assert, opened);
  });

  test('a valid input holding markup is shown as text wherever the page shows it', async (t) => {
    const id = '<img src=x onerror=window.__pwned=1>';
    const opened = await openAt(`#v=1&operation=create&operationId=${encodeURIComponent(id)}`);
    const { page } = opened;
    assert.equal(await noticeText(page), null);
    await drawViews(page);
    assert.ok((await page.locator(ID('table')).textContent()).includes(`record #1 for ${id}`));
    assert.ok((await page.locator(ID('events')).textContent()).includes(id));
    assert.equal(await page.evaluate(() => [document.querySelectorAll('img').length, window.__pwned]).then(JSON.stringify), '[0,null]');
    await assertClean(t, assert, opened);
  });

  test('an anchor is not a link, and a link of an unknown version says so', async (t) => {
    const anchor = await openAt('#experiment');
    assert.equal(await noticeText(anchor.page), null);
    assert.equal(await anchor.page.evaluate(() => location.hash), '#experiment');
    await anchor.page.getByRole('link', { name: 'Skip to the experiment' }).focus();
    await anchor.page.keyboard.press('Enter');
    assert.equal(await noticeText(anchor.page), null);
    assert.deepEqual(await metricsOf(anchor.page), OPENING);
    await assertClean(t, assert, anchor);

    const v9 = await openAt('#v=9&maxRetries=0');
    assert.match(await noticeText(v9.page), /v=9: is a link format this page does not read/);
    assert.deepEqual(await metricsOf(v9.page), OPENING);
    await assertClean(t, assert, v9);
  });
});
