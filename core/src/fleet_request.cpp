// FLEET.md §3: the fleet request's fields as tables (name, kind, bounds, default, unit,
// description, group), one generic reader that checks a raw object against a table and fills
// its defaults, the cross-field rules and the work bounds, and the typed request. Every error
// names its field with a dotted path ("server.workers", "gates.quota.retryCost").
#include <cmath>
#include <cstring>
#include <string>

#include "format.hpp"
#include "retrylab/fleet.hpp"

namespace retrylab {

namespace {

constexpr double kMaxMs = 86400000;
constexpr double kMaxSafeInteger = 9007199254740991.0;  // 2^53 - 1
constexpr double kBillion = 1000000000;

enum class Kind { Number, Integer, Boolean, Choice, Classes };

// One field of a table. A nullable field's default may be null (`defaultNull`).
struct Field {
    const char* name;
    Kind kind;
    double lo, hi;
    bool nullable;
    double defaultNumber;
    bool defaultNull;
    const char* defaultChoice;     // Choice: the default's name; Boolean: "true"/"false"
    const char* const* choices;    // Choice: the names, null-terminated
    const char* unit;
    const char* description;
};

const char* const kWorkloads[] = {"service", "occ", nullptr};
const char* const kArrivals[] = {"poisson", "uniform", "serial", "once", nullptr};
const char* const kQueueOrders[] = {"fifo", "lifo", nullptr};
const char* const kDropStale[] = {"never", "expired", "unfinishable", nullptr};
const char* const kJitters[] = {"none", "full", "equal", "decorrelated", nullptr};
const char* const kOperations[] = {"charge", "read", nullptr};
const char* const kScopes[] = {"client", "fleet", nullptr};
const char* const kDists[] = {"fixed", "uniform", "exponential", "normal", nullptr};
const char* const kTriggerKinds[] = {"slowdown", "outage", nullptr};
const char* const kClasses[] = {"timeout", "5xx", nullptr};

constexpr Field num(const char* name, double lo, double hi, double def, const char* unit, const char* what) {
    return Field{name, Kind::Number, lo, hi, false, def, false, nullptr, nullptr, unit, what};
}
constexpr Field numOrNull(const char* name, double lo, double hi, const char* unit, const char* what) {
    return Field{name, Kind::Number, lo, hi, true, 0, true, nullptr, nullptr, unit, what};
}
constexpr Field whole(const char* name, double lo, double hi, double def, const char* unit, const char* what) {
    return Field{name, Kind::Integer, lo, hi, false, def, false, nullptr, nullptr, unit, what};
}
constexpr Field wholeOrNull(const char* name, double lo, double hi, double def, bool defNull, const char* unit,
                            const char* what) {
    return Field{name, Kind::Integer, lo, hi, true, def, defNull, nullptr, nullptr, unit, what};
}
constexpr Field choice(const char* name, const char* const* names, const char* def, const char* what) {
    return Field{name, Kind::Choice, 0, 0, false, 0, false, def, names, nullptr, what};
}
constexpr Field flag(const char* name, bool def, const char* what) {
    return Field{name, Kind::Boolean, 0, 0, false, 0, false, def ? "true" : "false", nullptr, nullptr, what};
}

// ---- The tables (§3, §5) ------------------------------------------------------------------------

const Field kTop[] = {
    choice("workload", kWorkloads, "service", "service: arrivals at one server; occ: clients contending for one row"),
    whole("seed", 0, kMaxSafeInteger, 1, nullptr, "the seed of every addressed stream"),
    whole("clients", 1, 10000, 100, "clients", "callers sharing the server (occ: 1–1,000)"),
    choice("arrivals", kArrivals, "poisson", "how each client creates its requests"),
    num("ratePerClient", 0.001, 1000, 1, "requests/s", "requests per second per client"),
    num("durationMs", 1, 600000, 60000, "ms", "requests are created in [0, durationMs)"),
};
const Field kTopTail[] = {
    choice("operation", kOperations, "charge", "charge: a 200 commits a charge; read: no side effect"),
    flag("idempotencyKey", false, "a request's commits after its first are replays, not charges"),
    whole("binMs", 1, 600000, 1000, "ms", "the timeline's bin width"),
    whole("runs", 1, 1000, 100, "runs", "occ only: independent runs"),
};
const Field kSpike[] = {
    num("startMs", 0, kMaxMs, 0, "ms", "the spike's start"),
    num("endMs", 0, kMaxMs, 0, "ms", "the spike's end (exclusive)"),
    num("factor", 0.01, 100, 1, "×", "the rate's factor for gaps drawn in the spike"),
};
const Field kFixed[] = {num("ms", 0, 60000, 5, "ms", "every leg's delay")};
const Field kUniform[] = {num("lo", 0, 60000, 0, "ms", "the shortest leg"), num("hi", 0, 60000, 0, "ms", "the longest leg")};
const Field kExponential[] = {num("mean", 0, 60000, 0, "ms", "the mean leg")};
const Field kNormal[] = {num("mean", 0, 60000, 0, "ms", "the mean leg"), num("sd", 0, 60000, 0, "ms", "the spread")};
const Field kServer[] = {
    wholeOrNull("workers", 1, 100000, 10, false, "attempts", "attempts in service at once; null: no limit"),
    wholeOrNull("queueLimit", 0, 10000000, 0, true, "attempts", "most attempts waiting; null: no limit"),
    choice("queueOrder", kQueueOrders, "fifo", "which waiting attempt is served next"),
    num("serviceMs", 0, 600000, 50, "ms", "time to serve one attempt"),
    num("serviceMsPerInFlight", 0, 60000, 0, "ms", "added per attempt in service when service starts"),
    num("failureRate", 0, 1, 0, nullptr, "a served attempt fails (500) with this probability"),
    choice("dropStale", kDropStale, "never", "which stale attempts a worker drops unserved"),
    numOrNull("rejectRetryAfterMs", 0, kMaxMs, "ms", "the Retry-After of a 503 from an outage or a full queue"),
};
const Field kSlowdown[] = {
    num("startMs", 0, kMaxMs, 10000, "ms", "the trigger's start"),
    num("endMs", 0, kMaxMs, 20000, "ms", "the trigger's end (exclusive)"),
    num("factor", 1, 1000, 4, "×", "service starting in the slowdown takes this many times as long"),
};
const Field kOutage[] = {
    num("startMs", 0, kMaxMs, 10000, "ms", "the trigger's start"),
    num("endMs", 0, kMaxMs, 20000, "ms", "the trigger's end (exclusive)"),
};
const Field kPolicy[] = {
    wholeOrNull("maxRetries", 0, 100, 3, false, "retries", "retries after the first attempt (occ: null, no limit)"),
    num("baseBackoffMs", 0, kMaxMs, 100, "ms", "the backoff's base"),
    num("backoffMultiplier", 1, 10, 2, "×", "the backoff's growth per failure"),
    numOrNull("maxBackoffMs", 0, kMaxMs, "ms", "the cap on the backoff; null: none"),
    choice("jitter", kJitters, "none", "how a draw spreads the backoff"),
    num("clientTimeoutMs", 1, kMaxMs, 1000, "ms", "the waiting limit of each attempt"),
    numOrNull("deadlineMs", 0, kMaxMs, "ms", "per request, from its creation; null: none"),
    Field{"retryOn", Kind::Classes, 0, 0, false, 0, false, nullptr, kClasses, nullptr, "the failure classes retried"},
    flag("honourRetryAfter", true, "a 503's Retry-After replaces the backoff wait"),
};
#define RL_SCOPE choice("scope", kScopes, "client", "one gate per client, or one shared by the fleet")
const Field kQuota[] = {
    RL_SCOPE,
    num("capacity", 0, kBillion, 500, "tokens", "the quota when full (its start)"),
    num("retryCost", 0, kBillion, 5, "tokens", "a retry after a 5xx costs this"),
    num("timeoutCost", 0, kBillion, 10, "tokens", "a retry after a timeout costs this"),
    num("successIncrement", 0, kBillion, 1, "tokens", "a success that paid nothing adds this"),
};
const Field kBucket[] = {
    RL_SCOPE,
    num("capacity", 0, kBillion, 5, "tokens", "the bucket when full (its start)"),
    num("deposit", 0, kBillion, 0.1, "tokens", "each first attempt sent adds this"),
    num("cost", 0, kBillion, 1, "tokens", "a retry needs more than this, and takes it"),
};
const Field kThrottle[] = {
    RL_SCOPE,
    num("maxTokens", 1, 1000, 10, "tokens", "the start and the most tokens"),
    num("tokenRatio", 0.001, 1, 0.1, "tokens", "each success adds this"),
};
const Field kBudget[] = {
    RL_SCOPE,
    num("percent", 0, 100, 20, "%", "retries allowed per hundred first attempts"),
    num("minPerSecond", 0, kBillion, 10, "retries/s", "retries allowed besides the percentage"),
    num("ttlMs", 1, kMaxMs, 10000, "ms", "the window the budget counts over"),
};
const Field kBreaker[] = {
    RL_SCOPE,
    whole("window", 1, 10000000, 100, "outcomes", "the last outcomes the closed breaker counts"),
    whole("minCalls", 1, 10000000, 100, "outcomes", "outcomes needed before it may open"),
    num("failurePercent", 0, 100, 50, "%", "it opens at this share of failures"),
    num("openMs", 0, kMaxMs, 60000, "ms", "how long it stays open"),
    whole("halfOpenCalls", 1, 10000000, 10, "attempts", "trial attempts when half-open"),
};
#undef RL_SCOPE

struct Table {
    const Field* fields;
    std::size_t size;
};
template <std::size_t N>
constexpr Table table(const Field (&f)[N]) { return Table{f, N}; }

struct Gate {
    const char* name;
    Table fields;
};
const Gate kGates[] = {{"quota", table(kQuota)},
                       {"bucket", table(kBucket)},
                       {"throttle", table(kThrottle)},
                       {"budget", table(kBudget)},
                       {"breaker", table(kBreaker)}};

// ---- Reading a table ---------------------------------------------------------------------------

std::string describe(const Value& v) {
    switch (v.kind()) {
        case Value::Kind::Number: return std::isfinite(v.asNumber()) ? formatMs(v.asNumber(), 6)
                                       : std::isnan(v.asNumber()) ? "NaN" : "an infinite number";
        case Value::Kind::String: {
            std::string s = v.asString();
            if (s.size() > 40) {
                std::size_t cut = 40;
                while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
                s = s.substr(0, cut) + "…";
            }
            return "the string \"" + s + "\"";
        }
        case Value::Kind::Bool: return v.asBool() ? "true" : "false";
        case Value::Kind::Unsupported: return v.asString();
        default: return describeKind(v.kind());
    }
}

std::string nameList(const char* const* names) {
    std::string out;
    for (const char* const* p = names; *p; ++p) {
        if (!out.empty()) out += p[1] ? ", " : " or ";
        out += "\"" + std::string(*p) + "\"";
    }
    return out;
}

std::string join(const std::string& path, const char* name) { return path.empty() ? name : path + "." + name; }

Value defaultOf(const Field& f) {
    if (f.defaultNull) return Value::null();
    switch (f.kind) {
        case Kind::Number:
        case Kind::Integer: return Value::number(f.defaultNumber);
        case Kind::Boolean: return Value::boolean(std::strcmp(f.defaultChoice, "true") == 0);
        case Kind::Choice: return Value::string(f.defaultChoice);
        case Kind::Classes: return Value::array({Value::string("timeout"), Value::string("5xx")});
    }
    return Value::null();
}

class Reader {
public:
    explicit Reader(std::vector<InputError>& errors) : errors_(errors) {}
    void fail(const std::string& field, const std::string& message) { errors_.push_back({field, message}); }

    // One field's value: checked, and returned as the echo holds it (null when bad).
    Value field(const Field& f, const std::string& path, const Value& v) {
        if (v.isNull() && f.nullable) return v;
        switch (f.kind) {
            case Kind::Number:
            case Kind::Integer: {
                const bool isWhole = f.kind == Kind::Integer;
                const std::string range = std::string(" from ") + formatMs(f.lo, 6) + " to " + formatMs(f.hi, 6);
                const std::string what = std::string(f.nullable ? "null or " : "") +
                                         (isWhole ? "a whole number" : "a number") + range;
                const bool number = v.kind() == Value::Kind::Number && std::isfinite(v.asNumber());
                if (!number || v.asNumber() < f.lo || v.asNumber() > f.hi ||
                    (isWhole && std::floor(v.asNumber()) != v.asNumber())) {
                    fail(path, path + " must be " + what + "; got " + describe(v) + ".");
                    return Value::null();
                }
                return Value::number(v.asNumber());
            }
            case Kind::Boolean:
                if (v.kind() != Value::Kind::Bool) {
                    fail(path, path + " must be true or false; got " + describe(v) + ".");
                    return Value::null();
                }
                return v;
            case Kind::Choice:
                if (v.kind() == Value::Kind::String)
                    for (const char* const* p = f.choices; *p; ++p)
                        if (v.asString() == *p) return v;
                fail(path, path + " must be one of " + nameList(f.choices) + "; got " + describe(v) + ".");
                return Value::null();
            case Kind::Classes: {
                if (v.kind() != Value::Kind::Array) {
                    fail(path, path + " must be a list of distinct classes (" + nameList(f.choices) + "); got " +
                                   describe(v) + ".");
                    return Value::null();
                }
                const Value::Array& items = v.asArray();
                bool ok = true;
                for (std::size_t i = 0; i < items.size() && ok; ++i) {
                    const std::string at = path + "[" + std::to_string(i) + "]";
                    bool known = false;
                    if (items[i].kind() == Value::Kind::String)
                        for (const char* const* p = f.choices; *p; ++p) known = known || items[i].asString() == *p;
                    if (!known) {
                        fail(at, at + " must be one of " + nameList(f.choices) + "; got " + describe(items[i]) + ".");
                        ok = false;
                        break;
                    }
                    for (std::size_t j = 0; j < i; ++j)
                        if (items[j].asString() == items[i].asString()) {
                            fail(at, at + " repeats \"" + items[i].asString() + "\"; each class may be listed once.");
                            ok = false;
                            break;
                        }
                }
                return ok ? v : Value::null();
            }
        }
        return Value::null();
    }

    // An object against its table: every known field checked, unknown ones named, missing ones
    // taken from `defaults` (an object with the same fields) or, when `required`, an error.
    // `extra` names members that are read elsewhere (a variant's discriminator).
    Value object(const Value& raw, const std::string& path, Table t, const Value* defaults, bool required,
                 const char* extra = nullptr) {
        for (const Value::Member& m : raw.asObject()) {
            bool known = extra && m.key == extra;
            for (std::size_t i = 0; i < t.size && !known; ++i) known = m.key == t.fields[i].name;
            if (!known) fail(join(path, m.key.c_str()), join(path, m.key.c_str()) + " is not a field of " +
                                                              (path.empty() ? "the request" : path) + ".");
        }
        Value out = Value::object();
        for (std::size_t i = 0; i < t.size; ++i) {
            const Field& f = t.fields[i];
            const std::string at = join(path, f.name);
            if (const Value* given = raw.find(f.name)) {
                out.set(f.name, field(f, at, *given));
            } else if (defaults) {
                const Value* d = defaults->find(f.name);
                out.set(f.name, d ? *d : defaultOf(f));
            } else if (required) {
                fail(at, at + " is required.");
                out.set(f.name, Value::null());
            } else {
                out.set(f.name, defaultOf(f));
            }
        }
        return out;
    }

    bool isObject(const Value& v, const std::string& path, bool nullable) {
        if (v.kind() == Value::Kind::Object) return true;
        if (v.isNull() && nullable) return false;
        fail(path, path + " must be " + (nullable ? "null or " : "") + "an object; got " + describe(v) + ".");
        return false;
    }

private:
    std::vector<InputError>& errors_;
};

Value tableDefaults(Table t) {
    Value out = Value::object();
    for (std::size_t i = 0; i < t.size; ++i) out.set(t.fields[i].name, defaultOf(t.fields[i]));
    return out;
}

// The defaults of a variant object: its discriminator first, then its own table.
Value variantDefaults(const char* discriminator, const char* name, Table t, const Value* values = nullptr) {
    Value out = Value::object();
    out.set(discriminator, Value::string(name));
    for (std::size_t i = 0; i < t.size; ++i) {
        const Value* v = values ? values->find(t.fields[i].name) : nullptr;
        out.set(t.fields[i].name, v ? *v : defaultOf(t.fields[i]));
    }
    return out;
}

struct Variant {
    const char* name;
    Table fields;
};
const Variant kNetworks[] = {{"fixed", table(kFixed)},
                             {"uniform", table(kUniform)},
                             {"exponential", table(kExponential)},
                             {"normal", table(kNormal)}};
const Variant kTriggers[] = {{"slowdown", table(kSlowdown)}, {"outage", table(kOutage)}};

// A variant object (network by `dist`, trigger by `kind`): its fields are filled from
// `defaults` only when the discriminator is the default's or absent; another needs its own.
template <std::size_t N>
Value readVariant(Reader& reader, const Value& raw, const std::string& path, const char* discriminator,
                  const Variant (&variants)[N], const Value& defaults) {
    const std::string defaultName = defaults.find(discriminator)->asString();
    std::string name = defaultName;
    if (const Value* d = raw.find(discriminator)) {
        bool known = false;
        for (const Variant& v : variants) known = known || (d->kind() == Value::Kind::String && d->asString() == v.name);
        if (!known) {
            const char* names[N + 1];
            for (std::size_t i = 0; i < N; ++i) names[i] = variants[i].name;
            names[N] = nullptr;
            const std::string at = join(path, discriminator);
            reader.fail(at, at + " must be one of " + nameList(names) + "; got " + describe(*d) + ".");
            return Value::null();
        }
        name = d->asString();
    }
    for (const Variant& v : variants) {
        if (name != v.name) continue;
        const bool fromDefaults = name == defaultName;
        Value body = reader.object(raw, path, v.fields, fromDefaults ? &defaults : nullptr, !fromDefaults, discriminator);
        Value out = Value::object();
        out.set(discriminator, Value::string(name));
        for (Value::Member& m : const_cast<Value::Object&>(body.asObject())) out.set(m.key, std::move(m.value));
        return out;
    }
    return Value::null();
}

double numberAt(const Value& object, const char* name) {
    const Value* v = object.find(name);
    return v && v->kind() == Value::Kind::Number ? v->asNumber() : 0;
}
bool isNumberAt(const Value& object, const char* name) {
    const Value* v = object.find(name);
    return v && v->kind() == Value::Kind::Number;
}

template <class E>
E choiceAt(const Value& object, const char* name, const char* const* names) {
    const std::string& s = object.find(name)->asString();
    for (int i = 0; names[i]; ++i)
        if (s == names[i]) return static_cast<E>(i);
    return static_cast<E>(0);
}

std::optional<double> optionalAt(const Value& object, const char* name) {
    const Value* v = object.find(name);
    if (!v || v->isNull()) return std::nullopt;
    return v->asNumber();
}

GateScope scopeAt(const Value& gate) { return choiceAt<GateScope>(gate, "scope", kScopes); }

// The normalized request (every field valid) as the typed request.
FleetRequest typed(const Value& v) {
    FleetRequest r;
    r.workload = choiceAt<FleetWorkload>(v, "workload", kWorkloads);
    r.seed = static_cast<std::uint64_t>(numberAt(v, "seed"));
    r.clients = static_cast<std::uint32_t>(numberAt(v, "clients"));
    r.arrivals = choiceAt<Arrivals>(v, "arrivals", kArrivals);
    r.ratePerClient = numberAt(v, "ratePerClient");
    r.durationMs = numberAt(v, "durationMs");
    if (const Value* s = v.find("spike"); s && !s->isNull())
        r.spike = Spike{numberAt(*s, "startMs"), numberAt(*s, "endMs"), numberAt(*s, "factor")};
    const Value& n = *v.find("network");
    r.network.dist = choiceAt<NetworkDist>(n, "dist", kDists);
    r.network.ms = numberAt(n, "ms");
    r.network.lo = numberAt(n, "lo");
    r.network.hi = numberAt(n, "hi");
    r.network.mean = numberAt(n, "mean");
    r.network.sd = numberAt(n, "sd");
    const Value& s = *v.find("server");
    if (auto w = optionalAt(s, "workers")) r.server.workers = static_cast<std::uint32_t>(*w); else r.server.workers.reset();
    if (auto q = optionalAt(s, "queueLimit")) r.server.queueLimit = static_cast<std::uint32_t>(*q);
    r.server.queueOrder = choiceAt<QueueOrder>(s, "queueOrder", kQueueOrders);
    r.server.serviceMs = numberAt(s, "serviceMs");
    r.server.serviceMsPerInFlight = numberAt(s, "serviceMsPerInFlight");
    r.server.failureRate = numberAt(s, "failureRate");
    r.server.dropStale = choiceAt<DropStale>(s, "dropStale", kDropStale);
    r.server.rejectRetryAfterMs = optionalAt(s, "rejectRetryAfterMs");
    const Value& t = *v.find("trigger");
    if (t.isNull()) {
        r.trigger.reset();
    } else {
        Trigger trigger;
        trigger.kind = choiceAt<TriggerKind>(t, "kind", kTriggerKinds);
        trigger.startMs = numberAt(t, "startMs");
        trigger.endMs = numberAt(t, "endMs");
        trigger.factor = trigger.kind == TriggerKind::Slowdown ? numberAt(t, "factor") : 1;
        r.trigger = trigger;
    }
    const Value& p = *v.find("policy");
    if (auto m = optionalAt(p, "maxRetries")) r.policy.maxRetries = static_cast<int>(*m); else r.policy.maxRetries.reset();
    r.policy.baseBackoffMs = numberAt(p, "baseBackoffMs");
    r.policy.backoffMultiplier = numberAt(p, "backoffMultiplier");
    r.policy.maxBackoffMs = optionalAt(p, "maxBackoffMs");
    r.policy.jitter = choiceAt<Jitter>(p, "jitter", kJitters);
    r.policy.clientTimeoutMs = numberAt(p, "clientTimeoutMs");
    r.policy.deadlineMs = optionalAt(p, "deadlineMs");
    r.policy.retryOn.clear();
    r.policy.retryTimeout = r.policy.retry5xx = false;
    for (const Value& c : p.find("retryOn")->asArray()) {
        r.policy.retryOn.push_back(c.asString());
        if (c.asString() == "timeout") r.policy.retryTimeout = true;
        if (c.asString() == "5xx") r.policy.retry5xx = true;
    }
    r.policy.honourRetryAfter = p.find("honourRetryAfter")->asBool();
    const Value& g = *v.find("gates");
    if (const Value& q = *g.find("quota"); !q.isNull())
        r.gates.quota = QuotaGate{scopeAt(q), numberAt(q, "capacity"), numberAt(q, "retryCost"),
                                  numberAt(q, "timeoutCost"), numberAt(q, "successIncrement")};
    if (const Value& b = *g.find("bucket"); !b.isNull())
        r.gates.bucket = BucketGate{scopeAt(b), numberAt(b, "capacity"), numberAt(b, "deposit"), numberAt(b, "cost")};
    if (const Value& th = *g.find("throttle"); !th.isNull())
        r.gates.throttle = ThrottleGate{scopeAt(th), numberAt(th, "maxTokens"), numberAt(th, "tokenRatio")};
    if (const Value& b = *g.find("budget"); !b.isNull())
        r.gates.budget = BudgetGate{scopeAt(b), numberAt(b, "percent"), numberAt(b, "minPerSecond"), numberAt(b, "ttlMs")};
    if (const Value& b = *g.find("breaker"); !b.isNull())
        r.gates.breaker = BreakerGate{scopeAt(b),
                                      static_cast<std::uint32_t>(numberAt(b, "window")),
                                      static_cast<std::uint32_t>(numberAt(b, "minCalls")),
                                      numberAt(b, "failurePercent"),
                                      numberAt(b, "openMs"),
                                      static_cast<std::uint32_t>(numberAt(b, "halfOpenCalls"))};
    r.operation = choiceAt<Operation>(v, "operation", kOperations) == static_cast<Operation>(1) ? Operation::Read
                                                                                                 : Operation::Charge;
    r.idempotencyKey = v.find("idempotencyKey")->asBool();
    r.binMs = static_cast<std::uint32_t>(numberAt(v, "binMs"));
    r.runs = static_cast<std::uint32_t>(numberAt(v, "runs"));
    return r;
}

Value serviceNetworkDefaults() { return variantDefaults("dist", "fixed", table(kFixed)); }
Value occNetworkDefaults() {
    Value values = Value::object();
    values.set("mean", Value::number(10));
    values.set("sd", Value::number(2));
    return variantDefaults("dist", "normal", table(kNormal), &values);
}
Value policyDefaults(bool occ) {
    Value out = Value::object();
    for (const Field& f : kPolicy) {
        Value d = defaultOf(f);
        if (occ) {
            const std::string name = f.name;
            if (name == "maxRetries") d = Value::null();
            if (name == "baseBackoffMs") d = Value::number(10);
            if (name == "maxBackoffMs") d = Value::number(2000);
            if (name == "jitter") d = Value::string("full");
        }
        out.set(f.name, std::move(d));
    }
    return out;
}

void crossChecks(Reader& reader, const Value& v, bool occ) {
    // A bad field leaves null in the normalized request: rules that read it are skipped.
    const Value& n = *v.find("network");
    if (n.kind() == Value::Kind::Object && isNumberAt(n, "lo") && isNumberAt(n, "hi") && numberAt(n, "lo") > numberAt(n, "hi"))
        reader.fail("network.hi", "network.hi must be at least network.lo (" + formatMs(numberAt(n, "lo"), 6) +
                                      "); got " + formatMs(numberAt(n, "hi"), 6) + ".");
    for (const char* name : {"spike", "trigger"}) {
        const Value& o = *v.find(name);
        if (o.kind() == Value::Kind::Object && isNumberAt(o, "startMs") && isNumberAt(o, "endMs") &&
            numberAt(o, "startMs") > numberAt(o, "endMs"))
            reader.fail(std::string(name) + ".endMs", std::string(name) + ".endMs must be at least " + name +
                                                          ".startMs (" + formatMs(numberAt(o, "startMs"), 6) +
                                                          "); got " + formatMs(numberAt(o, "endMs"), 6) + ".");
    }
    const Value& p = *v.find("policy");
    const Value* maxRetries = p.kind() == Value::Kind::Object ? p.find("maxRetries") : nullptr;
    if (maxRetries && maxRetries->isNull()) {
        if (!occ) {
            reader.fail("policy.maxRetries", "policy.maxRetries must be a whole number from 0 to 100 (null, no limit, "
                                             "is for the occ workload only); got null.");
        } else if (const Value* cap = p.find("maxBackoffMs"); cap && cap->isNull()) {
            reader.fail("policy.maxBackoffMs", "policy.maxBackoffMs must be a number from 0 to 86400000 when "
                                               "policy.maxRetries is null (no limit); got null.");
        }
    }
    const bool clientsOk = isNumberAt(v, "clients");
    if (occ && clientsOk && numberAt(v, "clients") > 1000)
        reader.fail("clients", "clients must be a whole number from 1 to 1000 for the occ workload; got " +
                                   formatMs(numberAt(v, "clients"), 6) + ".");
    if (isNumberAt(v, "durationMs") && isNumberAt(v, "binMs") && numberAt(v, "durationMs") > 10000 * numberAt(v, "binMs"))
        reader.fail("durationMs", "durationMs must be at most 10,000 × binMs (" +
                                      formatMs(10000 * numberAt(v, "binMs"), 6) + ": at most 10,000 bins); got " +
                                      formatMs(numberAt(v, "durationMs"), 6) + ".");
    if (occ) {
        if (clientsOk && isNumberAt(v, "runs") && numberAt(v, "clients") * numberAt(v, "runs") > 200000)
            reader.fail("clients", "clients × runs must be at most 200,000 for the occ workload; got " +
                                       formatMs(numberAt(v, "clients") * numberAt(v, "runs"), 6) + ".");
        return;
    }
    const Value* arrivals = v.find("arrivals");
    const bool open = arrivals->kind() == Value::Kind::String && arrivals->asString() != "once";
    if (open && clientsOk && isNumberAt(v, "ratePerClient") && isNumberAt(v, "durationMs") && maxRetries &&
        maxRetries->kind() == Value::Kind::Number) {
        double factor = 1;
        const Value& spike = *v.find("spike");
        if (spike.kind() == Value::Kind::Object) {
            if (!isNumberAt(spike, "factor")) return;
            factor = std::max(1.0, numberAt(spike, "factor"));
        }
        const double work = numberAt(v, "clients") * numberAt(v, "ratePerClient") * factor * numberAt(v, "durationMs") /
                            1000 * (maxRetries->asNumber() + 1);
        if (work > 20000000)
            reader.fail("durationMs", "the run would be too long: clients × ratePerClient × spike factor × "
                                      "durationMs / 1000 × (maxRetries + 1) must be at most 20,000,000 attempts; got " +
                                          formatMs(std::floor(work), 0) + ".");
    }
}

}  // namespace

FleetRequest occDefaults() {
    Value raw = Value::object();
    raw.set("workload", Value::string("occ"));
    return *parseFleetRequest(raw).request;
}

FleetParsed parseFleetRequest(const Value& raw) {
    FleetParsed parsed;
    Reader reader(parsed.errors);
    if (raw.kind() != Value::Kind::Object) {
        reader.fail("", "The request must be an object such as { \"clients\": 100 }; got " + describe(raw) + ".");
        return parsed;
    }
    // The workload first: it chooses the defaults of network and policy (§7).
    static const char* const kKnown[] = {"workload", "seed", "clients", "arrivals", "ratePerClient", "durationMs",
                                         "spike", "network", "server", "trigger", "policy", "gates", "operation",
                                         "idempotencyKey", "binMs", "runs"};
    for (const Value::Member& m : raw.asObject()) {
        bool known = false;
        for (const char* k : kKnown) known = known || m.key == k;
        if (!known) reader.fail(m.key, m.key + " is not a field of the request.");
    }
    Value top = Value::object();
    for (const Field& f : kTop) {
        const Value* given = raw.find(f.name);
        top.set(f.name, given ? reader.field(f, f.name, *given) : defaultOf(f));
    }
    const Value* workload = top.find("workload");
    const bool occ = workload->kind() == Value::Kind::String && workload->asString() == "occ";

    Value spike = Value::null();
    if (const Value* s = raw.find("spike"); s && reader.isObject(*s, "spike", true))
        spike = reader.object(*s, "spike", table(kSpike), nullptr, true);
    top.set("spike", std::move(spike));

    const Value networkDefaults = occ ? occNetworkDefaults() : serviceNetworkDefaults();
    Value network = networkDefaults;
    if (const Value* n = raw.find("network")) {
        network = Value::null();
        if (reader.isObject(*n, "network", false)) network = readVariant(reader, *n, "network", "dist", kNetworks, networkDefaults);
    }
    top.set("network", std::move(network));

    const Value serverDefaults = tableDefaults(table(kServer));
    Value server = serverDefaults;
    if (const Value* s = raw.find("server")) {
        server = Value::null();
        if (reader.isObject(*s, "server", false)) server = reader.object(*s, "server", table(kServer), &serverDefaults, false);
    }
    top.set("server", std::move(server));

    const Value triggerDefaults = variantDefaults("kind", "slowdown", table(kSlowdown));
    Value trigger = triggerDefaults;
    if (const Value* t = raw.find("trigger")) {
        trigger = Value::null();
        if (reader.isObject(*t, "trigger", true)) trigger = readVariant(reader, *t, "trigger", "kind", kTriggers, triggerDefaults);
    }
    top.set("trigger", std::move(trigger));

    const Value defaultsOfPolicy = policyDefaults(occ);
    Value policy = defaultsOfPolicy;
    if (const Value* p = raw.find("policy")) {
        policy = Value::null();
        if (reader.isObject(*p, "policy", false)) policy = reader.object(*p, "policy", table(kPolicy), &defaultsOfPolicy, false);
    }
    top.set("policy", std::move(policy));

    Value gates = Value::object();
    const Value* rawGates = raw.find("gates");
    const bool gatesOk = !rawGates || reader.isObject(*rawGates, "gates", false);
    if (rawGates && gatesOk) {
        for (const Value::Member& m : rawGates->asObject()) {
            bool known = false;
            for (const Gate& g : kGates) known = known || m.key == g.name;
            if (!known) reader.fail("gates." + m.key, "gates." + m.key + " is not a gate (quota, bucket, throttle, budget, breaker).");
        }
    }
    for (const Gate& g : kGates) {
        Value gate = Value::null();
        const Value* given = rawGates && gatesOk ? rawGates->find(g.name) : nullptr;
        const std::string path = std::string("gates.") + g.name;
        if (given && reader.isObject(*given, path, true)) gate = reader.object(*given, path, g.fields, nullptr, false);
        gates.set(g.name, std::move(gate));
    }
    top.set("gates", rawGates && !gatesOk ? Value::null() : std::move(gates));

    for (const Field& f : kTopTail) {
        const Value* given = raw.find(f.name);
        top.set(f.name, given ? reader.field(f, f.name, *given) : defaultOf(f));
    }
    // The rules across fields read valid fields only (a bad one is null in `top`).
    if (!parsed.errors.empty()) return parsed;
    crossChecks(reader, top, occ);
    if (!parsed.errors.empty()) return parsed;
    parsed.request = typed(top);
    return parsed;
}

}  // namespace retrylab
