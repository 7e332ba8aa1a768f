// retrysim.1, the man page, written from the built binary's own --help and --version, so the
// page lists exactly the flags that binary has (cmake/Packaging.cmake runs this at build time):
//
//   node packaging/deb/manpage.mjs path/to/retrysim OUT     writes OUT (roff) and OUT.gz
//
// From --help it takes the synopsis (the "usage:" lines), the description (the paragraphs
// after them), every option (a line "  -x, --name ARG   text", its text continued on lines
// indented further) and the exit status (the paragraph from "Exit status:"). The rest of the
// page (examples, files, see also) is packaging/deb/retrysim.1.in, whose @NAME@ slots this
// fills. A help text this cannot read is an error, never a page with a section missing.

import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const [retrysim, out] = process.argv.slice(2);
if (!retrysim || !out) {
  console.error('usage: node manpage.mjs RETRYSIM OUT');
  process.exit(2);
}

// Text as roff reads it: backslashes escaped, a line never starting with a control character,
// and every hyphen a minus (so options copy and search as typed).
function roff(text) {
  return text.replace(/\\/g, '\\e').replace(/-/g, '\\-').replace(/^([.'])/gm, '\\&$1');
}

// The sections of `retrysim --help`.
function readHelp(help) {
  const lines = help.replace(/\n+$/, '').split('\n');
  let at = 0;
  const synopsis = [];
  while (at < lines.length && /^(usage: | {7})retrysim\b/.test(lines[at])) synopsis.push(lines[at++].replace(/^(usage: | {7})/, ''));
  if (!synopsis.length) throw new Error('--help does not start with "usage: retrysim"');
  const description = [];
  const options = [];
  let exit = null;
  let paragraph = [];
  const flush = () => {
    if (paragraph.length) description.push(paragraph.join(' '));
    paragraph = [];
  };
  for (; at < lines.length; ++at) {
    const line = lines[at];
    // An option: its names (-x, --name) each with an argument in capitals or none, then its
    // text after one space or more (--base-url URL's text follows after one).
    const option = /^ {2}(-{1,2}[\w-]+(?: [A-Z]+)?(?:, -{1,2}[\w-]+(?: [A-Z]+)?)*)(?: +(\S.*))?$/.exec(line);
    if (option) {
      flush();
      options.push({ names: option[1], text: [option[2] || ''] });
    } else if (/^ {3,}\S/.test(line) && options.length && exit === null) {
      options[options.length - 1].text.push(line.trim());
    } else if (/^Exit status:/.test(line)) {
      flush();
      exit = [line.replace(/^Exit status:\s*/, '')];
    } else if (exit !== null && line.trim()) {
      exit.push(line.trim());
    } else if (!line.trim()) {
      flush();
    } else if (!options.length) {
      paragraph.push(line.trim());
    } else {
      throw new Error(`--help has a line this cannot place: ${JSON.stringify(line)}`);
    }
  }
  flush();
  if (!options.length) throw new Error('--help lists no options');
  if (!exit) throw new Error('--help says no "Exit status:"');
  return { synopsis, description, options: options.map((o) => ({ names: o.names, text: o.text.join(' ').trim() })), exit: exit.join(' ') };
}

const help = execFileSync(retrysim, ['--help'], { encoding: 'utf8' });
const versionLine = execFileSync(retrysim, ['--version'], { encoding: 'utf8' }).trim();
const version = /^retrysim (\d+\.\d+\.\d+\S*)$/.exec(versionLine);
if (!version) throw new Error(`retrysim --version printed ${JSON.stringify(versionLine)}, not "retrysim X.Y.Z"`);
const sections = readHelp(help);

const fill = {
  VERSION: version[1],
  SYNOPSIS: sections.synopsis.map((s) => `.br\n${roff(s)}`).join('\n').replace(/^\.br\n/, ''),
  DESCRIPTION: sections.description.map(roff).join('\n.PP\n'),
  OPTIONS: sections.options.map((o) => `.TP\n.B ${roff(o.names)}\n${roff(o.text)}`).join('\n'),
  EXIT_STATUS: roff(sections.exit),
};
const template = readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'retrysim.1.in'), 'utf8');
const page = template.replace(/@([A-Z_]+)@/g, (whole, name) => {
  if (!(name in fill)) throw new Error(`retrysim.1.in names @${name}@, which this does not fill`);
  return fill[name];
});
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, page);
writeFileSync(`${out}.gz`, gzipSync(page, { level: 9 }));
