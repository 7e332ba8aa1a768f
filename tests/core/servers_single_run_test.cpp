// docs/servers.md §7 and §11: the single run on many servers, figure by figure (worked by hand
// from the text, §11), and the relations that must hold (§6, §7.2, §9).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "json_lite.hpp"
#include "random.hpp"
#include "support.hpp"

using namespace retrylab;
using namespace retrylab::test;

namespace {

// §11's defaults: SPEC §2's, two servers, round robin, a key, the response lost.
const char* const kStory = R"("servers": {"count": 2}, "idempotencyKey": true, "scenario": "response-lost")";

Value run(const std::string& members) {
    Value result = compute(json("{" + members + "}"));
    INFO(members);
    REQUIRE(result.find("ok")->asBool());
    return result;
}

const Value& at(const Value& v, std::initializer_list<const char*> path) {
    const Value* here = &v;
    for (const char* step : path) {
        if (step[0] >= '0' && step[0] <= '9') {
            here = &here->asArray().at(static_cast<std::size_t>(std::stoi(step)));
        } else {
            here = here->find(step);
            if (!here) FAIL(std::string("no member ") + step);
        }
    }
    return *here;
}

double num(const Value& v, std::initializer_list<const char*> path) { return at(v, path).asNumber(); }
std::string text(const Value& v, std::initializer_list<const char*> path) { return at(v, path).asString(); }

// metrics.servers[j] as "attempts charges replays conflicts refused aborted dropped answersLost duplicates".
std::string serverRow(const Value& result, const char* j) {
    const Value& row = at(result, {"metrics", "servers", j});
    std::string out;
    for (const char* name :
         {"attempts", "charges", "replays", "conflicts", "refused", "aborted", "dropped", "answersLost", "duplicates"})
        out += (out.empty() ? "" : " ") + std::to_string(static_cast<int>(num(row, {name})));
    return out;
}

bool hasEventText(const Value& result, const std::string& text) {
    for (const Value& e : at(result, {"events"}).asArray())
        if (e.find("text")->asString() == text) return true;
    return false;
}

std::string replicated(const char* lag) {
    return std::string(kStory) + R"(, "keyStore": {"scope": "replicated", "lagMs": )" + lag + "}";
}

}  // namespace

TEST_CASE("11.1: with a shared store the retry on the other replica is a replay: one charge", "[servers]") {
    const Value r = run(kStory);
    CHECK(num(r, {"metrics", "charges"}) == 1);
    CHECK(num(r, {"metrics", "replays"}) == 1);
    CHECK(num(r, {"metrics", "attempts"}) == 2);
    CHECK(num(r, {"metrics", "elapsedMs"}) == 3700);
    CHECK(text(r, {"metrics", "outcome"}) == "success");
    CHECK(num(r, {"attempts", "0", "host"}) == 0);
    CHECK(num(r, {"attempts", "1", "host"}) == 1);
    CHECK(num(r, {"attempts", "1", "startMs"}) == 3500);
    CHECK(text(r, {"attempts", "1", "server"}) == "replay");
    CHECK(serverRow(r, "0") == "1 1 0 0 0 0 0 0 0");
    CHECK(serverRow(r, "1") == "1 0 1 0 0 0 0 0 0");
}

TEST_CASE("11.1: with per-server keys the retry on the other replica charges again, with a key", "[servers]") {
    const Value r = run(std::string(kStory) + R"(, "keyStore": {"scope": "per-server"})");
    CHECK(num(r, {"metrics", "charges"}) == 2);
    CHECK(num(r, {"metrics", "duplicates"}) == 1);
    CHECK(text(r, {"metrics", "agentReport"}) == "success");
    CHECK(num(r, {"attempts", "1", "commitMs"}) == 3700);
    CHECK(serverRow(r, "0") == "1 1 0 0 0 0 0 0 0");
    CHECK(serverRow(r, "1") == "1 1 0 0 0 0 0 0 1");
    CHECK(hasEventText(
        r, "attempt 2 → server 1: server 1 has no record of op-0001 (per-server keys); it commits charge #2"));
}

TEST_CASE("11.1: a replicated store, the lag at each boundary both ways", "[servers]") {
    // The result is visible to server 1 at 200 + ℓ, the mark at 0 + ℓ; the retry reads at 3,500.
    const Value at3300 = run(replicated("3300"));
    CHECK(text(at3300, {"attempts", "1", "server"}) == "replay");
    CHECK(num(at3300, {"metrics", "charges"}) == 1);
    CHECK(text(at3300, {"metrics", "outcome"}) == "success");
    for (const char* lag : {"3300.5", "3500"}) {
        INFO(lag);
        const Value r = run(replicated(lag));
        CHECK(text(r, {"attempts", "1", "server"}) == "409");
        CHECK(num(r, {"attempts", "1", "endMs"}) == 3700);
        CHECK(text(r, {"metrics", "stopReason"}) == "not-retryable");
        CHECK(text(r, {"metrics", "outcome"}) == "failed");
        CHECK(text(r, {"metrics", "agentReport"}) == "error 409");
        CHECK(num(r, {"metrics", "charges"}) == 1);
        CHECK(serverRow(r, "1") == "1 0 0 1 0 0 0 0 0");
    }
    const Value at3500half = run(replicated("3500.5"));
    CHECK(text(at3500half, {"attempts", "1", "server"}) == "200");
    CHECK(num(at3500half, {"metrics", "charges"}) == 2);
    CHECK(text(at3500half, {"metrics", "outcome"}) == "success");
    // A lag of 0 is the shared store exactly.
    const Value shared = run(kStory);
    const Value zero = run(replicated("0"));
    CHECK(compact(*zero.find("attempts")) == compact(*shared.find("attempts")));
    CHECK(compact(*zero.find("metrics")) == compact(*shared.find("metrics")));
}

TEST_CASE("11.1: without a key every store charges twice", "[servers]") {
    for (const char* store : {"shared", "per-server", "replicated"}) {
        INFO(store);
        const Value r =
            run(std::string(R"("servers": {"count": 2}, "scenario": "response-lost", "keyStore": {"scope": ")") +
                store + "\"}");
        CHECK(num(r, {"metrics", "charges"}) == 2);
    }
}

TEST_CASE("11.2: a random balancer sends the retry back by luck; previous-hosts sends it away", "[servers]") {
    const std::string base =
        std::string(kStory) + R"(, "balancer": {"kind": "random"}, "keyStore": {"scope": "per-server"}, "seed": 1)";
    const Value any = run(base);
    CHECK(num(any, {"attempts", "0", "host"}) == 0);
    CHECK(num(any, {"attempts", "1", "host"}) == 0);
    CHECK(text(any, {"attempts", "1", "server"}) == "replay");
    CHECK(num(any, {"metrics", "charges"}) == 1);
    const Value away = run(base + R"(, "retryHost": "previous-hosts")");
    CHECK(num(away, {"attempts", "1", "host"}) == 1);
    CHECK(num(away, {"metrics", "charges"}) == 2);
    // A = 0: one pick only, server 0 again.
    const Value once = run(base + R"(, "retryHost": "previous-hosts", "hostSelectionRetryMaxAttempts": 0)");
    CHECK(num(once, {"attempts", "1", "host"}) == 0);
    // The balancer's draws are its own stream: the draws list is untouched (11.2 with draws given).
    const Value jittered = run(base + R"(, "jitter": "full", "draws": [0.5])");
    CHECK(num(jittered, {"attempts", "0", "draw"}) == 0.5);
    CHECK(num(jittered, {"attempts", "1", "host"}) == 0);
}

TEST_CASE("11.3: a crash refuses at once and the retry goes to the other replica", "[servers]") {
    const char* base = R"("servers": {"count": 2}, "scenario": "script", "script": [{"status": 200}])";
    const Value r =
        run(std::string(base) + R"(, "faults": [{"kind": "crash", "servers": [0], "startMs": 0, "endMs": 5000}])");
    CHECK(text(r, {"attempts", "0", "server"}) == "refused");
    CHECK(text(r, {"attempts", "0", "clientSaw"}) == "refused");
    CHECK(text(r, {"attempts", "0", "clientClass"}) == "refused");
    CHECK(num(r, {"attempts", "0", "endMs"}) == 0);
    CHECK(at(r, {"attempts", "0", "scriptIndex"}).isNull());
    CHECK(at(r, {"attempts", "0", "commitMs"}).isNull());
    CHECK(num(r, {"attempts", "0", "waitAfterMs"}) == 500);
    CHECK(num(r, {"attempts", "1", "startMs"}) == 500);
    CHECK(num(r, {"attempts", "1", "host"}) == 1);
    CHECK(num(r, {"attempts", "1", "commitMs"}) == 700);
    CHECK(num(r, {"metrics", "elapsedMs"}) == 700);
    CHECK(num(r, {"metrics", "charges"}) == 1);
    CHECK(serverRow(r, "0") == "1 0 0 0 1 0 0 0 0");
    CHECK(serverRow(r, "1") == "1 1 0 0 0 0 0 0 0");
    CHECK(text(r, {"events", "1", "kind"}) == "refused");
    CHECK(num(r, {"events", "1", "host"}) == 0);
    CHECK(text(r, {"events", "1", "text"}) == "attempt 1 → server 0: server 0 is down; the connection is refused");
}

TEST_CASE("11.3: a partition eats the timeout", "[servers]") {
    const Value r = run(R"("servers": {"count": 2}, "scenario": "script", "script": [{"status": 200}],
        "faults": [{"kind": "partition", "servers": [0], "startMs": 0, "endMs": 5000}])");
    CHECK(text(r, {"attempts", "0", "server"}) == "dropped");
    CHECK(text(r, {"attempts", "0", "clientSaw"}) == "timeout");
    CHECK(num(r, {"attempts", "0", "endMs"}) == 3000);
    CHECK(num(r, {"attempts", "1", "startMs"}) == 3500);
    CHECK(num(r, {"attempts", "1", "host"}) == 1);
    CHECK(num(r, {"metrics", "elapsedMs"}) == 3700);
    CHECK(serverRow(r, "0") == "1 0 0 0 0 0 1 0 0");
    CHECK(text(r, {"events", "1", "kind"}) == "request-lost");
}

TEST_CASE("11.3: a crash during the work aborts it: a reset, no charge", "[servers]") {
    const char* base = R"("servers": {"count": 2}, "scenario": "script", "script": [{"status": 200}],
        "faults": [{"kind": "crash", "servers": [0], "startMs": 100, "endMs": 5000}])";
    const Value r = run(base);
    CHECK(text(r, {"attempts", "0", "server"}) == "aborted");
    CHECK(text(r, {"attempts", "0", "clientSaw"}) == "reset");
    CHECK(num(r, {"attempts", "0", "endMs"}) == 100);
    CHECK(at(r, {"attempts", "0", "commitMs"}).isNull());
    CHECK(num(r, {"attempts", "1", "startMs"}) == 600);
    CHECK(num(r, {"attempts", "1", "commitMs"}) == 800);
    CHECK(num(r, {"metrics", "charges"}) == 1);
    CHECK(text(r, {"metrics", "outcome"}) == "success");
    CHECK(serverRow(r, "0") == "1 0 0 0 0 1 0 0 0");
    CHECK(hasEventText(
        r, "attempt 1 → server 0: server 0 crashes at 100 ms; the connection is reset; nothing is committed"));
    const Value last = run(std::string(base) + R"(, "maxRetries": 0)");
    CHECK(num(last, {"metrics", "elapsedMs"}) == 100);
    CHECK(text(last, {"metrics", "outcome"}) == "unknown");
    CHECK(text(last, {"metrics", "agentReport"}) == "error reset");
    CHECK(at(last, {"metrics", "lookupNeeded"}).asBool());
    CHECK(num(last, {"metrics", "charges"}) == 0);
    // A crash starting at the completion instant aborts it; one starting just after does not.
    const Value edge =
        run(R"("servers": {"count": 2}, "scenario": "script", "script": [{"status": 200}], "maxRetries": 0,
        "faults": [{"kind": "crash", "servers": [0], "startMs": 200, "endMs": 300}])");
    CHECK(text(edge, {"attempts", "0", "server"}) == "aborted");
    const Value after =
        run(R"("servers": {"count": 2}, "scenario": "script", "script": [{"status": 200}], "maxRetries": 0,
        "faults": [{"kind": "crash", "servers": [0], "startMs": 200.5, "endMs": 300}])");
    CHECK(num(after, {"metrics", "charges"}) == 1);
}

TEST_CASE("a refusal ends the run failed, and retryOn without 5xx or refused does not retry it", "[servers]") {
    const Value r =
        run(R"("servers": {"count": 2}, "scenario": "script", "script": [{"status": 200}], "retryOn": ["timeout"],
        "faults": [{"kind": "crash", "servers": [0], "startMs": 0, "endMs": 5000}])");
    CHECK(num(r, {"metrics", "attempts"}) == 1);
    CHECK(text(r, {"metrics", "stopReason"}) == "not-retryable");
    CHECK(text(r, {"metrics", "outcome"}) == "failed");
    CHECK(text(r, {"metrics", "agentReport"}) == "error refused");
    CHECK_FALSE(at(r, {"metrics", "lookupNeeded"}).asBool());
    const Value named =
        run(R"("servers": {"count": 2}, "scenario": "script", "script": [{"status": 200}], "retryOn": ["refused"],
        "faults": [{"kind": "crash", "servers": [0], "startMs": 0, "endMs": 5000}])");
    CHECK(text(named, {"metrics", "outcome"}) == "success");
}

TEST_CASE("a reset after the cutoff reaches no one: the attempt times out", "[servers]") {
    const Value r = run(R"("servers": {"count": 2}, "scenario": "script", "script": [{"status": 200}], "maxRetries": 0,
        "responseMs": 5000, "clientTimeoutMs": 1000,
        "faults": [{"kind": "crash", "servers": [0], "startMs": 2000, "endMs": 3000}])");
    CHECK(text(r, {"attempts", "0", "server"}) == "aborted");
    CHECK(text(r, {"attempts", "0", "clientSaw"}) == "timeout");
    CHECK(num(r, {"attempts", "0", "endMs"}) == 1000);
    const Value& events = at(r, {"events"});
    CHECK(events.asArray().back().find("kind")->asString() == "reset");  // after stop: later in time
}

TEST_CASE("a partition covering the answer loses it; the work is done", "[servers]") {
    const Value r = run(R"("servers": {"count": 2}, "scenario": "script", "script": [{"status": 200}], "maxRetries": 0,
        "faults": [{"kind": "partition", "servers": [0], "startMs": 100, "endMs": 300}])");
    CHECK(num(r, {"metrics", "charges"}) == 1);
    CHECK(text(r, {"attempts", "0", "clientSaw"}) == "timeout");
    CHECK(serverRow(r, "0") == "1 1 0 0 0 0 0 1 0");
}

TEST_CASE("11.4: one bad replica answers from its own script", "[servers]") {
    const Value r = run(R"("servers": {"count": 3, "overrides": [{"index": 0, "script": [{"status": 503}]}]},
        "scenario": "script", "script": [{"status": 200}])");
    CHECK(num(r, {"attempts", "0", "host"}) == 0);
    CHECK(text(r, {"attempts", "0", "server"}) == "503");
    CHECK(num(r, {"attempts", "0", "endMs"}) == 200);
    CHECK(num(r, {"attempts", "1", "startMs"}) == 700);
    CHECK(num(r, {"attempts", "1", "host"}) == 1);
    CHECK(num(r, {"attempts", "1", "commitMs"}) == 900);
    CHECK(num(r, {"metrics", "elapsedMs"}) == 900);
    CHECK(num(r, {"metrics", "charges"}) == 1);
}

TEST_CASE("an override's own script is read by the attempts that reach that server; its responseMs times them",
          "[servers]") {
    // K = 1 with an override: the m-th attempt to reach server 0 reads its own entry m.
    const Value r = run(R"("servers": {"count": 1, "overrides": [{"index": 0, "responseMs": 50,
        "script": [{"status": 503}, {"status": 500}, {"status": 200}]}]}, "baseBackoffMs": 100, "operation": "read")");
    CHECK(text(r, {"attempts", "0", "server"}) == "503");
    CHECK(text(r, {"attempts", "1", "server"}) == "500");
    CHECK(text(r, {"attempts", "2", "server"}) == "200");
    CHECK(num(r, {"attempts", "0", "endMs"}) == 50);
    CHECK(num(r, {"attempts", "1", "startMs"}) == 150);
    CHECK(num(r, {"attempts", "2", "startMs"}) == 400);  // 200 + the second wait of 200
    CHECK(num(r, {"metrics", "elapsedMs"}) == 450);
}

namespace {

// Generated single runs, as JSON text (the engine's PCG32, seeded: the same inputs natively and in
// WebAssembly). `many` adds servers, a balancer, faults and a key store; without it, inputs of
// today's fields only.
class RunGenerator {
public:
    explicit RunGenerator(std::uint64_t seed) : random_(seed, 54) {}

    std::string today() {
        std::string s = "\"seed\": " + std::to_string(pick(1000));
        const int scenario = static_cast<int>(pick(5));
        if (scenario < 4) {
            static const char* names[] = {"response-lost", "request-lost", "outage-503-twice", "bad-request-400"};
            s += std::string(", \"scenario\": \"") + names[scenario] + "\"";
        } else {
            s += ", \"scenario\": \"script\", \"script\": " + script();
        }
        static const char* operations[] = {"charge", "create", "read"};
        s += std::string(", \"operation\": \"") + operations[pick(3)] + "\"";
        s += ", \"maxRetries\": " + std::to_string(pick(6));
        s += ", \"baseBackoffMs\": " + choose({"0", "100", "500", "1000"});
        s += ", \"clientTimeoutMs\": " + choose({"100", "250", "1000", "3000"});
        s += ", \"deadlineMs\": " + choose({"null", "2000", "3700", "10000"});
        s += ", \"responseMs\": " + choose({"0", "100", "200", "1000"});
        s += ", \"idempotencyKey\": " + std::string(coin() ? "true" : "false");
        s += ", \"jitter\": " + choose({"\"none\"", "\"full\"", "\"equal\""});
        s += ", \"retryOn\": " + choose({"[\"timeout\", \"5xx\"]", "[\"timeout\"]", "[\"5xx\", \"4xx\"]",
                                         "[\"refused\", \"reset\", \"timeout\"]"});
        if (coin()) s += ", \"attemptStart\": \"before-deadline\"";
        return s;
    }

    std::string many(int count, const char* store) {
        std::string s = ", \"servers\": {\"count\": " + std::to_string(count);
        if (coin()) {
            s += ", \"overrides\": [{\"index\": " + std::to_string(pick(static_cast<std::size_t>(count))) +
                 ", \"responseMs\": " + choose({"0", "50", "400", "2000"}) +
                 (coin() ? ", \"script\": " + script() : "") + "}]";
        }
        s += "}, \"balancer\": {\"kind\": " +
             choose({"\"round-robin\"", "\"random\"", "\"least-outstanding\"", "\"two-choices\""}) + "}";
        if (coin())
            s += ", \"retryHost\": \"previous-hosts\", \"hostSelectionRetryMaxAttempts\": " + std::to_string(pick(4));
        s += std::string(", \"keyStore\": {\"scope\": \"") + store + "\"";
        if (std::string(store) == "replicated") s += ", \"lagMs\": " + choose({"0", "100", "1000", "5000"});
        s += "}";
        if (coin()) {
            // At most one fault per server, so that no two overlap on a server.
            s += ", \"faults\": [";
            for (int j = 0; j < count; ++j) {
                const double start = static_cast<double>(pick(40)) * 100;
                s += std::string(j ? ", " : "") + "{\"kind\": " + choose({"\"crash\"", "\"partition\""}) +
                     ", \"servers\": [" + std::to_string(j) +
                     "], \"startMs\": " + std::to_string(static_cast<int>(start)) +
                     ", \"endMs\": " + std::to_string(static_cast<int>(start + static_cast<double>(pick(40)) * 100)) +
                     "}";
            }
            s += "]";
        }
        return s;
    }

    std::size_t pick(std::size_t n) { return static_cast<std::size_t>(random_.nextUnit() * static_cast<double>(n)); }

private:
    bool coin() { return pick(2) == 1; }
    std::string choose(std::initializer_list<const char*> xs) { return *(xs.begin() + pick(xs.size())); }
    std::string script() {
        static const char* answers[] = {R"({"status": 200})",
                                        R"({"status": 200, "lost": true})",
                                        R"({"dropped": true})",
                                        R"({"status": 503})",
                                        R"({"status": 503, "retryAfter": "1"})",
                                        R"({"status": 400})",
                                        R"({"status": 429})",
                                        R"({"status": 201})"};
        std::string s = "[";
        for (std::size_t i = 0, n = 1 + pick(4); i < n; ++i) s += std::string(i ? ", " : "") + answers[pick(8)];
        return s + "]";
    }

    Pcg32 random_;
};

// The result without what `servers` adds (§7.2): `host` on attempts and events, the host in
// their sentences, metrics.servers, and the echo's many-servers fields.
Value withoutServers(Value result) {
    auto strip = [](Value& rows, const char* key) {
        Value out = Value::array();
        for (const Value& row : rows.asArray()) {
            Value copy = Value::object();
            for (const Value::Member& m : row.asObject()) {
                if (m.key == key) continue;
                if (m.key != "text") {
                    copy.set(m.key, m.value);
                    continue;
                }
                std::string text = m.value.asString();
                for (std::size_t at; (at = text.find(" → server 0")) != std::string::npos;) text.erase(at, 13);
                copy.set(m.key, Value::string(text));
            }
            out.push(std::move(copy));
        }
        rows = std::move(out);
    };
    Value out = Value::object();
    for (const Value::Member& m : result.asObject()) {
        Value v = m.value;
        if (m.key == "attempts" || m.key == "events") strip(v, "host");
        if (m.key == "metrics" || m.key == "inputs") {
            Value copy = Value::object();
            for (const Value::Member& x : v.asObject())
                if (x.key != "servers" && x.key != "balancer" && x.key != "keyStore" && x.key != "retryHost")
                    copy.set(x.key, x.value);
            v = std::move(copy);
        }
        out.set(m.key, std::move(v));
    }
    return out;
}

}  // namespace

TEST_CASE("K = 1 is today: servers {count: 1} adds its rows and changes no other figure", "[servers]") {
    RunGenerator generate(39);
    for (int i = 0; i < 1500; ++i) {
        const std::string members = generate.today();
        INFO(members);
        const Value today = compute(json("{" + members + "}"));
        REQUIRE(today.find("ok")->asBool());
        // Every new field at its default, given: the whole result is today's, byte for byte.
        const Value defaults = compute(json("{" + members + R"(, "servers": null, "balancer": {"kind": "round-robin"},
            "retryHost": "any", "hostSelectionRetryMaxAttempts": 1, "faults": [], "keyStore": {"scope": "shared", "lagMs": 0}})"));
        CHECK(compact(defaults) == compact(today));
        // One server, with a balancer and a store that one server cannot tell apart.
        const char* store = i % 3 == 0 ? "per-server" : i % 3 == 1 ? "replicated" : "shared";
        const Value one =
            compute(json("{" + members + R"(, "servers": {"count": 1}, "balancer": {"kind": "two-choices"},
            "retryHost": "previous-hosts", "keyStore": {"scope": ")" +
                         store + (i % 3 == 1 ? R"(", "lagMs": 5000})" : R"("})") + "}"));
        REQUIRE(one.find("ok")->asBool());
        CHECK(compact(withoutServers(one)) == compact(today));
        const Value& rows = *one.find("metrics")->find("servers");
        REQUIRE(rows.asArray().size() == 1);
        CHECK(rows.asArray()[0].find("attempts")->asNumber() == one.find("metrics")->find("attempts")->asNumber());
        for (const Value& a : one.find("attempts")->asArray()) CHECK(a.find("host")->asNumber() == 0);
    }
}

TEST_CASE("with a shared store and a key, no run on many servers charges twice; the rows sum to the metrics",
          "[servers]") {
    RunGenerator generate(3939);
    int runs = 0, charged = 0;
    for (int i = 0; i < 3000; ++i) {
        const char* store = i % 3 == 0 ? "per-server" : i % 3 == 1 ? "replicated" : "shared";
        const int count = 1 + static_cast<int>(generate.pick(4));
        const std::string members = generate.today() + generate.many(count, store);
        INFO(members);
        const Value r = compute(json("{" + members + "}"));
        REQUIRE(r.find("ok")->asBool());
        const Value& m = *r.find("metrics");
        const Value& inputs = *r.find("inputs");
        const bool keyed = inputs.find("idempotencyKey")->asBool();
        const bool lagless = i % 3 == 2 || (i % 3 == 1 && !inputs.find("keyStore")->find("lagMs"));
        if (keyed && (lagless || count == 1)) {
            ++runs;
            CHECK(m.find("charges")->asNumber() <= 1);
        }
        if (m.find("charges")->asNumber() >= 1) ++charged;
        double attempts = 0, charges = 0, replays = 0, duplicates = 0;
        for (const Value& row : m.find("servers")->asArray()) {
            attempts += row.find("attempts")->asNumber();
            charges += row.find("charges")->asNumber();
            replays += row.find("replays")->asNumber();
            duplicates += row.find("duplicates")->asNumber();
        }
        CHECK(attempts == m.find("attempts")->asNumber());
        CHECK(charges == m.find("charges")->asNumber());
        CHECK(replays == m.find("replays")->asNumber());
        CHECK(duplicates == m.find("duplicates")->asNumber());
    }
    CHECK(runs > 500);
    CHECK(charged > 500);
}
