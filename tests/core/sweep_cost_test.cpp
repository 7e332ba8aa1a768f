// What a sweep costs in memory, counted (issue 18: "no per-point copy"). Every allocation this
// test binary makes through operator new is counted while a test asks for it, so a sweep that
// copied its inputs per point (100,000 draws are 100,000 Values) or once more than it needs
// fails here, whatever the machine's speed: no clock is read.
#include <cstddef>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "support.hpp"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RETRYLAB_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define RETRYLAB_SANITIZED 1
#endif

#ifndef RETRYLAB_SANITIZED
namespace {
// The test binary's own counters (not the core's: the core has no globals).
bool counting = false;
std::size_t countedBytes = 0;
}  // namespace

// Replaces the program's operator new and delete (the sanitizers' builds keep theirs, which
// check every allocation; this test then says it counted nothing).
void* operator new(std::size_t bytes) {
    if (counting) countedBytes += bytes;
    if (void* p = std::malloc(bytes ? bytes : 1)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t bytes) { return operator new(bytes); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
#endif

using namespace retrylab;
using namespace retrylab::test;

#ifndef RETRYLAB_SANITIZED
namespace {

constexpr std::size_t kDraws = 100000;
constexpr std::size_t kAnswers = 1000;

// The bytes `f` allocates, freed or not. The input table is built first: it is made once, on
// the engine's first call (a static of inputFields()), and would count in the first call measured.
template <typename F>
std::size_t allocated(F f) {
    inputFields();
    countedBytes = 0;
    counting = true;
    f();
    counting = false;
    return countedBytes;
}

// The opening run with 100,000 draws (unused: no jitter, so every point runs as without them);
// a script of 1,000 answers, or of its first 4 ("script-4": every run has at most 4 attempts, so
// both scripts give the same runs); or neither.
Value inputsWith(const std::string& what) {
    Value in = Value::object();
    if (what == "draws") {
        Value::Array draws;
        draws.reserve(kDraws);
        for (std::size_t i = 0; i < kDraws; ++i) draws.push_back(num(static_cast<double>(i % 1000) / 1000));
        in.set("draws", Value::array(std::move(draws)));
    } else if (what == "script" || what == "script-4") {
        Value::Array script;
        for (std::size_t i = 0; i < (what == "script" ? kAnswers : 4); ++i)
            script.push_back(i % 2 ? obj({{"status", num(429)}, {"retryAfter", str("1")}})
                                   : obj({{"status", num(503)}}));
        in.set("scenario", str("script"));
        in.set("script", Value::array(std::move(script)));
    }
    return in;
}

Value sweepRequest(const Value& inputs, double points) {
    return obj({{"inputs", inputs},
                {"vary", str("deadlineMs")},
                {"from", num(0)},
                {"to", num(20000)},
                {"points", num(points)}});
}

}  // namespace
#endif

TEST_CASE("a sweep's points cost the same whatever the draws and the script", "[sweep][cost]") {
#ifdef RETRYLAB_SANITIZED
    WARN(
        "allocations are not counted in a sanitized build (its allocator checks them); the native and wasm runs count "
        "them");
    return;
#else
    const std::string what = GENERATE(std::string("draws"), std::string("script"));
    const Value big = inputsWith(what);
    const Value small = inputsWith(what == "script" ? "script-4" : "");
    const Value bigMany = sweepRequest(big, 1000), bigFew = sweepRequest(big, 2);
    const Value smallMany = sweepRequest(small, 1000), smallFew = sweepRequest(small, 2);

    // What 998 more points cost over the big inputs and over the opening run's own: a copy of
    // the inputs per point would add at least 998 copies of 100,000 draws (or of 1,000 answers).
    const std::size_t pointsOverBig = allocated([&] { sweep(bigMany); }) - allocated([&] { sweep(bigFew); });
    const std::size_t pointsOverSmall = allocated([&] { sweep(smallMany); }) - allocated([&] { sweep(smallFew); });
    INFO(what << ": 998 more points allocate " << pointsOverBig << " bytes over the big inputs, " << pointsOverSmall
              << " over the small ones");
    REQUIRE(pointsOverSmall > 0);  // the counter counts
    // The big and the small inputs give the very same runs (the draws unused, the answers past
    // the fourth never reached), so their points cost exactly the same.
    CHECK(pointsOverBig == pointsOverSmall);
#endif
}

TEST_CASE("a sweep reads and echoes its inputs once, as one compute() of them does", "[sweep][cost]") {
#ifdef RETRYLAB_SANITIZED
    WARN(
        "allocations are not counted in a sanitized build (its allocator checks them); the native and wasm runs count "
        "them");
    return;
#else
    const std::string what = GENERATE(std::string("draws"), std::string("script"));
    const Value big = inputsWith(what);
    const Value small = inputsWith(what == "script" ? "script-4" : "");
    const Value bigSweep = sweepRequest(big, 2), smallSweep = sweepRequest(small, 2);

    // What the big inputs add to a 2-point sweep, and to compute(): both validate them, echo them
    // and read them into Inputs once. A copy of them (the request's `inputs` taken by value) adds
    // a whole copy, 100,000 Values or 1,000 answers.
    const std::size_t inSweep = allocated([&] { sweep(bigSweep); }) - allocated([&] { sweep(smallSweep); });
    const std::size_t inCompute = allocated([&] { compute(big); }) - allocated([&] { compute(small); });
    INFO(what << ": the inputs add " << inSweep << " bytes to a sweep, " << inCompute << " to compute()");
    REQUIRE(inCompute > 0);
    const std::size_t oneCopy =
        what == "draws" ? kDraws * sizeof(Value) : (kAnswers - 4) * (sizeof(Value) + sizeof(Value::Member));
    CHECK(inSweep < inCompute + oneCopy / 2);
#endif
}

TEST_CASE("draws held as one block are checked, read and echoed without a Value per draw",
          "[sweep][cost][number-list]") {
#ifdef RETRYLAB_SANITIZED
    WARN(
        "allocations are not counted in a sanitized build (its allocator checks them); the native and wasm runs count "
        "them");
    return;
#else
    // As the bindings read them: 100,000 draws as one block of numbers (Value::numbers()).
    Value block = Value::object();
    block.set("draws", Value::numbers(std::vector<double>(kDraws, 0.5)));
    const Value none = inputsWith("");

    // What the draws add to compute() (its checked copy, the Inputs' vector, the result's echo)
    // and to a 2-point sweep: a few copies of 800 KB of numbers. A Value per draw (the validator
    // making one for each item it checks) would add 100,000 Values at least.
    const std::size_t inCompute = allocated([&] { compute(block); }) - allocated([&] { compute(none); });
    const Value blockSweep = sweepRequest(block, 2), noneSweep = sweepRequest(none, 2);
    const std::size_t inSweep = allocated([&] { sweep(blockSweep); }) - allocated([&] { sweep(noneSweep); });
    INFO("100,000 draws as one block add " << inCompute << " bytes to compute(), " << inSweep << " to a sweep; "
                                           << kDraws * sizeof(Value) << " would be a Value per draw");
    REQUIRE(inCompute >= kDraws * sizeof(double));  // the counter counts: the echo holds them
    CHECK(inCompute < kDraws * sizeof(Value));
    CHECK(inSweep < kDraws * sizeof(Value));
#endif
}
