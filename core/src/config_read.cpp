// config::read() (docs/config-in.md §2, §3): detection, the situation (--run), and the report
// finished: situation and engine-default entries, the fleet request (§2.7), the entries in
// file order, and the invariant that every input is named by exactly one entry.
#include "config_read.hpp"

#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <limits>
#include <set>
#include <utility>

#include "retrylab/engine.hpp"
#include "retrylab/fields.hpp"
#include "retrylab/fleet.hpp"

namespace retrylab::config {
namespace detail {

std::string join(const std::string& path, const std::string& key) { return path.empty() ? key : path + "." + key; }
std::string indexed(const std::string& path, std::size_t i) { return path + "[" + std::to_string(i) + "]"; }

std::string grouped(double n) {
    if (!(std::fabs(n) < 1e15) || n != std::floor(n)) {
        std::string s = std::to_string(n);
        s.erase(s.find_last_not_of('0') + 1);
        if (!s.empty() && s.back() == '.') s.pop_back();
        return s;
    }
    bool negative = n < 0;
    std::string digits = std::to_string(static_cast<long long>(std::fabs(n)));
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return negative ? "-" + out : out;
}

std::string shown(const Value& v) {
    switch (v.kind()) {
        case Value::Kind::String: return "the string \"" + v.asString() + "\"";
        case Value::Kind::Number: return grouped(v.asNumber());
        case Value::Kind::Bool: return v.asBool() ? "true" : "false";
        case Value::Kind::Null: return "null";
        case Value::Kind::Array: return "a list";
        case Value::Kind::Object: return "an object";
        default: return v.asString();
    }
}

double floorMs(std::int64_t ns) { return static_cast<double>(ns / 1000000); }
double exactMs(std::int64_t ns) { return static_cast<double>(ns) / 1e6; }

namespace {

std::vector<std::uint32_t> codePoints(const std::string& s) {
    std::vector<std::uint32_t> out;
    for (std::size_t i = 0; i < s.size();) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        int n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        std::uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
        for (int k = 1; k < n && i + static_cast<std::size_t>(k) < s.size(); ++k)
            cp = (cp << 6) | (static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]) & 0x3F);
        out.push_back(cp);
        i += static_cast<std::size_t>(n);
    }
    return out;
}

std::size_t distance(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

}  // namespace

std::string closest(const std::string& name, const std::vector<std::string>& names) {
    if (name.size() > 200) return "";
    std::vector<std::uint32_t> a = codePoints(name);
    std::string best;
    std::size_t bestD = 3;
    for (const std::string& n : names) {
        std::size_t d = distance(a, codePoints(n));
        if (d < bestD) {
            bestD = d;
            best = n;
        }
    }
    return best;
}

Position Reading::at(const std::string& path) const {
    auto it = doc.positions.find(path);
    if (it != doc.positions.end()) return it->second;
    auto extra = extraPositions.find(path);
    return extra == extraPositions.end() ? Position{} : extra->second;
}

std::string Reading::lineWords(Position p) { return p.line > 0 ? " (line " + std::to_string(p.line) + ")" : ""; }

void Reading::error(const std::string& path, const std::string& code, const std::string& message) {
    errorAt(path, path, code, message);
}

void Reading::errorAt(const std::string& path, const std::string& where, const std::string& code,
                      const std::string& message) {
    Position p = at(where);
    Value e = Value::object();
    e.set("field", Value::string(path));
    e.set("line", p.line > 0 ? Value::number(p.line) : Value::null());
    e.set("column", p.line > 0 ? Value::number(p.column) : Value::null());
    e.set("code", Value::string(code));
    e.set("message", Value::string(message + lineWords(p)));
    e.set("detail", Value::string(message));
    errors.push_back(std::move(e));
}

void Reading::warn(const std::string& path, const std::string& message) {
    Position p = at(path);
    Value w = Value::object();
    w.set("field", Value::string(path));
    w.set("line", p.line > 0 ? Value::number(p.line) : Value::null());
    w.set("message", Value::string(message));
    warnings.push_back(std::move(w));
}

Entry& Reading::entry(const std::string& path, const std::string& status, const std::string& origin) {
    Entry e;
    e.path = path;
    e.pos = path.empty() ? Position{} : at(path);
    e.status = status;
    e.origin = origin;
    entries.push_back(std::move(e));
    return entries.back();
}

Entry& sourced(Reading& r, const std::string& path, const Value& v, const std::string& status, const std::string& rule,
               const std::string& cite) {
    Entry& e = r.entry(path, status);
    e.source = v;
    e.hasSource = true;
    e.rule = rule;
    e.cite = cite;
    return e;
}

void Reading::input(Entry& e, const std::string& name, Value value) {
    inputs[name] = std::move(value);
    producer[name] = &e;
    if (std::find(e.inputs.begin(), e.inputs.end(), name) == e.inputs.end()) e.inputs.push_back(name);
}

void Reading::fleetMember(Entry& e, const std::string& path, Value) { e.inputs.push_back(path); }

void Reading::ignore(const std::string& path, const std::string& note) {
    Entry& e = entry(path, "ignored");
    e.note = note;
}

std::optional<double> Reading::number(const std::string& path, const Value& v) {
    if (v.kind() == Value::Kind::Number) return v.asNumber();
    if (v.kind() == Value::Kind::Unsupported) {
        error(path, "wrong-type", path + " must be a number; got " + v.asString());
        return std::nullopt;
    }
    error(path, "wrong-type", path + " must be a number; got " + shown(v));
    return std::nullopt;
}

std::optional<double> Reading::whole(const std::string& path, const Value& v) {
    if (v.kind() == Value::Kind::Number && v.asNumber() == std::floor(v.asNumber())) return v.asNumber();
    std::string why = v.kind() == Value::Kind::Unsupported ? v.asString() : shown(v);
    error(path, "wrong-type", path + " must be a whole number; got " + why);
    return std::nullopt;
}

std::optional<bool> Reading::boolean(const std::string& path, const Value& v) {
    if (v.kind() == Value::Kind::Bool) return v.asBool();
    std::string extra;
    if (v.kind() == Value::Kind::String) {
        const std::string& s = v.asString();
        if (s == "yes" || s == "no" || s == "on" || s == "off" || s == "y" || s == "n" || s == "Yes" || s == "No" ||
            s == "On" || s == "Off")
            extra = " (YAML 1.2 reads " + s +
                    " as text: write true or false; Kubernetes' YAML 1.1 reader would take it as a boolean)";
    }
    error(path, "wrong-type", path + " must be true or false; got " + shown(v) + extra);
    return std::nullopt;
}

std::optional<std::string> Reading::string(const std::string& path, const Value& v) {
    if (v.kind() == Value::Kind::String) return v.asString();
    error(path, "wrong-type", path + " must be a string; got " + shown(v));
    return std::nullopt;
}

const Value* Reading::object(const std::string& path, const Value& v) {
    if (v.kind() == Value::Kind::Object) return &v;
    error(path, "wrong-type", path + " must be an object; got " + shown(v));
    return nullptr;
}

const Value* Reading::list(const std::string& path, const Value& v) {
    if (v.kind() == Value::Kind::Array) return &v;
    error(path, "wrong-type", path + " must be a list; got " + shown(v));
    return nullptr;
}

std::optional<std::int64_t> Reading::protoDuration(const std::string& path, const Value& v,
                                                   const std::string& example) {
    if (v.kind() != Value::Kind::String) {
        error(path, "wrong-type",
              path + " must be a protobuf JSON duration such as \"" + example + "\" (a string); got " + shown(v));
        return std::nullopt;
    }
    const std::string& s = v.asString();
    auto bad = [&](const std::string& extra) {
        error(path, "bad-duration",
              path + " must be a protobuf JSON duration such as \"" + example + "\"; got \"" + s + "\"" + extra);
        return std::nullopt;
    };
    // -?[0-9]+(\.[0-9]{1,9})?s
    std::size_t i = 0;
    bool negative = false;
    if (i < s.size() && s[i] == '-') negative = true, ++i;
    if (i < s.size() && s[i] == '+') return bad(" (grpc-java would read it; the protobuf JSON mapping does not)");
    std::size_t digitsFrom = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    std::size_t intDigits = i - digitsFrom;
    if (intDigits == 0) return bad("");
    std::int64_t frac = 0;
    std::size_t fracDigits = 0;
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
            if (fracDigits < 9) frac = frac * 10 + (s[i] - '0');
            ++fracDigits;
            ++i;
        }
        if (fracDigits == 0) return bad("");
        if (fracDigits > 9) return bad(" (grpc-java would read it; the protobuf JSON mapping does not)");
    }
    if (i + 1 != s.size() || s[i] != 's') return bad("");
    std::string secondsText = s.substr(digitsFrom, intDigits);
    // strtoll, not std::stoll: at most 12 digits, and no exception path (see config_istio.cpp).
    if (intDigits > 12 || std::strtoll(secondsText.c_str(), nullptr, 10) > 315576000000LL) {
        error(path, "out-of-range",
              path + " must be at most 315,576,000,000 seconds (protobuf's Duration); got \"" + s + "\"");
        return std::nullopt;
    }
    for (std::size_t k = fracDigits; k < 9; ++k) frac *= 10;
    std::int64_t ns = std::strtoll(secondsText.c_str(), nullptr, 10) * 1000000000LL + frac;
    if (negative && ns != 0) {
        error(path, "out-of-range", path + " must not be negative; got \"" + s + "\"");
        return std::nullopt;
    }
    return ns;
}

void Reading::checkKeys(const std::string& path, const Value& obj, const std::vector<std::string>& known,
                        const std::string& what) {
    for (const Value::Member& m : obj.asObject()) {
        if (std::find(known.begin(), known.end(), m.key) != known.end()) continue;
        std::string near = closest(m.key, known);
        std::string member = join(path, m.key);
        error(member, "unknown-field",
              member + " is not a field of " + what + (near.empty() ? "" : " (did you mean " + near + "?)"));
    }
}

bool grpcShape(const Value& v) {
    if (v.kind() != Value::Kind::Object) return false;
    for (const char* k :
         {"methodConfig", "retryThrottling", "loadBalancingConfig", "loadBalancingPolicy", "healthCheckConfig"})
        if (v.find(k)) return true;
    return false;
}

std::string envoyRule(const Value& v) {
    if (v.kind() != Value::Kind::Object) return "";
    if (v.find("static_resources") || v.find("staticResources")) return "envoy-bootstrap";
    const Value* type = v.find("@type");
    const std::string suffix = "envoy.config.route.v3.RouteConfiguration";
    if (v.find("virtual_hosts") || v.find("virtualHosts") ||
        (type && type->kind() == Value::Kind::String && type->asString().size() >= suffix.size() &&
         type->asString().compare(type->asString().size() - suffix.size(), suffix.size(), suffix) == 0))
        return "envoy-route-config";
    if (v.find("match") && v.find("route")) return "envoy-route";
    return "";
}

}  // namespace detail

using namespace detail;

namespace {

const std::vector<std::string> kFormats = {"istio", "linkerd", "envoy", "grpc", "dotnet", "aws"};

bool startsWith(const Value* v, const std::string& prefix) {
    return v && v->kind() == Value::Kind::String && v->asString().rfind(prefix, 0) == 0;
}
bool isString(const Value* v, const std::string& s) {
    return v && v->kind() == Value::Kind::String && v->asString() == s;
}

// A member named, ignoring case, one of the .NET options' names, at any depth (§9.1).
bool dotnetCandidate(const Value& v, int depth = 0) {
    if (depth > 64) return false;
    if (v.kind() == Value::Kind::Object) {
        for (const Value::Member& m : v.asObject()) {
            std::string k = m.key;
            for (char& c : k) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            for (const char* name : {"retry", "attempttimeout", "totalrequesttimeout", "circuitbreaker", "ratelimiter",
                                     "hedging", "endpoint"})
                if (k == name) return true;
        }
        for (const Value::Member& m : v.asObject())
            if (dotnetCandidate(m.value, depth + 1)) return true;
    } else if (v.kind() == Value::Kind::Array) {
        for (const Value& item : v.asArray())
            if (dotnetCandidate(item, depth + 1)) return true;
    }
    return false;
}

// §3's rules in order: the format and the rule's name, or "" for none.
bool awsShape(const Value& v) {
    if (v.kind() != Value::Kind::Object) return false;
    for (const Value::Member& m : v.asObject())
        if (m.value.kind() == Value::Kind::Object && (m.value.find("retry_mode") || m.value.find("max_attempts")))
            return true;
    return false;
}

std::pair<std::string, std::string> detect(const Value& v, const std::string& syntax, bool env) {
    // Rule 6: the shared config is the only format read as INI (§3), so rules 1-5 never see it.
    if (syntax == "ini") {
        if (awsShape(v)) return {"aws", "aws-shared-config"};
        if (env) return {"aws", "aws-environment"};
        return {"", ""};
    }
    if (v.kind() != Value::Kind::Object) return {"", ""};
    // JSON with comments (§3): only .NET's reading accepts it.
    if (syntax == "jsonc")
        return dotnetCandidate(v) ? std::pair<std::string, std::string>{"dotnet", "dotnet-appsettings"}
                                  : std::pair<std::string, std::string>{"", ""};
    if (startsWith(v.find("apiVersion"), "networking.istio.io/") && isString(v.find("kind"), "VirtualService"))
        return {"istio", "istio-virtual-service"};
    if (startsWith(v.find("apiVersion"), "linkerd.io/") && isString(v.find("kind"), "ServiceProfile"))
        return {"linkerd", "linkerd-service-profile"};
    std::string envoy = envoyRule(v);
    if (!envoy.empty()) return {"envoy", envoy};
    if (v.find("methodConfig") || v.find("retryThrottling")) return {"grpc", "grpc-service-config"};
    if ((syntax == "json" || syntax == "jsonc") && dotnetCandidate(v)) return {"dotnet", "dotnet-appsettings"};
    return {"", ""};
}

Value failure(const std::string& format, std::vector<Value> errors) {
    Value out = Value::object();
    out.set("ok", Value::boolean(false));
    out.set("format", format.empty() ? Value::null() : Value::string(format));
    Value list = Value::array();
    for (Value& e : errors) list.push(std::move(e));
    out.set("errors", std::move(list));
    return out;
}

Value oneError(const std::string& format, const std::string& field, const std::string& code, const std::string& message,
               Position p = {}) {
    Value e = Value::object();
    e.set("field", Value::string(field));
    e.set("line", p.line > 0 ? Value::number(p.line) : Value::null());
    e.set("column", p.line > 0 ? Value::number(p.column) : Value::null());
    e.set("code", Value::string(code));
    e.set("message", Value::string(message));
    e.set("detail", Value::string(message));
    return failure(format, {std::move(e)});
}

const char* const kSituation[] = {"scenario", "script", "operation", "operationId", "responseMs",
                                  "draws",    "seed",   "startDate", "callers",     "idempotencyKey"};

}  // namespace

const std::vector<std::string>& situationNames() {
    static const std::vector<std::string> names(std::begin(kSituation), std::end(kSituation));
    return names;
}

namespace {

// §1: the situation's inputs from --run, each a `set` entry. deadlineMs is the reader's
// (gRPC: the sooner of the two), so it is left in `run` for the reader.
void readSituation(Reading& r, const Options& o) {
    if (!o.hasRun) return;
    if (o.run.kind() != Value::Kind::Object) {
        r.error("run", "wrong-type",
                "the --run file must be a JSON object of the situation's inputs; got " + shown(o.run));
        return;
    }
    std::vector<std::string> known(std::begin(kSituation), std::end(kSituation));
    bool callerDeadline = r.format == "grpc" || r.format == "aws";
    for (const Value::Member& m : o.run.asObject()) {
        if (m.key == "deadlineMs") {
            if (!callerDeadline)
                r.error("run.deadlineMs", "conflict",
                        "run.deadlineMs: the " + formatTitle(r.format) +
                            " sets the deadline itself; the caller's is not read");
            continue;
        }
        if (std::find(known.begin(), known.end(), m.key) == known.end()) {
            std::string near = closest(m.key, known);
            r.error("run." + m.key, "unknown-field",
                    "run." + m.key + " is not an input of the situation (" +
                        (near.empty() ? std::string("scenario, script, operation, …") : "did you mean " + near + "?") +
                        ")");
            continue;
        }
        Entry& e = r.entry("", "set", "situation");
        e.rule = "the situation (--run): " + m.key;
        r.input(e, m.key, m.value);
    }
}

// §2.7: the fleet request from the inputs (and the gates a reader set).
Value fleetRequest(Reading& r) {
    const Field& policyRow = fleetFields().field("policy");
    auto fleetDefault = [&](const char* name) { return policyRow.member(name)->defaultValue.toValue(); };
    Value policy = Value::object();
    auto put = [&](const char* name, Value v, const std::string& producerOf) {
        if (sameValue(v, fleetDefault(name))) return;
        r.fleetValues[std::string("fleet.policy.") + name] = v;
        policy.set(name, std::move(v));
        auto it = r.producer.find(producerOf);
        if (it != r.producer.end()) it->second->inputs.push_back(std::string("fleet.policy.") + name);
    };
    for (const char* name : {"maxRetries", "baseBackoffMs", "backoffMultiplier", "maxBackoffMs"}) {
        auto it = r.inputs.find(name);
        if (it == r.inputs.end()) continue;
        bool own = std::string(name) == "maxRetries" && r.fleetMaxRetries;
        put(name, own ? Value::number(*r.fleetMaxRetries) : it->second, name);
    }
    if (auto it = r.inputs.find("jitter"); it != r.inputs.end()) {
        Value j = it->second;
        Entry* from = r.producer[std::string("jitter")];
        if (j.asString() == "proportional") {
            j = Value::string("none");
            double lo = r.inputs["jitterLow"].asNumber(), hi = r.inputs["jitterHigh"].asNumber();
            std::string note = "the fleet has no proportional jitter: each wait is the ceiling itself (the range " +
                               grouped(lo) + "–" + grouped(hi) + "'s mean is " + grouped((lo + hi) / 2) + ")";
            from->note = from->note.empty() ? note : from->note + "; " + note;
        }
        put("jitter", std::move(j), "jitter");
    }
    for (const char* name : {"clientTimeoutMs", "deadlineMs"}) {
        auto it = r.inputs.find(name);
        if (it != r.inputs.end()) put(name, it->second, name);
    }
    if (r.inputs.count("retryOn") || r.inputs.count("retryOnStatuses")) {
        bool timeout = false, fiveXX = false;
        if (auto it = r.inputs.find("retryOn"); it != r.inputs.end())
            for (const Value& c : it->second.asArray()) {
                if (c.asString() == "timeout") timeout = true;
                if (c.asString() == "5xx") fiveXX = true;
            }
        bool has500 = false, has503 = false;
        if (auto it = r.inputs.find("retryOnStatuses"); it != r.inputs.end())
            for (const Value& s : it->second.asArray()) {
                has500 = has500 || s.asNumber() == 500;
                has503 = has503 || s.asNumber() == 503;
            }
        std::string from = r.inputs.count("retryOnStatuses") ? "retryOnStatuses" : "retryOn";
        if (!fiveXX && has500 && has503)
            fiveXX = true;
        else if (!fiveXX && (has500 || has503)) {
            Entry* e = r.producer[from];
            std::string note =
                "the fleet's server answers 500 or 503: the fleet retries neither, as retryOnStatuses holds only " +
                std::string(has500 ? "500" : "503") + " of them (fleet.policy.retryOn holds 5xx only for both)";
            e->note = e->note.empty() ? note : e->note + "; " + note;
            e->approximated = true;
        }
        Value retryOn = Value::array();
        if (timeout) retryOn.push(Value::string("timeout"));
        if (fiveXX) retryOn.push(Value::string("5xx"));
        put("retryOn", std::move(retryOn), from);
    }
    if (auto it = r.inputs.find("honourRetryAfter"); it != r.inputs.end())
        put("honourRetryAfter", it->second, "honourRetryAfter");
    // gRPC A6's and Polly's hedging (§4.3, §9.4): the fleet's policy.hedging takes the same object.
    if (auto it = r.inputs.find("hedging"); it != r.inputs.end()) put("hedging", it->second, "hedging");
    Value fleet = Value::object();
    if (!policy.asObject().empty()) fleet.set("policy", std::move(policy));
    if (!r.fleetGates.empty()) {
        Value gates = Value::object();
        for (auto& [name, gate] : r.fleetGates) {
            for (const Value::Member& m : gate.asObject()) r.fleetValues["fleet.gates." + name + "." + m.key] = m.value;
            gates.set(name, gate);
        }
        fleet.set("gates", std::move(gates));
    }
    return fleet;
}

Value entryValue(const Entry& e, const Reading& r) {
    Value v = Value::object();
    v.set("path", Value::string(e.path));
    v.set("line", e.pos.line > 0 ? Value::number(e.pos.line) : Value::null());
    v.set("column", e.pos.line > 0 ? Value::number(e.pos.column) : Value::null());
    v.set("status", Value::string(e.status));
    v.set("origin", Value::string(e.origin));
    if (e.hasSource) v.set("source", e.source);
    v.set("approximated", Value::boolean(e.approximated));
    Value inputs = Value::array();
    for (const std::string& name : e.inputs) {
        Value i = Value::object();
        i.set("name", Value::string(name));
        auto it = r.inputs.find(name);
        if (it != r.inputs.end()) i.set("value", it->second);
        auto fleetIt = r.fleetValues.find(name);
        if (fleetIt != r.fleetValues.end()) i.set("value", fleetIt->second);
        inputs.push(std::move(i));
    }
    v.set("inputs", std::move(inputs));
    v.set("rule", Value::string(e.rule));
    if (!e.cite.empty()) v.set("cite", Value::string(e.cite));
    if (!e.note.empty()) v.set("note", Value::string(e.note));
    return v;
}

// The engine's own answer to the translated inputs: an error there is the situation's
// (`run.<name>`) or, which §2.2's clamps are there to prevent, the reader's (`inputs.<name>`).
void engineCheck(Reading& r, const Value& inputs) {
    Value checked = validate(inputs);
    const Value* ok = checked.find("ok");
    if (ok && ok->asBool()) return;
    for (const Value& e : checked.find("errors")->asArray()) {
        std::string field = e.find("field")->asString();
        std::string name = field.substr(0, field.find_first_of(".["));
        auto it = r.producer.find(name);
        bool situation = it != r.producer.end() && it->second->origin == "situation";
        Value copy = Value::object();
        copy.set("field", Value::string((situation ? "run." : "inputs.") + field));
        copy.set("line", Value::null());
        copy.set("column", Value::null());
        copy.set("code", *e.find("code"));
        copy.set("message", Value::string((situation ? "run." : "inputs.") + e.find("message")->asString()));
        copy.set("detail", *e.find("detail"));
        r.errors.push_back(std::move(copy));
    }
}

Value finish(Reading& r, const Value& detected) {
    if (r.failed()) return failure(r.format, r.errors);
    // Inputs in the engine's table order.
    Value inputs = Value::object();
    for (const Field& f : inputFields().fields) {
        auto it = r.inputs.find(f.name);
        if (it != r.inputs.end()) inputs.set(f.name, it->second);
    }
    engineCheck(r, inputs);
    if (r.failed()) return failure(r.format, r.errors);
    Value fleet = fleetRequest(r);
    std::vector<const Entry*> order;
    for (const Entry& e : r.entries) order.push_back(&e);
    std::stable_sort(order.begin(), order.end(), [](const Entry* a, const Entry* b) {
        auto key = [](const Entry* e) {
            return std::make_pair(e->pos.line > 0 ? e->pos.line : std::numeric_limits<int>::max(), e->pos.column);
        };
        return key(a) < key(b);
    });
    Value report = Value::array();
    for (const Entry* e : order) report.push(entryValue(*e, r));
    for (const Field& f : inputFields().fields) {
        if (r.inputs.count(f.name)) continue;
        Value v = Value::object();
        v.set("path", Value::string(""));
        v.set("line", Value::null());
        v.set("column", Value::null());
        v.set("status", Value::string("engine-default"));
        v.set("origin", Value::string("engine"));
        v.set("approximated", Value::boolean(false));
        Value i = Value::object();
        i.set("name", Value::string(f.name));
        i.set("value", f.defaultValue.toValue());
        v.set("inputs", Value::array({i}));
        v.set("rule", Value::string("no source field sets it: the engine's default"));
        report.push(std::move(v));
    }
    Value out = Value::object();
    out.set("ok", Value::boolean(true));
    out.set("format", Value::string(r.format));
    if (!detected.isNull()) out.set("detected", detected);
    out.set("selection", r.selection);
    out.set("inputs", std::move(inputs));
    out.set("fleet", std::move(fleet));
    out.set("report", std::move(report));
    Value warnings = Value::array();
    for (Value& w : r.warnings) warnings.push(std::move(w));
    out.set("warnings", std::move(warnings));
    return out;
}

}  // namespace

const std::vector<std::string>& formatNames() { return kFormats; }
bool formatRead(const std::string& name) { return std::find(kFormats.begin(), kFormats.end(), name) != kFormats.end(); }

std::string formatTitle(const std::string& name) {
    if (name == "grpc") return "gRPC service config";
    if (name == "envoy") return "Envoy route";
    if (name == "istio") return "Istio VirtualService";
    if (name == "linkerd") return "Linkerd ServiceProfile";
    if (name == "aws") return "AWS shared config";
    if (name == "dotnet") return ".NET appsettings";
    return name;
}

Value read(const Text& text, const Options& o) {
    const bool automatic = o.from == "auto";
    if (!automatic && std::find(kFormats.begin(), kFormats.end(), o.from) == kFormats.end())
        return oneError("", "", "unknown-format",
                        "--from " + o.from + " is not a format (grpc, envoy, istio, linkerd, aws, dotnet or auto)");
    if (text.documents.empty()) return oneError("", "", "unknown-format", "the file holds no document");
    if (o.document > 0 && static_cast<std::size_t>(o.document) > text.documents.size())
        return oneError("", "", "no-match",
                        "--document " + std::to_string(o.document) + " selects nothing; the file holds " +
                            std::to_string(text.documents.size()) + " document(s)");
    // The document: --document N, else the first a rule accepts (auto) or the first.
    std::size_t index = o.document > 0 ? static_cast<std::size_t>(o.document - 1) : 0;
    std::string format = o.from, rule;
    if (automatic) {
        bool found = false;
        for (std::size_t i = (o.document > 0 ? index : 0); i < text.documents.size(); ++i) {
            auto [f, why] = detect(text.documents[i].value, text.syntax, o.hasEnv);
            if (!f.empty()) {
                index = i;
                format = f;
                rule = why;
                found = true;
                break;
            }
            if (o.document > 0) break;
        }
        if (!found) {
            const Value& first = text.documents[index].value;
            std::string kind;
            if (first.kind() == Value::Kind::Object && first.find("apiVersion") && first.find("kind") &&
                first.find("kind")->kind() == Value::Kind::String)
                kind = "; it is a Kubernetes " + first.find("kind")->asString() +
                       ", not a VirtualService or ServiceProfile";
            return oneError(
                "", "", "unknown-format",
                "--from auto: the file matches no format (tried grpc, envoy, istio, linkerd, aws, dotnet)" + kind);
        }
    }
    if (!formatRead(format))
        return oneError(
            format, "", "unknown-format",
            "the " + formatTitle(format) + " is specified in docs/config-in.md but not yet read by this build");
    const Document& doc = text.documents[index];
    Reading r(doc);
    r.format = format;
    // --from NAME: the format's own shape check (§3).
    if (format == "grpc" && !grpcShape(doc.value))
        return oneError(
            format, "", "not-the-format",
            "the file is not a gRPC service config: none of methodConfig, retryThrottling, loadBalancingConfig, "
            "loadBalancingPolicy, healthCheckConfig at the top (line 1)");
    if (format == "istio" &&
        !(doc.value.kind() == Value::Kind::Object && startsWith(doc.value.find("apiVersion"), "networking.istio.io/") &&
          isString(doc.value.find("kind"), "VirtualService")))
        return oneError(format, "", "not-the-format",
                        "the file is not an Istio VirtualService: apiVersion networking.istio.io/… and kind "
                        "VirtualService (line 1)");
    if (format == "linkerd" &&
        !(doc.value.kind() == Value::Kind::Object && startsWith(doc.value.find("apiVersion"), "linkerd.io/") &&
          isString(doc.value.find("kind"), "ServiceProfile")))
        return oneError(
            format, "", "not-the-format",
            "the file is not a Linkerd ServiceProfile: apiVersion linkerd.io/… and kind ServiceProfile (line 1)");
    if (format == "envoy" && envoyRule(doc.value).empty())
        return oneError(format, "", "not-the-format",
                        "the file is not an Envoy route: none of static_resources, virtual_hosts, (match and route) at "
                        "the top (line 1)");
    if (format == "aws" && text.syntax != "ini")
        return oneError(format, "", "not-the-format",
                        "the file is not an AWS shared config: its first line that is not blank or a comment is not a "
                        "[section] header (line 1)");
    if (format == "dotnet" && !((text.syntax == "json" || text.syntax == "jsonc") && dotnetCandidate(doc.value)))
        return oneError(format, "", "not-the-format",
                        "the file is not a .NET appsettings.json with resilience options: JSON with a section holding "
                        "Retry, AttemptTimeout, "
                        "TotalRequestTimeout, CircuitBreaker, RateLimiter, Hedging or Endpoint (line 1)");
    if (format != "aws" && text.syntax == "ini")
        return oneError(format, "", "not-the-format",
                        "the file is not a " + formatTitle(format) + ": it is an INI text (an AWS shared config)");
    // Options that do not apply to the format (§10.1).
    if (o.hasProfile && format != "aws") return oneError(format, "", "conflict", "--profile goes with --from aws only");
    if (o.hasSdk && format != "aws") return oneError(format, "", "conflict", "--sdk goes with --from aws only");
    if (o.hasEnv && format != "aws") return oneError(format, "", "conflict", "--env goes with --from aws only");
    if (o.hasSection && format != "dotnet")
        return oneError(format, "", "conflict", "--section goes with --from dotnet only");
    if (o.hasRoute && format == "dotnet")
        return oneError(format, "", "conflict", "--route does not go with --from dotnet (--section selects)");
    if (o.hasRoute && format == "aws")
        return oneError(format, "", "conflict", "--route does not go with --from aws (--profile selects)");
    if (o.hasMethod && format != "grpc") return oneError(format, "", "conflict", "--method goes with --from grpc only");
    if (o.hasImpl && format != "grpc") return oneError(format, "", "conflict", "--impl goes with --from grpc only");
    if (o.hasIstioDefault && format != "istio")
        return oneError(format, "", "conflict", "--istio-default goes with --from istio only");
    if (o.hasRoute && format == "grpc")
        return oneError(format, "", "conflict", "--route does not go with --from grpc (--method selects)");
    readSituation(r, o);
    if (format == "grpc")
        readGrpc(r, o);
    else if (format == "istio")
        readIstio(r, o);
    else if (format == "linkerd")
        readLinkerd(r, o);
    else if (format == "aws")
        readAws(r, o);
    else if (format == "dotnet")
        readDotnet(r, o);
    else
        readEnvoy(r, o);
    for (std::size_t i = 0; i < text.documents.size(); ++i)
        if (i != index) {
            Entry& e = r.entry("", "ignored");
            e.rule = "document " + std::to_string(i + 1);
            e.note = "another document of the stream, not read";
        }
    Value detected = Value::null();
    if (automatic) {
        detected = Value::object();
        detected.set("by", Value::string("auto"));
        detected.set("rule", Value::string(rule));
    }
    return finish(r, detected);
}

}  // namespace retrylab::config
