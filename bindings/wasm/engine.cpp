// The engine for JavaScript: a small C ABI, no embind. compute.js reads the caller's object
// into a tape (numbers) and a text (UTF-8); rl_run() turns them into a retrylab::Value, calls
// retrylab::compute() or retrylab::sweep(), and writes the result back the same way: a tape of
// codes and numbers and one text holding every string (compute() and sweep() write their results
// straight onto the tape, with no Value tree in between). compute.js rebuilds plain JS objects
// and arrays from it, so nothing crosses as a handle and nothing has to be .delete()d.
//
// Without embind the engine file is about 30 KB smaller gzipped (embind's JS runtime and its
// type registry, RTTI and the C++ side of emscripten::val), and a result crosses in one copy
// instead of one JS call per member.
//
//   rl_run(entry, tape, tapeLength, text, textBytes) -> Output*   entry: a name's place in
//                                      entries.hpp's list (compute, sweep, validate, schema, fleet,
//                                      fleetSchema, compareMetrics, markdown, readConfig,
//                                      compareConfigs, configFormats, compareResults), which compute.js reads too
//                                      (tape: a malloc'ed block holding the text too, freed here)
//                                      markdown only in the page's file (core/src/markdown.cpp; the
//                                      fleet file answers an error); fleet and fleetSchema only in the
//                                      fleet engine file, built with RETRYLAB_ENGINE_FLEET (the page's
//                                      file answers an error); readConfig, compareConfigs and
//                                      configFormats only in the config file, retrylab-config.js,
//                                      built with RETRYLAB_ENGINE_CONFIG (config_entry.hpp), which
//                                      answers an error for every other entry; compareResults only in the fleet
//                                      file (compare_metrics.hpp; the page's file answers an error)
//   rl_free_result(output)
//   rl_version() -> const char*        rl_heap_in_use() -> bytes malloc'ed now
//   rl_heap_top() -> the heap's highest point so far
//
// Tape grammar, both ways (every entry a double):
//   null: 0 | false: 1 | true: 2 | number: 3 x | string: 4 length | list: 5 n item*n
//   object: 6 n (key value)*n | unsupported: 7 length (inputs only) | numbers: 8 n x*n
// where an input's key is its length; a result's key is its length, or -(k + 1) for key number
// k of the instance's key table (KeyTable below), followed by its length when k is new.
// Inputs give a string's length in UTF-8 bytes. A result gives it in UTF-16 code units when
// its whole text is valid UTF-8 (always, in practice: the strings come from the core and from
// TextEncoder), so JS decodes the text once and slices it; otherwise in bytes, and JS decodes
// each string on its own. Output::header says which.
#include <malloc.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <emscripten/emscripten.h>

#include "retrylab/engine.hpp"
#include "retrylab/write_result.hpp"
#include "retrylab/markdown.hpp"
#include "entries.hpp"
#ifdef RETRYLAB_ENGINE_FLEET
#include "retrylab/fleet.hpp"
#endif
#ifdef RETRYLAB_ENGINE_CONFIG
#include "config_entry.hpp"
#endif

namespace {

using retrylab::Value;
using retrylab::wasm::Entry;

enum Code {
    Null = 0,
    False = 1,
    True = 2,
    Number = 3,
    String = 4,
    Array = 5,
    Object = 6,
    Unsupported = 7,
    Numbers = 8
};

// Reads the tape compute.js wrote. The tape is ours, not the caller's, but a reader that runs
// off its end still stops cleanly.
class TapeReader {
public:
    TapeReader(const double* tape, std::size_t tapeLength, const char* text, std::size_t textBytes)
        : tape_(tape), tapeLength_(tapeLength), text_(text), textBytes_(textBytes) {}

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
            case Numbers: {  // one block, one copy (Value::numbers(): the draws, up to 100,000)
                std::size_t n = count();
                std::vector<double> items(tape_ + at_, tape_ + at_ + n);
                at_ += n;
                return Value::numbers(std::move(items));
            }
        }
        ok_ = false;
        return Value::null();
    }

private:
    double next() {
        if (at_ >= tapeLength_) {
            ok_ = false;
            return -1;
        }
        return tape_[at_++];
    }
    // A count is bounded by what is left of the tape, so a bad one cannot reserve gigabytes.
    std::size_t count() {
        double n = next();
        if (!(n >= 0 && n <= static_cast<double>(tapeLength_ - at_))) {
            ok_ = false;
            return 0;
        }
        return static_cast<std::size_t>(n);
    }
    std::string string() {
        double n = next();
        if (!(n >= 0 && n <= static_cast<double>(textBytes_ - textAt_))) {
            ok_ = false;
            return {};
        }
        auto bytes = static_cast<std::size_t>(n);
        std::string s(text_ + textAt_, bytes);
        textAt_ += bytes;
        return s;
    }

    const double* tape_;
    std::size_t tapeLength_;
    const char* text_;
    std::size_t textBytes_;
    std::size_t at_ = 0;
    std::size_t textAt_ = 0;
    bool ok_ = true;
};

// The UTF-16 length of s, or -1 when s is not valid UTF-8 (then TextDecoder would put U+FFFD
// in, and the length would depend on its neighbours).
long utf16Length(std::string_view s) {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const std::size_t n = s.size();
    long units = 0;
    for (std::size_t i = 0; i < n;) {
        const unsigned c = p[i];
        if (c < 0x80) {
            ++units;
            ++i;
            continue;
        }
        std::size_t length = 0;
        unsigned low = 0x80, high = 0xBF;  // the second byte's range (RFC 3629's table)
        if (c >= 0xC2 && c <= 0xDF) {
            length = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            length = 3;
            if (c == 0xE0) low = 0xA0;
            if (c == 0xED) high = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            length = 4;
            if (c == 0xF0) low = 0x90;
            if (c == 0xF4) high = 0x8F;
        } else {
            return -1;
        }
        if (n - i < length || p[i + 1] < low || p[i + 1] > high) return -1;
        for (std::size_t k = 2; k < length; ++k)
            if ((p[i + k] & 0xC0) != 0x80) return -1;
        units += length == 4 ? 2 : 1;
        i += length;
    }
    return units;
}

// A growable array of plain values (the result's tape, its text, the writer's own lists): at
// -Oz em++ inlines none of std::vector's push_back, which made every entry of a result a chain
// of calls (issue 18: a third of writing the tape); push() here is one compare and a store.
template <class T>
class Buffer {
public:
    Buffer() = default;
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    ~Buffer() { free(data_); }

    __attribute__((always_inline)) void push(T x) {
        if (size_ == capacity_) grow(1);
        data_[size_++] = x;
    }
    void append(const T* p, std::size_t n) {
        if (capacity_ - size_ < n) grow(n);
        if (n) memcpy(data_ + size_, p, n * sizeof(T));
        size_ += n;
    }
    T& operator[](std::size_t i) { return data_[i]; }
    T& back() { return data_[size_ - 1]; }
    void pop() { --size_; }
    bool empty() const { return size_ == 0; }
    std::size_t size() const { return size_; }
    const T* data() const { return data_; }

private:
    __attribute__((noinline)) void grow(std::size_t n) {
        std::size_t wanted = capacity_ * 2;
        if (wanted < size_ + n) wanted = size_ + n;
        if (wanted < kFirst) wanted = kFirst;
        T* bigger = static_cast<T*>(realloc(data_, wanted * sizeof(T)));
        if (!bigger) abort();  // past the memory ceiling (loader.js): the binding replaces the instance
        data_ = bigger;
        capacity_ = wanted;
    }

    // The first block: 4 KB, about what compute({}) writes to each of its tape and its text,
    // so that a small result grows each buffer once or not at all (from 256 items the text grew
    // 4-5 times a call; grow() and realloc() were 3-4% of compute({}) under the profiler, and this
    // took 1-3% off it, issue 18 session 5).
    static constexpr std::size_t kFirst = 4096 / sizeof(T) < 256 ? 256 : 4096 / sizeof(T);

    T* data_ = nullptr;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;
};

// The result's keys, numbered (issue 18, session 5): a result has the same few dozen keys call
// after call ("tMs", "kind", the inputs' names...), and compute.js decoded each from the text
// and added it to its object as a new string, 60-90 keys a compute({}). The instance numbers
// each key the first time it writes it and compute.js keeps the same numbering (its `keys`, one
// list per instance), so a key it has seen crosses as its number alone. The two lists grow in
// step: a key the table does not know yet is added at the next number, written as that number
// followed by its text, and compute.js adds it at the same place; a key that does not fit (past
// kMaxKeys keys, longer than kMaxBytes, not valid UTF-8) crosses as text, as before. Only the
// binding keeps this table (the core has no state between calls); it lives as long as the
// instance, which compute.js drops with its list (an interrupted call, a grown memory).
class KeyTable {
public:
    static constexpr std::size_t kMaxKeys = 1024;
    static constexpr std::size_t kMaxBytes = 64;

    // The key's number, or -1 when it is not in the table; `added`: it was put in just now.
    // `length` is the key's UTF-16 length (utf16Length), asked for only when the key is new: a
    // key found crosses as its number alone, so most keys of a result are never scanned twice.
    template <class Length>
    int number(std::string_view k, Length length, bool& added) {
        added = false;
        if (k.size() > kMaxBytes) return -1;
        std::uint32_t h = 2166136261u;  // FNV-1a
        for (char c : k) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
        for (std::size_t slot = h & (kSlots - 1);; slot = (slot + 1) & (kSlots - 1)) {
            const std::uint16_t at = slots_[slot];
            if (at == 0) {
                if (count_ == kMaxKeys || length() < 0) return -1;
                slots_[slot] = static_cast<std::uint16_t>(count_ + 1);
                lengths_[count_] = static_cast<std::uint8_t>(k.size());
                if (!k.empty()) memcpy(pool_ + count_ * kMaxBytes, k.data(), k.size());
                added = true;
                return static_cast<int>(count_++);
            }
            const std::size_t i = at - 1;
            if (lengths_[i] == k.size() && memcmp(pool_ + i * kMaxBytes, k.data(), k.size()) == 0)
                return static_cast<int>(i);
        }
    }

private:
    static constexpr std::size_t kSlots = 4 * kMaxKeys;  // never more than a quarter full
    std::uint16_t slots_[kSlots] = {};                   // a key's number + 1, or 0 for an empty slot
    std::uint8_t lengths_[kMaxKeys] = {};
    char pool_[kMaxKeys * kMaxBytes] = {};
    std::size_t count_ = 0;
};

KeyTable keyTable;

// Writes a result as a tape and a text, as the core makes it (retrylab/write_result.hpp):
// compute() writes its run straight here, with no Value tree in between (issue 18). A list's or
// an object's count is written as 0 when it opens and filled in when it closes.
class TapeWriter {
public:
    void null() { item(Null); }
    void boolean(bool b) { item(b ? True : False); }
    void number(double x) {
        item(Number);
        tape_.push(x);
    }
    void string(std::string_view s) {
        item(String);
        put(s);
    }
    void beginArray() { open(Array); }
    void beginObject() { open(Object); }
    void endArray() { close(); }
    void endObject() { close(); }
    // A key: -(n + 1) for the key table's number n, followed by the key's text when the table
    // has just added it; a key the table does not hold is its text, as a string is.
    void key(std::string_view k) {
        ++open_.back().count;
        bool added;
        long length = -2;  // not measured yet
        auto measured = [&] {
            if (length == -2) length = utf16Length(k);
            return length;
        };
        const int n = keyTable.number(k, measured, added);
        if (n < 0) {
            put(k, measured());
            return;
        }
        tape_.push(-1.0 - n);
        if (added) put(k, length);
    }
    // A whole Value (the echo, sweep(), schema()...): a list of numbers only (the echoed draws:
    // up to 100,000) is one block.
    void value(const Value& v) {
        if (v.kind() != Value::Kind::Array) {
            retrylab::writeValue(*this, v);
            return;
        }
        if (v.isNumberList()) {
            item(Numbers);
            tape_.push(static_cast<double>(v.listSize()));
            tape_.append(v.asNumbers().data(), v.listSize());
            return;
        }
        const Value::Array& items = v.asArray();
        bool numbers = items.size() > 8;
        for (std::size_t i = 0; numbers && i < items.size(); ++i) numbers = items[i].kind() == Value::Kind::Number;
        if (!numbers) {
            retrylab::writeValue(*this, v);
            return;
        }
        item(Numbers);
        tape_.push(static_cast<double>(items.size()));
        for (const Value& x : items) tape_.push(x.asNumber());
    }

    // header = [tape address, tape length, text address, text bytes, 1 when lengths are UTF-16
    // units]: when a string was not valid UTF-8, every length becomes its bytes.
    void finish(std::uint32_t* header) {
        if (!valid_)
            for (std::size_t i = 0; i < stringAt_.size(); ++i) tape_[stringAt_[i]] = bytes_[i];
        header[0] = address(tape_.data());
        header[1] = static_cast<std::uint32_t>(tape_.size());
        header[2] = address(text_.data());
        header[3] = static_cast<std::uint32_t>(text_.size());
        header[4] = valid_ ? 1 : 0;
    }

private:
    struct Open {
        std::size_t countAt;  // where its count is on the tape
        std::size_t count;
        bool list;
    };

    static std::uint32_t address(const void* p) {
        return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(p));
    }
    // A value where a list or an object expects its next item: a list counts its items, an
    // object its keys (key() above).
    void item(Code code) {
        if (!open_.empty() && open_.back().list) ++open_.back().count;
        tape_.push(code);
    }
    void open(Code code) {
        item(code);
        open_.push(Open{tape_.size(), 0, code == Array});
        tape_.push(0);
    }
    void close() {
        tape_[open_.back().countAt] = static_cast<double>(open_.back().count);
        open_.pop();
    }
    void put(std::string_view s) { put(s, utf16Length(s)); }
    void put(std::string_view s, long length) {
        if (length < 0) {
            valid_ = false;
            length = 0;
        }
        stringAt_.push(tape_.size());
        bytes_.push(static_cast<double>(s.size()));
        tape_.push(static_cast<double>(length));
        text_.append(s.data(), s.size());
    }

    Buffer<double> tape_;
    Buffer<char> text_;
    Buffer<Open> open_;
    Buffer<std::size_t> stringAt_;  // where each string's length is on the tape
    Buffer<double> bytes_;          // and its length in bytes
    bool valid_ = true;             // every string was valid UTF-8
};

// A result as compute.js finds it (TapeWriter::finish). rl_free_result() deletes it.
struct Output {
    std::uint32_t header[5] = {};
    TapeWriter writer;
};

Output* output(const Value& result) {
    auto* out = new Output();
    out->writer.value(result);
    out->writer.finish(out->header);
    return out;
}

Value failure(const char* message) {
    Value error = Value::object();
    error.set("field", Value::string(""));
    error.set("code", Value::string("unreadable"));
    error.set("message", Value::string(message));
    error.set("detail", Value::string(message));
    Value result = Value::object();
    result.set("ok", Value::boolean(false));
    result.set("errors", Value::array({error}));
    return result;
}

#ifdef RETRYLAB_TEST_HOOKS
// Test builds only (retrylab-engine-test-hooks.js, CMakeLists.txt here; never the page's engine
// file): inputs holding a member "__trap" interrupt the call inside WebAssembly on purpose, with
// the call's heap held and the C stack pointer moved, the way a real trap or a stack overflow
// would leave them. The binding must recover (tests/node/engine-file.test.js).
volatile int testDepth = 0;

int recurseForever(int n) {
    volatile char frame[256];  // on the C stack (the module's stack in linear memory)
    frame[n & 255] = static_cast<char>(n);
    return recurseForever(n + 1) + frame[(n + 7) & 255];
}

void testTrap(const Value& inputs) {
    const Value* trap = inputs.kind() == Value::Kind::Object ? inputs.find("__trap") : nullptr;
    if (!trap || trap->kind() != Value::Kind::String) return;
    volatile char onStack[4096];  // moves the C stack pointer down by this much
    onStack[0] = 1;
    auto* held = new std::vector<double>(1 << 16, 1.0);  // 512 KB of heap the call holds
    const std::string& how = trap->asString();
    if (how == "unreachable") __builtin_trap();
    if (how == "memory") testDepth = *reinterpret_cast<volatile int*>(static_cast<std::uintptr_t>(0xFFFFFFF0u));
    if (how == "stack") testDepth = recurseForever(onStack[0]);
    if (how == "abort") abort();
    if (how == "grow") {  // more than the memory ceiling (loader.js): malloc fails, then the call aborts
        static void* volatile big = nullptr;  // volatile: the allocation is not elided
        big = malloc(std::size_t{320} << 20);
        if (!big) abort();
        free(big);
    }
    testDepth += static_cast<int>((*held)[0]) + onStack[0];
    delete held;
}
#endif

}  // namespace

extern "C" {

// Runs the entry point `entry` names (its place in entries.hpp's list) on the inputs compute.js
// wrote. The tape and the text are one block that compute.js malloc'ed, the tape at its start;
// rl_run() frees it once it has read it (issue 18, session 5: one call into the module fewer each
// way per compute()).
EMSCRIPTEN_KEEPALIVE Output* rl_run(int entry, double* tape, std::size_t tapeLength, const char* text,
                                    std::size_t textBytes) {
    TapeReader reader(tape, tapeLength, text, textBytes);
    Value inputs = reader.value();
    free(tape);
    if (!reader.ok()) return output(failure("The binding could not read its own copy of the inputs."));
    const auto named = static_cast<Entry>(entry);
#ifdef RETRYLAB_TEST_HOOKS
    testTrap(named == Entry::sweep && inputs.find("inputs") ? *inputs.find("inputs") : inputs);
#endif
#ifdef RETRYLAB_ENGINE_CONFIG
    // The config file (retrylab-config.js): the readers only; the page's engine computes the run.
    if (named == Entry::readConfig) return output(configentry::readConfig(inputs));
    if (named == Entry::compareConfigs) return output(configentry::compareConfigs(inputs));
    if (named == Entry::configFormats) return output(configentry::configFormats());
    return output(
        failure("This is the config file, retrylab-config.js: it has readConfig(), compareConfigs() and "
                "configFormats() only."));
#else
    switch (named) {
        case Entry::readConfig:
        case Entry::compareConfigs:
        case Entry::configFormats:
            // The readers of docs/config-in.md (libyaml, nlohmann's parser, six formats) are their own
            // file, loaded when a reader pastes a config: the page's engine stays within its budget.
            return output(failure("This engine file has no config readers: load retrylab-config.js, the config file."));
        case Entry::sweep: {
            // Straight onto the tape, as compute() below: no tree of the points in between.
            auto* out = new Output();
            retrylab::sweepTo(out->writer, inputs);
            out->writer.finish(out->header);
            return out;
        }
        case Entry::validate: return output(retrylab::validate(inputs));
        case Entry::schema: return output(retrylab::schema());
        case Entry::compareMetrics:
            return output(retrylab::compareMetrics());  // the metrics a comparison lists (issue 17)
        case Entry::compareResults:  // compareResults(): two results compared (docs/compare.md §2, §7)
#ifdef RETRYLAB_ENGINE_FLEET
            return output(retrylab::compareResults(inputs));
#else
                                     // The page compares by the table in its compare bundle (docs/compare.md §7: 2.4 KB
            // gzipped here for every reader, against 1.4 KB there for compare mode's).
            return output(failure(
                "This engine file has no compareResults(): load retrylab-fleet.js, the engine file with the fleet."));
#endif
        case Entry::markdown:  // markdown(words): the one Markdown writer (issue 30, docs/compare.md §5)
#ifdef RETRYLAB_ENGINE_FLEET
                               // The page's engine file writes the page's Markdown (4.2 KB gzipped): the fleet
            // file, loaded beside it, does not carry a second copy.
            return output(
                failure("This engine file has no markdown(): the page's engine file, retrylab-engine.js, has it."));
#else
            return output(retrylab::markdown::comparison(inputs));
#endif
        case Entry::fleet:
#ifdef RETRYLAB_ENGINE_FLEET
            return output(retrylab::fleet(inputs));
#else
            // The page's engine file stays within its size budget without the fleet (BENCHMARKS.md):
            // the fleet engine file, retrylab-fleet.js, has it.
            return output(
                failure("This engine file has no fleet(): load retrylab-fleet.js, the engine file with the fleet."));
#endif
        case Entry::fleetSchema:
#ifdef RETRYLAB_ENGINE_FLEET
            return output(retrylab::fleetSchema());
#else
            return output(failure(
                "This engine file has no fleetSchema(): load retrylab-fleet.js, the engine file with the fleet."));
#endif
        case Entry::compute:
        case Entry::count: break;
    }
    // compute(), and an entry number outside the list (compute.js sends none): straight onto
    // the tape, no Value tree of the result in between.
    auto* out = new Output();
    retrylab::computeTo(out->writer, inputs);
    out->writer.finish(out->header);
    return out;
#endif
}

EMSCRIPTEN_KEEPALIVE void rl_free_result(Output* out) { delete out; }

EMSCRIPTEN_KEEPALIVE const char* rl_version() { return retrylab::engineVersion(); }

// Bytes the allocator has handed out and not had back: WebAssembly memory only grows, so its
// size cannot show a leak; this can.
EMSCRIPTEN_KEEPALIVE double rl_heap_in_use() { return static_cast<double>(mallinfo().uordblks); }

// The top of the heap (sbrk(0)). The allocator takes memory from it and never gives any back,
// so on a fresh engine its rise over a call is the most that call held at once (scripts/bench).
EMSCRIPTEN_KEEPALIVE double rl_heap_top() { return static_cast<double>(reinterpret_cast<std::uintptr_t>(sbrk(0))); }

}  // extern "C"
