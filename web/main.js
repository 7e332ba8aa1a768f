// The page's entry point (bundled as one classic script): load the engine, mount the
// explorable, fill the article's computed numbers, wire the "Try it" buttons. If the engine
// cannot load, the page says so where the explorable would be. The sections below the
// article come in a second bundle when the reader nears them (sections.js, load-sections.js).

import { createExplorable } from './app.js';
import { engineVersion, loadEngine } from './engine.js';
import { computeStory, fillFacts } from './story.js';
import { PAGE_KEYS, attachSharing, startEmbedFrame } from './share/page.js';
import { sectionLoader } from './load-sections.js';
import { isLink } from './share/codec.js';
import { attachSteps } from './explorable/steps.js';

function showFailure(doc, message) {
  for (const box of doc.querySelectorAll('[data-retry-lab], [data-retry-traces], [data-client-lab], [data-fleet]')) {
    if (box.closest('[hidden]')) continue; // embed.html's fleet view, shown only by a fleet link
    const p = doc.createElement('p');
    p.className = 'rl-failure';
    p.setAttribute('role', 'alert');
    // embed.html has no article around it: it says what to do instead (data-failure-note).
    p.textContent = `${message} ${box.dataset.failureNote || 'The article below still reads, but its computed numbers and the explorable are missing.'}`;
    box.replaceChildren(p);
  }
  doc.documentElement.classList.add('rl-engine-failed');
}

async function start(doc) {
  const root = doc.querySelector('[data-retry-lab]');
  if (!root) return;
  startEmbedFrame(doc); // embed.html: the parent sizes its iframe by our height
  let engine;
  try {
    engine = await loadEngine(doc.defaultView);
  } catch (error) {
    showFailure(doc, error.message);
    return;
  }
  let app;
  try {
    app = createExplorable(root, engine);
  } catch (error) {
    showFailure(doc, error.message); // an engine that loads but cannot compute the opening run
    return;
  }
  const story = computeStory(app.compute);
  const missing = fillFacts(doc, story);
  if (missing.length) console.error(`Retry Lab: ${missing.length} computed numbers could not be filled in.`, missing);

  attachSteps(doc, { ready: () => Promise.resolve(engine) }); // the article's figure and its "Try it" buttons
  for (const slot of doc.querySelectorAll('[data-engine-version]')) slot.textContent = engineVersion(engine);

  // The traces and the client lab, mounted when their bundle arrives.
  const win = doc.defaultView;
  const tracesBox = doc.querySelector('[data-retry-traces]'); // the invented policy's traces A–F
  const clientsBox = doc.querySelector('[data-client-lab]'); // "What would your client do?"
  const sections = sectionLoader(doc, ({ mountTraces, mountClientLab }) => {
    if (clientsBox) win.retryLabClients = mountClientLab(clientsBox, app, engine);
    if (tracesBox) win.retryLabTraces = mountTraces(tracesBox, app, engine);
    return { traces: win.retryLabTraces || null, clients: win.retryLabClients || null };
  });
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
  });
  doc.documentElement.classList.add('rl-ready');
  win.retryLab = app; // for the console and for tests
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => start(document));
else start(document);
