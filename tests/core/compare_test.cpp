// Two results compared (docs/compare.md §2): the inputs that differ, the metrics' rows, and the
// row of the load through a stack (docs/compare.md §2.1, docs/layers.md §9.2). Every expected
// figure is worked by hand in docs/compare.md from the rules; none was read off the engine.
#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include "retrylab/compare_metrics.hpp"
#include "retrylab/engine.hpp"
#include "retrylab/fleet.hpp"
#include "support.hpp"

using namespace retrylab;
using namespace retrylab::test;

namespace {

// docs/layers.md §9.2's storm: 2 clients sending one request each at 0 ms, a server answering
// every attempt 500, no trigger, no waits; `key` and `value` the rest of the policy.
Value storm(const char* key, Value value) {
    Value policy = obj({{"baseBackoffMs", num(0)}, {"clientTimeoutMs", num(60000)}});
    policy.set(key, std::move(value));
    Value result = fleet(obj({{"clients", num(2)},
                              {"arrivals", str("once")},
                              {"trigger", Value::null()},
                              {"server", obj({{"failureRate", num(1)}})},
                              {"policy", policy}}));
    REQUIRE(result.find("ok")->asBool());
    return result;
}

Value layers(std::initializer_list<double> retries) {
    Value list = Value::array();
    for (double r : retries) list.push(obj({{"maxRetries", num(r)}}));
    return list;
}

const Value* rowNamed(const Value& comparison, std::string_view name) {
    for (const Value& row : comparison.find("metrics")->asArray())
        if (row.find("name")->asString() == name) return &row;
    return nullptr;
}

double number(const Value& row, const char* key) { return row.find(key)->asNumber(); }

// The names of the rows, in order.
std::string names(const Value& comparison) {
    std::string out;
    for (const Value& row : comparison.find("metrics")->asArray()) out += row.find("name")->asString() + " ";
    return out;
}

}  // namespace

TEST_CASE(
    "a stacked run against one layer of the same retries: the load through the stack is the same, the bottom layer's "
    "load is not",
    "[compare]") {
    const Value stacked = storm("layers", list({obj({{"name", str("agent")}, {"maxRetries", num(3)}}),
                                                obj({{"name", str("SDK")}, {"maxRetries", num(0)}})}));
    const Value flat = storm("maxRetries", num(3));
    const Value c = compareResults(stacked, flat, true);
    const Value* through = rowNamed(c, "totals.attemptsPerRequest");
    REQUIRE(through);
    CHECK(through->find("label")->asString() == "load through the stack");
    CHECK(number(*through, "before") == 4);  // 8 attempts ÷ 2 requests
    CHECK(number(*through, "after") == 4);   // no stack: its load, 8 ÷ 2 first attempts
    CHECK(number(*through, "delta") == 0);
    CHECK_FALSE(through->find("changed")->asBool());
    CHECK(through->find("flag")->isNull());
    const Value* load = rowNamed(c, "totals.load");
    REQUIRE(load);
    CHECK(number(*load, "before") == 1);  // 8 ÷ 8 bottom calls' first attempts
    CHECK(number(*load, "after") == 4);
    CHECK(number(*load, "delta") == 3);
    // Listed right after `load`.
    CHECK(names(c).find("totals.load totals.attemptsPerRequest totals.latencyMs.p50") != std::string::npos);
    // Either side holding the stack lists it: the other way round, the same figures swapped.
    const Value back = compareResults(flat, stacked, true);
    REQUIRE(rowNamed(back, "totals.attemptsPerRequest"));
    CHECK(number(*rowNamed(back, "totals.load"), "delta") == -3);
}

TEST_CASE("two stacks compared: the load through each, layers of 3 and 0 against 1, 2 and 0", "[compare]") {
    const Value two = storm("layers", layers({3, 0}));
    const Value three = storm("layers", layers({1, 2, 0}));
    const Value c = compareResults(two, three, true);
    const Value* through = rowNamed(c, "totals.attemptsPerRequest");
    REQUIRE(through);
    CHECK(number(*through, "before") == 4);
    CHECK(number(*through, "after") == 6);  // 2 × 3 × 1
    CHECK(number(*through, "delta") == 2);
    CHECK(through->find("changed")->asBool());
    CHECK(number(*rowNamed(c, "totals.load"), "before") == 1);
    CHECK(number(*rowNamed(c, "totals.load"), "after") == 1);
}

TEST_CASE("fleet runs without a stack list no row of the load through one", "[compare]") {
    const Value a = storm("maxRetries", num(3));
    const Value b = storm("maxRetries", num(0));
    const Value c = compareResults(a, b, true);
    CHECK_FALSE(rowNamed(c, "totals.attemptsPerRequest"));
    // Every other row of the service workload is listed: the table's fleet rows whose `when` is
    // "totals" (not the stack's, not the occ workload's "mean").
    std::size_t totals = 0;
    for (const CompareMetric& m : fleetCompareMetrics()) totals += std::string_view(m.when) == "totals" ? 1 : 0;
    CHECK(c.find("metrics")->asArray().size() == totals);
    // The one input that differs, by its dotted path; maxRetries 3 → 0: load 4 → 1.
    const Value& inputs = *c.find("inputs");
    REQUIRE(inputs.asArray().size() == 1);
    CHECK(inputs.asArray()[0].find("name")->asString() == "policy.maxRetries");
    CHECK(number(inputs.asArray()[0], "before") == 3);
    CHECK(number(inputs.asArray()[0], "after") == 0);
    CHECK(number(*rowNamed(c, "totals.load"), "after") == 1);
    CHECK(c.find("of")->asString() == "fleet");
}

TEST_CASE("a single run's comparison: its inputs by name, a changed outcome and side effect flagged", "[compare]") {
    // docs/compare.md §2's example: the defaults (maxRetries 3) charge twice and succeed;
    // without retries one charge and an unknown outcome.
    const Value before = compute(Value::object());
    const Value after = compute(obj({{"maxRetries", num(0)}}));
    const Value c = compareResults(before, after, false);
    CHECK(c.find("of")->asString() == "run");
    const Value& inputs = *c.find("inputs");
    REQUIRE(inputs.asArray().size() == 1);
    CHECK(inputs.asArray()[0].find("name")->asString() == "maxRetries");
    CHECK(number(inputs.asArray()[0], "before") == 3);
    CHECK(number(inputs.asArray()[0], "after") == 0);
    const Value* charges = rowNamed(c, "charges");
    REQUIRE(charges);
    CHECK(number(*charges, "before") == 2);
    CHECK(number(*charges, "after") == 1);
    CHECK(number(*charges, "delta") == -1);
    CHECK(charges->find("flag")->asString() == "side-effect");
    CHECK(c.find("sideEffectChanged")->asBool());
    CHECK(rowNamed(c, "outcome")->find("flag")->asString() == "outcome");
    CHECK(c.find("outcomeChanged")->asBool());
    // The same inputs: nothing differs, nothing flagged.
    const Value same = compareResults(before, before, false);
    CHECK(same.find("inputs")->asArray().empty());
    CHECK_FALSE(same.find("sideEffectChanged")->asBool());
    for (const Value& row : same.find("metrics")->asArray()) CHECK_FALSE(row.find("changed")->asBool());
}

TEST_CASE("one equality: objects equal in any member order, lists in theirs", "[compare]") {
    const Value pq = obj({{"p", Value::null()}, {"q", str("s")}});
    const Value a = obj({{"x", num(1)}, {"y", list({num(1), pq})}});
    const Value b = obj({{"y", list({num(1), obj({{"q", str("s")}, {"p", Value::null()}})})}, {"x", num(1)}});
    CHECK(sameJson(a, b));
    CHECK_FALSE(sameValue(a, b));  // the engine's own equality keeps the order
    CHECK_FALSE(sameJson(a, obj({{"x", num(1)}, {"y", list({pq, num(1)})}})));
    CHECK_FALSE(sameJson(a, obj({{"x", num(1)}, {"y", list({num(1), obj({{"p", Value::null()}})})}})));
    CHECK_FALSE(sameJson(a, obj({{"x", num(1)}, {"y", list({num(1), pq})}, {"z", num(0)}})));
    CHECK_FALSE(sameJson(num(1), str("1")));
    CHECK(sameJson(num(0), num(-0.0)));
}

TEST_CASE("the engine's entry: a request { before, after, of } of two ok results, or errors naming what is wrong",
          "[compare]") {
    const Value before = compute(Value::object());
    const Value after = compute(obj({{"maxRetries", num(0)}}));
    Value request = Value::object();
    request.set("before", before);
    request.set("after", after);
    const Value answer = compareResults(request);
    REQUIRE(answer.find("ok")->asBool());
    CHECK(answer.find("engine")->asString() == engineVersion());
    CHECK(sameJson(*answer.find("metrics"), *compareResults(before, after, false).find("metrics")));
    auto fields = [](const Value& v) {
        std::string out;
        if (v.find("ok")->asBool()) return std::string("ok");
        for (const Value& e : v.find("errors")->asArray())
            out += e.find("field")->asString() + ":" + e.find("code")->asString() + " ";
        return out;
    };
    Value fleetOf = request;
    fleetOf.set("of", Value::string("fleet"));  // two single runs are not fleet results
    CHECK(fields(compareResults(fleetOf)) == "before:wrong-type after:wrong-type ");
    Value odd = Value::object();
    odd.set("after", compute(obj({{"maxRetries", num(-1)}})));
    odd.set("of", Value::string("both"));
    odd.set("extra", Value::number(1));
    CHECK(fields(compareResults(odd)) == "extra:unknown-field of:not-a-choice before:required after:wrong-type ");
    CHECK(fields(compareResults(Value::array())) == ":wrong-type ");
}
