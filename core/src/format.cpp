#include "format.hpp"

#include <cmath>

namespace retrylab {

std::string formatInt(std::int64_t value) {
    if (value == 0) return "0";
    bool negative = value < 0;
    std::uint64_t magnitude =
        negative ? static_cast<std::uint64_t>(-(value + 1)) + 1 : static_cast<std::uint64_t>(value);
    // Written backwards into a buffer, then one string: at -Oz an insert at the front per digit
    // was a chain of calls (issue 18: a seventh of a 1,000-answer sweep in WebAssembly, the
    // attempts' statuses and the answers' paths).
    char buffer[24];
    char* end = buffer + sizeof buffer;
    char* at = end;
    while (magnitude > 0) {
        *--at = static_cast<char>('0' + magnitude % 10);
        magnitude /= 10;
    }
    if (negative) *--at = '-';
    return std::string(at, end);
}

namespace {

std::string fixed(double value, int decimals, int minDecimals);

// 10^n by repeated multiplication: exact up to 10^22, and the same bits on every platform
// beyond (no C library pow or log10, whose last bit may differ between native and WebAssembly).
double powerOfTen(int n) {
    double p = 1;
    for (int i = 0; i < n; ++i) p *= 10;
    return p;
}

// Huge values (only ever seen in error messages about out-of-range inputs): "1.5e+300".
std::string scientific(double value) {
    const double magnitude = std::fabs(value);
    int exponent = 0;
    double scale = 1;
    while (magnitude / scale >= 10) {
        scale *= 10;
        ++exponent;
    }
    return fixed(value / scale, 3, 0) + "e+" + formatInt(exponent);
}

// value rounded to `decimals` places, then at least `minDecimals` and at most `decimals`
// digits after the point.
std::string fixed(double value, int decimals, int minDecimals) {
    if (!std::isfinite(value)) return value > 0 ? "infinity" : (value < 0 ? "-infinity" : "NaN");
    // Whole numbers print in full while int64 holds them: a bound of 2^53 − 1 must read as one.
    if (minDecimals == 0 && std::fabs(value) < 9.0e18 && std::floor(value) == value)
        return formatInt(static_cast<std::int64_t>(value));
    if (std::fabs(value) >= 1.0e15) return scientific(value);
    double scale = powerOfTen(decimals);
    double scaled = std::round(std::fabs(value) * scale);
    if (scaled >= 9.0e15) return formatInt(static_cast<std::int64_t>(std::round(value)));
    auto units = static_cast<std::int64_t>(scaled);
    auto divisor = static_cast<std::int64_t>(scale);
    std::string whole = formatInt(units / divisor);
    std::string fraction = formatInt(units % divisor);
    while (static_cast<int>(fraction.size()) < decimals) fraction.insert(fraction.begin(), '0');
    while (static_cast<int>(fraction.size()) > minDecimals && !fraction.empty() && fraction.back() == '0')
        fraction.pop_back();
    std::string sign = (value < 0 && units != 0) ? "-" : "";
    return fraction.empty() ? sign + whole : sign + whole + "." + fraction;
}

}  // namespace

std::string formatMs(double value, int maxDecimals) { return fixed(value, maxDecimals, 0); }

std::string formatDraw(double value) { return fixed(value, 6, 2); }

std::string formatSeconds2(double ms) { return fixed(ms / 1000.0, 2, 2); }

}  // namespace retrylab
