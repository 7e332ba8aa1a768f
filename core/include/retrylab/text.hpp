// Text from input, as messages show it: one UTF-8 reader and one rule for what a message must
// not show raw (control and bidi characters, bytes that are no UTF-8), for the core's errors and
// every binding's (retrysim's stderr, the JSON errors, the WebAssembly engine's error objects).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace retrylab {

// The length of the valid UTF-8 sequence at s[i] (1–4) and its code point, or 0 when the byte
// there begins none: no overlong form, no surrogate, nothing past U+10FFFF.
std::size_t utf8At(std::string_view s, std::size_t i, std::uint32_t& code);

// A character a message must not show as it is: C0 and C1 controls, DEL, the bidi marks,
// embeddings, overrides and isolates, and the line and paragraph separators.
bool hiddenInMessages(std::uint32_t code);

// s with each such character written \uXXXX and each byte that is no UTF-8 \xXX; everything
// else as it is (so applying it twice changes nothing more).
std::string visibleText(std::string_view s);

}  // namespace retrylab
