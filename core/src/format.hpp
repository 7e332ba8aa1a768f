// Numbers in the run's sentences. Hand-rolled instead of printf so the engine file stays small
// and the text is the same on every platform.
#pragma once

#include <cstdint>
#include <string>

// A function off the hot path (an error's words, the input table's construction, schema()), in
// a file the WebAssembly build optimises for speed (bindings/wasm/CMakeLists.txt): kept as small
// as at -Oz, and not inlined into the hot code around it. Natively nothing changes.
#if defined(__EMSCRIPTEN__)
#define RETRYLAB_COLD __attribute__((minsize, noinline, cold))
#else
#define RETRYLAB_COLD
#endif

namespace retrylab {

// 3700 -> "3700", 1234.5 -> "1234.5", 0.1 + 0.2 -> "0.3": at most `maxDecimals` decimals,
// trailing zeros dropped.
std::string formatMs(double value, int maxDecimals = 3);
// A draw with at least two decimals, as the seed writes them: 0.4 -> "0.40", 0.125 -> "0.125".
std::string formatDraw(double value);
// Seconds with two decimals: 3900 ms -> "3.90".
std::string formatSeconds2(double ms);
std::string formatInt(std::int64_t value);

}  // namespace retrylab
