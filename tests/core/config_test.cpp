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
        if (e.find("path")->asString() == "route.retry_policy.per_try_timeout")
            clamped = e.find("status")->asString() == "clamped";
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

namespace {

// An AWS shared config as the binding gives it (§8.1): sections of strings, each key at a line.
config::Text awsConfig(const std::string& section, const std::vector<std::pair<std::string, std::string>>& keys) {
    Value values = Value::object();
    config::Document doc;
    doc.positions[section] = {1, 1};
    int line = 2;
    for (const auto& [k, v] : keys) {
        values.set(k, Value::string(v));
        doc.positions[section + "." + k] = {line++, 1};
    }
    Value file = Value::object();
    file.set(section, std::move(values));
    doc.value = std::move(file);
    return config::Text{{doc}, "ini"};
}

Value readAws(const config::Text& text, const std::string& sdk = "", const std::string& profile = "") {
    config::Options o;
    o.from = "aws";
    if (!sdk.empty()) o.sdk = sdk, o.hasSdk = true;
    if (!profile.empty()) o.profile = profile, o.hasProfile = true;
    return config::read(text, o);
}

}  // namespace

TEST_CASE("AWS: max_attempts counts every attempt, min(v, 101) − 1 retries, as Python's int() reads text (§8.3)",
          "[config]") {
    auto retries = [](const char* text) {
        Value a = readAws(awsConfig("default", {{"max_attempts", text}}));
        REQUIRE(a.find("ok")->asBool());
        return a.find("inputs")->find("maxRetries")->asNumber();
    };
    CHECK(retries("1") == 0);
    CHECK(retries("10") == 9);
    CHECK(retries(" 1_0 ") == 9);
    CHECK(retries("101") == 100);
    CHECK(retries("99999999999999999999999") == 100);  // clamped, never overflowing
    for (const char* bad : {"", "ten", "1__0", "_1", "1_", "1.5", "0x10"}) {
        CAPTURE(bad);
        CHECK(firstCode(readAws(awsConfig("default", {{"max_attempts", bad}}))) == "wrong-type");
    }
    CHECK(firstCode(readAws(awsConfig("default", {{"max_attempts", "0"}}))) == "out-of-range");
    CHECK(firstCode(readAws(awsConfig("default", {{"max_attempts", "-3"}}))) == "out-of-range");
}

TEST_CASE(
    "AWS: retry_mode picks the (SDK, mode) pair's preset; [profile NAME] is a profile, [NAME] is not (§8.2, §8.3)",
    "[config]") {
    Value legacy = readAws(awsConfig("profile batch", {{"retry_mode", "legacy"}}), "botocore-1.43", "batch");
    REQUIRE(legacy.find("ok")->asBool());
    // aws-botocore-legacy: 5 attempts, 1 s base, no cap, 509 retried; no quota gate.
    CHECK(legacy.find("inputs")->find("maxRetries")->asNumber() == 4);
    CHECK(legacy.find("inputs")->find("baseBackoffMs")->asNumber() == 1000);
    CHECK(legacy.find("inputs")->find("maxBackoffMs")->isNull());
    CHECK(legacy.find("inputs")->find("retryOnStatuses")->asArray().size() == 5);
    CHECK(legacy.find("fleet")->find("gates") == nullptr);
    CHECK(firstCode(readAws(awsConfig("batch", {{"retry_mode", "legacy"}}), "", "batch")) == "no-match");
    CHECK(firstCode(readAws(awsConfig("default", {{"retry_mode", "Standard"}}))) == "not-a-choice");
}

TEST_CASE(".NET timespan: TimeSpan.Parse's shapes and bounds, in ticks of 100 ns (§2.2)", "[config]") {
    auto ticks = [](const char* text) {
        std::int64_t t = -1;
        REQUIRE(config::detail::parseTimespan(text, t));
        return t;
    };
    const std::int64_t second = 10000000;
    CHECK(ticks("00:00:02") == 2 * second);
    CHECK(ticks("00:00:00.5") == second / 2);
    CHECK(ticks("1.00:00:00") == 86400 * second);
    CHECK(ticks("00:02") == 120 * second);    // h:m: two minutes
    CHECK(ticks("2") == 2 * 86400 * second);  // d: two days
    CHECK(ticks("  00:00:01  ") == second);
    CHECK(ticks("-00:00:01") == -second);
    CHECK(ticks("1:2:.5") == (3600 + 120) * second + second / 2);                  // h:m:.f
    CHECK(ticks("1.2:3:4.25") == (86400 + 7200 + 180 + 4) * second + second / 4);  // d.h:m:s.f
    CHECK(ticks("1.2:3:.1") == (86400 + 7200 + 180) * second + second / 10);       // d.h:m:.f
    CHECK(ticks("0:0:0.1234567") == 1234567);
    // More than 7 digits only after leading zeros, rounded half away from zero to 7.
    CHECK(ticks("0:0:0.000000051") == 1);
    CHECK(ticks("0:0:0.000000049") == 0);
    CHECK(ticks("0:0:0.012345675") == 123457);
    CHECK(ticks("10675199.02:48:05.4775807") == 9223372036854775807LL);  // TimeSpan.MaxValue
    std::int64_t t = 0;
    for (const char* bad : {"",
                            "-",
                            "1sec",
                            "2s",
                            "00:60",
                            "24:00:00",
                            "0:0:60",
                            "1:2:3:4",
                            "1.2",
                            "0:0:0.12345678",
                            "10675200",
                            "268435456:00",
                            "10675199.02:48:05.4775808",
                            "10675199.23:59:59",
                            "1::2",
                            ":1",
                            "1:",
                            "00:00:02.",
                            "+1",
                            "1,5"}) {
        CAPTURE(bad);
        CHECK_FALSE(config::detail::parseTimespan(bad, t));
    }
}
