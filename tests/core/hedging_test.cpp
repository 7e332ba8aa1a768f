// The single run's hedging (docs/throttling.md §6.1: gRPC A6's copies; §8: Envoy's hedge on
// per-try timeout). Every expected figure is worked by hand in the doc and in the comments here.
#include <catch2/catch.hpp>

#include "support.hpp"

using namespace retrylab;
using namespace retrylab::test;

namespace {
HedgePolicy a6(int maxAttempts, double delayMs, RetryOn nonFatal = RetryOn{false, false, false, false}) {
    HedgePolicy h;
    h.maxAttempts = maxAttempts;
    h.delayMs = delayMs;
    h.nonFatal = nonFatal;
    return h;
}

// §6.1's A6 timeline: a 200 after 2,000 ms; copies every 500 ms, at most 4.
Inputs a6Timeline(bool key) {
    Inputs in = scripted(Inputs{}, {answer(200)});
    in.responseMs = 2000;
    in.clientTimeoutMs = 5000;
    in.maxRetries = 0;
    in.idempotencyKey = key;
    in.hedging = a6(4, 500);
    return in;
}

// §6.1's lost response, hedged 500 ms after the first copy.
Inputs lostHedged(bool key) {
    Inputs in = scripted(Inputs{}, {lostAnswer(200), answer(200)});
    in.responseMs = 400;
    in.clientTimeoutMs = 3000;
    in.maxRetries = 0;
    in.idempotencyKey = key;
    in.hedging = a6(2, 500);
    return in;
}

// §8's single run: the answer takes 1,500 ms, the per-try timeout is 1,000 ms.
Inputs perTry(bool hedged, bool key) {
    Inputs in = scripted(Inputs{}, {answer(200)});
    in.responseMs = 1500;
    in.maxRetries = 2;
    in.clientTimeoutMs = 1000;
    in.baseBackoffMs = 25;
    in.deadlineMs = 10000.0;
    in.idempotencyKey = key;
    if (hedged) {
        HedgePolicy h;
        h.kind = HedgeKind::PerTryTimeout;
        in.hedging = h;
    }
    return in;
}

std::vector<double> starts(const Run& run) {
    std::vector<double> out;
    for (const AttemptRow& a : run.attempts) out.push_back(a.startMs);
    return out;
}
std::vector<double> commits(const Run& run) {
    std::vector<double> out;
    for (const AttemptRow& a : run.attempts)
        if (a.commitMs) out.push_back(*a.commitMs);
    return out;
}
int count(const Run& run, EventKind kind) {
    int n = 0;
    for (const Event& e : run.events) n += e.kind == kind;
    return n;
}
}  // namespace

TEST_CASE("A6's timeline in the single run: copies at 0, 500, 1,000, 1,500, four charges for one success",
          "[hedging]") {
    const Run run = simulate(a6Timeline(false));
    CHECK(starts(run) == std::vector<double>{0, 500, 1000, 1500});
    CHECK(commits(run) == std::vector<double>{2000, 2500, 3000, 3500});
    CHECK(run.metrics.attempts == 4);
    CHECK(run.metrics.charges == 4);
    CHECK(run.metrics.duplicates == 3);
    CHECK(run.metrics.hedges == 3);
    CHECK(run.metrics.lateAnswers == 3);
    CHECK(run.metrics.elapsedMs == 2000);
    CHECK(run.metrics.waitingMs == 0);
    CHECK(run.metrics.outcome == Outcome::Success);
    CHECK(run.metrics.stopReason == StopReason::Success);
    CHECK(run.metrics.agentReport == "success");
    CHECK_FALSE(run.attempts[0].hedge);
    for (std::size_t i = 1; i < 4; ++i) {
        CHECK(run.attempts[i].hedge);
        CHECK(run.attempts[i].cancelled);
        CHECK(run.attempts[i].clientSaw == "cancelled");
        CHECK(run.attempts[i].endMs == 2000);
        CHECK(run.attempts[i].chargeNumber == static_cast<int>(i) + 1);
    }
    CHECK(run.attempts[0].clientSaw == "200");
    CHECK(count(run, EventKind::Cancel) == 3);
    // The late charges follow the stop in time order.
    REQUIRE(run.events.back().kind == EventKind::Commit);
    CHECK(run.events.back().tMs == 3500);
    CHECK(
        run.events[1].text ==
        "attempt 2: the client sends charge op-0001 without an idempotency key; a hedge: attempt 1 is still in flight");
}

TEST_CASE("A6's timeline with a key: copies 2-4 meet charge #1's work in flight, three 409s and one charge",
          "[hedging]") {
    const Run run = simulate(a6Timeline(true));
    CHECK(run.metrics.charges == 1);
    CHECK(run.metrics.replays == 0);
    CHECK(run.metrics.duplicates == 0);
    CHECK(run.metrics.elapsedMs == 2000);
    for (std::size_t i = 1; i < 4; ++i) CHECK(run.attempts[i].server == "409");
}

TEST_CASE("a hedged lost response: the second copy's 200 at 900 ms, two charges; with a key one and a replay",
          "[hedging]") {
    const Run bare = simulate(lostHedged(false));
    CHECK(starts(bare) == std::vector<double>{0, 500});
    CHECK(bare.metrics.elapsedMs == 900);
    CHECK(bare.metrics.charges == 2);
    CHECK(bare.metrics.outcome == Outcome::Success);
    CHECK(bare.attempts[0].cancelled);  // its timeout at 3,000 never comes
    CHECK(bare.attempts[0].endMs == 900);
    const Run keyed = simulate(lostHedged(true));
    CHECK(keyed.metrics.charges == 1);
    CHECK(keyed.metrics.replays == 1);
    CHECK(keyed.attempts[1].server == "replay");
    CHECK(keyed.metrics.elapsedMs == 900);
}

TEST_CASE("a non-fatal 5xx sends the next copy at once; a fatal one ends the run", "[hedging]") {
    Inputs in;
    in.scenario = Scenario::Outage503Twice;
    in.maxRetries = 0;
    in.hedging = a6(3, 1000, RetryOn{false, false, true, false});
    const Run run = simulate(in);
    CHECK(starts(run) == std::vector<double>{0, 200, 400});
    CHECK(run.metrics.hedges == 0);
    CHECK(run.metrics.charges == 1);
    CHECK(run.metrics.elapsedMs == 600);
    CHECK(run.metrics.outcome == Outcome::Success);
    in.hedging = a6(3, 1000);
    const Run fatal = simulate(in);
    CHECK(fatal.metrics.attempts == 1);
    CHECK(fatal.metrics.stopReason == StopReason::NotRetryable);
    CHECK(fatal.metrics.outcome == Outcome::Failed);
    CHECK(fatal.metrics.agentReport == "error 503");
    CHECK(fatal.metrics.elapsedMs == 200);
}

TEST_CASE("a hedged run never ends later than its first copy's answer, and charges once per copy served", "[hedging]") {
    // A relation over many runs: a 200 after responseMs, copies delayMs apart: the run ends at
    // responseMs, and without a key every copy sent by then is charged: 1 + ⌊(r − ε)/d⌋ copies,
    // at most maxAttempts (a copy due at the very instant of the 200 is not sent).
    for (double r : {100.0, 250.0, 1000.0, 1999.0}) {
        for (double d : {0.0, 50.0, 300.0, 1000.0}) {
            for (int m = 2; m <= 5; ++m) {
                Inputs in = scripted(Inputs{}, {answer(200)});
                in.responseMs = r;
                in.clientTimeoutMs = 5000;
                in.maxRetries = 0;
                in.hedging = a6(m, d);
                const Run run = simulate(in, false);
                int expected = 1;
                while (expected < m && expected * d < r) ++expected;
                INFO("responseMs " << r << ", delayMs " << d << ", maxAttempts " << m);
                CHECK(run.metrics.elapsedMs == r);
                CHECK(run.metrics.attempts == expected);
                CHECK(run.metrics.charges == expected);
                CHECK(run.metrics.hedges == expected - 1);
            }
        }
    }
}

TEST_CASE("every copy timing out: attempt-limit at the last timeout, the outcome unknown", "[hedging]") {
    Inputs in = scripted(Inputs{}, {lostAnswer(200)});
    in.responseMs = 100;
    in.clientTimeoutMs = 1000;
    in.maxRetries = 0;
    in.hedging = a6(3, 300, RetryOn{true, false, false, false});
    // Copies at 0, 300, 600; each times out 1,000 ms later; the last at 1,600.
    const Run run = simulate(in);
    CHECK(starts(run) == std::vector<double>{0, 300, 600});
    CHECK(run.metrics.stopReason == StopReason::AttemptLimit);
    CHECK(run.metrics.elapsedMs == 1600);
    CHECK(run.metrics.outcome == Outcome::Unknown);
    CHECK(run.metrics.charges == 3);
    CHECK(run.metrics.lookupNeeded);
}

TEST_CASE("the deadline refuses a late copy and cuts the ones in flight", "[hedging]") {
    Inputs in = scripted(Inputs{}, {lostAnswer(200)});
    in.responseMs = 100;
    in.clientTimeoutMs = 5000;
    in.deadlineMs = 1000.0;
    in.maxRetries = 0;
    in.hedging = a6(5, 400, RetryOn{true, false, false, false});
    // Copies at 0, 400 and 800 (800 + 100 ≤ 1,000); the one due at 1,200 never comes:
    // Every copy's timeout (5,000 on) is after the deadline: the deadline ends the run at 1,000.
    const Run run = simulate(in);
    CHECK(starts(run) == std::vector<double>{0, 400, 800});
    CHECK(run.metrics.stopReason == StopReason::Deadline);
    CHECK(run.metrics.elapsedMs == 1000);
    CHECK(count(run, EventKind::Deadline) == 3);
    CHECK(run.metrics.lateAnswers == 0);
}

TEST_CASE("a copy the deadline refuses, with none in flight, ends the run deadline at that instant", "[hedging]") {
    // 503 at 200 sends copy 2 at once (200 + 200 ≤ 500); its 503 at 400 would send copy 3 at
    // 400, which would end at 600, after the 500 ms deadline: refused, nothing in flight.
    Inputs in;
    in.scenario = Scenario::Outage503Twice;
    in.maxRetries = 0;
    in.deadlineMs = 500.0;
    in.hedging = a6(3, 1000, RetryOn{false, false, true, false});
    const Run run = simulate(in);
    CHECK(starts(run) == std::vector<double>{0, 200});
    CHECK(run.metrics.stopReason == StopReason::Deadline);
    CHECK(run.metrics.elapsedMs == 400);
    CHECK(run.metrics.outcome == Outcome::Failed);
    CHECK(run.metrics.agentReport == "error 503");
    CHECK(run.events.back().text ==
          "the run stops: attempt 3 would start at 400 ms and end at 600 ms, after the 500 ms deadline");
}

TEST_CASE("§8 single run without hedging: three timeouts, attempt-limit at 3,075, three charges", "[hedging]") {
    const Run run = simulate(perTry(false, false));
    CHECK(starts(run) == std::vector<double>{0, 1025, 2075});
    CHECK(commits(run) == std::vector<double>{1500, 2525, 3575});
    CHECK(run.metrics.stopReason == StopReason::AttemptLimit);
    CHECK(run.metrics.elapsedMs == 3075);
    CHECK(run.metrics.outcome == Outcome::Unknown);
    CHECK(run.metrics.charges == 3);
}

TEST_CASE("§8 single run hedged on per-try timeout: attempt 1's 200 at 1,500 wins, two charges; one with a key",
          "[hedging]") {
    const Run run = simulate(perTry(true, false));
    CHECK(starts(run) == std::vector<double>{0, 1025});
    CHECK(commits(run) == std::vector<double>{1500, 2525});
    CHECK(run.metrics.outcome == Outcome::Success);
    CHECK(run.metrics.elapsedMs == 1500);
    CHECK(run.metrics.charges == 2);
    CHECK(run.metrics.hedges == 1);
    CHECK(run.metrics.waitingMs == 25);
    CHECK(run.attempts[0].waitAfterMs == 25.0);
    CHECK(run.attempts[0].clientSaw == "200");
    CHECK(run.attempts[1].cancelled);
    const Run keyed = simulate(perTry(true, true));
    CHECK(keyed.metrics.charges == 1);
    CHECK(keyed.attempts[1].server == "409");
}

TEST_CASE("per-try timeout: a retryable error from an attempt not hedged is retried as SPEC says", "[hedging]") {
    // 503 at 200 (before the 1,000 ms per-try timeout): wait 25, attempt 2 at 225, 200 at 425.
    Inputs in = perTry(true, false);
    in.scenario = Scenario::Outage503Twice;
    in.responseMs = 200;
    const Run run = simulate(in);
    CHECK(starts(run) == std::vector<double>{0, 225, 475});  // 425 + 50: the second 503's wait
    CHECK(run.metrics.elapsedMs == 675);
    CHECK(run.metrics.hedges == 0);
    CHECK(run.metrics.outcome == Outcome::Success);
}

TEST_CASE("hedging null leaves the run as it was, and the input is checked", "[hedging]") {
    Value plain = compute(Value::object());
    CHECK(plain.find("inputs")->find("hedging") == nullptr);
    CHECK(plain.find("metrics")->find("hedges") == nullptr);
    CHECK(plain.find("attempts")->asArray()[0].find("hedge") == nullptr);
    Value withNull = compute(obj({{"hedging", Value::null()}}));
    CHECK(sameValue(plain, withNull));

    auto errorsOf = [](const Value& inputs) {
        std::vector<std::string> out;
        const Value result = compute(inputs);
        for (const Value& e : result.find("errors")->asArray()) out.push_back(e.find("field")->asString());
        return out;
    };
    const Value hedge = obj({{"maxAttempts", num(2)}});
    CHECK(errorsOf(obj({{"hedging", hedge}})) == std::vector<std::string>{"hedging"});  // maxRetries 3
    CHECK(errorsOf(obj({{"maxRetries", num(0)}, {"hedging", obj({})}})) ==
          std::vector<std::string>{"hedging.maxAttempts"});
    CHECK(errorsOf(obj({{"maxRetries", num(0)}, {"hedging", obj({{"maxAttempts", num(6)}})}})) ==
          std::vector<std::string>{"hedging.maxAttempts"});
    CHECK(errorsOf(obj({{"hedging", obj({{"kind", str("per-try-timeout")}, {"delayMs", num(5)}})}})) ==
          std::vector<std::string>{"hedging.delayMs"});
    CHECK(errorsOf(obj({{"deadlineMs", Value::null()}, {"hedging", obj({{"kind", str("per-try-timeout")}})}})) ==
          std::vector<std::string>{"hedging.kind"});
    CHECK(errorsOf(obj({{"maxRetries", num(0)}, {"callers", num(2)}, {"hedging", hedge}})) ==
          std::vector<std::string>{"callers"});
    CHECK(errorsOf(obj({{"maxRetries", num(0)}, {"layers", list({obj({})})}, {"hedging", hedge}})) ==
          std::vector<std::string>{"hedging"});

    Value ok = compute(obj({{"maxRetries", num(0)}, {"hedging", hedge}}));
    REQUIRE(ok.find("ok")->asBool());
    const Value& echoed = *ok.find("inputs")->find("hedging");
    CHECK(echoed.find("kind")->asString() == "a6");
    CHECK(echoed.find("delayMs")->asNumber() == 0);
    CHECK(ok.find("metrics")->find("hedges") != nullptr);
    // The echo reproduces the run.
    CHECK(sameValue(compute(*ok.find("inputs")), ok));
}
