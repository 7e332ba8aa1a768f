// The .NET appsettings reader (docs/config-in.md §9): the section bound to
// HttpStandardResilienceOptions (or the hedging handler's options), read as the configuration
// binder reads text (§9.2), Polly 8.7.0's backoff rule (§9.3) and the options validator's three
// rules as warnings.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "config_read.hpp"

namespace retrylab::config::detail {
namespace {

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// A member of `obj` by name, ignoring case (configuration keys are case-insensitive).
const Value* member(const Value& obj, const std::string& name, std::string* key = nullptr) {
    if (obj.kind() != Value::Kind::Object) return nullptr;
    for (const Value::Member& m : obj.asObject())
        if (lower(m.key) == lower(name)) {
            if (key) *key = m.key;
            return &m.value;
        }
    return nullptr;
}

const std::vector<std::string> kStandard = {"Retry", "AttemptTimeout", "TotalRequestTimeout", "CircuitBreaker",
                                            "RateLimiter"};
const std::vector<std::string> kHedging = {"Hedging", "Endpoint", "TotalRequestTimeout"};

bool isCandidate(const Value& v) {
    if (v.kind() != Value::Kind::Object) return false;
    for (const char* n :
         {"Retry", "AttemptTimeout", "TotalRequestTimeout", "CircuitBreaker", "RateLimiter", "Hedging", "Endpoint"})
        if (member(v, n)) return true;
    return false;
}

struct Candidate {
    std::string path, name;  // engine path ("A.B"), configuration path ("A:B")
    const Value* value;
};

// §9.1: depth first in file order, never inside a candidate.
void findCandidates(const Value& v, const std::string& path, const std::string& name, std::vector<Candidate>& out,
                    int depth = 0) {
    if (depth > 64) return;
    if (isCandidate(v)) {
        out.push_back({path, name, &v});
        return;
    }
    if (v.kind() == Value::Kind::Object)
        for (const Value::Member& m : v.asObject())
            findCandidates(m.value, join(path, m.key), name.empty() ? m.key : name + ":" + m.key, out, depth + 1);
    else if (v.kind() == Value::Kind::Array)
        for (std::size_t i = 0; i < v.asArray().size(); ++i)
            findCandidates(v.asArray()[i], indexed(path, i), (name.empty() ? "" : name + ":") + std::to_string(i), out,
                           depth + 1);
}

// §9.2: the binder reads every value as text.
std::optional<std::string> text(Reading& r, const std::string& path, const Value& v) {
    switch (v.kind()) {
        case Value::Kind::String: return v.asString();
        case Value::Kind::Number: {
            std::string g = grouped(v.asNumber());
            g.erase(std::remove(g.begin(), g.end(), ','), g.end());
            return g;
        }
        case Value::Kind::Bool: return std::string(v.asBool() ? "True" : "False");
        default:
            r.error(path, "wrong-type",
                    path + " must be a value the configuration binder reads as text; got " + shown(v));
            return std::nullopt;
    }
}

std::string trimmed(const std::string& s) {
    const std::string space = " \t\n\r\f\v";
    std::size_t a = s.find_first_not_of(space);
    if (a == std::string::npos) return "";
    return s.substr(a, s.find_last_not_of(space) - a + 1);
}

// int.Parse (invariant): white space, an optional sign, digits; an Int32.
std::optional<double> readInt(Reading& r, const std::string& path, const Value& v) {
    auto t = text(r, path, v);
    if (!t) return std::nullopt;
    std::string s = trimmed(*t);
    std::size_t i = (!s.empty() && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
    bool digits = i < s.size();
    double n = 0;
    for (std::size_t k = i; k < s.size(); ++k) {
        digits = digits && s[k] >= '0' && s[k] <= '9';
        if (digits) n = std::min(n * 10 + (s[k] - '0'), 1e12);
    }
    if (!digits || n > 2147483647.0 + (s[0] == '-' ? 1 : 0)) {
        r.error(path, "wrong-type",
                path + " must be a whole number (an Int32, as int.Parse reads text); got " + shown(v));
        return std::nullopt;
    }
    return s[0] == '-' ? -n : n;
}

std::optional<double> readDouble(Reading& r, const std::string& path, const Value& v) {
    if (v.kind() == Value::Kind::Number) return v.asNumber();
    auto t = text(r, path, v);
    if (!t) return std::nullopt;
    std::string s = trimmed(*t);
    char* end = nullptr;
    double d = s.empty() ? 0 : std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || !std::isfinite(d) || s.find_first_of("xXpP") != std::string::npos) {
        r.error(path, "wrong-type", path + " must be a number (as double.Parse reads text); got " + shown(v));
        return std::nullopt;
    }
    return d;
}

std::optional<bool> readBool(Reading& r, const std::string& path, const Value& v) {
    auto t = text(r, path, v);
    if (!t) return std::nullopt;
    std::string s = lower(trimmed(*t));
    if (s == "true") return true;
    if (s == "false") return false;
    r.error(path, "wrong-type", path + " must be true or false (ignoring case); got " + shown(v));
    return std::nullopt;
}

// A TimeSpan (§2.2 `timespan`) as ms, within [lo, hi] ms (Polly's range, cited by the caller).
std::optional<double> readSpan(Reading& r, const std::string& path, const Value& v, double lo, double hi,
                               const std::string& range) {
    auto t = text(r, path, v);
    if (!t) return std::nullopt;
    std::int64_t ticks = 0;
    if (!parseTimespan(*t, ticks)) {
        r.error(path, "bad-duration",
                path + " must be a .NET TimeSpan such as \"00:00:02\" ([d.]hh:mm[:ss[.fffffff]]); got \"" + *t + "\"");
        return std::nullopt;
    }
    double ms = static_cast<double>(ticks) / 10000;
    if (ms < lo || ms > hi) {
        r.error(path, "out-of-range", path + " must be " + range + "; got \"" + *t + "\"");
        return std::nullopt;
    }
    std::string plain = trimmed(*t);
    if (plain.find(':') == std::string::npos)
        r.warn(path, path + " " + plain + " reads as " + plain + ".00:00:00, " + plain + " day(s); write \"00:00:0" +
                         plain.substr(0, 1) + "\"-style text (hh:mm:ss) for seconds");
    return ms;
}

// The keys each options object has (§2.3): those read, those set in code only (delegates).
struct Known {
    std::vector<std::string> read, delegates;
};
const Known kRetryKeys = {
    {"MaxRetryAttempts", "Delay", "MaxDelay", "BackoffType", "UseJitter", "ShouldRetryAfterHeader", "Name"},
    {"ShouldHandle", "OnRetry", "DelayGenerator", "Randomizer"}};
const Known kTimeoutKeys = {{"Timeout", "Name"}, {"TimeoutGenerator", "OnTimeout"}};
const Known kBreakerKeys = {{"FailureRatio", "MinimumThroughput", "SamplingDuration", "BreakDuration", "Name"},
                            {"ShouldHandle", "OnOpened", "OnClosed", "OnHalfOpened", "ManualControl", "StateProvider",
                             "BreakDurationGenerator"}};

// Every key of `obj` one of `k` (ignoring case), delegates not-modelled; false on an error.
bool checkOptions(Reading& r, const std::string& path, const Value& obj, const Known& k, const std::string& what) {
    if (!r.object(path, obj)) return false;
    std::vector<std::string> all = k.read;
    all.insert(all.end(), k.delegates.begin(), k.delegates.end());
    for (const Value::Member& m : obj.asObject()) {
        std::string p = join(path, m.key);
        auto is = [&](const std::vector<std::string>& names) {
            return std::any_of(names.begin(), names.end(),
                               [&](const std::string& n) { return lower(n) == lower(m.key); });
        };
        if (is(k.delegates)) {
            Entry& e = r.entry(p, "not-modelled");
            e.rule = m.key + " → none";
            e.note = "set in code, not in configuration (a delegate)";
        } else if (!is(k.read)) {
            std::vector<std::string> lowered;
            for (const std::string& n : all) lowered.push_back(lower(n));
            std::string near = closest(lower(m.key), lowered);
            for (const std::string& n : all)
                if (lower(n) == near) near = n;
            r.error(p, "unknown-field",
                    p + " is not a field of " + what + (near.empty() ? "" : " (did you mean " + near + "?)"));
        } else if (lower(m.key) == "name") {
            Entry& e = r.entry(p, "read");
            e.source = m.value;
            e.hasSource = true;
            e.rule = "Name → none (a name for telemetry)";
        }
    }
    return !r.failed();
}

const char* const kPolly = "App-vNext/Polly 8.7.0 (a824c6b9) src/Polly.Core/";
const char* const kExt = "dotnet/extensions v10.9.0 (b10f9c0a) src/Libraries/Microsoft.Extensions.Http.Resilience/";

// One option read or defaulted: the entry, and the value (its source, or the default).
Entry& optionEntry(Reading& r, const std::string& path, const Value* given, Value fallback, const std::string& rule,
                   const std::string& cite) {
    Entry& e = r.entry(path, given ? "read" : "defaulted");
    e.source = given ? *given : std::move(fallback);
    e.hasSource = true;
    e.rule = rule;
    if (!given) e.cite = cite;
    return e;
}

struct RetryRead {
    double retries = 3, delayMs = 2000;
    std::optional<double> maxDelayMs;
    std::string type = "Exponential";
    bool jitter = true;
};

bool readRetry(Reading& r, const std::string& sp, const Value& section, RetryRead& out) {
    std::string key = "Retry";
    const Value* retry = member(section, "Retry", &key);
    std::string rp = join(sp, key);
    const Value empty = Value::object();
    if (retry && !checkOptions(r, rp, *retry, kRetryKeys, "Polly's RetryStrategyOptions")) return false;
    const Value& o = retry ? *retry : empty;
    auto at = [&](const char* name, std::string* k) {
        *k = name;
        const Value* v = member(o, name, k);
        return v;
    };
    std::string k;
    // MaxRetryAttempts.
    if (const Value* v = at("MaxRetryAttempts", &k)) {
        auto n = readInt(r, join(rp, k), *v);
        if (!n) return false;
        if (*n < 1) {
            r.error(join(rp, k), "out-of-range",
                    join(rp, k) + " must be at least 1 (Polly RetryStrategyOptions.TResult.cs line 28); got " +
                        grouped(*n));
            return false;
        }
        out.retries = *n;
    }
    Entry& attempts = optionEntry(r, join(rp, k), at("MaxRetryAttempts", &k), Value::number(3),
                                  "MaxRetryAttempts → maxRetries = min(v, 100)",
                                  std::string(kPolly) + "Retry/RetryConstants.cs line 11");
    if (out.retries > 100) {
        attempts.status = "clamped";
        attempts.note = "MaxRetryAttempts " + grouped(out.retries) + ": the engine allows at most 100 retries";
    }
    r.input(attempts, "maxRetries", Value::number(std::min(out.retries, 100.0)));
    // Delay and MaxDelay.
    const std::string dayRange = "from 00:00:00 to 1.00:00:00 (Polly RetryStrategyOptions.TResult.cs lines 75-76)";
    const Value* delay = at("Delay", &k);
    if (delay) {
        auto ms = readSpan(r, join(rp, k), *delay, 0, kMaxMs, dayRange);
        if (!ms) return false;
        out.delayMs = *ms;
    }
    Entry& d = optionEntry(r, join(rp, k), delay, Value::string("00:00:02"), "Delay → baseBackoffMs",
                           std::string(kPolly) + "Retry/RetryConstants.cs line 15");
    r.input(d, "baseBackoffMs", Value::number(out.delayMs));
    const Value* maxDelay = at("MaxDelay", &k);
    if (maxDelay) {
        auto ms = readSpan(r, join(rp, k), *maxDelay, 0, kMaxMs, "from 00:00:00 to 1.00:00:00 (lines 89-90)");
        if (!ms) return false;
        out.maxDelayMs = *ms;
    }
    Entry& md = optionEntry(r, join(rp, k), maxDelay, Value::string("none"), "MaxDelay → maxBackoffMs (absent: no cap)",
                            std::string(kPolly) + "Retry/RetryStrategyOptions.TResult.cs lines 89-90");
    r.input(md, "maxBackoffMs", out.maxDelayMs ? Value::number(*out.maxDelayMs) : Value::null());
    // BackoffType and UseJitter, then the rule (§9.3's table).
    const Value* type = at("BackoffType", &k);
    std::string typePath = join(rp, k);
    if (type) {
        auto t = text(r, typePath, *type);
        if (!t) return false;
        std::string s = lower(trimmed(*t));
        if (s == "constant" || s == "0")
            out.type = "Constant";
        else if (s == "linear" || s == "1")
            out.type = "Linear";
        else if (s == "exponential" || s == "2")
            out.type = "Exponential";
        else {
            std::string near = closest(s, {"constant", "linear", "exponential"});
            r.error(typePath, "not-a-choice",
                    typePath + " names \"" + *t +
                        "\", which is not a DelayBackoffType (Constant, Linear, Exponential or 0-2" +
                        (near.empty() ? ")"
                                      : "; did you mean " + std::string(1, static_cast<char>(std::toupper(near[0]))) +
                                            near.substr(1) + "?)"));
            return false;
        }
    }
    const Value* jitter = at("UseJitter", &k);
    std::string jitterPath = join(rp, k);
    if (jitter) {
        auto b = readBool(r, jitterPath, *jitter);
        if (!b) return false;
        out.jitter = *b;
    }
    Entry& te = optionEntry(r, typePath, type, Value::string("Exponential"),
                            "BackoffType → backoffMultiplier or ceilingScheduleMs (Polly RetryHelper.cs lines 113-140)",
                            std::string(kExt) + "Polly/HttpRetryStrategyOptions.cs line 30");
    Entry& je = optionEntry(r, jitterPath, jitter, Value::boolean(true), "UseJitter → jitter",
                            std::string(kExt) + "Polly/HttpRetryStrategyOptions.cs line 32");
    if (out.type == "Linear") {
        Value schedule = Value::array();
        bool capped = false;
        for (double n = 1; n <= std::min(out.retries, 100.0); ++n) {
            double c = out.delayMs * n;
            capped = capped || c > kMaxMs;
            schedule.push(Value::number(std::min(c, kMaxMs)));
        }
        if (capped) te.note = "a ceiling above 86,400,000 ms is held at it (SPEC §7's bound)";
        r.input(te, "ceilingScheduleMs", std::move(schedule));
    } else {
        r.input(te, "backoffMultiplier", Value::number(out.type == "Constant" ? 1 : 2));
    }
    if (!out.jitter) {
        r.input(je, "jitter", Value::string("none"));
    } else if (out.type == "Exponential") {
        r.input(je, "jitter", Value::string("full"));
        je.approximated = true;
        je.note =
            "Polly's DecorrelatedJitterBackoffV2 (RetryHelper.cs lines 75-111) is approximated by full jitter on a "
            "doubling ceiling "
            "(docs/clients.md dotnet-standard: for a 2 s delay Polly's first wait is 0-2.754 s, median near 1.795 s; "
            "full jitter 0-2 s)";
    } else {
        r.input(je, "jitter", Value::string("proportional"));
        r.input(je, "jitterLow", Value::number(0.75));
        r.input(je, "jitterHigh", Value::number(1.25));
    }
    if (out.maxDelayMs && out.jitter) {
        md.approximated = true;
        md.note =
            "Polly caps the wait itself (RetryHelper.cs lines 30-33); the engine caps the ceiling before the jitter";
    }
    // ShouldRetryAfterHeader.
    const Value* after = at("ShouldRetryAfterHeader", &k);
    bool honour = true;
    if (after) {
        auto b = readBool(r, join(rp, k), *after);
        if (!b) return false;
        honour = *b;
    }
    Entry& he = optionEntry(r, join(rp, k), after, Value::boolean(true), "ShouldRetryAfterHeader → honourRetryAfter",
                            std::string(kExt) + "Polly/HttpRetryStrategyOptions.cs line 31");
    r.input(he, "honourRetryAfter", Value::boolean(honour));
    return true;
}

// AttemptTimeout.Timeout or TotalRequestTimeout.Timeout (or the hedging Endpoint's): ms.
std::optional<double> readTimeout(Reading& r, const std::string& sp, const Value& section, const char* option,
                                  double fallbackMs, const char* fallbackText, const std::string& input,
                                  const std::string& cite) {
    std::string key = option;
    const Value* obj = member(section, option, &key);
    std::string op = join(sp, key);
    const Value empty = Value::object();
    if (obj && !checkOptions(r, op, *obj, kTimeoutKeys, "Polly's TimeoutStrategyOptions")) return std::nullopt;
    std::string k = "Timeout";
    const Value* t = member(obj ? *obj : empty, "Timeout", &k);
    double ms = fallbackMs;
    if (t) {
        auto v = readSpan(r, join(op, k), *t, 10, kMaxMs,
                          "from 00:00:00.01 to 1.00:00:00 (Polly TimeoutStrategyOptions.cs lines 22-24)");
        if (!v) return std::nullopt;
        ms = *v;
    }
    Entry& e =
        optionEntry(r, join(op, k), t, Value::string(fallbackText), std::string(option) + ".Timeout → " + input, cite);
    r.input(e, input, Value::number(ms));
    return ms;
}

bool readBreaker(Reading& r, const std::string& sp, const Value& section, double& samplingMs) {
    std::string key = "CircuitBreaker";
    const Value* cb = member(section, "CircuitBreaker", &key);
    std::string cp = join(sp, key);
    samplingMs = 30000;
    if (!cb) {
        Entry& e = r.entry(cp, "not-modelled");
        e.source =
            Value::string("FailureRatio 0.1, MinimumThroughput 100, SamplingDuration 00:00:30, BreakDuration 00:00:05");
        e.hasSource = true;
        e.rule = "CircuitBreaker (defaulted) → none";
        e.cite = std::string(kPolly) + "CircuitBreaker/CircuitBreakerConstants.cs lines 13-21";
        e.note = "Polly's breaker samples over time, FLEET's counts the last N outcomes: no fleet gate is set";
        return true;
    }
    if (!checkOptions(r, cp, *cb, kBreakerKeys, "Polly's CircuitBreakerStrategyOptions")) return false;
    std::string k;
    if (const Value* v = member(*cb, "FailureRatio", &k)) {
        auto d = readDouble(r, join(cp, k), *v);
        if (!d) return false;
        if (*d < 0 || *d > 1)
            return r.error(join(cp, k), "out-of-range",
                           join(cp, k) +
                               " must be from 0 to 1 (CircuitBreakerStrategyOptions.TResult.cs lines 39-70); got " +
                               grouped(*d)),
                   false;
    }
    if (const Value* v = member(*cb, "MinimumThroughput", &k)) {
        auto n = readInt(r, join(cp, k), *v);
        if (!n) return false;
        if (*n < 2)
            return r.error(join(cp, k), "out-of-range",
                           join(cp, k) +
                               " must be at least 2 (CircuitBreakerStrategyOptions.TResult.cs lines 39-70); got " +
                               grouped(*n)),
                   false;
    }
    for (const char* name : {"SamplingDuration", "BreakDuration"})
        if (const Value* v = member(*cb, name, &k)) {
            auto ms = readSpan(r, join(cp, k), *v, 500, kMaxMs,
                               "from 00:00:00.5 to 1.00:00:00 (CircuitBreakerStrategyOptions.TResult.cs lines 39-70)");
            if (!ms) return false;
            if (std::string(name) == "SamplingDuration") samplingMs = *ms;
        }
    Entry& e = r.entry(cp, "not-modelled");
    e.source = *cb;
    e.hasSource = true;
    e.rule = "CircuitBreaker → none";
    e.note = "Polly's breaker samples over time, FLEET's counts the last N outcomes: no fleet gate is set";
    return true;
}

std::string timeText(double ms) { return grouped(ms) + " ms"; }

// The options validator's three rules (§9.3), as warnings.
void validatorWarnings(Reading& r, const std::string& sp, const RetryRead& retry, double attemptMs, double totalMs,
                       double samplingMs) {
    const std::string why = "dotnet/extensions refuses this at start-up (read in an older copy): ";
    if (attemptMs > totalMs)
        r.warn(sp, why + "the attempt timeout " + timeText(attemptMs) + " is above the total request timeout " +
                       timeText(totalMs));
    if (samplingMs < 2 * attemptMs)
        r.warn(sp, why + "the breaker's sampling duration " + timeText(samplingMs) +
                       " is under twice the attempt timeout " + timeText(attemptMs));
    if (retry.type == "Exponential" && retry.jitter) return;  // needs tanh: not computed (§9.3)
    double sum = 0;
    double doubling = 1;  // 2^(n - 1), exact (no C library pow in the core: core-rules.test.js)
    for (double n = 1; n <= retry.retries && n <= 1000; ++n, doubling *= 2) {
        double wait = retry.type == "Constant" ? retry.delayMs
                      : retry.type == "Linear" ? retry.delayMs * n
                                               : retry.delayMs * doubling;
        if (retry.maxDelayMs) wait = std::min(wait, *retry.maxDelayMs);
        sum += wait;
    }
    if (sum > totalMs)
        r.warn(sp, why + "the retries' cumulative delay " + timeText(sum) + " is above the total request timeout " +
                       timeText(totalMs));
}

void readHedgingHandler(Reading& r, const std::string& sp, const Value& section) {
    std::string key = "Hedging";
    const Value* h = member(section, "Hedging", &key);
    std::string hp = join(sp, key);
    const Value empty = Value::object();
    const Known hedgingKeys = {{"MaxHedgedAttempts", "Delay", "Name"},
                               {"ShouldHandle", "ActionGenerator", "DelayGenerator", "OnHedging"}};
    if (h && !checkOptions(r, hp, *h, hedgingKeys, "Polly's HedgingStrategyOptions")) return;
    std::string k = "MaxHedgedAttempts";
    const Value* n = member(h ? *h : empty, "MaxHedgedAttempts", &k);
    double hedged = 1;
    if (n) {
        auto v = readInt(r, join(hp, k), *n);
        if (!v) return;
        if (*v < 1 || *v > 10)
            return r.error(join(hp, k), "out-of-range",
                           join(hp, k) +
                               " must be from 1 to 10 (Polly HedgingStrategyOptions.TResult.cs lines 35-36); got " +
                               grouped(*v));
        hedged = *v;
    }
    std::string dk = "Delay";
    const Value* d = member(h ? *h : empty, "Delay", &dk);
    double delayMs = 2000;
    if (d) {
        auto ms = readSpan(r, join(hp, dk), *d, 0, kMaxMs, "from 00:00:00 to 1.00:00:00");
        if (!ms) return;
        delayMs = *ms;
    }
    const double copies = hedged + 1;
    Entry& e = r.entry(hp, copies > 5 ? "clamped" : "read");
    e.source = Value::string("MaxHedgedAttempts " + grouped(hedged) + ", Delay " + grouped(delayMs) + " ms");
    e.hasSource = true;
    e.rule =
        "Hedging → hedging { maxAttempts: min(MaxHedgedAttempts + 1, 5), delayMs: Delay, nonFatal: [timeout, 5xx] }, "
        "maxRetries 0";
    e.cite = std::string(kPolly) + "Hedging/HedgingConstants.cs lines 9-15";
    if (copies > 5)
        e.note = "MaxHedgedAttempts " + grouped(hedged) +
                 " hedged actions besides the original: the engine sends at most 5 copies";
    Value nonFatal = Value::array();
    nonFatal.push(Value::string("timeout"));
    nonFatal.push(Value::string("5xx"));
    Value hedging = Value::object();
    hedging.set("maxAttempts", Value::number(std::min(copies, 5.0)));
    hedging.set("delayMs", Value::number(delayMs));
    hedging.set("nonFatal", std::move(nonFatal));
    r.input(e, "hedging", std::move(hedging));
    r.input(e, "maxRetries", Value::number(0));
    std::string ek = "Endpoint";
    const Value* endpoint = member(section, "Endpoint", &ek);
    std::string ep = join(sp, ek);
    if (endpoint) {
        if (!r.object(ep, *endpoint)) return;
        for (const Value::Member& m : endpoint->asObject()) {
            std::string l = lower(m.key);
            if (l == "timeout" || l == "circuitbreaker" || l == "ratelimiter") continue;
            std::string near = closest(l, {"timeout", "circuitbreaker", "ratelimiter"});
            r.error(join(ep, m.key), "unknown-field",
                    join(ep, m.key) + " is not a field of HttpEndpointResilienceStrategyOptions" +
                        (near.empty() ? "" : " (did you mean " + near + "?)"));
        }
        if (r.failed()) return;
        for (const char* name : {"CircuitBreaker", "RateLimiter"}) {
            std::string mk;
            if (member(*endpoint, name, &mk)) {
                Entry& x = r.entry(join(ep, mk), "not-modelled");
                x.rule = std::string(name) + " → none";
                x.note = "the endpoint's " + lower(name) + " is not modelled";
            }
        }
    }
    const Value& ev = endpoint ? *endpoint : empty;
    if (!readTimeout(
            r, ep, ev, "Timeout", 30000, "00:00:30", "clientTimeoutMs",
            std::string(kPolly) +
                "Timeout/TimeoutStrategyOptions.cs line 24 (the HTTP hedging handler's own default was not read)"))
        return;
    readTimeout(r, sp, section, "TotalRequestTimeout", 30000, "00:00:30", "deadlineMs",
                std::string(kExt) + "Resilience/HttpStandardResilienceOptions.cs line 53");
}

}  // namespace

void readDotnet(Reading& r, const Options& o) {
    std::vector<Candidate> candidates;
    findCandidates(r.doc.value, "", "", candidates);
    const Candidate* chosen = nullptr;
    if (o.hasSection) {
        for (const Candidate& c : candidates)
            if (lower(c.name) == lower(o.section)) chosen = &c;
        if (!chosen) {
            std::string all;
            for (std::size_t i = 0; i < candidates.size() && i < 20; ++i) all += (i ? ", " : "") + candidates[i].name;
            r.errorAt("", "--section", "no-match",
                      "--section " + o.section + " selects no options section; the sections are " +
                          (all.empty() ? "none" : all));
            return;
        }
        r.selection.set("rule", Value::string("option"));
    } else {
        if (candidates.empty()) {
            r.errorAt("", "--section", "no-match",
                      "the file holds no section with Retry, AttemptTimeout, TotalRequestTimeout, CircuitBreaker, "
                      "RateLimiter, Hedging or Endpoint");
            return;
        }
        chosen = &candidates.front();
        r.selection.set("rule", Value::string(candidates.size() == 1 ? "only" : "first"));
    }
    r.selection.set("path", Value::string(chosen->path));
    r.selection.set("name", Value::string(chosen->name));
    Value others = Value::array();
    for (const Candidate& c : candidates)
        if (&c != chosen) others.push(Value::string(c.name));
    r.selection.set("others", std::move(others));
    // Everything outside the section: each sibling along its path ignored.
    const Value* at = &r.doc.value;
    std::string path;
    while (at != chosen->value && at->kind() == Value::Kind::Object) {
        const Value* next = nullptr;
        std::string nextPath;
        for (const Value::Member& m : at->asObject()) {
            std::string p = join(path, m.key);
            if (chosen->path == p || chosen->path.rfind(p + ".", 0) == 0 || chosen->path.rfind(p + "[", 0) == 0)
                next = &m.value, nextPath = p;
            else
                r.ignore(p, "not a resilience options section");
        }
        if (!next) break;
        at = next, path = nextPath;
    }
    const Value& section = *chosen->value;
    const std::string& sp = chosen->path;
    bool standard = false, hedging = false;
    for (const Value::Member& m : section.asObject()) {
        std::string l = lower(m.key);
        standard = standard || l == "retry" || l == "attempttimeout" || l == "circuitbreaker" || l == "ratelimiter";
        hedging = hedging || l == "hedging" || l == "endpoint";
    }
    if (standard && hedging) {
        r.error(sp, "conflict",
                sp + " holds options of both handlers (Retry… and Hedging/Endpoint): no options class has both");
        return;
    }
    const std::vector<std::string>& known = hedging ? kHedging : kStandard;
    for (const Value::Member& m : section.asObject()) {
        std::string l = lower(m.key);
        if (std::any_of(known.begin(), known.end(), [&](const std::string& n) { return lower(n) == l; })) continue;
        std::vector<std::string> lowered;
        for (const std::string& n : known) lowered.push_back(lower(n));
        std::string near = closest(l, lowered);
        for (const std::string& n : known)
            if (lower(n) == near) near = n;
        r.error(join(sp, m.key), "unknown-field",
                join(sp, m.key) + " is not a field of " +
                    (hedging ? "HttpStandardHedgingResilienceOptions" : "HttpStandardResilienceOptions") +
                    (near.empty() ? "" : " (did you mean " + near + "?)"));
    }
    if (r.failed()) return;
    r.selection.set("handler", Value::string(hedging ? "hedging" : "standard"));
    if (hedging) {
        readHedgingHandler(r, sp, section);
    } else {
        RetryRead retry;
        if (!readRetry(r, sp, section, retry)) return;
        auto attempt = readTimeout(r, sp, section, "AttemptTimeout", 10000, "00:00:10", "clientTimeoutMs",
                                   std::string(kExt) + "Resilience/HttpStandardResilienceOptions.cs lines 93-95");
        if (!attempt) return;
        auto total = readTimeout(r, sp, section, "TotalRequestTimeout", 30000, "00:00:30", "deadlineMs",
                                 std::string(kExt) + "Resilience/HttpStandardResilienceOptions.cs line 53");
        if (!total) return;
        double samplingMs = 30000;
        if (!readBreaker(r, sp, section, samplingMs)) return;
        std::string rk;
        if (member(section, "RateLimiter", &rk)) {
            Entry& e = r.entry(join(sp, rk), "not-modelled");
            e.rule = "RateLimiter → none";
            e.note = "a concurrency limiter is not modelled";
        }
        validatorWarnings(r, sp, retry, *attempt, *total, samplingMs);
    }
    if (r.failed()) return;
    Entry& fixed = r.entry("", "set", "preset");
    fixed.rule =
        "the dotnet-standard preset: retryOn timeout, 429, 5xx and retryOnStatuses [408] "
        "(HttpClientResiliencePredicates.cs lines 50 "
        "and 69-71), retryWritesWithoutKey true, attemptStart before-deadline, idempotencyKey false";
    r.input(fixed, "retryOn", Value::array({Value::string("timeout"), Value::string("429"), Value::string("5xx")}));
    r.input(fixed, "retryOnStatuses", Value::array({Value::number(408)}));
    r.input(fixed, "retryWritesWithoutKey", Value::boolean(true));
    r.input(fixed, "attemptStart", Value::string("before-deadline"));
    if (!r.inputs.count("idempotencyKey")) r.input(fixed, "idempotencyKey", Value::boolean(false));
}

}  // namespace retrylab::config::detail
