// The esbuild steps the page's build (web/build.mjs) and the element's (build-element.mjs)
// share: a classic script bundle, and a stylesheet bundle, plain or scoped for a shadow root.

import { build } from 'esbuild';
import { writeFile } from 'node:fs/promises';
import { scopeCss } from './scope-css.mjs';

// RETRYLAB_MINIFY=0: readable names for a profile (bench/trace-page.mjs).
const SCRIPT = { bundle: true, format: 'iife', target: ['es2020'], minify: process.env.RETRYLAB_MINIFY !== '0', legalComments: 'none', logLevel: 'warning' };
const STYLE = { bundle: true, minify: true, logLevel: 'warning' };

// `entry` as one classic script: written to `outfile`, or (without one) its text returned.
// `texts` ({ name: text }): modules the bundle imports as `retrylab:<name>`, each a string.
export async function bundleScript(entry, { outfile = null, texts = {} } = {}) {
  const plugins = [{
    name: 'retrylab-texts',
    setup(b) {
      b.onResolve({ filter: /^retrylab:/ }, (args) => ({ path: args.path.slice('retrylab:'.length), namespace: 'retrylab' }));
      b.onLoad({ filter: /.*/, namespace: 'retrylab' }, (args) => ({ contents: texts[args.path], loader: 'text' }));
    },
  }];
  const out = await build({ entryPoints: [entry], ...SCRIPT, plugins, ...(outfile ? { outfile } : { write: false }) });
  return outfile ? null : out.outputFiles[0].text;
}

// `entry` as one stylesheet, written to `outfile`. `scoped`: turned into one for a shadow root
// (scope-css.mjs) with `extra` rules after it, written to `outfile` if given, its text returned.
export async function bundleCss(entry, { outfile = null, scoped = false, extra = '' } = {}) {
  if (!scoped) {
    await build({ entryPoints: [entry], outfile, ...STYLE });
    return null;
  }
  const out = await build({ entryPoints: [entry], ...STYLE, write: false });
  const text = scopeCss(extra ? `${out.outputFiles[0].text}\n${extra}` : out.outputFiles[0].text);
  if (outfile) await writeFile(outfile, text);
  return text;
}
