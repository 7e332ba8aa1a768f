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

export async function loadEngine(global = globalThis) {
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

export function engineVersion(engine) {
  try {
    return typeof engine.version === 'function' ? String(engine.version()) : '';
  } catch {
    return '';
  }
}
