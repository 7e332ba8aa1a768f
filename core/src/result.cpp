// SPEC §5: the run as a Value, with the names the spec gives.
#include "retrylab/engine.hpp"

namespace retrylab {

#ifndef RETRYLAB_VERSION
#error "RETRYLAB_VERSION is the project's version, defined by core/CMakeLists.txt"
#endif
const char* engineVersion() { return RETRYLAB_VERSION; }

const char* eventKindName(EventKind kind) {
    switch (kind) {
        case EventKind::Send: return "send";
        case EventKind::Commit: return "commit";
        case EventKind::Replay: return "replay";
        case EventKind::Conflict: return "conflict";
        case EventKind::ServerError: return "server-error";
        case EventKind::RequestLost: return "request-lost";
        case EventKind::ResponseLost: return "response-lost";
        case EventKind::Receive: return "receive";
        case EventKind::Timeout: return "timeout";
        case EventKind::Deadline: return "deadline";
        case EventKind::Wait: return "wait";
        case EventKind::Stop: return "stop";
    }
    return "";
}

const char* outcomeName(Outcome outcome) {
    switch (outcome) {
        case Outcome::Success: return "success";
        case Outcome::Unknown: return "unknown";
        case Outcome::Failed: return "failed";
    }
    return "";
}

const char* stopReasonName(StopReason reason) {
    switch (reason) {
        case StopReason::Success: return "success";
        case StopReason::NotRetryable: return "not-retryable";
        case StopReason::WriteWithoutKey: return "write-without-key";
        case StopReason::AttemptLimit: return "attempt-limit";
        case StopReason::WaitBudget: return "wait-budget";
        case StopReason::Deadline: return "deadline";
    }
    return "";
}

const char* waitKindName(WaitKind kind) {
    switch (kind) {
        case WaitKind::None: return "none";
        case WaitKind::Header: return "header";
        case WaitKind::Backoff: return "backoff";
    }
    return "";
}

const char* failureClassName(FailureClass c) {
    // The four a policy may retry are named once, by retryOn's choices.
    if (c == FailureClass::Success) return "success";
    if (c == FailureClass::Other) return "other";
    return inputFields().field("retryOn").item.front().nameOf(static_cast<int>(c));
}

namespace {

Value orNull(const std::optional<double>& x) { return x ? Value::number(*x) : Value::null(); }
Value orNull(const std::optional<std::string>& s) { return s ? Value::string(*s) : Value::null(); }
Value count(std::int64_t n) { return Value::number(static_cast<double>(n)); }

Value eventValue(const Event& e) {
    Value v = Value::object();
    v.set("tMs", Value::number(e.tMs));
    v.set("kind", Value::string(eventKindName(e.kind)));
    v.set("attempt", e.attempt ? count(*e.attempt) : Value::null());
    v.set("text", Value::string(e.text));
    return v;
}

Value attemptValue(const AttemptRow& a) {
    Value v = Value::object();
    v.set("n", count(a.n));
    v.set("startMs", Value::number(a.startMs));
    v.set("endMs", Value::number(a.endMs));
    v.set("server", Value::string(a.server));
    v.set("commitMs", orNull(a.commitMs));
    v.set("effect", Value::string(a.effect));
    v.set("clientSaw", Value::string(a.clientSaw));
    v.set("waitAfterMs", orNull(a.waitAfterMs));
    v.set("waitRule", orNull(a.waitRule));
    v.set("ceilingMs", orNull(a.ceilingMs));
    v.set("draw", orNull(a.draw));
    if (a.retryAfter) {
        Value r = Value::object();
        r.set("raw", Value::string(a.retryAfter->raw));
        r.set("waitMs", orNull(a.retryAfter->waitMs));
        r.set("note", Value::string(a.retryAfter->note));
        v.set("retryAfter", std::move(r));
    } else {
        v.set("retryAfter", Value::null());
    }
    v.set("waitKind", Value::string(waitKindName(a.waitKind)));
    v.set("scriptIndex", count(a.scriptIndex));
    v.set("scriptRepeats", Value::boolean(a.scriptRepeats));
    v.set("clientClass", Value::string(failureClassName(a.clientClass)));
    v.set("chargeNumber", a.chargeNumber ? count(*a.chargeNumber) : Value::null());
    return v;
}

Value metricsValue(const Metrics& m) {
    Value v = Value::object();
    v.set("attempts", count(m.attempts));
    v.set("charges", count(m.charges));
    v.set("replays", count(m.replays));
    v.set("elapsedMs", Value::number(m.elapsedMs));
    v.set("waitingMs", Value::number(m.waitingMs));
    v.set("outcome", Value::string(outcomeName(m.outcome)));
    v.set("stopReason", Value::string(stopReasonName(m.stopReason)));
    v.set("refusedWaitMs", orNull(m.refusedWaitMs));
    v.set("duplicates", count(m.duplicates));
    v.set("lookupNeeded", Value::boolean(m.lookupNeeded));
    v.set("agentReport", Value::string(m.agentReport));
    return v;
}

Value herdValue(const Herd& h) {
    Value v = Value::object();
    v.set("callers", count(h.callers));
    v.set("notRetried", count(h.notRetried));
    v.set("bucketMs", Value::number(h.bucketMs));
    Value buckets = Value::array();
    for (std::uint32_t b : h.buckets) buckets.push(count(b));
    v.set("buckets", std::move(buckets));
    v.set("occupied", count(h.occupied));
    v.set("fullest", count(h.fullest));
    return v;
}

}  // namespace

Value toValue(Value echo, const Run& run) {
    Value v = Value::object();
    v.set("ok", Value::boolean(true));
    v.set("engine", Value::string(engineVersion()));
    v.set("inputs", std::move(echo));
    Value events = Value::array();
    for (const Event& e : run.events) events.push(eventValue(e));
    v.set("events", std::move(events));
    Value attempts = Value::array();
    for (const AttemptRow& a : run.attempts) attempts.push(attemptValue(a));
    v.set("attempts", std::move(attempts));
    v.set("metrics", metricsValue(run.metrics));
    if (run.herd) v.set("herd", herdValue(*run.herd));
    return v;
}

Value toValue(const std::vector<InputError>& errors) {
    Value v = Value::object();
    v.set("ok", Value::boolean(false));
    v.set("errors", errorsToValue(errors));
    return v;
}

Value compute(const Value& rawInputs) {
    ParsedInputs parsed = parseInputs(rawInputs);
    if (!parsed.inputs) return toValue(parsed.errors);
    Run run = simulate(*parsed.inputs);
    return toValue(std::move(parsed.echo), run);
}

}  // namespace retrylab
