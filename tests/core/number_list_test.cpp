// A list of numbers kept as one block (Value::numbers(), issue 18): the bindings read an input's
// all-number lists that way (the draws: up to 100,000), and the core must give exactly what it
// gives for the same list made item by item, results, echoes and error messages alike.
#include <cmath>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "support.hpp"

using namespace retrylab;
using namespace retrylab::test;

namespace {

Value itemByItem(const std::vector<double>& xs) {
    Value::Array items;
    for (double x : xs) items.push_back(num(x));
    return Value::array(std::move(items));
}

// The opening run with full jitter: every wait takes a draw, so the draws decide the run.
Value jittered(Value draws) {
    Value in = obj({{"jitter", str("full")}, {"maxRetries", num(5)}, {"scenario", str("outage-503-twice")}});
    in.set("draws", std::move(draws));
    return in;
}

}  // namespace

TEST_CASE("a list of numbers held as one block is the same list as one made item by item", "[value][number-list]") {
    const std::vector<double> xs = {0.25, 1, 0, 0.5};
    const Value block = Value::numbers(xs);
    const Value items = itemByItem(xs);
    CHECK(block.kind() == Value::Kind::Array);
    CHECK(block.isNumberList());
    CHECK_FALSE(items.isNumberList());
    CHECK(block.listSize() == xs.size());
    CHECK(sameValue(block, items));
    CHECK(sameValue(items, block));
    CHECK(sameValue(block, Value::numbers(xs)));
    // Its items, for a reader that walks them as Values.
    REQUIRE(block.asArray().size() == xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) CHECK(block.asArray()[i].asNumber() == xs[i]);
    // One number different, one more or one fewer: not the same list.
    CHECK_FALSE(sameValue(block, Value::numbers({0.25, 1, 0, 0.75})));
    CHECK_FALSE(sameValue(block, itemByItem({0.25, 1, 0})));
    CHECK_FALSE(sameValue(block, Value::numbers({0.25, 1, 0, 0.5, 0.5})));
    // A copy is the same list; an item pushed onto one makes a longer list of Values.
    Value longer = block;
    longer.push(str("x"));
    CHECK(sameValue(block, items));
    CHECK(longer.listSize() == xs.size() + 1);
    CHECK_FALSE(longer.isNumberList());
    CHECK(longer.asArray().back().asString() == "x");
    CHECK(longer.asArray()[1].asNumber() == 1);
}

TEST_CASE("draws given as one block give the run, the echo and the sweep they give item by item",
          "[value][number-list]") {
    const std::vector<double> draws = {0.9, 0.1, 0.5, -0.0, 1, 0.999999, 0.3};
    const Value a = compute(jittered(Value::numbers(draws)));
    const Value b = compute(jittered(itemByItem(draws)));
    REQUIRE(a.find("ok")->asBool());
    CHECK(sameValue(a, b));
    // The echo reads -0 as 0, as it does item by item.
    const Value& echoed = *a.find("inputs")->find("draws");
    REQUIRE(echoed.listSize() == draws.size());
    CHECK_FALSE(std::signbit(echoed.asArray()[3].asNumber()));

    auto request = [](Value inputs) {
        return obj({{"inputs", std::move(inputs)},
                    {"vary", str("baseBackoffMs")},
                    {"from", num(0)},
                    {"to", num(5000)},
                    {"points", num(41)}});
    };
    const Value sa = sweep(request(jittered(Value::numbers(draws))));
    const Value sb = sweep(request(jittered(itemByItem(draws))));
    REQUIRE(sa.find("ok")->asBool());
    CHECK(sameValue(sa, sb));
}

TEST_CASE("bad draws given as one block are named exactly as item by item", "[value][number-list][validation]") {
    // Out of range, not finite, too many: each list in both forms gives the same errors, word for word.
    std::vector<double> bad(30, 0.5);
    bad[3] = 2;
    bad[7] = -0.5;
    bad[12] = std::nan("");
    for (std::size_t i = 15; i < 30; ++i) bad[i] = 1.5;  // more than ten bad items: the rest counted
    const std::vector<std::vector<double>> lists = {bad, std::vector<double>(100001, 0.5), {INFINITY}};
    for (const std::vector<double>& xs : lists) {
        const Value a = validate(jittered(Value::numbers(xs)));
        const Value b = validate(jittered(itemByItem(xs)));
        INFO(xs.size() << " draws");
        CHECK_FALSE(a.find("ok")->asBool());
        CHECK(sameValue(a, b));
        CHECK(a.find("errors")->asArray().front().find("field")->asString().rfind("draws", 0) == 0);
    }
    // A list of numbers where the table wants other things (retryOn's class names) is refused
    // by the item as before.
    Value in = Value::object();
    in.set("retryOn", Value::numbers({429}));
    Value item = Value::object();
    item.set("retryOn", itemByItem({429}));
    CHECK(sameValue(validate(in), validate(item)));
    CHECK_FALSE(validate(in).find("ok")->asBool());
}
