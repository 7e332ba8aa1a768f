// Save text as a file: a Blob URL on a link with `download`, clicked. A download is a
// navigation, not a fetch, so `default-src 'self'` does not stand in its way; the URL is
// released once the browser has had time to start the download.

export function download(doc, name, type, text) {
  const win = doc.defaultView;
  const url = win.URL.createObjectURL(new win.Blob([text], { type }));
  const link = doc.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  link.click();
  win.setTimeout(() => win.URL.revokeObjectURL(url), 60_000);
}
