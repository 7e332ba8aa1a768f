// Sweeps, pure: which inputs can be swept, the request sent to engine.sweep(), the sweep form's
// text fields read as numbers, and the words for one point. The engine computes every point
// and names every boundary (docs/engine.md §3); nothing here re-derives a result.

import { ms, num, plural } from '../format.js';

export const MAX_POINTS = 1000; // the engine's limit

// The inputs a reader can sweep: the explorable's own sliders (state.js explorableControls(),
// from the engine's table), with their labels and the range of their sliders as the default
// range. A choice is { name, label, unit, from, to, whole }.
export const varyChoices = (numbers) => numbers.map((f) => ({
  name: f.name, label: f.label, unit: f.unit, from: f.min, to: f.max, whole: f.whole,
}));

export const varyByName = (choices, name) => choices.find((v) => v.name === name) || choices[0];

// The most points, up to the engine's limit, that step through [from, to] by a round amount
// (1, 2, 2.5 or 5 × 10^k), so that the table reads 0, 25, 50 … rather than 20.02, 40.04 ….
export function roundPoints(from, to) {
  const span = to - from;
  if (!(span > 0)) return 2;
  const raw = span / (MAX_POINTS - 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) {
    const points = span / (m * power) + 1;
    if (points <= MAX_POINTS && Number.isInteger(Math.round(points * 1e9) / 1e9)) return Math.round(points);
  }
  return MAX_POINTS;
}

export function defaultForm(choices, name = 'deadlineMs') {
  const v = varyByName(choices, name);
  const points = v.whole ? Math.min(MAX_POINTS, v.to - v.from + 1) : roundPoints(v.from, v.to);
  return { vary: v.name, from: String(v.from), to: String(v.to), points: String(points) };
}

// The form's text as a request, or the fields that are not numbers. The engine judges the
// range itself (its messages name `from`, `to` and `points`).
export function requestFromForm(form, inputs) {
  const request = { inputs, vary: form.vary };
  const errors = {};
  for (const key of ['from', 'to', 'points']) {
    const text = String(form[key]).trim();
    const value = Number(text);
    if (text === '' || !Number.isFinite(value)) errors[key] = 'Enter a number.';
    else request[key] = value;
  }
  return { request, errors };
}

// The engine's errors by form field; anything else (a bad input of the run) is general.
export function errorsByField(engineErrors) {
  const out = {};
  for (const { field, message } of engineErrors) {
    const key = ['from', 'to', 'points', 'vary'].includes(field) ? field : 'general';
    out[key] = out[key] ? `${out[key]} ${message}` : message;
  }
  return out;
}

// The inputs a sweep depends on: everything but the swept field (which the sweep sets).
export function sweepKey(inputs, vary) {
  const rest = { ...inputs };
  delete rest[vary];
  return JSON.stringify(rest);
}

// "3,700 ms" or "2 retries" for a value of the swept field (`v`, one of varyChoices()).
export function valueWords(v, value) {
  if (v.unit === 'ms') return ms(value);
  return v.name === 'maxRetries' ? plural(value, 'retry', 'retries') : num(value);
}

// One point in words, for the cursor's aria-valuetext and its visible readout.
export function pointWords(v, point) {
  const report = point.agentReport === 'not-sent' ? 'nothing sent' : point.agentReport;
  // "2 retries: …", not "Maximum retries 2 retries: …"; other inputs keep their name.
  const name = v.name === 'maxRetries' ? '' : `${v.label} `;
  return `${name}${valueWords(v, point.value)}: ${plural(point.attempts, 'attempt')}, ` +
    `${plural(point.charges, 'charge')}${point.replays ? `, ${plural(point.replays, 'replay')}` : ''}, ` +
    `outcome ${point.outcome}, ${ms(point.elapsedMs)} elapsed; the agent reports ${report}`;
}

// The index of the first point at or after `value` (the point that behaves as the far side
// of a boundary does), or the last point.
export function indexAtOrAfter(points, value) {
  const i = points.findIndex((p) => p.value >= value);
  return i === -1 ? points.length - 1 : i;
}

// The point nearest to `value`.
export function nearestIndex(points, value) {
  if (value >= points[points.length - 1].value) return points.length - 1; // also Infinity: "no deadline"
  let best = 0;
  for (let i = 1; i < points.length; i += 1) {
    if (Math.abs(points[i].value - value) < Math.abs(points[best].value - value)) best = i;
  }
  return best;
}

// Where a series changes between neighbouring points i−1 and i: at the boundary the engine
// found between them if it found one (its exact value), else at point i.
export function switchValue(sweep, i) {
  const lo = sweep.points[i - 1].value;
  const hi = sweep.points[i].value;
  const b = sweep.boundaries.find((x) => x.value > lo && x.value <= hi);
  return b ? b.value : hi;
}

// Runs of neighbouring points that share `key(point)`: [{ key, from, to, first, last }], the
// edges placed where the engine says the behaviour changes.
export function runsOf(sweep, key) {
  const { points } = sweep;
  const runs = [];
  let start = 0;
  for (let i = 1; i <= points.length; i += 1) {
    if (i < points.length && key(points[i]) === key(points[start])) continue;
    runs.push({
      key: key(points[start]),
      from: start === 0 ? points[0].value : switchValue(sweep, start),
      to: i === points.length ? points[points.length - 1].value : switchValue(sweep, i),
      first: start,
      last: i - 1,
    });
    start = i;
  }
  return runs;
}

// A sentence for the sweep as a whole.
export function summaryWords(sweep, v) {
  const { points, boundaries } = sweep;
  const first = points[0];
  const last = points[points.length - 1];
  const range = `${v.label.toLowerCase()} from ${valueWords(v, first.value)} to ${valueWords(v, last.value)}`;
  if (boundaries.length === 0) {
    return `Across ${plural(points.length, 'point')} of ${range}, nothing changes: ${plural(first.charges, 'charge')}, outcome ${first.outcome}, at every point.`;
  }
  return `Across ${plural(points.length, 'point')} of ${range}, the run changes at ${plural(boundaries.length, 'boundary', 'boundaries')}:`;
}
