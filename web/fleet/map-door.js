// The fleet section's door to the stability maps (section.js): their own bundle (stability.js),
// loaded as the reader nears the map's box (or at once for a map link, `&map=`), mounted with
// what it needs of the section (`host`), then `after()` (the reproductions below, repros.js).

import { loadBundle } from '../bundles.js';
import { encodeFleetLink } from './model.js';
import { fleetComputer } from './compute.js';

const MAP_LINK = /(^#|&)map=/;

// mountMapDoor(ctx, after) → { load(), near(), destroy() }: `load` a promise of
// mountStability()'s answer; `near` loads it once its box nears the screen.
export function mountMapDoor(ctx, after) {
  const { $, doc, win, s } = ctx;
  let stability = null; // a promise of mountStability()'s answer, once the map's bundle is asked for
  let observer = null;
  const host = {
    prefix: ctx.id(''),
    computer: () => fleetComputer(win, ctx.engine),
    shown: () => ({ request: s.request, echo: s.shown.result.request }),
    // A cell's run (issue 35): the storm brought into view under the map, the keys left on the cell.
    open: (req, cell) => {
      ctx.run.compute(req, { fromReader: true });
      if (!cell) return;
      ctx.near.bring(cell, $('map'));
      cell.focus({ preventScroll: true });
    },
    linkOf: (req) => `#${encodeFleetLink(req)}`,
    linkBase: () => (ctx.linkBase ? ctx.linkBase() : win.location.href.split('#')[0]),
  };
  function load() {
    if (observer) observer.disconnect();
    if (!stability) {
      stability = loadBundle(doc, 'retrylab-fleet-map.js', 'RetryLabFleetMapCode', { style: 'retrylab-fleet-map.css' })
        .then(({ mountStability }) => mountStability($('stability'), host));
      stability.then((map) => {
        map.run(MAP_LINK.test(win.location.hash) ? s.request : {});
        return map.map();
      }).catch((error) => {
        $('stability').textContent = `The stability map could not load here (${error.message}).`;
      }).then(after);
    }
    return stability;
  }
  function near() {
    if (typeof win.IntersectionObserver !== 'function' || MAP_LINK.test(win.location.hash)) return load();
    observer = new win.IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) load();
    }, { rootMargin: '100% 0px 100% 0px' });
    observer.observe($('map-box'));
    return null;
  }
  return {
    load,
    near,
    // The run on show changed: the map's caption says which (stability.js shownChanged).
    shownChanged() {
      if (stability) stability.then((m) => m.shownChanged(), () => {});
    },
    destroy() {
      if (stability) stability.then((m) => m.destroy(), () => {});
      if (observer) observer.disconnect();
    },
  };
}
