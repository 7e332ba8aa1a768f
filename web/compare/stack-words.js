// A stack of layers (docs/layers.md §2, §9) in a comparison's words, as retrysim writes it
// (bindings/cli/compare.cpp stackText): each layer, top first, its name and in brackets its
// retries, its key and every other field whose value differs from the other side's layer at
// the same place, joined by " over ": "agent (maxRetries 2, key none) over payment SDK
// (maxRetries 2, key mint)". `other`: the other side's stack (or anything else: no layer to
// differ from); `text(name, value)`: a field's value in the comparison's words.

import { sameInputValue } from '../share/codec.js';

// Is this input a stack (`layers`, or a fleet request's `policy.layers`) holding layers?
export const isStackInput = (name, value) => /(^|\.)layers$/.test(name) && Array.isArray(value) && value.length > 0
  && value.every((l) => l && typeof l === 'object' && !Array.isArray(l));

export function stackText(layers, other, text) {
  return layers.map((layer, i) => {
    const twin = Array.isArray(other) && other[i] && typeof other[i] === 'object' ? other[i] : null;
    const parts = Object.entries(layer)
      .filter(([field, value]) => field !== 'name' && (field === 'maxRetries' || field === 'key' || (twin && !(field in twin && sameInputValue(value, twin[field])))))
      .map(([field, value]) => `${field} ${text(field, value)}`);
    const name = typeof layer.name === 'string' ? layer.name : `layer ${i + 1}`;
    return parts.length ? `${name} (${parts.join(', ')})` : name;
  }).join(' over ');
}
