// Traces A–F of the invented policy (seed 000_0a5354d27fdd3fee.txt) and SPEC §9's second half.
#include <catch2/catch.hpp>

#include "support.hpp"

using namespace retrylab;
using namespace retrylab::test;

TEST_CASE("trace A: the Retry-After header wins, then two jittered waits; 3.90 s waiting", "[seed][policy][trace-a]") {
    Inputs in = scripted(seedPolicy(), {answerWithRetryAfter(429, "2"), answer(503), answer(503), answer(200)});
    in.draws = {0.40, 0.75};
    Run run = simulate(in);
    REQUIRE(run.attempts.size() == 4);
    CHECK(run.attempts[0].waitAfterMs == 2000.0);
    CHECK(run.attempts[0].waitRule == "Retry-After: 2 (header wins)");
    CHECK_FALSE(run.attempts[0].draw);
    CHECK(run.attempts[1].ceilingMs == 1000.0);
    CHECK(run.attempts[1].draw == 0.40);
    CHECK(run.attempts[1].waitAfterMs == Approx(400));
    CHECK(run.attempts[1].waitRule == "ceiling 1000 ms × draw 0.40");
    CHECK(run.attempts[2].ceilingMs == 2000.0);
    CHECK(run.attempts[2].waitAfterMs == Approx(1500));
    CHECK(run.metrics.waitingMs == Approx(3900));
    CHECK(run.metrics.outcome == Outcome::Success);
    CHECK(run.metrics.attempts == 4);
}

TEST_CASE("trace B: the provider stays down; five attempts and 3.85 s of waiting", "[seed][policy][trace-b]") {
    Inputs in = scripted(seedPolicy(), {answer(503)});
    in.draws = {0.90, 0.20, 0.60, 0.50};
    Run run = simulate(in);
    REQUIRE(run.attempts.size() == 5);
    const double ceilings[] = {500, 1000, 2000, 4000};
    const double waits[] = {450, 200, 1200, 2000};
    for (int i = 0; i < 4; ++i) {
        CHECK(run.attempts[static_cast<std::size_t>(i)].ceilingMs == ceilings[i]);
        CHECK(*run.attempts[static_cast<std::size_t>(i)].waitAfterMs == Approx(waits[i]));
    }
    CHECK(run.metrics.waitingMs == Approx(3850));
    CHECK(run.metrics.outcome == Outcome::Failed);
    CHECK(run.metrics.stopReason == StopReason::AttemptLimit);
}

TEST_CASE("trace C: a date-form Retry-After waits 7 s from the response's own Date",
          "[seed][policy][trace-c][retry-after]") {
    ScriptEntry limited = answerWithRetryAfter(429, "Sun, 29 Nov 2026 10:00:07 GMT");
    limited.date = "Sun, 29 Nov 2026 10:00:00 GMT";
    limited.dateSeconds = Inputs{}.startSeconds;
    SECTION("with the Date header given") {}
    SECTION("with the Date made from the start date and the send time (10:00:00.200 rounds down)") {
        limited.date.reset();
        limited.dateSeconds.reset();
    }
    Run run = simulate(scripted(seedPolicy(), {limited, answer(200)}));
    REQUIRE(run.attempts.size() == 2);
    CHECK(run.attempts[0].waitAfterMs == 7000.0);
    REQUIRE(run.attempts[0].retryAfter);
    CHECK(run.attempts[0].retryAfter->note == "date");
    CHECK(run.attempts[1].startMs == 7200);
    CHECK(run.metrics.outcome == Outcome::Success);
}

TEST_CASE("trace D: 400, 401 and 404 are returned after one attempt", "[seed][policy][trace-d]") {
    int status = GENERATE(400, 401, 404);
    Run run = simulate(scripted(seedPolicy(), {answer(status)}));
    CHECK(run.metrics.attempts == 1);
    CHECK(run.metrics.stopReason == StopReason::NotRetryable);
    CHECK(run.metrics.agentReport == "error " + std::to_string(status));
}

TEST_CASE("trace E: a keyed create through a lost response leaves one record after two requests",
          "[seed][policy][trace-e][key]") {
    Inputs in = seedPolicy();
    in.operation = Operation::Create;
    in.scenario = Scenario::ResponseLost;
    in.idempotencyKey = true;
    in.draws = {0.5};
    Run run = simulate(in);
    CHECK(run.metrics.attempts == 2);
    CHECK(run.metrics.charges == 1);  // the fake provider holds 1 record for op-0001
    CHECK(run.attempts[0].effect == "record #1 for op-0001");
    CHECK(run.attempts[1].server == "replay");
    CHECK(run.metrics.outcome == Outcome::Success);
}

TEST_CASE("trace E without an identifier: one request, unknown, no retry, lookup needed", "[seed][policy][trace-e]") {
    Inputs in = seedPolicy();
    in.operation = Operation::Create;
    in.scenario = Scenario::ResponseLost;
    Run run = simulate(in);
    CHECK(run.metrics.attempts == 1);
    CHECK(run.metrics.charges == 1);
    CHECK(run.metrics.outcome == Outcome::Unknown);
    CHECK(run.metrics.stopReason == StopReason::WriteWithoutKey);
    CHECK(run.metrics.lookupNeeded);
    CHECK(run.metrics.waitingMs == 0);
}

namespace {
Inputs traceF() {
    Inputs in = scripted(seedPolicy(), {answer(429)});
    in.callers = 50;
    return in;
}

bool bucketCheckPasses(const Herd& herd) {
    // 0.5 s ceiling, 100 ms buckets: five of them; at least four occupied, none above 25.
    return herd.buckets.size() == 5 && herd.occupied >= 4 && herd.fullest <= 25;
}
}  // namespace

TEST_CASE("trace F: fifty callers' first retries spread over the 100 ms buckets (default seed)",
          "[seed][policy][trace-f][herd]") {
    Run run = simulate(traceF());
    REQUIRE(run.herd);
    CHECK(run.herd->callers == 50);
    CHECK(run.herd->bucketMs == 100);
    CHECK(run.herd->notRetried == 0);
    CHECK(bucketCheckPasses(*run.herd));
    std::uint32_t total = 0;
    for (std::uint32_t b : run.herd->buckets) total += b;
    CHECK(total == 50);
}

TEST_CASE("trace F's bucket check passes for a thousand seeds", "[seed][policy][trace-f][herd]") {
    Inputs in = traceF();
    int failures = 0;
    for (std::uint64_t seed = 1; seed <= 1000; ++seed) {
        in.seed = seed;
        Run run = simulate(in);
        if (!bucketCheckPasses(*run.herd)) ++failures;
    }
    CHECK(failures == 0);
}

TEST_CASE("trace F without jitter: all fifty land in the closed last bucket", "[policy][trace-f][herd]") {
    Inputs in = traceF();
    in.jitter = Jitter::None;
    Run run = simulate(in);
    REQUIRE(run.herd);
    REQUIRE(run.herd->buckets.size() == 5);
    CHECK(run.herd->buckets[4] == 50);  // exactly 500 ms falls in 400–500
    CHECK(run.herd->occupied == 1);
    CHECK(run.herd->fullest == 50);
}

TEST_CASE("the herd's first waits use the draws list in caller order", "[herd]") {
    Inputs in = traceF();
    in.callers = 4;
    in.draws = {0.0, 0.25, 0.5, 0.999};  // 0, 125, 250, 499.5 ms
    Run run = simulate(in);
    REQUIRE(run.herd);
    CHECK(run.herd->buckets == std::vector<std::uint32_t>{1, 1, 1, 0, 1});
    // The single run is the same inputs with one caller: it used the first draw.
    CHECK(run.attempts[0].draw == 0.0);
}

TEST_CASE("the herd counts callers a deadline or budget stops as not retried", "[herd]") {
    Inputs in = traceF();
    in.callers = 4;
    in.draws = {0.1, 0.9, 0.2, 0.8};    // 50, 450, 100, 400 ms
    in.deadlineMs = 200 + 300 + 200.0;  // a retry fits only if it waits at most 300 ms
    Run run = simulate(in);
    REQUIRE(run.herd);
    CHECK(run.herd->notRetried == 2);
    CHECK(run.herd->buckets == std::vector<std::uint32_t>{1, 1, 0, 0, 0});
}

TEST_CASE("bucket width doubles until there are at most 100 buckets", "[herd]") {
    Inputs in = traceF();
    in.callers = 3;
    in.jitter = Jitter::None;
    in.baseBackoffMs = 20000;  // 200 buckets of 100 ms would be too many; 100 of 200 ms fit
    in.maxBackoffMs.reset();
    Run run = simulate(in);
    REQUIRE(run.herd);
    CHECK(run.herd->bucketMs == 200);
    CHECK(run.herd->buckets.size() == 100);
    CHECK(run.herd->buckets.back() == 3);
}

TEST_CASE("a herd whose first answer succeeds retries nobody", "[herd]") {
    Inputs in = scripted(seedPolicy(), {answer(200)});
    in.callers = 10;
    Run run = simulate(in);
    REQUIRE(run.herd);
    CHECK(run.herd->notRetried == 10);
    CHECK(run.herd->occupied == 0);
    CHECK(run.herd->buckets.size() == 5);
}

TEST_CASE("one caller has no herd", "[herd]") { CHECK_FALSE(simulate(Inputs{}).herd); }
