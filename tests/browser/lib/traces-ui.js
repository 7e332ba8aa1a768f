// Reading the policy traces section the way a reader does: the matrix's cells as text, the
// herd's figures, the editor's fields by their labels.

import { drawViews } from './ui.js';

export const TR = (name) => `#tr-${name}`;

// One matrix row: { label, attempts: [cell lines...] per attempt column, result: [lines] }.
// Each cell's lines are its spans' texts; a column with no attempt is null.
export async function matrixRow(page, traceId) {
  return page.locator(`${TR('matrix')} tr[data-trace="${traceId}"]`).evaluate((tr) => {
    const lines = (cell) => [...cell.querySelectorAll('span:not(.visually-hidden)')].map((s) => s.textContent.trim());
    const cells = [...tr.children];
    return {
      label: lines(cells[0]),
      selected: tr.getAttribute('aria-selected'),
      attempts: cells.slice(1, -1).map((c) => (c.classList.contains('tm-none') ? null : lines(c))),
      result: lines(cells[cells.length - 1]),
    };
  });
}

export const attemptsShown = (row) => row.attempts.filter(Boolean);

// The herd's figures: { [run]: { check, counts, text } }.
export async function herdFigures(page) {
  return page.locator(`${TR('herd-figures')} figure`).evaluateAll((figures) => Object.fromEntries(figures.map((f) => [f.dataset.run, {
    cls: f.className,
    check: f.querySelector('.th-check').textContent.trim(),
    counts: [...f.querySelectorAll('.th-bucket')].map((g) => Number(g.dataset.count)),
  }])));
}

export async function herdSettled(page) {
  await page.waitForFunction(() => window.retryLabTraces && !window.retryLabTraces.getState().herdBusy, null, { timeout: 60000 });
}

export const tracesState = (page) => page.evaluate(() => window.retryLabTraces.getState());
export const appTrace = (page) => page.evaluate(() => window.retryLab.getState().trace);

// The explorable's final metrics as shown (drawn first if they wait off screen: ui.js drawViews).
export async function shownMetrics(page) {
  await drawViews(page);
  return page.locator('#rl-metrics [data-metric]').evaluateAll((items) => Object.fromEntries(items.map((m) => [m.dataset.metric, m.querySelector('dd').textContent.trim()])));
}

export async function shownTable(page) {
  await drawViews(page);
  return page.locator('#rl-table tbody tr').evaluateAll((rows) => rows.map((r) => [...r.cells].map((c) => c.textContent.trim())));
}

export async function shownEvents(page) {
  await drawViews(page);
  return page.locator('#rl-events li .event-text').evaluateAll((els) => els.map((e) => e.textContent));
}

const sum = (xs) => xs.reduce((a, b) => a + b, 0);
export { sum };
