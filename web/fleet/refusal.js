// What the engine (or the page, compute.js) said when a fleet request could not run, in the
// reader's words (section.js, computing.js). `fieldName(path)`: a field as the reader wrote it
// (an attribute of <retry-lab view="fleet">, or the path itself); `opening`: the opening run.

import { getPath, leaves } from './model.js';
import { expectedAttempts } from './compute.js';

export const valueWords = (v) => (v === null ? 'none' : typeof v === 'number' ? v.toLocaleString('en-US') : v && typeof v === 'object' ? 'on' : String(v));

// A run that outgrew the WebAssembly engine's memory (the binding's `out-of-memory`, with the
// ceiling as `memoryBytes`): which of its fields to lower, read from the request — those it
// raises above the opening run — or, when it raises none, the work formula's (compute.js).
function tooLargeText(e, req, { fieldName, opening }) {
  const mib = typeof e.memoryBytes === 'number' ? ` (${Math.round(e.memoryBytes / 1048576)} MiB)` : '';
  const raised = leaves(req).filter(([path, v]) => {
    const was = getPath(opening, path);
    return typeof was === 'number' && (v === null || (typeof v === 'number' && v > was));
  });
  const lower = raised.length
    ? `Lower what it raises above the opening fleet run: ${raised.map(([path, v]) => `${fieldName(path)} (${valueWords(v)} here, ${valueWords(getPath(opening, path))} in the opening run)`).join(', ')}.`
    : `Lower ${(expectedAttempts(req, opening) || { fields: ['clients', 'durationMs'] }).fields.map(fieldName).join(', ')}.`;
  return `This run was too large for the engine in this browser: it needed more memory than the engine has${mib}, so it was stopped and nothing was computed. ${lower}`;
}

export function refusalText(result, req, { fieldName, opening }) {
  return result.errors.map((e) => {
    if (e.code === 'out-of-memory') return tooLargeText(e, req, { fieldName, opening });
    const said = e.field && e.detail ? `${fieldName(e.field)} ${e.detail}` : e.message;
    const named = Array.isArray(e.fields) ? e.fields.filter((f) => fieldName(f) !== f) : [];
    return named.length ? `${said} (as attributes: ${e.fields.map(fieldName).join(', ')})` : said;
  }).join(' ');
}
