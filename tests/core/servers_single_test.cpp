// docs/servers.md §2, §5–§7, §9, §11: the single run on many servers. The expected figures are
// worked by hand from the text (§11), never recorded from the engine.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "json_lite.hpp"
#include "policy.hpp"
#include "support.hpp"

using namespace retrylab;
using namespace retrylab::test;

namespace {

Value parse(const std::string& text) { return json(text); }

// The errors of inputs written as JSON, as "field code" pairs.
std::vector<std::string> errorsOf(const std::string& json) {
    std::vector<std::string> out;
    for (const InputError& e : parseInputs(parse(json)).errors) out.push_back(e.field + " " + e.code);
    return out;
}

std::string echoOf(const std::string& json) {
    ParsedInputs p = parseInputs(parse(json));
    REQUIRE(p.errors.empty());
    return compact(p.echo);
}

}  // namespace

TEST_CASE("the new fields at their defaults echo nothing and read as one server", "[servers]") {
    const std::string today = echoOf("{}");
    for (const char* given : {
             R"({"servers": null})",
             R"({"balancer": {}})",
             R"({"balancer": {"kind": "round-robin", "scope": "client"}})",
             R"({"retryHost": "any"})",
             R"({"hostSelectionRetryMaxAttempts": 1})",
             R"({"faults": []})",
             R"({"keyStore": {"scope": "shared", "lagMs": 0}})",
             R"({"keyStore": {}})",
         }) {
        INFO(given);
        CHECK(echoOf(given) == today);
        const Inputs in = *parseInputs(parse(given)).inputs;
        CHECK_FALSE(in.serversGiven);
        CHECK(in.serverCount == 1);
        CHECK(in.faults.empty());
    }
}

TEST_CASE("a new field given and not its default is echoed, and only what differs", "[servers]") {
    CHECK(echoOf(R"({"servers": {}})").find(R"("servers":{"count":2,"overrides":[]})") != std::string::npos);
    CHECK(echoOf(R"({"balancer": {"kind": "random", "scope": "client"}})").find(R"("balancer":{"kind":"random"})") !=
          std::string::npos);
    CHECK(echoOf(R"({"keyStore": {"scope": "replicated", "lagMs": 50}})")
              .find(R"("keyStore":{"scope":"replicated","lagMs":50})") != std::string::npos);
    const std::string echo = echoOf(
        R"({"servers": {"count": 3, "overrides": [{"index": 0, "script": [{"status": 503}]}]},
            "retryHost": "previous-hosts", "hostSelectionRetryMaxAttempts": 5,
            "faults": [{"kind": "crash", "servers": [0], "startMs": 0, "endMs": 5000}]})");
    CHECK(echo.find(R"("servers":{"count":3,"overrides":[{"index":0,"script":[{"status":503}]}]})") !=
          std::string::npos);
    CHECK(echo.find(R"("retryHost":"previous-hosts","hostSelectionRetryMaxAttempts":5)") != std::string::npos);
    CHECK(echo.find(R"("faults":[{"kind":"crash","servers":[0],"startMs":0,"endMs":5000}])") != std::string::npos);
    const Inputs in = *parseInputs(parse(R"({"servers": {"count": 3, "overrides": [{"index": 2, "responseMs": 50,
        "script": [{"status": 503}, {"status": 200}]}]}, "balancer": {"kind": "two-choices"},
        "faults": [{"kind": "partition", "startMs": 1, "endMs": 2}], "keyStore": {"scope": "per-server"}})"))
                           .inputs;
    CHECK(in.serversGiven);
    CHECK(in.serverCount == 3);
    REQUIRE(in.serverOverrides.size() == 1);
    CHECK(in.serverOverrides[0].index == 2);
    CHECK(in.serverOverrides[0].responseMs == 50.0);
    CHECK(in.serverOverrides[0].hasScript);
    CHECK(in.serverOverrides[0].script.size() == 2);
    CHECK(static_cast<int>(in.balancer) == 3);
    REQUIRE(in.faults.size() == 1);
    CHECK(in.faults[0].kind == FaultKind::Partition);
    CHECK(in.faults[0].allServers);
    CHECK(static_cast<int>(in.keyScope) == 1);
}

TEST_CASE("refused and reset are retryOn classes, and 5xx covers them", "[servers]") {
    auto retried = [](const char* retryOn, FailureClass c) {
        const Inputs in = *parseInputs(parse(std::string(R"({"retryOn": )") + retryOn + "}")).inputs;
        return retries(in, c, std::nullopt, false);
    };
    CHECK(retried(R"(["5xx"])", FailureClass::Refused));
    CHECK(retried(R"(["5xx"])", FailureClass::Reset));
    CHECK(retried(R"(["refused"])", FailureClass::Refused));
    CHECK_FALSE(retried(R"(["refused"])", FailureClass::Reset));
    CHECK(retried(R"(["reset"])", FailureClass::Reset));
    CHECK_FALSE(retried(R"(["reset"])", FailureClass::Refused));
    CHECK_FALSE(retried(R"(["timeout", "429", "4xx"])", FailureClass::Refused));
    CHECK_FALSE(retried(R"(["timeout", "429", "4xx"])", FailureClass::Reset));
    CHECK_FALSE(retried(R"(["refused", "reset"])", FailureClass::ServerError));
    CHECK(retried("[]", FailureClass::Refused) == false);
    CHECK(errorsOf(R"({"retryOn": ["timeout", "429", "5xx", "4xx", "refused", "reset"]})").empty());
    CHECK(failureClassName(FailureClass::Refused) == std::string("refused"));
    CHECK(failureClassName(FailureClass::Reset) == std::string("reset"));
    // hedging.nonFatal keeps the four classes of a server that answers.
    CHECK(errorsOf(R"({"maxRetries": 0, "hedging": {"maxAttempts": 2, "nonFatal": ["refused"]}})") ==
          std::vector<std::string>{"hedging.nonFatal[0] not-a-choice"});
}

TEST_CASE("every bad many-servers input is named", "[servers]") {
    struct Bad {
        const char* json;
        std::vector<std::string> errors;
    };
    const Bad bad = GENERATE(values<Bad>({
        {R"({"servers": 2})", {"servers wrong-type"}},
        {R"({"servers": {"count": 0}})", {"servers.count out-of-range"}},
        {R"({"servers": {"count": 1001}})", {"servers.count out-of-range"}},
        {R"({"servers": {"count": 1.5}})", {"servers.count not-whole"}},
        {R"({"servers": {"count": 2, "replicas": 3}})", {"servers.replicas unknown-field"}},
        {R"({"servers": {"overrides": [{"responseMs": 5}]}})", {"servers.overrides[0].index missing"}},
        {R"({"servers": {"overrides": [{"index": 2}]}})", {"servers.overrides[0].index out-of-range"}},
        {R"({"servers": {"count": 3, "overrides": [{"index": 1}, {"index": 1}]}})",
         {"servers.overrides[1].index repeated"}},
        {R"({"servers": {"overrides": [{"index": 0, "responseMs": -1}]}})",
         {"servers.overrides[0].responseMs out-of-range"}},
        {R"({"servers": {"overrides": [{"index": 0, "script": []}]}})", {"servers.overrides[0].script too-few"}},
        {R"({"servers": {"overrides": [{"index": 0, "script": [{"status": 600}]}]}})",
         {"servers.overrides[0].script[0].status out-of-range"}},
        {R"({"servers": {"overrides": [{"index": 0, "script": [{"status": 200, "date": "yesterday"}]}]}})",
         {"servers.overrides[0].script[0].date bad-date"}},
        {R"({"servers": {"overrides": [{"index": 0, "failureRate": 1}]}})",
         {"servers.overrides[0].failureRate unknown-field"}},
        {R"({"balancer": {"kind": "fastest"}})", {"balancer.kind not-a-choice"}},
        {R"({"balancer": {"scope": "fleet"}})", {"balancer.scope not-a-choice"}},
        {R"({"retryHost": "other-hosts"})", {"retryHost not-a-choice"}},
        {R"({"hostSelectionRetryMaxAttempts": 101})", {"hostSelectionRetryMaxAttempts out-of-range"}},
        {R"({"hostSelectionRetryMaxAttempts": -1})", {"hostSelectionRetryMaxAttempts out-of-range"}},
        {R"({"faults": [{"kind": "crash", "startMs": 0}]})", {"faults[0].endMs missing"}},
        {R"({"faults": [{"servers": null, "startMs": 0, "endMs": 1}]})", {"faults[0].kind missing"}},
        {R"({"faults": [{"kind": "outage", "startMs": 0, "endMs": 1}]})", {"faults[0].kind not-a-choice"}},
        {R"({"faults": [{"kind": "crash", "startMs": 0, "endMs": 86400001}]})", {"faults[0].endMs out-of-range"}},
        {R"({"faults": [{"kind": "crash", "startMs": 10, "endMs": 5}]})", {"faults[0].endMs conflict"}},
        {R"({"faults": [{"kind": "crash", "servers": [1], "startMs": 0, "endMs": 5}]})",
         {"faults[0].servers[0] out-of-range"}},
        {R"({"servers": {"count": 2}, "faults": [{"kind": "crash", "servers": [0, 2], "startMs": 0, "endMs": 5}]})",
         {"faults[0].servers[1] out-of-range"}},
        {R"({"servers": {}, "faults": [{"kind": "crash", "servers": [0, 0], "startMs": 0, "endMs": 5}]})",
         {"faults[0].servers[1] repeated"}},
        {R"({"servers": {}, "faults": [{"kind": "crash", "servers": [0], "startMs": 0, "endMs": 5},
                                        {"kind": "partition", "servers": [1, 0], "startMs": 4, "endMs": 9}]})",
         {"faults[1].servers conflict"}},
        {R"({"servers": {}, "faults": [{"kind": "crash", "startMs": 0, "endMs": 5},
                                        {"kind": "crash", "servers": [1], "startMs": 4, "endMs": 9}]})",
         {"faults[1].servers conflict"}},
        {R"({"keyStore": {"scope": "per-server", "lagMs": 5}})", {"keyStore.lagMs conflict"}},
        {R"({"keyStore": {"lagMs": 5}})", {"keyStore.lagMs conflict"}},
        {R"({"keyStore": {"scope": "replicated", "lagMs": -5}})", {"keyStore.lagMs out-of-range"}},
        {R"({"keyStore": {"scope": "everywhere"}})", {"keyStore.scope not-a-choice"}},
        {R"({"servers": {}, "callers": 2})", {"servers conflict"}},
        {R"({"servers": {}, "layers": [{}]})", {"servers conflict"}},
        {R"({"servers": {}, "maxRetries": 0, "hedging": {"maxAttempts": 2}})", {"servers conflict"}},
        {R"({"faults": [{"kind": "crash", "startMs": 0, "endMs": 5}], "callers": 2})", {"faults conflict"}},
        {R"({"faults": [{"kind": "crash", "startMs": 0, "endMs": 5}], "layers": [{}]})", {"faults conflict"}},
    }));
    INFO(bad.json);
    CHECK(errorsOf(bad.json) == bad.errors);
}

TEST_CASE("the overrides' scripts hold at most 1,000 answers together", "[servers]") {
    auto overrides = [](int first, int second) {
        std::string a = "[", b = "[";
        for (int i = 0; i < first; ++i) a += std::string(i ? "," : "") + R"({"status": 200})";
        for (int i = 0; i < second; ++i) b += std::string(i ? "," : "") + R"({"status": 503})";
        return R"({"servers": {"overrides": [{"index": 0, "script": )" + a + R"(]}, {"index": 1, "script": )" + b +
               "]}]}}";
    };
    CHECK(errorsOf(overrides(600, 400)).empty());
    CHECK(errorsOf(overrides(600, 401)) == std::vector<std::string>{"servers.overrides too-many"});
}

TEST_CASE("windows that only touch, empty windows and different servers may share a time", "[servers]") {
    CHECK(errorsOf(R"({"servers": {}, "faults": [{"kind": "crash", "servers": [0], "startMs": 0, "endMs": 5},
                                                  {"kind": "crash", "servers": [0], "startMs": 5, "endMs": 9}]})")
              .empty());
    CHECK(errorsOf(R"({"servers": {}, "faults": [{"kind": "crash", "servers": [0], "startMs": 0, "endMs": 5},
                                                  {"kind": "crash", "servers": [0], "startMs": 3, "endMs": 3}]})")
              .empty());
    CHECK(errorsOf(R"({"servers": {}, "faults": [{"kind": "crash", "servers": [0], "startMs": 0, "endMs": 5},
                                                  {"kind": "partition", "servers": [1], "startMs": 0, "endMs": 5}]})")
              .empty());
    CHECK(errorsOf(R"({"faults": [{"kind": "crash", "servers": [0], "startMs": 0, "endMs": 0}]})").empty());
    // An empty list names no server, so it overlaps nothing; null names them all.
    CHECK(errorsOf(R"({"servers": {}, "faults": [{"kind": "crash", "startMs": 0, "endMs": 5},
                                                  {"kind": "crash", "servers": [], "startMs": 0, "endMs": 5}]})")
              .empty());
    CHECK(errorsOf(R"({"servers": {}, "faults": [{"kind": "crash", "servers": [], "startMs": 0, "endMs": 5},
                                                  {"kind": "crash", "startMs": 0, "endMs": 5}]})")
              .empty());
    CHECK(errorsOf(R"({"servers": {}, "faults": [{"kind": "crash", "startMs": 0, "endMs": 5},
                                                  {"kind": "crash", "startMs": 4, "endMs": 5}]})") ==
          std::vector<std::string>{"faults[1].servers conflict"});
}
