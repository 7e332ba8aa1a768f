// The docs against the engine's own input table (docs/engine.md §4): SPEC §2's table and
// docs/engine.md §2's table document every row once, with its default, and the README's list
// of link names is the table's names.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { test, before } = require('node:test');

const { repo, loadEngine } = require('./support.js');

let rows;
before(async () => { rows = (await loadEngine()).schema().inputs; });

const read = (file) => fs.readFileSync(path.join(repo, file), 'utf8');
const section = (text, heading) => {
  const start = text.indexOf(`\n## ${heading}`);
  assert.ok(start >= 0, `no section ${heading}`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
};

// { name: default } from a markdown table whose rows begin | `name` | default |; a default of
// – means none, `none` is null.
function documented(text) {
  const out = new Map();
  for (const line of text.split('\n')) {
    const m = /^\| `(\w+)` \| ([^|]+) \|/.exec(line);
    if (!m) continue;
    const cell = m[2].trim().replace(/^`|`$/g, '');
    assert.ok(!out.has(m[1]), `${m[1]} is documented twice`);
    out.set(m[1], cell === '–' ? undefined : cell === 'none' ? null : JSON.parse(cell));
  }
  return out;
}

test('SPEC §2 and docs/engine.md §2 document every input once, with the default schema() gives', () => {
  const spec = documented(section(read('spec/SPEC.md'), '2.'));
  const engineDoc = documented(section(read('docs/engine.md'), '2.'));
  assert.ok(spec.size >= 20 && engineDoc.size >= 9, `${spec.size} and ${engineDoc.size} rows`);
  for (const name of engineDoc.keys()) assert.ok(!spec.has(name), `${name} is in both tables`);
  const docs = new Map([...spec, ...engineDoc]);
  assert.deepEqual([...docs.keys()].sort(), rows.map((r) => r.name).sort());
  for (const row of rows) assert.deepEqual(docs.get(row.name), row.default, `the default of ${row.name}`);
});

test('the README lists the link names as the engine\'s own: every input the v=1 format carries, none else, and names the ones it does not', async () => {
  const { linkCodec } = await import(path.join(repo, 'web/share/codec.js'));
  const carried = linkCodec({ inputs: rows }).fieldNames;
  const readme = read('README.md');
  const start = readme.indexOf('The names are the engine\'s own:');
  assert.ok(start >= 0, 'the README names the link\'s inputs');
  const list = readme.slice(start, readme.indexOf('.\n', start));
  const names = [...list.matchAll(/`(\w+)`/g)].map((m) => m[1]);
  assert.deepEqual([...names].sort(), [...carried].sort());
  // The inputs a v=1 link cannot carry (a list of objects that hold lists: layers) are named
  // in the sentence that follows, so the README says what a link leaves out.
  const after = readme.slice(readme.indexOf('.\n', start), readme.indexOf('\n\n', readme.indexOf('.\n', start) + 2));
  for (const row of rows.filter((r) => !carried.includes(r.name))) assert.match(after, new RegExp(`\`${row.name}\``), row.name);
});
