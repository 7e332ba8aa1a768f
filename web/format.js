// How numbers read on the page. Times are unrounded doubles from the engine: show them
// exactly when whole, else to two decimals, with thousands separators ("3,700 ms").

const number = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const oneDecimalSeconds = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

export const num = (n) => number.format(n);
export const ms = (n) => `${number.format(n)} ms`;
export const seconds = (milliseconds) => `${oneDecimalSeconds.format(milliseconds / 1000)} s`;

const SMALL = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

// "one", "two" ... for the prose; digits past ten.
export const word = (n) => (Number.isInteger(n) && n >= 0 && n < SMALL.length ? SMALL[n] : num(n));

export function times(n) {
  if (n === 1) return 'once';
  if (n === 2) return 'twice';
  return `${word(n)} times`;
}

export function plural(n, singular, pluralForm = `${singular}s`) {
  return `${num(n)} ${n === 1 ? singular : pluralForm}`;
}

export function capitalise(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
