// JSON text <-> retrylab::Value with nlohmann::json (retrylab/json.hpp).
#include "retrylab/json.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

namespace retrylab::json {
namespace {

using Json = nlohmann::ordered_json;  // keeps the core's member order in the output

// As in the WebAssembly binding: one past the longest list a field allows is all validation
// needs to say "too long", and no valid object has more than a few dozen members.
constexpr std::size_t kMaxItems = 1000001;
constexpr std::size_t kMaxMembers = 10000;

// Rejects nesting deeper than kMaxDepth before the parser sees the text, so neither parsing
// nor the conversion below can exhaust the stack. Brackets inside strings do not count.
bool checkDepth(std::string_view text, std::string& error) {
    int depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (inString) {
            if (c == '\\') ++i;
            else if (c == '"') inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxDepth) {
                error = "the JSON nests deeper than " + std::to_string(kMaxDepth) + " levels at byte " +
                        std::to_string(i + 1);
                return false;
            }
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return true;
}

// The parser's message without its "[json.exception.parse_error.101] " tag. It quotes the
// token it was reading, which can be megabytes long: keep its head.
std::string detailOf(const std::exception& e) {
    std::string detail = e.what();
    if (detail.rfind("[json.exception", 0) == 0) detail.erase(0, detail.find("] ") + 2);
    if (detail.size() > 300) detail = detail.substr(0, 300) + "...";
    return detail;
}

// Only the position of the first error: nlohmann's DOM parser throws a number too large for a
// double (out_of_range 406) without one, while its SAX interface reports it with one.
struct ErrorPosition final : nlohmann::json_sax<Json> {
    std::size_t position = 0;
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return true; }
    bool key(string_t&) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t at, const std::string&, const nlohmann::detail::exception&) override {
        position = at;
        return false;
    }
};

Value toValue(const Json& j) {
    switch (j.type()) {
        case Json::value_t::null: return Value::null();
        case Json::value_t::boolean: return Value::boolean(j.get<bool>());
        case Json::value_t::number_integer:
        case Json::value_t::number_unsigned:
        case Json::value_t::number_float: return Value::number(j.get<double>());
        case Json::value_t::string: return Value::string(j.get<std::string>());
        case Json::value_t::array: {
            Value::Array items;
            items.reserve(std::min(j.size(), kMaxItems));
            for (const Json& item : j) {
                if (items.size() == kMaxItems) break;
                items.push_back(toValue(item));
            }
            return Value::array(std::move(items));
        }
        case Json::value_t::object: {
            if (j.size() > kMaxMembers)
                return Value::unsupported("an object with more than " + std::to_string(kMaxMembers) + " members");
            Value::Object members;
            members.reserve(j.size());
            for (const auto& [key, member] : j.items()) members.push_back({key, toValue(member)});
            return Value::object(std::move(members));
        }
        default: return Value::unsupported("a value with no JSON form");  // binary, discarded
    }
}

Json toJson(const Value& v) {
    switch (v.kind()) {
        case Value::Kind::Null: return nullptr;
        case Value::Kind::Bool: return v.asBool();
        case Value::Kind::Number: {
            // Whole numbers print as integers (3700, not 3700.0); JSON compares numbers by value.
            double x = v.asNumber();
            if (std::floor(x) == x && std::fabs(x) < 9007199254740992.0) return static_cast<std::int64_t>(x);
            return x;
        }
        case Value::Kind::String: return v.asString();
        case Value::Kind::Array: {
            Json out = Json::array();
            for (const Value& item : v.asArray()) out.push_back(toJson(item));
            return out;
        }
        case Value::Kind::Object: {
            Json out = Json::object();
            for (const Value::Member& m : v.asObject()) out[m.key] = toJson(m.value);
            return out;
        }
        case Value::Kind::Unsupported: break;  // the core never returns one
    }
    return nullptr;
}

}  // namespace

Parsed parse(std::string_view text) {
    Parsed parsed;
    if (!checkDepth(text, parsed.error)) return parsed;
    Json json;
    try {
        json = Json::parse(text.begin(), text.end());
    } catch (const Json::parse_error& e) {
        // e.byte is 1-based: the byte the parser stopped at.
        parsed.error = "malformed JSON at byte " + std::to_string(e.byte) + ": " + detailOf(e);
        return parsed;
    } catch (const Json::out_of_range& e) {
        // A number beyond a double's range (1e999): the text is JSON, but no double holds it.
        ErrorPosition sax;
        Json::sax_parse(text.begin(), text.end(), &sax);
        parsed.error = "malformed JSON at byte " + std::to_string(sax.position) + ": " + detailOf(e);
        return parsed;
    }
    parsed.value = toValue(json);
    return parsed;
}

std::string dump(const Value& value, int indent) {
    return toJson(value).dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace retrylab::json
