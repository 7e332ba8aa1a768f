// attemptStart (docs/engine.md §4): when the client sends an attempt under an overall deadline.
// "fits" is SPEC §4's rule (start + responseMs ≤ deadline); "before-deadline" is what a real
// client does (start < deadline), the answer cut at the deadline, the server's work still done.
// Every expected figure is worked from the opening run (SPEC §9) by hand in the comments.
#include <catch2/catch.hpp>

#include "support.hpp"

using namespace retrylab;
using namespace retrylab::test;

namespace {
Inputs openingRun(double deadlineMs, AttemptStart rule) {
    Inputs in;
    in.deadlineMs = deadlineMs;
    in.attemptStart = rule;
    return in;
}

int count(const Run& run, EventKind kind) {
    int n = 0;
    for (const Event& e : run.events) n += e.kind == kind;
    return n;
}
}  // namespace

TEST_CASE("the default is SPEC's rule: with a 3,600 ms deadline attempt 2 is never sent", "[attempt-start]") {
    // Attempt 1 0–3000 (charge #1 at 200, the answer lost); wait 500; attempt 2 would start at
    // 3500 and end at 3700, after 3600: not sent.
    Inputs in;
    in.deadlineMs = 3600.0;
    REQUIRE(in.attemptStart == AttemptStart::Fits);
    Run run = simulate(in);
    CHECK(run.metrics.attempts == 1);
    CHECK(run.metrics.charges == 1);
    CHECK(run.metrics.elapsedMs == 3000);
    CHECK(run.metrics.outcome == Outcome::Unknown);
    CHECK(run.metrics.stopReason == StopReason::Deadline);
    CHECK(run.events.back().text ==
          "the run stops: attempt 2 would start at 3500 ms and end at 3700 ms, after the 3600 ms deadline");
}

TEST_CASE("before-deadline: attempt 2 is sent at 3500, cut off at 3600, and the server commits charge #2 at 3700",
          "[attempt-start]") {
    Run run = simulate(openingRun(3600, AttemptStart::BeforeDeadline));
    REQUIRE(run.attempts.size() == 2);
    const AttemptRow& second = run.attempts[1];
    CHECK(second.startMs == 3500);  // 3000 + the 500 ms wait, before 3600: sent
    CHECK(second.endMs == 3600);    // the deadline ends the wait for the answer due at 3700
    CHECK(second.clientSaw == "timeout");
    CHECK(second.server == "200");
    CHECK(second.commitMs == 3700.0);  // the server's work is done all the same
    CHECK(second.effect == "charge #2");
    CHECK(second.waitAfterMs == std::nullopt);

    const Metrics& m = run.metrics;
    CHECK(m.charges == 2);
    CHECK(m.duplicates == 1);
    CHECK(m.elapsedMs == 3600);
    CHECK(m.waitingMs == 500);
    CHECK(m.outcome == Outcome::Unknown);
    CHECK(m.agentReport == "timeout");
    CHECK(m.lookupNeeded);
    // After failure 2 the wait is 500 × 2^1 = 1000: attempt 3 would start at 4600.
    CHECK(m.stopReason == StopReason::Deadline);
    CHECK(run.events.back().kind == EventKind::Commit);  // time order: the commit after the run's end comes last
    CHECK(run.events.back().tMs == 3700);
    CHECK(count(run, EventKind::Receive) == 0);
    CHECK(count(run, EventKind::Deadline) == 1);
    CHECK(count(run, EventKind::Commit) == 2);
}

TEST_CASE("before-deadline: the events of the cut attempt, in time order", "[attempt-start]") {
    Run run = simulate(openingRun(3600, AttemptStart::BeforeDeadline));
    std::vector<std::pair<double, EventKind>> tail;
    for (const Event& e : run.events)
        if (e.attempt == 2 || e.tMs >= 3500) tail.emplace_back(e.tMs, e.kind);
    const std::vector<std::pair<double, EventKind>> expected = {
        {3500, EventKind::Send}, {3600, EventKind::Deadline}, {3600, EventKind::Stop}, {3700, EventKind::Commit}};
    CHECK(tail == expected);
    for (const Event& e : run.events)
        if (e.kind == EventKind::Stop)
            CHECK(e.text == "the run stops: attempt 3 would start at 4600 ms, not before the 3600 ms deadline");
}

TEST_CASE("a 3,500 ms deadline is the boundary: attempt 2 would start at the deadline itself and is not sent",
          "[attempt-start]") {
    // start < deadline is strict: at 3500 the deadline has come, and a client does not send then.
    for (AttemptStart rule : {AttemptStart::Fits, AttemptStart::BeforeDeadline}) {
        Run run = simulate(openingRun(3500, rule));
        CHECK(run.metrics.attempts == 1);
        CHECK(run.metrics.charges == 1);
        CHECK(run.metrics.outcome == Outcome::Unknown);
    }
    // One step inside the deadline sends it.
    Run run = simulate(openingRun(3500.001, AttemptStart::BeforeDeadline));
    CHECK(run.metrics.attempts == 2);
    CHECK(run.metrics.charges == 2);
}

TEST_CASE("the two rules agree wherever the answer is due by the deadline", "[attempt-start]") {
    // 3700: attempt 2 ends exactly at the deadline and is received (SPEC §9's "deadline 4000" too).
    for (double deadline : {3700.0, 4000.0, 10000.0}) {
        Run fits = simulate(openingRun(deadline, AttemptStart::Fits));
        Run before = simulate(openingRun(deadline, AttemptStart::BeforeDeadline));
        CHECK(before.metrics.outcome == Outcome::Success);
        CHECK(before.metrics.charges == 2);
        CHECK(before.metrics.elapsedMs == fits.metrics.elapsedMs);
        CHECK(before.events.size() == fits.events.size());
    }
    Inputs none;
    none.deadlineMs.reset();
    none.attemptStart = AttemptStart::BeforeDeadline;
    CHECK(simulate(none).metrics.elapsedMs == 3700);
}

TEST_CASE("before-deadline: a deadline shorter than the response time still sends attempt 1", "[attempt-start]") {
    // Deadline 100: attempt 1 goes at 0; the answer due at 200 is cut at 100; charge #1 at 200.
    Run run = simulate(openingRun(100, AttemptStart::BeforeDeadline));
    REQUIRE(run.attempts.size() == 1);
    CHECK(run.attempts[0].endMs == 100);
    CHECK(run.attempts[0].commitMs == 200.0);
    CHECK(run.metrics.charges == 1);
    CHECK(run.metrics.outcome == Outcome::Unknown);
    // SPEC's rule sends nothing: 0 + 200 > 100.
    Run fits = simulate(openingRun(100, AttemptStart::Fits));
    CHECK(fits.metrics.attempts == 0);
    CHECK(fits.metrics.agentReport == "not-sent");
}

TEST_CASE("before-deadline sends what SPEC's rule sends: an instant answer at exactly the deadline",
          "[attempt-start]") {
    // responseMs 0, deadline 3500: attempt 2 at 3500 fits (3500 + 0 ≤ 3500) under both rules.
    for (AttemptStart rule : {AttemptStart::Fits, AttemptStart::BeforeDeadline}) {
        Inputs in = openingRun(3500, rule);
        in.responseMs = 0;
        Run run = simulate(in);
        CHECK(run.metrics.attempts == 2);
        CHECK(run.metrics.outcome == Outcome::Success);
        CHECK(run.metrics.elapsedMs == 3500);
    }
}

TEST_CASE("before-deadline: a deadline of 0 leaves no time to send anything", "[attempt-start]") {
    Run run = simulate(openingRun(0, AttemptStart::BeforeDeadline));
    CHECK(run.metrics.attempts == 0);
    CHECK(run.metrics.charges == 0);
    CHECK(run.metrics.outcome == Outcome::Failed);
    CHECK(run.metrics.stopReason == StopReason::Deadline);
    CHECK(run.metrics.agentReport == "not-sent");
    REQUIRE(run.events.size() == 1);
    CHECK(run.events[0].text ==
          "the run stops before it starts: the 0 ms deadline leaves no time to send attempt 1; nothing is sent");
}

TEST_CASE("before-deadline: the outage's attempt 3 is sent at 1,900, cut at 2,000, and commits at 2,100",
          "[attempt-start]") {
    // Outage: 0–200 503, wait 500, 700–900 503, wait 1000, attempt 3 at 1900 answers at 2100.
    // Deadline 2000: SPEC's rule stops at 900; before-deadline sends attempt 3 and cuts it at 2000.
    Inputs in;
    in.scenario = Scenario::Outage503Twice;
    in.deadlineMs = 2000.0;
    in.attemptStart = AttemptStart::BeforeDeadline;
    Run run = simulate(in);
    REQUIRE(run.attempts.size() == 3);
    CHECK(run.attempts[2].startMs == 1900);
    CHECK(run.attempts[2].endMs == 2000);
    CHECK(run.attempts[2].clientSaw == "timeout");
    CHECK(run.attempts[2].commitMs == 2100.0);  // the 200 of attempt 3 commits charge #1
    CHECK(run.metrics.charges == 1);
    CHECK(run.metrics.outcome == Outcome::Unknown);
}

TEST_CASE("before-deadline never sends fewer attempts or makes fewer charges than SPEC's rule",
          "[attempt-start][property]") {
    for (int i = 0; i < 400; ++i) {
        Inputs in;
        in.scenario = (i % 3 == 0) ? Scenario::Outage503Twice : Scenario::ResponseLost;
        in.deadlineMs = 50.0 * (i % 97);
        in.responseMs = 100.0 * (i % 5);
        in.clientTimeoutMs = 500.0 + 700.0 * (i % 4);
        in.idempotencyKey = i % 2 == 1;
        Run fits = simulate(in);
        in.attemptStart = AttemptStart::BeforeDeadline;
        Run before = simulate(in);
        CHECK(before.metrics.attempts >= fits.metrics.attempts);
        CHECK(before.metrics.charges >= fits.metrics.charges);
        for (const AttemptRow& a : before.attempts) {
            CHECK((a.startMs < *in.deadlineMs || a.startMs + in.responseMs <= *in.deadlineMs));
            CHECK(a.endMs <= *in.deadlineMs);
        }
    }
}

TEST_CASE("the herd counts a caller as retried by the same rule as the single run", "[attempt-start][herd]") {
    // Outage, full jitter: the first answer (a 503) at 200; caller i waits 500 × draw i.
    // Waits 50, 150, 250, 350, 450. Deadline 600: SPEC's rule needs 200 + w + 200 ≤ 600 (w ≤ 200),
    // before-deadline 200 + w < 600 (w < 400).
    Inputs in;
    in.scenario = Scenario::Outage503Twice;
    in.jitter = Jitter::Full;
    in.draws = {0.1, 0.3, 0.5, 0.7, 0.9};
    in.callers = 5;
    in.deadlineMs = 600.0;
    CHECK(simulate(in).herd->notRetried == 3);
    in.attemptStart = AttemptStart::BeforeDeadline;
    CHECK(simulate(in).herd->notRetried == 1);
}

TEST_CASE("retryAfterOverMax stop: a Retry-After above the maximum ends the retries", "[knobs][openai]") {
    // openai-python ≥ 2.52: a Retry-After above 120 s is not retried at all.
    Inputs in = scripted(Inputs{}, {answerWithRetryAfter(429, "150"), answer(200)});
    in.retryOn = RetryOn{true, true, true, false};
    in.deadlineMs.reset();
    in.retryAfterMaxMs = 120000.0;
    in.retryAfterOverMax = RetryAfterOverMax::Stop;
    Run run = simulate(in);
    CHECK(run.metrics.attempts == 1);
    CHECK(run.metrics.stopReason == StopReason::NotRetryable);
    CHECK(run.events.back().text ==
          "the run stops: Retry-After asks for 150000 ms, more than the 120000 ms this client waits, so it does not "
          "retry");
    // The default, "backoff": the header is ignored and the backoff's 500 ms applies.
    in.retryAfterOverMax = RetryAfterOverMax::Backoff;
    Run backoff = simulate(in);
    CHECK(backoff.metrics.attempts == 2);
    CHECK(backoff.attempts[0].waitAfterMs == 500.0);
    // At the maximum itself the header is honoured: 120 s.
    in.retryAfterOverMax = RetryAfterOverMax::Stop;
    in.script[0].retryAfter = "120";
    Run atMax = simulate(in);
    CHECK(atMax.metrics.attempts == 2);
    CHECK(atMax.attempts[0].waitAfterMs == 120000.0);
}

TEST_CASE("retryAfterOverMax stop needs an honoured header and a maximum", "[knobs][openai]") {
    Inputs in = scripted(Inputs{}, {answerWithRetryAfter(503, "150"), answer(200)});
    in.deadlineMs.reset();
    in.retryAfterOverMax = RetryAfterOverMax::Stop;
    CHECK(simulate(in).metrics.attempts == 2);  // no retryAfterMaxMs: the header is honoured, 150 s
    in.retryAfterMaxMs = 120000.0;
    in.honourRetryAfter = false;
    CHECK(simulate(in).metrics.attempts == 2);  // not honoured: the backoff applies
    in.honourRetryAfter = true;
    CHECK(simulate(in).metrics.attempts == 1);
}

TEST_CASE("attemptStart and retryAfterOverMax are read, echoed and refused by name", "[attempt-start][validation]") {
    ParsedInputs parsed =
        parseInputs(obj({{"attemptStart", str("before-deadline")}, {"retryAfterOverMax", str("stop")}}));
    REQUIRE(parsed.errors.empty());
    CHECK(parsed.inputs->attemptStart == AttemptStart::BeforeDeadline);
    CHECK(parsed.inputs->retryAfterOverMax == RetryAfterOverMax::Stop);

    Value run = compute(obj({{"deadlineMs", num(3600)}, {"attemptStart", str("before-deadline")}}));
    CHECK(run.find("inputs")->find("attemptStart")->asString() == "before-deadline");
    CHECK(run.find("metrics")->find("charges")->asNumber() == 2);
    Value defaults = compute(Value::object());
    CHECK(defaults.find("inputs")->find("attemptStart")->asString() == "fits");
    CHECK(defaults.find("inputs")->find("retryAfterOverMax")->asString() == "backoff");

    for (const Value& bad : {obj({{"attemptStart", str("whenever")}}), obj({{"attemptStart", boolean(true)}}),
                             obj({{"retryAfterOverMax", str("cap")}}), obj({{"attemptStart", Value::null()}})}) {
        ParsedInputs refused = parseInputs(bad);
        REQUIRE(refused.errors.size() == 1);
        CHECK(refused.errors[0].field == bad.asObject()[0].key);
    }
    // Feeding the echo back reproduces the run.
    Value echo = *run.find("inputs");
    CHECK(sameValue(*compute(echo).find("metrics"), *run.find("metrics")));
}
