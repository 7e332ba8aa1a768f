// Small builders shared by the engine tests.
#pragma once

#include <initializer_list>
#include <string>
#include <utility>

#include "retrylab/engine.hpp"

namespace retrylab::test {

// The invented policy of seed 000 (traces A–F) as SPEC §2 writes it.
inline Inputs seedPolicy() {
    Inputs in;
    in.operation = Operation::Read;
    in.maxRetries = 4;
    in.baseBackoffMs = 500;
    in.maxBackoffMs = 8000.0;
    in.jitter = Jitter::Full;
    in.waitBudgetMs = 20000.0;
    in.deadlineMs.reset();
    in.retryOn = RetryOn{true, true, true, false};
    in.retryOnNames = {"timeout", "429", "5xx"};
    in.retryWritesWithoutKey = false;
    return in;
}

inline ScriptEntry answer(int status) {
    ScriptEntry e;
    e.status = status;
    return e;
}

inline ScriptEntry answerWithRetryAfter(int status, std::string retryAfter) {
    ScriptEntry e = answer(status);
    e.retryAfter = std::move(retryAfter);
    return e;
}

inline ScriptEntry lostAnswer(int status) {
    ScriptEntry e = answer(status);
    e.lost = true;
    return e;
}

inline ScriptEntry droppedRequest() {
    ScriptEntry e;
    e.dropped = true;
    return e;
}

inline Inputs scripted(Inputs in, std::vector<ScriptEntry> script) {
    in.scenario = Scenario::Script;
    in.script = std::move(script);
    return in;
}

// Value literals for validation tests.
inline Value num(double x) { return Value::number(x); }
inline Value str(std::string s) { return Value::string(std::move(s)); }
inline Value boolean(bool b) { return Value::boolean(b); }
inline Value list(std::initializer_list<Value> items) { return Value::array(Value::Array(items)); }
inline Value obj(std::initializer_list<std::pair<const char*, Value>> members) {
    Value v = Value::object();
    for (const auto& m : members) v.set(m.first, m.second);
    return v;
}

// Deep equality, numbers by value (SPEC §1: "equal as JSON values").
inline bool sameValue(const Value& a, const Value& b) {
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

}  // namespace retrylab::test
