// "Copy as Markdown" (issue 30, docs/compare.md §5): the comparison on show as the table a
// reviewer pastes into a pull request, written by the engine's markdown() (core/src/
// markdown.cpp, the one writer, which retrysim --format markdown calls too). This file only
// words the page's comparison (model.js's figures) as retrysim words its own
// (bindings/cli/compare.cpp markdownWords): the Markdown itself, and every escape in it, is
// the engine's.

import { deltaText, inputText, metricTable, metricText } from './model.js';

// The words markdown() takes: { summary: [text | { code }], inputs: [{ name, before, after }],
// metrics: [{ label, before, after, change, flag }] (the rows that changed), unchanged:
// [label], base?, link? }. `comparison`: compareRuns()'s; `metrics`: the engine's
// compareMetrics(); `base`: where Retry Lab is (the page's own address), `link`: the
// comparison's `#…`.
export function markdownWords(comparison, { metrics, codec, presetName = (id) => id, base = '', link = '' }) {
  const table = new Map(metricTable(metrics)[comparison.of === 'fleet' ? 'fleet' : 'run'].map((row) => [row.name, row]));
  const client = comparison.client ? comparison.client.before || '' : '';
  const afterClient = comparison.client ? comparison.client.after || '' : '';
  let lead = client ? presetName(client) : '';
  if (afterClient !== client) lead = `client ${client ? presetName(client) : '(none)'} → ${afterClient ? presetName(afterClient) : '(none)'}`;
  const summary = lead ? [lead] : [];
  const inputs = comparison.inputs.map(({ name, before, after }, i) => {
    const words = { name, before: inputText(name, before, codec, after), after: inputText(name, after, codec, before) };
    if (i > 0 || lead) summary.push(', ');
    summary.push({ code: name }, ` ${words.before} → ${words.after}`);
    return words;
  });
  if (!inputs.length && afterClient === client) summary.push(lead ? ', the same inputs' : 'the same inputs');
  const words = {
    // A fleet comparison's summary is its headline, in the section's words (headline.js).
    summary: comparison.headline || summary,
    inputs,
    metrics: comparison.metrics.filter((m) => m.changed).map((m) => {
      const row = table.get(m.name);
      return { label: m.label, before: metricText(row, m.before), after: metricText(row, m.after), change: deltaText(row, m.delta), flag: m.flag };
    }),
    unchanged: comparison.metrics.filter((m) => !m.changed).map((m) => m.label),
  };
  // Only an http(s) page can be linked from a pull request (a file:// one cannot).
  if (/^https?:\/\//i.test(base) && link) Object.assign(words, { base, link });
  return words;
}

// The comparison's Markdown from `engine.markdown()`: { markdown } or { error } (the engine's
// words). A base the writer refuses (an address it cannot put in a link whole) leaves the
// link line out, and `noLink` says so.
export function comparisonMarkdown(engine, comparison, options) {
  const words = markdownWords(comparison, options);
  let answer = engine.markdown(words);
  if (answer && answer.ok === false && words.base) {
    delete words.base;
    answer = engine.markdown(words);
    if (answer && answer.ok) return { markdown: answer.markdown, noLink: true };
  }
  if (!answer || answer.ok !== true) {
    return { error: answer && Array.isArray(answer.errors) ? answer.errors.map((e) => e.message).join(' ') : 'the engine wrote no Markdown' };
  }
  return { markdown: answer.markdown };
}

// The "Copy as Markdown" button, its status line and the box the Markdown shows in where the
// browser refuses the clipboard (both compare views: view.js, fleet.js). `written()`:
// comparisonMarkdown()'s answer for the comparison on show; `address`: the page's own.
export function copyMarkdownControls(h, idOf) {
  return [
    h('button', { type: 'button', id: idOf('copy-md'), class: 'rl-button' }, 'Copy as Markdown'),
    h('textarea', { id: idOf('md'), class: 'rl-compare-md', readonly: true, hidden: true, rows: 8, spellcheck: 'false', 'aria-label': 'The comparison as Markdown' }),
  ];
}

export function wireCopyMarkdown(win, { button, status, box, written, address }) {
  button.addEventListener('click', async () => {
    const answer = written();
    if (answer.error) {
      status.textContent = `No Markdown: ${answer.error}`;
      return;
    }
    box.value = answer.markdown;
    const noLink = answer.noLink || !/^https?:/i.test(address()) ? ' (without a link: this page has no http address)' : '';
    try {
      await win.navigator.clipboard.writeText(answer.markdown);
      status.textContent = `Markdown copied${noLink}.`;
    } catch {
      box.hidden = false;
      box.focus();
      box.select();
      status.textContent = 'Your browser did not allow copying: select the Markdown in the box and copy it.';
    }
  });
}
