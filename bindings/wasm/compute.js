// The JS half of the WebAssembly binding (linked with --pre-js, so it runs inside the module
// factory, where `Module` is the module being built).
//
// compute(inputs) reads the caller's object here, in one pass, into a "tape": a Float64Array of
// node codes and numbers, plus the UTF-8 bytes of every string. The C++ half (engine.cpp)
// rebuilds a retrylab::Value from it without calling back into JS. Reading here rather than
// through embind's val one property at a time is what keeps 100,000 draws cheap, and it
// confines the caller's code (getters, proxies) to this function, where a throw is caught and
// becomes an unsupported value instead of unwinding through WebAssembly frames.
//
// What has no JSON meaning becomes an "unsupported" node with a description, which the core's
// validation reports against the field's path: functions, symbols, BigInts, undefined list
// items, cycles, nesting deeper than 64 levels, values whose getters throw. Members that are
// undefined are absent, as JSON.stringify would leave them out. Typed arrays count as lists.
//
// Tape grammar (every entry a double):
//   null: 0 | false: 1 | true: 2 | number: 3 x | string: 4 bytes | list: 5 n item*n
//   object: 6 n (keyBytes value)*n | unsupported: 7 bytes | list of numbers: 8 n x*n
// where `bytes` is the length of the string's UTF-8 in `text`, the strings in tape order.

/* global Module */

var RL_NULL = 0, RL_FALSE = 1, RL_TRUE = 2, RL_NUMBER = 3, RL_STRING = 4, RL_ARRAY = 5,
    RL_OBJECT = 6, RL_UNSUPPORTED = 7, RL_NUMBERS = 8;

// One past the longest list or string a field allows is all validation needs to say "too
// long". No valid object has more than a few dozen members. The budgets bound the work for inputs that
// share one big value many times over (a graph, not a tree).
var RL_MAX_DEPTH = 64;
var RL_MAX_ITEMS = 1000001;
var RL_MAX_STRING = 1000001;
var RL_MAX_MEMBERS = 10000;
var RL_MAX_NODES = 2000000;
var RL_MAX_TEXT = 16000000;

// The number of UTF-8 bytes TextEncoder writes for s (a lone surrogate becomes U+FFFD: 3).
function rlUtf8Length(s) {
  var n = 0;
  for (var i = 0; i < s.length; ++i) {
    var c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xD800 && c <= 0xDBFF && i + 1 < s.length &&
             (s.charCodeAt(i + 1) & 0xFC00) === 0xDC00) { n += 4; ++i; }
    else n += 3;
  }
  return n;
}

function rlDescribeThrow(e) {
  try {
    return String(e && e.message || e).slice(0, 200);
  } catch (_) {
    return 'an exception';
  }
}

var RL_TOO_MANY_MEMBERS = {};

// Thrown when the inputs as a whole are too big to read; compute() reports it at the top.
function RlTooBig(message) { this.message = message; }

function rlFlatten(root) {
  // The tape grows by doubling: writing into a Float64Array is several times faster than
  // pushing onto an array and converting it at the end.
  var tape = new Float64Array(256);
  var used = 0;
  function reserve(n) {
    if (used + n <= tape.length) return;
    var bigger = new Float64Array(Math.max(tape.length * 2, used + n));
    bigger.set(tape.subarray(0, used));
    tape = bigger;
  }
  function push(code, x) {
    reserve(2);
    tape[used++] = code;
    if (arguments.length > 1) tape[used++] = x;
  }

  // A list of numbers only (the draws: up to 100,000) goes onto the tape in one tight loop.
  // Returns false, having written nothing, when an item is not a number.
  function putNumbers(v, n) {
    reserve(2 + n);
    var at = used + 2;
    for (var i = 0; i < n; ++i) {
      var x = v[i];
      if (typeof x !== 'number') return false;
      tape[at + i] = x;
    }
    tape[used] = RL_NUMBERS;
    tape[used + 1] = n;
    used = at + n;
    return true;
  }

  var strings = [];
  var textLength = 0;
  var nodes = 0;
  var onPath = new Set();  // the objects being read, to see a cycle

  // Appends s to the text; returns its UTF-8 length for the tape.
  function text(s) {
    if (s.length > RL_MAX_STRING) s = s.slice(0, RL_MAX_STRING);
    textLength += s.length;
    if (textLength > RL_MAX_TEXT) {
      throw new RlTooBig('The inputs hold more than ' + RL_MAX_TEXT + ' characters of text; no valid input comes near that.');
    }
    strings.push(s);
    return rlUtf8Length(s);
  }

  function unsupported(what) { push(RL_UNSUPPORTED, text(what)); }

  function put(v, depth) {
    if (++nodes > RL_MAX_NODES) {
      throw new RlTooBig('The inputs hold more than ' + RL_MAX_NODES + ' values; no valid input comes near that.');
    }
    switch (typeof v) {
      case 'number': push(RL_NUMBER, v); return;
      case 'string': push(RL_STRING, text(v)); return;
      case 'boolean': push(v ? RL_TRUE : RL_FALSE); return;
      case 'undefined': return unsupported('undefined');
      case 'function': return unsupported('a function');
      case 'symbol': return unsupported('a symbol');
      case 'bigint': return unsupported('a BigInt');
    }
    if (v === null) { push(RL_NULL); return; }
    if (depth > RL_MAX_DEPTH) return unsupported('a value nested more than ' + RL_MAX_DEPTH + ' levels deep');
    if (onPath.has(v)) return unsupported('a cycle (an object that contains itself)');

    var tapeAt = used, stringsAt = strings.length, textAt = textLength, nodesAt = nodes;
    onPath.add(v);
    try {
      if (Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView))) {
        var n = Math.min(v.length, RL_MAX_ITEMS);
        nodes += n;
        if (nodes > RL_MAX_NODES) {
          throw new RlTooBig('The inputs hold more than ' + RL_MAX_NODES + ' values; no valid input comes near that.');
        }
        if (!putNumbers(v, n)) {
          nodes -= n;
          push(RL_ARRAY, n);
          for (var i = 0; i < n; ++i) put(v[i], depth + 1);
        }
      } else {
        push(RL_OBJECT, 0);
        var members = 0;
        for (var key in v) {
          if (!Object.prototype.hasOwnProperty.call(v, key)) continue;
          var member, threw = null;
          try {
            member = v[key];
          } catch (e) {
            threw = 'a property whose getter throws (' + rlDescribeThrow(e) + ')';
          }
          if (member === undefined && threw === null) continue;
          if (++members > RL_MAX_MEMBERS) throw RL_TOO_MANY_MEMBERS;
          reserve(1);
          tape[used++] = text(key);
          if (threw !== null) unsupported(threw);
          else put(member, depth + 1);
        }
        tape[tapeAt + 1] = members;
      }
    } catch (e) {
      if (e instanceof RlTooBig) throw e;
      // Too many members, or a proxy threw: the whole value becomes one node.
      used = tapeAt;
      nodes = nodesAt;
      strings.length = stringsAt;
      textLength = textAt;
      unsupported(e === RL_TOO_MANY_MEMBERS ? 'an object with more than ' + RL_MAX_MEMBERS + ' members'
                                            : 'an object that cannot be read (' + rlDescribeThrow(e) + ')');
    } finally {
      onPath.delete(v);
    }
  }

  put(root, 1);
  return { tape: tape.subarray(0, used), text: new TextEncoder().encode(strings.join('')) };
}

// Every failure is an { ok: false } result: nothing thrown reaches the caller, not even an
// abort of the WebAssembly instance.
function rlFailure(message) {
  return { ok: false, errors: [{ field: '', message: message }] };
}

// Reads `input` onto a tape and runs the C++ entry point `name` on it.
function rlRun(name, input) {
  var flat;
  try {
    flat = rlFlatten(input);
  } catch (e) {
    if (e instanceof RlTooBig) return rlFailure(e.message);
    return rlFailure('The inputs could not be read: ' + rlDescribeThrow(e) + '.');
  }
  try {
    return Module[name](flat.tape, flat.text);
  } catch (e) {
    return rlFailure('The engine failed: ' + rlDescribeThrow(e) + '.');
  }
}

Module['compute'] = function compute(inputs) {
  return rlRun('computeTape', inputs);
};

// sweep({ inputs, vary, from, to, points }): docs/engine.md §3.
Module['sweep'] = function sweep(request) {
  return rlRun('sweepTape', request);
};
