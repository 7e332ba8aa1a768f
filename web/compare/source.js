// Where a comparison comes from and goes to: the page's address by default. <retry-lab
// view="compare"> passes its own (its attributes as a link, web/embed/element.js): it never
// writes the host page's address. Both compare views read one (view.js for single runs,
// fleet.js for two fleet runs, which passes each function its fleet table).
//   hash(): the compare link; write(hash): keep the link as the sides change (or null);
//   address(): the page the link's hash goes on; read(): { problems, rename(p), source }, what
//   the source itself could not use and how a link key is named to the reader; newTab: open
//   "… alone" in a new tab (embed.html).
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
