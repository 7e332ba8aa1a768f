// The page's two clocks, written once for bench/browser.mjs (the budgets' verdicts),
// bench/ab-page.mjs (builds side by side) and bench/trace-page.mjs (where the time goes). Each
// function runs in the page (page.addInitScript, page.evaluate), so each is self-contained.

// First render: window.__drawnAt is the end of the first frame after the page says `rl-ready`
// (the static article: the first after its load event, its stylesheet applied): a
// requestAnimationFrame, then a message posted from it, whose handler runs once that frame's
// style, layout and paint are done (the main thread's part of the frame, commit included).
// User-timing marks rl-ready-seen, rl-frame and rl-drawn place it in a trace. The rest of the page
// (issue 18): index.html lays out the views below its first screen from the frame after the first
// (rl-first-frame on <html> until then, web/css/contain.css); the end of the frame after the class
// goes is window.__restAt.
export function watchReady() {
  const afterFrame = (done) => requestAnimationFrame(() => {
    performance.mark('rl-frame');
    const channel = new MessageChannel();
    channel.port1.onmessage = () => done(performance.now());
    channel.port2.postMessage(0);
  });
  const painted = () => afterFrame((at) => { window.__drawnAt = at; performance.mark('rl-drawn'); });
  if (location.pathname === '/static.html') {
    addEventListener('load', painted);
    return;
  }
  const seen = () => document.documentElement.classList.contains('rl-ready');
  // documentElement may not exist yet when this runs: watch the whole document's classes.
  new MutationObserver((_, observer) => {
    if (document.documentElement && seen()) {
      observer.disconnect();
      performance.mark('rl-ready-seen');
      painted();
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['class'] });
  let deferring = false;
  new MutationObserver((_, observer) => {
    const html = document.documentElement;
    if (!html) return;
    if (html.classList.contains('rl-first-frame')) deferring = true;
    else if (deferring) {
      observer.disconnect();
      afterFrame((at) => { window.__restAt = at; });
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['class'] });
}

// Input change → painted frame: `count` changes of the explorable's base backoff number field
// (400–590 ms in turn, from the `from`th), each made inside an animation frame's callback, so
// that the frame it shows in is that one (no wait for the next vsync in the figure); the clock
// stops when a message posted then is handled, the frame's style, layout and paint done. Returns
// each change's milliseconds. `marks`: user-timing marks rl-change-i and rl-changed-i for a trace.
export async function inputChanges({ count, from = 0, marks = false }) {
  const input = document.querySelector('[data-retry-lab] input[data-field="baseBackoffMs"][data-role="number"]');
  if (!input) throw new Error('no base backoff field');
  const change = (i) => new Promise((ok) => requestAnimationFrame(() => {
    input.value = String(400 + (i % 20) * 10);
    if (marks) performance.mark(`rl-change-${i}`);
    const t0 = performance.now();
    input.dispatchEvent(new Event('input', { bubbles: true }));
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      if (marks) performance.mark(`rl-changed-${i}`);
      ok(performance.now() - t0);
    };
    channel.port2.postMessage(0);
  }));
  const list = [];
  for (let i = from; i < from + count; ++i) list.push(await change(i));
  return list;
}

// The fleet section open (issue 18's second case for the input clock): its bundle loaded, the
// section mounted, its opening fleet run drawn and, unless `busy`, the reproductions below it
// (the map, AWS 2015, Brooker 2022 and the collapse, web/fleet/section.js) computed. They run
// one after another in the section's own workers for about 5-12 s after it opens, two at a time
// on this two-core machine, and draw their progress on the main thread: an input change
// measured while they run measures the cores they take (BENCHMARKS.md, "Issue 18, input to
// painted frame, session 4"), not what the fleet section costs a change once it is open.
export async function openFleetSection({ busy = false } = {}) {
  await window.retryLabFleetSection.load();
  const until = (ok) => new Promise((done, fail) => {
    const started = performance.now();
    const look = () => {
      if (ok()) done();
      else if (performance.now() - started > 60000) fail(new Error('the fleet section did not open in 60 s'));
      else setTimeout(look, 50);
    };
    look();
  });
  await until(() => window.retryLabFleet && window.retryLabFleet.state());
  if (busy) await new Promise((done) => setTimeout(done, 1000));
  else await window.retryLabFleet.collapse();
}
