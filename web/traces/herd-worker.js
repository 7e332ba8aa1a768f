// Large herds are computed off the page's main thread: the three compared runs of a million
// callers still take the engine tens of milliseconds each (more on a slow phone), and the
// evenly spread run carries its draws across. The page's own bundle doubles as the worker
// script — no second file to ship, and the same CSP source ('self') — and the worker loads
// the engine file beside it with importScripts(). Small herds, and pages where a worker
// cannot start (file://), compute on the main thread.

import { herdRunInputs } from './herd.js';

// Herds up to this size compute on the spot: a few milliseconds for all three runs.
export const MAIN_THREAD_CALLERS = 10000;

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
      }
      // Each run goes back as soon as it is done: the first histogram need not wait for the rest.
      const started = scope.performance.now();
      for (const key of keys) scope.postMessage({ id, key, result: engine.compute(herdRunInputs(inputs, key)) });
      scope.postMessage({ id, done: true, ms: scope.performance.now() - started });
    } catch (error) {
      scope.postMessage({ id, error: error && error.message ? error.message : String(error) });
    }
  });
}

// --- On the page ----------------------------------------------------------------------------

// run(inputs, keys, update): `update({ results, complete, where, ms })` as each run arrives
// (`results` holds every run so far), unless a newer request replaced this one first. A
// request in flight is abandoned by ending its worker: waiting for a million callers that are
// no longer asked for would leave the panel behind.
export function herdComputer(view, compute) {
  let worker = null;
  let pending = null; // { id, inputs, keys, done }
  let nextId = 1;
  let workerBroken = !BUNDLE_URL || typeof view.Worker !== 'function';
  let timer = 0;
  const engineUrl = BUNDLE_URL ? new URL('retrylab-engine.js', BUNDLE_URL).href : null;

  // Here, one run per task, after the page has painted "Computing…".
  function onMain(request) {
    const started = view.performance.now();
    const results = {};
    let spent = 0;
    const step = (i) => {
      timer = view.setTimeout(() => {
        timer = 0;
        if (pending !== request) return;
        const t0 = view.performance.now();
        results[request.keys[i]] = compute(herdRunInputs(request.inputs, request.keys[i]));
        spent += view.performance.now() - t0;
        const complete = i === request.keys.length - 1;
        if (complete) pending = null;
        request.update({ results: { ...results }, complete, where: 'main', ms: complete ? spent : view.performance.now() - started });
        if (!complete) step(i + 1);
      }, 30);
    };
    step(0);
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
      const { id, key, result, done, error, ms } = event.data;
      if (!pending || pending.id !== id) return;
      const request = pending;
      if (error) {
        workerBroken = true;
        stopWorker();
        onMain(request);
        return;
      }
      if (done) {
        pending = null;
        request.update({ results: { ...request.results }, complete: true, where: 'worker', ms });
        return;
      }
      request.results[key] = result;
      request.update({ results: { ...request.results }, complete: false, where: 'worker', ms: null });
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
    run(inputs, keys, update) {
      if (timer) view.clearTimeout(timer);
      timer = 0;
      if ((inputs.callers || 1) <= MAIN_THREAD_CALLERS) {
        if (pending && worker) stopWorker();
        pending = null;
        const started = view.performance.now();
        const results = {};
        for (const key of keys) results[key] = compute(herdRunInputs(inputs, key));
        update({ results, complete: true, where: 'main', ms: view.performance.now() - started });
        return;
      }
      if (pending && worker) stopWorker();
      const request = { id: nextId++, inputs, keys, update, results: {} };
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
