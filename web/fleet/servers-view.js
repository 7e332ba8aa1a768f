// The storm server by server (issue 39), in the fleet section (section.js): the per-server
// verdicts beside the fleet's (in the figure, under its verdict), and in the "Many servers" box
// the strip (servers.js serversChart: one row per server on the storm's time axis), the
// storm cursor's second server by server, and the table a screen reader reads. A run with one
// server and no fault has no per-server rows: the box then says how to get them. It draws from
// the section's one state (`ctx.s`).

import { h, patch } from '../dom.js';
import { chartWidth } from './storm.js';
import { SERVER_COLUMNS, hasServers, serverRows, serverVerdictsText, serversBinText, serversChart } from './servers.js';

// mountServers(ctx) → { draw(cursorOnly) }.
export function mountServers(ctx) {
  const { $, id, s } = ctx;
  const box = $('servers-view');
  const verdicts = $('server-verdicts');

  function table(result) {
    return h('div', { class: 'fl-scroll', tabindex: 0, role: 'region', 'aria-labelledby': id('servers-caption') },
      h('table', { class: 'fl-table fl-servers-table' },
        h('caption', { id: id('servers-caption') }, 'Each server over the whole run (attempts by the time they were sent)'),
        h('thead', {}, h('tr', {}, ...SERVER_COLUMNS.map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', {}, ...serverRows(result).map((r) => h('tr', {}, h('th', { scope: 'row' }, `server ${r[0]}`), ...r.slice(1).map((c) => h('td', {}, c)))))));
  }

  function draw(cursorOnly = false) {
    if (!box || !s.shown) return;
    const { result } = s.shown;
    const on = hasServers(result);
    if (!on) {
      verdicts.hidden = true;
      if (!cursorOnly) patch(box, h('p', { class: 'fl-note-text' }, 'The run on show has one server. Choose more replicas, or a preset below, to see the storm server by server.'));
      return;
    }
    const chartBox = $('servers-chart');
    const readout = s.cursor === null ? 'The storm chart’s arrow keys also step this strip: one second, server by server.' : serversBinText(result, s.cursor);
    if (cursorOnly && chartBox) {
      patch(chartBox, serversChart(result, { id: id('servers-svg'), width: chartWidth(chartBox), cursor: s.cursor }));
      const out = $('servers-readout');
      if (out.textContent !== readout) out.textContent = readout;
      return;
    }
    const text = serverVerdictsText(result);
    verdicts.hidden = !text;
    verdicts.textContent = text;
    if (!chartBox) {
      patch(box, h('div', { class: 'fl-chart-box', id: id('servers-chart') }), h('p', { class: 'fl-readout', id: id('servers-readout') }), h('div', { id: id('servers-table') }));
    }
    const cb = $('servers-chart');
    patch(cb, serversChart(result, { id: id('servers-svg'), width: chartWidth(cb), cursor: s.cursor }));
    $('servers-readout').textContent = readout;
    patch($('servers-table'), table(result));
  }

  return { draw };
}
