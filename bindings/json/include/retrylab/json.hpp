// JSON text to and from the core's Value: the native command's half of a binding, shared by
// retrysim and the fuzz targets so that both read JSON exactly alike. nlohmann::json stays
// inside this library; the core never sees it.
//
// The reader is one pass over the bytes (nlohmann's SAX interface, building the Value directly,
// no document tree), and every limit below is checked as the bytes and values arrive, so no
// input of at most kMaxInputBytes costs more than a bounded amount of time and memory
// (docs/robustness.md has the figures).
#pragma once

#include <cstddef>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "retrylab/value.hpp"

namespace retrylab::json {

// Limits on the text, each far above any valid input. Going past one refuses the whole text
// with a message naming the limit and the byte (Parsed::error).
constexpr std::size_t kMaxInputBytes = std::size_t{64} << 20;
constexpr int kMaxDepth = 512;                   // nesting of lists and objects
constexpr std::size_t kMaxStringBytes = 65536;   // one string as written, escapes included
constexpr std::size_t kMaxKeyBytes = 1024;       // one member name, as read
constexpr std::size_t kMaxNumberBytes = 1000;    // one number as written
constexpr std::size_t kMaxValues = 250000;       // values kept in all
constexpr std::size_t kMaxMembersInAll = 20000;  // object members kept in all

// Limits the reader applies by keeping less, so that validation still names the field: a list
// keeps its first kMaxItems items (two past the longest list a field allows: enough for the
// core to say "may hold at most 100000 ...; got 100001" or "got more"), the rest are read for
// their syntax only; an object reaching
// kMaxMembers + 1 members becomes Value::unsupported ("an object with more than 10000
// members"), its members dropped and the rest read for their syntax only. Duplicate keys are
// refused in every object the reader keeps.
constexpr std::size_t kMaxItems = 100002;
constexpr std::size_t kMaxMembers = 10000;

struct Parsed {
    std::optional<Value> value;  // set when the text is JSON within the limits
    std::string error;           // otherwise why not, naming the byte: "malformed JSON at byte 7: ..."
};

// Parses JSON text into a Value. Never throws on any text (only std::bad_alloc).
Parsed parse(std::string_view text);

// The same, reading `in` as it parses (the text is never held whole); `name` ("standard
// input", a path) names it in messages. An input larger than kMaxInputBytes is refused as such
// whatever else is wrong with it; a read error is "cannot read NAME: ...".
Parsed parse(std::FILE* in, const std::string& name);

// The Value as JSON text, members in the Value's order; whole numbers as integers (3700, not
// 3700.0); invalid UTF-8 replaced. indent < 0: one line.
std::string dump(const Value& value, int indent = 2);

// Text from the input as every message shows it (docs/robustness.md, "Text in messages"):
// valid UTF-8 stays as it is but for the characters that would move or hide what a terminal or
// a reader shows: C0 and C1 controls and DEL (a newline too: a message is one line), the
// bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) and the line
// and paragraph separators (U+2028, U+2029), each written \u followed by four hex digits
// (\u202E); a byte that is not part of valid UTF-8 is written \xNN. ASCII text is unchanged,
// so escaping twice is escaping once. retrysim's stderr lines and the errors' field, message and
// detail all pass through it.
std::string shownText(std::string_view text);

// What retrysim prints of a result, bounded however many errors the core found and however
// long the keys they name: at most the first kErrorsShown errors, then one more (field "")
// counting the rest; a field path longer than kFieldShown bytes is cut with an ellipsis, in
// the field and wherever its message repeats it; a message longer than kMessageShown bytes is
// cut too; each of them as shownText() writes it. Anything that is not an { ok: false, errors } result is returned as
// it is.
constexpr std::size_t kErrorsShown = 100;
constexpr std::size_t kFieldShown = 64;
constexpr std::size_t kMessageShown = 1000;
Value shownResult(const Value& result);

// The one-line summary of an { ok: false } result's fields for stderr: "maxRetries, draws[1]"
// ("(the inputs)" for the field ""), the first kErrorsShown fields, each cut as in
// shownResult() and with control characters escaped, then ", and N more".
std::string errorSummary(const Value& result);

}  // namespace retrylab::json
