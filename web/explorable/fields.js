// The fields binder: the explorable's form, both ways. Reading: each control's change becomes
// `onChange(changes, element)` ({ maxRetries: '2' }, from the element that changed). Writing:
// `draw(state, changedElement)` brings every control, error line and the scripted choice up to
// date with the state, leaving alone the element the reader is typing in. `script`: the
// loaded script the frame was mounted with; `numbers`: its sliders (state.controls.numbers).

import { scriptedLabel } from '../views/controls.js';
import { setText } from './write.js';

export const UNREADABLE = 'unreadable'; // a number box's text that is no number: the field's error says so

export function bindFields(root, id, { onChange, numbers, script = null }) {
  const $ = (name) => root.querySelector(`#${id(name)}`);
  const form = $('controls');
  const generalError = $('general-error');
  const scripted = $('scenario-scripted');
  const scriptedInput = $('scenario-script');
  const scriptedLabelEl = $('scenario-scripted-label');
  // Each number field's box, slider and error line, found once.
  const fieldEls = numbers.map((f) => ({ f, box: $(f.name), range: $(`${f.name}-range`), errorLine: $(`${f.name}-error`) }));
  const radios = [...form.querySelectorAll('input[type="radio"]')];
  const keyBox = $('idempotencyKey');

  form.addEventListener('submit', (event) => event.preventDefault());
  form.addEventListener('input', (event) => {
    const input = event.target;
    const field = input.dataset.field;
    if (!field || input.type === 'radio' || input.type === 'checkbox') return;
    // A number box holding text it cannot read ("1e400", "-") reports "" as its value, and so
    // does one whose text was typed or pasted over with text that is no number ("abc", "NaN",
    // Arabic digits: Chromium drops it and leaves the box empty, an insertion that left nothing).
    // Pass either on as unreadable, not as an empty box: an empty deadline means none, which the
    // reader asks for by clearing the box (a deletion), never by typing letters into it.
    const dropped = input.type === 'number' && input.value === '' && typeof event.inputType === 'string' && event.inputType.startsWith('insert');
    onChange({ [field]: (input.validity && input.validity.badInput) || dropped ? UNREADABLE : input.value }, input);
  });
  form.addEventListener('change', (event) => {
    const input = event.target;
    const field = input.dataset.field;
    if (input.type === 'radio' && input.checked) onChange({ [field]: input.value }, input);
    if (input.type === 'checkbox') onChange({ [field]: input.checked }, input);
  });

  // The scripted "Server behaviour" choice is there exactly while a script is loaded, and
  // names its answers. Taken away while it has the focus (a link without a script loaded
  // over it), the focus goes to the choice the run now has, not to the page.
  let drawnScript = script; // the frame was mounted with it
  function drawScripted(state) {
    const script = state.loadedScript;
    if (script === drawnScript) return;
    drawnScript = script;
    const hadFocus = !script && root.getRootNode().activeElement === scriptedInput; // the document, or a shadow root
    scriptedInput.disabled = !script;
    scripted.hidden = !script;
    scriptedLabelEl.textContent = scriptedLabel(script);
    if (hadFocus) form.querySelector(`input[data-field="scenario"][value="${state.fields.scenario}"]`)?.focus();
  }

  function draw(state, changedElement) {
    for (const { f, box, range, errorLine } of fieldEls) {
      const error = state.errors[f.name] || '';
      const text = state.fields[f.name];
      // A box still holding the unreadable text it was given keeps it on screen.
      // (UNREADABLE is no text to show: the box keeps what it holds.)
      if (box !== changedElement && box.value !== text && text !== UNREADABLE) box.value = text;
      const n = Number(text);
      if (range !== changedElement && text !== '' && Number.isFinite(n)) range.value = String(n);
      // An empty deadline is none: its slider goes to its far end, not to the last number.
      else if (range !== changedElement && text === '' && f.nullable) range.value = range.max;
      setText(errorLine, error);
      if (error) box.setAttribute('aria-invalid', 'true');
      else box.removeAttribute('aria-invalid');
    }
    drawScripted(state);
    for (const input of radios) input.checked = state.fields[input.dataset.field] === input.value;
    keyBox.checked = state.fields.idempotencyKey;
    const general = state.errors.general || '';
    const anyError = Object.keys(state.errors).length > 0;
    setText(generalError, general || (anyError ? 'Showing the last good run until the highlighted value is fixed.' : ''));
    root.classList.toggle('rl-stale', anyError);
  }

  return { draw };
}
