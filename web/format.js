// How numbers read on the page. Times are unrounded doubles from the engine: show them
// exactly when whole, else to two decimals, with thousands separators ("3,700 ms").

// What Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }) writes, without it: the first
// Intl object a page makes costs it several milliseconds (the locale's data), on the way to
// the first render. As ICU does, the rounding is of the number's shortest decimal form
// (String(n): 1.005 is "1.005", so it rounds to 1.01), half away from zero.
// tests/node/page/format-units.test.js holds the two to the same text.
export function num(n) {
  if (Number.isNaN(n)) return 'NaN';
  const sign = n < 0 || Object.is(n, -0) ? '-' : '';
  if (!Number.isFinite(n)) return `${sign}∞`;
  const [mantissa, exponent = '0'] = String(Math.abs(n)).split('e');
  const [whole, fraction = ''] = mantissa.split('.');
  let digits = whole + fraction;
  let point = whole.length + Number(exponent); // where the decimal point falls in `digits`
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  digits = digits.padEnd(point + 3, '0');
  const kept = digits.slice(0, point + 2).split('').map(Number);
  if (digits.charCodeAt(point + 2) >= 53) { // the next digit is 5 or more: round up, carrying
    let at = kept.length - 1;
    while (at >= 0 && kept[at] === 9) kept[at--] = 0;
    if (at >= 0) kept[at] += 1;
    else kept.unshift(1);
  }
  const text = kept.join('');
  const units = text.slice(0, -2).replace(/^0+(?=\d)/, '') || '0';
  const cents = text.slice(-2).replace(/0+$/, '');
  const grouped = units.replace(/\B(?=(\d{3})+$)/g, ',');
  return `${sign}${grouped}${cents ? `.${cents}` : ''}`;
}

export const ms = (n) => `${num(n)} ms`;
export const seconds = (milliseconds) => `${num(milliseconds / 1000)} s`;

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
