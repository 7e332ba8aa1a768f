// "Run this stack in the fleet" (issue 33: "the fleet section can run the same stack against the
// server"): the layers section's stack becomes the fleet request's `policy.layers` (docs/layers.md
// §9) over the fleet's run on show, in the fleet section ("Many callers, one server"), which shows
// the stack it runs (fleet/stack.js). A stack the fleet engine refuses with the fleet's current
// settings (§9.6: hedging, the adaptive and local gates, admission control, the occ workload; a
// work bound) is said here in the engine's words, and the fleet keeps its run.

import { h } from '../dom.js';

// The door's button and what it last said (`said`: { text, failed }, or null).
export function doorView(id, said) {
  return h('div', { class: 'ly-door' },
    h('button', { type: 'button', 'data-act': 'fleet', id: id('to-fleet'), 'aria-describedby': id('to-fleet-help') }, 'Run this stack in the fleet'),
    h('p', { class: 'ly-help', id: id('to-fleet-help') }, 'Each of the fleet’s clients sends its requests through these layers, against the fleet’s server and its slowdown (not the server chosen here).'),
    said ? h('p', { class: said.failed ? 'rl-failure' : 'ly-door-said', id: id('fleet-said') }, said.text) : null);
}

// The fleet section, loaded on demand (web/load-sections.js fleetLoader): `run(layers)` resolves
// with what to say, { text, failed }; `show()` brings the fleet's stack into view.
export function fleetDoor(win) {
  const section = () => win.retryLabFleetSection.load().then(() => {
    if (!win.retryLabFleet || !win.retryLabFleet.runStack) throw new Error('the fleet section is not on this page');
    return win.retryLabFleet;
  });
  return {
    run: (layers) => section().then((fleet) => fleet.runStack(layers)).then(
      (answer) => (answer.ok
        ? { text: `The fleet below runs this stack${answer.dropped.length ? ` (without retrying ${answer.dropped.join(' and ')}, which its server never answers)` : ''}.`, failed: false }
        : { text: `The fleet cannot run this stack: ${answer.said}`, failed: true }),
      (error) => ({ text: `The fleet section could not load (${error && error.message ? error.message : error}).`, failed: true })),
    show: () => win.retryLabFleet && win.retryLabFleet.showStack(),
  };
}
