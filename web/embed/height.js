// embed.html inside an iframe tells its parent how tall it is, whenever that changes, so
// the parent can size the iframe to the content (README: "Links and embedding" has the
// parent's side, which checks the message's origin and source). The message holds only a
// height, so it goes to any parent ("*"): which parents to believe is the parent's call.

export const HEIGHT_MESSAGE = 'retry-lab:height';

export function contentHeight(doc) {
  return Math.ceil(doc.documentElement.getBoundingClientRect().height);
}

// Start posting; returns a function that stops. Outside a frame it does nothing.
export function postHeight(win) {
  if (win.parent === win) return () => {};
  const doc = win.document;
  let last = -1;
  const send = () => {
    const height = contentHeight(doc);
    if (height === last) return;
    last = height;
    win.parent.postMessage({ type: HEIGHT_MESSAGE, height }, '*');
  };
  const observer = new win.ResizeObserver(send);
  observer.observe(doc.documentElement);
  if (doc.body) observer.observe(doc.body);
  win.addEventListener('load', send);
  send();
  return () => {
    observer.disconnect();
    win.removeEventListener('load', send);
  };
}

// embed.html?theme=light|dark fixes the frame's colours (a white host page keeps a light
// frame whatever the reader's system says); auto or none follows the system.
export function applyTheme(win) {
  const theme = new win.URLSearchParams(win.location.search).get('theme');
  if (theme === 'light' || theme === 'dark') win.document.documentElement.dataset.theme = theme;
}
