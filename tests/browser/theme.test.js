// One dark palette (web/css/tokens.css): the reader's system setting and a `data-theme` of
// "dark" (embed.html's ?theme=, <retry-lab theme>) give the same colours for every token, a
// `data-theme` of "light" under a dark system gives the light ones, and print keeps the light
// colours whatever the theme. Each token is resolved as a colour by the browser (a probe
// element painted with it), so the test compares what a reader sees, not the stylesheet's text.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, openPage } from './lib/harness.js';

const env = browserSuite();

// Every colour token of the page's root, resolved: { '--bg': 'rgb(…)', … }. The names come
// from the stylesheet's own :root rules, so a token added later is compared too.
async function palette(page) {
  return page.evaluate(() => {
    const names = new Set();
    for (const sheet of document.styleSheets) {
      const walk = (rules) => {
        for (const rule of rules) {
          if (rule.cssRules) walk(rule.cssRules);
          if (rule.style && /:root/.test(rule.selectorText || '')) {
            for (const name of rule.style) if (name.startsWith('--') && !/^--(font|serif|mono)$/.test(name)) names.add(name);
          }
        }
      };
      walk(sheet.cssRules);
    }
    const probe = document.createElement('span');
    document.body.append(probe);
    const out = {};
    for (const name of [...names].sort()) {
      probe.style.color = `var(${name})`;
      out[name] = getComputedStyle(probe).color;
    }
    probe.remove();
    return out;
  });
}

// The palette with the system's colour scheme, the page's data-theme (none: the attribute
// absent) and the media as given, on one page a test opens and sets each time: the page's
// colours are its stylesheets' alone (no script reads the scheme), so setting them is opening
// the page with them, without a renderer and a page load for each of a test's up to six.
async function paletteOf(page, { colorScheme, theme = null, media = 'screen' }) {
  await page.emulateMedia({ colorScheme, media });
  await page.evaluate((t) => {
    if (t) document.documentElement.dataset.theme = t;
    else delete document.documentElement.dataset.theme;
  }, theme);
  return palette(page);
}
const openPlain = async () => (await openPage(env, { sections: false, inputs: false })).page;

describe('one dark palette', () => {
  test('system dark, data-theme="dark" and both give the same colours; light and dark differ in every token', async () => {
    const page = await openPlain();
    const light = await paletteOf(page, { colorScheme: 'light' });
    const systemDark = await paletteOf(page, { colorScheme: 'dark' });
    const themeDark = await paletteOf(page, { colorScheme: 'light', theme: 'dark' });
    const bothDark = await paletteOf(page, { colorScheme: 'dark', theme: 'dark' });
    assert.ok(Object.keys(light).length >= 20, `${Object.keys(light).length} colour tokens`);
    assert.deepEqual(themeDark, systemDark, 'data-theme="dark" is the system setting’s dark palette');
    assert.deepEqual(bothDark, systemDark);
    const same = Object.keys(light).filter((k) => light[k] === systemDark[k]);
    assert.deepEqual(same, [], 'every token has a dark colour of its own');
  });

  test('data-theme="light" keeps the light palette under a dark system, and print is light whatever the theme', async () => {
    const page = await openPlain();
    const light = await paletteOf(page, { colorScheme: 'light' });
    assert.deepEqual(await paletteOf(page, { colorScheme: 'dark', theme: 'light' }), light);
    // Print has a rule of its own (css/print.css: no veil over the future), so print is held to
    // a light system's print, and that to the light palette but for what print.css sets.
    const lightPrint = await paletteOf(page, { colorScheme: 'light', media: 'print' });
    assert.deepEqual(await paletteOf(page, { colorScheme: 'dark', media: 'print' }), lightPrint);
    assert.deepEqual(await paletteOf(page, { colorScheme: 'light', theme: 'dark', media: 'print' }), lightPrint);
    assert.deepEqual(await paletteOf(page, { colorScheme: 'dark', theme: 'dark', media: 'print' }), lightPrint);
    assert.deepEqual(Object.keys(lightPrint).filter((k) => lightPrint[k] !== light[k]), ['--veil']);
  });
});
