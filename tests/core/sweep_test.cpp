// Failure-boundary sweeps (issue 9): the seed's boundaries, found by the engine.
#include <catch2/catch.hpp>

#include "support.hpp"

using namespace retrylab;
using namespace retrylab::test;

namespace {
Value request(Value inputs, const char* vary, double from, double to, double points) {
    return obj({{"inputs", inputs}, {"vary", str(vary)}, {"from", num(from)}, {"to", num(to)}, {"points", num(points)}});
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
