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

// Typed inputs written as the raw value a binding would pass (every field, as the echo has
// them; retryOn in the table's order). The tests check it against the table: Inputs{} written
// this way normalizes to the echo of {}.
inline Value rawInputs(const Inputs& in) {
    auto orNull = [](const std::optional<double>& x) { return x ? num(*x) : Value::null(); };
    auto numbers = [](const auto& xs) {
        Value out = Value::array();
        for (auto x : xs) out.push(num(static_cast<double>(x)));
        return out;
    };
    const FieldTable& t = inputFields();
    Value v = Value::object();
    v.set("scenario", str(t.field("scenario").nameOf(static_cast<int>(in.scenario))));
    if (in.scenario == Scenario::Script) {
        Value script = Value::array();
        for (const ScriptEntry& e : in.script) {
            Value a = Value::object();
            if (e.status) a.set("status", num(*e.status));
            if (e.retryAfter) a.set("retryAfter", str(*e.retryAfter));
            if (e.date) a.set("date", str(*e.date));
            if (e.lost) a.set("lost", boolean(true));
            if (e.dropped) a.set("dropped", boolean(true));
            script.push(std::move(a));
        }
        v.set("script", std::move(script));
    }
    v.set("operation", str(t.field("operation").nameOf(static_cast<int>(in.operation))));
    v.set("operationId", str(in.operationId));
    v.set("maxRetries", num(in.maxRetries));
    v.set("baseBackoffMs", num(in.baseBackoffMs));
    v.set("backoffMultiplier", num(in.backoffMultiplier));
    v.set("maxBackoffMs", orNull(in.maxBackoffMs));
    v.set("jitter", str(t.field("jitter").nameOf(static_cast<int>(in.jitter))));
    v.set("draws", numbers(in.draws));
    v.set("seed", num(static_cast<double>(in.seed)));
    v.set("clientTimeoutMs", num(in.clientTimeoutMs));
    v.set("deadlineMs", orNull(in.deadlineMs));
    v.set("waitBudgetMs", orNull(in.waitBudgetMs));
    v.set("responseMs", num(in.responseMs));
    v.set("idempotencyKey", boolean(in.idempotencyKey));
    Value retryOn = Value::array();
    if (in.retryOn.timeout) retryOn.push(str("timeout"));
    if (in.retryOn.tooManyRequests) retryOn.push(str("429"));
    if (in.retryOn.serverError) retryOn.push(str("5xx"));
    if (in.retryOn.clientError) retryOn.push(str("4xx"));
    if (in.retryOn.refused) retryOn.push(str("refused"));
    if (in.retryOn.reset) retryOn.push(str("reset"));
    v.set("retryOn", std::move(retryOn));
    v.set("retryWritesWithoutKey", boolean(in.retryWritesWithoutKey));
    v.set("honourRetryAfter", boolean(in.honourRetryAfter));
    v.set("startDate", str(in.startDate));
    v.set("callers", num(in.callers));
    v.set("firstRetryImmediate", boolean(in.firstRetryImmediate));
    v.set("minBackoffMs", num(in.minBackoffMs));
    if (in.jitter == Jitter::Proportional) {
        v.set("jitterLow", num(in.jitterLow));
        v.set("jitterHigh", num(in.jitterHigh));
    }
    v.set("ceilingScheduleMs", numbers(in.ceilingScheduleMs));
    v.set("retryOnStatuses", numbers(in.retryOnStatuses));
    v.set("retryAfterStatuses", numbers(in.retryAfterStatuses));
    v.set("retryAfterMode", str(t.field("retryAfterMode").nameOf(static_cast<int>(in.retryAfterMode))));
    v.set("retryAfterMaxMs", orNull(in.retryAfterMaxMs));
    v.set("retryAfterOverMax", str(t.field("retryAfterOverMax").nameOf(static_cast<int>(in.retryAfterOverMax))));
    v.set("attemptStart", str(t.field("attemptStart").nameOf(static_cast<int>(in.attemptStart))));
    return v;
}

// SPEC §1's equality lives in the core: retrylab::sameValue.
using retrylab::sameValue;

}  // namespace retrylab::test
