// docs/throttling.md §6 (issue 34): gRPC A6's hedging in the fleet (`policy.hedging`). A6's
// worked timeline and the section's figures worked by hand, the closed form of the hedged
// fraction and the p99 with its sampling error argued, and the validation and echo.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "fleet_support.hpp"
#include "retrylab/fleet.hpp"

using namespace retrylab;
using namespace retrylab::test;

namespace {

Hedging hedging(int maxAttempts, double delayMs, std::vector<std::string> nonFatal) {
    Hedging h;
    h.maxAttempts = maxAttempts;
    h.delayMs = delayMs;
    for (const std::string& c : nonFatal) {
        if (c == "timeout") h.nonFatalTimeout = true;
        if (c == "5xx") h.nonFatal5xx = true;
        if (c == "429") h.nonFatal429 = true;
    }
    h.nonFatal = std::move(nonFatal);
    return h;
}

// One client at 0, legs of `legMs`, no worker limit, maxRetries 0 (a hedging policy's).
FleetRequest hedgedOnce(double legMs) {
    FleetRequest q = oneClientOnce();
    q.network.ms = legMs;
    q.server.workers.reset();
    q.policy.maxRetries = 0;
    return q;
}

}  // namespace

TEST_CASE("§6's A6 timeline: copies at 0, 500, 1,000 and 1,500; copy 1's 200 at 2,000 ends the request; the other "
          "three are served and answered late: 4 charges, 3 duplicates (with a key: 1 charge, 3 replays)",
          "[fleet][hedging]") {
    FleetRequest q = hedgedOnce(0);
    q.server.serviceMs = 2000;
    q.policy.clientTimeoutMs = 5000;
    q.policy.hedging = hedging(4, 500, {});
    FleetTrace trace;
    const ServiceResult r = simulateService(q, &trace);
    CHECK(sendTimes(trace) == std::vector<double>{0, 500, 1000, 1500});
    CHECK(r.totals.succeeded == 1);
    CHECK(r.totals.latencyMs->max == 2000);
    CHECK(r.totals.attempts == 4);
    CHECK(r.totals.retries == 3);
    CHECK(r.totals.served == 4);
    CHECK(r.totals.late == 3);                 // at 2,500, 3,000, 3,500
    CHECK(r.totals.wastedServiceMs == 6000);   // three services of 2,000
    CHECK(r.totals.charges == 4);
    CHECK(r.totals.duplicateCharges == 3);
    CHECK(r.totals.endMs == 3500);
    q.idempotencyKey = true;
    const ServiceResult keyed = simulateService(q);
    CHECK(keyed.totals.charges == 1);
    CHECK(keyed.totals.replays == 3);
}

TEST_CASE("§6's copies: a non-fatal failure sends the next copy at once and the one after delayMs from it; a fatal "
          "one ends the request; every copy failed and none left is attempt-limit", "[fleet][hedging]") {
    SECTION("at once, then delayMs from that copy") {
        // An outage [0, 6): copy 1 reaches the server at 5, 503, at the client at 10 (5xx, non-fatal): copy 2 at
        // once, at 10 (served 15–215, 200 at 220); copy 3 delayMs after copy 2, at 110 (not 100, after copy 1),
        // served 115–315, its 200 at 320 late.
        FleetRequest q = hedgedOnce(5);
        q.server.serviceMs = 200;
        q.trigger = Trigger{TriggerKind::Outage, 0, 6, 1};
        q.policy.hedging = hedging(3, 100, {"5xx"});
        FleetTrace trace;
        const ServiceResult r = simulateService(q, &trace);
        CHECK(sendTimes(trace) == std::vector<double>{0, 10, 110});
        CHECK(r.totals.succeeded == 1);
        CHECK(r.totals.latencyMs->max == 220);
        CHECK(r.totals.charges == 2);
        CHECK(r.totals.late == 1);
        CHECK(r.totals.endMs == 320);
    }
    SECTION("every copy fails: attempt-limit at the last failure; a fatal class ends it at the first") {
        // Every service fails (500 at 60, 120, 180): copies at 0, 60 and 120, each at once after the last;
        // the delayed sends (at 1,000 and later) never happen: attempt-limit at 180.
        FleetRequest q = hedgedOnce(5);
        q.server.failureRate = 1;
        q.policy.hedging = hedging(3, 1000, {"5xx"});
        FleetTrace trace;
        const ServiceResult r = simulateService(q, &trace);
        CHECK(sendTimes(trace) == std::vector<double>{0, 60, 120});
        CHECK(failed(r, EndReason::AttemptLimit) == 1);
        CHECK(r.totals.endMs == 180);
        // nonFatal []: the 500 at 60 ends the request not-retryable; copy 2 (due at 1,000) is not sent.
        q.policy.hedging = hedging(3, 1000, {});
        FleetTrace fatal;
        const ServiceResult f = simulateService(q, &fatal);
        CHECK(sendTimes(fatal) == std::vector<double>{0});
        CHECK(failed(f, EndReason::NotRetryable) == 1);
        CHECK(f.totals.endMs == 60);
    }
    SECTION("a gate's refusal means no further copy, not the end of the request") {
        // A fleet quota of 5, a retry costing 5: copy 2 at 500 pays it (0); copy 3 at 1,000 is refused; copy 1's 200
        // at 2,000 ends the request, giving back copy 2's cost: 5. Copy 2's 200 at 2,500 is late.
        FleetRequest q = hedgedOnce(0);
        q.server.serviceMs = 2000;
        q.policy.clientTimeoutMs = 5000;
        q.policy.hedging = hedging(3, 500, {});
        q.gates.quota = QuotaGate{GateScope::Fleet, 5, 5, 10, 1};
        FleetTrace trace;
        const ServiceResult r = simulateService(q, &trace);
        CHECK(sendTimes(trace) == std::vector<double>{0, 500, 1000});  // the third send is the refused one
        CHECK(r.totals.attempts == 2);
        CHECK(r.totals.succeeded == 1);
        CHECK(r.totals.latencyMs->max == 2000);
        CHECK(*r.bins.back().tokens == 5);
        // Every service failing, 5xx non-fatal: the refusal at 1,000 leaves copy 1 (500 at 2,000) and copy 2 (500
        // at 2,500) in flight; the request ends when the last of them fails: attempt-limit at 2,500.
        q.server.failureRate = 1;
        q.policy.hedging = hedging(3, 500, {"5xx"});
        FleetTrace failing;
        const ServiceResult f = simulateService(q, &failing);
        // 2,000: copy 1 fails, no copy is left to send (stopped at 1,000), copy 2 is in flight: not yet.
        CHECK(failed(f, EndReason::AttemptLimit) == 1);
        REQUIRE(failing.ends.size() == 1);
        CHECK(failing.ends[0].tMs == 2500);
    }
}

TEST_CASE("§6's closed form: legs exponential(5), no queue, a hedge 20 ms after the first copy: the hedged fraction is "
          "e^−4 × 5 = 0.09158, and p99 falls from 33.19 to 28.84 ms", "[fleet][hedging][relations]") {
    // The first copy's response time is the sum of two exponential legs (Gamma(2, 5)): P(> 20) = e^(−4)(1 + 4).
    // Hedged, the latency is min(R1, 20 + R2): P(> x) = S(x) S(x − 20), S(x) = e^(−x/5)(1 + x/5), whose 0.01
    // point is 28.84 (33.19 for S alone). Sampling error at about 100,000 requests: the fraction's sd is
    // sqrt(0.0916 × 0.9084 / 100,000) = 0.0009; a p99's is sqrt(0.99 × 0.01 / n) over the density there
    // (0.00174 at 33.19 for S; f1(x) S(x − 20) + S(x) f1(x − 20) = 0.00298 at 28.84 hedged), 0.18 and 0.11 ms.
    // Held to about four sds: 0.004, 0.8 ms and 0.5 ms.
    FleetRequest q = quietFleet();
    q.clients = 100;
    q.ratePerClient = 50;
    q.durationMs = 20000;
    q.network.dist = NetworkDist::Exponential;
    q.network.mean = 5;
    q.server.workers.reset();
    q.server.serviceMs = 0;
    q.policy.maxRetries = 0;
    const ServiceResult plain = simulateService(q);
    REQUIRE(plain.totals.requests > 95000);
    CHECK(plain.totals.latencyMs->p99 == Approx(33.19).margin(0.8));
    q.policy.hedging = hedging(2, 20, {});
    const ServiceResult hedged = simulateService(q);
    REQUIRE(hedged.totals.succeeded == hedged.totals.requests);
    const double fraction = static_cast<double>(hedged.totals.retries) / static_cast<double>(hedged.totals.firstAttempts);
    CHECK(fraction == Approx(std::exp(-4.0) * 5).margin(0.004));
    CHECK(hedged.totals.latencyMs->p99 == Approx(28.84).margin(0.5));
}

TEST_CASE("policy.hedging: null by default and absent from the echo; given, echoed in full; it needs maxRetries 0; "
          "errors name their paths; the work bound counts its copies", "[fleet][hedging][validation]") {
    CHECK(errorFields(fleet(request({{"policy.hedging.maxAttempts", num(2)}}))) == "policy.hedging");
    CHECK(errorFields(fleet(request({{"policy.maxRetries", num(0)}, {"policy.hedging", Value::object()}}))) ==
          "policy.hedging.maxAttempts");
    CHECK(errorFields(fleet(request({{"policy.maxRetries", num(0)},
                                     {"policy.hedging.maxAttempts", num(6)},
                                     {"policy.hedging.delayMs", num(-1)},
                                     {"policy.hedging.nonFatal", Value::array({str("4xx")})}}))) ==
          "policy.hedging.maxAttempts,policy.hedging.delayMs,policy.hedging.nonFatal[0]");
    const Value plain = parseFleetRequest(request({})).echo;
    CHECK(plain.find("policy")->find("hedging") == nullptr);
    const FleetParsed nulled = parseFleetRequest(request({{"policy.hedging", Value::null()}}));
    REQUIRE(nulled.errors.empty());
    CHECK(sameValue(nulled.echo, plain));
    const FleetParsed set = parseFleetRequest(request({{"policy.maxRetries", num(0)}, {"policy.hedging.maxAttempts", num(3)}}));
    REQUIRE(set.errors.empty());
    const Value& h = *set.echo.find("policy")->find("hedging");
    CHECK(h.find("maxAttempts")->asNumber() == 3);
    CHECK(h.find("delayMs")->asNumber() == 0);
    CHECK(h.find("nonFatal")->asArray().empty());
    REQUIRE(set.request);
    CHECK(set.request->policy.hedging->maxAttempts == 3);
    CHECK(sameValue(fleetRequestToValue(*set.request), set.echo));
    // §3's work bound with maxAttempts copies a request: 10,000 × 1,000 × 1 s × 5 = 50,000,000 attempts; the same
    // without hedging (maxRetries 0) is 10,000,000.
    FleetOptions unbounded;
    unbounded.costBound = false;
    const Value big = request({{"clients", num(10000)}, {"ratePerClient", num(1000)}, {"durationMs", num(1000)},
                               {"policy.maxRetries", num(0)}});
    CHECK(parseFleetRequest(big, unbounded).errors.empty());
    Value hedgedBig = big;
    setPath(hedgedBig, "policy.hedging.maxAttempts", num(5));
    const FleetParsed refused = parseFleetRequest(hedgedBig, unbounded);
    REQUIRE(refused.errors.size() == 1);
    CHECK(refused.errors[0].field == "durationMs");
}
