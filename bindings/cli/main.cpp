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
#include <set>
#include <string>
#include <vector>

#include "compare.hpp"
#include "config_cli.hpp"
#include "link.hpp"

#include "retrylab/engine.hpp"
#include "retrylab/fields.hpp"
#include "retrylab/fleet.hpp"
#include "retrylab/json.hpp"
#include "retrylab/markdown.hpp"

namespace {

using retrylab::Value;

const char* const kUsage =
    "usage: retrysim [--sweep] [FILE]\n"
    "       retrysim --fleet [--no-limits] [FILE]\n"
    "       retrysim --check [FILE]\n"
    "       retrysim [--check] --link LINK\n"
    "       retrysim --compare [--fleet] [--format json|markdown] [--base-url URL] BEFORE AFTER\n"
    "       retrysim [--compare] [--format json|markdown] [--base-url URL] --link LINK\n"
    "       retrysim --schema [--fleet|--compare]\n"
    "       retrysim --from FORMAT [--check|--fleet] [--run FILE] CONFIG\n"
    "       retrysim --compare --from FORMAT [--format markdown] OLD NEW\n"
    "\n"
    "Runs the retry engine on the inputs in FILE (a JSON object; stdin when FILE is absent\n"
    "or '-') and prints the result as JSON. '{}' is the opening run: every field defaulted.\n"
    "\n"
    "  --sweep        FILE is a sweep request { inputs, vary, from, to, points } instead\n"
    "                 (docs/engine.md section 3)\n"
    "  --check        only validate the inputs: print { ok, errors } (exit 0 when ok, 2 when not)\n"
    "  --schema       print the engine's input table { engine, inputs, scenarios } (docs/engine.md\n"
    "                 section 4); --fleet: the fleet request's; --compare: the compare metrics\n"
    "  --fleet        FILE is a fleet request (FLEET.md: many clients, one server)\n"
    "  --no-limits    with --fleet FILE: past the cost bound, on purpose (docs/robustness.md)\n"
    "  --link LINK    read the inputs from a Retry Lab link ('https://...#v=1&maxRetries=0', or\n"
    "                 its hash) by the page's rules; '-' reads the link from stdin. A link with\n"
    "                 view=compare is compared (with or without --compare; of=fleet: two fleet\n"
    "                 runs). Unknown names and bad values are errors (exit 2)\n"
    "  --compare      run BEFORE and AFTER (each a JSON file, '-' for stdin, or a link) and print\n"
    "                 both results and their differences (docs/compare.md)\n"
    "  --format F     with a comparison: json (the default) or markdown (a table for a review)\n"
    "  --base-url URL with --format markdown: where Retry Lab is (http or https), for a link\n"
    "  --from FORMAT  CONFIG is a retry config (grpc, envoy, istio, linkerd, auto): read, reported\n"
    "                 and run (docs/config-in.md); --route, --method, --impl, --document select\n"
    "  -h, --help     show this text\n"
    "  -V, --version  print the engine's version\n"
    "\n"
    "Exit status: 0 a result; 2 invalid inputs (the { ok: false, errors } object is still\n"
    "printed on stdout), malformed JSON, an unreadable file or a bad command line.\n";

// One line on stderr: the message as shownText() writes it (no raw control, bidi or invalid
// bytes from the input), then the usage when the message ends with it.
int fail(const std::string& message) {
    std::string line = message, usage;
    if (line.size() >= std::strlen(kUsage) &&
        line.compare(line.size() - std::strlen(kUsage), std::string::npos, kUsage) == 0) {
        usage = kUsage;
        line.resize(line.size() - usage.size());
        if (!line.empty() && line.back() == '\n') line.pop_back();
    }
    std::cerr << "retrysim: " << retrylab::json::shownText(line) << "\n" << usage;
    return 2;
}

// Prints `value` (bounded, as shownResult does) and gives the exit status: 0 when ok.
int print(const Value& value) {
    std::cout << retrylab::json::dump(retrylab::json::shownResult(value), 2) << "\n";
    std::cout.flush();
    if (!std::cout) {
        std::cerr << "retrysim: cannot write the result to stdout\n";
        return 1;
    }
    const Value* ok = value.find("ok");
    if (ok && ok->kind() == Value::Kind::Bool && ok->asBool()) return 0;
    return fail("invalid input: " + retrylab::json::errorSummary(value) + " (the errors are on stdout)");
}

// Read and parsed in one pass, within retrylab::json's limits (64 MiB, nesting, string and
// key lengths, NUL bytes, duplicate keys, values kept): a refusal names the limit and byte.
retrylab::json::Parsed readJson(const std::string& path) {
    if (path == "-") return retrylab::json::parse(stdin, "standard input");
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (!file) {
        retrylab::json::Parsed none;
        none.error = "cannot read " + path + ": " + std::strerror(errno);
        return none;
    }
    retrylab::json::Parsed parsed = retrylab::json::parse(file, path);
    std::fclose(file);
    return parsed;
}

// A link's text: the argument, or stdin's text for "-" (at most the link format's limit). The
// limit counts the page's string units (link.cpp readLink); one unit is at most three bytes of
// UTF-8, so stdin is read up to three times the limit and a little more for the address before
// the hash: a link the page reads is never cut short here.
bool readLinkText(const std::string& arg, std::string& text, std::string& error) {
    if (arg != "-") {
        text = arg;
        return true;
    }
    const std::size_t kMost = 3 * retrysim::linkFormat().maxLength + 4096;
    char buffer[65536];
    std::size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, stdin)) > 0) {
        text.append(buffer, n);
        if (text.size() > kMost) {
            error = "the link on standard input is longer than " + std::to_string(kMost) + " bytes";
            return false;
        }
    }
    if (std::ferror(stdin)) {
        error = "cannot read standard input";
        return false;
    }
    return true;
}

// Is a command-line argument a link rather than a file? A URL, a hash, or the text of one.
bool looksLikeLink(const std::string& arg) {
    return arg.rfind("http://", 0) == 0 || arg.rfind("https://", 0) == 0 || arg.rfind("file://", 0) == 0 ||
           arg.rfind("#", 0) == 0 || arg.rfind("v=", 0) == 0 || arg.find("#v=") != std::string::npos ||
           arg.find(".html#") != std::string::npos;
}

// The link's problems as the engine's errors: { field, code, message, detail }; past the
// first kErrorsShown, which is all retrysim prints, one "more-errors" entry with their count
// (retrylab::json::shownResult reads it), so that a link of 263,887 unknown names is not as
// many error objects.
Value linkErrors(const std::vector<retrysim::LinkProblem>& problems) {
    Value errors = Value::array();
    for (std::size_t i = 0; i < problems.size(); ++i) {
        if (i == retrylab::json::kErrorsShown) {
            Value more = Value::object();
            more.set("field", Value::string(""));
            more.set("code", Value::string("more-errors"));
            more.set("count", Value::number(static_cast<double>(problems.size() - i)));
            errors.push(std::move(more));
            break;
        }
        const retrysim::LinkProblem& p = problems[i];
        Value e = Value::object();
        e.set("field", Value::string(p.key));
        e.set("code", Value::string(p.code));
        e.set("message", Value::string(p.key + " (the link's \"" + p.value + "\") " + p.reason));
        e.set("detail", Value::string(p.reason));
        errors.push(std::move(e));
    }
    return errors;
}

Value failure(Value errors) {
    Value out = Value::object();
    out.set("ok", Value::boolean(false));
    out.set("errors", std::move(errors));
    return out;
}

// The engine's errors for the inputs a link gave, after the link's own problems, each pinned
// on an input the link gave as the page's accept.js pins it: an error about an input the link
// did not give (the script a scenario=script needs, when the link's script could not be read)
// is the fault of the input it depends on (its onlyWhen rule), when the link gave that one; an
// error about a part of an input (`layers[0].maxRetries`, `script[1].status`) names the input,
// with the engine's whole sentence as its reason (accept.js's inputOf and reasonFor).
Value withEngineErrors(Value errors, const Value& result, const Value& given) {
    const Value* ok = result.find("ok");
    if (ok && ok->kind() == Value::Kind::Bool && ok->asBool()) return errors;
    const Value* more = result.find("errors");
    if (!more) return errors;
    // Past the link's first kErrorsShown problems (linkErrors), the engine's only add to the count.
    if (!errors.asArray().empty() && errors.asArray().back().find("count")) {
        Value::Array all = errors.asArray();
        const double count = all.back().find("count")->asNumber();
        all.back().set("count", Value::number(count + static_cast<double>(more->asArray().size())));
        return Value::array(std::move(all));
    }
    std::set<std::string> named;  // each input named once, with its first error, as the page names it
    for (const Value& e : more->asArray()) {
        const std::string field = e.find("field")->asString();
        const std::string input = field.substr(0, field.find_first_of(".["));
        const retrylab::Field* row = retrylab::inputFields().find(input);
        std::string pinnedOn;
        if (!given.find(input) && row && !row->onlyWhen.field.empty() && given.find(row->onlyWhen.field))
            pinnedOn = row->onlyWhen.field;
        else if (input != field && given.find(input))
            pinnedOn = input;
        if (!named.insert(pinnedOn.empty() ? field : pinnedOn).second) continue;
        if (pinnedOn.empty()) {
            errors.push(e);
            continue;
        }
        Value pinned = Value::object();
        pinned.set("field", Value::string(pinnedOn));
        pinned.set("code", *e.find("code"));
        pinned.set("message", *e.find("message"));
        pinned.set("detail", *e.find("message"));
        errors.push(std::move(pinned));
    }
    return errors;
}

struct Options {
    std::string mode;  // "", --sweep, --check, --schema, --fleet
    bool compare = false;
    std::string link;
    bool hasLink = false;
    std::string format = "json";
    std::string baseUrl;
    bool hasFormat = false, hasBaseUrl = false;
    bool fleetTable = false;  // --schema --fleet
    bool noLimits = false;    // --fleet --no-limits
    std::vector<std::string> files;
};

int runCompare(const Options& o) {
    using retrysim::Side;
    Side sides[2];
    bool fleet = o.mode == "--fleet";
    std::vector<retrysim::LinkProblem> problems;
    std::string fleetLink;
    if (o.hasLink) {
        if (!o.files.empty())
            return fail(std::string("--compare --link takes no FILE: the link holds both sides\n") + kUsage);
        std::string text, error;
        if (!readLinkText(o.link, text, error)) return fail(error);
        retrysim::Link link = retrysim::readLink(text);
        problems = link.problems;
        if (link.read && link.view != "compare" && problems.empty())
            problems.push_back({"view", link.view, "not-a-view",
                                "is not compare: the link holds one run (give two links, or a view=compare link)"});
        if (link.view == "compare" && link.of == "fleet") {
            // Two fleet runs: the paths are typed by the fleet request's table, as the page's are.
            fleet = true;
            retrysim::FleetSides both = retrysim::readFleetSides(link);
            problems.insert(problems.end(), both.problems.begin(), both.problems.end());
            if (!problems.empty()) return print(failure(linkErrors(problems)));
            sides[0].inputs = std::move(both.before);
            sides[1].inputs = std::move(both.after);
            fleetLink = retrysim::hashOf(text);
        } else {
            if (fleet && problems.empty())
                problems.push_back(
                    {"of", link.of, "not-a-view",
                     "is not fleet: --compare --fleet --link reads a comparison of two fleet runs (of=fleet)"});
            retrysim::Sides both = retrysim::sidesOfLink(link, problems);
            if (!problems.empty()) return print(failure(linkErrors(problems)));
            sides[0] = both.before;
            sides[1] = both.after;
        }
    } else {
        if (o.files.size() != 2)
            return fail(std::string("--compare needs BEFORE and AFTER (two files or links), or --link\n") + kUsage);
        if (o.files[0] == "-" && o.files[1] == "-") return fail("only one of BEFORE and AFTER can be read from stdin");
        for (int i = 0; i < 2; ++i) {
            const std::string& arg = o.files[static_cast<std::size_t>(i)];
            const std::string side = i == 0 ? "before" : "after";
            if (looksLikeLink(arg)) {
                if (fleet)
                    return fail("the " + side + " side is a link; a fleet comparison reads two fleet request files");
                retrysim::Link link = retrysim::readLink(arg);
                if (link.read && link.view == "compare" && link.problems.empty())
                    link.problems.push_back(
                        {"view", "compare", "not-a-view", "holds two runs; give it alone with --compare --link"});
                for (retrysim::LinkProblem& p : link.problems) {
                    if (i == 1) p.key = retrysim::linkFormat().after + p.key;
                    problems.push_back(p);
                }
                sides[i].inputs = link.before;
            } else {
                retrylab::json::Parsed parsed = readJson(arg);
                if (!parsed.value) return fail(side + ": " + parsed.error);
                sides[i].inputs = std::move(*parsed.value);
            }
        }
        if (!problems.empty()) return print(failure(linkErrors(problems)));
    }
    Value comparison = retrysim::compare(sides[0], sides[1], fleet);
    // A comparison of two fleet runs read from a link has that link (retrysim writes no fleet
    // links of its own): the Markdown's "Open the comparison" line.
    if (fleet && !fleetLink.empty() && comparison.find("ok")->asBool())
        comparison.set("link", Value::string("#" + fleetLink));
    const Value* ok = comparison.find("ok");
    if (o.format == "markdown" && ok && ok->asBool()) {
        std::cout << retrysim::markdown(comparison, o.baseUrl);
        std::cout.flush();
        return std::cout ? 0 : 1;
    }
    return print(comparison);
}

int run(int argc, char** argv) {
    Options o;
    std::vector<std::string> args(argv + 1, argv + argc);
    // A config file to read (docs/config-in.md §10): its own options, in config_cli.cpp.
    if (retrysim::wantsFrom(args)) return retrysim::runFrom(args);
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        auto value = [&](const char* name, std::string& into, bool& given) {
            if (given) return fail(std::string(name) + " is given twice");
            if (i + 1 >= args.size()) return fail(std::string(name) + " needs a value\n" + kUsage);
            into = args[++i];
            given = true;
            return 0;
        };
        if (i == 0 && (arg == "--sweep" || arg == "--check" || arg == "--schema" || arg == "--fleet")) {
            o.mode = arg;
        } else if (arg == "--compare" && !o.compare) {
            o.compare = true;
        } else if (arg == "--fleet" && o.mode.empty() && o.compare) {
            o.mode = arg;
        } else if (arg == "--fleet" && o.mode == "--schema" && !o.fleetTable) {
            o.fleetTable = true;
        } else if (arg == "--no-limits" && !o.noLimits) {
            o.noLimits = true;
        } else if (arg == "--link") {
            if (int status = value("--link", o.link, o.hasLink)) return status;
        } else if (arg == "--format") {
            if (int status = value("--format", o.format, o.hasFormat)) return status;
        } else if (arg == "--base-url") {
            if (int status = value("--base-url", o.baseUrl, o.hasBaseUrl)) return status;
        } else if (args.size() == 1 && (arg == "-h" || arg == "--help")) {
            std::cout << kUsage;
            return 0;
        } else if (args.size() == 1 && (arg == "-V" || arg == "--version")) {
            std::cout << "retrysim " << retrylab::engineVersion() << "\n";
            return 0;
        } else if (arg.size() > 1 && arg[0] == '-') {
            return fail("unknown option " + arg + "\n" + kUsage);
        } else {
            o.files.push_back(arg);
        }
    }
    if (o.mode == "--schema") {
        if (!o.files.empty() || o.hasLink || (o.compare && o.fleetTable))
            return fail(std::string("--schema reads no FILE\n") + kUsage);
        // The metrics a comparison lists (core/src/compare_metrics.cpp): the page's compareMetrics().
        if (o.compare) {
            std::cout << retrylab::json::dump(retrylab::compareMetrics(), 2) << "\n";
            std::cout.flush();
            return std::cout ? 0 : 1;
        }
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
        Value schema = o.fleetTable ? retrylab::fleetSchema() : retrylab::schema();
        schema.set("limits", std::move(limits));
        std::cout << json::dump(schema, 2) << "\n";
        std::cout.flush();
        return std::cout ? 0 : 1;
    }
    // The fleet's cost bound is lifted only for a fleet request file run on purpose: never for
    // a link, a comparison or Markdown (docs/robustness.md, "The fleet's cost bound").
    if (o.noLimits && (o.mode != "--fleet" || o.compare || o.hasLink || o.hasFormat || o.hasBaseUrl))
        return fail(std::string("--no-limits goes with --fleet FILE only (not with a link or a comparison)\n") +
                    kUsage);
    if (o.format != "json" && o.format != "markdown") return fail("--format is json or markdown, not " + o.format);
    // Where Retry Lab is, for the Markdown's link: an absolute http(s) URL only, and one that
    // the writer (core/src/markdown.cpp) can put in a link whole (docs/compare.md §5).
    if (o.hasBaseUrl) {
        std::string why;
        retrylab::markdown::destination(o.baseUrl, &why);
        if (!why.empty()) return fail("--base-url " + why);
    }
    // A view=compare link is a comparison by itself: --format and --base-url go with it too.
    if ((o.hasFormat || o.hasBaseUrl) && !o.compare && !o.hasLink)
        return fail(std::string("--format and --base-url go with --compare\n") + kUsage);
    if (o.compare) {
        if (!o.mode.empty() && o.mode != "--fleet")
            return fail(std::string("--compare goes with --fleet only\n") + kUsage);
        return runCompare(o);
    }
    if (o.hasLink) {
        if (!o.files.empty()) return fail(std::string("--link takes no FILE: the link holds the inputs\n") + kUsage);
        if (!o.mode.empty() && o.mode != "--check")
            return fail(std::string("--link goes with --check or --compare only\n") + kUsage);
        std::string text, error;
        if (!readLinkText(o.link, text, error)) return fail(error);
        retrysim::Link link = retrysim::readLink(text);
        if (link.read && link.view == "compare" && o.mode.empty()) {
            Options compare = o;
            compare.compare = true;
            return runCompare(compare);
        }
        if (o.hasFormat || o.hasBaseUrl)
            return fail(std::string("--format and --base-url go with a comparison: this link holds one run (a "
                                    "view=compare link, or --compare with two runs)\n") +
                        kUsage);
        if (link.view == "compare")
            link.problems.push_back({"view", "compare", "not-a-view", "holds two runs, which --check does not read"});
        Value errors = linkErrors(link.problems);
        Value result = o.mode == "--check" ? retrylab::validate(link.before) : retrylab::compute(link.before);
        const Value* ran = result.find("ok");
        if (errors.asArray().empty() && ran && ran->kind() == Value::Kind::Bool && ran->asBool()) return print(result);
        return print(failure(withEngineErrors(std::move(errors), result, link.before)));
    }
    if (o.files.size() > 1) return fail(std::string("expected at most one FILE\n") + kUsage);
    const std::string path = o.files.empty() ? "-" : o.files.front();

    retrylab::json::Parsed parsed = readJson(path);
    if (!parsed.value) return fail(parsed.error);

    Value result = o.mode == "--sweep"   ? retrylab::sweep(*parsed.value)
                   : o.mode == "--check" ? retrylab::validate(*parsed.value)
                   : o.mode == "--fleet" ? retrylab::fleet(*parsed.value, retrylab::FleetOptions{!o.noLimits})
                                         : retrylab::compute(*parsed.value);
    parsed.value.reset();
    // At most the first 100 errors and a count of the rest, long fields cut, on both streams.
    return print(result);
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::bad_alloc&) { std::cerr << "retrysim: out of memory\n"; } catch (const std::exception& e) {
        std::cerr << "retrysim: " << e.what() << "\n";
    }
    return 1;
}
