// retrysim: the engine as a native command (SPEC §8). Reads the inputs as JSON from FILE or
// stdin, prints the result of retrylab::compute() as JSON. A thin binding: JSON text in, the
// core's Value through, JSON text out; every rule about the inputs lives in the core.
//
// Exit status: 0 a result; 2 invalid inputs (the error object is still printed), malformed
// JSON, an unreadable file or a bad command line; 1 anything else (e.g. out of memory).
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "retrylab/engine.hpp"

namespace {

using Json = nlohmann::ordered_json;  // keeps the core's member order in the output
using retrylab::Value;

constexpr std::size_t kMaxInputBytes = std::size_t{64} << 20;  // far above any valid input
constexpr int kMaxDepth = 512;  // valid inputs nest 3 deep; the conversion below recurses
// As in the WebAssembly binding: one past the longest list a field allows is all validation
// needs to say "too long", and no valid object has more than a few dozen members.
constexpr std::size_t kMaxItems = 1000001;
constexpr std::size_t kMaxMembers = 10000;

const char* const kUsage =
    "usage: retrysim [--sweep] [FILE]\n"
    "\n"
    "Runs the retry engine on the inputs in FILE (a JSON object; stdin when FILE is absent\n"
    "or '-') and prints the result as JSON. '{}' is the opening run: every field defaulted.\n"
    "\n"
    "  --sweep        FILE is a sweep request { inputs, vary, from, to, points } instead\n"
    "                 (docs/engine.md section 3)\n"
    "  -h, --help     show this text\n"
    "  -V, --version  print the engine's version\n"
    "\n"
    "Exit status: 0 a result; 2 invalid inputs (the { ok: false, errors } object is still\n"
    "printed on stdout), malformed JSON, an unreadable file or a bad command line.\n";

struct Failure {
    std::string message;
};

// The whole input, or a reason it could not be read. Refuses more than kMaxInputBytes.
std::optional<std::string> readAll(std::FILE* in, const std::string& name, Failure& failure) {
    std::string text;
    char buffer[1 << 16];
    for (;;) {
        std::size_t got = std::fread(buffer, 1, sizeof buffer, in);
        if (got > 0) {
            if (text.size() + got > kMaxInputBytes) {
                failure.message = name + " is larger than " + std::to_string(kMaxInputBytes >> 20) +
                                  " MiB; no valid input comes near that";
                return std::nullopt;
            }
            text.append(buffer, got);
        }
        if (got < sizeof buffer) {
            if (std::ferror(in)) {
                failure.message = "cannot read " + name + ": " + std::strerror(errno);
                return std::nullopt;
            }
            return text;
        }
    }
}

// Rejects nesting deeper than kMaxDepth before the parser sees the text, so neither parsing
// nor the conversion below can exhaust the stack. Brackets inside strings do not count.
bool checkDepth(const std::string& text, Failure& failure) {
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
                failure.message = "the JSON nests deeper than " + std::to_string(kMaxDepth) +
                                  " levels at byte " + std::to_string(i + 1);
                return false;
            }
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return true;
}

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

// "maxRetries, draws[1]" from the errors of an { ok: false } result.
std::string errorFields(const Value& result) {
    std::string fields;
    if (const Value* errors = result.find("errors")) {
        for (const Value& error : errors->asArray()) {
            const Value* field = error.find("field");
            std::string name = field && !field->asString().empty() ? field->asString() : "(the inputs)";
            fields += (fields.empty() ? "" : ", ") + name;
        }
    }
    return fields;
}

int fail(const std::string& message) {
    std::cerr << "retrysim: " << message << "\n";
    return 2;
}

int run(int argc, char** argv) {
    std::string path = "-";
    bool sweep = argc > 1 && std::string(argv[1]) == "--sweep";
    if (sweep) {
        --argc;
        ++argv;
    }
    if (argc > 2) return fail(std::string("expected at most one FILE\n") + kUsage);
    if (argc == 2) {
        std::string arg = argv[1];
        if (arg == "-h" || arg == "--help") {
            std::cout << kUsage;
            return 0;
        }
        if (arg == "-V" || arg == "--version") {
            std::cout << "retrysim " << retrylab::engineVersion() << "\n";
            return 0;
        }
        if (arg.size() > 1 && arg[0] == '-') return fail("unknown option " + arg + "\n" + kUsage);
        path = arg;
    }

    Failure failure;
    std::optional<std::string> text;
    if (path == "-") {
        text = readAll(stdin, "standard input", failure);
    } else {
        std::FILE* file = std::fopen(path.c_str(), "rb");
        if (!file) return fail("cannot read " + path + ": " + std::strerror(errno));
        text = readAll(file, path, failure);
        std::fclose(file);
    }
    if (!text || !checkDepth(*text, failure)) return fail(failure.message);

    Json json;
    try {
        json = Json::parse(*text);
    } catch (const Json::parse_error& e) {
        // e.byte is 1-based: the byte the parser stopped at. The parser's own message quotes
        // the token it was reading, which can be megabytes long: keep its head.
        std::string detail = e.what();
        if (detail.rfind("[json.exception", 0) == 0) detail.erase(0, detail.find("] ") + 2);
        if (detail.size() > 300) detail = detail.substr(0, 300) + "...";
        return fail("malformed JSON at byte " + std::to_string(e.byte) + ": " + detail);
    }

    Value result = sweep ? retrylab::sweep(toValue(json)) : retrylab::compute(toValue(json));
    std::cout << toJson(result).dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
    std::cout.flush();
    if (!std::cout) {
        std::cerr << "retrysim: cannot write the result to stdout\n";
        return 1;
    }

    const Value* ok = result.find("ok");
    if (ok && ok->kind() == Value::Kind::Bool && ok->asBool()) return 0;
    return fail("invalid input: " + errorFields(result) + " (the errors are on stdout)");
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::bad_alloc&) {
        std::cerr << "retrysim: out of memory\n";
    } catch (const std::exception& e) {
        std::cerr << "retrysim: " << e.what() << "\n";
    }
    return 1;
}
