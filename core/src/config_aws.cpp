// The AWS shared config and environment reader (docs/config-in.md §8): the profile (--profile,
// AWS_PROFILE, `default`), its `retry_mode` and `max_attempts` (the environment's first), and
// the (SDK, mode) pair's preset from docs/clients.md §2 for every rule the file does not hold.
// The binding has already read the INI text and the environment into objects of strings (§8.1).
#include <algorithm>
#include <string>
#include <vector>

#include "config_read.hpp"

namespace retrylab::config::detail {
namespace {

// The AWS presets of docs/clients.md §2 (web/clients/presets.js, the same ids; a node test holds
// that these rows equal its inputs, gates and "cannot" lines).
struct Quota {
    double capacity, retryCost, timeoutCost, successIncrement;
    const char* refund;  // "" when the preset names none
};
struct Preset {
    const char* id;
    double maxRetries, baseBackoffMs, maxBackoffMs;  // maxBackoffMs < 0: none
    std::vector<double> statuses;
    bool hasQuota;
    Quota quota;
    std::vector<const char*> cannot;
    const char* cite;
};

const std::vector<Preset>& presets() {
    static const std::vector<Preset> rows = {
        {"aws-botocore-2026",
         2,
         50,
         20000,
         {500, 502, 503, 504},
         true,
         {500, 14, 14, 1, ""},
         {"A 429 is retried only when its error code is a throttling one (Throttling, ThrottlingException, "
          "TooManyRequestsException…); here every 429 is.",
          "Connect timeouts apart from read timeouts; modeled retryable errors; adaptive mode’s client-side rate "
          "limiting.",
          "A throttling error backs off from 1 s, not 50 ms (throttling_base_scale 1); x-amz-retry-after "
          "(milliseconds, kept between the backoff and the backoff + 5 s); DynamoDB’s 4 attempts and 25 ms base."},
         "boto/botocore 1.43.67 (c10ac1e3), the aws-botocore-2026 preset (docs/clients.md §2)"},
        {"aws-botocore-standard",
         2,
         1000,
         20000,
         {500, 502, 503, 504},
         true,
         {500, 5, 10, 1, ""},
         {"A 429 is retried only when its error code is a throttling one (Throttling, ThrottlingException, "
          "TooManyRequestsException…); here every 429 is.",
          "Connect timeouts apart from read timeouts; modeled retryable errors; adaptive mode’s client-side rate "
          "limiting."},
         "boto/botocore 1.43.67 (c10ac1e3), the aws-botocore-standard preset (docs/clients.md §2)"},
        {"aws-botocore-legacy",
         4,
         1000,
         -1,
         {500, 502, 503, 504, 509},
         false,
         {0, 0, 0, 0, ""},
         {"Throttling recognised by error code on a 400 (Throttling, ThrottlingException…); per-service policies "
          "(DynamoDB: 10 attempts, 50 ms base); connect apart from read timeouts. Legacy mode differs per SDK: this is "
          "botocore’s."},
         "boto/botocore 1.43.67 (c10ac1e3), the aws-botocore-legacy preset (docs/clients.md §2)"},
        {"aws-js-v3",
         2,
         50,
         20000,
         {500, 502, 503, 504},
         true,
         {500, 14, 14, 1, ""},
         {"Retry-After and x-amz-retry-after: the wait is max(t, min(hint, t + 5,000 ms)), t the drawn backoff (line "
          "521); the engine has no rule for that clamp, so the preset honours no header.",
          "A throttling error (a 429, or a throttling error code) backs off from 1 s, not 50 ms (static "
          "throttlingDelay() { return 1_000; }, line 418), and costs 5.",
          "Other transient errors (connection resets, clock skew, $retryable traits); a streaming request body is "
          "never retried (line 220); adaptive mode’s client-side rate limiting (the aws-js-v3-adaptive preset)."},
         "@smithy/core 3.40.0–3.41.1, the aws-js-v3 preset (docs/clients.md §2)"},
        {"aws-sdk-go-v2",
         2,
         2000,
         20000,
         {500, 502, 503, 504},
         true,
         {500, 5, 10, 1, "cost-and-increment"},
         {"After a fifth attempt fails the wait is 20 s without jitter (jitter_backoff.go lines 35-37: attempt > "
          "int(log2(20)) returns maxBackoff); a 429 is retried only with a throttling error code; a context deadline "
          "or cancel is not retried (NoRetryCanceledError).",
          "The 2026 retries, the default from v1.48.0: not read at a release (botocore’s and the JavaScript SDK’s "
          "presets have them)."},
         "aws-sdk-go-v2 v1.16.0 (vendored in grafana/loki 1d397605), the aws-sdk-go-v2 preset (docs/clients.md §2)"},
    };
    return rows;
}

const Preset& preset(const std::string& id) {
    for (const Preset& p : presets())
        if (id == p.id) return p;
    return presets().front();
}

// --sdk: the SDK's default mode, its (mode → preset) pairs (§8.3's table), its read timeout.
struct Sdk {
    const char* id;
    const char* defaultMode;
    const char* standard;
    const char* legacy;
    bool legacyRead;  // false: legacy is not read for this SDK, its standard rules are used
    double clientTimeoutMs;
    const char* timeoutRule;
    const char* modeCite;
};

const std::vector<Sdk>& sdks() {
    static const std::vector<Sdk> rows = {
        {"botocore-2026", "standard", "aws-botocore-2026", "aws-botocore-legacy", true, 60000,
         "botocore's read timeout: 60 s (botocore/endpoint.py line 39, DEFAULT_TIMEOUT = 60)",
         "boto/botocore 1.43.67 (c10ac1e3) botocore/configprovider.py line 41: _DEFAULT_RETRY_MODE = 'standard' if "
         "NEW_RETRIES_ENABLED else 'legacy'"},
        {"botocore-1.43", "legacy", "aws-botocore-standard", "aws-botocore-legacy", true, 60000,
         "botocore's read timeout: 60 s (botocore/endpoint.py line 39, DEFAULT_TIMEOUT = 60)",
         "boto/botocore 1.43.67 (c10ac1e3) botocore/configprovider.py line 41: _DEFAULT_RETRY_MODE = 'standard' if "
         "NEW_RETRIES_ENABLED else 'legacy'"},
        {"js-v3", "standard", "aws-js-v3", "aws-js-v3", false, kMaxMs,
         "the JavaScript SDK sets no request timeout (@smithy/node-http-handler 4.14.2: DEFAULT_REQUEST_TIMEOUT = 0): "
         "clientTimeoutMs 86,400,000",
         "the aws-js-v3 preset (docs/clients.md §2): standard"},
        {"go-v2-1.16", "standard", "aws-sdk-go-v2", "aws-sdk-go-v2", false, kMaxMs,
         "aws-sdk-go-v2's own HTTP client timeouts were not read: clientTimeoutMs 86,400,000",
         "the aws-sdk-go-v2 preset (docs/clients.md §2): standard"},
    };
    return rows;
}

// Python's int() over text (§8.3): white space around, an optional sign, digits with single
// underscores between them. The value, capped at 1,000 (enough to tell ≥ 1 and > 101 apart).
bool pythonInt(const std::string& text, double& out) {
    const std::string space = " \t\n\r\f\v";
    std::size_t a = text.find_first_not_of(space);
    if (a == std::string::npos) return false;
    std::size_t b = text.find_last_not_of(space);
    std::string s = text.substr(a, b - a + 1);
    bool negative = false;
    std::size_t i = 0;
    if (s[i] == '+' || s[i] == '-') negative = s[i++] == '-';
    if (i >= s.size() || s[i] < '0' || s[i] > '9' || s.back() == '_') return false;
    double v = 0;
    for (; i < s.size(); ++i) {
        if (s[i] == '_') {
            if (s[i + 1] < '0' || s[i + 1] > '9') return false;
            continue;
        }
        if (s[i] < '0' || s[i] > '9') return false;
        v = std::min(1000.0, v * 10 + (s[i] - '0'));
    }
    out = negative ? -v : v;
    return true;
}

// One retry key's source: the environment's variable, else the profile's key, else [DEFAULT]'s.
struct Found {
    std::string path;  // "" when absent
    const Value* value = nullptr;
    std::string where;  // "the environment", "the profile", "[DEFAULT]"
};

Found find(const Value& file, const Value* profile, const std::string& section, const Options& o,
           const std::string& key, const std::string& variable) {
    if (o.hasEnv)
        if (const Value* v = o.env.value.find(variable)) return {"env." + variable, v, "the environment"};
    if (profile)
        if (const Value* v = profile->find(key)) return {join(section, key), v, "the profile"};
    if (profile || section == "default")
        if (const Value* d = file.find("DEFAULT"); d && d->kind() == Value::Kind::Object)
            if (const Value* v = d->find(key)) return {join("DEFAULT", key), v, "[DEFAULT]"};
    return {};
}

bool isProfileSection(const std::string& name) { return name == "default" || name.rfind("profile ", 0) == 0; }
bool holdsRetryKeys(const Value& v) {
    return v.kind() == Value::Kind::Object && (v.find("retry_mode") || v.find("max_attempts"));
}

// §8.2: the profile, its section, and the other sections (ignored, or warned of).
struct Chosen {
    std::string profile, section;
    const Value* values = nullptr;
    bool ok = true;
};

Chosen selectProfile(Reading& r, const Options& o) {
    const Value& file = r.doc.value;
    Chosen c;
    std::string rule = "default";
    c.profile = "default";
    if (o.hasProfile) {
        c.profile = o.profile, rule = "option";
        if (o.hasEnv && o.env.value.find("AWS_PROFILE")) r.ignore("env.AWS_PROFILE", "--profile wins over AWS_PROFILE");
    } else if (o.hasEnv)
        if (const Value* p = o.env.value.find("AWS_PROFILE")) {
            c.profile = p->asString(), rule = "environment";
            Entry& e = r.entry("env.AWS_PROFILE", "read");
            e.source = *p;
            e.hasSource = true;
            e.rule = "AWS_PROFILE selects the profile";
        }
    c.section = c.profile == "default" ? "default" : "profile " + c.profile;
    const Value* found = file.find(c.section);
    if (found && found->kind() == Value::Kind::Object) c.values = found;
    if (!c.values && c.profile != "default") {
        std::vector<std::string> names;
        for (const Value::Member& m : file.asObject())
            if (isProfileSection(m.key)) names.push_back(m.key == "default" ? "default" : m.key.substr(8));
        std::string list;
        for (std::size_t i = 0; i < names.size() && i < 20; ++i) list += (i ? ", " : "") + names[i];
        if (names.size() > 20) list += ", and " + std::to_string(names.size() - 20) + " more";
        std::string hint =
            file.find(c.profile)
                ? " ([" + c.profile +
                      "] is not a profile in the shared config file: the SDKs ignore it (write [profile " + c.profile +
                      "]))"
                : "";
        std::string how = rule == "option" ? "--profile " : "AWS_PROFILE=";
        // --profile has no line of its own (the root's "" would give line 1).
        r.errorAt(rule == "option" ? "" : "env.AWS_PROFILE", rule == "option" ? "--profile" : "env.AWS_PROFILE",
                  "no-match",
                  how + c.profile + " selects no profile" + hint + "; the profiles are " +
                      (list.empty() ? std::string("none") : list));
        c.ok = false;
        return c;
    }
    Value others = Value::array();
    for (const Value::Member& m : file.asObject()) {
        if (m.key == c.section || m.key == "DEFAULT") continue;
        if (isProfileSection(m.key)) others.push(Value::string(m.key));
        if (!isProfileSection(m.key) && m.key.rfind("sso-session ", 0) != 0 && m.key.rfind("services ", 0) != 0 &&
            holdsRetryKeys(m.value))
            r.warn(m.key, "[" + m.key +
                              "] is not a profile in the shared config file: the SDKs ignore it (write [profile " +
                              m.key + "])");
        r.ignore(m.key, isProfileSection(m.key) ? "another profile" : "not a profile: not read");
    }
    r.selection.set("path", Value::string(c.values ? c.section : ""));
    r.selection.set("name", Value::string(c.profile));
    r.selection.set("rule", Value::string(c.values ? rule : "default"));
    r.selection.set("others", std::move(others));
    return c;
}

// retry_mode (§8.3): the (SDK, mode) pair's preset; its entry writes every input the preset
// fixes but maxRetries (max_attempts' entry writes that).
const Preset* readMode(Reading& r, const Sdk& sdk, const Found& f, const std::string& section) {
    std::string mode = sdk.defaultMode;
    Entry* e = nullptr;
    if (f.value) {
        if (f.value->kind() != Value::Kind::String) {
            r.error(f.path, "wrong-type", f.path + " must be text; got " + shown(*f.value));
            return nullptr;
        }
        mode = f.value->asString();
        if (mode != "legacy" && mode != "standard" && mode != "adaptive") {
            std::string near = closest(mode, {"legacy", "standard", "adaptive"});
            r.error(f.path, "not-a-choice",
                    f.path + " names \"" + mode + "\", which is not a retry mode (legacy, standard or adaptive" +
                        (near.empty() ? ")" : "; did you mean " + near + "?)"));
            return nullptr;
        }
        e = &r.entry(f.path, "read");
        e->source = *f.value;
        e->hasSource = true;
        if (f.where == "[DEFAULT]") e->note = "inherited from [DEFAULT]";
    } else {
        e = &r.entry(join(section, "retry_mode"), "defaulted");
        e->source = Value::string(mode);
        e->hasSource = true;
        e->cite = sdk.modeCite;
    }
    const bool legacy = mode == "legacy";
    const Preset& p = preset(legacy ? sdk.legacy : sdk.standard);
    e->rule = "retry_mode " + mode + " with --sdk " + sdk.id + " → the " + p.id + " preset" +
              (mode == "adaptive" ? " (standard's rules)" : "");
    if (e->cite.empty()) e->cite = p.cite;
    if (legacy && !sdk.legacyRead) r.warn(e->path, "legacy is not read for this SDK: its standard rules are used");
    r.input(*e, "baseBackoffMs", Value::number(p.baseBackoffMs));
    r.input(*e, "backoffMultiplier", Value::number(2));
    r.input(*e, "maxBackoffMs", p.maxBackoffMs < 0 ? Value::null() : Value::number(p.maxBackoffMs));
    r.input(*e, "jitter", Value::string("full"));
    r.input(*e, "retryOn", Value::array({Value::string("timeout"), Value::string("429")}));
    Value statuses = Value::array();
    for (double s : p.statuses) statuses.push(Value::number(s));
    r.input(*e, "retryOnStatuses", std::move(statuses));
    r.input(*e, "honourRetryAfter", Value::boolean(false));
    r.input(*e, "retryWritesWithoutKey", Value::boolean(true));
    if (p.hasQuota) {
        Value gate = Value::object();
        gate.set("scope", Value::string("client"));
        gate.set("capacity", Value::number(p.quota.capacity));
        gate.set("retryCost", Value::number(p.quota.retryCost));
        gate.set("timeoutCost", Value::number(p.quota.timeoutCost));
        gate.set("successIncrement", Value::number(p.quota.successIncrement));
        if (*p.quota.refund) gate.set("refund", Value::string(p.quota.refund));
        for (const Value::Member& m : gate.asObject()) r.fleetMember(*e, "fleet.gates.quota." + m.key, m.value);
        r.fleetGates["quota"] = std::move(gate);
    }
    // docs/config-in.md §8.3, "The limiter": the fleet's gates.adaptive, one a client; it starts as
    // botocore's, so for the JavaScript and Go SDKs (whose limiters start with no token,
    // docs/throttling.md §4.2) it is an approximation.
    if (mode == "adaptive") {
        const bool botocore = std::string(sdk.id).rfind("botocore", 0) == 0;
        Entry& n = r.entry(e->path, "read");
        n.hasSource = true;
        n.source = Value::string(mode);
        n.rule =
            "adaptive mode's client-side rate limiter → the fleet's gates.adaptive (docs/throttling.md §4), "
            "one a client";
        n.cite = "botocore 1.43.67 client.py lines 252-254";
        if (!botocore) {
            n.approximated = true;
            n.note = std::string("the ") + sdk.id +
                     " limiter starts with no token and no refill time; gates.adaptive starts as botocore's "
                     "(docs/throttling.md §4.2): here a first held send can wait up to 2 s less than in the SDK";
        }
        Value gate = Value::object();
        gate.set("scope", Value::string("client"));
        r.fleetMember(n, "fleet.gates.adaptive.scope", Value::string("client"));
        r.fleetGates["adaptive"] = std::move(gate);
    }
    return &p;
}

// max_attempts (§8.3): every attempt, the first included; maxRetries = min(v, 101) − 1.
void readAttempts(Reading& r, const Preset& p, const Found& f, const std::string& section) {
    if (!f.value) {
        Entry& e = r.entry(join(section, "max_attempts"), "defaulted");
        e.source = Value::number(p.maxRetries + 1);
        e.hasSource = true;
        e.rule = "max_attempts " + grouped(p.maxRetries + 1) + " (the " + p.id + " preset's) → maxRetries " +
                 grouped(p.maxRetries);
        e.cite = p.cite;
        r.input(e, "maxRetries", Value::number(p.maxRetries));
        return;
    }
    double v = 0;
    if (f.value->kind() != Value::Kind::String || !pythonInt(f.value->asString(), v)) {
        r.error(f.path, "wrong-type",
                f.path + " must be a whole number (as Python's int() reads text); got " + shown(*f.value));
        return;
    }
    if (v < 1) {
        r.error(f.path, "out-of-range",
                f.path + " must be at least 1 (botocore/config.py lines 453-456: total_max_attempts); got " +
                    f.value->asString());
        return;
    }
    Entry& e = r.entry(f.path, v > 101 ? "clamped" : "read");
    e.source = *f.value;
    e.hasSource = true;
    e.rule =
        "max_attempts → maxRetries = min(max_attempts, 101) − 1 (every attempt counted, the first included: "
        "botocore/args.py lines 600-630)";
    if (v > 101) e.note = "max_attempts " + f.value->asString() + ": the engine allows at most 100 retries";
    if (f.where == "[DEFAULT]")
        e.note = e.note.empty() ? "inherited from [DEFAULT]" : e.note + "; inherited from [DEFAULT]";
    r.input(e, "maxRetries", Value::number(std::min(v, 101.0) - 1));
}

void readEnvironment(Reading& r, const Options& o) {
    std::string others;
    for (const Value::Member& m : o.env.value.asObject()) {
        auto it = o.env.positions.find(m.key);
        if (it != o.env.positions.end()) r.extraPositions["env." + m.key] = it->second;
        if (m.key == "AWS_RETRY_MODE" || m.key == "AWS_MAX_ATTEMPTS" || m.key == "AWS_PROFILE") continue;
        others += (others.empty() ? "" : ", ") + m.key;
    }
    if (!others.empty()) {
        Entry& e = r.entry("env", "ignored");
        e.rule = "the environment's other variables";
        e.note = "not read (their values are never shown): " + others;
    }
}

}  // namespace

void readAws(Reading& r, const Options& o) {
    const Sdk* sdk = &sdks().front();
    if (o.hasSdk) {
        sdk = nullptr;
        for (const Sdk& s : sdks())
            if (o.sdk == s.id) sdk = &s;
        if (!sdk) {
            r.error("", "not-a-choice",
                    "--sdk " + o.sdk + " is not an AWS SDK preset (botocore-2026, botocore-1.43, js-v3, go-v2-1.16)");
            return;
        }
    }
    if (o.hasEnv) readEnvironment(r, o);
    Chosen c = selectProfile(r, o);
    if (!c.ok) return;
    r.selection.set("sdk", Value::string(sdk->id));
    if (c.values)
        for (const Value::Member& m : c.values->asObject())
            if (m.key != "retry_mode" && m.key != "max_attempts")
                r.ignore(join(c.section, m.key), "not a retry setting (its value is not shown)");
    if (const Value* d = r.doc.value.find("DEFAULT"); d && d->kind() == Value::Kind::Object)
        for (const Value::Member& m : d->asObject())
            if (m.key != "retry_mode" && m.key != "max_attempts")
                r.ignore(join("DEFAULT", m.key), "not a retry setting (its value is not shown)");
    Found mode = find(r.doc.value, c.values, c.section, o, "retry_mode", "AWS_RETRY_MODE");
    Found attempts = find(r.doc.value, c.values, c.section, o, "max_attempts", "AWS_MAX_ATTEMPTS");
    // A key the environment overrides is still in the file: listed, not read.
    for (const Found* f : {&mode, &attempts})
        if (f->where == "the environment" && c.values) {
            std::string key = f == &mode ? "retry_mode" : "max_attempts";
            if (c.values->find(key))
                r.ignore(join(c.section, key),
                         "the environment's " + f->path.substr(4) + " wins (botocore/configprovider.py lines 171-175)");
        }
    const Preset* p = readMode(r, *sdk, mode, c.section);
    if (!p) return;
    readAttempts(r, *p, attempts, c.section);
    if (r.failed()) return;

    Entry& timeout = r.entry("", "defaulted");
    timeout.rule = sdk->timeoutRule;
    r.input(timeout, "clientTimeoutMs", Value::number(sdk->clientTimeoutMs));
    const Value* runDeadline = o.hasRun && o.run.kind() == Value::Kind::Object ? o.run.find("deadlineMs") : nullptr;
    Entry& deadline = r.entry("", "set", runDeadline ? "situation" : "preset");
    deadline.rule = runDeadline ? "the situation (--run): deadlineMs, the caller's deadline"
                                : "no SDK sets an overall deadline: deadlineMs null";
    r.input(deadline, "deadlineMs", runDeadline ? *runDeadline : Value::null());
    Entry& fixed = r.entry("", "set", "preset");
    fixed.rule = "every AWS reading: attemptStart before-deadline, idempotencyKey false";
    r.input(fixed, "attemptStart", Value::string("before-deadline"));
    if (!r.inputs.count("idempotencyKey")) r.input(fixed, "idempotencyKey", Value::boolean(false));
    for (const char* line : p->cannot) {
        Entry& e = r.entry("", "not-modelled");
        e.rule = std::string("the ") + p->id + " preset cannot represent";
        e.note = line;
    }
}

}  // namespace retrylab::config::detail
