// The Chromium every page benchmark launches (bench/browser.mjs, ab-page.mjs, trace-page.mjs):
// Debian's, headless, with nothing of its own on the network or the CPU beside the page.
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
