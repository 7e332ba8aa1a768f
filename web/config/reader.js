// The config file on demand (docs/config-in.md §13): retrylab-config.js, the readers of six
// formats with their YAML and JSON parsers, compiled from the code retrysim --from runs
// (bindings/wasm/config_entry.hpp). It is a file of its own, added to the page the first time a
// reader opens or focuses a "Paste your config" box, so that the page's first load does not
// carry it; a classic script beside the page's bundles (web/bundles.js), so it loads from
// file:// too. Its global is RetryLabConfig (the page's engine keeps RetryLabEngine).
import { loadBundle } from '../bundles.js';

export const CONFIG_FILE = 'retrylab-config.js';

const readers = new WeakMap(); // document → its one reader: the clients section and compare mode share it

// { load(): a promise of { readConfig, compareConfigs, configFormats }, current(): it or null }.
export function configOnDemand(doc) {
  if (readers.has(doc)) return readers.get(doc);
  let current = null;
  let pending = null;
  const load = () => {
    if (current) return Promise.resolve(current);
    if (!pending) {
      pending = loadBundle(doc, CONFIG_FILE, 'RetryLabConfig')
        .then((factory) => factory())
        .then((api) => (current = api));
      pending.catch(() => { pending = null; }); // a later focus tries again
    }
    return pending;
  };
  const reader = { load, current: () => current };
  readers.set(doc, reader);
  return reader;
}

// A refusal's words with its place: the core's messages name the field and line already; a text
// refused as a whole (unreadable YAML, a NUL byte) names line and column in data only.
export function errorWords(error) {
  const where = error.line ? ` (line ${error.line}${error.column ? `, column ${error.column}` : ''})` : '';
  return /\bline \d/.test(error.message) ? error.message : `${error.message}${where}`;
}
