// docs/engine.md §7.1: the gate rules beyond FLEET.md §5 (issue 38). Each worked figure as
// worked there by hand, the relations each rule keeps, and the echo of the new fields (only
// when given and not the default).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "fleet_support.hpp"
#include "retrylab/fleet.hpp"

using namespace retrylab;
using namespace retrylab::test;

namespace {

// §7.1's figures: clients arriving at once, one worker, no queue (the second and third are
// shed at 5), no trigger, legs of 5 ms, every other field at its default.
FleetRequest oneWorkerNoQueue(std::uint32_t clients) {
    FleetRequest q = quietFleet();
    q.clients = clients;
    q.arrivals = Arrivals::Once;
    q.server.workers = 1u;
    q.server.queueLimit = 0u;
    return q;
}

double finalTokens(const ServiceResult& r) {
    REQUIRE(!r.bins.empty());
    REQUIRE(r.bins.back().tokens);
    return *r.bins.back().tokens;
}

Value withoutTokens(const FleetRequest& q, const ServiceResult& r) {
    ServiceResult copy = r;
    for (ServiceBin& b : copy.bins) b.tokens.reset();
    return fleetToValue(Value::null(), q, copy);  // no request: the gates' own fields differ
}

}  // namespace

TEST_CASE(
    "§7.1 figure 1, the throttle: counting all failures refuses client 1's second retry at 120 (tokens 2); "
    "counting retryable ones retries it at 320 (tokens 3)",
    "[fleet][gates][gate-rules][throttle]") {
    FleetRequest q = oneWorkerNoQueue(2);
    q.server.serviceMs = 200;
    q.policy.clientTimeoutMs = 30;
    q.policy.retryOn = {"5xx"};
    q.policy.retryTimeout = false;
    q.gates.throttle = ThrottleGate{GateScope::Fleet, 5, 0.1};

    SECTION("countFailures: all (FLEET.md)") {
        FleetTrace trace;
        const ServiceResult r = simulateService(q, &trace);
        CHECK(sendTimes(trace) == std::vector<double>{0, 0, 110});
        CHECK(r.totals.attempts == 3);
        CHECK(r.totals.served == 1);
        CHECK(r.totals.shed == 2);
        CHECK(r.totals.late == 1);
        CHECK(r.totals.charges == 1);
        CHECK(r.totals.endMs == 210);
        CHECK(failed(r, EndReason::NotRetryable) == 1);
        CHECK(failed(r, EndReason::GateThrottle) == 1);
        REQUIRE(trace.ends.size() == 2);
        CHECK(trace.ends[0].tMs == 30);   // client 0's timeout: not retried
        CHECK(trace.ends[1].tMs == 120);  // client 1: 5 − 3 = 2, not more than 2.5
        CHECK(trace.ends[1].reason == EndReason::GateThrottle);
        CHECK(finalTokens(r) == 2);
    }
    SECTION("countFailures: retryable (gRPC A6)") {
        q.gates.throttle->countFailures = ThrottleCount::Retryable;
        FleetTrace trace;
        const ServiceResult r = simulateService(q, &trace);
        CHECK(sendTimes(trace) == std::vector<double>{0, 0, 110, 320});
        CHECK(r.totals.attempts == 4);
        CHECK(r.totals.served == 2);
        CHECK(r.totals.shed == 2);
        CHECK(r.totals.late == 2);
        CHECK(r.totals.charges == 2);
        CHECK(r.totals.endMs == 530);
        CHECK(failed(r, EndReason::NotRetryable) == 2);
        CHECK(failed(r, EndReason::GateThrottle) == 0);
        REQUIRE(trace.ends.size() == 2);
        CHECK(trace.ends[1].tMs == 350);  // attempt 3's timeout (320 + 30): not retried, no token
        CHECK(finalTokens(r) == 3);
    }
}

TEST_CASE(
    "§7.1 figure 2, the quota: client 1's retried success at 170 leaves 6 (its cost back) or 7 (its cost "
    "and the increment); at the cap both leave 500",
    "[fleet][gates][gate-rules][quota]") {
    FleetRequest q = oneWorkerNoQueue(3);
    q.gates.quota = QuotaGate{GateScope::Fleet, 10, 5, 10, 1};
    for (QuotaRefund refund : {QuotaRefund::CostOrIncrement, QuotaRefund::CostAndIncrement}) {
        q.gates.quota->refund = refund;
        INFO(static_cast<int>(refund));
        FleetTrace trace;
        const ServiceResult r = simulateService(q, &trace);
        CHECK(sendTimes(trace) == std::vector<double>{0, 0, 0, 110, 110});
        CHECK(r.totals.succeeded == 2);
        CHECK(failed(r, EndReason::GateQuota) == 1);  // client 2 at 120: 1 token, a cost of 5
        CHECK(r.totals.attempts == 5);
        CHECK(r.totals.shed == 3);
        CHECK(r.totals.endMs == 170);
        CHECK(finalTokens(r) == (refund == QuotaRefund::CostAndIncrement ? 7 : 6));
    }
    // The cap: one client, its first attempt inside an outage; 495 + 5 + 1 is capped at 500.
    FleetRequest capped = oneClientOnce();
    capped.trigger = Trigger{TriggerKind::Outage, 0, 10, 1};
    capped.gates.quota = QuotaGate{GateScope::Fleet};
    for (QuotaRefund refund : {QuotaRefund::CostOrIncrement, QuotaRefund::CostAndIncrement}) {
        capped.gates.quota->refund = refund;
        const ServiceResult r = simulateService(capped);
        CHECK(r.totals.succeeded == 1);
        CHECK(r.totals.endMs == 170);
        CHECK(finalTokens(r) == 500);
    }
}

TEST_CASE(
    "§7.1 figure 3, the bucket: FLEET.md's rule refuses both retries at 10; the post's lets one through on "
    "exactly one token and ends at 1 after two successes",
    "[fleet][gates][gate-rules][bucket]") {
    FleetRequest q = oneWorkerNoQueue(3);
    q.gates.bucket = BucketGate{GateScope::Fleet, 1, 0.5, 1};
    struct Expected {
        BucketDeposit depositOn;
        BucketAllow allowWhen;
        std::uint64_t succeeded, refused, attempts;
        double tokens, endMs;
    };
    const Expected figures[] = {
        {BucketDeposit::FirstAttempt, BucketAllow::MoreThanCost, 1, 2, 3, 1, 60},  // FLEET.md
        {BucketDeposit::Success, BucketAllow::AtLeastCost, 2, 1, 4, 1, 170},       // the post
        {BucketDeposit::Success, BucketAllow::MoreThanCost, 1, 2, 3, 1, 60},
        {BucketDeposit::FirstAttempt, BucketAllow::AtLeastCost, 2, 1, 4, 0, 170},
    };
    for (const Expected& e : figures) {
        INFO("depositOn " << static_cast<int>(e.depositOn) << ", allowWhen " << static_cast<int>(e.allowWhen));
        q.gates.bucket->depositOn = e.depositOn;
        q.gates.bucket->allowWhen = e.allowWhen;
        const ServiceResult r = simulateService(q);
        CHECK(r.totals.succeeded == e.succeeded);
        CHECK(failed(r, EndReason::GateBucket) == e.refused);
        CHECK(r.totals.attempts == e.attempts);
        CHECK(r.totals.endMs == e.endMs);
        CHECK(finalTokens(r) == e.tokens);
    }
}

TEST_CASE(
    "§7.1 ten deposits of 0.1 are not a whole token: the tenth success does not pay for a retry, the "
    "eleventh does",
    "[fleet][gates][gate-rules][bucket]") {
    double level = 0;
    for (int i = 0; i < 10; ++i) level = std::min(5.0, level + 0.1);
    CHECK(level == 0.9999999999999999);
    CHECK_FALSE(level >= 1.0);
    level = std::min(5.0, level + 0.1);
    CHECK(level == 1.0999999999999999);
    CHECK(level >= 1.0);
}

TEST_CASE(
    "on the same traffic, counting only retryable failures never leaves fewer throttle tokens than "
    "counting all; with every class retryable the two are the same run",
    "[fleet][relations][gate-rules][throttle]") {
    for (std::uint64_t seed : {1u, 2u, 3u}) {
        INFO("seed " << seed);
        // No retries: the throttle decides nothing, so both rules see the same failures.
        FleetRequest all = loadIndependent();
        all.seed = seed;
        all.policy.maxRetries = 0;
        all.policy.retryOn = {"5xx"};
        all.policy.retryTimeout = false;
        all.gates.throttle = ThrottleGate{GateScope::Fleet, 100, 0.1};
        FleetRequest retryable = all;
        retryable.gates.throttle->countFailures = ThrottleCount::Retryable;
        const ServiceResult a = simulateService(all);
        const ServiceResult b = simulateService(retryable);
        CHECK(sameValue(withoutTokens(all, a), withoutTokens(retryable, b)));
        REQUIRE(a.bins.size() == b.bins.size());
        bool more = false;
        for (std::size_t i = 0; i < a.bins.size(); ++i) {
            CHECK(*b.bins[i].tokens >= *a.bins[i].tokens);
            more = more || *b.bins[i].tokens > *a.bins[i].tokens;
        }
        CHECK(more);  // the timeouts took tokens under "all"

        // Every class retried: "retryable" is every failure.
        FleetRequest every = loadIndependent();
        every.seed = seed;
        every.gates.throttle = ThrottleGate{GateScope::Fleet, 10, 0.1};
        FleetRequest same = every;
        same.gates.throttle->countFailures = ThrottleCount::Retryable;
        const ServiceResult c = simulateService(every);
        const ServiceResult d = simulateService(same);
        CHECK(failed(c, EndReason::GateThrottle) > 0);
        CHECK(sameValue(withoutTokens(every, c), withoutTokens(same, d)));
        for (std::size_t i = 0; i < c.bins.size() && i < d.bins.size(); ++i)
            CHECK(*c.bins[i].tokens == *d.bins[i].tokens);
    }
}

TEST_CASE(
    "on a run the quota never refuses, giving back the increment too never leaves fewer tokens, and the run "
    "is otherwise the same",
    "[fleet][relations][gate-rules][quota]") {
    for (std::uint64_t seed : {1u, 2u, 3u}) {
        INFO("seed " << seed);
        FleetRequest cost = loadIndependent();
        cost.seed = seed;
        cost.gates.quota = QuotaGate{GateScope::Fleet, 1000000000, 5, 10, 1};
        FleetRequest both = cost;
        both.gates.quota->refund = QuotaRefund::CostAndIncrement;
        const ServiceResult a = simulateService(cost);
        const ServiceResult b = simulateService(both);
        CHECK(failed(a, EndReason::GateQuota) == 0);
        CHECK(sameValue(withoutTokens(cost, a), withoutTokens(both, b)));
        REQUIRE(a.bins.size() == b.bins.size());
        bool more = false;
        for (std::size_t i = 0; i < a.bins.size(); ++i) {
            CHECK(*b.bins[i].tokens >= *a.bins[i].tokens);
            more = more || *b.bins[i].tokens > *a.bins[i].tokens;
        }
        CHECK(more);
    }
}

TEST_CASE(
    "with no success, a bucket fed by successes allows exactly floor(capacity / cost) retries at least the "
    "cost, ceil(capacity / cost) − 1 more than it",
    "[fleet][relations][gate-rules][bucket]") {
    struct Sizes {
        double capacity, cost;
    };
    for (Sizes s : {Sizes{5, 1}, Sizes{5, 2}, Sizes{4, 2}, Sizes{0.5, 1}, Sizes{7, 0.5}}) {
        INFO("capacity " << s.capacity << ", cost " << s.cost);
        FleetRequest q = quietFleet();
        q.clients = 10;
        q.durationMs = 10000;
        q.server.failureRate = 1;
        q.gates.bucket = BucketGate{GateScope::Fleet, s.capacity, 0.1, s.cost};
        q.gates.bucket->depositOn = BucketDeposit::Success;
        q.gates.bucket->allowWhen = BucketAllow::AtLeastCost;
        const ServiceResult atLeast = simulateService(q);
        q.gates.bucket->allowWhen = BucketAllow::MoreThanCost;
        const ServiceResult moreThan = simulateService(q);
        REQUIRE(atLeast.totals.succeeded == 0);
        REQUIRE(atLeast.totals.requests > 50);  // far more retry decisions than the bucket can pay for
        CHECK(atLeast.totals.retries == static_cast<std::uint64_t>(std::floor(s.capacity / s.cost)));
        CHECK(moreThan.totals.retries == static_cast<std::uint64_t>(std::ceil(s.capacity / s.cost) - 1));
        // Fed by first attempts instead (about 90 of them, 0.1 each), the same bucket pays for more
        // (unless it can never hold more than the cost).
        q.gates.bucket->depositOn = BucketDeposit::FirstAttempt;
        if (s.capacity > s.cost) CHECK(simulateService(q).totals.retries > moreThan.totals.retries);
    }
}

TEST_CASE(
    "the new rules keep the gates' relations: never an added attempt; fleet scope with one client equals "
    "client scope",
    "[fleet][relations][gate-rules]") {
    const FleetRequest base = loadIndependent();
    FleetTrace freeTrace;
    const ServiceResult ungated = simulateService(base, &freeTrace);
    std::vector<std::pair<const char*, FleetRequest>> variants;
    for (GateScope scope : {GateScope::Client, GateScope::Fleet}) {
        FleetRequest q = base;
        q.gates.quota = QuotaGate{scope, 50, 5, 10, 1, QuotaRefund::CostAndIncrement};
        variants.push_back({"quota cost-and-increment", q});
        q = base;
        q.gates.bucket = BucketGate{scope, 5, 0.1, 1, BucketDeposit::Success, BucketAllow::AtLeastCost};
        variants.push_back({"bucket as the post", q});
        q = base;
        q.policy.retryOn = {"5xx"};
        q.policy.retryTimeout = false;
        q.gates.throttle = ThrottleGate{scope, 10, 0.1, ThrottleCount::Retryable};
        variants.push_back({"throttle retryable", q});
    }
    FleetRequest fiveOnly = base;
    fiveOnly.policy.retryOn = {"5xx"};
    fiveOnly.policy.retryTimeout = false;
    const ServiceResult ungatedFive = simulateService(fiveOnly);
    for (auto& [name, q] : variants) {
        INFO(name);
        const ServiceResult gated = simulateService(q);
        const ServiceResult& free = q.policy.retryTimeout ? ungated : ungatedFive;
        CHECK(gated.totals.requests == free.totals.requests);
        CHECK(gated.totals.attempts < free.totals.attempts);  // fewer, and not none refused
    }
    for (auto& [name, q] : variants) {
        const bool fleet = (q.gates.quota && q.gates.quota->scope == GateScope::Fleet) ||
                           (q.gates.bucket && q.gates.bucket->scope == GateScope::Fleet) ||
                           (q.gates.throttle && q.gates.throttle->scope == GateScope::Fleet);
        if (!fleet) continue;
        INFO(name);
        FleetRequest one = q;
        one.clients = 1;
        one.ratePerClient = 50;
        const FleetRequest client = clientScoped(one);
        CHECK(sameValue(withoutTokens(one, simulateService(one)), withoutTokens(client, simulateService(client))));
    }
}

TEST_CASE(
    "the rule fields are echoed only when given and not the default; the typed request reads back; a "
    "bad one is named",
    "[fleet][gate-rules][validation]") {
    // Given at their defaults: the echo is the same as without them.
    const Value plain = parseFleetRequest(request({{"gates.quota.capacity", num(9)},
                                                   {"gates.bucket.cost", num(2)},
                                                   {"gates.throttle.maxTokens", num(4)}}))
                            .echo;
    const FleetParsed defaults = parseFleetRequest(request({{"gates.quota.capacity", num(9)},
                                                            {"gates.quota.refund", str("cost-or-increment")},
                                                            {"gates.bucket.cost", num(2)},
                                                            {"gates.bucket.depositOn", str("first-attempt")},
                                                            {"gates.bucket.allowWhen", str("more-than-cost")},
                                                            {"gates.throttle.maxTokens", num(4)},
                                                            {"gates.throttle.countFailures", str("all")}}));
    REQUIRE(defaults.errors.empty());
    CHECK(sameValue(defaults.echo, plain));
    const Value* gates = plain.find("gates");
    CHECK(gates->find("quota")->find("refund") == nullptr);
    CHECK(gates->find("bucket")->find("depositOn") == nullptr);
    CHECK(gates->find("throttle")->find("countFailures") == nullptr);
    CHECK(sameValue(parseFleetRequest(rawFleet(*defaults.request)).echo, plain));

    // Given otherwise: echoed after the gate's other fields, and read.
    const FleetParsed set = parseFleetRequest(request({{"gates.quota.refund", str("cost-and-increment")},
                                                       {"gates.bucket.depositOn", str("success")},
                                                       {"gates.bucket.allowWhen", str("at-least-cost")},
                                                       {"gates.throttle.countFailures", str("retryable")}}));
    REQUIRE(set.errors.empty());
    const Value& g = *set.echo.find("gates");
    CHECK(g.find("quota")->find("refund")->asString() == "cost-and-increment");
    CHECK(g.find("quota")->asObject().back().key == "refund");
    CHECK(g.find("bucket")->find("depositOn")->asString() == "success");
    CHECK(g.find("bucket")->find("allowWhen")->asString() == "at-least-cost");
    CHECK(g.find("throttle")->find("countFailures")->asString() == "retryable");
    REQUIRE(set.request);
    CHECK(set.request->gates.quota->refund == QuotaRefund::CostAndIncrement);
    CHECK(set.request->gates.bucket->depositOn == BucketDeposit::Success);
    CHECK(set.request->gates.bucket->allowWhen == BucketAllow::AtLeastCost);
    CHECK(set.request->gates.throttle->countFailures == ThrottleCount::Retryable);
    CHECK(sameValue(parseFleetRequest(rawFleet(*set.request)).echo, set.echo));
    const FleetParsed again = parseFleetRequest(set.echo);
    REQUIRE(again.errors.empty());
    CHECK(sameValue(again.echo, set.echo));

    // A gate switched on as {} echoes as before: no rule field.
    const Value on = parseFleetRequest(request({{"gates.bucket", Value::object()}})).echo;
    CHECK(on.find("gates")->find("bucket")->find("depositOn") == nullptr);

    const Value bad =
        fleet(request({{"gates.throttle.countFailures", str("some")}, {"gates.bucket.allowWhen", num(1)}}));
    CHECK(errorFields(bad) == "gates.bucket.allowWhen,gates.throttle.countFailures");

    // The schema marks the rows.
    const Field& quota = *fleetFields().field("gates").member("quota");
    CHECK(quota.member("refund")->sparseMember);
    CHECK_FALSE(quota.member("capacity")->sparseMember);
}
