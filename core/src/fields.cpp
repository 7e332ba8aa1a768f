// One validator for any table of fields (fields.hpp): a raw Value in, the normalized Value (the
// echo) and every error out. Work is bounded by the sizes the table allows: a list longer than
// its limit is one error and its items are not read, and only the first few bad items of a
// list are named one by one.
#include "retrylab/fields.hpp"
#include "retrylab/text.hpp"

#include <cmath>
#include <cstdint>
#include <utility>

#include "format.hpp"
#include "http_date.hpp"

namespace retrylab {

namespace {

constexpr int kItemErrorsNamed = 10;  // per list; the rest are counted in one more error
// Whether a text is an HTTP-date does not depend on the reference (it only picks the century
// of an rfc850 two-digit year), so the check reads every date against the default start date.
constexpr std::int64_t kDateReference = 1795946400;  // Sun, 29 Nov 2026 10:00:00 GMT

RETRYLAB_COLD std::string quoted(const std::string& s) {
    constexpr std::size_t shown = 40;
    if (s.size() <= shown) return "\"" + s + "\"";
    std::size_t cut = shown;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // keep UTF-8 whole
    return "\"" + s.substr(0, cut) + "…\" (" + formatInt(static_cast<std::int64_t>(s.size())) + " bytes)";
}

std::size_t codePoints(const std::string& s) {
    std::size_t count = 0;
    for (char c : s) count += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return count;
}

// "\"a\", \"b\" or \"c\"".
template <typename Names>
RETRYLAB_COLD std::string orList(const Names& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
        out += "\"" + names[i] + "\"";
    }
    return out;
}

RETRYLAB_COLD std::vector<std::string> choiceNames(const std::vector<Choice>& choices) {
    std::vector<std::string> names;
    for (const Choice& c : choices) names.push_back(c.name);
    return names;
}

RETRYLAB_COLD std::vector<std::string> memberNames(const std::vector<Field>& members) {
    std::vector<std::string> names;
    for (const Field& m : members) names.push_back(m.name);
    return names;
}

bool plainIdentifier(const std::string& key) {
    if (key.empty()) return false;
    for (std::size_t i = 0; i < key.size(); ++i) {
        char c = key[i];
        bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
        if (!letter && !(i > 0 && c >= '0' && c <= '9')) return false;
    }
    return true;
}

// A key as a JSON string: quotes, backslashes and control characters escaped.
RETRYLAB_COLD std::string jsonString(const std::string& s) {
    static const char hex[] = "0123456789abcdef";
    std::string out = "\"";
    for (char ch : s) {
        auto c = static_cast<unsigned char>(ch);
        if (c == '"')
            out += "\\\"";
        else if (c == '\\')
            out += "\\\\";
        else if (c == '\n')
            out += "\\n";
        else if (c == '\r')
            out += "\\r";
        else if (c == '\t')
            out += "\\t";
        else if (c < 0x20 || c == 0x7F) {
            out += "\\u00";
            out += hex[c >> 4];
            out += hex[c & 15];
        } else {
            out += ch;
        }
    }
    return out + "\"";
}

RETRYLAB_COLD std::string literalWords(const Literal& l) {
    switch (l.kind) {
        case Literal::Kind::Boolean: return l.flag ? "true" : "false";
        case Literal::Kind::Number: return formatMs(l.x, 6);
        case Literal::Kind::String: return "\"" + l.text + "\"";
        case Literal::Kind::Null: return "null";
        default: return "its default";
    }
}

// "a whole number from 0 to 100".
RETRYLAB_COLD std::string numberWords(const Field& f) {
    return std::string(f.whole ? "a whole number" : "a number") + " from " + formatMs(f.lo, 6) + " to " +
           formatMs(f.hi, 6);
}

// Where a value sits ("script[3].status"), written out only when an error names it: a valid
// input makes no path text at all (issue 18: the paths of a 1,000-answer script's members, made
// for every answer, were a fifth of a sweep over it in WebAssembly).
class Path {
public:
    Path() = default;  // the top level: ""
    Path(const Path& parent, const std::string& key) : parent_(&parent), key_(&key) {}
    Path(const Path& parent, std::size_t index) : parent_(&parent), index_(index) {}

    RETRYLAB_COLD std::string text() const {
        if (!parent_) return {};
        return key_ ? memberPath(parent_->text(), *key_) : itemPath(parent_->text(), index_);
    }

private:
    const Path* parent_ = nullptr;
    const std::string* key_ = nullptr;  // a member's name; null: an item, at index_
    std::size_t index_ = 0;
};

class Checker {
public:
    explicit Checker(std::vector<InputError>& errors) : errors_(errors) {}

    // message = subject + " " + detail; subject is usually the path itself.
    RETRYLAB_COLD void fail(const std::string& path, const char* code, const std::string& subject,
                            const std::string& detail) {
        errors_.push_back({path, code, subject + " " + detail, detail});
    }
    void fail(const std::string& path, const char* code, const std::string& detail) { fail(path, code, path, detail); }
    void fail(const Path& path, const char* code, const std::string& detail) { fail(path.text(), code, detail); }

    // Checks v against f; on success writes its normalized form to out.
    bool check(const Field& f, const Value& v, const Path& path, Value& out) {
        if (f.nullable && v.isNull()) {
            out = Value::null();
            return true;
        }
        switch (f.type) {
            case FieldType::Boolean: return boolean(f, v, path, out);
            case FieldType::Number: return number(f, v, path, out);
            case FieldType::String: return string(f, v, path, out);
            case FieldType::Choice: return choice(f, v, path, out);
            case FieldType::HttpDate: return httpDate(f, v, path, out);
            case FieldType::List: return list(f, v, path, out);
            case FieldType::Object: return object(f, v, path, out);
            case FieldType::Variant: return variant(f, v, path, out);
        }
        return false;
    }

    // The members of one object: presence rules, defaults, each member checked. `raw` is an
    // object whose unknown keys have been reported.
    bool members(const std::vector<Field>& fields, const Value& raw, const Path& parent, Value& out, bool sparse,
                 bool defaultsApply) {
        bool ok = true;
        for (const Field& f : fields) {
            const Path path(parent, f.name);
            const Value* given = raw.find(f.name);
            if (!f.onlyWhen.field.empty() && !holds(f.onlyWhen, fields, raw)) {
                if (given) {
                    fail(path, "only-with",
                         "is used only with " + f.onlyWhen.field + " " + literalWords(f.onlyWhen.value) +
                             (f.onlyWhen.why.empty() ? "" : "; " + f.onlyWhen.why) + ".");
                    ok = false;
                }
                continue;
            }
            if (!given) {
                bool requiredHere = !f.requiredWhen.field.empty() && holds(f.requiredWhen, fields, raw);
                if (requiredHere) {
                    fail(path, "missing", "is missing: " + f.requiredWhen.why + ".");
                    ok = false;
                } else if (f.required || (!defaultsApply && !f.sparseMember)) {
                    // A sparse member reads as its default when absent, in any variant.
                    fail(path, "missing", "is missing.");
                    ok = false;
                } else if (f.defaultValue.kind != Literal::Kind::None && !sparse && !f.sparseMember) {
                    out.set(f.name, defaultValueOf(f));
                }
                continue;
            }
            Value member;
            if (!check(f, *given, path, member)) {
                ok = false;
                continue;
            }
            // A filled object's default is its members' defaults (defaultValueOf), not the literal's empty object.
            if ((sparse || f.sparseMember) && f.defaultValue.kind != Literal::Kind::None &&
                (f.defaultValue.kind == Literal::Kind::Filled ? sameValue(defaultValueOf(f), member)
                                                              : f.defaultValue.matches(member)))
                continue;
            out.set(f.name, std::move(member));
        }
        return ok;
    }

private:
    // A number the row allows: finite, whole if it must be, within its range.
    static bool inRange(const Field& f, double x) {
        return std::isfinite(x) && !(f.whole && std::floor(x) != x) && x >= f.lo && x <= f.hi;
    }

    // A valid number or choice, normalized (-0 read as 0); false for anything else, which
    // check() then reports.
    static bool quick(const Field& f, const Value& v, Value& out) {
        if (f.type == FieldType::Number && v.kind() == Value::Kind::Number) {
            double x = v.asNumber();
            if (!inRange(f, x)) return false;
            out = Value::number(x == 0 ? 0.0 : x);
            return true;
        }
        if (f.type == FieldType::Choice && v.kind() == Value::Kind::String && f.valueOf(v.asString()) >= 0) {
            out = Value::string(v.asString());
            return true;
        }
        return false;
    }

    // Whether a presence rule holds: the sibling as given, or its default when absent.
    static bool holds(const Presence& p, const std::vector<Field>& fields, const Value& raw) {
        if (const Value* given = raw.find(p.field)) return p.value.matches(*given);
        for (const Field& f : fields)
            if (f.name == p.field) return p.value.matches(defaultValueOf(f));
        return false;
    }

    RETRYLAB_COLD bool wrongType(const Field& f, const Value& v, const Path& path, const std::string& what) {
        fail(path, "wrong-type",
             "must be " + std::string(f.nullable ? "null (none) or " : "") + what + "; got " + describeValue(v) + ".");
        return false;
    }

    bool boolean(const Field& f, const Value& v, const Path& path, Value& out) {
        if (v.kind() != Value::Kind::Bool) return wrongType(f, v, path, "true or false");
        out = Value::boolean(v.asBool());
        return true;
    }

    bool number(const Field& f, const Value& v, const Path& path, Value& out) {
        if (v.kind() != Value::Kind::Number) return wrongType(f, v, path, numberWords(f));
        double x = v.asNumber();
        if (quick(f, v, out)) return true;
        const char* code = !std::isfinite(x)               ? (std::isnan(x) ? "wrong-type" : "out-of-range")
                           : f.whole && std::floor(x) != x ? "not-whole"
                                                           : "out-of-range";
        fail(path, code, "must be " + numberWords(f) + "; got " + describeValue(v) + ".");
        return false;
    }

    bool string(const Field& f, const Value& v, const Path& path, Value& out) {
        if (v.kind() != Value::Kind::String) return wrongType(f, v, path, "a string");
        if (f.minLength > 0 || f.maxLength > 0) {
            std::size_t n = codePoints(v.asString());
            auto got = [n] { return "; got " + formatInt(static_cast<std::int64_t>(n)) + "."; };
            if (f.minLength > 0 && (n < f.minLength || n > f.maxLength)) {
                fail(path, n < f.minLength ? "too-short" : "too-long",
                     "must be " + formatInt(static_cast<std::int64_t>(f.minLength)) + " to " +
                         formatInt(static_cast<std::int64_t>(f.maxLength)) + " characters long" + got());
                return false;
            }
            if (f.maxLength > 0 && n > f.maxLength) {
                fail(path, "too-long",
                     "may be at most " + formatInt(static_cast<std::int64_t>(f.maxLength)) + " characters" + got());
                return false;
            }
        }
        out = Value::string(v.asString());
        return true;
    }

    bool choice(const Field& f, const Value& v, const Path& path, Value& out) {
        if (quick(f, v, out)) return true;
        fail(path, v.kind() == Value::Kind::String ? "not-a-choice" : "wrong-type",
             "must be one of " + orList(choiceNames(f.choices)) + "; got " + describeValue(v) + ".");
        return false;
    }

    bool httpDate(const Field& f, const Value& v, const Path& path, Value& out) {
        if (v.kind() != Value::Kind::String) return wrongType(f, v, path, "a string");
        if (!parseHttpDate(v.asString(), kDateReference)) {
            fail(path, "bad-date",
                 "must be an HTTP-date such as \"Sun, 29 Nov 2026 10:00:00 GMT\"; got " + describeValue(v) + ".");
            return false;
        }
        out = Value::string(v.asString());
        return true;
    }

    bool list(const Field& f, const Value& v, const Path& path, Value& out) {
        if (v.kind() != Value::Kind::Array) return wrongType(f, v, path, "a list of " + f.itemWords);
        const std::size_t size = v.listSize();
        if (f.maxLength > 0 && size > f.maxLength) {
            fail(path, "too-many",
                 "may hold at most " + formatInt(static_cast<std::int64_t>(f.maxLength)) + " " + f.itemWords +
                     "; got " +
                     (size > f.maxLength + 1 ? std::string("more") : formatInt(static_cast<std::int64_t>(size))) + ".");
            return false;
        }
        if (size < f.minLength) {
            fail(path, "too-few",
                 f.minLength == 1
                     ? "needs at least one " + f.itemNoun + "."
                     : "needs at least " + formatInt(static_cast<std::int64_t>(f.minLength)) + " " + f.itemWords + ".");
            return false;
        }
        const Field& itemField = f.item.front();
        // A list of numbers kept as one block (Value::numbers(): the draws, up to 100,000) is
        // checked in one loop and echoed as one block; a bad item sends it down the path below,
        // which names it as before.
        if (v.isNumberList() && itemField.type == FieldType::Number && !f.distinct) {
            const std::vector<double>& given = v.asNumbers();
            const double lo = itemField.lo, hi = itemField.hi;
            const bool whole = itemField.whole;
            std::size_t valid = 0;
            for (; valid < size; ++valid) {
                const double x = given[valid];
                // x >= lo && x <= hi is false for NaN; the infinities are out of every row's range.
                if (!(x >= lo && x <= hi) || !std::isfinite(x) || (whole && std::floor(x) != x)) break;
            }
            if (valid == size) {
                std::vector<double> numbers(given);
                for (double& x : numbers)
                    if (x == 0) x = 0.0;  // -0 read as 0, as quick() does
                out = Value::numbers(std::move(numbers));
                return true;
            }
        }
        const Value::Array& items = v.asArray();
        Value::Array good;
        good.reserve(items.size());
        int bad = 0;
        for (std::size_t i = 0; i < items.size(); ++i) {
            std::size_t before = errors_.size();
            Value item;
            // A valid number or name passes without a path or a sentence being made: a list
            // may hold 100,000 of them.
            bool valid = quick(itemField, items[i], item) || check(itemField, items[i], Path(path, i), item);
            if (valid && f.distinct) {
                for (const Value& earlier : good) {
                    if (!sameValue(earlier, item)) continue;
                    std::string words =
                        item.kind() == Value::Kind::String ? "\"" + item.asString() + "\"" : describeValue(item);
                    fail(Path(path, i), "repeated", "repeats " + words + "; each " + f.itemNoun + " may appear once.");
                    break;
                }
            }
            if (errors_.size() == before) {
                good.push_back(std::move(item));
                continue;
            }
            if (++bad > kItemErrorsNamed) errors_.resize(before);
        }
        if (bad > kItemErrorsNamed)
            fail(path, "more-bad-items",
                 "has " + formatInt(bad - kItemErrorsNamed) + " more bad items not listed here.");
        if (bad > 0) return false;
        out = Value::array(std::move(good));
        return true;
    }

    // The members of v that are neither `first` (a variant's discriminator, or null) nor one of
    // `fields`, each an error; `words()` begins its sentence. The names and words are made only
    // for an error.
    template <typename Words>
    void unknownMembers(const Value& v, const std::string* first, const std::vector<Field>& fields, const Path& path,
                        Words words) {
        for (const Value::Member& m : v.asObject()) {
            bool isKnown = first && m.key == *first;
            for (const Field& k : fields) isKnown = isKnown || m.key == k.name;
            if (isKnown) continue;
            std::vector<std::string> known = memberNames(fields);
            if (first) known.insert(known.begin(), *first);
            fail(memberPath(path.text(), m.key), "unknown-field", words() + " " + orList(known) + ".");
        }
    }

    RETRYLAB_COLD bool notObject(const Field& f, const Value& v, const Path& path) {
        return wrongType(f, v, path, f.example.empty() ? "an object" : "an object such as " + f.example);
    }

    bool object(const Field& f, const Value& v, const Path& path, Value& out) {
        if (v.kind() != Value::Kind::Object) return notObject(f, v, path);
        std::size_t before = errors_.size();
        unknownMembers(v, nullptr, f.members, path, [&] {
            return f.memberWords.empty() ? "is not a member of " + path.text() + "; it may have" : f.memberWords;
        });
        Value normalized = Value::object();
        bool ok = members(f.members, v, path, normalized, f.sparseEcho, true) && errors_.size() == before;
        if (ok) out = std::move(normalized);
        return ok;
    }

    bool variant(const Field& f, const Value& v, const Path& path, Value& out) {
        if (v.kind() != Value::Kind::Object) return notObject(f, v, path);
        std::size_t chosen = 0;
        if (const Value* d = v.find(f.discriminator)) {
            chosen = f.variants.size();
            for (std::size_t i = 0; i < f.variants.size(); ++i)
                if (d->kind() == Value::Kind::String && d->asString() == f.variants[i].name) chosen = i;
            if (chosen == f.variants.size()) {
                std::vector<std::string> names;
                for (const Variant& option : f.variants) names.push_back(option.name);
                fail(memberPath(path.text(), f.discriminator),
                     d->kind() == Value::Kind::String ? "not-a-choice" : "wrong-type",
                     "must be one of " + orList(names) + "; got " + describeValue(*d) + ".");
                return false;
            }
        }
        const Variant& option = f.variants[chosen];
        std::size_t before = errors_.size();
        unknownMembers(v, &f.discriminator, option.members, path, [&] {
            return "is not a member of " + path.text() + " with " + f.discriminator + " \"" + option.name +
                   "\"; it may have";
        });
        Value normalized = Value::object();
        normalized.set(f.discriminator, Value::string(option.name));
        bool ok = members(option.members, v, path, normalized, false, chosen == 0) && errors_.size() == before;
        if (ok) out = std::move(normalized);
        return ok;
    }

    std::vector<InputError>& errors_;
};

Value rowToValue(const Field& f);

RETRYLAB_COLD Value rowsToValue(const std::vector<Field>& fields) {
    Value rows = Value::array();
    for (const Field& f : fields) rows.push(rowToValue(f));
    return rows;
}

RETRYLAB_COLD Value presenceValue(const Presence& p) {
    Value v = Value::object();
    v.set("field", Value::string(p.field));
    v.set("value", p.value.toValue());
    return v;
}

RETRYLAB_COLD Value rowToValue(const Field& f) {
    Value v = Value::object();
    v.set("name", Value::string(f.name));
    v.set("type", Value::string(fieldTypeName(f.type)));
    v.set("group", Value::string(f.group));
    v.set("unit", f.unit.empty() ? Value::null() : Value::string(f.unit));
    v.set("description", Value::string(f.description));
    v.set("nullable", Value::boolean(f.nullable));
    v.set("required", Value::boolean(f.required));
    if (f.defaultValue.kind != Literal::Kind::None) v.set("default", defaultValueOf(f));
    switch (f.type) {
        case FieldType::Number:
            v.set("whole", Value::boolean(f.whole));
            v.set("min", Value::number(f.lo));
            v.set("max", Value::number(f.hi));
            break;
        case FieldType::String:
            v.set("minLength", Value::number(static_cast<double>(f.minLength)));
            v.set("maxLength", f.maxLength ? Value::number(static_cast<double>(f.maxLength)) : Value::null());
            break;
        case FieldType::Choice: {
            Value choices = Value::array();
            for (const Choice& c : f.choices) {
                Value choice = Value::object();
                choice.set("name", Value::string(c.name));
                choice.set("description", Value::string(c.description));
                choices.push(std::move(choice));
            }
            v.set("choices", std::move(choices));
            break;
        }
        case FieldType::List:
            v.set("minItems", Value::number(static_cast<double>(f.minLength)));
            v.set("maxItems", f.maxLength ? Value::number(static_cast<double>(f.maxLength)) : Value::null());
            v.set("distinct", Value::boolean(f.distinct));
            v.set("items", rowToValue(f.item.front()));
            break;
        case FieldType::Object: v.set("members", rowsToValue(f.members)); break;
        case FieldType::Variant: {
            v.set("discriminator", Value::string(f.discriminator));
            Value variants = Value::array();
            for (const Variant& option : f.variants) {
                Value o = Value::object();
                o.set("name", Value::string(option.name));
                o.set("description", Value::string(option.description));
                o.set("members", rowsToValue(option.members));
                variants.push(std::move(o));
            }
            v.set("variants", std::move(variants));
            break;
        }
        case FieldType::Boolean:
        case FieldType::HttpDate: break;
    }
    if (!f.onlyWhen.field.empty()) v.set("onlyWhen", presenceValue(f.onlyWhen));
    if (!f.requiredWhen.field.empty()) v.set("requiredWhen", presenceValue(f.requiredWhen));
    if (f.sparseMember) v.set("sparse", Value::boolean(true));
    return v;
}

}  // namespace

RETRYLAB_COLD Literal Literal::null() {
    Literal l;
    l.kind = Kind::Null;
    return l;
}

RETRYLAB_COLD Literal Literal::boolean(bool b) {
    Literal l;
    l.kind = Kind::Boolean;
    l.flag = b;
    return l;
}

RETRYLAB_COLD Literal Literal::number(double n) {
    Literal l;
    l.kind = Kind::Number;
    l.x = n;
    return l;
}

RETRYLAB_COLD Literal Literal::string(std::string s) {
    Literal l;
    l.kind = Kind::String;
    l.text = std::move(s);
    return l;
}

RETRYLAB_COLD Literal Literal::list(std::vector<Literal> items) {
    Literal l;
    l.kind = Kind::List;
    l.items = std::move(items);
    return l;
}

RETRYLAB_COLD Literal Literal::strings(std::initializer_list<const char*> names) {
    std::vector<Literal> items;
    for (const char* n : names) items.push_back(string(n));
    return list(std::move(items));
}

RETRYLAB_COLD Literal Literal::filled() {
    Literal l;
    l.kind = Kind::Filled;
    return l;
}

Value Literal::toValue() const {
    switch (kind) {
        case Kind::Boolean: return Value::boolean(flag);
        case Kind::Number: return Value::number(x);
        case Kind::String: return Value::string(text);
        case Kind::List: {
            Value::Array list;
            list.reserve(items.size());
            for (const Literal& item : items) list.push_back(item.toValue());
            return Value::array(std::move(list));
        }
        case Kind::Filled: return Value::object();
        case Kind::None:
        case Kind::Null: break;
    }
    return Value::null();
}

bool Literal::matches(const Value& v) const {
    // The plain kinds compared where they are (a presence rule asks this of every field, and
    // making the literal's Value first was a string's allocation each time); lists and objects
    // as Values.
    switch (kind) {
        case Kind::None: return false;
        case Kind::Null: return v.isNull();
        case Kind::Boolean: return v.kind() == Value::Kind::Bool && v.asBool() == flag;
        case Kind::Number: return v.kind() == Value::Kind::Number && v.asNumber() == x;
        case Kind::String: return v.kind() == Value::Kind::String && v.asString() == text;
        case Kind::List:
        case Kind::Filled: break;
    }
    return sameValue(toValue(), v);
}

RETRYLAB_COLD const char* fieldTypeName(FieldType type) {
    switch (type) {
        case FieldType::Boolean: return "boolean";
        case FieldType::Number: return "number";
        case FieldType::String: return "string";
        case FieldType::Choice: return "choice";
        case FieldType::HttpDate: return "http-date";
        case FieldType::List: return "list";
        case FieldType::Object: return "object";
        case FieldType::Variant: return "variant";
    }
    return "";
}

namespace {
RETRYLAB_COLD Field row(std::string name, FieldType type, std::string group, std::string unit,
                        std::string description) {
    Field f;
    f.name = std::move(name);
    f.type = type;
    f.group = std::move(group);
    f.unit = std::move(unit);
    f.description = std::move(description);
    return f;
}
}  // namespace

RETRYLAB_COLD Field Field::boolean(std::string name, std::string group, std::string description) {
    return row(std::move(name), FieldType::Boolean, std::move(group), "", std::move(description));
}

RETRYLAB_COLD Field Field::number(std::string name, std::string group, std::string unit, std::string description) {
    return row(std::move(name), FieldType::Number, std::move(group), std::move(unit), std::move(description));
}

RETRYLAB_COLD Field Field::string(std::string name, std::string group, std::string description) {
    return row(std::move(name), FieldType::String, std::move(group), "", std::move(description));
}

RETRYLAB_COLD Field Field::choice(std::string name, std::string group, std::string description,
                                  std::vector<Choice> choices) {
    Field f = row(std::move(name), FieldType::Choice, std::move(group), "", std::move(description));
    f.choices = std::move(choices);
    return f;
}

RETRYLAB_COLD Field Field::httpDate(std::string name, std::string group, std::string description) {
    return row(std::move(name), FieldType::HttpDate, std::move(group), "", std::move(description));
}

RETRYLAB_COLD Field Field::list(std::string name, std::string group, std::string unit, std::string description,
                                Field item) {
    Field f = row(std::move(name), FieldType::List, std::move(group), std::move(unit), std::move(description));
    f.item.push_back(std::move(item));
    return f;
}

RETRYLAB_COLD Field Field::object(std::string name, std::string group, std::string description,
                                  std::vector<Field> members) {
    Field f = row(std::move(name), FieldType::Object, std::move(group), "", std::move(description));
    f.members = std::move(members);
    f.defaultValue = Literal::filled();
    return f;
}

RETRYLAB_COLD Field Field::variant(std::string name, std::string group, std::string description,
                                   std::string discriminator, std::vector<Variant> variants) {
    Field f = row(std::move(name), FieldType::Variant, std::move(group), "", std::move(description));
    f.discriminator = std::move(discriminator);
    f.variants = std::move(variants);
    f.defaultValue = Literal::filled();
    return f;
}

int Field::valueOf(const std::string& choiceName) const {
    for (const Choice& c : choices)
        if (c.name == choiceName) return c.value;
    return -1;
}

RETRYLAB_COLD const char* Field::nameOf(int value) const {
    for (const Choice& c : choices)
        if (c.value == value) return c.name.c_str();
    return "";
}

const Field* Field::member(std::string_view memberName) const {
    for (const Field& m : members)
        if (m.name == memberName) return &m;
    return nullptr;
}

const Field* FieldTable::find(std::string_view fieldName) const {
    for (const Field& f : fields)
        if (f.name == fieldName) return &f;
    return nullptr;
}

const Field& FieldTable::field(std::string_view fieldName) const {
    const Field* f = find(fieldName);
    return f ? *f : fields.front();
}

Value defaultValueOf(const Field& f) {
    if (f.defaultValue.kind != Literal::Kind::Filled) return f.defaultValue.toValue();
    Value v = Value::object();
    const std::vector<Field>* members = &f.members;
    if (f.type == FieldType::Variant && !f.variants.empty()) {
        v.set(f.discriminator, Value::string(f.variants.front().name));
        members = &f.variants.front().members;
    }
    // The defaults of an object are what an empty object normalizes to.
    std::vector<InputError> ignored;
    Checker(ignored).members(*members, Value::object(), Path(), v, f.sparseEcho, true);
    return v;
}

RETRYLAB_COLD std::string memberPath(const std::string& parent, const std::string& key) {
    if (!plainIdentifier(key)) return parent + "[" + jsonString(key) + "]";
    return parent.empty() ? key : parent + "." + key;
}

RETRYLAB_COLD std::string itemPath(const std::string& parent, std::size_t index) {
    return parent + "[" + formatInt(static_cast<std::int64_t>(index)) + "]";
}

RETRYLAB_COLD std::string describeValue(const Value& v) {
    switch (v.kind()) {
        case Value::Kind::Number:
            return std::isfinite(v.asNumber()) ? formatMs(v.asNumber(), 6)
                   : std::isnan(v.asNumber())  ? "NaN"
                                               : "an infinite number";
        case Value::Kind::String: return "the string " + quoted(v.asString());
        case Value::Kind::Bool: return v.asBool() ? "true" : "false";
        case Value::Kind::Unsupported: return v.asString();
        default: return describeKind(v.kind());
    }
}

Normalized normalize(const FieldTable& table, const Value& raw) {
    Normalized result;
    Checker check(result.errors);
    if (raw.kind() != Value::Kind::Object) {
        std::string detail = "must be an object such as " + table.example + "; got " + describeValue(raw) + ".";
        result.errors.push_back({"", "wrong-type", table.subject + " " + detail, detail});
        return result;
    }
    for (const Value::Member& m : raw.asObject()) {
        bool known = table.find(m.key) != nullptr;
        if (!known) check.fail(memberPath("", m.key), "unknown-field", table.unknownWords);
    }
    result.value = Value::object();
    check.members(table.fields, raw, Path(), result.value, false, true);
    return result;
}

RETRYLAB_COLD Value tableToValue(const FieldTable& table) { return rowsToValue(table.fields); }

RETRYLAB_COLD Value errorsToValue(const std::vector<InputError>& errors) {
    Value list = Value::array();
    for (const InputError& e : errors) {
        Value item = Value::object();
        // Keys and values from input reach these words: no raw control or bidi character (text.hpp).
        item.set("field", Value::string(visibleText(e.field)));
        item.set("code", Value::string(e.code));
        item.set("message", Value::string(visibleText(e.message)));
        item.set("detail", Value::string(visibleText(e.detail)));
        list.push(std::move(item));
    }
    return list;
}

}  // namespace retrylab
