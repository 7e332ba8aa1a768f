// The page's entry point (bundled as one classic script): load the engine, mount the
// explorable, fill the article's computed numbers, wire the "Try it" buttons. If the engine
// cannot load, the page says so where the explorable would be.

import { createExplorable } from './app.js';
import { engineVersion, loadEngine } from './engine.js';
import { computeStory, fillFacts } from './story.js';
import { attachSharing, startEmbedFrame } from './share/page.js';
import { mountTraces } from './traces/section.js';
import { serveHerd } from './traces/herd-worker.js';
import { mountClientLab } from './clients/lab.js';

function showFailure(doc, message) {
  for (const box of doc.querySelectorAll('[data-retry-lab], [data-retry-traces]')) {
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

  for (const button of doc.querySelectorAll('button[data-try]')) {
    const result = story[button.dataset.try];
    if (!result) continue;
    button.hidden = false;
    button.addEventListener('click', () => {
      app.load(result.inputs);
      const target = doc.getElementById('experiment');
      const smooth = !doc.defaultView.matchMedia('(prefers-reduced-motion: reduce)').matches;
      target.scrollIntoView({ behavior: smooth ? 'smooth' : 'auto', block: 'start' });
      target.focus({ preventScroll: true });
    });
  }
  for (const slot of doc.querySelectorAll('[data-engine-version]')) slot.textContent = engineVersion(engine);
  const clientLab = doc.querySelector('[data-client-lab]'); // "What would your client do?"
  if (clientLab) doc.defaultView.retryLabClients = mountClientLab(clientLab, app, engine);
  const traces = doc.querySelector('[data-retry-traces]'); // the invented policy's traces A–F
  if (traces) doc.defaultView.retryLabTraces = mountTraces(traces, app, engine);
  // The run in the URL, Copy link, downloads; last, so that a link can name a trace.
  attachSharing(doc, root, app, { traces: traces ? doc.defaultView.retryLabTraces : null });
  doc.documentElement.classList.add('rl-ready');
  doc.defaultView.retryLab = app; // for the console and for tests
}

// In a worker this bundle computes large herds for the traces section (traces/herd-worker.js).
if (typeof document === 'undefined') serveHerd(self);
else if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => start(document));
else start(document);
