// SPEC §5: the run as a Value, with the names the spec gives.
#include "retrylab/engine.hpp"
#include "retrylab/write_result.hpp"

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
        case EventKind::Call: return "call";
        case EventKind::GiveUp: return "give-up";
        case EventKind::Cancel: return "cancel";
        case EventKind::Orphan: return "orphan";
        case EventKind::Refused: return "refused";
        case EventKind::Reset: return "reset";
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
        case StopReason::Cancelled: return "cancelled";
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

const char* waitShapeName(WaitShape shape) {
    switch (shape) {
        case WaitShape::None: return "none";
        case WaitShape::Rule: return "rule";
        case WaitShape::Minimum: return "minimum";
        case WaitShape::Immediate: return "immediate";
        case WaitShape::Header: return "header";
        case WaitShape::AboveHeader: return "above-header";
        case WaitShape::HeaderOverMax: return "header-over-max";
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

// Builds a Value from writeRun()'s calls (write_result.hpp): the open lists and objects on a stack, each with the
// key its next member will have.
class ValueBuilder {
public:
    // `movable` (the echo, up to 100,000 draws) is the caller's to give away: value() moves it in.
    // (Not a copy: a sweep's result holds its inputs' echo once, as compute()'s does.)
    explicit ValueBuilder(Value* movable = nullptr) : movable_(movable) {}

    void null() { put(Value::null()); }
    void boolean(bool b) { put(Value::boolean(b)); }
    void number(double x) { put(Value::number(x)); }
    void string(std::string_view s) { put(Value::string(std::string(s))); }
    void beginArray() { open(Value::array()); }
    void beginObject() { open(Value::object()); }
    void endArray() { close(); }
    void endObject() { close(); }
    void key(std::string_view k) { open_.back().key.assign(k.data(), k.size()); }
    void value(const Value& v) {
        if (&v == movable_)
            put(std::move(*movable_));
        else
            put(Value(v));
    }
    Value result() { return std::move(done_); }

private:
    struct Open {
        Value value;
        std::string key;
    };
    void open(Value v) { open_.push_back({std::move(v), {}}); }
    void close() {
        Value v = std::move(open_.back().value);
        open_.pop_back();
        put(std::move(v));
    }
    void put(Value v) {
        if (open_.empty()) {
            done_ = std::move(v);
            return;
        }
        Open& top = open_.back();
        if (top.value.kind() == Value::Kind::Object)
            top.value.set(std::move(top.key), std::move(v));
        else
            top.value.push(std::move(v));
    }

    std::vector<Open> open_;
    Value done_;
    Value* movable_;
};

}  // namespace

Value toValue(Value echo, const Run& run) {
    ValueBuilder builder(&echo);
    writeRun(builder, echo, run);
    return builder.result();
}

Value toValue(const std::vector<InputError>& errors) {
    Value v = Value::object();
    v.set("ok", Value::boolean(false));
    v.set("errors", errorsToValue(errors));
    return v;
}

Value sweep(const Value& request) {
    SweepRun run = runSweep(request);
    if (!run.errors.empty()) return toValue(run.errors);
    ValueBuilder builder(&run.echo);
    writeSweep(builder, run);
    return builder.result();
}

Value compute(const Value& rawInputs) {
    ParsedInputs parsed = parseInputs(rawInputs);
    if (!parsed.inputs) return toValue(parsed.errors);
    Run run = simulate(*parsed.inputs);
    return toValue(std::move(parsed.echo), run);
}

}  // namespace retrylab
