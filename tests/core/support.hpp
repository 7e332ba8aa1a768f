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

// SPEC §1's equality lives in the core: retrylab::sameValue.
using retrylab::sameValue;

}  // namespace retrylab::test
