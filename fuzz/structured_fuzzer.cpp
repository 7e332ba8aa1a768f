// libFuzzer target that builds the inputs as a Value directly from the fuzzer's bytes
// (FuzzedDataProvider), past the JSON parser: nearly every input is an object of the engine's
// own fields with values chosen near the edges of SPEC §7's ranges, so the engine's rules
// rather than the parser get the mutations. It also gives values JSON cannot carry but the
// WebAssembly binding can (NaN, infinities, -0, unsupported values such as a JS function).
// A quarter of the inputs are wrapped as sweep requests. The checks are engine_fuzzer's
// (checks.hpp).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include <fuzzer/FuzzedDataProvider.h>

#include "checks.hpp"
#include "retrylab/value.hpp"

namespace {

using retrylab::Value;

const char* const kFields[] = {
    "scenario", "script", "operation", "operationId", "maxRetries", "baseBackoffMs", "backoffMultiplier",
    "maxBackoffMs", "jitter", "draws", "seed", "clientTimeoutMs", "deadlineMs", "waitBudgetMs", "responseMs",
    "idempotencyKey", "retryOn", "retryWritesWithoutKey", "honourRetryAfter", "startDate", "callers",
    "firstRetryImmediate", "minBackoffMs", "jitterLow", "jitterHigh", "ceilingScheduleMs", "retryOnStatuses",
    "retryAfterStatuses", "retryAfterMode", "retryAfterMaxMs", "retryAfterOverMax", "attemptStart"};
const char* const kNames[] = {"response-lost", "request-lost", "outage-503-twice", "bad-request-400", "script",
                              "charge", "create", "read", "none", "full", "equal", "decorrelated", "proportional",
                              "timeout", "429", "5xx", "4xx", "replace", "at-least", "backoff", "stop", "fits",
                              "before-deadline", "op-0001", ""};
const char* const kDates[] = {"Sun, 29 Nov 2026 10:00:00 GMT", "Sun, 29 Nov 2026 10:00:07 GMT",
                              "Sunday, 29-Nov-26 10:00:05 GMT", "Sun Nov 29 10:00:09 2026",
                              "Sat, 31 Dec 2016 23:59:60 GMT", "Thu, 01 Jan 1970 00:00:00 GMT",
                              "Fri, 31 Dec 9999 23:59:59 GMT", "Mon, 01 Jan 0001 00:00:00 GMT",
                              "Sunday, 06-Nov-94 08:49:37 GMT", "Sun, 29 Feb 2026 10:00:00 GMT"};
const char* const kRetryAfters[] = {"0", "1", "2", "7", "86400", "86401", "-1", "1.5", " 3 ", "\t9\t",
                                    "99999999999999999999", "soon", ""};
const double kNumbers[] = {0, -0.0, 0.4, 0.5, 1, 2, 3, 10, 11, 100, 101, 199, 200, 500, 3000, 3500, 3700,
                           10000, 86400000, 86400001, 1e15, 9007199254740991.0, 9007199254740992.0, 1000000,
                           1000001, 5e-324, 1e-300, 0.999999999999, 1.0000000000001, -1, 1e308};

class Builder {
public:
    explicit Builder(FuzzedDataProvider& in) : in_(in) {}

    double number() {
        switch (in_.ConsumeIntegralInRange<int>(0, 9)) {
            case 0: return in_.ConsumeFloatingPoint<double>();
            case 1: return in_.ConsumeIntegralInRange<int>(-2, 1100);
            case 2: return in_.ConsumeProbability<double>();
            case 3: {
                const double special[] = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                                          -std::numeric_limits<double>::infinity()};
                return special[in_.ConsumeIntegralInRange<int>(0, 2)];
            }
            default: return in_.PickValueInArray(kNumbers) + (in_.ConsumeBool() ? 0 : in_.ConsumeIntegralInRange<int>(-3, 3));
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
            std::uint32_t c = b < 0xC0 ? 0x80 + (b - 0x80) * 61 : b < 0xF0 ? 0x1000 + (b - 0xC0) * 1021 : 0x1F600 + (b - 0xF0);
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
            case 5: return depth < 3 ? entry(depth + 1) : Value::null();
            default: return Value::number(number());
        }
    }

    Value list(int depth) {
        Value::Array items;
        for (std::size_t n = in_.ConsumeIntegralInRange<std::size_t>(0, 12); n > 0 && in_.remaining_bytes() > 0; --n)
            items.push_back(in_.ConsumeBool() ? Value::number(number()) : in_.ConsumeBool() ? Value::string(text()) : value(depth));
        return Value::array(std::move(items));
    }

    // A script entry: mostly the fields an entry has.
    Value entry(int depth) {
        Value e = Value::object();
        if (in_.ConsumeIntegralInRange<int>(0, 5) != 0) e.set("status", in_.ConsumeBool() ? Value::number(in_.PickValueInArray({200, 201, 302, 400, 404, 409, 413, 429, 500, 503, 599})) : value(depth));
        if (in_.ConsumeBool()) e.set("retryAfter", in_.ConsumeBool() ? Value::string(in_.ConsumeBool() ? in_.PickValueInArray(kRetryAfters) : in_.PickValueInArray(kDates)) : value(depth));
        if (in_.ConsumeIntegralInRange<int>(0, 3) == 0) e.set("date", in_.ConsumeBool() ? Value::string(in_.PickValueInArray(kDates)) : value(depth));
        if (in_.ConsumeIntegralInRange<int>(0, 3) == 0) e.set("lost", Value::boolean(in_.ConsumeBool()));
        if (in_.ConsumeIntegralInRange<int>(0, 4) == 0) e.set("dropped", Value::boolean(in_.ConsumeBool()));
        if (in_.ConsumeIntegralInRange<int>(0, 30) == 0) e.set(text(), value(depth));
        return e;
    }

    Value inputs() {
        Value object = Value::object();
        for (std::size_t n = in_.ConsumeIntegralInRange<std::size_t>(0, 14); n > 0 && in_.remaining_bytes() > 0; --n) {
            std::string key = in_.ConsumeIntegralInRange<int>(0, 40) == 0 ? text() : in_.PickValueInArray(kFields);
            object.set(std::move(key), field(key));
        }
        return object;
    }

private:
    Value field(const std::string& key) {
        if (in_.ConsumeIntegralInRange<int>(0, 7) == 0) return value(1);  // any kind at all
        if (key == "script") {
            Value::Array entries;
            for (std::size_t n = in_.ConsumeIntegralInRange<std::size_t>(0, 8); n > 0 && in_.remaining_bytes() > 0; --n)
                entries.push_back(entry(1));
            return Value::array(std::move(entries));
        }
        if (key == "draws" || key == "ceilingScheduleMs" || key == "retryOnStatuses" || key == "retryAfterStatuses" ||
            key == "retryOn") {
            Value::Array items;
            for (std::size_t n = in_.ConsumeIntegralInRange<std::size_t>(0, 10); n > 0 && in_.remaining_bytes() > 0; --n) {
                if (key == "retryOn") items.push_back(Value::string(in_.PickValueInArray({"timeout", "429", "5xx", "4xx"})));
                else if (key == "draws") items.push_back(Value::number(in_.ConsumeBool() ? in_.ConsumeProbability<double>() : number()));
                else if (key == "ceilingScheduleMs") items.push_back(Value::number(number()));
                else items.push_back(Value::number(in_.PickValueInArray({200, 409, 413, 429, 500, 502, 503, 504, 599})));
            }
            return Value::array(std::move(items));
        }
        if (key == "scenario" || key == "operation" || key == "jitter" || key == "retryAfterMode" ||
            key == "retryAfterOverMax" || key == "attemptStart")
            return Value::string(in_.PickValueInArray(kNames));
        if (key == "startDate") return Value::string(in_.PickValueInArray(kDates));
        if (key == "operationId") return Value::string(text());
        if (key == "idempotencyKey" || key == "retryWritesWithoutKey" || key == "honourRetryAfter" || key == "firstRetryImmediate")
            return Value::boolean(in_.ConsumeBool());
        if ((key == "maxBackoffMs" || key == "deadlineMs" || key == "waitBudgetMs" || key == "retryAfterMaxMs") &&
            in_.ConsumeIntegralInRange<int>(0, 3) == 0)
            return Value::null();
        if (key == "callers" && in_.ConsumeBool()) return Value::number(in_.ConsumeIntegralInRange<int>(1, 200));
        return Value::number(number());
    }

    FuzzedDataProvider& in_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider in(data, size);
    Builder build(in);
    const bool asSweep = in.ConsumeIntegralInRange<int>(0, 3) == 0;
    Value inputs = build.inputs();
    if (!asSweep) {
        retrylab::fuzz::checkCompute(inputs);
        return 0;
    }
    Value request = Value::object();
    request.set("inputs", std::move(inputs));
    request.set("vary", Value::string(in.PickValueInArray({"deadlineMs", "clientTimeoutMs", "baseBackoffMs", "responseMs", "maxRetries", "seed"})));
    request.set("from", Value::number(build.number()));
    request.set("to", Value::number(build.number()));
    request.set("points", Value::number(in.ConsumeBool() ? in.ConsumeIntegralInRange<int>(0, 1001) : build.number()));
    retrylab::fuzz::checkSweep(request);
    return 0;
}
