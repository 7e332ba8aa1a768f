// Stages the npm package `retrylab` (packages/retrylab/README.md) from the built site and the
// engine files; `npm run build` runs it after web/build.mjs, and scripts/package packs it:
//
//   node packages/retrylab/build.mjs [OUT]      (default build/npm/retrylab; RETRYLAB_DIST, the site)
//
// The package is the site as built (so <retry-lab>'s "Open in Retry Lab" and the on-demand
// parts it loads sit beside its script, as on Retry Lab's own host) plus, for node and
// bundlers, ES module copies of the two engine files and the element, and the TypeScript
// declarations written from the engine's schema() and fleetSchema() (types.mjs). Its version
// is read from CMakeLists.txt's project(VERSION), the one source (docs/versions.md), and must
// be the engine's own: a build from a stale engine file stops here.

import { copyFile, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { declarations } from './types.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');
const dist = process.env.RETRYLAB_DIST ? resolve(repo, process.env.RETRYLAB_DIST) : join(repo, 'dist');
const out = resolve(process.argv[2] || join(repo, 'build/npm/retrylab'));

export function projectVersion(cmakeText) {
  const m = /project\(retrylab VERSION (\d+\.\d+\.\d+)/.exec(cmakeText);
  if (!m) throw new Error('CMakeLists.txt names no project(retrylab VERSION X.Y.Z)');
  return m[1];
}

const version = projectVersion(await readFile(join(repo, 'CMakeLists.txt'), 'utf8'));
const require = createRequire(import.meta.url);
for (const name of ['retrylab-engine.js', 'retrylab-fleet.js', 'retry-lab-element.js']) {
  try {
    await readFile(join(dist, name));
  } catch {
    console.error(`packages/retrylab: ${join(dist, name)} is missing: build the wasm preset, then web/build.mjs`);
    process.exit(1);
  }
}
const engine = await require(join(dist, 'retrylab-fleet.js'))();
if (engine.version() !== version) {
  console.error(`packages/retrylab: the engine in ${dist} is ${engine.version()}, CMakeLists.txt says ${version}: build the wasm preset, then npm run build`);
  process.exit(1);
}

await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });

// The site, file for file: its pages, bundles, stylesheets and both engine files.
for (const name of await readdir(dist)) {
  if (/\.(html|js|css|svg)$/.test(name)) await copyFile(join(dist, name), join(out, name));
}

// ES modules of the engine files: the same classic script, whose top-level `var
// RetryLabEngine` is the module's own in a module, exported. (The script's last line assigns
// module.exports only where `module` exists: never in an ES module.)
for (const name of ['retrylab-engine', 'retrylab-fleet']) {
  const text = await readFile(join(dist, `${name}.js`), 'utf8');
  if (!/^var RetryLabEngine=/m.test(text)) throw new Error(`${name}.js does not define RetryLabEngine at its top level`);
  await writeFile(join(out, `${name}.mjs`), `${text}\nexport default RetryLabEngine;\nexport { RetryLabEngine };\n`);
}

// <retry-lab> as an ES module: it adds the classic script beside it (which finds its on-demand
// parts and the site from its own address) once, and `ready` resolves when the element is defined.
await writeFile(join(out, 'retry-lab-element.mjs'), `// <retry-lab> as an ES module (retrylab ${version}): import 'retrylab/element', or
// <script type="module" src=".../retry-lab-element.mjs">. It adds retry-lab-element.js, the
// classic script beside it, to the page once; keep the package's files together.
const src = new URL('./retry-lab-element.js', import.meta.url).href;
if (!customElements.get('retry-lab') && ![...document.scripts].some((s) => s.src === src)) {
  const script = document.createElement('script');
  script.src = src;
  document.head.append(script);
}
export const ready = customElements.whenDefined('retry-lab').then(() => customElements.get('retry-lab'));
`);
await writeFile(join(out, 'retry-lab-element.d.mts'), `// <retry-lab> (retrylab ${version}): resolves to the element's class once it is defined.
export declare const ready: Promise<CustomElementConstructor>;
`);

const { types, esm, cjs } = declarations({ schema: engine.schema(), fleetSchema: engine.fleetSchema() });
await writeFile(join(out, 'types.d.ts'), types);
await writeFile(join(out, 'retrylab.d.mts'), esm);
await writeFile(join(out, 'retrylab.d.ts'), cjs);

const manifest = JSON.parse(await readFile(join(here, 'package.json'), 'utf8'));
delete manifest['//'];
await writeFile(join(out, 'package.json'), `${JSON.stringify({ name: manifest.name, version, ...manifest }, null, 2)}\n`);
await copyFile(join(here, 'README.md'), join(out, 'README.md'));
await copyFile(join(repo, 'CHANGELOG.md'), join(out, 'CHANGELOG.md'));
await writeFile(join(out, 'VERSION'), `${version}\n`);
console.log(`packages/retrylab: staged retrylab ${version} in ${out}`);
