#!/usr/bin/env node
// Writes the fuzz target's seed corpus (fuzz/corpus/) from the shared conformance cases:
// each case's inputs as one file (case-*.json), a sweep request over each of the five sweep
// fields for the seed scenarios (sweep-*.json), the hostile inputs below (hostile-*.json), and
// from the engine's input table (retrysim --schema) each row at the ends of its range and
// each of its choices (row-*.json). Run it again when the cases or the inputs change:
//   node fuzz/make-corpus.js [path/to/cases.json]      (RETRYSIM: retrysim, default the native build's)
'use strict';

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const casesPath = process.argv[2] || path.join(__dirname, '..', 'spec', 'conformance', 'cases.json');
const out = path.join(__dirname, 'corpus');
fs.mkdirSync(out, { recursive: true });
for (const name of fs.readdirSync(out)) if (/^(case|sweep|hostile|row)-.*\.json$/.test(name)) fs.unlinkSync(path.join(out, name));

const slug = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60);
const write = (name, text) => fs.writeFileSync(path.join(out, name), text);

const { cases } = JSON.parse(fs.readFileSync(casesPath, 'utf8'));
cases.forEach((c, i) => write(`case-${String(i + 1).padStart(3, '0')}-${slug(c.name)}.json`, JSON.stringify(c.inputs)));

const sweeps = [
  { vary: 'deadlineMs', from: 3000, to: 4000, points: 11 },
  { inputs: { scenario: 'outage-503-twice' }, vary: 'maxRetries', from: 0, to: 6, points: 7 },
  { inputs: { idempotencyKey: true }, vary: 'clientTimeoutMs', from: 100, to: 4000, points: 40 },
  { inputs: { jitter: 'full', draws: [0.4, 0.75] }, vary: 'baseBackoffMs', from: 0, to: 2000, points: 21 },
  { inputs: { scenario: 'request-lost', deadlineMs: null }, vary: 'responseMs', from: 0, to: 5000, points: 51 },
  { inputs: cases.find((c) => c.name === 'trace A').inputs, vary: 'deadlineMs', from: 0, to: 10000, points: 101 },
];
sweeps.forEach((s, i) => write(`sweep-${i + 1}-${s.vary}.json`, JSON.stringify(s)));

// Inputs that a careless binding or engine would mishandle: each is refused with a message,
// or computed, never a crash.
const hostile = {
  'not-an-object': '[1, 2, 3]',
  'empty': '',
  'null': 'null',
  'number-overflow': '{"maxRetries": 1e999}',
  'huge-numbers': '{"baseBackoffMs": 1e308, "backoffMultiplier": 10, "maxRetries": 100, "deadlineMs": null, "clientTimeoutMs": 86400000}',
  'tiny-numbers': '{"baseBackoffMs": 5e-324, "responseMs": 1e-320, "clientTimeoutMs": 1, "maxRetries": 100}',
  'negative-zero': '{"maxRetries": -0, "baseBackoffMs": -0.0, "deadlineMs": -0}',
  'wrong-types': '{"maxRetries": "3", "draws": "0.5", "retryOn": "timeout", "script": {}, "callers": true}',
  'unknown-fields': '{"maxRetry": 3, "script": [{"status": 200, "extra": 1}], "__proto__": {}}',
  'duplicate-keys': '{"maxRetries": 1, "maxRetries": 200}',
  'unicode-id': '{"operationId": "\\ud83d\\ude00\\u00e9\\u0000x", "idempotencyKey": true}',
  'long-id': JSON.stringify({ operationId: 'x'.repeat(256) }),
  'deep': '['.repeat(600) + ']'.repeat(600),
  'deep-in-string': JSON.stringify({ operationId: '['.repeat(600) }),
  'bad-dates': JSON.stringify({ scenario: 'script', startDate: 'Sun, 29 Feb 2026 10:00:00 GMT',
    script: [{ status: 429, retryAfter: 'Sun, 06 Nov 94 08:49:37 GMT', date: 'yesterday' }] }),
  'past-and-far-dates': JSON.stringify({ scenario: 'script', startDate: 'Sat, 01 Jan 0000 00:00:00 GMT',
    script: [{ status: 503, retryAfter: 'Fri, 31 Dec 9999 23:59:60 GMT', date: 'Thu, 01 Jan 1970 00:00:00 GMT' },
      { status: 429, retryAfter: 'Sunday, 06-Nov-94 08:49:37 GMT' }, { status: 200 }] }),
  'every-knob': JSON.stringify({ scenario: 'script', operation: 'create', maxRetries: 100, jitter: 'proportional',
    jitterLow: 0, jitterHigh: 2, ceilingScheduleMs: [0, 86400000], retryOnStatuses: [409, 599], retryAfterStatuses: [413],
    retryAfterMode: 'at-least', retryAfterMaxMs: 0, firstRetryImmediate: true, minBackoffMs: 86400000,
    idempotencyKey: true, clientTimeoutMs: 1, responseMs: 86400000, deadlineMs: null, waitBudgetMs: null,
    retryOn: ['timeout', '429', '5xx', '4xx'], seed: 9007199254740991, callers: 1000,
    script: [{ dropped: true }, { status: 409, lost: true }, { status: 413, retryAfter: '86400' }, { status: 200 }] }),
  'herd-decorrelated': JSON.stringify({ jitter: 'decorrelated', callers: 100000, maxBackoffMs: null, scenario: 'outage-503-twice' }),
  'sweep-tiny-range': JSON.stringify({ vary: 'deadlineMs', from: 3699.9999999, to: 3700.0000001, points: 1000 }),
  'sweep-whole': JSON.stringify({ vary: 'maxRetries', from: 0, to: 100, points: 1000, inputs: { scenario: 'script', script: [{ status: 503 }] } }),
  'sweep-bad': '{"vary": "seed", "from": "a", "to": 1e999, "points": 1.5, "inputs": [], "extra": 1}',
};
for (const [name, text] of Object.entries(hostile)) write(`hostile-${name}.json`, text);

// Each row of the input table at its edges: the smallest and largest number (or list of one),
// every choice, the longest string, null where allowed; a presence rule's sibling set so that
// the row is allowed.
const retrysim = process.env.RETRYSIM || path.join(__dirname, '..', 'build', 'native', 'bindings', 'cli', 'retrysim');
const rows = JSON.parse(execFileSync(retrysim, ['--schema'], { encoding: 'utf8' })).inputs;
function edges(row) {
  switch (row.type) {
    case 'number': return [row.min, row.max];
    case 'choice': return row.choices.map((c) => c.name);
    case 'string': return ['x'.repeat(Math.max(row.minLength, 1)), 'é'.repeat(row.maxLength ?? 100)];
    case 'boolean': return [!row.default];
    case 'http-date': return ['Sunday, 06-Nov-94 08:49:37 GMT', 'Sun Nov  6 08:49:37 1994'];
    case 'list': return row.items.type === 'object' ? [[{ status: 503, retryAfter: '1' }, { dropped: true }, { status: 200, lost: true }]]
      : edges(row.items).map((item) => [item]);
    default: return [];
  }
}
let rowFiles = 0;
for (const row of rows) {
  const values = edges(row).concat(row.nullable ? [null] : []);
  values.forEach((value, i) => {
    const inputs = {};
    for (const rule of [row.onlyWhen, row.requiredWhen]) if (rule) inputs[rule.field] = rule.value;
    inputs[row.name] = value;
    write(`row-${row.name}-${i}.json`, JSON.stringify(inputs));
    ++rowFiles;
  });
}
console.log(`wrote ${cases.length} cases, ${sweeps.length} sweeps, ${Object.keys(hostile).length} hostile inputs and ` +
            `${rowFiles} row edges to ${out}`);
