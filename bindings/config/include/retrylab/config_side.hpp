// One side of a config reading, as both bindings do it (docs/config-in.md §3, §10.3): the text
// parsed by parseText() (with §3's second, comment-allowing reading for .NET), read by the
// core's config::read(); and the fields that changed between two readings. retrysim
// (bindings/cli) and the page's config file (bindings/wasm, retrylab-config.js) call these, so
// that the page and the command read a pasted file alike.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "retrylab/config.hpp"
#include "retrylab/config_text.hpp"

namespace retrylab::config {

struct SideReading {
    Value answer;                        // §2.5 or §2.6, when the text was parsed
    std::optional<TextError> textError;  // the text refused as a whole (§2.1, §11.2)
};

// `bytes` is the file's text (or its first kMaxFileBytes + 1 bytes: the rest is refused anyway).
SideReading readSide(std::string_view bytes, const Options& options);

// A text refusal in §2.6's shape: { ok: false, format: null, errors: [ { field, line, column,
// code, message, detail } ] } (line and column null where the error has none).
Value textErrorAnswer(const TextError& error);

// §10.3's `changed`: every source path whose value differs between two successful readings, or
// that one side has and the other not, in the after file's order then the before file's
// removed ones, each with the engine inputs its change moved.
Value changed(const Value& before, const Value& after);

// A reading's report entries that have a source value, one per path (the first), in report
// order; the one with `path`; and an entry's single-run inputs (its `fleet.` ones left out).
// `changed()` and retrysim's comment (§10.4) read a reading through these.
struct SourceEntry {
    const Value* entry;
    std::string path;
};
std::vector<SourceEntry> sourceEntries(const Value& answer);
const Value* findEntry(const std::vector<SourceEntry>& list, const std::string& path);
std::vector<std::string> singleInputs(const Value* entry);

}  // namespace retrylab::config
