// A comparison of two fleet runs (issue 17): `#v=1&view=compare&of=fleet&<fleet paths>&after.<path>=…`
// (docs/compare.md §1). Keys without a prefix are the before fleet request (as a fleet link
// writes it, web/fleet/model.js: its differences from the opening fleet run); `after.<path>`
// keys what the after side changes. Both runs go through the fleet engine in a worker, as the
// fleet section's do (web/fleet/compute.js); the view shows a difference line per metric of
// the fleet result (model.js's FLEET_*_METRICS, the rows retrysim prints) and the two storm
// charts (web/fleet/chart.js) on one time axis. retrysim reads the same links by the same
// rules (bindings/cli/link.cpp, readFleetSides).

import { h, mount, patch } from '../dom.js';
import { encodeFleetLink, fleetTable, getPath, heldRequest, leaves, parseFleetLink, requestDiff, setPath, stormSeries, verdictOf } from '../fleet/model.js';
import { stormChart } from '../fleet/chart.js';
import { fleetComputer } from '../fleet/compute.js';
import { FORMAT, LINK_VERSION, MAX_LINK_LENGTH, VERSION_PAIR, say } from '../share/codec.js';
import { attributesAsCompareLink } from '../share/compare-link.js';
import { sourceNotice } from './source.js';
import { compareRuns, metricTable } from './model.js';
import { fleetLabels, headlineText } from './headline.js';
import { comparisonMarkdown, copyMarkdownControls, wireCopyMarkdown } from './markdown.js';
import { attributeOfPath } from '../fleet/embed.js';

const AFTER = FORMAT.after;
// The keys of a comparison of single runs: its presets (the comparison's keys but view and of) and
// the page's own (link-format.json).
const SINGLE_RUN_KEYS = [...FORMAT.compareKeys.filter((key) => key !== 'view' && key !== 'of'), ...FORMAT.pageKeys];
const FLEET_ELEMENT = '<retry-lab view="compare" of="fleet">';

export const isFleetCompareLink = (hash) => (hash.startsWith('#') ? hash.slice(1) : hash).split('&').includes('of=fleet');

function safeDecode(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
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
// part not used (after keys named with their prefix). `table`: fleetTable() of the fleet
// engine's fleetSchema(), the table the fleet section reads its links by.
export function parseFleetCompareLink(hash, table) {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  if (text.length > MAX_LINK_LENGTH) return { before: {}, after: {}, problems: [{ key: 'link', value: `${text.slice(0, 40)}…`, reason: say('tooLong', { length: text.length.toLocaleString('en-US'), reader: 'this page' }) }] };
  const problems = [];
  const own = { before: [], after: [] };
  const page = new Map();
  const twice = new Set();
  for (const part of text.split(FORMAT.pairs)) {
    if (part === '') continue;
    const eq = part.indexOf(FORMAT.equals);
    const key = safeDecode(eq === -1 ? part : part.slice(0, eq));
    const raw = eq === -1 ? '' : part.slice(eq + 1);
    if (key === FORMAT.versionKey || key === 'view' || key === 'of') {
      if (page.has(key) && !twice.has(key)) {
        twice.add(key);
        problems.push({ key, value: safeDecode(raw), reason: say('givenTwice') });
      }
      page.set(key, safeDecode(raw));
    } else if (SINGLE_RUN_KEYS.includes(key)) {
      problems.push({ key, value: safeDecode(raw), reason: say('singleRunsOnly') });
    } else if (key.startsWith(AFTER)) {
      own.after.push(encodeURIComponent(key.slice(AFTER.length)) + FORMAT.equals + raw);
    } else {
      own.before.push(encodeURIComponent(key) + FORMAT.equals + raw);
    }
  }
  const v = FORMAT.versionKey;
  const version = page.has(v) ? page.get(v) : LINK_VERSION;
  if (twice.has(v) || version !== LINK_VERSION) {
    return { before: {}, after: {}, problems: [{ key: v, value: version, reason: twice.has(v) ? say('versionTwice') : say('otherVersion', { reader: 'this page' }) }] };
  }
  const b = parseFleetLink(own.before.join(FORMAT.pairs), table);
  const a = parseFleetLink(own.after.join(FORMAT.pairs), table);
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

// The after side's keys: every leaf where the after request's echo differs from the before
// request's, and a part the after side switches off (a gate, the trigger) as `null`. A gate
// the after side switches on at its defaults is `gates.<name>=on`.
export function afterDiff(afterShown, beforeShown, table) {
  // A sparse row the echo leaves out at its default is still held (heldRequest): a fault list the
  // after side empties is `after.faults=`, not left out (the before side's faults would return).
  const afterEcho = heldRequest(table, afterShown);
  const beforeEcho = heldRequest(table, beforeShown);
  let out = {};
  for (const [path, value] of leaves(afterEcho)) {
    if (JSON.stringify(value) === JSON.stringify(getPath(beforeEcho, path))) continue;
    const keys = path.split('.');
    let at = keys.length;
    // A part that the before side has off: the after side switches it on.
    for (let i = 1; i < keys.length; ++i) {
      if (getPath(beforeEcho, keys.slice(0, i).join('.')) === null) { at = i; break; }
    }
    if (at < keys.length) {
      const part = keys.slice(0, at).join('.');
      if (getPath(out, part) !== undefined) continue;
      // The part as the engine echoes it (its defaults left out, as requestDiff writes a run),
      // not as held.
      const on = getPath(afterShown, part);
      out = setPath(out, part, part.startsWith('gates.') ? requestDiff({ gates: { [keys[1]]: on } }, { gates: {} }, table).gates[keys[1]] : on);
      continue;
    }
    out = setPath(out, path, value);
  }
  for (const [path] of leaves(beforeEcho)) {
    const keys = path.split('.');
    for (let i = 1; i <= keys.length; ++i) {
      const part = keys.slice(0, i).join('.');
      if (getPath(afterEcho, part) === null && getPath(beforeEcho, part) !== null) {
        out = setPath(out, part, null);
        break;
      }
    }
  }
  return out;
}

// The comparison's link for two fleet results (their echoes): the before request's
// differences from the opening fleet run, then the after side's (afterDiff). parseFleetCompareLink
// and retrysim read it back as the same two requests.
export function encodeFleetCompareLink(beforeEcho, afterEcho, table) {
  const keys = (diff) => encodeFleetLink(diff).split(FORMAT.pairs).slice(2);
  return [VERSION_PAIR, 'view=compare', 'of=fleet',
    ...keys(requestDiff(beforeEcho, table.opening, table)),
    ...keys(afterDiff(afterEcho, beforeEcho, table)).map((part) => AFTER + part)].join(FORMAT.pairs);
}

// --- each side's controls, from the fleet engine's table ---------------------------------------

// A list whose items are objects (docs/servers.md §2's faults and servers.overrides, a stack of
// layers) is written and read as JSON.
const isObjectList = (row) => row.type === 'list' && Boolean(row.items) && row.items.type === 'object';
const KINDS = { number: 'number', boolean: 'boolean', choice: 'choice', list: 'list' };

// The controls a side shows for a request's echo: a row of the table for every field the run
// holds (heldRequest: the echo's, and a sparse row at its default; a member of a part switched
// off, or of another variant, is not shown), and a switch for each part that may be off (the
// trigger, a gate). A sparse row the run holds as null (trigger.servers, a gate's layer, the
// stack of layers: a part this run leaves unused) has no box of its own: the page's choice.
// { path, row, kind, value }, kind one of 'number', 'boolean', 'choice', 'list', 'json' (a list
// of objects), 'text', 'switch'.
export function fleetControls(table, echo) {
  const held = heldRequest(table, echo);
  const out = [];
  for (const [path, row] of table.rows) {
    const dot = path.lastIndexOf('.');
    const parent = dot === -1 ? null : path.slice(0, dot);
    if (parent !== null) {
      const holder = getPath(held, parent);
      if (!holder || typeof holder !== 'object') continue;
    }
    const value = getPath(held, path);
    if (row.type === 'object' || row.type === 'variant') {
      if (row.nullable) out.push({ path, row, kind: 'switch', value: Boolean(value && typeof value === 'object') });
      continue;
    }
    if (value === undefined || (value === null && row.sparse)) continue;
    out.push({ path, row, kind: isObjectList(row) ? 'json' : KINDS[row.type] || 'text', value });
  }
  return out;
}

// A control's text as the reader types it, read back: { value } or { problem }.
export function readControl(control, text, checked) {
  const { row, kind } = control;
  if (kind === 'switch' || kind === 'boolean') return { value: Boolean(checked) };
  if (kind === 'choice' || kind === 'text') return { value: text };
  if (kind === 'json') {
    let list;
    try {
      list = JSON.parse(text.trim() === '' ? '[]' : text);
    } catch {
      return { problem: 'is a list written as JSON, [{"name": value, …}, …]' };
    }
    if (!Array.isArray(list) || list.some((item) => !item || typeof item !== 'object' || Array.isArray(item))) return { problem: 'is a list of objects, [{…}, …]' };
    return { value: list };
  }
  if (kind === 'list') {
    const items = text.split(',').map((t) => t.trim()).filter((t) => t !== '');
    if (row.items && row.items.type === 'number') {
      const numbers = items.map(Number);
      if (numbers.some((n) => !Number.isFinite(n))) return { problem: 'is a list of numbers, written with commas' };
      return { value: numbers };
    }
    return { value: items };
  }
  if (text.trim() === '') return row.nullable ? { value: null } : { problem: 'needs a number' };
  const n = Number(text);
  if (!Number.isFinite(n)) return { problem: 'is not a number' };
  return { value: n };
}

// The request after a control changed: a variant's name starts that variant afresh (its
// members at their defaults), a switch turns a part on at its defaults or off (null).
export function withControl(request, control, value, table) {
  const { path, row, kind } = control;
  const dot = path.lastIndexOf('.');
  const parent = dot === -1 ? null : table.rows.get(path.slice(0, dot));
  if (parent && parent.type === 'variant' && parent.discriminator === row.name) return setPath(request, path.slice(0, dot), { [row.name]: value });
  if (kind === 'switch') {
    if (!value) return setPath(request, path, null);
    return setPath(request, path, row.type === 'variant' ? { [row.discriminator]: row.variants[0].name } : {});
  }
  return setPath(request, path, value);
}

// A control's value as its text box shows it.
const controlText = ({ kind, value }) => (value === null ? '' : kind === 'json' ? JSON.stringify(value) : Array.isArray(value) ? value.join(',') : String(value));

const LABELS = new Map(/** @type {Array<[string, string]>} */ (fleetLabels()));
const GROUP_WORDS = { policy: 'Retry policy', server: 'Server', trigger: 'What goes wrong', gates: 'What stops a storm (gates)', network: 'Network', spike: 'Spike', servers: 'Servers (replicas)', balancer: 'The balancer', faults: 'Faults: crashes and partitions', keyStore: 'Where the idempotency keys live' };

function controlNode(prefix, control) {
  const { path, row, kind, value } = control;
  const id = `${prefix}${path.replace(/[^A-Za-z0-9]/g, '-')}`;
  // Labelled as the fleet section labels it (headline.js's one map), else by its path.
  const unit = row.unit && row.unit !== row.name ? ` (${row.unit})` : '';
  const named = LABELS.get(path);
  const label = kind === 'switch' ? `${named || path} on` : named || `${path}${unit}`;
  const common = { id, 'data-path': path, 'aria-describedby': `${id}-about` };
  let input;
  if (kind === 'choice') {
    input = h('select', common, ...(row.choices || []).map((c) => h('option', { value: c.name, selected: c.name === value }, c.name)));
  } else if (kind === 'boolean' || kind === 'switch') {
    input = h('input', { ...common, type: 'checkbox', checked: Boolean(value) });
  } else {
    const text = controlText(control);
    input = h('input', {
      ...common, type: 'text', value: text, spellcheck: 'false', autocomplete: 'off',
      inputmode: kind === 'number' ? 'decimal' : null, placeholder: value === null ? 'none' : null,
    });
  }
  return h('div', { class: `rl-fc-control rl-fc-${kind}`, 'data-control': path },
    h('label', { for: id }, label),
    input,
    h('span', { id: `${id}-about`, class: 'rl-fc-about' }, row.description || ''),
    h('span', { class: 'rl-fc-problem', role: 'alert', 'data-problem': path }));
}

// A side's controls, grouped by the first part of each path, each group a <details> (the retry
// policy open). A top-level part's own switch (the trigger, many servers) is in its part's group,
// and so is a top-level list of objects (the faults); the other top-level fields are the load's.
const groupOf = ({ path, row, kind }) => (path.includes('.') ? path.slice(0, path.indexOf('.'))
  : kind === 'switch' || kind === 'json' || row.type === 'object' ? path : 'load');
function controlsView(prefix, label, controls) {
  const groups = new Map();
  for (const c of controls) {
    const top = groupOf(c);
    if (!groups.has(top)) groups.set(top, []);
    groups.get(top).push(c);
  }
  return h('div', { class: 'rl-fc-controls', role: 'group', 'aria-label': `${label}: the fleet request` },
    ...[...groups].map(([top, list]) => h('details', { class: 'rl-fc-group', open: top === 'policy', 'data-group': top },
      h('summary', null, `${GROUP_WORDS[top] || (top === 'load' ? 'The load and the run' : top)} (${list.length})`),
      ...list.map((c) => controlNode(prefix, c)))));
}

// A side's controls: drawn again only when the fields shown change (a gate switched on, another
// trigger), otherwise brought up to the run's values in place, so focus and typing stay.
function drawSideControls(box, { table, request, prefix, label }) {
  const doc = box.ownerDocument;
  const controls = fleetControls(table, request);
  const shape = controls.map((c) => `${c.path}:${c.kind}`).join(' ');
  if (box.dataset.shape !== shape) {
    const open = new Set([...box.querySelectorAll('details[open]')].map((d) => d.dataset.group));
    const focused = doc.activeElement && box.contains(doc.activeElement) ? doc.activeElement.dataset.path : null;
    patch(box, controlsView(prefix, label, controls));
    box.dataset.shape = shape;
    if (open.size) for (const d of box.querySelectorAll('details')) d.open = open.has(d.dataset.group);
    if (focused) {
      const again = box.querySelector(`[data-path="${focused}"]`);
      if (again) again.focus();
    }
    box.controls = new Map(controls.map((c) => [c.path, c]));
    return;
  }
  box.controls = new Map(controls.map((c) => [c.path, c]));
  for (const c of controls) {
    const input = box.querySelector(`[data-path="${c.path}"]`);
    if (!input || input === doc.activeElement) continue;
    if (input.type === 'checkbox') input.checked = Boolean(c.value);
    else input.value = controlText(c);
  }
}

// A job's results into its sides: each good one is that side's run on show; a side whose run
// failed keeps its last good one (its request goes back to it) and says why. The sides that
// failed, by key.
function keepResults(frame, sides, due, asked, results) {
  const bad = [];
  due.forEach((key, i) => {
    const result = results[i];
    const error = frame.querySelector(`[data-side-error="${key}"]`);
    if (result && result.ok) {
      sides[key].result = result;
      sides[key].ran = asked[i];
      sides[key].good = asked[i];
      error.hidden = true;
      error.textContent = '';
    } else {
      bad.push(key);
      // The last good run stays on show; the request goes back to it.
      sides[key].request = sides[key].good || asked[i];
      sides[key].ran = sides[key].request;
      error.hidden = false;
      const errors = result && result.errors ? result.errors : [{ message: 'the fleet engine gave no result' }];
      error.textContent = `${key === 'before' ? 'Before' : 'After'}: ${errors.map((e) => e.message).join(' ')}${sides[key].result ? ' The run on show is the last one that could run.' : ''}`;
    }
  });
  return bad;
}

// A side's run: its verdict, its storm chart (`ghost` the run faint under it), its link alone.
function drawSide(frame, key, result, { id, series, ghost, ghostName, alone, newTab }) {
  const $ = (selector) => frame.querySelector(selector);
  const verdict = result.timeline ? verdictOf(result) : { kind: 'none', shortText: `the occ workload: means over ${result.runs ? result.runs.length : 0} runs` };
  const v = $(`[data-verdict="${key}"]`);
  v.dataset.kind = verdict.kind;
  v.textContent = verdict.shortText;
  patch($(`[data-chart="${key}"]`), series
    ? stormChart(series, { id: id(`${key}-chart`), title: `${key === 'before' ? 'Before' : 'After'}: the storm over time`, ghost, ghostName })
    : h('p', { class: 'fl-progress' }, 'An occ run has no storm over time: its means are in the table above.'));
  const link = $(`[data-alone="${key}"]`);
  link.href = alone;
  if (newTab) {
    link.target = '_blank';
    link.rel = 'noopener';
  }
}

// One side of the comparison: its heading, verdict and link alone, its error, its storm chart and
// its controls' box.
const side = (id, key, label) => h('section', { class: `rl-compare-side rl-compare-${key}`, 'aria-labelledby': id(`${key}-heading`), 'data-side': key },
  h('div', { class: 'rl-compare-side-head' },
    h('h3', { id: id(`${key}-heading`) }, label),
    h('p', { class: 'fl-verdict', 'data-verdict': key }),
    h('a', { class: 'rl-compare-alone', 'data-alone': key }, `Open the ${key} fleet run alone`)),
  h('p', { class: 'rl-failure', role: 'alert', hidden: true, 'data-side-error': key }),
  h('figure', { class: 'rl-compare-figure' },
    // As the fleet section's: where the figure is narrower than the chart (a phone) the box
    // scrolls sideways, a stop for the keyboard with a name, and a line says so (fleet.css).
    h('p', { class: 'fl-scroll-cue' }, 'The chart is wider than the screen: scroll it sideways →'),
    h('div', { class: 'fl-chart-box', 'data-chart': key, tabindex: 0, role: 'region', 'aria-label': `${label}: the storm over time` }),
    h('figcaption', null, `${label}: attempts offered, capacity, successes and timeouts per second, and the queue below.`)),
  h('div', { 'data-controls': key }));

// The comparison's frame: the heading, the summary, the status, the link (and Copy as Markdown,
// `markdownControls`, when there is an engine to write it), and the two sides.
function compareFrame(id, markdownControls) {
  return h('section', { class: 'rl-compare rl-compare-fleet', 'aria-labelledby': id('heading') },
    h('div', { class: 'rl-compare-head' },
      h('h2', { id: id('heading'), class: 'rl-compare-title' }, 'Before and after: two fleet runs'),
      h('p', { class: 'rl-compare-summary', 'data-compare-summary': '' }),
      h('div', { 'data-compare-notice': '' }),
      h('p', { class: 'fl-progress', role: 'status', 'data-compare-status': '' }, 'Computing the two fleet runs… (in a worker, so the page stays responsive)'),
      h('p', { class: 'rl-failure', role: 'alert', hidden: true, 'data-compare-error': '' }),
      h('div', { class: 'rl-compare-live', 'data-compare-live': '' }),
      h('p', { class: 'rl-compare-axis' }, 'Both storms on one time axis: the same seconds, left to right, in each chart.'),
      h('div', { class: 'rl-share-row rl-compare-share' },
        h('label', { class: 'rl-share-label', for: id('link') }, 'Link to this comparison'),
        h('input', { type: 'text', id: id('link'), class: 'rl-share-link', readonly: true, spellcheck: 'false', autocomplete: 'off' }),
        markdownControls && markdownControls[0]),
      markdownControls && h('p', { class: 'rl-share-status', id: id('status'), role: 'status' }),
      markdownControls && markdownControls[1]),
    h('div', { class: 'rl-compare-sides rl-compare-fleet-sides' }, side(id, 'before', 'Before'), side(id, 'after', 'After')));
}

// `source`: where the comparison comes from and goes to (source.js: the page's address, or the
// element's attributes), each function given the fleet table (`hash(table)`, `read(table)`); `fleet`: { engineUrl, bundleUrl, mainEngine }
// (the compare bundle doubles as the worker's script, web/compare/index.js); `metrics`: the
// engine's compareMetrics(); `rowsOf(comparison, metrics)`: view.js's difference rows, the
// single run's own (the summary is the fleet headline, headline.js); `idPrefix`: for the ids of several on a page.
// `engine`: an engine file's API with markdown() (the page's), for Copy as Markdown; without it
// (the element's fleet comparison) there is no such button.
export function mountFleetCompare(box, { source, linkBase, fleet, metrics, rowsOf, idPrefix = 'cmpf-', engine = null }) {
  const newTab = Boolean(source.newTab);
  const doc = box.ownerDocument;
  const win = doc.defaultView;
  const computer = fleetComputer(win, fleet);
  const id = (name) => `${idPrefix}${name}`;
  const markdownControls = engine && engine.markdown ? copyMarkdownControls(h, id) : null;
  const frame = mount(compareFrame(id, markdownControls), doc);
  box.replaceChildren(frame);
  const $ = (selector) => frame.querySelector(selector);
  let table = null;
  // Each side: `request` what the reader asked for, `result` the run on show (the last that ran).
  const sides = { before: { request: null, result: null }, after: { request: null, result: null } };
  let comparison = null;
  const notice = sourceNotice($('[data-compare-notice]'), id);
  // Copy as Markdown (markdown.js): the comparison on show, with the link the box shows.
  if (markdownControls) {
    wireCopyMarkdown(win, {
      button: $(`#${id('copy-md')}`), status: $(`#${id('status')}`), box: $(`#${id('md')}`), address: source.address,
      written: () => (comparison
        ? comparisonMarkdown(engine, comparison, { metrics, base: source.address(), link: `#${encodeFleetCompareLink(sides.before.result.request, sides.after.result.request, table)}` })
        : { error: 'the two fleet runs are still computing' }),
    });
  }

  function fail(text) {
    const error = $('[data-compare-error]');
    error.hidden = false;
    error.textContent = text;
    $('[data-compare-status]').textContent = '';
    frame.dataset.compared = 'failed';
  }

  const drawControls = (key) => drawSideControls($(`[data-controls="${key}"]`), { table, request: sides[key].result.request, prefix: `${idPrefix}${key}-`, label: key === 'before' ? 'Before' : 'After' });

  function draw() {
    const before = sides.before.result;
    const after = sides.after.result;
    comparison = compareRuns(before, after, { metrics, of: 'fleet' });
    patch($('[data-compare-summary]'), comparison.headline.map((part) => (typeof part === 'string' ? part : h('code', null, part.code))));
    patch($('[data-compare-live]'), differences({ rows: rowsOf(comparison, metrics) }));
    frame.classList.toggle('rl-compare-side-effect', comparison.sideEffectChanged);
    frame.classList.toggle('rl-compare-outcome', comparison.outcomeChanged);
    // The occ workload (FLEET.md §7) has no storm over time: its means are in the table.
    const series = before.timeline && after.timeline ? alignedSeries(before, after) : [before, after].map((r) => (r.timeline ? stormSeries(r) : null));
    for (const [i, key, result] of [[0, 'before', before], [1, 'after', after]]) {
      // Each chart draws the other run faint under it (issue 35), so both are on the scales both
      // need: the same time, rate and queue axes.
      drawSide(frame, key, result, { id, series: series[i], ghost: series[1 - i], ghostName: i === 1 ? 'the before run' : 'the after run', alone: `${linkBase()}#${encodeFleetLink(requestDiff(result.request, table.opening, table))}`, newTab });
      drawControls(key);
    }
    const hash = `#${encodeFleetCompareLink(before.request, after.request, table)}`;
    $(`#${id('link')}`).value = `${source.address()}${hash}`;
    $('[data-compare-status]').textContent = `Compared: ${headlineText(comparison.headline).replace(/`/g, '')}.`;
    frame.dataset.compared = 'true';
    return hash;
  }

  // Computes the sides whose request is not the run on show, in one job (a newer job replaces
  // one waiting, so each job carries every side still to compute); `write`: rewrite the link.
  function compute({ write = false, first = false } = {}) {
    const due = ['before', 'after'].filter((key) => !sides[key].result || sides[key].ran !== sides[key].request);
    if (!due.length) return;
    frame.dataset.compared = 'false';
    frame.dataset.computing = due.join(' '); // which sides this job computes (a test reads it)
    $('[data-compare-status]').textContent = `Computing the ${due.length === 2 ? 'two fleet runs' : `${due[0]} fleet run`}… (in a worker, so the page stays responsive)`;
    const asked = due.map((key) => sides[key].request);
    computer.run(asked, {
      onDone(results) {
        const bad = keepResults(frame, sides, due, asked, results);
        if (!sides.before.result || !sides.after.result) {
          fail(`A fleet run could not run: ${$(`[data-side-error="${bad[0]}"]`).textContent}`);
          return;
        }
        $('[data-compare-error]').hidden = true;
        const hash = draw();
        if (write && !first && source.write) source.write(hash);
      },
      onError: (message) => fail(`The fleet engine could not run here (${message}).`),
    });
  }

  // A control changed: that side's request, then that side alone computed again.
  function onControl(event) {
    const input = event.target;
    const path = input.dataset && input.dataset.path;
    const holder = input.closest('[data-controls]');
    if (!path || !holder || !table) return;
    const key = holder.dataset.controls;
    const control = holder.controls && holder.controls.get(path);
    if (!control) return;
    const read = readControl(control, input.value, input.checked);
    const problem = holder.querySelector(`[data-problem="${path}"]`);
    if (read.problem) {
      input.setAttribute('aria-invalid', 'true');
      problem.textContent = `${path} ${read.problem}: the run on show keeps its last value.`;
      return;
    }
    input.removeAttribute('aria-invalid');
    problem.textContent = '';
    sides[key].request = withControl(sides[key].result.request, control, read.value, table);
    compute({ write: true });
  }
  frame.addEventListener('change', onControl);

  // The link (or the element's attributes) read again: both sides from it. `keep`: a source
  // that has shown a comparison keeps it when what it holds now cannot all be used.
  function runSides({ keep = false } = {}) {
    const said = source.read(table);
    const parsed = parseFleetCompareLink(source.hash(table), table);
    const problems = [...said.problems, ...parsed.problems.map(said.rename)];
    if (!notice(problems, said.source, keep)) return;
    sides.before.request = parsed.before;
    sides.after.request = parsed.after;
    compute({ first: true });
  }

  // The fleet engine's table first: the paths of a link and the controls are read by it.
  function read(options) {
    if (table) {
      runSides(options);
      return;
    }
    computer.schema().then((schema) => {
      try {
        table = fleetTable(schema);
      } catch (error) {
        fail(`The fleet engine could not run here (${error.message}).`);
        return;
      }
      runSides(options);
    }, (error) => fail(`The fleet engine could not run here (${error.message}).`));
  }
  read();
  return {
    read,
    fleet: true,
    comparison: () => comparison,
    destroy() {
      frame.removeEventListener('change', onControl);
      computer.destroy();
      box.replaceChildren();
    },
  };
}

// <retry-lab view="compare" of="fleet">'s attributes as a fleet compare link (docs/compare.md
// §3): a fleet attribute (`policy.max-retries`, web/fleet/embed.js) is the before request and
// what both share, `after-` and a fleet attribute what the after side changes; `link` a fleet
// compare link, whose keys an attribute overrides. { hash, names: key → attribute, problems }.
export function fleetCompareLinkOfAttributes(attributes, table, ignored) {
  const byAttribute = new Map();
  for (const path of table.rows.keys()) byAttribute.set(attributeOfPath(path), path);
  const flat = (text) => text.toLowerCase().replace(/-/g, '');
  return attributesAsCompareLink(attributes, ignored, {
    keyOf: (own) => byAttribute.get(own),
    hintOf(own, after) {
      const meant = [...byAttribute.keys()].find((a) => flat(a) === flat(own) || flat(a.split('.').pop()) === flat(own));
      return `is not an attribute of ${FLEET_ELEMENT}${meant ? `; did you mean ${after ? 'after-' : ''}${meant}?` : ''}`;
    },
    marks: ['view=compare', 'of=fleet'],
    notOne: 'is not a comparison of two fleet runs (it has no view=compare&of=fleet)',
  });
}
