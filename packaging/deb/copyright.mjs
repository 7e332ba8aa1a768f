// /usr/share/doc/retrysim/copyright, the package's copyright file (Debian policy §12.5, in the
// machine-readable format), written at build time (cmake/Packaging.cmake) from the notices of
// what retrysim's binary holds besides the project's own code:
//
//   node packaging/deb/copyright.mjs LIBYAML_LICENSE NLOHMANN_COPYRIGHT OUT
//
// - libyaml 0.2.5 (third_party/libyaml, docs/config-in.md §11.1), compiled in: its License
//   file as upstream ships it, word for word;
// - nlohmann-json (header-only, compiled into bindings/json and bindings/config): the Expat
//   text of Debian's own copyright file for it (nlohmann-json3-dev), and its copyright lines.
// A notice this cannot find is an error, never a file with a notice missing.
import { readFileSync, writeFileSync } from 'node:fs';

const [libyamlLicense, nlohmannCopyright, out] = process.argv.slice(2);
if (!out) {
  console.error('usage: node copyright.mjs LIBYAML_LICENSE NLOHMANN_COPYRIGHT OUT');
  process.exit(2);
}

// A text as a field's continuation lines: each line indented by one space, a blank line " .".
const continued = (text) => text.replace(/\s+$/, '').split('\n').map((l) => (l.trim() === '' ? ' .' : ` ${l.replace(/\s+$/, '')}`)).join('\n');

const yaml = readFileSync(libyamlLicense, 'utf8');
const yamlHolders = yaml.split('\n').filter((l) => /^Copyright \(c\)/.test(l)).map((l) => l.replace(/^Copyright \(c\) /, ''));
if (!yamlHolders.length || !/Permission is hereby granted/.test(yaml)) throw new Error(`${libyamlLicense} is not libyaml's MIT License`);

// Debian's copyright file for nlohmann-json: the stanza for `Files: *` and the `License: Expat` text.
const debian = readFileSync(nlohmannCopyright, 'utf8');
const paragraphs = debian.split(/\n\s*\n/);
const main = paragraphs.find((p) => /^Files: \*$/m.test(p));
const expat = paragraphs.find((p) => /^License: Expat\n/.test(p));
if (!main || !expat) throw new Error(`${nlohmannCopyright} has no "Files: *" stanza or no Expat licence text`);
const nlohmannHolders = /^Copyright: (.*)$/m.exec(main)[1];
const expatText = expat.replace(/^License: Expat\n/, '');

const text = `Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: retrysim
Comment: retrysim is Retry Lab's engine as a command. Its binary also holds libyaml 0.2.5
 (third_party/libyaml, the YAML parser of retrysim --from) and nlohmann-json (a header-only
 JSON parser, from Debian's nlohmann-json3-dev); their notices follow.

Files: *
Copyright: Retry Lab
License: UNLICENSED
 Retry Lab's own code carries no licence (its package.json says UNLICENSED).

Files: third_party/libyaml/*
Copyright: ${yamlHolders.join('\n           ')}
License: Expat
${continued(yaml)}

Files: /usr/include/nlohmann/*
Copyright: ${nlohmannHolders}
Comment: nlohmann-json, compiled into retrysim from Debian's nlohmann-json3-dev; the licence
 text is Debian's copyright file's for that package.
License: Expat
${expatText.replace(/\s+$/, '')}
`;
writeFileSync(out, text);
