// docs/fleet.md "The capacity in each bin": each bin's `capacity`, the attempts the servers could
// finish in it with every worker busy at the service times in force at its start. The figures are
// the doc's, worked by hand; the relations hold on the many-servers figures of docs/servers.md §12.
#include <catch2/catch.hpp>

#include <vector>

#include "fleet_support.hpp"
#include "retrylab/fleet.hpp"

using namespace retrylab;
using namespace retrylab::test;

namespace {

// Each bin's capacity (null as −1).
std::vector<double> capacities(const Value& raw) {
    const Value result = fleet(raw);
    REQUIRE(result.find("ok")->asBool());
    std::vector<double> out;
    for (const Value& b : result.find("timeline")->find("bins")->asArray()) {
        const Value* c = b.find("capacity");
        REQUIRE(c);
        out.push_back(c->isNull() ? -1 : c->asNumber());
    }
    return out;
}

Value indices(std::initializer_list<double> xs) {
    Value out = Value::array();
    for (double x : xs) out.push(num(x));
    return out;
}

}  // namespace

TEST_CASE("capacity, the opening run: 10 workers of 50 ms are 200 a bin, 50 in the ×4 slowdown, 200 from its end",
          "[fleet][capacity]") {
    const std::vector<double> c = capacities(Value::object());
    REQUIRE(c.size() > 21);
    for (std::size_t b = 0; b < c.size(); ++b) {
        INFO("bin " << b);
        CHECK(c[b] == (b >= 10 && b < 20 ? 50 : 200));
    }
}

TEST_CASE("capacity over three servers: an override, a log-normal's mean, a slowdown on one, a crash on another",
          "[fleet][capacity][servers]") {
    Value overrides = Value::array();
    overrides.push(request({{"index", num(1)}, {"workers", num(4)}, {"serviceMs", num(100)}}));
    overrides.push(request({{"index", num(2)}, {"serviceDist", str("lognormal")}}));
    Value faults = Value::array();
    faults.push(
        request({{"kind", str("crash")}, {"servers", indices({0})}, {"startMs", num(1500)}, {"endMs", num(2500)}}));
    const Value raw = request({{"clients", num(5)},
                               {"durationMs", num(3000)},
                               {"binMs", num(500)},
                               {"servers.count", num(3)},
                               {"servers.overrides", overrides},
                               {"server.serviceMsPerInFlight", num(2)},
                               {"trigger.kind", str("slowdown")},
                               {"trigger.factor", num(2)},
                               {"trigger.startMs", num(1000)},
                               {"trigger.endMs", num(2000)},
                               {"trigger.servers", indices({1})},
                               {"faults", faults}});
    const std::vector<double> c = capacities(raw);
    REQUIRE(c.size() >= 6);
    // 5,000 / 70 + 2,000 / 108 + 5,000 / (50 × exp(0.5) + 20), summed from server 0.
    CHECK(c[0] == 138.7580245677014);
    CHECK(c[1] == 138.7580245677014);
    CHECK(c[2] == 129.49876530844216);  // server 1 at half speed
    CHECK(c[3] == 58.07019387987072);   // and server 0 down
    CHECK(c[4] == 67.32945313912998);   // the slowdown over, the crash not
    for (std::size_t b = 5; b < c.size(); ++b) CHECK(c[b] == 138.7580245677014);
}

TEST_CASE("capacity with no worker limit: null (unbounded) while the server is up, 0 while an outage has it down",
          "[fleet][capacity]") {
    const std::vector<double> c = capacities(request({{"server.workers", Value::null()},
                                                      {"trigger.kind", str("outage")},
                                                      {"trigger.startMs", num(10000)},
                                                      {"trigger.endMs", num(20000)}}));
    REQUIRE(c.size() > 21);
    for (std::size_t b = 0; b < c.size(); ++b) {
        INFO("bin " << b);
        CHECK(c[b] == (b >= 10 && b < 20 ? 0 : -1));
    }
}

TEST_CASE("capacity: K identical replicas are K times one; a server's crash takes away exactly its share",
          "[fleet][capacity][servers][property]") {
    for (double k : {1.0, 2.0, 7.0}) {
        INFO("K = " << k);
        const std::vector<double> one = capacities(request({{"durationMs", num(30000)}}));
        const std::vector<double> many = capacities(request({{"durationMs", num(30000)}, {"servers.count", num(k)}}));
        Value faults = Value::array();
        faults.push(
            request({{"kind", str("crash")}, {"servers", indices({0})}, {"startMs", num(2000)}, {"endMs", num(4000)}}));
        const std::vector<double> crash = capacities(request(
            {{"durationMs", num(30000)}, {"servers.count", num(k)}, {"trigger", Value::null()}, {"faults", faults}}));
        // 200 a bin a server (its slowdown ×4: 50), the sums exact.
        CHECK(many[0] == k * one[0]);
        CHECK(many[15] == k * one[15]);
        CHECK(crash[3] == (k - 1) * one[0]);
        CHECK(crash[4] == k * one[0]);
    }
}
