// The fleet section's runs (section.js): a request computed in the section's worker
// (compute.js), the computing state while the section waits for it, and the run accepted into
// the one state the figure draws from (`ctx.s.shown`).
//
// A request from outside (a fleet link, the element's attributes) is shown as computing from
// its start: the verdict box says so, the chart, its summary and the side effects are marked
// as another run's (dimmed, `data-computing` on the root), the controls show the request's
// own values, and a line says which of its two runs is computing, for how long so far, what
// the link asks for, and offers Stop. A reader's change is shown so only once it has taken
// STALE_MS, so a quick change does not flicker. A newer change replaces the computation (the
// worker running it is ended, compute.js); Stop ends it and keeps the run on show.

import { leaves, setPath, stormSeries, undrawnWorkload, verdictOf } from './model.js';
import { drawnWords } from './announce.js';
import { STALE_MS } from './compute.js';
import { refusalText, valueWords } from './refusal.js';

const withKeyFlag = (req, key) => setPath(req, 'idempotencyKey', key);
export const shownName = (s) => (!s.shown ? '' : Object.keys(s.shown.request).length ? 'the run before it' : 'the opening fleet run');

// The line under the verdict while a run computes: which of its runs, where, for how long.
function progressText(ctx) {
  const { s, win } = ctx;
  const sec = ((win.performance.now() - s.pending.startedAt) / 1000).toFixed(1);
  const of = s.pending.linked ? 3 : 2;
  const step = s.pending.index < 0 ? 'the opening fleet run first, to fall back on… (1 of 3'
    : s.pending.index === 0 ? `the fleet… (the run without an idempotency key, ${of - 1} of ${of}`
      : `the run with an idempotency key… (for the side effects, ${of} of ${of}`;
  const where = ctx.computer.where() === 'worker' ? 'in a worker, so the page stays responsive' : 'on the page';
  const behind = s.shown ? ` What is drawn below is still ${shownName(s)}, not this one.` : '';
  return `Computing ${step}, ${where}: ${sec} s so far).${behind}`;
}

// The run `result` (without a key; `withKey` with one) of `req` into the one state, drawn.
// `fromReader`: the reader changed something, so the run before stays on the chart, faint
// (issue 35): the one state the figure is drawn from holds both. `by`: the control changed.
function accept(ctx, req, result, withKey, fromReader = false, by = null) {
  const { s } = ctx;
  s.request = req;
  const ghost = fromReader && s.shown ? s.shown.series : null;
  const before = fromReader && s.shown ? s.shown.result : null; // for what a change changed (said.js)
  s.shown = { request: req, result, withKey, series: stormSeries(result), ghost, before, by };
  if (ctx.map) ctx.map.shownChanged(); // the map's caption says which run is on show
  if (fromReader) ctx.say(drawnWords(verdictOf(result))); // the section's one live region (announce.js)
  if (s.cursor !== null && s.cursor >= s.shown.series.points.length) s.cursor = null;
  ctx.storm.draw();
  ctx.controls.sync(s.stale && s.pending ? s.pending.request : null);
  if (s.interacted) ctx.link.write();
}

// mountComputing(ctx) → { compute(req, options), expect(req), destroy() }.
export function mountComputing(ctx) {
  const { $, root, s, win, address } = ctx;
  const verdictBox = $('verdict');
  const progress = $('progress');
  const pendingInputs = $('pending-inputs');
  let progressTimer = 0;
  let tick = 0;
  const inputsText = (req) => leaves(req).map(([path, v]) => `${ctx.fieldName(path)} ${valueWords(v)}`).join(', ');
  const refusal = (result, req) => refusalText(result, req, { fieldName: ctx.fieldName, opening: s.opening });

  function progressNow() {
    if (s.pending) progress.textContent = progressText(ctx);
  }
  function showComputing() {
    if (!s.pending) return;
    s.stale = true;
    root.dataset.computing = s.pending.linked ? 'link' : 'change';
    verdictBox.textContent = !s.pending.linked ? 'Computing the fleet run for these settings…' : address ? 'Computing the linked fleet run…' : 'Computing the fleet run its attributes ask for…';
    delete verdictBox.dataset.kind;
    ctx.near.draw();
    $('pending').hidden = false;
    $('stop').hidden = false;
    pendingInputs.hidden = !s.pending.linked;
    pendingInputs.textContent = s.pending.linked ? (Object.keys(s.pending.request).length ? `This run: the opening fleet run with ${inputsText(s.pending.request)}.` : 'This run: the opening fleet run.') : '';
    progressNow();
    if (!tick) tick = win.setInterval(progressNow, 200);
    if (s.table) ctx.controls.sync(s.pending.request);
  }
  function endComputing() {
    s.pending = null;
    win.clearTimeout(progressTimer);
    win.clearInterval(tick);
    tick = 0;
    $('pending').hidden = true;
    if (!s.stale) return;
    s.stale = false;
    delete root.dataset.computing;
    if (s.shown) {
      ctx.storm.draw();
      ctx.controls.sync();
    } else verdictBox.textContent = s.busy ? 'Computing the opening fleet run…' : 'No fleet run could be computed here.';
  }

  // Stop: the run asked for is not computed. While the opening run it falls back on is still
  // computing (index -1), that one goes on (it is all there is to show); else the job is ended.
  // The line then says what is on show, until the next computation.
  $('stop').addEventListener('click', () => {
    if (!s.pending) return;
    const behindOnly = s.pending.index < 0;
    if (!behindOnly) {
      ctx.computer.cancel();
      s.busy = false;
    }
    const was = s.pending.linked ? (address ? 'the link asks for' : 'its attributes ask for') : 'these settings make';
    endComputing();
    $('pending').hidden = false;
    $('stop').hidden = true;
    progress.textContent = `Stopped: what is drawn is ${shownName(s) || 'the opening fleet run, once computed'}, not the run ${was}.`;
    $('chart').focus(); // the button has gone: focus stays in the figure
    if (behindOnly) return;
    if (s.interacted) ctx.link.write();
    ctx.settle.release();
  });

  // A job's results: the run without a key (index 0), then the one with a key, which accepts both.
  function resultHandler(req, { fromReader, linked, by }) {
    let first = null;
    return (index, result) => {
      if (!result.ok) {
        if (index === 0 && ctx.controls.refusedAtSwitch(result, req, by)) return;
        if (index === 0) ctx.showError(`The fleet could not run: ${refusal(result, req)} The last good run stays on show.${linked && s.shown ? ` It is ${shownName(s)}, not the ${address ? 'link' : 'attributes'}’s.` : ''}`);
        return;
      }
      if (!result.timeline) {
        if (index === 0) ctx.showError(`The fleet view cannot draw this run: it has no timeline. The run on show stays.`);
        return;
      }
      if (index === 0) {
        first = result;
      } else if (first) {
        ctx.showError('');
        accept(ctx, req, first, result, fromReader, by);
      }
    };
  }

  // `linked`: a request from outside, shown as computing from the start; `behind`: the opening
  // run computed first for such a request (expect()), drawn behind its computing state.
  // `by`: the control's path whose change asked for it.
  function compute(req, { fromReader = false, linked = false, behind = false, by = null } = {}) {
    if (fromReader) {
      s.interacted = true;
      s.linkNote = '';
    }
    const undrawn = undrawnWorkload(req);
    if (undrawn) {
      ctx.showError(`The fleet view cannot run this request: workload ${req.workload} ${undrawn}. The run on show stays.`);
      return;
    }
    s.busy = true;
    win.clearTimeout(progressTimer);
    if (!behind) {
      s.pending = { request: req, linked, startedAt: win.performance.now(), index: 0 };
      if (linked) showComputing();
      else progressTimer = win.setTimeout(showComputing, STALE_MS);
    }
    const mine = s.pending;
    // Only the newest job reports (compute.js), so this is the newest one ending.
    const done = () => {
      s.busy = false;
      if (!behind && s.pending === mine) endComputing();
      if (fromReader) ctx.near.shown();
      ctx.settle.release();
    };
    ctx.computer.run([withKeyFlag(req, false), withKeyFlag(req, true)], {
      onBegin(index) {
        if (behind || s.pending !== mine) return;
        mine.index = index;
        progressNow();
      },
      onResult: resultHandler(req, { fromReader, linked, by }),
      onDone: done,
      onError(message) {
        ctx.showError(`The fleet engine could not run here (${message}).`);
        done();
      },
    });
  }

  return {
    compute,
    // A request from outside, before the opening run it falls back on is computed.
    expect(req) {
      s.pending = { request: req, linked: true, startedAt: win.performance.now(), index: -1 };
      showComputing();
    },
    destroy() {
      win.clearInterval(tick);
      win.clearTimeout(progressTimer);
    },
  };
}
