#include "http_date.hpp"

#include <array>
#include <tuple>

namespace retrylab {

namespace {

constexpr std::array<std::string_view, 7> kShortDays = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
constexpr std::array<std::string_view, 7> kLongDays = {"Monday", "Tuesday",  "Wednesday", "Thursday",
                                                       "Friday", "Saturday", "Sunday"};
constexpr std::array<std::string_view, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

bool isLeap(std::int64_t year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int daysInMonth(std::int64_t year, int month) {
    static constexpr std::array<int, 12> days = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return month == 2 && isLeap(year) ? 29 : days[static_cast<std::size_t>(month - 1)];
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// A cursor over the text; every reader consumes exactly what the grammar says or fails.
class Reader {
public:
    explicit Reader(std::string_view text) : text_(text) {}
    bool done() const { return pos_ == text_.size(); }

    bool literal(std::string_view expected) {
        if (text_.substr(pos_, expected.size()) != expected) return false;
        pos_ += expected.size();
        return true;
    }

    // Exactly `count` digits.
    bool digits(int count, int& out) {
        if (pos_ + static_cast<std::size_t>(count) > text_.size()) return false;
        int value = 0;
        for (int i = 0; i < count; ++i) {
            char c = text_[pos_ + static_cast<std::size_t>(i)];
            if (!isDigit(c)) return false;
            value = value * 10 + (c - '0');
        }
        pos_ += static_cast<std::size_t>(count);
        out = value;
        return true;
    }

    template <std::size_t N>
    bool oneOf(const std::array<std::string_view, N>& names, int& index) {
        for (std::size_t i = 0; i < N; ++i) {
            if (literal(names[i])) {
                index = static_cast<int>(i);
                return true;
            }
        }
        return false;
    }

    // hour ":" minute ":" second, 00:00:00 to 23:59:60 (a leap second is allowed).
    bool timeOfDay(int& hour, int& minute, int& second) {
        return digits(2, hour) && literal(":") && digits(2, minute) && literal(":") && digits(2, second) &&
               hour <= 23 && minute <= 59 && second <= 60;
    }

private:
    std::string_view text_;
    std::size_t pos_ = 0;
};

struct Civil {
    std::int64_t year = 0;
    int month = 0, day = 0, hour = 0, minute = 0, second = 0;
};

std::optional<std::int64_t> toSeconds(const Civil& c) {
    if (c.month < 1 || c.month > 12 || c.day < 1 || c.day > daysInMonth(c.year, c.month)) return std::nullopt;
    return secondsFromCivil(c.year, c.month, c.day, c.hour, c.minute, c.second);
}

// IMF-fixdate: day-name "," SP date1 SP time-of-day SP GMT, date1 = day SP month SP year (4 digits).
std::optional<Civil> readImfFixdate(std::string_view text) {
    Reader r(text);
    Civil c;
    int weekday = 0, year = 0;
    if (!(r.oneOf(kShortDays, weekday) && r.literal(", ") && r.digits(2, c.day) && r.literal(" ") &&
          r.oneOf(kMonths, c.month) && r.literal(" ") && r.digits(4, year) && r.literal(" ") &&
          r.timeOfDay(c.hour, c.minute, c.second) && r.literal(" GMT") && r.done()))
        return std::nullopt;
    c.month += 1;
    c.year = year;
    return c;
}

// rfc850-date: day-name-l "," SP date2 SP time-of-day SP GMT, date2 = day "-" month "-" 2DIGIT.
std::optional<Civil> readRfc850(std::string_view text, int& twoDigitYear) {
    Reader r(text);
    Civil c;
    int weekday = 0;
    if (!(r.oneOf(kLongDays, weekday) && r.literal(", ") && r.digits(2, c.day) && r.literal("-") &&
          r.oneOf(kMonths, c.month) && r.literal("-") && r.digits(2, twoDigitYear) && r.literal(" ") &&
          r.timeOfDay(c.hour, c.minute, c.second) && r.literal(" GMT") && r.done()))
        return std::nullopt;
    c.month += 1;
    return c;
}

// asctime-date: day-name SP date3 SP time-of-day SP year, date3 = month SP ( 2DIGIT / ( SP DIGIT ) ).
std::optional<Civil> readAsctime(std::string_view text) {
    Reader r(text);
    Civil c;
    int weekday = 0, year = 0;
    if (!(r.oneOf(kShortDays, weekday) && r.literal(" ") && r.oneOf(kMonths, c.month) && r.literal(" ")))
        return std::nullopt;
    if (!(r.literal(" ") ? r.digits(1, c.day) : r.digits(2, c.day))) return std::nullopt;
    if (!(r.literal(" ") && r.timeOfDay(c.hour, c.minute, c.second) && r.literal(" ") && r.digits(4, year) && r.done()))
        return std::nullopt;
    c.month += 1;
    c.year = year;
    return c;
}

Civil civilFromSeconds(std::int64_t seconds) {
    std::int64_t days = seconds >= 0 ? seconds / 86400 : -((-seconds + 86399) / 86400);
    std::int64_t rest = seconds - days * 86400;
    // Howard Hinnant's civil_from_days.
    std::int64_t z = days + 719468;
    std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    std::int64_t doe = z - era * 146097;
    std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    std::int64_t mp = (5 * doy + 2) / 153;
    Civil c;
    c.day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
    c.month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
    c.year = yoe + era * 400 + (c.month <= 2 ? 1 : 0);
    c.hour = static_cast<int>(rest / 3600);
    c.minute = static_cast<int>(rest % 3600 / 60);
    c.second = static_cast<int>(rest % 60);
    return c;
}

std::tuple<std::int64_t, int, int, int, int, int> ordered(const Civil& c) {
    return {c.year, c.month, c.day, c.hour, c.minute, c.second};
}

}  // namespace

std::int64_t secondsFromCivil(std::int64_t year, int month, int day, int hour, int minute, int second) {
    // Howard Hinnant's days_from_civil.
    std::int64_t y = year - (month <= 2 ? 1 : 0);
    std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    std::int64_t yoe = y - era * 400;
    std::int64_t mp = month > 2 ? month - 3 : month + 9;
    std::int64_t doy = (153 * mp + 2) / 5 + day - 1;
    std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    std::int64_t days = era * 146097 + doe - 719468;
    return days * 86400 + hour * 3600 + minute * 60 + second;
}

std::optional<std::int64_t> parseHttpDate(std::string_view text, std::int64_t referenceSeconds) {
    if (auto c = readImfFixdate(text)) return toSeconds(*c);
    if (auto c = readAsctime(text)) return toSeconds(*c);
    int twoDigitYear = 0;
    if (auto c = readRfc850(text, twoDigitYear)) {
        Civil reference = civilFromSeconds(referenceSeconds);
        c->year = reference.year - reference.year % 100 + twoDigitYear;
        Civil fiftyYearsOn = reference;
        fiftyYearsOn.year += 50;
        if (ordered(*c) > ordered(fiftyYearsOn)) c->year -= 100;
        return toSeconds(*c);
    }
    return std::nullopt;
}

RetryAfterValue parseRetryAfter(std::string_view raw, std::int64_t responseDateSeconds) {
    std::size_t begin = raw.find_first_not_of(" \t");
    if (begin == std::string_view::npos) return {};
    std::size_t end = raw.find_last_not_of(" \t");
    std::string_view value = raw.substr(begin, end - begin + 1);

    bool allDigits = true;
    for (char c : value) allDigits = allDigits && isDigit(c);
    if (allDigits) {
        std::int64_t seconds = 0;
        for (char c : value) {
            seconds = seconds * 10 + (c - '0');
            if (seconds > 86400) return {};  // over a day: unusable (and no overflow on long runs)
        }
        return {RetryAfterForm::Seconds, seconds, 0};
    }
    if (auto date = parseHttpDate(value, responseDateSeconds)) return {RetryAfterForm::Date, 0, *date};
    return {};
}

}  // namespace retrylab
