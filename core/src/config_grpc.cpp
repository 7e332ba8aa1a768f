// The gRPC service config reader (docs/config-in.md §4): the method a `name` entry selects,
// retryPolicy, hedgingPolicy, retryThrottling and timeout to the engine's inputs.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include "config_read.hpp"

namespace retrylab::config::detail {
namespace {

const char* const kA6 = "grpc/proposal A6 @ 2024-08-29 (dc9fd4fe) A6-client-retries.md";
const char* const kJava = "grpc/grpc-java v1.83.1 (8f621c03) core/src/main/java/io/grpc/internal/";

// §4.1: each --impl's jitter, from its preset (docs/clients.md §1; web/clients/presets.js,
// which tests/node/config-in.test.js holds this table to).
struct Impl {
    const char* id;
    const char* jitter;
    double low, high;
};
const Impl kImpls[] = {
    {"grpc-go-169", "proportional", 0.8, 1.2},
    {"grpc-java-171", "proportional", 0.4, 1.2},
    {"grpc-go-168", "full", 0, 0},
    {"grpc-core", "proportional", 0.8, 1.2},
    {"grpc-js", "proportional", 0.8, 1.2},
};

const char* const kCodes[] = {
    "OK",        "CANCELLED",      "UNKNOWN",           "INVALID_ARGUMENT",   "DEADLINE_EXCEEDED",
    "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
    "ABORTED",   "OUT_OF_RANGE",   "UNIMPLEMENTED",     "INTERNAL",           "UNAVAILABLE",
    "DATA_LOSS", "UNAUTHENTICATED"};

// §4.4: the code grpc-java v1.83.1 (GrpcUtil.java lines 305-328) gives an HTTP status, -1 for a 2xx.
int codeOfHttp(int s) {
    if (s >= 200 && s <= 299) return -1;
    if (s < 200 || s == 400 || s == 431) return 13;
    if (s == 401) return 16;
    if (s == 403) return 7;
    if (s == 404) return 12;
    if (s == 429 || s == 502 || s == 503 || s == 504) return 14;
    return 2;
}

std::string upper(std::string s) {
    for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

// The codes of a list (a whole 0–16 or a name, case-insensitive); -1 for one refused.
std::vector<int> readCodes(Reading& r, const std::string& path, const Value& list, bool allowOk) {
    std::vector<int> codes;
    std::vector<std::string> names(std::begin(kCodes), std::end(kCodes));
    for (std::size_t i = 0; i < list.asArray().size(); ++i) {
        const Value& c = list.asArray()[i];
        std::string at = indexed(path, i);
        int code = -1;
        if (c.kind() == Value::Kind::Number) {
            double n = c.asNumber();
            if (n == static_cast<int>(n) && n >= 0 && n <= 16)
                code = static_cast<int>(n);
            else
                r.error(at, "not-a-choice", at + " is " + shown(c) + ", which is not a gRPC status code (0–16)");
        } else if (c.kind() == Value::Kind::String) {
            auto it = std::find(names.begin(), names.end(), upper(c.asString()));
            if (it != names.end())
                code = static_cast<int>(it - names.begin());
            else {
                std::string near = closest(upper(c.asString()), names);
                r.error(at, "not-a-choice",
                        at + " names \"" + c.asString() + "\", which is not a gRPC status code" +
                            (near.empty() ? "" : " (did you mean " + near + "?)"));
            }
        } else {
            r.error(at, "wrong-type", at + " must be a status code name or number; got " + shown(c));
        }
        if (code == 0 && !allowOk) {
            r.error(at, "out-of-range",
                    at + " must not be OK (grpc-java ServiceConfigUtil.java line 186: \"must not contain OK\")");
            code = -1;
        }
        if (code >= 0) codes.push_back(code);
    }
    return codes;
}

struct Name {
    std::string service, method;
    bool any = false;  // neither: the default
};

// §4.2: an entry's names, checked.
std::vector<Name> readNames(Reading& r, const std::string& path, const Value& entry) {
    std::vector<Name> out;
    const Value* names = entry.find("name");
    if (!names) return out;
    const Value* list = r.list(join(path, "name"), *names);
    if (!list) return out;
    for (std::size_t j = 0; j < list->asArray().size(); ++j) {
        std::string at = indexed(join(path, "name"), j);
        const Value* obj = r.object(at, list->asArray()[j]);
        if (!obj) continue;
        r.checkKeys(at, *obj, {"service", "method"}, "gRPC's method name");
        Name n;
        if (const Value* s = obj->find("service")) n.service = r.string(join(at, "service"), *s).value_or("");
        if (const Value* m = obj->find("method")) n.method = r.string(join(at, "method"), *m).value_or("");
        if (n.service.empty() && !n.method.empty()) {
            r.error(at, "conflict",
                    at + " has a method but no service (grpc-java ManagedChannelServiceConfig.java lines 136-137: "
                         "\"missing service name for method\")");
            continue;
        }
        n.any = n.service.empty();
        out.push_back(n);
    }
    return out;
}

std::string nameWords(const Name& n) {
    if (n.any) return "(default)";
    if (n.method.empty()) return n.service + " (service)";
    return n.service + "/" + n.method;
}

std::string namesWords(const std::vector<Name>& names) {
    std::string out;
    for (const Name& n : names) out += (out.empty() ? "" : ", ") + nameWords(n);
    return out;
}

// One gRPC duration field that becomes a whole-ms input.
void durationInput(Reading& r, const std::string& path, const Value& v, const char* input, const std::string& rule,
                   bool positive) {
    auto ns = r.protoDuration(path, v, "0.5s");
    if (!ns) return;
    if (positive && *ns == 0) {
        r.error(path, "out-of-range", path + " must be more than 0s (A6; grpc-java ServiceConfigUtil.java)");
        return;
    }
    Entry& e = r.entry(path, "read");
    e.source = v;
    e.hasSource = true;
    e.rule = rule;
    e.cite = kA6;
    double ms = exactMs(*ns);
    if (ms > kMaxMs) {
        e.status = "clamped";
        e.note = path + " " + v.asString() + ": the engine allows at most 86,400,000 ms";
        ms = kMaxMs;
    }
    r.input(e, input, Value::number(ms));
}

void readRetryPolicy(Reading& r, const std::string& path, const Value& policy, const Impl& impl) {
    r.checkKeys(path, policy,
                {"maxAttempts", "initialBackoff", "maxBackoff", "backoffMultiplier", "retryableStatusCodes",
                 "perAttemptRecvTimeout"},
                "gRPC's retryPolicy");
    for (const char* required : {"maxAttempts", "initialBackoff", "maxBackoff", "backoffMultiplier"})
        if (!policy.find(required))
            r.errorAt(join(path, required), path, "missing", join(path, required) + " is required by gRPC (A6)");
    const Value* recv = policy.find("perAttemptRecvTimeout");
    if (!policy.find("retryableStatusCodes") && !recv)
        r.errorAt(join(path, "retryableStatusCodes"), path, "missing",
                  join(path, "retryableStatusCodes") + " is required by gRPC (A6)");
    if (const Value* v = policy.find("maxAttempts")) {
        std::string at = join(path, "maxAttempts");
        if (auto n = r.whole(at, *v)) {
            if (*n < 2)
                r.error(at, "out-of-range", at + " must be at least 2 (gRPC refuses 1); got " + grouped(*n));
            else {
                Entry& e = r.entry(at, "read");
                e.source = *v;
                e.hasSource = true;
                e.rule = "maxAttempts → maxRetries = min(maxAttempts, 5) − 1";
                e.cite = std::string(kA6) + " line 124; " + kJava + "ServiceConfigUtil.java lines 337-338";
                if (*n > 5) e.note = "gRPC treats more than 5 attempts as 5 (A6 line 124)";
                r.input(e, "maxRetries", Value::number(std::min(*n, 5.0) - 1));
            }
        }
    }
    if (const Value* v = policy.find("initialBackoff"))
        durationInput(r, join(path, "initialBackoff"), *v, "baseBackoffMs", "initialBackoff → baseBackoffMs", true);
    if (const Value* v = policy.find("maxBackoff"))
        durationInput(r, join(path, "maxBackoff"), *v, "maxBackoffMs", "maxBackoff → maxBackoffMs", true);
    if (const Value* v = policy.find("backoffMultiplier")) {
        std::string at = join(path, "backoffMultiplier");
        if (auto m = r.number(at, *v)) {
            if (*m <= 0)
                r.error(at, "out-of-range", at + " must be more than 0 (A6 line 126); got " + grouped(*m));
            else {
                Entry& e = r.entry(at, "read");
                e.source = *v;
                e.hasSource = true;
                e.rule = "backoffMultiplier → backoffMultiplier, within the engine's 1–10";
                e.cite = std::string(kA6) + " line 126";
                double held = std::min(std::max(*m, 1.0), 10.0);
                if (held != *m) {
                    e.status = "clamped";
                    e.note = *m < 1 ? "backoffMultiplier " + grouped(*m) +
                                          ": each wait is the initial backoff here; gRPC's would shrink"
                                    : "backoffMultiplier " + grouped(*m) + ": the engine allows at most 10";
                }
                r.input(e, "backoffMultiplier", Value::number(held));
            }
        }
    }
    if (recv) {
        std::string at = join(path, "perAttemptRecvTimeout");
        if (r.protoDuration(at, *recv, "0.5s")) {
            Entry& e = r.entry(at, "read");
            e.source = *recv;
            e.hasSource = true;
            e.rule = "perAttemptRecvTimeout → none";
            e.cite = std::string(kJava) + "ServiceConfigUtil.java line 145";
            e.note = "not in A6; grpc-java v1.83.1 parses it and no other code of that release reads it";
        }
    }
    if (const Value* v = policy.find("retryableStatusCodes")) {
        std::string at = join(path, "retryableStatusCodes");
        if (const Value* list = r.list(at, *v)) {
            if (list->asArray().empty() && !recv) r.error(at, "out-of-range", at + " must not be empty (A6 line 127)");
            std::vector<int> codes = readCodes(r, at, *list, false);
            std::set<int> statuses;
            std::set<int> wanted(codes.begin(), codes.end());
            for (int s = 100; s <= 599; ++s)
                if (wanted.count(codeOfHttp(s))) statuses.insert(s);
            Entry& e = r.entry(at, "read");
            e.source = *v;
            e.hasSource = true;
            e.rule = "each code → the HTTP statuses grpc-java maps to it (docs/config-in.md §4.4)";
            e.cite = std::string(kJava) + "GrpcUtil.java lines 305-328";
            std::string unmapped;
            for (int c : wanted) {
                bool any = c == 2 || c == 7 || c == 12 || c == 13 || c == 14 || c == 16;
                if (!any) unmapped += (unmapped.empty() ? "" : ", ") + std::string(kCodes[c]);
                if (any && c != 14)
                    r.warn(at,
                           std::string("the HTTP statuses for ") + kCodes[c] +
                               " are grpc-java v1.83.1's; other gRPC libraries' tables were read for UNAVAILABLE only");
            }
            if (!unmapped.empty())
                e.note = "a gRPC server's own " + unmapped + " is not an HTTP answer the engine models";
            Value list2 = Value::array();
            for (int s : statuses) list2.push(Value::number(s));
            r.input(e, "retryOn", Value::array());
            r.input(e, "retryOnStatuses", std::move(list2));
        }
    }
    (void)impl;
}

// docs/config-in.md §4.3's hedgingPolicy rows: maxRetries 0 and the engine's hedging (kind a6,
// docs/throttling.md §6), in the single run and, by §2.7, in the fleet's policy.
void readHedging(Reading& r, const std::string& path, const Value& policy) {
    r.checkKeys(path, policy, {"maxAttempts", "hedgingDelay", "nonFatalStatusCodes"}, "gRPC's hedgingPolicy");
    bool ok = true;
    double copies = 0;
    if (const Value* v = policy.find("maxAttempts")) {
        std::string at = join(path, "maxAttempts");
        auto n = r.whole(at, *v);
        if (n && *n < 2) r.error(at, "out-of-range", at + " must be at least 2 (A6 line 162); got " + grouped(*n));
        if (n && *n >= 2)
            copies = *n;
        else
            ok = false;
    } else {
        r.errorAt(join(path, "maxAttempts"), path, "missing", join(path, "maxAttempts") + " is required by gRPC (A6)");
        ok = false;
    }
    double delayMs = 0;
    std::string notes;
    auto note = [&](const std::string& n) { notes += (notes.empty() ? "" : "; ") + n; };
    bool clamped = false;
    if (const Value* v = policy.find("hedgingDelay")) {
        if (auto ns = r.protoDuration(join(path, "hedgingDelay"), *v, "1s")) {
            delayMs = exactMs(*ns);
            if (delayMs > kMaxMs) {
                clamped = true;
                note("hedgingDelay " + v->asString() + ": the engine allows at most 86,400,000 ms");
                delayMs = kMaxMs;
            }
        } else {
            ok = false;
        }
    }
    bool timeout = false, serverError = false;
    std::vector<int> codes;
    if (const Value* v = policy.find("nonFatalStatusCodes")) {
        if (const Value* list = r.list(join(path, "nonFatalStatusCodes"), *v))
            codes = readCodes(r, join(path, "nonFatalStatusCodes"), *list, true);
        else
            ok = false;
    }
    for (int c : codes) {
        timeout = timeout || c == 1 || c == 4;                      // CANCELLED, DEADLINE_EXCEEDED
        serverError = serverError || c == 2 || c == 13 || c == 14;  // UNKNOWN, INTERNAL, UNAVAILABLE
    }
    if (!ok) return;
    Entry& e = r.entry(path, clamped ? "clamped" : "read");
    e.source = policy;
    e.hasSource = true;
    e.rule =
        "hedgingPolicy → maxRetries 0 and hedging { maxAttempts: min(maxAttempts, 5), delayMs: hedgingDelay, "
        "nonFatal: timeout for CANCELLED or DEADLINE_EXCEEDED, 5xx for UNKNOWN, INTERNAL or UNAVAILABLE }";
    e.cite = std::string(kA6) + " lines 162-163";
    if (copies > 5) note("maxAttempts " + grouped(copies) + ": gRPC sends at most 5 copies (A6 line 162)");
    if (!codes.empty()) {
        e.approximated = true;
        std::string names;
        for (int c : codes) names += (names.empty() ? "" : ", ") + std::string(kCodes[c]);
        note("nonFatalStatusCodes " + names +
             ": the engine's nonFatal holds failure classes (a timeout, a 5xx), not gRPC statuses");
    }
    e.note = notes;
    Value nonFatal = Value::array();
    if (timeout) nonFatal.push(Value::string("timeout"));
    if (serverError) nonFatal.push(Value::string("5xx"));
    Value hedging = Value::object();
    hedging.set("maxAttempts", Value::number(std::min(copies, 5.0)));
    hedging.set("delayMs", Value::number(delayMs));
    hedging.set("nonFatal", std::move(nonFatal));
    r.input(e, "maxRetries", Value::number(0));
    r.input(e, "retryOn", Value::array());
    r.input(e, "hedging", std::move(hedging));
}

void readThrottling(Reading& r, const Value& v) {
    const std::string path = "retryThrottling";
    const Value* t = r.object(path, v);
    if (!t) return;
    r.checkKeys(path, *t, {"maxTokens", "tokenRatio"}, "gRPC's retryThrottling");
    const Value* maxTokens = t->find("maxTokens");
    const Value* ratio = t->find("tokenRatio");
    if (!maxTokens)
        r.errorAt("retryThrottling.maxTokens", path, "missing",
                  "retryThrottling.maxTokens is required by gRPC (A6 line 198)");
    if (!ratio)
        r.errorAt("retryThrottling.tokenRatio", path, "missing",
                  "retryThrottling.tokenRatio is required by gRPC (A6 line 199)");
    Value gate = Value::object();
    gate.set("scope", Value::string("client"));
    if (maxTokens) {
        std::string at = "retryThrottling.maxTokens";
        if (auto n = r.whole(at, *maxTokens)) {
            if (*n <= 0 || *n > 1000)
                r.error(at, "out-of-range", at + " must be in (0, 1000] (A6 line 198); got " + grouped(*n));
            else {
                Entry& e = r.entry(at, "read");
                e.source = *maxTokens;
                e.hasSource = true;
                e.rule = "maxTokens → fleet.gates.throttle.maxTokens (the single run has no throttle)";
                e.cite = std::string(kA6) + " line 198";
                e.inputs.push_back("fleet.gates.throttle.maxTokens");
                e.inputs.push_back("fleet.gates.throttle.scope");
                gate.set("maxTokens", Value::number(*n));
            }
        }
    }
    if (ratio) {
        std::string at = "retryThrottling.tokenRatio";
        if (auto x = r.number(at, *ratio)) {
            if (*x <= 0)
                r.error(at, "out-of-range", at + " must be more than 0 (A6 line 199); got " + grouped(*x));
            else {
                Entry& e = r.entry(at, "read");
                e.source = *ratio;
                e.hasSource = true;
                e.rule = "tokenRatio → fleet.gates.throttle.tokenRatio = ⌊v × 1000⌋ / 1000, within 0.001–1";
                e.cite = std::string(kA6) + " line 199 (\"Decimal places beyond 3 are ignored\")";
                double held = std::floor(*x * 1000) / 1000;
                if (held > 1 || held < 0.001) {
                    e.status = "clamped";
                    e.note = "tokenRatio " + grouped(*x) + ": the fleet's throttle takes 0.001–1";
                    held = std::min(std::max(held, 0.001), 1.0);
                }
                e.inputs.push_back("fleet.gates.throttle.tokenRatio");
                gate.set("tokenRatio", Value::number(held));
            }
        }
    }
    Entry& e = r.entry("", "set", "preset");
    e.rule = "with retryThrottling: countFailures retryable";
    e.cite = std::string(kA6) + " line 193";
    e.inputs.push_back("fleet.gates.throttle.countFailures");
    gate.set("countFailures", Value::string("retryable"));
    r.fleetGates["throttle"] = gate;
}

// §4.2's selection: the entry's index, or -1 for none.
int select(Reading& r, const Value& methodConfig, const Options& o, std::vector<std::vector<Name>>& names) {
    const auto& entries = methodConfig.asArray();
    // Conflicts over every entry's names (grpc-java lines 138-155).
    std::set<std::string> seen;
    for (std::size_t i = 0; i < entries.size(); ++i)
        for (const Name& n : names[i]) {
            std::string key = n.any ? "*" : n.service + "/" + n.method;
            if (!seen.insert(key).second)
                r.error(indexed("methodConfig", i) + ".name", "conflict",
                        "methodConfig[" + std::to_string(i) + "].name names " + nameWords(n) +
                            " a second time (grpc-java ManagedChannelServiceConfig.java lines 138-155 refuse the whole "
                            "config)");
        }
    auto hasPolicy = [&](std::size_t i) {
        return entries[i].kind() == Value::Kind::Object &&
               (entries[i].find("retryPolicy") || entries[i].find("hedgingPolicy"));
    };
    if (o.hasMethod) {
        std::size_t slash = o.method.find('/');
        std::string service = o.method.substr(0, slash),
                    method = slash == std::string::npos ? "" : o.method.substr(slash + 1);
        int byMethod = -1, byService = -1, byDefault = -1;
        for (std::size_t i = 0; i < entries.size(); ++i)
            for (const Name& n : names[i]) {
                if (!n.any && n.service == service && !method.empty() && n.method == method && byMethod < 0)
                    byMethod = static_cast<int>(i);
                if (!n.any && n.service == service && n.method.empty() && byService < 0)
                    byService = static_cast<int>(i);
                if (n.any && byDefault < 0) byDefault = static_cast<int>(i);
            }
        int chosen = byMethod >= 0 ? byMethod : byService >= 0 ? byService : byDefault;
        if (chosen < 0) {
            std::string all;
            for (std::size_t i = 0; i < entries.size() && i < 20; ++i)
                all += (all.empty() ? "" : ", ") + namesWords(names[i]);
            r.error("", "no-match",
                    "--method " + o.method + " selects no methodConfig entry; the names are " +
                        (all.empty() ? "none" : all));
            return -2;
        }
        r.selection.set("rule", Value::string("option"));
        return chosen;
    }
    for (std::size_t i = 0; i < entries.size(); ++i)
        if (!names[i].empty() && hasPolicy(i)) {
            r.selection.set("rule", Value::string(entries.size() == 1 ? "only" : "first-with-retries"));
            return static_cast<int>(i);
        }
    for (std::size_t i = 0; i < entries.size(); ++i)
        if (!names[i].empty()) {
            r.selection.set("rule", Value::string(entries.size() == 1 ? "only" : "first"));
            return static_cast<int>(i);
        }
    r.selection.set("rule", Value::string("none"));
    return -1;
}

void readEntry(Reading& r, const std::string& path, const Value& entry, const Impl& impl, const Options& o) {
    r.checkKeys(path, entry,
                {"name", "timeout", "waitForReady", "maxRequestMessageBytes", "maxResponseMessageBytes", "retryPolicy",
                 "hedgingPolicy"},
                "gRPC's MethodConfig");
    const Value* retry = entry.find("retryPolicy");
    const Value* hedging = entry.find("hedgingPolicy");
    if (retry && hedging) r.error(path, "conflict", path + " has both retryPolicy and hedgingPolicy (A6 allows one)");
    if (retry) {
        if (const Value* p = r.object(join(path, "retryPolicy"), *retry))
            readRetryPolicy(r, join(path, "retryPolicy"), *p, impl);
    } else if (hedging) {
        if (const Value* p = r.object(join(path, "hedgingPolicy"), *hedging))
            readHedging(r, join(path, "hedgingPolicy"), *p);
    } else {
        Entry& e = r.entry(join(path, "retryPolicy"), "defaulted");
        e.source = Value::string("none");
        e.hasSource = true;
        e.rule = "no retryPolicy → maxRetries 0";
        e.cite = std::string(kA6) + " line 426 (\"If neither is set, RPCs will not be retried or hedged\")";
        r.input(e, "maxRetries", Value::number(0));
        r.input(e, "retryOn", Value::array());
    }
    for (const char* key : {"waitForReady", "maxRequestMessageBytes", "maxResponseMessageBytes"}) {
        const Value* v = entry.find(key);
        if (!v) continue;
        std::string at = join(path, key);
        bool ok = std::string(key) == "waitForReady" ? r.boolean(at, *v).has_value() : r.whole(at, *v).has_value();
        if (!ok) continue;
        Entry& e = r.entry(at, "not-modelled");
        e.source = *v;
        e.hasSource = true;
        e.rule = std::string(key) + " → none";
        e.note = std::string(key) == "waitForReady"
                     ? "waiting for a connection before the first attempt is not modelled"
                     : "message sizes are not modelled";
    }
    // timeout and the caller's deadline (--run's deadlineMs).
    const Value* runDeadline = o.hasRun && o.run.kind() == Value::Kind::Object ? o.run.find("deadlineMs") : nullptr;
    if (const Value* t = entry.find("timeout")) {
        std::string at = join(path, "timeout");
        if (auto ns = r.protoDuration(at, *t, "3s")) {
            Entry& e = r.entry(at, "read");
            e.source = *t;
            e.hasSource = true;
            e.rule = "timeout → deadlineMs = min(timeout, the caller's deadline)";
            e.cite = std::string(kJava) + "ClientCallImpl.java lines 300-307";
            double ms = exactMs(*ns);
            if (ms > kMaxMs) {
                e.status = "clamped";
                e.note = at + " " + t->asString() + ": the engine allows at most 86,400,000 ms";
                ms = kMaxMs;
            }
            if (runDeadline && runDeadline->kind() == Value::Kind::Number) ms = std::min(ms, runDeadline->asNumber());
            r.input(e, "deadlineMs", Value::number(ms));
        }
    } else if (runDeadline) {
        Entry& e = r.entry("", "set", "situation");
        e.rule = "the situation (--run): deadlineMs, the caller's deadline (the method config sets none)";
        r.input(e, "deadlineMs", *runDeadline);
    } else {
        Entry& e = r.entry(join(path, "timeout"), "defaulted");
        e.source = Value::string("none");
        e.hasSource = true;
        e.rule = "no timeout → deadlineMs null";
        e.cite = std::string(kJava) + "ClientCallImpl.java lines 300-307";
        r.input(e, "deadlineMs", Value::null());
        r.warn(join(path, "timeout"),
               "no deadline: a lost response is waited for until the engine's 24-hour client timeout");
    }
}

}  // namespace

void readGrpc(Reading& r, const Options& o) {
    const Impl* impl = &kImpls[0];
    if (o.hasImpl) {
        impl = nullptr;
        for (const Impl& i : kImpls)
            if (o.impl == i.id) impl = &i;
        if (!impl) {
            r.error("", "not-a-choice",
                    "--impl " + o.impl +
                        " is not a gRPC preset (grpc-go-169, grpc-java-171, grpc-go-168, grpc-core, grpc-js)");
            return;
        }
    }
    const Value& doc = r.doc.value;
    std::vector<std::vector<Name>> names;
    int chosen = -1;
    const Value* methodConfig = doc.find("methodConfig");
    if (methodConfig && r.list("methodConfig", *methodConfig)) {
        for (std::size_t i = 0; i < methodConfig->asArray().size(); ++i) {
            const Value& entry = methodConfig->asArray()[i];
            if (r.object(indexed("methodConfig", i), entry))
                names.push_back(readNames(r, indexed("methodConfig", i), entry));
            else
                names.emplace_back();
        }
        if (r.failed()) return;
        chosen = select(r, *methodConfig, o, names);
        if (chosen == -2) return;
        for (std::size_t i = 0; i < methodConfig->asArray().size(); ++i) {
            const Value& entry = methodConfig->asArray()[i];
            if (static_cast<int>(i) == chosen) continue;
            if (names[i].empty() && (entry.find("retryPolicy") || entry.find("hedgingPolicy")))
                r.warn(
                    indexed("methodConfig", i),
                    indexed("methodConfig", i) + " has a retry or hedging policy but no name: it applies to no method");
            r.ignore(indexed("methodConfig", i),
                     names[i].empty() ? "applies to no method" : "applies to " + namesWords(names[i]));
        }
    } else if (!methodConfig) {
        r.selection.set("rule", Value::string("none"));
    }
    for (const Value::Member& m : doc.asObject())
        if (m.key != "methodConfig" && m.key != "retryThrottling") r.ignore(m.key, "not a retry section");
    if (const Value* t = doc.find("retryThrottling")) readThrottling(r, *t);
    if (r.failed()) return;

    // The selection's words.
    if (chosen >= 0) {
        r.selection.set("path", Value::string(indexed("methodConfig", static_cast<std::size_t>(chosen))));
        r.selection.set("name", Value::string(namesWords(names[static_cast<std::size_t>(chosen)])));
    } else {
        r.selection.set("path", Value::string(""));
        r.selection.set("name", Value::string(""));
    }
    Value others = Value::array();
    if (methodConfig)
        for (std::size_t i = 0; i < methodConfig->asArray().size(); ++i)
            if (static_cast<int>(i) != chosen) others.push(Value::string(indexed("methodConfig", i)));
    r.selection.set("others", std::move(others));
    r.selection.set("impl", Value::string(impl->id));

    if (chosen >= 0) {
        const std::string path = indexed("methodConfig", static_cast<std::size_t>(chosen));
        readEntry(r, path, methodConfig->asArray()[static_cast<std::size_t>(chosen)], *impl, o);
    } else {
        Entry& e = r.entry("methodConfig", "defaulted");
        e.source = Value::string("none");
        e.hasSource = true;
        e.rule = "no methodConfig entry applies → one attempt";
        e.cite = std::string(kA6) + " line 426";
        r.input(e, "maxRetries", Value::number(0));
        r.input(e, "retryOn", Value::array());
        const Value* runDeadline = o.hasRun && o.run.kind() == Value::Kind::Object ? o.run.find("deadlineMs") : nullptr;
        r.input(e, "deadlineMs", runDeadline ? *runDeadline : Value::null());
    }
    if (r.failed()) return;

    // The preset's readings (§4.1) and the inputs every gRPC reading sets (§4.3).
    Entry& jitter = r.entry("", "set", "preset");
    jitter.rule = std::string("the jitter of --impl ") + impl->id + " (docs/clients.md §1)";
    r.input(jitter, "jitter", Value::string(impl->jitter));
    if (std::string(impl->jitter) == "proportional") {
        r.input(jitter, "jitterLow", Value::number(impl->low));
        r.input(jitter, "jitterHigh", Value::number(impl->high));
    }
    const Value* recv = nullptr;
    if (chosen >= 0)
        if (const Value* p = methodConfig->asArray()[static_cast<std::size_t>(chosen)].find("retryPolicy"))
            recv = p->find("perAttemptRecvTimeout");
    (void)recv;
    Entry& timeout = r.entry("", "set", "preset");
    timeout.rule = "gRPC has no per-attempt timeout: clientTimeoutMs 86,400,000 (docs/clients.md §0)";
    r.input(timeout, "clientTimeoutMs", Value::number(kMaxMs));
    Entry& fixed = r.entry("", "set", "preset");
    fixed.rule =
        "every gRPC reading: honourRetryAfter false (gRPC reads grpc-retry-pushback-ms, not Retry-After), "
        "retryWritesWithoutKey true, attemptStart before-deadline, idempotencyKey false";
    r.input(fixed, "honourRetryAfter", Value::boolean(false));
    r.input(fixed, "retryWritesWithoutKey", Value::boolean(true));
    r.input(fixed, "attemptStart", Value::string("before-deadline"));
    if (!r.inputs.count("idempotencyKey")) r.input(fixed, "idempotencyKey", Value::boolean(false));
    for (const char* what : {"pushback (grpc-retry-pushback-ms)", "transparent retries",
                             "grpc-go retrying only answers that came as Trailers-Only"}) {
        Entry& e = r.entry("", "not-modelled");
        e.rule = what;
        e.note = std::string(what) + " is not modelled (docs/clients.md §1)";
    }
}

}  // namespace retrylab::config::detail
