// The engine for JavaScript (embind). A thin adapter: compute.js reads the caller's object into
// a tape; this file turns the tape into a retrylab::Value, calls retrylab::compute(), and hands
// back the result as plain JS objects and arrays built with emscripten::val — no embind
// handles, nothing the caller must .delete().
//
//   const engine = await require('./retrylab-engine.js')();
//   engine.compute({ maxRetries: 1 });  // { ok: true, engine, inputs, events, ... }
//   engine.version();                   // the engine's version
//   engine.heapInUse();                 // bytes malloc'ed now: to show calls don't leak
#include <malloc.h>

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include "retrylab/engine.hpp"

// A plain JS array of the n doubles at `numbers`. A loop here is several times faster than
// Array.from() on a typed-array view.
EM_JS(emscripten::EM_VAL, rl_array_of_numbers, (const double* numbers, std::size_t n), {
    var items = new Array(n);
    var first = numbers >> 3;
    for (var i = 0; i < n; ++i) items[i] = HEAPF64[first + i];
    return Emval.toHandle(items);
});

namespace {

using emscripten::val;
using retrylab::Value;

// Node codes of the tape; compute.js writes them.
enum Code { Null = 0, False = 1, True = 2, Number = 3, String = 4, Array = 5, Object = 6, Unsupported = 7, Numbers = 8 };

// Reads the tape compute.js wrote. The tape is ours, not the caller's, but a reader that runs
// off its end still stops cleanly.
class TapeReader {
public:
    TapeReader(const std::vector<double>& tape, const std::string& text) : tape_(tape), text_(text) {}

    bool ok() const { return ok_; }

    Value value() {
        switch (static_cast<int>(next())) {
            case Null: return Value::null();
            case False: return Value::boolean(false);
            case True: return Value::boolean(true);
            case Number: return Value::number(next());
            case String: return Value::string(string());
            case Array: {
                std::size_t n = count();
                Value::Array items;
                items.reserve(n);
                for (std::size_t i = 0; i < n && ok_; ++i) items.push_back(value());
                return Value::array(std::move(items));
            }
            case Object: {
                std::size_t n = count();
                Value::Object members;
                members.reserve(n);
                for (std::size_t i = 0; i < n && ok_; ++i) {
                    std::string key = string();
                    members.push_back({std::move(key), value()});
                }
                return Value::object(std::move(members));
            }
            case Unsupported: return Value::unsupported(string());
            case Numbers: {
                std::size_t n = count();
                Value::Array items;
                items.reserve(n);
                for (std::size_t i = 0; i < n; ++i) items.push_back(Value::number(tape_[at_++]));
                return Value::array(std::move(items));
            }
        }
        ok_ = false;
        return Value::null();
    }

private:
    double next() {
        if (at_ >= tape_.size()) {
            ok_ = false;
            return -1;
        }
        return tape_[at_++];
    }
    // A count is bounded by what is left of the tape, so a bad one cannot reserve gigabytes.
    std::size_t count() {
        double n = next();
        if (!(n >= 0 && n <= static_cast<double>(tape_.size() - at_))) {
            ok_ = false;
            return 0;
        }
        return static_cast<std::size_t>(n);
    }
    std::string string() {
        double n = next();
        if (!(n >= 0 && n <= static_cast<double>(text_.size() - textAt_))) {
            ok_ = false;
            return {};
        }
        auto bytes = static_cast<std::size_t>(n);
        std::string s = text_.substr(textAt_, bytes);
        textAt_ += bytes;
        return s;
    }

    const std::vector<double>& tape_;
    const std::string& text_;
    std::size_t at_ = 0;
    std::size_t textAt_ = 0;
    bool ok_ = true;
};

// A list of numbers (the echoed draws: up to 100,000) crosses into JS in one copy instead of
// one call per item. Returns false, with `numbers` cleared, when an item is not a number.
bool copyNumbers(const Value::Array& items, std::vector<double>& numbers) {
    numbers.clear();
    numbers.reserve(items.size());
    for (const Value& item : items) {
        if (item.kind() != Value::Kind::Number) {
            numbers.clear();
            return false;
        }
        numbers.push_back(item.asNumber());
    }
    return true;
}

// Builds the plain JS value of a result. Member names repeat (every event has tMs, kind,
// attempt, text), so each name crosses into JS once per result, not once per member.
class JsBuilder {
public:
    val toJs(const Value& v) {
        switch (v.kind()) {
            case Value::Kind::Null: return val::null();
            case Value::Kind::Bool: return val(v.asBool());
            case Value::Kind::Number: return val(v.asNumber());
            case Value::Kind::String: return val(v.asString());
            case Value::Kind::Array: {
                const Value::Array& items = v.asArray();
                if (items.size() > 8 && copyNumbers(items, numbers_))
                    return val::take_ownership(rl_array_of_numbers(numbers_.data(), numbers_.size()));
                val out = val::array();
                for (std::size_t i = 0; i < items.size(); ++i) set(out, val(i), toJs(items[i]));
                return out;
            }
            case Value::Kind::Object: {
                val out = val::object();
                for (const Value::Member& m : v.asObject()) set(out, key(m.key), toJs(m.value));
                return out;
            }
            case Value::Kind::Unsupported: break;  // the core never returns one
        }
        return val::null();
    }

private:
    // val::set copies its key and value (two more calls into JS each); this does not.
    static void set(const val& object, const val& key, const val& value) {
        emscripten::internal::_emval_set_property(object.as_handle(), key.as_handle(), value.as_handle());
    }

    const val& key(const std::string& name) {
        auto found = keys_.find(name);
        if (found == keys_.end()) found = keys_.emplace(name, val(name)).first;
        return found->second;
    }

    std::unordered_map<std::string, val> keys_;
    std::vector<double> numbers_;
};

val toJs(const Value& v) { return JsBuilder().toJs(v); }

val failure(const std::string& message) {
    Value error = Value::object();
    error.set("field", Value::string(""));
    error.set("message", Value::string(message));
    Value result = Value::object();
    result.set("ok", Value::boolean(false));
    result.set("errors", Value::array({error}));
    return toJs(result);
}

// Rebuilds the caller's object from the tape (Float64Array) and its text (Uint8Array) that
// compute.js made, and hands it to one of the core's entry points.
template <typename EntryPoint>
val runOnTape(const val& tape, const val& text, EntryPoint entryPoint) {
    std::vector<double> nodes(tape["length"].as<std::size_t>());
    val(emscripten::typed_memory_view(nodes.size(), nodes.data())).call<void>("set", tape);
    std::string bytes(text["length"].as<std::size_t>(), '\0');
    val(emscripten::typed_memory_view(bytes.size(), reinterpret_cast<unsigned char*>(bytes.data())))
        .call<void>("set", text);

#if defined(__cpp_exceptions)
    try {
#endif
        TapeReader reader(nodes, bytes);
        Value inputs = reader.value();
        if (!reader.ok()) return failure("The binding could not read its own copy of the inputs.");
        return toJs(entryPoint(inputs));
#if defined(__cpp_exceptions)
    } catch (const std::exception& e) {
        return failure(std::string("The engine failed: ") + e.what() + ".");
    } catch (...) {
        return failure("The engine failed.");
    }
#endif
}

// Called by compute() and sweep() in compute.js.
val computeTape(const val& tape, const val& text) { return runOnTape(tape, text, retrylab::compute); }
val sweepTape(const val& tape, const val& text) { return runOnTape(tape, text, retrylab::sweep); }

std::string version() { return retrylab::engineVersion(); }

// Bytes the allocator has handed out and not had back: WebAssembly memory only grows, so its
// size cannot show a leak; this can.
double heapInUse() { return static_cast<double>(mallinfo().uordblks); }

}  // namespace

EMSCRIPTEN_BINDINGS(retrylab) {
    emscripten::function("computeTape", &computeTape);
    emscripten::function("sweepTape", &sweepTape);
    emscripten::function("version", &version);
    emscripten::function("heapInUse", &heapInUse);
}
