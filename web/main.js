// The page's entry point (bundled as one classic script): mount the explorable, fill the
// article's computed numbers, wire the "Try it" buttons. The sections below the article come
// in a second bundle when the reader nears them (sections.js, load-sections.js).
//
// The engine on demand (issue 18): index.html, as the build writes it (web/prerender.mjs),
// carries the article's numbers in its text and the opening run and the engine's input table
// as data, all computed by the build with the same engine file; its
// first screen (the figure, Play, Next event, the question) is drawn from that with no engine;
// since issue 15/18's session 4 the build draws the explorable itself into the HTML, and this
// script takes that drawing as it is (app.js `hydrate`) and only attaches its behaviour.
// The engine file is added to the page the first time something needs a computation: a control
// that changes the inputs (and, ahead of it, the pointer or focus entering the controls or a
// "Try it"), a link in the address naming a run, the sections below the article as they load,
// or window.retryLabEngine.load() (the console, the tests). When it arrives it must compute the
// opening run the page was built with; `<html>` then gets `rl-engine`. If it cannot load, the
// page says so where the explorable would be (`rl-engine-failed`). A page without the data
// (embed.html) loads its engine as it opens, as before.

import { createExplorable } from './app.js';
import { engineOnDemand, engineVersion } from './engine.js';
import { computeStory, fillFacts } from './story.js';
import { PAGE_KEYS, attachSharing, startEmbedFrame } from './share/page.js';
import { sectionLoader } from './load-sections.js';
import { isLink } from './share/codec.js';
import { loadBundle } from './bundles.js';
import { attachSteps } from './explorable/steps.js';
import { failureNote } from './dom.js';
import { serversDoor } from './explorable/servers-door.js';

function showFailure(doc, message) {
  for (const box of doc.querySelectorAll('[data-retry-lab], [data-retry-traces], [data-client-lab], [data-layers], [data-fleet]')) {
    if (box.closest('[hidden]')) continue; // embed.html's fleet view, shown only by a fleet link
    // embed.html has no article around it: it says what to do instead (data-failure-note).
    box.replaceChildren(failureNote(doc, `${message} ${box.dataset.failureNote || 'The article below still reads, but its computed numbers and the explorable are missing.'}`));
  }
  for (const button of doc.querySelectorAll('button[data-try]')) button.hidden = true; // nothing they could load
  doc.documentElement.classList.add('rl-engine-failed');
}

// The build's data block (web/prerender.mjs), or null.
function prerendered(doc) {
  const block = doc.getElementById('rl-prerendered');
  if (!block) return null;
  try {
    const data = JSON.parse(block.textContent);
    return data && data.opening && data.schema ? data : null;
  } catch {
    return null;
  }
}

// `rl-first-frame` on <html> until the first frame is painted (a message posted from that
// frame's animation callback runs once it is done), or a print asks for the whole page; then
// `rl-second-frame` for one frame, in which the article's sections are drawn once so that they
// keep their real size (css/contain.css).
function laterViews(doc) {
  const html = doc.documentElement;
  const win = doc.defaultView;
  const afterFrame = (then) => win.requestAnimationFrame(() => {
    const channel = new win.MessageChannel();
    channel.port1.onmessage = then;
    channel.port2.postMessage(0);
  });
  html.classList.add('rl-first-frame');
  let done = false;
  const first = () => {
    if (done) return;
    done = true;
    html.classList.remove('rl-first-frame');
    html.classList.add('rl-second-frame');
    afterFrame(() => html.classList.remove('rl-second-frame'));
  };
  afterFrame(first);
  win.addEventListener('beforeprint', first, { once: true });
}

async function start(doc) {
  const root = doc.querySelector('[data-retry-lab]');
  if (!root) return;
  startEmbedFrame(doc); // embed.html: the parent sizes its iframe by our height
  const win = doc.defaultView;
  const data = prerendered(doc);
  const engines = engineOnDemand(win, {
    addScript: (file) => loadBundle(doc, file, 'RetryLabEngine'),
    schema: data && data.schema,
    // The engine that arrives must be the one the page was built with: the same opening run.
    check(engine) {
      if (!data) return;
      const now = engine.compute({});
      if (JSON.stringify(now) !== JSON.stringify(data.opening)) {
        const why = now && now.ok === false && Array.isArray(now.errors) && now.errors[0] ? ` (${now.errors[0].message})` : '';
        throw new Error(`The retry engine could not compute the opening run this page was built with${why}. Reload the page.`);
      }
    },
    onFailure: (error) => showFailure(doc, error.message),
  });
  const needEngine = () => engines.load().then((engine) => {
    doc.documentElement.classList.add('rl-engine');
    return engine;
  });
  // For the console and the tests: load() is a promise of the engine (rejected if it cannot load).
  win.retryLabEngine = { load: needEngine, ready: engines.ready };
  // A link in the address names a run: the engine first, so that the first screen is the link's.
  if (!data || isLink(win.location.hash)) {
    try {
      await needEngine();
    } catch {
      return; // said on the page (onFailure)
    }
  }
  // The first frame lays out only the first screen: the precise views below it wait for the
  // frame after (css/contain.css). index.html only: embed.html's frame is sized by its height.
  if (data) laterViews(doc);
  let app;
  try {
    // index.html holds the explorable drawn for the opening run (web/prerender.mjs): taken as it is.
    const hydrate = Boolean(data) && root.firstElementChild !== null && root.firstElementChild.classList.contains('rl');
    app = createExplorable(root, engines.engine, data ? { opening: data.opening, schema: data.schema, ready: engines.ready, ensure: needEngine, hydrate, lazy: true } : {});
  } catch (error) {
    showFailure(doc, error.message); // an engine that loads but cannot compute the opening run
    return;
  }
  const engine = engines.engine;
  // index.html's numbers are in its text already (the build's); a page without the build's data
  // that quotes the story fills them itself (embed.html has no story).
  if (!data && doc.querySelector('[data-story]')) {
    const missing = fillFacts(doc, computeStory(app.compute));
    if (missing.length) console.error(`Retry Lab: ${missing.length} computed numbers could not be filled in.`, missing);
  }
  if (!data) for (const slot of doc.querySelectorAll('[data-engine-version]')) slot.textContent = engineVersion(engine);
  // The engine ahead of the reader's first change: the pointer or focus on the controls.
  const controls = root.querySelector('.rl-controls');
  const preload = () => { needEngine().catch(() => {}); };
  if (!engines.ready() && controls) for (const type of ['pointerover', 'focusin']) controls.addEventListener(type, preload, { once: true });

  for (const button of doc.querySelectorAll('button[data-try]')) {
    for (const type of ['pointerenter', 'focus']) button.addEventListener(type, preload, { once: true });
  }
  const story = attachSteps(doc, { ready: needEngine }); // the article's figure and its "Try it" buttons
  // The step "The retry went to another server": its control loaded as the reader nears it.
  win.retryLabServersStep = serversDoor(doc, { story, app, ready: needEngine });

  // The traces and the client lab, mounted when their bundle arrives.
  const tracesBox = doc.querySelector('[data-retry-traces]'); // the invented policy's traces A–F
  const clientsBox = doc.querySelector('[data-client-lab]'); // "What would your client do?"
  const layersBox = doc.querySelector('[data-layers]'); // "Retries across layers"
  // Each section mounts in a task of its own (issue 35 item 10): the three in one task, after the
  // bundle's own, held a loaded machine's main thread for a second or more as the reader scrolled.
  const nextTask = () => new Promise((resolve) => win.setTimeout(resolve, 0));
  const sections = sectionLoader(doc, async ({ mountTraces, mountClientLab, mountLayers }) => {
    if (clientsBox) win.retryLabClients = mountClientLab(clientsBox, app, engine);
    await nextTask();
    if (layersBox) win.retryLabLayers = mountLayers(layersBox, app, engine);
    await nextTask();
    if (tracesBox) win.retryLabTraces = mountTraces(tracesBox, app, engine);
    return { traces: win.retryLabTraces || null, clients: win.retryLabClients || null, layers: win.retryLabLayers || null };
  }, { needs: needEngine }); // the sections compute as they mount
  win.retryLabSections = { load: sections.load, loaded: sections.loaded };
  // A link that names a trace needs the traces before it is read; so does #traces.
  const hash = win.location.hash;
  const namesTrace = isLink(hash) && app.codec.parseLink(hash, { pageKeys: PAGE_KEYS }).page?.trace !== undefined;
  if (tracesBox && (namesTrace || sections.wantedByAddress())) {
    try {
      await sections.load();
    } catch {
      // Said in the sections; the link is read without them.
    }
  }
  // The run in the URL, Copy link, downloads; last, so that a link can name a trace.
  attachSharing(doc, root, app, engine, {
    traces: tracesBox ? { get: () => win.retryLabTraces || null, load: () => sections.load().then((s) => s.traces) } : null,
    layers: layersBox ? { load: () => sections.load().then((s) => s.layers) } : null,
  });
  doc.documentElement.classList.add('rl-ready');
  win.retryLab = app; // for the console and for tests
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => start(document));
else start(document);
