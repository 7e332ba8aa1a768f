// Golden event traces for the four named scenarios, written out by hand from SPEC §3–§5:
// every event, in order, with its time, kind, attempt and sentence.
#include <catch2/catch.hpp>

#include "support.hpp"

using namespace retrylab;

namespace {

struct Expected {
    double tMs;
    const char* kind;
    int attempt;  // 0: the run's own event
    const char* text;
};

void requireTrace(const Run& run, const std::vector<Expected>& expected) {
    REQUIRE(run.events.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        INFO("event " << i);
        const Event& e = run.events[i];
        CHECK(e.tMs == expected[i].tMs);
        CHECK(std::string(eventKindName(e.kind)) == expected[i].kind);
        CHECK(e.attempt.value_or(0) == expected[i].attempt);
        CHECK(e.text == expected[i].text);
    }
}

const char* const kSend1 = "attempt 1: the client sends charge op-0001 without an idempotency key";
const char* const kSend2 = "attempt 2: the client sends charge op-0001 without an idempotency key";
const char* const kSend3 = "attempt 3: the client sends charge op-0001 without an idempotency key";
const char* const kTimeout1 =
    "attempt 1: no answer after 3000 ms; the client times out, not knowing whether the server did the work";

}  // namespace

TEST_CASE("golden trace: response lost", "[golden]") {
    requireTrace(simulate(Inputs{}),
                 {
                     {0, "send", 1, kSend1},
                     {200, "commit", 1, "attempt 1: the server commits charge #1"},
                     {200, "response-lost", 1, "attempt 1: the 200 response is lost; the client never sees it"},
                     {3000, "timeout", 1, kTimeout1},
                     {3000, "wait", 1, "the client waits 500 ms (500 ms × 2^0) before attempt 2"},
                     {3500, "send", 2, kSend2},
                     {3700, "commit", 2, "attempt 2: the server commits charge #2"},
                     {3700, "receive", 2, "attempt 2: the client receives 200"},
                     {3700, "stop", 2, "the run stops: attempt 2 succeeded with 200"},
                 });
}

TEST_CASE("golden trace: request lost", "[golden]") {
    Inputs in;
    in.scenario = Scenario::RequestLost;
    requireTrace(simulate(in),
                 {
                     {0, "send", 1, kSend1},
                     {0, "request-lost", 1, "attempt 1: the request is lost on the way; the server never sees it"},
                     {3000, "timeout", 1, kTimeout1},
                     {3000, "wait", 1, "the client waits 500 ms (500 ms × 2^0) before attempt 2"},
                     {3500, "send", 2, kSend2},
                     {3700, "commit", 2, "attempt 2: the server commits charge #1"},
                     {3700, "receive", 2, "attempt 2: the client receives 200"},
                     {3700, "stop", 2, "the run stops: attempt 2 succeeded with 200"},
                 });
}

TEST_CASE("golden trace: outage of two 503s", "[golden]") {
    Inputs in;
    in.scenario = Scenario::Outage503Twice;
    requireTrace(simulate(in), {
                                   {0, "send", 1, kSend1},
                                   {200, "server-error", 1, "attempt 1: the server answers 503; nothing is committed"},
                                   {200, "receive", 1, "attempt 1: the client receives 503"},
                                   {200, "wait", 1, "the client waits 500 ms (500 ms × 2^0) before attempt 2"},
                                   {700, "send", 2, kSend2},
                                   {900, "server-error", 2, "attempt 2: the server answers 503; nothing is committed"},
                                   {900, "receive", 2, "attempt 2: the client receives 503"},
                                   {900, "wait", 2, "the client waits 1000 ms (500 ms × 2^1) before attempt 3"},
                                   {1900, "send", 3, kSend3},
                                   {2100, "commit", 3, "attempt 3: the server commits charge #1"},
                                   {2100, "receive", 3, "attempt 3: the client receives 200"},
                                   {2100, "stop", 3, "the run stops: attempt 3 succeeded with 200"},
                               });
}

TEST_CASE("golden trace: permanent 400", "[golden]") {
    Inputs in;
    in.scenario = Scenario::BadRequest400;
    requireTrace(simulate(in), {
                                   {0, "send", 1, kSend1},
                                   {200, "server-error", 1, "attempt 1: the server answers 400; nothing is committed"},
                                   {200, "receive", 1, "attempt 1: the client receives 400"},
                                   {200, "stop", 1, "the run stops: 400 is not retried (retry on: timeouts, 5xx)"},
                               });
}

TEST_CASE("golden trace: with a key the second attempt is a replay", "[golden][key]") {
    Inputs in;
    in.idempotencyKey = true;
    Run run = simulate(in);
    REQUIRE(run.events.size() == 9);
    CHECK(run.events[0].text == "attempt 1: the client sends charge op-0001 with idempotency key op-0001");
    CHECK(std::string(eventKindName(run.events[6].kind)) == "replay");
    CHECK(run.events[6].tMs == 3700);
    CHECK(run.events[6].text ==
          "attempt 2: the server finds key op-0001 and replays the stored 200 (charge #1); nothing new is committed");
}

TEST_CASE("golden trace: nothing sent when the first attempt cannot fit", "[golden][deadline]") {
    Inputs in;
    in.deadlineMs = 150.0;
    Run run = simulate(in);
    REQUIRE(run.events.size() == 1);
    CHECK(run.events[0].tMs == 0);
    CHECK(std::string(eventKindName(run.events[0].kind)) == "stop");
    CHECK(run.events[0].text ==
          "the run stops before it starts: attempt 1 would end at 200 ms, after the 150 ms deadline; nothing is sent");
}
