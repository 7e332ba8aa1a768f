// The input table (fields.hpp): every row validated from its own description, the echo of {}
// equal to the defaults schema() lists, a new row needing nothing but the row, paths that
// cannot be mistaken for a field, stable error codes.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "support.hpp"

using namespace retrylab;
using namespace retrylab::test;

namespace {

// The errors of one field only (the inputs' other rules may add errors of their own).
std::vector<InputError> errorsOf(const Value& inputs, const std::string& field) {
    std::vector<InputError> found;
    for (const InputError& e : parseInputs(inputs).errors)
        if (e.field == field) found.push_back(e);
    return found;
}

// The inputs with `field` set, plus whatever the row's presence rule needs to allow it.
Value with(const Field& f, Value value) {
    Value inputs = Value::object();
    if (!f.onlyWhen.field.empty()) inputs.set(f.onlyWhen.field, f.onlyWhen.value.toValue());
    inputs.set(f.name, std::move(value));
    return inputs;
}

// A value no row of this type accepts.
Value wrongTypeFor(const Field& f) {
    switch (f.type) {
        case FieldType::Boolean: return num(1);
        case FieldType::Number: return str("1");
        case FieldType::String:
        case FieldType::Choice:
        case FieldType::HttpDate: return num(1);
        case FieldType::List: return str("x");
        case FieldType::Object:
        case FieldType::Variant: return num(1);
    }
    return Value::unsupported("a function");
}

Value echoOf(const Value& inputs) {
    ParsedInputs parsed = parseInputs(inputs);
    REQUIRE(parsed.errors.empty());
    return parsed.echo;
}

const Value* row(const Value& schemaRows, const std::string& name) {
    for (const Value& r : schemaRows.asArray())
        if (r.find("name")->asString() == name) return &r;
    return nullptr;
}

}  // namespace

TEST_CASE("every row of the input table refuses a value of the wrong type, naming the row", "[fields][validation]") {
    for (const Field& f : inputFields().fields) {
        INFO("field " << f.name);
        std::vector<InputError> errors = errorsOf(with(f, wrongTypeFor(f)), f.name);
        REQUIRE(errors.size() == 1);
        CHECK(errors[0].code == "wrong-type");
        CHECK(errors[0].message == f.name + " " + errors[0].detail);
        CHECK(errors[0].detail.rfind("must be ", 0) == 0);
    }
}

TEST_CASE("every number row accepts its bounds and refuses the numbers just past them",
          "[fields][validation][bounds]") {
    int rows = 0;
    for (const Field& f : inputFields().fields) {
        const bool isList = f.type == FieldType::List && f.item.front().type == FieldType::Number;
        if (f.type != FieldType::Number && !isList) continue;
        ++rows;
        const Field& n = isList ? f.item.front() : f;
        auto as = [&](double x) { return isList ? list({num(x)}) : num(x); };
        const std::string reported = isList ? f.name + "[0]" : f.name;
        INFO("field " << f.name);
        CHECK(errorsOf(with(f, as(n.lo)), reported).empty());
        CHECK(errorsOf(with(f, as(n.hi)), reported).empty());
        for (double outside : {std::nextafter(n.lo, -INFINITY), std::nextafter(n.hi, INFINITY)}) {
            std::vector<InputError> errors = errorsOf(with(f, as(outside)), reported);
            REQUIRE(errors.size() == 1);
            CHECK(errors[0].code == (n.whole && std::floor(outside) != outside ? "not-whole" : "out-of-range"));
        }
        if (n.whole) {
            std::vector<InputError> errors = errorsOf(with(f, as(n.lo + 0.5)), reported);
            REQUIRE(errors.size() == 1);
            CHECK(errors[0].code == "not-whole");
            CHECK(errors[0].detail.rfind("must be a whole number from ", 0) == 0);
            CHECK(errorsOf(with(f, as(n.hi - 1 + 0.0)), reported).empty());
            std::vector<InputError> above = errorsOf(with(f, as(n.hi + 1)), reported);
            REQUIRE(above.size() == 1);
            CHECK(above[0].code == "out-of-range");
        }
    }
    CHECK(rows == 19);  // 15 numbers (hostSelectionRetryMaxAttempts, docs/servers.md §2) and 4 lists of numbers
}

TEST_CASE("every choice row takes each of its names and refuses any other", "[fields][validation]") {
    for (const Field& f : inputFields().fields) {
        const bool isList = f.type == FieldType::List && f.item.front().type == FieldType::Choice;
        if (f.type != FieldType::Choice && !isList) continue;
        const Field& c = isList ? f.item.front() : f;
        const std::string reported = isList ? f.name + "[0]" : f.name;
        INFO("field " << f.name);
        for (const Choice& choice : c.choices)
            CHECK(errorsOf(with(f, isList ? list({str(choice.name)}) : str(choice.name)), reported).empty());
        std::vector<InputError> errors = errorsOf(with(f, isList ? list({str("nope")}) : str("nope")), reported);
        REQUIRE(errors.size() == 1);
        CHECK(errors[0].code == "not-a-choice");
        CHECK(errors[0].detail.find("\"" + c.choices.front().name + "\"") != std::string::npos);
    }
}

TEST_CASE("each choice's engine number names it back, and no two choices share a name or a number", "[fields]") {
    for (const Field& f : inputFields().fields) {
        const Field& c = f.type == FieldType::List ? f.item.front() : f;
        for (std::size_t i = 0; i < c.choices.size(); ++i) {
            CHECK(c.valueOf(c.choices[i].name) == c.choices[i].value);
            CHECK(std::string(c.nameOf(c.choices[i].value)) == c.choices[i].name);
            for (std::size_t j = 0; j < i; ++j) {
                CHECK(c.choices[i].name != c.choices[j].name);
                CHECK(c.choices[i].value != c.choices[j].value);
            }
        }
    }
}

TEST_CASE("the echo of {} holds exactly the defaults schema() lists, in the table's order", "[fields][schema]") {
    Value s = schema();
    CHECK(s.find("engine")->asString() == engineVersion());
    const Value& rows = *s.find("inputs");
    REQUIRE(rows.asArray().size() == inputFields().fields.size());
    Value echo = echoOf(Value::object());
    std::size_t at = 0;
    for (const Value& r : rows.asArray()) {
        const std::string& name = r.find("name")->asString();
        INFO("field " << name);
        const Value* onlyWhen = r.find("onlyWhen");
        bool applies = true;
        if (onlyWhen) {
            const Value* sibling = row(rows, onlyWhen->find("field")->asString());
            REQUIRE(sibling);
            applies = sameValue(*sibling->find("default"), *onlyWhen->find("value"));
        }
        const Value* d = r.find("default");
        if (!d || !applies || r.find("sparse")) {  // a sparse row is echoed only when given (layers)
            CHECK_FALSE(echo.find(name));
            continue;
        }
        REQUIRE(at < echo.asObject().size());
        CHECK(echo.asObject()[at].key == name);
        CHECK(sameValue(echo.asObject()[at].value, *d));
        ++at;
    }
    CHECK(at == echo.asObject().size());
    CHECK(at ==
          29);  // 33 fields; script, jitterLow and jitterHigh only with their scenario and jitter, layers when given
}

TEST_CASE("the schema lists a row's type, bounds, choices and presence rules", "[fields][schema]") {
    const Value s = schema();
    const Value& rows = *s.find("inputs");
    const Value& maxRetries = *row(rows, "maxRetries");
    CHECK(maxRetries.find("type")->asString() == "number");
    CHECK(maxRetries.find("whole")->asBool());
    CHECK(maxRetries.find("min")->asNumber() == 0);
    CHECK(maxRetries.find("max")->asNumber() == 100);
    CHECK(maxRetries.find("default")->asNumber() == 3);
    CHECK(row(rows, "deadlineMs")->find("unit")->asString() == "ms");
    CHECK(row(rows, "deadlineMs")->find("nullable")->asBool());
    CHECK(row(rows, "maxRetries")->find("unit")->isNull());
    const Value& retryOn = *row(rows, "retryOn");
    CHECK(retryOn.find("type")->asString() == "list");
    CHECK(retryOn.find("distinct")->asBool());
    CHECK(retryOn.find("items")->find("choices")->asArray().size() == 6);  // and refused, reset (docs/servers.md §2)
    const Value& script = *row(rows, "script");
    CHECK(script.find("onlyWhen")->find("field")->asString() == "scenario");
    CHECK(script.find("requiredWhen")->find("value")->asString() == "script");
    CHECK(script.find("maxItems")->asNumber() == 1000);
    const Value& members = *script.find("items")->find("members");
    REQUIRE(members.asArray().size() == 5);
    CHECK(members.asArray()[0].find("name")->asString() == "status");
    CHECK(row(rows, "startDate")->find("type")->asString() == "http-date");
    CHECK(row(rows, "operationId")->find("maxLength")->asNumber() == 255);
}

TEST_CASE("Inputs{} written as a value normalizes to the echo of {}", "[fields][echo]") {
    // The struct's defaults, the test writer and the table agree.
    CHECK(sameValue(echoOf(rawInputs(Inputs{})), echoOf(Value::object())));
    Inputs proportional;
    proportional.jitter = Jitter::Proportional;
    CHECK(sameValue(echoOf(rawInputs(proportional)), echoOf(obj({{"jitter", str("proportional")}}))));
}

TEST_CASE("the echo keeps numbers as given, reads -0 as 0 and takes 3.0 as whole", "[fields][echo]") {
    Value echo =
        echoOf(obj({{"maxRetries", num(3.0)}, {"baseBackoffMs", num(-0.0)}, {"draws", list({num(-0.0), num(0.25)})}}));
    CHECK(echo.find("maxRetries")->asNumber() == 3);
    CHECK_FALSE(std::signbit(echo.find("baseBackoffMs")->asNumber()));
    CHECK_FALSE(std::signbit(echo.find("draws")->asArray()[0].asNumber()));
    CHECK(echo.find("draws")->asArray()[1].asNumber() == 0.25);
}

TEST_CASE("a script entry echoes only what it gives that differs from the default", "[fields][echo][script]") {
    Value echo = echoOf(obj({{"scenario", str("script")},
                             {"script", list({obj({{"status", num(503)}, {"lost", boolean(false)}}),
                                              obj({{"dropped", boolean(true)}})})}}));
    const Value& script = *echo.find("script");
    CHECK(sameValue(script.asArray()[0], obj({{"status", num(503)}})));
    CHECK(sameValue(script.asArray()[1], obj({{"dropped", boolean(true)}})));
    // jitterLow and jitterHigh appear with proportional jitter only, filled when left out.
    Value proportional = echoOf(obj({{"jitter", str("proportional")}, {"jitterHigh", num(1.5)}}));
    CHECK(proportional.find("jitterLow")->asNumber() == 0);
    CHECK(proportional.find("jitterHigh")->asNumber() == 1.5);
}

TEST_CASE("a key that is not a plain name is quoted in its path, so it cannot read as a field", "[fields][paths]") {
    struct Case {
        const char* key;
        const char* path;
    };
    Case c = GENERATE(values<Case>({
        {"script[0].status", "[\"script[0].status\"]"},
        {"maxRetries ", "[\"maxRetries \"]"},
        {"", "[\"\"]"},
        {"a\"b", "[\"a\\\"b\"]"},
        {"back\\slash", "[\"back\\\\slash\"]"},
        {"line\nbreak", "[\"line\\nbreak\"]"},
        {"draws[1]", "[\"draws[1]\"]"},
        {"a.b", "[\"a.b\"]"},
    }));
    Value inputs = Value::object();
    inputs.set(c.key, num(1));
    ParsedInputs parsed = parseInputs(inputs);
    REQUIRE(parsed.errors.size() == 1);
    CHECK(parsed.errors[0].field == c.path);
    CHECK(parsed.errors[0].code == "unknown-field");
    CHECK(parsed.errors[0].message == std::string(c.path) + " is not an input of the engine (check its spelling).");
    // A plain name stays plain, at the top and inside a script entry.
    CHECK(parseInputs(obj({{"colour", num(1)}})).errors[0].field == "colour");
    Value entry = Value::object();
    entry.set("status", num(200));
    entry.set(c.key, num(1));
    ParsedInputs inScript = parseInputs(obj({{"scenario", str("script")}, {"script", list({entry})}}));
    REQUIRE(inScript.errors.size() == 1);
    CHECK(inScript.errors[0].field == std::string("script[0]") + c.path);
}

TEST_CASE("each kind of bad input has its own stable code", "[fields][codes]") {
    struct Case {
        Value inputs;
        const char* field;
        const char* code;
    };
    Value::Array tooManyDraws(100001, num(0.5));
    Value::Array badDraws(20, num(7));
    Case c = GENERATE_COPY(values<Case>({
        {obj({{"bogus", num(1)}}), "bogus", "unknown-field"},
        {obj({{"maxRetries", str("3")}}), "maxRetries", "wrong-type"},
        {obj({{"maxRetries", num(101)}}), "maxRetries", "out-of-range"},
        {obj({{"maxRetries", num(std::numeric_limits<double>::infinity())}}), "maxRetries", "out-of-range"},
        {obj({{"maxRetries", num(1.5)}}), "maxRetries", "not-whole"},
        {obj({{"jitter", str("random")}}), "jitter", "not-a-choice"},
        {obj({{"jitter", Value::null()}}), "jitter", "wrong-type"},
        {obj({{"scenario", str("script")}}), "script", "missing"},
        {obj({{"script", list({obj({{"status", num(200)}})})}}), "script", "only-with"},
        {obj({{"jitterLow", num(0.5)}}), "jitterLow", "only-with"},
        {obj({{"draws", Value::array(tooManyDraws)}}), "draws", "too-many"},
        {obj({{"scenario", str("script")}, {"script", list({})}}), "script", "too-few"},
        {obj({{"operationId", str(std::string(256, 'x'))}}), "operationId", "too-long"},
        {obj({{"operationId", str("")}}), "operationId", "too-short"},
        {obj({{"retryOn", list({str("5xx"), str("5xx")})}}), "retryOn[1]", "repeated"},
        {obj({{"retryOnStatuses", list({num(503), num(503)})}}), "retryOnStatuses[1]", "repeated"},
        {obj({{"startDate", str("today")}}), "startDate", "bad-date"},
        {obj({{"scenario", str("script")}, {"script", list({obj({})})}}), "script[0].status", "missing"},
        {obj({{"scenario", str("script")},
              {"script", list({obj({{"status", num(200)}, {"lost", boolean(true)}, {"dropped", boolean(true)}})})}}),
         "script[0].dropped", "conflict"},
        {obj({{"jitter", str("proportional")}, {"jitterLow", num(1.2)}, {"jitterHigh", num(0.8)}}), "jitterHigh",
         "conflict"},
        {obj({{"draws", Value::array(badDraws)}}), "draws", "more-bad-items"},
        {num(3), "", "wrong-type"},
    }));
    ParsedInputs parsed = parseInputs(c.inputs);
    INFO("field " << c.field << ", code " << c.code);
    bool found = false;
    for (const InputError& e : parsed.errors) found = found || (e.field == c.field && e.code == c.code);
    CHECK(found);
    for (const InputError& e : parsed.errors) {
        // The detail is the message without its subject: the page puts it after its own label.
        REQUIRE(e.message.size() > e.detail.size());
        CHECK(e.message.compare(e.message.size() - e.detail.size(), e.detail.size(), e.detail) == 0);
        CHECK(e.message[e.message.size() - e.detail.size() - 1] == ' ');
        CHECK(e.detail.back() == '.');
    }
}

TEST_CASE("an error's detail is its message after the field's name", "[fields][codes]") {
    ParsedInputs parsed = parseInputs(obj({{"maxRetries", num(101)}}));
    REQUIRE(parsed.errors.size() == 1);
    CHECK(parsed.errors[0].message == "maxRetries must be a whole number from 0 to 100; got 101.");
    CHECK(parsed.errors[0].detail == "must be a whole number from 0 to 100; got 101.");
}

TEST_CASE("validate() gives compute()'s errors without a run, and ok for good inputs", "[fields][validate]") {
    Value bad = obj({{"maxRetries", num(-1)}, {"jitter", str("x")}});
    Value checked = validate(bad);
    CHECK_FALSE(checked.find("ok")->asBool());
    CHECK(sameValue(*checked.find("errors"), *compute(bad).find("errors")));
    const Value& first = checked.find("errors")->asArray()[0];
    for (const char* key : {"field", "code", "message", "detail"}) CHECK(first.find(key));
    Value good = validate(Value::object());
    CHECK(good.find("ok")->asBool());
    CHECK(good.find("errors")->asArray().empty());
    CHECK(good.asObject().size() == 2);
}

// SPEC §4's classes: 429 is its own class, 4xx is every 4xx but 429.
TEST_CASE("retryOn's names reach the classes they name", "[fields][retryOn]") {
    ParsedInputs only429 = parseInputs(obj({{"retryOn", list({str("429")})}}));
    REQUIRE(only429.inputs);
    CHECK(only429.inputs->retryOn.tooManyRequests);
    CHECK_FALSE(only429.inputs->retryOn.clientError);
    CHECK_FALSE(only429.inputs->retryOn.timeout);
    CHECK_FALSE(only429.inputs->retryOn.serverError);
    ParsedInputs only4xx = parseInputs(obj({{"retryOn", list({str("4xx")})}}));
    REQUIRE(only4xx.inputs);
    CHECK(only4xx.inputs->retryOn.clientError);
    CHECK_FALSE(only4xx.inputs->retryOn.tooManyRequests);
    ParsedInputs timeouts = parseInputs(obj({{"retryOn", list({str("timeout")})}}));
    REQUIRE(timeouts.inputs);
    CHECK(timeouts.inputs->retryOn.timeout);
    CHECK_FALSE(timeouts.inputs->retryOn.serverError);
    ParsedInputs fives = parseInputs(obj({{"retryOn", list({str("5xx")})}}));
    REQUIRE(fives.inputs);
    CHECK(fives.inputs->retryOn.serverError);
    CHECK_FALSE(fives.inputs->retryOn.timeout);
}

TEST_CASE("a 429 is retried under retryOn [\"429\"] and not [\"4xx\"], a 404 the other way round",
          "[fields][retryOn]") {
    auto attempts = [](int status, const char* retried) {
        Value inputs = obj({{"scenario", str("script")},
                            {"script", list({obj({{"status", num(status)}}), obj({{"status", num(200)}})})},
                            {"retryOn", list({str(retried)})}});
        return compute(inputs).find("metrics")->find("attempts")->asNumber();
    };
    CHECK(attempts(429, "429") == 2);
    CHECK(attempts(429, "4xx") == 1);
    CHECK(attempts(404, "4xx") == 2);
    CHECK(attempts(404, "429") == 1);
    CHECK(attempts(503, "5xx") == 2);
    CHECK(attempts(503, "429") == 1);
}

namespace {

// The single run's table with one more row, as a new input would be added.
FieldTable withThrowawayRow() {
    FieldTable t = inputFields();
    t.fields.push_back(
        Field::number("herdSpreadMs", "herd", "ms", "a throwaway row for this test").range(0, 1000).defaults(250));
    return t;
}

// A table of the kinds the fleet's request needs: an object, a nullable object, a variant.
FieldTable nestedTable() {
    FieldTable t;
    t.name = "request";
    t.subject = "The request";
    t.example = "{ \"server\": { \"workers\": 10 } }";
    t.unknownWords = "is not part of the request.";
    t.fields = {
        Field::object("server", "server", "the server",
                      {
                          Field::number("workers", "", "", "attempts in service at once")
                              .wholeNumber()
                              .range(1, 100000)
                              .orNull()
                              .defaults(10),
                          Field::choice("queueOrder", "", "which waiting attempt is served next",
                                        {{"fifo", 0, "the oldest"}, {"lifo", 1, "the newest"}})
                              .defaults("fifo"),
                      }),
        Field::object("quota", "gates", "a gate: null is off",
                      {
                          Field::number("capacity", "", "", "tokens").range(1, 100).defaults(10),
                          Field::number("retryCost", "", "", "tokens per retry").range(0, 100).defaults(5),
                      })
            .orNull()
            .defaults(Literal::null()),
        Field::object("spike", "load", "the rate times factor in [startMs, endMs)",
                      {
                          Field::number("startMs", "", "ms", "start").range(0, 1000).needed(),
                          Field::number("factor", "", "", "factor").range(0.01, 100).needed(),
                      })
            .orNull()
            .defaults(Literal::null()),
        Field::variant(
            "network", "network", "one leg's delay", "dist",
            {
                {"fixed", 0, "always ms", {Field::number("ms", "", "ms", "the delay").range(0, 60000).defaults(5)}},
                {"uniform",
                 1,
                 "between lo and hi",
                 {Field::number("lo", "", "ms", "low").range(0, 60000),
                  Field::number("hi", "", "ms", "high").range(0, 60000)}},
            }),
    };
    return t;
}

std::vector<std::string> fieldsOf(const Normalized& n) {
    std::vector<std::string> fields;
    for (const InputError& e : n.errors) fields.push_back(e.field + " " + e.code);
    return fields;
}

}  // namespace

TEST_CASE("a new row in a table is validated, echoed and listed with nothing else changed", "[fields][table]") {
    const FieldTable t = withThrowawayRow();
    Normalized empty = normalize(t, Value::object());
    REQUIRE(empty.errors.empty());
    // The echo gains the row, at the end, with its default; every other field is as before.
    REQUIRE(empty.value.asObject().back().key == "herdSpreadMs");
    CHECK(empty.value.asObject().back().value.asNumber() == 250);
    Value before = empty.value;
    Value::Object members = before.asObject();
    members.pop_back();
    CHECK(sameValue(Value::object(members), echoOf(Value::object())));
    CHECK(normalize(t, obj({{"herdSpreadMs", num(40)}})).value.find("herdSpreadMs")->asNumber() == 40);
    CHECK(fieldsOf(normalize(t, obj({{"herdSpreadMs", num(1001)}}))) ==
          std::vector<std::string>{"herdSpreadMs out-of-range"});
    CHECK(fieldsOf(normalize(t, obj({{"herdSpreadMs", str("x")}}))) ==
          std::vector<std::string>{"herdSpreadMs wrong-type"});
    // The engine's own table does not know it.
    CHECK(parseInputs(obj({{"herdSpreadMs", num(40)}})).errors.size() == 1);
    const Value rows = tableToValue(t);
    CHECK(rows.asArray().back().find("name")->asString() == "herdSpreadMs");
    CHECK(rows.asArray().back().find("unit")->asString() == "ms");
}

TEST_CASE("a nested object may be given in part: its missing members take their defaults", "[fields][table][nested]") {
    const FieldTable t = nestedTable();
    Normalized empty = normalize(t, Value::object());
    REQUIRE(empty.errors.empty());
    CHECK(sameValue(*empty.value.find("server"), obj({{"workers", num(10)}, {"queueOrder", str("fifo")}})));
    CHECK(empty.value.find("quota")->isNull());
    CHECK(empty.value.find("spike")->isNull());
    CHECK(sameValue(*empty.value.find("network"), obj({{"dist", str("fixed")}, {"ms", num(5)}})));

    Normalized part = normalize(t, obj({{"server", obj({{"queueOrder", str("lifo")}})}}));
    REQUIRE(part.errors.empty());
    CHECK(sameValue(*part.value.find("server"), obj({{"workers", num(10)}, {"queueOrder", str("lifo")}})));
    CHECK(normalize(t, obj({{"server", obj({{"workers", Value::null()}})}}))
              .value.find("server")
              ->find("workers")
              ->isNull());

    CHECK(fieldsOf(normalize(t, obj({{"server", obj({{"workers", num(0)}})}}))) ==
          std::vector<std::string>{"server.workers out-of-range"});
    CHECK(fieldsOf(normalize(t, obj({{"server", obj({{"colour", num(0)}})}}))) ==
          std::vector<std::string>{"server.colour unknown-field"});
    CHECK(fieldsOf(normalize(t, obj({{"server", obj({{"odd key", num(0)}})}}))) ==
          std::vector<std::string>{"server[\"odd key\"] unknown-field"});
    CHECK(fieldsOf(normalize(t, obj({{"server", Value::null()}}))) == std::vector<std::string>{"server wrong-type"});
}

TEST_CASE("a nullable object is off as null and filled in full as {}", "[fields][table][nested]") {
    const FieldTable t = nestedTable();
    Normalized on = normalize(t, obj({{"quota", Value::object()}}));
    REQUIRE(on.errors.empty());
    CHECK(sameValue(*on.value.find("quota"), obj({{"capacity", num(10)}, {"retryCost", num(5)}})));
    CHECK(fieldsOf(normalize(t, obj({{"quota", obj({{"retryCost", num(-1)}})}}))) ==
          std::vector<std::string>{"quota.retryCost out-of-range"});
    // Members without defaults must be given.
    CHECK(fieldsOf(normalize(t, obj({{"spike", obj({{"startMs", num(5)}})}}))) ==
          std::vector<std::string>{"spike.factor missing"});
    Normalized spike = normalize(t, obj({{"spike", obj({{"factor", num(3)}, {"startMs", num(5)}})}}));
    REQUIRE(spike.errors.empty());
    CHECK(sameValue(*spike.value.find("spike"), obj({{"startMs", num(5)}, {"factor", num(3)}})));
}

TEST_CASE("a variant's defaults apply to the default variant only; another needs its own members",
          "[fields][table][variant]") {
    const FieldTable t = nestedTable();
    CHECK(sameValue(*normalize(t, obj({{"network", obj({{"ms", num(7)}})}})).value.find("network"),
                    obj({{"dist", str("fixed")}, {"ms", num(7)}})));
    CHECK(sameValue(*normalize(t, obj({{"network", obj({{"dist", str("fixed")}})}})).value.find("network"),
                    obj({{"dist", str("fixed")}, {"ms", num(5)}})));
    CHECK(fieldsOf(normalize(t, obj({{"network", obj({{"dist", str("uniform")}})}}))) ==
          std::vector<std::string>{"network.lo missing", "network.hi missing"});
    Normalized uniform =
        normalize(t, obj({{"network", obj({{"hi", num(9)}, {"dist", str("uniform")}, {"lo", num(1)}})}}));
    REQUIRE(uniform.errors.empty());
    CHECK(sameValue(*uniform.value.find("network"), obj({{"dist", str("uniform")}, {"lo", num(1)}, {"hi", num(9)}})));
    CHECK(
        fieldsOf(normalize(
            t, obj({{"network", obj({{"dist", str("uniform")}, {"lo", num(1)}, {"hi", num(2)}, {"ms", num(5)}})}}))) ==
        std::vector<std::string>{"network.ms unknown-field"});
    CHECK(fieldsOf(normalize(t, obj({{"network", obj({{"dist", str("gamma")}})}}))) ==
          std::vector<std::string>{"network.dist not-a-choice"});
    const Value rows = tableToValue(t);
    const Value& network = rows.asArray()[3];
    CHECK(network.find("type")->asString() == "variant");
    CHECK(network.find("discriminator")->asString() == "dist");
    CHECK(sameValue(*network.find("default"), obj({{"dist", str("fixed")}, {"ms", num(5)}})));
    CHECK(network.find("variants")->asArray()[1].find("members")->asArray().size() == 2);
}

TEST_CASE("schema() publishes each named scenario's answers as SPEC §2 lists them", "[fields][schema][scenarios]") {
    const Value s = schema();
    const Value* scenarios = s.find("scenarios");
    REQUIRE(scenarios);
    auto answer = [](std::initializer_list<std::pair<const char*, Value>> members) {
        Value a = Value::object();
        for (const auto& m : members) a.set(m.first, m.second);
        return a;
    };
    auto list = [](std::initializer_list<Value> items) {
        Value l = Value::array();
        for (const Value& v : items) l.push(v);
        return l;
    };
    // SPEC §2, "Named scenarios".
    Value expected = Value::object();
    expected.set("response-lost",
                 list({answer({{"status", num(200)}, {"lost", boolean(true)}}), answer({{"status", num(200)}})}));
    expected.set("request-lost", list({answer({{"dropped", boolean(true)}}), answer({{"status", num(200)}})}));
    expected.set("outage-503-twice", list({answer({{"status", num(503)}}), answer({{"status", num(503)}}),
                                           answer({{"status", num(200)}})}));
    expected.set("bad-request-400", list({answer({{"status", num(400)}})}));
    CHECK(sameValue(*scenarios, expected));
}

TEST_CASE("a named scenario runs exactly as its published script does", "[fields][schema][scenarios]") {
    const Value scenarios = *schema().find("scenarios");
    std::size_t named = 0;
    for (const Choice& c : inputFields().field("scenario").choices) {
        if (c.name == "script") continue;
        ++named;
        INFO("scenario " << c.name);
        const Value* script = scenarios.find(c.name);
        REQUIRE(script);
        // A few policies, so that every answer of the script is reached: retries of writes
        // with and without a key, every class retried, a read.
        std::vector<Value> policies(4, Value::object());
        policies[1].set("idempotencyKey", boolean(true));
        Value every = Value::array();
        for (const char* name : {"timeout", "429", "5xx", "4xx"}) every.push(str(name));
        policies[2].set("retryOn", every);
        policies[2].set("maxRetries", num(6));
        policies[3].set("operation", str("read"));
        for (const Value& policy : policies) {
            Value named_ = policy;
            named_.set("scenario", str(c.name));
            Value scripted_ = policy;
            scripted_.set("scenario", str("script"));
            scripted_.set("script", *script);
            Value a = compute(named_);
            Value b = compute(scripted_);
            REQUIRE(a.find("ok")->asBool());
            REQUIRE(b.find("ok")->asBool());
            for (const Value::Member& m : a.asObject()) {
                if (m.key == "inputs") continue;
                INFO("member " << m.key);
                REQUIRE(b.find(m.key));
                CHECK(sameValue(m.value, *b.find(m.key)));
            }
            CHECK(a.asObject().size() == b.asObject().size());
        }
    }
    CHECK(named == scenarios.asObject().size());
}
