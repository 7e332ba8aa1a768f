// The result says what it means in data (docs/engine.md §5): each attempt's wait kind, the
// script entry it drew, the class the client saw and the charge it committed, worked out from
// SPEC §2–§5 and the seeds' traces.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "support.hpp"

using namespace retrylab;
using namespace retrylab::test;

namespace {

// One member of every attempt row of compute(inputs).
std::vector<Value> column(const Value& inputs, const char* member) {
    Value result = compute(inputs);
    REQUIRE(result.find("ok")->asBool());
    std::vector<Value> out;
    for (const Value& a : result.find("attempts")->asArray()) out.push_back(*a.find(member));
    return out;
}

std::vector<std::string> words(const Value& inputs, const char* member) {
    std::vector<std::string> out;
    for (const Value& v : column(inputs, member)) out.push_back(v.asString());
    return out;
}

std::vector<double> numbers(const Value& inputs, const char* member) {
    std::vector<double> out;
    for (const Value& v : column(inputs, member)) out.push_back(v.isNull() ? -1 : v.asNumber());
    return out;
}

std::vector<bool> flags(const Value& inputs, const char* member) {
    std::vector<bool> out;
    for (const Value& v : column(inputs, member)) out.push_back(v.asBool());
    return out;
}

Value script(std::initializer_list<Value> entries, Value inputs = Value::object()) {
    inputs.set("scenario", str("script"));
    inputs.set("script", list(entries));
    return inputs;
}

// SPEC §2: the seed-000 policy.
Value seedPolicy(Value inputs) {
    for (auto& [key, value] :
         std::vector<std::pair<const char*, Value>>{{"operation", str("read")},
                                                    {"maxRetries", num(4)},
                                                    {"baseBackoffMs", num(500)},
                                                    {"maxBackoffMs", num(8000)},
                                                    {"jitter", str("full")},
                                                    {"waitBudgetMs", num(20000)},
                                                    {"deadlineMs", Value::null()},
                                                    {"retryOn", list({str("timeout"), str("429"), str("5xx")})},
                                                    {"retryWritesWithoutKey", boolean(false)}})
        inputs.set(key, value);
    return inputs;
}

using Words = std::vector<std::string>;

}  // namespace

TEST_CASE("waitKind: the backoff after a failure, none after the last attempt", "[result][waitKind]") {
    // SPEC §9's opening run: a 500 ms backoff wait, then success.
    CHECK(words(Value::object(), "waitKind") == Words{"backoff", "none"});
    // bad-request-400 is not retried: one attempt, no wait.
    CHECK(words(obj({{"scenario", str("bad-request-400")}}), "waitKind") == Words{"none"});
}

TEST_CASE("waitKind: an honoured Retry-After is the header's wait, an unusable or unhonoured one is not",
          "[result][waitKind]") {
    // Trace A: 429 with Retry-After "2" (the header wins), 503, 503 (backoff), 200.
    Value traceA =
        seedPolicy(script({obj({{"status", num(429)}, {"retryAfter", str("2")}}), obj({{"status", num(503)}}),
                           obj({{"status", num(503)}}), obj({{"status", num(200)}})}));
    traceA.set("draws", list({num(0.40), num(0.75)}));
    CHECK(words(traceA, "waitKind") == Words{"header", "backoff", "backoff", "none"});
    CHECK(numbers(traceA, "waitAfterMs")[0] == 2000);

    Value unusable = script({obj({{"status", num(503)}, {"retryAfter", str("soon")}}), obj({{"status", num(200)}})});
    CHECK(words(unusable, "waitKind") == Words{"backoff", "none"});

    Value notHonoured = script({obj({{"status", num(503)}, {"retryAfter", str("2")}}), obj({{"status", num(200)}})},
                               obj({{"honourRetryAfter", boolean(false)}}));
    CHECK(words(notHonoured, "waitKind") == Words{"backoff", "none"});
}

TEST_CASE("waitKind with retryAfterMode at-least: the header when it is the longer, else the backoff",
          "[result][waitKind]") {
    // docs/engine.md §2: wait the longer of the header and the backoff (500 ms here).
    auto kinds = [](const char* retryAfter) {
        return words(script({obj({{"status", num(503)}, {"retryAfter", str(retryAfter)}}), obj({{"status", num(200)}})},
                            obj({{"retryAfterMode", str("at-least")}})),
                     "waitKind");
    };
    CHECK(kinds("2") == Words{"header", "none"});
    CHECK(kinds("0") == Words{"backoff", "none"});
    // An immediate first retry is the backoff policy's own rule: a wait of 0.
    CHECK(words(obj({{"firstRetryImmediate", boolean(true)}}), "waitKind") == Words{"backoff", "none"});
}

TEST_CASE("waitShape: the rule's figure, or the minimum that raised it (docs/engine.md §5's worked run)",
          "[result][waitShape]") {
    // Ceilings 500, 1000, 2000 ms, full jitter, a 150 ms minimum.
    auto run = [](double first) {
        return script({obj({{"status", num(503)}}), obj({{"status", num(503)}}), obj({{"status", num(503)}}),
                       obj({{"status", num(200)}})},
                      obj({{"operation", str("read")},
                           {"jitter", str("full")},
                           {"draws", list({num(first), num(0.10), num(0.90)})},
                           {"minBackoffMs", num(150)}}));
    };
    // 500 × 0.40 = 200; 1000 × 0.10 = 100, below the minimum; 2000 × 0.90 = 1800.
    CHECK(words(run(0.40), "waitShape") == Words{"rule", "minimum", "rule", "none"});
    CHECK(numbers(run(0.40), "waitAfterMs") == std::vector<double>{200, 150, 1800, -1});
    // A figure exactly at the minimum is not raised (500 × 0.30 = 150); one below it is (145).
    CHECK(words(run(0.30), "waitShape").front() == "rule");
    CHECK(words(run(0.29), "waitShape").front() == "minimum");
    // The opening run (jitter none): the 500 ms ceiling itself.
    CHECK(words(Value::object(), "waitShape") == Words{"rule", "none"});
}

TEST_CASE("waitShape: the header, the backoff above an at-least header, a header over the maximum, an immediate retry",
          "[result][waitShape]") {
    // At least the header: 1000 ms over the 500 ms backoff, then the 1000 ms backoff over 0.
    Value atLeast = script({obj({{"status", num(503)}, {"retryAfter", str("1")}}),
                            obj({{"status", num(503)}, {"retryAfter", str("0")}}), obj({{"status", num(200)}})},
                           obj({{"retryAfterMode", str("at-least")}}));
    CHECK(words(atLeast, "waitShape") == Words{"header", "above-header", "none"});
    CHECK(numbers(atLeast, "waitAfterMs") == std::vector<double>{1000, 1000, -1});
    // A 2000 ms header over the 1500 ms maximum is ignored: the 500 ms backoff.
    Value overMax = script({obj({{"status", num(503)}, {"retryAfter", str("2")}}), obj({{"status", num(200)}})},
                           obj({{"retryAfterMaxMs", num(1500)}}));
    CHECK(words(overMax, "waitShape") == Words{"header-over-max", "none"});
    CHECK(numbers(overMax, "waitAfterMs") == std::vector<double>{500, -1});
    // The same header at a 2000 ms maximum is not above it: it replaces the backoff. An unusable
    // or unhonoured one is not weighed at all.
    Value atMax = script({obj({{"status", num(503)}, {"retryAfter", str("2")}}), obj({{"status", num(200)}})},
                         obj({{"retryAfterMaxMs", num(2000)}}));
    CHECK(words(atMax, "waitShape") == Words{"header", "none"});
    Value unusable = script({obj({{"status", num(503)}, {"retryAfter", str("soon")}}), obj({{"status", num(200)}})},
                            obj({{"retryAfterMode", str("at-least")}}));
    CHECK(words(unusable, "waitShape") == Words{"rule", "none"});
    Value notHonoured = script({obj({{"status", num(503)}, {"retryAfter", str("2")}}), obj({{"status", num(200)}})},
                               obj({{"honourRetryAfter", boolean(false)}, {"minBackoffMs", num(600)}}));
    CHECK(words(notHonoured, "waitShape") == Words{"minimum", "none"});
    // An immediate first retry is 0 ms, never raised by the minimum.
    CHECK(words(obj({{"firstRetryImmediate", boolean(true)}, {"minBackoffMs", num(100)}}), "waitShape") ==
          Words{"immediate", "none"});
}

TEST_CASE("scriptIndex: the entry each attempt drew; the last entry repeats", "[result][script]") {
    // outage-503-twice is [503, 503, 200] (SPEC §2).
    Value outage = obj({{"scenario", str("outage-503-twice")}});
    CHECK(numbers(outage, "scriptIndex") == std::vector<double>{0, 1, 2});
    CHECK(flags(outage, "scriptRepeats") == std::vector<bool>{false, false, true});
    // Trace B: 503 always, 5 attempts, every one the first and last entry.
    Value traceB = seedPolicy(script({obj({{"status", num(503)}})}));
    traceB.set("draws", list({num(0.90), num(0.20), num(0.60), num(0.50)}));
    CHECK(numbers(traceB, "scriptIndex") == std::vector<double>{0, 0, 0, 0, 0});
    CHECK(flags(traceB, "scriptRepeats") == std::vector<bool>{true, true, true, true, true});
    // A two-entry script past its end: the second entry answers attempts 2, 3 and 4.
    Value past =
        script({obj({{"status", num(500)}}), obj({{"status", num(502)}})}, obj({{"deadlineMs", Value::null()}}));
    CHECK(numbers(past, "scriptIndex") == std::vector<double>{0, 1, 1, 1});
    CHECK(flags(past, "scriptRepeats") == std::vector<bool>{false, true, true, true});
}

TEST_CASE("clientClass: what the client saw, in SPEC §4's classes", "[result][clientClass]") {
    CHECK(words(Value::object(), "clientClass") == Words{"timeout", "success"});
    auto seen = [](int status) {
        return words(script({obj({{"status", num(status)}})}, obj({{"maxRetries", num(0)}})), "clientClass").front();
    };
    CHECK(seen(200) == "success");
    CHECK(seen(201) == "success");
    CHECK(seen(429) == "429");
    CHECK(seen(500) == "5xx");
    CHECK(seen(599) == "5xx");
    CHECK(seen(400) == "4xx");
    CHECK(seen(404) == "4xx");
    CHECK(seen(499) == "4xx");
    CHECK(seen(302) == "other");
    CHECK(seen(101) == "other");
    // A dropped request is a timeout; a replayed stored 200 is a success.
    CHECK(words(obj({{"scenario", str("request-lost")}}), "clientClass") == Words{"timeout", "success"});
    CHECK(words(obj({{"idempotencyKey", boolean(true)}}), "clientClass") == Words{"timeout", "success"});
}

TEST_CASE("chargeNumber: the side effect an attempt committed, null for none", "[result][chargeNumber]") {
    // The opening run: charge #1 (its response lost) and charge #2.
    CHECK(numbers(Value::object(), "chargeNumber") == std::vector<double>{1, 2});
    // Key on: charge #1, then a replay that commits nothing.
    CHECK(numbers(obj({{"idempotencyKey", boolean(true)}}), "chargeNumber") == std::vector<double>{1, -1});
    // The outage: only the third attempt's 200 commits.
    CHECK(numbers(obj({{"scenario", str("outage-503-twice")}}), "chargeNumber") == std::vector<double>{-1, -1, 1});
    // A read commits nothing; create numbers its records the same way.
    CHECK(numbers(obj({{"operation", str("read")}}), "chargeNumber") == std::vector<double>{-1, -1});
    CHECK(numbers(obj({{"operation", str("create")}}), "chargeNumber") == std::vector<double>{1, 2});
}

TEST_CASE("scripted: the client received the answer of the entry drawn, not a replay, a 409 or a timeout",
          "[result][scripted]") {
    // docs/engine.md §5's worked figures. [503 with Retry-After: 2, 200], answers in 100 ms: the
    // client reads both entries' own answers.
    Value twoEntries = script({obj({{"status", num(503)}, {"retryAfter", str("2")}}), obj({{"status", num(200)}})},
                              obj({{"responseMs", num(100)}}));
    CHECK(flags(twoEntries, "scripted") == std::vector<bool>{true, true});
    // The same with a 50 ms timeout: every answer comes after it.
    twoEntries.set("clientTimeoutMs", num(50));
    const std::vector<bool> late = flags(twoEntries, "scripted");
    CHECK(late.size() >= 2);
    CHECK(late == std::vector<bool>(late.size(), false));
    // response-lost, [200 lost, 200]: the key on replays the stored 200; the key off gets the entry's.
    CHECK(flags(obj({{"idempotencyKey", boolean(true)}}), "scripted") == std::vector<bool>{false, false});
    CHECK(flags(Value::object(), "scripted") == std::vector<bool>{false, true});
    // A dropped request (request-lost: [dropped, 200]) is no answer at all.
    CHECK(flags(obj({{"scenario", str("request-lost")}}), "scripted") == std::vector<bool>{false, true});
}

TEST_CASE("the added fields agree with the sentences and numbers beside them", "[result][property]") {
    // Over many inputs: a header wait is one whose rule begins "Retry-After", no wait is a null
    // waitAfterMs, a charge number is a commit, numbered 1, 2, ... in attempt order.
    int headers = 0;
    for (std::uint64_t seed = 0; seed < 400; ++seed) {
        Value inputs =
            script({obj({{"status", num(seed % 3 == 0 ? 429 : 503)}, {"retryAfter", str(seed % 2 ? "1" : "soon")}}),
                    obj({{"status", num(seed % 5 == 0 ? 302 : 200)}, {"lost", boolean(seed % 4 == 0)}})},
                   obj({{"seed", num(static_cast<double>(seed))},
                        {"jitter", str(seed % 7 == 0 ? "none" : "full")},
                        {"retryAfterMode", str(seed % 6 == 0 ? "at-least" : "replace")},
                        {"idempotencyKey", boolean(seed % 8 == 0)},
                        {"retryOn", list({str("timeout"), str("429"), str("5xx")})}}));
        Value result = compute(inputs);
        REQUIRE(result.find("ok")->asBool());
        int charges = 0;
        for (const Value& a : result.find("attempts")->asArray()) {
            const std::string kind = a.find("waitKind")->asString();
            const Value& rule = *a.find("waitRule");
            INFO("seed " << seed << ", attempt " << a.find("n")->asNumber());
            CHECK((kind == "none") == a.find("waitAfterMs")->isNull());
            CHECK((kind == "header") == (!rule.isNull() && rule.asString().rfind("Retry-After", 0) == 0));
            headers += kind == "header";
            CHECK(a.find("chargeNumber")->isNull() == a.find("commitMs")->isNull());
            if (!a.find("chargeNumber")->isNull()) CHECK(a.find("chargeNumber")->asNumber() == ++charges);
            CHECK((a.find("clientClass")->asString() == "timeout") == (a.find("clientSaw")->asString() == "timeout"));
            // scripted: the server answered a status of the script and the client saw that status.
            const std::string server = a.find("server")->asString();
            const bool status = !server.empty() && server.find_first_not_of("0123456789") == std::string::npos;
            CHECK(a.find("scripted")->asBool() == (status && a.find("clientSaw")->asString() == server));
            if (!a.find("retryAfter")->isNull()) CHECK(a.find("scripted")->asBool());
        }
        CHECK(charges == result.find("metrics")->find("charges")->asNumber());
    }
    CHECK(headers > 50);
}

TEST_CASE("stop reasons and outcomes are the stable codes docs/engine.md §5 lists", "[result][codes]") {
    CHECK(Words{stopReasonName(StopReason::Success), stopReasonName(StopReason::NotRetryable),
                stopReasonName(StopReason::WriteWithoutKey), stopReasonName(StopReason::AttemptLimit),
                stopReasonName(StopReason::WaitBudget), stopReasonName(StopReason::Deadline)} ==
          Words{"success", "not-retryable", "write-without-key", "attempt-limit", "wait-budget", "deadline"});
    CHECK(Words{outcomeName(Outcome::Success), outcomeName(Outcome::Unknown), outcomeName(Outcome::Failed)} ==
          Words{"success", "unknown", "failed"});
    CHECK(Words{waitKindName(WaitKind::None), waitKindName(WaitKind::Header), waitKindName(WaitKind::Backoff)} ==
          Words{"none", "header", "backoff"});
    CHECK(Words{failureClassName(FailureClass::Success), failureClassName(FailureClass::Timeout),
                failureClassName(FailureClass::TooManyRequests), failureClassName(FailureClass::ServerError),
                failureClassName(FailureClass::ClientError),
                failureClassName(FailureClass::Other)} == Words{"success", "timeout", "429", "5xx", "4xx", "other"});
}
