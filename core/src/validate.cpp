// SPEC §2 and §7: the single run's inputs as a table (fields.hpp), the rules between fields that
// a table cannot say, and the short typed reader from the normalized value to Inputs.
#include <string>

#include "format.hpp"
#include "http_date.hpp"
#include "retrylab/engine.hpp"

namespace retrylab {

namespace {

constexpr double kMaxMs = 86400000;
constexpr double kMaxSafeInteger = 9007199254740991.0;  // 2^53 - 1

const std::int64_t kDefaultStartSeconds = Inputs{}.startSeconds;

Field ms(const char* name, const char* group, const char* description, double lo = 0) {
    return Field::number(name, group, "ms", description).range(lo, kMaxMs);
}

Field statuses(const char* name, const char* description) {
    return Field::list(name, "client", "", description,
                       Field::number("", "", "", "an HTTP status").wholeNumber().range(100, 599))
        .length(0, 500)
        .distinctItems()
        .words("statuses from 100 to 599", "status")
        .defaults(Literal::list({}));
}

FieldTable makeInputs() {
    FieldTable t;
    t.name = "inputs";
    t.subject = "The inputs";
    t.example = "{ \"maxRetries\": 3 }";
    t.unknownWords = "is not an input of the engine (check its spelling).";

    const Literal scriptScenario = Literal::string("script");
    const Literal proportional = Literal::string("proportional");

    Field answer = Field::object("", "", "one server answer", {
        Field::number("status", "", "", "the HTTP status the server answers with (absent only when dropped)")
            .wholeNumber().range(100, 599)
            .requiredIf("dropped", Literal::boolean(false),
                        "every answer that reaches the server needs a status from 100 to 599 (only a dropped request "
                        "has none)"),
        Field::string("retryAfter", "", "the Retry-After header's raw value: delta-seconds or an HTTP-date").length(0, 1000),
        Field::httpDate("date", "", "the response's Date header; default startDate + the time it is sent, whole seconds"),
        Field::boolean("lost", "", "the server does the work; the response never arrives").defaults(false),
        Field::boolean("dropped", "", "the request never reaches the server").defaults(false),
    });
    answer.defaultValue = Literal::none();
    answer.objectWords("{ \"status\": 503 }", "is not a script field; an answer may have").sparse();

    Field retryClass = Field::choice("", "", "a failure class", {
        {"timeout", static_cast<int>(FailureClass::Timeout), "no answer before the client timeout"},
        {"429", static_cast<int>(FailureClass::TooManyRequests), "429 Too Many Requests"},
        {"5xx", static_cast<int>(FailureClass::ServerError), "500-599"},
        {"4xx", static_cast<int>(FailureClass::ClientError), "400-499 but 429"},
    });
    std::string classNames;
    for (const Choice& c : retryClass.choices) classNames += (classNames.empty() ? "\"" : ", \"") + c.name + "\"";

    t.fields = {
        Field::choice("scenario", "server", "the server's answers: a named scenario, or the script", {
            {"response-lost", static_cast<int>(Scenario::ResponseLost), "the first response is lost, then 200"},
            {"request-lost", static_cast<int>(Scenario::RequestLost), "the first request is dropped, then 200"},
            {"outage-503-twice", static_cast<int>(Scenario::Outage503Twice), "503, 503, then 200"},
            {"bad-request-400", static_cast<int>(Scenario::BadRequest400), "400 every time"},
            {"script", static_cast<int>(Scenario::Script), "the answers listed in script"},
        }).defaults("response-lost"),
        Field::list("script", "server", "", "server answers, one per attempt; the last repeats", answer)
            .length(1, 1000)
            .words("answers", "answer")
            .only("scenario", scriptScenario, "the named scenario already decides the server's answers")
            .requiredIf("scenario", scriptScenario,
                        "scenario \"script\" needs a list of server answers such as [{ \"status\": 503 }, "
                        "{ \"status\": 200 }]"),
        Field::choice("operation", "request", "what the request does", {
            {"charge", static_cast<int>(Operation::Charge), "a write: a 2xx commits a charge"},
            {"create", static_cast<int>(Operation::Create), "a write: a 2xx commits a record for the operation id"},
            {"read", static_cast<int>(Operation::Read), "no side effect"},
        }).defaults("charge"),
        Field::string("operationId", "request", "label, and the key sent when idempotencyKey is on")
            .length(1, 255).defaults("op-0001"),
        Field::number("maxRetries", "policy", "", "retries after the first attempt (attempts ≤ maxRetries + 1)")
            .wholeNumber().range(0, 100).defaults(3),
        ms("baseBackoffMs", "policy", "backoff base").defaults(500),
        Field::number("backoffMultiplier", "policy", "", "growth of the backoff ceiling per failure")
            .range(1, 10).defaults(2),
        ms("maxBackoffMs", "policy", "cap on the backoff ceiling; null: none").orNull().defaults(Literal::null()),
        Field::choice("jitter", "policy", "how a draw spreads the backoff wait", {
            {"none", static_cast<int>(Jitter::None), "the ceiling itself, no draw"},
            {"full", static_cast<int>(Jitter::Full), "ceiling × draw"},
            {"equal", static_cast<int>(Jitter::Equal), "ceiling/2 + ceiling/2 × draw"},
            {"decorrelated", static_cast<int>(Jitter::Decorrelated), "base + draw × (3 × previous − base), capped"},
            {"proportional", static_cast<int>(Jitter::Proportional), "ceiling × (jitterLow + (jitterHigh − jitterLow) × draw)"},
        }).defaults("none"),
        Field::list("draws", "randomness", "", "numbers in [0, 1], consumed in order by jittered waits only",
                    Field::number("", "", "", "a draw").range(0, 1))
            .length(0, 100000)
            .words("numbers from 0 to 1", "draw")
            .defaults(Literal::list({})),
        Field::number("seed", "randomness", "", "seed of the generator used after draws runs out")
            .wholeNumber().range(0, kMaxSafeInteger).defaults(1),
        ms("clientTimeoutMs", "limits", "per-attempt client timeout", 1).defaults(3000),
        ms("deadlineMs", "limits", "overall deadline; null: none").orNull().defaults(10000),
        ms("waitBudgetMs", "limits", "cap on the total time spent waiting between attempts; null: none")
            .orNull().defaults(Literal::null()),
        ms("responseMs", "server", "how long the server takes to answer").defaults(200),
        Field::boolean("idempotencyKey", "request", "send operationId as a key the server honours").defaults(false),
        Field::list("retryOn", "policy", "", "the failure classes retried", retryClass)
            .length(0, 4)
            .distinctItems()
            .words("failure classes (" + classNames + ")", "class")
            .defaults(Literal::strings({"timeout", "5xx"})),
        Field::boolean("retryWritesWithoutKey", "policy", "false: a write without a key is never retried").defaults(true),
        Field::boolean("honourRetryAfter", "policy", "a Retry-After header replaces the backoff wait").defaults(true),
        Field::httpDate("startDate", "server", "the HTTP-date at virtual time 0").defaults("Sun, 29 Nov 2026 10:00:00 GMT"),
        Field::number("callers", "herd", "", "more than 1: the herd, every caller's first wait counted")
            .wholeNumber().range(1, 1000000).defaults(1),
        Field::boolean("firstRetryImmediate", "client", "failure 1 waits 0 (urllib3)").defaults(false),
        ms("minBackoffMs", "client", "a backoff wait is at least this (Stripe)").defaults(0),
        Field::number("jitterLow", "client", "", "proportional jitter: the low end of the factor")
            .range(0, 2).defaults(0).only("jitter", proportional),
        Field::number("jitterHigh", "client", "", "proportional jitter: the high end of the factor")
            .range(0, 2).defaults(1).only("jitter", proportional),
        Field::list("ceilingScheduleMs", "client", "ms", "ceilings per failure, the last repeating; empty: base × multiplier^(n−1)",
                    Field::number("", "", "ms", "a ceiling").range(0, kMaxMs))
            .length(0, 100)
            .words("ceilings in ms", "ceiling")
            .defaults(Literal::list({})),
        statuses("retryOnStatuses", "exact statuses retried besides retryOn's classes"),
        statuses("retryAfterStatuses", "statuses retried when they carry a Retry-After (urllib3)"),
        Field::choice("retryAfterMode", "client", "how an honoured Retry-After combines with the backoff", {
            {"replace", static_cast<int>(RetryAfterMode::Replace), "the header's wait instead of the backoff"},
            {"at-least", static_cast<int>(RetryAfterMode::AtLeast), "the longer of the header and the backoff"},
        }).defaults("replace"),
        ms("retryAfterMaxMs", "client", "an honoured header above this is ignored (Stripe: 60 s); null: none")
            .orNull().defaults(Literal::null()),
    };
    return t;
}

double number(const Value& v, const char* name, double otherwise) {
    const Value* x = v.find(name);
    return x && x->kind() == Value::Kind::Number ? x->asNumber() : otherwise;
}

std::optional<double> optionalNumber(const Value& v, const char* name, std::optional<double> otherwise) {
    const Value* x = v.find(name);
    if (!x) return otherwise;
    if (x->kind() == Value::Kind::Number) return x->asNumber();
    return std::nullopt;
}

bool flag(const Value& v, const char* name, bool otherwise) {
    const Value* x = v.find(name);
    return x && x->kind() == Value::Kind::Bool ? x->asBool() : otherwise;
}

const std::string* text(const Value& v, const char* name) {
    const Value* x = v.find(name);
    return x && x->kind() == Value::Kind::String ? &x->asString() : nullptr;
}

// A choice field's value as the engine's enum.
template <typename Enum>
Enum choice(const FieldTable& t, const Value& v, const char* name, Enum otherwise) {
    const std::string* s = text(v, name);
    int value = s ? t.field(name).valueOf(*s) : -1;
    return value >= 0 ? static_cast<Enum>(value) : otherwise;
}

template <typename T>
std::vector<T> numbers(const Value& v, const char* name) {
    std::vector<T> out;
    if (const Value* list = v.find(name)) {
        out.reserve(list->asArray().size());
        for (const Value& item : list->asArray()) out.push_back(static_cast<T>(item.asNumber()));
    }
    return out;
}

// The normalized value (no errors) as Inputs.
Inputs readInputs(const FieldTable& t, const Value& v, std::vector<InputError>& errors) {
    Inputs in;
    if (const std::string* s = text(v, "startDate")) {
        in.startDate = *s;
        in.startSeconds = parseHttpDate(*s, kDefaultStartSeconds).value_or(kDefaultStartSeconds);
    }
    in.scenario = choice(t, v, "scenario", in.scenario);
    if (const Value* script = v.find("script")) {
        for (std::size_t i = 0; i < script->asArray().size(); ++i) {
            const Value& a = script->asArray()[i];
            ScriptEntry e;
            if (const Value* status = a.find("status")) e.status = static_cast<int>(status->asNumber());
            if (const std::string* retryAfter = text(a, "retryAfter")) e.retryAfter = *retryAfter;
            if (const std::string* date = text(a, "date")) {
                // Script dates are read against startDate (an rfc850 two-digit year's century).
                e.date = *date;
                e.dateSeconds = parseHttpDate(*date, in.startSeconds);
                if (!e.dateSeconds) {
                    std::string path = memberPath(itemPath("script", i), "date");
                    std::string detail = "must be an HTTP-date such as \"Sun, 29 Nov 2026 10:00:00 GMT\"; got " +
                                         describeValue(*a.find("date")) + ".";
                    errors.push_back({path, "bad-date", path + " " + detail, detail});
                }
            }
            e.lost = flag(a, "lost", false);
            e.dropped = flag(a, "dropped", false);
            in.script.push_back(std::move(e));
        }
    }
    in.operation = choice(t, v, "operation", in.operation);
    if (const std::string* s = text(v, "operationId")) in.operationId = *s;
    in.maxRetries = static_cast<int>(number(v, "maxRetries", in.maxRetries));
    in.baseBackoffMs = number(v, "baseBackoffMs", in.baseBackoffMs);
    in.backoffMultiplier = number(v, "backoffMultiplier", in.backoffMultiplier);
    in.maxBackoffMs = optionalNumber(v, "maxBackoffMs", in.maxBackoffMs);
    in.jitter = choice(t, v, "jitter", in.jitter);
    in.draws = numbers<double>(v, "draws");
    in.seed = static_cast<std::uint64_t>(number(v, "seed", static_cast<double>(in.seed)));
    in.clientTimeoutMs = number(v, "clientTimeoutMs", in.clientTimeoutMs);
    in.deadlineMs = optionalNumber(v, "deadlineMs", in.deadlineMs);
    in.waitBudgetMs = optionalNumber(v, "waitBudgetMs", in.waitBudgetMs);
    in.responseMs = number(v, "responseMs", in.responseMs);
    in.idempotencyKey = flag(v, "idempotencyKey", in.idempotencyKey);
    if (const Value* classes = v.find("retryOn")) {
        const Field& item = t.field("retryOn").item.front();
        in.retryOn = RetryOn{false, false, false, false};
        for (const Value& name : classes->asArray()) {
            switch (static_cast<FailureClass>(item.valueOf(name.asString()))) {
                case FailureClass::Timeout: in.retryOn.timeout = true; break;
                case FailureClass::TooManyRequests: in.retryOn.tooManyRequests = true; break;
                case FailureClass::ServerError: in.retryOn.serverError = true; break;
                case FailureClass::ClientError: in.retryOn.clientError = true; break;
                case FailureClass::Success:
                case FailureClass::Other: break;
            }
        }
    }
    in.retryWritesWithoutKey = flag(v, "retryWritesWithoutKey", in.retryWritesWithoutKey);
    in.honourRetryAfter = flag(v, "honourRetryAfter", in.honourRetryAfter);
    in.callers = static_cast<std::uint32_t>(number(v, "callers", in.callers));
    in.firstRetryImmediate = flag(v, "firstRetryImmediate", in.firstRetryImmediate);
    in.minBackoffMs = number(v, "minBackoffMs", in.minBackoffMs);
    in.jitterLow = number(v, "jitterLow", in.jitterLow);
    in.jitterHigh = number(v, "jitterHigh", in.jitterHigh);
    in.ceilingScheduleMs = numbers<double>(v, "ceilingScheduleMs");
    in.retryOnStatuses = numbers<int>(v, "retryOnStatuses");
    in.retryAfterStatuses = numbers<int>(v, "retryAfterStatuses");
    in.retryAfterMode = choice(t, v, "retryAfterMode", in.retryAfterMode);
    in.retryAfterMaxMs = optionalNumber(v, "retryAfterMaxMs", in.retryAfterMaxMs);
    return in;
}

// The rules between fields that the table cannot say, on what the generic pass found valid.
void checkAcrossFields(const Value& raw, const Value& normalized, std::vector<InputError>& errors) {
    // A dropped request never reaches the server, so it has no response to lose.
    const Value* script = raw.kind() == Value::Kind::Object ? raw.find("script") : nullptr;
    if (script && script->kind() == Value::Kind::Array && script->asArray().size() <= 1000) {
        for (std::size_t i = 0; i < script->asArray().size(); ++i) {
            const Value& a = script->asArray()[i];
            if (a.kind() != Value::Kind::Object) continue;
            const Value* lost = a.find("lost");
            const Value* dropped = a.find("dropped");
            if (!lost || !dropped || lost->kind() != Value::Kind::Bool || dropped->kind() != Value::Kind::Bool ||
                !lost->asBool() || !dropped->asBool())
                continue;
            std::string entry = itemPath("script", i);
            std::string detail = "cannot be both lost and dropped: a dropped request never reaches the server, so it "
                                 "has no response to lose.";
            errors.push_back({memberPath(entry, "dropped"), "conflict", entry + " " + detail, detail});
        }
    }
    const Value* low = normalized.find("jitterLow");
    const Value* high = normalized.find("jitterHigh");
    if (low && high && low->asNumber() > high->asNumber()) {
        std::string detail = "must be at least jitterLow (" + formatMs(low->asNumber(), 6) + "); got " +
                             formatMs(high->asNumber(), 6) + ".";
        errors.push_back({"jitterHigh", "conflict", "jitterHigh " + detail, detail});
    }
}

}  // namespace

const FieldTable& inputFields() {
    static const FieldTable table = makeInputs();
    return table;
}

ParsedInputs parseInputs(const Value& raw) {
    const FieldTable& table = inputFields();
    Normalized normalized = normalize(table, raw);
    ParsedInputs result;
    result.errors = std::move(normalized.errors);
    if (raw.kind() != Value::Kind::Object) return result;
    checkAcrossFields(raw, normalized.value, result.errors);
    if (!result.errors.empty()) return result;
    Inputs in = readInputs(table, normalized.value, result.errors);
    if (!result.errors.empty()) return result;
    result.inputs = std::move(in);
    result.echo = std::move(normalized.value);
    return result;
}

Value validate(const Value& raw) {
    ParsedInputs parsed = parseInputs(raw);
    Value v = Value::object();
    v.set("ok", Value::boolean(parsed.errors.empty()));
    v.set("errors", errorsToValue(parsed.errors));
    return v;
}

Value schema() {
    Value v = Value::object();
    v.set("engine", Value::string(engineVersion()));
    v.set(inputFields().name, tableToValue(inputFields()));
    return v;
}

}  // namespace retrylab
