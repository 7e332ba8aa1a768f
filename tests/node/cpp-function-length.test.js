// Issue 31's "done when": no function in core/ or bindings/ over about 150 lines (the team's
// guide, "small functions"; tests/node/page/function-length.test.js measures web/). Every C++
// source git tracks under core/ and bindings/ (.cpp, .hpp) is measured by cpp-functions.mjs,
// a brace-matching scan of the clang-format-laid-out text that passes over comments, string,
// raw-string and character literals, numbers and preprocessor lines. What it counts: a
// function's lines from the first line of its header (template line and return type included;
// for a lambda, its capture list) to its closing brace, both included; a lambda or local class
// inside a function counts with that function, a lambda outside any function (in a table or an
// initializer) on its own. Namespaces, classes, enums and initializers are not functions; the
// functions in them are measured one by one. `node tests/node/cpp-functions.mjs` lists the
// longest.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');

const LIMIT = 150;
const scanner = () => import('./cpp-functions.mjs');

test('no function in core/ or bindings/ is over 150 lines', async () => {
  const { measure } = await scanner();
  const all = measure();
  assert.ok(all.length > 1000, `only ${all.length} functions measured: the scan lost its way`);
  const long = all.filter((f) => f.lines > LIMIT).map((f) => `${f.file}:${f.line}-${f.end} ${f.name} (${f.lines} lines)`);
  assert.deepEqual(long, [], `functions over ${LIMIT} lines: split them`);
});

// A second, cruder reading that needs no brace matching: in clang-format's layout a definition
// at column 0 whose line ends in ") {" closes at the next line that is "}" alone, and its
// header starts at the first line of the run of code lines before it. The scan must agree.
test('every definition at column 0 is measured with the lines the layout gives it', async () => {
  const { measure, sources, repo } = await scanner();
  const byEnd = new Map(measure().map((f) => [`${f.file}:${f.end}`, f]));
  let checked = 0;
  const differ = [];
  for (const file of sources()) {
    const lines = fs.readFileSync(path.join(repo, file), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!/^[A-Za-z].*\)( const| noexcept| override)* \{$/.test(lines[i])) continue;
      if (/^(namespace|struct|class|enum|extern)\b/.test(lines[i])) continue;
      let end = i + 1;
      while (end < lines.length && lines[end] !== '}') end++;
      let start = i;
      while (start > 0 && /^[A-Za-z ]/.test(lines[start - 1]) && !/[;{}]\s*$/.test(lines[start - 1]) &&
             !/^\s*\/\//.test(lines[start - 1])) start--;
      checked++;
      const f = byEnd.get(`${file}:${end + 1}`);
      if (!f || f.line !== start + 1) differ.push(`${file}:${start + 1}-${end + 1} (scan: ${f ? `${f.line}-${f.end}` : 'none'})`);
    }
  }
  assert.ok(checked > 400, `only ${checked} definitions at column 0`);
  assert.deepEqual(differ, []);
});

test('a function of 151 lines is over the limit and one of 150 is not', async () => {
  const { functions } = await scanner();
  const fn = (name, lines) => `int ${name}(int x) {\n${'    x += 1;\n'.repeat(lines - 3)}    return x;\n}\n`;
  const seen = functions(`${fn('within', LIMIT)}\n${fn('over', LIMIT + 1)}`);
  assert.deepEqual(seen.map((f) => [f.name, f.lines]), [['within', LIMIT], ['over', LIMIT + 1]]);
  assert.deepEqual(seen.filter((f) => f.lines > LIMIT).map((f) => f.name), ['over']);
});

test('braces in comments, strings, raw strings, characters and preprocessor lines do not count', async () => {
  const { functions } = await scanner();
  const text = [
    '#define OPEN {',                        // 1
    '#define MANY \\',                       // 2
    '    { {',                               // 3
    'namespace n {',                         // 4
    'int f() {',                             // 5
    '    const char* s = "}{\\"}";',         // 6
    "    char c = '}';",                     // 7
    "    char d = '\\'';",                   // 8
    '    const char* r = R"x(})" }{ )x";',   // 9
    '    // }',                              // 10
    '    /* } */ int big = 1\'000\'000;',    // 11
    '    return s[0] + c + d + r[0] + big;', // 12
    '}',                                     // 13
    'int g() { return 1; }',                 // 14
    '}  // namespace n',                     // 15
  ].join('\n');
  assert.deepEqual(functions(text).map((f) => [f.name, f.line, f.end]), [['f', 5, 13], ['g', 14, 14]]);
});

test('a lambda counts with its function; one in a table counts on its own', async () => {
  const { functions } = await scanner();
  const text = [
    'struct Row {',                                         // 1
    '    const char* name;',                                // 2
    '    int (*check)(int);',                               // 3
    '};',                                                   // 4
    'const Row rows[] = {',                                 // 5
    '    {"a", [](int x) {',                                // 6
    '         return x;',                                   // 7
    '     }},',                                             // 8
    '};',                                                   // 9
    'const auto table = [] {',                              // 10
    '    return 1;',                                        // 11
    '}();',                                                 // 12
    'template <class T>',                                   // 13
    'auto h(T t) -> std::vector<T> {',                      // 14
    '    auto add = [&](int y) { return t + y; };',         // 15
    '    return {add(1)};',                                 // 16
    '}',                                                    // 17
    'class C {',                                            // 18
    'public:',                                              // 19
    '    C(int a, int b) : a_(a), b_(b) {',                 // 20
    '        valueOf(a);',                                  // 21
    '    }',                                                // 22
    '    int operator()(int x) const { return x; }',        // 23
    '    static int m(int x) noexcept {',                   // 24
    '        return x;',                                    // 25
    '    }',                                                // 26
    'private:',                                             // 27
    '    int a_, b_;',                                      // 28
    '    int arr[2]{1, 2};',                                // 29
    '};',                                                   // 30
  ].join('\n');
  assert.deepEqual(functions(text).map((f) => [f.name, f.line, f.end]), [
    ['(lambda at line 6)', 6, 8],
    ['table', 10, 12],
    ['h', 13, 17],
    ['C', 20, 22],
    ['operator()', 23, 23],
    ['m', 24, 26],
  ]);
});
