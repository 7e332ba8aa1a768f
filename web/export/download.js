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

// What the run is, in words and in a file name: the scenario, the policy's controls and the
// charges, from the run's own inputs and metrics.
export function runTitle(result) {
  const i = result.inputs;
  const m = result.metrics;
  const scenario = i.scenario === 'script' ? 'scripted answers' : i.scenario;
  const deadline = i.deadlineMs === null ? 'no deadline' : `deadline ${i.deadlineMs} ms`;
  const charges = i.operation === 'read' ? 'a read' : `${m.charges} ${i.operation === 'create' ? 'record' : 'charge'}${m.charges === 1 ? '' : 's'}`;
  return `${scenario}, ${i.maxRetries} retries, ${i.idempotencyKey ? 'key' : 'no key'}, ${deadline}: ${charges}`;
}

// "retry-lab-response-lost-3-retries-no-key-deadline-10000-ms-2-charges-timeline.svg"
export function runFileName(result, part, extension) {
  const slug = runTitle(result).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  return `retry-lab-${slug}-${part}.${extension}`;
}
