// "Many callers, one server": the fleet section at the end of the article. It runs the
// opening fleet run (FLEET.md §3's defaults) in a worker (compute.js), draws the storm over
// time (chart.js) with its verdict and its side effects (model.js), and recomputes at once as
// the reader changes what stops it: retries, backoff and jitter, the server's stale-work
// rules and queue order, the gates of FLEET.md §5 (presets.js), the slowdown, the load. The
// request is in the address as a fleet link (`#v=1&view=fleet&…`).

import { h, mount, patch } from '../dom.js';
import { download } from '../export/download.js';
import {
  CHOICE_WORDS, CONTROLS, controlBounds, gatesOf, encodeFleetLink, fleetTable, gateDefaults, gateFields, getPath,
  switchDefaults, switchFields, switchValue, switchesOf,
  isFleetLink, leaves, parseFleetLink, requestDiff, setPath, sideEffectsOf, stormSeries, undrawnWorkload, verdictOf,
} from './model.js';
import { binText, limiterSaid, stormChart, stormLegend, tableColumns, tableRows } from './chart.js';
import { awsCsv, brookerCsv, collapseCsv, fleetFileName, stormSvg, timelineCsv } from './export.js';
import { STALE_MS, expectedAttempts, fleetComputer } from './compute.js';
import { fleetPresets } from './presets.js';
import { fieldProblem } from './field-check.js';
import { num } from '../format.js';
import { AWS_COLUMNS, CLIENTS, STRATEGIES, aws2015Requests, awsLegend, awsPanel, awsSummary, awsTableRows } from './aws2015.js';
import { loadBundle } from '../bundles.js';
import { COLLAPSE_RUNS, collapseLegend, collapseOnset, collapsePanel, collapseWords } from './collapse.js';
import { HEDGING_COLUMNS, HEDGING_RUNS, hedgingChart, hedgingRows, hedgingWords } from './hedging.js';
import { BROOKER_COLUMNS, brookerLegends, brookerPanels, brookerRequests, brookerTableRows } from './brooker.js';

const P = 'fl-'; // the section's id prefix
const id = (name) => `${P}${name}`;

// Options besides the engine's whereabouts (for <retry-lab view="fleet">, embed.js):
//   parts: 'section' (the story, the storm, the controls, the map and the reproductions) or
//     'view' (the storm with its verdict and side effects, and the controls);
//   address: read the fleet link in the page's address and keep it there (the article's);
//   initial(table): the first request to draw instead of the address's, as
//     { request, note } (`note`: what of it was not used, in words, shown until the reader
//     changes something); fieldName(path): a field as the reader wrote it, in messages;
//   linkBase(): the page "Copy the fleet link" points at.
export function mountFleet(root, {
  engineUrl, bundleUrl, mainEngine, parts = 'section', address = true, initial = null,
  fieldName = (path) => path, linkBase = null,
}) {
  const doc = root.ownerDocument;
  const win = doc.defaultView;
  const presets = fleetPresets();
  const computer = fleetComputer(win, { engineUrl, bundleUrl, mainEngine });
  const whole = parts !== 'view';

  let table = null; // fleetTable(): the fleet engine's fleetSchema(), asked of the worker first
  let openingEcho = null; // the opening fleet run's request: the table's defaults
  let request = {}; // the reader's request, as its differences from the opening run
  let shown = null; // { request, result, withKey, series }
  let cursor = null;
  let progressTimer = 0;
  let interacted = false; // the address is rewritten only after the reader has changed something
  let settleWaiters = [];
  let busy = false; // the newest computation has not reported yet
  // The run the section is waiting for, while it computes: { request, linked, startedAt, index }
  // (`linked`: a request from outside, a fleet link or the element's attributes; `index` the
  // request of the job being computed: -1 the opening run first, 0 without a key, 1 with one).
  let pending = null;
  let stale = false; // the figure shows a run other than the one the section computes
  let tick = 0;
  const linkAtStart = address && isFleetLink(win.location.hash);

  // `.fl` is the container its wide layout asks (fleet.css): from 64.5rem the figure stands
  // sticky beside the story and the controls (`.fl-grid`), in the article as in <retry-lab>.
  root.replaceChildren(mount(h('div', { class: 'fl' }, h('div', { class: `fl-grid${whole ? '' : ' fl-view-only'}` },
    // The story, here rather than in index.html: the page's opening bytes stay as they were.
    whole && h('div', { class: 'prose fl-story' },
      h('p', {}, h('strong', {}, 'A slowdown becomes a storm. '), 'Ten seconds in, for ten seconds, every attempt takes four times as long. The server can now serve half of what arrives; the queue grows; answers start to come after their caller has stopped waiting, and each caller that stopped waiting sends its payment again. The server works through a queue of attempts nobody is waiting for, and every one of them still charges a card.'),
      h('p', {}, h('strong', {}, 'The storm outlives it. '), 'When the slowdown ends the server is as fast as before, but the queue it left behind is made of attempts already too old to be answered in time, and each one that times out sends another. If the fleet does not come back, this is a metastable failure: a state that keeps itself going after its cause has gone. The verdict under the chart is read from the run itself.'),
      h('p', {}, h('strong', {}, 'What stops it '), 'is what takes the retries out of the loop: not retrying at all, a client-side token bucket that lets retries through only while first attempts succeed, a server that drops work that can no longer finish in time, or one that serves the newest attempt first. Dropping only what has already expired is not enough: a first-in first-out queue then serves attempts with less time left than their service needs. Try each below; every figure is computed in your browser from the same seed, by the engine’s fleet model.')),
    // The figure's column (fleet.css): a sticky box sticks within its parent, so the figure has one.
    h('div', { class: 'fl-side' }, h('div', { class: 'fl-figure' },
      h('p', { class: 'fl-verdict', id: id('verdict'), role: 'status', 'aria-live': 'polite' }, linkAtStart ? 'Computing the linked fleet run…' : 'Computing the opening fleet run…'),
      h('div', { class: 'fl-pending', id: id('pending'), hidden: true },
        h('p', { class: 'fl-progress', id: id('progress') }),
        h('p', { class: 'fl-pending-inputs', id: id('pending-inputs'), hidden: true }),
        h('button', { type: 'button', id: id('stop') }, 'Stop computing')),
      h('p', { class: 'rl-failure', id: id('error'), role: 'alert', hidden: true }),
      // On a phone the chart is drawn at the screen's width and its key stands above it (chartWidth).
      h('ul', { class: 'fl-legend fl-storm-legend', id: id('legend'), 'aria-label': 'The chart’s key', hidden: true }),
      h('div', { class: 'fl-chart-box', id: id('chart'), tabindex: 0, role: 'group', 'aria-roledescription': 'chart', 'aria-label': 'The storm over time; left and right arrows step through the seconds', 'aria-describedby': id('readout') }),
      h('p', { class: 'fl-readout', id: id('readout'), 'aria-live': 'polite' }, 'Arrow keys or the pointer on the chart: one second’s figures.'),
      h('p', { class: 'fl-summary', id: id('summary') }),
      h('div', { class: 'fl-exports' },
        h('button', { type: 'button', id: id('csv') }, 'Download the timeline (CSV)'),
        h('button', { type: 'button', id: id('svg') }, 'Download the chart (SVG)'),
        h('button', { type: 'button', id: id('copy') }, 'Copy the fleet link'),
        h('button', { type: 'button', id: id('compare') }, 'Compare with…')),
      h('details', { class: 'fl-data' }, h('summary', {}, 'The chart as a table, second by second'), h('div', { id: id('table'), class: 'fl-scroll', tabindex: 0, role: 'region', 'aria-label': 'The storm per second, as a table' })))),
    h('section', { class: 'fl-effects', 'aria-labelledby': id('effects-h') },
      h('h3', { id: id('effects-h') }, 'What the storm did to the payments'),
      h('div', { id: id('effects') })),
    h('section', { class: 'fl-stops', 'aria-labelledby': id('stops-h') },
      h('h3', { id: id('stops-h') }, 'What stops it'),
      h('p', {}, 'Each control reruns the fleet at once, from the same seed.'),
      h('div', { class: 'fl-controls', id: id('controls') }),
      h('div', { class: 'fl-switches', id: id('switches') }),
      h('div', { class: 'fl-gates', id: id('gates') }),
      h('div', { class: 'fl-presets' },
        h('label', { for: id('preset') }, 'A real client’s defence'),
        h('select', { id: id('preset') }, h('option', { value: '' }, 'none (the opening run’s gates: none)'), ...presets.map((p) => h('option', { value: p.id }, p.label))),
        h('div', { id: id('preset-card'), class: 'fl-card' })),
      h('button', { type: 'button', id: id('reset') }, 'Back to the opening fleet run')),
    whole && h('section', { class: 'fl-map-box', 'aria-labelledby': id('map-h'), id: id('map-box') },
      h('h3', { id: id('map-h') }, 'Where it recovers: the stability map'),
      h('p', {}, 'The same fleet over a grid of triggers (or of loads and retries), one engine run per cell and seed. Below some load no slowdown can leave it down; above it, a slowdown long and large enough tips it into a storm that outlives it, and the edge is sharp. Each cell says which: it rode the slowdown out, recovered some seconds after it, or was still down when new requests stopped. The lines are the closed forms of docs/metastability.md, drawn over the runs that test them. The run on show is marked ●. Arrow keys move between cells; Enter (or a click) draws that cell’s run in the storm chart, brought into view under the map, and the keys stay on the cell.'),
      h('p', { class: 'fl-note-text' }, 'A verdict is the engine’s own (FLEET.md §8): five-second windows from the slowdown’s start, each healthy when at least 90 % of its new requests succeed. A fleet with no unhealthy window rode it out; it recovered at the first second after the slowdown from which every window to the end of new requests is healthy.'),
      h('div', { id: id('stability') }, h('p', { role: 'status' }, 'The map loads as you near it…'))),
    whole && h('section', { class: 'fl-repro', 'aria-labelledby': id('aws-h') },
      h('h3', { id: id('aws-h') }, 'Reproduced here: AWS 2015, “Exponential Backoff and Jitter”'),
      h('p', {}, 'Marc Brooker’s post had clients contend for one row under optimistic concurrency: each reads the row’s version, writes with it, and retries after a backoff when another write got there first. Its simulator’s means over 100 runs are the crosses; the lines are this engine’s, computed in your browser for 10 to 190 clients and five strategies as you read. Jitter cuts the writes, and full jitter the time it takes everyone to finish.'),
      h('p', { id: id('aws-status'), role: 'status' }, 'Waiting for the opening run…'),
      h('div', { class: 'fl-panels' },
        h('figure', {}, h('div', { id: id('aws-writes') }), h('figcaption', {}, 'Writes, all clients together, against clients')),
        h('figure', {}, h('div', { id: id('aws-time') }), h('figcaption', {}, 'Time until the last client has written (ms), against clients'))),
      h('div', { id: id('aws-legend') }),
      h('p', { class: 'fl-exports' }, h('button', { type: 'button', id: id('aws-csv') }, 'Download the figure’s data (CSV)')),
      h('details', { class: 'fl-data' }, h('summary', {}, 'The reproduction as a table, beside the peer’s means'),
        h('div', { id: id('aws-table'), class: 'fl-scroll', tabindex: 0, role: 'region', 'aria-label': 'The AWS 2015 reproduction, as a table' }))),
    whole && h('section', { class: 'fl-repro', 'aria-labelledby': id('bk-h') },
      h('h3', { id: id('bk-h') }, 'Reproduced here: Brooker 2022, token buckets against retries'),
      h('p', {}, 'A server that fails a share of its requests, and 100 clients sending 10 requests a second each for 10 seconds. Three retries buy success at the price of load, which grows fastest exactly when the server is failing; the token bucket lets a retry through only while first attempts keep succeeding, so its load stays near one attempt per request. The crosses are Brooker’s own simulator, whose bucket gains 0.1 token with each first attempt and retries while it holds more than one. His post words the rule otherwise: a deposit with each success, a retry while a whole token remains. That bucket, drawn beside his, earns less the more the server fails, so it retries less exactly then. The third panel splits the same 100 requests a second over 10, 100 and 1,000 clients, each with its own bucket (his simulator’s).'),
      h('p', { id: id('bk-status'), role: 'status' }, 'Waiting for the reproduction above…'),
      h('div', { class: 'fl-panels' },
        h('figure', {}, h('div', { id: id('bk-success') }), h('figcaption', {}, 'Success against the failure rate')),
        h('figure', {}, h('div', { id: id('bk-load') }), h('figcaption', {}, 'Load (attempts per request) against the failure rate')),
        h('figure', {}, h('div', { id: id('bk-clients') }), h('figcaption', {}, 'The bucket’s load for 10, 100 and 1,000 clients'))),
      h('div', { id: id('bk-legend') }),
      h('p', { class: 'fl-exports' }, h('button', { type: 'button', id: id('bk-csv') }, 'Download the figure’s data (CSV)')),
      h('details', { class: 'fl-data' }, h('summary', {}, 'The reproduction as a table, beside his results'),
        h('div', { id: id('bk-table'), class: 'fl-scroll', tabindex: 0, role: 'region', 'aria-label': 'The Brooker 2022 reproduction, as a table' }))),
    whole && h('section', { class: 'fl-repro', 'aria-labelledby': id('col-h') },
      h('h3', { id: id('col-h') }, 'Reproduced here: Brooker’s retry collapse'),
      h('p', {}, 'One busy client, 40 requests a second, and a server whose every attempt takes longer the more it is serving. A five-second spike to twice the rate pushes service past the three-second timeout; each timeout is retried at once, twice, and the server spends itself on attempts nobody is waiting for. Backing off with full jitter from a 20 s base spreads the same retries out, and every request succeeds.'),
      h('p', { id: id('col-status'), role: 'status' }, 'Waiting for the reproductions above…'),
      h('div', { class: 'fl-panels' }, h('figure', {}, h('div', { id: id('col-chart') }), h('figcaption', {}, 'Successes per second, 0 to 80 s'))),
      h('div', { id: id('col-legend') }),
      h('p', { class: 'fl-exports' }, h('button', { type: 'button', id: id('col-csv') }, 'Download the figure’s data (CSV)'))),
    whole && h('section', { class: 'fl-repro', 'aria-labelledby': id('hg-h') },
      h('h3', { id: id('hg-h') }, 'Hedging: a second copy on purpose'),
      h('p', {}, 'gRPC’s hedging sends another copy of a request when the first has not answered after a delay, and takes whichever answers first (docs/throttling.md §6). Here every network leg takes an exponential time with a mean of 5 ms, with no queue: a second copy 20 ms after the first, sent for about one request in eleven, cuts the slowest hundredth’s latency. The lines are the closed form; the marks, p50, p90 and p99 of 100,000 requests the engine ran each way. A hedged payment without an idempotency key is charged once per copy served.'),
      h('p', { id: id('hg-status'), role: 'status' }, 'Waiting for the reproductions above…'),
      h('div', { class: 'fl-panels' }, h('figure', {}, h('div', { id: id('hg-chart') }), h('figcaption', {}, 'The chance a request takes longer than x, on a log scale: circles one copy, squares hedged'))),
      h('details', { class: 'fl-data' }, h('summary', {}, 'The percentiles as a table, beside the closed form'),
        h('div', { id: id('hg-table'), class: 'fl-scroll', tabindex: 0, role: 'region', 'aria-label': 'Hedging’s percentiles, as a table' }))))), doc));

  const $ = (name) => root.querySelector(`#${id(name)}`);
  const verdictBox = $('verdict');
  const progress = $('progress');
  const errorBox = $('error');
  const chartBox = $('chart');

  // --- the storm where the reader acts (issue 35) ----------------------------------------------
  //
  // A change made below the figure is seen without scrolling. On a wide screen the figure is
  // sticky beside the story and the controls (fleet.css), so it is in view already; where the
  // end of the controls has pushed it partly out, the page scrolls it back by as little as that
  // takes. Elsewhere (a narrow screen, or the map, under the sticky part) the storm is drawn
  // again in a small figure of its own right after the group the reader acted in, as the
  // article's figure is on a phone (explorable/steps.js): made at the first such change, moved
  // to the group of the latest (the page then scrolled by as much as the move shifted the
  // control, so the control stays where it was on screen), then scrolled into view by as
  // little as shows it whole. It draws the state the figure does: the verdict in short, the
  // chart, with the ghost of the run before.
  const MARGIN = 12;
  let near = null; // { box, verdict, chart } once made
  const smooth = () => (win.matchMedia && win.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth');
  const inView = (el) => {
    const r = el.getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.bottom <= win.innerHeight;
  };
  // The box to show once the change's run is drawn too (a scroll under way may have been cut
  // short by the redraw, or the run's words have moved it), unless the reader scrolls first.
  let showAfter = null;
  const readerScrolls = () => { showAfter = null; };
  for (const type of ['wheel', 'touchstart']) win.addEventListener(type, readerScrolls, { passive: true });
  function scrollToShow(box) {
    showAfter = box;
    const r = box.getBoundingClientRect();
    let by = 0;
    if (r.bottom > win.innerHeight - MARGIN) by = r.bottom - (win.innerHeight - MARGIN);
    if (r.top - by < MARGIN) by = r.top - MARGIN;
    if (Math.abs(by) < 1) return;
    const behavior = smooth();
    win.scrollBy({ top: by, behavior });
    // A smooth scroll runs to where it aimed, though the page moved under it meanwhile (the
    // run's redraw above, scroll anchoring): once it ends, the box is shown if it is not.
    if (behavior === 'smooth') {
      win.addEventListener('scrollend', () => {
        if (showAfter === box && !inView(box)) {
          const r2 = box.getBoundingClientRect();
          win.scrollBy({ top: r2.bottom > win.innerHeight - MARGIN ? Math.min(r2.bottom - (win.innerHeight - MARGIN), r2.top - MARGIN) : r2.top - MARGIN, behavior: 'auto' });
        }
      }, { once: true });
    }
  }
  // A phone's chart (issue 35 item 9): narrower than NARROW px, a box draws the chart at its own
  // width (its words at 12 px, no sideways scroll) with the chart's key shown above it; wider,
  // at 750 units scaled to the box, labelled at the peaks, as before. Each box is watched, and
  // the chart drawn again when its width changes which it is.
  const NARROW = 600;
  const chartWidth = (box) => {
    const w = box.clientWidth;
    return w > 0 && w < NARROW ? Math.floor(w) : undefined;
  };
  const drawnWidth = new Map();
  const widths = typeof win.ResizeObserver === 'function'
    ? new win.ResizeObserver((entries) => {
      if (!shown) return;
      const changed = entries.some((e) => drawnWidth.get(e.target) !== chartWidth(e.target));
      if (changed) draw(true);
      if (changed && near && entries.some((e) => e.target === near.chart)) drawNear();
    })
    : { observe() {} };
  function drawLegend(list, width, key) {
    const box = list.nextElementSibling;
    drawnWidth.set(box, width);
    list.hidden = width === undefined;
    if (list.hidden) return list.replaceChildren();
    const swatch = (item, i) => h('svg', { class: 'fl-chart fl-swatch', width: 32, height: 12, viewBox: '0 0 32 12', 'aria-hidden': 'true', focusable: 'false' },
      item.area
        ? [item.cls === 'fl-late' ? h('defs', {}, h('pattern', { id: `${key}-hatch-${i}`, width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
          h('rect', { class: 'fl-late-ground', width: 6, height: 6 }), h('line', { class: 'fl-late-hatch', x1: 0, y1: 0, x2: 0, y2: 6 }))) : null,
        h('rect', { class: `fl-work ${item.cls}`, x: 1, y: 1, width: 30, height: 10, fill: item.cls === 'fl-late' ? `url(#${key}-hatch-${i})` : null })]
        : h('line', { class: `fl-line ${item.cls}`, x1: 0, y1: 6, x2: 32, y2: 6, 'stroke-dasharray': item.dash || null }));
    patch(list, ...stormLegend(shown.series).map((item, i) => h('li', {}, swatch(item, i), ` ${item.label}`)));
  }
  widths.observe(chartBox);

  function bringNear(control, group) {
    if (!shown || !control.isConnected || inView(chartBox)) return;
    const figure = chartBox.closest('.fl-figure');
    if (win.getComputedStyle(figure).position === 'sticky' && control.closest('.fl-stops, .fl-effects, .fl-story')) {
      scrollToShow(chartBox);
      return;
    }
    if (!near) {
      const box = mount(h('figure', { class: 'fl-near', id: id('near'), 'aria-labelledby': id('near-caption') },
        h('figcaption', { class: 'fl-near-caption', id: id('near-caption') },
          h('span', { class: 'fl-near-kicker' }, 'The storm with these settings'), ' ',
          h('span', { class: 'fl-near-verdict', id: id('near-verdict') })),
        h('ul', { class: 'fl-legend fl-storm-legend', id: id('near-legend'), 'aria-label': 'The chart’s key', hidden: true }),
        h('div', { class: 'fl-chart-box', id: id('near-chart'), tabindex: 0, role: 'group', 'aria-roledescription': 'chart', 'aria-label': 'The storm over time, drawn again where you changed it' })), doc);
      near = { box, verdict: box.querySelector(`#${id('near-verdict')}`), chart: box.querySelector(`#${id('near-chart')}`), legend: box.querySelector(`#${id('near-legend')}`) };
      widths.observe(near.chart);
    }
    if (group.nextElementSibling !== near.box) {
      const was = control.getBoundingClientRect().top;
      group.after(near.box);
      drawNear();
      const moved = control.getBoundingClientRect().top - was;
      if (Math.abs(moved) >= 1) win.scrollBy({ top: moved, behavior: 'auto' });
    }
    scrollToShow(near.box);
  }
  function drawNear() {
    if (!near || !shown) return;
    const width = chartWidth(near.chart);
    patch(near.chart, stormChart(shown.series, { id: id('near-svg'), ghost: shown.ghost, width }));
    drawLegend(near.legend, width, id('near-legend'));
    const verdict = verdictOf(shown.result);
    near.verdict.textContent = stale ? 'computing…' : verdict.shortText;
    if (stale) delete near.verdict.dataset.kind;
    else near.verdict.dataset.kind = verdict.kind;
  }

  let linkNote = ''; // what a fleet link had that was not used, until the reader changes something
  function showError(text) {
    const all = [linkNote, text].filter(Boolean).join(' ');
    errorBox.hidden = !all;
    errorBox.textContent = all;
  }

  // A data table drawn only while its <details> is open (and when it opens): a table of a
  // hundred rows redrawn on every result would cost the page's main thread more than the
  // charts do.
  function lazyTable(boxName, build) {
    const box = $(boxName);
    if (!box) return () => {}; // not in this view (parts: 'view')
    const details = box.closest('details');
    const draw = () => {
      if (details.open) patch(box, build());
    };
    details.addEventListener('toggle', draw);
    return draw;
  }

  // --- computing ------------------------------------------------------------------------

  const withKeyFlag = (req, key) => setPath(req, 'idempotencyKey', key);

  // --- the computing state: a run the section waits for, said as such ---------------------------
  //
  // A request from outside (a fleet link, the element's attributes) is shown as computing from
  // its start: the verdict box says so, the chart, its summary and the side effects are marked
  // as another run's (dimmed, `data-computing` on the root), the controls show the request's
  // own values, and a line says which of its two runs is computing, for how long so far, what
  // the link asks for, and offers Stop. A reader's change is shown so only once it has taken
  // STALE_MS, so a quick change does not flicker. A newer change replaces the computation (the
  // worker running it is ended, compute.js); Stop ends it and keeps the run on show.
  const pendingInputs = $('pending-inputs');
  const valueWords = (v) => (v === null ? 'none' : typeof v === 'number' ? v.toLocaleString('en-US') : v && typeof v === 'object' ? 'on' : String(v));
  const inputsText = (req) => leaves(req).map(([path, v]) => `${fieldName(path)} ${valueWords(v)}`).join(', ');
  const shownName = () => (!shown ? '' : Object.keys(shown.request).length ? 'the run before it' : 'the opening fleet run');
  function progressNow() {
    if (!pending) return;
    const s = ((win.performance.now() - pending.startedAt) / 1000).toFixed(1);
    const of = pending.linked ? 3 : 2;
    const step = pending.index < 0 ? 'the opening fleet run first, to fall back on… (1 of 3'
      : pending.index === 0 ? `the fleet… (the run without an idempotency key, ${of - 1} of ${of}`
        : `the run with an idempotency key… (for the side effects, ${of} of ${of}`;
    const where = computer.where() === 'worker' ? 'in a worker, so the page stays responsive' : 'on the page';
    const behind = shown ? ` What is drawn below is still ${shownName()}, not this one.` : '';
    progress.textContent = `Computing ${step}, ${where}: ${s} s so far).${behind}`;
  }
  function showComputing() {
    if (!pending) return;
    stale = true;
    root.dataset.computing = pending.linked ? 'link' : 'change';
    verdictBox.textContent = !pending.linked ? 'Computing the fleet run for these settings…' : address ? 'Computing the linked fleet run…' : 'Computing the fleet run its attributes ask for…';
    delete verdictBox.dataset.kind;
    drawNear();
    $('pending').hidden = false;
    $('stop').hidden = false;
    pendingInputs.hidden = !pending.linked;
    pendingInputs.textContent = pending.linked ? (Object.keys(pending.request).length ? `This run: the opening fleet run with ${inputsText(pending.request)}.` : 'This run: the opening fleet run.') : '';
    progressNow();
    if (!tick) tick = win.setInterval(progressNow, 200);
    if (table) syncControls(pending.request);
  }
  function endComputing() {
    pending = null;
    win.clearTimeout(progressTimer);
    win.clearInterval(tick);
    tick = 0;
    $('pending').hidden = true;
    if (!stale) return;
    stale = false;
    delete root.dataset.computing;
    if (shown) {
      draw();
      syncControls();
    } else verdictBox.textContent = busy ? 'Computing the opening fleet run…' : 'No fleet run could be computed here.';
  }
  // A request from outside, before the opening run it falls back on is computed.
  function expect(req) {
    pending = { request: req, linked: true, startedAt: win.performance.now(), index: -1 };
    showComputing();
  }
  // Stop: the run asked for is not computed. While the opening run it falls back on is still
  // computing (index -1), that one goes on (it is all there is to show); else the job is ended.
  // The line then says what is on show, until the next computation.
  $('stop').addEventListener('click', () => {
    if (!pending) return;
    const behindOnly = pending.index < 0;
    if (!behindOnly) {
      computer.cancel();
      busy = false;
    }
    const was = pending.linked ? (address ? 'the link asks for' : 'its attributes ask for') : 'these settings make';
    endComputing();
    $('pending').hidden = false;
    $('stop').hidden = true;
    progress.textContent = `Stopped: what is drawn is ${shownName() || 'the opening fleet run, once computed'}, not the run ${was}.`;
    chartBox.focus(); // the button has gone: focus stays in the figure
    if (behindOnly) return;
    if (interacted) writeLink();
    const waiters = settleWaiters;
    settleWaiters = [];
    for (const w of waiters) w();
  });

  // An engine refusal of a run a switched model's control asked for, or one naming that model
  // (docs/layers.md §9.6's stack, code layers-excluded; A6's retries, on policy.hedging), said
  // under its switch, as a gate's field says what it does not take; the run on show stays.
  function refusedAtSwitch(result, req, by) {
    const names = (path) => (e) => e.field === path || (e.field || '').startsWith(`${path}.`) || (by === path);
    for (const set of root.querySelectorAll('[data-switch]')) {
      const path = set.dataset.switch;
      if (!result.errors.some(names(path))) continue;
      const label = set.querySelector('legend label').textContent;
      const stack = result.errors.some((e) => e.code === 'layers-excluded');
      const why = stack ? 'the run has a stack of retry layers (policy.layers), and a stack runs FLEET.md’s gates only: where this model would sit in one is not settled (docs/layers.md §9.6). Switch it off, or go back to the opening fleet run.'
        : refusalText(result, req);
      markField(set.querySelector('[data-switch-on]'), `“${label}” cannot run here: ${why} The run on show is unchanged.`);
      return true;
    }
    return false;
  }

  // What the engine (or the page, compute.js) said when a request could not run, in words.
  function refusalText(result, req) {
    return result.errors.map((e) => {
      if (e.code === 'out-of-memory') return tooLargeText(e, req);
      const said = e.field && e.detail ? `${fieldName(e.field)} ${e.detail}` : e.message;
      const named = Array.isArray(e.fields) ? e.fields.filter((f) => fieldName(f) !== f) : [];
      return named.length ? `${said} (as attributes: ${e.fields.map(fieldName).join(', ')})` : said;
    }).join(' ');
  }
  // A run that outgrew the WebAssembly engine's memory (the binding's `out-of-memory`, with the
  // ceiling as `memoryBytes`): which of its fields to lower, read from the request — those it
  // raises above the opening run — or, when it raises none, the work formula's (compute.js).
  function tooLargeText(e, req) {
    const mib = typeof e.memoryBytes === 'number' ? ` (${Math.round(e.memoryBytes / 1048576)} MiB)` : '';
    const raised = leaves(req).filter(([path, v]) => {
      const was = getPath(openingEcho, path);
      return typeof was === 'number' && (v === null || (typeof v === 'number' && v > was));
    });
    const lower = raised.length
      ? `Lower what it raises above the opening fleet run: ${raised.map(([path, v]) => `${fieldName(path)} (${valueWords(v)} here, ${valueWords(getPath(openingEcho, path))} in the opening run)`).join(', ')}.`
      : `Lower ${(expectedAttempts(req, openingEcho) || { fields: ['clients', 'durationMs'] }).fields.map(fieldName).join(', ')}.`;
    return `This run was too large for the engine in this browser: it needed more memory than the engine has${mib}, so it was stopped and nothing was computed. ${lower}`;
  }

  // `linked`: a request from outside, shown as computing from the start; `behind`: the opening
  // run computed first for such a request (expect()), drawn behind its computing state.
  // `by`: the control's path whose change asked for it.
  function compute(req, { fromReader = false, linked = false, behind = false, by = null } = {}) {
    if (fromReader) {
      interacted = true;
      linkNote = '';
    }
    const undrawn = undrawnWorkload(req);
    if (undrawn) {
      showError(`The fleet view cannot run this request: workload ${req.workload} ${undrawn}. The run on show stays.`);
      return;
    }
    busy = true;
    win.clearTimeout(progressTimer);
    if (!behind) {
      pending = { request: req, linked, startedAt: win.performance.now(), index: 0 };
      if (linked) showComputing();
      else progressTimer = win.setTimeout(showComputing, STALE_MS);
    }
    const mine = pending;
    // Only the newest job reports (compute.js), so this is the newest one ending.
    const done = () => {
      busy = false;
      if (!behind && pending === mine) endComputing();
      // The box a change asked to show, once its run is drawn and the computing line above has
      // gone: two frames on (scroll anchoring has then moved the page for both), and once more
      // a little later, for a smooth scroll that was under way.
      if (showAfter && fromReader) {
        const box = showAfter;
        const check = () => {
          if (showAfter === box && !inView(box)) scrollToShow(box);
        };
        win.requestAnimationFrame(() => win.requestAnimationFrame(check));
        win.setTimeout(check, 400);
      }
      const waiters = settleWaiters;
      settleWaiters = [];
      for (const w of waiters) w();
    };
    let first = null;
    computer.run([withKeyFlag(req, false), withKeyFlag(req, true)], {
      onBegin(index) {
        if (behind || pending !== mine) return;
        mine.index = index;
        progressNow();
      },
      onResult(index, result) {
        if (!result.ok) {
          if (index === 0 && refusedAtSwitch(result, req, by)) return;
          if (index === 0) showError(`The fleet could not run: ${refusalText(result, req)} The last good run stays on show.${linked && shown ? ` It is ${shownName()}, not the ${address ? 'link' : 'attributes'}’s.` : ''}`);
          return;
        }
        if (!result.timeline) {
          if (index === 0) showError(`The fleet view cannot draw this run: it has no timeline. The run on show stays.`);
          return;
        }
        if (index === 0) {
          first = result;
        } else if (first) {
          showError('');
          accept(req, first, result, fromReader, by);
        }
      },
      onDone: done,
      onError(message) {
        showError(`The fleet engine could not run here (${message}).`);
        done();
      },
    });
  }

  // `fromReader`: the reader changed something, so the run before stays on the chart, faint
  // (issue 35): the one state the figure is drawn from holds both.
  function accept(req, result, withKey, fromReader = false, by = null) {
    request = req;
    const ghost = fromReader && shown ? shown.series : null;
    const before = fromReader && shown ? shown.result : null; // for what a change changed (saidDraw)
    shown = { request: req, result, withKey, series: stormSeries(result), ghost, before, by };
    if (cursor !== null && cursor >= shown.series.points.length) cursor = null;
    draw();

    syncControls(stale && pending ? pending.request : null);
    if (interacted) writeLink();
  }

  // --- drawing --------------------------------------------------------------------------

  // `cursorOnly`: the keyboard or pointer cursor moved; the rest is as it was.
  function draw(cursorOnly = false) {
    const { result, withKey, series, ghost } = shown;
    const verdict = verdictOf(result);
    if (!stale) { // while another run computes, the verdict box says so (showComputing)
      verdictBox.textContent = verdict.text;
      verdictBox.dataset.kind = verdict.kind;
    }
    root.dataset.verdict = verdict.kind;
    const width = chartWidth(chartBox);
    patch(chartBox, stormChart(series, { id: id('svg-chart'), cursor, ghost, width }));
    drawLegend($('legend'), width, id('legend'));
    $('readout').textContent = cursor === null ? 'Arrow keys or the pointer on the chart: one second’s figures.' : binText(series, cursor);
    if (cursorOnly) return;
    drawNear();
    drawSaid();
    $('summary').textContent = `${result.totals.requests.toLocaleString('en-US')} requests made ${result.totals.attempts.toLocaleString('en-US')} attempts (load ${result.totals.load.toFixed(2)}×); ${result.totals.succeeded.toLocaleString('en-US')} succeeded.`;
    drawStormTable();
    const effects = sideEffectsOf(result, withKey);
    patch($('effects'),
      h('p', {}, effects.summary),
      h('table', { class: 'fl-table fl-effects-table' },
        h('caption', {}, 'The same attempts, without and with an idempotency key'),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'in this run'), h('th', { scope: 'col' }, 'without a key'), h('th', { scope: 'col' }, 'with a key'))),
        h('tbody', {}, ...effects.rows.map(([label, a, b]) => h('tr', {}, h('th', { scope: 'row' }, label), h('td', {}, a), h('td', {}, b))))));
  }

  const drawStormTable = lazyTable('table', () => h('table', { class: 'fl-table' },
    h('caption', {}, 'The storm per second (each row one bin of the timeline)'),
    h('thead', {}, h('tr', {}, ...tableColumns(shown.series).map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, ...tableRows(shown.series).map((r) => h('tr', {}, h('th', { scope: 'row' }, String(r[0])), ...r.slice(1).map((c) => h('td', {}, c)))))));

  // The keyboard and pointer cursor over the bins.
  chartBox.addEventListener('keydown', (event) => {
    if (!shown) return;
    const n = shown.series.points.length;
    const moves = { ArrowRight: 1, ArrowLeft: -1, PageDown: 10, PageUp: -10 };
    if (event.key in moves) cursor = Math.max(0, Math.min(n - 1, (cursor === null ? -1 : cursor) + moves[event.key]));
    else if (event.key === 'Home') cursor = 0;
    else if (event.key === 'End') cursor = n - 1;
    else if (event.key === 'Escape') cursor = null;
    else return;
    event.preventDefault();
    draw(true);
    // In a box that scrolls sideways (a phone), the second the keys rest on stays in view.
    const mark = chartBox.querySelector('.fl-cursor');
    if (mark) mark.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  });
  chartBox.addEventListener('pointermove', (event) => {
    const svg = chartBox.querySelector('svg');
    if (!shown || !svg) return;
    const box = svg.getBoundingClientRect();
    // In the chart's units, on its time axis as the chart drew it (its data-* attributes, chart.js):
    // the axis spans the run before too where it ran longer, and a phone's chart is narrower.
    const x = ((event.clientX - box.left) / box.width) * svg.viewBox.baseVal.width;
    const n = shown.series.points.length;
    const at = (name) => Number(svg.getAttribute(`data-${name}`));
    const bin = Math.floor((((x - at('plot-x')) / at('plot-w')) * at('axis-ms')) / at('bin-ms'));
    if (bin >= 0 && bin < n && bin !== cursor) {
      cursor = bin;
      draw(true);
    }
  });

  // --- the controls ---------------------------------------------------------------------

  // The request the controls show and change: the one computing, else the one on show.
  const current = () => (pending ? pending.request : request);
  const valueOf = (path, req = request) => {
    const own = getPath(req, path);
    return own === undefined ? getPath(openingEcho, path) : own;
  };

  function change(path, value) {
    const base = current();
    let next = setPath(base, path, value);
    if (path.startsWith('trigger.') && base.trigger === undefined) next = setPath(next, 'trigger', { ...openingEcho.trigger, ...next.trigger });
    compute(next, { fromReader: true, by: path });
  }
  // A request's gates as the engine echoes them: each null (off) or its fields over the defaults.
  const gatesOfRequest = (req) => Object.fromEntries(gatesOf(table).map((g) => {
    const own = getPath(req, `gates.${g.name}`);
    if (own === undefined) return [g.name, openingEcho.gates ? openingEcho.gates[g.name] : null];
    return [g.name, own === null ? null : { ...gateDefaults(table, g.name), ...own }];
  }));

  function buildControls() {
    const box = $('controls');
    const nodes = CONTROLS.map((c) => {
      const b = controlBounds(c, table);
      const cid = id(`c-${c.path.replace(/\./g, '-')}`);
      if (c.kind === 'choice') {
        return h('div', { class: 'fl-control' },
          h('label', { for: cid }, c.label),
          h('select', { id: cid, 'data-path': c.path }, ...b.choices.map((v) => h('option', { value: v }, CHOICE_WORDS[v] || v))),
          h('p', { class: 'fl-said', 'data-said': c.path }));
      }
      return h('div', { class: 'fl-control' },
        h('label', { for: cid }, c.label),
        h('input', { type: 'range', id: cid, 'data-path': c.path, min: b.min, max: b.max, step: c.step }),
        h('output', { for: cid, id: `${cid}-out` }),
        h('p', { class: 'fl-said', 'data-said': c.path }));
    });
    box.replaceChildren(...nodes.map((n) => mount(n, doc)));
    for (const el of box.querySelectorAll('[data-path]')) {
      const path = el.dataset.path;
      const read = () => (el.type === 'range' ? Number(el.value) : el.value);
      el.addEventListener(el.type === 'range' ? 'input' : 'change', () => {
        const out = root.querySelector(`#${el.id}-out`);
        if (out) out.textContent = String(read());
        change(path, read());
      });
      // A slider brings the storm near once let go (or at each key), not while dragged.
      el.addEventListener('change', () => bringNear(el, el.closest('.fl-control')));
    }
    // The gates: each a switch, its scope and its fields, starting from its defaults.
    const gates = gatesOf(table).map((g) => {
      const d = gateDefaults(table, g.name);
      const gid = id(`g-${g.name}`);
      return h('fieldset', { class: 'fl-gate', 'data-gate': g.name },
        h('legend', {}, h('input', { type: 'checkbox', id: gid, 'data-gate-on': g.name }), ' ', h('label', { for: gid }, g.label)),
        h('p', { class: 'fl-said', 'data-said': `gates.${g.name}` }),
        h('div', { class: 'fl-gate-fields' },
          h('label', { for: `${gid}-scope` }, 'one per'),
          h('select', { id: `${gid}-scope`, 'data-gate-field': 'scope' }, h('option', { value: 'client' }, 'client (as an SDK keeps it)'), h('option', { value: 'fleet' }, 'fleet (shared by all clients)')),
          ...gateFields(table, g.name).map(({ name, row, label, step }) => [
            h('label', { for: `${gid}-${name}` }, label),
            row.type === 'choice'
              ? h('select', { id: `${gid}-${name}`, 'data-gate-field': name },
                ...row.choices.map((c) => h('option', { value: c.name, title: c.description }, c.name)))
              : h('input', { type: 'number', id: `${gid}-${name}`, 'data-gate-field': name, step, value: d[name] }),
            // What is wrong with a typed value, under its field (issue 35): empty until then.
            row.type === 'choice' ? null : h('p', { class: 'fl-field-error', id: `${gid}-${name}-error`, 'aria-live': 'polite' }),
          ])));
    });
    $('gates').replaceChildren(...gates.map((n) => mount(n, doc)));
    for (const set of $('gates').querySelectorAll('[data-gate]')) {
      const name = set.dataset.gate;
      const gateNow = () => {
        const out = {};
        for (const el of set.querySelectorAll('[data-gate-field]')) {
          const key = el.dataset.gateField;
          const v = el.tagName === 'SELECT' ? el.value : el.value === '' ? NaN : Number(el.value);
          if (key === 'scope' && v === 'client') continue;
          if (key !== 'scope' && v === gateDefaults(table, name)[key]) continue;
          out[key] = v;
        }
        return out;
      };
      // Every typed field judged by its row: a gate with a value it does not take is not run.
      const fields = new Map(gateFields(table, name).map((f) => [f.name, f]));
      const judge = (el) => {
        const f = fields.get(el.dataset.gateField);
        if (!f || el.tagName === 'SELECT') return true;
        const problem = fieldProblem(el.value, f.row, f.label, { badInput: Boolean(el.validity && el.validity.badInput) });
        markField(el, problem);
        return !problem;
      };
      const allTaken = () => [...set.querySelectorAll('input[data-gate-field]')].map(judge).every(Boolean);
      const sw = set.querySelector('[data-gate-on]');
      sw.addEventListener('change', () => {
        if (sw.checked && !allTaken()) return;
        change(`gates.${name}`, sw.checked ? gateNow() : null);
        bringNear(sw, set);
      });
      for (const el of set.querySelectorAll('[data-gate-field]')) {
        el.addEventListener('change', () => {
          if (!allTaken() || !sw.checked) return;
          change(`gates.${name}`, gateNow());
          bringNear(el, set);
        });
        // A message goes as soon as the value is one the field takes.
        if (el.tagName === 'INPUT') el.addEventListener('input', () => { if (el.getAttribute('aria-invalid')) judge(el); });
      }
    }
    buildSwitches();
  }

  // --- the server's and the policy's models, switched on whole (docs/throttling.md §3, §6) ---

  // Each a fieldset as a gate's: a switch, its fields from the table's row (model.js
  // switchesOf), a message under each typed field and under the switch (a refusal of the
  // engine's that names it: docs/layers.md §9.6's stack, A6's retries), and what it did beside it.
  function switchNode(s) {
    const sid = id(`s-${s.path.replace(/\./g, '-')}`);
    const d = switchDefaults(table, s.path);
    const field = ({ name, row, label, step }) => {
      const fid = `${sid}-${name}`;
      if (row.type === 'choice') {
        return [h('label', { for: fid }, label),
          h('select', { id: fid, 'data-switch-field': name }, ...row.choices.map((c) => h('option', { value: c.name, title: c.description }, c.name)))];
      }
      if (row.type === 'list' && row.items && row.items.type === 'choice') {
        return [h('span', { class: 'fl-switch-list-label', id: `${fid}-label` }, label),
          h('span', { class: 'fl-switch-list', role: 'group', 'aria-labelledby': `${fid}-label`, 'data-switch-field': name, 'data-list': '' },
            ...row.items.choices.map((c) => h('label', { title: c.description }, h('input', { type: 'checkbox', value: c.name }), ` ${c.name}`)))];
      }
      return [h('label', { for: fid }, label),
        h('input', { type: 'number', id: fid, 'data-switch-field': name, step, value: d[name] === null ? '' : d[name] }),
        h('p', { class: 'fl-field-error', id: `${fid}-error`, 'aria-live': 'polite' })];
    };
    return h('fieldset', { class: 'fl-gate fl-switch', 'data-switch': s.path },
      h('legend', {}, h('input', { type: 'checkbox', id: sid, 'data-switch-on': s.path }), ' ', h('label', { for: sid }, s.label)),
      h('p', { class: 'fl-field-error', id: `${sid}-error`, 'aria-live': 'polite' }),
      h('p', { class: 'fl-said', 'data-said': s.path }),
      h('div', { class: 'fl-gate-fields' }, ...switchFields(table, s.path).map(field)));
  }

  // A switched model's typed values, or null when a field holds one its row does not take (its
  // message then under it).
  function switchValues(set, path) {
    const values = {};
    let taken = true;
    for (const f of switchFields(table, path)) {
      const el = set.querySelector(`[data-switch-field="${f.name}"]`);
      if (!el) continue;
      if (el.dataset.list !== undefined) values[f.name] = [...el.querySelectorAll('input:checked')].map((c) => c.value);
      else if (el.tagName === 'SELECT') values[f.name] = el.value;
      else if (f.row.nullable && el.value === '' && !(el.validity && el.validity.badInput)) {
        values[f.name] = null;
        markField(el, '');
      } else {
        const problem = fieldProblem(el.value, f.row, f.label, { badInput: Boolean(el.validity && el.validity.badInput) });
        markField(el, problem);
        if (problem) taken = false;
        else values[f.name] = Number(el.value);
      }
    }
    return taken ? values : null;
  }

  let retriesBeforeHedging = null; // policy.maxRetries when hedging was switched on, given back when off
  function switchChanged(set, path, fromSwitch) {
    const sw = set.querySelector('[data-switch-on]');
    const values = switchValues(set, path);
    if (!sw.checked) {
      if (!fromSwitch) return;
      markField(sw, '');
      let next = setPath(current(), path, null);
      // gRPC A6: hedging and retries exclude each other; switching hedging on set retries to 0.
      if (path === 'policy.hedging' && retriesBeforeHedging !== null) next = setPath(next, 'policy.maxRetries', retriesBeforeHedging);
      retriesBeforeHedging = null;
      compute(next, { fromReader: true, by: path });
    } else {
      if (!values) return;
      let next = setPath(current(), path, switchValue(table, path, values));
      if (path === 'policy.hedging' && valueOf('policy.maxRetries', current()) !== 0) {
        if (fromSwitch) retriesBeforeHedging = valueOf('policy.maxRetries', current());
        next = setPath(next, 'policy.maxRetries', 0);
      }
      compute(next, { fromReader: true, by: path });
    }
    bringNear(sw, set);
  }

  function buildSwitches() {
    $('switches').replaceChildren(...switchesOf(table).map((s) => mount(switchNode(s), doc)));
    for (const set of $('switches').querySelectorAll('[data-switch]')) {
      const path = set.dataset.switch;
      set.querySelector('[data-switch-on]').addEventListener('change', () => switchChanged(set, path, true));
      for (const el of set.querySelectorAll('[data-switch-field]')) {
        el.addEventListener('change', () => switchChanged(set, path, false));
        if (el.tagName === 'INPUT') el.addEventListener('input', () => { if (el.getAttribute('aria-invalid')) switchValues(set, path); });
      }
    }
  }

  // What a switched model did in the run on show, from its result (docs/throttling.md §3: the
  // 429s are `totals.throttled`; §6: hedging's copies after the first are `totals.retries`).
  const SWITCH_SAID = {
    'server.admission': (r) => {
      const a = r.request.server.admission;
      const n = r.totals.throttled || 0;
      const limit = `${num(a.ratePerSecond)} tokens a second, ${num(a.burst)} at most, ${a.scope === 'fleet' ? 'for the whole fleet' : 'for each client'}`;
      if (!n) return `In the run on show it answered no attempt with a 429: no ${a.scope === 'fleet' ? 'second of the fleet' : 'client'} sent faster than its limit (${limit}).`;
      const retried = (r.request.policy.retryOn || []).includes('429');
      return `In the run on show it answered ${num(n)} of ${num(r.totals.attempts)} attempts with a 429 (${limit}), each without a worker or a place in the queue; ${retried ? 'the policy retries a 429' : 'the policy does not retry a 429 (retryOn), so each ended its request'}.`;
    },
    'policy.hedging': (r) => {
      const hg = r.request.policy.hedging;
      const copies = r.totals.retries;
      return `In the run on show it sent ${num(copies)} ${copies === 1 ? 'copy' : 'copies'} after the first (${num(r.totals.attempts)} attempts for ${num(r.totals.requests)} requests, at most ${num(hg.maxAttempts)} each, ${num(hg.delayMs)} ms apart); retries per request are 0, as A6 asks. Every copy served charges a card without a key.`;
    },
  };

  // The gates before every send (docs/throttling.md §4, §5, §7) refuse no retry: each says what
  // it did in its own terms, from the result — the limiter's waits (the bins' gateWaitMs) and the
  // 429s it slowed for, the local throttle's refusals (`local-throttle`), the admission filter's
  // rejections (`admissionRejected`).
  const SEND_GATES = {
    adaptive: (r) => {
      const waitMs = r.timeline.bins.reduce((a, b) => a + (b.gateWaitMs || 0), 0);
      const throttled = r.totals.throttled || 0;
      return waitMs ? `In the run on show it held sends for ${num(Math.round(waitMs / 1000))} s in all (every request’s waits summed), slowing after ${num(throttled)} throttling answers (429).${limiterSaid(r)}`
        : `In the run on show it held no send: it slows only after a throttling answer (429), and the server gave ${throttled ? num(throttled) : 'none'}${throttled ? '' : ' (switch on its admission limit)'}.`;
    },
    local: (r) => {
      const n = r.totals.failed['local-throttle'] || 0;
      return n ? `In the run on show it refused ${num(n)} ${n === 1 ? 'request' : 'requests'} before they left the client.`
        : `In the run on show it refused nothing: each answer counts as a request and, unless it is a 429, as an accept, and the server gave ${num(r.totals.throttled || 0)} throttling answers (429).`;
    },
    admissionControl: (r) => {
      const n = r.totals.admissionRejected || 0;
      return n ? `In the run on show it rejected ${num(n)} ${n === 1 ? 'attempt' : 'attempts'} in the client’s sidecar, each answered as a 503.`
        : 'In the run on show it rejected nothing: it records only answers in time, a failure being 500 or above (a timeout or a late answer records nothing).';
    },
  };

  // What a control did in the run on show, beside it, from the result (issue 35 item 4): each
  // gate that is on, how many retries it refused (FLEET.md §4: each refusal ends its request
  // `gate-<name>`, the breaker's `circuit-open`); the control just changed, when every total
  // and the verdict are as they were before it, says so, with how most failed requests ended.
  function drawSaid() {
    const { result, before, by } = shown;
    const failed = result.totals.failed;
    for (const el of root.querySelectorAll('[data-said]')) {
      const path = el.dataset.said;
      let text = '';
      const gate = /^gates\.(\w+)$/.exec(path);
      if (SWITCH_SAID[path]) {
        if (getPath(result.request, path)) text = SWITCH_SAID[path](result);
      } else if (gate && result.request.gates && result.request.gates[gate[1]] && SEND_GATES[gate[1]]) {
        text = SEND_GATES[gate[1]](result);
      } else if (gate && result.request.gates && result.request.gates[gate[1]]) {
        const breaker = gate[1] === 'breaker';
        const n = failed[breaker ? 'circuit-open' : `gate-${gate[1]}`] || 0;
        const what = breaker ? ['attempt', 'attempts'] : ['retry', 'retries'];
        text = n ? `In the run on show it refused ${num(n)} ${n === 1 ? what[0] : what[1]}, each ending its request there.`
          : `In the run on show it refused no ${what[0]}: it let every one through, so it changes nothing in this run.`;
      } else if (!gate && path === by && before && JSON.stringify(before.totals) === JSON.stringify(result.totals) && verdictOf(before).kind === verdictOf(result).kind) {
        const reasons = Object.entries(failed).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
        const all = reasons.reduce((a, [, n]) => a + n, 0);
        const outOf = reasons.length > 0 && reasons[0][0] === 'attempt-limit';
        const moves = ['policy.baseBackoffMs', 'policy.backoffMultiplier', 'policy.jitter'].includes(path);
        text = `This left every total and the verdict as they were.${outOf ? ` Of ${num(all)} failed requests, ${num(reasons[0][1])} still ended out of attempts${moves ? ': backoff and jitter move retries in time, but each of those requests still sent every retry it had.' : '.'}` : ''}`;
      }
      if (el.textContent !== text) el.textContent = text;
    }
  }

  // A field's message under it, and the field marked as refused (aria-invalid, aria-describedby);
  // '' takes both away.
  function markField(el, problem) {
    const box = root.querySelector(`#${el.id}-error`);
    if (!box) return;
    if (box.textContent !== problem) box.textContent = problem;
    if (problem) {
      el.setAttribute('aria-invalid', 'true');
      el.setAttribute('aria-describedby', box.id);
    } else {
      el.removeAttribute('aria-invalid');
      el.removeAttribute('aria-describedby');
    }
  }

  // The controls show the run on show (after a link, a preset, a reset), or `req` while it computes.
  function syncControls(req = null) {
    const gatesShown = req ? gatesOfRequest(req) : shown.result.request.gates;
    for (const el of root.querySelectorAll('#fl-controls [data-path]')) {
      const v = valueOf(el.dataset.path, req || request);
      if (el.type === 'range') {
        if (Number(el.value) !== v) el.value = String(v);
        const out = root.querySelector(`#${el.id}-out`);
        if (out) out.textContent = String(v);
      } else if (el.value !== v) el.value = v;
    }
    for (const set of root.querySelectorAll('[data-gate]')) {
      const name = set.dataset.gate;
      const g = gatesShown[name];
      const sw = set.querySelector('[data-gate-on]');
      sw.checked = Boolean(g);
      set.classList.toggle('fl-gate-on', Boolean(g));
      const values = { ...gateDefaults(table, name), ...(g || {}) };
      for (const el of set.querySelectorAll('[data-gate-field]')) {
        const v = values[el.dataset.gateField];
        if (v !== undefined && el.value !== String(v) && doc.activeElement !== el) {
          el.value = String(v);
          markField(el, ''); // the field shows the run's value again
        }
      }
    }
    syncSwitches(req);
    const preset = presets.find((p) => sameGates(gatesShown, p.gates));
    $('preset').value = preset ? preset.id : '';
    showPreset(preset || null);
  }

  // The switched models show the run on show's (or `req`'s while it computes); a refusal under a
  // switch goes once a run is drawn.
  function syncSwitches(req) {
    for (const set of root.querySelectorAll('[data-switch]')) {
      const path = set.dataset.switch;
      const own = req ? getPath(req, path) : getPath(shown.result.request, path);
      const sw = set.querySelector('[data-switch-on]');
      if (!req) markField(sw, '');
      sw.checked = Boolean(own);
      set.classList.toggle('fl-gate-on', Boolean(own));
      const values = { ...switchDefaults(table, path), ...(own || {}) };
      for (const el of set.querySelectorAll('[data-switch-field]')) {
        const v = values[el.dataset.switchField];
        if (el.dataset.list !== undefined) {
          for (const c of el.querySelectorAll('input')) c.checked = Array.isArray(v) && v.includes(c.value);
        } else if (v !== undefined && doc.activeElement !== el && el.value !== (v === null ? '' : String(v))) {
          el.value = v === null ? '' : String(v);
          markField(el, '');
        }
      }
    }
  }

  // Do a request's gates (as echoed) equal a preset's (its gates over their defaults, the others off)?
  function sameGates(echoed, gates) {
    return gatesOf(table).every((g) => {
      const want = gates[g.name] ? { ...gateDefaults(table, g.name), ...gates[g.name] } : null;
      const have = echoed[g.name] && { ...gateDefaults(table, g.name), ...echoed[g.name] };
      if (!want || !have) return !want && !have;
      return Object.keys(want).every((k) => want[k] === have[k]);
    });
  }

  function showPreset(preset) {
    patch($('preset-card'), preset ? h('div', {},
      h('p', {}, h('strong', {}, 'Source: '), preset.source),
      h('p', {}, h('strong', {}, 'It sets: '), Object.entries(preset.gates).map(([g, v]) => `${g} ${Object.entries(v).map(([k, x]) => `${k} ${x}`).join(', ')}`).join('; ')),
      h('p', {}, h('strong', {}, 'What this cannot represent: '), [...preset.cannot, 'Only the gate is set: the client’s own retry count, backoff and timeouts are not applied; the fleet keeps the ones above.'].join(' '))) : null);
  }

  $('preset').addEventListener('change', (e) => {
    const preset = presets.find((p) => p.id === e.target.value);
    let next = setPath(current(), 'gates', {});
    if (preset) for (const [g, v] of Object.entries(preset.gates)) next = setPath(next, `gates.${g}`, { ...v });
    if (!Object.keys(next.gates).length) delete next.gates;
    compute(next, { fromReader: true });
    bringNear(e.target, e.target); // before the preset's card, whose words come with the run
  });
  $('reset').addEventListener('click', () => {
    compute({}, { fromReader: true });
    bringNear($('reset'), $('reset'));
  });

  // --- exports and the link -------------------------------------------------------------

  $('csv').addEventListener('click', () => shown && download(doc, fleetFileName(shown.result, 'timeline', 'csv'), 'text/csv', timelineCsv(shown.result)));
  $('svg').addEventListener('click', () => shown && download(doc, fleetFileName(shown.result, 'storm', 'svg'), 'image/svg+xml', stormSvg(shown.result)));

  const linkNow = () => `#${encodeFleetLink(requestDiff(shown.result.request, openingEcho, table))}`;
  function writeLink() {
    if (!address) return;
    const hash = linkNow();
    if (win.location.hash === hash) return;
    try {
      win.history.replaceState(win.history.state, '', hash);
    } catch {
      // A browser that refuses keeps the link it has.
    }
  }
  $('copy').addEventListener('click', () => {
    if (!shown) return;
    const url = `${linkBase ? linkBase() : win.location.href.split('#')[0]}${linkNow()}`;
    const clip = win.navigator.clipboard;
    if (clip && clip.writeText) clip.writeText(url).catch(() => {});
    $('copy').textContent = 'Link copied';
    win.setTimeout(() => { $('copy').textContent = 'Copy the fleet link'; }, 2000);
  });

  // "Compare with…" (issue 35, docs/compare.md §6): the comparison of the run on show with
  // itself (a fleet compare link whose keys are this run's), which compare mode opens; the
  // element, which has no compare mode on its host page, opens it on Retry Lab's page.
  $('compare').addEventListener('click', () => {
    if (!shown) return;
    const hash = ['#v=1', 'view=compare', 'of=fleet', ...linkNow().split('&').slice(2)].join('&');
    if (address) win.location.hash = hash;
    else win.open(`${linkBase ? linkBase() : win.location.href.split('#')[0]}${hash}`, '_blank', 'noopener');
  });

  // The fleet link in the address as { request, note }: `request` null when the link is refused
  // whole (a workload the view does not draw), and the note then says the run on show stays.
  function linkRequest() {
    const { request: linked, problems, refused } = parseFleetLink(win.location.hash, table);
    const said = problems.map((p) => `${p.key}=${p.value} ${p.reason}`).join('; ');
    const occ = whole ? ' The AWS 2015 reproduction below runs the occ workload.' : '';
    if (refused) return { request: null, note: `The fleet link was not run: ${said}.${occ} ${shown ? `The run on show is ${shownName()}.` : 'The opening fleet run is on show.'}` };
    return { request: linked, note: problems.length ? `Parts of the fleet link were not used: ${said}.` : '' };
  }
  function readLink() {
    const { request: linked, note } = linkRequest();
    linkNote = note;
    showError('');
    if (!pending) $('pending').hidden = true; // a line left by Stop: this link is the news now
    if (linked) compute(linked, { linked: true });
  }
  const onHash = () => {
    if (table && isFleetLink(win.location.hash)) readLink();
  };
  if (address) win.addEventListener('hashchange', onHash);

  // The field table first (the fleet engine's fleetSchema()), then the opening run, then a
  // fleet link's run (or the `initial` request's): a link that cannot run leaves the opening
  // run on show. While the opening run computes for a link, the section already says it is
  // computing the link's run (expect()): the opening run is drawn behind that, never as the link's.
  const settledNow = (start) => {
    const p = new Promise((resolve) => {
      settleWaiters.push(resolve);
      start();
      if (!busy) resolve(); // nothing was started (a request refused before it runs)
    });
    return p;
  };
  let first = null; // the request from outside, { request, note }
  const ready = computer.schema().then((schema) => {
    table = fleetTable(schema);
    openingEcho = table.opening;
    buildControls();
    first = linkAtStart ? linkRequest() : initial ? initial(table) : null;
    if (first) showNote(first.note);
    const waits = Boolean(first && first.request && Object.keys(first.request).length && !undrawnWorkload(first.request));
    if (!waits) first = null;
    if (waits) expect(first.request);
    return settledNow(() => compute({}, { behind: waits }));
  }).then(() => {
    if (first && pending && pending.request === first.request) return settledNow(() => compute(first.request, { linked: true }));
    return null;
  }).catch((error) => {
    verdictBox.textContent = 'The fleet could not be computed here.';
    showError(`The fleet engine could not run here (${error.message}).`);
  });

  // A request from outside (<retry-lab view="fleet">'s attributes), with what of it was not used.
  function showNote(note) {
    linkNote = note || '';
    showError('');
  }
  function showRequest(req, note) {
    showNote(note);
    compute(req, { linked: true });
  }

  // --- the stability maps: their own bundle (stability.js), loaded as the reader nears them, then
  // the reproductions below, one after another. -----------------------------------------------

  let stability = null; // a promise of mountStability()'s answer, once the map's bundle is asked for
  let mapObserver = null;
  const mapHost = {
    prefix: P,
    computer: () => fleetComputer(win, { engineUrl, bundleUrl, mainEngine }),
    shown: () => ({ request, echo: shown.result.request }),
    // A cell's run (issue 35): the storm brought into view under the map, the keys left on the cell.
    open: (req, cell) => {
      compute(req, { fromReader: true });
      if (!cell) return;
      bringNear(cell, $('map'));
      cell.focus({ preventScroll: true });
    },
    linkOf: (req) => `#${encodeFleetLink(req)}`,
    linkBase: () => (linkBase ? linkBase() : win.location.href.split('#')[0]),
  };
  function loadMap() {
    if (mapObserver) mapObserver.disconnect();
    if (!stability) {
      stability = loadBundle(doc, 'retrylab-fleet-map.js', 'RetryLabFleetMapCode', { style: 'retrylab-fleet-map.css' })
        .then(({ mountStability }) => mountStability($('stability'), mapHost));
      stability.then((s) => {
        s.run(/(^#|&)map=/.test(win.location.hash) ? request : {});
        return s.map();
      }).catch((error) => {
        $('stability').textContent = `The stability map could not load here (${error.message}).`;
      }).then(runAws);
    }
    return stability;
  }
  function nearMap() {
    if (typeof win.IntersectionObserver !== 'function' || /(^#|&)map=/.test(win.location.hash)) return loadMap();
    mapObserver = new win.IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) loadMap();
    }, { rootMargin: '100% 0px 100% 0px' });
    mapObserver.observe($('map-box'));
    return null;
  }

  // --- the AWS 2015 reproduction: two workers of its own, so the controls above stay quick -----

  const aws = { points: new Map(), ms: null, started: null, complete: false };
  const awsTotal = CLIENTS.length * STRATEGIES.length;
  let awsFrame = 0;
  let awsWaiters = [];
  function drawAws() {
    awsFrame = 0;
    patch($('aws-writes'), awsPanel(aws.points, 'writes', { id: id('aws-w'), title: 'Writes against clients, five strategies, with the peer’s means', unit: 'writes' }));
    patch($('aws-time'), awsPanel(aws.points, 'makespanMs', { id: id('aws-t'), title: 'Completion time against clients, five strategies, with the peer’s means', unit: 'ms' }));
    const when = aws.complete ? ` Computed in ${(aws.ms / 1000).toFixed(2)} s, in two workers.` : ' Computing…';
    $('aws-status').textContent = `${awsSummary(aws.points, awsTotal)}${when}`;
    drawAwsTable();
  }
  const drawAwsTable = lazyTable('aws-table', () => h('table', { class: 'fl-table' },
    h('caption', {}, 'Means over 100 runs, here and in the peer’s simulator'),
    h('thead', {}, h('tr', {}, ...AWS_COLUMNS.map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, ...awsTableRows(aws.points).map((r) => h('tr', {}, h('th', { scope: 'row' }, r[0]), ...r.slice(1).map((c) => h('td', {}, c)))))));
  const scheduleAws = () => {
    if (!awsFrame) awsFrame = win.requestAnimationFrame(drawAws);
  };
  // A list of requests over `workers` workers of their own (interleaved, so each gets large
  // and small ones): onResult(item, result) as each arrives, then onDone(), or onError(message).
  function sweep(items, workers, { onResult, onDone, onError }) {
    const parts = Array.from({ length: workers }, (_, w) => items.filter((_, i) => i % workers === w));
    let left = parts.length;
    for (const part of parts) {
      const c = fleetComputer(win, { engineUrl, bundleUrl, mainEngine });
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

  function runAws() {
    patch($('aws-legend'), awsLegend());
    aws.started = win.performance.now();
    const failed = (message) => { $('aws-status').textContent = `The reproduction could not run here (${message}).`; };
    sweep(aws2015Requests(), 2, {
      onResult(item, result) {
        if (result.ok) aws.points.set(`${item.strategy}:${item.clients}`, result.mean);
        else failed(result.errors.map((e) => e.message).join(' '));
        scheduleAws();
      },
      onDone() {
        aws.complete = true;
        aws.ms = win.performance.now() - aws.started;
        scheduleAws();
        const waiters = awsWaiters;
        awsWaiters = [];
        for (const w of waiters) w();
        runBrooker();
      },
      onError: failed,
    });
    scheduleAws();
  }
  // The reproductions' figures as CSV: what is computed so far, beside the published figures.
  if (whole) {
    $('aws-csv').addEventListener('click', () => download(doc, 'retry-lab-fleet-aws-2015-occ-10-190-clients-5-strategies.csv', 'text/csv', awsCsv(aws.points)));
    $('bk-csv').addEventListener('click', () => download(doc, 'retry-lab-fleet-brooker-2022-token-bucket-failure-rates.csv', 'text/csv', brookerCsv(bk.points)));
    $('col-csv').addEventListener('click', () => download(doc, 'retry-lab-fleet-brooker-collapse-spike-40-per-s.csv', 'text/csv', collapseCsv(col.results)));
  }
  // The map first (it follows the story), then the reproductions, one after another.
  if (whole) ready.then(() => shown && nearMap());

  // --- Brooker 2022, once AWS 2015 is done (one worker) -----------------------------------------

  const bk = { points: new Map(), ms: null, complete: false, total: 0 };
  let bkFrame = 0;
  let bkWaiters = [];
  function drawBrooker() {
    bkFrame = 0;
    const [success, load, clients] = brookerPanels(bk.points, id('bk'));
    patch($('bk-success'), success);
    patch($('bk-load'), load);
    patch($('bk-clients'), clients);
    $('bk-status').textContent = bk.complete ? `All ${bk.total} runs computed in ${(bk.ms / 1000).toFixed(2)} s.` : `${bk.points.size} of ${bk.total} runs computed…`;
    drawBrookerTable();
  }
  const drawBrookerTable = lazyTable('bk-table', () => h('table', { class: 'fl-table' },
    h('caption', {}, 'Success and load (attempts per request), here and in his simulator'),
    h('thead', {}, h('tr', {}, ...BROOKER_COLUMNS.map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, ...brookerTableRows(bk.points).map((r) => h('tr', {}, h('th', { scope: 'row' }, r[0]), ...r.slice(1).map((c) => h('td', {}, c)))))));
  const scheduleBrooker = () => {
    if (!bkFrame) bkFrame = win.requestAnimationFrame(drawBrooker);
  };
  function runBrooker() {
    const [a, b] = brookerLegends();
    patch($('bk-legend'), a, b);
    const items = brookerRequests();
    bk.total = items.length;
    const started = win.performance.now();
    const failed = (message) => { $('bk-status').textContent = `The reproduction could not run here (${message}).`; };
    sweep(items, 1, {
      onResult(item, result) {
        if (result.ok) bk.points.set(item.key, result.totals);
        else failed(result.errors.map((e) => e.message).join(' '));
        scheduleBrooker();
      },
      onDone() {
        bk.complete = true;
        bk.ms = win.performance.now() - started;
        scheduleBrooker();
        const waiters = bkWaiters;
        bkWaiters = [];
        for (const w of waiters) w();
        runCollapse();
      },
      onError: failed,
    });
    scheduleBrooker();
  }

  // --- Brooker's collapse, last (one worker) --------------------------------------------------

  const col = { results: [], complete: false };
  let colWaiters = [];
  function drawCollapse() {
    patch($('col-chart'), collapsePanel(col.results, id('col')));
    $('col-status').textContent = col.complete ? collapseWords(col.results) : 'Computing…';
  }
  // --- hedging, after the collapse (one worker) ---------------------------------------------

  const hg = { results: [], complete: false };
  let hgWaiters = [];
  const drawHedgingTable = lazyTable('hg-table', () => h('table', { class: 'fl-table' },
    h('thead', {}, h('tr', {}, ...HEDGING_COLUMNS.map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, ...hedgingRows(hg.results).map((r) => h('tr', {}, h('th', { scope: 'row' }, r[0]), ...r.slice(1).map((c) => h('td', {}, c)))))));
  function drawHedging() {
    if (!$('hg-chart')) return;
    patch($('hg-chart'), hedgingChart(hg.results, id('hg')));
    $('hg-status').textContent = hg.complete ? hedgingWords(hg.results) : 'Computing…';
    drawHedgingTable();
  }
  function runHedging() {
    if (!$('hg-chart')) return;
    const failed = (message) => { $('hg-status').textContent = `The figure could not run here (${message}).`; };
    sweep(HEDGING_RUNS.map((run, i) => ({ index: i, request: run.request })), 1, {
      onResult(item, result) {
        if (result.ok) hg.results[item.index] = result;
        else failed(result.errors.map((e) => e.message).join(' '));
        drawHedging();
      },
      onDone() {
        hg.complete = true;
        drawHedging();
        const waiters = hgWaiters;
        hgWaiters = [];
        for (const w of waiters) w();
      },
      onError: failed,
    });
    drawHedging();
  }

  function runCollapse() {
    patch($('col-legend'), collapseLegend());
    const failed = (message) => { $('col-status').textContent = `The reproduction could not run here (${message}).`; };
    sweep(COLLAPSE_RUNS.map((run, i) => ({ index: i, request: run.request })), 1, {
      onResult(item, result) {
        if (result.ok) col.results[item.index] = result;
        else failed(result.errors.map((e) => e.message).join(' '));
        drawCollapse();
      },
      onDone() {
        col.complete = true;
        drawCollapse();
        const waiters = colWaiters;
        colWaiters = [];
        for (const w of waiters) w();
        runHedging();
      },
      onError: failed,
    });
    drawCollapse();
  }

  return {
    ready,
    // The stability maps (stability.js), loading them if they are not yet.
    map: () => loadMap().then((m) => m.map()),
    stability: () => loadMap(),
    collapse: () => (loadMap(), col.complete ? Promise.resolve() : new Promise((resolve) => colWaiters.push(resolve))).then(() => ({
      onset: col.results[0] ? collapseOnset(col.results[0]) : null,
      totals: col.results.map((r) => r && { requests: r.totals.requests, succeeded: r.totals.succeeded }),
    })),
    // Hedging's figure (issue 34): resolves with its two runs' totals and the words once both are in.
    hedging: () => (loadMap(), hg.complete ? Promise.resolve() : new Promise((resolve) => hgWaiters.push(resolve))).then(() => ({
      totals: hg.results.map((r) => r && r.totals), requests: hg.results.map((r) => r && r.request), words: hedgingWords(hg.results),
    })),
    // The AWS 2015 reproduction: resolves with its points and time once all are computed.
    brooker: () => (loadMap(), bk.complete ? Promise.resolve() : new Promise((resolve) => bkWaiters.push(resolve))).then(() => ({ points: Object.fromEntries(bk.points), ms: bk.ms })),
    aws: () => (loadMap(), aws.complete ? Promise.resolve() : new Promise((resolve) => awsWaiters.push(resolve))).then(() => ({ points: Object.fromEntries(aws.points), ms: aws.ms })),
    // Resolves once no computation is pending.
    settled: () => (!busy ? Promise.resolve() : new Promise((resolve) => settleWaiters.push(resolve))),
    // Whether the section's computer still has a job (a stopped or replaced one has none).
    working: () => computer.busy(),
    state: () => (shown ? { request: shown.request, result: shown.result, withKey: shown.withKey, verdict: verdictOf(shown.result), ghost: Boolean(shown.ghost) } : null),
    load: (req) => compute(req, { fromReader: true }),
    // The run the section is computing, while it is: { request, linked, index, ms }, else null.
    pending: () => (pending ? { request: pending.request, linked: pending.linked, index: pending.index, ms: win.performance.now() - pending.startedAt, shownAs: root.dataset.computing || null } : null),
    // For <retry-lab view="fleet">: the table (once ready), a request with its note, a note alone.
    table: () => table,
    show: (req, note = '') => showRequest(req, note),
    note: showNote,
    destroy() {
      win.removeEventListener('hashchange', onHash);
      for (const type of ['wheel', 'touchstart']) win.removeEventListener(type, readerScrolls);
      win.clearInterval(tick);
      win.clearTimeout(progressTimer);
      computer.destroy();
      if (stability) stability.then((m) => m.destroy(), () => {});
      if (mapObserver) mapObserver.disconnect();
    },
    link: () => (shown ? linkNow() : null),
    where: () => computer.where(),
  };
}
