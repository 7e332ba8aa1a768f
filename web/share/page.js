// Sharing on the page (index.html) and in its iframe form (embed.html): the run in the URL,
// the notice for a link's unusable values, and the Share and export bar. embed.html also
// posts its height to the parent page, from before the engine loads, so that even the
// message saying the engine could not load is shown at its full height.
//
// With the policy traces section (web/traces/, `traces` below: { get(), load() }, since the
// section comes in a second bundle, web/load-sections.js), a link also names the trace
// on show (`trace=B`); for trace F it carries the herd's callers (`herdCallers=50`; the
// herd's seed is the run's own `seed`), and for the reader's own trace its inputs are the
// run's inputs, which go into the editor too.

import { makeIds } from '../views/controls.js';
import { postHeight } from '../embed/height.js';
import { syncLink } from './link.js';
import { attachShareBar, showNotice } from './bar.js';
import { loadBundle } from '../bundles.js';

export const isEmbed = (doc) => doc.documentElement.hasAttribute('data-embed');

export function startEmbedFrame(doc) {
  return isEmbed(doc) ? postHeight(doc.defaultView) : () => {};
}

// The page's own address without its hash; in the embed, the full page beside it.
function linkBase(doc) {
  const win = doc.defaultView;
  const here = win.location.href.split('#')[0];
  return isEmbed(doc) ? new win.URL('index.html', here).href : here;
}

export const PAGE_KEYS = ['trace', 'herdCallers'];
const HERD_TRACE = 'F';
const CUSTOM_TRACE = 'custom';

const sameJson = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// The page's keys for the run on show.
function pageKeysOf(app, traces) {
  const trace = traces ? app.getState().trace : null;
  if (!trace) return {};
  return trace === HERD_TRACE ? { trace, herdCallers: traces.getState().herd.callers } : { trace };
}

// Load a link's accepted inputs, and select its trace when its inputs are that trace's own.
function applyLink(app, traces, inputs, page) {
  const problems = [];
  const said = (key, reason) => problems.push({ key, value: page[key], reason });
  const { trace } = page;
  if ('herdCallers' in page && trace !== HERD_TRACE) said('herdCallers', `is used only with trace=${HERD_TRACE}`);
  if (trace === undefined) {
    app.load(inputs);
    return problems;
  }
  if (!traces) {
    app.load(inputs);
    said('trace', 'names a policy trace, and this page shows none');
    return problems;
  }
  if (!traces.traceIds.includes(trace)) {
    app.load(inputs);
    said('trace', `is not one of this page's traces (${traces.traceIds.join(', ')})`);
    return problems;
  }
  const wanted = app.compute(inputs).inputs;
  if (trace === HERD_TRACE) {
    let callers = traces.getState().herd.callers;
    if ('herdCallers' in page) {
      // The engine judges the number, as the herd's own field does (a 400 is never retried,
      // so asking costs nothing).
      const asked = /^\d+$/.test(page.herdCallers) ? Number(page.herdCallers) : NaN;
      const check = app.compute({ scenario: 'bad-request-400', callers: asked });
      if (check && check.ok) callers = asked;
      else said('herdCallers', check && check.errors ? check.errors.map((e) => e.message).join(' ') : 'is not a number of callers');
    }
    traces.setHerd({ callers, seed: wanted.seed });
  }
  if (trace === CUSTOM_TRACE) {
    const errors = traces.setCustom(inputs);
    if (errors) said('trace', `could not put this run in the trace editor: ${errors.map((e) => e.message).join(' ')}`);
  }
  traces.selectTrace(trace);
  if (!sameJson(app.getState().result.inputs, wanted)) {
    // The run is the link's, whatever it calls itself.
    app.load(inputs);
    said('trace', `is not this run (the link's inputs differ from trace ${trace}'s), so no trace is selected`);
  }
  return problems;
}

// `traces`: null on a page without the traces section; else { get(): the section's API, or
// null until its bundle has arrived; load(): a promise of that API }.
export function attachSharing(doc, root, app, { idPrefix = 'rl-', traces = null } = {}) {
  const id = makeIds(idPrefix);
  const embed = isEmbed(doc);
  const win = doc.defaultView;
  const tracesNow = () => (traces ? traces.get() : null);
  const pageOf = () => pageKeysOf(app, tracesNow());
  // A link that names a trace before the traces have arrived (one followed later, or pasted
  // into the address bar): its run now, and the link read again, trace and all, once they come.
  function apply(inputs, page) {
    const api = tracesNow();
    if (api || !traces || page.trace === undefined) return applyLink(app, api, inputs, page);
    app.load(inputs);
    const hash = win.location.hash;
    traces.load().then(
      () => { if (win.location.hash === hash) link.read(); },
      () => showNotice(root, id, [{ key: 'trace', value: page.trace, reason: 'names a policy trace, but the traces section could not load' }], 'link'),
    );
    return [];
  }
  const bar = attachShareBar(root, app, {
    id,
    linkBase: () => linkBase(doc),
    openLabel: embed ? 'Open in Retry Lab' : null,
    pageOf,
    // The code that writes the files, the first time a reader asks for one.
    loadExports: () => loadBundle(doc, 'retrylab-export.js', 'RetryLabExportCode'),
  });
  const link = syncLink(doc.defaultView, app, {
    onProblems: (problems) => showNotice(root, id, problems, 'link'),
    pageKeys: PAGE_KEYS,
    pageOf,
    apply,
  });
  bar.update();
  // The herd's callers change no run on show, but they are in a trace F link.
  const tracesBox = traces ? doc.querySelector('[data-retry-traces]') : null;
  const onTraces = () => {
    if (app.getState().trace === HERD_TRACE) {
      link.schedule();
      bar.update();
    }
  };
  if (tracesBox) tracesBox.addEventListener('input', onTraces);
  return {
    link,
    destroy() {
      if (tracesBox) tracesBox.removeEventListener('input', onTraces);
      link.destroy();
      bar.destroy();
    },
  };
}
