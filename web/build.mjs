// `npm run build`: the servable site in dist/ — the html pages, one bundled classic script
// (module scripts are blocked on file:// pages), the CSS, and a copy of the engine file,
// which stays its own classic script (it has node-only branches a bundler must not follow).

import { copyFile, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { buildElement } from './embed/build-element.mjs';
import { bundleCss, bundleScript } from './embed/esbuild-steps.mjs';
import { fillPage, prerender } from './prerender.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// RETRYLAB_DIST: another output folder, so several people can build and test side by side.
const dist = process.env.RETRYLAB_DIST ? resolve(repo, process.env.RETRYLAB_DIST) : join(repo, 'dist');
const engineFile = process.env.RETRYLAB_ENGINE || join(repo, 'build/wasm/bindings/wasm/retrylab-engine.js');
// The fleet engine file (docs/engine.md §7), beside the page's: the fleet section loads it.
const fleetEngineFile = process.env.RETRYLAB_FLEET_ENGINE || join(dirname(engineFile), 'retrylab-fleet.js');
// The config file (docs/config-in.md §13): the readers of "Paste your config", loaded by the
// paste boxes (web/config/) when a reader opens or focuses one.
const configFile = process.env.RETRYLAB_CONFIG_ENGINE || join(dirname(engineFile), 'retrylab-config.js');

async function exists(path) {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

if (!(await exists(engineFile))) {
  console.error(`build: the engine file is missing: ${engineFile}\n` +
    'build: build it first with `cmake --preset wasm && cmake --build --preset wasm`.');
  process.exit(1);
}

await rm(dist, { recursive: true, force: true });
await mkdir(dist, { recursive: true });

// The page's bundle, and the sections below the article in a bundle of their own, loaded
// when the reader nears them (web/load-sections.js): each a classic script and a stylesheet.
// The downloads' code is a third, loaded the first time a reader asks for a file; compare
// mode a fourth (web/compare/), the first time a reader opens a comparison; the fleet section
// at the article's end (web/fleet/) a fifth, loaded when the reader nears it, and its stability
// maps (web/fleet/stability.js) a sixth, loaded when the reader nears them.
for (const [entry, name] of [['main', 'retrylab'], ['sections', 'retrylab-sections'], ['export-bundle', 'retrylab-export'], ['compare/index', 'retrylab-compare'], ['fleet', 'retrylab-fleet-section'], ['fleet-map', 'retrylab-fleet-map'], ['servers-step', 'retrylab-servers-step']]) {
  await bundleScript(join(repo, `web/${entry}.js`), { outfile: join(dist, `${name}.js`) });
}
for (const [entry, name] of [['styles', 'retrylab'], ['sections', 'retrylab-sections'], ['compare/compare', 'retrylab-compare'], ['fleet/fleet', 'retrylab-fleet-section'], ['fleet/map', 'retrylab-fleet-map'], ['servers/step', 'retrylab-servers-step']]) {
  await bundleCss(join(repo, `web/${entry}.css`), { outfile: join(dist, `${name}.css`) });
}

await copyFile(engineFile, join(dist, 'retrylab-engine.js'));
// The opening page carries no engine (issue 18): its first screen, the article's numbers and
// the opening run are computed here by the engine file just copied, and written into
// dist/index.html (web/prerender.mjs). embed.html still loads its engine as it opens.
const engine = await createRequire(import.meta.url)(join(dist, 'retrylab-engine.js'))();
const prerendered = prerender(engine);
for (const name of await readdir(join(repo, 'site'))) {
  if (name === 'index.html') {
    await writeFile(join(dist, name), fillPage(await readFile(join(repo, 'site', name), 'utf8'), prerendered));
  } else if (/\.(html|svg|png)$/.test(name)) {
    await copyFile(join(repo, 'site', name), join(dist, name));
  }
}
if (await exists(fleetEngineFile)) await copyFile(fleetEngineFile, join(dist, 'retrylab-fleet.js'));
else console.error(`build: no fleet engine file at ${fleetEngineFile}: the fleet section will say it cannot load it.`);
if (await exists(configFile)) await copyFile(configFile, join(dist, 'retrylab-config.js'));
else console.error(`build: no config file at ${configFile}: "Paste your config" will say it cannot load it.`);
// <retry-lab>: one script tag holding the engine and the custom element (web/embed/).
await buildElement({ dist, engineFile });
console.log(`build: wrote ${dist}`);
