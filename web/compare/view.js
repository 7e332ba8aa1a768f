// Compare mode (issue 17): two explorables side by side, before and after, each with its own
// controls; above them what differs, a line per metric (a side effect or an outcome that
// changes is marked in words and colour), and both runs on one time axis. The comparison
// lives in the address as one link (share/compare-link.js), rewritten as either side changes;
// each side can be opened alone.

import { h, mount, patch } from '../dom.js';
import { presetById } from '../clients/presets.js';
import { encodeCompareLink, isCompareLink, readCompareLink } from '../share/compare-link.js';
import { compareRuns, deltaText, metricTable, metricText } from './model.js';
import { comparisonMarkdown, copyMarkdownControls, wireCopyMarkdown } from './markdown.js';
import { alignedTimelines } from './timeline.js';
import { fleetCompareLinkOfAttributes, isFleetCompareLink, mountFleetCompare } from './fleet.js';
import { pageSource, sourceNotice } from './source.js';

const WRITE_DELAY_MS = 200;
const presetName = (id) => (presetById(id) ? presetById(id).short : id);

// "urllib3’s default Retry, `maxRetries` 3 → 10": the names in backticks as code.
function summaryNodes(summary) {
  return summary.split('`').map((part, i) => (i % 2 ? h('code', null, part) : part)).filter((n) => n !== '');
}

// The difference lines: every metric, before and after; the changed ones say by how much, and
// a side effect or outcome that changes says so in words (not by colour alone).
export function differencesView(comparison, table) {
  return h('table', { class: 'rl-compare-diffs' },
    h('caption', null, 'What changes, metric by metric'),
    h('thead', null, h('tr', null,
      h('th', { scope: 'col' }, 'Metric'), h('th', { scope: 'col' }, 'Before'), h('th', { scope: 'col' }, 'After'), h('th', { scope: 'col' }, 'Change'))),
    h('tbody', null, differenceRows(comparison, table)));
}

// A row per metric; `table`: the engine's compareMetrics() (model.js metricTable), whose rows
// say each metric's unit and the words for none.
export function differenceRows(comparison, table) {
  const rows = new Map(metricTable(table)[comparison.of === 'fleet' ? 'fleet' : 'run'].map((row) => [row.name, row]));
  return comparison.metrics.map((m) => {
      const row = rows.get(m.name);
      const flagWords = m.flag === 'side-effect' ? 'side effect changes' : m.flag === 'outcome' ? 'outcome changes' : '';
      const change = m.changed ? [deltaText(row, m.delta), flagWords].filter(Boolean).join(', ') || 'changed' : 'same';
      return h('tr', {
        class: `rl-diff${m.changed ? ' rl-diff-changed' : ''}${m.flag ? ' rl-diff-flag' : ''}`,
        'data-metric': m.name, 'data-changed': m.changed ? 'true' : 'false', 'data-flag': m.flag || null,
      },
      h('th', { scope: 'row' }, m.label),
      h('td', { 'data-side': 'before' }, metricText(row, m.before)),
      h('td', { 'data-side': 'after' }, metricText(row, m.after)),
      h('td', { class: 'rl-diff-change' }, m.flag ? h('strong', null, change) : change));
  });
}

function frameView() {
  const markdownControls = copyMarkdownControls(h, (name) => `cmp-${name}`);
  const side = (key, label) => h('section', { class: `rl-compare-side rl-compare-${key}`, 'aria-labelledby': `cmp-${key}-heading`, 'data-side': key },
    h('div', { class: 'rl-compare-side-head' },
      h('h3', { id: `cmp-${key}-heading` }, label),
      h('p', { class: 'rl-compare-client', 'data-client': key }),
      h('a', { class: 'rl-compare-alone', 'data-alone': key }, `Open the ${key} run alone`)),
    h('div', { class: 'retry-lab rl-compare-lab', 'data-compare-lab': key }));
  return h('section', { class: 'rl-compare', 'aria-labelledby': 'cmp-heading' },
    h('div', { class: 'rl-compare-head' },
      h('h2', { id: 'cmp-heading', class: 'rl-compare-title' }, 'Before and after'),
      h('p', { class: 'rl-compare-summary', 'data-compare-summary': '' }),
      h('div', { 'data-compare-notice': '' }),
      h('div', { class: 'rl-compare-live', 'data-compare-live': '' }),
      h('figure', { class: 'rl-compare-figure' },
        h('div', { class: 'rl-compare-timeline', 'data-compare-timeline': '' }),
        h('figcaption', null, 'Both runs on one time axis: attempts as bars, charges and replays as diamonds below them.')),
      h('div', { class: 'rl-share-row rl-compare-share' },
        h('label', { class: 'rl-share-label', for: 'cmp-link' }, 'Link to this comparison'),
        h('input', { type: 'text', id: 'cmp-link', class: 'rl-share-link', readonly: true, spellcheck: 'false', autocomplete: 'off' }),
        h('button', { type: 'button', id: 'cmp-copy', class: 'rl-button' }, 'Copy link'),
        markdownControls[0]),
      h('p', { class: 'rl-share-status', id: 'cmp-status', role: 'status' }),
      markdownControls[1],
      h('p', { class: 'rl-compare-status visually-hidden', role: 'status', 'data-compare-announce': '' }),
      h('div', { class: 'rl-compare-paste', 'data-compare-paste': '' })),
    h('div', { class: 'rl-compare-sides' }, side('before', 'Before'), side('after', 'After')));
}

// `app`: the page's explorable (its codec, schema and engine calls judge the link);
// `createExplorable`: app.js's, passed in so this bundle does not carry a second copy.
export function mountCompare(box, { app, engine, createExplorable, linkBase, source = null, paste = null }) {
  const doc = box.ownerDocument;
  const win = doc.defaultView;
  const from = source || pageSource(win);
  const embed = from.newTab;
  const judge = { codec: app.codec, schema: app.schema, validate: app.validate, compute: app.compute };
  const metrics = metricTable(engine.compareMetrics());
  const frame = mount(frameView(), doc);
  box.replaceChildren(frame);
  const $ = (selector) => frame.querySelector(selector);
  const sides = {
    before: createExplorable($('[data-compare-lab="before"]'), engine, { idPrefix: 'cmp-b-' }),
    after: createExplorable($('[data-compare-lab="after"]'), engine, { idPrefix: 'cmp-a-' }),
  };
  // Two explorables name their parts alike ("Inputs", "Timeline"): each side's landmarks say
  // which side they are on, so that every landmark's name is unique.
  for (const key of ['before', 'after']) {
    const heading = `cmp-${key}-heading`;
    const word = key === 'before' ? 'Before' : 'After';
    for (const el of $(`[data-compare-lab="${key}"]`).querySelectorAll('[aria-labelledby], [aria-label]')) {
      if (el.hasAttribute('aria-labelledby')) el.setAttribute('aria-labelledby', `${heading} ${el.getAttribute('aria-labelledby')}`);
      else el.setAttribute('aria-label', `${word}: ${el.getAttribute('aria-label')}`);
    }
  }
  let clients = { client: '', afterClient: '' };
  let loading = false;
  let timer = 0;
  const echoes = () => [sides.before.getState().result, sides.after.getState().result];

  const linkHash = () => {
    const [b, a] = echoes();
    return `#${encodeCompareLink(b.inputs, a.inputs, { ...clients, codec: app.codec, compute: app.compute, presetById })}`;
  };

  function draw() {
    const [b, a] = echoes();
    const comparison = compareRuns(b, a, { metrics, codec: app.codec, ...clients, presetName });
    patch($('[data-compare-summary]'), summaryNodes(comparison.summary));
    patch($('[data-compare-live]'), differencesView(comparison, metrics));
    frame.classList.toggle('rl-compare-side-effect', comparison.sideEffectChanged);
    frame.classList.toggle('rl-compare-outcome', comparison.outcomeChanged);
    const drawn = $('[data-compare-timeline]');
    const width = drawn.clientWidth || 720;
    patch(drawn, alignedTimelines([{ label: 'Before', result: b }, { label: 'After', result: a }], { width }));
    for (const [key, result] of [['before', b], ['after', a]]) {
      const alone = $(`[data-alone="${key}"]`);
      // A side holding an input a link cannot carry (codec.js uncarried: `servers`) has no link of its own.
      alone.hidden = app.codec.uncarried(result.inputs).length > 0;
      if (!alone.hidden) alone.href = `${linkBase()}#${app.codec.encodeLink(result.inputs)}`;
      if (embed) {
        alone.target = '_blank';
        alone.rel = 'noopener';
      }
      const id = key === 'before' ? clients.client : clients.afterClient;
      $(`[data-client="${key}"]`).textContent = id ? `From ${presetName(id)} (${id})` : '';
    }
    $('#cmp-link').value = `${from.address()}${linkHash()}`;
    return comparison;
  }

  function write() {
    timer = 0;
    const hash = linkHash();
    if (from.write) from.write(hash);
    $('#cmp-link').value = `${from.address()}${hash}`;
  }

  // `keep`: a source that has shown a comparison keeps it when what it holds now cannot all be
  // used (an attribute changed to a bad value): the notice names what, the runs stay.
  const notice = sourceNotice($('[data-compare-notice]'), (name) => `cmp-${name}`);
  function read({ keep = false } = {}) {
    const said = from.read();
    const shown = readCompareLink(from.hash(), judge, { presetById });
    const problems = [...said.problems, ...shown.problems.map(said.rename)];
    if (!notice(problems, said.source, keep)) return;
    clients = { client: shown.before.client, afterClient: shown.after.client };
    loading = true;
    try {
      sides.before.load(shown.before.inputs);
      sides.after.load(shown.after.inputs);
    } finally {
      loading = false;
    }
    draw();
  }

  const announce = $('[data-compare-announce]');
  const onChange = (state, before) => {
    if (state.result === before.result) return;
    const comparison = draw();
    announce.textContent = `Compared again: ${comparison.summary.replace(/`/g, '')}.`;
    if (!loading && !timer) timer = win.setTimeout(write, WRITE_DELAY_MS);
  };
  const unsubscribe = [sides.before.subscribe(onChange), sides.after.subscribe(onChange)];
  // `paste`: the page's "Paste your config" for two configs (web/config/paste.js), given by its bundle.
  const pasted = paste ? paste($('[data-compare-paste]'), { sides }) : null;

  $('#cmp-copy').addEventListener('click', async () => {
    const link = `${from.address()}${linkHash()}`;
    const status = $('#cmp-status');
    try {
      await win.navigator.clipboard.writeText(link);
      status.textContent = 'Link copied.';
    } catch {
      const input = $('#cmp-link');
      input.focus();
      input.select();
      status.textContent = 'Your browser did not allow copying: select the link in the box and copy it.';
    }
  });
  $('#cmp-link').addEventListener('focus', (event) => event.target.select());
  // "Copy as Markdown": the engine's writer (markdown.js), the table retrysim --format markdown
  // prints for the same link with --base-url set to this page.
  wireCopyMarkdown(win, {
    button: $('#cmp-copy-md'), status: $('#cmp-status'), box: $('#cmp-md'), address: from.address,
    written: () => {
      const [b, a] = echoes();
      const comparison = compareRuns(b, a, { metrics, codec: app.codec, ...clients, presetName });
      return comparisonMarkdown(engine, comparison, { metrics, codec: app.codec, presetName, base: from.address(), link: linkHash() });
    },
  });

  // Redraw the shared axis when the width changes (a rotated phone, a resized window).
  let lastWidth = 0;
  const onResize = () => {
    const width = $('[data-compare-timeline]').clientWidth;
    if (width && width !== lastWidth) {
      lastWidth = width;
      draw();
    }
  };
  win.addEventListener('resize', onResize);

  read();
  return {
    read,
    sides,
    paste: pasted,
    destroy() {
      for (const u of unsubscribe) u();
      win.removeEventListener('resize', onResize);
      if (timer) win.clearTimeout(timer);
      sides.before.destroy();
      sides.after.destroy();
      box.replaceChildren();
    },
  };
}

// The comparison link that starts from the run `app` shows: both sides the same (the reader
// then changes one), naming the client lab's preset when one is chosen.
export function compareLinkFrom(app) {
  const state = app.getState();
  const client = state.client && presetById(state.client) ? state.client : '';
  return `#${encodeCompareLink(state.result.inputs, state.result.inputs, { client, codec: app.codec, compute: app.compute, presetById })}`;
}

// A comparison of two fleet runs with the single run's difference rows and summary (for the
// element, web/compare/element.js; the page's is mounted below).
export const mountFleetCompareWith = (box, options) => mountFleetCompare(box, { rowsOf: differenceRows, ...options });
export { fleetCompareLinkOfAttributes, isFleetCompareLink };

// Compare mode on a page (compare/hook.js loads this bundle and calls it once): while the
// address is a view=compare link, the comparison shows in place of the explorable `root`; a
// link to one run brings the explorable back (share/link.js reads it).
export function attachCompareMode(root, options) {
  const doc = root.ownerDocument;
  const win = doc.defaultView;
  const box = doc.createElement('div');
  box.className = 'rl-compare-box';
  box.hidden = true;
  root.before(box);
  let view = null;
  // A comparison of two fleet runs (of=fleet, compare/fleet.js) or of two single runs.
  const mountFor = (hash) => (isFleetCompareLink(hash)
    ? mountFleetCompare(box, {
      source: pageSource(win), linkBase: options.linkBase, fleet: options.fleet, metrics: metricTable(options.engine.compareMetrics()),
      rowsOf: differenceRows, engine: options.engine,
    })
    : mountCompare(box, options));
  // The comparison's heading, focused (and so scrolled to) when a reader arrives at it.
  const arrive = () => {
    const heading = box.querySelector('#cmp-heading');
    if (!heading) return;
    heading.tabIndex = -1;
    box.scrollIntoView({ block: 'start' });
    heading.focus({ preventScroll: true });
  };
  // `{ arrived }`: a link followed in this page (a hash change, such as the article's own
  // comparison links far below the explorable) takes the reader to the comparison it opens.
  function follow({ arrived = false } = {}) {
    if (isCompareLink(win.location.hash)) {
      const fleet = isFleetCompareLink(win.location.hash);
      const opening = box.hidden;
      if (view && Boolean(view.fleet) === fleet) view.read();
      else {
        if (view) view.destroy();
        view = mountFor(win.location.hash);
      }
      box.hidden = false;
      root.hidden = true;
      doc.documentElement.classList.add('rl-compare-ready');
      if (arrived && opening) arrive();
    } else {
      if (view) view.destroy();
      view = null;
      box.hidden = true;
      root.hidden = false;
      doc.documentElement.classList.remove('rl-compare-ready');
    }
  }
  const onHash = () => follow({ arrived: true });
  win.addEventListener('hashchange', onHash);
  // The first: the link the page opened with, or (options.arrived) the hash change in the page
  // that loaded this bundle.
  follow({ arrived: Boolean(options.arrived) });
  return {
    get view() { return view; },
    // "Compare with…": open the comparison of the run on show with itself.
    startFrom(app) {
      win.location.hash = compareLinkFrom(app);
      follow(); // at once, not only when hashchange arrives
      arrive();
    },
    destroy() {
      win.removeEventListener('hashchange', onHash);
      if (view) view.destroy();
      box.remove();
      root.hidden = false;
    },
  };
}
