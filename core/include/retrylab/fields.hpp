// The engine's inputs described as data: one row per field (its type, default, bounds, choices,
// unit, group, a one-line description, and when it may or must appear). Validation, the
// result's `inputs` echo and schema() all read a table of these rows, so an input is declared
// once (docs/engine.md §4).
//
//   const FieldTable& table = inputFields();        // the single run's inputs (SPEC §2, §7)
//   Normalized n = normalize(table, raw);           // every field checked, defaults filled
//   Value rows = tableToValue(table);               // the table as data, for schema()
//
// normalize() knows nothing about any one table: a second table (the fleet's request) is a
// second FieldTable passed to the same functions.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "retrylab/value.hpp"

namespace retrylab {

// A bad input: `field` its path ("maxRetries", "script[2].status", "server.workers",
// "[\"odd key\"]"), `code` a stable word (docs/engine.md §4), `message` a sentence that names
// the field, `detail` the same sentence without its leading field name.
struct InputError {
    std::string field;
    std::string code;
    std::string message;
    std::string detail;
};

// A small literal: a field's default, or the value a presence rule compares with.
struct Literal {
    enum class Kind {
        None,  // no default: an absent field stays absent (and is not echoed)
        Null,
        Boolean,
        Number,
        String,
        List,    // of `items`
        Filled,  // an object or variant: every member's own default
    };
    Kind kind = Kind::None;
    bool flag = false;
    double x = 0;
    std::string text;
    std::vector<Literal> items;

    static Literal none() { return {}; }
    static Literal null();
    static Literal boolean(bool b);
    static Literal number(double n);
    static Literal string(std::string s);
    static Literal list(std::vector<Literal> items);
    static Literal filled();
    static Literal strings(std::initializer_list<const char*> names);
    Value toValue() const;  // Filled has no Value of its own: it gives an empty object
    bool matches(const Value& v) const;
};

// One name of a choice field, and the number the engine's C++ enum gives it.
struct Choice {
    std::string name;
    int value = 0;
    std::string description;
};

// `field` (a sibling in the same object) has `value`; `why` finishes the error's sentence.
struct Presence {
    std::string field;  // empty: no rule
    Literal value;
    std::string why;
};

enum class FieldType { Boolean, Number, String, Choice, HttpDate, List, Object, Variant };
const char* fieldTypeName(
    FieldType type);  // "boolean", "number", "string", "choice", "http-date", "list", "object", "variant"

struct Variant;

struct Field {
    std::string name;
    FieldType type = FieldType::Number;
    std::string group;
    std::string unit;  // "ms", or empty
    std::string description;
    bool nullable = false;        // null is a value of its own ("none", "off")
    bool required = false;        // absent is an error
    bool whole = false;           // numbers: an integer (3.0 accepted)
    double lo = 0, hi = 0;        // numbers: inclusive bounds
    std::size_t minLength = 0;    // strings: code points; lists: items
    std::size_t maxLength = 0;    // 0: no limit
    std::vector<Choice> choices;  // Choice
    Literal defaultValue;
    bool distinct = false;          // lists: no item twice
    Presence onlyWhen;              // an error to give it otherwise; not echoed otherwise
    Presence requiredWhen;          // an error to leave it out then
    std::vector<Field> item;        // List: exactly one row, the items' (its name is empty)
    std::vector<Field> members;     // Object: the members, in echo order
    std::string discriminator;      // Variant: the member whose choice picks the variant
    std::vector<Variant> variants;  // Variant: the first is the default
    bool sparseEcho = false;        // Object: echo only the members given that differ from their default
    // Any member: echo this one only when it is given and differs from its default (sparseEcho
    // for one member of an object that echoes the others in full). A field added to an
    // object whose echo others compare exactly (the fleet's gates, held to an independent
    // model's conformance cases) takes it, so that every request without it echoes as before.
    // Absent or at its default, the member reads as its default all the same; schema() marks
    // the row `sparse: true` (docs/engine.md §4).
    bool sparseMember = false;

    // Words for messages.
    std::string itemWords;    // List: "numbers from 0 to 1" ("must be a list of ...")
    std::string itemNoun;     // List: "answer", "class", "status" ("each class may appear once")
    std::string example;      // Object: "{ \"status\": 503 }" ("must be an object such as ...")
    std::string memberWords;  // Object: "is not a script field; an answer may have" (then the names)

    // Builders: Field::number("maxRetries", "policy", "", "retries after ...").wholeNumber().range(0, 100)...
    static Field boolean(std::string name, std::string group, std::string description);
    static Field number(std::string name, std::string group, std::string unit, std::string description);
    static Field string(std::string name, std::string group, std::string description);
    static Field choice(std::string name, std::string group, std::string description, std::vector<Choice> choices);
    static Field httpDate(std::string name, std::string group, std::string description);
    static Field list(std::string name, std::string group, std::string unit, std::string description, Field item);
    static Field object(std::string name, std::string group, std::string description, std::vector<Field> members);
    static Field variant(std::string name, std::string group, std::string description, std::string discriminator,
                         std::vector<Variant> variants);
    Field& wholeNumber() {
        whole = true;
        return *this;
    }
    Field& range(double low, double high) {
        lo = low;
        hi = high;
        return *this;
    }
    Field& length(std::size_t low, std::size_t high) {
        minLength = low;
        maxLength = high;
        return *this;
    }
    Field& orNull() {
        nullable = true;
        return *this;
    }
    Field& needed() {
        required = true;
        return *this;
    }
    Field& defaults(Literal d) {
        defaultValue = std::move(d);
        return *this;
    }
    Field& defaults(int n) {
        defaultValue = Literal::number(n);
        return *this;
    }
    Field& defaults(double x) {
        defaultValue = Literal::number(x);
        return *this;
    }
    Field& defaults(bool b) {
        defaultValue = Literal::boolean(b);
        return *this;
    }
    Field& defaults(const char* s) {
        defaultValue = Literal::string(s);
        return *this;
    }
    Field& distinctItems() {
        distinct = true;
        return *this;
    }
    Field& only(std::string sibling, Literal value, std::string why = "") {
        onlyWhen = {std::move(sibling), std::move(value), std::move(why)};
        return *this;
    }
    Field& requiredIf(std::string sibling, Literal value, std::string why) {
        requiredWhen = {std::move(sibling), std::move(value), std::move(why)};
        return *this;
    }
    Field& words(std::string items, std::string noun) {
        itemWords = std::move(items);
        itemNoun = std::move(noun);
        return *this;
    }
    Field& objectWords(std::string exampleText, std::string unknownMember) {
        example = std::move(exampleText);
        memberWords = std::move(unknownMember);
        return *this;
    }
    Field& sparse() {
        sparseEcho = true;
        return *this;
    }
    Field& echoSparse() {
        sparseMember = true;
        return *this;
    }

    // Choice fields: the engine's number for a name (-1 when none), and the name of a number.
    int valueOf(const std::string& choiceName) const;
    const char* nameOf(int value) const;
    // Object fields: the member named `memberName`, or nullptr.
    const Field* member(std::string_view memberName) const;
};

struct Variant {
    std::string name;  // the discriminator's value
    int value = 0;     // the engine's number for it
    std::string description;
    std::vector<Field> members;  // besides the discriminator; defaults apply only in the first variant
};

struct FieldTable {
    std::string name;          // "inputs": the key schema() lists the rows under
    std::string subject;       // "The inputs": how a sentence about the whole request begins
    std::string example;       // "{ \"maxRetries\": 3 }": "The inputs must be an object such as ..."
    std::string unknownWords;  // "is not an input of the engine (check its spelling)."
    std::vector<Field> fields;

    const Field& field(std::string_view fieldName) const;  // a row that exists (the engine's own names)
    const Field* find(std::string_view fieldName) const;
};

// The single run's inputs, SPEC §2 and docs/engine.md §2, in the order the echo writes them.
const FieldTable& inputFields();

// The raw value checked against a table. `value` holds every valid field in table order, with
// defaults filled (numbers as given, -0 read as 0); it is the result's `inputs` echo when
// `errors` is empty. Unknown keys at any level are errors.
struct Normalized {
    Value value;
    std::vector<InputError> errors;
};
Normalized normalize(const FieldTable& table, const Value& raw);

// The rows as data: a list of { name, type, group, unit, description, nullable, ... }
// (docs/engine.md §4 gives the shape).
Value tableToValue(const FieldTable& table);
// A field's default as its echo writes it (a Filled object with its members' defaults).
Value defaultValueOf(const Field& field);

// Paths: "a.b" for a member that is a plain identifier, "a[\"odd key\"]" otherwise, "a[3]" for
// an item. The first segment has no dot.
std::string memberPath(const std::string& parent, const std::string& key);
std::string itemPath(const std::string& parent, std::size_t index);

// Errors as the engine returns them: [{ field, code, message, detail }].
Value errorsToValue(const std::vector<InputError>& errors);

// Words for messages: a value as a person reads it ("the string \"x\"", "1.5", "a list").
std::string describeValue(const Value& v);

}  // namespace retrylab
