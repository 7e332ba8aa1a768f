#include "random.hpp"

namespace retrylab {

namespace {
constexpr std::uint64_t kMultiplier = 6364136223846793005ULL;
constexpr std::uint64_t kSequence = 54;
}  // namespace

Pcg32::Pcg32(std::uint64_t initState, std::uint64_t initSequence) : state_(0), increment_((initSequence << 1u) | 1u) {
    next();
    state_ += initState;
    next();
}

std::uint32_t Pcg32::next() {
    std::uint64_t old = state_;
    state_ = old * kMultiplier + increment_;
    auto xorshifted = static_cast<std::uint32_t>(((old >> 18u) ^ old) >> 27u);
    auto rot = static_cast<std::uint32_t>(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
}

double Pcg32::nextUnit() {
    std::uint64_t high = next() >> 5;  // 27 bits
    std::uint64_t low = next() >> 6;   // 26 bits
    return static_cast<double>((high << 26) | low) * (1.0 / 9007199254740992.0);
}

DrawStream::DrawStream(const std::vector<double>& draws, std::uint64_t seed)
    : draws_(draws), generator_(seed, kSequence) {}

double DrawStream::next() {
    if (used_ < draws_.size()) return draws_[used_++];
    return generator_.nextUnit();
}

}  // namespace retrylab
