// The door to the article's step "The retry went to another server" (site/index.html
// [data-servers-step]): its control is a bundle of its own (retrylab-servers-step.js and .css,
// web/servers/step.js), loaded once, when the step comes within a screen and a half of the
// reader or focus enters its section, then mounted on the article's figure (steps.js
// `provide`). Until then the step's words read alone; a bundle that cannot load is said there.

import { loadBundle } from '../bundles.js';
import { STORY } from '../story.js';

export function serversDoor(doc, { story, app, ready }) {
  const box = doc.querySelector('[data-servers-step]');
  if (!box || !story) return null;
  const win = doc.defaultView;
  const section = box.closest('section') || box;
  let mounted = null;
  function load() {
    mounted ||= loadBundle(doc, 'retrylab-servers-step.js', 'RetryLabServersStepCode', { style: 'retrylab-servers-step.css' })
      .then(({ mountServersStep }) => mountServersStep(box, { story, base: STORY.servers, schema: app.schema, codec: app.codec, validate: app.validate, ready }))
      .catch((error) => {
        mounted = null;
        box.hidden = false;
        box.setAttribute('role', 'alert');
        box.textContent = `The control for this step could not be loaded (${error.message}); the words above say what it shows.`;
        throw error;
      });
    return mounted;
  }
  const quiet = () => load().catch(() => {});
  if (win.IntersectionObserver) {
    const near = new win.IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      near.disconnect();
      quiet();
    }, { rootMargin: '0px 0px 150% 0px' });
    near.observe(section);
  }
  section.addEventListener('focusin', quiet, { once: true });
  return { load };
}
