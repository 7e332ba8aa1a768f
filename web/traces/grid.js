// The WAI-ARIA grid pattern's keyboard, for the traces matrix: one Tab stop that roves
// (tabindex 0 on one cell, -1 on every other), arrows move one cell and stop at the edges,
// Home/End go to the ends of the row, Ctrl+Home/End to the first and the last cell.
// Enter or Space on a trace's row (and a click) activates that row.

// The next focus position for a key, or null when the key is not the grid's. Pure.
export function moveFocus(pos, key, ctrlKey, rows, cols) {
  const clamp = (r, c) => ({ row: Math.max(0, Math.min(rows - 1, r)), col: Math.max(0, Math.min(cols - 1, c)) });
  switch (key) {
    case 'ArrowRight': return clamp(pos.row, pos.col + 1);
    case 'ArrowLeft': return clamp(pos.row, pos.col - 1);
    case 'ArrowDown': return clamp(pos.row + 1, pos.col);
    case 'ArrowUp': return clamp(pos.row - 1, pos.col);
    case 'Home': return ctrlKey ? clamp(0, 0) : clamp(pos.row, 0);
    case 'End': return ctrlKey ? clamp(rows - 1, cols - 1) : clamp(pos.row, cols - 1);
    default: return null;
  }
}

const cellAt = (table, pos) => table.querySelector(`[data-row="${pos.row}"][data-col="${pos.col}"]`);

// Give `pos` the tab stop; focus it when the grid has (or should take) focus. focus()
// scrolls a hidden cell into view, but leaves one that is only partly shown as it is:
// scrollIntoView('nearest') brings the whole cell in, and the box's `scroll-padding` keeps
// it clear of the sticky first column.
export function placeFocus(table, pos, { focus = false } = {}) {
  const target = cellAt(table, pos);
  if (!target) return;
  for (const cell of table.querySelectorAll('[tabindex="0"]')) if (cell !== target) cell.setAttribute('tabindex', '-1');
  target.setAttribute('tabindex', '0');
  if (focus) {
    target.focus();
    target.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    // A sticky first column is always "in view"; going to it means going to the row's start.
    if (pos.col === 0) table.parentElement.scrollLeft = 0;
  }
}

// Listeners on the box that holds the (re-rendered) table, so they survive each redraw.
// `size()` is { rows, cols }; `onMove(pos)` records the position; `onActivate(row)` gets the
// 1-based trace row that Enter, Space or a click chose.
export function attachGrid(box, { size, position, onMove, onActivate }) {
  const table = () => box.querySelector('[role="grid"]');
  const posOf = (el) => {
    const cell = el && el.closest('[data-row][data-col]');
    return cell ? { row: Number(cell.dataset.row), col: Number(cell.dataset.col) } : null;
  };

  box.addEventListener('keydown', (event) => {
    const from = posOf(event.target);
    if (!from || event.altKey || event.metaKey) return;
    if ((event.key === 'Enter' || event.key === ' ') && from.row > 0) {
      event.preventDefault();
      onActivate(from.row);
      return;
    }
    const { rows, cols } = size();
    const to = moveFocus(from, event.key, event.ctrlKey, rows, cols);
    if (!to) return;
    event.preventDefault();
    onMove(to);
    placeFocus(table(), to, { focus: true });
  });

  // A click focuses the cell it lands on (and takes the tab stop), and chooses its row.
  box.addEventListener('click', (event) => {
    const at = posOf(event.target);
    if (!at) return;
    onMove(at);
    placeFocus(table(), at, { focus: true });
    if (at.row > 0) onActivate(at.row);
  });

  // Focus that arrives some other way (a screen reader's cursor) moves the tab stop too.
  box.addEventListener('focusin', (event) => {
    const at = posOf(event.target);
    const now = position();
    if (at && (at.row !== now.row || at.col !== now.col)) {
      onMove(at);
      placeFocus(table(), at);
    }
  });
}
