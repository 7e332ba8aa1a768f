// RFC 9110 §5.6.7 HTTP-dates and §10.2.3 Retry-After, on fixed and generated dates.
#include <catch2/catch.hpp>

#include "random.hpp"

#include "../../core/src/http_date.hpp"
#include "support.hpp"

using namespace retrylab;

namespace {
const std::int64_t kReference = 1795946400;  // Sun, 29 Nov 2026 10:00:00 GMT
}

TEST_CASE("the three forms of RFC 9110's own example are the same instant", "[http-date]") {
    // RFC 9110 §5.6.7: Sun, 06 Nov 1994 08:49:37 GMT is 784111777 seconds after 1970.
    CHECK(parseHttpDate("Sun, 06 Nov 1994 08:49:37 GMT", kReference) == 784111777);
    CHECK(parseHttpDate("Sunday, 06-Nov-94 08:49:37 GMT", kReference) == 784111777);
    CHECK(parseHttpDate("Sun Nov  6 08:49:37 1994", kReference) == 784111777);
}

TEST_CASE("the start date of the seeds is 1795946400", "[http-date]") {
    CHECK(parseHttpDate("Sun, 29 Nov 2026 10:00:00 GMT", 0) == 1795946400);
}

TEST_CASE("malformed dates are refused", "[http-date]") {
    const char* bad = GENERATE("Sun, 6 Nov 1994 08:49:37 GMT",    // day needs two digits
                               "Sun, 06 Nov 1994 08:49:37 UTC",   // only GMT
                               "Sun, 06 nov 1994 08:49:37 GMT",   // month names are case-sensitive
                               "Sun,  06 Nov 1994 08:49:37 GMT",  // one space
                               "Sun, 06 Nov 1994 24:00:00 GMT",   // hour 24
                               "Sun, 06 Nov 1994 08:60:00 GMT",   // minute 60
                               "Sun, 06 Nov 1994 08:49:61 GMT",   // second 61
                               "Sun, 29 Feb 2026 08:49:37 GMT",   // not a leap year
                               "Sun, 31 Apr 2026 08:49:37 GMT",   // April has 30 days
                               "Sun, 06 Nov 94 08:49:37 GMT",     // IMF-fixdate has four-digit years
                               "Sun, 06-Nov-94 08:49:37 GMT",     // rfc850 wants the long day name
                               "Sunday, 06-Nov-1994 08:49:37 GMT",
                               "Sun Nov 6 08:49:37 1994",         // asctime pads the day with a space
                               "Sun, 06 Nov 1994 08:49:37 GMT ",  // trailing space (the caller trims)
                               "", "1994-11-06T08:49:37Z");
    CHECK_FALSE(parseHttpDate(bad, kReference));
}

TEST_CASE("a leap day and a leap second are accepted", "[http-date]") {
    CHECK(parseHttpDate("Thu, 29 Feb 2024 00:00:00 GMT", kReference) == 1709164800);
    CHECK(parseHttpDate("Sat, 31 Dec 2016 23:59:60 GMT", kReference) == 1483228800);  // = 2017-01-01 00:00:00
}

TEST_CASE("the weekday name is not checked against the date", "[http-date]") {
    CHECK(parseHttpDate("Mon, 29 Nov 2026 10:00:00 GMT", kReference) == 1795946400);
}

TEST_CASE("Retry-After: delta-seconds, a date, or unusable", "[retry-after]") {
    CHECK(parseRetryAfter("120", kReference).form == RetryAfterForm::Seconds);
    CHECK(parseRetryAfter("120", kReference).seconds == 120);
    CHECK(parseRetryAfter("0", kReference).seconds == 0);
    CHECK(parseRetryAfter("007", kReference).seconds == 7);
    CHECK(parseRetryAfter("\t 5 \t", kReference).seconds == 5);
    CHECK(parseRetryAfter("86400", kReference).form == RetryAfterForm::Seconds);
    CHECK(parseRetryAfter("86401", kReference).form == RetryAfterForm::Unusable);
    CHECK(parseRetryAfter("+5", kReference).form == RetryAfterForm::Unusable);
    CHECK(parseRetryAfter("5 s", kReference).form == RetryAfterForm::Unusable);
    CHECK(parseRetryAfter(" ", kReference).form == RetryAfterForm::Unusable);
    CHECK(parseRetryAfter("18446744073709551617", kReference).form == RetryAfterForm::Unusable);
    RetryAfterValue date = parseRetryAfter(" Sun, 29 Nov 2026 10:00:07 GMT ", kReference);
    CHECK(date.form == RetryAfterForm::Date);
    CHECK(date.dateSeconds == kReference + 7);
}

namespace {
const char* const kShort[] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
const char* const kLong[] = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"};
const char* const kMonth[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

std::string two(int v) { return (v < 10 ? "0" : "") + std::to_string(v); }

// An instant written in the three forms, by a civil-date conversion (Hinnant's) independent
// of the parser's.
struct Forms {
    std::string imf, rfc850, asctime;
};

Forms writeForms(std::int64_t t) {
    std::int64_t days = t / 86400;
    std::int64_t z = days + 719468, era = z / 146097, doe = z - era * 146097;
    std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
    int day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1), month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
    int year = static_cast<int>(yoe + era * 400 + (month <= 2));
    int weekday = static_cast<int>((days + 3) % 7);  // 1970-01-01 was a Thursday (index 3 from Monday)
    int secs = static_cast<int>(t % 86400);
    std::string time = two(secs / 3600) + ":" + two(secs / 60 % 60) + ":" + two(secs % 60);
    return {std::string(kShort[weekday]) + ", " + two(day) + " " + kMonth[month - 1] + " " + std::to_string(year) +
                " " + time + " GMT",
            std::string(kLong[weekday]) + ", " + two(day) + "-" + kMonth[month - 1] + "-" + two(year % 100) + " " +
                time + " GMT",
            std::string(kShort[weekday]) + " " + kMonth[month - 1] + " " +
                (day < 10 ? " " + std::to_string(day) : std::to_string(day)) + " " + time + " " + std::to_string(year)};
}

// 1977-11-29 .. 2076-11-29: the window where a two-digit year is read back unambiguously.
const std::int64_t kEarliest = kReference - 49LL * 365 * 86400;
const std::int64_t kLatest = kReference + 49LL * 365 * 86400;

// An instant in [kEarliest, kLatest] from the engine's PCG32: the same instants natively and in
// WebAssembly (a std:: distribution's results differ between standard libraries).
std::int64_t instant(Pcg32& random) {
    return kEarliest + static_cast<std::int64_t>(random.nextUnit() * static_cast<double>(kLatest - kEarliest + 1));
}
}  // namespace

TEST_CASE("generated dates read back to the instant they were written from, in all three forms",
          "[http-date][property]") {
    Pcg32 random(20261129, 54);
    for (int i = 0; i < 5000; ++i) {
        std::int64_t t = instant(random);
        auto [imf, rfc850, asctime] = writeForms(t);
        INFO(imf << " | " << rfc850 << " | " << asctime);
        REQUIRE(parseHttpDate(imf, kReference) == t);
        REQUIRE(parseHttpDate(rfc850, kReference) == t);
        REQUIRE(parseHttpDate(asctime, kReference) == t);
        REQUIRE(parseRetryAfter(imf, kReference).dateSeconds == t);
    }
}

namespace {

// Instants from a fixed seed as a Catch2 generator: GENERATE(take(n, seededInstants(seed)))
// runs a test case once per instant, the same instants on every run.
class SeededInstants final : public Catch::Generators::IGenerator<std::int64_t> {
public:
    explicit SeededInstants(std::uint64_t seed) : random_(seed, 54), current_(instant(random_)) {}
    const std::int64_t& get() const override { return current_; }
    bool next() override {
        current_ = instant(random_);
        return true;
    }

private:
    Pcg32 random_;
    std::int64_t current_;
};

Catch::Generators::GeneratorWrapper<std::int64_t> seededInstants(std::uint64_t seed) {
    return Catch::Generators::GeneratorWrapper<std::int64_t>(
        std::unique_ptr<Catch::Generators::IGenerator<std::int64_t>>(new SeededInstants(seed)));
}

}  // namespace

TEST_CASE("a generated Retry-After date, in each of the three forms, is the wait the engine takes",
          "[http-date][retry-after][generate]") {
    // Near the response's Date most often (a realistic header), anywhere in the window otherwise.
    const std::int64_t far = GENERATE(take(1500, seededInstants(1129)));
    const std::int64_t t = far % 3 == 0 ? far : kReference + (far % 200000) - 100000;
    const Forms forms = writeForms(t);
    const std::string* written[] = {&forms.imf, &forms.rfc850, &forms.asctime};
    for (const std::string* form : written) {
        INFO("Retry-After: " << *form);
        // The value as a header carries it, with spaces and tabs around it.
        RetryAfterValue header = parseRetryAfter(" \t" + *form + "\t ", kReference);
        REQUIRE(header.form == RetryAfterForm::Date);
        REQUIRE(header.dateSeconds == t);

        ScriptEntry busy = test::answerWithRetryAfter(503, *form);
        busy.date = "Sun, 29 Nov 2026 10:00:00 GMT";  // the response's own Date: kReference
        busy.dateSeconds = kReference;
        Inputs in = test::scripted(Inputs{}, {busy, test::answer(200)});
        in.deadlineMs.reset();
        Run run = simulate(in);
        REQUIRE(run.attempts.size() == 2);
        const AttemptRow& first = run.attempts[0];
        REQUIRE(first.retryAfter);
        const double expected = t > kReference ? static_cast<double>(t - kReference) * 1000 : 0.0;
        CHECK(first.retryAfter->note == (t > kReference ? "date" : "past"));
        CHECK(first.retryAfter->waitMs == expected);
        CHECK(first.waitAfterMs == expected);  // the header wins, whatever the backoff
    }
}
