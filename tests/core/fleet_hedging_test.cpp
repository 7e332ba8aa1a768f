// docs/throttling.md §6 (issue 34): gRPC A6's hedging in the fleet (`policy.hedging`). A6's
// worked timeline and the section's figures worked by hand, the closed form of the hedged
// fraction and the p99 with its sampling error argued, and the validation and echo.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>
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

TEST_CASE(
    "§6's A6 timeline: copies at 0, 500, 1,000 and 1,500; copy 1's 200 at 2,000 ends the request; the other "
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
    CHECK(r.totals.late == 3);                // at 2,500, 3,000, 3,500
    CHECK(r.totals.wastedServiceMs == 6000);  // three services of 2,000
    CHECK(r.totals.charges == 4);
    CHECK(r.totals.duplicateCharges == 3);
    CHECK(r.totals.endMs == 3500);
    q.idempotencyKey = true;
    const ServiceResult keyed = simulateService(q);
    CHECK(keyed.totals.charges == 1);
    CHECK(keyed.totals.replays == 3);
}

TEST_CASE(
    "§6's copies: a non-fatal failure sends the next copy at once and the one after delayMs from it; a fatal "
    "one ends the request; every copy failed and none left is attempt-limit",
    "[fleet][hedging]") {
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

TEST_CASE(
    "§6's closed form: legs exponential(5), no queue, a hedge 20 ms after the first copy: the hedged fraction is "
    "e^−4 × 5 = 0.09158, and p99 falls from 33.19 to 28.84 ms",
    "[fleet][hedging][relations]") {
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
    const double fraction =
        static_cast<double>(hedged.totals.retries) / static_cast<double>(hedged.totals.firstAttempts);
    CHECK(fraction == Approx(std::exp(-4.0) * 5).margin(0.004));
    CHECK(hedged.totals.latencyMs->p99 == Approx(28.84).margin(0.5));
}

TEST_CASE(
    "policy.hedging: null by default and absent from the echo; given, echoed in full; it needs maxRetries 0; "
    "errors name their paths; the work bound counts its copies",
    "[fleet][hedging][validation]") {
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
    const FleetParsed set =
        parseFleetRequest(request({{"policy.maxRetries", num(0)}, {"policy.hedging.maxAttempts", num(3)}}));
    REQUIRE(set.errors.empty());
    const Value& h = *set.echo.find("policy")->find("hedging");
    CHECK(h.find("maxAttempts")->asNumber() == 3);
    CHECK(h.find("delayMs")->asNumber() == 0);
    CHECK(h.find("nonFatal")->asArray().empty());
    REQUIRE(set.request);
    CHECK(set.request->policy.hedging->maxAttempts == 3);
    CHECK(sameValue(parseFleetRequest(rawFleet(*set.request)).echo, set.echo));
    // §3's work bound with maxAttempts copies a request: 10,000 × 1,000 × 1 s × 5 = 50,000,000 attempts; the same
    // without hedging (maxRetries 0) is 10,000,000.
    FleetOptions unbounded;
    unbounded.costBound = false;
    const Value big = request({{"clients", num(10000)},
                               {"ratePerClient", num(1000)},
                               {"durationMs", num(1000)},
                               {"policy.maxRetries", num(0)}});
    CHECK(parseFleetRequest(big, unbounded).errors.empty());
    Value hedgedBig = big;
    setPath(hedgedBig, "policy.hedging.maxAttempts", num(5));
    const FleetParsed refused = parseFleetRequest(hedgedBig, unbounded);
    REQUIRE(refused.errors.size() == 1);
    CHECK(refused.errors[0].field == "durationMs");
}

// ---- docs/throttling.md §8 in the fleet: Envoy's hedge on per-try timeout ---------------------------

namespace {

Hedging perTryTimeout() {
    Hedging h;
    h.kind = HedgeKind::PerTryTimeout;
    return h;
}

// §8's fleet figures: one client at 0, legs of 5, no worker limit, 1,500 ms of service; maxRetries 2, a
// per-try timeout of 1,000, a backoff of 25 (waits 25, 50, 100 for failures 1, 2, 3), D = 10,000.
FleetRequest perTryFleet(bool hedged = true) {
    FleetRequest q = oneClientOnce();
    q.server.workers.reset();
    q.server.serviceMs = 1500;
    q.policy.maxRetries = 2;
    q.policy.clientTimeoutMs = 1000;
    q.policy.baseBackoffMs = 25;
    q.policy.deadlineMs = 10000;
    if (hedged) q.policy.hedging = perTryTimeout();
    return q;
}

std::uint64_t timeouts(const ServiceResult& r) {
    std::uint64_t n = 0;
    for (const ServiceBin& b : r.bins) n += b.timeouts;
    return n;
}

}  // namespace

TEST_CASE(
    "§8's fleet figure: attempt 1's 200 at 1,510 ends the request; its soft cutoff at 1,000 sent attempt 2 at "
    "1,025, served and answered late: 2 charges (1 and a replay with a key); unhedged, attempt-limit at 3,075 "
    "with 3 charges",
    "[fleet][hedging][per-try]") {
    FleetTrace trace;
    const ServiceResult r = simulateService(perTryFleet(), &trace);
    CHECK(sendTimes(trace) == std::vector<double>{0, 1025});
    CHECK(r.totals.succeeded == 1);
    CHECK(r.totals.latencyMs->max == 1510);
    CHECK(r.totals.attempts == 2);
    CHECK(r.totals.retries == 1);
    CHECK(timeouts(r) == 1);
    CHECK(r.totals.charges == 2);
    CHECK(r.totals.duplicateCharges == 1);
    CHECK(r.totals.late == 1);
    CHECK(r.totals.wastedServiceMs == 1500);
    CHECK(r.totals.endMs == 2535);
    FleetRequest keyed = perTryFleet();
    keyed.idempotencyKey = true;
    const ServiceResult k = simulateService(keyed);
    CHECK(k.totals.charges == 1);
    CHECK(k.totals.replays == 1);
    FleetTrace plainTrace;
    const ServiceResult plain = simulateService(perTryFleet(false), &plainTrace);
    CHECK(sendTimes(plainTrace) == std::vector<double>{0, 1025, 2075});
    CHECK(failed(plain, EndReason::AttemptLimit) == 1);
    REQUIRE(plainTrace.ends.size() == 1);
    CHECK(plainTrace.ends[0].tMs == 3075);
    CHECK(plain.totals.charges == 3);
    CHECK(plain.totals.duplicateCharges == 2);
    CHECK(plain.totals.late == 3);
    CHECK(plain.totals.endMs == 3585);
}

TEST_CASE(
    "§8's fleet figure, every service failing: a hedged attempt's 500 is dropped while another is in flight, "
    "the wait after failure 3 is 100, and the last attempt's 500 ends it attempt-limit at 3,635",
    "[fleet][hedging][per-try]") {
    FleetRequest q = perTryFleet();
    q.server.failureRate = 1;
    FleetTrace trace;
    const ServiceResult r = simulateService(q, &trace);
    CHECK(sendTimes(trace) == std::vector<double>{0, 1025, 2125});
    CHECK(failed(r, EndReason::AttemptLimit) == 1);
    REQUIRE(trace.ends.size() == 1);
    CHECK(trace.ends[0].tMs == 3635);
    CHECK(r.totals.attempts == 3);
    CHECK(r.totals.retries == 2);
    CHECK(timeouts(r) == 3);
    CHECK(r.totals.late == 0);
    CHECK(r.totals.charges == 0);
    CHECK(r.totals.endMs == 3635);
}

TEST_CASE(
    "§8's fleet figure with the quota: a gate's refusal at a soft cutoff schedules nothing and ends nothing; "
    "the success at 2,510 refunds the cost",
    "[fleet][hedging][per-try]") {
    FleetRequest q = perTryFleet();
    q.server.serviceMs = 2500;
    q.gates.quota = QuotaGate{GateScope::Fleet, 10, 5, 10, 1};
    FleetTrace trace;
    const ServiceResult r = simulateService(q, &trace);
    CHECK(sendTimes(trace) == std::vector<double>{0, 1025});
    CHECK(r.totals.succeeded == 1);
    CHECK(r.totals.latencyMs->max == 2510);
    CHECK(r.totals.attempts == 2);
    CHECK(r.totals.charges == 2);
    CHECK(*r.bins.back().tokens == 10);
    CHECK(timeouts(r) == 2);
    q.gates.quota.reset();
    FleetTrace open;
    const ServiceResult without = simulateService(q, &open);
    CHECK(sendTimes(open) == std::vector<double>{0, 1025, 2075});
    CHECK(without.totals.charges == 3);
    CHECK(without.totals.latencyMs->max == 2510);
}

TEST_CASE(
    "§8's fleet figure at the deadline: soft cutoffs at 1,000 and 2,025 send attempts 2 and 3; the request "
    "ends deadline at 3,000 with three in flight, served and answered late",
    "[fleet][hedging][per-try]") {
    FleetRequest q = perTryFleet();
    q.server.serviceMs = 5000;
    q.policy.deadlineMs = 3000;
    FleetTrace trace;
    const ServiceResult r = simulateService(q, &trace);
    CHECK(sendTimes(trace) == std::vector<double>{0, 1025, 2075});
    CHECK(failed(r, EndReason::Deadline) == 1);
    REQUIRE(trace.ends.size() == 1);
    CHECK(trace.ends[0].tMs == 3000);
    CHECK(timeouts(r) == 3);
    CHECK(r.totals.charges == 3);
    CHECK(r.totals.late == 3);
    CHECK(r.totals.endMs == 7085);
    CHECK_FALSE(r.totals.latencyMs.has_value());
}

TEST_CASE(
    "§8's relations in a busy fleet: never more than maxRetries + 1 attempts a request; with an idempotency key "
    "at most one charge a request; every request ends once",
    "[fleet][hedging][per-try][relations]") {
    for (std::uint64_t seed : {1u, 2u, 3u}) {
        FleetRequest q = loadIndependent();
        q.seed = seed;
        q.policy.maxRetries = 3;
        q.policy.deadlineMs = 600;
        q.policy.hedging = perTryTimeout();
        q.policy.clientTimeoutMs = 100;  // two legs of mean 20 and 50 ms of service pass it about a third of the time
        q.server.failureRate = 0.1;
        q.idempotencyKey = true;
        q.gates.breaker = BreakerGate{GateScope::Fleet, 50, 50, 50, 1000, 5};
        FleetTrace trace;
        const ServiceResult r = simulateService(q, &trace);
        REQUIRE(r.totals.requests > 1000);
        CHECK(r.totals.charges <= r.totals.requests);
        std::map<std::pair<std::uint32_t, std::uint32_t>, int> sends, ends;
        int most = 0;
        for (const FleetTraceEvent& e : trace.events)
            if (e.kind == 5) most = std::max(most, e.attempt);
        for (const FleetTraceEnd& e : trace.ends) ++ends[{e.client, e.request}];
        CHECK(most <= 4);
        CHECK(ends.size() == r.totals.requests);
        for (const auto& [key, times] : ends) CHECK(times == 1);
        CHECK(r.totals.attempts <= 4 * r.totals.requests);
        CHECK(r.totals.duplicateCharges == 0);
        // The relations bite: the run hedges (attempts overlap), and without a key it charges twice.
        CHECK(r.totals.replays > 0);
        q.idempotencyKey = false;
        CHECK(simulateService(q).totals.duplicateCharges > 0);
    }
}

TEST_CASE(
    "policy.hedging.kind: a6 by default and not echoed (every §6 request echoes and runs as before); "
    "per-try-timeout echoed alone, with A6's members an error, a deadline needed and maxRetries its own",
    "[fleet][hedging][per-try][validation]") {
    const Value a6 = request({{"policy.maxRetries", num(0)}, {"policy.hedging.maxAttempts", num(3)}});
    Value explicitA6 = a6;
    setPath(explicitA6, "policy.hedging.kind", str("a6"));
    const FleetParsed plain = parseFleetRequest(a6), given = parseFleetRequest(explicitA6);
    REQUIRE(plain.errors.empty());
    REQUIRE(given.errors.empty());
    CHECK(sameValue(plain.echo, given.echo));
    CHECK(plain.echo.find("policy")->find("hedging")->find("kind") == nullptr);
    CHECK(given.request->policy.hedging->kind == HedgeKind::A6);
    CHECK(sameValue(fleet(a6), fleet(explicitA6)));

    const Value perTry = request({{"policy.deadlineMs", num(10000)}, {"policy.hedging.kind", str("per-try-timeout")}});
    const FleetParsed set = parseFleetRequest(perTry);
    REQUIRE(set.errors.empty());
    const Value& h = *set.echo.find("policy")->find("hedging");
    REQUIRE(h.asObject().size() == 1);
    CHECK(h.find("kind")->asString() == "per-try-timeout");
    CHECK(set.request->policy.hedging->kind == HedgeKind::PerTryTimeout);
    CHECK(*set.request->policy.maxRetries == 3);  // the policy's own retries: no needs-no-retries
    CHECK(sameValue(parseFleetRequest(rawFleet(*set.request)).echo, set.echo));

    // A6's members are errors with per-try-timeout; maxAttempts is needed only by a6.
    Value withMembers = perTry;
    setPath(withMembers, "policy.hedging.maxAttempts", num(2));
    setPath(withMembers, "policy.hedging.delayMs", num(5));
    setPath(withMembers, "policy.hedging.nonFatal", Value::array());
    const Value refused = fleet(withMembers);
    CHECK(errorFields(refused) == "policy.hedging.maxAttempts,policy.hedging.delayMs,policy.hedging.nonFatal");
    CHECK(refused.find("errors")->asArray()[0].find("code")->asString() == "only-with");
    CHECK(errorFields(fleet(request({{"policy.maxRetries", num(0)}, {"policy.hedging.kind", str("a6")}}))) ==
          "policy.hedging.maxAttempts");
    CHECK(errorFields(fleet(request({{"policy.hedging.kind", str("envoy")}}))) == "policy.hedging.kind");
    // No deadline: an error on the kind.
    const Value noDeadline = fleet(request({{"policy.hedging.kind", str("per-try-timeout")}}));
    CHECK(errorFields(noDeadline) == "policy.hedging.kind");
    CHECK(noDeadline.find("errors")->asArray()[0].find("code")->asString() == "needs-deadline");
    // The work bound counts maxRetries + 1 attempts, as unhedged: 10,000 × 1,000 × 1 s × 3 = 30,000,000.
    FleetOptions unbounded;
    unbounded.costBound = false;
    Value big = request({{"clients", num(10000)},
                         {"ratePerClient", num(1000)},
                         {"durationMs", num(1000)},
                         {"policy.maxRetries", num(1)},
                         {"policy.deadlineMs", num(10000)},
                         {"policy.hedging.kind", str("per-try-timeout")}});
    CHECK(parseFleetRequest(big, unbounded).errors.empty());
    setPath(big, "policy.maxRetries", num(2));
    const FleetParsed tooBig = parseFleetRequest(big, unbounded);
    REQUIRE(tooBig.errors.size() == 1);
    CHECK(tooBig.errors[0].field == "durationMs");
}
