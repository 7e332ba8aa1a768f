// libFuzzer target that builds the inputs as a Value directly from the fuzzer's bytes
// (FuzzedDataProvider), past the JSON parser: nearly every input is an object of the engine's
// own fields (read from its input table, fields.hpp) with values of each row's type, chosen
// near the edges of its bounds, so the engine's rules
// rather than the parser get the mutations. It also gives values JSON cannot carry but the
// WebAssembly binding can (NaN, infinities, -0, unsupported values such as a JS function).
// A quarter of the inputs are wrapped as sweep requests, and a quarter are fleet requests
// (the fleet tables' paths, nested objects, mostly small numbers). The checks are engine_fuzzer's
// (checks.hpp).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include <fuzzer/FuzzedDataProvider.h>

#include "checks.hpp"
#include "retrylab/fields.hpp"
#include "retrylab/fleet.hpp"
#include "retrylab/value.hpp"
#include "vocabulary.hpp"

namespace {

using retrylab::Value;

using retrylab::Field;
using retrylab::FieldType;

const char* const kNames[] = {"response-lost",
                              "request-lost",
                              "outage-503-twice",
                              "bad-request-400",
                              "script",
                              "charge",
                              "create",
                              "read",
                              "none",
                              "full",
                              "equal",
                              "decorrelated",
                              "proportional",
                              "timeout",
                              "429",
                              "5xx",
                              "4xx",
                              "replace",
                              "at-least",
                              "backoff",
                              "stop",
                              "fits",
                              "before-deadline",
                              "op-0001",
                              ""};
const char* const kDates[] = {"Sun, 29 Nov 2026 10:00:00 GMT",  "Sun, 29 Nov 2026 10:00:07 GMT",
                              "Sunday, 29-Nov-26 10:00:05 GMT", "Sun Nov 29 10:00:09 2026",
                              "Sat, 31 Dec 2016 23:59:60 GMT",  "Thu, 01 Jan 1970 00:00:00 GMT",
                              "Fri, 31 Dec 9999 23:59:59 GMT",  "Mon, 01 Jan 0001 00:00:00 GMT",
                              "Sunday, 06-Nov-94 08:49:37 GMT", "Sun, 29 Feb 2026 10:00:00 GMT"};
const char* const kRetryAfters[] = {
    "0", "1", "2", "7", "86400", "86401", "-1", "1.5", " 3 ", "\t9\t", "99999999999999999999", "soon", ""};
const double kNumbers[] = {0,
                           -0.0,
                           0.4,
                           0.5,
                           1,
                           2,
                           3,
                           10,
                           11,
                           100,
                           101,
                           199,
                           200,
                           500,
                           3000,
                           3500,
                           3700,
                           10000,
                           86400000,
                           86400001,
                           1e15,
                           9007199254740991.0,
                           9007199254740992.0,
                           1000000,
                           1000001,
                           5e-324,
                           1e-300,
                           0.999999999999,
                           1.0000000000001,
                           -1,
                           1e308};

// The fleet request's paths (FLEET.md §3) and the names its choice fields take, from its two
// tables (vocabulary.hpp): a fleet field added to core/ is fuzzed with nothing written here.
const retrylab::fuzz::Vocabulary& fleetVocabulary() {
    static const retrylab::fuzz::Vocabulary v =
        retrylab::fuzz::vocabularyOf({&retrylab::fleetFields(), &retrylab::occFleetFields()});
    return v;
}
// Small numbers, so that most valid requests are quick enough to run (checks.hpp).
const double kFleetNumbers[] = {0, 0.001, 0.1, 0.5, 1, 2, 3, 5, 10, 20, 50, 100, 200, 1000, 2000, 5000, 20000};

class Builder {
public:
    explicit Builder(FuzzedDataProvider& in) : in_(in) {}

    double number() {
        switch (in_.ConsumeIntegralInRange<int>(0, 9)) {
            case 0: return in_.ConsumeFloatingPoint<double>();
            case 1: return in_.ConsumeIntegralInRange<int>(-2, 1100);
            case 2: return in_.ConsumeProbability<double>();
            case 3: {
                const double special[] = {std::numeric_limits<double>::quiet_NaN(),
                                          std::numeric_limits<double>::infinity(),
                                          -std::numeric_limits<double>::infinity()};
                return special[in_.ConsumeIntegralInRange<int>(0, 2)];
            }
            default:
                return in_.PickValueInArray(kNumbers) +
                       (in_.ConsumeBool() ? 0 : in_.ConsumeIntegralInRange<int>(-3, 3));
        }
    }

    std::string text() {
        switch (in_.ConsumeIntegralInRange<int>(0, 4)) {
            case 0: return in_.PickValueInArray(kNames);
            case 1: return in_.PickValueInArray(kDates);
            case 2: return in_.PickValueInArray(kRetryAfters);
            default: return utf8(in_.ConsumeRandomLengthString(300));
        }
    }

    // Bytes as text every binding could pass: valid UTF-8 (JSON and JS strings are), with each
    // byte from 0x80 up standing for a code point of two to four bytes, so that anything cut
    // short mid-character shows up in the JSON round trip.
    static std::string utf8(const std::string& bytes) {
        std::string out;
        for (unsigned char b : bytes) {
            if (b < 0x80) {
                out += static_cast<char>(b);
                continue;
            }
            std::uint32_t c = b < 0xC0   ? 0x80 + (b - 0x80) * 61
                              : b < 0xF0 ? 0x1000 + (b - 0xC0) * 1021
                                         : 0x1F600 + (b - 0xF0);
            if (c >= 0xD800 && c <= 0xDFFF) c -= 0x800;
            if (c < 0x800) {
                out += static_cast<char>(0xC0 | (c >> 6));
            } else if (c < 0x10000) {
                out += static_cast<char>(0xE0 | (c >> 12));
                out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
            } else {
                out += static_cast<char>(0xF0 | (c >> 18));
                out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
                out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
            }
            out += static_cast<char>(0x80 | (c & 0x3F));
        }
        return out;
    }

    // Usually the kind a field wants; now and then any value at all.
    Value value(int depth) {
        switch (in_.ConsumeIntegralInRange<int>(0, 15)) {
            case 0: return Value::null();
            case 1: return Value::boolean(in_.ConsumeBool());
            case 2: return Value::string(text());
            case 3: return Value::unsupported("a function");
            case 4: return depth < 3 ? list(depth + 1) : Value::number(number());
            case 5:
                return depth < 3 ? object(retrylab::inputFields().field("script").item.front().members, 6, depth + 1)
                                 : Value::null();
            default: return Value::number(number());
        }
    }

    Value list(int depth) {
        Value::Array items;
        for (std::size_t n = in_.ConsumeIntegralInRange<std::size_t>(0, 12); n > 0 && in_.remaining_bytes() > 0; --n)
            items.push_back(in_.ConsumeBool()   ? Value::number(number())
                            : in_.ConsumeBool() ? Value::string(text())
                                                : value(depth));
        return Value::array(std::move(items));
    }

    Value inputs() { return object(retrylab::inputFields().fields, 14, 1); }

    // A fleet request: objects at the paths picked, holding mostly the kind each field wants.
    Value fleet() {
        Value request = Value::object();
        for (std::size_t n = in_.ConsumeIntegralInRange<std::size_t>(0, 16); n > 0 && in_.remaining_bytes() > 0; --n) {
            const auto& vocabulary = fleetVocabulary();
            const std::string& path = pick(vocabulary.paths);
            Value v;
            switch (in_.ConsumeIntegralInRange<int>(0, 9)) {
                case 0: v = value(1); break;
                case 1: v = Value::null(); break;
                case 2: v = Value::object(); break;
                case 3: v = Value::string(pick(vocabulary.names)); break;
                case 4: v = Value::boolean(in_.ConsumeBool()); break;
                case 5: v = Value::array({Value::string(pick(vocabulary.names))}); break;
                case 6: v = Value::number(number()); break;
                default: v = Value::number(in_.PickValueInArray(kFleetNumbers)); break;
            }
            setPath(request, path, std::move(v));
        }
        return request;
    }

private:
    const std::string& pick(const std::vector<std::string>& items) {
        return items[in_.ConsumeIntegralInRange<std::size_t>(0, items.size() - 1)];
    }

    // Sets v at a dotted path, making (or replacing with) objects on the way.
    static void setPath(Value& object, const std::string& path, Value v) {
        const std::size_t dot = path.find('.');
        const std::string head = path.substr(0, dot);
        Value::Object members = object.kind() == Value::Kind::Object ? object.asObject() : Value::Object{};
        Value* slot = nullptr;
        for (Value::Member& m : members)
            if (m.key == head) slot = &m.value;
        if (!slot) {
            members.push_back({head, Value::object()});
            slot = &members.back().value;
        }
        if (dot == std::string::npos)
            *slot = std::move(v);
        else
            setPath(*slot, path.substr(dot + 1), std::move(v));
        object = Value::object(std::move(members));
    }

    // Up to `most` members of `rows`, now and then one with a key no row has.
    Value object(const std::vector<Field>& rows, std::size_t most, int depth) {
        Value object = Value::object();
        for (std::size_t n = in_.ConsumeIntegralInRange<std::size_t>(0, most); n > 0 && in_.remaining_bytes() > 0;
             --n) {
            if (in_.ConsumeIntegralInRange<int>(0, 40) == 0) {
                object.set(text(), value(depth));
                continue;
            }
            const Field& row = rows[in_.ConsumeIntegralInRange<std::size_t>(0, rows.size() - 1)];
            object.set(row.name, field(row, depth));
        }
        return object;
    }

    // Usually a value of the row's own type near its bounds; now and then any value at all.
    Value field(const Field& row, int depth) {
        if (in_.ConsumeIntegralInRange<int>(0, 7) == 0) return value(depth);
        if (row.nullable && in_.ConsumeIntegralInRange<int>(0, 3) == 0) return Value::null();
        switch (row.type) {
            case FieldType::Boolean: return Value::boolean(in_.ConsumeBool());
            case FieldType::Number: {
                if (!row.whole || in_.ConsumeBool()) return Value::number(number());
                // A whole number at or just past the row's bounds, or inside them.
                const double edges[] = {row.lo - 1, row.lo, row.lo + 1, row.hi - 1, row.hi, row.hi + 1};
                if (in_.ConsumeBool()) return Value::number(in_.PickValueInArray(edges));
                return Value::number(row.lo + in_.ConsumeIntegralInRange<int>(0, 1000));
            }
            case FieldType::String: return Value::string(text());
            case FieldType::Choice:
                if (in_.ConsumeIntegralInRange<int>(0, 5) == 0) return Value::string(in_.PickValueInArray(kNames));
                return Value::string(
                    row.choices[in_.ConsumeIntegralInRange<std::size_t>(0, row.choices.size() - 1)].name);
            case FieldType::HttpDate: return Value::string(in_.PickValueInArray(kDates));
            case FieldType::List: {
                if (depth > 3) return Value::array();
                Value::Array items;
                for (std::size_t n = in_.ConsumeIntegralInRange<std::size_t>(0, 10); n > 0 && in_.remaining_bytes() > 0;
                     --n)
                    items.push_back(field(row.item.front(), depth + 1));
                return Value::array(std::move(items));
            }
            case FieldType::Object:
                return depth > 3 ? Value::object() : object(row.members, row.members.size() + 1, depth + 1);
            case FieldType::Variant: {
                if (depth > 3 || row.variants.empty()) return Value::object();
                const auto& option = row.variants[in_.ConsumeIntegralInRange<std::size_t>(0, row.variants.size() - 1)];
                Value v = object(option.members, option.members.size() + 1, depth + 1);
                if (in_.ConsumeIntegralInRange<int>(0, 4) != 0) v.set(row.discriminator, Value::string(option.name));
                return v;
            }
        }
        return value(depth);
    }

    FuzzedDataProvider& in_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider in(data, size);
    Builder build(in);
    const int mode = in.ConsumeIntegralInRange<int>(0, 3);  // 0 a sweep, 1 a fleet request, else compute
    if (mode == 1) {
        retrylab::fuzz::checkFleet(build.fleet());
        return 0;
    }
    const bool asSweep = mode == 0;
    Value inputs = build.inputs();
    if (!asSweep) {
        retrylab::fuzz::checkCompute(inputs);
        return 0;
    }
    Value request = Value::object();
    request.set("inputs", std::move(inputs));
    request.set("vary", Value::string(in.PickValueInArray(
                            {"deadlineMs", "clientTimeoutMs", "baseBackoffMs", "responseMs", "maxRetries", "seed"})));
    request.set("from", Value::number(build.number()));
    request.set("to", Value::number(build.number()));
    request.set("points", Value::number(in.ConsumeBool() ? in.ConsumeIntegralInRange<int>(0, 1001) : build.number()));
    retrylab::fuzz::checkSweep(request);
    return 0;
}
