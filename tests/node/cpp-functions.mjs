// Every function in a C++ source, measured in lines: the scanner behind
// cpp-function-length.test.js (issue 31: no function in core/ or bindings/ over ~150 lines).
// `node tests/node/cpp-functions.mjs [N]` lists the functions of core/ and bindings/ longest
// first (the N longest, 20 unless given).
//
// What it counts. The sources are laid out by clang-format (.clang-format, checked by the
// "format:" ctest entry), so matching braces is enough; it is not a C++ parser. The text is
// read with comments (// and /* */), string literals (with escapes, and raw ones R"x(...)x"),
// character literals, numbers (digit separators such as 1'000 included) and preprocessor lines
// (with their continuations) passed over, so a brace in any of them does not count.
// A brace that opens a function's body is one whose header (the text after the previous ';',
// '{' or '}' of the same depth, or after the previous ',' or '(' inside a call or a table)
// ends in ')' followed only by qualifiers (const, noexcept, override, final, mutable,
// constexpr, & or &&) and an optional trailing return type "-> T", or in the ']' of a lambda's
// capture list. Its length is the lines from the header's first line (the template line, the
// return type, or the lambda's '[') to the line of its closing brace, both included. A
// lambda or a local class inside a function counts with the function; one outside any function
// (in a table, a variable's initializer) counts on its own. Every other brace (a namespace, a
// class, an enum, an initializer) is looked into for functions, and is not one.

import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

// The text as tokens: { t: text, line } with comments, literals and preprocessor lines turned
// into one neutral token each ("lit") or dropped, so that only code punctuation is seen.
export function tokens(text) {
  const out = [];
  let i = 0;
  let line = 1;
  let lineStart = true; // only blanks so far on this line
  const n = text.length;
  const isIdent = (c) => /[A-Za-z0-9_$]/.test(c);
  while (i < n) {
    const c = text[i];
    if (c === '\n') {
      line++;
      i++;
      lineStart = true;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
      i++;
      continue;
    }
    if (c === '#' && lineStart) {
      // A preprocessor line, with its continuations: passed over (a comment in it is too).
      while (i < n && text[i] !== '\n') {
        if (text[i] === '\\' && text[i + 1] === '\n') {
          line++;
          i += 2;
          continue;
        }
        if (text[i] === '/' && text[i + 1] === '*') {
          const end = text.indexOf('*/', i + 2);
          const stop = end < 0 ? n : end + 2;
          for (let k = i; k < stop; k++) if (text[k] === '\n') line++;
          i = stop;
          continue;
        }
        i++;
      }
      continue;
    }
    lineStart = false;
    if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? n : end + 2;
      for (let k = i; k < stop; k++) if (text[k] === '\n') line++;
      i = stop;
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(text[i + 1] || ''))) {
      // A number, digit separators and exponents' signs included.
      const start = line;
      i++;
      while (i < n) {
        const d = text[i];
        if (/[0-9A-Za-z_.]/.test(d)) i++;
        else if (d === "'" && /[0-9A-Fa-f]/.test(text[i + 1] || '')) i++;
        else if ((d === '+' || d === '-') && /[eEpP]/.test(text[i - 1])) i++;
        else break;
      }
      out.push({ t: 'lit', line: start });
      continue;
    }
    if (isIdent(c)) {
      let j = i;
      while (j < n && isIdent(text[j])) j++;
      const word = text.slice(i, j);
      if (text[j] === '"' && /^(u8|u|U|L)?R$/.test(word)) {
        // A raw string: R"delim( ... )delim"
        const open = text.indexOf('(', j);
        const delim = text.slice(j + 1, open);
        const close = text.indexOf(`)${delim}"`, open);
        const stop = close < 0 ? n : close + delim.length + 2;
        const start = line;
        for (let k = i; k < stop; k++) if (text[k] === '\n') line++;
        out.push({ t: 'lit', line: start });
        i = stop;
        continue;
      }
      if ((text[j] === '"' || text[j] === "'") && /^(u8|u|U|L)$/.test(word)) {
        i = j; // the prefix of a literal: the literal follows
        continue;
      }
      out.push({ t: word, line, word: true });
      i = j;
      continue;
    }
    if (c === '"' || c === "'") {
      const start = line;
      i++;
      while (i < n && text[i] !== c) {
        if (text[i] === '\\') i++;
        if (text[i] === '\n') line++;
        i++;
      }
      i++;
      out.push({ t: 'lit', line: start });
      continue;
    }
    if (c === '-' && text[i + 1] === '>') {
      out.push({ t: '->', line });
      i += 2;
      continue;
    }
    if (c === ':' && text[i + 1] === ':') {
      out.push({ t: '::', line });
      i += 2;
      continue;
    }
    out.push({ t: c, line });
    i++;
  }
  return out;
}

const QUALIFIERS = new Set(['const', 'noexcept', 'override', 'final', 'mutable', 'constexpr', 'volatile', '&', '&&']);
const ACCESS = new Set(['public', 'private', 'protected']);
const OPENS = Object.assign(Object.create(null), { '(': ')', '[': ']', '{': '}' });

// The index of the bracket that closes the one at `at` (the tokens' own brackets only).
function closing(toks, at) {
  const stack = [];
  for (let k = at; k < toks.length; k++) {
    const t = toks[k].t;
    if (OPENS[t]) stack.push(OPENS[t]);
    else if (t === ')' || t === ']' || t === '}') {
      stack.pop();
      if (stack.length === 0) return k;
    }
  }
  return toks.length - 1;
}

// The index of the bracket that opens the one closing at `at`, looking back no further than `from`.
function opening(toks, at, from) {
  let depth = 0;
  for (let k = at; k >= from; k--) {
    const t = toks[k].t;
    if (t === ')' || t === ']' || t === '}') depth++;
    else if (OPENS[t]) {
      depth--;
      if (depth === 0) return k;
    }
  }
  return -1;
}

// Is the '{' at `brace` a function's body, given its header toks[from..brace-1]? Then
// { start, name }: the header's first token and the function's name.
function bodyOf(toks, from, brace) {
  let k = brace - 1;
  if (k < from) return null;
  // A trailing return type: "-> T" with T holding no bracket but <...> and ::.
  for (let r = k; r >= from; r--) {
    const t = toks[r].t;
    if (t === '->') {
      k = r - 1;
      break;
    }
    if (t === ')' || t === '(' || t === '{' || t === '}' || t === ';' || t === '=' || t === ']') break;
  }
  while (k >= from && QUALIFIERS.has(toks[k].t)) k--;
  if (k >= from && toks[k].t === '&' && toks[k - 1] && toks[k - 1].t === '&') k -= 2;
  while (k >= from && QUALIFIERS.has(toks[k].t)) k--;
  if (k < from) return null;
  const last = toks[k].t;
  if (last !== ')' && last !== ']') return null;
  let open = opening(toks, k, from);
  if (open < 0) return null;
  if (last === ')') {
    // A constructor's initializer list: walk back over "name(args)," to the ':'.
    let p = open - 1;
    while (p >= from && toks[p].word) {
      const before = toks[p - 1];
      if (before && (before.t === ',' || before.t === ':') && p - 1 >= from) {
        const q = p - 2;
        if (before.t === ':' && q >= from && toks[q].t === ')') {
          open = opening(toks, q, from);
          break;
        }
        if (before.t === ',' && q >= from && (toks[q].t === ')' || toks[q].t === '}')) {
          open = opening(toks, q, from);
          p = open - 1;
          continue;
        }
      }
      break;
    }
    if (open < 0) return null;
    const before = toks[open - 1];
    if (before && before.t === ']' && open - 1 >= from) {
      const cap = opening(toks, open - 1, from);
      if (cap >= 0) return { start: cap, name: lambdaName(toks, from, cap) };
    }
    // A named function: the name is the word (or operator...) before '('.
    let name = '(unnamed)';
    for (let q = open - 1; q >= from && q >= open - 4; q--) {
      if (toks[q].t === 'operator') return { start: from, name: toks.slice(q, open).map((x) => x.t).join('') };
    }
    for (let q = open - 1; q >= from; q--) {
      if (toks[q].t === 'operator') {
        name = toks.slice(q, open).map((x) => x.t).join('');
        break;
      }
      if (toks[q].word) {
        let s = q;
        while (s - 2 >= from && toks[s - 1].t === '::' && toks[s - 2].word) s -= 2;
        name = toks.slice(s, q + 1).map((x) => x.t).join('');
        break;
      }
      if (toks[q].t !== '>' && toks[q].t !== '~') break;
    }
    return { start: from, name };
  }
  // ']': a lambda with no parameter list, unless the brackets are an array's (after a name).
  const before = toks[open - 1];
  if (before && open - 1 >= from && (before.word || before.t === ']' || before.t === ')')) return null;
  return { start: open, name: lambdaName(toks, from, open) };
}

function lambdaName(toks, from, cap) {
  // The variable or member it is assigned to, if any.
  if (cap - 2 >= from && toks[cap - 1].t === '=' && toks[cap - 2].word) return toks[cap - 2].t;
  return `(lambda at line ${toks[cap].line})`;
}

// Every function in a source: [{ name, line, end, lines }], outermost ones only (what is inside
// a function counts with it).
export function functions(text) {
  const toks = tokens(text);
  const found = [];
  // Walk one region toks[from..to) of declarations (a file, a namespace, a class, a table).
  const walk = (from, to) => {
    let head = from;
    for (let k = from; k < to; k++) {
      const t = toks[k].t;
      if (t === ';' || t === '}') {
        head = k + 1;
      } else if (t === ':' && k > from && ACCESS.has(toks[k - 1].t)) {
        head = k + 1; // "public:" and the like end a header too
      } else if (t === '(' || t === '[') {
        // A call or a table: a lambda in it is found by walking its inside.
        const end = closing(toks, k);
        walkInside(k + 1, end);
        k = end;
      } else if (t === '{') {
        k = region(head, k, walk);
        head = k + 1;
      }
    }
  };
  // The braces opening at toks[k]: a function's body (its header from toks[head]), found whole,
  // or a region whose inside `inner` walks. Returns the closing brace's index.
  const region = (head, k, inner) => {
    const end = closing(toks, k);
    const body = bodyOf(toks, head, k);
    if (body) {
      const line = toks[body.start].line;
      found.push({ name: body.name, line, end: toks[end].line, lines: toks[end].line - line + 1 });
    } else {
      inner(k + 1, end);
    }
    return end;
  };
  // Inside brackets the header of a lambda starts after ',' or the opening bracket.
  const walkInside = (from, to) => {
    let head = from;
    for (let k = from; k < to; k++) {
      const t = toks[k].t;
      if (t === ',' || t === ';') {
        head = k + 1;
      } else if (t === '{') {
        k = region(head, k, walkInside);
      } else if (t === '(' || t === '[') {
        const end = closing(toks, k);
        // A lambda's parameter list or capture is part of the next header, not a region.
        if (!(t === '[' || (toks[k - 1] && toks[k - 1].t === ']'))) walkInside(k + 1, end);
        k = end;
      }
    }
  };
  walk(0, toks.length);
  return found;
}

// The C++ sources measured: core/ and bindings/, as git tracks them.
export function sources() {
  const out = execFileSync('git', ['ls-files', 'core/*.cpp', 'core/*.hpp', 'bindings/*.cpp', 'bindings/*.hpp'], {
    cwd: repo,
    encoding: 'utf8',
  });
  return out.split('\n').filter(Boolean);
}

// Every function of core/ and bindings/: [{ file, name, line, end, lines }].
export function measure() {
  const all = [];
  for (const file of sources()) {
    for (const f of functions(fs.readFileSync(path.join(repo, file), 'utf8'))) all.push({ file, ...f });
  }
  return all;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const most = Number(process.argv[2] || 20);
  const all = measure().sort((a, b) => b.lines - a.lines);
  for (const f of all.slice(0, most)) console.log(`${String(f.lines).padStart(4)}  ${f.file}:${f.line}-${f.end}  ${f.name}`);
  console.log(`${all.length} functions measured`);
}
