// Large herds are computed off the page's main thread: the three compared runs of a million
// callers still take the engine tens of milliseconds each (more on a slow phone), and the
// evenly spread run carries its draws across. The sections' bundle doubles as the worker's
// script (worker-jobs.js, the fleet's runner too). Small herds, and pages where a worker cannot
// start (file://), compute on the main thread.

import { herdRunInputs } from './herd.js';
import { serveJobs, workerJobs } from '../worker-jobs.js';

// Herds up to this size compute on the spot: a few milliseconds for all three runs.
export const MAIN_THREAD_CALLERS = 10000;

// The bundle's own address, read while it runs as a page script.
const BUNDLE_URL = typeof document !== 'undefined' && document.currentScript ? /** @type {HTMLScriptElement} */ (document.currentScript).src : null;

// --- In the worker --------------------------------------------------------------------------

export function serveHerd(scope) {
  serveJobs(scope, (engine, { inputs, keys }, post) => {
    // Each run goes back as soon as it is done: the first histogram need not wait for the rest.
    const started = scope.performance.now();
    for (const key of keys) post({ key, result: engine.compute(herdRunInputs(inputs, key)) });
    post({ done: true, ms: scope.performance.now() - started });
  });
}

// --- On the page ----------------------------------------------------------------------------

// run(inputs, keys, update): `update({ results, complete, where, ms })` as each run arrives
// (`results` holds every run so far), unless a newer request replaced this one first. A
// request in flight is abandoned by ending its worker: waiting for a million callers that are
// no longer asked for would leave the panel behind.
export function herdComputer(view, compute) {
  let pending = null; // { id, inputs, keys, done }
  let nextId = 1;
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

  // A worker that cannot load the engine: the page computes from now on.
  const jobs = workerJobs(view, BUNDLE_URL, {
    onMessage({ id, key, result, done, error, ms }) {
      if (!pending || pending.id !== id) return;
      const request = pending;
      if (error) {
        jobs.fail();
        return;
      }
      if (done) {
        pending = null;
        request.update({ results: { ...request.results }, complete: true, where: 'worker', ms });
        return;
      }
      request.results[key] = result;
      request.update({ results: { ...request.results }, complete: false, where: 'worker', ms: null });
    },
    onFailed() {
      if (pending) onMain(pending);
    },
  });

  return {
    run(inputs, keys, update) {
      if (timer) view.clearTimeout(timer);
      timer = 0;
      if (pending) jobs.stop();
      if ((inputs.callers || 1) <= MAIN_THREAD_CALLERS) {
        pending = null;
        const started = view.performance.now();
        const results = {};
        for (const key of keys) results[key] = compute(herdRunInputs(inputs, key));
        update({ results, complete: true, where: 'main', ms: view.performance.now() - started });
        return;
      }
      const request = { id: nextId++, inputs, keys, update, results: {} };
      pending = request;
      if (!jobs.post({ id: request.id, engineUrl, inputs, keys })) onMain(request);
    },
    busy: () => pending !== null,
    destroy() {
      if (timer) view.clearTimeout(timer);
      pending = null;
      jobs.stop();
    },
  };
}
