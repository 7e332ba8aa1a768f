// The readers' shared parts (docs/config-in.md §2): the report being built, typed reads of
// source fields with §2.6's errors, durations (§2.2), unknown keys (§2.3). Each format's reader
// (config_grpc.cpp, config_envoy.cpp) fills a Reading; config_read.cpp finishes it.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "retrylab/config.hpp"
#include "retrylab/value.hpp"

namespace retrylab::config::detail {

// One report entry (§2.5).
struct Entry {
    std::string path;
    Position pos;
    std::string status;  // read, defaulted, clamped, not-modelled, ignored, set, engine-default
    std::string origin;  // source, situation, preset, engine
    Value source;
    bool hasSource = false;
    bool approximated = false;
    std::vector<std::string> inputs;  // the engine inputs it became ("fleet.policy.x" for the fleet)
    std::string rule, cite, note;
};

class Reading {
public:
    explicit Reading(const Document& document) : doc(document) {}
    const Document& doc;

    Position at(const std::string& path) const;
    static std::string lineWords(Position p);  // " (line 9)" or ""

    // §2.6: `message` is the whole sentence but the line, which is added.
    void error(const std::string& path, const std::string& code, const std::string& message);
    // The same for a field with no position of its own (a missing one): at `where`'s.
    void errorAt(const std::string& path, const std::string& where, const std::string& code,
                 const std::string& message);
    bool failed() const { return !errors.empty(); }
    void warn(const std::string& path, const std::string& message);

    // A new entry at `path` (its position looked up), and the inputs it writes.
    Entry& entry(const std::string& path, const std::string& status, const std::string& origin = "source");
    void input(Entry& e, const std::string& name, Value value);
    // A fleet member (a gate's) that is not the copy of an input: named by the entry.
    void fleetMember(Entry& e, const std::string& path, Value value);
    // An `ignored` entry for a subtree not read.
    void ignore(const std::string& path, const std::string& note);

    // Typed reads (§2.2): nullopt and an error when the value is not of the type.
    std::optional<double> whole(const std::string& path, const Value& v);
    std::optional<double> number(const std::string& path, const Value& v);
    std::optional<bool> boolean(const std::string& path, const Value& v);
    std::optional<std::string> string(const std::string& path, const Value& v);
    const Value* object(const std::string& path, const Value& v);
    const Value* list(const std::string& path, const Value& v);
    // A protobuf JSON duration (§2.2 `proto-json`), as whole nanoseconds.
    std::optional<std::int64_t> protoDuration(const std::string& path, const Value& v, const std::string& example);
    // Every key of `obj` must be one of `known` (§2.3), else `unknown-field` with a did-you-mean.
    void checkKeys(const std::string& path, const Value& obj, const std::vector<std::string>& known,
                   const std::string& what);

    std::map<std::string, Value> inputs;
    std::map<std::string, Entry*> producer;    // input name -> the entry that wrote it
    std::map<std::string, Value> fleetGates;   // "throttle" -> the gate object
    std::optional<double> fleetMaxRetries;     // the fleet's maxRetries where it is not the single run's (Linkerd)
    std::map<std::string, Value> fleetValues;  // "fleet.policy.maxRetries" -> its value, for the report
    std::deque<Entry> entries;
    std::vector<Value> errors;
    std::vector<Value> warnings;
    Value selection = Value::object();
    std::string format;
    // Positions of values from a second text (AWS's environment, §8.1: "env.NAME").
    std::map<std::string, Position> extraPositions;
};

// A new entry at `path` for the source value `v`: its status, the rule applied and where it is cited.
Entry& sourced(Reading& r, const std::string& path, const Value& v, const std::string& status, const std::string& rule,
               const std::string& cite);
// Envoy's back-off rule (backoffMultiplier 2, jitter full: the envoy preset), which Envoy's readings
// and Istio's (its proxy is Envoy) both state (config_envoy.cpp).
void envoyBackOffRule(Reading& r);

std::string join(const std::string& path, const std::string& key);
std::string indexed(const std::string& path, std::size_t i);
// The closest of `names` to `name` within edit distance 2 (Levenshtein over code points; ties by
// the list's order), or "".
std::string closest(const std::string& name, const std::vector<std::string>& names);
// A value as written, for a message: "the string \"4\"", "3", "a list".
std::string shown(const Value& v);
// ⌊ns / 10^6⌋ and ns / 10^6.
double floorMs(std::int64_t ns);
double exactMs(std::int64_t ns);
std::string grouped(double n);  // 86400000 -> "86,400,000"

// §5.2's conditions, shared by the Envoy and Istio readers.
struct Conditions {
    bool timeout = false, fiveXX = false, codesWanted = false;
    std::set<int> statuses;
    std::vector<std::string> unmodelled;
};
const std::vector<std::string>& envoyConditions();
void addCondition(Conditions& c, const std::string& condition);  // a condition envoyConditions() holds
// retryOn and retryOnStatuses on `e`, and a not-modelled entry at `at` for each other condition.
void writeConditions(Reading& r, Entry& e, const std::string& at, const Conditions& c);
// Go's time.ParseDuration (§2.2 `go`): whole nanoseconds, or nullopt and an error.
std::optional<std::int64_t> goDuration(Reading& r, const std::string& path, const Value& v, const std::string& example);

// .NET's TimeSpan.Parse, invariant culture (§2.2 `timespan`): ticks of 100 ns, or false.
bool parseTimespan(const std::string& text, std::int64_t& ticks);

// The readers.
void readGrpc(Reading& r, const Options& options);
void readEnvoy(Reading& r, const Options& options);
void readIstio(Reading& r, const Options& options);
void readLinkerd(Reading& r, const Options& options);
void readAws(Reading& r, const Options& options);
void readDotnet(Reading& r, const Options& options);
// The shape checks of §3 (`--from NAME` and auto detection's rule name, "" when none holds).
bool grpcShape(const Value& v);
std::string envoyRule(const Value& v);

constexpr double kMaxMs = 86400000;

}  // namespace retrylab::config::detail
