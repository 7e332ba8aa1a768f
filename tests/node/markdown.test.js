// The one Markdown writer (issue 30, docs/compare.md §5: core/src/markdown.cpp, retrysim's
// --format markdown and the engine's markdown(), which the page's "Copy as Markdown" calls):
// text from input renders as that text and nothing else, through GitHub's own renderer as
// Debian packages it (cmark-gfm with the table, autolink, strikethrough and tagfilter
// extensions), for the issue's link and for generated hostile strings (a property test with a
// fixed seed) in every place the writer puts a string; GitHub's own filters (mentions, issue
// references, emoji), which cmark-gfm does not have, are checked on the rendered text as
// docs/compare.md §5 says they read it. And --base-url: only an absolute http(s) URL, which
// can never close or add a link.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { loadEngine, runRetrysim, runRetrysimEach, seededRandom } = require('./support.js');

const repo = path.resolve(__dirname, '..', '..');

// GitHub's renderer: cmark-gfm (scripts/setup installs it; nothing here skips without it).
function render(markdown) {
  const run = spawnSync('cmark-gfm', ['-e', 'table', '-e', 'autolink', '-e', 'strikethrough', '-e', 'tagfilter'], { input: markdown, encoding: 'utf8' });
  assert.ok(!run.error, `cmark-gfm did not run (${run.error && run.error.message}): scripts/setup installs it`);
  assert.equal(run.status, 0, run.stderr);
  return run.stdout;
}

// The tags cmark-gfm writes for what the writer itself writes: paragraphs, tables, code, the
// bold flags, and the one link line (checked on its own). Anything else came from the input.
const OWN_TAGS = new Set(['p', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'code', 'strong', 'a']);

// cmark's HTML as tokens: { tag, close, attrs } or { text } (its four escapes decoded).
function tokens(html) {
  const out = [];
  const re = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>|([^<]+)|(<)/g;
  let m;
  while ((m = re.exec(html))) {
    if (m[2]) out.push({ tag: m[2].toLowerCase(), close: m[1] === '/', attrs: m[3] });
    else out.push({ text: (m[4] || m[5]).replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&') });
  }
  return out;
}

// What the rendered HTML says: its tags, its links, its table cells' text, the text of each
// paragraph, and its text nodes outside <code> (where GitHub's filters look).
function readHtml(html) {
  const tags = [];
  const links = [];
  const rows = [];
  const paragraphs = [];
  const outsideCode = [];
  let row = null;
  let cell = null;
  let para = null;
  let inCode = 0;
  for (const t of tokens(html)) {
    if (t.tag) {
      tags.push(t.tag);
      if (t.tag === 'a' && !t.close) links.push(((/href="([^"]*)"/.exec(t.attrs) || [])[1] || '').replace(/&amp;/g, '&'));
      if (t.tag === 'code') inCode += t.close ? -1 : 1;
      if (t.tag === 'tr') row = t.close ? (rows.push(row), null) : [];
      if (t.tag === 'td' || t.tag === 'th') cell = t.close ? (row.push(cell), null) : '';
      if (t.tag === 'p') para = t.close ? (paragraphs.push(para), null) : '';
    } else {
      if (cell !== null) cell += t.text;
      if (para !== null) para += t.text;
      if (!inCode) outsideCode.push(t.text);
    }
  }
  return { tags, links, rows, paragraphs, outsideCode };
}

// docs/compare.md §5's visible replacements, from its words: a C0 control as its Control
// Pictures sign (U+2400 + c), DEL as U+2421, C1, the bidi controls and U+2028/U+2029 as
// ‹U+XXXX›; a lone surrogate (which TextEncoder writes as U+FFFD) as U+FFFD.
function visible(s) {
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0);
    if (cp < 0x20) out += String.fromCodePoint(0x2400 + cp);
    else if (cp === 0x7f) out += '\u2421';
    else if ((cp >= 0x80 && cp <= 0x9f) || cp === 0x61c || cp === 0x200e || cp === 0x200f || (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) {
      out += `‹U+${cp.toString(16).toUpperCase().padStart(4, '0')}›`;
    } else if (cp >= 0xd800 && cp <= 0xdfff) out += '\ufffd';
    else out += ch;
  }
  return out;
}

// GitHub's filters on the rendered text (docs/compare.md §5): a mention (@user, @org/team),
// an issue reference (#1, org/repo#1, GH-1), an emoji shortcode (:tada:) can only start in a
// text node outside <code>; cmark-gfm's own autolinks are <a> elements (checked as tags).
function githubReferences(texts) {
  const found = [];
  for (const text of texts) {
    for (const re of [/@/, /#\d/, /\bGH-\d/i, /:[A-Za-z0-9_+-]+:/]) if (re.test(text)) found.push(`${re} in ${JSON.stringify(text)}`);
  }
  return found;
}

// Everything a rendering of hostile text must hold: only the writer's own tags, no link but
// `link` (when given), the table's columns, and the cells' and paragraphs' text as expected.
function assertLiteral(markdown, { cells = [], paragraphs = [], link = null, what }) {
  const html = render(markdown);
  const read = readHtml(html);
  const strange = read.tags.filter((tag) => !OWN_TAGS.has(tag));
  assert.deepEqual(strange, [], `${what}: tags from the input in ${html}`);
  assert.deepEqual(read.links, link ? [link] : [], `${what}: links in ${html}`);
  for (const [rowIndex, expected] of cells) {
    const row = read.rows[rowIndex];
    assert.ok(row, `${what}: no row ${rowIndex} in ${html}`);
    assert.deepEqual(row, expected, `${what}: row ${rowIndex} of ${html}`);
  }
  for (const [index, expected] of paragraphs) assert.equal(read.paragraphs[index], expected, `${what}: paragraph ${index} of ${html}`);
  const columns = new Set(read.rows.map((r) => r.length));
  assert.ok(columns.size <= 2, `${what}: rows of ${[...columns]} cells`);
  return read;
}

// A fixed-seed generator (support.js's mulberry32) of hostile strings: random mixes of Markdown's and
// GitHub's syntax, entities, URLs, www., emails, newlines, HTML comments, control and bidi
// characters, and plain words.
function generator(seed) {
  const { pick, int } = seededRandom(seed);
  const pieces = [
    ...'[]()!<>`*_~#@|\\&:;.$-=+ ', '  ', '\t', '\n', '\r\n', '\\|', '``', '```', '**', '__', '~~', '![t](https://track.example/p.gif)',
    '[see fix](https://evil.example)', '<!--', '-->', '<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '<b>', '</td>',
    '&amp;', '&#64;', '&lt;', '&#x3C;', '&copy', '&#0;', 'https://evil.example/p?q=1&r=(2)', 'http://a.b', 'ftp://f.example',
    'HTTPS://X.EXAMPLE', 'www.evil.example', 'WWW.X.COM', 'a.b@c.example', 'mailto:x@y.example', 'xmpp:u@h.example',
    '@org/team', '@user', '#123', 'org/repo#1', 'GH-12', 'gh-3', ':tada:', ':+1:', '$x^2$', '$$', '# heading', '- item',
    '1. item', '> quote', '---', '===', '[x]: https://ref.example', '<https://auto.example>', '<a@b.example>', 'javascript:alert(1)',
    '\u0000', '\u0007', '\u001b[31m', '\u007f', '\u0085', '\u009b', '\u202e', '\u2066', '\u2069', '\u200e', '\u061c', '\u2028',
    '\u200b', '\u200d', '\ufeff', '\ud800', 'é', '→', '😀', '👩‍💻', 'ok', 'maxRetries', '3,700 ms', 'a', 'Z', '0', '42',
  ];
  return () => {
    let s = '';
    const n = int(1, 8);
    for (let i = 0; i < n; ++i) s += pick(pieces);
    return s;
  };
}

// codec.js's escapeText: a value as a link writes it (a lone surrogate, which no link can
// hold, as U+FFFD).
const escapeText = (text) => encodeURIComponent(String(text).toWellFormed()).replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

// The issue's link: a live link, a tracking image, a team mention and an HTML comment.
const ISSUE_VALUE = '[see fix](https://evil.example) ![t](https://track.example/p.gif) @org/team <!--';
const ISSUE_LINK = '#v=1&view=compare&after.operationId=%5Bsee%20fix%5D(https%3A%2F%2Fevil.example)%20!%5Bt%5D(https%3A%2F%2Ftrack.example%2Fp.gif)%20%40org%2Fteam%20%3C!--';

function markdownOf(args) {
  return markdownFrom(runRetrysim('', args));
}

// markdownOf's answer from a run already made (runRetrysimEach's), its message naming `label`.
function markdownFrom(run, label = '') {
  assert.equal(run.status, 0, label ? `${label}: ${run.stderr}` : run.stderr);
  return run.stdout;
}

test('the issue\'s link: the value shows as itself, with no link, image, mention or comment', () => {
  const md = markdownOf(['--compare', '--format', 'markdown', '--link', ISSUE_LINK]);
  const read = assertLiteral(md, {
    what: 'the issue\'s link',
    cells: [[0, ['input', 'before', 'after']], [1, ['operationId', 'op-0001', ISSUE_VALUE]]],
    paragraphs: [[0, `Retry Lab, before → after: operationId op-0001 → ${ISSUE_VALUE}`]],
  });
  assert.deepEqual(githubReferences(read.outsideCode), []);
  // The rest of the comment is not hidden: what follows the value is rendered.
  assert.match(read.paragraphs[read.paragraphs.length - 1], /^Unchanged: outcome, charges/);
});

test('generated hostile strings, in every place the writer puts one, render as themselves (seed 30, 400 strings)', async () => {
  const engine = await loadEngine();
  const next = generator(30);
  let strings = 0;
  for (let i = 0; i < 400; ++i) {
    // (A lone surrogate cannot cross into the engine: its binding answers an error, below.)
    const s = next().toWellFormed();
    const v = visible(s);
    const words = {
      summary: ['lead ', s, ', ', { code: s }, ` ${s} → ${s}`],
      inputs: [{ name: s, before: s, after: 'x' }, { name: 'n', before: 'y', after: s }],
      metrics: [
        { label: s, before: s, after: s, change: s, flag: null },
        { label: s, before: '1', after: '2', change: s, flag: 'side-effect' },
      ],
      unchanged: [s, 'z'],
      base: 'https://retrylab.example/',
      link: `#v=1&view=compare&after.operationId=${escapeText(s)}`,
    };
    const answer = engine.markdown(words);
    assert.equal(answer.ok, true, JSON.stringify(answer.errors));
    const read = assertLiteral(answer.markdown, {
      what: `string ${i} ${JSON.stringify(s)}`,
      cells: [
        [1, [v, v, 'x']],
        [2, ['n', 'y', v]],
        [4, [v, v, v, v]],
        [5, [v, '1', '2', `${v}${v === '' ? '' : ', '}side effect changes`]],
      ],
      paragraphs: [[0, `Retry Lab, before → after: lead ${v}, ${v} ${v} → ${v}`], [1, `Unchanged: ${v}, z.`]],
      link: `https://retrylab.example/index.html#v=1&view=compare&after.operationId=${escapeText(s)}`,
    });
    assert.deepEqual(githubReferences(read.outsideCode), [], `string ${i} ${JSON.stringify(s)}: ${answer.markdown}`);
    ++strings;
  }
  assert.equal(strings, 400);
  const lone = engine.markdown({ summary: ['\ud800'], inputs: [], metrics: [] });
  assert.equal(lone.ok, false);
  assert.deepEqual(lone.errors.map((e) => e.field), ['summary[]']);
});

test('the same hostile strings through retrysim: an operationId from a link, in the summary and the input table', () => {
  const next = generator(3030);
  const strings = Array.from({ length: 120 }, () => next().slice(0, 200) || 'x');
  // Their runs started by one shell (support.js runRetrysimEach), each checked below in turn.
  const runs = runRetrysimEach(strings.map((s) => ({
    args: ['--link', `#v=1&view=compare&after.operationId=${escapeText(s)}`, '--format', 'markdown', '--base-url', 'https://retrylab.example/'],
  })));
  for (const [i, s] of strings.entries()) {
    const md = markdownFrom(runs[i], `operationId ${JSON.stringify(s)}`);
    const v = visible(s);
    const read = assertLiteral(md, {
      what: `operationId ${JSON.stringify(s)}`,
      cells: [[1, ['operationId', 'op-0001', v]]],
      paragraphs: [[0, `Retry Lab, before → after: operationId op-0001 → ${v}`]],
      link: `https://retrylab.example/index.html#v=1&view=compare&after.operationId=${escapeText(s)}`,
    });
    assert.deepEqual(githubReferences(read.outsideCode), [], md);
  }
});

test('ordinary text is written as it was: no escape where none is needed', async () => {
  const engine = await loadEngine();
  const answer = engine.markdown({
    summary: ['urllib3’s default Retry, ', { code: 'maxRetries' }, ' 3 → 10'],
    inputs: [{ name: 'maxRetries', before: '3', after: '10' }, { name: 'script', before: '503,200', after: 'op-0001' }],
    metrics: [{ label: 'elapsed', before: '3,700 ms', after: '3,000 ms', change: '-700 ms', flag: null },
      { label: 'charges', before: '2', after: '1', change: '-1', flag: 'side-effect' }],
    unchanged: ['replays', 'refused wait'],
  });
  assert.equal(answer.markdown, [
    '**Retry Lab, before → after:** urllib3’s default Retry, `maxRetries` 3 → 10', '',
    '| input | before | after |', '|---|---|---|', '| `maxRetries` | 3 | 10 |', '| `script` | 503,200 | op-0001 |', '',
    '| metric | before | after | change |', '|---|---:|---:|---|', '| elapsed | 3,700 ms | 3,000 ms | -700 ms |',
    '| **charges** | 2 | 1 | -1, **side effect changes** |', '', 'Unchanged: replays, refused wait.', ''].join('\n'));
  // What is escaped, and how (docs/compare.md §5's table, a case each).
  const cell = (s) => engine.markdown({ summary: [], inputs: [{ name: 'n', before: s, after: '' }], metrics: [] }).markdown.split('\n')[4];
  for (const [s, written] of [
    ['a|b', 'a\\|b'], ['*x*', '\\*x\\*'], ['<!--', '\\<!--'], ['@org/team', '`@`org/team'], ['#12', '`#`12'], ['#x', '#x'],
    ['GH-1', 'GH`-`1'], ['https://e.example', 'https\\://e.example'], ['www.e.example', 'www\\.e.example'], [':tada:', '`:`tada:'],
    ['a: b', 'a: b'], ['$x$', '\\$x\\$'], [' x ', '&#32;x&#32;'], ['a\nb', 'a␊b'], ['\u202e', '‹U+202E›'], ['&amp;', '\\&amp;'],
  ]) assert.equal(cell(s), `| \`n\` | ${written} |  |`, JSON.stringify(s));
});

test('a name holding backticks, pipes and spaces is one code span with the name as its text', async () => {
  const engine = await loadEngine();
  for (const name of ['`', 'a`b', '``x', 'x`', ' a ', '  ', 'a|b', '\\|', '|`|']) {
    const md = engine.markdown({ summary: [{ code: name }], inputs: [{ name, before: '1', after: '2' }], metrics: [] }).markdown;
    const read = assertLiteral(md, { what: JSON.stringify(name), cells: [[1, [name, '1', '2']]], paragraphs: [[0, `Retry Lab, before → after: ${name}`]] });
    assert.equal(read.tags.filter((t) => t === 'code').length, 4, `${JSON.stringify(name)}: two code spans in ${md}`);
  }
});

test('code beside code: a name between characters a text shows in code is one span with them', async () => {
  const engine = await loadEngine();
  for (const summary of [['x@', { code: 'n' }, '#1'], [{ code: 'a' }, { code: 'b' }], ['@', '#1', ':tada:', 'GH-1'], [{ code: '`' }, '@'], ['@', { code: ' ' }]]) {
    const md = engine.markdown({ summary, inputs: [], metrics: [] }).markdown;
    const expected = summary.map((p) => (typeof p === 'string' ? p : p.code)).join('');
    const read = assertLiteral(md, { what: JSON.stringify(summary), paragraphs: [[0, `Retry Lab, before → after: ${expected}`]] });
    assert.deepEqual(githubReferences(read.outsideCode), [], md);
  }
});

test('--base-url: only an absolute http(s) URL; a bad one exits 2 naming the flag; what must be is percent-encoded', () => {
  const link = 'v=1&view=compare&after.maxRetries=0';
  const bads = ['javascript:alert(1)//', 'https://x.example/) [pwn](javascript:alert(1)', 'ftp://x.example/', 'https://', 'https:x.example',
    '//x.example/', 'x.example', '', 'https://x.example/\n[a](b)', 'https://good.example@evil.example/', 'https://x.example)/', 'data:text/html,x', 'https://[::1]:8000/',
  ];
  const goods = [
    ['https://retrylab.example/', 'https://retrylab.example/index.html'],
    ['HTTP://retrylab.example:8080/x', 'http://retrylab.example:8080/x/index.html'],
    ['https://x.example/p(1)[2]', 'https://x.example/p%281%29%5B2%5D/index.html'],
    ['https://x.example/a"b\'c<d>`e|f\\g{h}^', 'https://x.example/a%22b%27c%3Cd%3E%60e%7Cf%5Cg%7Bh%7D%5E/index.html'],
    ['https://x.example/ü/', 'https://x.example/%C3%BC/index.html'],
    ['https://x.example/\u202e/', 'https://x.example/%E2%80%AE/index.html'],
    ['https://x.example/&amp;/?a=&lt;b&c;d', 'https://x.example/&amp%3B/index.html?a=&lt%3Bb&c%3Bd'],
    ['https://x.example/100%/%41', 'https://x.example/100%25/%41/index.html'],
    ['https://x.example/tools/page.html?q=1#old', 'https://x.example/tools/page.html?q=1'],
  ];
  // Every base's run, the bad then the good, started by one shell (support.js runRetrysimEach).
  const runs = runRetrysimEach([...bads, ...goods.map(([base]) => base)].map((base) => ({
    args: ['--link', link, '--format', 'markdown', '--base-url', base],
  })));
  for (const [i, bad] of bads.entries()) {
    const run = runs[i];
    assert.equal(run.status, 2, `${JSON.stringify(bad)}: ${run.stdout}`);
    assert.match(run.stderr, /^retrysim: --base-url /, JSON.stringify(bad));
    assert.equal(run.stdout, '', 'nothing is written');
  }
  for (const [i, [base, href]] of goods.entries()) {
    const md = markdownFrom(runs[bads.length + i], base);
    const expected = `${href}#${link}`;
    assert.ok(md.includes(`[Open the comparison in Retry Lab](${expected})`), `${base}: ${md}`);
    const read = assertLiteral(md, { what: base, link: expected });
    assert.equal(read.links.length, 1);
  }
});
