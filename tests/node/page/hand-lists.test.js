// Issue 13's "done when": no file in web/ lists input names by hand; the page reads them from
// the engine's table (engine.schema(), docs/engine.md §4). A hand list is an array literal that
// holds at least three of the table's input names as strings (['maxRetries', 'seed', ...]), or
// at least three objects each named after an input ([{ name: 'maxRetries', ... }, ...]), or an
// object keyed by at least three input names whose entries restate what the table says of
// them ({ maxRetries: { unit: '', ... }, ... }: a key from FACTS below). Words keyed by an
// input's name (a label for it, a slider's span: the page's own choices) are not a list of
// inputs and are not counted. Generated data (web/clients/presets.js, written from
// web/clients/sources.js) is left out. No exception is allowed: the explorable's controls
// (web/state.js) read every fact from the table too (the last test).

import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEngineInNode } from '../../browser/lib/engine.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const web = path.join(repo, 'web');
const GENERATED = new Set(['clients/presets.js']);
// What the table says of an input (docs/engine.md §4's row members): an entry keyed by an
// input's name that holds one of these restates the table by hand.
const FACTS = new Set(['type', 'group', 'unit', 'description', 'nullable', 'required', 'whole', 'min', 'max', 'default', 'choices', 'onlyWhen', 'requiredWhen']);

let names;
before(async () => {
  const engine = await loadEngineInNode();
  names = new Set(engine.schema().inputs.map((r) => r.name));
});

function jsFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...jsFiles(full));
    else if (/\.m?js$/.test(entry.name)) out.push(full);
  }
  return out;
}

// The array and object literals of a JavaScript source: for each array, its direct string
// elements and the `name: '...'` of each object literal directly in it; for each object, its
// keys whose values are object literals, each with that object's own keys (`members`); each
// with the line it starts on. A small scanner (strings, template literals, comments and
// regular expressions skipped), enough for the page's own code.
export function literals(source) {
  const arrays = [];
  const objects = [];
  const stack = []; // frames: { kind: '[' | '{' | '(', strings, objectNames, name, keys, members, key, valueOf, line }
  let line = 1;
  let prev = ''; // the last significant character, to tell a regular expression from a division
  let pendingKey = null; // a string or identifier just read directly in an object, before a ':'
  const top = () => stack[stack.length - 1];
  let i = 0;
  const readString = (quote) => {
    let j = i + 1;
    let value = '';
    while (j < source.length && source[j] !== quote) {
      if (source[j] === '\\') { value += source[j + 1]; j += 2; continue; }
      if (source[j] === '\n') line += 1;
      value += source[j];
      j += 1;
    }
    i = j + 1;
    return value;
  };
  while (i < source.length) {
    const c = source[i];
    if (c === '\n') { line += 1; i += 1; continue; }
    if (c === ' ' || c === '\t' || c === '\r') { i += 1; continue; }
    if (c === '/' && source[i + 1] === '/') { while (i < source.length && source[i] !== '\n') i += 1; continue; }
    if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      line += (source.slice(i, end).match(/\n/g) || []).length;
      i = end + 2;
      continue;
    }
    if (c === '/' && (prev === '' || '(,=:[!&|?{};+-*%<>~^'.includes(prev) || /return$|typeof$/.test(source.slice(Math.max(0, i - 8), i).trimEnd()))) {
      let j = i + 1;
      let inClass = false;
      while (j < source.length && (inClass || source[j] !== '/')) {
        if (source[j] === '\\') j += 1;
        else if (source[j] === '[') inClass = true;
        else if (source[j] === ']') inClass = false;
        j += 1;
      }
      i = j + 1;
      while (/[a-z]/i.test(source[i] || '')) i += 1;
      prev = 'x';
      continue;
    }
    if (c === '\'' || c === '"') {
      const value = readString(c);
      const frame = top();
      if (frame && frame.kind === '[' && (prev === '[' || prev === ',')) frame.strings.push(value);
      else if (frame && frame.kind === '{' && (prev === '{' || prev === ',')) pendingKey = value;
      else if (frame && frame.kind === '{' && prev === ':' && frame.valueOf === 'name') frame.name = value;
      prev = 's';
      continue;
    }
    if (c === '`') {
      // A template literal: its ${...} parts are code.
      let j = i + 1;
      while (j < source.length && source[j] !== '`') {
        if (source[j] === '\\') j += 1;
        else if (source[j] === '\n') line += 1;
        else if (source[j] === '$' && source[j + 1] === '{') {
          let depth = 1;
          j += 2;
          while (j < source.length && depth > 0) {
            if (source[j] === '{') depth += 1;
            else if (source[j] === '}') depth -= 1;
            j += 1;
          }
          continue;
        }
        j += 1;
      }
      i = j + 1;
      prev = 's';
      continue;
    }
    if (/[A-Za-z_$]/.test(c)) {
      let j = i;
      while (j < source.length && /[\w$]/.test(source[j])) j += 1;
      const word = source.slice(i, j);
      const frame = top();
      if (frame && frame.kind === '{' && (prev === '{' || prev === ',')) pendingKey = word;
      i = j;
      prev = 'x';
      continue;
    }
    if (c === ':' && top() && top().kind === '{' && pendingKey !== null && (prev === 's' || prev === 'x')) {
      top().keys.push(pendingKey);
      top().valueOf = pendingKey; // the key whose value follows
      pendingKey = null;
    }
    if (c === ',' && top() && top().kind === '{') top().valueOf = null;
    if (c === '[' || c === '{' || c === '(') {
      const parent = top();
      const key = c === '{' && parent && parent.kind === '{' && prev === ':' ? parent.valueOf : null;
      stack.push({ kind: c, strings: [], objectNames: [], name: null, keys: [], members: [], key, valueOf: null, line });
      pendingKey = null;
    } else if (c === ']' || c === '}' || c === ')') {
      const frame = stack.pop();
      if (frame && frame.kind === '[') arrays.push(frame);
      if (frame && frame.kind === '{') objects.push(frame);
      const parent = top();
      if (frame && frame.kind === '{' && parent && parent.kind === '[' && frame.name !== null) parent.objectNames.push(frame.name);
      if (frame && frame.kind === '{' && parent && parent.kind === '{' && frame.key !== null) parent.members.push({ key: frame.key, keys: frame.keys });
    }
    prev = c;
    i += 1;
  }
  return { arrays, objects };
}

function handLists(file, inputNames) {
  const found = [];
  const { arrays, objects } = literals(fs.readFileSync(file, 'utf8'));
  for (const a of arrays) {
    const strings = a.strings.filter((s) => inputNames.has(s));
    if (a.strings.length >= 3 && strings.length === a.strings.length) found.push({ line: a.line, list: `[${a.strings.join(', ')}]` });
    const named = a.objectNames.filter((s) => inputNames.has(s));
    if (named.length >= 3) found.push({ line: a.line, list: `[{ name: ${named.join(' }, { name: ')} }]` });
  }
  for (const o of objects) {
    const restating = o.members.filter((m) => inputNames.has(m.key) && m.keys.some((k) => FACTS.has(k)));
    if (restating.length >= 3) {
      found.push({ line: o.line, list: `{ ${restating.map((m) => `${m.key}: { ${m.keys.filter((k) => FACTS.has(k)).join(', ')} }`).join(', ')} }` });
    }
  }
  return found;
}

test('the scanner finds the three kinds of hand list, and not words keyed by name or other lists', () => {
  const sample = [
    "const A = ['maxRetries', 'seed', 'jitter'];",
    "const B = [{ name: 'maxRetries', label: 'x' }, { name: 'seed' }, { name: 'deadlineMs', unit: 'ms' }];",
    "const C = { maxRetries: 'Retries', seed: 'Seed', jitter: 'Jitter' };",
    "const D = ['maxRetries', 'seed', 'not an input'];",
    "const E = /['\\[]/.test(x) ? ['a'] : `${['maxRetries', 'seed', 'jitter'].length}`;",
    "// ['maxRetries', 'seed', 'jitter']",
    "const F = { maxRetries: { label: 'Retries', span: [0, 10] }, 'seed': { label: a ? b : c }, jitter: { step: 1 } };",
    "const G = {",
    "  maxRetries: { label: 'Retries', unit: '' },",
    "  'seed': { min: 0, label: x ? 'a' : 'b' },",
    "  deadlineMs: { nullable: true },",
    "};",
  ].join('\n');
  const dir = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR || '/tmp'), 'hand-lists-'));
  const file = path.join(dir, 'sample.js');
  fs.writeFileSync(file, sample);
  const inputNames = new Set(['maxRetries', 'seed', 'jitter', 'deadlineMs']);
  assert.deepEqual(handLists(file, inputNames).map((h) => `${h.line}: ${h.list}`), [
    '1: [maxRetries, seed, jitter]',
    '2: [{ name: maxRetries }, { name: seed }, { name: deadlineMs }]',
    '8: { maxRetries: { unit }, seed: { min }, deadlineMs: { nullable } }',
  ]);
  fs.rmSync(dir, { recursive: true });
});

test('no file in web/ lists the engine’s input names by hand', () => {
  assert.ok(names.size >= 30, `${names.size} inputs`);
  const found = [];
  for (const file of jsFiles(web)) {
    const relative = path.relative(web, file).split(path.sep).join('/');
    if (GENERATED.has(relative)) continue;
    for (const hit of handLists(file, names)) found.push(`web/${relative}:${hit.line}: ${hit.list}`);
  }
  assert.deepEqual(found, [], `input names listed by hand (read them from engine.schema()):\n${found.join('\n')}`);
});

// The explorable's controls (web/state.js explorableControls) are the page's choice of inputs,
// and everything else about them is the table's: given a table that says otherwise, they say
// otherwise. The table is changed here, in the test (a copy of schema()), never the page.
describe('the explorable’s controls are read from the table passed in', () => {
  let schema;
  let explorableControls;
  let fieldsFromInputs;
  before(async () => {
    ({ explorableControls, fieldsFromInputs } = await import('../../../web/state.js'));
    schema = (await loadEngineInNode()).schema();
  });
  const edited = (change) => {
    const copy = structuredClone(schema);
    change(copy.inputs);
    return copy;
  };
  const row = (rows, name) => rows.find((r) => r.name === name);

  test('each slider’s unit, nullability and wholeness are its row’s', () => {
    const { numbers } = explorableControls(schema);
    assert.ok(numbers.length >= 1);
    for (const f of numbers) {
      const r = row(schema.inputs, f.name);
      assert.equal(r.type, 'number', f.name);
      assert.deepEqual([f.unit, f.nullable, f.whole], [r.unit || '', r.nullable === true, r.whole === true], f.name);
      assert.ok(f.min >= r.min && f.max <= r.max, `${f.name}: ${f.min}–${f.max} within ${r.min}–${r.max}`);
    }
    // Flip every one of those facts in the table: the sliders follow.
    const flipped = explorableControls(edited((rows) => {
      for (const f of numbers) {
        const r = row(rows, f.name);
        r.unit = r.unit === 'ms' ? '' : 'ms';
        r.nullable = r.nullable !== true;
        r.whole = r.whole !== true;
      }
    })).numbers;
    assert.deepEqual(flipped.map((f) => [f.name, f.unit, f.nullable, f.whole]),
      numbers.map((f) => [f.name, f.unit === 'ms' ? '' : 'ms', !f.nullable, !f.whole]));
  });

  test('the controls come in the table’s order, and the fields are exactly the controls’ inputs', () => {
    const { numbers, names: owned } = explorableControls(schema);
    const order = schema.inputs.map((r) => r.name);
    const at = owned.map((n) => order.indexOf(n));
    assert.ok(at.every((i) => i >= 0));
    assert.deepEqual(at, [...at].sort((a, b) => a - b));
    const reversed = explorableControls({ inputs: [...schema.inputs].reverse() });
    assert.deepEqual(reversed.names, [...owned].reverse());
    assert.deepEqual(reversed.numbers.map((f) => f.name), numbers.map((f) => f.name).reverse());
    const defaults = Object.fromEntries(schema.inputs.filter((r) => 'default' in r).map((r) => [r.name, r.default]));
    assert.deepEqual(Object.keys(fieldsFromInputs(defaults, explorableControls(schema))).sort(), [...owned].sort());
  });

  test('a control the table has no input for, of another type or beyond its bounds, is refused by name', () => {
    const { numbers, names: owned } = explorableControls(schema);
    for (const name of owned) {
      assert.throws(() => explorableControls(edited((rows) => rows.splice(rows.indexOf(row(rows, name)), 1))),
        (e) => e.message.includes(`"${name}"`), `${name} missing`);
      assert.throws(() => explorableControls(edited((rows) => { row(rows, name).type = 'http-date'; })),
        (e) => e.message.includes(`"${name}"`), `${name} of another type`);
    }
    for (const f of numbers) {
      assert.throws(() => explorableControls(edited((rows) => { row(rows, f.name).max = f.max - 1; })),
        (e) => e.message.includes(`"${f.name}"`), `${f.name} past its bound`);
    }
    assert.throws(() => explorableControls(undefined), /"/);
  });
});
