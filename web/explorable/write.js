// Writes that leave the DOM alone when it already says the same: a redraw, and every frame of
// playback, then restyles and lays out only what changed.

export const setText = (el, text) => { if (el.textContent !== text) el.textContent = text; };
export const setAttr = (el, name, value) => { const text = String(value); if (el.getAttribute(name) !== text) el.setAttribute(name, text); };
