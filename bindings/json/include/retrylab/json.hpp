// JSON text to and from the core's Value: the native command's half of a binding, shared by
// retrysim and the fuzz targets so that both read JSON exactly alike. nlohmann::json stays
// inside this library; the core never sees it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "retrylab/value.hpp"

namespace retrylab::json {

// Nesting deeper than this is refused before parsing (valid inputs nest 3 deep; the
// conversion to Value recurses).
constexpr int kMaxDepth = 512;

struct Parsed {
    std::optional<Value> value;  // set when the text is JSON
    std::string error;           // otherwise why not, naming the byte: "malformed JSON at byte 7: ..."
};

// Parses JSON text into a Value. Never throws on any text (only std::bad_alloc). Lists longer
// than any field allows are cut one past that limit, objects with absurdly many members become
// Value::unsupported, so validation reports them without the core holding millions of values.
Parsed parse(std::string_view text);

// The Value as JSON text, members in the Value's order; whole numbers as integers (3700, not
// 3700.0); invalid UTF-8 replaced. indent < 0: one line.
std::string dump(const Value& value, int indent = 2);

}  // namespace retrylab::json
