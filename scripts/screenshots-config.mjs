#!/usr/bin/env node
// Screenshots of "Paste your config" (web/config/, issue 36) for docs/screenshots/: at 1280 and
// 390 px wide, light and dark, the clients section's box with the Istio example read (the
// reading beside the run: config-clients-*) and a refused paste (config-error-*), and compare
// mode's box with an Envoy route's num_retries 1 → 3 read (config-compare-*). Run after
// `npm run build`:
//   node scripts/screenshots-config.mjs [outdir]
// Uses playwright-core and /usr/bin/chromium as the tests do.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { readyPage, screenshotDir, withBrowser } from './lib-screenshots.mjs';

const examples = createRequire(import.meta.url)('../tests/config-examples.js');
const out = screenshotDir();
const SIZES = [['1280', { width: 1280, height: 900 }], ['390', { width: 390, height: 844 }]];
const BEFORE = 'name: charge\nmatch: {prefix: "/pay"}\nroute:\n  cluster: payments\n  timeout: 3s\n  retry_policy:\n    retry_on: 5xx\n    num_retries: 1\n';
const AFTER = BEFORE.replace('num_retries: 1', 'num_retries: 3\n    per_try_timeout: 0.5s');

async function read(page, prefix) {
  await page.locator(`#${prefix}read`).click();
  await page.waitForFunction((p) => { const s = document.getElementById(`${p}status`).textContent; return s && !/^Loading/.test(s); }, prefix);
}
async function open(page, prefix) {
  const box = page.locator(`#${prefix}box`);
  await box.scrollIntoViewIfNeeded();
  await box.locator('summary').click();
  await page.waitForFunction((p) => document.querySelectorAll(`#${p}from option`).length > 1, prefix);
  return box;
}

await withBrowser(out, async ({ server, browser }) => {
  for (const [name, viewport] of SIZES) {
    for (const colorScheme of ['light', 'dark']) {
      const { context, page } = await readyPage(browser, server, { viewport, colorScheme });
      await page.evaluate(() => Promise.all([window.retryLabEngine.load(), window.retryLabSections.load()]));
      const box = await open(page, 'cl-cfg-');
      await page.locator('#cl-cfg-config-text').fill(examples.istio.text);
      await read(page, 'cl-cfg-');
      await page.mouse.move(0, 0);
      await box.screenshot({ path: join(out, `config-clients-${name}-${colorScheme}.png`) });
      await page.locator('#cl-cfg-config-text').fill(examples.istio.text.replace('perTryTimeout: 2s', 'perTryTimeout: 2sec').replace('attempts: 3', 'attempt: 3'));
      await read(page, 'cl-cfg-');
      await page.locator('#cl-cfg-config-text').evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.screenshot({ path: join(out, `config-error-${name}-${colorScheme}.png`) });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.locator('#experiment').getByRole('button', { name: 'Compare with…' }).click();
      await page.waitForSelector('#cmp-cfg-box');
      const cmp = await open(page, 'cmp-cfg-');
      await page.locator('#cmp-cfg-before-text').fill(BEFORE);
      await page.locator('#cmp-cfg-after-text').fill(AFTER);
      await read(page, 'cmp-cfg-');
      await page.mouse.move(0, 0);
      await cmp.screenshot({ path: join(out, `config-compare-${name}-${colorScheme}.png`) });
      await context.close();
    }
  }
});
console.log(`screenshots: wrote ${out}/config-*.png`);
