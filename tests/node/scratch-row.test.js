// Issue 13's "done when": a throwaway field added to the table in a scratch build is validated,
// echoed and carried by a link, with nothing in web/ touched. The scratch build is retrysim
// with core/src/validate.cpp compiled again under RETRYLAB_SCRATCH_ROW, which adds one row,
// `scratchMs` (tests/CMakeLists.txt); the page's link format is built from its --schema.
'use strict';

const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');

const { repo, runRetrysim } = require('./support.js');

const scratchPath = process.env.RETRYSIM_SCRATCH_ROW ||
  path.join(repo, 'build', 'native', 'tests', 'retrysim_scratch_row');

// The scratch retrysim, run as support.js runs the real one.
function runScratch(input, args = []) {
  assert.ok(fs.existsSync(scratchPath), `no scratch build at ${scratchPath}: build the native preset`);
  const run = spawnSync(scratchPath, args, { input, encoding: 'utf8', timeout: 60000 });
  if (run.error) throw run.error;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

test('the scratch build lists the new row; the real build does not', () => {
  const schema = JSON.parse(runScratch('', ['--schema']).stdout);
  const real = JSON.parse(runRetrysim('', ['--schema']).stdout);
  const row = schema.inputs.at(-1);
  assert.equal(row.name, 'scratchMs');
  assert.deepEqual([row.type, row.unit, row.default, row.min, row.max, row.nullable], ['number', 'ms', 250, 0, 1000, false]);
  assert.equal(real.inputs.find((r) => r.name === 'scratchMs'), undefined);
  // A policy row (group client) is every layer's too (docs/layers.md §2): the layer's copy of it,
  // made from the same row, is the one other difference.
  const layers = schema.inputs.find((r) => r.name === 'layers');
  const copy = layers.items.members.find((m) => m.name === 'scratchMs');
  assert.deepEqual([copy.type, copy.unit, copy.min, copy.max, 'default' in copy], ['number', 'ms', 0, 1000, false]);
  layers.items.members = layers.items.members.filter((m) => m.name !== 'scratchMs');
  assert.deepEqual(schema.inputs.slice(0, -1), real.inputs, 'the row is the only difference');
});

test('the new row is validated and echoed, at its default when left out', () => {
  const echo = (inputs) => JSON.parse(runScratch(JSON.stringify(inputs)).stdout);
  assert.equal(echo({}).inputs.scratchMs, 250);
  assert.equal(echo({ scratchMs: 300 }).inputs.scratchMs, 300);
  const bad = runScratch(JSON.stringify({ scratchMs: 2000 }), ['--check']);
  assert.equal(bad.status, 2);
  assert.deepEqual(JSON.parse(bad.stdout).errors.map((e) => [e.field, e.code]), [['scratchMs', 'out-of-range']]);
  const wrong = JSON.parse(runScratch(JSON.stringify({ scratchMs: 'soon' }), ['--check']).stdout);
  assert.deepEqual(wrong.errors.map((e) => [e.field, e.code]), [['scratchMs', 'wrong-type']]);
  // The real build refuses it as an unknown input.
  const real = JSON.parse(runRetrysim(JSON.stringify({ scratchMs: 300 }), ['--check']).stdout);
  assert.deepEqual(real.errors.map((e) => [e.field, e.code]), [['scratchMs', 'unknown-field']]);
});

test('a link built from the scratch build\'s table carries the new row, leaving its default out', async () => {
  const { linkCodec } = await import(path.join(repo, 'web', 'share', 'codec.js'));
  const schema = JSON.parse(runScratch('', ['--schema']).stdout);
  const codec = linkCodec(schema);
  const defaults = JSON.parse(runScratch('{}').stdout).inputs;
  assert.equal(codec.encodeLink(defaults), 'v=1');
  const inputs = JSON.parse(runScratch(JSON.stringify({ scratchMs: 300, maxRetries: 1 })).stdout).inputs;
  const link = codec.encodeLink(inputs);
  assert.equal(link, 'v=1&maxRetries=1&scratchMs=300');
  const parsed = codec.parseLink(`#${link}`);
  assert.deepEqual(parsed.problems, []);
  assert.deepEqual(parsed.inputs, { maxRetries: 1, scratchMs: 300 });
  // The inputs the link reads run in the scratch build as they were.
  assert.deepEqual(JSON.parse(runScratch(JSON.stringify(parsed.inputs)).stdout).inputs, inputs);
});
