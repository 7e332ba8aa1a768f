// One engine worker for a computer that sends it jobs: the herd's (traces/herd-worker.js) and
// the fleet's (fleet/compute.js, which compare mode's fleet comparison and the stability maps
// use too). A page bundle doubles as its worker's script — no second file to ship, the same
// CSP source ('self') — and the worker loads the engine file beside it with importScripts(),
// once. Where no worker can start (a page opened from file://), or one fails, the computer
// computes on the page instead.

// In the worker: each message ({ id, engineUrl, … }) is answered by `serve(engine, data, post)`,
// the engine loaded first; post(message) sends { id, …message }; a failure sends { id, error }.
export function serveJobs(scope, serve) {
  let engine = null;
  scope.addEventListener('message', async (event) => {
    const { id, engineUrl } = event.data;
    try {
      if (!engine) {
        scope.importScripts(engineUrl);
        engine = await scope.RetryLabEngine();
      }
      serve(engine, event.data, (message) => scope.postMessage({ id, ...message }));
    } catch (error) {
      scope.postMessage({ id, error: error && error.message ? error.message : String(error) });
    }
  });
}

// On the page: workerJobs(view, scriptUrl, { onMessage(data), onFailed() }) →
//   post(message): true once sent to the worker (started on first need), false where no worker
//     runs (none can start, or one failed): the caller computes on the page;
//   stop(): ends the worker, and a job in it (the next post starts a fresh one);
//   fail(): the worker cannot compute (its engine did not load): ended, `onFailed()` told, and
//     every later post answered false;
//   broken(): whether jobs run on the page from now on.
// A worker's own error (its script failed) is fail().
export function workerJobs(view, scriptUrl, { onMessage, onFailed }) {
  let worker = null;
  let broken = !scriptUrl || typeof view.Worker !== 'function';
  const stop = () => {
    if (worker) worker.terminate();
    worker = null;
  };
  const fail = () => {
    broken = true;
    stop();
    onFailed();
  };
  function start() {
    try {
      worker = new view.Worker(scriptUrl);
    } catch {
      broken = true;
      return false;
    }
    worker.addEventListener('message', (event) => onMessage(event.data));
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      fail();
    });
    return true;
  }
  return {
    post(message) {
      if (broken || (!worker && !start())) return false;
      worker.postMessage(message);
      return true;
    },
    stop,
    fail,
    broken: () => broken,
  };
}
