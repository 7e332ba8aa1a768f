// The Chromium every page benchmark launches (bench/browser.mjs, ab-page.mjs, trace-page.mjs):
// Debian's, headless, with nothing of its own on the network or the CPU beside the page.
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

// A page of the built site with the fleet section loaded and its opening run drawn
// (bench/fleet-page.mjs, map-page.mjs): resolves with the page and the ms the section took.
export async function fleetPage(browser, origin) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => document.documentElement.classList.contains('rl-ready'));
  const t0 = Date.now();
  await page.evaluate(() => window.retryLabFleetSection.load());
  await page.waitForFunction(() => window.retryLabFleet && window.retryLabFleet.state());
  return { page, opening: Date.now() - t0 };
}

// The page benches' report (bench/fleet-page.mjs, bench/map-page.mjs): the median round (the
// upper middle one of an even count), a whole number as the page writes it, and a figure beside
// its budget in ms ("met", or by how much it missed).
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const n = (x) => Math.round(x).toLocaleString('en-US');
export const verdict = (value, budget, { strict = false } = {}) => {
  const ok = strict ? value < budget : value <= budget;
  return ok ? 'met' : `missed by ${n(value - budget)} ms (${(value / budget).toFixed(2)}×)`;
};
