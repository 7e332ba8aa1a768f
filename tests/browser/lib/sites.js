// For the share, embed and export tests: the built site copied under a subpath or beside
// host pages of our own, servers on other ports (other origins), and an RFC 4180 reader for the
// CSV export.

import { cpSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DIST, loadSections, watchedPage } from './harness.js';
import { startServer } from './server.js';

// A temporary folder holding the site at `subpath` ('' for the top; none if !copySite) and `files`
// ({ 'host.html': text, ... }, paths from the folder's top). remove() deletes it.
export function siteCopy({ subpath = '', files = {}, copySite = true } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'retrylab-site-'));
  const site = join(dir, subpath);
  mkdirSync(site, { recursive: true });
  if (copySite) cpSync(DIST, site, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return { dir, site, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export const serve = (dir, options) => startServer(dir, options);

// The page recorder is harness.js's (one for every browser test): here too for the files that
// open host pages.
export { watchedPage };

// Ready, with the sections below the article loaded too (as harness.js's openPage does).
export async function waitReady(page) {
  await page.waitForFunction(() => document.documentElement.classList.contains('rl-ready') || document.documentElement.classList.contains('rl-engine-failed'));
  await loadSections(page);
}

// RFC 4180: fields separated by commas, records by CRLF; a quoted field may hold commas,
// CR, LF and doubled quotes. Strict: anything else (a bare quote, a stray character after
// a closing quote, a missing final CRLF) throws, so a sloppy writer cannot pass.
export function parseCsv(text) {
  const rows = [];
  let row = [];
  let i = 0;
  if (!text.endsWith('\r\n')) throw new Error('CSV: the last record does not end in CRLF');
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i += 1;
      for (;;) {
        if (i >= text.length) throw new Error('CSV: an unclosed quote');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
          } else {
            i += 1;
            break;
          }
        } else {
          field += text[i];
          i += 1;
        }
      }
      if (text[i] !== ',' && !text.startsWith('\r\n', i)) throw new Error(`CSV: "${text[i]}" after a closing quote at ${i}`);
    } else {
      while (i < text.length && text[i] !== ',' && !text.startsWith('\r\n', i)) {
        if (text[i] === '"' || text[i] === '\r' || text[i] === '\n') throw new Error(`CSV: a bare ${JSON.stringify(text[i])} in an unquoted field at ${i}`);
        field += text[i];
        i += 1;
      }
    }
    row.push(field);
    if (text[i] === ',') {
      i += 1;
    } else {
      i += 2; // CRLF
      rows.push(row);
      row = [];
    }
  }
  return rows;
}
