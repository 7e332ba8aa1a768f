// "What would your client do?", pure: the Client choice, and a card for the chosen client —
// its settings in words, the releases it was read at (linked, with commits; docs/clients.md
// names the file and line of every value), what the page sets itself, what the engine cannot
// represent or approximates, what could not be verified, its gates for the fleet, and what the
// opening run does with it (the charges the source predicts, and why, beside the engine's run).

import { h } from '../dom.js';
import { ms, num, plural } from '../format.js';
import { verdictText, verdictTone } from '../views/metrics.js';
import { inputName } from '../words.js';
import { inputLabel } from '../input-words.js';
import { PRESETS, SEED_ID } from './presets.js';

export const fieldLabel = (name) => inputLabel(name);

export function clientChoiceView(id, selected) {
  const groups = [];
  for (const p of PRESETS) {
    let group = groups.find((g) => g.label === p.group);
    if (!group) groups.push(group = { label: p.group, presets: [] });
    group.presets.push(p);
  }
  return h('div', { class: 'cl-choice' },
    h('label', { for: id('client'), class: 'cl-choice-label' }, 'Client'),
    h('select', { id: id('client'), class: 'cl-select', 'aria-describedby': id('client-help') },
      h('option', { value: SEED_ID, selected: selected === SEED_ID }, 'Custom / the page’s fixture'),
      groups.map((g) => h('optgroup', { label: g.label },
        g.presets.map((p) => h('option', { value: p.id, selected: selected === p.id }, p.name))))),
    h('p', { class: 'cl-help', id: id('client-help') },
      'Loads the client’s retry settings into the experiment above; the server’s behaviour stays as you set it.'));
}

const JITTER = {
  none: () => 'no jitter',
  full: () => 'full jitter (0–100 % of the ceiling)',
  equal: () => 'equal jitter (50–100 % of the ceiling)',
  decorrelated: () => 'decorrelated jitter',
  proportional: (i) => `jitter of ${num(i.jitterLow * 100)}–${num(i.jitterHigh * 100)} % of the ceiling`,
};

const CLASS_WORDS = { timeout: 'timeouts', 429: '429', '5xx': '5xx', '4xx': 'other 4xx' };

function list(words) {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

// "500, 502–599": runs of three or more consecutive statuses written as a range.
export function statusRuns(statuses) {
  const sorted = [...statuses].sort((a, b) => a - b);
  const out = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) ++j;
    if (j - i >= 2) out.push(`${sorted[i]}–${sorted[j]}`);
    else for (let k = i; k <= j; ++k) out.push(String(sorted[k]));
    i = j + 1;
  }
  return out.join(', ');
}

// A client's settings in words, from the inputs themselves (so they cannot drift apart).
// `noTimeoutMs`: the engine's longest client timeout (its table's bound), which the presets use
// for "no per-attempt timeout".
export function describePolicy(i, { noTimeoutMs }) {
  const out = [];
  const h = i.hedging;
  if (h && h.kind === 'a6') {
    // docs/throttling.md §6.1: copies, not retries.
    out.push(`hedges: a copy every ${ms(h.delayMs)} until one answers, ${num(h.maxAttempts)} copies at most` +
      (h.nonFatal.length ? `, the next at once after ${list(h.nonFatal.map((c) => CLASS_WORDS[c] || c))}` : ''));
  } else {
    out.push(i.maxRetries === 0 ? 'no retries (1 attempt)' : `${plural(i.maxRetries, 'retry', 'retries')} (${num(i.maxRetries + 1)} attempts at most)`);
  }
  if (h && h.kind === 'per-try-timeout') out.push('hedges on the per-try timeout: the retry goes while the attempt stays in flight');
  if (i.maxRetries > 0) {
    let wait;
    if (i.ceilingScheduleMs && i.ceilingScheduleMs.length) wait = `wait ceilings ${i.ceilingScheduleMs.map(num).join(', ')} ms, the last repeating`;
    else if (i.backoffMultiplier === 1) wait = `a fixed ${ms(i.baseBackoffMs)} wait`;
    else wait = `waits of ${ms(i.baseBackoffMs)} × ${num(i.backoffMultiplier)}^(n−1)`;
    if (i.maxBackoffMs !== null && i.maxBackoffMs !== undefined) wait += `, capped at ${ms(i.maxBackoffMs)}`;
    wait += `, ${JITTER[i.jitter] ? JITTER[i.jitter](i) : i.jitter}`;
    if (i.minBackoffMs > 0) wait += `, at least ${ms(i.minBackoffMs)}`;
    if (i.firstRetryImmediate) wait = `the first retry at once, then ${wait}`;
    out.push(wait);
  }
  out.push(i.clientTimeoutMs >= noTimeoutMs ? 'no per-attempt timeout' : `a ${ms(i.clientTimeoutMs)} client timeout per attempt`);
  out.push(i.deadlineMs === null ? 'no overall deadline' : `a ${ms(i.deadlineMs)} overall deadline`);
  const retried = (i.retryOn || []).map((c) => CLASS_WORDS[c] || c);
  if (i.retryOnStatuses && i.retryOnStatuses.length) retried.push(`status ${statusRuns(i.retryOnStatuses)}`);
  if (!(h && h.kind === 'a6')) out.push(retried.length ? `retries ${list(retried)}` : 'retries nothing');
  if (i.retryAfterStatuses && i.retryAfterStatuses.length) out.push(`a Retry-After makes ${i.retryAfterStatuses.join(', ')} retryable`);
  out.push(i.idempotencyKey ? 'sends an idempotency key' : 'no idempotency key');
  if (!i.retryWritesWithoutKey && !i.idempotencyKey) out.push('never retries a write without a key');
  if (!i.honourRetryAfter) out.push('ignores Retry-After');
  else if (i.retryAfterMode === 'at-least') out.push(`waits at least a Retry-After${i.retryAfterMaxMs !== null ? ` up to ${ms(i.retryAfterMaxMs)} (ignored above)` : ''}`);
  else out.push(`waits what Retry-After says${i.retryAfterMaxMs !== null ? ` up to ${ms(i.retryAfterMaxMs)}` : ''}`);
  if (i.honourRetryAfter && i.retryAfterMaxMs !== null && i.retryAfterOverMax === 'stop') out.push('gives up on a longer Retry-After');
  if (i.attemptStart === 'before-deadline') out.push('sends an attempt whenever it starts before the deadline');
  else if (i.deadlineMs !== null) out.push('sends an attempt only if its answer is due by the deadline');
  return out;
}

// "2 attempts, 2 charges, outcome success, 3,700 ms"
export function runFigures(result) {
  const m = result.metrics;
  return `${plural(m.attempts, 'attempt')}, ${plural(m.charges, 'charge')}` +
    `${m.replays ? `, ${plural(m.replays, 'replay')}` : ''}, outcome ${m.outcome}, ${ms(m.elapsedMs)}`;
}

function runLine(id, key, title, result) {
  return h('div', { class: `cl-run cl-run-${verdictTone(result)}`, id: id(key) },
    h('p', { class: 'cl-run-title' }, title),
    h('p', { class: 'cl-run-verdict' }, `${verdictText(result)}.`),
    h('p', { class: 'cl-run-figures' }, `${runFigures(result)}.`));
}

// What the source says the opening run does: "2 charges".
export function expectedFigures(opening) {
  return `${plural(opening.attempts, 'attempt')}, ${plural(opening.charges, 'charge')}` +
    `${opening.replays ? `, ${plural(opening.replays, 'replay')}` : ''}, outcome ${opening.outcome}`;
}

// A gate's parameters as the card lists them, [{ name, label, value }]: the label from the
// parameter's name ("retryCost": "Retry cost"), the value with the unit the preset data carries
// for it (web/clients/sources.js gateUnits(): the fleet table's, FLEET §5): "500 tokens",
// "60,000 ms", "50 %", "0.1".
export function gateParams(gate) {
  return Object.entries(gate.params || {}).map(([name, value]) => {
    const unit = (gate.units && gate.units[name]) || '';
    const text = unit === 'ms' ? ms(value) : unit ? `${num(value)} ${unit}` : num(value);
    return { name, label: inputName({ name }), value: text };
  });
}

// A release's tree at its commit.
export const releaseHref = (r) => `https://github.com/${r.repo}/tree/${r.commit}`;

// `changed`: the policy fields the experiment no longer has as the preset set them.
export function presetCardView(id, { preset, opening, current, changed = [], noTimeoutMs }) {
  const title = preset ? preset.name : 'The page’s fixture';
  const settings = describePolicy(opening.inputs, { noTimeoutMs });
  const words = (byField) => Object.entries(byField).map(([f, text]) => `${fieldLabel(f)}: ${text}.`);
  const unverified = preset ? [...preset.unverified, ...words(preset.unverifiedValues)] : [];
  const approximated = preset ? words(preset.approximated) : [];
  return h('div', { class: 'cl-card', 'data-client': preset ? preset.id : SEED_ID },
    h('h3', { class: 'cl-card-title', id: id('card-title') }, title),
    preset ? h('p', { class: 'cl-versions' }, `${preset.library}: ${preset.versions}.`) : null,
    h('p', { class: 'cl-settings' }, `${settings.join('; ')}.`),
    preset ? h('div', { class: 'cl-expected', id: id('expected') },
      h('p', { class: 'cl-heading' }, 'The opening run, from the source'),
      h('p', null, `${expectedFigures(preset.opening)}: ${preset.opening.why}.`)) : null,
    preset ? h('div', { class: 'cl-sources' },
      h('p', { class: 'cl-heading' }, 'Read at'),
      h('ul', null, preset.releases.map((r, k) => (r.package
        ? h('li', { id: id(`source-${k}`) }, `${r.package} ${r.version}`, ` (npm tarball, ${r.integrity.slice(0, 15)}…)`)
        : h('li', null,
          h('a', { href: releaseHref(r), id: id(`source-${k}`), rel: 'noopener noreferrer' }, `${r.repo} ${r.tag}`), ` (commit ${r.commit.slice(0, 8)})`)))),
      h('p', { class: 'cl-docs' }, 'Every value was read at these releases, file and line.'))
      : h('p', { class: 'cl-docs' }, 'The opening run’s own policy, not a real client’s: the same fixture every preset is run against.'),
    preset ? h('div', { class: 'cl-kept' },
      h('p', { class: 'cl-heading' }, 'Set for this page'),
      h('ul', null, words(preset.kept).map((k) => h('li', null, k)))) : null,
    preset ? h('div', { class: 'cl-cannot' },
      h('p', { class: 'cl-heading' }, 'What the engine cannot represent'),
      h('ul', null, [...approximated, ...preset.cannot].map((c) => h('li', null, c)))) : null,
    preset && unverified.length ? h('div', { class: 'cl-uncertain' },
      h('p', { class: 'cl-heading' }, 'Unverified'),
      h('ul', null, unverified.map((u) => h('li', null, u)))) : null,
    preset && preset.gates.length ? h('div', { class: 'cl-gates' },
      h('p', { class: 'cl-heading' }, 'Gates for the fleet (data for a later section)'),
      h('ul', null, preset.gates.map((g) => h('li', { 'data-gate': g.gate },
        h('code', null, g.gate), ` — ${g.note}`,
        g.params ? h('dl', { class: 'cl-gate-params' }, gateParams(g).map((r) => h('div', { 'data-param': r.name },
          h('dt', null, r.label), h('dd', null, r.value)))) : null)))) : null,
    runLine(id, 'opening-run', 'The opening run (charge commits, response lost) with these settings, computed', opening),
    current ? runLine(id, 'current-run', 'The experiment now', current) : null,
    changed.length ? h('div', { class: 'cl-changed', id: id('changed') },
      h('p', null, `Changed in the experiment since you chose this client: ${list(changed.map(fieldLabel))}. The run above is no longer ${preset ? preset.short : 'the page’s fixture'}.`),
      h('button', { type: 'button', class: 'rl-button', id: id('reload') }, `Load ${preset ? preset.short : 'the page’s fixture'} again`)) : null);
}
