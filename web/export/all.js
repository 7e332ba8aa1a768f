// Everything a download needs, in one module: the page loads it as its own small bundle
// (retrylab-export.js, web/export-bundle.js) the first time a reader asks for a file; the
// <retry-lab> element, one script by design, carries it inside.

export { runJson } from './json.js';
export { answersCsv } from './csv.js';
export { timelineSvg } from './svg.js';
export { download, runFileName } from './download.js';
