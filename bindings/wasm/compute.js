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

// The binding's limits (docs/engine.md, "The WebAssembly binding's limits"). One past the
// longest list a field allows (draws: 100,000) is all validation needs to say "too long"; a
// longer list is read only that far. The inputs as a whole may hold at most RL_MAX_NODES values
// and RL_MAX_TEXT characters of text: the largest valid input (100,000 draws and a script of
// 1,000 answers with 1,000-character headers) holds about 107,000 values and 1,050,000
// characters. These bound what one call can make the engine build (its copy of the inputs, and
// an error for each bad value), so that no call grows WebAssembly memory past RL_MEMORY_CEILING
// (loader.js; the worst inputs within the limits stay under a third of it,
// tests/node/heap.test.js). The budgets also bound the work for inputs that share one big value
// many times over (a graph, not a tree).
var RL_MAX_DEPTH = 64;
var RL_MAX_ITEMS = 100001;
var RL_MAX_STRING = 1000001;
var RL_MAX_MEMBERS = 10000;
// Members of all objects together: a valid input has at most about 5,100 (the top level's few
// dozen and five per script answer). Each unknown member is an error, and the errors are what a
// hostile input multiplies (1,000 answers with 200 unknown keys each grew memory to 240 MB).
var RL_MAX_ALL_MEMBERS = 20000;
var RL_MAX_NODES = 200000;
var RL_MAX_TEXT = 2000000;
var RL_MEMORY_CEILING = 268435456;  // 256 MiB: loader.js's emscripten_resize_heap grows no further
// Set by loader.js's emscripten_resize_heap when it refuses to grow memory (past the ceiling,
// or the browser would not give it): a call then cut short was cut short for its size, and
// says so in data (code "out-of-memory", `memoryBytes` the ceiling) rather than only in words.
var rlGrowthRefused = false;
// After a call that left the instance's memory larger than this, the instance is replaced, so
// that the memory a big call needed is given back (WebAssembly memory never shrinks).
var RL_MEMORY_KEPT = 67108864;

var RL_LIMITS = {
  depth: RL_MAX_DEPTH, listItems: RL_MAX_ITEMS - 1, stringCharacters: RL_MAX_STRING - 1,
  objectMembers: RL_MAX_MEMBERS, allMembers: RL_MAX_ALL_MEMBERS, values: RL_MAX_NODES, textCharacters: RL_MAX_TEXT,
  memoryBytes: RL_MEMORY_CEILING,
};

// A JavaScript stack overflow ("Maximum call stack size exceeded"): the call cannot go on, and
// must not be taken for a getter that threw on one field.
function rlStackOverflow(e) {
  return e instanceof RangeError;
}

// What a non-plain object is, for its error ("a Map", "a Date", "a class instance"), or null
// for a plain object (its prototype Object.prototype, of any realm, or null).
function rlNonPlain(v) {
  var tag = Object.prototype.toString.call(v).slice(8, -1);
  var proto = Object.getPrototypeOf(v);
  if (tag === 'Object' && (proto === null || Object.getPrototypeOf(proto) === null)) return null;
  tag = tag === 'Object' ? 'class instance' : tag.slice(0, 40);
  return ('AEIOU'.indexOf(tag[0]) < 0 ? 'a ' : 'an ') + tag + ' (not a plain object)';
}

// Does s hold a lone surrogate: half of a UTF-16 pair without its other half, which is not
// Unicode text and which no UTF-8 can carry? (No regular expression: V8 compiles one again as
// it warms up, and compiling it with the stack nearly exhausted ends the process.)
function rlLoneSurrogate(s) {
  for (var i = 0; i < s.length; ++i) {
    var c = s.charCodeAt(i) & 0xFC00;
    if (c === 0xD800 && (s.charCodeAt(i + 1) & 0xFC00) === 0xDC00) ++i;
    else if (c === 0xD800 || c === 0xDC00) return true;
  }
  return false;
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
function RlTooBig(what) { this.message = 'The inputs hold more than ' + what + '; no valid input comes near that.'; }
// Thrown for one value that is refused whole (a list with no proper length, a Map, a Date...).
function RlRefused(message) { this.message = message; }

// The tape and text buffers of the last call, kept for the next (issue 18: making them, and a
// TextEncoder, was about a tenth of a compute({})). A call takes them, so that a getter that
// calls compute() while its inputs are read gets buffers of its own; rlKeep() gives them back.
var rlBuffers = null;
var rlEncoder = new TextEncoder();
var RL_BUFFERS_KEPT = 65536;  // the longest tape (in numbers) kept between calls: 512 KB

function rlKeep(flat) {
  if (flat.buffers.tape.length <= RL_BUFFERS_KEPT && flat.buffers.bytes.length <= 8 * RL_BUFFERS_KEPT) rlBuffers = flat.buffers;
}

function rlFlatten(root) {
  var kept = rlBuffers;
  rlBuffers = null;
  // The tape grows by doubling: writing into a Float64Array is several times faster than
  // pushing onto an array and converting it at the end.
  var tape = kept ? kept.tape : new Float64Array(256);
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

  // Each string is encoded on its own (TextEncoder.encodeInto, a lone surrogate becoming
  // U+FFFD), into one growing buffer: its UTF-8 length on the tape is what was written for it,
  // so no two strings can pair their surrogates or shift each other's bytes.
  var encoder = rlEncoder;
  var bytes = kept ? kept.bytes : new Uint8Array(1024);
  var byteLength = 0;
  var textLength = 0;
  var nodes = 0;
  var allMembers = 0;
  var onPath = new Set();  // the objects being read, to see a cycle

  // Appends s to the text; returns its UTF-8 length for the tape.
  function text(s) {
    if (s.length > RL_MAX_STRING) s = s.slice(0, RL_MAX_STRING);
    textLength += s.length;
    if (textLength > RL_MAX_TEXT) throw new RlTooBig(RL_MAX_TEXT + ' characters of text');
    if (byteLength + 3 * s.length > bytes.length) {
      var bigger = new Uint8Array(Math.max(bytes.length * 2, byteLength + 3 * s.length));
      bigger.set(bytes.subarray(0, byteLength));
      bytes = bigger;
    }
    var written = encoder.encodeInto(s, bytes.subarray(byteLength)).written;
    byteLength += written;
    return written;
  }

  function unsupported(what) { push(RL_UNSUPPORTED, text(what)); }

  function put(v, depth) {
    if (++nodes > RL_MAX_NODES) throw new RlTooBig(RL_MAX_NODES + ' values');
    switch (typeof v) {
      case 'number': push(RL_NUMBER, v); return;
      case 'string': {
        // Refused, as the native command's JSON parser refuses "\ud800": the string would
        // have to change to cross. (A key with one is read with U+FFFD in its place: it is
        // never a field's name, so it is reported as an unknown field.)
        if (rlLoneSurrogate(v)) return unsupported('a string with a lone surrogate');
        push(RL_STRING, text(v));
        return;
      }
      case 'boolean': push(v ? RL_TRUE : RL_FALSE); return;
      case 'undefined': return unsupported('undefined');
      case 'function': return unsupported('a function');
      case 'symbol': return unsupported('a symbol');
      case 'bigint': return unsupported('a BigInt');
    }
    if (v === null) { push(RL_NULL); return; }
    if (depth > RL_MAX_DEPTH) return unsupported('a value nested more than ' + RL_MAX_DEPTH + ' levels deep');
    if (onPath.has(v)) return unsupported('a cycle (an object that contains itself)');

    var tapeAt = used, bytesAt = byteLength, textAt = textLength, nodesAt = nodes, membersAt = allMembers;
    onPath.add(v);
    try {
      if (Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView))) {
        // Read once: a proxy may answer each read of `length` differently.
        var length = v.length;
        if (typeof length !== 'number' || !(length >= 0) || Math.floor(length) !== length) {
          throw new RlRefused('a list with a bad length');
        }
        var n = Math.min(length, RL_MAX_ITEMS);
        nodes += n;
        if (nodes > RL_MAX_NODES) throw new RlTooBig(RL_MAX_NODES + ' values');
        if (!putNumbers(v, n)) {
          nodes -= n;
          push(RL_ARRAY, n);
          for (var i = 0; i < n; ++i) put(v[i], depth + 1);
        }
      } else {
        var nonPlain = rlNonPlain(v);
        if (nonPlain !== null) throw new RlRefused(nonPlain);
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
          if (++allMembers > RL_MAX_ALL_MEMBERS) throw new RlTooBig(RL_MAX_ALL_MEMBERS + ' object members');
          reserve(1);
          tape[used++] = text(key);
          if (threw !== null) unsupported(threw);
          else put(member, depth + 1);
        }
        tape[tapeAt + 1] = members;
      }
    } catch (e) {
      if (e instanceof RlTooBig || rlStackOverflow(e)) throw e;
      // Too many members, a length that is no length, not a plain object, or a proxy threw:
      // the whole value becomes one node.
      used = tapeAt;
      nodes = nodesAt;
      allMembers = membersAt;
      byteLength = bytesAt;
      textLength = textAt;
      unsupported(e === RL_TOO_MANY_MEMBERS ? 'an object with more than ' + RL_MAX_MEMBERS + ' members'
                  : e instanceof RlRefused ? e.message
                  : 'an object that cannot be read (' + rlDescribeThrow(e) + ')');
    } finally {
      onPath.delete(v);
    }
  }

  put(root, 1);
  return { tape: tape.subarray(0, used), text: bytes.subarray(0, byteLength), buffers: { tape: tape, bytes: bytes } };
}

// Every failure is an { ok: false } result: nothing thrown reaches the caller, not even an
// abort of the WebAssembly instance.
function rlFailure(message) {
  return { ok: false, errors: [{ field: '', code: 'unreadable', message: message, detail: message }] };
}

var rlDecoder = new TextDecoder();

// The result engine.cpp wrote at `out` (see Output there), as plain objects and arrays. `keys`
// is the instance's key table as this side holds it (engine.cpp, KeyTable): a key that crosses
// as its number is taken from it, and a new one is added to it.
function rlReadResult(out, heap, keys) {
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
          var k = f64[at];
          var key;
          if (k >= 0) {
            key = string();
          } else {
            k = -1 - k;
            ++at;
            if (k < keys.length) {
              key = keys[k];
            } else {
              if (k !== keys.length) throw new Error('the result is damaged');
              key = string();
              keys.push(key);
            }
          }
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

// The answer of a call that ran out of JavaScript stack: shared, so frozen all the way down.
var RL_OUT_OF_STACK = rlFailure('The JavaScript stack ran out; nothing was computed.');
Object.freeze(Object.freeze(Object.freeze(RL_OUT_OF_STACK).errors)[0]);

// The entry points, in the order of rl_run()'s `entry` (engine.cpp). Each becomes a method of
// the engine built the same way (rlEngine below), so each has the same guard: it never throws,
// and an instance interrupted inside a call is never used again.
var RL_ENTRIES = ['compute', 'sweep', 'validate', 'schema', 'fleet', 'fleetSchema', 'compareMetrics', 'markdown', 'readConfig', 'compareConfigs', 'configFormats', 'compareResults'];

// The engine's API (compute, sweep, version, heapInUse, heapTop, limits, restarts) over an
// instance of the module. `instantiate()` (loader.js) makes a fresh instance's exports, or a
// promise of them where the browser compiles only asynchronously; `first` is the first.
//
// A call can be cut short inside WebAssembly: a trap, a JavaScript stack overflow in a wasm
// frame (compute() called from deep recursion), an abort. The instance is then in an unknown
// state: the C stack pointer not restored, the call's heap never freed, perhaps the allocator
// half-way through an update. Such an instance is never called again: `inCall` is set before
// the first call into it and cleared only after the call's last free, and an instance found
// with it still set (or one a call saw throw) is dropped and a fresh one made from the compiled
// module. The call that was cut short answers { ok: false } saying so; `restarts()` counts them.
function rlEngine(first, instantiate) {
  var wasm = first;        // the current instance's exports, or null while a new one is made
  var pending = null;      // the promise of a new instance, where instantiation is asynchronous
  var inCall = false;      // true from the first call into `wasm` until the call has freed all it held
  var restarts = 0;
  var heap = { buffer: null, u8: null, u32: null, f64: null };
  var keys = [];           // the current instance's key table (rlReadResult), which goes with it

  // Memory grows inside calls (emscripten_resize_heap): views are renewed when it has.
  function views() {
    if (heap.buffer !== wasm.memory.buffer) {
      heap.buffer = wasm.memory.buffer;
      heap.u8 = new Uint8Array(heap.buffer);
      heap.u32 = new Uint32Array(heap.buffer);
      heap.f64 = new Float64Array(heap.buffer);
    }
    return heap;
  }

  // Forgets the instance (its memory goes with it); `interrupted`: a call was cut short in it.
  function drop(interrupted) {
    if (interrupted) ++restarts;
    wasm = null;
    keys = [];
    inCall = false;
    heap.buffer = heap.u8 = heap.u32 = heap.f64 = null;  // the old memory can go
  }

  // The instance to call, or null while a new one is on its way.
  function instance() {
    if (inCall) drop(true);  // the last call into it never finished
    if (!wasm && !pending) {
      var made = instantiate();  // if it throws (out of memory, of stack), the next call tries again
      if (made && typeof made.then === 'function') {
        pending = made.then(function (exports) { wasm = exports; pending = null; },
                            function () { pending = null; });
      } else {
        wasm = made;
      }
    }
    return wasm;
  }

  // Reads `input` onto a tape and runs the C++ entry point (RL_ENTRIES: 0 compute, 1 sweep,
  // 2 validate, 3 schema, 4 fleet, 5 fleetSchema) on it.
  function run(entry, input) {
    var flat;
    try {
      flat = rlFlatten(input);
    } catch (e) {
      if (e instanceof RlTooBig) return rlFailure(e.message);
      if (rlStackOverflow(e)) return RL_OUT_OF_STACK;
      return rlFailure('The inputs could not be read: ' + rlDescribeThrow(e) + '.');
    }
    var w = instance();
    if (!w) return rlFailure('The engine is restarting; try again.');
    var result;
    try {
      inCall = true;
      rlGrowthRefused = false;
      // One block, the tape then the text, which rl_run() frees once it has read it.
      var tapeBytes = flat.tape.length * 8 + 8;
      var tape = w.malloc(tapeBytes + flat.text.length + 1);
      if (!tape) throw new Error('out of memory');
      views().f64.set(flat.tape, tape >> 3);
      heap.u8.set(flat.text, tape + tapeBytes);
      rlKeep(flat);
      var out = w.rl_run(entry, tape, flat.tape.length, tape + tapeBytes, flat.text.length);
      result = rlReadResult(out, views(), keys);
      w.rl_free_result(out);
      inCall = false;
    } catch (e) {
      drop(true);
      var grew = rlGrowthRefused;
      var failure = rlFailure('The engine was interrupted (' + (grew ? 'the call needed more than its ' + (RL_MEMORY_CEILING >> 20) + ' MiB of memory' : rlDescribeThrow(e)) + ') and has been restarted; nothing was computed.');
      if (grew) {
        failure.errors[0].code = 'out-of-memory';
        failure.errors[0].memoryBytes = RL_MEMORY_CEILING;
      }
      return failure;
    }
    // A call that needed a lot of memory leaves the instance that big: give it back.
    if (w.memory.buffer.byteLength > RL_MEMORY_KEPT) drop(false);
    return result;
  }

  // A method that calls into the instance without inputs (version, heapInUse).
  function ask(f) {
    var w = instance();
    return w ? f(w) : NaN;
  }

  // An entry point: never throws. Its frame is kept small and its catch makes nothing (making
  // even an object can run out of stack), so that whatever runs out (the stack, inside run() or
  // inside the catch of run()) ends here as a result: RL_OUT_OF_STACK.
  // (A call made with no room for this first frame throws at the call site, before any of the
  // binding runs, as a call of any function would.)
  function entryPoint(entry) {
    return function (input) {
      try {
        return run(entry, input);
      } catch (_) {
        return RL_OUT_OF_STACK;
      }
    };
  }

  var api = {
    version: function version() {
      return ask(function (w) {
        var u8 = views().u8, at = w.rl_version(), end = at;
        while (u8[end]) ++end;
        return rlDecoder.decode(u8.subarray(at, end));
      });
    },
    // Bytes the allocator has handed out and not had back (mallinfo): calls leave it flat.
    heapInUse: function heapInUse() { return ask(function (w) { return w.rl_heap_in_use(); }); },
    // The heap's highest point so far: it never comes down, so on a fresh engine its rise
    // over a call is the most the call held at once (scripts/bench reports it).
    heapTop: function heapTop() { return ask(function (w) { return w.rl_heap_top(); }); },
    // The binding's limits on inputs and memory (docs/engine.md).
    limits: function limits() { return Object.assign({}, RL_LIMITS); },
    // How many times an interrupted call made the binding replace its instance.
    restarts: function () { return restarts; },
    // The current instance's key table as this side holds it (engine.cpp, KeyTable), for tests.
    _keys: function () { return keys.slice(); },
    _malloc: function (bytes) { return ask(function (w) { return w.malloc(bytes); }); },
    _free: function (address) { ask(function (w) { w.free(address); }); },
  };
  // compute(inputs): SPEC.md; sweep({ inputs, vary, from, to, points }): docs/engine.md §3.
  for (var i = 0; i < RL_ENTRIES.length; ++i) api[RL_ENTRIES[i]] = entryPoint(i);
  // schema(): the input table, and the limits this binding reads inputs within (docs/engine.md §6).
  // fleetSchema(): the fleet request's tables { engine, fleet, occ } (FLEET.md §3), the same way;
  // only the fleet engine file has it (the page's answers { ok: false } naming that file).
  function withLimits(table) {
    return function () {
      var s = table();
      if (s && s.ok !== false) s.limits = api.limits();
      return s;
    };
  }
  api.schema = withLimits(api.schema);
  api.fleetSchema = withLimits(api.fleetSchema);
  return api;
}
