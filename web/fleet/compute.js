// Fleet runs off the page's main thread. The fleet section's bundle (retrylab-fleet-section.js)
// doubles as the worker's script, as the sections' bundle does for large herds
// (traces/herd-worker.js): no second file, the same CSP source ('self'). The worker loads the
// fleet engine file (retrylab-fleet.js) beside it with importScripts(), once.
//
// A job is a list of fleet requests; each result comes back as soon as it is computed, so a
// sweep fills in as it goes. A newer job replaces the one waiting; one that has been running
// for more than STALE_MS is ended (its worker terminated, a fresh one started for the newer),
// and one that would end sooner runs out and its results are dropped; cancel() ends the running
// job at once. The worker says when it begins each request (`onBegin`), so the page can say how
// far a long job is. Where no worker can start (a page opened from file://), the engine runs on
// the page, one request per task: a request cannot be cut into smaller tasks there, nor ended
// once started, so the page runs only requests whose expected attempts (FLEET.md §3's work
// formula) are at most MAIN_THREAD_ATTEMPTS, and answers any other with an error object of its
// own (`code: "too-large-for-this-page"`, naming the estimate, that bound and the formula's
// fields), which the section shows as it shows the engine's.

import { loadBundle } from '../bundles.js';
import { serveJobs, workerJobs } from '../worker-jobs.js';

export const STALE_MS = 300;

// The most expected attempts one request may have where it runs on the page's own thread
// (file://): about 0.2 s of the WebAssembly engine on this machine (the 157-character link of
// issue 30, 20,000,000 expected attempts, took 10.5 s there: web/README.md).
export const MAIN_THREAD_ATTEMPTS = 400000;

// FLEET.md §3's expected attempts of a service request (its work bound's formula:
// clients × ratePerClient × max(1, spike factor) × durationMs / 1000 × (maxRetries + 1), and
// clients × (maxRetries + 1) for `once` arrivals), over the table's defaults (`opening`, the
// fleet engine's fleetSchema() defaults), with the formula's fields as they are in the request.
// The occ workload (bounded by clients × runs, §3) is not estimated: null.
const num = (v, d) => (typeof v === 'number' && Number.isFinite(v) ? v : d);
export function expectedAttempts(request, opening) {
  const get = (path) => {
    const keys = path.split('.');
    let own = request;
    let dflt = opening;
    for (const k of keys) {
      own = own == null ? undefined : own[k];
      dflt = dflt == null ? undefined : dflt[k];
    }
    return own === undefined ? dflt : own;
  };
  if ((get('workload') || 'service') !== 'service') return null;
  const retries = get('policy.maxRetries');
  const perRequest = num(retries, 0) + 1;
  const clients = num(get('clients'), 0);
  const fields = ['clients', 'policy.maxRetries'];
  if (get('arrivals') === 'once') return { attempts: clients * perRequest, fields };
  const spike = get('spike');
  const factor = spike && typeof spike === 'object' ? Math.max(1, num(get('spike.factor'), 1)) : 1;
  const attempts = clients * num(get('ratePerClient'), 0) * factor * (num(get('durationMs'), 0) / 1000) * perRequest;
  return { attempts, fields: ['clients', 'ratePerClient', ...(spike ? ['spike.factor'] : []), 'durationMs', 'policy.maxRetries'] };
}

// The page's own refusal of a request too large for its thread, shaped as the engine's errors.
export function mainThreadRefusal(request, opening) {
  const est = opening ? expectedAttempts(request, opening) : null;
  if (!est || !(est.attempts > MAIN_THREAD_ATTEMPTS)) return null;
  const n = (x) => Math.round(x).toLocaleString('en-US');
  const lower = `${est.fields.slice(0, -1).join(', ')} or ${est.fields[est.fields.length - 1]}`;
  const detail = `makes about ${n(est.attempts)} expected attempts by FLEET.md §3’s work formula, more than the ${n(MAIN_THREAD_ATTEMPTS)} this page computes on its own thread: opened from a file, it has no worker to compute in, and a run cannot be stopped once it starts here. Lower ${lower}, or open the page from a web server to compute it in a worker.`;
  return {
    ok: false,
    errors: [{ field: '', code: 'too-large-for-this-page', message: `This run ${detail}`, detail, estimate: est.attempts, limit: MAIN_THREAD_ATTEMPTS, fields: est.fields }],
  };
}

// --- In the worker --------------------------------------------------------------------------

export function serveFleet(scope) {
  serveJobs(scope, (engine, { requests, schema }, post) => {
    if (schema) {
      post({ schema: engine.fleetSchema() });
      return;
    }
    for (let i = 0; i < requests.length; ++i) {
      post({ begin: i });
      post({ index: i, result: engine.fleet(requests[i]) });
    }
    post({ done: true });
  });
}

// --- On the page ----------------------------------------------------------------------------

// Where a bundle that runs fleet requests finds the fleet engine (fleetComputer's second
// argument), read while that bundle's script runs (document.currentScript): the engine file
// beside the bundle for its worker, and the same file on the page where no worker starts
// (file://). That file defines the same global as the page's engine file (RetryLabEngine): the
// page's is put back after it.
export function fleetEngineWhere(doc, file) {
  const win = doc.defaultView;
  const bundleUrl = doc.currentScript ? doc.currentScript.src : null;
  const engineUrl = new URL(file, bundleUrl || win.location.href).href;
  let onPage = null;
  const mainEngine = () => {
    if (!onPage) {
      const before = win.RetryLabEngine;
      delete win.RetryLabEngine;
      onPage = loadBundle(doc, file, 'RetryLabEngine').then((factory) => {
        win.RetryLabEngine = before;
        return factory();
      }, (error) => {
        win.RetryLabEngine = before;
        onPage = null;
        throw error;
      });
    }
    return onPage;
  };
  return { engineUrl, bundleUrl, mainEngine };
}

// fleetComputer(view, { engineUrl, bundleUrl, mainEngine }):
//   run(requests, { onBegin(index), onResult(index, result), onDone(results), onError(message) })
//   — the callbacks are called only while this job is the newest;
//   cancel() — ends the running job and drops the waiting one; none of their callbacks follows;
//   schema() — a promise of the fleet engine file's fleetSchema() (FLEET.md §3 as data), asked
//   of the worker once, or of the engine on the page where the worker cannot answer;
//   mainEngine(): a promise of an engine with fleet() on the page, used when no worker can start.
export function fleetComputer(view, { engineUrl, bundleUrl, mainEngine }) {
  let schemaWanted = null; // { id, resolve } while the worker has been asked for the schema
  let schemaPromise = null;
  let running = null; // the job the worker is computing { id, requests, handlers, results, startedAt }
  let waiting = null; // the newest job, while another runs
  let nextId = 1;
  let mainTimer = 0;

  // The schema from the engine on the page (no worker, or the worker went away before it answered).
  function schemaOnMain() {
    const wanted = schemaWanted;
    schemaWanted = null;
    if (wanted) mainEngine().then((engine) => wanted.resolve(engine.fleetSchema()), (error) => wanted.resolve({ ok: false, errors: [{ message: error.message }] }));
  }

  let mainOpening = null; // the fleet table's defaults, for mainThreadRefusal()
  function onMain(job) {
    mainEngine().then((engine) => {
      if (!mainOpening) {
        const schema = engine.fleetSchema();
        mainOpening = schema && Array.isArray(schema.fleet) ? Object.fromEntries(schema.fleet.map((row) => [row.name, row.default === undefined ? null : row.default])) : {};
      }
      const step = (i) => {
        mainTimer = view.setTimeout(() => {
          mainTimer = 0;
          if (running !== job) return;
          if (!waiting) job.handlers.onBegin?.(i);
          const result = mainThreadRefusal(job.requests[i], mainOpening) || engine.fleet(job.requests[i]);
          job.results[i] = result;
          if (!waiting) job.handlers.onResult?.(i, result);
          if (i + 1 < job.requests.length) step(i + 1);
          else finish(job);
        }, 0);
      };
      step(0);
    }, (error) => {
      if (running === job) {
        running = null;
        job.handlers.onError?.(error.message);
      }
    });
  }

  function finish(job) {
    if (running !== job) return;
    running = null;
    if (!waiting) job.handlers.onDone?.(job.results); // else a newer job replaced it
    if (waiting) {
      const next = waiting;
      waiting = null;
      start(next);
    }
  }

  // The worker's answers: the schema asked for, or the running job's begin, result or end. A
  // worker that cannot load the engine: the page computes from now on (the schema too).
  const jobs = workerJobs(view, bundleUrl, {
    onMessage({ id, index, result, done, error, schema, begin }) {
      if (schemaWanted && id === schemaWanted.id) {
        if (error) jobs.fail();
        else {
          const { resolve } = schemaWanted;
          schemaWanted = null;
          resolve(schema);
        }
        return;
      }
      const job = running;
      if (!job || job.id !== id) return;
      if (error) jobs.fail();
      else if (done) finish(job);
      else if (begin !== undefined) {
        if (!waiting) job.handlers.onBegin?.(begin);
      } else {
        job.results[index] = result;
        if (!waiting) job.handlers.onResult?.(index, result);
      }
    },
    onFailed() {
      if (schemaWanted) schemaOnMain();
      if (running) onMain(running);
    },
  });
  // The worker ended (a job replaced or cancelled): a schema it was asked for comes from the page.
  function stopWorker() {
    jobs.stop();
    if (schemaWanted) schemaOnMain();
  }

  function start(job) {
    running = job;
    job.startedAt = view.performance.now();
    if (!jobs.post({ id: job.id, engineUrl, requests: job.requests })) onMain(job);
  }

  return {
    schema() {
      if (!schemaPromise) {
        schemaPromise = new Promise((resolve) => {
          schemaWanted = { id: nextId++, resolve };
          if (!jobs.post({ id: schemaWanted.id, engineUrl, schema: true })) schemaOnMain();
        });
      }
      return schemaPromise;
    },
    run(requests, handlers) {
      const job = { id: nextId++, requests, handlers, results: new Array(requests.length) };
      if (!running) {
        start(job);
        return;
      }
      if (view.performance.now() - running.startedAt > STALE_MS) {
        // Long enough that waiting for it would leave the reader behind: end it.
        if (mainTimer) view.clearTimeout(mainTimer);
        mainTimer = 0;
        stopWorker();
        waiting = null;
        start(job);
        return;
      }
      waiting = job; // replaces any job that was waiting
    },
    cancel() {
      if (mainTimer) view.clearTimeout(mainTimer);
      mainTimer = 0;
      waiting = null;
      if (running) stopWorker(); // the next job starts a fresh worker
      running = null;
    },
    busy: () => running !== null,
    where: () => (jobs.broken() ? 'main' : 'worker'),
    destroy() {
      if (mainTimer) view.clearTimeout(mainTimer);
      running = null;
      waiting = null;
      schemaWanted = null;
      stopWorker();
    },
  };
}
