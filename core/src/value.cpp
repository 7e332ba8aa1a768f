#include "retrylab/value.hpp"

namespace retrylab {

Value::~Value() = default;
Value::Value(const Value&) = default;
Value::Value(Value&&) noexcept = default;
Value& Value::operator=(const Value&) = default;
Value& Value::operator=(Value&&) noexcept = default;

Value Value::boolean(bool b) {
    Value v;
    v.kind_ = Kind::Bool;
    v.bool_ = b;
    return v;
}

Value Value::number(double n) {
    Value v;
    v.kind_ = Kind::Number;
    v.number_ = n;
    return v;
}

Value Value::string(std::string s) {
    Value v;
    v.kind_ = Kind::String;
    v.string_ = std::move(s);
    return v;
}

Value Value::array(Array items) {
    Value v;
    v.kind_ = Kind::Array;
    v.array_ = std::move(items);
    return v;
}

Value Value::numbers(std::vector<double> items) {
    Value v;
    v.kind_ = Kind::Array;
    v.compact_ = true;
    v.numbers_ = std::move(items);
    return v;
}

const Value::Array& Value::asArray() const {
    if (compact_ && array_.size() != numbers_.size()) {
        array_.clear();
        array_.reserve(numbers_.size());
        for (double x : numbers_) array_.push_back(number(x));
    }
    return array_;
}

Value Value::object(Object members) {
    Value v;
    v.kind_ = Kind::Object;
    v.object_ = std::move(members);
    return v;
}

Value Value::unsupported(std::string what) {
    Value v;
    v.kind_ = Kind::Unsupported;
    v.string_ = std::move(what);
    return v;
}

const Value* Value::find(std::string_view key) const {
    for (const Member& m : object_)
        if (m.key == key) return &m.value;
    return nullptr;
}

Value* Value::find(std::string_view key) {
    for (Member& m : object_)
        if (m.key == key) return &m.value;
    return nullptr;
}

const Value* Value::find(std::string_view key, std::size_t& cursor) const {
    const std::size_t n = object_.size();
    for (std::size_t k = 0, i = cursor < n ? cursor : 0; k < n; ++k, i = i + 1 == n ? 0 : i + 1) {
        if (object_[i].key != key) continue;
        cursor = i + 1;
        return &object_[i].value;
    }
    return nullptr;
}

// Room for at least 8 members or items at once: a Value is large to move, and growing a list
// one step at a time (1, 2, 4, 8) moved each early member three times (docs/layers.md's filled
// layers and every normalized input are objects of 10-60 members).
template <typename List>
void makeRoom(List& list) {
    if (list.size() == list.capacity()) list.reserve(list.size() < 8 ? 8 : list.size() * 2);
}

Value& Value::set(std::string key, Value value) {
    makeRoom(object_);
    object_.push_back(Member{std::move(key), std::move(value)});
    return *this;
}

Value& Value::set(const char* key, Value&& value) {
    makeRoom(object_);
    object_.push_back(Member{key, std::move(value)});
    return *this;
}

Value& Value::push(Value item) {
    if (compact_) {  // no longer numbers only, perhaps: a list of Values from here on
        asArray();
        compact_ = false;
        numbers_ = {};
    }
    makeRoom(array_);
    array_.push_back(std::move(item));
    return *this;
}

bool sameValue(const Value& a, const Value& b) {
    if (a.kind() != b.kind()) return false;
    switch (a.kind()) {
        case Value::Kind::Null: return true;
        case Value::Kind::Bool: return a.asBool() == b.asBool();
        case Value::Kind::Number: return a.asNumber() == b.asNumber();
        case Value::Kind::String:
        case Value::Kind::Unsupported: return a.asString() == b.asString();
        case Value::Kind::Array:
            if (a.asArray().size() != b.asArray().size()) return false;
            for (std::size_t i = 0; i < a.asArray().size(); ++i)
                if (!sameValue(a.asArray()[i], b.asArray()[i])) return false;
            return true;
        case Value::Kind::Object:
            if (a.asObject().size() != b.asObject().size()) return false;
            for (std::size_t i = 0; i < a.asObject().size(); ++i)
                if (a.asObject()[i].key != b.asObject()[i].key ||
                    !sameValue(a.asObject()[i].value, b.asObject()[i].value))
                    return false;
            return true;
    }
    return false;
}

bool sameJson(const Value& a, const Value& b) {
    if (a.kind() != b.kind()) return false;
    if (a.kind() == Value::Kind::Array) {
        if (a.asArray().size() != b.asArray().size()) return false;
        for (std::size_t i = 0; i < a.asArray().size(); ++i)
            if (!sameJson(a.asArray()[i], b.asArray()[i])) return false;
        return true;
    }
    if (a.kind() != Value::Kind::Object) return sameValue(a, b);
    if (a.asObject().size() != b.asObject().size()) return false;
    for (const Value::Member& m : a.asObject()) {
        const Value* other = b.find(m.key);
        if (!other || !sameJson(m.value, *other)) return false;
    }
    return true;
}

const char* describeKind(Value::Kind kind) {
    switch (kind) {
        case Value::Kind::Null: return "null";
        case Value::Kind::Bool: return "a boolean";
        case Value::Kind::Number: return "a number";
        case Value::Kind::String: return "a string";
        case Value::Kind::Array: return "a list";
        case Value::Kind::Object: return "an object";
        case Value::Kind::Unsupported: return "a value with no JSON form";
    }
    return "a value";
}

}  // namespace retrylab
