// A small dynamic value (null, boolean, number, string, array, object) that the core reads its
// inputs from and writes its result to. Bindings translate it to and from their own world
// (JSON text natively, plain JS objects in WebAssembly), so validation and the result's shape
// live once, here, and every binding gives the same answer for the same inputs.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace retrylab {

class Value {
public:
    enum class Kind { Null, Bool, Number, String, Array, Object, Unsupported };
    struct Member;
    using Array = std::vector<Value>;
    using Object = std::vector<Member>;

    Value() = default;
    // Defined in value.cpp, not inline: the core builds Values in hundreds of places, and the
    // inlined copies of these (and of set()'s std::string key) took about 2.5 KB of the
    // WebAssembly module.
    ~Value();
    Value(const Value&);
    Value(Value&&) noexcept;
    Value& operator=(const Value&);
    Value& operator=(Value&&) noexcept;
    static Value null() { return Value(); }
    static Value boolean(bool b);
    static Value number(double n);
    static Value string(std::string s);
    static Value array(Array items = {});
    // A list of numbers kept as one block (issue 18: up to 100,000 draws), not as a Value per
    // item: a list like any other to every reader (kind() is Array, asArray() has its items,
    // sameValue() compares it item by item with any list), but the bindings read it from their
    // input in one copy, the validator checks it in one loop, and a writer echoes it as a block.
    static Value numbers(std::vector<double> items);
    static Value object(Object members = {});
    // Something a binding met that has no JSON meaning (a JS function, symbol, bigint, a
    // cycle, nesting too deep); `what` says what it was, for the error message.
    static Value unsupported(std::string what);

    Kind kind() const { return kind_; }
    bool isNull() const { return kind_ == Kind::Null; }
    bool asBool() const { return bool_; }
    double asNumber() const { return number_; }
    const std::string& asString() const { return string_; }  // also the Unsupported description
    // A list's items. A list made by numbers() has them made here on the first call (paths
    // that are not hot: the fleet's reader, the native JSON writer, the tests); hot paths ask
    // isNumberList() first and read asNumbers(). (Making them writes to a const Value: not for
    // two threads at once on one Value; the engine has no threads.)
    const Array& asArray() const;
    // How many items a list has, without making them.
    std::size_t listSize() const { return compact_ ? numbers_.size() : array_.size(); }
    // Made by numbers(): its items are asNumbers().
    bool isNumberList() const { return compact_; }
    const std::vector<double>& asNumbers() const { return numbers_; }
    const Object& asObject() const { return object_; }

    // Object access: the member named `key`, or nullptr.
    const Value* find(std::string_view key) const;
    Value* find(std::string_view key);  // the same, to replace a member's value in place
    // The same member, searched from member `cursor` on and then from the start, and `cursor`
    // left just after it: for reading one object's members in the order they were written
    // (a layer's policy members in the run's order, docs/layers.md §2), each found at once.
    const Value* find(std::string_view key, std::size_t& cursor) const;
    // Builders: append a member (objects) or an item (arrays).
    Value& set(std::string key, Value value);
    Value& set(const char* key, Value&& value);  // the same, for the core's literal names
    Value& push(Value item);

private:
    Kind kind_ = Kind::Null;
    bool bool_ = false;
    bool compact_ = false;  // a list made by numbers(): its items in numbers_
    double number_ = 0;
    std::string string_;
    mutable Array array_;  // a compact list's items once asArray() has made them
    Object object_;
    std::vector<double> numbers_;
};

struct Value::Member {
    std::string key;
    Value value;
};

// Deep equality, numbers by value and members in order: SPEC §1's "equal as JSON values"
// for two results of the engine (which always writes members in the same order).
bool sameValue(const Value& a, const Value& b);

// Equal as JSON values whatever the order of an object's members (two echoes, a script entry
// or a layer written by hand): the equality of a comparison's inputs and metrics
// (docs/compare.md §2), web/share/codec.js's sameInputValue().
bool sameJson(const Value& a, const Value& b);

// A readable name of a kind, for messages: "a string", "an array", ...
const char* describeKind(Value::Kind kind);

}  // namespace retrylab
