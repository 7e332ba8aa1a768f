// "Share and export" under the explorable: the link to this run with a Copy link button
// (and, in an embed, a link that opens the full page), and downloads of the run as JSON,
// the server-answer table as CSV and the timeline as SVG. The code that writes the files
// comes from loadExports() (web/export/all.js): the page loads it the first time a reader
// asks for a file; the <retry-lab> element has it inside.

import { h, mount } from '../dom.js';
import { linkMoved } from './link.js';
import { noticeView } from './notice.js';

// `make`: the function of web/export/all.js that writes the file.
export const FILES = {
  json: { part: 'run', extension: 'json', type: 'application/json', label: 'Run as JSON', make: 'runJson' },
  csv: { part: 'attempts', extension: 'csv', type: 'text/csv;charset=utf-8', label: 'Table as CSV', make: 'answersCsv' },
  svg: { part: 'timeline', extension: 'svg', type: 'image/svg+xml', label: 'Timeline as SVG', make: 'timelineSvg' },
};

export function shareView(id, { openLabel = null } = {}) {
  return h('section', { class: 'rl-view rl-share', 'aria-labelledby': id('share-heading') },
    h('h3', { id: id('share-heading') }, 'Share and export'),
    h('div', { class: 'rl-share-row' },
      h('label', { class: 'rl-share-label', for: id('link') }, 'Link to this run'),
      h('input', { type: 'text', id: id('link'), class: 'rl-share-link', readonly: true, spellcheck: 'false', autocomplete: 'off' }),
      h('button', { type: 'button', id: id('copy'), class: 'rl-button' }, 'Copy link'),
      openLabel ? h('a', { id: id('open'), class: 'rl-share-open', target: '_blank', rel: 'noopener' }, openLabel) : null),
    h('p', { class: 'rl-share-status', id: id('share-status'), role: 'status' }),
    h('div', { class: 'rl-share-row rl-share-files', role: 'group', 'aria-labelledby': id('download-label') },
      h('span', { class: 'rl-share-label', id: id('download-label') }, 'Download'),
      Object.entries(FILES).map(([kind, f]) => h('button', { type: 'button', class: 'rl-button', id: id(`download-${kind}`), 'data-download': kind }, f.label))));
}

// Copy text: the async clipboard where allowed; else the old way, from the selected box.
async function copyText(win, box, text) {
  try {
    await win.navigator.clipboard.writeText(text);
    return true;
  } catch {
    box.focus();
    box.select();
    try {
      return win.document.execCommand('copy');
    } catch {
      return false;
    }
  }
}

// Mount the bar at the end of `root` and keep it current. linkBase(): the URL (without
// hash) a copied link opens; pageOf(state): the page's own link keys (see codec.js encodeLink);
// loadExports(): a promise of web/export/all.js's functions.
export function attachShareBar(root, app, { id, linkBase, loadExports, openLabel = null, pageOf = (_state) => ({}) }) {
  const doc = root.ownerDocument;
  const win = doc.defaultView;
  const bar = mount(shareView(id, { openLabel }), doc);
  root.append(bar);
  const $ = (name) => bar.querySelector(`#${id(name)}`);
  const box = $('link');
  const status = $('share-status');
  const open = openLabel ? $('open') : null;

  const linkNow = () => `${linkBase()}#${app.codec.encodeLink(app.getState().result.inputs, pageOf(app.getState()))}`;
  // A run holding an input the link format cannot carry (codec.js uncarried: `servers`) has no
  // link: the box is empty and the bar says which input and where the run is carried whole.
  const noLink = () => {
    const [field] = app.codec.uncarried(app.getState().result.inputs);
    return field ? `This run's ${field} cannot be written into a link yet; the JSON download carries the whole run.` : null;
  };
  function update() {
    const why = noLink();
    const link = why ? '' : linkNow();
    box.value = link;
    if (open) open.href = link || linkBase();
    status.textContent = why || '';
  }

  $('copy').addEventListener('click', async () => {
    const why = noLink();
    if (why) {
      update();
      return;
    }
    const link = linkNow();
    box.value = link;
    const copied = await copyText(win, box, link);
    status.textContent = copied ? 'Link copied.' : 'Your browser did not allow copying: select the link in the box and copy it.';
  });
  box.addEventListener('focus', () => box.select());
  for (const button of bar.querySelectorAll('[data-download]')) {
    button.addEventListener('click', async () => {
      const f = FILES[button.dataset.download];
      // The run and the timeline's width as they are at the click.
      const result = app.getState().result;
      const drawn = root.querySelector(`#${id('timeline')}`);
      const width = (drawn && drawn.clientWidth) || 720; // as wide as it is drawn, so the file looks as the page does
      let files;
      try {
        files = await loadExports();
      } catch (error) {
        status.textContent = `The download could not start: ${error.message}. Try again, or copy the link.`;
        return;
      }
      // The file's name says the run (its scenario, policy and charges), so two runs' files differ.
      const name = files.runFileName(result, f.part, f.extension);
      files.download(doc, name, f.type, files[f.make](result, { width }));
      status.textContent = `Downloading ${name}.`;
    });
  }
  const moved = linkMoved(pageOf);
  const unsubscribe = app.subscribe((state, before) => { if (moved(state, before)) update(); });
  update();
  return { update, destroy: () => { unsubscribe(); bar.remove(); } };
}

// Show (or clear, with no problems) the notice at the top of `root`.
export function showNotice(root, id, problems, source) {
  const old = root.querySelector(`#${id('notice')}`);
  if (old) old.remove();
  if (!problems.length) return null;
  const notice = mount(noticeView(id, problems, source), root.ownerDocument);
  root.prepend(notice);
  notice.querySelector(`#${id('notice-dismiss')}`).addEventListener('click', () => notice.remove());
  return notice;
}
