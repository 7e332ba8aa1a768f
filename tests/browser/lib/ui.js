// Reading and driving the explorable the way a reader does: through labelled controls and
// the text the page shows.

export const ID = (name) => `#rl-${name}`;

// Set number fields by typing into their boxes, choices by their labels.
export async function setInputs(page, { scenario, retryOn, idempotencyKey, ...numbers } = {}) {
  if (scenario) await page.getByRole('radio', { name: scenario, exact: true }).check();
  if (retryOn) await page.getByRole('radio', { name: retryOn, exact: true }).check();
  // The explorable's own switch: the traces editor's has the same label (web/input-words.js).
  if (idempotencyKey !== undefined) await page.locator(ID('controls')).getByRole('checkbox', { name: 'Send an idempotency key the server honours' }).setChecked(idempotencyKey);
  for (const [name, value] of Object.entries(numbers)) await page.locator(ID(name)).fill(String(value));
}

// The page's timeline, event list, table and metrics are drawn after a change's frame while off
// screen (web/explorable/near.js drawnOnScreen): drawn now, before a test reads them where they are.
export const drawViews = (page) => page.evaluate(() => window.retryLab?.drawViews?.());

export async function metric(page, key) {
  await drawViews(page);
  return (await page.locator(`${ID('metrics')} [data-metric="${key}"] dd`).textContent()).trim();
}

// The six metrics as metric() reads them, in one visit to the page instead of twelve (issue 31:
// robust-input reads them twice for each of hundreds of values): drawn first, each figure's
// one element waited for as a locator waits, its text trimmed.
const METRICS = ['attempts', 'charges', 'replays', 'elapsed', 'outcome', 'lookup'];
export async function metricsOf(page) {
  const read = await page.waitForFunction(([box, keys]) => {
    window.retryLab?.drawViews?.();
    const found = keys.map((k) => document.querySelectorAll(`${box} [data-metric="${k}"] dd`));
    if (found.some((els) => els.length !== 1)) return null;
    return Object.fromEntries(keys.map((k, i) => [k, found[i][0].textContent.trim()]));
  }, [ID('metrics'), METRICS]);
  return read.jsonValue();
}

// The server-answer table as arrays of cell texts.
export async function tableRows(page) {
  await drawViews(page);
  return page.locator(`${ID('table')} tbody tr`).evaluateAll((rows) => rows.map((r) => [...r.cells].map((c) => c.textContent.trim())));
}

export async function verdict(page) {
  return (await page.locator(`${ID('verdict')} .verdict-line`).textContent()).trim();
}

export async function sides(page) {
  return page.locator(`${ID('verdict')} .side`).evaluateAll((els) => els.map((e) => e.innerText.replace(/\s+/g, ' ').trim()));
}

export async function timelineText(page) {
  await drawViews(page);
  return page.locator(`${ID('timeline')} svg text`).evaluateAll((els) => els.map((e) => e.textContent));
}

export async function eventTimes(page) {
  await drawViews(page);
  return page.locator(`${ID('events')} li`).evaluateAll((els) => els.map((e) => [e.querySelector('.event-time').textContent, e.dataset.index, e.className]));
}

export async function slider(page) {
  const el = page.locator(ID('seek'));
  return {
    now: Number(await el.getAttribute('aria-valuenow')),
    text: await el.getAttribute('aria-valuetext'),
  };
}

export async function futureCount(page) {
  await drawViews(page);
  return page.locator(`${ID('events')} li.future`).count();
}

// Resolves after `n` of the page's frames and then the tasks queued before them: what a scroll,
// a click or a change set going in the page's frames (IntersectionObserver notices, a handler
// chained on requestAnimationFrame) has run by then. A wait for the page's state, in frames, not
// a guess in milliseconds.
export const frames = (page, n = 2) => page.evaluate((count) => new Promise((resolve) => {
  let left = count;
  (function next() {
    if (left <= 0) setTimeout(resolve, 0);
    else {
      left -= 1;
      requestAnimationFrame(next);
    }
  }());
}), n);

// Resolves once the page has not scrolled for ten frames running (a smooth scroll under way,
// such as the one that brings an inline figure's Play into view, has ended). Called right after a
// "Try it" shows its figure, it also covers the two frames revealFigure (web/explorable/steps.js)
// waits before it scrolls: a scroll it starts resets the count.
export const scrollSettled = (page) => page.evaluate(() => new Promise((resolve) => {
  let last = scrollY;
  let still = 0;
  (function poll() {
    still = scrollY === last ? still + 1 : 0;
    last = scrollY;
    if (still >= 10) resolve();
    else requestAnimationFrame(poll);
  }());
}));
