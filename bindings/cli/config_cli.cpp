// retrysim --from FORMAT FILE and retrysim --compare --from FORMAT OLD NEW (docs/config-in.md
// §10): the text parsed by retrylab::config_text (bindings/config), read by the core's
// config::read(), run by compute() or fleet(); the comparison is compare.cpp's, with the config
// parts of §10.3 around it. Every value from a file goes through the core's Markdown writer.
#include "config_cli.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <set>

#include "compare.hpp"
#include "retrylab/config.hpp"
#include "retrylab/config_side.hpp"
#include "retrylab/config_text.hpp"
#include "retrylab/engine.hpp"
#include "retrylab/fields.hpp"
#include "retrylab/fleet.hpp"
#include "retrylab/json.hpp"
#include "retrylab/markdown.hpp"

namespace retrysim {
namespace {

using retrylab::Value;
namespace config = retrylab::config;
namespace md = retrylab::markdown;

const char* const kFromUsage =
    "usage: retrysim --from FORMAT [--check|--fleet] [options] FILE\n"
    "       retrysim --compare --from FORMAT [options] OLD NEW [--format json|markdown] [--base-url URL]\n"
    "  FORMAT: grpc envoy istio linkerd aws dotnet auto\n"
    "  options: --run FILE (the situation), --method S/M and --impl NAME (grpc), --route NAME (envoy, istio, "
    "linkerd),\n"
    "           --document N (YAML streams), --istio-default 1.25-503 (istio),\n"
    "           --profile NAME, --sdk NAME, --env FILE (aws; with --env the FILE may be left out), --section A:B "
    "(dotnet)\n";

int fail(const std::string& message) {
    std::cerr << "retrysim: " << retrylab::json::shownText(message) << "\n";
    return 2;
}

struct FromOptions {
    config::Options reader;
    std::string mode;  // "", "--check", "--fleet"
    bool compare = false;
    std::string format = "json", baseUrl, runPath, envPath;
    bool hasFormat = false, hasBaseUrl = false;
    std::vector<std::string> files;
};

// The file's bytes, at most one past the 1 MiB limit (the parser then refuses it as too large).
bool readBytes(const std::string& path, std::string& out, std::string& error) {
    std::FILE* f = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
    if (!f) {
        error = "cannot read " + path + ": " + std::strerror(errno);
        return false;
    }
    char buffer[65536];
    std::size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) {
        out.append(buffer, n);
        if (out.size() > config::kMaxFileBytes) break;
    }
    bool bad = std::ferror(f);
    if (f != stdin) std::fclose(f);
    if (bad) {
        error = "cannot read " + path;
        return false;
    }
    return true;
}

// One side read: the text parsed and the reader's answer, or a line for stderr.
struct Read {
    Value answer;
    std::string textError;  // set when the text could not be parsed (nothing for stdout)
};

Read readSide(const std::string& path, const FromOptions& o) {
    Read out;
    std::string bytes, error;
    if (path.empty()) {  // §3: --from aws --env FILE with no config file: the environment alone
        config::Text text;
        text.syntax = "ini";
        config::Document empty;
        empty.value = Value::object();
        text.documents.push_back(std::move(empty));
        out.answer = config::read(text, o.reader);
        return out;
    }
    if (!readBytes(path, bytes, error)) {
        out.textError = error;
        return out;
    }
    config::SideReading side =
        config::readSide(bytes, o.reader);  // bindings/config: the page's config file reads alike
    if (side.textError) {
        const config::TextError& e = *side.textError;
        std::string where =
            e.line > 0 ? " (line " + std::to_string(e.line) + ", column " + std::to_string(e.column) + ")" : "";
        out.textError =
            path + ": " + e.code + ": " + e.message + (e.message.find("line") == std::string::npos ? where : "");
        return out;
    }
    out.answer = std::move(side.answer);
    return out;
}

bool isOk(const Value& v) {
    const Value* ok = v.find("ok");
    return ok && ok->kind() == Value::Kind::Bool && ok->asBool();
}

std::string firstErrorWords(const Value& answer) {
    const auto& errors = answer.find("errors")->asArray();
    if (errors.empty()) return "invalid config";
    const Value& e = errors.front();
    std::string field = e.find("field")->asString();
    const Value* line = e.find("line");
    std::string words = (field.empty() ? "the file" : field) +
                        (line && !line->isNull() ? " (line " + retrylab::json::dump(*line, -1) + ")" : "");
    if (errors.size() > 1) words += ", and " + std::to_string(errors.size() - 1) + " more";
    return words;
}

void printWarnings(const Value& answer, const std::string& side) {
    if (const Value* d = answer.find("detected"))
        std::cerr << "retrysim: " << side << "--from auto chose " << answer.find("format")->asString() << " ("
                  << d->find("rule")->asString() << ")\n";
    for (const Value& w : answer.find("warnings")->asArray()) {
        std::string field = w.find("field")->asString();
        const Value* line = w.find("line");
        std::string where =
            field.empty()
                ? ""
                : field + (line && !line->isNull() ? " (line " + retrylab::json::dump(*line, -1) + ")" : "") + ": ";
        std::cerr << "retrysim: warning: " << side << retrylab::json::shownText(where + w.find("message")->asString())
                  << "\n";
    }
}

int printJson(const Value& v) {
    std::cout << retrylab::json::dump(retrylab::json::shownResult(v), 2) << "\n";
    std::cout.flush();
    return std::cout ? 0 : 1;
}

Value configPart(const Value& answer) {
    Value c = Value::object();
    for (const char* k : {"format", "detected", "selection", "inputs", "fleet", "report", "warnings"})
        if (const Value* v = answer.find(k)) c.set(k, *v);
    return c;
}

int runOne(const FromOptions& o) {
    bool envAlone = o.files.empty() && o.reader.hasEnv;
    if (o.files.size() != 1 && !envAlone) return fail(std::string("--from needs one FILE\n") + kFromUsage);
    Read side = readSide(envAlone ? std::string() : o.files.front(), o);
    if (!side.textError.empty()) return fail(side.textError);
    if (!isOk(side.answer)) {
        printJson(side.answer);
        return fail("the config was not read: " + firstErrorWords(side.answer) + " (the errors are on stdout)");
    }
    printWarnings(side.answer, "");
    Value out = Value::object();
    out.set("ok", Value::boolean(true));
    out.set("engine", Value::string(retrylab::engineVersion()));
    out.set("config", configPart(side.answer));
    if (o.mode != "--check") {
        Value result = o.mode == "--fleet" ? retrylab::fleet(*side.answer.find("fleet"))
                                           : retrylab::compute(*side.answer.find("inputs"));
        if (!isOk(result)) {
            printJson(result);
            return fail("the engine refused the translated inputs (the errors are on stdout)");
        }
        out.set("result", std::move(result));
    }
    return printJson(out);
}

// ---- the comparison (§10.3) -----------------------------------------------------------------

// A value as written in the file, for the comment: a string as it is, anything else as JSON.
std::string written(const Value& v) {
    if (v.kind() == Value::Kind::String) return v.asString();
    return retrylab::json::dump(v, -1);
}

// An input's value for the comment: numbers grouped, lists of classes "timeout, 5xx".
std::string inputWords(const Value& v) {
    if (v.kind() == Value::Kind::Number) return pageNumber(v.asNumber());
    if (v.kind() == Value::Kind::String) return v.asString();
    if (v.kind() == Value::Kind::Array) {
        std::string out;
        for (const Value& item : v.asArray()) out += (out.empty() ? "" : ", ") + inputWords(item);
        return out;
    }
    return retrylab::json::dump(v, -1);
}

// A situation value: a list of numbers "[0.4, 0.8, 0.5]", anything else one-line JSON.
std::string situationWords(const Value& v) {
    if (v.kind() == Value::Kind::Array) {
        bool numbers = !v.asArray().empty();
        for (const Value& item : v.asArray()) numbers = numbers && item.kind() == Value::Kind::Number;
        if (numbers) {
            std::string out;
            for (const Value& item : v.asArray()) out += (out.empty() ? "" : ", ") + retrylab::json::dump(item, -1);
            return "[" + out + "]";
        }
    }
    if (v.kind() == Value::Kind::String) return v.asString();
    return retrylab::json::dump(v, -1);
}

using config::findEntry;
using config::singleInputs;
using config::sourceEntries;
using config::SourceEntry;

std::string lineCell(const Value& before, const Value& after) {
    auto one = [](const Value& v) { return v.isNull() ? std::string("—") : retrylab::json::dump(v, -1); };
    if (!before.isNull() && !after.isNull() && retrylab::sameValue(before, after)) return one(before);
    return one(before) + " → " + one(after);
}

// Markdown blocks of compare.cpp's writer, without its summary line (the first block) and its
// link line (kept apart, for the end).
void comparisonBlocks(const std::string& text, std::vector<std::string>& middle, std::string& link) {
    std::vector<std::string> blocks;
    std::size_t from = 0;
    while (from < text.size()) {
        std::size_t gap = text.find("\n\n", from);
        std::string block = text.substr(from, gap == std::string::npos ? std::string::npos : gap - from);
        while (!block.empty() && block.back() == '\n') block.pop_back();
        if (!block.empty()) blocks.push_back(block);
        if (gap == std::string::npos) break;
        from = gap + 2;
    }
    for (std::size_t i = 1; i < blocks.size(); ++i) {
        if (blocks[i].rfind("[Open the comparison", 0) == 0)
            link = blocks[i];
        else
            middle.push_back(blocks[i]);
    }
}

std::string entryInputs(const Value& e, const Value& inputs) {
    std::string out;
    for (const std::string& n : singleInputs(&e)) {
        const Value* v = inputs.find(n);
        if (!v || (v->kind() == Value::Kind::Array && v->asArray().empty())) continue;
        out += (out.empty() ? "" : ", ") + md::code(n, false) + " " + md::text(inputWords(*v));
    }
    return out;
}

// §10.3 item 5: Read, Defaulted, Not modelled, Approximated, Warnings.
std::string readLines(const Value& before, const Value& after, const Value& changed) {
    std::set<std::string> changedPaths;
    for (const Value& c : changed.asArray()) changedPaths.insert(c.find("path")->asString());
    std::vector<SourceEntry> b = sourceEntries(before), a = sourceEntries(after);
    auto common = [&](const std::string& status, bool withSource) {
        std::string out;
        for (const SourceEntry& y : a) {
            if (y.entry->find("status")->asString() != status || changedPaths.count(y.path)) continue;
            const Value* x = findEntry(b, y.path);
            if (!x || x->find("status")->asString() != status) continue;
            std::string part = md::code(y.path, false);
            if (withSource) part += " " + md::text(written(*y.entry->find("source")));
            std::string inputs = entryInputs(*y.entry, *after.find("inputs"));
            if (!inputs.empty()) part += " → " + inputs;
            out += (out.empty() ? "" : "; ") + part;
        }
        return out.empty() ? std::string("none") : out;
    };
    std::string lines = "Read: " + common("read", true) + "\nDefaulted: " + common("defaulted", false) + "\n";
    // Not modelled: by path (or rule), with the side that has it.
    std::vector<std::pair<std::string, int>> notModelled;  // words, sides (1 before, 2 after, 3 both)
    auto collect = [&](const Value& answer, int side) {
        for (const Value& e : answer.find("report")->asArray()) {
            if (e.find("status")->asString() != "not-modelled") continue;
            std::string path = e.find("path")->asString();
            std::string words = path.empty() ? md::text(e.find("rule")->asString()) : md::code(path, false);
            if (!path.empty() && e.find("source") && e.find("source")->kind() == Value::Kind::String)
                words += " " + md::text(e.find("source")->asString());
            bool found = false;
            for (auto& [w, s] : notModelled)
                if (w == words) s |= side, found = true;
            if (!found) notModelled.emplace_back(words, side);
        }
    };
    collect(before, 1);
    collect(after, 2);
    std::string nm;
    for (const auto& [w, s] : notModelled)
        nm += (nm.empty() ? "" : "; ") + w + (s == 1 ? " (before only)" : s == 2 ? " (after only)" : "");
    lines += "Not modelled: " + (nm.empty() ? std::string("none") : nm) + "\n";
    std::vector<std::string> notes;
    for (const Value* answer : {&before, &after})
        for (const Value& e : answer->find("report")->asArray())
            if (e.find("approximated")->asBool() && e.find("note")) {
                std::string n = md::text(e.find("note")->asString());
                if (std::find(notes.begin(), notes.end(), n) == notes.end()) notes.push_back(n);
            }
    std::string ap;
    for (const std::string& n : notes) ap += (ap.empty() ? "" : "; ") + n;
    lines += "Approximated: " + (ap.empty() ? std::string("none") : ap) + "\n";
    std::vector<std::pair<std::string, int>> warnings;
    auto warn = [&](const Value& answer, int side) {
        for (const Value& w : answer.find("warnings")->asArray()) {
            std::string path = w.find("field")->asString();
            std::string words =
                (path.empty() ? "" : md::code(path, false) + ": ") + md::text(w.find("message")->asString());
            bool found = false;
            for (auto& [x, s] : warnings)
                if (x == words) s |= side, found = true;
            if (!found) warnings.emplace_back(words, side);
        }
    };
    warn(before, 1);
    warn(after, 2);
    std::string ws;
    for (const auto& [w, s] : warnings)
        ws += (ws.empty() ? "" : "; ") + w + (s == 1 ? " (before)" : s == 2 ? " (after)" : " (both)");
    lines += "Warnings: " + (ws.empty() ? std::string("none") : ws);
    return lines;
}

std::string situationLine(const Value& situation, const std::string& runPath) {
    if (situation.asObject().empty()) return "Situation: the opening run.";
    std::string parts;
    for (const Value::Member& m : situation.asObject()) {
        const retrylab::Field* row = retrylab::inputFields().find(m.key);
        if (row && retrylab::sameValue(row->defaultValue.toValue(), m.value)) continue;
        parts += (parts.empty() ? "" : ", ") + md::code(m.key, false) + " " + md::text(situationWords(m.value));
    }
    if (parts.empty()) return "Situation: the opening run.";
    return "Situation (--run " + md::text(runPath) + "): " + parts + "; the rest as the opening run.";
}

std::string commentOf(const Value& comparison, const Value& before, const Value& after, const Value& changed,
                      const Value& situation, const FromOptions& o) {
    std::string format = after.find("format")->asString();
    const Value& sel = *after.find("selection");
    std::string selName = sel.find("name") ? sel.find("name")->asString() : "";
    if (selName.empty() && sel.find("path")) selName = sel.find("path")->asString();
    std::string title = "**Retry Lab, before → after:** " + md::text(config::formatTitle(format)) +
                        (selName.empty() ? "" : " " + md::code(selName, false)) + ": ";
    const auto& list = changed.asArray();
    if (list.empty()) title += "(no field changed)";
    for (std::size_t i = 0; i < list.size() && i < 3; ++i) {
        const Value& c = list[i];
        auto side = [](const Value& v) { return v.isNull() ? std::string("—") : written(v); };
        title += (i ? ", " : "") + md::code(c.find("path")->asString(), false) + " " +
                 md::text(side(*c.find("before"))) + " → " + md::text(side(*c.find("after")));
    }
    if (list.size() > 3) title += ", and " + std::to_string(list.size() - 3) + " more";
    std::string out = title + "\n\n";
    if (!list.empty()) {
        out += "| config field | line | before | after | engine input |\n|---|---:|---|---|---|\n";
        for (const Value& c : list) {
            auto side = [](const Value& v) { return v.isNull() ? std::string("—") : written(v); };
            std::string moved;
            for (const Value& m : c.find("inputs")->asArray())
                moved += (moved.empty() ? "" : "; ") + md::code(m.find("name")->asString(), true) + " " +
                         md::text(inputWords(*m.find("before")), false) + " → " +
                         md::text(inputWords(*m.find("after")), false);
            if (moved.empty()) {
                bool notModelled = false;
                for (const Value* answer : {&before, &after})
                    for (const Value& e : answer->find("report")->asArray())
                        if (e.find("path")->asString() == c.find("path")->asString() &&
                            e.find("status")->asString() == "not-modelled")
                            notModelled = true;
                moved = notModelled ? "none (not modelled)" : "none";
            }
            out += "| " + md::code(c.find("path")->asString(), true) + " | " +
                   lineCell(*c.find("lineBefore"), *c.find("lineAfter")) + " | " +
                   md::text(side(*c.find("before")), true) + " | " + md::text(side(*c.find("after")), true) + " | " +
                   moved + " |\n";
        }
        out += "\n";
    }
    std::vector<std::string> middle;
    std::string link;
    comparisonBlocks(markdown(comparison, o.baseUrl), middle, link);
    for (const std::string& block : middle) out += block + "\n\n";
    out += situationLine(situation, o.runPath) + "\n\n";
    out += readLines(before, after, changed) + "\n";
    if (!link.empty()) out += "\n" + link + "\n";
    return out;
}

int runCompareFrom(const FromOptions& o) {
    if (o.files.size() != 2) return fail(std::string("--compare --from needs OLD and NEW\n") + kFromUsage);
    if (o.files[0] == "-" && o.files[1] == "-") return fail("only one of OLD and NEW can be read from stdin");
    Read sides[2];
    for (int i = 0; i < 2; ++i) {
        sides[i] = readSide(o.files[static_cast<std::size_t>(i)], o);
        if (!sides[i].textError.empty()) return fail(std::string(i == 0 ? "before: " : "after: ") + sides[i].textError);
    }
    if (!isOk(sides[0].answer) || !isOk(sides[1].answer)) {
        Value errors = Value::array();
        std::set<std::pair<std::string, std::string>> seen;
        for (int i = 0; i < 2; ++i) {
            if (isOk(sides[i].answer)) continue;
            for (const Value& e : sides[i].answer.find("errors")->asArray()) {
                std::pair<std::string, std::string> key(e.find("field")->asString(), e.find("code")->asString());
                if (i == 1 && seen.count(key)) continue;
                seen.insert(key);
                Value copy = e;
                if (i == 1) {
                    Value renamed = Value::object();
                    for (const Value::Member& m : e.asObject())
                        renamed.set(m.key, m.key == "field" ? Value::string("after." + m.value.asString()) : m.value);
                    copy = renamed;
                }
                errors.push(std::move(copy));
            }
        }
        Value out = Value::object();
        out.set("ok", Value::boolean(false));
        out.set("errors", std::move(errors));
        printJson(out);
        return fail("a config was not read (the errors are on stdout)");
    }
    const Value& before = sides[0].answer;
    const Value& after = sides[1].answer;
    if (before.find("format")->asString() != after.find("format")->asString())
        return fail("conflict: OLD is a " + config::formatTitle(before.find("format")->asString()) + ", NEW a " +
                    config::formatTitle(after.find("format")->asString()));
    printWarnings(before, "before: ");
    printWarnings(after, "after: ");
    Side b, a;
    b.inputs = *before.find("inputs");
    a.inputs = *after.find("inputs");
    Value comparison = compare(b, a, false);
    if (!isOk(comparison)) {
        printJson(comparison);
        return fail("the engine refused the translated inputs (the errors are on stdout)");
    }
    Value changed = config::changed(before, after);
    Value situation = o.reader.hasRun ? o.reader.run : Value::object();
    if (o.format == "markdown") {
        std::cout << commentOf(comparison, before, after, changed, situation, o);
        std::cout.flush();
        return std::cout ? 0 : 1;
    }
    Value c = Value::object();
    c.set("format", *after.find("format"));
    for (int i = 0; i < 2; ++i) {
        Value side = Value::object();
        for (const char* k : {"selection", "report", "warnings"}) side.set(k, *sides[i].answer.find(k));
        c.set(i == 0 ? "before" : "after", std::move(side));
    }
    c.set("situation", situation);
    c.set("changed", std::move(changed));
    comparison.set("config", std::move(c));
    return printJson(comparison);
}

}  // namespace

bool wantsFrom(const std::vector<std::string>& args) {
    for (const std::string& a : args)
        if (a == "--from") return true;
    return false;
}

int runFrom(const std::vector<std::string>& args) {
    FromOptions o;
    std::set<std::string> given;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        auto value = [&](std::string& into) -> bool {
            if (!given.insert(arg).second || i + 1 >= args.size()) return false;
            into = args[++i];
            return true;
        };
        std::string document;
        if (arg == "--from") {
            if (!value(o.reader.from)) return fail(arg + " is given twice or has no value\n" + kFromUsage);
        } else if (arg == "--check" || arg == "--fleet") {
            if (!o.mode.empty()) return fail(std::string("--check and --fleet go one at a time\n") + kFromUsage);
            o.mode = arg;
        } else if (arg == "--compare") {
            if (o.compare) return fail("--compare is given twice");
            o.compare = true;
        } else if (arg == "--format") {
            if (!value(o.format)) return fail(arg + " is given twice or has no value");
            o.hasFormat = true;
        } else if (arg == "--base-url") {
            if (!value(o.baseUrl)) return fail(arg + " is given twice or has no value");
            o.hasBaseUrl = true;
        } else if (arg == "--run") {
            if (!value(o.runPath)) return fail(arg + " is given twice or has no value");
        } else if (arg == "--method") {
            if (!value(o.reader.method)) return fail(arg + " is given twice or has no value");
            o.reader.hasMethod = true;
        } else if (arg == "--impl") {
            if (!value(o.reader.impl)) return fail(arg + " is given twice or has no value");
            o.reader.hasImpl = true;
        } else if (arg == "--istio-default") {
            if (!value(o.reader.istioDefault)) return fail(arg + " is given twice or has no value");
            o.reader.hasIstioDefault = true;
        } else if (arg == "--route") {
            if (!value(o.reader.route)) return fail(arg + " is given twice or has no value");
            o.reader.hasRoute = true;
        } else if (arg == "--profile") {
            if (!value(o.reader.profile)) return fail(arg + " is given twice or has no value");
            o.reader.hasProfile = true;
        } else if (arg == "--sdk") {
            if (!value(o.reader.sdk)) return fail(arg + " is given twice or has no value");
            o.reader.hasSdk = true;
        } else if (arg == "--env") {
            if (!value(o.envPath)) return fail(arg + " is given twice or has no value");
        } else if (arg == "--section") {
            if (!value(o.reader.section)) return fail(arg + " is given twice or has no value");
            o.reader.hasSection = true;
        } else if (arg == "--document") {
            if (!value(document)) return fail(arg + " is given twice or has no value");
            char* end = nullptr;
            long n = std::strtol(document.c_str(), &end, 10);
            if (document.empty() || *end != '\0' || n < 1 || n > 1000000)
                return fail("--document is a number from 1, not " + document);
            o.reader.document = static_cast<int>(n);
        } else if (arg.size() > 1 && arg[0] == '-') {
            return fail("unknown option " + arg + " with --from\n" + kFromUsage);
        } else {
            o.files.push_back(arg);
        }
    }
    if (o.format != "json" && o.format != "markdown") return fail("--format is json or markdown, not " + o.format);
    if ((o.hasFormat || o.hasBaseUrl) && !o.compare) return fail("--format and --base-url go with --compare");
    if (o.compare && !o.mode.empty()) return fail("--compare --from goes with neither --check nor --fleet");
    if (o.hasBaseUrl) {
        std::string why;
        md::destination(o.baseUrl, &why);
        if (!why.empty()) return fail("--base-url " + why);
    }
    if (!o.runPath.empty()) {
        std::FILE* f = std::fopen(o.runPath.c_str(), "rb");
        if (!f) return fail("cannot read " + o.runPath + ": " + std::strerror(errno));
        retrylab::json::Parsed parsed = retrylab::json::parse(f, o.runPath);
        std::fclose(f);
        if (!parsed.value) return fail("--run " + o.runPath + ": " + parsed.error);
        o.reader.run = std::move(*parsed.value);
        o.reader.hasRun = true;
    }
    if (!o.envPath.empty()) {  // §8.1: the environment file, read at the binding edge like the config
        std::string bytes, error;
        if (!readBytes(o.envPath, bytes, error)) return fail(error);
        config::Parsed parsed = config::parseEnvironment(bytes);
        if (!parsed.text) {
            const config::TextError& e = parsed.error;
            return fail("--env " + o.envPath + ": " + e.code + ": " + e.message);
        }
        o.reader.env = std::move(parsed.text->documents.front());
        o.reader.hasEnv = true;
    }
    return o.compare ? runCompareFrom(o) : runOne(o);
}

}  // namespace retrysim
