// Failure-boundary sweeps (issue 9): the seed's boundaries, found by the engine.
#include <catch2/catch.hpp>

#include "support.hpp"

using namespace retrylab;
using namespace retrylab::test;

namespace {
Value request(Value inputs, const char* vary, double from, double to, double points) {
    return obj(
        {{"inputs", inputs}, {"vary", str(vary)}, {"from", num(from)}, {"to", num(to)}, {"points", num(points)}});
}
}  // namespace

TEST_CASE("a deadline sweep over the opening run finds the second charge at 3,700 ms", "[sweep][seed]") {
    double points = GENERATE(101.0, 7.0, 1000.0);  // 3700 on the grid, off it, and the most points
    Value result = sweep(request(Value::object(), "deadlineMs", 3000, 4000, points));
    REQUIRE(result.find("ok")->asBool());
    const Value::Array& boundaries = result.find("boundaries")->asArray();
    REQUIRE(boundaries.size() == 1);
    CHECK(boundaries[0].find("value")->asNumber() == 3700);
    CHECK(boundaries[0].find("chargesBefore")->asNumber() == 1);
    CHECK(boundaries[0].find("chargesAfter")->asNumber() == 2);
    CHECK(boundaries[0].find("text")->asString() ==
          "a second charge, outcome success instead of unknown from a deadline of 3,700 ms");
    CHECK(result.find("points")->asArray().size() == static_cast<std::size_t>(points));
}

TEST_CASE("an outage sweep over maximum retries finds the boundary between 1 and 2", "[sweep][seed]") {
    Value result = sweep(request(obj({{"scenario", str("outage-503-twice")}}), "maxRetries", 0, 5, 6));
    const Value::Array& boundaries = result.find("boundaries")->asArray();
    REQUIRE(boundaries.size() == 2);
    CHECK(boundaries[0].find("value")->asNumber() == 1);  // two attempts instead of one, still failed
    CHECK(boundaries[0].find("text")->asString() == "2 attempts instead of 1 from 1 retry");
    CHECK(boundaries[1].find("value")->asNumber() == 2);
    CHECK(boundaries[1].find("text")->asString() == "a first charge, outcome success instead of failed from 2 retries");
    const Value::Array& points = result.find("points")->asArray();
    CHECK(points[1].find("elapsedMs")->asNumber() == 900);
    CHECK(points[2].find("elapsedMs")->asNumber() == 2100);
}

TEST_CASE("a whole-number sweep has one point per value at most", "[sweep]") {
    Value result = sweep(request(Value::object(), "maxRetries", 0, 3, 1000));
    CHECK(result.find("points")->asArray().size() == 4);
}

TEST_CASE("each sweep point is the run with that value", "[sweep]") {
    Value result = sweep(request(obj({{"scenario", str("outage-503-twice")}}), "clientTimeoutMs", 100, 3000, 30));
    for (const Value& point : result.find("points")->asArray()) {
        Inputs in;
        in.scenario = Scenario::Outage503Twice;
        in.clientTimeoutMs = point.find("value")->asNumber();
        Metrics m = simulate(in).metrics;
        REQUIRE(point.find("charges")->asNumber() == m.charges);
        REQUIRE(point.find("elapsedMs")->asNumber() == m.elapsedMs);
    }
}

TEST_CASE("a bad sweep request names its fields", "[sweep][validation]") {
    auto fields = [](const Value& result) {
        std::vector<std::string> out;
        for (const Value& e : result.find("errors")->asArray()) out.push_back(e.find("field")->asString());
        return out;
    };
    CHECK(fields(sweep(request(Value::object(), "seed", 0, 1, 2))) == std::vector<std::string>{"vary"});
    CHECK(fields(sweep(request(Value::object(), "maxRetries", 0, 101, 2))) == std::vector<std::string>{"to"});
    CHECK(fields(sweep(request(Value::object(), "deadlineMs", 0, 10, 1001))) == std::vector<std::string>{"points"});
    CHECK(fields(sweep(request(Value::object(), "deadlineMs", 10, 0, 5))) == std::vector<std::string>{"to"});
    CHECK(fields(sweep(request(obj({{"maxRetries", num(-1)}}), "deadlineMs", 0, 10, 5))) ==
          std::vector<std::string>{"inputs.maxRetries"});
    CHECK(fields(sweep(Value::array())) == std::vector<std::string>{""});
}

// docs/engine.md §3: a field the run does not read is refused, not swept to the same run at every point.
TEST_CASE(
    "a sweep refuses a field the run does not read: maxRetries or baseBackoffMs with A6's hedging, "
    "baseBackoffMs under a ceiling schedule; a per-try-timeout hedge reads every swept field",
    "[sweep][validation][hedging]") {
    auto errorOf = [](const Value& result) {
        REQUIRE(result.find("errors"));
        REQUIRE(result.find("errors")->asArray().size() == 1);
        const Value& e = result.find("errors")->asArray()[0];
        return e.find("field")->asString() + " " + e.find("code")->asString() + ": " + e.find("message")->asString();
    };
    auto ok = [](const Value& result) { return result.find("ok") && result.find("ok")->asBool(); };
    // §6.1's A6 timeline: its copies are hedging.maxAttempts; maxRetries stays 0.
    const Value a6 = obj({{"scenario", str("script")},
                          {"script", Value::array({obj({{"status", num(200)}})})},
                          {"responseMs", num(2000)},
                          {"clientTimeoutMs", num(5000)},
                          {"maxRetries", num(0)},
                          {"hedging", obj({{"maxAttempts", num(4)}, {"delayMs", num(500)}})}});
    const std::string retries = errorOf(sweep(request(a6, "maxRetries", 0, 5, 6)));
    CHECK(retries.rfind("vary conflict: vary cannot be \"maxRetries\" with gRPC A6's inputs.hedging", 0) == 0);
    CHECK(retries.find("inputs.hedging.maxAttempts") != std::string::npos);
    CHECK(errorOf(sweep(request(a6, "baseBackoffMs", 0, 500, 6))).rfind("vary conflict", 0) == 0);
    // The fields an A6 run reads still sweep: the response time moves the success.
    const Value byResponse = sweep(request(a6, "responseMs", 100, 6000, 3));
    REQUIRE(ok(byResponse));
    // The ceiling schedule: the base is read only by decorrelated jitter.
    const Value schedule = obj({{"ceilingScheduleMs", Value::array({num(100), num(200)})}});
    CHECK(errorOf(sweep(request(schedule, "baseBackoffMs", 0, 500, 6))).rfind("vary conflict", 0) == 0);
    Value decorrelated =
        obj({{"ceilingScheduleMs", Value::array({num(100), num(200)})}, {"jitter", str("decorrelated")}});
    CHECK(ok(sweep(request(decorrelated, "baseBackoffMs", 0, 500, 6))));
    // §8's per-try timeout reads maxRetries (its retries) and the backoff's base (its waits): the points differ.
    const Value perTry = obj({{"scenario", str("script")},
                              {"script", Value::array({obj({{"status", num(200)}})})},
                              {"responseMs", num(1500)},
                              {"maxRetries", num(2)},
                              {"clientTimeoutMs", num(1000)},
                              {"baseBackoffMs", num(25)},
                              {"jitter", str("none")},
                              {"deadlineMs", num(10000)},
                              {"hedging", obj({{"kind", str("per-try-timeout")}})}});
    const Value byRetries = sweep(request(perTry, "maxRetries", 0, 2, 3));
    REQUIRE(ok(byRetries));
    const auto& points = byRetries.find("points")->asArray();
    CHECK(points[0].find("charges")->asNumber() == 1);  // no retry left at the soft cutoff
    CHECK(points[1].find("charges")->asNumber() == 2);  // §8's figure: the hedge at 1,025 charges again
    const Value byBase = sweep(request(perTry, "baseBackoffMs", 0, 1000, 3));
    REQUIRE(ok(byBase));
    // A wait of 500 sends attempt 2 at 1,500, after attempt 1's 200 at the same instant: not sent, one charge.
    CHECK(byBase.find("points")->asArray()[1].find("charges")->asNumber() == 1);
    CHECK(byBase.find("points")->asArray()[0].find("charges")->asNumber() == 2);
}
