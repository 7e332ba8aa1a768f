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

async function paletteOf({ colorScheme, theme = null, media = 'screen' }) {
  const { page } = await openPage(env, { colorScheme, sections: false, inputs: false });
  if (theme) await page.evaluate((t) => { document.documentElement.dataset.theme = t; }, theme);
  await page.emulateMedia({ media });
  return palette(page);
}

describe('one dark palette', () => {
  test('system dark, data-theme="dark" and both give the same colours; light and dark differ in every token', async () => {
    const light = await paletteOf({ colorScheme: 'light' });
    const systemDark = await paletteOf({ colorScheme: 'dark' });
    const themeDark = await paletteOf({ colorScheme: 'light', theme: 'dark' });
    const bothDark = await paletteOf({ colorScheme: 'dark', theme: 'dark' });
    assert.ok(Object.keys(light).length >= 20, `${Object.keys(light).length} colour tokens`);
    assert.deepEqual(themeDark, systemDark, 'data-theme="dark" is the system setting’s dark palette');
    assert.deepEqual(bothDark, systemDark);
    const same = Object.keys(light).filter((k) => light[k] === systemDark[k]);
    assert.deepEqual(same, [], 'every token has a dark colour of its own');
  });

  test('data-theme="light" keeps the light palette under a dark system, and print is light whatever the theme', async () => {
    const light = await paletteOf({ colorScheme: 'light' });
    assert.deepEqual(await paletteOf({ colorScheme: 'dark', theme: 'light' }), light);
    // Print has a rule of its own (css/print.css: no veil over the future), so print is held to
    // a light system's print, and that to the light palette but for what print.css sets.
    const lightPrint = await paletteOf({ colorScheme: 'light', media: 'print' });
    assert.deepEqual(await paletteOf({ colorScheme: 'dark', media: 'print' }), lightPrint);
    assert.deepEqual(await paletteOf({ colorScheme: 'light', theme: 'dark', media: 'print' }), lightPrint);
    assert.deepEqual(await paletteOf({ colorScheme: 'dark', theme: 'dark', media: 'print' }), lightPrint);
    assert.deepEqual(Object.keys(lightPrint).filter((k) => lightPrint[k] !== light[k]), ['--veil']);
  });
});
