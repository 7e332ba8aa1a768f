// "Paste your config" (docs/config-in.md §13, issue 36): a box where a reader pastes the retry
// settings their team commits — a gRPC service config, an Envoy route, an Istio VirtualService,
// a Linkerd ServiceProfile, an AWS shared config, a .NET appsettings.json — and the page reads
// it with retrysim --from's own reader (the config file, reader.js), runs the inputs it
// translates to, and shows the reading field by field beside the run. Two forms:
//   mountConfigPaste(box, …)   one config (the clients section): the experiment runs it;
//   mountComparePaste(box, …)  two configs, before and after (compare mode): each side runs one,
//                              and what changed between them is listed (§10.3's `changed`).
// The config file is loaded when the reader opens the box or focuses in it, never before. The
// link the page keeps carries the translated inputs (the experiment's or the comparison's own
// link codec), never the pasted text. A config the reader refuses is named at its box
// (aria-invalid, aria-describedby: the field's path and line), and the last good run stays.
import { h, mount, patch } from '../dom.js';
import { configOnDemand, errorWords } from './reader.js';
import { changedView, readingView } from './report.js';

const SIDES = { one: [['config', 'Your config (JSON, YAML or INI)']], two: [['before', 'Before: the config as it is'], ['after', 'After: the config as changed']] };

function formView(id, { sides, title, intro, action }) {
  return h('details', { class: 'rl-cfg', id: id('box') },
    h('summary', { class: 'rl-cfg-summary' }, title),
    h('div', { class: 'rl-cfg-body' },
      h('p', { class: 'rl-cfg-intro' }, intro),
      h('div', { class: `rl-cfg-fields rl-cfg-fields-${sides.length}` },
        sides.map(([key, label]) => h('div', { class: 'rl-cfg-field', 'data-paste': key },
          h('label', { for: id(`${key}-text`) }, label),
          h('textarea', {
            id: id(`${key}-text`), class: 'rl-cfg-text', rows: '10', spellcheck: 'false', autocomplete: 'off', autocapitalize: 'off',
            wrap: 'off', 'aria-describedby': id('help'),
          }),
          h('div', { class: 'rl-cfg-error', id: id(`${key}-error`), hidden: true })))),
      h('p', { class: 'rl-cfg-help', id: id('help') },
        'Read in this page by the same reader as retrysim --from; nothing is sent anywhere. Ctrl+Enter reads it too.'),
      h('div', { class: 'rl-cfg-actions' },
        h('label', { for: id('from') }, 'Format'),
        h('select', { id: id('from'), class: 'rl-cfg-from' }, h('option', { value: 'auto' }, 'Detect it')),
        h('button', { type: 'button', class: 'rl-button rl-cfg-read', id: id('read') }, action)),
      h('p', { class: 'rl-cfg-status', id: id('status'), role: 'status' }),
      h('div', { class: 'rl-cfg-out', id: id('out') })));
}

// The form's behaviour, shared by both forms: the config file loaded on first need, the format
// menu filled from it, each box's errors shown and cleared. `read(api, texts, from)` does the
// form's own reading and drawing; it returns { errors: { key: [error] } } or {}.
function attachForm(root, id, keys, read) {
  const doc = root.ownerDocument;
  const reader = configOnDemand(doc);
  const $ = (name) => root.querySelector(`#${id(name)}`);
  const box = $('box');
  const status = $('status');
  const from = $('from');
  let formats = null;

  const ready = () => reader.load().then((api) => {
    if (!formats) {
      formats = api.configFormats().formats;
      for (const f of formats) from.append(mount(h('option', { value: f.name }, f.title), doc));
    }
    return api;
  });
  const warm = () => { ready().catch(() => {}); };
  box.addEventListener('toggle', () => { if (box.open) warm(); });
  root.addEventListener('focusin', warm);

  function showErrors(errors) {
    for (const key of keys) {
      const text = $(`${key}-text`);
      const shown = $(`${key}-error`);
      const list = errors[key] || [];
      shown.hidden = list.length === 0;
      text.setAttribute('aria-invalid', list.length ? 'true' : 'false');
      text.setAttribute('aria-describedby', list.length ? `${id(`${key}-error`)} ${id('help')}` : id('help'));
      patch(shown, list.length ? [
        h('p', { class: 'rl-cfg-error-head' }, list.length === 1 ? 'This config was not read:' : `This config was not read (${list.length} errors):`),
        h('ul', null, list.slice(0, 20).map((e) => h('li', { 'data-code': e.code, 'data-field': e.field, 'data-line': e.line ? String(e.line) : null }, errorWords(e)))),
        list.length > 20 ? h('p', null, `and ${list.length - 20} more`) : null,
        h('p', { class: 'rl-cfg-kept' }, 'The run shown is the last one read.'),
      ] : []);
    }
  }

  async function run() {
    const texts = Object.fromEntries(keys.map((k) => [k, $(`${k}-text`).value]));
    status.textContent = reader.current() ? '' : 'Loading the config reader…';
    let api;
    try {
      api = await ready();
    } catch (error) {
      status.textContent = `The config reader (retrylab-config.js) did not load: ${error.message}. Try again.`;
      return;
    }
    const answer = read(api, texts, from.value, formats);
    showErrors(answer.errors || {});
    status.textContent = answer.status;
  }
  $('read').addEventListener('click', run);
  root.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && event.target.matches('textarea')) {
      event.preventDefault();
      run();
    }
  });
  return { run, ready, $ };
}

// The options every reading takes: the format and the page's situation (its run's scenario,
// draws, …: docs/config-in.md §1, taken by the config file from the run's inputs).
const optionsOf = (from, situation) => ({ from, ...(situation ? { situation } : {}) });

// One config (the clients section). `situation()`: the run's inputs now; `load(inputs)`: runs
// them in the experiment and returns its result, or null if the experiment refused them;
// `runView(result)`: the run drawn beside the reading.
export function mountConfigPaste(box, { idPrefix = 'cfg-', situation, load, runView }) {
  const id = (name) => `${idPrefix}${name}`;
  box.replaceChildren(mount(formView(id, {
    sides: SIDES.one, title: 'Paste your config',
    intro: 'A gRPC service config, an Envoy route or bootstrap, an Istio VirtualService, a Linkerd ServiceProfile, an AWS shared config or a .NET appsettings.json: its retry settings become the experiment’s inputs, and every field says what became of it.',
    action: 'Read and run',
  }), box.ownerDocument));
  let last = null; // the last reading that ran
  const form = attachForm(box, id, ['config'], (api, texts, from, formats) => {
    const answer = api.readConfig({ text: texts.config, options: optionsOf(from, situation()) });
    if (!answer.ok) return { errors: { config: answer.errors }, status: 'The config was not read; the run is unchanged.' };
    const result = load(answer.inputs);
    if (!result) return { errors: { config: [{ field: '', code: 'refused', message: 'The engine refused the translated inputs.' }] }, status: 'The run is unchanged.' };
    last = { answer, result };
    patch(form.$('out'), h('div', { class: 'rl-cfg-run' }, h('h4', null, 'The run'), runView(result)), readingView(id, answer, formats));
    const title = formats.find((f) => f.name === answer.format);
    return { status: `Read as ${title ? title.title : answer.format}; the experiment at the top of the page runs it.` };
  });
  return { read: form.run, load: form.ready, last: () => last };
}

// Two configs (compare mode): before and after. `sides`: compare mode's two explorables.
export function mountComparePaste(box, { idPrefix = 'cmp-cfg-', sides }) {
  const id = (name) => `${idPrefix}${name}`;
  box.replaceChildren(mount(formView(id, {
    sides: SIDES.two, title: 'Paste your config: before and after',
    intro: 'Two versions of one config (a diff under review): each side runs what its config says, and the fields that changed are listed with the engine inputs they moved.',
    action: 'Read both and compare',
  }), box.ownerDocument));
  let last = null;
  const form = attachForm(box, id, ['before', 'after'], (api, texts, from, formats) => {
    const situation = sides.before.getState().result.inputs;
    const answer = api.compareConfigs({
      before: { text: texts.before, options: optionsOf(from, situation) },
      after: { text: texts.after, options: optionsOf(from, sides.after.getState().result.inputs) },
    });
    const errors = {};
    if (!answer.before.ok) errors.before = answer.before.errors;
    if (!answer.after.ok) errors.after = answer.after.errors;
    if (answer.conflict) errors.after = [{ field: '', code: 'conflict', message: answer.conflict }];
    if (Object.keys(errors).length) return { errors, status: 'The configs were not compared; the runs are unchanged.' };
    sides.before.load(answer.before.inputs);
    sides.after.load(answer.after.inputs);
    last = answer;
    patch(form.$('out'), changedView(id, answer.changed),
      h('div', { class: 'rl-cfg-pair' },
        ['before', 'after'].map((key) => h('section', { class: 'rl-cfg-side', 'data-side': key, 'aria-labelledby': id(`${key}-heading`) },
          h('h3', { id: id(`${key}-heading`) }, key === 'before' ? 'Before: the reading' : 'After: the reading'),
          readingView((name) => id(`${key}-${name}`), answer[key], formats, key === 'before' ? 'Before' : 'After')))));
    return { status: `Compared: ${answer.changed.length} ${answer.changed.length === 1 ? 'field' : 'fields'} changed; each side runs its config.` };
  });
  return { read: form.run, load: form.ready, last: () => last };
}
