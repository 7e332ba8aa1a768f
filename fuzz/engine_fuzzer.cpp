// libFuzzer target over the native JSON input path: bytes -> retrylab::json::parse (the same
// code retrysim runs) -> retrylab::compute(), retrylab::sweep() and retrylab::fleet() ->
// retrylab::json::dump. Every input goes through all three entry points (most of them answer
// "invalid" at once), so one corpus holds compute inputs, sweep requests and fleet requests,
// and crossover mixes them.
//
// On every result the contract of SPEC §5/§7 and issue 8's invariants are checked; a
// violation aborts with a message, which libFuzzer reports as a crash with the input saved.
// AddressSanitizer and UndefinedBehaviorSanitizer (no recovery) report memory errors, leaks
// and undefined behaviour the same way.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "checks.hpp"
#include "retrylab/engine.hpp"
#include "retrylab/json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    retrylab::json::Parsed parsed = retrylab::json::parse(text);
    if (!parsed.value) {
        retrylab::fuzz::checkParseError(parsed.error);
        return 0;
    }
    retrylab::fuzz::checkCompute(*parsed.value);
    retrylab::fuzz::checkSweep(*parsed.value);
    retrylab::fuzz::checkFleet(*parsed.value);
    return 0;
}
