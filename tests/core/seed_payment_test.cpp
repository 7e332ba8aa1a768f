// Every worked number of the payment seed (002_2d346c00b80a8b17.txt) and SPEC §9's first half.
#include <catch2/catch.hpp>

#include "support.hpp"

using namespace retrylab;

TEST_CASE("the opening run: a lost response after a commit charges twice without a key", "[seed][payment]") {
    Run run = simulate(Inputs{});
    REQUIRE(run.attempts.size() == 2);
    const AttemptRow& first = run.attempts[0];
    CHECK(first.startMs == 0);
    CHECK(first.endMs == 3000);  // the full client timeout
    CHECK(first.server == "200");
    CHECK(first.commitMs == 200.0);
    CHECK(first.effect == "charge #1");
    CHECK(first.clientSaw == "timeout");
    CHECK(first.waitAfterMs == 500.0);
    CHECK(first.waitRule == "500 ms × 2^0");
    const AttemptRow& second = run.attempts[1];
    CHECK(second.startMs == 3500);
    CHECK(second.endMs == 3700);
    CHECK(second.commitMs == 3700.0);
    CHECK(second.effect == "charge #2");
    CHECK(second.clientSaw == "200");
    CHECK_FALSE(second.waitAfterMs);

    const Metrics& m = run.metrics;
    CHECK(m.attempts == 2);
    CHECK(m.charges == 2);
    CHECK(m.duplicates == 1);
    CHECK(m.replays == 0);
    CHECK(m.elapsedMs == 3700);
    CHECK(m.waitingMs == 500);
    CHECK(m.outcome == Outcome::Success);
    CHECK(m.stopReason == StopReason::Success);
    CHECK(m.agentReport == "success");  // reports success, charged twice
    CHECK_FALSE(m.lookupNeeded);
}

TEST_CASE("an idempotency key turns the second charge into a replay", "[seed][payment][key]") {
    Inputs in;
    in.idempotencyKey = true;
    Run run = simulate(in);
    CHECK(run.metrics.charges == 1);
    CHECK(run.metrics.replays == 1);
    CHECK(run.metrics.elapsedMs == 3700);
    CHECK(run.metrics.outcome == Outcome::Success);
    REQUIRE(run.attempts.size() == 2);
    CHECK(run.attempts[1].server == "replay");
    CHECK(run.attempts[1].clientSaw == "200");
    CHECK_FALSE(run.attempts[1].commitMs);
}

TEST_CASE("no retries leaves one charge and an unknown outcome that needs a lookup", "[seed][payment]") {
    Inputs in;
    in.maxRetries = 0;
    Run run = simulate(in);
    CHECK(run.metrics.attempts == 1);
    CHECK(run.metrics.charges == 1);
    CHECK(run.metrics.outcome == Outcome::Unknown);
    CHECK(run.metrics.agentReport == "timeout");
    CHECK(run.metrics.lookupNeeded);
    CHECK(run.metrics.stopReason == StopReason::AttemptLimit);
    CHECK(run.metrics.elapsedMs == 3000);
    // The stop's sentence counts in the singular (issue 31: it said "1 attempts is the limit").
    REQUIRE_FALSE(run.events.empty());
    CHECK(run.events.back().text == "the run stops: 1 attempt is the limit (0 retries)");
    in.maxRetries = 1;
    in.scenario = Scenario::Outage503Twice;
    CHECK(simulate(in).events.back().text == "the run stops: 2 attempts is the limit (1 retry)");
}

TEST_CASE("a 4000 ms deadline still fits the second attempt, which charges again", "[seed][payment][deadline]") {
    Inputs in;
    in.deadlineMs = 4000.0;
    Run run = simulate(in);
    CHECK(run.metrics.attempts == 2);
    CHECK(run.metrics.charges == 2);
    CHECK(run.metrics.elapsedMs == 3700);
}

TEST_CASE("a 3500 ms deadline never sends the second attempt, leaving the outcome unknown",
          "[seed][payment][deadline]") {
    Inputs in;
    in.deadlineMs = 3500.0;
    Run run = simulate(in);
    CHECK(run.metrics.attempts == 1);  // attempt 2 would end at 3700 ms
    CHECK(run.metrics.charges == 1);
    CHECK(run.metrics.outcome == Outcome::Unknown);
    CHECK(run.metrics.stopReason == StopReason::Deadline);
    CHECK(run.metrics.lookupNeeded);
    CHECK(run.metrics.elapsedMs == 3000);
}

TEST_CASE("a 500 ms client timeout moves the duplicate charge to 1200 ms", "[seed][payment]") {
    Inputs in;
    in.clientTimeoutMs = 500;
    Run run = simulate(in);
    REQUIRE(run.attempts.size() == 2);
    CHECK(run.attempts[0].endMs == 500);
    CHECK(run.attempts[1].startMs == 1000);
    CHECK(run.attempts[1].commitMs == 1200.0);
    CHECK(run.metrics.charges == 2);
    CHECK(run.metrics.elapsedMs == 1200);
}

TEST_CASE("an outage of two 503s is retried safely to exactly one charge", "[seed][payment][outage]") {
    Inputs in;
    in.scenario = Scenario::Outage503Twice;
    Run run = simulate(in);
    REQUIRE(run.attempts.size() == 3);
    CHECK(run.attempts[0].startMs == 0);
    CHECK(run.attempts[0].endMs == 200);
    CHECK(run.attempts[0].waitAfterMs == 500.0);
    CHECK(run.attempts[1].startMs == 700);
    CHECK(run.attempts[1].endMs == 900);
    CHECK(run.attempts[1].waitAfterMs == 1000.0);
    CHECK(run.attempts[2].startMs == 1900);
    CHECK(run.attempts[2].endMs == 2100);
    CHECK(run.attempts[2].effect == "charge #1");
    CHECK(run.metrics.charges == 1);
    CHECK(run.metrics.outcome == Outcome::Success);
}

TEST_CASE("the outage with one retry ends cleanly at 900 ms with no charge", "[seed][payment][outage]") {
    Inputs in;
    in.scenario = Scenario::Outage503Twice;
    in.maxRetries = 1;
    Run run = simulate(in);
    CHECK(run.metrics.attempts == 2);
    CHECK(run.metrics.elapsedMs == 900);
    CHECK(run.metrics.charges == 0);
    CHECK(run.metrics.outcome == Outcome::Failed);
    CHECK(run.metrics.agentReport == "error 503");
    CHECK(run.metrics.stopReason == StopReason::AttemptLimit);
}

TEST_CASE("the outage with a 2000 ms deadline ends cleanly at 900 ms with no charge",
          "[seed][payment][outage][deadline]") {
    Inputs in;
    in.scenario = Scenario::Outage503Twice;
    in.deadlineMs = 2000.0;
    Run run = simulate(in);
    CHECK(run.metrics.attempts == 2);  // attempt 3 would run 1900–2100
    CHECK(run.metrics.elapsedMs == 900);
    CHECK(run.metrics.charges == 0);
    CHECK(run.metrics.stopReason == StopReason::Deadline);
}

TEST_CASE("a permanent 400 is not retried by default: one 200 ms attempt", "[seed][payment][400]") {
    Inputs in;
    in.scenario = Scenario::BadRequest400;
    Run run = simulate(in);
    CHECK(run.metrics.attempts == 1);
    CHECK(run.metrics.elapsedMs == 200);
    CHECK(run.metrics.stopReason == StopReason::NotRetryable);
    CHECK(run.metrics.agentReport == "error 400");
    CHECK(run.metrics.charges == 0);
}

TEST_CASE("retrying every failure repeats the 400 three more times, ending at 4300 ms", "[seed][payment][400]") {
    Inputs in;
    in.scenario = Scenario::BadRequest400;
    in.retryOn = RetryOn{true, true, true, true};
    Run run = simulate(in);
    REQUIRE(run.attempts.size() == 4);
    CHECK(run.attempts[3].startMs == 4100);  // waits of 500, 1000 and 2000 ms
    CHECK(run.metrics.elapsedMs == 4300);
    CHECK(run.metrics.charges == 0);
    CHECK(run.metrics.stopReason == StopReason::AttemptLimit);
}

TEST_CASE("a dropped request times out just like a lost response but charges once", "[payment][request-lost]") {
    Inputs in;
    in.scenario = Scenario::RequestLost;
    Run run = simulate(in);
    REQUIRE(run.attempts.size() == 2);
    CHECK(run.attempts[0].server == "dropped");
    CHECK(run.attempts[0].clientSaw == "timeout");
    CHECK(run.attempts[0].endMs == 3000);
    CHECK_FALSE(run.attempts[0].commitMs);
    CHECK(run.metrics.charges == 1);
    CHECK(run.metrics.elapsedMs == 3700);
}
