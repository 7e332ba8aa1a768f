// The JS half of the WebAssembly binding. assemble.js puts it inside the engine file's factory,
// after loader.js, which instantiates the module and calls rlEngine() below with its exports.
//
// compute(inputs) reads the caller's object here, in one pass, into a "tape": a Float64Array of
// node codes and numbers, plus the UTF-8 bytes of every string. The C++ half (engine.cpp)
// rebuilds a retrylab::Value from it without calling back into JS, and writes the result the
// same way; rlReadResult() turns that into plain objects and arrays. Reading here is what
// keeps 100,000 draws cheap, and it confines the caller's code (getters, proxies) to this
// function, where a throw is caught and becomes an unsupported value instead of unwinding
// through WebAssembly frames.
//
// What has no JSON meaning becomes an "unsupported" node with a description, which the core's
// validation reports against the field's path: functions, symbols, BigInts, undefined list
// items, cycles, nesting deeper than 64 levels, values whose getters throw. Members that are
// undefined are absent, as JSON.stringify would leave them out. Typed arrays count as lists.
//
// Tape grammar (every entry a double; engine.cpp has the result's side):
//   null: 0 | false: 1 | true: 2 | number: 3 x | string: 4 bytes | list: 5 n item*n
//   object: 6 n (keyBytes value)*n | unsupported: 7 bytes | list of numbers: 8 n x*n
// where `bytes` is the length of the string's UTF-8 in `text`, the strings in tape order.

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
  return { ok: false, errors: [{ field: '', code: 'unreadable', message: message, detail: message }] };
}

var rlDecoder = new TextDecoder();

// The result engine.cpp wrote at `out` (see Output there), as plain objects and arrays.
function rlReadResult(out, heap) {
  var header = out >> 2;
  var u32 = heap.u32, f64 = heap.f64;
  var at = u32[header] >> 3, end = at + u32[header + 1];
  var bytes = heap.u8.subarray(u32[header + 2], u32[header + 2] + u32[header + 3]);
  var utf16 = u32[header + 4] === 1;
  // Valid UTF-8 (the usual case): one decode, then each string is a slice of UTF-16 units.
  var text = utf16 ? rlDecoder.decode(bytes) : '';
  var pos = 0;
  function string() {
    var n = f64[at++];
    var s = utf16 ? text.slice(pos, pos + n) : rlDecoder.decode(bytes.subarray(pos, pos + n));
    pos += n;
    return s;
  }
  function value() {
    var n, i, items, object;
    switch (f64[at++]) {
      case RL_NULL: return null;
      case RL_FALSE: return false;
      case RL_TRUE: return true;
      case RL_NUMBER: return f64[at++];
      case RL_STRING: return string();
      case RL_ARRAY:
        n = f64[at++];
        items = new Array(n);
        for (i = 0; i < n; ++i) items[i] = value();
        return items;
      case RL_NUMBERS:
        n = f64[at++];
        items = new Array(n);
        for (i = 0; i < n; ++i) items[i] = f64[at++];
        return items;
      case RL_OBJECT:
        n = f64[at++];
        object = {};
        for (i = 0; i < n; ++i) {
          var key = string();
          object[key] = value();
        }
        return object;
    }
    throw new Error('the result is damaged');
  }
  var result = value();
  if (at !== end) throw new Error('the result is damaged');
  return result;
}

// The engine's API over one instance's exports (loader.js): compute, sweep, version and
// heapInUse, and the allocator (tests use it to see that heapInUse() counts).
function rlEngine(wasm) {
  var memory = wasm.memory;
  var heap = { buffer: null, u8: null, u32: null, f64: null };
  // Memory grows inside calls (emscripten_resize_heap): views are renewed when it has.
  function views() {
    if (heap.buffer !== memory.buffer) {
      heap.buffer = memory.buffer;
      heap.u8 = new Uint8Array(heap.buffer);
      heap.u32 = new Uint32Array(heap.buffer);
      heap.f64 = new Float64Array(heap.buffer);
    }
    return heap;
  }

  // Reads `input` onto a tape and runs the C++ entry point (0 compute, 1 sweep, 2 validate,
  // 3 schema) on it.
  function run(entry, input) {
    var flat;
    try {
      flat = rlFlatten(input);
    } catch (e) {
      if (e instanceof RlTooBig) return rlFailure(e.message);
      return rlFailure('The inputs could not be read: ' + rlDescribeThrow(e) + '.');
    }
    var tape = 0, text = 0, out = 0;
    try {
      tape = wasm.malloc(flat.tape.length * 8 + 8);
      text = wasm.malloc(flat.text.length + 1);
      if (!tape || !text) return rlFailure('The engine is out of memory.');
      views().f64.set(flat.tape, tape >> 3);
      heap.u8.set(flat.text, text);
      out = wasm.rl_run(entry, tape, flat.tape.length, text, flat.text.length);
      return rlReadResult(out, views());
    } catch (e) {
      return rlFailure('The engine failed: ' + rlDescribeThrow(e) + '.');
    } finally {
      if (out) wasm.rl_free_result(out);
      if (text) wasm.free(text);
      if (tape) wasm.free(tape);
    }
  }

  return {
    compute: function compute(inputs) { return run(0, inputs); },
    // sweep({ inputs, vary, from, to, points }): docs/engine.md §3.
    sweep: function sweep(request) { return run(1, request); },
    // validate(inputs): { ok, errors: [{ field, code, message, detail }] } without a run.
    validate: function validate(inputs) { return run(2, inputs); },
    // schema(): { engine, inputs: [row...] }, the input table (docs/engine.md §4).
    schema: function schema() { return run(3, null); },
    version: function version() {
      var u8 = views().u8, at = wasm.rl_version(), end = at;
      while (u8[end]) ++end;
      return rlDecoder.decode(u8.subarray(at, end));
    },
    // Bytes the allocator has handed out and not had back (mallinfo): calls leave it flat.
    heapInUse: function heapInUse() { return wasm.rl_heap_in_use(); },
    // The heap's highest point so far: it never comes down, so on a fresh engine its rise
    // over a call is the most the call held at once (scripts/bench reports it).
    heapTop: function heapTop() { return wasm.rl_heap_top(); },
    _malloc: function (bytes) { return wasm.malloc(bytes); },
    _free: function (address) { wasm.free(address); },
  };
}
