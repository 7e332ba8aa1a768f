// libFuzzer target that writes hostile JSON of up to 64 MiB from a short recipe (issue 19):
// wide objects, deep lists and objects, long lists, strings, keys and numbers, scripts of many
// answers with many unknown keys, repeated keys, NUL bytes, whitespace, each placed at the top,
// in draws[0], in script answers, inside a sweep request or under an unknown key. The JSON
// target (engine_fuzzer) cannot reach these: its inputs are the bytes themselves, at most
// 16 KB. Here the input is the recipe, one line of text, so that a finding is a few readable
// bytes (fuzz/regressions-hostile/) and libFuzzer's mutations still move every knob:
//
//   FAMILY PLACE COUNT SIZE ELEMENT...
//
// FAMILY and PLACE are names below (any other word picks one by its bytes), COUNT and SIZE
// decimal numbers (clamped; SIZE caps the text at 64 MiB + 16 bytes, past the size limit),
// ELEMENT the rest of the line, raw bytes (a key, an item, a piece of string). The text goes
// through retrylab::json::parse and retrylab::compute() exactly as in retrysim, and what
// retrysim would print (json::shownResult, json::errorSummary) must stay small.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "checks.hpp"
#include "retrylab/engine.hpp"
#include "retrylab/json.hpp"

namespace {

using retrylab::Value;

constexpr std::size_t kMaxText = retrylab::json::kMaxInputBytes + 16;

const char* const kFamilies[] = {"wide",   "deep-lists", "deep-objects", "list",   "string", "key",
                                 "number", "spaces",     "script",       "repeat", "raw",    "errors"};
const char* const kPlaces[] = {"top", "draws0", "script", "sweep", "unknown", "nul", "cut"};

[[noreturn]] void violated(const std::string& what) {
    std::fprintf(stderr, "\nretrylab hostile fuzz: %s\n", what.c_str());
    std::abort();
}

std::size_t pick(std::string_view word, const char* const* names, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i)
        if (word == names[i]) return i;
    std::size_t sum = 0;
    for (char c : word) sum += static_cast<unsigned char>(c);
    return sum % count;
}

std::string_view token(std::string_view& rest) {
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    std::size_t end = rest.find(' ');
    std::string_view word = rest.substr(0, end);
    rest.remove_prefix(end == std::string_view::npos ? rest.size() : end);
    return word;
}

std::size_t number(std::string_view word, std::size_t max) {
    std::size_t n = 0;
    for (char c : word) {
        if (c < '0' || c > '9') break;
        n = n * 10 + static_cast<std::size_t>(c - '0');
        if (n > max) return max;
    }
    return n;
}

// Appends `piece` (with `sep` between) while the text stays under `budget` and `count` lasts.
template <class Piece>
void repeat(std::string& out, std::size_t count, std::size_t budget, const char* sep, Piece piece) {
    for (std::size_t i = 0; i < count && out.size() < budget; ++i) {
        if (i > 0) out += sep;
        piece(out, i);
    }
}

std::string write(std::size_t family, std::size_t count, std::size_t size, const std::string& element) {
    std::string out;
    std::size_t budget = size;
    auto key = [&](std::string& o, std::size_t i) { o += "\"" + element + std::to_string(i) + "\":0"; };
    switch (family) {
        case 0:
            out = "{";
            repeat(out, count, budget, ",", key);
            out += "}";
            break;
        case 1:
        case 2: {
            std::size_t depth = count % 600;
            std::string open = family == 1 ? "[" : "{\"" + element + "\":";
            std::string one;
            for (std::size_t d = 0; d < depth; ++d) one += open;
            one += family == 1 ? "0" : "{}";
            for (std::size_t d = 0; d < depth; ++d) one += family == 1 ? "]" : "}";
            out = "[";
            repeat(out, size / (one.size() + 1) + 1, budget, ",", [&](std::string& o, std::size_t) { o += one; });
            out += "]";
            break;
        }
        case 3:
            out = "[";
            repeat(out, count, budget, ",",
                   [&](std::string& o, std::size_t) { o += element.empty() ? "\"\"" : element; });
            out += "]";
            break;
        case 4: out = "\"" + std::string(count % kMaxText, 'x') + element + "\""; break;
        case 5: out = "{\"" + std::string(count % kMaxText, 'k') + element + "\":1}"; break;
        case 6: out = std::string(count % kMaxText, '1') + element; break;
        case 7: out = "[" + std::string(count % kMaxText, ' ') + element + "]"; break;
        case 8: {
            std::string entry = "{\"status\":503";
            for (std::size_t i = 0; i < count % 20000; ++i) entry += ",\"" + element + std::to_string(i) + "\":0";
            entry += "}";
            out = "[";
            repeat(out, size / (entry.size() + 1) + 1, budget, ",", [&](std::string& o, std::size_t) { o += entry; });
            out += "]";
            break;
        }
        case 9:  // one key over and over: a repeat at the second
            out = "{";
            repeat(out, count, budget, ",", [&](std::string& o, std::size_t) { o += "\"" + element + "\":1"; });
            out += "}";
            break;
        case 10: repeat(out, count, budget, "", [&](std::string& o, std::size_t) { o += element; }); break;
        default:  // many unknown keys with long names, every error echoing them
            out = "{";
            repeat(out, count, budget, ",", [&](std::string& o, std::size_t i) {
                o += "\"" + std::string(size % 2000, 'u') + element + std::to_string(i) + "\":[]";
            });
            out += "}";
            break;
    }
    return out;
}

std::string place(std::size_t where, std::string body, std::size_t count) {
    switch (where) {
        case 1: return "{\"draws\":[" + body + "]}";
        case 2: return "{\"scenario\":\"script\",\"script\":" + (body.front() == '[' ? body : "[" + body + "]") + "}";
        case 3: return "{\"inputs\":" + body + ",\"vary\":\"maxRetries\",\"from\":0,\"to\":3,\"points\":2}";
        case 4: return "{\"x\":" + body + ",\"maxRetries\":1}";
        case 5: body.insert(count % (body.size() + 1), 1, '\0'); return body;
        case 6: body.resize(count % (body.size() + 1)); return body;  // cut short anywhere
        default: return body;
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view rest(reinterpret_cast<const char*>(data), size);
    rest = rest.substr(0, rest.find('\n'));
    std::size_t family = pick(token(rest), kFamilies, std::size(kFamilies));
    std::size_t where = pick(token(rest), kPlaces, std::size(kPlaces));
    std::size_t count = number(token(rest), kMaxText);
    std::size_t budget = number(token(rest), kMaxText);
    if (!rest.empty()) rest.remove_prefix(1);
    std::string element(rest.substr(0, 256));

    std::string text = place(where, write(family, count, budget, element), count);
    if (text.size() > kMaxText) text.resize(kMaxText);

    retrylab::json::Parsed parsed = retrylab::json::parse(text);
    if (!parsed.value) {
        retrylab::fuzz::checkParseError(parsed.error);
        return 0;
    }
    Value result = retrylab::compute(*parsed.value);
    parsed.value.reset();
    Value shown = retrylab::json::shownResult(result);
    std::string printed = retrylab::json::dump(shown, 2);
    std::string summary = retrylab::json::errorSummary(result);
    // 101 errors of a field cut to 64 bytes (and its length) and a message of at most 1,000.
    if (printed.size() > 200000) violated("retrysim would print " + std::to_string(printed.size()) + " bytes");
    if (summary.size() > 12000) violated("a summary line of " + std::to_string(summary.size()) + " bytes");
    if (summary.find('\n') != std::string::npos) violated("a summary of more than one line");
    if (const Value* errors = shown.find("errors")) {
        if (errors->asArray().size() > retrylab::json::kErrorsShown + 1)
            violated(std::to_string(errors->asArray().size()) + " errors shown");
        for (const Value& e : errors->asArray())
            if (e.find("field")->asString().size() > retrylab::json::kFieldShown + 40) violated("a field not cut");
    }
    return 0;
}
