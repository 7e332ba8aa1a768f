// A comparison of two fleet runs (issue 17): `#v=1&view=compare&of=fleet&<fleet paths>&after.<path>=…`
// (docs/compare.md §1). Keys without a prefix are the before fleet request (as a fleet link
// writes it, web/fleet/model.js: its differences from the opening fleet run); `after.<path>`
// keys what the after side changes. Both runs go through the fleet engine in a worker, as the
// fleet section's do (web/fleet/compute.js); the view shows a difference line per metric of
// the fleet result (model.js's FLEET_*_METRICS, the rows retrysim prints) and the two storm
// charts (web/fleet/chart.js) on one time axis. retrysim reads the same links by the same
// rules (bindings/cli/link.cpp, readFleetSides).

import { h, mount, patch } from '../dom.js';
import { encodeFleetLink, getPath, leaves, parseFleetLink, setPath, stormSeries, verdictOf } from '../fleet/model.js';
import { stormChart } from '../fleet/chart.js';
import { fleetComputer } from '../fleet/compute.js';
import { MAX_LINK_LENGTH } from '../share/codec.js';
import { noticeView } from '../share/notice.js';
import { compareRuns } from './model.js';

const AFTER = 'after.';
const SINGLE_RUN_KEYS = ['client', 'after.client', 'trace', 'herdCallers'];

export const isFleetCompareLink = (hash) => (hash.startsWith('#') ? hash.slice(1) : hash).split('&').includes('of=fleet');

function safeDecode(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

// The table a fleet link's paths are read by (parseFleetLink's `table`): every path of the
// opening fleet run's request echo, typed by its value there (a number, true or false, a list,
// text, an object, or null). retrysim types them the same way from the same echo
// (bindings/cli/link.cpp), so the two readers cannot drift apart whatever else describes the
// fleet request.
export function echoTable(echo) {
  const rows = new Map();
  const walk = (obj, prefix) => {
    for (const [name, value] of Object.entries(obj)) {
      const path = prefix ? `${prefix}.${name}` : name;
      if (value && typeof value === 'object' && !Array.isArray(value)) {
        rows.set(path, { name, type: 'object', default: value });
        walk(value, path);
      } else {
        rows.set(path, { name, type: Array.isArray(value) ? 'list' : value === null ? 'null' : typeof value, default: value });
      }
    }
  };
  walk(echo, '');
  return { rows, from: 'echo' };
}

// The after request: the before request with the after side's leaves set on it. A gate the
// after side switches on (`after.gates.bucket=on`, an empty object) that the before side
// already has keeps the before side's fields.
export function overlayRequest(base, over) {
  let out = base;
  for (const [path, value] of leaves(over)) {
    const have = getPath(out, path);
    const on = value && typeof value === 'object' && !Array.isArray(value) && !Object.keys(value).length;
    if (on && have && typeof have === 'object') continue;
    out = setPath(out, path, value);
  }
  return out;
}

// A fleet compare link to { before, after, problems }: each side's fleet request (its
// differences from the opening fleet run) and the page's { key, value, reason } for every
// part not used (after keys named with their prefix). `table`: echoTable() of the opening run.
export function parseFleetCompareLink(hash, table) {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  if (text.length > MAX_LINK_LENGTH) return { before: {}, after: {}, problems: [{ key: 'link', value: `${text.slice(0, 40)}…`, reason: `is ${text.length} characters long, more than this page reads` }] };
  const problems = [];
  const own = { before: [], after: [] };
  const page = new Map();
  const twice = new Set();
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = safeDecode(eq === -1 ? part : part.slice(0, eq));
    const raw = eq === -1 ? '' : part.slice(eq + 1);
    if (key === 'v' || key === 'view' || key === 'of') {
      if (page.has(key) && !twice.has(key)) {
        twice.add(key);
        problems.push({ key, value: safeDecode(raw), reason: 'is given more than once' });
      }
      page.set(key, safeDecode(raw));
    } else if (SINGLE_RUN_KEYS.includes(key)) {
      problems.push({ key, value: safeDecode(raw), reason: 'is used only in a comparison of single runs' });
    } else if (key.startsWith(AFTER)) {
      own.after.push(`${encodeURIComponent(key.slice(AFTER.length))}=${raw}`);
    } else {
      own.before.push(`${encodeURIComponent(key)}=${raw}`);
    }
  }
  const version = page.has('v') ? page.get('v') : '1';
  if (twice.has('v') || version !== '1') {
    return { before: {}, after: {}, problems: [{ key: 'v', value: version, reason: twice.has('v') ? 'is given more than once, so the link cannot be read' : 'is a link format this page does not read (it reads v=1)' }] };
  }
  const b = parseFleetLink(own.before.join('&'), table);
  const a = parseFleetLink(own.after.join('&'), table);
  return {
    before: b.request,
    after: overlayRequest(b.request, a.request),
    problems: [...problems, ...b.problems, ...a.problems.map((p) => ({ ...p, key: AFTER + p.key }))],
  };
}

// The two series on one time axis: the shorter run's bins padded (nothing drawn there), so
// that both charts span the same seconds.
export function alignedSeries(before, after) {
  const series = [stormSeries(before), stormSeries(after)];
  if (series[0].binMs !== series[1].binMs) return series;
  const n = Math.max(series[0].points.length, series[1].points.length);
  return series.map((s) => {
    const points = [...s.points];
    while (points.length < n) {
      const i = points.length;
      points.push({ bin: i, startMs: i * s.binMs, offered: null, firstAttempts: null, retries: null, succeeded: null, timeouts: null, created: null, queue: 0, capacity: null });
    }
    return { ...s, points };
  });
}

function differences(comparison) {
  return h('table', { class: 'rl-compare-diffs' },
    h('caption', null, 'What changes, fleet metric by fleet metric'),
    h('thead', null, h('tr', null,
      h('th', { scope: 'col' }, 'Metric'), h('th', { scope: 'col' }, 'Before'), h('th', { scope: 'col' }, 'After'), h('th', { scope: 'col' }, 'Change'))),
    h('tbody', null, comparison.rows));
}

// `hash()`: the link; `fleet`: { engineUrl, bundleUrl, mainEngine } (the compare bundle doubles
// as the worker's script, web/compare/index.js); `rowsOf(comparison)` and `summaryNodes`:
// view.js's difference rows and summary, the single run's own.
export function mountFleetCompare(box, { hash, linkBase, fleet, rowsOf, summaryNodes }) {
  const doc = box.ownerDocument;
  const win = doc.defaultView;
  const computer = fleetComputer(win, fleet);
  const side = (key, label) => h('section', { class: `rl-compare-side rl-compare-${key}`, 'aria-labelledby': `cmpf-${key}-heading`, 'data-side': key },
    h('div', { class: 'rl-compare-side-head' },
      h('h3', { id: `cmpf-${key}-heading` }, label),
      h('p', { class: 'fl-verdict', 'data-verdict': key }),
      h('a', { class: 'rl-compare-alone', 'data-alone': key }, `Open the ${key} fleet run alone`)),
    h('figure', { class: 'rl-compare-figure' },
      h('div', { class: 'fl-chart-box', 'data-chart': key }),
      h('figcaption', null, `${label}: attempts offered, capacity, successes and timeouts per second, and the queue below.`)));
  const frame = mount(h('section', { class: 'rl-compare rl-compare-fleet', 'aria-labelledby': 'cmpf-heading' },
    h('div', { class: 'rl-compare-head' },
      h('h2', { id: 'cmpf-heading', class: 'rl-compare-title' }, 'Before and after: two fleet runs'),
      h('p', { class: 'rl-compare-summary', 'data-compare-summary': '' }),
      h('div', { 'data-compare-notice': '' }),
      h('p', { class: 'fl-progress', role: 'status', 'data-compare-status': '' }, 'Computing the two fleet runs… (in a worker, so the page stays responsive)'),
      h('p', { class: 'rl-failure', role: 'alert', hidden: true, 'data-compare-error': '' }),
      h('div', { class: 'rl-compare-live', 'data-compare-live': '' }),
      h('p', { class: 'rl-compare-axis' }, 'Both storms on one time axis: the same seconds, left to right, in each chart.')),
    h('div', { class: 'rl-compare-sides rl-compare-fleet-sides' }, side('before', 'Before'), side('after', 'After'))), doc);
  box.replaceChildren(frame);
  const $ = (selector) => frame.querySelector(selector);
  let table = null;
  let shown = null;

  function fail(text) {
    const error = $('[data-compare-error]');
    error.hidden = false;
    error.textContent = text;
    $('[data-compare-status]').textContent = '';
    frame.dataset.compared = 'failed';
  }

  function draw(before, after, requests) {
    const comparison = compareRuns(before, after, { of: 'fleet' });
    shown = { before, after, comparison, requests };
    patch($('[data-compare-summary]'), summaryNodes(comparison.summary));
    patch($('[data-compare-live]'), differences({ rows: rowsOf(comparison) }));
    frame.classList.toggle('rl-compare-side-effect', comparison.sideEffectChanged);
    frame.classList.toggle('rl-compare-outcome', comparison.outcomeChanged);
    const series = alignedSeries(before, after);
    for (const [i, key, result] of [[0, 'before', before], [1, 'after', after]]) {
      const verdict = verdictOf(result);
      const v = $(`[data-verdict="${key}"]`);
      v.dataset.kind = verdict.kind;
      v.textContent = verdict.shortText;
      patch($(`[data-chart="${key}"]`), stormChart(series[i], { id: `cmpf-${key}-chart`, title: `${key === 'before' ? 'Before' : 'After'}: the storm over time` }));
      $(`[data-alone="${key}"]`).href = `${linkBase()}#${encodeFleetLink(key === 'before' ? shown.requests[0] : shown.requests[1])}`;
    }
    $('[data-compare-status]').textContent = `Compared: ${comparison.summary.replace(/`/g, '')}.`;
    frame.dataset.compared = 'true';
  }

  function runSides() {
    const parsed = parseFleetCompareLink(hash(), table);
    const notice = $('[data-compare-notice]');
    notice.replaceChildren();
    if (parsed.problems.length) notice.append(mount(noticeView((name) => `cmpf-${name}`, parsed.problems, 'link'), doc));
    $('[data-compare-status]').textContent = 'Computing the two fleet runs… (in a worker, so the page stays responsive)';
    frame.dataset.compared = 'false';
    computer.run([parsed.before, parsed.after], {
      onDone(results) {
        const bad = results.find((r) => !r.ok);
        if (bad) {
          fail(`A fleet run could not run: ${bad.errors.map((e) => e.message).join(' ')}`);
          return;
        }
        draw(results[0], results[1], [parsed.before, parsed.after]);
      },
      onError: (message) => fail(`The fleet engine could not run here (${message}).`),
    });
  }

  // The opening fleet run first: its echo is the table a fleet link's paths are read by.
  function read() {
    if (table) {
      runSides();
      return;
    }
    computer.run([{}], {
      onDone([opening]) {
        if (!opening || !opening.ok) {
          fail('The opening fleet run could not run.');
          return;
        }
        table = echoTable(opening.request);
        runSides();
      },
      onError: (message) => fail(`The fleet engine could not run here (${message}).`),
    });
  }
  read();
  return {
    read,
    fleet: true,
    comparison: () => (shown ? shown.comparison : null),
    destroy() {
      computer.destroy();
      box.replaceChildren();
    },
  };
}
