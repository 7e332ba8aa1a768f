// A small JSON reader and writer for the core's tests (the core has no JSON of its own, and the
// core's tests also run in WebAssembly, where the bindings' JSON library is not built): enough
// for inputs written as text in a test and for comparing an echo as compact text.
#pragma once

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "retrylab/value.hpp"

namespace retrylab::test {

class JsonLite {
public:
    explicit JsonLite(const std::string& text) : s_(text) {}
    Value read() {
        Value v = value();
        space();
        if (i_ != s_.size()) throw std::runtime_error("trailing text in a test's JSON");
        return v;
    }

private:
    void space() {
        while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
    }
    bool take(char c) {
        space();
        if (i_ < s_.size() && s_[i_] == c) {
            ++i_;
            return true;
        }
        return false;
    }
    void expect(char c) {
        if (!take(c)) throw std::runtime_error(std::string("expected ") + c + " in a test's JSON");
    }
    std::string text() {
        expect('"');
        std::string out;
        while (i_ < s_.size() && s_[i_] != '"') {
            if (s_[i_] == '\\') ++i_;
            out += s_[i_++];
        }
        ++i_;
        return out;
    }
    Value value() {
        space();
        const char c = i_ < s_.size() ? s_[i_] : '\0';
        if (c == '{') {
            ++i_;
            Value o = Value::object();
            if (take('}')) return o;
            do {
                std::string key = text();
                expect(':');
                o.set(key, value());
            } while (take(','));
            expect('}');
            return o;
        }
        if (c == '[') {
            ++i_;
            Value a = Value::array();
            if (take(']')) return a;
            do a.push(value());
            while (take(','));
            expect(']');
            return a;
        }
        if (c == '"') return Value::string(text());
        for (const char* word : {"true", "false", "null"}) {
            if (s_.compare(i_, std::char_traits<char>::length(word), word) == 0) {
                i_ += std::char_traits<char>::length(word);
                return word[0] == 'n' ? Value::null() : Value::boolean(word[0] == 't');
            }
        }
        char* end = nullptr;
        const double x = std::strtod(s_.c_str() + i_, &end);
        if (end == s_.c_str() + i_) throw std::runtime_error("not JSON: " + s_.substr(i_, 20));
        i_ = static_cast<std::size_t>(end - s_.c_str());
        return Value::number(x);
    }

    const std::string& s_;
    std::size_t i_ = 0;
};

inline Value json(const std::string& text) { return JsonLite(text).read(); }

// Compact text: numbers as %.17g (integers as integers), strings without escapes.
inline std::string compact(const Value& v) {
    switch (v.kind()) {
        case Value::Kind::Null: return "null";
        case Value::Kind::Bool: return v.asBool() ? "true" : "false";
        case Value::Kind::Number: {
            char buffer[32];
            std::snprintf(buffer, sizeof buffer, "%.17g", v.asNumber());
            return buffer;
        }
        case Value::Kind::String: return "\"" + v.asString() + "\"";
        case Value::Kind::Array: {
            std::string out = "[";
            if (v.isNumberList()) {
                for (double x : v.asNumbers()) out += (out.size() > 1 ? "," : "") + compact(Value::number(x));
                return out + "]";
            }
            for (const Value& item : v.asArray()) out += (out.size() > 1 ? "," : "") + compact(item);
            return out + "]";
        }
        case Value::Kind::Object: {
            std::string out = "{";
            for (const Value::Member& m : v.asObject())
                out += (out.size() > 1 ? ",\"" : "\"") + m.key + "\":" + compact(m.value);
            return out + "}";
        }
        default: return "?";
    }
}

}  // namespace retrylab::test
