// SPEC §7: turn a raw Value into Inputs, naming every bad field. Work is bounded by the sizes
// the spec allows: lists are checked item by item only up to their limit, and only the first
// few bad items of a list are named one by one.
#include <algorithm>
#include <cmath>
#include <string_view>

#include "format.hpp"
#include "http_date.hpp"
#include "retrylab/engine.hpp"

namespace retrylab {

namespace {

constexpr double kMaxMs = 86400000;
constexpr double kMaxSafeInteger = 9007199254740991.0;  // 2^53 - 1
constexpr std::size_t kMaxDraws = 100000;
constexpr std::size_t kMaxScript = 1000;
constexpr int kItemErrorsNamed = 10;  // per list; the rest are counted in one more error

const std::int64_t kDefaultStartSeconds = Inputs{}.startSeconds;

constexpr std::string_view kFields[] = {
    "scenario", "script", "operation", "operationId", "maxRetries", "baseBackoffMs", "backoffMultiplier",
    "maxBackoffMs", "jitter", "draws", "seed", "clientTimeoutMs", "deadlineMs", "waitBudgetMs",
    "responseMs", "idempotencyKey", "retryOn", "retryWritesWithoutKey", "honourRetryAfter", "startDate",
    "callers", "firstRetryImmediate", "minBackoffMs", "jitterLow", "jitterHigh", "ceilingScheduleMs",
    "retryOnStatuses", "retryAfterStatuses", "retryAfterMode", "retryAfterMaxMs"};
constexpr std::string_view kEntryFields[] = {"status", "retryAfter", "date", "lost", "dropped"};

std::string quoted(const std::string& s) {
    constexpr std::size_t shown = 40;
    if (s.size() <= shown) return "\"" + s + "\"";
    std::size_t cut = shown;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // keep UTF-8 whole
    return "\"" + s.substr(0, cut) + "…\" (" + formatInt(static_cast<std::int64_t>(s.size())) + " bytes)";
}

std::string describe(const Value& v) {
    switch (v.kind()) {
        case Value::Kind::Number: return std::isfinite(v.asNumber()) ? formatMs(v.asNumber(), 6)
                                       : std::isnan(v.asNumber()) ? "NaN" : "an infinite number";
        case Value::Kind::String: return "the string " + quoted(v.asString());
        case Value::Kind::Bool: return v.asBool() ? "true" : "false";
        case Value::Kind::Unsupported: return v.asString();
        default: return describeKind(v.kind());
    }
}

std::size_t codePoints(const std::string& s) {
    std::size_t count = 0;
    for (char c : s) count += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return count;
}

std::string names(const std::string_view* first, const std::string_view* last) {
    std::string out;
    for (const std::string_view* p = first; p != last; ++p) {
        if (!out.empty()) out += p + 1 == last ? " or " : ", ";
        out += "\"" + std::string(*p) + "\"";
    }
    return out;
}

class Validator {
public:
    explicit Validator(std::vector<InputError>& errors) : errors_(errors) {}

    void fail(const std::string& field, const std::string& message) { errors_.push_back({field, message}); }

    // A number in [lo, hi]; `whole` requires an integer.
    bool number(const std::string& field, const Value& v, double lo, double hi, bool whole, double& out) {
        std::string what = whole ? "a whole number" : "a number";
        std::string range = " from " + formatMs(lo, 6) + " to " + formatMs(hi, 6);
        if (v.kind() != Value::Kind::Number || !std::isfinite(v.asNumber())) {
            fail(field, field + " must be " + what + range + "; got " + describe(v) + ".");
            return false;
        }
        double x = v.asNumber();
        if (whole && std::floor(x) != x) {
            fail(field, field + " must be a whole number" + range + "; got " + describe(v) + ".");
            return false;
        }
        if (x < lo || x > hi) {
            fail(field, field + " must be " + what + range + "; got " + describe(v) + ".");
            return false;
        }
        out = x == 0 ? 0.0 : x;  // -0 reads as 0
        return true;
    }

    bool optionalNumber(const std::string& field, const Value& v, double hi, std::optional<double>& out) {
        if (v.isNull()) {
            out.reset();
            return true;
        }
        if (v.kind() != Value::Kind::Number) {
            fail(field, field + " must be null (none) or a number from 0 to " + formatMs(hi, 6) + "; got " +
                            describe(v) + ".");
            return false;
        }
        double x = 0;
        if (!number(field, v, 0, hi, false, x)) return false;
        out = x;
        return true;
    }

    bool boolean(const std::string& field, const Value& v, bool& out) {
        if (v.kind() != Value::Kind::Bool) {
            fail(field, field + " must be true or false; got " + describe(v) + ".");
            return false;
        }
        out = v.asBool();
        return true;
    }

    bool string(const std::string& field, const Value& v, std::string& out) {
        if (v.kind() != Value::Kind::String) {
            fail(field, field + " must be a string; got " + describe(v) + ".");
            return false;
        }
        out = v.asString();
        return true;
    }

    // One of `choices`; returns its index.
    template <std::size_t N>
    bool choice(const std::string& field, const Value& v, const std::string_view (&choices)[N], std::size_t& out) {
        if (v.kind() == Value::Kind::String) {
            for (std::size_t i = 0; i < N; ++i) {
                if (v.asString() == choices[i]) {
                    out = i;
                    return true;
                }
            }
        }
        fail(field, field + " must be one of " + names(choices, choices + N) + "; got " + describe(v) + ".");
        return false;
    }

    bool httpDate(const std::string& field, const Value& v, std::int64_t reference, std::int64_t& out) {
        std::string text;
        if (!string(field, v, text)) return false;
        auto parsed = parseHttpDate(text, reference);
        if (!parsed) {
            fail(field, field + " must be an HTTP-date such as \"Sun, 29 Nov 2026 10:00:00 GMT\"; got " +
                            describe(v) + ".");
            return false;
        }
        out = *parsed;
        return true;
    }

    // A list of at most `limit` items; too long or not a list is one error.
    bool list(const std::string& field, const Value& v, std::size_t limit, const std::string& of) {
        if (v.kind() != Value::Kind::Array) {
            fail(field, field + " must be a list of " + of + "; got " + describe(v) + ".");
            return false;
        }
        if (v.asArray().size() > limit) {
            fail(field, field + " may hold at most " + formatInt(static_cast<std::int64_t>(limit)) + " " + of +
                            "; got " + (v.asArray().size() > limit + 1 ? "more" : formatInt(static_cast<std::int64_t>(v.asArray().size()))) + ".");
            return false;
        }
        return true;
    }

    // Called for each bad item of a list: names the first few, then counts the rest.
    bool itemBudget(int& badItems) {
        ++badItems;
        return badItems <= kItemErrorsNamed;
    }

    void itemSummary(const std::string& field, int badItems) {
        if (badItems > kItemErrorsNamed)
            fail(field, field + " has " + formatInt(badItems - kItemErrorsNamed) + " more bad items not listed here.");
    }

private:
    std::vector<InputError>& errors_;
};

constexpr std::string_view kScenarios[] = {"response-lost", "request-lost", "outage-503-twice", "bad-request-400",
                                           "script"};
constexpr std::string_view kOperations[] = {"charge", "create", "read"};
constexpr std::string_view kJitters[] = {"none", "full", "equal", "decorrelated", "proportional"};
constexpr std::string_view kRetryAfterModes[] = {"replace", "at-least"};
constexpr std::string_view kClasses[] = {"timeout", "429", "5xx", "4xx"};

void readDraws(Validator& check, const Value& v, Inputs& in) {
    if (!check.list("draws", v, kMaxDraws, "numbers from 0 to 1")) return;
    std::vector<double> draws;
    draws.reserve(v.asArray().size());
    int bad = 0;
    for (std::size_t i = 0; i < v.asArray().size(); ++i) {
        const Value& item = v.asArray()[i];
        if (item.kind() == Value::Kind::Number && item.asNumber() >= 0 && item.asNumber() <= 1) {
            draws.push_back(item.asNumber() == 0 ? 0.0 : item.asNumber());
            continue;
        }
        if (check.itemBudget(bad)) {
            std::string field = "draws[" + formatInt(static_cast<std::int64_t>(i)) + "]";
            check.fail(field, field + " must be a number from 0 to 1; got " + describe(item) + ".");
        }
    }
    check.itemSummary("draws", bad);
    in.draws = std::move(draws);
}

void readRetryOn(Validator& check, const Value& v, Inputs& in) {
    if (!check.list("retryOn", v, 4, "failure classes (\"timeout\", \"429\", \"5xx\", \"4xx\")")) return;
    RetryOn classes{false, false, false, false};
    std::vector<std::string> given;
    bool seen[4] = {false, false, false, false};
    for (std::size_t i = 0; i < v.asArray().size(); ++i) {
        std::string field = "retryOn[" + formatInt(static_cast<std::int64_t>(i)) + "]";
        std::size_t index = 0;
        if (!check.choice(field, v.asArray()[i], kClasses, index)) continue;
        if (seen[index]) {
            check.fail(field, field + " repeats \"" + std::string(kClasses[index]) + "\"; each class may appear once.");
            continue;
        }
        seen[index] = true;
        given.emplace_back(kClasses[index]);
    }
    classes.timeout = seen[0];
    classes.tooManyRequests = seen[1];
    classes.serverError = seen[2];
    classes.clientError = seen[3];
    in.retryOn = classes;
    in.retryOnNames = std::move(given);
}

void readScriptEntry(Validator& check, const Value& v, const std::string& path, std::int64_t startSeconds,
                     ScriptEntry& entry) {
    if (v.kind() != Value::Kind::Object) {
        check.fail(path, path + " must be an object such as { \"status\": 503 }; got " + describe(v) + ".");
        return;
    }
    for (const Value::Member& m : v.asObject()) {
        bool known = false;
        for (std::string_view f : kEntryFields) known = known || m.key == f;
        if (!known)
            check.fail(path + "." + m.key, path + "." + m.key + " is not a script field; an answer may have " +
                                               names(std::begin(kEntryFields), std::end(kEntryFields)) + ".");
    }
    if (const Value* f = v.find("lost")) check.boolean(path + ".lost", *f, entry.lost);
    if (const Value* f = v.find("dropped")) check.boolean(path + ".dropped", *f, entry.dropped);
    if (entry.lost && entry.dropped)
        check.fail(path + ".dropped", path + " cannot be both lost and dropped: a dropped request never reaches "
                                             "the server, so it has no response to lose.");
    if (const Value* f = v.find("status")) {
        double status = 0;
        if (check.number(path + ".status", *f, 100, 599, true, status)) entry.status = static_cast<int>(status);
    } else if (!entry.dropped) {
        check.fail(path + ".status", path + ".status is missing: every answer that reaches the server needs a "
                                            "status from 100 to 599 (only a dropped request has none).");
    }
    if (const Value* f = v.find("retryAfter")) {
        std::string raw;
        if (check.string(path + ".retryAfter", *f, raw)) {
            if (raw.size() > 1000)
                check.fail(path + ".retryAfter", path + ".retryAfter may be at most 1000 characters; got " +
                                                     formatInt(static_cast<std::int64_t>(raw.size())) + ".");
            else
                entry.retryAfter = raw;
        }
    }
    if (const Value* f = v.find("date")) {
        std::int64_t seconds = 0;
        if (check.httpDate(path + ".date", *f, startSeconds, seconds)) {
            entry.date = f->asString();
            entry.dateSeconds = seconds;
        }
    }
}

void readScript(Validator& check, const Value& v, Inputs& in) {
    if (v.kind() == Value::Kind::Array && v.asArray().empty()) {
        check.fail("script", "script needs at least one answer.");
        return;
    }
    if (!check.list("script", v, kMaxScript, "answers")) return;
    in.script.resize(v.asArray().size());
    for (std::size_t i = 0; i < v.asArray().size(); ++i)
        readScriptEntry(check, v.asArray()[i], "script[" + formatInt(static_cast<std::int64_t>(i)) + "]",
                        in.startSeconds, in.script[i]);
}

// A list of distinct HTTP statuses.
void readStatuses(Validator& check, const char* name, const Value& v, std::vector<int>& out) {
    if (!check.list(name, v, 500, "statuses from 100 to 599")) return;
    std::vector<int> statuses;
    for (std::size_t i = 0; i < v.asArray().size(); ++i) {
        std::string field = std::string(name) + "[" + formatInt(static_cast<std::int64_t>(i)) + "]";
        double status = 0;
        if (!check.number(field, v.asArray()[i], 100, 599, true, status)) continue;
        if (std::find(statuses.begin(), statuses.end(), static_cast<int>(status)) != statuses.end()) {
            check.fail(field, field + " repeats " + formatInt(static_cast<std::int64_t>(status)) + "; each status may appear once.");
            continue;
        }
        statuses.push_back(static_cast<int>(status));
    }
    out = std::move(statuses);
}

void readSchedule(Validator& check, const Value& v, Inputs& in) {
    if (!check.list("ceilingScheduleMs", v, 100, "ceilings in ms")) return;
    std::vector<double> schedule;
    for (std::size_t i = 0; i < v.asArray().size(); ++i) {
        double ceiling = 0;
        if (check.number("ceilingScheduleMs[" + formatInt(static_cast<std::int64_t>(i)) + "]", v.asArray()[i], 0, kMaxMs,
                         false, ceiling))
            schedule.push_back(ceiling);
    }
    in.ceilingScheduleMs = std::move(schedule);
}

// The knobs beyond SPEC §2 (docs/engine-knobs.md).
void readClientKnobs(Validator& check, const Value& raw, Inputs& in) {
    if (const Value* v = raw.find("firstRetryImmediate")) check.boolean("firstRetryImmediate", *v, in.firstRetryImmediate);
    if (const Value* v = raw.find("minBackoffMs")) check.number("minBackoffMs", *v, 0, kMaxMs, false, in.minBackoffMs);
    const Value* low = raw.find("jitterLow");
    const Value* high = raw.find("jitterHigh");
    const Value* jitter = raw.find("jitter");
    bool proportional = jitter && jitter->kind() == Value::Kind::String && jitter->asString() == "proportional";
    for (const char* name : {"jitterLow", "jitterHigh"}) {
        if (raw.find(name) && !proportional)
            check.fail(name, std::string(name) + " is used only with jitter \"proportional\".");
    }
    if (proportional) {
        bool lowOk = !low || check.number("jitterLow", *low, 0, 2, false, in.jitterLow);
        bool highOk = !high || check.number("jitterHigh", *high, 0, 2, false, in.jitterHigh);
        if (lowOk && highOk && in.jitterLow > in.jitterHigh)
            check.fail("jitterHigh", "jitterHigh must be at least jitterLow (" + formatMs(in.jitterLow, 6) + "); got " +
                                         formatMs(in.jitterHigh, 6) + ".");
    }
    if (const Value* v = raw.find("ceilingScheduleMs")) readSchedule(check, *v, in);
    if (const Value* v = raw.find("retryOnStatuses")) readStatuses(check, "retryOnStatuses", *v, in.retryOnStatuses);
    if (const Value* v = raw.find("retryAfterStatuses"))
        readStatuses(check, "retryAfterStatuses", *v, in.retryAfterStatuses);
    std::size_t index = 0;
    if (const Value* v = raw.find("retryAfterMode"); v && check.choice("retryAfterMode", *v, kRetryAfterModes, index))
        in.retryAfterMode = static_cast<RetryAfterMode>(index);
    if (const Value* v = raw.find("retryAfterMaxMs")) check.optionalNumber("retryAfterMaxMs", *v, kMaxMs, in.retryAfterMaxMs);
}

}  // namespace

ParsedInputs parseInputs(const Value& raw) {
    ParsedInputs result;
    Validator check(result.errors);
    if (raw.kind() != Value::Kind::Object) {
        check.fail("", "The inputs must be an object such as { \"maxRetries\": 3 }; got " + describe(raw) + ".");
        return result;
    }
    for (const Value::Member& m : raw.asObject()) {
        bool known = false;
        for (std::string_view f : kFields) known = known || m.key == f;
        if (!known) check.fail(m.key, m.key + " is not an input of the engine (check its spelling).");
    }

    Inputs in;
    std::size_t index = 0;
    double number = 0;
    auto get = [&](const char* name) { return raw.find(name); };

    // startDate first: script dates in rfc850 form are read against it.
    if (const Value* v = get("startDate")) {
        if (check.httpDate("startDate", *v, kDefaultStartSeconds, in.startSeconds)) in.startDate = v->asString();
    }
    if (const Value* v = get("scenario"); v && check.choice("scenario", *v, kScenarios, index))
        in.scenario = static_cast<Scenario>(index);
    bool scenarioIsScript = in.scenario == Scenario::Script;
    if (const Value* v = get("scenario"); v && v->kind() == Value::Kind::String && v->asString() == "script")
        scenarioIsScript = true;
    if (const Value* v = get("script")) {
        if (scenarioIsScript)
            readScript(check, *v, in);
        else
            check.fail("script", "script is used only with scenario \"script\"; the named scenario already "
                                 "decides the server's answers.");
    } else if (scenarioIsScript) {
        check.fail("script", "script is missing: scenario \"script\" needs a list of server answers such as "
                             "[{ \"status\": 503 }, { \"status\": 200 }].");
    }
    if (const Value* v = get("operation"); v && check.choice("operation", *v, kOperations, index))
        in.operation = static_cast<Operation>(index);
    if (const Value* v = get("operationId"); v && check.string("operationId", *v, in.operationId)) {
        std::size_t length = codePoints(in.operationId);
        if (length < 1 || length > 255)
            check.fail("operationId", "operationId must be 1 to 255 characters long; got " +
                                          formatInt(static_cast<std::int64_t>(length)) + ".");
    }
    if (const Value* v = get("maxRetries"); v && check.number("maxRetries", *v, 0, 100, true, number))
        in.maxRetries = static_cast<int>(number);
    if (const Value* v = get("baseBackoffMs")) check.number("baseBackoffMs", *v, 0, kMaxMs, false, in.baseBackoffMs);
    if (const Value* v = get("backoffMultiplier"))
        check.number("backoffMultiplier", *v, 1, 10, false, in.backoffMultiplier);
    if (const Value* v = get("maxBackoffMs")) check.optionalNumber("maxBackoffMs", *v, kMaxMs, in.maxBackoffMs);
    if (const Value* v = get("jitter"); v && check.choice("jitter", *v, kJitters, index))
        in.jitter = static_cast<Jitter>(index);
    if (const Value* v = get("draws")) readDraws(check, *v, in);
    if (const Value* v = get("seed"); v && check.number("seed", *v, 0, kMaxSafeInteger, true, number))
        in.seed = static_cast<std::uint64_t>(number);
    if (const Value* v = get("clientTimeoutMs"))
        check.number("clientTimeoutMs", *v, 1, kMaxMs, false, in.clientTimeoutMs);
    if (const Value* v = get("deadlineMs")) check.optionalNumber("deadlineMs", *v, kMaxMs, in.deadlineMs);
    if (const Value* v = get("waitBudgetMs")) check.optionalNumber("waitBudgetMs", *v, kMaxMs, in.waitBudgetMs);
    if (const Value* v = get("responseMs")) check.number("responseMs", *v, 0, kMaxMs, false, in.responseMs);
    if (const Value* v = get("idempotencyKey")) check.boolean("idempotencyKey", *v, in.idempotencyKey);
    if (const Value* v = get("retryOn")) readRetryOn(check, *v, in);
    if (const Value* v = get("retryWritesWithoutKey"))
        check.boolean("retryWritesWithoutKey", *v, in.retryWritesWithoutKey);
    if (const Value* v = get("honourRetryAfter")) check.boolean("honourRetryAfter", *v, in.honourRetryAfter);
    if (const Value* v = get("callers"); v && check.number("callers", *v, 1, 1000000, true, number))
        in.callers = static_cast<std::uint32_t>(number);

    readClientKnobs(check, raw, in);

    if (result.errors.empty()) result.inputs = std::move(in);
    return result;
}

}  // namespace retrylab
