// A herd of a million callers takes the engine about a second or more (see the report in
// web/README.md), so large herds are computed off the page's main thread. The page's own
// bundle doubles as the worker script — no second file to ship, and the same CSP source
// ('self') — and the worker loads the engine file beside it with importScripts().
// Small herds, and pages where a worker cannot start (file://), compute on the main thread.

import { herdRunInputs } from './herd.js';

// Herds up to this size compute on the spot: a few milliseconds at most.
export const MAIN_THREAD_CALLERS = 2000;

// The bundle's own address, read while it runs as a page script.
const BUNDLE_URL = typeof document !== 'undefined' && document.currentScript ? document.currentScript.src : null;

// --- In the worker --------------------------------------------------------------------------

export function serveHerd(scope) {
  let engine = null;
  scope.addEventListener('message', async (event) => {
    const { id, engineUrl, inputs, keys } = event.data;
    try {
      if (!engine) {
        scope.importScripts(engineUrl);
        engine = await scope.RetryLabEngine();
        if (engine.ready && typeof engine.ready.then === 'function') await engine.ready;
      }
      const results = {};
      const started = scope.performance.now();
      for (const key of keys) results[key] = engine.compute(herdRunInputs(inputs, key));
      scope.postMessage({ id, results, ms: scope.performance.now() - started });
    } catch (error) {
      scope.postMessage({ id, error: error && error.message ? error.message : String(error) });
    }
  });
}

// --- On the page ----------------------------------------------------------------------------

// computeHerd(inputs, keys, done): `done({ results, where, ms })` once, unless a newer request
// replaced this one first. A request in flight is abandoned by ending its worker: waiting for
// a million callers that are no longer asked for would leave the panel behind.
export function herdComputer(view, compute) {
  let worker = null;
  let pending = null; // { id, inputs, keys, done }
  let nextId = 1;
  let workerBroken = !BUNDLE_URL || typeof view.Worker !== 'function';
  let timer = 0;
  const engineUrl = BUNDLE_URL ? new URL('retrylab-engine.js', BUNDLE_URL).href : null;

  function onMain(request) {
    // Let the page paint "Computing…" first, then compute here.
    timer = view.setTimeout(() => {
      timer = 0;
      if (pending !== request) return;
      pending = null;
      const started = view.performance.now();
      const results = {};
      for (const key of request.keys) results[key] = compute(herdRunInputs(request.inputs, key));
      request.done({ results, where: 'main', ms: view.performance.now() - started });
    }, 30);
  }

  function stopWorker() {
    if (worker) worker.terminate();
    worker = null;
  }

  function startWorker() {
    try {
      worker = new view.Worker(BUNDLE_URL);
    } catch {
      workerBroken = true;
      return false;
    }
    worker.addEventListener('message', (event) => {
      const { id, results, error, ms } = event.data;
      if (!pending || pending.id !== id) return;
      const request = pending;
      if (error) {
        workerBroken = true;
        stopWorker();
        onMain(request);
        return;
      }
      pending = null;
      request.done({ results, where: 'worker', ms });
    });
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      workerBroken = true;
      stopWorker();
      if (pending) onMain(pending);
    });
    return true;
  }

  return {
    run(inputs, keys, done) {
      if (timer) view.clearTimeout(timer);
      timer = 0;
      if ((inputs.callers || 1) <= MAIN_THREAD_CALLERS) {
        if (pending && worker) stopWorker();
        pending = null;
        const started = view.performance.now();
        const results = {};
        for (const key of keys) results[key] = compute(herdRunInputs(inputs, key));
        done({ results, where: 'main', ms: view.performance.now() - started });
        return;
      }
      if (pending && worker) stopWorker();
      const request = { id: nextId++, inputs, keys, done };
      pending = request;
      if (!workerBroken && (worker || startWorker())) worker.postMessage({ id: request.id, engineUrl, inputs, keys });
      else onMain(request);
    },
    busy: () => pending !== null,
    destroy() {
      if (timer) view.clearTimeout(timer);
      pending = null;
      stopWorker();
    },
  };
}
