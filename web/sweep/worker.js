// Sweeps off the page's main thread (issue 18: no main-thread task over 50 ms during sweeps on
// a machine running another CPU-bound process). A 1,000-point sweep takes the engine 2–7 ms
// and its result's decoding into plain objects as much again; in a worker neither is in the
// page's task, which only draws the chart. The sections' bundle doubles as the worker's script
// (as for large herds, traces/herd-worker.js): a worker named SWEEP_WORKER serves sweeps, and
// loads the engine file beside the bundle with importScripts(), once. Where no worker can start
// (a page opened from file://) or the worker fails, the sweep runs on the page, as before.

export const SWEEP_WORKER = 'retrylab-sweep';

// --- In the worker --------------------------------------------------------------------------

export function serveSweep(scope) {
  let engine = null;
  scope.addEventListener('message', async (event) => {
    const { id, engineUrl, request } = event.data;
    try {
      if (!engine) {
        scope.importScripts(engineUrl);
        engine = await scope.RetryLabEngine();
      }
      const started = scope.performance.now();
      const result = engine.sweep(request);
      scope.postMessage({ id, result, ms: scope.performance.now() - started });
    } catch (error) {
      scope.postMessage({ id, error: error && error.message ? error.message : String(error) });
    }
  });
}

// --- On the page ----------------------------------------------------------------------------

// sweepComputer(view, { bundleUrl, compute }): run(request, done) sweeps `request` and calls
// done(result, { where, engineMs }) with the engine's answer (an error object is an answer),
// once, unless a newer run() came first: only the newest request's answer is delivered. One
// request is in the worker at a time; a newer one waits for it (a sweep takes milliseconds)
// and replaces any other waiting. `compute(request)` is the page's own engine.sweep, used where
// no worker starts, or after the worker failed.
export function sweepComputer(view, { bundleUrl, compute }) {
  let worker = null;
  let broken = !bundleUrl || typeof view.Worker !== 'function';
  const engineUrl = bundleUrl ? new URL('retrylab-engine.js', bundleUrl).href : null;
  let nextId = 1;
  let inWorker = null; // { id, request, done }
  let waiting = null; // the newest request, while another is in the worker
  let newest = 0;

  function onMain(job) {
    const started = view.performance.now();
    const result = compute(job.request);
    if (job.id === newest) job.done(result, { where: 'main', engineMs: view.performance.now() - started });
  }

  function fail() {
    broken = true;
    if (worker) worker.terminate();
    worker = null;
    const jobs = [inWorker, waiting].filter(Boolean);
    inWorker = null;
    waiting = null;
    for (const job of jobs) onMain(job);
  }

  function start() {
    try {
      worker = new view.Worker(bundleUrl, { name: SWEEP_WORKER });
    } catch {
      broken = true;
      return false;
    }
    worker.addEventListener('message', (event) => {
      const { id, result, error, ms } = event.data;
      if (!inWorker || inWorker.id !== id) return;
      if (error) {
        fail();
        return;
      }
      const job = inWorker;
      inWorker = null;
      if (waiting) post(waiting);
      waiting = null;
      if (job.id === newest) job.done(result, { where: 'worker', engineMs: ms });
    });
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      fail();
    });
    return true;
  }

  function post(job) {
    inWorker = job;
    worker.postMessage({ id: job.id, engineUrl, request: job.request });
  }

  return {
    run(request, done) {
      const job = { id: nextId++, request, done };
      newest = job.id;
      if (broken || (!worker && !start())) {
        onMain(job);
        return;
      }
      if (inWorker) waiting = job;
      else post(job);
    },
    // Nothing asked is delivered after this (a form error supersedes the sweep in flight).
    cancel() {
      newest = 0;
      waiting = null;
    },
    where: () => (broken ? 'main' : 'worker'),
    destroy() {
      newest = 0;
      waiting = null;
      if (worker) worker.terminate();
      worker = null;
    },
  };
}
