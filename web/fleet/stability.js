// The stability maps on the page (docs/metastability.md §4), in a bundle of their own
// (retrylab-fleet-map.js) that the fleet section loads when the reader nears the map: two maps
// of seeded engine runs computed in two workers and drawn as they arrive, the closed-form lines
// over them (closed.js), a cell opening its run in the storm chart above, seeds as a control,
// downloads, a link that opens a map with its axes, and the published thresholds reproduced
// (literature.js).

import { h, patch, toMarkup } from '../dom.js';
import { download } from '../export/download.js';
import { MAPS, SEED_CHOICES, cellVerdict, cellWords, mapCells, mapCsv, mapKey, mapLines, mapSvg, mapView, markedCell } from './map.js';
import { fluidEdgeSteps, fluidUnfit, stormEdge } from './closed.js';
import { mountLiterature } from './literature.js';
import { latch } from '../latch.js';

const seconds = (ms) => `${Math.round(ms / 10) / 100} s`;

// The map's axes and seeds as link keys (`map=load&seeds=3`), beside a fleet link's own.
// A request as text with its keys in order, so that two equal requests compare equal.
const canonical = (v) => (v && typeof v === 'object' && !Array.isArray(v)
  ? `{${Object.keys(v).sort().filter((k) => v[k] !== undefined).map((k) => `${k}:${canonical(v[k])}`).join(',')}}`
  : Array.isArray(v) ? `[${v.map(canonical).join(',')}]` : JSON.stringify(v));

export function mapLinkKeys(hash) {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  const pairs = new Map(text.split('&').map((p) => p.split('=')));
  const kind = MAPS[pairs.get('map')] ? pairs.get('map') : null;
  const seeds = Number(pairs.get('seeds'));
  return { kind, seeds: SEED_CHOICES.includes(seeds) ? seeds : null };
}

// The map's part: its kind and seeds, its status, key, cells, lines, readout and doors, and the
// literature's box (literature.js).
function mapFrame(id, state) {
  const choice = (name, label, options, value) => h('span', { class: 'fl-control' },
    h('label', { for: id(name) }, label),
    h('select', { id: id(name) }, ...options.map(([v, words]) => h('option', { value: v, selected: String(v) === String(value) ? '' : null }, words))));
  return [
    h('div', { class: 'fl-map-part' }, h('div', { class: 'fl-map-controls' },
      choice('map-kind', 'Map', Object.values(MAPS).map((m) => [m.key, m.title]), state.kind),
      choice('map-seeds', 'Seeds per cell', SEED_CHOICES.map((s) => [s, s === 1 ? '1 (the run’s own)' : `${s} (the run’s and the next ${s - 1})`]), state.seeds)),
    // Progress and the cell under the pointer are text, not live regions (issue 35 item 10): a
    // cell with the focus is named by its own words, and a cell opened is said by the section.
    h('p', { id: id('map-status') }, 'Computing the map…'),
    // The key before the cells (issue 35 item 9): read first, and above the map on a phone.
    mapKey(),
    h('div', { id: id('map'), class: 'fl-scroll-x' }),
    h('p', { id: id('map-lines'), class: 'fl-map-lines-text' }),
    h('p', { id: id('map-readout'), class: 'fl-readout' }),
    h('p', { class: 'fl-exports' },
      h('button', { type: 'button', id: id('map-again') }, 'Map the settings above instead'),
      h('button', { type: 'button', id: id('map-csv') }, 'Download the cells (CSV)'),
      h('button', { type: 'button', id: id('map-svg') }, 'Download the map with its lines (SVG)'),
      h('button', { type: 'button', id: id('map-link') }, 'Copy the map’s link'))),
    h('div', { id: id('lit') })];
}

// The engine's edge in a row of the trigger map: the longest slowdown every seed survives and
// the shortest every seed stays down after, from the cells computed.
function engineEdge(state, row) {
  const m = MAPS.trigger;
  let up = null;
  let down = null;
  m.cols.forEach((c, col) => {
    const v = state.verdicts.get(`${row}:${col}`);
    if (!v) return;
    if ((v.kind === 'rode-out' || v.kind === 'recovered') && down === null) up = c;
    if (v.kind === 'metastable' && down === null) down = c;
  });
  return { up, down };
}

// Which run the storm chart shows, said first: the map's own run, one of its cells, or another.
function shownWords(state) {
  const m = MAPS[state.kind];
  const sh = state.shown;
  if (sh.kind === 'cell') {
    const v = state.verdicts.get(`${sh.cell.row}:${sh.cell.col}`);
    return `The storm chart shows the cell of ${m.words(sh.cell.r, sh.cell.c)} (marked ●)${v && v.kind !== 'pending' ? `: ${v.words}` : ''}.`;
  }
  if (sh.kind === 'other') return 'The storm chart shows a run this map is not of (changed since it was mapped): the cells and lines are the mapped run’s; “Map the settings above instead” maps the one on show.';
  return `The storm chart shows the run this map is of${state.marked ? ' (marked ●)' : ''}.`;
}

// The lines' words: which run is on show, the closed form's band, and the fluid line against the
// engine's edge.
function mapLinesWords(state) {
  const e = stormEdge(state.shown.kind === 'cell' && state.shown.echo ? state.shown.echo : state.echo);
  const parts = [shownWords(state)];
  const which = state.shown.kind === 'cell' ? 'The run on show' : 'The mapped run';
  if (e.why) parts.push(`The bistable band has no closed form here: ${e.why}.`);
  else {
    parts.push(`Closed form (docs/metastability.md §1): the server finishes μ = ${e.capacity} attempts a second; a storm in which every request makes ${e.attempts} attempts sustains itself from ${e.attempts} × λ ≥ μ, that is λ ≥ ${Math.round(e.lower * 100) / 100} requests a second (${Math.round(e.lowerPerClient * 1000) / 1000} per client); below it every storm drains, at μ − ${e.attempts}λ a second. ${which} offers λ = ${e.lambda}: ${e.state === 'bistable' ? 'inside the band, where a trigger decides' : e.state === 'stable' ? 'below the band: no trigger can leave it down for good' : 'at or above capacity: down with or without a trigger'}.`);
  }
  if (state.kind === 'trigger') {
    const unfit = fluidUnfit(state.echo);
    if (unfit) parts.push(`No fluid line: ${unfit}.`);
    else {
      const m = MAPS.trigger;
      const row = m.rows.indexOf(state.echo.trigger.factor) >= 0 ? m.rows.indexOf(state.echo.trigger.factor) : m.rows.indexOf(4);
      const f = m.rows[row];
      const fl = state.fluid.get(f);
      const eng = engineEdge(state, row);
      if (fl) {
        parts.push(`The dashed line is the fluid model (§2): ${fl.lengthMs === null ? `at ×${f}, ${fl.why}` : `at ×${f} its shortest slowdown that stays down is ${seconds(fl.lengthMs)}`}; the engine's cells at ×${f}: ${eng.up === null ? 'none survives' : `${eng.up} s is survived`}, ${eng.down === null ? 'none stays down' : `${eng.down} s stays down`}${state.seeds > 1 ? ` at every one of ${state.seeds} seeds` : ''}. The model has no randomness: the engine's Poisson arrivals put the edge a little either side of it, seed by seed.`);
      } else parts.push('The fluid line is being computed…');
    }
  } else if (!e.why) parts.push('The dashed curve is the lower edge for each number of retries, the dotted line the upper edge (λ = μ). The map’s slowdown is the run’s with its factor raised to at least ×10, so that the slowed server is below nearly every load on the map; just below the curve a storm drains slowly, and may still be draining when new requests stop.');
  return parts.join(' ');
}

// The cells' keys (arrows, Home, End; Enter or Space opens a cell's run), the pointer and a click.
function attachCells(grid, state, { focusCell, openCell }) {
  grid.addEventListener('keydown', (event) => {
    const cell = cellOf(event.target);
    if (!cell) return;
    const m = MAPS[state.kind];
    let [r, c] = [Number(cell.dataset.row), Number(cell.dataset.col)];
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (event.key in moves) {
      r = Math.max(0, Math.min(m.rows.length - 1, r + moves[event.key][0]));
      c = Math.max(0, Math.min(m.cols.length - 1, c + moves[event.key][1]));
    } else if (event.key === 'Home') c = 0;
    else if (event.key === 'End') c = m.cols.length - 1;
    else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      openCell(r, c, cell);
      return;
    } else return;
    event.preventDefault();
    focusCell(r, c);
  });
  grid.addEventListener('pointerover', (event) => {
    const cell = cellOf(event.target);
    if (cell) focusCell(Number(cell.dataset.row), Number(cell.dataset.col), { move: false });
  });
  grid.addEventListener('click', (event) => {
    const cell = cellOf(event.target);
    if (cell) openCell(Number(cell.dataset.row), Number(cell.dataset.col), cell);
  });
}

// The map's status line: its cells so far and their verdicts, and its time once done.
function mapStatus(state) {
  const m = MAPS[state.kind];
  const done = [...state.verdicts.values()].filter((v) => v.kind !== 'pending');
  const count = (k) => done.filter((v) => v.kind === k).length;
  const tally = `${count('rode-out')} rode it out, ${count('recovered')} recovered, ${count('metastable')} stayed down${state.seeds > 1 ? `, ${count('mixed')} changed with the seed` : ''}`;
  return state.complete
    ? `${m.title}: ${state.cells.length} cells × ${state.seeds} seed${state.seeds > 1 ? 's' : ''} in ${(state.ms / 1000).toFixed(2)} s, in two workers. ${tally}.`
    : `Computing the map… ${done.length} of ${state.cells.length} cells (${tally}).`;
}

// The map's cells computed: each seed's request a job, dealt alternately to two workers (so each
// gets light and heavy cells), each result kept and its cell's verdict drawn as it arrives.
// `current()`: this map is still the one asked for.
function computeCells(win, state, computers, host, { current, schedule, settle, fail }) {
  const jobs = [];
  for (const cell of state.cells) cell.requests.forEach((request, s) => jobs.push({ cell, s, request }));
  const parts = [0, 1].map((w) => jobs.filter((_, i) => i % 2 === w));
  let left = parts.length;
  while (computers.length < parts.length) computers.push(host.computer());
  parts.forEach((part, w) => {
    const c = computers[w];
    c.run(part.map((j) => j.request), {
      onResult(index, result) {
        if (!current()) return;
        const { cell, s } = part[index];
        if (state.firstMs === null) state.firstMs = win.performance.now() - state.started;
        state.results.set(`${cell.row}:${cell.col}:${s}`, result);
        state.verdicts.set(`${cell.row}:${cell.col}`, cellVerdict(cell.requests.map((_, k) => state.results.get(`${cell.row}:${cell.col}:${k}`)), state.seeds));
        schedule();
      },
      onDone() {
        if (!current()) return;
        left -= 1;
        if (left) return;
        state.complete = true;
        state.ms = win.performance.now() - state.started;
        schedule();
        settle();
      },
      onError: fail,
    });
  });
}

// The closed-form lines over the map, in its cells' units.
const linesOf = (state) => mapLines(state.kind, { fluid: state.kind === 'trigger' ? state.fluid : null, edge: stormEdge(state.echo), clients: state.echo.clients });

// The map's downloads (its cells as CSV, the map with its lines as SVG) and its link copied:
// { svgText(), mapLink() }.
function attachMapDoors(box, { id, state, host }) {
  const doc = box.ownerDocument;
  const win = doc.defaultView;
  const $ = (name) => box.querySelector(`#${id(name)}`);
  const linesWords = () => mapLinesWords(state);
  const lines = () => linesOf(state);
  const fileName = (ext) => `retry-lab-fleet-stability-map-${state.kind}-${state.seeds}-seed${state.seeds > 1 ? 's' : ''}.${ext}`;
  const svgText = () => {
    const file = mapSvg(state.kind, state.cells, state.verdicts, { title: `${state.seeds} seed${state.seeds > 1 ? 's' : ''} per cell; ${linesWords()}`.slice(0, 400), lines: lines() });
    return `<?xml version="1.0" encoding="UTF-8"?>\n${toMarkup(file)}\n`;
  };
  $('map-csv').addEventListener('click', () => download(doc, fileName('csv'), 'text/csv', mapCsv(state.kind, state.cells, state.results, state.seeds)));
  $('map-svg').addEventListener('click', () => download(doc, fileName('svg'), 'image/svg+xml', svgText()));
  const mapLink = () => `${host.linkBase()}${host.linkOf(state.base)}&map=${state.kind}&seeds=${state.seeds}`;
  $('map-link').addEventListener('click', () => {
    const clip = win.navigator.clipboard;
    if (clip && clip.writeText) clip.writeText(mapLink()).catch(() => {});
    $('map-link').textContent = 'Link copied';
    win.setTimeout(() => { $('map-link').textContent = 'Copy the map’s link'; }, 2000);
  });
  return { svgText, mapLink };
}

// The fluid model's edge for each row of the trigger map, one model run per task; `timer.id`
// the task waiting, `current()` this map still the one asked for.
function runFluid(win, state, timer, { current, schedule, settle }) {
  const rows = MAPS.trigger.rows;
  let i = 0;
  let steps = null;
  const step = () => {
    timer.id = 0;
    if (!current()) return;
    if (!steps) {
      if (i >= rows.length) {
        state.fluidDone = true;
        settle();
        return;
      }
      steps = fluidEdgeSteps(state.echo, rows[i]);
    }
    const { done, value } = steps.next();
    if (done) {
      state.fluid.set(rows[i++], value);
      steps = null;
      schedule();
    }
    timer.id = win.setTimeout(step, 0);
  };
  if (!fluidUnfit(state.echo)) timer.id = win.setTimeout(step, 0);
  else state.fluidDone = true;
}

const cellOf = (el) => el && el.closest && el.closest('td[data-row]');

// box: the element to fill; host: what the fleet section offers —
//   computer(): a new fleetComputer; shown(): { request, echo } of the run on show;
//   open(request, cell): draw a run in the storm chart, `cell` (its element) keeping the focus; linkOf(request): its fleet link (`#v=1&…`);
//   linkBase(): the page the links point at; prefix: the section's id prefix.
export function mountStability(box, host) {
  const doc = box.ownerDocument;
  const win = doc.defaultView;
  const id = (name) => `${host.prefix}${name}`;
  const fromLink = mapLinkKeys(win.location.hash);
  const state = {
    kind: fromLink.kind || 'trigger', seeds: fromLink.seeds || 1, base: {}, echo: null, cells: [], results: new Map(),
    verdicts: new Map(), focus: [0, 0], marked: null, complete: false, fluid: new Map(), fluidDone: false, started: 0, firstMs: null, ms: null,
    // What the storm chart shows against this map (issue 35 item 10: the caption went stale when
    // a cell or a control changed the run on show): { kind: 'base' | 'cell' | 'other', cell, echo }.
    shown: { kind: 'base', cell: null, echo: null }, baseMarked: null,
  };
  let computers = [];
  const mapped = latch(); // map()'s promises, released once the cells and the fluid line are both in
  let frame = 0;
  const fluidTimer = { id: 0 }; // runFluid()'s task waiting
  let generation = 0;

  patch(box, ...mapFrame(id, state));
  const $ = (name) => box.querySelector(`#${id(name)}`);

  function draw() {
    frame = 0;
    patch($('map'), mapView(state.kind, state.cells, state.verdicts, { id: id('map-grid'), focus: state.focus, marked: state.marked, lines: state.echo ? linesOf(state) : [] }));
    $('map-status').textContent = mapStatus(state);
    $('map-lines').textContent = state.echo ? mapLinesWords(state) : '';
  }
  const schedule = () => {
    if (!frame) frame = win.requestAnimationFrame(draw);
  };

  const settle = () => {
    if (state.complete && state.fluidDone) mapped.release();
  };

  // The fluid line's steps stop; the workers stay (a newer job replaces the one they run,
  // compute.js), so a second map does not wait for two workers to start and load the engine.
  function stop() {
    if (fluidTimer.id) win.clearTimeout(fluidTimer.id);
    fluidTimer.id = 0;
  }

  // run(base): map `base` (a request), the run on show being its run; run(): the same again (a
  // change of map or seeds), whatever is on show since.
  function run(base = null) {
    stop();
    const gen = ++generation;
    if (base !== null || !state.echo) {
      state.base = base || {};
      state.echo = host.shown().echo;
    }
    base = state.base;
    const echo = state.echo;
    let mapBase = base;
    if (state.kind === 'load' && echo.trigger && echo.trigger.kind === 'slowdown' && echo.trigger.factor < 10) mapBase = { ...base, trigger: { ...echo.trigger, factor: 10 } };
    state.cells = mapCells(state.kind, mapBase, echo, state.seeds);
    state.results = new Map();
    state.verdicts = new Map();
    // The run on show is a cell only if the map runs its own slowdown (not one raised to ×10).
    state.baseMarked = mapBase === base ? markedCell(state.kind, echo) : null;
    state.marked = state.baseMarked;
    state.shown = { kind: 'base', cell: null, echo };
    if (state.marked) state.focus = state.marked;
    state.complete = false;
    state.fluid = new Map();
    state.fluidDone = false;
    state.started = win.performance.now();
    state.firstMs = null;
    computeCells(win, state, computers, host, {
      current: () => gen === generation,
      schedule,
      settle,
      fail: (message) => { $('map-status').textContent = `The map could not be computed here (${message}).`; },
    });
    if (state.kind === 'trigger') runFluid(win, state, fluidTimer, { current: () => gen === generation, schedule, settle });
    else state.fluidDone = true;
    schedule();
  }

  // --- the keyboard, the pointer, a cell opening its run ---------------------------------------

  function focusCell(r, c, { move = true } = {}) {
    state.focus = [r, c];
    draw();
    const cell = state.cells.find((x) => x.row === r && x.col === c);
    const marked = state.marked && state.marked[0] === r && state.marked[1] === c;
    $('map-readout').textContent = cell ? cellWords(state.kind, cell, state.verdicts.get(`${r}:${c}`) || cellVerdict([], state.seeds), marked) : '';
    if (move) {
      const el = $('map').querySelector(`td[data-row="${r}"][data-col="${c}"]`);
      if (el) el.focus();
    }
  }
  // `el`: the cell's element, which keeps the focus while the run is drawn.
  function openCell(r, c, el) {
    const cell = state.cells.find((x) => x.row === r && x.col === c);
    if (cell) host.open(cell.requests[0], el);
  }
  attachCells($('map'), state, { focusCell, openCell });

  // --- controls, downloads, the link ----------------------------------------------------------

  $('map-kind').addEventListener('change', (e) => {
    state.kind = e.target.value;
    run();
  });
  $('map-seeds').addEventListener('change', (e) => {
    state.seeds = Number(e.target.value);
    run();
  });
  $('map-again').addEventListener('click', () => run(host.shown().request));
  const { svgText, mapLink } = attachMapDoors(box, { id, state, host });

  const literature = mountLiterature($('lit'), { ...host, computer: host.computer });
  if (fromLink.kind) box.scrollIntoView({ block: 'start' });

  // The section tells of each run it shows: the map's own, one of its cells (● moves to it) or
  // another; the caption is redrawn to say which.
  function shownChanged() {
    if (!state.echo) return;
    const { request, echo } = host.shown();
    const key = canonical(request);
    const cell = state.cells.find((x) => canonical(x.requests[0]) === key);
    if (cell) state.shown = { kind: 'cell', cell, echo };
    else state.shown = { kind: canonical(state.base) === key ? 'base' : 'other', cell: null, echo };
    state.marked = cell ? [cell.row, cell.col] : state.shown.kind === 'base' ? state.baseMarked : null;
    schedule();
  }

  return {
    run,
    shownChanged,
    shownWords: () => shownWords(state),
    // Resolves once the map on show is computed: its cells, their verdicts and the lines.
    map: () => (state.complete && state.fluidDone ? Promise.resolve() : mapped.wait()).then(() => ({
      kind: state.kind, seeds: state.seeds, base: state.base, marked: state.marked, ms: state.ms, firstMs: state.firstMs,
      cells: state.cells.map((x) => ({ r: x.r, c: x.c, row: x.row, col: x.col, verdict: state.verdicts.get(`${x.row}:${x.col}`), recoveries: x.requests.map((_, s) => state.results.get(`${x.row}:${x.col}:${s}`).recovery) })),
      fluid: Object.fromEntries(state.fluid), edge: stormEdge(state.echo),
    })),
    csv: () => mapCsv(state.kind, state.cells, state.results, state.seeds),
    svg: svgText,
    link: mapLink,
    literature,
    destroy() {
      stop();
      for (const c of computers) c.destroy();
      literature.destroy();
    },
  };
}
