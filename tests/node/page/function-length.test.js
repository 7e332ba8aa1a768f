// Issue 31's "done when": no function in web/ over about 150 lines (docs: the team's guide,
// "small functions"). Every function in web/'s sources (declarations, expressions, arrows and
// methods, nested ones on their own) is measured in lines from its first to its last, parsed
// with acorn (Debian's node-acorn, or one in node_modules). The ones not split yet are listed
// below with the length they had when listed: the list can only get shorter. A function over
// LIMIT that is not listed fails; so does a listed one that grew, and a listed one that is now
// within LIMIT or gone (take it off the list: it cannot come back).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const web = path.join(repo, 'web');
const LIMIT = 150;

// file (under web/) and function name → its length in lines when it was listed.
const NOT_YET_SPLIT = new Map([]);

async function parser() {
  const tries = [
    ['acorn', 'acorn-walk'],
    ['/usr/share/nodejs/acorn/dist/acorn.mjs', '/usr/share/nodejs/acorn-walk/dist/walk.mjs'],
  ];
  for (const [a, w] of tries) {
    try {
      return { acorn: await import(a), walk: await import(w) };
    } catch {
      // the next place
    }
  }
  throw new Error('acorn is not installed (Debian: node-acorn, node-acorn-walk)');
}

function sources(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(p));
    else if (/\.m?js$/.test(entry.name)) out.push(p);
  }
  return out;
}

// A function's name: its own, else what it is assigned to (a variable, a property, a method).
function nameOf(node, parent) {
  if (node.id) return node.id.name;
  const key = (k) => (k.type === 'Identifier' ? k.name : k.type === 'Literal' ? String(k.value) : null);
  if (parent && parent.type === 'VariableDeclarator' && parent.id.type === 'Identifier') return parent.id.name;
  if (parent && (parent.type === 'Property' || parent.type === 'MethodDefinition' || parent.type === 'PropertyDefinition') && key(parent.key)) return key(parent.key);
  if (parent && parent.type === 'AssignmentExpression' && parent.left.type === 'Identifier') return parent.left.name;
  return `(anonymous at line ${node.loc.start.line})`;
}

// Every function in web/ over LIMIT lines: 'file name' → lines.
async function longFunctions() {
  const { acorn, walk } = await parser();
  const long = new Map();
  for (const file of sources(web)) {
    // Debian's acorn (8.8) predates import attributes (ES2025: `import FORMAT from './x.json' with
    // { type: 'json' }`, web/share/codec.js): the attribute, on one line, changes no function.
    const text = fs.readFileSync(file, 'utf8').replace(/^(import [^;\n]+ from '[^']+\.json') with \{ type: 'json' \};$/gm, '$1;');
    const ast = acorn.parse(text, { ecmaVersion: 'latest', sourceType: 'module', locations: true, allowHashBang: true });
    const rel = path.relative(web, file).split(path.sep).join('/');
    walk.fullAncestor(ast, (node, ancestors) => {
      if (!/Function/.test(node.type)) return;
      const lines = node.loc.end.line - node.loc.start.line + 1;
      if (lines <= LIMIT) return;
      long.set(`${rel} ${nameOf(node, ancestors[ancestors.length - 2])}`, lines);
    });
  }
  return long;
}

test('no function in web/ is over 150 lines, but the listed ones not yet split', async () => {
  const long = await longFunctions();
  const unlisted = [...long].filter(([name]) => !NOT_YET_SPLIT.has(name)).map(([name, n]) => `${name} (${n} lines)`);
  assert.deepEqual(unlisted, [], `functions over ${LIMIT} lines: split them`);
});

test('a function listed as not yet split has not grown', async () => {
  const long = await longFunctions();
  const grown = [...NOT_YET_SPLIT].filter(([name, was]) => long.has(name) && long.get(name) > was)
    .map(([name, was]) => `${name}: ${long.get(name)} lines, listed at ${was}`);
  assert.deepEqual(grown, []);
});

test('the list of functions not yet split only gets shorter: one split is taken off it', async () => {
  const long = await longFunctions();
  const split = [...NOT_YET_SPLIT.keys()].filter((name) => !long.has(name));
  assert.deepEqual(split, [], 'these are now within the limit (or gone): take them off NOT_YET_SPLIT');
});

test('the measure sees a long function, named as its variable, and a short one not', async () => {
  const { acorn, walk } = await parser();
  const body = Array.from({ length: LIMIT }, (_, i) => `  const v${i} = ${i};`).join('\n');
  const text = `export const long = () => {\n${body}\n};\nfunction short() { return 1; }\n`;
  const seen = [];
  walk.fullAncestor(acorn.parse(text, { ecmaVersion: 'latest', sourceType: 'module', locations: true }), (node, ancestors) => {
    if (/Function/.test(node.type)) seen.push([nameOf(node, ancestors[ancestors.length - 2]), node.loc.end.line - node.loc.start.line + 1]);
  });
  assert.deepEqual(seen, [['long', LIMIT + 2], ['short', 1]]);
});
