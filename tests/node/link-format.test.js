// The link format's one table (web/share/link-format.json, docs/engine.md §4): its facts (the
// version, the length limit, the separators, the escapes, `none`, the part names, the decimal
// grammar, the words of every problem) are read by the page's codec and by retrysim alike, and
// neither keeps a copy of its own. Three ways to see it: each fact is named by both sides' code;
// no fact's value is written in either side's code; and a table changed in every fact
// (link-format-scratch.mjs) is followed by both readers, the page's codec loaded beside it and a
// retrysim built on it (tests/CMakeLists.txt, retrysim_scratch_format), the same way.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { repo, loadEngine } = require('./support.js');

const TABLE = JSON.parse(fs.readFileSync(path.join(repo, 'web/share/link-format.json'), 'utf8'));
const PAGE = ['web/share/codec.js', 'web/share/compare-link.js', 'web/fleet/model.js', 'web/compare/fleet.js'];
const CLI = ['bindings/cli/link.cpp', 'bindings/cli/compare.cpp'];
// Each side's code without its comments (a comment may quote the format).
const code = (files) => files.map((f) => fs.readFileSync(path.join(repo, f), 'utf8')).join('\n')
  .replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '').replace(/\s\/\/ .*$/gm, '');
const FACTS = Object.keys(TABLE).filter((k) => k !== 'about' && k !== 'words');
const WORDS = Object.keys(TABLE.words);

test('every fact of the link format table is read by the page\'s codec and by retrysim', () => {
  const page = code(PAGE);
  const cli = code(CLI).replace(/const LinkFormat& linkFormat\(\) \{[\s\S]*?\n\}\n/, ''); // not the loader
  const destructured = [...page.matchAll(/const \{([^}]*)\} = FORMAT/g)].map((m) => m[1]).join(',');
  const unread = (side, uses) => [...FACTS.filter((k) => !uses(k)), ...WORDS.filter((w) => !new RegExp(`['"]${w}['"]`).test(side))];
  assert.deepEqual(unread(page, (k) => new RegExp(`FORMAT\\.${k}\\b`).test(page) || new RegExp(`\\b${k}\\b`).test(destructured)), [], 'the page');
  // retrysim: a member of linkFormat() used outside its loader; `decimal` is its signs, point, exponent.
  const member = (k) => (k === 'decimal' ? ['signs', 'point', 'exponent'] : [k]).every((m) => new RegExp(`(F\\(\\)|\\bf|linkFormat\\(\\))\\.${m}\\b`).test(cli));
  assert.deepEqual(unread(cli, (k) => member(k) || (k === 'maxLength' ? false : new RegExp(`find\\("${k}"\\)`).test(cli))), [], 'retrysim');
});

test('neither side keeps its own copy of a fact: no word, part name, limit or separator is written in its code', () => {
  // compare/fleet.js's link lines only: its controls' text boxes say their own words.
  const compareFleet = code(['web/compare/fleet.js']);
  const fleetLinkLines = compareFleet.slice(compareFleet.indexOf('export function parseFleetCompareLink'), compareFleet.indexOf('export function alignedSeries'));
  assert.ok(fleetLinkLines.length > 500, 'compare/fleet.js has its link reader');
  for (const [side, text] of [['the page', code(PAGE.slice(0, 3)) + fleetLinkLines], ['retrysim', code(CLI)]]) {
    // Each word's fixed text between its {names}, where it is long enough to be the word's own.
    const kept = Object.entries(TABLE.words).flatMap(([w, said]) => said.split(/\{\w+\}/).filter((bit) => bit.trim().length >= 12).map((bit) => [w, bit]))
      .filter(([, bit]) => text.includes(bit)).map(([w, bit]) => `${w}: "${bit}"`);
    assert.deepEqual(kept, [], `${side} writes these words itself`);
    assert.ok(!/\b2_?000_?000\b/.test(text), `${side} writes the length limit itself`);
    for (const part of Object.values(TABLE.partNames)) assert.ok(!text.includes(`'${part}'`) && !text.includes(`"${part}"`), `${side} names the part ${part} itself`);
  }
  // The readers proper (not the fleet or comparison code, whose ',' and ':' are other things).
  for (const file of ['web/share/codec.js', 'web/share/compare-link.js', 'bindings/cli/link.cpp']) {
    const text = code([file]);
    for (const key of ['pairs', 'equals', 'items', 'parts', 'named', 'memberItems', 'none']) {
      const fact = TABLE[key];
      const own = [`'${fact}'`, `"${fact}"`].filter((q) => text.includes(`split(text, ${q})`) || text.includes(`split(raw, ${q})`) || text.includes(`.split(${q})`) || text.includes(`.join(${q})`) || text.includes(`== ${q}`) || text.includes(`=== ${q}`) || text.includes(`? ${q}`) || text.includes(`find(${q})`));
      assert.deepEqual(own, [], `${file} writes ${key} (${fact}) itself`);
    }
    assert.ok(!/['"]v=1['"]/.test(text), `${file} writes the version itself`);
  }
});

// --- a changed table: both readers follow it --------------------------------------------------

const scratchPath = process.env.RETRYSIM_SCRATCH_FORMAT || path.join(repo, 'build', 'native', 'tests', 'retrysim_scratch_format');

let scratch;
async function scratchSides() {
  if (scratch) return scratch;
  const { scratchFormat } = await import(path.join(repo, 'tests/node/link-format-scratch.mjs'));
  const table = scratchFormat(TABLE);
  // The page's codec beside the changed table (codec.js reads nothing else).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'link-format-'));
  fs.copyFileSync(path.join(repo, 'web/share/codec.js'), path.join(dir, 'codec.js'));
  fs.writeFileSync(path.join(dir, 'link-format.json'), JSON.stringify(table));
  const codecModule = await import(path.join(dir, 'codec.js'));
  const codec = codecModule.linkCodec((await loadEngine()).schema());
  const page = (link) => codec.parseLink(link, { pageKeys: table.pageKeys });
  const cli = (link) => {
    assert.ok(fs.existsSync(scratchPath), `no scratch build at ${scratchPath}: build the native preset`);
    const run = spawnSync(scratchPath, ['--link', link], { encoding: 'utf8', timeout: 60000 });
    assert.equal(run.signal, null);
    return { status: run.status, json: JSON.parse(run.stdout), stderr: run.stderr };
  };
  scratch = { table, codec, codecModule, page, cli };
  return scratch;
}

test('a link written by the changed table reads the same in both: its separators, none, part names', async () => {
  const { page, cli } = await scratchSides();
  const link = 'v=7&scratchKey=1&maxRetries=5&deadlineMs=nil&scenario=script&script=429~wait@2|200&retryOn=timeout|429';
  const read = page(link);
  assert.deepEqual(read.problems, []);
  const expected = { maxRetries: 5, deadlineMs: null, scenario: 'script', script: [{ status: 429, retryAfter: '2' }, { status: 200 }], retryOn: ['timeout', '429'] };
  assert.deepEqual(read.inputs, expected);
  const run = cli(link);
  assert.equal(run.status, 0, run.stderr);
  for (const [name, value] of Object.entries(expected)) assert.deepEqual(run.json.inputs[name], value, name);
});

test('the changed table\'s problems are both readers\' words: grammar, twice, entries, version, length', async () => {
  const { page, cli } = await scratchSides();
  const bad = [
    ['v=7&maxRetries=+5', 'maxRetries', 'is no number, nor nil (scratch)'],
    ['v=7&maxRetries=1&maxRetries=2', 'maxRetries', 'is said twice (scratch)'],
    ['v=7&script=429~ra@2', 'script', 'entry 1: ra@2 is none of a code, lost, dropped, wait@ or date@'],
    ['v=1&maxRetries=5', 'v', 'is not v=7 (READER)'],
    [`v=7&maxRetries=1&x=${'a'.repeat(400)}`, 'link', /^is 4\d\d characters long, more than READER reads$/],
  ];
  for (const [link, key, reason] of bad) {
    const shown = page(link).problems;
    const run = cli(link);
    assert.equal(run.status, 2, `${link}: ${run.stderr}`);
    const said = run.json.errors.map((e) => ({ key: e.field, reason: e.detail }));
    for (const [side, problems, reader] of [['page', shown, 'this page'], ['retrysim', said, 'retrysim']]) {
      assert.deepEqual(problems.map((p) => p.key), [key], `${side}: ${link}`);
      const want = typeof reason === 'string' ? reason.replace('READER', reader) : new RegExp(reason.source.replace('READER', reader));
      if (typeof want === 'string') assert.equal(problems[0].reason, want, `${side}: ${link}`);
      else assert.match(problems[0].reason, want, `${side}: ${link}`);
    }
    if (key !== 'v' && key !== 'link') assert.equal(said[0].reason, shown[0].reason, link);
  }
});

test('the page\'s writer follows the changed table too: its separators, none, part names and escapes', async () => {
  const { codec, codecModule } = await scratchSides();
  const hash = codec.encodeLink({ ...codec.defaults, maxRetries: 5, deadlineMs: null, scenario: 'script', script: [{ status: 429, retryAfter: '2' }, { status: 200 }], retryOn: ['timeout', '429'] });
  assert.match(hash, /^v=7&/);
  for (const part of ['maxRetries=5', 'deadlineMs=nil', 'script=429~wait@2|200', 'retryOn=timeout|429']) assert.ok(hash.split('&').includes(part), `${part} in ${hash}`);
  assert.equal(codecModule.escapeText('a-b~c'), 'a%2Db%7Ec');
});
