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
import { applyTheme, postHeight } from '../embed/height.js';
import { syncLink } from './link.js';
import { attachShareBar, showNotice } from './bar.js';
import { loadBundle } from '../bundles.js';
import { validateInputs } from '../validate.js';
import { FORMAT, sameInputs } from './codec.js';
import { isStack } from '../views/stack.js';
import { attachCompare } from '../compare/hook.js';

export const isEmbed = (doc) => doc.documentElement.hasAttribute('data-embed');

export function startEmbedFrame(doc) {
  if (isEmbed(doc)) applyTheme(doc.defaultView);
  return isEmbed(doc) ? postHeight(doc.defaultView) : () => {};
}

// The page's own address without its hash; in the embed, the full page beside it.
function linkBase(doc) {
  const win = doc.defaultView;
  const here = win.location.href.split('#')[0];
  return isEmbed(doc) ? new win.URL('index.html', here).href : here;
}

export const PAGE_KEYS = FORMAT.pageKeys; // trace, herdCallers (link-format.json)
const HERD_TRACE = 'F';
const CUSTOM_TRACE = 'custom';

// The page's keys for a state: the trace on show, and for trace F its herd's callers.
export function pageKeysOf(state) {
  const { trace } = state;
  if (!trace) return {};
  return trace === HERD_TRACE && state.herd ? { trace, herdCallers: state.herd.callers } : { trace };
}

// A link's accepted inputs (`inputs`, whose run is `result`) and its page keys, loaded in one
// step: the trace it names is selected when the link's run is that trace's own (under the
// link's herd, or as the reader's trace), and the herd or the reader's trace it carries go
// into the state with it.
function applyLink(app, engine, traces, inputs, result, page) {
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
  const sections = {};
  if (trace === HERD_TRACE) {
    const herd = app.getState().herd;
    let { callers } = herd;
    if ('herdCallers' in page) {
      // The engine judges the number, as the herd's own field does.
      const asked = /^\d+$/.test(page.herdCallers) ? Number(page.herdCallers) : NaN;
      const errors = Number.isNaN(asked) ? null : validateInputs(engine, { callers: asked });
      if (errors && errors.length === 0) callers = asked;
      else said('herdCallers', errors ? errors.map((e) => e.message).join(' ') : 'is not a number of callers');
    }
    // A new herd only when it differs: the panel computes its histograms for every new one.
    if (callers !== herd.callers || result.inputs.seed !== herd.seed) sections.herd = { callers, seed: result.inputs.seed };
  }
  if (trace === CUSTOM_TRACE) {
    const read = traces.readCustom(inputs);
    if (read.errors) said('trace', `could not put this run in the trace editor: ${read.errors.map((e) => e.message).join(' ')}`);
    else sections.custom = read.inputs;
  }
  const own = traces.inputsOf(trace, sections);
  const isTrace = own !== null && sameInputs(app.compute(own).inputs, result.inputs);
  // The run is the link's, whatever it calls itself.
  if (!isTrace) said('trace', `is not this run (the link's inputs differ from trace ${trace}'s), so no trace is selected`);
  app.load(inputs, { trace: isTrace ? trace : null, ...sections });
  if (isTrace) traces.announce(trace);
  return problems;
}

// A link's stack of layers (`layers=`, docs/layers.md): the experiment runs it and draws it
// (views/stack.js), and the section "Retries across layers" (`layers`: { load(): a promise of its
// API }, null on a page without it) shows it too, with its controls set to it where they can be.
function showStack(inputs, result, layers) {
  if (layers && isStack(result)) layers.load().then((api) => api && api.showLink(inputs), () => {});
}

// `traces`: null on a page without the traces section; else { get(): the section's API, or
// null until its bundle has arrived; load(): a promise of that API }. `layers`: see showStack.
export function attachSharing(doc, root, app, engine, { idPrefix = 'rl-', traces = null, layers = null } = {}) {
  const id = makeIds(idPrefix);
  const embed = isEmbed(doc);
  const win = doc.defaultView;
  const tracesNow = () => (traces ? traces.get() : null);
  const pageOf = (state = app.getState()) => pageKeysOf(state);
  // A link that names a trace before the traces have arrived (one followed later, or pasted
  // into the address bar): its run now, and the link read again, trace and all, once they come.
  function apply(inputs, result, page) {
    showStack(inputs, result, layers);
    const api = tracesNow();
    if (api || !traces || page.trace === undefined) return applyLink(app, engine, api, inputs, result, page);
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
  // Compare mode: a view=compare link, and "Compare with…" beside Copy link (issue 17).
  const compare = attachCompare(doc, root, app, engine, { linkBase: () => linkBase(doc) });
  return {
    link,
    compare,
    destroy() {
      compare.destroy();
      link.destroy();
      bar.destroy();
    },
  };
}
