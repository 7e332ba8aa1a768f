// Loading the retry engine: one classic script (retrylab-engine.js) defines the global
// factory RetryLabEngine. Every failure becomes a plain sentence the page can show.

export class EngineUnavailable extends Error {}

export async function loadEngine(global = globalThis) {
  if (typeof global.WebAssembly !== 'object') {
    throw new EngineUnavailable('This browser cannot run WebAssembly, which the retry engine needs.');
  }
  if (typeof global.RetryLabEngine !== 'function') {
    throw new EngineUnavailable('The retry engine (retrylab-engine.js) did not load, so nothing can be computed.');
  }
  let engine;
  try {
    engine = await global.RetryLabEngine();
    // Built with synchronous compilation the factory returns the module itself; its
    // `ready` promise settles once the runtime is up either way.
    if (engine && engine.ready && typeof engine.ready.then === 'function') await engine.ready;
  } catch (error) {
    const why = error && error.message ? error.message : String(error);
    throw new EngineUnavailable(`The retry engine failed to start: ${why}`);
  }
  if (!engine || typeof engine.compute !== 'function') {
    throw new EngineUnavailable('The retry engine started but offers no compute() function.');
  }
  return replacedAfterFailure(engine, () => global.RetryLabEngine());
}

// The engine's entry points: what the page calls with inputs.
const ENTRY_POINTS = ['compute', 'sweep', 'fleet'];

// The engine as the page holds it: an engine whose entry point throws (a WebAssembly trap or an
// abort in an engine file without the binding's own guard, bindings/wasm/compute.js) is never
// called again. That call answers { ok: false } naming the failure; a fresh engine is made with
// `factory` (the global RetryLabEngine), and until it is ready every call answers
// { ok: false } saying so. Other methods (version, heapInUse, ...) go to the current engine.
export function replacedAfterFailure(first, factory) {
  let current = first;
  let starting = null;
  const failure = (message) => ({ ok: false, errors: [{ field: '', message }] });
  function replace() {
    current = null;
    if (starting) return;
    starting = Promise.resolve()
      .then(factory)
      .then(async (engine) => {
        if (engine && engine.ready && typeof engine.ready.then === 'function') await engine.ready;
        if (engine && typeof engine.compute === 'function') current = engine;
      })
      .catch(() => {}) // none this time: the next call tries again
      .finally(() => { starting = null; });
  }
  const held = {
    // How many times a failed engine was replaced (for tests and diagnostics).
    replacements: 0,
  };
  for (const name of Object.keys(first)) {
    if (typeof first[name] !== 'function') continue;
    if (ENTRY_POINTS.includes(name)) {
      held[name] = (inputs) => {
        if (!current) {
          if (!starting) replace();
          return failure('The retry engine is being restarted after it failed; try again in a moment.');
        }
        try {
          return current[name](inputs);
        } catch (error) {
          const why = error && error.message ? error.message : String(error);
          held.replacements += 1;
          replace();
          return failure(`The retry engine failed on this run (${why}); a fresh engine is being started.`);
        }
      };
    } else {
      held[name] = (...args) => (current ? current[name](...args) : NaN);
    }
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
