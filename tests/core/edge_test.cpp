// The edges SPEC.md calls out: timeouts shorter than the answer, the 409, deadline
// equalities, Retry-After in every form and state, the wait budget, nothing sent.
#include <catch2/catch.hpp>

#include <algorithm>

#include "support.hpp"

using namespace retrylab;
using namespace retrylab::test;

TEST_CASE("a client timeout below the response time makes every attempt charge", "[edge][timeout]") {
    Inputs in;
    in.clientTimeoutMs = 100;
    Run run = simulate(in);
    REQUIRE(run.attempts.size() == 4);
    const double starts[] = {0, 600, 1700, 3800};  // waits 500, 1000, 2000 after 100 ms attempts
    for (std::size_t i = 0; i < 4; ++i) {
        CHECK(run.attempts[i].startMs == starts[i]);
        CHECK(run.attempts[i].endMs == starts[i] + 100);
        CHECK(run.attempts[i].commitMs == starts[i] + 200);  // the server works on after the client gave up
        CHECK(run.attempts[i].clientSaw == "timeout");
    }
    CHECK(run.metrics.charges == 4);
    CHECK(run.metrics.duplicates == 3);
    CHECK(run.metrics.outcome == Outcome::Unknown);
    CHECK(run.metrics.elapsedMs == 3900);
    // The last commit lands after the run has stopped.
    CHECK(run.events.back().kind == EventKind::Commit);
    CHECK(run.events.back().tMs == 4000);
}

TEST_CASE("a keyed attempt that arrives while the first commit is in flight gets 409, later ones replays",
          "[edge][key][409]") {
    Inputs in;
    in.clientTimeoutMs = 100;
    in.baseBackoffMs = 50;
    in.idempotencyKey = true;
    Run run = simulate(in);
    REQUIRE(run.attempts.size() == 4);
    CHECK(run.attempts[0].server == "200");
    CHECK(run.attempts[0].commitMs == 200.0);
    CHECK(run.attempts[1].startMs == 150);  // before the commit at 200
    CHECK(run.attempts[1].server == "409");
    CHECK_FALSE(run.attempts[1].commitMs);
    CHECK(run.attempts[1].clientSaw == "timeout");  // a single client never receives its own 409
    CHECK(run.attempts[2].startMs == 350);
    CHECK(run.attempts[2].server == "replay");
    CHECK(run.attempts[3].server == "replay");
    CHECK(run.metrics.charges == 1);
    CHECK(run.metrics.replays == 2);
    CHECK(run.metrics.elapsedMs == 750);
}

TEST_CASE("an attempt that arrives exactly at the earlier commit is replayed, not refused", "[edge][key][409]") {
    Inputs in;
    in.clientTimeoutMs = 100;
    in.baseBackoffMs = 100;  // attempt 2 arrives at 200, when charge #1 commits
    in.idempotencyKey = true;
    in.maxRetries = 1;
    Run run = simulate(in);
    REQUIRE(run.attempts.size() == 2);
    CHECK(run.attempts[1].startMs == 200);
    CHECK(run.attempts[1].server == "replay");
    // At equal times the commit comes before the send it enables.
    auto commit =
        std::find_if(run.events.begin(), run.events.end(), [](const Event& e) { return e.kind == EventKind::Commit; });
    auto send2 = std::find_if(run.events.begin(), run.events.end(),
                              [](const Event& e) { return e.kind == EventKind::Send && e.attempt == 2; });
    CHECK(commit < send2);
}

TEST_CASE("a deadline equal to the second attempt's end still lets it run", "[edge][deadline]") {
    Inputs in;
    in.deadlineMs = 3700.0;
    Run run = simulate(in);
    CHECK(run.metrics.attempts == 2);
    CHECK(run.metrics.charges == 2);
}

TEST_CASE("a deadline cuts short the wait for a lost response", "[edge][deadline]") {
    Inputs in;
    in.deadlineMs = 2000.0;
    Run run = simulate(in);
    REQUIRE(run.attempts.size() == 1);
    CHECK(run.attempts[0].endMs == 2000);
    CHECK(run.metrics.stopReason == StopReason::Deadline);
    CHECK(run.metrics.outcome == Outcome::Unknown);
    bool deadlineEvent = false;
    for (const Event& e : run.events) deadlineEvent = deadlineEvent || (e.kind == EventKind::Deadline && e.tMs == 2000);
    CHECK(deadlineEvent);
}

TEST_CASE("when not even the first attempt fits the deadline, nothing is sent", "[edge][deadline]") {
    Inputs in;
    in.deadlineMs = 199.0;
    Run run = simulate(in);
    CHECK(run.attempts.empty());
    CHECK(run.metrics.attempts == 0);
    CHECK(run.metrics.outcome == Outcome::Failed);
    CHECK(run.metrics.stopReason == StopReason::Deadline);
    CHECK(run.metrics.agentReport == "not-sent");
    CHECK(run.metrics.elapsedMs == 0);
    CHECK_FALSE(run.metrics.lookupNeeded);
    REQUIRE(run.events.size() == 1);
    CHECK(run.events[0].kind == EventKind::Stop);
    CHECK_FALSE(run.events[0].attempt);
}

TEST_CASE("a deadline equal to the response time fits exactly one attempt", "[edge][deadline]") {
    Inputs in;
    in.deadlineMs = 200.0;
    Run run = simulate(in);
    REQUIRE(run.attempts.size() == 1);
    CHECK(run.attempts[0].endMs == 200);  // the deadline, not the 3000 ms timeout
    CHECK(run.metrics.charges == 1);
}

TEST_CASE("no deadline: the attempt limit alone ends a lost-response run", "[edge][deadline]") {
    Inputs in;
    in.deadlineMs.reset();
    in.scenario = Scenario::Script;
    in.script = {test::lostAnswer(200)};
    Run run = simulate(in);
    CHECK(run.metrics.attempts == 4);
    CHECK(run.metrics.charges == 4);
    CHECK(run.metrics.elapsedMs == 3000 + 500 + 3000 + 1000 + 3000 + 2000 + 3000);
}

namespace {
Run retryAfterRun(ScriptEntry first, std::vector<double> draws = {0.5}) {
    Inputs in = scripted(seedPolicy(), {std::move(first), answer(200)});
    in.draws = std::move(draws);
    return simulate(in);
}
}  // namespace

TEST_CASE("Retry-After is read in each HTTP-date form", "[edge][retry-after]") {
    std::string header =
        GENERATE(std::string("Sun, 29 Nov 2026 10:00:07 GMT"), std::string("Sunday, 29-Nov-26 10:00:07 GMT"),
                 std::string("Sun Nov 29 10:00:07 2026"));
    Run run = retryAfterRun(answerWithRetryAfter(429, header));
    REQUIRE(run.attempts[0].retryAfter);
    CHECK(run.attempts[0].retryAfter->note == "date");
    CHECK(run.attempts[0].waitAfterMs == 7000.0);
}

TEST_CASE("a Retry-After date in the past, or equal to the Date, waits 0", "[edge][retry-after]") {
    ScriptEntry e = answerWithRetryAfter(429, "Sun, 29 Nov 2026 10:00:07 GMT");
    SECTION("past") { e.dateSeconds = Inputs{}.startSeconds + 9; }
    SECTION("equal") { e.dateSeconds = Inputs{}.startSeconds + 7; }
    Run run = retryAfterRun(e);
    REQUIRE(run.attempts[0].retryAfter);
    CHECK(run.attempts[0].retryAfter->note == "past");
    CHECK(run.attempts[0].retryAfter->waitMs == 0.0);
    CHECK(run.attempts[0].waitAfterMs == 0.0);
    CHECK(run.attempts[1].startMs == 200);
}

TEST_CASE("an unusable Retry-After is ignored and noted; the backoff applies", "[edge][retry-after]") {
    std::string header =
        GENERATE(std::string("soon"), std::string("1.5"), std::string("-3"), std::string("86401"),
                 std::string("Mon, 31 Nov 2026 10:00:00 GMT"), std::string("sun, 29 Nov 2026 10:00:07 GMT"),
                 std::string(""), std::string("99999999999999999999999"));
    Run run = retryAfterRun(answerWithRetryAfter(503, header));
    REQUIRE(run.attempts[0].retryAfter);
    CHECK(run.attempts[0].retryAfter->note == "unusable");
    CHECK_FALSE(run.attempts[0].retryAfter->waitMs);
    CHECK(run.attempts[0].waitAfterMs == 250.0);  // ceiling 500 × draw 0.5
    CHECK(run.attempts[0].waitRule == "ceiling 500 ms × draw 0.50");
}

TEST_CASE("Retry-After's value is trimmed of spaces and tabs", "[edge][retry-after]") {
    Run run = retryAfterRun(answerWithRetryAfter(503, " 3\t"));
    CHECK(run.attempts[0].retryAfter->note == "seconds");
    CHECK(run.attempts[0].waitAfterMs == 3000.0);
}

TEST_CASE("86400 seconds is the longest usable delta", "[edge][retry-after]") {
    Run run = retryAfterRun(answerWithRetryAfter(503, "86400"));
    CHECK(run.attempts[0].retryAfter->waitMs == 86400000.0);
    CHECK(run.metrics.stopReason == StopReason::WaitBudget);  // far past the 20 s budget
}

TEST_CASE("the cap does not limit a header's wait", "[edge][retry-after]") {
    Run run = retryAfterRun(answerWithRetryAfter(503, "12"));  // cap is 8000 ms, budget 20000 ms
    CHECK(run.attempts[0].waitAfterMs == 12000.0);
}

TEST_CASE("a lost answer's Retry-After is never seen", "[edge][retry-after]") {
    ScriptEntry e = answerWithRetryAfter(503, "3");
    e.lost = true;
    Run run = retryAfterRun(e);
    CHECK_FALSE(run.attempts[0].retryAfter);
    CHECK(run.attempts[0].clientSaw == "timeout");
    CHECK(run.attempts[0].waitAfterMs == 250.0);
}

TEST_CASE("a client that does not honour Retry-After backs off instead", "[edge][retry-after]") {
    Inputs in = scripted(seedPolicy(), {answerWithRetryAfter(503, "3"), answer(200)});
    in.draws = {0.5};
    in.honourRetryAfter = false;
    Run run = simulate(in);
    CHECK(run.attempts[0].retryAfter->note == "seconds");  // seen, but not obeyed
    CHECK(run.attempts[0].waitAfterMs == 250.0);
}

TEST_CASE("a two-digit rfc850 year more than 50 years ahead of the Date is read as last century",
          "[edge][retry-after]") {
    // Date 2026: "77" would be 2077 (51 years on), so it is 1977: a date in the past.
    Run past = retryAfterRun(answerWithRetryAfter(429, "Tuesday, 29-Nov-77 10:00:07 GMT"));
    CHECK(past.attempts[0].retryAfter->note == "past");
    // "76" is 2076, exactly 50 years on: not more than 50, so it stays in the future.
    Run future = retryAfterRun(answerWithRetryAfter(429, "Sunday, 29-Nov-76 10:00:00 GMT"));
    CHECK(future.attempts[0].retryAfter->note == "date");
}

TEST_CASE("a wait that would pass the budget stops and flags instead of sleeping", "[edge][budget]") {
    Run run = retryAfterRun(answerWithRetryAfter(429, "25"), {});
    CHECK(run.metrics.attempts == 1);
    CHECK(run.metrics.stopReason == StopReason::WaitBudget);
    CHECK(run.metrics.refusedWaitMs == 25000.0);
    CHECK(run.metrics.waitingMs == 0);
    CHECK(run.metrics.outcome == Outcome::Failed);
    CHECK(run.metrics.agentReport == "error 429");
}

TEST_CASE("waiting exactly the budget is allowed", "[edge][budget]") {
    Inputs in = scripted(seedPolicy(), {answerWithRetryAfter(429, "3"), answer(200)});
    in.waitBudgetMs = 3000.0;
    Run run = simulate(in);
    CHECK(run.metrics.attempts == 2);
    CHECK(run.metrics.waitingMs == 3000);
    CHECK_FALSE(run.metrics.refusedWaitMs);
}

TEST_CASE("equal jitter waits between half the ceiling and the ceiling", "[edge][jitter]") {
    Inputs in;
    in.scenario = Scenario::Outage503Twice;
    in.jitter = Jitter::Equal;
    in.draws = {0.0, 1.0};
    Run run = simulate(in);
    CHECK(run.attempts[0].waitAfterMs == 250.0);   // 500/2 + 500/2 × 0
    CHECK(run.attempts[1].waitAfterMs == 1000.0);  // 1000/2 + 1000/2 × 1
}

TEST_CASE("decorrelated jitter grows from the previous wait and respects the cap", "[edge][jitter]") {
    Inputs in = scripted(Inputs{}, {answer(503)});
    in.maxRetries = 5;
    in.jitter = Jitter::Decorrelated;
    in.baseBackoffMs = 100;
    in.maxBackoffMs = 700.0;
    in.deadlineMs.reset();
    in.draws = {0.5, 1.0, 1.0, 0.25, 0.0};
    Run run = simulate(in);
    // 100 + 0.5×(300−100) = 200; 100 + 1×(600−100) = 600; min(700, 100 + 1×(1800−100)) = 700;
    // 100 + 0.25×(2100−100) = 600; 100 + 0×… = 100.
    const double waits[] = {200, 600, 700, 600, 100};
    REQUIRE(run.attempts.size() == 6);
    for (std::size_t i = 0; i < 5; ++i) CHECK(run.attempts[i].waitAfterMs == waits[i]);
}

TEST_CASE("the cap bounds the backoff ceiling", "[edge][backoff]") {
    Inputs in = scripted(Inputs{}, {answer(503)});
    in.maxRetries = 6;
    in.jitter = Jitter::Full;
    in.backoffMultiplier = 1.5;
    in.maxBackoffMs = 1500.0;
    in.deadlineMs.reset();
    in.draws = {1, 1, 1, 1, 1, 1};
    Run run = simulate(in);
    const double ceilings[] = {500, 750, 1125, 1500, 1500, 1500};
    for (std::size_t i = 0; i < 6; ++i) CHECK(run.attempts[i].ceilingMs == ceilings[i]);
}

TEST_CASE("a 3xx is classed 'other' and never retried", "[edge][classes]") {
    Inputs in = scripted(Inputs{}, {answer(302)});
    in.retryOn = RetryOn{true, true, true, true};
    Run run = simulate(in);
    CHECK(run.metrics.attempts == 1);
    CHECK(run.metrics.stopReason == StopReason::NotRetryable);
}

TEST_CASE("a write without a key is not retried when the policy forbids it", "[edge][write-without-key]") {
    Inputs in = scripted(Inputs{}, {answer(503), answer(201)});
    in.operation = Operation::Create;
    in.retryWritesWithoutKey = false;
    Run run = simulate(in);
    CHECK(run.metrics.attempts == 1);
    CHECK(run.metrics.stopReason == StopReason::WriteWithoutKey);
    CHECK(run.metrics.outcome == Outcome::Failed);
    CHECK_FALSE(run.metrics.lookupNeeded);  // a 503 says nothing was done
}

TEST_CASE("stop reasons are checked in the spec's order", "[edge][stop]") {
    // Not retryable comes before write-without-key and the attempt limit.
    Inputs in = scripted(Inputs{}, {answer(400)});
    in.retryWritesWithoutKey = false;
    in.maxRetries = 0;
    CHECK(simulate(in).metrics.stopReason == StopReason::NotRetryable);
    // Write-without-key comes before the attempt limit.
    in.script = {answer(503)};
    CHECK(simulate(in).metrics.stopReason == StopReason::WriteWithoutKey);
    // The attempt limit comes before the budget.
    in.retryWritesWithoutKey = true;
    in.waitBudgetMs = 0.0;
    CHECK(simulate(in).metrics.stopReason == StopReason::AttemptLimit);
    // The budget comes before the deadline.
    in.maxRetries = 3;
    in.deadlineMs = 200.0;
    CHECK(simulate(in).metrics.stopReason == StopReason::WaitBudget);
}

TEST_CASE("a lost replay still times out", "[edge][key]") {
    Inputs in = scripted(Inputs{}, {lostAnswer(200), lostAnswer(200), answer(200)});
    in.idempotencyKey = true;
    Run run = simulate(in);
    REQUIRE(run.attempts.size() == 3);
    CHECK(run.attempts[1].server == "replay");
    CHECK(run.attempts[1].clientSaw == "timeout");
    CHECK(run.attempts[2].server == "replay");
    CHECK(run.metrics.replays == 2);
    CHECK(run.metrics.charges == 1);
}

TEST_CASE("a read never commits or stores, key or not", "[edge][read]") {
    Inputs in;
    in.operation = Operation::Read;
    in.idempotencyKey = true;
    Run run = simulate(in);
    CHECK(run.metrics.charges == 0);
    CHECK(run.metrics.replays == 0);
    CHECK(run.attempts[1].server == "200");
    CHECK_FALSE(run.metrics.lookupNeeded);
}

TEST_CASE("after the draws list runs out, the seeded generator supplies the draws", "[edge][draws]") {
    Inputs in = scripted(Inputs{}, {answer(503)});
    in.jitter = Jitter::Full;
    in.draws = {0.5};
    Run a = simulate(in);
    REQUIRE(a.attempts.size() == 4);
    CHECK(a.attempts[0].draw == 0.5);
    REQUIRE(a.attempts[1].draw);
    in.seed = 2;
    Run b = simulate(in);
    CHECK(b.attempts[0].draw == 0.5);
    CHECK(*b.attempts[1].draw != *a.attempts[1].draw);  // another seed, other draws
}
