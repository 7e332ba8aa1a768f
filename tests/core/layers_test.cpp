// docs/layers.md §1-§8: retries across layers in the single run. Every expected number is §8's,
// worked by hand from the rules (the page gives the working); none was read off the engine.
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "streams.hpp"
#include "support.hpp"

using namespace retrylab;
using namespace retrylab::test;

namespace {

// §8's common inputs: a script, a charge, 200 ms answers, no jitter, no deadline, no timeouts.
Value common(Value script, double responseMs = 200) {
    return obj({{"scenario", str("script")},
                {"script", std::move(script)},
                {"operation", str("charge")},
                {"responseMs", num(responseMs)},
                {"jitter", str("none")},
                {"deadlineMs", Value::null()},
                {"clientTimeoutMs", num(60000)}});
}

Value with(Value v, const char* key, Value value) {
    v.set(key, std::move(value));
    return v;
}

Value statuses(std::initializer_list<int> list) {
    Value script = Value::array();
    for (int s : list) script.push(obj({{"status", num(s)}}));
    return script;
}

Value run(const Value& inputs) {
    Value r = compute(inputs);
    INFO("errors: " << (r.find("errors") ? r.find("errors")->asArray().size() : 0));
    REQUIRE(r.find("ok")->asBool());
    return r;
}

double metric(const Value& r, const char* name) { return r.find("metrics")->find(name)->asNumber(); }
std::string metricText(const Value& r, const char* name) { return r.find("metrics")->find(name)->asString(); }

const Value& layerRow(const Value& r, std::size_t i) { return r.find("metrics")->find("layers")->asArray()[i]; }
double rowCount(const Value& r, std::size_t i, const char* name) { return layerRow(r, i).find(name)->asNumber(); }

// The attempt row at this path.
const Value& attemptAt(const Value& r, const std::string& path) {
    for (const Value& a : r.find("attempts")->asArray())
        if (a.find("path")->asString() == path) return a;
    FAIL("no attempt at path " << path);
    return r;
}

// The bottom layer's rows (layer k), in the order the server numbered them.
std::vector<const Value*> bottomRows(const Value& r, int k) {
    std::vector<const Value*> out;
    for (const Value& a : r.find("attempts")->asArray())
        if (a.find("layer")->asNumber() == k) out.push_back(&a);
    return out;
}

Value sreLayers(int count, int maxRetries) {
    Value layers = Value::array();
    for (int i = 0; i < count; ++i) layers.push(obj({{"maxRetries", num(maxRetries)}, {"baseBackoffMs", num(0)}}));
    return layers;
}

std::vector<InputError> errorsOf(const Value& inputs) { return parseInputs(inputs).errors; }

bool names(const std::vector<InputError>& errors, const std::string& field, const std::string& code) {
    for (const InputError& e : errors)
        if (e.field == field && e.code == code && e.message.rfind(field, 0) == 0) return true;
    return false;
}

}  // namespace

TEST_CASE("three layers of four attempts make sixty-four server attempts (8.1)", "[layers]") {
    const Value r = run(with(common(statuses({503})), "layers", sreLayers(3, 3)));
    CHECK(metric(r, "attempts") == 64);
    CHECK(metric(r, "elapsedMs") == 12800);
    CHECK(metricText(r, "outcome") == "failed");
    CHECK(metricText(r, "agentReport") == "error 503");
    CHECK(metricText(r, "stopReason") == "attempt-limit");
    const double calls[] = {1, 4, 16}, attempts[] = {4, 16, 64}, retries[] = {3, 12, 48};
    for (std::size_t i = 0; i < 3; ++i) {
        CHECK(rowCount(r, i, "calls") == calls[i]);
        CHECK(rowCount(r, i, "attempts") == attempts[i]);
        CHECK(rowCount(r, i, "retries") == retries[i]);
        CHECK(rowCount(r, i, "cancelled") == 0);
        CHECK(rowCount(r, i, "orphaned") == 0);
        CHECK(layerRow(r, i).find("name")->asString() == "layer " + std::to_string(i + 1));
    }
    // Bottom attempt m runs 200 × (m − 1) to 200 × m.
    std::vector<const Value*> bottom = bottomRows(r, 3);
    REQUIRE(bottom.size() == 64);
    for (std::size_t m = 1; m <= 64; ++m) {
        CHECK(bottom[m - 1]->find("startMs")->asNumber() == 200.0 * static_cast<double>(m - 1));
        CHECK(bottom[m - 1]->find("endMs")->asNumber() == 200.0 * static_cast<double>(m));
    }
    // The bottom call 1.1 makes four attempts and relays 503: layer 2's attempt 1.1 saw 503 at 800.
    CHECK(attemptAt(r, "1.1").find("endMs")->asNumber() == 800);
    CHECK(attemptAt(r, "1.1").find("clientSaw")->asString() == "503");
    CHECK(attemptAt(r, "1.1").find("server")->isNull());
    CHECK(attemptAt(r, "1.1.4").find("server")->asString() == "503");
}

TEST_CASE("five layers of three attempts make 3^5 = 243 server attempts (8.1)", "[layers]") {
    const Value r = run(with(common(statuses({503})), "layers", sreLayers(5, 2)));
    CHECK(metric(r, "attempts") == 243);
    CHECK(metric(r, "elapsedMs") == 48600);
    CHECK(rowCount(r, 4, "calls") == 81);
}

TEST_CASE("a bottom layer that says do not retry stops every layer above it (8.2)", "[layers]") {
    Value layers = sreLayers(3, 3);
    Value stack = Value::array();
    for (std::size_t i = 0; i < 3; ++i) {
        Value l = layers.asArray()[i];
        if (i == 2) l.set("giveUp", str("do-not-retry"));
        stack.push(std::move(l));
    }
    const Value r = run(with(common(statuses({503})), "layers", std::move(stack)));
    CHECK(metric(r, "attempts") == 4);
    CHECK(metric(r, "elapsedMs") == 800);
    CHECK(metricText(r, "agentReport") == "error given-up");
    CHECK(metricText(r, "stopReason") == "not-retryable");
    CHECK(attemptAt(r, "1.1").find("clientSaw")->asString() == "given-up");
    CHECK(attemptAt(r, "1").find("clientSaw")->asString() == "given-up");
    CHECK(attemptAt(r, "1").find("clientClass")->asString() == "given-up");
}

TEST_CASE("an inherited deadline leaves 23 s and then 19 s below a 30 s deadline (8.3)", "[layers]") {
    auto stack = [](double margin) {
        return list(
            {obj({{"deadlineMs", num(30000)},
                  {"clientTimeoutMs", num(30000)},
                  {"maxRetries", num(1)},
                  {"baseBackoffMs", num(2800)}}),
             obj({{"clientTimeoutMs", num(30000)},
                  {"maxRetries", num(1)},
                  {"baseBackoffMs", num(3800)},
                  {"inheritDeadline", boolean(true)},
                  {"deadlineMarginMs", num(margin)}}),
             obj({{"maxRetries", num(0)}, {"inheritDeadline", boolean(true)}, {"deadlineMarginMs", num(margin)}})});
    };
    const Value script = statuses({503, 503, 503, 200});
    for (double margin : {0.0, 1000.0}) {
        INFO("deadlineMarginMs " << margin);
        const Value r = run(with(common(script), "layers", stack(margin)));
        CHECK(metric(r, "attempts") == 4);
        CHECK(metric(r, "charges") == 1);
        CHECK(metric(r, "elapsedMs") == 11200);
        CHECK(metricText(r, "agentReport") == "success");
        // Layer 2's call 2 starts at 7,000 and layer 3's call 2.2 at 11,000.
        const Value& layer2 = attemptAt(r, "2.1");
        const Value& layer3 = attemptAt(r, "2.2.1");
        CHECK(layer2.find("startMs")->asNumber() == 7000);
        CHECK(layer3.find("startMs")->asNumber() == 11000);
        const double left2 = layer2.find("callDeadlineMs")->asNumber() - 7000;
        const double left3 = layer3.find("callDeadlineMs")->asNumber() - 11000;
        CHECK(left2 == (margin == 0 ? 23000 : 22000));
        CHECK(left3 == (margin == 0 ? 19000 : 17000));
        CHECK(attemptAt(r, "1.2").find("startMs")->asNumber() == 4000);
        CHECK(attemptAt(r, "2.2.1").find("server")->asString() == "200");
    }
}

TEST_CASE("an orphaned call charges twice while the agent reports a timeout (8.4)", "[layers]") {
    auto stack = [](const char* cancel) {
        return with(common(statuses({503, 503, 200}), 800), "layers",
                    list({obj({{"name", str("agent")},
                               {"clientTimeoutMs", num(1000)},
                               {"maxRetries", num(1)},
                               {"baseBackoffMs", num(0)},
                               {"cancel", str(cancel)}}),
                          obj({{"name", str("SDK")},
                               {"clientTimeoutMs", num(3000)},
                               {"maxRetries", num(2)},
                               {"baseBackoffMs", num(500)}})}));
    };
    const Value r = run(stack("orphan"));
    CHECK(metric(r, "attempts") == 4);
    CHECK(metric(r, "orphanAttempts") == 2);
    CHECK(metric(r, "charges") == 2);
    CHECK(metric(r, "orphanCharges") == 2);
    CHECK(metric(r, "duplicates") == 1);
    CHECK(metric(r, "lastWorkMs") == 3100);
    CHECK(metric(r, "elapsedMs") == 2000);
    CHECK(metricText(r, "outcome") == "unknown");
    CHECK(metricText(r, "agentReport") == "timeout");
    CHECK(r.find("metrics")->find("lookupNeeded")->asBool());
    CHECK(rowCount(r, 1, "orphaned") == 2);
    CHECK(attemptAt(r, "1.2").find("startMs")->asNumber() == 1300);
    CHECK(attemptAt(r, "1.2").find("commitMs")->asNumber() == 2100);
    CHECK(attemptAt(r, "2.2").find("startMs")->asNumber() == 2300);
    CHECK(attemptAt(r, "2.2").find("commitMs")->asNumber() == 3100);
    CHECK(attemptAt(r, "2.2").find("scriptIndex")->asNumber() == 2);  // the last entry repeats

    const Value p = run(stack("propagate"));
    CHECK(metric(p, "attempts") == 2);
    CHECK(metric(p, "charges") == 0);
    CHECK(metric(p, "orphanCharges") == 0);
    CHECK(metricText(p, "agentReport") == "timeout");
    CHECK(metric(p, "lastWorkMs") == 2000);
    CHECK(rowCount(p, 1, "cancelled") == 2);
}

namespace {
// 8.6: an agent that leaves its call after `agentTimeoutMs` over an SDK that waits `sdkTimeoutMs`
// per attempt over an HTTP library; every answer a 503 at 60 ms.
Value orphanRetrying(double agentTimeoutMs, double sdkTimeoutMs) {
    return with(common(statuses({503}), 60), "layers",
                list({obj({{"name", str("agent")},
                           {"clientTimeoutMs", num(agentTimeoutMs)},
                           {"maxRetries", num(0)},
                           {"cancel", str("orphan")}}),
                      obj({{"name", str("SDK")},
                           {"clientTimeoutMs", num(sdkTimeoutMs)},
                           {"maxRetries", num(2)},
                           {"baseBackoffMs", num(0)}}),
                      obj({{"name", str("HTTP")}, {"maxRetries", num(1)}, {"baseBackoffMs", num(0)}})}));
}
}  // namespace

TEST_CASE("an orphan keeps retrying on the results of its own calls below; only its own result is dropped (8.6)",
          "[layers]") {
    const Value r = run(orphanRetrying(100, 1000));
    CHECK(metric(r, "attempts") == 6);
    CHECK(metric(r, "orphanAttempts") == 4);
    CHECK(metric(r, "elapsedMs") == 100);
    CHECK(metricText(r, "agentReport") == "timeout");
    CHECK(metric(r, "lastWorkMs") == 360);
    CHECK(attemptAt(r, "1.1").find("clientSaw")->asString() == "503");  // HTTP call 1.1's end reached it
    CHECK(attemptAt(r, "1.1").find("endMs")->asNumber() == 120);
    CHECK(attemptAt(r, "1.2").find("startMs")->asNumber() == 120);
    CHECK(attemptAt(r, "1.3").find("startMs")->asNumber() == 240);
    CHECK(attemptAt(r, "1.3.2").find("startMs")->asNumber() == 300);
    const std::vector<std::pair<const char*, std::vector<double>>> rows = {{"calls", {1, 1, 3}},
                                                                           {"attempts", {1, 3, 6}},
                                                                           {"retries", {0, 2, 3}},
                                                                           {"orphaned", {0, 1, 3}},
                                                                           {"cancelled", {0, 0, 0}}};
    for (const auto& [name, expected] : rows)
        for (std::size_t i = 0; i < 3; ++i) {
            INFO(name << " of layer " << i + 1);
            CHECK(rowCount(r, i, name) == expected[i]);
        }
}

TEST_CASE("an orphan's own cutoffs cancel its calls below by its own layer's cancel (8.6)", "[layers]") {
    const Value r = run(orphanRetrying(50, 90));
    CHECK(metric(r, "attempts") == 6);
    CHECK(metric(r, "orphanAttempts") == 5);
    CHECK(metric(r, "elapsedMs") == 50);
    CHECK(metric(r, "lastWorkMs") == 300);
    CHECK(attemptAt(r, "1.1.2").find("clientSaw")->asString() == "cancelled");
    CHECK(attemptAt(r, "1.1.2").find("endMs")->asNumber() == 90);
    CHECK(attemptAt(r, "1.2.1").find("startMs")->asNumber() == 90);
    CHECK(attemptAt(r, "1.3.2").find("startMs")->asNumber() == 240);
    CHECK(rowCount(r, 2, "cancelled") == 3);
    CHECK(rowCount(r, 1, "cancelled") == 0);
    CHECK(rowCount(r, 1, "orphaned") == 1);
    CHECK(rowCount(r, 2, "orphaned") == 3);
}

namespace {
Value seedStory(const char* agentKey, const char* sdkKey) {
    Value in = obj({{"scenario", str("response-lost")},
                    {"responseMs", num(200)},
                    {"deadlineMs", Value::null()},
                    {"clientTimeoutMs", num(60000)}});
    in.set("layers", list({obj({{"name", str("agent")},
                                {"maxRetries", num(2)},
                                {"clientTimeoutMs", num(2000)},
                                {"baseBackoffMs", num(0)},
                                {"key", str(agentKey)}}),
                           obj({{"name", str("payment SDK")},
                                {"key", str(sdkKey)},
                                {"maxRetries", num(2)},
                                {"clientTimeoutMs", num(3000)}})}));
    return in;
}
}  // namespace

TEST_CASE("an SDK that mints a key per call charges twice under a retrying agent (8.5)", "[layers]") {
    const Value r = run(seedStory("none", "mint"));
    CHECK(metric(r, "charges") == 2);
    CHECK(metric(r, "duplicates") == 1);
    CHECK(metric(r, "attempts") == 2);
    CHECK(metricText(r, "agentReport") == "success");
    CHECK(attemptAt(r, "1.1").find("key")->asString() == "op-0001.1");
    CHECK(attemptAt(r, "2.1").find("key")->asString() == "op-0001.2");
    CHECK(attemptAt(r, "1.1").find("clientSaw")->asString() == "cancelled");
    CHECK(attemptAt(r, "2.1").find("commitMs")->asNumber() == 2200);
}

TEST_CASE("the agent's key passed down makes the second call a replay (8.5)", "[layers]") {
    const Value r = run(seedStory("mint", "pass"));
    CHECK(metric(r, "charges") == 1);
    CHECK(metric(r, "replays") == 1);
    CHECK(metricText(r, "agentReport") == "success");
    CHECK(attemptAt(r, "1.1").find("key")->asString() == "op-0001");
    CHECK(attemptAt(r, "2.1").find("server")->asString() == "replay");
}

TEST_CASE("a key minted at the top and passed down allows at most one charge", "[layers][key]") {
    // Every scenario, and scripts of lost answers and timeouts, under 1-3 layers below the minter.
    const Value scripts[] = {statuses({200}), list({obj({{"status", num(200)}, {"lost", boolean(true)}})}),
                             list({obj({{"dropped", boolean(true)}}),
                                   obj({{"status", num(200)}, {"lost", boolean(true)}}), obj({{"status", num(200)}})})};
    for (const Value& script : scripts)
        for (int below = 1; below <= 3; ++below)
            for (double timeout : {100.0, 250.0, 3000.0}) {
                Value layers = Value::array();
                layers.push(obj({{"key", str("mint")},
                                 {"maxRetries", num(2)},
                                 {"clientTimeoutMs", num(timeout * 3)},
                                 {"cancel", str(below % 2 ? "orphan" : "propagate")}}));
                for (int i = 0; i < below; ++i)
                    layers.push(obj({{"key", str("pass")},
                                     {"maxRetries", num(2)},
                                     {"clientTimeoutMs", num(timeout)},
                                     {"baseBackoffMs", num(50)},
                                     {"cancel", str("orphan")}}));
                const Value r = run(with(common(script), "layers", std::move(layers)));
                INFO("below " << below << ", timeout " << timeout);
                CHECK(metric(r, "charges") <= 1);
            }
}

TEST_CASE("every layer field is validated with an error naming its path", "[layers][validation]") {
    auto layered = [](Value layer) { return obj({{"layers", list({obj({}), std::move(layer)})}}); };
    CHECK(names(errorsOf(layered(obj({{"maxRetries", num(101)}}))), "layers[1].maxRetries", "out-of-range"));
    CHECK(names(errorsOf(layered(obj({{"maxRetries", num(1.5)}}))), "layers[1].maxRetries", "not-whole"));
    CHECK(names(errorsOf(layered(obj({{"clientTimeoutMs", num(0)}}))), "layers[1].clientTimeoutMs", "out-of-range"));
    CHECK(names(errorsOf(layered(obj({{"key", str("share")}}))), "layers[1].key", "not-a-choice"));
    CHECK(names(errorsOf(layered(obj({{"giveUp", num(1)}}))), "layers[1].giveUp", "wrong-type"));
    CHECK(names(errorsOf(layered(obj({{"cancel", str("abandon")}}))), "layers[1].cancel", "not-a-choice"));
    CHECK(names(errorsOf(layered(obj({{"inheritDeadline", str("yes")}}))), "layers[1].inheritDeadline", "wrong-type"));
    CHECK(names(errorsOf(layered(obj({{"deadlineMarginMs", num(-1)}}))), "layers[1].deadlineMarginMs", "out-of-range"));
    CHECK(names(errorsOf(layered(obj({{"name", str("")}}))), "layers[1].name", "too-short"));
    CHECK(names(errorsOf(layered(obj({{"name", str(std::string(65, 'x'))}}))), "layers[1].name", "too-long"));
    CHECK(names(errorsOf(layered(obj({{"retryOn", list({str("timeout"), str("timeout")})}}))), "layers[1].retryOn[1]",
                "repeated"));
    CHECK(names(errorsOf(layered(obj({{"seed", num(2)}}))), "layers[1].seed", "unknown-field"));
    CHECK(names(errorsOf(layered(obj({{"jitterLow", num(0.5)}}))), "layers[1].jitterLow", "only-with"));
    CHECK(names(
        errorsOf(layered(obj({{"jitter", str("proportional")}, {"jitterLow", num(0.8)}, {"jitterHigh", num(0.5)}}))),
        "layers[1].jitterHigh", "conflict"));
    CHECK(names(errorsOf(obj({{"layers", num(3)}})), "layers", "wrong-type"));
    CHECK(names(errorsOf(obj({{"layers", list({})}})), "layers", "too-few"));
    CHECK(names(errorsOf(obj({{"layers", list({obj({}), obj({}), obj({}), obj({}), obj({}), obj({})})}})), "layers",
                "too-many"));
    CHECK(names(errorsOf(obj({{"layers", list({num(1)})}})), "layers[0]", "wrong-type"));
    CHECK(names(errorsOf(obj({{"layers", list({obj({})})}, {"callers", num(2)}})), "callers", "conflict"));
    // A layer's jitterLow with the run's proportional jitter is its own.
    CHECK(errorsOf(obj({{"jitter", str("proportional")}, {"layers", list({obj({{"jitterLow", num(0.5)}})})}})).empty());
}

TEST_CASE("a stack may make at most 1,000 server attempts, checked before it runs", "[layers][validation]") {
    auto stack = [](std::initializer_list<int> maxRetries) {
        Value layers = Value::array();
        for (int m : maxRetries) layers.push(obj({{"maxRetries", num(m)}}));
        return obj({{"layers", std::move(layers)}});
    };
    CHECK(errorsOf(stack({9, 9, 9})).empty());                                  // 10^3 = 1,000
    CHECK(names(errorsOf(stack({3, 3, 3, 3, 3})), "layers", "too-much-work"));  // 4^5 = 1,024
    CHECK(names(errorsOf(stack({100, 9})), "layers", "too-much-work"));         // 101 × 10 = 1,010
    CHECK(
        names(errorsOf(stack({15, 15, 15, 15, 15})), "layers", "too-much-work"));  // 759,375: §2's old bound allowed it
    CHECK(errorsOf(stack({2, 2, 2, 2, 2})).empty());                               // 3^5 = 243 (§8.1)
    CHECK(errorsOf(stack({100})).empty());
    // The bound is checked before the run: the refused stack makes no result.
    CHECK_FALSE(compute(stack({3, 3, 3, 3, 3})).find("ok")->asBool());
}

TEST_CASE("the echo gives every layer with every field filled in", "[layers][echo]") {
    Value in = obj({{"maxRetries", num(5)},
                    {"idempotencyKey", boolean(true)},
                    {"layers", list({obj({}), obj({{"name", str("SDK")}, {"maxRetries", num(1)}})})}});
    ParsedInputs parsed = parseInputs(in);
    REQUIRE(parsed.errors.empty());
    const Value::Array& layers = parsed.echo.find("layers")->asArray();
    REQUIRE(layers.size() == 2);
    CHECK(layers[0].find("name")->asString() == "layer 1");
    CHECK(layers[0].find("maxRetries")->asNumber() == 5);
    CHECK(layers[0].find("key")->asString() == "mint");
    CHECK(layers[1].find("name")->asString() == "SDK");
    CHECK(layers[1].find("maxRetries")->asNumber() == 1);
    CHECK(layers[1].find("key")->asString() == "pass");
    CHECK(layers[1].find("giveUp")->asString() == "last-failure");
    CHECK(layers[1].find("cancel")->asString() == "propagate");
    CHECK(layers[1].find("deadlineMs")->asNumber() == 10000);
    CHECK(layers[1].find("jitterLow") == nullptr);
    // The echo fed back is the same run, and echoes itself.
    ParsedInputs again = parseInputs(parsed.echo);
    REQUIRE(again.errors.empty());
    CHECK(sameValue(again.echo, parsed.echo));
    CHECK(sameValue(compute(parsed.echo), compute(in)));
    // Without layers (absent or null) the echo is as before: no layers member at all.
    CHECK(parseInputs(obj({})).echo.find("layers") == nullptr);
    CHECK(parseInputs(obj({{"layers", Value::null()}})).echo.find("layers") == nullptr);
}

TEST_CASE("one layer of a minted key is the run with idempotencyKey", "[layers][relation]") {
    Value keyed = obj({{"idempotencyKey", boolean(true)}});
    Value a = compute(keyed);
    Value b = compute(with(keyed, "layers", list({obj({{"key", str("mint")}})})));
    for (const char* m : {"attempts", "charges", "replays", "elapsedMs", "outcome", "agentReport"})
        CHECK(sameValue(*a.find("metrics")->find(m), *b.find("metrics")->find(m)));
    CHECK(metric(b, "charges") == 1);
}

TEST_CASE("layer 1 draws from the draws list, the layers below from addressed streams (§6)", "[layers][random]") {
    // Layer 1 (full jitter, base 1000) retries once; layer 2 (full jitter, base 400) retries
    // within each call. Every answer 503, no timeouts.
    Value in = common(statuses({503}));
    in.set("draws", list({num(0.25)}));
    in.set("seed", num(7));
    in.set("layers", list({obj({{"maxRetries", num(1)}, {"jitter", str("full")}, {"baseBackoffMs", num(1000)}}),
                           obj({{"maxRetries", num(2)}, {"jitter", str("full")}, {"baseBackoffMs", num(400)}})}));
    const Value r = run(in);
    // Layer 1's one wait: ceiling 1000 × the list's first draw.
    CHECK(attemptAt(r, "1").find("draw")->asNumber() == 0.25);
    CHECK(attemptAt(r, "1").find("waitAfterMs")->asNumber() == 250);
    // Layer 2's waits: draw 0 of LAYER_WAIT (p = 8), ids (0, 0, id(q) × 8 + (i − 1)) with i = 2:
    // id(1.1) = 0 × 128 + 0 = 0, id(1.2) = 1, id(2.1) = 1 × 128 + 0 = 128, id(2.2) = 129.
    const std::pair<const char*, std::uint64_t> ids[] = {{"1.1", 0}, {"1.2", 1}, {"2.1", 128}, {"2.2", 129}};
    for (const auto& [path, id] : ids) {
        INFO("path " << path);
        const double d = streams::draw(streams::streamKey(7, 8, 0, 0, id * 8 + 1), 0);
        const Value& row = attemptAt(r, path);
        CHECK(row.find("draw")->asNumber() == d);
        const double ceiling = std::string(path).back() == '1' ? 400 : 800;  // 400 × 2^(n−1)
        CHECK(row.find("waitAfterMs")->asNumber() == ceiling * d);
    }
    // The list's one draw is layer 1's: a list of two draws changes layer 1 only if it retried
    // twice, and no list changes layer 2.
    in = common(statuses({503}));
    in.set("seed", num(7));
    in.set("draws", list({num(0.25), num(0.9), num(0.1)}));
    in.set("layers", *r.find("inputs")->find("layers"));
    const Value again = run(in);
    for (const auto& [path, id] : ids)
        CHECK(attemptAt(again, path).find("draw")->asNumber() == attemptAt(r, path).find("draw")->asNumber());
}

TEST_CASE("a sweep over a stack varies only the server's responseMs", "[layers][sweep]") {
    const Value inputs = with(common(statuses({503, 200})), "layers", sreLayers(2, 1));
    auto request = [&](const char* vary) {
        return obj({{"inputs", inputs}, {"vary", str(vary)}, {"from", num(100)}, {"to", num(200)}, {"points", num(2)}});
    };
    SweepRun refused = runSweep(request("clientTimeoutMs"));
    REQUIRE(refused.errors.size() == 1);
    CHECK(refused.errors[0].field == "vary");
    CHECK(refused.errors[0].code == "conflict");
    SweepRun swept = runSweep(request("responseMs"));
    REQUIRE(swept.errors.empty());
    REQUIRE(swept.points.size() == 2);
    // 503 then 200 at the bottom: layer 2's call 1 retries at once and succeeds, two server
    // attempts of responseMs each.
    CHECK(swept.points[0].attempts == 2);
    CHECK(swept.points[0].elapsedMs == 200);
    CHECK(swept.points[1].elapsedMs == 400);
}

namespace {
// The events of `kind`, as (tMs, layer, path, text).
std::vector<const Value*> eventsOf(const Value& r, const char* kind) {
    std::vector<const Value*> out;
    for (const Value& e : r.find("events")->asArray())
        if (e.find("kind")->asString() == kind) out.push_back(&e);
    return out;
}
}  // namespace

TEST_CASE("a layered run's events say which layer: call, give-up, cancel and orphan (§7)", "[layers][events]") {
    // 8.1: 4 calls of layer 2 and 16 of layer 3 start; each of those 20 gives up relaying 503.
    const Value sre = run(with(common(statuses({503})), "layers", sreLayers(3, 3)));
    CHECK(eventsOf(sre, "call").size() == 20);
    std::vector<const Value*> giveUps = eventsOf(sre, "give-up");
    REQUIRE(giveUps.size() == 20);
    CHECK(giveUps.front()->find("tMs")->asNumber() == 800);
    CHECK(giveUps.front()->find("layer")->asNumber() == 3);
    CHECK(giveUps.front()->find("path")->asString() == "1.1");
    CHECK(giveUps.front()->find("text")->asString().find("layer 3 call 1.1") == 0);
    CHECK(eventsOf(sre, "stop").size() == 1);
    CHECK(eventsOf(sre, "stop").front()->find("tMs")->asNumber() == 12800);

    // 8.4: the SDK's calls 1 and 2 are orphaned at 1,000 and 2,000, or cancelled then.
    auto stack = [](const char* cancel) {
        return with(common(statuses({503, 503, 200}), 800), "layers",
                    list({obj({{"name", str("agent")},
                               {"clientTimeoutMs", num(1000)},
                               {"maxRetries", num(1)},
                               {"baseBackoffMs", num(0)},
                               {"cancel", str(cancel)}}),
                          obj({{"name", str("SDK")},
                               {"clientTimeoutMs", num(3000)},
                               {"maxRetries", num(2)},
                               {"baseBackoffMs", num(500)}})}));
    };
    for (const char* kind : {"orphan", "cancel"}) {
        INFO(kind);
        const Value r = run(stack(std::string(kind) == "orphan" ? "orphan" : "propagate"));
        std::vector<const Value*> events = eventsOf(r, kind);
        REQUIRE(events.size() == 2);
        const double times[] = {1000, 2000};
        const char* paths[] = {"1", "2"};
        for (std::size_t i = 0; i < 2; ++i) {
            CHECK(events[i]->find("tMs")->asNumber() == times[i]);
            CHECK(events[i]->find("layer")->asNumber() == 2);
            CHECK(events[i]->find("path")->asString() == paths[i]);
            CHECK(events[i]->find("text")->asString().find(std::string("SDK call ") + paths[i]) == 0);
        }
        // Orphans send on (1.2 at 1,300 and 2.2 at 2,300); cancelled calls do not.
        CHECK(eventsOf(r, "send").size() == (std::string(kind) == "orphan" ? 6u : 4u));
    }
}

TEST_CASE("a sweep over a stack holds its points times the stack's server attempts to 20,000", "[layers][sweep]") {
    auto request = [](double points) {
        return obj({{"inputs", with(common(statuses({503})), "layers", sreLayers(3, 9))},  // 10^3 = 1,000 attempts
                    {"vary", str("responseMs")},
                    {"from", num(100)},
                    {"to", num(200)},
                    {"points", num(points)}});
    };
    CHECK(runSweep(request(20)).errors.empty());  // 20 × 1,000 = 20,000
    SweepRun refused = runSweep(request(21));     // 21,000
    REQUIRE(refused.errors.size() == 1);
    CHECK(refused.errors[0].field == "points");
    CHECK(refused.errors[0].code == "too-much-work");
    CHECK(refused.errors[0].message.rfind("points must be at most 20 over these layers", 0) == 0);
}
