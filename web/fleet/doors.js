// The fleet section's figure's doors (section.js): the run on show as files (the timeline as
// CSV, the storm as SVG: export.js), its fleet link copied, and "Compare with…" (issue 35,
// docs/compare.md §6).

import { download } from '../export/download.js';
import { fleetFileName, stormSvg, timelineCsv } from './export.js';

// `ctx.link.now()`: the run on show's fleet link (address.js).
export function mountDoors(ctx) {
  const { $, doc, win, s, address, linkBase } = ctx;
  const base = () => (linkBase ? linkBase() : win.location.href.split('#')[0]);
  $('csv').addEventListener('click', () => s.shown && download(doc, fleetFileName(s.shown.result, 'timeline', 'csv'), 'text/csv', timelineCsv(s.shown.result)));
  $('svg').addEventListener('click', () => s.shown && download(doc, fleetFileName(s.shown.result, 'storm', 'svg'), 'image/svg+xml', stormSvg(s.shown.result)));
  $('copy').addEventListener('click', () => {
    if (!s.shown) return;
    const url = `${base()}${ctx.link.now()}`;
    const clip = win.navigator.clipboard;
    if (clip && clip.writeText) clip.writeText(url).catch(() => {});
    $('copy').textContent = 'Link copied';
    win.setTimeout(() => { $('copy').textContent = 'Copy the fleet link'; }, 2000);
  });
  // The comparison of the run on show with itself (a fleet compare link whose keys are this
  // run's), which compare mode opens; the element, which has no compare mode on its host page,
  // opens it on Retry Lab's page.
  $('compare').addEventListener('click', () => {
    if (!s.shown) return;
    const hash = ['#v=1', 'view=compare', 'of=fleet', ...ctx.link.now().split('&').slice(2)].join('&');
    if (address) win.location.hash = hash;
    else win.open(`${base()}${hash}`, '_blank', 'noopener');
  });
}
