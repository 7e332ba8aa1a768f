// retry-lab-element.js (called by web/build.mjs): the engine file, then the <retry-lab>
// bundle with its shadow root's stylesheet inside as text, in one classic script. The
// engine is joined as it is, not bundled: it has node-only branches a bundler must not follow.

import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleCss, bundleScript } from './esbuild-steps.mjs';

const here = dirname(fileURLToPath(import.meta.url));

export async function buildElement({ dist, engineFile, name = 'retry-lab-element.js' }) {
  const elementCss = await bundleCss(join(here, 'element.css'), { scoped: true });
  const bundle = await bundleScript(join(here, 'element.js'), { texts: { 'element-css': elementCss } });
  // <retry-lab view="fleet">'s stylesheet (web/fleet/embed.js), scoped as the element's own.
  await bundleCss(join(here, '../fleet/fleet.css'), { scoped: true, outfile: join(dist, 'retry-lab-fleet.css') });
  const engine = await readFile(engineFile, 'utf8');
  await writeFile(join(dist, name), `${engine}\n;${bundle}`);
  await buildCompare({ dist });
}

// retry-lab-compare.js: the element's compare mode, loaded on demand (web/compare/element.js),
// with compare mode's stylesheet scoped for a shadow root. Inside an element the two sides
// stand side by side when the element itself is wide enough, never wider than it.
const ELEMENT_COMPARE_CSS = `.rl-el-compare .rl-compare-sides{width:auto;margin-left:0;grid-template-columns:minmax(0,1fr)}
@container (min-width: 110em){.rl-el-compare .rl-compare-sides{grid-template-columns:minmax(0,1fr) minmax(0,1fr)}}`;

async function buildCompare({ dist, name = 'retry-lab-compare.js' }) {
  const compareCss = await bundleCss(join(here, '../compare/compare.css'), { scoped: true, extra: ELEMENT_COMPARE_CSS });
  await bundleScript(join(here, '../compare/element.js'), { outfile: join(dist, name), texts: { 'compare-css': compareCss } });
}
