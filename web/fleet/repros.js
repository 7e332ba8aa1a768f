// The fleet section's reproductions (section.js), computed after the stability map once the
// reader nears them (or a caller asks for their figures), one after another, each in workers of
// its own so the controls above stay quick: AWS 2015 (two workers),
// Brooker 2022's token buckets, Brooker's retry collapse, then hedging's figure (one each). Each
// draws from its own state as its results arrive, and says when it is done (a latch, for
// window.retryLabFleet's aws(), brooker(), collapse(), hedging()).

import { h, patch } from '../dom.js';
import { download } from '../export/download.js';
import { latch } from '../latch.js';
import { awsCsv, brookerCsv, collapseCsv } from './export.js';
import { fleetComputer } from './compute.js';
import { AWS_COLUMNS, CLIENTS, STRATEGIES, aws2015Requests, awsLegend, awsPanel, awsSummary, awsTableRows } from './aws2015.js';
import { COLLAPSE_RUNS, collapseLegend, collapseOnset, collapsePanel, collapseWords } from './collapse.js';
import { HEDGING_COLUMNS, HEDGING_RUNS, hedgingChart, hedgingRows, hedgingWords } from './hedging.js';
import { BROOKER_COLUMNS, brookerLegends, brookerPanels, brookerRequests, brookerTableRows } from './brooker.js';
import { lazyTable } from './storm.js';

// A list of requests over `workers` workers of their own (interleaved, so each gets large
// and small ones): onResult(item, result) as each arrives, then onDone(), or onError(message).
function sweep(ctx, items, workers, { onResult, onDone, onError }) {
  const parts = Array.from({ length: workers }, (_, w) => items.filter((_, i) => i % workers === w));
  let left = parts.length;
  for (const part of parts) {
    const c = fleetComputer(ctx.win, ctx.engine);
    c.run(part.map((x) => x.request), {
      onResult: (index, result) => onResult(part[index], result),
      onDone() {
        c.destroy();
        left -= 1;
        if (!left) onDone();
      },
      onError,
    });
  }
}

// A table of `columns` and `rows` (the first cell of each a row header), with a caption.
const dataTable = (caption, columns, rows) => h('table', { class: 'fl-table' },
  caption && h('caption', {}, caption),
  h('thead', {}, h('tr', {}, ...columns.map((c) => h('th', { scope: 'col' }, c)))),
  h('tbody', {}, ...rows.map((r) => h('tr', {}, h('th', { scope: 'row' }, r[0]), ...r.slice(1).map((c) => h('td', {}, c))))));

// One reproduction: its state, drawn at most once a frame (`framed`) or at each result, its
// runs swept, then `next()`. `run.items()` the requests, `run.keep(item, result)` one into the
// state, `run.draw()`, `run.workers`.
function reproduction(ctx, statusName, run, next) {
  const { win, $ } = ctx;
  const done = latch({ done: true });
  let frame = 0;
  const draw = () => {
    frame = 0;
    run.draw();
  };
  const schedule = run.framed ? () => { if (!frame) frame = win.requestAnimationFrame(draw); } : draw;
  function start() {
    if (run.before) run.before();
    const failed = (message) => { $(statusName).textContent = `${run.failure || 'The reproduction'} could not run here (${message}).`; };
    sweep(ctx, run.items(), run.workers, {
      onResult(item, result) {
        if (result.ok) run.keep(item, result);
        else failed(result.errors.map((e) => e.message).join(' '));
        schedule();
      },
      onDone() {
        run.complete = true;
        if (run.finish) run.finish();
        schedule();
        done.release();
        if (next) next();
      },
      onError: failed,
    });
    schedule();
  }
  return { start, wait: done.wait };
}

// AWS 2015, "Exponential Backoff and Jitter": two workers, then `next`.
function awsRepro(ctx, next) {
  const { $, id, win } = ctx;
  const aws = { points: new Map(), ms: null, started: null, complete: false, workers: 2, framed: true };
  const total = CLIENTS.length * STRATEGIES.length;
  const drawTable = lazyTable($('aws-table'), () => dataTable('Means over 100 runs, here and in the peer’s simulator', AWS_COLUMNS, awsTableRows(aws.points)));
  Object.assign(aws, {
    before() {
      patch($('aws-legend'), awsLegend());
      aws.started = win.performance.now();
    },
    items: aws2015Requests,
    keep: (item, result) => aws.points.set(`${item.strategy}:${item.clients}`, result.mean),
    finish() { aws.ms = win.performance.now() - aws.started; },
    draw() {
      patch($('aws-writes'), awsPanel(aws.points, 'writes', { id: id('aws-w'), title: 'Writes against clients, five strategies, with the peer’s means', unit: 'writes' }));
      patch($('aws-time'), awsPanel(aws.points, 'makespanMs', { id: id('aws-t'), title: 'Completion time against clients, five strategies, with the peer’s means', unit: 'ms' }));
      const when = aws.complete ? ` Computed in ${(aws.ms / 1000).toFixed(2)} s, in two workers.` : ' Computing…';
      $('aws-status').textContent = `${awsSummary(aws.points, total)}${when}`;
      drawTable();
    },
  });
  return { state: aws, ...reproduction(ctx, 'aws-status', aws, next) };
}

// Brooker 2022, token buckets against retries: one worker, then `next`.
function brookerRepro(ctx, next) {
  const { $, id, win } = ctx;
  const bk = { points: new Map(), ms: null, complete: false, total: 0, workers: 1, framed: true };
  const drawTable = lazyTable($('bk-table'), () => dataTable('Success and load (attempts per request), here and in his simulator', BROOKER_COLUMNS, brookerTableRows(bk.points)));
  let started = 0;
  Object.assign(bk, {
    before() {
      const [a, b] = brookerLegends();
      patch($('bk-legend'), a, b);
      started = win.performance.now();
    },
    items() {
      const items = brookerRequests();
      bk.total = items.length;
      return items;
    },
    keep: (item, result) => bk.points.set(item.key, result.totals),
    finish() { bk.ms = win.performance.now() - started; },
    draw() {
      const [success, load, clients] = brookerPanels(bk.points, id('bk'));
      patch($('bk-success'), success);
      patch($('bk-load'), load);
      patch($('bk-clients'), clients);
      $('bk-status').textContent = bk.complete ? `All ${bk.total} runs computed in ${(bk.ms / 1000).toFixed(2)} s.` : `${bk.points.size} of ${bk.total} runs computed…`;
      drawTable();
    },
  });
  return { state: bk, ...reproduction(ctx, 'bk-status', bk, next) };
}

// Brooker's retry collapse: one worker, then `next`.
function collapseRepro(ctx, next) {
  const { $, id } = ctx;
  const col = { results: [], complete: false, workers: 1 };
  Object.assign(col, {
    before: () => patch($('col-legend'), collapseLegend()),
    items: () => COLLAPSE_RUNS.map((run, i) => ({ index: i, request: run.request })),
    keep: (item, result) => { col.results[item.index] = result; },
    draw() {
      patch($('col-chart'), collapsePanel(col.results, id('col')));
      $('col-status').textContent = col.complete ? collapseWords(col.results) : 'Computing…';
    },
  });
  return { state: col, ...reproduction(ctx, 'col-status', col, next) };
}

// Hedging's figure (issue 34): one worker, last; not in a view without it.
function hedgingRepro(ctx) {
  const { $, id } = ctx;
  const hg = { results: [], complete: false, workers: 1, failure: 'The figure' };
  const drawTable = lazyTable($('hg-table'), () => dataTable(null, HEDGING_COLUMNS, hedgingRows(hg.results)));
  Object.assign(hg, {
    items: () => HEDGING_RUNS.map((run, i) => ({ index: i, request: run.request })),
    keep: (item, result) => { hg.results[item.index] = result; },
    draw() {
      if (!$('hg-chart')) return;
      patch($('hg-chart'), hedgingChart(hg.results, id('hg')));
      $('hg-status').textContent = hg.complete ? hedgingWords(hg.results) : 'Computing…';
      drawTable();
    },
  });
  const repro = reproduction(ctx, 'hg-status', hg, null);
  return { state: hg, wait: repro.wait, start: () => { if ($('hg-chart')) repro.start(); } };
}

// mountRepros(ctx) → { start(), near(then), aws(), brooker(), collapse(), hedging() }: `start`
// the first (the rest follow; once only); `near` calls `then` once the first reproduction's box
// is within a screen's height of the window (at once without an IntersectionObserver); each of
// the others a promise of its figures once all are computed.
export function mountRepros(ctx) {
  const { $, doc } = ctx;
  const hg = hedgingRepro(ctx);
  const col = collapseRepro(ctx, hg.start);
  const bk = brookerRepro(ctx, col.start);
  const aws = awsRepro(ctx, bk.start);
  // The reproductions' figures as CSV: what is computed so far, beside the published figures.
  $('aws-csv').addEventListener('click', () => download(doc, 'retry-lab-fleet-aws-2015-occ-10-190-clients-5-strategies.csv', 'text/csv', awsCsv(aws.state.points)));
  $('bk-csv').addEventListener('click', () => download(doc, 'retry-lab-fleet-brooker-2022-token-bucket-failure-rates.csv', 'text/csv', brookerCsv(bk.state.points)));
  $('col-csv').addEventListener('click', () => download(doc, 'retry-lab-fleet-brooker-collapse-spike-40-per-s.csv', 'text/csv', collapseCsv(col.state.results)));
  let started = false;
  function near(then) {
    const box = $('aws-status').closest('section');
    const Observer = ctx.win.IntersectionObserver;
    if (typeof Observer !== 'function' || !box) return then();
    const observer = new Observer((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      observer.disconnect();
      then();
    }, { rootMargin: '100% 0px 100% 0px' });
    observer.observe(box);
    return undefined;
  }
  return {
    start: () => {
      if (started) return;
      started = true;
      aws.start();
    },
    near,
    aws: () => aws.wait().then(() => ({ points: Object.fromEntries(aws.state.points), ms: aws.state.ms })),
    brooker: () => bk.wait().then(() => ({ points: Object.fromEntries(bk.state.points), ms: bk.state.ms })),
    collapse: () => col.wait().then(() => ({
      onset: col.state.results[0] ? collapseOnset(col.state.results[0]) : null,
      totals: col.state.results.map((r) => r && { requests: r.totals.requests, succeeded: r.totals.succeeded }),
    })),
    // Hedging's figure (issue 34): its two runs' totals and the words once both are in.
    hedging: () => hg.wait().then(() => ({
      totals: hg.state.results.map((r) => r && r.totals), requests: hg.state.results.map((r) => r && r.request), words: hedgingWords(hg.state.results),
    })),
  };
}
