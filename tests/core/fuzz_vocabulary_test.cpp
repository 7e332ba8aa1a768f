// The structured fuzzer's fleet requests are built from the fleet tables (fuzz/vocabulary.hpp):
// a row added to a table is among the paths and names it picks, with nothing written in fuzz/.
#include <catch2/catch.hpp>

#include <algorithm>

#include "retrylab/fleet.hpp"
#include "vocabulary.hpp"

using namespace retrylab;

namespace {

bool has(const std::vector<std::string>& list, const std::string& item) {
    return std::find(list.begin(), list.end(), item) != list.end();
}

}  // namespace

TEST_CASE("the fuzzer's fleet paths are every row of both fleet tables, nested rows dotted", "[fuzz][fleet]") {
    const fuzz::Vocabulary v = fuzz::vocabularyOf({&fleetFields(), &occFleetFields()});
    for (const FieldTable* table : {&fleetFields(), &occFleetFields()})
        for (const Field& f : table->fields) {
            INFO("row " << f.name);
            CHECK(has(v.paths, f.name));
            for (const Field& m : f.members) CHECK(has(v.paths, f.name + "." + m.name));
            for (const Variant& option : f.variants) {
                CHECK(has(v.paths, f.name + "." + f.discriminator));
                CHECK(has(v.names, option.name));
                for (const Field& m : option.members) CHECK(has(v.paths, f.name + "." + m.name));
            }
            for (const Choice& c : f.choices) CHECK(has(v.names, c.name));
        }
    // FLEET.md §3's deepest paths, and choice names inside objects and lists.
    CHECK(has(v.paths, "gates.breaker.halfOpenCalls"));
    CHECK(has(v.paths, "gates.quota.retryCost"));
    CHECK(has(v.paths, "network.sd"));
    CHECK(has(v.names, "lifo"));
    CHECK(has(v.names, "5xx"));
    for (std::size_t i = 0; i < v.paths.size(); ++i)
        for (std::size_t j = 0; j < i; ++j) CHECK(v.paths[i] != v.paths[j]);
}

TEST_CASE("a row added to a fleet table is fuzzed: its path and its choices' names are picked",
          "[fuzz][fleet][table]") {
    FieldTable scratch = fleetFields();
    scratch.fields.push_back(
        Field::choice("throwawayMode", "fleet", "a scratch choice", {{"calm", 0, ""}, {"wild", 1, ""}})
            .defaults("calm"));
    Field server = *scratch.find("server");
    for (Field& f : scratch.fields)
        if (f.name == "server")
            f.members.push_back(
                Field::number("throwawayMs", "server", "ms", "a scratch wait").range(0, 10).defaults(1));
    const fuzz::Vocabulary before = fuzz::vocabularyOf({&fleetFields()});
    const fuzz::Vocabulary after = fuzz::vocabularyOf({&scratch});
    CHECK_FALSE(has(before.paths, "throwawayMode"));
    CHECK_FALSE(has(before.paths, "server.throwawayMs"));
    CHECK(has(after.paths, "throwawayMode"));
    CHECK(has(after.paths, "server.throwawayMs"));
    CHECK(has(after.names, "wild"));
    CHECK(after.paths.size() == before.paths.size() + 2);
    CHECK(server.members.size() + 1 == scratch.find("server")->members.size());
}
