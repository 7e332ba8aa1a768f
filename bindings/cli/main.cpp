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
#include <string>

#include "retrylab/engine.hpp"
#include "retrylab/fleet.hpp"
#include "retrylab/json.hpp"

namespace {

using retrylab::Value;

const char* const kUsage =
    "usage: retrysim [--sweep] [FILE]\n"
    "       retrysim --fleet [FILE]\n"
    "       retrysim --check [FILE]\n"
    "       retrysim --schema [--fleet]\n"
    "\n"
    "Runs the retry engine on the inputs in FILE (a JSON object; stdin when FILE is absent\n"
    "or '-') and prints the result as JSON. '{}' is the opening run: every field defaulted.\n"
    "\n"
    "  --sweep        FILE is a sweep request { inputs, vary, from, to, points } instead\n"
    "                 (docs/engine.md section 3)\n"
    "  --check        only validate the inputs: print { ok, errors } (exit 0 when ok, 2 when not)\n"
    "  --schema       print the engine's input table { engine, inputs, scenarios } (docs/engine.md\n"
    "                 section 4); with --fleet, the fleet request's { engine, fleet, occ }\n"
    "  --fleet        FILE is a fleet request (FLEET.md: many clients, one server)\n"
    "  -h, --help     show this text\n"
    "  -V, --version  print the engine's version\n"
    "\n"
    "Exit status: 0 a result; 2 invalid inputs (the { ok: false, errors } object is still\n"
    "printed on stdout), malformed JSON, an unreadable file or a bad command line.\n";

int fail(const std::string& message) {
    std::cerr << "retrysim: " << message << "\n";
    return 2;
}

int run(int argc, char** argv) {
    std::string path = "-";
    const std::string mode = argc > 1 && (std::string(argv[1]) == "--sweep" || std::string(argv[1]) == "--check" ||
                                          std::string(argv[1]) == "--schema" || std::string(argv[1]) == "--fleet")
                                 ? argv[1]
                                 : "";
    if (!mode.empty()) {
        --argc;
        ++argv;
    }
    if (mode == "--schema") {
        const bool fleetTable = argc > 1 && std::string(argv[1]) == "--fleet";
        if (argc > (fleetTable ? 2 : 1)) return fail(std::string("--schema reads no FILE\n") + kUsage);
        // The table, and the limits this binding reads inputs within (retrylab/json.hpp).
        namespace json = retrylab::json;
        auto count = [](std::size_t n) { return Value::number(static_cast<double>(n)); };
        Value limits = Value::object();
        limits.set("inputBytes", count(json::kMaxInputBytes));
        limits.set("depth", count(static_cast<std::size_t>(json::kMaxDepth)));
        limits.set("stringBytes", count(json::kMaxStringBytes));
        limits.set("keyBytes", count(json::kMaxKeyBytes));
        limits.set("numberCharacters", count(json::kMaxNumberBytes));
        limits.set("values", count(json::kMaxValues));
        limits.set("allMembers", count(json::kMaxMembersInAll));
        limits.set("objectMembers", count(json::kMaxMembers));
        limits.set("listItems", count(json::kMaxItems - 2));
        Value schema = fleetTable ? retrylab::fleetSchema() : retrylab::schema();
        schema.set("limits", std::move(limits));
        std::cout << json::dump(schema, 2) << "\n";
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

    // Read and parsed in one pass, within retrylab::json's limits (64 MiB, nesting, string and
    // key lengths, NUL bytes, duplicate keys, values kept): a refusal names the limit and byte.
    retrylab::json::Parsed parsed;
    if (path == "-") {
        parsed = retrylab::json::parse(stdin, "standard input");
    } else {
        std::FILE* file = std::fopen(path.c_str(), "rb");
        if (!file) return fail("cannot read " + path + ": " + std::strerror(errno));
        parsed = retrylab::json::parse(file, path);
        std::fclose(file);
    }
    if (!parsed.value) return fail(parsed.error);

    Value result = mode == "--sweep"   ? retrylab::sweep(*parsed.value)
                   : mode == "--check" ? retrylab::validate(*parsed.value)
                   : mode == "--fleet" ? retrylab::fleet(*parsed.value)
                                       : retrylab::compute(*parsed.value);
    parsed.value.reset();
    // At most the first 100 errors and a count of the rest, long fields cut, on both streams.
    std::cout << retrylab::json::dump(retrylab::json::shownResult(result), 2) << "\n";
    std::cout.flush();
    if (!std::cout) {
        std::cerr << "retrysim: cannot write the result to stdout\n";
        return 1;
    }

    const Value* ok = result.find("ok");
    if (ok && ok->kind() == Value::Kind::Bool && ok->asBool()) return 0;
    return fail("invalid input: " + retrylab::json::errorSummary(result) + " (the errors are on stdout)");
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
