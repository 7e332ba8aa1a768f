// "Many callers, one server": the fleet section at the end of the article. It runs the
// opening fleet run (FLEET.md §3's defaults) in a worker (compute.js), draws the storm over
// time (chart.js) with its verdict and its side effects (model.js), and recomputes at once as
// the reader changes what stops it: retries, backoff and jitter, the server's stale-work
// rules and queue order, the gates of FLEET.md §5 (presets.js), the slowdown, the load. The
// request is in the address as a fleet link (`#v=1&view=fleet&…`).
//
// The section is small pieces over one state (`ctx.s`), each mounted on its part of the frame
// (frame.js) and drawing from that state: the figure (storm.js), the storm near the reader's
// change (near.js), the runs and their computing state (computing.js), the controls
// (controls.js, switches.js, said.js), the address (address.js), the figure's doors
// (doors.js), the stability map's door (map-door.js) and the reproductions (repros.js).

import { latch } from '../latch.js';
import { fleetTable, isFleetLink, undrawnWorkload, verdictOf } from './model.js';
import { fleetComputer } from './compute.js';
import { fleetPresets } from './presets.js';
import { announcer } from './announce.js';
import { fleetFrame } from './frame.js';
import { mountStorm } from './storm.js';
import { mountNear } from './near.js';
import { mountComputing } from './computing.js';
import { mountControls } from './controls.js';
import { mountAddress } from './address.js';
import { mountDoors } from './doors.js';
import { mountMapDoor } from './map-door.js';
import { mountRepros } from './repros.js';
import { mountServers } from './servers-view.js';

const P = 'fl-'; // the section's id prefix
const id = (name) => `${P}${name}`;

// The section's one state: the table, the opening run, the reader's request (as its
// differences from the opening run), the run on show, the chart's cursor, the run computing.
const newState = () => ({
  table: null, // fleetTable(): the fleet engine's fleetSchema(), asked of the worker first
  opening: null, // the opening fleet run's request: the table's defaults
  request: {}, // the reader's request, as its differences from the opening run
  shown: null, // { request, result, withKey, series, ghost, before, by }
  cursor: null,
  // The run the section is waiting for, while it computes: { request, linked, startedAt, index }
  // (`linked`: a request from outside, a fleet link or the element's attributes; `index` the
  // request of the job being computed: -1 the opening run first, 0 without a key, 1 with one).
  pending: null,
  busy: false, // the newest computation has not reported yet
  stale: false, // the figure shows a run other than the one the section computes
  interacted: false, // the address is rewritten only after the reader has changed something
  linkNote: '', // what a fleet link had that was not used, until the reader changes something
});

// The field table first (the fleet engine's fleetSchema()), then the opening run, then a
// fleet link's run (or the `initial` request's): a link that cannot run leaves the opening
// run on show. While the opening run computes for a link, the section already says it is
// computing the link's run (expect()): the opening run is drawn behind that, never as the link's.
function opening(ctx, { linkAtStart, initial }) {
  const { s } = ctx;
  const settledNow = (start) => {
    const p = ctx.settle.wait();
    start();
    return s.busy ? p : Promise.resolve(); // nothing was started (a request refused before it runs)
  };
  let first = null; // the request from outside, { request, note }
  return ctx.computer.schema().then((schema) => {
    s.table = fleetTable(schema);
    s.opening = s.table.opening;
    ctx.controls.build();
    first = linkAtStart ? ctx.link.request() : initial ? initial(s.table) : null;
    if (first) ctx.note(first.note);
    const waits = Boolean(first && first.request && Object.keys(first.request).length && !undrawnWorkload(first.request));
    if (!waits) first = null;
    if (waits) ctx.run.expect(first.request);
    return settledNow(() => ctx.run.compute({}, { behind: waits }));
  }).then(() => {
    if (first && s.pending && s.pending.request === first.request) return settledNow(() => ctx.run.compute(first.request, { linked: true }));
    return null;
  }).catch((error) => {
    ctx.$('verdict').textContent = 'The fleet could not be computed here.';
    ctx.showError(`The fleet engine could not run here (${error.message}).`);
  });
}

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
  const engine = { engineUrl, bundleUrl, mainEngine };
  const computer = fleetComputer(win, engine);
  const whole = parts !== 'view';
  const presets = fleetPresets();
  const linkAtStart = address && isFleetLink(win.location.hash);
  root.replaceChildren(fleetFrame(doc, { id, whole, linkAtStart, presets }));

  const s = newState();
  const $ = (name) => root.querySelector(`#${id(name)}`);
  const errorBox = $('error');
  const ctx = {
    doc, win, root, id, $, s, engine, computer, whole, address, fieldName, linkBase, presets,
    settle: latch(), // released as each computation reports (settled())
    say: announcer(root), // the section's one polite live region (announce.js)
    showError(text) {
      const all = [s.linkNote, text].filter(Boolean).join(' ');
      errorBox.hidden = !all;
      errorBox.textContent = all;
    },
    // A request from outside (<retry-lab view="fleet">'s attributes), with what of it was not used.
    note(note) {
      s.linkNote = note || '';
      ctx.showError('');
    },
  };
  ctx.storm = mountStorm(ctx);
  ctx.servers = mountServers(ctx);
  ctx.near = mountNear(ctx);
  ctx.run = mountComputing(ctx);
  ctx.controls = mountControls(ctx);
  ctx.link = mountAddress(ctx);
  mountDoors(ctx);
  const repros = whole ? mountRepros(ctx) : null;
  // The reproductions start once the map is done and they are wanted: the reader near them, or
  // a caller asking for their figures (about 15 s of CPU in two workers a reader who never
  // scrolls there does not pay).
  let mapDone = false;
  let wanted = false;
  const startRepros = () => { if (mapDone && wanted) repros.start(); };
  const map = mountMapDoor(ctx, () => {
    mapDone = true;
    startRepros();
    repros.near(() => {
      wanted = true;
      startRepros();
    });
  });
  ctx.map = map;
  const ready = opening(ctx, { linkAtStart, initial });
  // The map first (it follows the story), then the reproductions, one after another.
  if (whole) ready.then(() => s.shown && map.near());
  // (In the element's view, which has none, a promise that never resolves.)
  const after = (what) => () => {
    if (!repros) return new Promise(() => {});
    map.load();
    wanted = true;
    startRepros();
    return repros[what]();
  };

  return {
    ready,
    // The stability maps (stability.js), loading them if they are not yet.
    map: () => map.load().then((m) => m.map()),
    stability: () => map.load(),
    // The reproductions (repros.js): each resolves with its figures once all are computed.
    collapse: after('collapse'),
    hedging: after('hedging'),
    brooker: after('brooker'),
    aws: after('aws'),
    // Resolves once no computation is pending.
    settled: () => (!s.busy ? Promise.resolve() : ctx.settle.wait()),
    // Resolves once the section's last look after a change is done (near.js): the storm brought
    // into view where the reader acted, its later check run, any smooth scroll it began ended.
    looked: () => ctx.near.looked(),
    // Whether the section's computer still has a job (a stopped or replaced one has none).
    working: () => computer.busy(),
    state: () => (s.shown ? { request: s.shown.request, result: s.shown.result, withKey: s.shown.withKey, verdict: verdictOf(s.shown.result), ghost: Boolean(s.shown.ghost) } : null),
    load: (req) => ctx.run.compute(req, { fromReader: true }),
    // The run the section is computing, while it is: { request, linked, index, ms }, else null.
    pending: () => (s.pending ? { request: s.pending.request, linked: s.pending.linked, index: s.pending.index, ms: win.performance.now() - s.pending.startedAt, shownAs: root.dataset.computing || null } : null),
    // For <retry-lab view="fleet">: the table (once ready), a request with its note, a note alone.
    table: () => s.table,
    show: (req, note = '') => {
      ctx.note(note);
      ctx.run.compute(req, { linked: true });
    },
    note: ctx.note,
    destroy() {
      ctx.link.destroy();
      ctx.near.destroy();
      ctx.run.destroy();
      computer.destroy();
      map.destroy();
    },
    link: () => (s.shown ? ctx.link.now() : null),
    where: () => computer.where(),
  };
}
