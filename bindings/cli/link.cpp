// The link format in C++, from the engine's table (see link.hpp). Its facts (separators,
// version, `none`, part names, the decimal grammar, the words of each problem) are the page's
// own table, web/share/link-format.json (linkFormat()); the rules that walk them have their twin
// in web/share/codec.js (linkParts, readPairs, readValue, entryFormat) and compare-link.js.
#include "link.hpp"

#include "compare.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <utility>

#include "retrylab/fields.hpp"
#include "retrylab/fleet.hpp"
#include "retrylab/json.hpp"

namespace retrysim {

using retrylab::Field;
using retrylab::FieldType;
using retrylab::Value;

const LinkFormat& linkFormat() {
    static const LinkFormat format = [] {
        LinkFormat f;
        retrylab::json::Parsed parsed = retrylab::json::parse(std::string_view(kLinkFormatJson));
        f.table = parsed.value ? *parsed.value : Value::object();
        auto text = [&](const char* name) {
            const Value* v = f.table.find(name);
            return v && v->kind() == Value::Kind::String ? v->asString() : std::string();
        };
        auto texts = [&](const Value* list) {
            std::vector<std::string> out;
            if (list && list->kind() == Value::Kind::Array)
                for (const Value& v : list->asArray()) out.push_back(v.asString());
            return out;
        };
        auto one = [&](const char* name) { return text(name).empty() ? '\0' : text(name)[0]; };
        f.versionKey = text("versionKey");
        f.version = text("version");
        f.none = text("none");
        f.after = text("after");
        f.fleetNull = text("fleetNull");
        f.gateOn = text("gateOn");
        f.escaped = text("escaped");
        const Value* maxLength = f.table.find("maxLength");
        f.maxLength = maxLength ? static_cast<std::size_t>(maxLength->asNumber()) : 0;
        f.pairs = one("pairs");
        f.equals = one("equals");
        f.items = one("items");
        f.parts = one("parts");
        f.named = one("named");
        f.memberItems = one("memberItems");
        if (const Value* names = f.table.find("partNames"))
            for (const Value::Member& m : names->asObject()) f.partNames.emplace_back(m.key, m.value.asString());
        if (const Value* decimal = f.table.find("decimal")) {
            f.signs = decimal->find("signs")->asString();
            f.point = decimal->find("point")->asString();
            f.exponent = decimal->find("exponent")->asString();
        }
        f.pageKeys = texts(f.table.find("pageKeys"));
        f.compareKeys = texts(f.table.find("compareKeys"));
        return f;
    }();
    return format;
}

std::string say(const std::string& word, const std::vector<std::pair<std::string, std::string>>& fill) {
    const Value* words = linkFormat().table.find("words");
    const Value* said = words ? words->find(word) : nullptr;
    const std::string text = said ? said->asString() : word;
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const std::size_t close = text[i] == '{' ? text.find('}', i) : std::string::npos;
        if (close == std::string::npos) {
            out += text[i];
            continue;
        }
        const std::string name = text.substr(i + 1, close - i - 1);
        const Value* fact = linkFormat().table.find(name);
        std::string value = name == "reader"                              ? "retrysim"
                            : fact && fact->kind() == Value::Kind::String ? fact->asString()
                                                                          : "";
        for (const auto& [k, v] : fill)
            if (k == name) value = v;
        out += value;
        i = close;
    }
    return out;
}

namespace {

const LinkFormat& F() { return linkFormat(); }

enum class Kind { None, Number, Boolean, String, Numbers, Strings, Entries, Stack, Record };

bool memberKind(Kind k) {
    return k == Kind::Number || k == Kind::Boolean || k == Kind::String || k == Kind::Numbers || k == Kind::Strings;
}

Kind kindOf(const Field& f) {
    switch (f.type) {
        case FieldType::Number: return Kind::Number;
        case FieldType::Boolean: return Kind::Boolean;
        case FieldType::String:
        case FieldType::Choice:
        case FieldType::HttpDate: return Kind::String;
        case FieldType::List: {
            if (f.item.empty()) return Kind::None;
            Kind item = kindOf(f.item.front());
            if (item == Kind::Number) return Kind::Numbers;
            if (item == Kind::String) return Kind::Strings;
            // Entries are flat: each member a number, a switch or a text (the script). A list of
            // objects with a list of numbers or texts among its members (layers' retryOn) is a stack.
            if (f.item.front().type == FieldType::Object) {
                bool flat = true;
                for (const Field& m : f.item.front().members) {
                    const Kind k = kindOf(m);
                    if (k == Kind::Numbers || k == Kind::Strings)
                        flat = false;
                    else if (k != Kind::Number && k != Kind::Boolean && k != Kind::String)
                        return Kind::None;
                }
                return flat ? Kind::Entries : Kind::Stack;
            }
            return Kind::None;
        }
        case FieldType::Object:
            // One object whose members are each a number, a switch, a text or a list of those
            // (hedging) is a record; any other object, and a variant, is not in the v=1 format.
            for (const Field& m : f.members)
                if (!memberKind(kindOf(m))) return Kind::None;
            return Kind::Record;
        default: return Kind::None;  // a variant: not in the v=1 format
    }
}

const Field* linkField(const std::string& name) {
    const Field* f = retrylab::inputFields().find(name);
    return f && kindOf(*f) != Kind::None ? f : nullptr;
}

struct Unreadable {
    std::string reason;
};

int hexDigit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// decodeURIComponent: %XX escapes to bytes, which must be whole UTF-8 sequences made of escapes
// (no overlong form, no surrogate, nothing past U+10FFFF); anything else is left as it is.
// nullopt where JavaScript throws.
std::optional<std::string> decodeComponent(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    // The byte of the escape "%XX" at `at`, or -1 when there is none there.
    auto escaped = [&](std::size_t at) -> int {
        if (at + 2 >= text.size() || text[at] != '%') return -1;
        int hi = hexDigit(text[at + 1]), lo = hexDigit(text[at + 2]);
        return hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
    };
    for (std::size_t i = 0; i < text.size();) {
        if (text[i] != '%') {
            out += text[i++];
            continue;
        }
        int b = escaped(i);
        if (b < 0) return std::nullopt;
        i += 3;
        if (b < 0x80) {
            out += static_cast<char>(b);
            continue;
        }
        int n = (b & 0xE0) == 0xC0 ? 2 : (b & 0xF0) == 0xE0 ? 3 : (b & 0xF8) == 0xF0 ? 4 : 0;
        if (n == 0) return std::nullopt;
        std::uint32_t cp = static_cast<std::uint32_t>(b) & (n == 2 ? 0x1Fu : n == 3 ? 0x0Fu : 0x07u);
        std::string bytes(1, static_cast<char>(b));
        for (int k = 1; k < n; ++k) {
            int c = escaped(i);
            if (c < 0 || (c & 0xC0) != 0x80) return std::nullopt;
            i += 3;
            cp = (cp << 6) | (static_cast<std::uint32_t>(c) & 0x3Fu);
            bytes += static_cast<char>(c);
        }
        std::uint32_t least = n == 2 ? 0x80 : n == 3 ? 0x800 : 0x10000;
        if (cp < least || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return std::nullopt;
        out += bytes;
    }
    return out;
}

std::string decodeOrThrow(std::string_view text) {
    auto decoded = decodeComponent(text);
    if (!decoded) throw Unreadable{say("brokenEscape")};
    return *decoded;
}

std::string safeDecode(std::string_view text) {
    auto decoded = decodeComponent(text);
    return decoded ? *decoded : std::string(text);
}

// codec.js's NUMBER, from the table's decimal grammar: [sign] (digits [point [digits]] | point
// digits) [exponent [sign] digits], the signs, point and exponent marks the table's.
bool decimalText(const std::string& s) {
    const LinkFormat& f = F();
    std::size_t i = 0, n = s.size();
    auto digits = [&]() {
        std::size_t start = i;
        while (i < n && s[i] >= '0' && s[i] <= '9') ++i;
        return i - start;
    };
    auto mark = [&](const std::string& marks) {
        if (i < n && marks.find(s[i]) != std::string::npos) return ++i, true;
        return false;
    };
    mark(f.signs);
    if (mark(f.point)) {
        if (digits() == 0) return false;
    } else {
        if (digits() == 0) return false;
        if (mark(f.point)) digits();
    }
    if (mark(f.exponent)) {
        mark(f.signs);
        if (digits() == 0) return false;
    }
    return i == n;
}

// Number(text) for decimal text: correctly rounded, ±Infinity past the largest double.
double toNumber(const std::string& s) { return std::strtod(s.c_str(), nullptr); }

Value readNumber(const std::string& text, bool nullable) {
    if (nullable && text == F().none) return Value::null();
    if (!decimalText(text)) throw Unreadable{say(nullable ? "notNumberOrNone" : "notNumber")};
    return Value::number(toNumber(text));
}

Value readBoolean(const std::string& text) {
    if (text == "true" || text.empty()) return Value::boolean(true);  // a bare key reads as true
    if (text == "false") return Value::boolean(false);
    throw Unreadable{say("notBoolean")};
}

std::vector<std::string> split(std::string_view text, char sep) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (;;) {
        std::size_t at = text.find(sep, start);
        parts.emplace_back(text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
        if (at == std::string_view::npos) return parts;
        start = at + 1;
    }
}

std::vector<std::string> list(const std::string& raw) {
    return raw.empty() ? std::vector<std::string>{} : split(raw, F().items);
}

// A script entry's part names where they are not the member's own (the table's partNames).
std::string partName(const Field& m) {
    for (const auto& [member, part] : F().partNames)
        if (member == m.name) return part;
    return m.name;
}
std::string entryName(std::size_t i) { return say("entry", {{"n", std::to_string(i + 1)}}); }
std::string shownPart(const std::string& part) {
    std::string shown = decodeOrThrow(part);
    return shown.empty() ? say("empty") : shown;
}

struct EntryFormat {
    const Field* bare = nullptr;
    std::vector<const Field*> switches, named;
    std::string said;
};

EntryFormat entryFormat(const Field& item) {
    EntryFormat f;
    for (const Field& m : item.members)
        if (!f.bare && m.type == FieldType::Number) f.bare = &m;
    for (const Field& m : item.members) {
        if (m.type == FieldType::Boolean)
            f.switches.push_back(&m);
        else if (&m != f.bare)
            f.named.push_back(&m);
    }
    std::vector<std::string> parts;
    if (f.bare) parts.push_back(say("bare"));
    for (const Field* m : f.switches) parts.push_back(m->name);
    for (const Field* m : f.named) parts.push_back(partName(*m) + F().named);
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i > 0) f.said += i + 1 == parts.size() ? say("or") : ", ";
        f.said += parts[i];
    }
    return f;
}

bool allDigits(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

Value readEntries(const Field& field, const std::string& raw) {
    const EntryFormat f = entryFormat(field.item.front());
    Value entries = Value::array();
    std::vector<std::string> texts = list(raw);
    for (std::size_t i = 0; i < texts.size(); ++i) {
        Value entry = Value::object();
        std::set<std::string> seen;
        const std::string n = entryName(i);
        for (const std::string& part : split(texts[i], F().parts)) {
            std::size_t colon = part.find(F().named);
            bool isBare = colon == std::string::npos && f.bare && allDigits(part);
            std::string name = isBare ? f.bare->name : colon == std::string::npos ? part : part.substr(0, colon);
            if (seen.count(name)) throw Unreadable{say("entryTwice", {{"entry", n}, {"name", name}})};
            seen.insert(name);
            const Field* flag = nullptr;
            if (colon == std::string::npos)
                for (const Field* m : f.switches)
                    if (m->name == part) flag = m;
            const Field* member = nullptr;
            if (colon != std::string::npos)
                for (const Field* m : f.named)
                    if (partName(*m) == name) member = m;
            if (isBare) {
                entry.set(f.bare->name, Value::number(toNumber(part)));
            } else if (flag) {
                entry.set(flag->name, Value::boolean(true));
            } else if (member) {
                std::string text = decodeOrThrow(std::string_view(part).substr(colon + 1));
                entry.set(member->name,
                          member->type == FieldType::Number ? readNumber(text, false) : Value::string(text));
            } else {
                throw Unreadable{say("entryPart", {{"entry", n}, {"parts", f.said}, {"part", shownPart(part)}})};
            }
        }
        entries.push(std::move(entry));
    }
    return entries;
}

// A stack (codec.js's stackFormat): `none`, or entries joined by commas, each member
// `name:<text>` joined by "~", a list's items joined by ";"; an empty entry sets nothing.
Value readStackMember(const Field& m, const std::string& text) {
    switch (kindOf(m)) {
        case Kind::Number: return readNumber(decodeOrThrow(text), true);
        case Kind::Boolean: return readBoolean(decodeOrThrow(text));
        case Kind::String: return Value::string(decodeOrThrow(text));
        default: {
            Value items = Value::array();
            if (text.empty()) return items;
            for (const std::string& item : split(text, F().memberItems))
                items.push(kindOf(m) == Kind::Numbers ? readNumber(decodeOrThrow(item), false)
                                                      : Value::string(decodeOrThrow(item)));
            return items;
        }
    }
}

// One object's `name:value` members joined by "~" (codec.js's objectFormat): a stack's entry
// and a record alike; an empty text sets nothing. `subject` names it in a reason ("entry 2",
// or "" for the key itself).
Value readObject(const std::vector<Field>& members, const std::string& text, const std::string& subject) {
    Value object = Value::object();
    if (text.empty()) return object;
    const std::string lead = subject.empty() ? "" : subject + " ";
    for (const std::string& part : split(text, F().parts)) {
        std::size_t colon = part.find(F().named);
        const Field* member = nullptr;
        if (colon != std::string::npos)
            for (const Field& m : members)
                if (m.name == part.substr(0, colon)) member = &m;
        if (!member) throw Unreadable{lead + say("objectPart", {{"part", shownPart(part)}})};
        if (object.find(member->name)) throw Unreadable{lead + say("objectTwice", {{"name", member->name}})};
        try {
            object.set(member->name, readStackMember(*member, part.substr(colon + 1)));
        } catch (const Unreadable& e) {
            throw Unreadable{(subject.empty() ? say("its") : say("whose", {{"entry", subject}})) + " " + member->name +
                             " " + e.reason};
        }
    }
    return object;
}

Value readStack(const Field& field, const std::string& raw) {
    if (raw == F().none) return Value::null();
    Value stack = Value::array();
    std::vector<std::string> texts = list(raw);
    for (std::size_t i = 0; i < texts.size(); ++i)
        stack.push(readObject(field.item.front().members, texts[i], entryName(i)));
    return stack;
}

Value readValue(const Field& field, const std::string& raw) {
    switch (kindOf(field)) {
        case Kind::Number: return readNumber(decodeOrThrow(raw), true);
        case Kind::Boolean: return readBoolean(decodeOrThrow(raw));
        case Kind::String: return Value::string(decodeOrThrow(raw));
        case Kind::Numbers: {
            Value items = Value::array();
            for (const std::string& item : list(raw)) items.push(readNumber(decodeOrThrow(item), false));
            return items;
        }
        case Kind::Strings: {
            Value items = Value::array();
            for (const std::string& item : list(raw)) items.push(Value::string(decodeOrThrow(item)));
            return items;
        }
        case Kind::Entries: return readEntries(field, raw);
        case Kind::Stack: return readStack(field, raw);
        case Kind::Record: return raw == F().none ? Value::null() : readObject(field.members, raw, "");
        case Kind::None: break;
    }
    throw Unreadable{say("notInput")};
}

LinkProblem problem(std::string key, std::string value, std::string code, std::string reason) {
    return {std::move(key), std::move(value), std::move(code), std::move(reason)};
}

// The keys a link holds that are not the engine's inputs: the page's (`trace`, and trace F's
// `herdCallers`; retrysim reads their text but they change no run) and the comparison's.
bool isPageKey(const std::string& key) {
    for (const auto* keys : {&F().pageKeys, &F().compareKeys})
        if (std::find(keys->begin(), keys->end(), key) != keys->end()) return true;
    return false;
}

}  // namespace

std::string hashOf(std::string_view link) {
    auto space = [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; };
    while (!link.empty() && space(link.front())) link.remove_prefix(1);
    while (!link.empty() && space(link.back())) link.remove_suffix(1);
    std::size_t hash = link.find('#');
    return std::string(hash == std::string_view::npos ? link : link.substr(hash + 1));
}

bool isLinkInput(const std::string& name) { return linkField(name) != nullptr; }

ReadInputs readPairs(const std::vector<std::pair<std::string, std::string>>& pairs) {
    ReadInputs read;
    std::map<std::string, int> counts;
    for (const auto& pair : pairs) ++counts[pair.first];
    std::set<std::string> reported;
    for (const auto& [key, raw] : pairs) {
        const Field* field = linkField(key);
        if (!field) {
            // An input the v=1 format has no form for is named as such, not as unknown.
            const bool engineInput = retrylab::inputFields().find(key) != nullptr;
            read.problems.push_back(
                problem(key, safeDecode(raw), "unknown-field", say(engineInput ? "uncarried" : "notInput")));
            continue;
        }
        if (counts[key] > 1) {
            if (!reported.count(key))
                read.problems.push_back(problem(key, safeDecode(raw), "given-twice", say("givenTwice")));
            reported.insert(key);
            continue;
        }
        try {
            read.inputs.set(key, readValue(*field, raw));
        } catch (const Unreadable& e) {
            read.problems.push_back(problem(key, safeDecode(raw), "unreadable", e.reason));
        }
    }
    return read;
}

// The bytes of UTF-8 `text` that make its first `units` UTF-16 code units, and how many units
// it has in all: the page measures and cuts a link as JavaScript strings (text.length,
// text.slice(0, 40)). A byte that is not a continuation byte starts a character: one unit, two
// for a four-byte sequence (a surrogate pair). A pair split at the cut is left out whole.
namespace {
std::size_t utf16Units(std::string_view text, std::size_t units, std::size_t* cut) {
    std::size_t count = 0;
    *cut = text.size();
    for (std::size_t i = 0; i < text.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if ((c & 0xC0) == 0x80) continue;
        const std::size_t width = c >= 0xF0 ? 2 : 1;
        if (count <= units && count + width > units && *cut == text.size()) *cut = i;
        count += width;
    }
    return count;
}
}  // namespace

Link readLink(std::string_view linkText) {
    Link link;
    const std::string text = hashOf(linkText);
    std::size_t cut = 0;
    const std::size_t length = utf16Units(text, 40, &cut);
    if (length > F().maxLength) {
        link.problems.push_back(problem("link", text.substr(0, cut) + "…", "too-long",
                                        say("tooLong", {{"length", pageNumber(static_cast<double>(length))}})));
        return link;
    }
    std::vector<std::pair<std::string, std::string>> pairs;
    std::map<std::string, std::string> page;
    std::set<std::string> twice;
    std::string version = F().version;
    int versions = 0;
    for (const std::string& part : split(text, F().pairs)) {
        if (part.empty()) continue;
        std::size_t eq = part.find(F().equals);
        std::string rawKey = eq == std::string::npos ? part : part.substr(0, eq);
        std::string raw = eq == std::string::npos ? std::string() : part.substr(eq + 1);
        std::string key = safeDecode(rawKey);
        if (key == F().versionKey) {
            version = safeDecode(raw);
            ++versions;
        } else if (isPageKey(key)) {
            if (page.count(key) && !twice.count(key))
                link.problems.push_back(problem(key, safeDecode(raw), "given-twice", say("givenTwice")));
            if (page.count(key)) twice.insert(key);
            page[key] = safeDecode(raw);
        } else {
            pairs.emplace_back(key, raw);
        }
    }
    if (versions > 1) {
        link.problems = {problem(F().versionKey, version, "given-twice", say("versionTwice"))};
        return link;
    }
    if (version != F().version) {
        link.problems = {problem(F().versionKey, version, "link-version", say("otherVersion"))};
        return link;
    }
    link.read = true;
    for (const std::string& key : twice) page.erase(key);
    auto pageValue = [&](const char* key) { return page.count(key) ? page[key] : std::string(); };
    link.view = pageValue("view");
    link.of = pageValue("of");
    if (!link.view.empty() && link.view != "compare") {
        link.problems.push_back(
            problem("view", link.view, "not-a-view",
                    link.view == "fleet"
                        ? "is the fleet's view, which retrysim reads as a fleet request file (--fleet), not as a link"
                        : "is not a view of Retry Lab (compare, or none for a single run)"));
        link.view.clear();
    }
    if (link.view != "compare") {
        for (const char* key : {"of", "client", "after.client"})
            if (page.count(key))
                link.problems.push_back(problem(key, page[key], "only-with", "is used only with view=compare"));
        ReadInputs read = readPairs(pairs);
        link.before = std::move(read.inputs);
        link.problems.insert(link.problems.end(), read.problems.begin(), read.problems.end());
        return link;
    }
    if (link.of == "fleet") {
        // The page's reader (web/compare/fleet.js): a preset or a trace is a single run's.
        // The keys of a comparison of single runs: its presets (the comparison's keys but view and
        // of) and the page's own.
        std::vector<std::string> singleRunKeys;
        for (const std::string& key : F().compareKeys)
            if (key != "view" && key != "of") singleRunKeys.push_back(key);
        singleRunKeys.insert(singleRunKeys.end(), F().pageKeys.begin(), F().pageKeys.end());
        for (const std::string& key : singleRunKeys)
            if (page.count(key)) link.problems.push_back(problem(key, page[key], "only-with", say("singleRunsOnly")));
        const std::string prefix = F().after;
        for (auto& pair : pairs) {
            if (pair.first.compare(0, prefix.size(), prefix) == 0)
                link.fleetAfter.emplace_back(pair.first.substr(prefix.size()), pair.second);
            else
                link.fleetBefore.push_back(std::move(pair));
        }
        return link;
    }
    if (!link.of.empty()) {
        link.problems.push_back(problem("of", link.of, "not-a-view", say("notCompared")));
        return link;
    }
    for (const std::string& key : F().pageKeys)
        if (page.count(key)) link.problems.push_back(problem(key, page[key], "only-with", say("singleRunOnly")));
    link.client = pageValue("client");
    link.afterClient = pageValue("after.client");
    std::vector<std::pair<std::string, std::string>> before, after;
    const std::string prefix = F().after;
    for (auto& pair : pairs) {
        if (pair.first.compare(0, prefix.size(), prefix) == 0)
            after.emplace_back(pair.first.substr(prefix.size()), pair.second);
        else
            before.push_back(std::move(pair));
    }
    ReadInputs readBefore = readPairs(before);
    ReadInputs readAfter = readPairs(after);
    link.before = std::move(readBefore.inputs);
    link.after = std::move(readAfter.inputs);
    link.problems.insert(link.problems.end(), readBefore.problems.begin(), readBefore.problems.end());
    for (LinkProblem& p : readAfter.problems) {
        p.key = prefix + p.key;
        link.problems.push_back(std::move(p));
    }
    return link;
}

std::string numberText(double n) {
    if (n == 0) return "0";  // -0 too
    if (n != n) return "NaN";
    if (n == 1.0 / 0.0) return "Infinity";
    if (n == -1.0 / 0.0) return "-Infinity";
    // The shortest digits that read back as n, then JavaScript's Number::toString layout.
    char buffer[64];
    auto written = std::to_chars(buffer, buffer + sizeof buffer, n, std::chars_format::scientific);
    std::string sci(buffer, written.ptr);
    std::string sign;
    if (sci[0] == '-') {
        sign = "-";
        sci.erase(0, 1);
    }
    std::size_t e = sci.find('e');
    std::string digits = sci.substr(0, e);
    digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
    int exponent = std::atoi(sci.c_str() + e + 1);
    const int k = static_cast<int>(digits.size());
    const int point = exponent + 1;  // JavaScript's n: the decimal point after this many digits
    std::string out;
    if (k <= point && point <= 21) {
        out = digits + std::string(static_cast<std::size_t>(point - k), '0');
    } else if (0 < point && point <= 21) {
        out = digits.substr(0, static_cast<std::size_t>(point)) + "." + digits.substr(static_cast<std::size_t>(point));
    } else if (-6 < point && point <= 0) {
        out = "0." + std::string(static_cast<std::size_t>(-point), '0') + digits;
    } else {
        std::string mantissa = k == 1 ? digits : digits.substr(0, 1) + "." + digits.substr(1);
        out = mantissa + "e" + (point - 1 >= 0 ? "+" : "-") + std::to_string(std::abs(point - 1));
    }
    return sign + out;
}

std::string escapeText(const std::string& text) {
    static const char hex[] = "0123456789ABCDEF";
    std::string out;
    for (char ch : text) {
        auto c = static_cast<unsigned char>(ch);
        // encodeURIComponent's unescaped marks, less those the table escapes too (FORMAT.escaped).
        const bool mark = std::string_view("-_.!~*'()").find(ch) != std::string_view::npos &&
                          F().escaped.find(ch) == std::string::npos;
        bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || mark;
        if (plain) {
            out += ch;
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

namespace {

// One object's members as `name:value` joined by "~" (codec.js's objectFormat write): a member is
// left out when leaving it out gives the same value, as far as the table tells: equal to its
// own default, or, having none, to the run's input of that name (`inputs`, for a stack's layer).
std::string objectText(const std::vector<Field>& members, const Value& object, const Value* inputs) {
    auto number = [](const Value& v) { return v.isNull() ? F().none : numberText(v.asNumber()); };
    std::string out;
    for (const Field& m : members) {
        const Value* v = object.find(m.name);
        if (!v) continue;
        if (m.defaultValue.kind != retrylab::Literal::Kind::None) {
            if (retrylab::sameJson(*v, retrylab::defaultValueOf(m))) continue;
        } else if (inputs && inputs->find(m.name) && retrylab::sameJson(*v, *inputs->find(m.name))) {
            continue;
        }
        std::string text;
        const Kind k = kindOf(m);
        if (k == Kind::Number)
            text = number(*v);
        else if (k == Kind::Boolean)
            text = v->asBool() ? "true" : "false";
        else if (k == Kind::String)
            text = escapeText(v->asString());
        else
            for (std::size_t i = 0; i < v->asArray().size(); ++i)
                text += (i ? std::string(1, F().memberItems) : "") +
                        (k == Kind::Numbers ? number(v->asArray()[i]) : escapeText(v->asArray()[i].asString()));
        out += (out.empty() ? std::string() : std::string(1, F().parts)) + m.name + F().named + text;
    }
    return out;
}

}  // namespace

std::string valueText(const std::string& name, const Value& value, const Value* inputs) {
    const Field* field = linkField(name);
    if (!field) return "";
    auto number = [](const Value& v) { return v.isNull() ? F().none : numberText(v.asNumber()); };
    auto joined = [](const Value& items, auto each) {
        std::string out;
        for (std::size_t i = 0; i < items.asArray().size(); ++i)
            out += (i ? std::string(1, F().items) : std::string()) + each(items.asArray()[i]);
        return out;
    };
    switch (kindOf(*field)) {
        case Kind::Number: return number(value);
        case Kind::Boolean: return value.asBool() ? "true" : "false";
        case Kind::String: return escapeText(value.asString());
        case Kind::Numbers: return joined(value, number);
        case Kind::Strings: return joined(value, [](const Value& v) { return escapeText(v.asString()); });
        case Kind::Entries: {
            const EntryFormat f = entryFormat(field->item.front());
            return joined(value, [&](const Value& entry) {
                std::vector<std::string> parts;
                if (f.bare && entry.find(f.bare->name)) parts.push_back(number(*entry.find(f.bare->name)));
                for (const Field* m : f.switches) {
                    const Value* on = entry.find(m->name);
                    if (on && on->kind() == Value::Kind::Bool && on->asBool()) parts.push_back(m->name);
                }
                for (const Field* m : f.named) {
                    const Value* v = entry.find(m->name);
                    if (!v) continue;
                    parts.push_back(partName(*m) + F().named +
                                    (m->type == FieldType::Number ? number(*v) : escapeText(v->asString())));
                }
                std::string out;
                for (std::size_t i = 0; i < parts.size(); ++i)
                    out += (i ? std::string(1, F().parts) : std::string()) + parts[i];
                return out;
            });
        }
        case Kind::Stack:
            return value.isNull() ? F().none : joined(value, [&](const Value& entry) {
                return objectText(field->item.front().members, entry, inputs);
            });
        case Kind::Record: return value.isNull() ? F().none : objectText(field->members, value, nullptr);
        case Kind::None: break;
    }
    return "";
}

// --- a comparison of two fleet runs --------------------------------------------------------

namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

// The fleet request's fields as dotted paths, each with the type a link's text is read as
// (web/fleet/model.js fleetTable, from the same table, fleetFields(), that fleetSchema() gives
// the page): a variant's members are rows of their own and a path two variants share keeps the
// first's; the variant's name (trigger.kind) is text. "object" for an object or a variant.
void fleetRows(const std::vector<retrylab::Field>& fields, const std::string& prefix,
               std::map<std::string, std::string>& types) {
    using retrylab::FieldType;
    for (const retrylab::Field& f : fields) {
        const std::string path = prefix.empty() ? f.name : prefix + "." + f.name;
        std::string type = "string";
        if (f.type == FieldType::Object || f.type == FieldType::Variant)
            type = "object";
        else if (f.type == FieldType::Number)
            type = f.nullable ? "number-or-none" : "number";
        else if (f.type == FieldType::Boolean)
            type = "boolean";
        else if (f.type == FieldType::List)
            // A list of numbers (trigger.servers, a fault's servers: server indices) reads each
            // item as a number, as the page's readValue does (web/fleet/model.js).
            type = !f.item.empty() && f.item.front().type == FieldType::Number ? "number-list" : "list";
        types.emplace(path, type);
        if (f.type == FieldType::Object) fleetRows(f.members, path, types);
        if (f.type == FieldType::Variant) {
            if (!f.discriminator.empty()) types.emplace(path + "." + f.discriminator, "string");
            for (const retrylab::Variant& v : f.variants) fleetRows(v.members, path, types);
        }
    }
}
const std::map<std::string, std::string>& fleetTypes() {
    static const std::map<std::string, std::string> types = [] {
        std::map<std::string, std::string> out;
        fleetRows(retrylab::fleetFields().fields, "", out);
        return out;
    }();
    return types;
}
std::string fleetTypeOf(const std::string& path) {
    auto it = fleetTypes().find(path);
    return it == fleetTypes().end() ? std::string() : it->second;
}
// A fleet path whose field is a stack of layers (`policy.layers`, docs/layers.md §9): its field,
// read as the single run's `layers=` is (readStack; web/fleet/model.js reads it the same way).
const Field* fleetStackField(const std::string& path) {
    static const std::map<std::string, const Field*> stacks = [] {
        std::map<std::string, const Field*> out;
        std::vector<std::pair<std::string, const std::vector<Field>*>> todo{{"", &retrylab::fleetFields().fields}};
        while (!todo.empty()) {
            auto [prefix, fields] = todo.back();
            todo.pop_back();
            for (const Field& f : *fields) {
                const std::string here = prefix.empty() ? f.name : prefix + "." + f.name;
                if (kindOf(f) == Kind::Stack) out.emplace(here, &f);
                if (f.type == retrylab::FieldType::Object) todo.emplace_back(here, &f.members);
            }
        }
        return out;
    }();
    auto it = stacks.find(path);
    return it == stacks.end() ? nullptr : it->second;
}

bool lowerWord(const std::string& s) {
    if (s.empty()) return false;
    for (char c : s)
        if (c < 'a' || c > 'z') return false;
    return true;
}

const Value* atPath(const Value& v, const std::vector<std::string>& keys) {
    const Value* here = &v;
    for (const std::string& k : keys) {
        if (here->kind() != Value::Kind::Object) return nullptr;
        here = here->find(k);
        if (!here) return nullptr;
    }
    return here;
}

// A copy of `obj` with the path set to `value` (objects on the way copied, made where missing
// or not objects): the page's setPath.
Value withPath(const Value& obj, const std::vector<std::string>& keys, std::size_t i, const Value& value) {
    Value out = Value::object();
    bool found = false;
    if (obj.kind() == Value::Kind::Object) {
        for (const Value::Member& m : obj.asObject()) {
            if (m.key == keys[i]) {
                found = true;
                out.set(m.key, i + 1 == keys.size() ? value : withPath(m.value, keys, i + 1, value));
            } else {
                out.set(m.key, m.value);
            }
        }
    }
    if (!found) out.set(keys[i], i + 1 == keys.size() ? value : withPath(Value::null(), keys, i + 1, value));
    return out;
}

// JavaScript's String.prototype.trim() for the link's ASCII white space, and Number(text):
// decimal text, or 0x / 0o / 0b integers.
std::string trimmed(const std::string& s) {
    const char* space = " \t\n\r\f\v";
    std::size_t a = s.find_first_not_of(space);
    if (a == std::string::npos) return "";
    return s.substr(a, s.find_last_not_of(space) - a + 1);
}
bool jsNumber(const std::string& raw, double& out) {
    const std::string t = trimmed(raw);
    if (t.empty()) return false;
    if (t.size() > 2 && t[0] == '0' &&
        (t[1] == 'x' || t[1] == 'X' || t[1] == 'o' || t[1] == 'O' || t[1] == 'b' || t[1] == 'B')) {
        const int base = (t[1] == 'x' || t[1] == 'X') ? 16 : (t[1] == 'o' || t[1] == 'O') ? 8 : 2;
        double n = 0;
        for (std::size_t i = 2; i < t.size(); ++i) {
            int d = hexDigit(t[i]);
            if (d < 0 || d >= base) return false;
            n = n * base + d;
        }
        out = n;
        return std::isfinite(n);
    }
    if (!decimalText(t)) return false;
    out = toNumber(t);
    return std::isfinite(out);
}

// One side's pairs as the page's parseFleetLink reads them.
Value readFleetSide(const Pairs& pairs, std::vector<LinkProblem>& problems) {
    Value request = Value::object();
    std::map<std::string, int> times;
    for (const auto& pair : pairs) ++times[pair.first];
    std::set<std::string> said;
    for (const auto& [key, raw] : pairs) {
        if (key == "view") continue;
        if (times[key] > 1) {
            if (!said.count(key)) problems.push_back(problem(key, safeDecode(raw), "given-twice", say("givenTwice")));
            said.insert(key);
            continue;
        }
        if (key == F().versionKey) {
            if (safeDecode(raw) != F().version) {
                problems = {problem(key, safeDecode(raw), "link-version", say("otherVersion"))};
                return Value::object();
            }
            continue;
        }
        const std::vector<std::string> keys = split(key, '.');
        // A gate (gates.<name>, an object of the table's gates) is "on" or "null".
        if (keys.size() == 2 && keys[0] == "gates" && lowerWord(keys[1]) && fleetTypeOf(key) == "object") {
            if (raw == F().gateOn) {
                const Value* have = atPath(request, keys);
                request =
                    withPath(request, keys, 0, have && have->kind() == Value::Kind::Object ? *have : Value::object());
            } else if (raw == F().fleetNull) {
                request = withPath(request, keys, 0, Value::null());
            } else {
                problems.push_back(problem(key, safeDecode(raw), "unreadable", say("gateValue")));
            }
            continue;
        }
        const std::string type = fleetTypeOf(key);
        if (type == "object") {
            if (raw == F().fleetNull)
                request = withPath(request, keys, 0, Value::null());
            else
                problems.push_back(problem(key, safeDecode(raw), "unreadable", say("objectValue")));
            continue;
        }
        if (type.empty()) {
            problems.push_back(problem(key, safeDecode(raw), "unknown-field", say("notFleetField")));
            continue;
        }
        Value value;
        // README: `none` is written wherever the engine allows none (server.workers=none).
        if (raw == F().fleetNull || (raw == F().none && type == "number-or-none")) {
            value = Value::null();
        } else if (type == "number" || type == "number-or-none") {
            double n = 0;
            if (!jsNumber(raw, n)) {
                problems.push_back(problem(key, safeDecode(raw), "unreadable", say("notNumber")));
                continue;
            }
            value = Value::number(n);
        } else if (type == "boolean") {
            if (raw != "true" && raw != "false") {
                problems.push_back(problem(key, safeDecode(raw), "unreadable", say("notBoolean")));
                continue;
            }
            value = Value::boolean(raw == "true");
        } else if (const Field* stack = fleetStackField(key)) {
            try {
                value = readStack(*stack, raw);
            } catch (const Unreadable& e) {
                problems.push_back(problem(key, safeDecode(raw), "unreadable", e.reason));
                continue;
            }
        } else if (type == "list" || type == "number-list") {
            value = Value::array();
            bool numbers = true;
            if (!raw.empty())
                for (const std::string& item : split(raw, F().items)) {
                    double n = 0;
                    if (type == "list")
                        value.push(Value::string(safeDecode(item)));
                    else if (jsNumber(safeDecode(item), n))
                        value.push(Value::number(n));
                    else
                        numbers = false;
                }
            if (!numbers) {
                problems.push_back(problem(key, safeDecode(raw), "unreadable", say("notNumberList")));
                continue;
            }
        } else {
            value = Value::string(safeDecode(raw));
        }
        request = withPath(request, keys, 0, value);
    }
    return request;
}

void fleetLeaves(const Value& v, const std::string& prefix, std::vector<std::pair<std::string, Value>>& out) {
    for (const Value::Member& m : v.asObject()) {
        std::string path = prefix.empty() ? m.key : prefix + "." + m.key;
        if (m.value.kind() == Value::Kind::Object && !m.value.asObject().empty())
            fleetLeaves(m.value, path, out);
        else
            out.emplace_back(path, m.value);
    }
}

}  // namespace

FleetSides readFleetSides(const Link& link) {
    FleetSides sides;
    std::vector<LinkProblem> before, after;
    sides.before = readFleetSide(link.fleetBefore, before);
    Value afterOwn = readFleetSide(link.fleetAfter, after);
    // The after request: the before request with the after side's leaves set on it; a gate
    // switched on (an empty object) that the before side has keeps its fields.
    sides.after = sides.before;
    std::vector<std::pair<std::string, Value>> over;
    fleetLeaves(afterOwn, "", over);
    for (const auto& [path, value] : over) {
        const std::vector<std::string> keys = split(path, '.');
        const Value* have = atPath(sides.after, keys);
        bool on = value.kind() == Value::Kind::Object && value.asObject().empty();
        if (on && have && have->kind() == Value::Kind::Object) continue;
        sides.after = withPath(sides.after, keys, 0, value);
    }
    sides.problems = before;
    for (LinkProblem& p : after) {
        p.key = F().after + p.key;
        sides.problems.push_back(std::move(p));
    }
    return sides;
}

}  // namespace retrysim
