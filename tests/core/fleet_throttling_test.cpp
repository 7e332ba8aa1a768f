// docs/throttling.md §3–§5 (issue 34) in the fleet: the server's admission limit (rule 1a, the
// class 429 and how the gates see it), AWS adaptive mode as a gate, client-side throttling as a
// gate. Every expected figure is worked by hand from that text (the arithmetic in the comments);
// the relation's tolerance is argued where it is checked.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "fleet_support.hpp"
#include "random.hpp"
#include "retrylab/fleet.hpp"
#include "streams.hpp"

using namespace retrylab;
using namespace retrylab::test;

namespace {

// Three clients `once`, legs of 5 ms, no worker limit (service 5–55), a fleet-wide admission
// limit of 2 tokens a second with a burst of 2; 429s retried, backoff 100 × 2^(n−1).
FleetRequest threeAgainstTwoTokens() {
    FleetRequest q = quietFleet();
    q.clients = 3;
    q.arrivals = Arrivals::Once;
    q.server.workers.reset();
    q.server.admission = Admission{GateScope::Fleet, 2, 2, 0, std::nullopt};
    q.policy.retryOn = {"429"};
    q.policy.retryTimeout = q.policy.retry5xx = false;
    q.policy.retry429 = true;
    return q;
}

}  // namespace

TEST_CASE(
    "rule 1a: the limit refills by (t − last) × rate / 1000 at each arrival; the third of three at once is "
    "throttled, and its retries until 1.46 tokens are there",
    "[fleet][throttling][admission]") {
    // 5: client 0 finds min(2, 2 + 5 × 2 / 1000) = 2, takes one (1); client 1 finds min(2, 1 + 0) = 1, takes
    // it (0); client 2 finds 0: 429 at 5, at the client at 10. Retried after 100 (sent 110, there at 115):
    // 0 + 110 × 2 / 1000 = 0.22: 429, at 120. After 200 (sent 320, at 325): 0.22 + 210 × 2 / 1000 = 0.64:
    // 429, at 330. After 400 (sent 730, at 735): 0.64 + 410 × 2 / 1000 = 1.46: served 735–785, 200 at 790.
    const FleetRequest q = threeAgainstTwoTokens();
    FleetTrace trace;
    const ServiceResult r = simulateService(q, &trace);
    CHECK(sendTimes(trace) == std::vector<double>{0, 0, 0, 110, 320, 730});
    CHECK(r.totals.throttled == 3);
    CHECK(r.bins[0].throttled == 3);
    CHECK(r.totals.served == 3);
    CHECK(r.totals.succeeded == 3);
    CHECK(r.totals.attempts == 6);
    CHECK(r.totals.latencyMs->max == 790);
    CHECK(r.totals.endMs == 790);

    SECTION("client scope: a limit each, none throttled") {
        FleetRequest each = q;
        each.server.admission->scope = GateScope::Client;
        each.server.admission->burst = 1;
        const ServiceResult e = simulateService(each);
        CHECK(e.totals.throttled == 0);
        CHECK(e.totals.attempts == 3);
        CHECK(e.totals.latencyMs->max == 60);
    }
    SECTION("answerMs and the 429's Retry-After") {
        // 429 at 5 + 20 = 25, at the client at 30; Retry-After 300: sent 330, at 335: 0 + 330 × 2 / 1000 =
        // 0.66: 429 at 355, at 360; sent 660, at 665: 0.66 + 0.66 = 1.32: served 665–715, 200 at 720.
        FleetRequest slow = q;
        slow.server.admission->answerMs = 20;
        slow.server.admission->retryAfterMs = 300;
        FleetTrace t;
        const ServiceResult s = simulateService(slow, &t);
        CHECK(sendTimes(t) == std::vector<double>{0, 0, 0, 330, 660});
        CHECK(s.totals.throttled == 2);
        CHECK(s.totals.latencyMs->max == 720);
        // Not honoured: the backoff. At the client at 30, sent 130, at 135: 0 + 130 × 2 / 1000 = 0.26: 429 at
        // 155, at 160; sent 360, at 365: 0.26 + 230 × 2 / 1000 = 0.72: 429 at 385, at 390; sent 790, at 795:
        // 0.72 + 430 × 2 / 1000 = 1.58: served 795–845, 200 at 850.
        slow.policy.honourRetryAfter = false;
        FleetTrace u;
        const ServiceResult h = simulateService(slow, &u);
        CHECK(sendTimes(u) == std::vector<double>{0, 0, 0, 130, 360, 790});
        CHECK(h.totals.throttled == 3);
        CHECK(h.totals.latencyMs->max == 850);
    }
    SECTION("an outage's 503 takes no token") {
        // Outage [0, 6): all three 503 at 5 (at the clients at 10), retried at 110, there at 115 with the
        // limit untouched: 2, 1, then 0 for client 2 (429 at 115, at 120). Sent 320, at 325: 0 + 210 × 2 /
        // 1000 = 0.42: 429 at 330; sent 730, at 735: 0.42 + 0.82 = 1.24: served, 200 at 790.
        FleetRequest o = q;
        o.trigger = Trigger{TriggerKind::Outage, 0, 6, 1};
        o.policy.retryOn = {"5xx", "429"};
        o.policy.retry5xx = true;
        const ServiceResult r2 = simulateService(o);
        CHECK(r2.totals.outageRejected == 3);
        CHECK(r2.totals.throttled == 2);
        CHECK(r2.totals.succeeded == 3);
        CHECK(r2.totals.latencyMs->max == 790);
    }
}

TEST_CASE(
    "a 429 is class 429: not retried by the default retryOn; for the gates a failure (the quota charges "
    "retryCost, the throttle takes a token, the breaker records it)",
    "[fleet][throttling][admission][gates]") {
    FleetRequest q = threeAgainstTwoTokens();
    SECTION("the default retryOn [timeout, 5xx]: not-retryable at 10") {
        q.policy.retryOn = {"timeout", "5xx"};
        q.policy.retryTimeout = q.policy.retry5xx = true;
        q.policy.retry429 = false;
        FleetTrace trace;
        const ServiceResult r = simulateService(q, &trace);
        CHECK(failed(r, EndReason::NotRetryable) == 1);
        CHECK(r.totals.attempts == 3);
        REQUIRE(trace.ends.size() == 3);
        CHECK(trace.ends[0].tMs == 10);
    }
    SECTION("the quota: 5 a retry after a 429") {
        // Fleet quota of 10: 10: 10 − 5 = 5. 60: clients 0 and 1 succeed having paid nothing: 7. 120: 7 − 5 = 2.
        // 330: 2 < 5: gate-quota. (At timeoutCost 10 the retry at 120 would have been refused.)
        q.gates.quota = QuotaGate{GateScope::Fleet, 10, 5, 10, 1};
        const ServiceResult r = simulateService(q);
        CHECK(failed(r, EndReason::GateQuota) == 1);
        CHECK(r.totals.attempts == 5);
        CHECK(r.totals.endMs == 330);
        CHECK(*r.bins.back().tokens == 2);
    }
    SECTION("the throttle: a token a 429") {
        // Fleet throttle of 4 (a retry needs more than 2): 10: 4 − 1 = 3 > 2: retried. 60: + 0.1 twice:
        // 3.2. 120: 3.2 − 1 = 2.2 > 2: retried. 330: 2.2 − 1 = 1.2: gate-throttle.
        q.gates.throttle = ThrottleGate{GateScope::Fleet, 4, 0.1};
        const ServiceResult r = simulateService(q);
        CHECK(failed(r, EndReason::GateThrottle) == 1);
        CHECK(r.totals.endMs == 330);
        CHECK(*r.bins.back().tokens == Approx(1.2).margin(1e-12));
        // countFailures "retryable" with 429 not in retryOn: the 429 at 10 takes nothing (not-retryable), the
        // successes at 60 find 4 and stay at 4 (min(4, 4.1)); counting all, 4 − 1 + 0.1 + 0.1 = 3.2.
        q.policy.retryOn = {"5xx"};
        q.policy.retry5xx = true;
        q.policy.retry429 = false;
        q.gates.throttle->countFailures = ThrottleCount::Retryable;
        const ServiceResult retryable = simulateService(q);
        CHECK(failed(retryable, EndReason::NotRetryable) == 1);
        CHECK(*retryable.bins.back().tokens == 4);
        q.gates.throttle->countFailures = ThrottleCount::All;
        CHECK(*simulateService(q).bins.back().tokens == Approx(3.2).margin(1e-12));
    }
    SECTION("the breaker: a 429 is a failure") {
        // A window of 1 opening at 100 % failures: client 2's 429 at 10 is the first outcome: open; its retry at
        // 110 is refused (the successes at 60 were sent in the closed period).
        q.gates.breaker = BreakerGate{GateScope::Fleet, 1, 1, 100, 60000, 1};
        const ServiceResult r = simulateService(q);
        CHECK(failed(r, EndReason::CircuitOpen) == 1);
        CHECK(r.totals.endMs == 110);
    }
}

TEST_CASE(
    "§4's worked figure: the adaptive limiter holds client 1's retry after its 429 to 1,990 (1.98 s for "
    "0.99 token at 0.5 a second): latency 2,050, gateWaitMs 1,980",
    "[fleet][throttling][adaptive]") {
    FleetRequest q = quietFleet();
    q.clients = 2;
    q.arrivals = Arrivals::Once;
    q.server.admission = Admission{GateScope::Fleet, 1, 1, 0, std::nullopt};
    q.policy.retryOn = {"429"};
    q.policy.retryTimeout = q.policy.retry5xx = false;
    q.policy.retry429 = true;
    q.policy.baseBackoffMs = 0;
    q.gates.adaptive = AdaptiveGate{GateScope::Client};
    FleetTrace trace;
    const ServiceResult r = simulateService(q, &trace);
    // Sends: both first attempts at 0, client 1's retry asks at 10 and is held to 1,990 (a second kind-5 event).
    CHECK(sendTimes(trace) == std::vector<double>{0, 0, 10, 1990});
    CHECK(r.totals.throttled == 1);
    CHECK(r.totals.attempts == 3);
    CHECK(r.totals.retries == 1);
    CHECK(r.totals.succeeded == 2);
    CHECK(r.totals.latencyMs->p50 == 60);
    CHECK(r.totals.latencyMs->max == 2050);
    CHECK(r.totals.endMs == 2050);
    REQUIRE(r.bins.size() == 3);
    CHECK(r.bins[0].gateWaitMs == 1980);  // by the time the wait began, 10
    CHECK(r.bins[1].gateWaitMs == 0);
    CHECK(r.bins[0].retries == 0);  // the retry is sent (counted) at 1,990
    CHECK(r.bins[1].retries == 1);

    SECTION("fleet scope: client 0's success at 60 and client 1's 429 at 10 feed one limiter") {
        // 10: the throttle enables it as above (fill 0.5, 0.01 token). 60: client 0's 200: the clocker's bucket
        // at 0.06 s is 0, not past 0: measured 0; CUBIC success at 0.06 with W 0, K 0, lastFail 0.01:
        // 0.4 × 0.05³ = 0.00005; the bucket refills 0.05 × 0.5 = 0.025 (0.035) and is set to min(0.00005, 0) = 0:
        // fill 0.5 again. The retry asked at 10 came first: it waited (1 − 0.01) / 0.5 as before.
        q.gates.adaptive->scope = GateScope::Fleet;
        FleetTrace t;
        const ServiceResult f = simulateService(q, &t);
        CHECK(sendTimes(t) == std::vector<double>{0, 0, 10, 1990});
        CHECK(f.totals.latencyMs->max == 2050);
    }
    SECTION("with a deadline the held send ends the request at 10 when 1,990 is past it") {
        q.policy.deadlineMs = 1990;  // 10 + 1,980 ≥ 0 + 1,990
        FleetTrace t;
        const ServiceResult d = simulateService(q, &t);
        CHECK(failed(d, EndReason::Deadline) == 1);
        CHECK(d.totals.attempts == 2);
        CHECK(d.bins[0].gateWaitMs == 0);
        REQUIRE(t.ends.size() == 2);
        CHECK(t.ends[0].tMs == 10);
        q.policy.deadlineMs = 1991;  // 1,990 < 1,991: held and sent
        CHECK(simulateService(q).totals.attempts == 3);
    }
}

TEST_CASE(
    "§4.1's worked figure: the bins hold the limiters enabled and the mean of their fill rates after "
    "each bin's last event (client scope 0.5, 0.5, 1.6; fleet scope 0.5, 0.5, 2 × (1.5 × 0.8))",
    "[fleet][throttling][adaptive]") {
    FleetRequest q = quietFleet();
    q.clients = 2;
    q.arrivals = Arrivals::Once;
    q.server.admission = Admission{GateScope::Fleet, 1, 1, 0, std::nullopt};
    q.policy.retryOn = {"429"};
    q.policy.retryTimeout = q.policy.retry5xx = false;
    q.policy.retry429 = true;
    q.policy.baseBackoffMs = 0;
    q.gates.adaptive = AdaptiveGate{GateScope::Client};
    auto limiting = [](const ServiceResult& r) {
        std::vector<std::uint64_t> v;
        for (const ServiceBin& b : r.bins) v.push_back(b.limiting);
        return v;
    };
    auto rates = [](const ServiceResult& r) {
        std::vector<double> v;
        for (const ServiceBin& b : r.bins) v.push_back(b.sendRate.value_or(-1));
        return v;
    };
    // Bin 0: client 1's 429 at 10 enables its limiter at fill max(0, 0.5); client 0's 200 at 60 sets client 0's
    // bucket to 0.5 too but does not enable it (left out). Bin 1: the held send at 1,990 sets no rate. Bin 2:
    // client 1's 200 at 2,050: 2 responses over the clocker's 2 s, measured 1 × 0.8; CUBIC 0.4 × 2.04³ = 3.39…;
    // min(3.39…, 2 × 0.8) = 1.6.
    const ServiceResult c = simulateService(q);
    REQUIRE(c.bins.size() == 3);
    CHECK(limiting(c) == std::vector<std::uint64_t>{1, 1, 1});
    CHECK(rates(c) == std::vector<double>{0.5, 0.5, 2 * (1 * 0.8)});
    CHECK(c.bins[2].sendRate == 1.6);

    SECTION("fleet scope: one limiter hears all three answers; at 2,050 3 responses over 2 s, measured 1.5 × 0.8") {
        q.gates.adaptive->scope = GateScope::Fleet;
        const ServiceResult f = simulateService(q);
        REQUIRE(f.bins.size() == 3);
        CHECK(limiting(f) == std::vector<std::uint64_t>{1, 1, 1});
        CHECK(rates(f) == std::vector<double>{0.5, 0.5, 2 * (1.5 * 0.8 + 0 * (1 - 0.8))});
        CHECK(f.bins[2].sendRate == 2.4000000000000004);
    }
    SECTION("without an admission limit no 429 enables a limiter: limiting 0 and no send rate in every bin") {
        q.server.admission.reset();
        const ServiceResult n = simulateService(q);
        REQUIRE(!n.bins.empty());
        for (const ServiceBin& b : n.bins) {
            CHECK(b.limiting == 0);
            CHECK(!b.sendRate);
        }
    }
    SECTION("a bin with no event repeats the state before it: 100 ms bins 1–19 hold bin 0's 0.5") {
        q.binMs = 100;
        const ServiceResult b = simulateService(q);
        REQUIRE(b.bins.size() == 21);
        for (std::size_t i = 0; i < 20; ++i) CHECK(b.bins[i].sendRate == 0.5);
        CHECK(b.bins[20].sendRate == 1.6);  // 2,050 is bin 20's
    }
}

TEST_CASE(
    "§4.1 on a busy run: limiting never falls, a send rate exactly where some limiter is enabled and never "
    "below the 0.5 a second minimum, every client limiting once each met its quota",
    "[fleet][throttling][adaptive][relations]") {
    // A relation on a busy run: 20 clients at 20 a second against a per-client limit of 5 a second, 429s retried.
    FleetRequest q = quietFleet();
    q.clients = 20;
    q.ratePerClient = 20;
    q.durationMs = 10000;
    q.server.admission = Admission{GateScope::Client, 5, 5, 0, std::nullopt};
    q.policy.retryOn = {"429"};
    q.policy.retryTimeout = q.policy.retry5xx = false;
    q.policy.retry429 = true;
    q.gates.adaptive = AdaptiveGate{GateScope::Client};
    const ServiceResult r = simulateService(q);
    std::uint64_t before = 0;
    bool some = false;
    for (const ServiceBin& b : r.bins) {
        CHECK(b.limiting >= before);  // a limiter, once enabled, stays so
        CHECK(b.limiting <= 20);
        before = b.limiting;
        CHECK(b.sendRate.has_value() == (b.limiting > 0));
        if (b.sendRate) {
            some = true;
            CHECK(*b.sendRate >= 0.5);  // every fill is at least the minimum
        }
    }
    CHECK(some);
    CHECK(r.bins.back().limiting == 20);
}

TEST_CASE(
    "§5's relation: in a sustained overload with no retries the server throttles about ratio − 1 requests "
    "for each it accepts (1 at ratio 2, 0.1 at ratio 1.1)",
    "[fleet][throttling][local][relations]") {
    // One client sending 1,000 a second (poisson) at a server admitting 100 a second (burst 1), no retries, a
    // local throttler of 30 s in 100 bins, padding 8. Steady state over the window: requests R (everything the
    // client asked for), accepts A, the server's 429s T and the local refusals J = R − A − T; the throttler
    // refuses with p = (R − K × A) / (R + 8), so J ≈ p × R ≈ R − K × A and T = R − A − J ≈ (K − 1) × A.
    //
    // The server's burst of 100 lets it accept its 100 a second whenever more reach it on average (a burst of 1
    // would throttle near-coincident Poisson arrivals on its own, whatever the client does).
    //
    // Tolerance. The bias: the padding makes p smaller by the factor R / (R + 8), with R about 30,000 in a
    // window: J is lower by about 8 / 30,000 × J, under 0.3 of a 429 a second, +0.003 on T / A. The noise:
    // each send is refused by its own draw, so J over the 80 s measured is binomial about p × n (n = 80,000
    // sends): at K = 2 (p = 0.8) its sd is sqrt(80,000 × 0.8 × 0.2) = 113, 0.014 of A = 8,000; at K = 1.1
    // (p = 0.89) sqrt(80,000 × 0.89 × 0.11) = 88, 0.011 of A. The Poisson count of R moves p with it (p follows
    // R over the window), and the bucket's level moves A by a few tokens: both small beside that. So T / A is
    // held to 1 ± 0.045 at K = 2 and 0.1 ± 0.035 at K = 1.1 (three sds and the bias), over three seeds each.
    struct Case {
        double ratio, expected, tolerance;
    };
    for (Case c : {Case{2, 1, 0.045}, Case{1.1, 0.1, 0.035}}) {
        for (std::uint64_t seed : {1u, 2u, 3u}) {
            INFO("ratio " << c.ratio << ", seed " << seed);
            FleetRequest q = quietFleet();
            q.seed = seed;
            q.clients = 1;
            q.ratePerClient = 1000;
            q.durationMs = 120000;
            q.server.workers.reset();
            q.server.serviceMs = 0;
            q.server.admission = Admission{GateScope::Client, 100, 100, 0, std::nullopt};
            q.policy.maxRetries = 0;
            q.gates.local = LocalGate{GateScope::Client, 30000, 100, c.ratio, 8};
            const ServiceResult r = simulateService(q);
            // From 40 s (the window full of the steady state) to the end of arrivals.
            REQUIRE(r.bins.size() >= 120);
            std::uint64_t throttled = 0, accepted = 0;
            for (std::size_t b = 40; b < 120; ++b) {
                throttled += r.bins[b].throttled;
                accepted += r.bins[b].served;
            }
            const double perAccepted = static_cast<double>(throttled) / static_cast<double>(accepted);
            CHECK(accepted == Approx(8000).epsilon(0.01));  // the limit's 100 a second
            CHECK(perAccepted == Approx(c.expected).margin(c.tolerance));
            CHECK(failed(r, EndReason::LocalThrottle) > 0);
        }
    }
}

TEST_CASE(
    "the send gates never add an attempt: the local throttle only removes sends (no retries: the same "
    "requests, each attempt sent or refused); without a 429 neither gate changes anything",
    "[fleet][throttling][relations]") {
    SECTION("no retries, an overloaded admission limit: attempts + local refusals = the ungated attempts") {
        for (std::uint64_t seed : {1u, 2u, 3u}) {
            INFO("seed " << seed);
            FleetRequest q = quietFleet();
            q.seed = seed;
            q.clients = 20;
            q.ratePerClient = 20;
            q.durationMs = 20000;
            q.server.workers.reset();
            q.server.admission = Admission{GateScope::Client, 5, 5, 0, std::nullopt};
            q.policy.maxRetries = 0;
            const ServiceResult free = simulateService(q);
            for (GateScope scope : {GateScope::Client, GateScope::Fleet}) {
                FleetRequest gated = q;
                gated.gates.local = LocalGate{scope, 30000, 100, 2, 8};
                const ServiceResult g = simulateService(gated);
                CHECK(g.totals.requests == free.totals.requests);
                CHECK(failed(g, EndReason::LocalThrottle) > 0);
                CHECK(g.totals.attempts + failed(g, EndReason::LocalThrottle) == free.totals.attempts);
                CHECK(g.totals.attempts < free.totals.attempts);
                CHECK(g.totals.served <= free.totals.served);
            }
        }
    }
    SECTION("no admission limit: no 429, so the throttler's p is never above 0 and the limiter never enables") {
        const FleetRequest base = loadIndependent();
        const Value free = fleetToValue(Value::null(), base, simulateService(base));
        for (GateScope scope : {GateScope::Client, GateScope::Fleet}) {
            FleetRequest local = base;
            local.gates.local = LocalGate{scope, 30000, 100, 1, 0};  // the least throttling: ratio 1, no padding
            ServiceResult l = simulateService(local);
            CHECK(failed(l, EndReason::LocalThrottle) == 0);
            FleetRequest adaptive = base;
            adaptive.gates.adaptive = AdaptiveGate{scope};
            ServiceResult a = simulateService(adaptive);
            for (const ServiceBin& b : a.bins) CHECK(b.gateWaitMs == 0);
            // The same run: the results as values, written for the ungated request.
            CHECK(sameValue(fleetToValue(Value::null(), base, l), free));
            CHECK(sameValue(fleetToValue(Value::null(), base, a), free));
        }
    }
}

TEST_CASE(
    "the new fields: errors name their paths; absent or null they leave every echo and result as before; "
    "given, they are echoed in full and read back",
    "[fleet][throttling][validation]") {
    const Value bad = fleet(request({{"server.admission.ratePerSecond", num(0)},
                                     {"server.admission.burst", num(0.5)},
                                     {"server.admission.answerMs", num(60001)},
                                     {"server.admission.retryAfterMs", num(-1)},
                                     {"gates.local.bins", num(1.5)},
                                     {"gates.local.ratio", num(0.5)},
                                     {"gates.local.windowMs", num(0)},
                                     {"gates.local.padding", num(-1)},
                                     {"gates.adaptive.scope", str("region")}}));
    CHECK(errorFields(bad) ==
          "server.admission.ratePerSecond,server.admission.burst,server.admission.answerMs,"
          "server.admission.retryAfterMs,gates.adaptive.scope,gates.local.windowMs,gates.local.bins,gates.local.ratio,"
          "gates.local.padding");
    CHECK(errorFields(fleet(request({{"gates.adaptive.windowMs", num(1)}}))) == "gates.adaptive.windowMs");
    CHECK(errorFields(fleet(request({{"server.admission", num(1)}}))) == "server.admission");
    CHECK(errorFields(fleet(request({{"policy.retryOn", Value::array({str("429"), str("429")})}}))) ==
          "policy.retryOn[1]");
    CHECK(ok(fleet(request({{"policy.retryOn", Value::array({str("timeout"), str("5xx"), str("429")})}}))));

    // Absent, or null: the same echo and the same result, with none of the new keys.
    const Value small = request({{"clients", num(5)}, {"durationMs", num(5000)}});
    Value nulls = small;
    setPath(nulls, "server.admission", Value::null());
    setPath(nulls, "gates.adaptive", Value::null());
    setPath(nulls, "gates.local", Value::null());
    const Value a = fleet(small), b = fleet(nulls);
    REQUIRE(ok(a));
    CHECK(sameValue(a, b));
    CHECK(a.find("request")->find("server")->find("admission") == nullptr);
    CHECK(a.find("request")->find("gates")->find("adaptive") == nullptr);
    CHECK(a.find("request")->find("gates")->find("local") == nullptr);
    CHECK(a.find("totals")->find("throttled") == nullptr);
    CHECK(a.find("totals")->find("failed")->find("local-throttle") == nullptr);
    const Value& bin0 = a.find("timeline")->find("bins")->asArray()[0];
    CHECK(bin0.find("throttled") == nullptr);
    CHECK(bin0.find("gateWaitMs") == nullptr);
    CHECK(bin0.find("limiting") == nullptr);
    CHECK(bin0.find("sendRate") == nullptr);

    // Given: echoed in full with their defaults, the typed echo the same, and the result's new keys there.
    const FleetParsed set = parseFleetRequest(request(
        {{"server.admission", Value::object()}, {"gates.adaptive", Value::object()}, {"gates.local.ratio", num(1.5)}}));
    REQUIRE(set.errors.empty());
    const Value& admission = *set.echo.find("server")->find("admission");
    CHECK(admission.find("scope")->asString() == "client");
    CHECK(admission.find("ratePerSecond")->asNumber() == 10);
    CHECK(admission.find("burst")->asNumber() == 10);
    CHECK(admission.find("answerMs")->asNumber() == 0);
    CHECK(admission.find("retryAfterMs")->isNull());
    const Value& local = *set.echo.find("gates")->find("local");
    CHECK(local.find("windowMs")->asNumber() == 30000);
    CHECK(local.find("bins")->asNumber() == 100);
    CHECK(local.find("ratio")->asNumber() == 1.5);
    CHECK(local.find("padding")->asNumber() == 8);
    CHECK(set.echo.find("gates")->find("adaptive")->find("scope")->asString() == "client");
    REQUIRE(set.request);
    CHECK(set.request->server.admission->ratePerSecond == 10);
    CHECK(set.request->gates.local->ratio == 1.5);
    CHECK(sameValue(parseFleetRequest(rawFleet(*set.request)).echo, set.echo));
    const FleetParsed again = parseFleetRequest(set.echo);
    REQUIRE(again.errors.empty());
    CHECK(sameValue(again.echo, set.echo));
    const Value run = fleet(request({{"durationMs", num(2000)},
                                     {"server.admission", Value::object()},
                                     {"gates.adaptive", Value::object()},
                                     {"gates.local", Value::object()}}));
    REQUIRE(ok(run));
    CHECK(run.find("totals")->find("throttled") != nullptr);
    CHECK(run.find("totals")->find("failed")->find("local-throttle") != nullptr);
    const Value::Object& reasons = run.find("totals")->find("failed")->asObject();
    CHECK(reasons[reasons.size() - 2].key == "local-throttle");  // before unfinished
    const Value& first = run.find("timeline")->find("bins")->asArray()[0];
    CHECK(first.find("throttled") != nullptr);
    CHECK(first.find("gateWaitMs") != nullptr);
    CHECK(first.find("limiting") != nullptr);
    CHECK(first.find("sendRate") != nullptr);
}

TEST_CASE(
    "the cost bound counts the send gates: a throttler's lookbacks are bins × 16 bytes an owner, and emptying "
    "them is work; the held send is one more event",
    "[fleet][throttling][cost]") {
    // 10,000 clients, each a throttler of 10,000 bins: 10,000 × (160 + 2 × 8 × 10,000) bytes = 1.6 GB.
    FleetRequest wide = quietFleet();
    wide.clients = 10000;
    wide.ratePerClient = 0.001;  // little traffic: the bytes, not the time, are what passes the bound
    wide.policy.maxRetries = 0;
    wide.gates.local = LocalGate{GateScope::Client, 30000, 10000, 2, 8};
    const FleetCost w = fleetCost(wide);
    CHECK(w.bytes > 10000.0 * (160 + 160000));
    const Value memory = fleet(rawFleet(wide));
    CHECK(errorFields(memory) == "durationMs");
    CHECK(memory.find("errors")->asArray()[0].find("message")->asString().find("lower gates.local.bins") !=
          std::string::npos);
    wide.gates.local->scope = GateScope::Fleet;  // one throttler: 160 KB
    CHECK(fleetCost(wide).bytes < w.bytes - 1e9);

    // A bin of 0.1 µs (windowMs 1 over 10,000 bins): every question empties all 10,000 of both lookbacks.
    // One client at 1,000 a second for 10 s, no retries: 10,000 + 5 × 100 = 10,500 attempts at most, 2 questions
    // each: 2 × min(2 × 10,500 × 10,000, the 8 × 10^8 bins its heads can pass) = 420,000,000 bins emptied.
    FleetRequest fine = quietFleet();
    fine.clients = 1;
    fine.ratePerClient = 1000;
    fine.durationMs = 10000;
    fine.policy.maxRetries = 0;
    fine.server.admission = Admission{GateScope::Client, 100, 100, 0, std::nullopt};
    fine.gates.local = LocalGate{GateScope::Client, 1, 10000, 2, 8};
    const FleetCost f = fleetCost(fine);
    CHECK(f.clearedBins == 420000000);
    CHECK(errorFields(fleet(rawFleet(fine))) == "gates.local.bins");
    fine.gates.local->windowMs = 30000;  // bins of 3 ms: 2 × (80,000 / 3 + 1 + 10,000) = 73,334 at most
    CHECK(fleetCost(fine).clearedBins == 2 * (std::floor(80000 / 3.0) + 1 + 10000));
    CHECK(ok(fleet(rawFleet(fine))));

    // The held send: six events an attempt instead of five.
    FleetRequest held = quietFleet();
    const double five = fleetCost(held).events;
    held.gates.adaptive = AdaptiveGate{};
    CHECK(fleetCost(held).events - five == Approx(fleetCost(held).attempts));
}

TEST_CASE(
    "on generated requests with the admission limit and the send gates: every request ends once, the counts "
    "add up, 429s are by arrival in the bins, waits only with the limiter (hedged copies too)",
    "[fleet][throttling][hedging][relations][generated]") {
    Pcg32 g(34, 9);
    auto pick = [&g](std::uint32_t n) { return g.next() % n; };
    const auto scope = [&]() { return pick(2) ? GateScope::Fleet : GateScope::Client; };
    int withThrottled = 0, withRefusals = 0, withWaits = 0, withHedges = 0;  // the runs that exercised each
    for (int i = 0; i < 200; ++i) {
        INFO("generated request " << i);
        FleetRequest q = quietFleet();
        q.seed = pick(1000);
        q.clients = 1 + pick(20);
        q.arrivals = static_cast<Arrivals>(pick(4));
        q.ratePerClient = 0.5 + pick(80) / 4.0;
        q.durationMs = 500 + pick(5000);
        q.network.dist = pick(2) ? NetworkDist::Fixed : NetworkDist::Exponential;
        q.network.ms = pick(20);
        q.network.mean = pick(20);
        if (pick(3) == 0)
            q.server.workers.reset();
        else
            q.server.workers = 1 + pick(12);
        q.server.failureRate = pick(4) / 4.0;
        if (pick(4) != 0)
            q.server.admission =
                Admission{scope(), 1.0 + pick(50), 1.0 + pick(20), static_cast<double>(pick(3) * pick(40)),
                          pick(3) == 0 ? std::optional<double>(pick(300)) : std::nullopt};
        if (pick(3) == 0)
            q.trigger = Trigger{TriggerKind::Outage, static_cast<double>(pick(2000)), 2000.0 + pick(2000), 1};
        q.policy.maxRetries = static_cast<int>(pick(5));
        q.policy.baseBackoffMs = pick(200);
        q.policy.jitter = static_cast<Jitter>(pick(4));
        q.policy.clientTimeoutMs = 20 + pick(400);
        if (pick(3) == 0) q.policy.deadlineMs = static_cast<double>(pick(3000));
        q.policy.retryTimeout = pick(3) != 0;
        q.policy.retry5xx = pick(3) != 0;
        q.policy.retry429 = pick(3) != 0;
        q.policy.retryOn.clear();  // as the parser sets it, for the round trip below
        if (q.policy.retryTimeout) q.policy.retryOn.push_back("timeout");
        if (q.policy.retry5xx) q.policy.retryOn.push_back("5xx");
        if (q.policy.retry429) q.policy.retryOn.push_back("429");
        if (pick(3) == 0) {  // docs/throttling.md §6: hedged copies instead of retries
            q.policy.maxRetries = 0;
            Hedging h;
            h.maxAttempts = 2 + static_cast<int>(pick(4));
            h.delayMs = pick(300);
            const char* classes[] = {"timeout", "5xx", "429"};
            for (const char* c : classes)
                if (pick(2)) h.nonFatal.push_back(c);
            for (const std::string& c : h.nonFatal) {
                h.nonFatalTimeout = h.nonFatalTimeout || c == "timeout";
                h.nonFatal5xx = h.nonFatal5xx || c == "5xx";
                h.nonFatal429 = h.nonFatal429 || c == "429";
            }
            q.policy.hedging = h;
        }
        if (pick(2)) q.gates.adaptive = AdaptiveGate{scope()};
        if (pick(2))
            q.gates.local = LocalGate{scope(), 100.0 + pick(30000), 1 + pick(100), 1 + pick(20) / 10.0, 1.0 * pick(10)};
        if (pick(4) == 0)
            q.gates.breaker = BreakerGate{scope(), 1 + pick(20), 1 + pick(20), 50, 200.0 * pick(5), 1 + pick(5)};
        if (pick(4) == 0) q.gates.quota = QuotaGate{scope(), 50.0 + pick(100), 5, 10, 1};
        if (pick(4) == 0) q.gates.budget = BudgetGate{scope(), 20, 1.0 * pick(10), 1000.0 + pick(5000)};
        FleetTrace trace;
        const ServiceResult r = simulateService(q, &trace);
        const ServiceTotals& t = r.totals;
        REQUIRE(t.attempts == t.firstAttempts + t.retries);
        if (q.policy.hedging)
            REQUIRE(t.attempts <= t.requests * static_cast<std::uint64_t>(q.policy.hedging->maxAttempts));
        withHedges += q.policy.hedging && t.retries > 0;
        std::uint64_t ended = t.succeeded;
        for (int reason = 1; reason < kEndReasons; ++reason) ended += t.failed[reason];
        REQUIRE(ended == t.requests);
        REQUIRE(t.served + t.cancelled + t.shed + t.outageRejected + t.throttled <= t.attempts);
        if (!q.server.admission) REQUIRE(t.throttled == 0);
        if (!q.gates.local) REQUIRE(failed(r, EndReason::LocalThrottle) == 0);
        // A 429 is the only throttle the client counts, so without one p never passes 0 (ratio ≥ 1).
        if (!q.server.admission) REQUIRE(failed(r, EndReason::LocalThrottle) == 0);
        std::set<std::pair<std::uint32_t, std::uint32_t>> seen;
        for (const FleetTraceEnd& e : trace.ends) REQUIRE(seen.insert({e.client, e.request}).second);
        REQUIRE(seen.size() == t.requests);
        for (std::size_t k = 1; k < trace.events.size(); ++k) REQUIRE(trace.events[k - 1].tMs <= trace.events[k].tMs);
        std::uint64_t throttled = 0, created = 0, firsts = 0, retries = 0;
        for (const ServiceBin& b : r.bins) {
            throttled += b.throttled;
            created += b.created;
            firsts += b.firstAttempts;
            retries += b.retries;
            REQUIRE(b.gateWaitMs >= 0);
            if (!q.gates.adaptive) REQUIRE(b.gateWaitMs == 0);
        }
        REQUIRE(throttled == t.throttled);
        withThrottled += t.throttled > 0;
        withRefusals += failed(r, EndReason::LocalThrottle) > 0;
        for (const ServiceBin& b : r.bins) withWaits += b.gateWaitMs > 0 ? 1 : 0;
        REQUIRE(created == t.requests);
        REQUIRE(firsts == t.firstAttempts);
        REQUIRE(retries == t.retries);
        // The result is the same through the echo (every new field read back as given).
        const Value result = fleet(rawFleet(q));
        REQUIRE(ok(result));
        CHECK(sameValue(*result.find("totals"), *fleetToValue(Value::null(), q, r).find("totals")));
    }
    INFO(withThrottled << " runs with 429s, " << withRefusals << " with local refusals, " << withWaits
                       << " bins with waits, " << withHedges << " with hedges");
    CHECK(withThrottled >= 20);
    CHECK(withRefusals >= 5);
    CHECK(withWaits >= 5);
    CHECK(withHedges >= 10);
}

TEST_CASE("§5's draw: draw 0 of LOCAL (p = 9; client, request, attempt id) against p at the send",
          "[fleet][throttling][local]") {
    // Two clients at 0, one token for the fleet (refilled 0.001 a second: never again here), 429s retried after
    // 100; one throttler for the fleet, ratio 1, padding 0. 0: nothing in the window, 0 / 0 read as 0: both sent.
    // 10: client 1's 429 (a throttle). 60: client 0's 200 (an accept). 110: client 1's retry asks with
    // p = (2 − 1 × 1) / (2 + 0) = 0.5: refused iff 0.5 > u, u = draw 0 of LOCAL(client 1, request 0, attempt id 1).
    int refused = 0, sent = 0;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        INFO("seed " << seed);
        FleetRequest q = quietFleet();
        q.seed = seed;
        q.clients = 2;
        q.arrivals = Arrivals::Once;
        q.server.admission = Admission{GateScope::Fleet, 0.001, 1, 0, std::nullopt};
        q.policy.retryOn = {"429"};
        q.policy.retryTimeout = q.policy.retry5xx = false;
        q.policy.retry429 = true;
        q.gates.local = LocalGate{GateScope::Fleet, 30000, 100, 1, 0};
        const double u = streams::draw(streams::streamKey(seed, 9, 1, 0, 1), 0);
        FleetTrace trace;
        const ServiceResult r = simulateService(q, &trace);
        if (0.5 > u) {
            ++refused;
            CHECK(failed(r, EndReason::LocalThrottle) == 1);
            CHECK(r.totals.attempts == 2);
            CHECK(trace.ends.back().tMs == 110);
        } else {
            ++sent;
            CHECK(r.totals.attempts >= 3);
        }
    }
    CHECK(refused > 0);
    CHECK(sent > 0);
}

namespace {

// docs/throttling.md §7.4's fleet run: one client once, seed 1, legs of 5 ms, every service of 50 ms a 500,
// three retries after waits of 0, Envoy's admission control at its defaults.
FleetRequest admissionFigure() {
    FleetRequest q = oneClientOnce();
    q.seed = 1;
    q.server.serviceMs = 50;
    q.server.failureRate = 1;
    q.policy.maxRetries = 3;
    q.policy.baseBackoffMs = 0;
    q.gates.admissionControl = AdmissionControlGate{};
    return q;
}

}  // namespace

TEST_CASE(
    "§7.4's fleet figure: Envoy's admission control rejects attempts 3 and 4 at 120 (p = 2 / 3 against "
    "draws 0.4159… and 0.5334…): attempt-limit at 120, server attempts 2, admissionRejected 2; 240 without it",
    "[fleet][throttling][admissionControl]") {
    // ADMISSION (p = 12; client 0, request 0, attempt id a), FLEET §2's arithmetic, as §7.4 gives them.
    const double draws[] = {0.2120397778768529, 0.9572669640984334, 0.41592163399538495, 0.5334231999371475};
    for (std::uint64_t a = 0; a < 4; ++a) CHECK(streams::draw(streams::streamKey(1, 12, 0, 0, a), 0) == draws[a]);

    // 0: counts (0, 0), p = 0: sent; 500 at 60, recorded (1, 0). 60: p = (1 − 0) / 2 = 0.5, 5,000 > 9,572 no:
    // sent; 500 at 120, recorded (2, 0). 120: p = 2 / 3, 6,666.67 > 4,159: rejected, a 503 at 120, retried after
    // 0; 6,666.67 > 5,334: rejected; maxRetries 3 spent: attempt-limit at 120.
    const FleetRequest q = admissionFigure();
    FleetTrace trace;
    const ServiceResult r = simulateService(q, &trace);
    CHECK(sendTimes(trace) == std::vector<double>{0, 60, 120, 120});
    CHECK(r.totals.attempts == 2);
    CHECK(r.totals.firstAttempts == 1);
    CHECK(r.totals.retries == 1);
    CHECK(r.totals.served == 2);
    CHECK(r.totals.admissionRejected == 2);
    CHECK(failed(r, EndReason::AttemptLimit) == 1);
    CHECK(r.totals.endMs == 120);
    REQUIRE(trace.ends.size() == 1);
    CHECK(trace.ends[0].tMs == 120);
    REQUIRE(r.bins.size() == 1);
    CHECK(r.bins[0].admissionRejected == 2);
    CHECK(r.bins[0].retries == 1);

    SECTION("without the gate: four attempts reach the server (sent at 0, 60, 120, 180), the end at 240") {
        FleetRequest free = q;
        free.gates.admissionControl.reset();
        FleetTrace t;
        const ServiceResult f = simulateService(free, &t);
        CHECK(sendTimes(t) == std::vector<double>{0, 60, 120, 180});
        CHECK(f.totals.attempts == 4);
        CHECK(f.totals.admissionRejected == 0);
        CHECK(f.totals.endMs == 240);
    }
    SECTION("the rejection's 503 has no Retry-After (the server's rejectRetryAfterMs is for its own 503s)") {
        FleetRequest after = q;
        after.server.rejectRetryAfterMs = 1000;
        FleetTrace t;
        const ServiceResult a = simulateService(after, &t);
        CHECK(sendTimes(t) == std::vector<double>{0, 60, 120, 120});
        CHECK(a.totals.endMs == 120);
    }
    SECTION("fleet scope: one window, here the same") {
        FleetRequest fleetScoped = q;
        fleetScoped.gates.admissionControl->scope = GateScope::Fleet;
        const ServiceResult f = simulateService(fleetScoped);
        CHECK(f.totals.attempts == 2);
        CHECK(f.totals.admissionRejected == 2);
    }
    SECTION(
        "rpsThreshold 1: the average rate, read before the update, is floor(n / 30) = 0 < 1 at every send: "
        "nothing is rejected") {
        FleetRequest quiet = q;
        quiet.gates.admissionControl->rpsThreshold = 1;
        const ServiceResult f = simulateService(quiet);
        CHECK(f.totals.attempts == 4);
        CHECK(f.totals.admissionRejected == 0);
    }
    SECTION(
        "maxRejectionProbability 40: p = min(2 / 3, 0.4), 4,000 > 4,159 no: attempt 3 sent (500 at 180, "
        "(3, 0)); attempt 4: min(3 / 4, 0.4), 4,000 > 5,334 no: sent, the end at 240") {
        FleetRequest capped = q;
        capped.gates.admissionControl->maxRejectionProbability = 40;
        const ServiceResult f = simulateService(capped);
        CHECK(f.totals.attempts == 4);
        CHECK(f.totals.admissionRejected == 0);
        CHECK(f.totals.endMs == 240);
    }
    SECTION("a 200 is a success: failureRate 0 ends in success at 60, nothing rejected") {
        FleetRequest fine = q;
        fine.server.failureRate = 0;
        const ServiceResult f = simulateService(fine);
        CHECK(f.totals.succeeded == 1);
        CHECK(f.totals.admissionRejected == 0);
    }
    SECTION(
        "the breaker records a rejection as a failure: a window of 3 opening at 100 % opens at the first "
        "rejection (500, 500, 503); the next attempt is refused at 120") {
        FleetRequest broken = q;
        broken.gates.breaker = BreakerGate{GateScope::Client, 3, 3, 100, 60000, 1};
        const ServiceResult f = simulateService(broken);
        CHECK(f.totals.admissionRejected == 1);
        CHECK(failed(f, EndReason::CircuitOpen) == 1);
        CHECK(f.totals.endMs == 120);
    }
    SECTION("the default retryOn retries the 503, a retryOn without 5xx does not: the first 500 at 60 ends it") {
        FleetRequest only = q;
        retryTimeoutsOnly(only.policy);
        const ServiceResult f = simulateService(only);
        CHECK(failed(f, EndReason::NotRetryable) == 1);
        CHECK(f.totals.endMs == 60);
    }
}

TEST_CASE(
    "§7 with §6's hedging: a rejected copy is a copy answered by a 5xx: non-fatal, and the last, it ends "
    "the request attempt-limit at once",
    "[fleet][throttling][admissionControl][hedging]") {
    // §7.4's run with three hedged copies instead of retries, 5xx non-fatal: copy 1 at 0 (p = 0), 500 at 60,
    // (1, 0); copy 2 at once at 60 (p = 0.5 against 0.957…: sent), 500 at 120, (2, 0); copy 3 at once at 120,
    // p = 2 / 3 against 0.4159…: rejected, a 503 at 120; no copy left and none in flight: attempt-limit at 120
    // (the copies scheduled on delayMs, at 1,000 and 1,060, come after the end: no events).
    FleetRequest q = admissionFigure();
    q.policy.maxRetries = 0;
    Hedging h;
    h.maxAttempts = 3;
    h.delayMs = 1000;
    h.nonFatal = {"5xx"};
    h.nonFatal5xx = true;
    q.policy.hedging = h;
    FleetTrace trace;
    const ServiceResult r = simulateService(q, &trace);
    CHECK(sendTimes(trace) == std::vector<double>{0, 60, 120});
    CHECK(r.totals.attempts == 2);
    CHECK(r.totals.retries == 1);
    CHECK(r.totals.admissionRejected == 1);
    CHECK(failed(r, EndReason::AttemptLimit) == 1);
    CHECK(r.totals.endMs == 120);
    // Without the filter copy 3 is sent at 120 and fails at 180.
    q.gates.admissionControl.reset();
    const ServiceResult free = simulateService(q);
    CHECK(free.totals.attempts == 3);
    CHECK(free.totals.endMs == 180);
    // 5xx fatal: copy 1's 500 at 60 ends the request not-retryable, before any rejection.
    q.gates.admissionControl = AdmissionControlGate{};
    q.policy.hedging->nonFatal.clear();
    q.policy.hedging->nonFatal5xx = false;
    const ServiceResult fatal = simulateService(q);
    CHECK(failed(fatal, EndReason::NotRetryable) == 1);
    CHECK(fatal.totals.endMs == 60);
}

TEST_CASE(
    "§7.3: a 429 is a success for the filter (a status below 500): §4's two clients against one token, "
    "client 1's retries after its 429s are never rejected",
    "[fleet][throttling][admissionControl]") {
    // Seed 1, two clients at 0, a fleet limit of 1 token (1 a second), 429s retried after 0, a filter per client.
    // Client 0 takes the token at 5 (200 at 60); client 1's 429s at 5, 15, 25, 35 (0.01 token more each 10 ms) reach
    // it at 10, 20, 30, 40, each recorded a success: (1, 1), (2, 2), …, so p = (n − n / 0.95) / (n + 1) < 0 at each
    // retry: sent at 10, 20, 30; attempt-limit at 40. Were a 429 a failure, p at 10 would be (1 − 0) / 2 = 0.5
    // against draw 0 of ADMISSION(1, 0, 1) = 0.342…: rejected.
    CHECK(streams::draw(streams::streamKey(1, 12, 1, 0, 1), 0) < 0.5);
    FleetRequest q = quietFleet();
    q.seed = 1;
    q.clients = 2;
    q.arrivals = Arrivals::Once;
    q.server.admission = Admission{GateScope::Fleet, 1, 1, 0, std::nullopt};
    q.policy.retryOn = {"429"};
    q.policy.retryTimeout = q.policy.retry5xx = false;
    q.policy.retry429 = true;
    q.policy.baseBackoffMs = 0;
    q.gates.admissionControl = AdmissionControlGate{};
    FleetTrace trace;
    const ServiceResult r = simulateService(q, &trace);
    CHECK(sendTimes(trace) == std::vector<double>{0, 0, 10, 20, 30});
    CHECK(r.totals.admissionRejected == 0);
    CHECK(r.totals.attempts == 5);
    CHECK(r.totals.throttled == 4);
    CHECK(failed(r, EndReason::AttemptLimit) == 1);
    CHECK(r.totals.endMs == 60);
    REQUIRE(trace.ends.size() == 2);
    CHECK(trace.ends[0].tMs == 40);
}

TEST_CASE(
    "§7: a rejection is recorded nowhere and counts as no attempt: over generated runs the attempts the gate "
    "lets through plus its rejections are the sends, every request ends once",
    "[fleet][throttling][admissionControl][generated]") {
    Pcg32 g(34, 12);
    auto pick = [&g](std::uint32_t n) { return g.next() % n; };
    int withRejections = 0;
    for (int i = 0; i < 60; ++i) {
        INFO("generated request " << i);
        FleetRequest q = quietFleet();
        q.seed = pick(1000);
        q.clients = 1 + pick(10);
        q.ratePerClient = 1 + pick(40);
        q.durationMs = 1000 + pick(5000);
        q.server.failureRate = pick(5) / 4.0;
        q.server.workers.reset();
        q.policy.maxRetries = static_cast<int>(pick(4));
        q.policy.baseBackoffMs = pick(100);
        if (pick(3) == 0) q.gates.adaptive = AdaptiveGate{pick(2) ? GateScope::Fleet : GateScope::Client};
        if (pick(3) == 0)
            q.gates.breaker =
                BreakerGate{GateScope::Fleet, 1 + pick(20), 1 + pick(20), 50, 200.0 * pick(5), 1 + pick(5)};
        q.gates.admissionControl = AdmissionControlGate{pick(2) ? GateScope::Fleet : GateScope::Client,
                                                        1000.0 * (1 + pick(30)),
                                                        50.0 + pick(51),
                                                        1.0 + pick(4),
                                                        static_cast<double>(pick(3)),
                                                        20.0 + pick(81)};
        FleetTrace trace;
        const ServiceResult r = simulateService(q, &trace);
        const ServiceTotals& t = r.totals;
        REQUIRE(t.attempts == t.firstAttempts + t.retries);
        std::uint64_t ended = t.succeeded;
        for (int reason = 1; reason < kEndReasons; ++reason) ended += t.failed[reason];
        REQUIRE(ended == t.requests);
        REQUIRE(t.served <= t.attempts);
        std::uint64_t rejected = 0;
        for (const ServiceBin& b : r.bins) rejected += b.admissionRejected;
        REQUIRE(rejected == t.admissionRejected);
        if (q.server.failureRate == 0) REQUIRE(t.admissionRejected == 0);  // p ≤ 0 with every answer a success
        // Each attempt number a request reaches is one send: sent, rejected, or refused before the gate.
        REQUIRE(t.attempts + t.admissionRejected <= t.requests * static_cast<std::uint64_t>(*q.policy.maxRetries + 1));
        withRejections += t.admissionRejected > 0;
        const Value result = fleet(rawFleet(q));
        REQUIRE(ok(result));
        CHECK(sameValue(*result.find("totals"), *fleetToValue(Value::null(), q, r).find("totals")));
    }
    CHECK(withRejections >= 10);
}

TEST_CASE(
    "gates.admissionControl: errors name their paths (windowMs a whole number of seconds); absent or null "
    "it leaves every echo and result as before; given, echoed in full and read back",
    "[fleet][throttling][admissionControl][validation]") {
    const Value bad = fleet(request({{"gates.admissionControl.windowMs", num(999)},
                                     {"gates.admissionControl.srThreshold", num(101)},
                                     {"gates.admissionControl.aggression", num(0.5)},
                                     {"gates.admissionControl.rpsThreshold", num(1.5)},
                                     {"gates.admissionControl.maxRejectionProbability", num(-1)},
                                     {"gates.admissionControl.scope", str("region")}}));
    CHECK(errorFields(bad) ==
          "gates.admissionControl.scope,gates.admissionControl.windowMs,gates.admissionControl.srThreshold,"
          "gates.admissionControl.aggression,gates.admissionControl.rpsThreshold,"
          "gates.admissionControl.maxRejectionProbability");
    const Value half = fleet(request({{"gates.admissionControl.windowMs", num(1500)}}));
    CHECK(errorFields(half) == "gates.admissionControl.windowMs");
    CHECK(half.find("errors")->asArray()[0].find("message")->asString() ==
          "gates.admissionControl.windowMs must be a whole number of seconds (a multiple of 1000: Envoy's "
          "sampling_window is in seconds); got 1500.");
    CHECK(errorFields(fleet(request({{"gates.admissionControl.windowMs", num(86401000)}}))) ==
          "gates.admissionControl.windowMs");
    CHECK(errorFields(fleet(request({{"gates.admissionControl.burst", num(1)}}))) == "gates.admissionControl.burst");
    CHECK(ok(fleet(request({{"gates.admissionControl.windowMs", num(1000)}, {"durationMs", num(2000)}}))));

    const Value small = request({{"clients", num(5)}, {"durationMs", num(5000)}});
    Value nulls = small;
    setPath(nulls, "gates.admissionControl", Value::null());
    const Value a = fleet(small), b = fleet(nulls);
    REQUIRE(ok(a));
    CHECK(sameValue(a, b));
    CHECK(a.find("request")->find("gates")->find("admissionControl") == nullptr);
    CHECK(a.find("totals")->find("admissionRejected") == nullptr);
    CHECK(a.find("timeline")->find("bins")->asArray()[0].find("admissionRejected") == nullptr);

    const FleetParsed set = parseFleetRequest(request({{"gates.admissionControl.aggression", num(2)}}));
    REQUIRE(set.errors.empty());
    const Value& ac = *set.echo.find("gates")->find("admissionControl");
    CHECK(ac.find("scope")->asString() == "client");
    CHECK(ac.find("windowMs")->asNumber() == 30000);
    CHECK(ac.find("srThreshold")->asNumber() == 95);
    CHECK(ac.find("aggression")->asNumber() == 2);
    CHECK(ac.find("rpsThreshold")->asNumber() == 0);
    CHECK(ac.find("maxRejectionProbability")->asNumber() == 80);
    REQUIRE(set.request);
    CHECK(set.request->gates.admissionControl->aggression == 2);
    CHECK(sameValue(parseFleetRequest(rawFleet(*set.request)).echo, set.echo));
    const Value run = fleet(request({{"durationMs", num(2000)}, {"gates.admissionControl", Value::object()}}));
    REQUIRE(ok(run));
    CHECK(run.find("totals")->find("admissionRejected") != nullptr);
    CHECK(run.find("timeline")->find("bins")->asArray()[0].find("admissionRejected") != nullptr);
}

TEST_CASE(
    "the cost bound counts the admission control windows: at most windowMs / 1000 buckets an owner, and "
    "none older than the run",
    "[fleet][throttling][admissionControl][cost]") {
    FleetRequest q = quietFleet();
    q.clients = 10000;
    q.ratePerClient = 0.01;
    q.durationMs = 60000;
    q.policy.maxRetries = 0;
    const double base = fleetCost(q).bytes;
    q.gates.admissionControl = AdmissionControlGate{};
    // A client-scoped gate: 10,001 owners of 200 bytes instead of 1; 10,000 windows of 96 bytes; and
    // 3 × 24 × min(10,000 × 30, 2 × attempts + 10,000) bucket bytes, the attempts 6,000 + 5 × √6,000 = 6,387.3.
    const FleetCost c = fleetCost(q);
    const double attempts = 6000 + 5 * std::sqrt(6000.0);
    CHECK(c.bytes - base == Approx(200 * 10000 + 10000 * 96 + 3 * 24 * (2 * attempts + 10000)).epsilon(1e-12));
    // The window longer than the run: the horizon's 180 s + 1 an owner at most.
    q.ratePerClient = 1000;
    q.clients = 1;
    q.gates.admissionControl->windowMs = 86400000;
    const double one = fleetCost(q).bytes;
    q.gates.admissionControl.reset();
    CHECK(one - fleetCost(q).bytes == Approx(200 + 96 + 3 * 24 * 181.0).epsilon(1e-12));  // 2 owners instead of 1
}
