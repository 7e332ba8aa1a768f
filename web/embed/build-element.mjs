// retry-lab-element.js (called by web/build.mjs): the engine file, then the <retry-lab>
// bundle with its shadow root's stylesheet inside as text, in one classic script. The
// engine is joined as it is, not bundled: it has node-only branches a bundler must not follow.

import { build } from 'esbuild';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scopeCss } from './scope-css.mjs';

const here = dirname(fileURLToPath(import.meta.url));

export async function buildElement({ dist, engineFile, name = 'retry-lab-element.js' }) {
  const css = await build({
    entryPoints: [join(here, 'element.css')],
    bundle: true,
    minify: true,
    write: false,
    logLevel: 'warning',
  });
  const elementCss = scopeCss(css.outputFiles[0].text);
  const bundle = await build({
    entryPoints: [join(here, 'element.js')],
    bundle: true,
    format: 'iife',
    target: ['es2020'],
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'warning',
    plugins: [{
      name: 'retrylab-element-css',
      setup(b) {
        b.onResolve({ filter: /^retrylab:element-css$/ }, () => ({ path: 'element-css', namespace: 'retrylab' }));
        b.onLoad({ filter: /.*/, namespace: 'retrylab' }, () => ({ contents: elementCss, loader: 'text' }));
      },
    }],
  });
  // <retry-lab view="fleet">'s stylesheet (web/fleet/embed.js), scoped as the element's own.
  const fleetCss = await build({ entryPoints: [join(here, '../fleet/fleet.css')], bundle: true, minify: true, write: false, logLevel: 'warning' });
  await writeFile(join(dist, 'retry-lab-fleet.css'), scopeCss(fleetCss.outputFiles[0].text));
  const engine = await readFile(engineFile, 'utf8');
  await writeFile(join(dist, name), `${engine}\n;${bundle.outputFiles[0].text}`);
  await buildCompare({ dist });
}

// retry-lab-compare.js: the element's compare mode, loaded on demand (web/compare/element.js),
// with compare mode's stylesheet scoped for a shadow root. Inside an element the two sides
// stand side by side when the element itself is wide enough, never wider than it.
const ELEMENT_COMPARE_CSS = `.rl-el-compare .rl-compare-sides{width:auto;margin-left:0;grid-template-columns:minmax(0,1fr)}
@container (min-width: 110em){.rl-el-compare .rl-compare-sides{grid-template-columns:minmax(0,1fr) minmax(0,1fr)}}`;

async function buildCompare({ dist, name = 'retry-lab-compare.js' }) {
  const css = await build({
    entryPoints: [join(here, '../compare/compare.css')],
    bundle: true,
    minify: true,
    write: false,
    logLevel: 'warning',
  });
  const compareCss = scopeCss(`${css.outputFiles[0].text}\n${ELEMENT_COMPARE_CSS}`);
  await build({
    entryPoints: [join(here, '../compare/element.js')],
    outfile: join(dist, name),
    bundle: true,
    format: 'iife',
    target: ['es2020'],
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [{
      name: 'retrylab-compare-css',
      setup(b) {
        b.onResolve({ filter: /^retrylab:compare-css$/ }, () => ({ path: 'compare-css', namespace: 'retrylab' }));
        b.onLoad({ filter: /.*/, namespace: 'retrylab' }, () => ({ contents: compareCss, loader: 'text' }));
      },
    }],
  });
}
