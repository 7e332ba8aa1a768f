// What the page's JavaScript meets that is not in its own files, for the type check
// (web/jsconfig.json; tests/node/page/types.test.js): the globals each bundle sets for the page
// that loads it (web/bundles.js reads them), and the stylesheets the build hands the element
// and compare mode as text (web/embed/build-element.mjs).
interface Window {
  RetryLabExportCode: unknown;
  RetryLabFleetMapCode: unknown;
  RetryLabFleetCode: unknown;
  RetryLabSectionCode: unknown;
  RetryLabServersStepCode: unknown;
}

declare module 'retrylab:element-css' {
  const css: string;
  export default css;
}

declare module 'retrylab:compare-css' {
  const css: string;
  export default css;
}
