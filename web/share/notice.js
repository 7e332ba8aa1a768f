// The notice shown when a link (or a <retry-lab> element's attributes) held values the page
// could not use. Pure view: text only, through dom.js's h(), so whatever the link held is
// shown as text and never parsed as HTML.

import { h } from '../dom.js';

const MAX_ITEMS = 10;
const MAX_VALUE = 80;

function shorten(text) {
  const s = String(text);
  return s.length > MAX_VALUE ? `${s.slice(0, MAX_VALUE)}…` : s;
}

// A problem's value as the reader wrote it (readLink and <retry-lab> give the text they read).
function shownValue({ value }) {
  if (value === undefined) return '';
  return String(value);
}

// "maxRetries=1e999: must be a whole number …": the key, its value, and why it was left out
// (the engine's words after the input's name, or a whole sentence that names a part of it).
export function problemText(p) {
  const value = shownValue(p);
  const said = value === '' ? shorten(p.key) : `${shorten(p.key)}=${shorten(value)}`;
  return `${said}: ${p.reason}`;
}

// source: 'link' or 'attributes'.
export function noticeView(id, problems, source = 'link') {
  const shown = problems.slice(0, MAX_ITEMS);
  const more = problems.length - shown.length;
  const lead = source === 'link'
    ? 'Some of this link could not be used, so those inputs keep their defaults:'
    : 'Some attributes of this <retry-lab> could not be used, so those inputs keep their defaults:';
  return h('div', { class: 'rl-notice', id: id('notice'), role: 'status' },
    h('p', { class: 'rl-notice-lead' }, lead),
    h('ul', { class: 'rl-notice-list' },
      shown.map((p) => h('li', null, problemText(p))),
      more > 0 ? h('li', null, `and ${more} more`) : null),
    h('button', { type: 'button', class: 'rl-button rl-notice-dismiss', id: id('notice-dismiss') }, 'Dismiss'));
}
