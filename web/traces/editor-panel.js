// The trace editor's panel: the reader's own trace as fields (editor.js), its run, and the
// engine's errors beside the fields that hold them. The trace itself is the explorable's
// state.custom: an edit the engine accepts goes out through `onCustom(inputs)`, and
// `show(inputs)` takes whatever trace the state holds (the panel's own, a copy of a seed trace,
// a link's). While a field is wrong the last good trace stays, in the state and in the matrix.

import { show as showTree } from '../dom.js';
import { editorErrors, editorForm, editorFromInputs, editorView, fieldId, inputsFromEditor } from './editor.js';
import { TRACES, traceById } from './definitions.js';

const hasAny = (errors) => Object.keys(errors).length > 0;
const noResult = [{ field: 'general', message: 'The engine returned no result.' }];

export function mountEditorPanel(box, id, { compute, schema, defaults, oneCaller, onCustom, onStale }) {
  const form = editorForm(schema); // the fields, from the engine's table of its inputs
  const root = box.getRootNode();
  const $ = (name) => box.querySelector(`#${id(name)}`);
  let fields = null;
  let extra = {};
  let errors = {};
  let own = null; // the inputs this panel last put into the state
  let result = null; // the run of the trace on show
  let lastRead = null; // read()'s last answer, which show() often gets straight back

  // Whole inputs → the editor's reading of them: { inputs, result } or { errors } (the engine's).
  /** @returns {{ errors?: any, inputs?: any, result?: any, fields?: any, extra?: any }} */
  function read(inputs) {
    const checked = compute(inputs);
    if (!checked || checked.ok !== true) return { errors: checked ? checked.errors : noResult };
    const parsed = editorFromInputs(form, checked.inputs, defaults);
    const { inputs: normal } = inputsFromEditor(form, parsed.fields, parsed.extra);
    lastRead = { ...parsed, inputs: normal, result: compute(normal) };
    return lastRead;
  }

  function drawErrors() {
    const form = box.querySelector('form');
    for (const p of form.querySelectorAll('.te-error')) p.textContent = '';
    for (const el of form.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
    const general = [];
    for (const [key, message] of Object.entries(errors)) {
      const line = form.querySelector(`#${fieldId(id, key)}-error`);
      if (!line || key === 'general') {
        general.push(message);
        continue;
      }
      line.textContent = message;
      form.querySelector(`#${fieldId(id, key)}`)?.setAttribute('aria-invalid', 'true');
    }
    if (hasAny(errors)) general.push('The matrix keeps your last good trace until the highlighted entries are fixed.');
    form.querySelector(`#${fieldId(id, 'general')}-error`).textContent = general.join(' ');
  }

  function drawForm() {
    const from = $('ed-from')?.value;
    showTree(box, editorView(form, id, fields, { traces: TRACES }));
    if (from) $('ed-from').value = from;
    drawErrors();
  }

  // The state's trace. One the panel made itself is on screen already.
  function show(inputs) {
    if (inputs === own) return;
    const read_ = lastRead && lastRead.inputs === inputs ? lastRead : read(inputs);
    if (read_.errors) return;
    ({ fields, extra, result } = read_);
    own = inputs;
    errors = {};
    drawForm();
  }

  // The fields changed: the engine's run of them, or its errors beside them.
  function recompute() {
    const parsed = inputsFromEditor(form, fields, extra);
    if (hasAny(parsed.errors)) {
      errors = parsed.errors;
    } else {
      const next = compute(parsed.inputs);
      if (next && next.ok === true) {
        errors = {};
        result = next;
        own = parsed.inputs;
        onCustom(parsed.inputs);
      } else {
        errors = editorErrors(form, (next && next.errors) || noResult);
      }
    }
    drawErrors();
    onStale();
  }

  function input(event) {
    const el = event.target;
    const f = fields;
    if (el.dataset.answer !== undefined) {
      const row = f.script[Number(el.dataset.answer)];
      row[el.dataset.part] = el.type === 'checkbox' ? el.checked : el.value;
    } else if (el.dataset.retryOn !== undefined) {
      const on = new Set(f.retryOn);
      if (el.checked) on.add(el.dataset.retryOn);
      else on.delete(el.dataset.retryOn);
      f.retryOn = [...on];
    } else if (el.dataset.flag !== undefined) {
      f[el.dataset.flag] = el.checked;
    } else if (el.dataset.key !== undefined) {
      f[el.dataset.key] = el.value;
    } else {
      return;
    }
    recompute();
  }
  box.addEventListener('input', (event) => { if (event.target.type !== 'checkbox') input(event); });
  box.addEventListener('change', (event) => { if (event.target.type === 'checkbox' || event.target.tagName === 'SELECT') input(event); });
  box.addEventListener('submit', (event) => event.preventDefault());
  box.addEventListener('click', (event) => {
    const button = event.target.closest('button');
    if (!button) return;
    if (button.id === id('ed-add')) {
      fields.script.push({ status: '200', retryAfter: '', date: '', lost: false, dropped: false });
      drawForm();
      recompute();
      root.querySelector(`#${fieldId(id, `script[${fields.script.length - 1}].status`)}`).focus();
    } else if (button.dataset.remove !== undefined) {
      const i = Number(button.dataset.remove);
      fields.script.splice(i, 1);
      drawForm();
      recompute();
      const next = root.querySelector(`[data-remove="${Math.min(i, fields.script.length - 1)}"]`);
      (next && !next.disabled ? next : root.querySelector(`#${id('ed-add')}`)).focus();
    } else if (button.id === id('ed-copy')) {
      const trace = traceById($('ed-from').value);
      if (trace) {
        const copy = read(oneCaller(trace));
        if (!copy.errors) onCustom(copy.inputs);
      }
    }
  });

  return {
    show,
    // Whole inputs as the editor's trace (a link's, setCustom()): { inputs } in the editor's
    // reading, or { errors } when the engine refuses them.
    read: (inputs) => {
      const r = read(inputs);
      return r.errors ? { errors: r.errors } : { inputs: r.inputs };
    },
    result: () => result,
    stale: () => hasAny(errors),
  };
}
