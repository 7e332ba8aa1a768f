// retrysim: the engine as a native command (SPEC §8). Reads the inputs as JSON from FILE or
// stdin, prints the result of retrylab::compute() as JSON. A thin binding: JSON text in, the
// core's Value through, JSON text out (both by retrylab::json, bindings/json, which the fuzz
// targets share); every rule about the inputs lives in the core.
//
// Exit status: 0 a result; 2 invalid inputs (the error object is still printed), malformed
// JSON, an unreadable file or a bad command line; 1 anything else (e.g. out of memory).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <optional>
#include <string>

#include "retrylab/engine.hpp"
#include "retrylab/json.hpp"

namespace {

using retrylab::Value;

constexpr std::size_t kMaxInputBytes = std::size_t{64} << 20;  // far above any valid input

const char* const kUsage =
    "usage: retrysim [--sweep] [FILE]\n"
    "       retrysim --check [FILE]\n"
    "       retrysim --schema\n"
    "\n"
    "Runs the retry engine on the inputs in FILE (a JSON object; stdin when FILE is absent\n"
    "or '-') and prints the result as JSON. '{}' is the opening run: every field defaulted.\n"
    "\n"
    "  --sweep        FILE is a sweep request { inputs, vary, from, to, points } instead\n"
    "                 (docs/engine.md section 3)\n"
    "  --check        only validate the inputs: print { ok, errors } (exit 0 when ok, 2 when not)\n"
    "  --schema       print the engine's input table { engine, inputs } (docs/engine.md section 4)\n"
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
    const std::string mode = argc > 1 && (std::string(argv[1]) == "--sweep" || std::string(argv[1]) == "--check" ||
                                          std::string(argv[1]) == "--schema")
                                 ? argv[1]
                                 : "";
    if (!mode.empty()) {
        --argc;
        ++argv;
    }
    if (mode == "--schema") {
        if (argc > 1) return fail(std::string("--schema reads no FILE\n") + kUsage);
        std::cout << retrylab::json::dump(retrylab::schema(), 2) << "\n";
        std::cout.flush();
        return std::cout ? 0 : 1;
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
    if (!text) return fail(failure.message);

    retrylab::json::Parsed parsed = retrylab::json::parse(*text);
    if (!parsed.value) return fail(parsed.error);

    Value result = mode == "--sweep"   ? retrylab::sweep(*parsed.value)
                   : mode == "--check" ? retrylab::validate(*parsed.value)
                                       : retrylab::compute(*parsed.value);
    std::cout << retrylab::json::dump(result, 2) << "\n";
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
