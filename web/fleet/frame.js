// The fleet section's frame (section.js): the story, the figure, the side effects, the controls'
// boxes, the stability map's box and the reproductions, as one tree the pieces then fill. `id`
// prefixes the section's ids; `whole` false is the element's view (the figure, the side
// effects and the controls only).

import { h, mount } from '../dom.js';

// The story, here rather than in index.html: the page's opening bytes stay as they were.
function story(id) {
  return h('div', { class: 'prose fl-story' },
    h('p', {}, h('strong', {}, 'A slowdown becomes a storm. '), 'Ten seconds in, for ten seconds, every attempt takes four times as long. The server can now serve half of what arrives; the queue grows; answers start to come after their caller has stopped waiting, and each caller that stopped waiting sends its payment again. The server works through a queue of attempts nobody is waiting for, and every one of them still charges a card.'),
    h('p', {}, h('strong', {}, 'The storm outlives it. '), 'When the slowdown ends the server is as fast as before, but the queue it left behind is made of attempts already too old to be answered in time, and each one that times out sends another. If the fleet does not come back, this is a metastable failure: a state that keeps itself going after its cause has gone. The verdict under the chart is read from the run itself.'),
    h('p', {}, h('strong', {}, 'What stops it '), 'is what takes the retries out of the loop: not retrying at all, a client-side token bucket that lets retries through only while first attempts succeed, a server that drops work that can no longer finish in time, or one that serves the newest attempt first. Dropping only what has already expired is not enough: a first-in first-out queue then serves attempts with less time left than their service needs. Try each below; every figure is computed in your browser from the same seed, by the engine’s fleet model.'));
}

// The figure's column (fleet.css): a sticky box sticks within its parent, so the figure has one.
// On a phone the chart is drawn at the screen's width and its key stands above it (storm.js chartWidth).
function figure(id, linkAtStart) {
  return h('div', { class: 'fl-side' }, h('div', { class: 'fl-figure' },
    h('p', { class: 'fl-verdict', id: id('verdict') }, linkAtStart ? 'Computing the linked fleet run…' : 'Computing the opening fleet run…'),
    h('p', { class: 'fl-server-verdicts', id: id('server-verdicts'), hidden: true }),
    h('div', { class: 'fl-pending', id: id('pending'), hidden: true },
      h('p', { class: 'fl-progress', id: id('progress') }),
      h('p', { class: 'fl-pending-inputs', id: id('pending-inputs'), hidden: true }),
      h('button', { type: 'button', id: id('stop') }, 'Stop computing')),
    h('p', { class: 'rl-failure', id: id('error'), role: 'alert', hidden: true }),
    h('ul', { class: 'fl-legend fl-storm-legend', id: id('legend'), 'aria-label': 'The chart’s key', hidden: true }),
    h('div', { class: 'fl-chart-box', id: id('chart'), tabindex: 0, role: 'group', 'aria-roledescription': 'chart', 'aria-label': 'The storm over time; left and right arrows step through the seconds', 'aria-describedby': id('readout') }),
    h('p', { class: 'fl-readout', id: id('readout'), 'aria-live': 'polite' }, 'Arrow keys or the pointer on the chart: one second’s figures.'),
    h('p', { class: 'fl-summary', id: id('summary') }),
    h('div', { class: 'fl-exports' },
      h('button', { type: 'button', id: id('csv') }, 'Download the timeline (CSV)'),
      h('button', { type: 'button', id: id('svg') }, 'Download the chart (SVG)'),
      h('button', { type: 'button', id: id('copy') }, 'Copy the fleet link'),
      h('button', { type: 'button', id: id('compare') }, 'Compare with…')),
    h('details', { class: 'fl-data' }, h('summary', {}, 'The chart as a table, second by second'), h('div', { id: id('table'), class: 'fl-scroll', tabindex: 0, role: 'region', 'aria-label': 'The storm per second, as a table' }))));
}

// The side effects: the same attempts, without and with an idempotency key.
function effects(id) {
  return h('section', { class: 'fl-effects', 'aria-labelledby': id('effects-h') },
    h('h3', { id: id('effects-h') }, 'What the storm did to the payments'),
    h('div', { id: id('effects') }));
}

// Many servers (issue 39, docs/servers.md): the storm server by server (servers-view.js), the
// replicas, the balancer and the faults (servers-controls.js) and their presets; hidden until the
// table has the rows.
function servers(id) {
  return h('section', { class: 'fl-servers', 'aria-labelledby': id('servers-h'), id: id('servers-box'), hidden: true },
    h('h3', { id: id('servers-h') }, 'Many servers: one bad host of ten'),
    h('p', {}, 'Production retries meet many servers: a balancer spreads the attempts over replicas, and Envoy and Istio send a retry to a host other than the one that failed. One bad host of ten is the most common partial outage; a replica that crashed refuses connections at once, while one cut off by a partition swallows them until the timeout. Each row below is one server: how many attempts it got each second, and how many it answered in time.'),
    h('div', { class: 'fl-servers-view', id: id('servers-view') }),
    h('div', { class: 'fl-controls', id: id('servers-controls') }),
    h('div', { class: 'fl-presets' },
      h('label', { for: id('servers-preset') }, 'A fleet of replicas, as a mesh sets it up'),
      h('select', { id: id('servers-preset') }),
      h('div', { id: id('servers-card'), class: 'fl-card' })));
}

// What stops it: the controls, the switched models, the gates and the presets (controls.js, switches.js).
function stops(id, presets) {
  return h('section', { class: 'fl-stops', 'aria-labelledby': id('stops-h') },
    h('h3', { id: id('stops-h') }, 'What stops it'),
    h('p', {}, 'Each control reruns the fleet at once, from the same seed.'),
    h('div', { class: 'fl-controls', id: id('controls') }),
    h('div', { class: 'fl-switches', id: id('switches') }),
    h('div', { class: 'fl-gates', id: id('gates') }),
    h('div', { class: 'fl-presets' },
      h('label', { for: id('preset') }, 'A real client’s defence'),
      h('select', { id: id('preset') }, h('option', { value: '' }, 'none (the opening run’s gates: none)'), ...presets.map((p) => h('option', { value: p.id }, p.label))),
      h('div', { id: id('preset-card'), class: 'fl-card' })),
    h('button', { type: 'button', id: id('reset') }, 'Back to the opening fleet run'));
}

// The stability map's box: its bundle loaded as it nears (map-door.js).
function mapBox(id) {
  return h('section', { class: 'fl-map-box', 'aria-labelledby': id('map-h'), id: id('map-box') },
    h('h3', { id: id('map-h') }, 'Where it recovers: the stability map'),
    h('p', {}, 'The same fleet over a grid of triggers (or of loads and retries), one engine run per cell and seed. Below some load no slowdown can leave it down; above it, a slowdown long and large enough tips it into a storm that outlives it, and the edge is sharp. Each cell says which: it rode the slowdown out, recovered some seconds after it, or was still down when new requests stopped. The lines are the closed forms of docs/metastability.md, drawn over the runs that test them. The run on show is marked ●. Arrow keys move between cells; Enter (or a click) draws that cell’s run in the storm chart, brought into view under the map, and the keys stay on the cell.'),
    h('p', { class: 'fl-note-text' }, 'A verdict is the engine’s own (FLEET.md §8): five-second windows from the slowdown’s start, each healthy when at least 90 % of its new requests succeed. A fleet with no unhealthy window rode it out; it recovered at the first second after the slowdown from which every window to the end of new requests is healthy.'),
    h('div', { id: id('stability') }, h('p', {}, 'The map loads as you near it…')));
}

// AWS 2015, reproduced (repros.js).
function aws(id) {
  return h('section', { class: 'fl-repro', 'aria-labelledby': id('aws-h') },
    h('h3', { id: id('aws-h') }, 'Reproduced here: AWS 2015, “Exponential Backoff and Jitter”'),
    h('p', {}, 'Marc Brooker’s post had clients contend for one row under optimistic concurrency: each reads the row’s version, writes with it, and retries after a backoff when another write got there first. Its simulator’s means over 100 runs are the crosses; the lines are this engine’s, computed in your browser for 10 to 190 clients and five strategies as you read. Jitter cuts the writes, and full jitter the time it takes everyone to finish.'),
    h('p', { id: id('aws-status') }, 'Computed here after the stability map, as you scroll near.'),
    h('div', { class: 'fl-panels' },
      h('figure', {}, h('div', { id: id('aws-writes') }), h('figcaption', {}, 'Writes, all clients together, against clients')),
      h('figure', {}, h('div', { id: id('aws-time') }), h('figcaption', {}, 'Time until the last client has written (ms), against clients'))),
    h('div', { id: id('aws-legend') }),
    h('p', { class: 'fl-exports' }, h('button', { type: 'button', id: id('aws-csv') }, 'Download the figure’s data (CSV)')),
    h('details', { class: 'fl-data' }, h('summary', {}, 'The reproduction as a table, beside the peer’s means'),
      h('div', { id: id('aws-table'), class: 'fl-scroll', tabindex: 0, role: 'region', 'aria-label': 'The AWS 2015 reproduction, as a table' })));
}

// Brooker 2022, token buckets against retries (repros.js).
function brooker(id) {
  return h('section', { class: 'fl-repro', 'aria-labelledby': id('bk-h') },
    h('h3', { id: id('bk-h') }, 'Reproduced here: Brooker 2022, token buckets against retries'),
    h('p', {}, 'A server that fails a share of its requests, and 100 clients sending 10 requests a second each for 10 seconds. Three retries buy success at the price of load, which grows fastest exactly when the server is failing; the token bucket lets a retry through only while first attempts keep succeeding, so its load stays near one attempt per request. The crosses are Brooker’s own simulator, whose bucket gains 0.1 token with each first attempt and retries while it holds more than one. His post words the rule otherwise: a deposit with each success, a retry while a whole token remains. That bucket, drawn beside his, earns less the more the server fails, so it retries less exactly then. The third panel splits the same 100 requests a second over 10, 100 and 1,000 clients, each with its own bucket (his simulator’s).'),
    h('p', { id: id('bk-status') }, 'Waiting for the reproduction above…'),
    h('div', { class: 'fl-panels' },
      h('figure', {}, h('div', { id: id('bk-success') }), h('figcaption', {}, 'Success against the failure rate')),
      h('figure', {}, h('div', { id: id('bk-load') }), h('figcaption', {}, 'Load (attempts per request) against the failure rate')),
      h('figure', {}, h('div', { id: id('bk-clients') }), h('figcaption', {}, 'The bucket’s load for 10, 100 and 1,000 clients'))),
    h('div', { id: id('bk-legend') }),
    h('p', { class: 'fl-exports' }, h('button', { type: 'button', id: id('bk-csv') }, 'Download the figure’s data (CSV)')),
    h('details', { class: 'fl-data' }, h('summary', {}, 'The reproduction as a table, beside his results'),
      h('div', { id: id('bk-table'), class: 'fl-scroll', tabindex: 0, role: 'region', 'aria-label': 'The Brooker 2022 reproduction, as a table' })));
}

// Brooker's retry collapse (repros.js).
function collapse(id) {
  return h('section', { class: 'fl-repro', 'aria-labelledby': id('col-h') },
    h('h3', { id: id('col-h') }, 'Reproduced here: Brooker’s retry collapse'),
    h('p', {}, 'One busy client, 40 requests a second, and a server whose every attempt takes longer the more it is serving. A five-second spike to twice the rate pushes service past the three-second timeout; each timeout is retried at once, twice, and the server spends itself on attempts nobody is waiting for. Backing off with full jitter from a 20 s base spreads the same retries out, and every request succeeds.'),
    h('p', { id: id('col-status') }, 'Waiting for the reproductions above…'),
    h('div', { class: 'fl-panels' }, h('figure', {}, h('div', { id: id('col-chart') }), h('figcaption', {}, 'Successes per second, 0 to 80 s'))),
    h('div', { id: id('col-legend') }),
    h('p', { class: 'fl-exports' }, h('button', { type: 'button', id: id('col-csv') }, 'Download the figure’s data (CSV)')));
}

// Hedging's figure (repros.js, hedging.js).
function hedging(id) {
  return h('section', { class: 'fl-repro', 'aria-labelledby': id('hg-h') },
    h('h3', { id: id('hg-h') }, 'Hedging: a second copy on purpose'),
    h('p', {}, 'gRPC’s hedging sends another copy of a request when the first has not answered after a delay, and takes whichever answers first (docs/throttling.md §6). Here every network leg takes an exponential time with a mean of 5 ms, with no queue: a second copy 20 ms after the first, sent for about one request in eleven, cuts the slowest hundredth’s latency. The lines are the closed form; the marks, p50, p90 and p99 of 100,000 requests the engine ran each way. A hedged payment without an idempotency key is charged once per copy served.'),
    h('p', { id: id('hg-status') }, 'Waiting for the reproductions above…'),
    h('div', { class: 'fl-panels' }, h('figure', {}, h('div', { id: id('hg-chart') }), h('figcaption', {}, 'The chance a request takes longer than x, on a log scale: circles one copy, squares hedged'))),
    h('details', { class: 'fl-data' }, h('summary', {}, 'The percentiles as a table, beside the closed form'),
      h('div', { id: id('hg-table'), class: 'fl-scroll', tabindex: 0, role: 'region', 'aria-label': 'Hedging’s percentiles, as a table' })));
}

// `.fl` is the container its wide layout asks (fleet.css): from 64.5rem the figure stands
// sticky beside the story and the controls (`.fl-grid`), in the article as in <retry-lab>.
export function fleetFrame(doc, { id, whole, linkAtStart, presets }) {
  return mount(h('div', { class: 'fl' }, h('div', { class: `fl-grid${whole ? '' : ' fl-view-only'}` },
    whole && story(id),
    figure(id, linkAtStart),
    effects(id),
    servers(id),
    stops(id, presets),
    whole && mapBox(id),
    whole && aws(id),
    whole && brooker(id),
    whole && collapse(id),
    whole && hedging(id))), doc);
}
