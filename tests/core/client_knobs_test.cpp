// The knobs real clients need beyond SPEC.md §2 (docs/engine.md §2), each worked by hand.
#include <catch2/catch.hpp>

#include "support.hpp"

using namespace retrylab;
using namespace retrylab::test;

namespace {
Inputs outage() {
    Inputs in;
    in.scenario = Scenario::Outage503Twice;
    return in;
}
std::vector<std::string> badFields(const Value& inputs) {
    std::vector<std::string> fields;
    for (const InputError& e : parseInputs(inputs).errors) fields.push_back(e.field);
    return fields;
}
}  // namespace

TEST_CASE("every knob at its default leaves the opening run as SPEC.md has it", "[knobs]") {
    Run run = simulate(Inputs{});
    CHECK(run.metrics.charges == 2);
    CHECK(run.metrics.elapsedMs == 3700);
}

TEST_CASE("firstRetryImmediate: the first retry goes at once, later ones back off as usual", "[knobs][urllib3]") {
    Inputs in = outage();
    in.firstRetryImmediate = true;
    Run run = simulate(in);
    REQUIRE(run.attempts.size() == 3);
    CHECK(run.attempts[0].waitAfterMs == 0.0);
    CHECK(run.attempts[0].waitRule == "first retry at once");
    CHECK(run.attempts[1].startMs == 200);
    CHECK(run.attempts[1].waitAfterMs == 1000.0);  // 500 × 2^1: failure 2's own ceiling, not shifted
    CHECK(run.attempts[2].startMs == 1400);
}

TEST_CASE("minBackoffMs raises a short backoff wait to the minimum", "[knobs][stripe]") {
    Inputs in = outage();
    in.jitter = Jitter::Equal;
    in.draws = {0.0, 1.0};
    in.minBackoffMs = 500;
    Run run = simulate(in);
    CHECK(run.attempts[0].waitAfterMs == 500.0);  // 250 + 250 × 0, raised to 500
    CHECK(run.attempts[0].waitRule == "ceiling 500 ms / 2 + 250 ms × draw 0.00, raised to the 500 ms minimum");
    CHECK(run.attempts[1].waitAfterMs == 1000.0);  // 500 + 500 × 1: already above
}

TEST_CASE("the minimum does not apply to a Retry-After wait", "[knobs][stripe]") {
    Inputs in = scripted(Inputs{}, {answerWithRetryAfter(503, "0"), answer(200)});
    in.minBackoffMs = 500;
    Run run = simulate(in);
    CHECK(run.attempts[0].waitAfterMs == 0.0);
}

TEST_CASE("proportional jitter multiplies the ceiling by low + (high − low) × draw", "[knobs][grpc]") {
    Inputs in = scripted(Inputs{}, {answer(503)});
    in.jitter = Jitter::Proportional;
    in.jitterLow = 0.8;
    in.jitterHigh = 1.2;
    in.draws = {0.0, 0.5, 1.0};
    in.deadlineMs.reset();
    Run run = simulate(in);
    REQUIRE(run.attempts.size() == 4);
    CHECK(*run.attempts[0].waitAfterMs == Approx(400));   // 500 × 0.8
    CHECK(*run.attempts[1].waitAfterMs == Approx(1000));  // 1000 × 1.0
    CHECK(*run.attempts[2].waitAfterMs == Approx(2400));  // 2000 × 1.2: above the ceiling
    CHECK(run.attempts[1].waitRule == "ceiling 1000 ms × (0.8 + 0.4 × draw 0.50)");
}

TEST_CASE("a ceiling schedule replaces base × multiplier^(n−1), last entry repeating, still capped",
          "[knobs][stripe-go]") {
    Inputs in = scripted(Inputs{}, {answer(503)});
    in.maxRetries = 5;
    in.deadlineMs.reset();
    in.ceilingScheduleMs = {500, 1000, 2500};
    Run run = simulate(in);
    const double waits[] = {500, 1000, 2500, 2500, 2500};
    for (std::size_t i = 0; i < 5; ++i) CHECK(run.attempts[i].waitAfterMs == waits[i]);
    CHECK(run.attempts[2].waitRule == "scheduled ceiling 2500 ms");
    in.maxBackoffMs = 2000.0;
    Run capped = simulate(in);
    CHECK(capped.attempts[2].waitAfterMs == 2000.0);
    CHECK(capped.attempts[2].waitRule == "scheduled ceiling 2000 ms, capped at 2000 ms");
}

TEST_CASE("retryOnStatuses retries exactly the listed statuses", "[knobs][aws]") {
    Inputs in = scripted(Inputs{}, {answer(502), answer(501), answer(200)});
    in.retryOn = RetryOn{true, false, false, false};
    in.retryOnStatuses = {500, 502, 503, 504};
    Run run = simulate(in);
    CHECK(run.metrics.attempts == 2);  // 502 retried, 501 not
    CHECK(run.metrics.stopReason == StopReason::NotRetryable);
    CHECK(run.metrics.agentReport == "error 501");
}

TEST_CASE("retryAfterStatuses retries a listed status only when it carries a Retry-After", "[knobs][urllib3]") {
    Inputs in;
    in.retryOn = RetryOn{true, false, false, false};
    in.retryAfterStatuses = {413, 429, 503};
    SECTION("with the header") {
        in = scripted(in, {answerWithRetryAfter(429, "1"), answer(200)});
        Run run = simulate(in);
        CHECK(run.metrics.attempts == 2);
        CHECK(run.attempts[0].waitAfterMs == 1000.0);
    }
    SECTION("without it") {
        in = scripted(in, {answer(429), answer(200)});
        CHECK(simulate(in).metrics.stopReason == StopReason::NotRetryable);
    }
    SECTION("a status not listed, with the header") {
        in = scripted(in, {answerWithRetryAfter(502, "1"), answer(200)});
        CHECK(simulate(in).metrics.stopReason == StopReason::NotRetryable);
    }
}

TEST_CASE("Retry-After at least: the longer of the header and the backoff", "[knobs][stripe]") {
    Inputs in = scripted(Inputs{}, {answerWithRetryAfter(503, "1"), answerWithRetryAfter(503, "0"), answer(200)});
    in.retryAfterMode = RetryAfterMode::AtLeast;
    Run run = simulate(in);
    CHECK(run.attempts[0].waitAfterMs == 1000.0);  // header 1000 > backoff 500
    CHECK(run.attempts[0].waitRule == "Retry-After: 1 (at least the header; backoff 500 ms)");
    CHECK(run.attempts[1].waitAfterMs == 1000.0);  // backoff 1000 > header 0
    CHECK(run.attempts[1].waitRule == "500 ms × 2^1 (more than Retry-After: 0)");
}

TEST_CASE("a Retry-After above retryAfterMaxMs is ignored in favour of the backoff", "[knobs][stripe]") {
    Inputs in = scripted(Inputs{}, {answerWithRetryAfter(503, "61"), answerWithRetryAfter(503, "60"), answer(200)});
    in.retryAfterMaxMs = 60000.0;
    in.deadlineMs.reset();
    Run run = simulate(in);
    CHECK(run.attempts[0].waitAfterMs == 500.0);
    CHECK(run.attempts[0].waitRule == "500 ms × 2^0 (Retry-After over the 60000 ms maximum is ignored)");
    CHECK(run.attempts[1].waitAfterMs == 60000.0);
}

TEST_CASE("Stripe's settings on the opening run: one charge, one replay, success at 3700 ms", "[knobs][stripe]") {
    Inputs in;
    in.maxRetries = 2;
    in.maxBackoffMs = 5000.0;
    in.jitter = Jitter::Equal;
    in.minBackoffMs = 500;
    in.idempotencyKey = true;
    in.draws = {0.3};
    Run run = simulate(in);
    CHECK(run.attempts[0].waitAfterMs == 500.0);  // equal jitter on a 500 ms ceiling never passes 500
    CHECK(run.metrics.charges == 1);
    CHECK(run.metrics.replays == 1);
    CHECK(run.metrics.elapsedMs == 3700);
}

TEST_CASE("the knobs are validated like every other field", "[knobs][validation]") {
    CHECK(badFields(obj({{"jitterLow", num(0.5)}})) == std::vector<std::string>{"jitterLow"});
    CHECK(badFields(obj({{"jitter", str("proportional")}, {"jitterLow", num(1.5)}, {"jitterHigh", num(1.0)}})) ==
          std::vector<std::string>{"jitterHigh"});
    CHECK(badFields(obj({{"jitter", str("proportional")}, {"jitterHigh", num(2.5)}})) ==
          std::vector<std::string>{"jitterHigh"});
    CHECK(badFields(obj({{"minBackoffMs", num(-1)}})) == std::vector<std::string>{"minBackoffMs"});
    CHECK(badFields(obj({{"firstRetryImmediate", str("yes")}})) == std::vector<std::string>{"firstRetryImmediate"});
    CHECK(badFields(obj({{"ceilingScheduleMs", list({num(500), num(-1)})}})) ==
          std::vector<std::string>{"ceilingScheduleMs[1]"});
    CHECK(badFields(obj({{"retryOnStatuses", list({num(503), num(503)})}})) ==
          std::vector<std::string>{"retryOnStatuses[1]"});
    CHECK(badFields(obj({{"retryAfterStatuses", list({num(99)})}})) ==
          std::vector<std::string>{"retryAfterStatuses[0]"});
    CHECK(badFields(obj({{"retryAfterMode", str("max")}})) == std::vector<std::string>{"retryAfterMode"});
    CHECK(badFields(obj({{"retryAfterMaxMs", str("60s")}})) == std::vector<std::string>{"retryAfterMaxMs"});
    CHECK(badFields(obj({{"jitter", str("proportional")},
                         {"jitterLow", num(0.8)},
                         {"jitterHigh", num(1.2)},
                         {"retryAfterMaxMs", Value::null()},
                         {"ceilingScheduleMs", list({})}}))
              .empty());
}
