// The one Markdown writer (issue 30, docs/compare.md §5): every Markdown the project makes, the
// CLI's `--format markdown` and the page's "Copy as Markdown" (through the engine's markdown()
// entry), is written here, and every string in it that came from input is shown literally:
// GitHub (cmark-gfm with its table, autolink, strikethrough and tagfilter extensions, then its
// mention, issue-reference and emoji filters) renders it as the same text and nothing else.
#pragma once

#include <string>
#include <string_view>

#include "retrylab/value.hpp"

namespace retrylab {
namespace markdown {

// `s` as inline Markdown text that renders as exactly `s` (in a paragraph or a table cell,
// never at a line's start), but for the visible replacements of control characters
// (docs/compare.md §5): no link, image, autolink, HTML, emphasis, strikethrough, math, mention,
// issue reference or emoji from it, and a `|` that cannot end a table cell. `cell`: `s` is a
// whole table cell (or ends a line), whose leading and trailing spaces Markdown would trim:
// they are written as character references.
std::string text(std::string_view s, bool cell = false);

// `s` as a code span that renders as exactly `s` (with the same replacements); `inTable`: the
// span is in a table cell, where a `|` is written `\|` (GFM unescapes it before the span).
// An empty `s` is nothing.
std::string code(std::string_view s, bool inTable);

// An absolute http(s) URL as a link destination `[…](here)`: what must be is percent-encoded
// (spaces, quotes, brackets, parentheses, `<>\^{}|` and backticks, controls, non-ASCII as its
// UTF-8 bytes, a `%` not starting an escape, a `;` that would end a character reference), so
// the destination can neither end early nor decode to another address. `error` is set (and
// the result empty) when `url` is not an absolute http(s) URL with a host: it then says why,
// in words that follow the name of whatever gave it ("--base-url is not ...").
std::string destination(std::string_view url, std::string* error);

// A comparison's Markdown (docs/compare.md §5) from its words: `{ summary: [part…], inputs:
// [{ name, before, after }], metrics: [{ label, before, after, change, flag }], unchanged:
// [label…], base?, link? }`, every value a string but a summary part, which is a string (text)
// or `{ code: string }` (a name), and `flag` ("side-effect", "outcome" or null). `metrics`:
// the rows that changed, `change` their delta's words ("-700 ms", or ""). With `base` (where
// Retry Lab is, an absolute http(s) URL) and `link` (the comparison's `#…`), the last line
// links to the comparison. Answers `{ ok: true, markdown }`, or `{ ok: false, errors }` naming
// the member that is not what it should be.
Value comparison(const Value& words);

}  // namespace markdown
}  // namespace retrylab
