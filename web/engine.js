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
  return engine;
}

export function engineVersion(engine) {
  try {
    return typeof engine.version === 'function' ? String(engine.version()) : '';
  } catch {
    return '';
  }
}
