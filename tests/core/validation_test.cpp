// SPEC §7: every field's type and range checked, every bad field named, nothing ignored.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "support.hpp"

using namespace retrylab;
using namespace retrylab::test;

namespace {

std::vector<std::string> badFields(const Value& inputs) {
    std::vector<std::string> fields;
    for (const InputError& e : parseInputs(inputs).errors) fields.push_back(e.field);
    return fields;
}

struct BadCase {
    const char* field;
    Value value;
    const char* reported;  // the path the error must name
};

Value scriptOf(std::initializer_list<Value> entries) {
    return obj({{"scenario", str("script")}, {"script", list(entries)}});
}

}  // namespace

TEST_CASE("an empty object is the opening run's inputs", "[validation]") {
    ParsedInputs parsed = parseInputs(Value::object());
    REQUIRE(parsed.errors.empty());
    REQUIRE(parsed.inputs);
    CHECK(parsed.inputs->maxRetries == 3);
    CHECK(parsed.inputs->deadlineMs == 10000.0);
}

TEST_CASE("each bad field is named with a sentence", "[validation]") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    BadCase bad = GENERATE_COPY(values<BadCase>({
        {"maxRetries", num(-1), "maxRetries"},
        {"maxRetries", num(101), "maxRetries"},
        {"maxRetries", num(1.5), "maxRetries"},
        {"maxRetries", str("3"), "maxRetries"},
        {"maxRetries", Value::null(), "maxRetries"},
        {"baseBackoffMs", num(-0.5), "baseBackoffMs"},
        {"baseBackoffMs", num(86400001), "baseBackoffMs"},
        {"baseBackoffMs", num(nan), "baseBackoffMs"},
        {"responseMs", num(inf), "responseMs"},
        {"responseMs", boolean(true), "responseMs"},
        {"clientTimeoutMs", num(0), "clientTimeoutMs"},
        {"clientTimeoutMs", Value::null(), "clientTimeoutMs"},
        {"maxBackoffMs", num(-1), "maxBackoffMs"},
        {"maxBackoffMs", str("none"), "maxBackoffMs"},
        {"deadlineMs", num(86400001), "deadlineMs"},
        {"waitBudgetMs", list({}), "waitBudgetMs"},
        {"backoffMultiplier", num(0.5), "backoffMultiplier"},
        {"backoffMultiplier", num(11), "backoffMultiplier"},
        {"draws", num(0.5), "draws"},
        {"draws", list({num(0.5), num(1.5)}), "draws[1]"},
        {"draws", list({str("0.5")}), "draws[0]"},
        {"draws", list({num(-0.1)}), "draws[0]"},
        {"seed", num(-1), "seed"},
        {"seed", num(9007199254740992.0), "seed"},
        {"seed", num(0.5), "seed"},
        {"operationId", str(""), "operationId"},
        {"operationId", str(std::string(256, 'x')), "operationId"},
        {"operationId", num(1), "operationId"},
        {"scenario", str("outage"), "scenario"},
        {"operation", str("delete"), "operation"},
        {"jitter", str("random"), "jitter"},
        {"jitter", Value::null(), "jitter"},
        {"retryOn", str("5xx"), "retryOn"},
        {"retryOn", list({str("5xx"), str("5xx")}), "retryOn[1]"},
        {"retryOn", list({str("500")}), "retryOn[0]"},
        {"retryOn", list({num(429)}), "retryOn[0]"},
        {"idempotencyKey", str("true"), "idempotencyKey"},
        {"retryWritesWithoutKey", num(1), "retryWritesWithoutKey"},
        {"honourRetryAfter", Value::null(), "honourRetryAfter"},
        {"startDate", str("2026-11-29T10:00:00Z"), "startDate"},
        {"startDate", str("Sun, 31 Nov 2026 10:00:00 GMT"), "startDate"},
        {"callers", num(0), "callers"},
        {"callers", num(1000001), "callers"},
        {"callers", num(2.5), "callers"},
        {"unknownField", num(1), "unknownField"},
        {"MaxRetries", num(1), "MaxRetries"},
        {"maxRetries", Value::unsupported("a function"), "maxRetries"},
    }));
    Value inputs = Value::object();
    inputs.set(bad.field, bad.value);
    ParsedInputs parsed = parseInputs(inputs);
    INFO("field " << bad.field);
    CHECK_FALSE(parsed.inputs);
    REQUIRE(parsed.errors.size() == 1);
    CHECK(parsed.errors[0].field == bad.reported);
    CHECK(parsed.errors[0].message.find(bad.field) != std::string::npos);  // the sentence names it too
    CHECK(parsed.errors[0].message.back() == '.');
}

TEST_CASE("every bad field is reported at once, not just the first", "[validation]") {
    Value inputs = obj({{"maxRetries", num(-1)}, {"jitter", str("x")}, {"callers", num(0)}, {"bogus", boolean(true)}});
    std::vector<std::string> fields = badFields(inputs);
    CHECK(fields.size() == 4);
    for (const char* f : {"maxRetries", "jitter", "callers", "bogus"})
        CHECK(std::find(fields.begin(), fields.end(), f) != fields.end());
}

TEST_CASE("nullable fields accept null as none", "[validation]") {
    ParsedInputs parsed = parseInputs(
        obj({{"deadlineMs", Value::null()}, {"maxBackoffMs", Value::null()}, {"waitBudgetMs", Value::null()}}));
    REQUIRE(parsed.inputs);
    CHECK_FALSE(parsed.inputs->deadlineMs);
}

TEST_CASE("the inputs must be an object", "[validation]") {
    Value notObject = GENERATE(Value::null(), num(3), str("x"), Value::array());
    ParsedInputs parsed = parseInputs(notObject);
    REQUIRE(parsed.errors.size() == 1);
    CHECK(parsed.errors[0].field.empty());
}

TEST_CASE("script entries are checked field by field with their path", "[validation][script]") {
    CHECK(badFields(scriptOf({obj({{"status", num(200)}}), obj({{"status", num(99)}})})) ==
          std::vector<std::string>{"script[1].status"});
    CHECK(badFields(scriptOf({obj({{"status", num(600)}})})) == std::vector<std::string>{"script[0].status"});
    CHECK(badFields(scriptOf({obj({{"status", num(200.5)}})})) == std::vector<std::string>{"script[0].status"});
    CHECK(badFields(scriptOf({obj({})})) == std::vector<std::string>{"script[0].status"});
    CHECK(badFields(scriptOf({obj({{"status", num(200)}, {"colour", str("red")}})})) ==
          std::vector<std::string>{"script[0].colour"});
    CHECK(badFields(scriptOf({obj({{"status", num(200)}, {"lost", boolean(true)}, {"dropped", boolean(true)}})})) ==
          std::vector<std::string>{"script[0].dropped"});
    CHECK(badFields(scriptOf({obj({{"status", num(200)}, {"lost", str("yes")}})})) ==
          std::vector<std::string>{"script[0].lost"});
    CHECK(badFields(scriptOf({obj({{"status", num(429)}, {"retryAfter", num(2)}})})) ==
          std::vector<std::string>{"script[0].retryAfter"});
    CHECK(badFields(scriptOf({obj({{"status", num(429)}, {"retryAfter", str(std::string(1001, '1'))}})})) ==
          std::vector<std::string>{"script[0].retryAfter"});
    CHECK(badFields(scriptOf({obj({{"status", num(429)}, {"date", str("today")}})})) ==
          std::vector<std::string>{"script[0].date"});
    CHECK(badFields(scriptOf({num(503)})) == std::vector<std::string>{"script[0]"});
    CHECK(badFields(scriptOf({})) == std::vector<std::string>{"script"});
    // A dropped request needs no status.
    CHECK(badFields(scriptOf({obj({{"dropped", boolean(true)}})})).empty());
    // An unusable Retry-After is valid input: the engine notes it at run time.
    CHECK(badFields(scriptOf({obj({{"status", num(503)}, {"retryAfter", str("soon")}})})).empty());
}

TEST_CASE("a script needs the script scenario, and the script scenario needs a script", "[validation][script]") {
    CHECK(badFields(obj({{"script", list({obj({{"status", num(200)}})})}})) == std::vector<std::string>{"script"});
    CHECK(badFields(obj({{"scenario", str("script")}})) == std::vector<std::string>{"script"});
}

TEST_CASE("lists are bounded: 100,000 draws and 1,000 answers at most", "[validation][bounds]") {
    Value::Array draws(100000, num(0.5));
    CHECK(badFields(obj({{"draws", Value::array(draws)}})).empty());
    draws.push_back(num(0.5));
    CHECK(badFields(obj({{"draws", Value::array(draws)}})) == std::vector<std::string>{"draws"});
    Value::Array answers(1001, obj({{"status", num(200)}}));
    CHECK(badFields(obj({{"scenario", str("script")}, {"script", Value::array(answers)}})) ==
          std::vector<std::string>{"script"});
}

TEST_CASE("a list of many bad items names the first ten and counts the rest", "[validation][bounds]") {
    Value::Array draws(5000, num(7));
    std::vector<std::string> fields = badFields(obj({{"draws", Value::array(draws)}}));
    REQUIRE(fields.size() == 11);
    CHECK(fields[0] == "draws[0]");
    CHECK(fields[9] == "draws[9]");
    CHECK(fields[10] == "draws");
}

TEST_CASE("bounds are inclusive", "[validation][bounds]") {
    Value inputs = obj({{"maxRetries", num(100)},
                        {"baseBackoffMs", num(86400000)},
                        {"backoffMultiplier", num(10)},
                        {"clientTimeoutMs", num(1)},
                        {"responseMs", num(0)},
                        {"seed", num(9007199254740991.0)},
                        {"callers", num(1000000)},
                        {"operationId", str(std::string(255, 'x'))},
                        {"draws", list({num(0), num(1)})}});
    CHECK(badFields(inputs).empty());
}

TEST_CASE("operationId counts characters, not bytes", "[validation]") {
    std::string accented;
    for (int i = 0; i < 255; ++i) accented += "é";  // 510 bytes, 255 characters
    CHECK(badFields(obj({{"operationId", str(accented)}})).empty());
}

TEST_CASE("compute returns an error object for bad input and a result for good", "[validation][compute]") {
    Value bad = compute(obj({{"maxRetries", num(-1)}}));
    REQUIRE(bad.find("ok"));
    CHECK_FALSE(bad.find("ok")->asBool());
    const Value& errors = *bad.find("errors");
    REQUIRE(errors.asArray().size() == 1);
    CHECK(errors.asArray()[0].find("field")->asString() == "maxRetries");
    Value good = compute(Value::object());
    CHECK(good.find("ok")->asBool());
    CHECK(good.find("metrics")->find("charges")->asNumber() == 2);
}

TEST_CASE("the result echoes every input with its default filled in", "[validation][compute]") {
    Value result = compute(obj({{"maxRetries", num(1)}}));
    const Value& inputs = *result.find("inputs");
    for (const char* field :
         {"scenario",     "operation",  "operationId",    "maxRetries", "baseBackoffMs",         "backoffMultiplier",
          "maxBackoffMs", "jitter",     "draws",          "seed",       "clientTimeoutMs",       "deadlineMs",
          "waitBudgetMs", "responseMs", "idempotencyKey", "retryOn",    "retryWritesWithoutKey", "honourRetryAfter",
          "startDate",    "callers"}) {
        INFO(field);
        CHECK(inputs.find(field));
    }
    CHECK(inputs.find("maxRetries")->asNumber() == 1);
    // Feeding the echo back reproduces the run exactly.
    CHECK(sameValue(compute(inputs), result));
}

TEST_CASE("a range error prints large whole numbers in full", "[validation]") {
    ParsedInputs parsed = parseInputs(obj({{"seed", num(9007199254740992.0)}}));
    REQUIRE(parsed.errors.size() == 1);
    CHECK(parsed.errors[0].message == "seed must be a whole number from 0 to 9007199254740991; got 9007199254740992.");
}
