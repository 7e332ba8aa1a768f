// Loading the retry engine: one classic script (retrylab-engine.js) defines the global
// factory RetryLabEngine. Every failure becomes a plain sentence the page can show, and a
// `code` saying which failure it is: 'no-webassembly', 'not-loaded', 'start-failed' (the
// module would not compile or start: also what a Content-Security-Policy without
// 'wasm-unsafe-eval' does) or 'no-compute'.

export class EngineUnavailable extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

// The engine as a page holds it (replacedAfterFailure below).
export async function loadEngine(global = globalThis) {
  return replacedAfterFailure(await startEngine(global), () => startEngine(global));
}

async function startEngine(global) {
  if (typeof global.WebAssembly !== 'object') {
    throw new EngineUnavailable('no-webassembly', 'This browser cannot run WebAssembly, which the retry engine needs.');
  }
  if (typeof global.RetryLabEngine !== 'function') {
    throw new EngineUnavailable('not-loaded', 'The retry engine (retrylab-engine.js) did not load, so nothing can be computed.');
  }
  let engine;
  try {
    engine = await global.RetryLabEngine(); // the engine itself (bindings/wasm/loader.js)
  } catch (error) {
    const why = error && error.message ? error.message : String(error);
    throw new EngineUnavailable('start-failed', `The retry engine failed to start: ${why}`);
  }
  // compute() runs, validate() checks without running, schema() describes the inputs.
  const missing = ['compute', 'validate', 'schema'].find((name) => !engine || typeof engine[name] !== 'function');
  if (missing) {
    throw new EngineUnavailable('no-compute', `The retry engine started but offers no ${missing}() function.`);
  }
  return engine;
}

// The engine's entry points: what the page calls with inputs.
const ENTRY_POINTS = ['compute', 'sweep', 'fleet'];

// An engine whose entry point throws (a WebAssembly trap or an abort in an engine file without
// the binding's own guard, bindings/wasm/compute.js) is never called again: that call answers
// { ok: false } naming the failure, a fresh engine is started with `start`, and until it is
// ready every call answers { ok: false } saying so. Other methods (version, heapInUse, ...) go
// to the current engine (undefined while there is none).
export function replacedAfterFailure(first, start) {
  let current = first;
  let starting = null;
  const held = {};
  for (const name of Object.keys(first)) {
    if (typeof first[name] !== 'function') continue;
    held[name] = (...args) => {
      if (!ENTRY_POINTS.includes(name)) return current && current[name](...args);
      let why = 'restarting after a failure';
      try {
        if (current) return current[name](...args);
      } catch (error) {
        why = `failed: ${error && error.message ? error.message : error}`;
        current = null;
      }
      starting ||= Promise.resolve().then(start).then((engine) => { current = engine; }, () => {}).finally(() => { starting = null; });
      return { ok: false, errors: [{ field: '', message: `The retry engine gave no result (${why}).` }] };
    };
  }
  return held;
}

export function engineVersion(engine) {
  try {
    return typeof engine.version === 'function' ? String(engine.version()) : '';
  } catch {
    return '';
  }
}

// The page's engine on demand (issue 18): the opening page carries no engine file. Its first
// screen is drawn from what the build computed with the same engine (web/prerender.mjs); the
// engine file is added to the page the first time something needs a computation (a control
// that changes the inputs, a "Try it", a link naming a run, the sections below the article).
//   load():    a promise of the engine (the file added once; a failed load can be tried again);
//   ready():   true once it is there;
//   current(): the engine, or null before then;
//   engine:    an object that stands for it: each call goes to the engine once it is there;
//              before that, compute/sweep/fleet/validate answer an error saying it is still
//              loading (and start the load), schema() answers `schema`, version() ''.
// `addScript(file)`: a promise that the classic script `file` has run (web/bundles.js).
// `check(engine)`: throws if the engine that arrived cannot serve the page (main.js: it must
// compute the opening run the page was built with); `onFailure(error)`: told of each failed load.
export function engineOnDemand(global, { addScript, file = 'retrylab-engine.js', schema = null, check = (_engine) => {}, onFailure = (_error) => {} }) {
  let current = null;
  let pending = null;
  function load() {
    if (current) return Promise.resolve(current);
    if (!pending) {
      const script = typeof global.RetryLabEngine === 'function' ? Promise.resolve() : addScript(file);
      pending = script.then(
        () => loadEngine(global),
        () => { throw new EngineUnavailable('not-loaded', `The retry engine (${file}) did not load, so nothing can be computed.`); },
      ).then((engine) => {
        check(engine);
        return (current = engine);
      });
      pending.catch((error) => {
        pending = null; // the next need tries again
        onFailure(error);
      });
    }
    return pending;
  }
  const loading = { ok: false, errors: [{ field: 'general', code: 'engine-loading', message: 'The retry engine is still loading.', detail: 'The retry engine is still loading.' }] };
  const before = {
    compute: () => loading,
    sweep: () => loading,
    fleet: () => loading,
    validate: () => ({ ok: false, errors: loading.errors }),
    schema: () => schema,
    version: () => '',
  };
  const engine = new Proxy({}, {
    get(_, name) {
      if (current) return current[name];
      if (!(name in before)) return undefined;
      return (...args) => {
        if (name !== 'schema' && name !== 'version') load().catch(() => {});
        return before[name](...args);
      };
    },
  });
  return { load, ready: () => current !== null, current: () => current, engine };
}
