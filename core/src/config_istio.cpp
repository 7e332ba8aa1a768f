// The Istio VirtualService reader (docs/config-in.md §6): an http[] route's retries and timeout,
// read as the Envoy route Istio 1.30.3's pilot generates from them, by §5's rules.
#include <algorithm>
#include <cstdlib>
#include <cstdint>

#include "config_read.hpp"

namespace retrylab::config::detail {

namespace {

constexpr std::uint64_t kLimit = std::uint64_t{1} << 63;

// Go's leadingInt: the digits at the front, false on overflow.
bool leadingInt(const std::string& s, std::size_t& i, std::uint64_t& x) {
    x = 0;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
        if (x > kLimit / 10) return false;
        x = x * 10 + static_cast<std::uint64_t>(s[i] - '0');
        if (x > kLimit) return false;
    }
    return true;
}

// Go's leadingFraction: digits kept while they fit, the scale 10 to their count.
void leadingFraction(const std::string& s, std::size_t& i, std::uint64_t& x, double& scale) {
    x = 0;
    scale = 1;
    bool overflow = false;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
        if (overflow) continue;
        if (x > (kLimit - 1) / 10) {
            overflow = true;
            continue;
        }
        std::uint64_t y = x * 10 + static_cast<std::uint64_t>(s[i] - '0');
        if (y > kLimit) {
            overflow = true;
            continue;
        }
        x = y;
        scale *= 10;
    }
}

std::uint64_t unitOf(const std::string& u) {
    if (u == "ns") return 1;
    if (u == "us" || u == "\xC2\xB5s" || u == "\xCE\xBCs") return 1000;
    if (u == "ms") return 1000000;
    if (u == "s") return 1000000000;
    if (u == "m") return 60ULL * 1000000000;
    if (u == "h") return 3600ULL * 1000000000;
    return 0;
}

}  // namespace

std::optional<std::int64_t> goDuration(Reading& r, const std::string& path, const Value& v,
                                       const std::string& example) {
    if (v.kind() != Value::Kind::String) {
        r.error(path, "wrong-type",
                path + " must be a Go duration such as \"" + example + "\" (a string); got " + shown(v));
        return std::nullopt;
    }
    const std::string& text = v.asString();
    auto bad = [&](const std::string& why) {
        r.error(path, "bad-duration",
                path + " must be a Go duration such as \"" + example + "\" (time.ParseDuration); got \"" + text +
                    "\": " + why);
        return std::nullopt;
    };
    auto range = [&]() {
        r.error(path, "out-of-range", path + " is more than Go's largest duration (2⁶³ − 1 ns); got \"" + text + "\"");
        return std::nullopt;
    };
    std::size_t i = 0;
    bool negative = false;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
    if (text.substr(i) == "0") return 0;
    if (i == text.size()) return bad("empty");
    std::uint64_t d = 0;
    while (i < text.size()) {
        if (!(text[i] == '.' || (text[i] >= '0' && text[i] <= '9'))) return bad("a number must come before each unit");
        std::size_t from = i;
        std::uint64_t value = 0, fraction = 0;
        double scale = 1;
        if (!leadingInt(text, i, value)) return range();
        bool pre = i != from, post = false;
        if (i < text.size() && text[i] == '.') {
            ++i;
            std::size_t at = i;
            leadingFraction(text, i, fraction, scale);
            post = i != at;
        }
        if (!pre && !post) return bad("a number needs a digit");
        std::size_t unitFrom = i;
        while (i < text.size() && text[i] != '.' && !(text[i] >= '0' && text[i] <= '9')) ++i;
        if (i == unitFrom) return bad("a unit is missing (ns, us, µs, ms, s, m, h)");
        std::uint64_t unit = unitOf(text.substr(unitFrom, i - unitFrom));
        if (unit == 0) return bad("unknown unit \"" + text.substr(unitFrom, i - unitFrom) + "\"");
        if (value > kLimit / unit) return range();
        value *= unit;
        if (fraction > 0) {
            value += static_cast<std::uint64_t>(static_cast<double>(fraction) * (static_cast<double>(unit) / scale));
            if (value > kLimit) return range();
        }
        d += value;
        if (d > kLimit) return range();
    }
    if (negative && d != 0) {
        r.error(path, "out-of-range", path + " must not be negative; got \"" + text + "\"");
        return std::nullopt;
    }
    if (d > kLimit - 1) return range();
    return static_cast<std::int64_t>(d);
}

namespace {

const char* const kRetryGo = "istio/istio 1.30.3 (56df41f6) pilot/pkg/networking/core/route/retry/retry.go";
const char* const kValidation = "istio/istio 1.30.3 (56df41f6) pkg/config/validation/validation.go";
const char* const kDefaultRetryOn = "connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes";

// Go's http.StatusText knows these (docs/config-in.md §6.3; 103 and 425 added).
bool goKnowsStatus(int s) {
    return (s >= 100 && s <= 103) || (s >= 200 && s <= 208) || s == 226 || (s >= 300 && s <= 305) || s == 307 ||
           s == 308 || (s >= 400 && s <= 418) || (s >= 421 && s <= 426) || s == 428 || s == 429 || s == 431 ||
           s == 451 || (s >= 500 && s <= 508) || s == 510 || s == 511;
}

// Istio's validation of a duration field: at least 1 ms, whole ms (agent/validation.go lines 139-148).
std::optional<double> istioMs(Reading& r, const std::string& path, const Value& v, const std::string& example) {
    auto ns = goDuration(r, path, v, example);
    if (!ns) return std::nullopt;
    if (*ns < 1000000 || *ns % 1000000 != 0) {
        r.error(
            path, "out-of-range",
            path + " must be at least 1ms and a whole number of ms (Istio's validation); got \"" + v.asString() + "\"");
        return std::nullopt;
    }
    return static_cast<double>(*ns / 1000000);
}

// retryOn's parts, split as Istio's validation does (not trimmed) and translated as pilot does.
bool readRetryOn(Reading& r, const std::string& at, const std::string& text, Conditions& c) {
    std::vector<std::string> parts;
    std::size_t from = 0;
    while (true) {
        std::size_t comma = text.find(',', from);
        parts.push_back(text.substr(from, comma == std::string::npos ? std::string::npos : comma - from));
        if (comma == std::string::npos) break;
        from = comma + 1;
    }
    const auto& known = envoyConditions();
    bool numbers = false, ok = true;
    for (const std::string& p : parts) {
        if (std::find(known.begin(), known.end(), p) != known.end()) {
            addCondition(c, p);
            continue;
        }
        bool digits = !p.empty() && p.size() <= 6 &&
                      std::all_of(p.begin(), p.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
        // strtol, not std::stoi: at most six digits, and no exception path (whose message the
        // WebAssembly config file would have to print, bindings/wasm/config_entry.hpp).
        int status = digits ? static_cast<int>(std::strtol(p.c_str(), nullptr, 10)) : 0;
        if (digits && goKnowsStatus(status)) {
            c.statuses.insert(status);
            numbers = true;
            continue;
        }
        std::string near = closest(p, known);
        r.error(at, "not-a-choice",
                at + " names \"" + p + "\", which is neither an Envoy retry condition nor an HTTP status Go knows" +
                    (near.empty() ? "" : " (did you mean " + near + "?)"));
        ok = false;
    }
    if (numbers) c.codesWanted = true;
    return ok;
}

// §6.2: no retries in the route: Istio's built-in default policy.
void istioDefault(Reading& r, const std::string& path, bool with503) {
    Entry& e = r.entry(path, "defaulted");
    e.source = Value::string(std::string("attempts 2, retryOn ") + kDefaultRetryOn);
    e.hasSource = true;
    e.rule = "no retries → Istio's default policy: num_retries 2, its conditions";
    e.cite = std::string(kRetryGo) + " lines 36-50, 96-103";
    r.input(e, "maxRetries", Value::number(2));
    Conditions c;
    std::string ignored;
    for (const char* p : {"connect-failure", "refused-stream", "unavailable", "cancelled", "retriable-status-codes"})
        addCondition(c, p);
    if (with503) {
        // --istio-default 1.25-503: EXCLUDE_UNSAFE_503_FROM_DEFAULT_RETRY=false before 1.27 (§6.2).
        c.statuses.insert(503);
        e.source =
            Value::string(std::string("attempts 2, retryOn ") + kDefaultRetryOn + ", retriable_status_codes [503]");
        e.cite += "; at 126806ab (1.25) retry.go lines 45-56 with the 503 flag false";
    }
    writeConditions(r, e, path, c);
    r.warn(path, "the mesh config's defaultHttpRetryPolicy, if set, replaces this default");
    if (!with503)
        r.warn(path,
               "Istio's default conditions are connection failures and gRPC statuses; none is an HTTP answer this run "
               "can send: "
               "the run retries nothing. Set retries.retryOn (e.g. 5xx or 503) to see retries here");
    Entry& hosts = r.entry(path, "not-modelled");
    hosts.source = Value::string("previous_hosts, host_selection_retry_max_attempts 5");
    hosts.hasSource = true;
    hosts.rule = "retry_host_predicate previous_hosts → none";
    hosts.cite = std::string(kRetryGo) + " lines 40-49";
    hosts.note = "the model has one server: host selection is not modelled";
    Entry& back = r.entry(join(path, "backoff"), "defaulted");
    back.source = Value::string("25ms, 10 × 25ms");
    back.hasSource = true;
    back.rule = "no backoff → Envoy's base 25 ms, max 10 × base";
    r.input(back, "baseBackoffMs", Value::number(25));
    r.input(back, "maxBackoffMs", Value::number(250));
    envoyBackOffRule(r);
    Entry& t = r.entry("", "set", "preset");
    t.rule = "no perTryTimeout: clientTimeoutMs 86,400,000 (docs/clients.md §0)";
    r.input(t, "clientTimeoutMs", Value::number(kMaxMs));
}

void readRetries(Reading& r, const std::string& path, const Value& retries) {
    r.checkKeys(
        path, retries,
        {"attempts", "perTryTimeout", "retryOn", "retryRemoteLocalities", "retryIgnorePreviousHosts", "backoff"},
        "Istio's HTTPRetry");
    if (r.failed()) return;
    double attempts = 0;
    const Value* a = retries.find("attempts");
    if (a) {
        auto n = r.whole(join(path, "attempts"), *a);
        if (!n) return;
        if (*n < 0 || *n > 2147483647) {
            r.error(join(path, "attempts"), "out-of-range",
                    join(path, "attempts") +
                        " must be a whole number 0–2,147,483,647 (validation.go lines 2649-2651); got " + grouped(*n));
            return;
        }
        attempts = *n;
    }
    if (attempts == 0)
        for (const char* k : {"perTryTimeout", "retryOn", "retryRemoteLocalities"})
            if (retries.find(k))
                r.error(join(path, k), "conflict",
                        join(path, k) + ": http retry policy configured when attempts are set to 0 (disabled) (" +
                            kValidation + " lines 2653-2655)");
    if (r.failed()) return;
    Entry& e = a ? sourced(r, join(path, "attempts"), *a, "read",
                           "attempts → num_retries → maxRetries = min(attempts, 100); 0: no retry policy",
                           std::string(kRetryGo) + " lines 105-114")
                 : r.entry(join(path, "attempts"), "defaulted");
    if (!a) {
        e.source = Value::number(0);
        e.hasSource = true;
        e.rule = "no attempts → 0: retries disabled";
        e.cite = std::string(kRetryGo) + " lines 105-108";
    }
    if (attempts > 100) {
        e.status = "clamped";
        e.note = "attempts " + grouped(attempts) + ": the engine allows at most 100 retries";
    }
    r.input(e, "maxRetries", Value::number(std::min(attempts, 100.0)));
    if (attempts == 0) {
        r.input(e, "retryOn", Value::array());
        r.input(e, "retryOnStatuses", Value::array());
        Entry& t = r.entry("", "set", "preset");
        t.rule = "no retry policy: clientTimeoutMs 86,400,000 (docs/clients.md §0)";
        r.input(t, "clientTimeoutMs", Value::number(kMaxMs));
        if (const Value* b = retries.find("backoff")) {
            Entry& n = sourced(r, join(path, "backoff"), *b, "read", "backoff → none: attempts is 0",
                               std::string(kRetryGo) + " lines 143-147");
            n.note = "no retry policy: attempts is 0";
        }
    } else {
        // retryOn.
        std::string at = join(path, "retryOn");
        const Value* on = retries.find("retryOn");
        Conditions c;
        if (on) {
            auto text = r.string(at, *on);
            if (!text || !readRetryOn(r, at, *text, c)) return;
        } else {
            for (const char* p :
                 {"connect-failure", "refused-stream", "unavailable", "cancelled", "retriable-status-codes"})
                addCondition(c, p);
        }
        Entry& o =
            on ? sourced(r, at, *on, "read",
                         "retryOn → Envoy's retry_on and retriable_status_codes → retryOn, retryOnStatuses (§5.2)",
                         std::string(kRetryGo) + " lines 116-124, 152-174")
               : r.entry(at, "defaulted");
        if (!on) {
            o.source = Value::string(kDefaultRetryOn);
            o.hasSource = true;
            o.rule = "no retryOn → Istio's default conditions";
            o.cite = std::string(kRetryGo) + " lines 37, 86";
        }
        writeConditions(r, o, at, c);
        if (const Value* t = retries.find("perTryTimeout")) {
            auto ms = istioMs(r, join(path, "perTryTimeout"), *t, "2s");
            if (!ms) return;
            Entry& p =
                sourced(r, join(path, "perTryTimeout"), *t, "read", "perTryTimeout → per_try_timeout → clientTimeoutMs",
                        std::string(kRetryGo) + " lines 126-128");
            double v = std::min(*ms, kMaxMs);
            if (v != *ms) {
                p.status = "clamped";
                p.note = "perTryTimeout: the engine allows at most 86,400,000 ms";
            }
            r.input(p, "clientTimeoutMs", Value::number(v));
        } else {
            Entry& p = r.entry("", "set", "preset");
            p.rule =
                "no perTryTimeout: an attempt ends only at the route timeout, clientTimeoutMs 86,400,000 "
                "(docs/clients.md §0)";
            r.input(p, "clientTimeoutMs", Value::number(kMaxMs));
        }
        if (const Value* b = retries.find("backoff")) {
            auto ms = istioMs(r, join(path, "backoff"), *b, "25ms");
            if (!ms) return;
            Entry& p = sourced(
                r, join(path, "backoff"), *b, "read",
                "backoff → retry_back_off.base_interval → baseBackoffMs; maxBackoffMs 10 × it (Envoy's default max)",
                std::string(kRetryGo) + " lines 143-147");
            double base = std::min(*ms, kMaxMs), max = std::min(10 * *ms, kMaxMs);
            r.input(p, "baseBackoffMs", Value::number(base));
            r.input(p, "maxBackoffMs", Value::number(max));
        } else {
            Entry& p = r.entry(join(path, "backoff"), "defaulted");
            p.source = Value::string("25ms, 10 × 25ms");
            p.hasSource = true;
            p.rule = "no backoff → Envoy's base 25 ms, max 10 × base";
            r.input(p, "baseBackoffMs", Value::number(25));
            r.input(p, "maxBackoffMs", Value::number(250));
        }
        envoyBackOffRule(r);
    }
    // The host predicates: not modelled, given or defaulted.
    if (const Value* v = retries.find("retryIgnorePreviousHosts")) {
        if (!r.boolean(join(path, "retryIgnorePreviousHosts"), *v)) return;
        Entry& n =
            sourced(r, join(path, "retryIgnorePreviousHosts"), *v, "not-modelled",
                    "retryIgnorePreviousHosts → retry_host_predicate → none", std::string(kRetryGo) + " lines 131-137");
        n.note = "the model has one server: host selection is not modelled";
    } else if (attempts > 0) {
        Entry& n = r.entry(join(path, "retryIgnorePreviousHosts"), "not-modelled");
        n.source = Value::boolean(true);
        n.hasSource = true;
        n.rule = "no retryIgnorePreviousHosts → true: previous_hosts → none";
        n.cite = "istio/api (2e43f07b) networking/v1alpha3/virtual_service.proto line 1333";
        n.note = "the model has one server: host selection is not modelled";
    }
    if (const Value* v = retries.find("retryRemoteLocalities")) {
        if (!r.boolean(join(path, "retryRemoteLocalities"), *v)) return;
        Entry& n = sourced(r, join(path, "retryRemoteLocalities"), *v, "not-modelled",
                           "retryRemoteLocalities → retry_priority → none", std::string(kRetryGo) + " lines 139-141");
        n.note = "the model has one server: localities are not modelled";
    }
}

}  // namespace

void readIstio(Reading& r, const Options& o) {
    if (o.hasIstioDefault && o.istioDefault != "1.25-503") {
        r.error("", "not-a-choice",
                "--istio-default " + o.istioDefault + " is not a default this reader knows (1.25-503)");
        return;
    }
    const Value& doc = r.doc.value;
    for (const Value::Member& m : doc.asObject())
        if (m.key != "apiVersion" && m.key != "kind" && m.key != "spec") r.ignore(m.key, "not a retry section");
    const Value* spec = doc.find("spec");
    if (!spec || !r.object("spec", *spec)) {
        if (!spec) r.error("spec", "missing", "spec is required in a VirtualService");
        return;
    }
    for (const Value::Member& m : spec->asObject())
        if (m.key != "http") r.ignore(join("spec", m.key), "not a retry section");
    const Value* http = spec->find("http");
    if (!http || !r.list("spec.http", *http) || http->asArray().empty()) {
        if (!r.failed()) r.error("spec.http", "no-match", "the VirtualService holds no http route (spec.http)");
        return;
    }
    const auto& routes = http->asArray();
    for (std::size_t i = 0; i < routes.size(); ++i)
        if (!r.object(indexed("spec.http", i), routes[i])) return;
    auto nameOf = [&](std::size_t i) {
        const Value* n = routes[i].find("name");
        return n && n->kind() == Value::Kind::String ? n->asString() : indexed("spec.http", i);
    };
    int chosen = -1;
    if (o.hasRoute) {
        for (std::size_t i = 0; i < routes.size() && chosen < 0; ++i)
            if (nameOf(i) == o.route || std::to_string(i) == o.route) chosen = static_cast<int>(i);
        if (chosen < 0) {
            std::string all;
            for (std::size_t i = 0; i < routes.size() && i < 20; ++i) all += (all.empty() ? "" : ", ") + nameOf(i);
            r.error("", "no-match", "--route " + o.route + " selects no http route; the routes are " + all);
            return;
        }
        r.selection.set("rule", Value::string("option"));
    } else {
        for (std::size_t i = 0; i < routes.size() && chosen < 0; ++i)
            if (routes[i].find("retries")) chosen = static_cast<int>(i);
        std::string rule = routes.size() == 1 ? "only" : chosen >= 0 ? "first-with-retries" : "first";
        if (chosen < 0) chosen = 0;
        r.selection.set("rule", Value::string(rule));
    }
    const std::size_t c = static_cast<std::size_t>(chosen);
    const std::string path = indexed("spec.http", c);
    r.selection.set("path", Value::string(path));
    r.selection.set("name", Value::string(nameOf(c)));
    Value others = Value::array();
    for (std::size_t i = 0; i < routes.size(); ++i)
        if (i != c) {
            others.push(Value::string(indexed("spec.http", i)));
            r.ignore(indexed("spec.http", i), "another http route: " + nameOf(i));
        }
    r.selection.set("others", std::move(others));
    const Value& route = routes[c];
    for (const Value::Member& m : route.asObject())
        if (m.key != "retries" && m.key != "timeout" && m.key != "name")
            r.ignore(join(path, m.key),
                     m.key == "match" ? "the run is one request of this route" : "not a retry setting");
    if (const Value* t = route.find("timeout")) {
        auto ms = istioMs(r, join(path, "timeout"), *t, "10s");
        if (!ms) return;
        Entry& e = sourced(r, join(path, "timeout"), *t, "read", "timeout → route.timeout → deadlineMs",
                           "istio/istio 1.30.3 (56df41f6) pilot/pkg/networking/core/route/route.go lines 1336-1341");
        double v = std::min(*ms, kMaxMs);
        if (v != *ms) {
            e.status = "clamped";
            e.note = "timeout: the engine allows at most 86,400,000 ms";
        }
        r.input(e, "deadlineMs", Value::number(v));
    } else {
        Entry& e = r.entry(join(path, "timeout"), "defaulted");
        e.source = Value::string("none");
        e.hasSource = true;
        e.rule = "no timeout → none (pilot writes timeout 0s: disabled)";
        e.cite = "istio/api (2e43f07b) networking/v1alpha3/virtual_service.proto line 444";
        r.input(e, "deadlineMs", Value::null());
    }
    if (const Value* retries = route.find("retries")) {
        if (const Value* obj = r.object(join(path, "retries"), *retries)) readRetries(r, join(path, "retries"), *obj);
    } else {
        istioDefault(r, join(path, "retries"), o.hasIstioDefault);
    }
    if (r.failed()) return;
    Entry& fixed = r.entry("", "set", "preset");
    fixed.rule =
        "every Istio reading: honourRetryAfter false (pilot sets no rate-limited back-off), retryWritesWithoutKey "
        "true, "
        "attemptStart before-deadline, idempotencyKey false";
    r.input(fixed, "honourRetryAfter", Value::boolean(false));
    r.input(fixed, "retryWritesWithoutKey", Value::boolean(true));
    r.input(fixed, "attemptStart", Value::string("before-deadline"));
    if (!r.inputs.count("idempotencyKey")) r.input(fixed, "idempotencyKey", Value::boolean(false));
}

}  // namespace retrylab::config::detail
