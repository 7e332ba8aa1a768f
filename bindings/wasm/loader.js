// The engine file's loader (assemble.js puts it in the factory with compute.js): the
// WebAssembly module is inlined as text (RL_WASM, see assemble.js for the code), compiled
// once, and instantiated per RetryLabEngine() call with the functions it imports (assemble.js
// refuses a module that imports anything else).
//
//   const engine = await RetryLabEngine();   // a page's global, or require('./retrylab-engine.js')
//   engine.compute({ maxRetries: 1 });       // { ok: true, engine, inputs, events, ... }

/* global RL_WASM, RL_WASM_ORDER, RL_MEMORY_CEILING, rlEngine */

// The module's bytes from RL_WASM: each character is one byte, or a prefix and a character;
// RL_WASM_ORDER (hex) lists the bytes from the most frequent.
function rlWasmBytes() {
  var order = new Uint8Array(256);
  for (var i = 0; i < 256; ++i) order[i] = parseInt(RL_WASM_ORDER.substr(2 * i, 2), 16);
  // The 93 characters a "..." literal holds as themselves: ' ' to '~' without '"' and '\',
  // each character's rank among them (a table: this loop runs once per byte of the module).
  var rank = new Int16Array(128);
  for (var c = 32; c < 127; ++c) rank[c] = c - 32 - (c > 34) - (c > 92);
  var text = RL_WASM;
  var bytes = new Uint8Array(text.length);
  var n = 0;
  for (var at = 0; at < text.length; ++at) {
    var r = rank[text.charCodeAt(at)];
    if (r < 3) r = 90 + r * 90 + rank[text.charCodeAt(++at)] - 3;
    else r -= 3;
    bytes[n++] = order[r];
  }
  return bytes.subarray(0, n);
}

var rlModule = null;  // the compiled module, or a promise of it; shared by every instance

// Compiled and instantiated on the spot where the browser allows it (about 2 ms for this
// module, in Chromium and in node): the page then has its engine in the same task as its
// script, and draws the experiment in its first frame, not after a frame of "Loading…" and a
// wait for a background compile (30-40 ms here). Browsers that refuse to compile more than a
// few KB on the main thread (a RangeError) get the asynchronous calls instead.
function rlCompile() {
  if (!rlModule) {
    var bytes = rlWasmBytes();
    try {
      rlModule = new WebAssembly.Module(bytes);
    } catch (e) {
      if (!e || e.name !== 'RangeError') throw e;
      rlModule = WebAssembly.compile(bytes);
      rlModule.catch(function () { rlModule = null; }); // the next call tries again
    }
  }
  return rlModule;
}

function rlInstantiate(module, imports) {
  try {
    return new WebAssembly.Instance(module, imports);
  } catch (e) {
    if (!e || e.name !== 'RangeError') throw e;
    return WebAssembly.instantiate(module, imports);
  }
}

// A fresh instance of the compiled module: its exports, or a promise of them where the browser
// instantiates only asynchronously. Each instance has its own memory, which may grow to
// RL_MEMORY_CEILING (compute.js) and no further: a call that would need more fails inside the
// module (malloc returns null, then the module aborts), and the binding replaces the instance.
function rlNewInstance(module) {
  var memory = null;
  var imports = {
    env: {
      // malloc needs more memory: grow to the request and a fifth more (within the ceiling).
      emscripten_resize_heap: function (requested) {
        requested >>>= 0;
        var old = memory.buffer.byteLength;
        var limit = RL_MEMORY_CEILING;
        if (requested > limit) {
          rlGrowthRefused = true;
          return 0;
        }
        var sizes = [Math.min(limit, requested + Math.min(requested / 5, 96 << 20)), requested];
        for (var i = 0; i < sizes.length; ++i) {
          var pages = Math.ceil((sizes[i] - old) / 65536);
          try {
            memory.grow(pages);
            return 1;
          } catch (e) { /* try the smaller size */ }
        }
        rlGrowthRefused = true;
        return 0;
      },
      abort: function () { throw new Error('the engine aborted'); },
    },
  };
  function ready(instance) {
    var wasm = instance.exports;
    memory = wasm.memory;
    wasm.__wasm_call_ctors();
    return wasm;
  }
  var made = rlInstantiate(module, imports);
  return made && typeof made.then === 'function' ? made.then(ready) : ready(made);
}

// A promise of the engine: compute, sweep, version, heapInUse, ... (compute.js, rlEngine).
function RetryLabEngine() {
  return new Promise(function (resolve) {
    resolve(rlCompile());
  }).then(function (module) {
    return Promise.resolve(rlNewInstance(module)).then(function (wasm) {
      return rlEngine(wasm, function () { return rlNewInstance(module); });
    });
  });
}
