// The fleet section's one live region (issue 35 item 10: its verdict box, its progress lines, the
// map's status and readout and each reproduction's status were live regions each, so a change said
// "Computing…", then the whole verdict, and a map or a reproduction computing said every cell and
// point as it came). Now a change the reader makes is said once, short and polite, when its run is
// drawn: "Storm chart redrawn: rode it out." Progress is text on the page, not announced.

// announcer(root): a visually hidden status region appended to root; say(text) puts the words in
// it (cleared first, so that the same words said again are heard again).
export function announcer(root) {
  const doc = root.ownerDocument;
  const region = doc.createElement('p');
  region.className = 'visually-hidden fl-announce';
  region.setAttribute('role', 'status');
  root.append(region);
  let frame = 0;
  const win = doc.defaultView;
  return function say(text) {
    region.textContent = '';
    if (frame) win.cancelAnimationFrame(frame);
    frame = win.requestAnimationFrame(() => {
      frame = 0;
      region.textContent = text;
    });
  };
}

// The words for a run the reader's change drew: its verdict in short (model.js verdictOf).
export const drawnWords = (verdict) => `Storm chart redrawn: ${verdict.shortText}.`;
