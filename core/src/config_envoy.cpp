// The Envoy route reader (docs/config-in.md §5): the route selected from a bootstrap, a route
// configuration or a single route; its retry_policy, timeout and cluster's circuit breakers.
#include <algorithm>
#include <cctype>
#include <set>

#include "config_read.hpp"

namespace retrylab::config::detail {
namespace {

const char* const kProto = "envoyproxy/envoy v1.37.0 (6d9bb7d9) api/envoy/config/route/v3/route_components.proto";
const char* const kSource = "envoyproxy/envoy v1.37.0 (6d9bb7d9) source/common/router/";

// A key in snake_case (the proto JSON mapping's camelCase read as its snake_case form, §5).
std::string snake(const std::string& key) {
    std::string out;
    for (char c : key) {
        if (std::isupper(static_cast<unsigned char>(c))) {
            out += '_';
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        } else {
            out += c;
        }
    }
    return out;
}

// A member by its snake_case name; `key` gets the name as written.
const Value* get(const Value& obj, const std::string& name, std::string* key = nullptr) {
    if (obj.kind() != Value::Kind::Object) return nullptr;
    for (const Value::Member& m : obj.asObject())
        if (snake(m.key) == name) {
            if (key) *key = m.key;
            return &m.value;
        }
    return nullptr;
}

// §2.3 with §5's two spellings: an unknown key, or one name given in both forms.
void checkEnvoyKeys(Reading& r, const std::string& path, const Value& obj, const std::vector<std::string>& known,
                    const std::string& what) {
    std::set<std::string> seen;
    for (const Value::Member& m : obj.asObject()) {
        std::string s = snake(m.key);
        std::string at = join(path, m.key);
        if (!seen.insert(s).second) {
            r.error(at, "duplicate-key", at + " repeats the key " + s + " (once in camelCase) in one object");
            continue;
        }
        if (std::find(known.begin(), known.end(), s) != known.end()) continue;
        std::string near = closest(s, known);
        r.error(at, "unknown-field",
                at + " is not a field of " + what + (near.empty() ? "" : " (did you mean " + near + "?)"));
    }
}

const std::vector<std::string> kPolicyKeys = {"retry_on",
                                              "num_retries",
                                              "per_try_timeout",
                                              "per_try_idle_timeout",
                                              "retry_priority",
                                              "retry_host_predicate",
                                              "retry_options_predicates",
                                              "host_selection_retry_max_attempts",
                                              "retriable_status_codes",
                                              "retry_back_off",
                                              "rate_limited_retry_back_off",
                                              "retriable_headers",
                                              "retriable_request_headers"};

const std::vector<std::string> kConditions = {"5xx",
                                              "gateway-error",
                                              "reset",
                                              "reset-before-request",
                                              "connect-failure",
                                              "envoy-ratelimited",
                                              "retriable-4xx",
                                              "refused-stream",
                                              "retriable-status-codes",
                                              "retriable-headers",
                                              "http3-post-connect-failure",
                                              "cancelled",
                                              "deadline-exceeded",
                                              "internal",
                                              "resource-exhausted",
                                              "unavailable"};

struct Candidate {
    std::string path;        // the route's path
    std::string name;        // its name, or its path
    const Value* route;      // the Route
    const Value* policy;     // the retry_policy that applies (its own or its virtual host's)
    std::string policyPath;  // where that policy is
    std::string cluster;
};

void addRoutes(Reading& r, const Value& config, const std::string& path, std::vector<Candidate>& out) {
    std::string vhKey;
    const Value* hosts = get(config, "virtual_hosts", &vhKey);
    if (!hosts || hosts->kind() != Value::Kind::Array) return;
    for (std::size_t v = 0; v < hosts->asArray().size(); ++v) {
        const Value& host = hosts->asArray()[v];
        std::string hostPath = indexed(join(path, vhKey), v);
        std::string key;
        const Value* hostPolicy = get(host, "retry_policy", &key);
        std::string hostPolicyPath = join(hostPath, key);
        std::string routesKey;
        const Value* routes = get(host, "routes", &routesKey);
        if (!routes || routes->kind() != Value::Kind::Array) continue;
        for (std::size_t i = 0; i < routes->asArray().size(); ++i) {
            const Value& route = routes->asArray()[i];
            std::string actionKey;
            const Value* action = get(route, "route", &actionKey);
            if (!action || action->kind() != Value::Kind::Object) continue;  // redirect, direct_response
            Candidate c;
            c.path = indexed(join(hostPath, routesKey), i);
            const Value* name = get(route, "name");
            c.name = name && name->kind() == Value::Kind::String ? name->asString() : c.path;
            c.route = &route;
            std::string policyKey;
            if (const Value* own = get(*action, "retry_policy", &policyKey)) {
                c.policy = own;
                c.policyPath = join(join(c.path, actionKey), policyKey);
            } else {
                c.policy = hostPolicy;
                c.policyPath = hostPolicy ? hostPolicyPath : "";
            }
            const Value* cluster = get(*action, "cluster");
            c.cluster = cluster && cluster->kind() == Value::Kind::String ? cluster->asString() : "";
            out.push_back(c);
        }
    }
    (void)r;
}

// A duration field as whole ms (Envoy truncates: PROTOBUF_GET_MS_OR_DEFAULT).
std::optional<double> msOf(Reading& r, const std::string& path, const Value& v, const std::string& example) {
    auto ns = r.protoDuration(path, v, example);
    if (!ns) return std::nullopt;
    return floorMs(*ns);
}

Entry& sourceEntry(Reading& r, const std::string& path, const Value& v, const std::string& rule,
                   const std::string& cite) {
    return sourced(r, path, v, "read", rule, cite);
}

void clampMs(Entry& e, double& ms, const std::string& what) {
    if (ms > kMaxMs) {
        e.status = "clamped";
        e.note = what + ": the engine allows at most 86,400,000 ms";
        ms = kMaxMs;
    }
}

// §5.2: retry_on and retriable_status_codes.
void readRetryOn(Reading& r, const std::string& pp, const Value& policy) {
    std::string key, codesKey;
    const Value* on = get(policy, "retry_on", &key);
    const Value* codes = get(policy, "retriable_status_codes", &codesKey);
    bool timeout = false, fiveXX = false, codesWanted = false;
    std::set<int> statuses;
    std::string at = join(pp, key.empty() ? "retry_on" : key);
    std::vector<std::string> parts;
    if (on) {
        auto text = r.string(at, *on);
        if (!text) return;
        std::size_t from = 0;
        while (from <= text->size()) {
            std::size_t comma = text->find(',', from);
            std::string part = text->substr(from, comma == std::string::npos ? std::string::npos : comma - from);
            std::size_t a = part.find_first_not_of(" \t"), b = part.find_last_not_of(" \t");
            part = a == std::string::npos ? "" : part.substr(a, b - a + 1);
            if (!part.empty()) parts.push_back(part);
            if (comma == std::string::npos) break;
            from = comma + 1;
        }
    }
    std::vector<std::string> unmodelled;
    for (const std::string& p : parts) {
        if (std::find(kConditions.begin(), kConditions.end(), p) == kConditions.end()) {
            std::string near = closest(p, kConditions);
            r.error(at, "not-a-choice",
                    at + " names \"" + p + "\", which is not an Envoy retry condition" +
                        (near.empty() ? "" : " (did you mean " + near + "?)"));
            continue;
        }
        Conditions one;
        addCondition(one, p);
        timeout = timeout || one.timeout;
        fiveXX = fiveXX || one.fiveXX;
        codesWanted = codesWanted || one.codesWanted;
        statuses.insert(one.statuses.begin(), one.statuses.end());
        unmodelled.insert(unmodelled.end(), one.unmodelled.begin(), one.unmodelled.end());
    }
    std::vector<int> codeList;
    if (codes) {
        std::string cat = join(pp, codesKey);
        if (const Value* list = r.list(cat, *codes))
            for (std::size_t i = 0; i < list->asArray().size(); ++i)
                if (auto n = r.whole(indexed(cat, i), list->asArray()[i])) codeList.push_back(static_cast<int>(*n));
    }
    if (r.failed()) return;
    Entry& e =
        on ? sourceEntry(r, at, *on, "retry_on's conditions → retryOn and retryOnStatuses (docs/config-in.md §5.2)",
                         std::string(kSource) + "retry_state_impl.cc lines 193, 395-455")
           : r.entry(at, "defaulted");
    if (!on) {
        e.source = Value::string("");
        e.hasSource = true;
        e.rule = "no retry_on → retries nothing";
        e.cite = std::string(kProto);
    }
    if (parts.empty()) r.warn(at, "retry_on is empty: this policy retries nothing, whatever num_retries says");
    if (codes) {
        std::string cat = join(pp, codesKey);
        Entry& c = sourceEntry(r, cat, *codes,
                               "retriable_status_codes → retryOnStatuses (with retriable-status-codes in retry_on)",
                               std::string(kSource) + "retry_state_impl.cc lines 414-419");
        if (!codesWanted)
            r.warn(cat, "listed but retry_on lacks retriable-status-codes");
        else {
            std::string outside;
            for (int s : codeList) {
                if (s >= 100 && s <= 599)
                    statuses.insert(s);
                else
                    outside += (outside.empty() ? "" : ", ") + std::to_string(s);
                if (s == 425) c.note = "425's early-data rule is not modelled";
            }
            if (!outside.empty())
                c.note = "statuses outside 100–599 (" + outside + ") are not answers the engine models";
        }
    }
    Conditions c;
    c.timeout = timeout;
    c.fiveXX = fiveXX;
    c.statuses = statuses;
    c.unmodelled = unmodelled;
    writeConditions(r, e, at, c);
}

void readBackOff(Reading& r, const std::string& pp, const Value& policy) {
    std::string key;
    const Value* b = get(policy, "retry_back_off", &key);
    if (!b) {
        Entry& e = r.entry(join(pp, "retry_back_off"), "defaulted");
        e.source = Value::string("25ms, 10 × 25ms");
        e.hasSource = true;
        e.rule = "no retry_back_off → base 25 ms, max 10 × base";
        e.cite = std::string(kProto) + " lines 1767-1771; " + kSource + "retry_state_impl.cc lines 90-91, 98";
        r.input(e, "baseBackoffMs", Value::number(25));
        r.input(e, "maxBackoffMs", Value::number(250));
    } else {
        std::string at = join(pp, key);
        const Value* obj = r.object(at, *b);
        if (!obj) return;
        checkEnvoyKeys(r, at, *obj, {"base_interval", "max_interval"}, "Envoy's RetryBackOff");
        std::string baseKey, maxKey;
        const Value* base = get(*obj, "base_interval", &baseKey);
        const Value* max = get(*obj, "max_interval", &maxKey);
        if (!base) {
            r.errorAt(join(at, "base_interval"), at, "missing",
                      join(at, "base_interval") + " is required by Envoy (route_components.proto lines 1611-1618)");
            return;
        }
        auto baseMs = msOf(r, join(at, baseKey), *base, "0.025s");
        std::optional<double> maxMs;
        if (max) maxMs = msOf(r, join(at, maxKey), *max, "0.25s");
        if (!baseMs || (max && !maxMs)) return;
        std::int64_t baseNs = *r.protoDuration(join(at, baseKey), *base, "0.025s");
        if (baseNs == 0) {
            r.error(join(at, baseKey), "out-of-range",
                    join(at, baseKey) + " must be more than 0s (route_components.proto line 1618)");
            return;
        }
        if (max && *maxMs < *baseMs) {
            r.error(join(at, maxKey), "out-of-range",
                    join(at, maxKey) + " must not be below base_interval (retry_policy_impl.cc lines 87-98)");
            return;
        }
        double bms = std::max(1.0, *baseMs);
        Entry& e = sourceEntry(r, join(at, baseKey), *base, "base_interval → baseBackoffMs = max(1, ⌊ms⌋)",
                               std::string(kSource) + "retry_policy_impl.cc lines 81-85");
        clampMs(e, bms, "base_interval");
        r.input(e, "baseBackoffMs", Value::number(bms));
        if (max) {
            double mms = std::max(1.0, *maxMs);
            Entry& m = sourceEntry(r, join(at, maxKey), *max, "max_interval → maxBackoffMs = max(1, ⌊ms⌋)",
                                   std::string(kSource) + "retry_policy_impl.cc lines 87-98");
            clampMs(m, mms, "max_interval");
            r.input(m, "maxBackoffMs", Value::number(mms));
        } else {
            Entry& m = r.entry(join(at, "max_interval"), "defaulted");
            m.source = Value::string("10 × base_interval");
            m.hasSource = true;
            m.rule = "no max_interval → 10 × base_interval";
            m.cite = std::string(kProto) + " line 1621";
            double mms = 10 * bms;
            clampMs(m, mms, "10 × base_interval");
            r.input(m, "maxBackoffMs", Value::number(mms));
        }
    }
    envoyBackOffRule(r);
}

void readRateLimited(Reading& r, const std::string& pp, const Value& policy) {
    std::string key;
    const Value* rl = get(policy, "rate_limited_retry_back_off", &key);
    if (!rl) {
        Entry& e = r.entry(join(pp, "rate_limited_retry_back_off"), "defaulted");
        e.source = Value::string("none");
        e.hasSource = true;
        e.rule = "no rate_limited_retry_back_off → honourRetryAfter false";
        e.cite = std::string(kProto) + " lines 1627-1694";
        r.input(e, "honourRetryAfter", Value::boolean(false));
        return;
    }
    std::string at = join(pp, key);
    const Value* obj = r.object(at, *rl);
    if (!obj) return;
    checkEnvoyKeys(r, at, *obj, {"reset_headers", "max_interval"}, "Envoy's RateLimitedRetryBackOff");
    std::string hKey, mKey;
    const Value* headers = get(*obj, "reset_headers", &hKey);
    bool honour = false;
    if (!headers) {
        r.errorAt(
            join(at, "reset_headers"), at, "missing",
            join(at, "reset_headers") + " is required by Envoy (at least one; route_components.proto lines 1627-1638)");
        return;
    }
    std::string hat = join(at, hKey);
    if (const Value* list = r.list(hat, *headers)) {
        if (list->asArray().empty())
            r.error(hat, "out-of-range", hat + " must hold at least one header (route_components.proto line 1688)");
        for (std::size_t i = 0; i < list->asArray().size(); ++i) {
            std::string iat = indexed(hat, i);
            const Value* h = r.object(iat, list->asArray()[i]);
            if (!h) continue;
            checkEnvoyKeys(r, iat, *h, {"name", "format"}, "Envoy's ResetHeader");
            const Value* name = get(*h, "name");
            const Value* format = get(*h, "format");
            std::string n = name && name->kind() == Value::Kind::String ? name->asString() : "";
            std::string f = "SECONDS";
            if (format) {
                if (auto s = r.string(join(iat, "format"), *format)) {
                    if (*s != "SECONDS" && *s != "UNIX_TIMESTAMP") {
                        r.error(join(iat, "format"), "not-a-choice",
                                join(iat, "format") + " names \"" + *s + "\", which is not SECONDS or UNIX_TIMESTAMP");
                        continue;
                    }
                    f = *s;
                }
            }
            std::string lower = n;
            for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            if (lower == "retry-after" && f == "SECONDS") {
                honour = true;
                Entry& e =
                    sourceEntry(r, iat, list->asArray()[i], "a Retry-After header in SECONDS → honourRetryAfter true",
                                std::string(kProto) + " lines 1627-1638");
                e.approximated = true;
                e.note =
                    "Envoy waits random(interval, 1.5 × interval), the run the interval itself; Envoy's SECONDS takes "
                    "only an integer";
                r.input(e, "honourRetryAfter", Value::boolean(true));
            } else {
                Entry& e = r.entry(iat, "not-modelled");
                e.source = list->asArray()[i];
                e.hasSource = true;
                e.rule = "reset header " + n + " (" + f + ") → none";
                e.note = "only Retry-After in seconds is a header the engine reads";
            }
        }
    }
    if (r.failed()) return;
    if (!honour) {
        Entry& e = r.entry(hat, "read");
        e.rule = "no Retry-After header in SECONDS → honourRetryAfter false";
        r.input(e, "honourRetryAfter", Value::boolean(false));
    }
    const Value* max = get(*obj, "max_interval", &mKey);
    if (max) {
        auto ms = msOf(r, join(at, mKey), *max, "300s");
        if (!ms) return;
        Entry& e = sourceEntry(r, join(at, mKey), *max, "max_interval → retryAfterMaxMs, retryAfterOverMax backoff",
                               std::string(kProto) + " lines 1669-1671");
        if (honour) {
            double v = std::max(1.0, *ms);
            clampMs(e, v, "max_interval");
            r.input(e, "retryAfterMaxMs", Value::number(v));
            r.input(e, "retryAfterOverMax", Value::string("backoff"));
        }
    } else if (honour) {
        Entry& e = r.entry(join(at, "max_interval"), "defaulted");
        e.source = Value::string("300s");
        e.hasSource = true;
        e.rule = "no max_interval → retryAfterMaxMs 300,000, retryAfterOverMax backoff";
        e.cite = std::string(kProto) + " line 1694; " + kSource + "retry_policy_impl.h line 86";
        r.input(e, "retryAfterMaxMs", Value::number(300000));
        r.input(e, "retryAfterOverMax", Value::string("backoff"));
    }
}

void readPolicy(Reading& r, const std::string& pp, const Value& policyValue, const Value* routeTimeoutMs) {
    const Value* policy = r.object(pp, policyValue);
    if (!policy) return;
    checkEnvoyKeys(r, pp, *policy, kPolicyKeys, "Envoy's RetryPolicy");
    if (r.failed()) return;
    readRetryOn(r, pp, *policy);
    std::string key;
    if (const Value* n = get(*policy, "num_retries", &key)) {
        std::string at = join(pp, key);
        if (auto v = r.whole(at, *n)) {
            if (*v < 0 || *v > 4294967295.0)
                r.error(at, "out-of-range",
                        at + " must be a whole number 0–4,294,967,295 (a UInt32Value); got " + grouped(*v));
            else {
                Entry& e = sourceEntry(r, at, *n, "num_retries → maxRetries = min(num_retries, 100)",
                                       std::string(kProto) + " lines 1703-1707");
                if (*v > 100) {
                    e.status = "clamped";
                    e.note = "num_retries " + grouped(*v) + ": the engine allows at most 100 retries";
                }
                r.input(e, "maxRetries", Value::number(std::min(*v, 100.0)));
            }
        }
    } else {
        Entry& e = r.entry(join(pp, "num_retries"), "defaulted");
        e.source = Value::number(1);
        e.hasSource = true;
        e.rule = "no num_retries → 1";
        e.cite = std::string(kProto) + " lines 1703-1707; " + kSource + "retry_policy_impl.cc line 39";
        r.input(e, "maxRetries", Value::number(1));
    }
    if (const Value* t = get(*policy, "per_try_timeout", &key)) {
        std::string at = join(pp, key);
        if (auto ms = msOf(r, at, *t, "0.5s")) {
            Entry& e = sourceEntry(r, at, *t, "per_try_timeout → clientTimeoutMs = ⌊ms⌋ (0s: 86,400,000)",
                                   std::string(kProto) + " lines 1709-1720");
            double v = *ms == 0 ? kMaxMs : *ms;
            clampMs(e, v, "per_try_timeout");
            r.input(e, "clientTimeoutMs", Value::number(v));
            if (*ms > 0 && routeTimeoutMs && routeTimeoutMs->kind() == Value::Kind::Number &&
                *ms >= routeTimeoutMs->asNumber())
                r.warn(at,
                       "per_try_timeout ≥ route timeout: the first attempt's timeout is the route's, which is never "
                       "retried");
        }
    } else {
        Entry& e = r.entry("", "set", "preset");
        e.rule =
            "no per_try_timeout: an attempt ends only at the route timeout, clientTimeoutMs 86,400,000 "
            "(docs/clients.md §0)";
        r.input(e, "clientTimeoutMs", Value::number(kMaxMs));
    }
    readBackOff(r, pp, *policy);
    readRateLimited(r, pp, *policy);
    for (const char* name :
         {"per_try_idle_timeout", "retry_priority", "retry_host_predicate", "retry_options_predicates",
          "host_selection_retry_max_attempts", "retriable_headers", "retriable_request_headers"}) {
        std::string k;
        const Value* v = get(*policy, name, &k);
        if (!v) continue;
        std::string at = join(pp, k);
        auto add = [&](const std::string& path, const Value& value) {
            Entry& e = r.entry(path, "not-modelled");
            e.source = value;
            e.hasSource = true;
            e.rule = std::string(name) + " → none";
            e.note = std::string(name) == "per_try_idle_timeout" ? "an idle timeout is not modelled"
                     : std::string(name) == "retriable_headers"  ? "answers matching headers are not modelled"
                     : std::string(name) == "retriable_request_headers"
                         ? "a request-header condition is not evaluated (the run's request carries no headers)"
                         : "the model has one server: host selection and priorities are not modelled";
        };
        if (v->kind() == Value::Kind::Array && !v->asArray().empty())
            for (std::size_t i = 0; i < v->asArray().size(); ++i) add(indexed(at, i), v->asArray()[i]);
        else
            add(at, *v);
    }
}

void readCluster(Reading& r, const Value& doc, const std::string& clusterName) {
    std::string srKey, cKey;
    const Value* sr = get(doc, "static_resources", &srKey);
    const Value* clusters = sr ? get(*sr, "clusters", &cKey) : nullptr;
    if (!clusters || clusters->kind() != Value::Kind::Array) {
        if (!clusterName.empty())
            r.warn("", "cluster " + clusterName + " is not in this file: its circuit breakers were not read");
        return;
    }
    bool found = false;
    for (std::size_t i = 0; i < clusters->asArray().size(); ++i) {
        const Value& c = clusters->asArray()[i];
        std::string at = indexed(join(srKey, cKey), i);
        const Value* name = get(c, "name");
        bool selected = !found && name && name->kind() == Value::Kind::String && name->asString() == clusterName;
        if (!selected) {
            r.ignore(at, "another cluster");
            continue;
        }
        found = true;
        r.ignore(at, "the cluster's keys other than circuit_breakers");
        std::string cbKey;
        const Value* cb = get(c, "circuit_breakers", &cbKey);
        const Value* chosen = nullptr;
        std::string chosenPath;
        if (cb && cb->kind() == Value::Kind::Object) {
            std::string tKey;
            const Value* thresholds = get(*cb, "thresholds", &tKey);
            if (thresholds && thresholds->kind() == Value::Kind::Array)
                for (std::size_t k = 0; k < thresholds->asArray().size(); ++k) {
                    const Value* p = get(thresholds->asArray()[k], "priority");
                    if (!p || (p->kind() == Value::Kind::String && p->asString() == "DEFAULT")) {
                        chosen = &thresholds->asArray()[k];
                        chosenPath = indexed(join(join(at, cbKey), tKey), k);
                        break;
                    }
                }
        }
        const char* cite = "envoyproxy/envoy v1.37.0 (6d9bb7d9) api/envoy/config/cluster/v3/circuit_breaker.proto";
        std::string mrKey;
        const Value* maxRetries = chosen ? get(*chosen, "max_retries", &mrKey) : nullptr;
        Entry& e = r.entry(maxRetries ? join(chosenPath, mrKey) : join(at, "circuit_breakers"), "not-modelled");
        e.source = maxRetries ? *maxRetries : Value::number(3);
        e.hasSource = true;
        e.rule = "max_retries → none";
        e.cite = std::string(cite) + " line 72";
        e.note = "max_retries caps concurrent retries to the cluster, not a request's retries";
        std::string rbKey;
        if (const Value* budget = chosen ? get(*chosen, "retry_budget", &rbKey) : nullptr) {
            Entry& b = r.entry(join(chosenPath, rbKey), "not-modelled");
            b.source = *budget;
            b.hasSource = true;
            b.rule = "retry_budget → none";
            b.cite = std::string(cite) + " lines 43-49";
            b.note =
                "Envoy's budget caps concurrent retries as a share of active requests; FLEET's budget counts retries "
                "over a window: no fleet gate is set";
        }
    }
    if (!found && !clusterName.empty())
        r.warn("", "cluster " + clusterName + " is not in this file: its circuit breakers were not read");
}

}  // namespace

const std::vector<std::string>& envoyConditions() { return kConditions; }

void addCondition(Conditions& c, const std::string& p) {
    if (p == "5xx")
        c.timeout = c.fiveXX = true;
    else if (p == "gateway-error")
        c.timeout = true, c.statuses.insert({502, 503, 504});
    else if (p == "reset")
        c.timeout = true;
    else if (p == "retriable-4xx")
        c.statuses.insert(409);
    else if (p == "retriable-status-codes")
        c.codesWanted = true;
    else
        c.unmodelled.push_back(p);
}

void writeConditions(Reading& r, Entry& e, const std::string& at, const Conditions& c) {
    Value classes = Value::array();
    if (c.timeout) classes.push(Value::string("timeout"));
    if (c.fiveXX) classes.push(Value::string("5xx"));
    Value list = Value::array();
    for (int s : c.statuses) list.push(Value::number(s));
    r.input(e, "retryOn", std::move(classes));
    r.input(e, "retryOnStatuses", std::move(list));
    for (const std::string& p : c.unmodelled) {
        Entry& n = r.entry(at, "not-modelled");
        n.source = Value::string(p);
        n.hasSource = true;
        n.rule = p + " → none";
        bool grpc = p == "cancelled" || p == "deadline-exceeded" || p == "internal" || p == "resource-exhausted" ||
                    p == "unavailable";
        n.note = grpc                       ? p + ": a gRPC status inside a 200, not an HTTP answer the engine models"
                 : p == "envoy-ratelimited" ? p + ": Envoy's own x-envoy-ratelimited answer is not modelled"
                 : p == "retriable-headers" ? p + ": answers matching retriable_headers are not modelled"
                                            : p + ": the engine has no connection to fail";
    }
}

namespace {

// §5.1: the routes of a bootstrap's listeners (each HttpConnectionManager's route_config).
void addBootstrapRoutes(Reading& r, const Value& doc, std::vector<Candidate>& candidates) {
    std::string srKey, lKey;
    const Value* sr = get(doc, "static_resources", &srKey);
    const Value* listeners = sr ? get(*sr, "listeners", &lKey) : nullptr;
    if (listeners && listeners->kind() == Value::Kind::Array)
        for (std::size_t l = 0; l < listeners->asArray().size(); ++l) {
            std::string lp = indexed(join(srKey, lKey), l);
            std::string fcKey;
            const Value* chains = get(listeners->asArray()[l], "filter_chains", &fcKey);
            if (!chains || chains->kind() != Value::Kind::Array) continue;
            for (std::size_t f = 0; f < chains->asArray().size(); ++f) {
                std::string fKey;
                const Value* filters = get(chains->asArray()[f], "filters", &fKey);
                if (!filters || filters->kind() != Value::Kind::Array) continue;
                for (std::size_t k = 0; k < filters->asArray().size(); ++k) {
                    std::string tcKey, rcKey;
                    const Value* tc = get(filters->asArray()[k], "typed_config", &tcKey);
                    const Value* type = tc ? get(*tc, "@type") : nullptr;
                    const std::string hcm = "HttpConnectionManager";
                    if (!type || type->kind() != Value::Kind::String || type->asString().size() < hcm.size() ||
                        type->asString().compare(type->asString().size() - hcm.size(), hcm.size(), hcm) != 0)
                        continue;
                    const Value* rc = get(*tc, "route_config", &rcKey);
                    if (!rc) continue;
                    std::string rcPath = join(join(indexed(join(indexed(join(lp, fcKey), f), fKey), k), tcKey), rcKey);
                    addRoutes(r, *rc, rcPath, candidates);
                }
            }
            r.ignore(lp, "the listener, less the route configuration read");
        }
}

// §5.1: every route of the file, by its shape; the top-level keys not read are ignored.
bool envoyCandidates(Reading& r, const Value& doc, const std::string& shape, std::vector<Candidate>& candidates) {
    if (shape == "envoy-route") {
        Candidate c;
        c.path = "";
        const Value* name = get(doc, "name");
        c.name = name && name->kind() == Value::Kind::String ? name->asString() : "";
        c.route = &doc;
        std::string actionKey, policyKey;
        const Value* action = get(doc, "route", &actionKey);
        if (!action || action->kind() != Value::Kind::Object) {
            r.error(actionKey, "wrong-type", actionKey + " must be an object (Envoy's RouteAction)");
            return false;
        }
        c.policy = get(*action, "retry_policy", &policyKey);
        c.policyPath = join(actionKey, policyKey);
        const Value* cluster = get(*action, "cluster");
        c.cluster = cluster && cluster->kind() == Value::Kind::String ? cluster->asString() : "";
        candidates.push_back(c);
    } else if (shape == "envoy-route-config") {
        addRoutes(r, doc, "", candidates);
    } else {
        addBootstrapRoutes(r, doc, candidates);
        for (const Value::Member& m : doc.asObject())
            if (snake(m.key) != "static_resources") r.ignore(m.key, "not a retry section");
    }
    if (shape != "envoy-bootstrap")
        for (const Value::Member& m : doc.asObject()) {
            std::string s = snake(m.key);
            if (shape == "envoy-route" && (s == "route" || s == "name")) continue;
            if (shape == "envoy-route-config" && s == "virtual_hosts") continue;
            r.ignore(m.key, shape == "envoy-route" && s == "match" ? "the run is one request of this route"
                                                                   : "not a retry section");
        }
    if (candidates.empty()) {
        r.error("", "no-match", "the file holds no route with a route action");
        return false;
    }
    return true;
}

// §5.1's selection: the index chosen, or -1 with a no-match error.
int selectRoute(Reading& r, const Options& o, const std::vector<Candidate>& candidates) {
    int chosen = -1;
    if (o.hasRoute) {
        for (std::size_t i = 0; i < candidates.size() && chosen < 0; ++i) {
            const std::string& p = candidates[i].path;
            std::string byIndex;
            std::size_t v = p.find("virtual_hosts["), rr = p.find("routes[");
            if (v != std::string::npos && rr != std::string::npos)
                byIndex = p.substr(v + 14, p.find(']', v) - v - 14) + "/" + p.substr(rr + 7, p.find(']', rr) - rr - 7);
            if (candidates[i].name == o.route || byIndex == o.route) chosen = static_cast<int>(i);
        }
        if (chosen < 0) {
            std::string all;
            for (std::size_t i = 0; i < candidates.size() && i < 20; ++i)
                all += (all.empty() ? "" : ", ") + candidates[i].name;
            if (candidates.size() > 20) all += ", and " + std::to_string(candidates.size() - 20) + " more";
            r.error("", "no-match", "--route " + o.route + " selects no route; the routes are " + all);
            return -1;
        }
        r.selection.set("rule", Value::string("option"));
    } else {
        for (std::size_t i = 0; i < candidates.size() && chosen < 0; ++i)
            if (candidates[i].policy) chosen = static_cast<int>(i);
        std::string rule = candidates.size() == 1 ? "only" : chosen >= 0 ? "first-with-retries" : "first";
        if (chosen < 0) chosen = 0;
        r.selection.set("rule", Value::string(rule));
    }
    const Candidate& c = candidates[static_cast<std::size_t>(chosen)];
    r.selection.set("path", Value::string(c.path));
    r.selection.set("name", Value::string(c.name));
    Value others = Value::array();
    for (std::size_t i = 0; i < candidates.size(); ++i)
        if (static_cast<int>(i) != chosen) {
            others.push(Value::string(candidates[i].path));
            r.ignore(candidates[i].path, "another route: " + candidates[i].name);
        }
    r.selection.set("others", std::move(others));
    return chosen;
}

// The route action: its timeout (the deadline, written to `deadline`) and the keys not
// modelled; the rest one ignored entry. False when the timeout cannot be read.
bool readRouteAction(Reading& r, const Candidate& c, Value& deadline) {
    std::string actionKey;
    const Value* action = get(*c.route, "route", &actionKey);
    std::string ap = join(c.path, actionKey);
    std::string otherKeys;
    for (const Value::Member& m : action->asObject()) {
        std::string s = snake(m.key);
        if (s == "retry_policy" || s == "timeout") continue;
        if (s == "idle_timeout" || s == "max_stream_duration" || s == "max_grpc_timeout" ||
            s == "grpc_timeout_offset" || s == "hedge_policy") {
            Entry& e = r.entry(join(ap, m.key), "not-modelled");
            e.source = m.value;
            e.hasSource = true;
            e.rule = s + " → none";
            e.note = s == "hedge_policy"
                         ? "Envoy's hedge on per-try timeout is not yet specified (docs/throttling.md §7)"
                         : s + " is not modelled";
            continue;
        }
        otherKeys += (otherKeys.empty() ? "" : ", ") + m.key;
    }
    if (!otherKeys.empty()) {
        Entry& e = r.entry(ap, "ignored");
        e.rule = "the route action's other keys";
        e.note = "not retry settings: " + otherKeys;
    }
    std::string tKey;
    if (const Value* t = get(*action, "timeout", &tKey)) {
        std::string at = join(ap, tKey);
        auto ms = msOf(r, at, *t, "15s");
        if (!ms) return false;
        Entry& e = sourceEntry(r, at, *t, "route.timeout → deadlineMs = ⌊ms⌋ (0s: none)",
                               std::string(kProto) + " lines 1371-1374");
        double v = *ms;
        if (v == 0)
            deadline = Value::null();
        else {
            clampMs(e, v, "route.timeout");
            deadline = Value::number(v);
        }
        r.input(e, "deadlineMs", deadline);
    } else {
        Entry& e = r.entry(join(ap, "timeout"), "defaulted");
        e.source = Value::string("15s");
        e.hasSource = true;
        e.rule = "no route.timeout → 15 s";
        e.cite = std::string(kProto) + " line 1371; " + kSource + "config_impl.h line 872";
        r.input(e, "deadlineMs", deadline);
    }
    return true;
}

}  // namespace

void envoyBackOffRule(Reading& r) {
    Entry& rule = r.entry("", "set", "preset");
    rule.rule = "Envoy's back-off rule: backoffMultiplier 2, jitter full (the envoy preset)";
    rule.cite = "envoyproxy/envoy v1.37.0 (6d9bb7d9) source/common/common/backoff_strategy.cc lines 13-19";
    rule.approximated = true;
    rule.note =
        "the back-off: Envoy waits a whole number of ms in [0, interval − 1], the run a real number in [0, interval)";
    r.input(rule, "backoffMultiplier", Value::number(2));
    r.input(rule, "jitter", Value::string("full"));
}

void readEnvoy(Reading& r, const Options& o) {
    const Value& doc = r.doc.value;
    std::vector<Candidate> candidates;
    std::string shape = envoyRule(doc);
    if (!envoyCandidates(r, doc, shape, candidates)) return;
    int chosen = selectRoute(r, o, candidates);
    if (chosen < 0) return;
    const Candidate& c = candidates[static_cast<std::size_t>(chosen)];
    std::string actionKey;
    get(*c.route, "route", &actionKey);
    std::string ap = join(c.path, actionKey);
    Value deadline = Value::number(15000);
    if (!readRouteAction(r, c, deadline)) return;
    if (c.policy) {
        if (c.policyPath.find(ap) != 0)
            r.warn(c.policyPath, "the route has no retry_policy of its own: its virtual host's applies, whole");
        readPolicy(r, c.policyPath, *c.policy, &deadline);
    } else {
        Entry& e = r.entry(join(ap, "retry_policy"), "defaulted");
        e.source = Value::string("none");
        e.hasSource = true;
        e.rule = "no retry policy (the route's or its virtual host's) → Envoy retries nothing";
        e.cite = std::string(kProto) + " lines 194-198";
        r.input(e, "maxRetries", Value::number(0));
        r.input(e, "retryOn", Value::array());
        r.input(e, "retryOnStatuses", Value::array());
        Entry& t = r.entry("", "set", "preset");
        t.rule = "no per_try_timeout: clientTimeoutMs 86,400,000 (docs/clients.md §0)";
        r.input(t, "clientTimeoutMs", Value::number(kMaxMs));
    }
    if (r.failed()) return;
    if (shape == "envoy-bootstrap") readCluster(r, doc, c.cluster);
    Entry& fixed = r.entry("", "set", "preset");
    fixed.rule =
        "every Envoy reading: retryWritesWithoutKey true (Envoy looks at no method), attemptStart before-deadline, "
        "idempotencyKey false";
    r.input(fixed, "retryWritesWithoutKey", Value::boolean(true));
    r.input(fixed, "attemptStart", Value::string("before-deadline"));
    if (!r.inputs.count("idempotencyKey")) r.input(fixed, "idempotencyKey", Value::boolean(false));
}

}  // namespace retrylab::config::detail
