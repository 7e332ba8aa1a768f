// <retry-lab view="fleet">: the fleet view (the storm, its verdict and side effects, the
// controls) inside the element's shadow root. web/embed/element.js loads this bundle
// (retrylab-fleet-section.js) beside its own script only for such an element, and calls
// mountFleetElement(); the fleet engine file comes after it, in the bundle's worker.
//
// The request is the element's attributes, named as the single run's are: each field path of
// the fleet engine's table (fleetSchema(), FLEET.md §3) with every part in kebab-case —
// `policy.max-retries="0"`, `server.drop-stale="unfinishable"`, `rate-per-client="0.6"`,
// `gates.bucket="on"`, `gates.bucket.scope="fleet"` — each value written as in a fleet link;
// or `link="#v=1&view=fleet&…"`, a whole fleet link, which the path attributes override.
// Attributes that cannot be used are named in a visible message, and the run on show stays
// (the opening fleet run, or the last set of attributes that ran): a request with some of its
// attributes dropped would be a run nobody asked for. The engine judges the values it reads;
// one it refuses is named by its attribute too, and the last good run stays as well.

import { attributeName, stackFormatOf } from '../share/codec.js';
import { gatesOf, getPath, isFleetLink, leaves, parseFleetLink, setPath } from './model.js';

const ELEMENT = '<retry-lab view="fleet">';
export const FLEET_CSS = 'retry-lab-fleet.css'; // the fleet view's styles, scoped for a shadow root

// `policy.maxRetries` → `policy.max-retries`.
export const attributeOfPath = (path) => path.split('.').map(attributeName).join('.');

// A value as a fleet link writes it: %-escaped, a list's commas kept. A stack's (policy.layers)
// is given as a link writes it already (name:agent~maxRetries:2,…; its ":", "~", ";" and ","
// are the format's own, share/codec.js): only what would end the link's part is escaped.
const linkText = (value, row) => (stackFormatOf(row) ? value.replace(/[&#]/g, encodeURIComponent) : encodeURIComponent(value).replace(/%2C/gi, ','));

// The attributes ([name, value] pairs, globals and `theme` already left out) as
// { request, problems }: `problems` [{ key, value, reason }], keys as the attributes are named.
export function readFleetAttributes(pairs, table) {
  const byAttribute = new Map();
  for (const path of table.rows.keys()) byAttribute.set(attributeOfPath(path), path);
  for (const gate of gatesOf(table)) byAttribute.set(`gates.${gate.name}`, `gates.${gate.name}`);
  const problems = [];
  let fromLink = {};
  const given = [];
  for (const [name, value] of pairs) {
    if (name === 'view') {
      if (value !== 'fleet') problems.push({ key: name, value, reason: 'changes the view only when the element is added to the page; this one shows the fleet' });
      continue;
    }
    if (name === 'link') {
      const text = value.trim();
      if (!isFleetLink(text)) {
        problems.push({ key: name, value, reason: 'is not a fleet link (#v=1&view=fleet&…)' });
        continue;
      }
      const read = parseFleetLink(text, table);
      fromLink = read.request;
      for (const p of read.problems) problems.push({ key: `link (${p.key})`, value: p.value, reason: p.reason });
      continue;
    }
    const path = byAttribute.get(name);
    if (!path) {
      problems.push({ key: name, value, reason: attributeHint(name, byAttribute) });
      continue;
    }
    given.push([path, value]);
  }
  const hash = ['v=1', ...given.map(([path, value]) => `${path}=${linkText(value, table.rows.get(path))}`)].join('&');
  const read = parseFleetLink(hash, table);
  for (const p of read.problems) problems.push({ key: attributeOfPath(p.key), value: p.value, reason: p.reason });
  let request = fromLink;
  for (const [path, value] of leaves(read.request)) {
    // A gate given on (`{}`) by an attribute keeps the fields the link gave it.
    const kept = value && typeof value === 'object' && !Array.isArray(value) && !Object.keys(value).length ? getPath(request, path) : undefined;
    request = setPath(request, path, kept && typeof kept === 'object' ? kept : value);
  }
  return { request, problems };
}

// HTML lowercases attribute names and the single run's names have no part before a dot:
// say which fleet attribute was meant (max-retries → policy.max-retries).
function attributeHint(name, byAttribute) {
  const flat = (text) => text.toLowerCase().replace(/-/g, '');
  const meant = [...byAttribute.keys()].find((a) => flat(a) === flat(name) || flat(a.split('.').pop()) === flat(name));
  return meant ? `is not an attribute of ${ELEMENT}; did you mean ${meant}?` : `is not an attribute of ${ELEMENT}`;
}

export function problemsText(problems) {
  return problems.length ? `Attributes not used (the run on show stays): ${problems.map((p) => `${p.key}="${p.value}" ${p.reason}`).join('; ')}.` : '';
}

// mountFleet: the section's mount, already given the engine's whereabouts (web/fleet.js).
// `host`: the <retry-lab> element; `box`: where the view goes, inside its shadow root;
// `attributes()`: its attributes as [name, value] pairs, globals left out; `linkBase()`: the
// page "Copy the fleet link" opens. Returns { ready, api, attributesChanged(), destroy() }.
export function mountFleetElement(mountFleet, { box, attributes, linkBase, styleUrl }) {
  const doc = box.ownerDocument;
  const sheet = doc.createElement('link');
  sheet.rel = 'stylesheet';
  sheet.href = styleUrl;
  const styled = new Promise((resolve) => {
    sheet.addEventListener('load', resolve, { once: true });
    sheet.addEventListener('error', resolve, { once: true }); // unstyled, but it still works
  });
  box.before(sheet);
  let lastGood = null; // the attributes' request on show
  const api = mountFleet(box, {
    parts: 'view',
    address: false,
    linkBase,
    fieldName: attributeOfPath,
    initial(table) {
      const { request, problems } = readFleetAttributes(attributes(), table);
      if (problems.length) return { request: {}, note: problemsText(problems) };
      lastGood = request;
      return { request, note: '' };
    },
  });
  function attributesChanged() {
    const table = api.table();
    if (!table) return; // the first reading is still to come, and will read them
    const { request, problems } = readFleetAttributes(attributes(), table);
    if (problems.length) {
      api.note(problemsText(problems));
      return;
    }
    if (JSON.stringify(request) === JSON.stringify(lastGood)) {
      api.note('');
      return;
    }
    lastGood = request;
    api.show(request, '');
  }
  return { ready: Promise.all([api.ready, styled]).then(() => api), api, attributesChanged, destroy: () => api.destroy() };
}
