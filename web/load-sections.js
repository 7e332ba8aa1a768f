// The sections below the article (the policy traces, the client lab, the layers) come in a second
// bundle and stylesheet, retrylab-sections.js and .css beside the page's own bundle, loaded
// once, when the first of these happens:
//   - the reader scrolls within about a screen and a half of either section;
//   - the page opens on, or the reader follows, #traces or #clients, or a link that names a
//     trace (main.js asks before it reads the link);
//   - keyboard focus enters the article above them or either section (a reader tabbing down
//     the page, whose focus would otherwise pass them by before they arrive);
//   - the reader prints (the browser lays out the print as it is at that moment, so a print
//     before they have arrived leaves them out and says nothing of loading, print.css; the
//     next one has them);
//   - someone calls window.retryLabSections.load() (the console, the tests).
// Until then each section shows its prose and "Loading…"; if the bundle cannot load, a
// message says so in each section and the experiment above carries on.
//
// A keyboard reader can still tab past the article before the bundle has arrived (a slow
// network, a slow machine, a fast hand), so each "Loading…" is a stop in the tab order while
// it waits. Focus resting on it when the section arrives moves to the section's first
// control (to its failure message if it could not load): the reader stays where they were,
// rather than falling back to the top of the page when the placeholder goes.

import { loadBundle } from './bundles.js';
import { failureNote } from './dom.js';

const CODE = 'retrylab-sections.js';
const STYLE = 'retrylab-sections.css';
const SECTION_IDS = ['traces', 'clients', 'layers'];

function showFailure(box, message) {
  const p = failureNote(box.ownerDocument, `This section could not load (${message}). The experiment above still works.`);
  p.tabIndex = -1; // so that focus waiting on the placeholder can stay here
  box.replaceChildren(p);
}

const TABBABLE = 'a[href], button, input, select, textarea, summary, [tabindex]';

// The first element in `box` that Tab would reach, or null.
function firstTabbable(box) {
  for (const el of box.querySelectorAll(TABBABLE)) {
    if (el.tabIndex < 0 || el.disabled || !el.getClientRects().length) continue;
    return el;
  }
  return null;
}

// One on-demand bundle: its boxes (each with a "Loading…" placeholder), the sections that hold
// them (watched for the reader's approach, their ids for the address), where focus coming
// down the page announces them, the files and the global they define, and the class the
// page's root gets when they are in (`<flag>-ready`) or could not load (`<flag>-failed`).
// `needs()`: a promise of what the bundle needs besides its files (the page's engine, main.js).
function onDemand(doc, { boxes, sections, approaches, ids, code, style, globalName, flag, needs = null }, mount) {
  const win = doc.defaultView;
  let pending = null;
  let done = false;
  let observer = null;
  for (const box of boxes) {
    // Hidden in the HTML, so that a page without JavaScript never says "Loading…" (its
    // <noscript> says what is missing instead).
    const waiting = box.querySelector('.rl-loading');
    if (waiting) Object.assign(waiting, { hidden: false, tabIndex: 0 });
  }
  // The box whose placeholder holds focus as it is replaced, and where focus goes then.
  const focusedBox = () => boxes.find((box) => box.contains(doc.activeElement)) || null;
  function keepFocus(box, fallback) {
    if (!box || box.contains(doc.activeElement)) return;
    const target = firstTabbable(box) || fallback;
    if (target) target.focus({ preventScroll: true });
  }
  // The address names one of the sections (#traces, #clients, #fleet).
  const wantedByAddress = () => ids.includes(win.location.hash.slice(1));

  function stopWatching() {
    if (observer) observer.disconnect();
    observer = null;
    win.removeEventListener('hashchange', onHash);
    win.removeEventListener('beforeprint', load);
    for (const el of approaches) el.removeEventListener('focusin', load);
  }

  let waited = null; // the box whose placeholder held focus when the bundle arrived
  function load() {
    if (pending) return pending;
    stopWatching();
    if (!boxes.length) {
      done = true;
      pending = Promise.resolve(null);
      return pending;
    }
    pending = Promise.all([loadBundle(doc, code, globalName, { style }), needs && needs()])
      .then(([exports]) => {
        waited = focusedBox();
        return mount(exports); // may be a promise: the sections mounted one task each (main.js)
      })
      .then((offered) => {
        done = true;
        doc.documentElement.classList.add(`${flag}-ready`);
        keepFocus(waited, null);
        return offered;
      })
      .catch((error) => {
        waited = waited || focusedBox(); // mount() may have thrown after replacing the placeholder
        for (const box of boxes) showFailure(box, error.message);
        keepFocus(waited, waited && waited.querySelector('.rl-failure'));
        doc.documentElement.classList.add(`${flag}-failed`);
        throw error;
      });
    pending.catch(() => {}); // the failure is on the page; callers who await still see it
    return pending;
  }

  function onHash() {
    if (wantedByAddress()) load();
  }

  if (boxes.length) {
    if (typeof win.IntersectionObserver === 'function') {
      // A screen and a half ahead: loaded and drawn before the reader gets there.
      observer = new win.IntersectionObserver((entries) => {
        if (entries.some((e) => e.isIntersecting)) load();
      }, { rootMargin: '150% 0px 150% 0px' });
      for (const section of sections.length ? sections : boxes) observer.observe(section);
    } else {
      win.setTimeout(load, 0); // no way to tell where the reader is: load now
    }
    win.addEventListener('hashchange', onHash);
    win.addEventListener('beforeprint', load);
    for (const el of approaches) el.addEventListener('focusin', load);
  }

  return { load, loaded: () => done, wantedByAddress };
}

const byIds = (doc, ids) => ids.map((name) => doc.getElementById(name)).filter(Boolean);

// mount(code) mounts the sections with the bundle's exports and returns what they offer.
// Returns { load(): Promise, loaded(): boolean, wantedByAddress(): boolean }.
// It also starts the fleet section's own loader (fleetLoader below), the third bundle.
export function sectionLoader(doc, mount, { needs = null } = {}) {
  const sections = byIds(doc, SECTION_IDS);
  const loader = onDemand(doc, {
    boxes: [doc.querySelector('[data-retry-traces]'), doc.querySelector('[data-client-lab]'), doc.querySelector('[data-layers]')].filter(Boolean),
    sections,
    approaches: [...doc.querySelectorAll('article'), ...sections],
    ids: SECTION_IDS,
    code: CODE,
    style: STYLE,
    globalName: 'RetryLabSectionCode',
    flag: 'rl-sections',
    needs,
  }, mount);
  fleetLoader(doc);
  return loader;
}

// The fleet section ("Many callers, one server", web/fleet/): its own bundle,
// retrylab-fleet-section.js and .css, loaded as the sections' is — near it, on #fleet or a
// fleet link (`#v=1&view=fleet&…`), on focus entering the client lab, the layers or the section, on print,
// or by window.retryLabFleetSection.load(). The section itself is window.retryLabFleet.
export function fleetLoader(doc) {
  const win = doc.defaultView;
  const box = doc.querySelector('[data-fleet]');
  const sections = byIds(doc, ['fleet']);
  const loader = onDemand(doc, {
    boxes: box ? [box] : [],
    sections,
    approaches: [...byIds(doc, ['clients', 'layers']), ...sections],
    ids: ['fleet'],
    code: 'retrylab-fleet-section.js',
    style: 'retrylab-fleet-section.css',
    globalName: 'RetryLabFleetCode',
    flag: 'rl-fleet',
  }, ({ mountFleet }) => (win.retryLabFleet = mountFleet(box)));
  win.retryLabFleetSection = { load: loader.load, loaded: loader.loaded };
  // A fleet link opens on the section: in embed.html, instead of the experiment.
  if (box && /(^#|&)view=fleet(&|$)/.test(win.location.hash)) {
    const view = doc.querySelector('[data-fleet-view]');
    const single = doc.querySelector('[data-retry-lab]');
    if (view && single) {
      view.hidden = false;
      single.hidden = true;
    }
    loader.load().then(() => (sections[0] || box).scrollIntoView(), () => {});
  }
  return loader;
}
