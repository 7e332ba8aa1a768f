// One side of a config reading, and the fields that changed between two (retrylab/config_side.hpp;
// docs/config-in.md §3, §10.3). Moved here from retrysim's config_cli.cpp so that the page's
// config file (bindings/wasm) runs the very same steps.
#include "retrylab/config_side.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace retrylab::config {
namespace {

bool okAnswer(const Value& v) {
    const Value* ok = v.find("ok");
    return ok && ok->kind() == Value::Kind::Bool && ok->asBool();
}

Value lineOf(const Value* entry) { return entry ? *entry->find("line") : Value::null(); }

Value numberOrNull(int n) { return n > 0 ? Value::number(n) : Value::null(); }

}  // namespace

// The entries with a source value, one per path (the first), in report order.
std::vector<SourceEntry> sourceEntries(const Value& answer) {
    std::vector<SourceEntry> out;
    std::set<std::string> seen;
    for (const Value& e : answer.find("report")->asArray()) {
        std::string path = e.find("path")->asString();
        if (path.empty() || !e.find("source") || !seen.insert(path).second) continue;
        out.push_back({&e, path});
    }
    return out;
}

const Value* findEntry(const std::vector<SourceEntry>& list, const std::string& path) {
    for (const SourceEntry& s : list)
        if (s.path == path) return s.entry;
    return nullptr;
}

std::vector<std::string> singleInputs(const Value* entry) {
    std::vector<std::string> out;
    if (!entry) return out;
    for (const Value& i : entry->find("inputs")->asArray()) {
        std::string name = i.find("name")->asString();
        if (name.rfind("fleet.", 0) != 0) out.push_back(name);
    }
    return out;
}

SideReading readSide(std::string_view bytes, const Options& options) {
    SideReading out;
    Parsed parsed = parseText(bytes, false);
    // §3: a JSON text only the reading with comments accepts can only be .NET's.
    const std::string& from = options.from;
    if (!parsed.text && (from == "auto" || from == "dotnet")) {
        std::size_t first = bytes.find_first_not_of(" \t\r\n");
        if (first != std::string_view::npos && (bytes[first] == '{' || bytes[first] == '[')) {
            Parsed lax = parseText(bytes, true);
            if (lax.text) {
                lax.text->syntax = "jsonc";
                Value answer = read(*lax.text, options);
                const Value* format = answer.find("format");
                if (okAnswer(answer) ||
                    (format && format->kind() == Value::Kind::String && format->asString() == "dotnet")) {
                    out.answer = std::move(answer);
                    return out;
                }
            }
        }
    }
    if (!parsed.text) {
        out.textError = parsed.error;
        return out;
    }
    out.answer = read(*parsed.text, options);
    return out;
}

Value textErrorAnswer(const TextError& e) {
    Value error = Value::object();
    error.set("field", Value::string(e.field));
    error.set("line", numberOrNull(e.line));
    error.set("column", e.line > 0 ? numberOrNull(e.column) : Value::null());
    error.set("code", Value::string(e.code));
    error.set("message", Value::string(e.message));
    error.set("detail", Value::string(e.message));
    Value out = Value::object();
    out.set("ok", Value::boolean(false));
    out.set("format", Value::null());
    out.set("errors", Value::array({error}));
    return out;
}

Value changed(const Value& before, const Value& after) {
    std::vector<SourceEntry> b = sourceEntries(before), a = sourceEntries(after);
    const Value& inB = *before.find("inputs");
    const Value& inA = *after.find("inputs");
    Value list = Value::array();
    auto add = [&](const std::string& path, const Value* x, const Value* y) {
        Value c = Value::object();
        c.set("path", Value::string(path));
        c.set("lineBefore", lineOf(x));
        c.set("lineAfter", lineOf(y));
        c.set("before", x ? *x->find("source") : Value::null());
        c.set("after", y ? *y->find("source") : Value::null());
        Value moved = Value::array();
        std::vector<std::string> names = singleInputs(x);
        for (const std::string& n : singleInputs(y))
            if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
        for (const std::string& n : names) {
            const Value* vb = inB.find(n);
            const Value* va = inA.find(n);
            if (vb && va && sameValue(*vb, *va)) continue;
            Value m = Value::object();
            m.set("name", Value::string(n));
            m.set("before", vb ? *vb : Value::null());
            m.set("after", va ? *va : Value::null());
            moved.push(std::move(m));
        }
        c.set("inputs", std::move(moved));
        list.push(std::move(c));
    };
    for (const SourceEntry& y : a) {
        const Value* x = findEntry(b, y.path);
        if (x && sameValue(*x->find("source"), *y.entry->find("source"))) continue;
        add(y.path, x, y.entry);
    }
    for (const SourceEntry& x : b)
        if (!findEntry(a, x.path)) add(x.path, x.entry, nullptr);
    return list;
}

}  // namespace retrylab::config
