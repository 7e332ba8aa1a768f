// A gate field's typed value judged before it runs (issue 35 item 5), in the reader's words:
// the bounds, the whole-number rule and the unit are the field's row in the fleet engine's
// table (fleetSchema(), model.js fleetTable), never listed here; the numbers are written as
// the page writes them (format.js). The engine would refuse the same values ("must be a
// number from 0 to 1000000000; got NaN."), but far from the field and not in these words.

import { num as pageNum } from '../format.js';

// A number as the page writes it (two decimals at most), unless that loses it: a bound of
// 0.001 (server.admission.ratePerSecond, gates.throttle.tokenRatio) would read as 0.
const num = (v) => (Number(pageNum(v).replace(/,/g, '')) === v ? pageNum(v) : String(v));

// '' when `text` is a value the row takes, else what is wrong with it. `badInput`: the
// browser's own word that the field holds text that is no number (an <input type="number">
// then reads as '').
export function fieldProblem(text, row, label, { badInput = false, kept = ' The run on show is unchanged.' } = {}) {
  const name = `“${label}”`;
  const range = typeof row.min === 'number' && typeof row.max === 'number'
    ? ` from ${num(row.min)} to ${num(row.max)}${row.unit ? ` ${row.unit}` : ''}` : '';
  const kind = row.whole ? 'a whole number' : 'a number';
  if (badInput) return `${name} takes ${kind}${range}; what is typed is not a number.${kept}`;
  if (String(text).trim() === '') return `${name} is empty: type ${kind}${range}.${kept}`;
  const v = Number(text);
  if (!Number.isFinite(v)) return `${name} takes ${kind}${range}; what is typed is not a number.${kept}`;
  if (typeof row.min === 'number' && v < row.min) return `${name} takes ${kind}${range}; ${num(v)} is below ${num(row.min)}.${kept}`;
  if (typeof row.max === 'number' && v > row.max) return `${name} takes ${kind}${range}; ${num(v)} is above ${num(row.max)}.${kept}`;
  if (row.whole && !Number.isInteger(v)) return `${name} takes ${kind}${range}; ${num(v)} is not whole.${kept}`;
  return '';
}

// A field's message under it (the element `#<its id>-error` in `root`), and the field marked as
// refused (aria-invalid, aria-describedby); '' takes both away.
export function markField(root, el, problem) {
  const box = root.querySelector(`#${el.id}-error`);
  if (!box) return;
  if (box.textContent !== problem) box.textContent = problem;
  if (problem) {
    el.setAttribute('aria-invalid', 'true');
    el.setAttribute('aria-describedby', box.id);
  } else {
    el.removeAttribute('aria-invalid');
    el.removeAttribute('aria-describedby');
  }
}
