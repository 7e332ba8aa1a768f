// Turn the page's stylesheet into one for a shadow root (used by web/build.mjs):
// - `:root` (the colour tokens) becomes `.rl-root`, the element's own root, so the host
//   page's custom properties cannot recolour it;
// - `rem` is the host page's root font size, which a host may set to anything (62.5% is
//   common): each becomes a multiple of --rl-rem, which the element measures from its shell;
// - `@media (min-width: 62rem)` asks the host's viewport; the element asks its own width
//   instead (`@container`, in em of the shell, which is the reader's default font size).

export function scopeCss(css) {
  return css
    .replace(/:root\b/g, '.rl-root')
    .replace(/@media\s*\(\s*(min|max)-width\s*:\s*([\d.]+)rem\s*\)/g, '@container ($1-width: $2em)')
    .replace(/(^|[^\w.#-])(-?(?:\d+\.?\d*|\.\d+))rem\b/g, (m, before, n) => `${before}calc(${n}*var(--rl-rem))`);
}
