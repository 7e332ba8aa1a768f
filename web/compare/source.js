// Where a comparison comes from and goes to: the page's address by default. <retry-lab
// view="compare"> passes its own (its attributes as a link, web/embed/element.js): it never
// writes the host page's address. Both compare views read one (view.js for single runs,
// fleet.js for two fleet runs, which passes each function its fleet table).
//   hash(): the compare link; write(hash): keep the link as the sides change (or null);
//   address(): the page the link's hash goes on; read(): { problems, rename(p), source }, what
//   the source itself could not use and how a link key is named to the reader; newTab: open
//   "… alone" in a new tab (embed.html).
import { mount } from '../dom.js';
import { noticeView, problemText } from '../share/notice.js';

export const pageSource = (win) => ({
  hash: () => win.location.hash,
  write(hash) {
    if (win.location.hash === hash) return;
    try {
      win.history.replaceState(win.history.state, '', hash);
    } catch {
      // A browser that refuses keeps the link it has.
    }
  },
  address: () => win.location.href.split('#')[0],
  read: () => ({ problems: [], rename: (p) => p, source: 'link' }),
  newTab: win.document.documentElement.hasAttribute('data-embed'),
});

// The notice of what a comparison's source could not use (`problems`, [{ key, value, reason }],
// in `box`), and whether to read it: a source that has shown a comparison keeps it on show
// (`keep`) when what it holds now has a problem not said before (an attribute changed to a bad
// value), and the notice says so. say(problems, source, keep) → true to read the source.
export function sourceNotice(box, idOf) {
  const doc = box.ownerDocument;
  let shownOnce = false;
  let said = new Set();
  return function say(problems, source, keep) {
    const texts = new Set(problems.map(problemText));
    const fresh = [...texts].some((t) => !said.has(t));
    box.replaceChildren();
    if (problems.length) box.append(mount(noticeView(idOf, problems, source), doc));
    if (keep && shownOnce && fresh) {
      const lead = box.querySelector('.rl-notice-lead');
      if (lead) lead.textContent = source === 'link'
        ? 'Some of this link could not be used, so the comparison on show is the last one that could:'
        : 'Some attributes of this <retry-lab> could not be used, so the comparison on show is the last one whose attributes could:';
      return false;
    }
    shownOnce = true;
    said = texts;
    return true;
  };
}
