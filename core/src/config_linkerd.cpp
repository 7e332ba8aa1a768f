// The Linkerd ServiceProfile reader (docs/config-in.md §7): a route's isRetryable, timeout and
// responseClasses, and the profile's retryBudget (the fleet's budget gate; in the single run,
// the retries the budget allows a lone request).
#include <algorithm>
#include <cmath>
#include <set>

#include "config_read.hpp"

namespace retrylab::config::detail {
namespace {

const char* const kTypes =
    "linkerd/linkerd2 edge-26.8.3 (19a0d90d) controller/gen/apis/serviceprofile/v1alpha2/types.go";
const char* const kTranslator =
    "linkerd/linkerd2 edge-26.8.3 (19a0d90d) controller/api/destination/profile_translator.go";
const char* const kProxy = "linkerd/linkerd2-proxy release/v2.366.0 (0dcf4e17) ";

// A response condition (§7.2): which statuses 100–599 it matches; false when the class is
// dropped (a status range without min or max: the proxy ignores the class).
bool readCondition(Reading& r, const std::string& path, const Value& v, std::set<int>& matches, int depth = 0) {
    const Value* c = r.object(path, v);
    if (!c) return false;
    if (depth > 16) {
        r.error(path, "too-deep", path + " nests conditions deeper than 16");
        return false;
    }
    r.checkKeys(path, *c, {"status", "all", "any", "not"}, "Linkerd's ResponseMatch");
    std::set<int> all;
    for (int s = 100; s <= 599; ++s) all.insert(s);
    bool kept = true;
    if (const Value* st = c->find("status")) {
        std::string at = join(path, "status");
        if (const Value* range = r.object(at, *st)) {
            r.checkKeys(at, *range, {"min", "max"}, "Linkerd's Range");
            double lo = 0, hi = 0;
            if (const Value* m = range->find("min")) lo = r.whole(join(at, "min"), *m).value_or(-1);
            if (const Value* m = range->find("max")) hi = r.whole(join(at, "max"), *m).value_or(-1);
            if (lo == 0 || hi == 0) {
                r.warn(at, "a status range without min or max: the proxy ignores this response class");
                kept = false;
            } else if (lo < 100 || hi > 599 || hi < lo) {
                r.error(at, "out-of-range",
                        at + " must have 100 ≤ min ≤ max ≤ 599 (pkg/profiles/profiles.go lines 200-207)");
                return false;
            } else {
                std::set<int> in;
                for (int s : all)
                    if (s >= lo && s <= hi) in.insert(s);
                all = in;
            }
        }
    }
    for (const char* key : {"all", "any"}) {
        const Value* list = c->find(key);
        if (!list) continue;
        std::string at = join(path, key);
        if (!r.list(at, *list)) return false;
        std::set<int> acc = std::string(key) == "all" ? all : std::set<int>{};
        for (std::size_t i = 0; i < list->asArray().size(); ++i) {
            std::set<int> m;
            if (!readCondition(r, indexed(at, i), list->asArray()[i], m, depth + 1)) kept = false;
            std::set<int> next;
            for (int s = 100; s <= 599; ++s)
                if (std::string(key) == "all" ? (acc.count(s) && m.count(s)) : (acc.count(s) || m.count(s)))
                    next.insert(s);
            acc = next;
        }
        std::set<int> next;
        for (int s : all)
            if (acc.count(s)) next.insert(s);
        all = next;
    }
    if (const Value* n = c->find("not")) {
        std::set<int> m;
        if (!readCondition(r, join(path, "not"), *n, m, depth + 1)) kept = false;
        std::set<int> next;
        for (int s : all)
            if (!m.count(s)) next.insert(s);
        all = next;
    }
    matches = all;
    return kept;
}

struct Budget {
    double ratio = 0.2, minPerSecond = 10, ttlMs = 10000;
    bool usable = true;
};

Budget readBudget(Reading& r, const Value& spec) {
    Budget b;
    const Value* v = spec.find("retryBudget");
    const std::string path = "spec.retryBudget";
    if (!v) {
        Entry& e = r.entry(path, "defaulted");
        e.source = Value::string("retryRatio 0.2, minRetriesPerSecond 10, ttl 10s");
        e.hasSource = true;
        e.rule = "no retryBudget → Linkerd's default budget";
        e.cite = std::string(kTranslator) + " lines 159-167";
        e.inputs = {"fleet.gates.budget.percent", "fleet.gates.budget.minPerSecond", "fleet.gates.budget.ttlMs",
                    "fleet.gates.budget.scope"};
        return b;
    }
    const Value* obj = r.object(path, *v);
    if (!obj) return b;
    r.checkKeys(path, *obj, {"retryRatio", "minRetriesPerSecond", "ttl"}, "Linkerd's RetryBudget");
    for (const char* k : {"retryRatio", "minRetriesPerSecond", "ttl"})
        if (!obj->find(k))
            r.errorAt(join(path, k), path, "missing",
                      join(path, k) + " is required in a retryBudget (pkg/profiles/profiles.go line 107)");
    if (r.failed()) return b;
    std::string at = join(path, "retryRatio");
    if (auto x = r.number(at, *obj->find("retryRatio"))) {
        if (*x < 0) r.error(at, "out-of-range", at + " must be at least 0; got " + grouped(*x));
        b.ratio = *x;
        Entry& e = r.entry(at, "read");
        e.source = *obj->find("retryRatio");
        e.hasSource = true;
        e.rule =
            "retryRatio → fleet.gates.budget.percent = retryRatio × 100 (at most 100), and the single run's retries";
        e.cite = std::string(kTypes) + " line 79";
        e.note = "Linkerd stores the ratio as a float32; the reader uses the number as written";
        e.inputs = {"fleet.gates.budget.percent", "fleet.gates.budget.scope"};
        if (*x > 1) {
            e.status = "clamped";
            e.note += "; " + grouped(*x * 100) + " % is above the fleet budget's 100";
        }
        if (*x > 1000) {
            b.usable = false;
            r.warn(at, "retryRatio above 1,000: the proxy refuses the budget and then retries nothing");
        }
    }
    at = join(path, "minRetriesPerSecond");
    if (auto n = r.whole(at, *obj->find("minRetriesPerSecond"))) {
        if (*n < 0) r.error(at, "out-of-range", at + " must be at least 0; got " + grouped(*n));
        b.minPerSecond = *n;
        Entry& e = r.entry(at, "read");
        e.source = *obj->find("minRetriesPerSecond");
        e.hasSource = true;
        e.rule = "minRetriesPerSecond → fleet.gates.budget.minPerSecond, and the single run's retries";
        e.inputs = {"fleet.gates.budget.minPerSecond"};
    }
    at = join(path, "ttl");
    if (auto ns = goDuration(r, at, *obj->find("ttl"), "10s")) {
        b.ttlMs = static_cast<double>(*ns) / 1e6;
        Entry& e = r.entry(at, "read");
        e.source = *obj->find("ttl");
        e.hasSource = true;
        e.rule = "ttl → fleet.gates.budget.ttlMs, and the single run's retries";
        e.cite = std::string(kProxy) + "linkerd/service-profiles/src/proto.rs lines 200-207";
        e.inputs = {"fleet.gates.budget.ttlMs"};
        if (b.ttlMs < 1000 || b.ttlMs > 60000) {
            b.usable = false;
            r.warn(at, "ttl " + obj->find("ttl")->asString() +
                           ": the proxy ignores a retry budget whose ttl is not 1s–60s, and then retries nothing");
        }
        if (b.ttlMs > kMaxMs || b.ttlMs < 1) {
            e.status = "clamped";
            e.note = "the fleet budget's window is 1 ms to 86,400,000 ms";
        }
    }
    return b;
}

// §7.1: the route chosen (-1: none, the file has no routes), or kNoMatch with the error.
constexpr int kNoMatch = -2;
std::string routeName(const Value::Array& routes, std::size_t i) {
    const Value* n = routes[i].find("name");
    return n && n->kind() == Value::Kind::String ? n->asString() : indexed("spec.routes", i);
}

int selectRoute(Reading& r, const Options& o, const Value::Array& routes) {
    auto retryable = [&](std::size_t i) {
        const Value* v = routes[i].find("isRetryable");
        return v && v->kind() == Value::Kind::Bool && v->asBool();
    };
    int chosen = -1;
    if (o.hasRoute) {
        for (std::size_t i = 0; i < routes.size() && chosen < 0; ++i)
            if (routeName(routes, i) == o.route || std::to_string(i) == o.route) chosen = static_cast<int>(i);
        if (chosen < 0) {
            std::string all;
            for (std::size_t i = 0; i < routes.size() && i < 20; ++i)
                all += (all.empty() ? "" : ", ") + routeName(routes, i);
            r.error("", "no-match",
                    "--route " + o.route + " selects no route; the routes are " + (all.empty() ? "none" : all));
            return kNoMatch;
        }
        r.selection.set("rule", Value::string("option"));
    } else if (routes.empty()) {
        r.selection.set("rule", Value::string("none"));
    } else {
        for (std::size_t i = 0; i < routes.size() && chosen < 0; ++i)
            if (retryable(i)) chosen = static_cast<int>(i);
        std::string rule = routes.size() == 1 ? "only" : chosen >= 0 ? "first-with-retries" : "first";
        if (chosen < 0) chosen = 0;
        r.selection.set("rule", Value::string(rule));
    }
    Value others = Value::array();
    for (std::size_t i = 0; i < routes.size(); ++i)
        if (static_cast<int>(i) != chosen) {
            others.push(Value::string(indexed("spec.routes", i)));
            r.ignore(indexed("spec.routes", i), "another route: " + routeName(routes, i));
        }
    r.selection.set("path", Value::string(chosen >= 0 ? indexed("spec.routes", static_cast<std::size_t>(chosen)) : ""));
    r.selection.set("name", Value::string(chosen >= 0 ? routeName(routes, static_cast<std::size_t>(chosen)) : ""));
    r.selection.set("others", std::move(others));

    return chosen;
}

// routes[i].timeout → deadlineMs (the whole request's, retries included). False: an error.
bool readRouteTimeout(Reading& r, const std::string& path, const Value& route) {
    if (const Value* t = route.find("timeout")) {
        auto ns = goDuration(r, join(path, "timeout"), *t, "10s");
        if (!ns) return false;
        Entry& d = r.entry(join(path, "timeout"), "read");
        d.source = *t;
        d.hasSource = true;
        d.rule = "timeout → deadlineMs (the whole request, retries included)";
        d.cite = std::string(kTranslator) + " line 263";
        double ms = static_cast<double>(*ns) / 1e6;
        if (ms > kMaxMs) {
            d.status = "clamped";
            d.note = "timeout: the engine allows at most 86,400,000 ms";
            ms = kMaxMs;
        }
        r.input(d, "deadlineMs", Value::number(ms));
    } else {
        Entry& d = r.entry(join(path, "timeout"), "defaulted");
        d.source = Value::string("none");
        d.hasSource = true;
        d.rule = "no timeout → none";
        d.cite = std::string(kTranslator) + " line 261";
        r.input(d, "deadlineMs", Value::null());
    }
    return true;
}

// routes[i].responseClasses → the failure statuses F → retryOn, retryOnStatuses. False: an error.
bool readResponseClasses(Reading& r, const std::string& path, const Value& route) {
    std::vector<std::pair<std::set<int>, bool>> classes;
    const Value* rc = route.find("responseClasses");
    if (rc) {
        std::string at = join(path, "responseClasses");
        if (!r.list(at, *rc)) return false;
        for (std::size_t k = 0; k < rc->asArray().size(); ++k) {
            std::string ck = indexed(at, k);
            const Value* cls = r.object(ck, rc->asArray()[k]);
            if (!cls) continue;
            r.checkKeys(ck, *cls, {"condition", "isFailure"}, "Linkerd's ResponseClass");
            bool failure = false;
            if (const Value* f = cls->find("isFailure")) failure = r.boolean(join(ck, "isFailure"), *f).value_or(false);
            const Value* cond = cls->find("condition");
            if (!cond) {
                r.errorAt(join(ck, "condition"), ck, "missing",
                          join(ck, "condition") + " is required in a response class");
                continue;
            }
            std::set<int> m;
            if (readCondition(r, join(ck, "condition"), *cond, m)) classes.emplace_back(m, failure);
        }
        if (r.failed()) return false;
    }
    std::set<int> failures;
    for (int s = 100; s <= 599; ++s) {
        bool decided = false, failure = s >= 500;
        for (const auto& [m, f] : classes)
            if (m.count(s)) {
                failure = f;
                decided = true;
                break;
            }
        (void)decided;
        if (failure) failures.insert(s);
    }
    bool success2xx = false;
    for (int s = 200; s <= 299; ++s) success2xx = success2xx || failures.count(s);
    Entry& f =
        rc ? r.entry(join(path, "responseClasses"), "read") : r.entry(join(path, "responseClasses"), "defaulted");
    f.source = rc ? *rc : Value::string("a 5xx is a failure");
    f.hasSource = true;
    f.rule =
        "the failure statuses F (first matching class, else 500–599) → retryOn 5xx when F is 500–599, else "
        "retryOnStatuses F";
    f.cite = std::string(kProxy) + "linkerd/app/core/src/classify.rs lines 100-153";
    bool exactly5xx = failures.size() == 100 && *failures.begin() == 500;
    Value classesValue = Value::array();
    Value statuses = Value::array();
    if (exactly5xx)
        classesValue.push(Value::string("5xx"));
    else
        for (int s : failures)
            if (s < 200 || s > 299) statuses.push(Value::number(s));
    if (success2xx) {
        f.note = "a 2xx classed as a failure is not modelled (the engine never retries a success)";
        r.warn(join(path, "responseClasses"), "a 2xx is classed as a failure: the engine never retries a success");
    }
    r.input(f, "retryOn", std::move(classesValue));
    r.input(f, "retryOnStatuses", std::move(statuses));
    return true;
}

}  // namespace

void readLinkerd(Reading& r, const Options& o) {
    const Value& doc = r.doc.value;
    for (const Value::Member& m : doc.asObject())
        if (m.key != "apiVersion" && m.key != "kind" && m.key != "spec") r.ignore(m.key, "not a retry section");
    const Value* spec = doc.find("spec");
    if (!spec) {
        r.error("spec", "missing", "spec is required in a ServiceProfile");
        return;
    }
    if (!r.object("spec", *spec)) return;
    for (const Value::Member& m : spec->asObject())
        if (m.key != "routes" && m.key != "retryBudget") r.ignore(join("spec", m.key), "not a retry section");
    Budget budget = readBudget(r, *spec);
    if (r.failed()) return;
    const Value* routesValue = spec->find("routes");
    const Value::Array empty;
    const Value::Array* routes = &empty;
    if (routesValue) {
        if (!r.list("spec.routes", *routesValue)) return;
        routes = &routesValue->asArray();
    }
    for (std::size_t i = 0; i < routes->size(); ++i)
        if (!r.object(indexed("spec.routes", i), (*routes)[i])) return;
    int chosen = selectRoute(r, o, *routes);
    if (chosen == kNoMatch) return;

    // The budget gate (fleet) and what it allows a lone request (single run).
    Value gate = Value::object();
    gate.set("scope", Value::string("client"));
    gate.set("percent", Value::number(std::min(budget.ratio * 100, 100.0)));
    gate.set("minPerSecond", Value::number(budget.minPerSecond));
    gate.set("ttlMs", Value::number(std::min(std::max(budget.ttlMs, 1.0), kMaxMs)));
    r.fleetGates["budget"] = gate;

    bool isRetryable = false;
    if (chosen < 0) {
        Entry& e = r.entry("spec.routes", "defaulted");
        e.source = Value::string("none");
        e.hasSource = true;
        e.rule = "no route: Linkerd retries only a request that matches a retryable route";
        r.input(e, "maxRetries", Value::number(0));
        r.input(e, "retryOn", Value::array());
        r.input(e, "retryOnStatuses", Value::array());
        r.input(e, "deadlineMs", Value::null());
    } else {
        const std::string path = indexed("spec.routes", static_cast<std::size_t>(chosen));
        const Value& route = (*routes)[static_cast<std::size_t>(chosen)];
        r.checkKeys(path, route, {"name", "condition", "responseClasses", "isRetryable", "timeout"},
                    "Linkerd's RouteSpec");
        if (route.find("condition")) r.ignore(join(path, "condition"), "the run is one request of this route");
        if (r.failed()) return;
        // isRetryable and the budget.
        const Value* flag = route.find("isRetryable");
        if (flag) {
            auto b = r.boolean(join(path, "isRetryable"), *flag);
            if (!b) return;
            isRetryable = *b;
        }
        double x = 100 * budget.ratio + budget.minPerSecond * budget.ttlMs / 10;
        double retries = !isRetryable || !budget.usable ? 0 : std::ceil(x / 100);
        Entry& e = flag ? r.entry(join(path, "isRetryable"), "read") : r.entry(join(path, "isRetryable"), "defaulted");
        e.source = flag ? *flag : Value::boolean(false);
        e.hasSource = true;
        e.rule =
            "isRetryable → maxRetries = min(100, ⌈X / 100⌉), X = 100 × retryRatio + minRetriesPerSecond × ttl ms / 10 "
            "(what the budget "
            "allows a lone request); false: 0";
        e.cite = std::string(kTypes) + " line 42; " + kProxy + "linkerd/app/outbound/src/http/retry.rs lines 113-124";
        if (retries > 100) {
            e.status = "clamped";
            e.note = "the budget allows a lone request " + grouped(retries) + " retries; the engine allows at most 100";
        }
        r.input(e, "maxRetries", Value::number(std::min(retries, 100.0)));
        if (!readRouteTimeout(r, path, route)) return;
        if (!readResponseClasses(r, path, route)) return;
    }
    Entry& timing = r.entry("", "set", "preset");
    timing.rule = "the proxy retries at once: baseBackoffMs 0, jitter none (no backoff field; retry.rs line 124)";
    timing.cite = std::string(kProxy) + "linkerd/app/outbound/src/http/retry.rs line 124";
    r.input(timing, "baseBackoffMs", Value::number(0));
    r.input(timing, "jitter", Value::string("none"));
    Entry& t = r.entry("", "set", "preset");
    t.rule = "no per-try timeout: clientTimeoutMs 86,400,000 (docs/clients.md §0)";
    r.input(t, "clientTimeoutMs", Value::number(kMaxMs));
    Entry& fixed = r.entry("", "set", "preset");
    fixed.rule =
        "every Linkerd reading: honourRetryAfter false, retryWritesWithoutKey true (isRetryable is the owner's "
        "promise), "
        "attemptStart before-deadline, idempotencyKey false";
    r.input(fixed, "honourRetryAfter", Value::boolean(false));
    r.input(fixed, "retryWritesWithoutKey", Value::boolean(true));
    r.input(fixed, "attemptStart", Value::string("before-deadline"));
    if (!r.inputs.count("idempotencyKey")) r.input(fixed, "idempotencyKey", Value::boolean(false));
    for (const char* what : {"a request body over 64 KiB is never retried (retry.rs lines 40-41, 96-107)",
                             "a grpc-status in the answer decides for a gRPC answer (classify.rs lines 139-146)"}) {
        Entry& n = r.entry("", "not-modelled");
        n.rule = what;
        n.note = std::string(what) + ": not modelled";
    }
    // The fleet: every client may retry up to 100 times; the budget gate decides.
    if (isRetryable && budget.usable) {
        Entry* producer = r.producer["maxRetries"];
        producer->note = producer->note.empty()
                             ? "fleet.policy.maxRetries 100: the budget gate decides"
                             : producer->note + "; fleet.policy.maxRetries 100: the budget gate decides";
    }
    if (isRetryable && budget.usable) r.fleetMaxRetries = 100;
}

}  // namespace retrylab::config::detail
