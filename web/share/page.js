// Sharing on the page (index.html) and in its iframe form (embed.html): the run in the URL,
// the notice for a link's unusable values, and the Share and export bar. embed.html also
// posts its height to the parent page, from before the engine loads, so that even the
// message saying the engine could not load is shown at its full height.

import { makeIds } from '../views/controls.js';
import { postHeight } from '../embed/height.js';
import { syncLink } from './link.js';
import { attachShareBar, showNotice } from './bar.js';

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

export function attachSharing(doc, root, app, { idPrefix = 'rl-' } = {}) {
  const id = makeIds(idPrefix);
  const embed = isEmbed(doc);
  const bar = attachShareBar(root, app, {
    id,
    linkBase: () => linkBase(doc),
    openLabel: embed ? 'Open in Retry Lab' : null,
  });
  const link = syncLink(doc.defaultView, app, { onProblems: (problems) => showNotice(root, id, problems, 'link') });
  bar.update();
  return {
    link,
    destroy() {
      link.destroy();
      bar.destroy();
    },
  };
}
