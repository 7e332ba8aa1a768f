// The explorable's one state object, and the pure steps that change it. Everything the page
// shows is derived from `state.result`, which only ever comes from engine.compute().
//
//   state = {
//     controls: which inputs the controls own, read from the engine's table (explorableControls),
//     fields:  what the controls hold (numbers as typed text, so a bad entry can stay visible),
//     extra:   inputs no control here owns (later: traces, links); merged under the fields;
//              it holds `script` exactly while the scenario is SCRIPTED,
//     loadedScript: the server answers the last load brought (scenario "script": a policy
//              trace, the trace editor, a link), or null. While there is one, the "Server
//              behaviour" group offers it as a fifth choice, so the reader can leave it for a
//              named scenario and come back; a load without a script clears it,
//     errors:  { field: sentence } for the fields that stop a recompute,
//     result:  the last good compute() result (kept while a field is invalid),
//     trace:   the id of the policy trace (web/traces/) the run was loaded from, or null once
//              a control changes the run (then it is no longer that trace),
//     herd:    trace F's herd, { callers, seed } (web/traces/), null until the traces arrive,
//     custom:  the reader's own trace as engine inputs (the trace editor), null until then,
//     client:  the client lab's choice (web/clients/: a preset's id, or its seed choice), null
//              until the client lab arrives,
//     playback: see playback.js,
//   }
//
// The sections below the article come in a later bundle: they keep their part (herd, custom,
// client) here, so that a change to it reaches the link and the other sections the way a new
// run does, through the explorable's subscribers.

import { restart } from './playback.js';
import { inputLabel } from './input-words.js';

export const SCENARIOS = [
  { value: 'response-lost', label: 'Charge commits, response lost' },
  { value: 'request-lost', label: 'Request lost before the server' },
  { value: 'outage-503-twice', label: 'HTTP 503 twice, then succeeds' },
  { value: 'bad-request-400', label: 'HTTP 400 on every attempt' },
];

// The scenario whose answers are a loaded script (SPEC §2), not one of the four above: the
// group offers it only while a script is loaded (state.loadedScript).
export const SCRIPTED = 'script';

// The scripted choice's label says what the server does, as the four above do:
// "429, 503, 503, then 200", "503 on every attempt" (the last answer repeats, SPEC §2).
const answerText = (a) => (a.dropped ? 'request lost' : a.lost ? `${a.status} (response lost)` : String(a.status));
export function scriptSummary(script) {
  const answers = script.map(answerText);
  if (answers.length === 1) return `${answers[0]} on every attempt`;
  const last = answers[answers.length - 1];
  const before = answers.length > 6 ? [...answers.slice(0, 4), `… (${answers.length} answers in all)`] : answers.slice(0, -1);
  return `${before.join(', ')}, then ${last}`;
}

// The two "Retry on" settings of the seed, as the engine's retry classes.
export const RETRY_ON = [
  { value: 'timeouts-5xx', label: 'Timeouts and 5xx only', classes: ['timeout', '5xx'] },
  { value: 'every-failure', label: 'Every failure, including 400', classes: ['timeout', '429', '5xx', '4xx'] },
];

// The explorable's controls are a page decision: which inputs the reader sets here, in the
// payment seed's words (seeds/002), and the span of each slider (a convenient slice; the number
// box takes anything the engine accepts, SPEC §7, and the engine's own message explains a value
// it refuses). Everything the inputs themselves are (type, unit, whether null is a value, the
// bounds, their order) is read from the engine's table, schema(), by explorableControls().
const SLIDERS = {
  maxRetries: { span: [0, 10], step: 1 },
  baseBackoffMs: { span: [0, 5000], step: 100 },
  clientTimeoutMs: { span: [100, 10000], step: 100 },
  // Empty is no deadline: the reader asks for none by clearing the box (which shows "none"
  // then); text that is not a number, typed or pasted over it, is an error (web/app.js).
  deadlineMs: { span: [0, 20000], step: 100, none: 'no deadline' },
};
// The other controls (web/views/controls.js draws them): the scenario and "Retry on" radio
// groups (SCENARIOS, RETRY_ON above) and the key switch, with the type each needs.
const OTHER_CONTROLS = { scenario: 'choice', idempotencyKey: 'boolean', retryOn: 'list' };

// The controls for the engine's table (engine.schema(), passed in: the page may have it before
// or with the engine): { numbers, names }. `numbers` are the sliders, each { name, label, unit,
// nullable, none, whole, min, max, step } in the table's order; `names` every input a control
// here owns, in the table's order. A control the table has no input for, or whose input is not
// of the type the control needs, or a slider span outside the input's bounds is an error that
// names it (the page says it where the explorable would be).
export function explorableControls(schema) {
  const rows = schema && Array.isArray(schema.inputs) ? schema.inputs : [];
  const byName = new Map(rows.map((r) => [r.name, r]));
  const refuse = (what) => { throw new Error(`The explorable's controls do not fit the engine's inputs: ${what}.`); };
  for (const [name, { span: [min, max] }] of Object.entries(SLIDERS)) {
    const row = byName.get(name);
    if (!row || row.type !== 'number') refuse(`no number input "${name}"`);
    if (min < row.min || max > row.max) refuse(`the slider for "${name}" spans ${min}–${max}, beyond ${row.min}–${row.max}`);
  }
  for (const [name, type] of Object.entries(OTHER_CONTROLS)) {
    if (byName.get(name)?.type !== type) refuse(`no ${type} input "${name}"`);
  }
  const numbers = rows.filter((r) => r.name in SLIDERS).map((row) => {
    const { span: [min, max], step, none = 'none' } = SLIDERS[row.name];
    return { name: row.name, label: inputLabel(row.name, row), unit: row.unit || '', nullable: row.nullable === true, none, whole: row.whole === true, min, max, step };
  });
  const names = rows.filter((r) => r.name in SLIDERS || r.name in OTHER_CONTROLS).map((r) => r.name);
  return { numbers, names };
}

const sameSet = (a, b) => a.length === b.length && a.every((x) => b.includes(x));

// Control values for a full inputs object (compute()'s `inputs` echo); `controls` from
// explorableControls().
export function fieldsFromInputs(inputs, controls) {
  const retryOn = RETRY_ON.find((r) => sameSet(r.classes, inputs.retryOn || []));
  const fields = {
    scenario: inputs.scenario,
    idempotencyKey: Boolean(inputs.idempotencyKey),
    retryOn: retryOn ? retryOn.value : null,
  };
  for (const { name } of controls.numbers) fields[name] = inputs[name] === null ? '' : String(inputs[name]);
  return fields;
}

// The engine inputs the fields stand for, or the fields that cannot be read as numbers.
export function inputsFromFields(fields, controls, extra = {}) {
  /** @type {Record<string, any>} */
  const inputs = { ...extra, scenario: fields.scenario, idempotencyKey: fields.idempotencyKey };
  const errors = {};
  const retryOn = RETRY_ON.find((r) => r.value === fields.retryOn);
  if (retryOn) inputs.retryOn = retryOn.classes;
  for (const { name, unit, nullable, none } of controls.numbers) {
    const text = String(fields[name]).trim();
    const value = Number(text);
    if (text === '' && nullable) {
      inputs[name] = null; // an empty deadline is no deadline (the policy traces have none)
    } else if (text === '' || !Number.isFinite(value)) {
      errors[name] = `Enter a number${unit === 'ms' ? ' of milliseconds' : ''}${nullable ? `, or clear the box for ${none}` : ''}.`;
    } else {
      inputs[name] = value;
    }
  }
  return { inputs, errors };
}

// The engine names bad fields with a path ("maxRetries", "script[2].status"): show each
// beside the control that owns it, or as a general message when no control here does.
// Beside a control, the control's label is said, then the engine's words after the field's
// name (`detail`: "must be a whole number from 0 to 100; got 101.").
export function errorsByField(engineErrors, controls) {
  const errors = {};
  for (const { field, message, detail } of engineErrors) {
    const name = controls.names.includes(field) ? field : 'general';
    const label = controls.numbers.find((f) => f.name === field)?.label;
    const text = label && typeof detail === 'string' ? `${label} ${detail}` : message;
    errors[name] = errors[name] ? `${errors[name]} ${text}` : text;
  }
  return errors;
}

// The opening state for the opening run and the engine's table of its inputs (schema()).
export function initialState(result, schema) {
  const controls = explorableControls(schema);
  return {
    controls,
    fields: fieldsFromInputs(result.inputs, controls),
    extra: {},
    loadedScript: null,
    errors: {},
    trace: null,
    herd: null,
    custom: null,
    client: null,
    result,
    playback: restart(result),
  };
}

// The sections' part of the state (see above): only these keys, and a key left out stays.
export const SECTION_KEYS = ['herd', 'custom', 'client'];
export function withSections(state, changes = {}) {
  const next = { ...state };
  let changed = false;
  for (const key of SECTION_KEYS) {
    if (key in changes && changes[key] !== state[key]) {
      next[key] = changes[key];
      changed = true;
    }
  }
  return changed ? next : state;
}

// Apply control changes and recompute. A bad field keeps the last good run on screen.
export function withFields(state, changes, compute) {
  const fields = { ...state.fields, ...changes };
  // The scripted choice is offered only while a script is loaded; asked for without one
  // (setFields from a script), it would only be the engine's "script is missing".
  if (fields.scenario === SCRIPTED && !state.loadedScript) {
    return { ...state, errors: { general: 'No scripted answers are loaded: choose a policy trace or open a link that has them.' } };
  }
  // The run carries the loaded script exactly while the scripted choice is made: a named
  // scenario sets it aside (the engine refuses a script beside one), and choosing the
  // scripted answers again brings it back.
  const { script, ...extraWithoutScript } = state.extra;
  const extra = fields.scenario === SCRIPTED ? { ...extraWithoutScript, script: state.loadedScript } : extraWithoutScript;
  const parsed = inputsFromFields(fields, state.controls, extra);
  if (Object.keys(parsed.errors).length > 0) return { ...state, fields, errors: parsed.errors };
  const result = compute(parsed.inputs);
  if (!result || result.ok !== true) {
    const engineErrors = result && Array.isArray(result.errors) ? result.errors : [{ field: 'general', message: 'The engine returned no result.' }];
    return { ...state, fields, errors: errorsByField(engineErrors, state.controls) };
  }
  return { ...state, fields, extra, errors: {}, trace: null, result, playback: restart(result, state.playback.speed) };
}

// Load a whole set of inputs (a story step, a policy trace or a link): the controls take the
// fields they own, and every other input rides along in `extra`, so nothing is lost. `trace`
// names the policy trace the inputs are (web/traces/), or null.
export function withInputs(state, inputs, compute, trace = null) {
  const result = compute(inputs);
  if (!result || result.ok !== true) return { ...state, errors: errorsByField((result && result.errors) || [], state.controls) };
  const fields = fieldsFromInputs(result.inputs, state.controls);
  const extra = {};
  for (const [name, value] of Object.entries(result.inputs)) {
    if (!state.controls.names.includes(name) || (name === 'retryOn' && fields.retryOn === null)) extra[name] = value;
  }
  const loadedScript = result.inputs.scenario === SCRIPTED ? result.inputs.script : null;
  return { ...state, fields, extra, loadedScript, errors: {}, trace, result, playback: restart(result, state.playback.speed) };
}
