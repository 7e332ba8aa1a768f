// .NET's TimeSpan.Parse with the invariant culture (docs/config-in.md §2.2 `timespan`), as the
// configuration binder converts a string to a TimeSpan: the shapes of TimeSpanParse.cs's header
// comment, each number's bound, the fraction normalised to 7 digits (ticks of 100 ns).
#include <string>
#include <vector>

#include "config_read.hpp"

namespace retrylab::config::detail {
namespace {

constexpr std::int64_t kMaxNumber = 268435455;  // 0xFFFFFFF: a larger number is refused
constexpr std::int64_t kTicksPerSecond = 10000000;

struct Token {
    std::int64_t value = 0;
    int zeroes = 0;  // leading zeros (for the fraction)
    int digits = 0;  // digits after them
};

// The fraction's ticks (NormalizeAndValidateFraction): up to 7 digits scaled up, more digits
// only after leading zeros, rounded half away from zero to 7.
bool fractionTicks(const Token& t, std::int64_t& ticks) {
    if (t.zeroes == 0 && t.value > 9999999) return false;
    int total = t.zeroes + t.digits;
    if (t.value == 0) {
        ticks = 0;
        return true;
    }
    if (total <= 7) {
        ticks = t.value;
        for (int k = total; k < 7; ++k) ticks *= 10;
        return true;
    }
    int k = total - 7;  // digits to drop
    if (k > t.digits) {
        ticks = 0;
        return true;
    }
    std::int64_t scale = 1;
    for (int i = 0; i < k; ++i) scale *= 10;
    ticks = t.value / scale + (2 * (t.value % scale) >= scale ? 1 : 0);
    return true;
}

}  // namespace

bool parseTimespan(const std::string& text, std::int64_t& ticks) {
    const std::string space = " \t\n\r\f\v";
    std::size_t a = text.find_first_not_of(space);
    if (a == std::string::npos) return false;
    std::string s = text.substr(a, text.find_last_not_of(space) - a + 1);
    bool negative = false;
    std::size_t i = 0;
    if (s[0] == '-') negative = true, ++i;
    std::vector<Token> numbers;
    std::string shape;  // "n" per number, the separators between
    while (i < s.size()) {
        if (s[i] >= '0' && s[i] <= '9') {
            Token t;
            while (i < s.size() && s[i] == '0') ++t.zeroes, ++i;
            while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
                if (t.value > kMaxNumber) return false;
                t.value = t.value * 10 + (s[i] - '0');
                ++t.digits, ++i;
            }
            if (t.value > kMaxNumber) return false;
            numbers.push_back(t);
            shape += 'n';
        } else if (s[i] == ':' || s[i] == '.') {
            shape += s[i++];
        } else {
            return false;
        }
    }
    // The shapes (d days, h hours, m minutes, s seconds, f a fraction of a second).
    std::int64_t d = 0, h = 0, m = 0, sec = 0, f = 0;
    const Token* frac = nullptr;
    auto v = [&](std::size_t k) { return numbers[k].value; };
    if (shape == "n")
        d = v(0);
    else if (shape == "n:n")
        h = v(0), m = v(1);
    else if (shape == "n:n:n")
        h = v(0), m = v(1), sec = v(2);
    else if (shape == "n.n:n")
        d = v(0), h = v(1), m = v(2);
    else if (shape == "n:n:.n")
        h = v(0), m = v(1), frac = &numbers[2];
    else if (shape == "n:n:n.n")
        h = v(0), m = v(1), sec = v(2), frac = &numbers[3];
    else if (shape == "n.n:n:n")
        d = v(0), h = v(1), m = v(2), sec = v(3);
    else if (shape == "n.n:n:.n")
        d = v(0), h = v(1), m = v(2), frac = &numbers[3];
    else if (shape == "n.n:n:n.n")
        d = v(0), h = v(1), m = v(2), sec = v(3), frac = &numbers[4];
    else
        return false;
    if (d > 10675199 || h > 23 || m > 59 || sec > 59) return false;
    if (frac && !fractionTicks(*frac, f)) return false;
    // TimeSpan.MaxValue is 2^63 − 1 ticks (10675199.02:48:05.4775807): beyond it, refused.
    std::int64_t seconds = ((d * 24 + h) * 60 + m) * 60 + sec;
    if (seconds > 922337203685LL || (seconds == 922337203685LL && f > 4775807)) return false;
    ticks = seconds * kTicksPerSecond + f;
    if (negative) ticks = -ticks;
    return true;
}

}  // namespace retrylab::config::detail
