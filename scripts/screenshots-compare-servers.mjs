#!/usr/bin/env node
// Compare mode's controls for two fleet runs with many servers (issue 39's fields in compare
// mode) for docs/screenshots/: at 1280×900 and 390×844, light and dark,
//   compare-servers-controls-*   four servers on both sides; the after side's balancer picks at
//                                random, its retries go to a host not yet tried and server 0
//                                crashes from 5 s to 15 s: each side's servers, balancer and
//                                faults groups open
// Run after `npm run build`:
//   node scripts/screenshots-compare-servers.mjs [outdir] [sizes, e.g. 1280,390]
import { join } from 'node:path';
import { onlySizes, readyPage, screenshotDir, withBrowser } from './lib-screenshots.mjs';

const out = screenshotDir();
const only = onlySizes();
const SIZES = [['1280', { width: 1280, height: 900 }], ['390', { width: 390, height: 844 }]];
const CRASH = 'kind:crash~servers:0~startMs:5000~endMs:15000';
const LINK = `/#v=1&view=compare&of=fleet&servers.count=4&after.balancer.kind=random&after.policy.retryHost=previous-hosts&after.faults=${CRASH}`;

await withBrowser(out, async ({ server, browser }) => {
  for (const [name, viewport] of SIZES) {
    if (only && !only.has(name)) continue;
    for (const colorScheme of ['light', 'dark']) {
      const { context, page } = await readyPage(browser, server, { viewport, colorScheme }, LINK);
      await page.waitForFunction(() => document.querySelector('.rl-compare-fleet')?.dataset.compared === 'true', null, { timeout: 120000 });
      await page.evaluate(() => {
        for (const d of document.querySelectorAll('.rl-compare-fleet details.rl-fc-group')) d.open = ['servers', 'balancer', 'faults'].includes(d.dataset.group);
      });
      const controls = page.locator('[data-controls="after"]');
      await controls.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.mouse.move(0, 0);
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(out, `compare-servers-controls-${name}-${colorScheme}.png`) });
      await context.close();
    }
  }
});
console.log(`screenshots: wrote ${out}`);
