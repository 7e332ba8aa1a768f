// The fleet section's run as a fleet link (section.js, model.js encodeFleetLink): written into
// the page's address once the reader has changed something (`address`, the article's; the
// element keeps none), read from it as it opens and when it changes, and given to the figure's
// doors (doors.js: Copy the fleet link, Compare with…).

import { encodeFleetLink, isFleetLink, parseFleetLink, requestDiff } from './model.js';
import { shownName } from './computing.js';

// mountAddress(ctx) → { now(), write(), request(), read(), destroy() }.
export function mountAddress(ctx) {
  const { win, s, address } = ctx;
  const now = () => `#${encodeFleetLink(requestDiff(s.shown.result.request, s.opening, s.table), s.table)}`;
  function write() {
    if (!address) return;
    const hash = now();
    if (win.location.hash === hash) return;
    try {
      win.history.replaceState(win.history.state, '', hash);
    } catch {
      // A browser that refuses keeps the link it has.
    }
  }
  // The fleet link in the address as { request, note }: `request` null when the link is refused
  // whole (a workload the view does not draw), and the note then says the run on show stays.
  function request() {
    const { request: linked, problems, refused } = parseFleetLink(win.location.hash, s.table);
    const said = problems.map((p) => `${p.key}=${p.value} ${p.reason}`).join('; ');
    const occ = ctx.whole ? ' The AWS 2015 reproduction below runs the occ workload.' : '';
    if (refused) return { request: null, note: `The fleet link was not run: ${said}.${occ} ${s.shown ? `The run on show is ${shownName(s)}.` : 'The opening fleet run is on show.'}` };
    return { request: linked, note: problems.length ? `Parts of the fleet link were not used: ${said}.` : '' };
  }
  function read() {
    const { request: linked, note } = request();
    s.linkNote = note;
    ctx.showError('');
    if (!s.pending) ctx.$('pending').hidden = true; // a line left by Stop: this link is the news now
    if (linked) ctx.run.compute(linked, { linked: true });
  }
  const onHash = () => {
    if (s.table && isFleetLink(win.location.hash)) read();
  };
  if (address) win.addEventListener('hashchange', onHash);
  return { now, write, request, read, destroy: () => win.removeEventListener('hashchange', onHash) };
}
