// The config readers in the core (docs/config-in.md §2, §4, §5), given documents as a binding
// gives them: the same answers natively and in WebAssembly (this file runs in both builds).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "retrylab/config.hpp"

#include "../../core/src/config_read.hpp"

using namespace retrylab;

namespace {

// A single Envoy route whose retry_policy has `key: value` (a string).
config::Text envoyRoute(const std::string& key, Value value) {
    Value policy = Value::object();
    policy.set("retry_on", Value::string("5xx"));
    policy.set(key, std::move(value));
    Value action = Value::object();
    action.set("cluster", Value::string("c"));
    action.set("retry_policy", std::move(policy));
    Value route = Value::object();
    route.set("match", Value::object());
    route.set("route", std::move(action));
    config::Document doc;
    doc.value = std::move(route);
    doc.positions["route.retry_policy." + key] = {7, 5};
    return config::Text{{doc}, "yaml"};
}

Value readEnvoy(const config::Text& text) {
    config::Options o;
    o.from = "envoy";
    return config::read(text, o);
}

std::string firstCode(const Value& answer) {
    const Value* errors = answer.find("errors");
    if (!errors || errors->asArray().empty()) return "";
    return errors->asArray().front().find("code")->asString();
}

}  // namespace

TEST_CASE("proto-json durations: whole nanoseconds, then one division (§2.2)", "[config]") {
    auto ms = [](const char* text) {
        Value a = readEnvoy(envoyRoute("per_try_timeout", Value::string(text)));
        REQUIRE(a.find("ok")->asBool());
        return a.find("inputs")->find("clientTimeoutMs")->asNumber();
    };
    CHECK(ms("1.5s") == 1500);
    CHECK(ms("0.1s") == 100);
    CHECK(ms("0.5s") == 500);
    CHECK(ms("2s") == 2000);
    // Envoy truncates to whole ms: ⌊1,999,999 ns / 10⁶⌋ = 1.
    CHECK(ms("0.001999999s") == 1);
    // 0s: no per-try timeout, the engine's largest.
    CHECK(ms("0s") == 86400000);
    CHECK(ms("86400s") == 86400000);
}

TEST_CASE("text that is not a proto-json duration is bad-duration, a negative one out-of-range", "[config]") {
    const char* bad = GENERATE("25ms", "1m", "5", "", "1.s", ".5s", "1.1234567891s", "+1s", "1 s", "1S");
    CAPTURE(bad);
    CHECK(firstCode(readEnvoy(envoyRoute("per_try_timeout", Value::string(bad)))) == "bad-duration");
    CHECK(firstCode(readEnvoy(envoyRoute("per_try_timeout", Value::string("-1s")))) == "out-of-range");
    CHECK(firstCode(readEnvoy(envoyRoute("per_try_timeout", Value::string("315576000001s")))) == "out-of-range");
    CHECK(firstCode(readEnvoy(envoyRoute("per_try_timeout", Value::number(1)))) == "wrong-type");
}

TEST_CASE("a value beyond an engine bound is clamped and reported, never an error (§2.2)", "[config]") {
    Value a = readEnvoy(envoyRoute("per_try_timeout", Value::string("90000s")));
    REQUIRE(a.find("ok")->asBool());
    CHECK(a.find("inputs")->find("clientTimeoutMs")->asNumber() == 86400000);
    bool clamped = false;
    for (const Value& e : a.find("report")->asArray())
        if (e.find("path")->asString() == "route.retry_policy.per_try_timeout") clamped = e.find("status")->asString() == "clamped";
    CHECK(clamped);
}

TEST_CASE("did-you-mean: the closest known name within two edits, ties by the table's order", "[config]") {
    using config::detail::closest;
    const std::vector<std::string> names = {"num_retries", "retry_on", "per_try_timeout"};
    CHECK(closest("num_retires", names) == "num_retries");
    CHECK(closest("retry_om", names) == "retry_on");
    CHECK(closest("num_retry", names).empty());  // three edits
    CHECK(closest("ab", {"aa", "bb"}) == "aa");
    // Code points, not bytes: one edit.
    CHECK(closest("µs", {"us", "ms"}) == "us");
}

TEST_CASE("every input is named by exactly one report entry (§2.5)", "[config]") {
    Value a = readEnvoy(envoyRoute("num_retries", Value::number(3)));
    REQUIRE(a.find("ok")->asBool());
    std::vector<std::string> named;
    for (const Value& e : a.find("report")->asArray()) {
        if (e.find("status")->asString() == "engine-default") continue;
        for (const Value& i : e.find("inputs")->asArray())
            if (i.find("name")->asString().rfind("fleet.", 0) != 0) named.push_back(i.find("name")->asString());
    }
    std::vector<std::string> keys;
    for (const Value::Member& m : a.find("inputs")->asObject()) keys.push_back(m.key);
    std::sort(named.begin(), named.end());
    std::sort(keys.begin(), keys.end());
    CHECK(named == keys);
    CHECK(a.find("inputs")->find("maxRetries")->asNumber() == 3);
}
