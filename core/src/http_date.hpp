// HTTP-dates (RFC 9110 §5.6.7) and Retry-After values (RFC 9110 §10.2.3).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace retrylab {

// Seconds since 1970-01-01T00:00:00Z for a proleptic Gregorian civil time.
std::int64_t secondsFromCivil(std::int64_t year, int month, int day, int hour, int minute, int second);

// Any of the three forms a recipient must accept: IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"),
// rfc850-date ("Sunday, 06-Nov-94 08:49:37 GMT") and asctime-date ("Sun Nov  6 08:49:37 1994").
// The weekday is not checked against the date. An rfc850 two-digit year is read by RFC 9110's
// rule: a year that appears more than 50 years after `referenceSeconds` is the most recent
// past year with the same last two digits. Returns seconds since 1970, or nothing.
std::optional<std::int64_t> parseHttpDate(std::string_view text, std::int64_t referenceSeconds);

enum class RetryAfterForm { Seconds, Date, Unusable };

struct RetryAfterValue {
    RetryAfterForm form = RetryAfterForm::Unusable;
    std::int64_t seconds = 0;      // delta-seconds (Seconds)
    std::int64_t dateSeconds = 0;  // the date, seconds since 1970 (Date)
};

// The header's raw value, trimmed of spaces and tabs: delta-seconds (digits only, at most
// 86400) or an HTTP-date read against the response's own Date.
RetryAfterValue parseRetryAfter(std::string_view raw, std::int64_t responseDateSeconds);

}  // namespace retrylab
