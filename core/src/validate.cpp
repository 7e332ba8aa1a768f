// SPEC §2 and §7: the single run's inputs as a table (fields.hpp), the rules between fields that
// a table cannot say, and the short typed reader from the normalized value to Inputs.
#include <string>
#include <type_traits>

#include "failure_classes.hpp"
#include "format.hpp"
#include "http_date.hpp"
#include "retrylab/engine.hpp"
#include "servers.hpp"

namespace retrylab {

namespace {

constexpr double kMaxMs = 86400000;
constexpr double kMaxSafeInteger = 9007199254740991.0;  // 2^53 - 1
// docs/layers.md §2: the most server attempts a stack may make (the product of maxRetries + 1),
// so that a layered result stays within docs/robustness.md's budget (1,000: 1.5 MB of JSON and
// 34 MB at peak natively, measured).
constexpr double kMaxServerAttempts = 1000;
// docs/servers.md §10: the answers of every override's script together, as many as one script.
constexpr double kMaxOverrideAnswers = 1000;

const std::int64_t kDefaultStartSeconds = Inputs{}.startSeconds;

// The table as constant data: rows of plain words and numbers that the compiler lays out in the
// data segment, read once by one loop (fieldOf) into the table's Fields. Written with the
// builders' own words (number(...).wholeNumber().range(...)), every step a constexpr copy, so
// a row costs bytes of data rather than the code that builds it (the builder calls for ~40 rows
// were 7 KB of the module).
enum class Lit : unsigned char { Keep, None, Null, False, True, Number, Text, EmptyList, Strings };

struct ChoiceRow {
    const char* name;
    int value;
    const char* description;
};

struct RuleRow {
    const char* field = nullptr;  // nullptr: no rule
    const char* text = nullptr;
    const char* why = "";
    Lit kind = Lit::Keep;
};

// Laid out for the data segment: what every row has first, what few rows have (mostly zero) last.
struct Row {
    const char* name = "";
    const char* group = "";
    const char* unit = "";
    const char* description = "";
    FieldType type = FieldType::Number;
    Lit def = Lit::Keep;  // Keep: what the builder gives
    bool whole = false, nullable = false, distinct = false, sparse = false, required = false, sparseMember = false;
    unsigned char nameCount = 0;  // Strings: a list of `names`
    unsigned char choiceCount = 0;
    unsigned char memberCount = 0;
    double lo = 0, hi = 0;
    double x = 0;
    unsigned minLength = 0, maxLength = 0;
    const char* text = nullptr;
    const ChoiceRow* choices = nullptr;
    const Row* item = nullptr;
    const Row* members = nullptr;
    const char* const* names = nullptr;
    const char* itemWords = nullptr;
    const char* itemNoun = nullptr;
    const char* example = nullptr;
    const char* memberWords = nullptr;
    RuleRow onlyWhen, requiredWhen;

    constexpr Row wholeNumber() const {
        Row r = *this;
        r.whole = true;
        return r;
    }
    constexpr Row range(double low, double high) const {
        Row r = *this;
        r.lo = low;
        r.hi = high;
        return r;
    }
    constexpr Row length(unsigned low, unsigned high) const {
        Row r = *this;
        r.minLength = low;
        r.maxLength = high;
        return r;
    }
    constexpr Row orNull() const {
        Row r = *this;
        r.nullable = true;
        return r;
    }
    constexpr Row distinctItems() const {
        Row r = *this;
        r.distinct = true;
        return r;
    }
    constexpr Row sparseEcho() const {
        Row r = *this;
        r.sparse = true;
        return r;
    }
    constexpr Row needed() const {
        Row r = *this;
        r.required = true;
        return r;
    }
    // Echoed only when given and not its default (fields.hpp's sparseMember).
    constexpr Row echoSparse() const {
        Row r = *this;
        r.sparseMember = true;
        return r;
    }
    constexpr Row literal(Lit kind, double n = 0, const char* s = nullptr) const {
        Row r = *this;
        r.def = kind;
        r.x = n;
        r.text = s;
        return r;
    }
    constexpr Row defaults(double n) const { return literal(Lit::Number, n); }
    constexpr Row defaults(int n) const { return literal(Lit::Number, n); }
    constexpr Row defaults(bool b) const { return literal(b ? Lit::True : Lit::False); }
    constexpr Row defaults(const char* s) const { return literal(Lit::Text, 0, s); }
    constexpr Row defaultsNull() const { return literal(Lit::Null); }
    constexpr Row defaultsEmptyList() const { return literal(Lit::EmptyList); }
    constexpr Row noDefault() const { return literal(Lit::None); }
    template <std::size_t N>
    constexpr Row defaultsStrings(const char* const (&list)[N]) const {
        static_assert(N < 256, "a row's counts are bytes");
        Row r = literal(Lit::Strings);
        r.names = list;
        r.nameCount = N;
        return r;
    }
    constexpr Row only(const char* sibling, const char* value, const char* why = "") const {
        Row r = *this;
        r.onlyWhen = {sibling, value, why, Lit::Text};
        return r;
    }
    constexpr Row requiredIf(const char* sibling, const char* value, const char* why) const {
        Row r = *this;
        r.requiredWhen = {sibling, value, why, Lit::Text};
        return r;
    }
    constexpr Row requiredIf(const char* sibling, bool value, const char* why) const {
        Row r = *this;
        r.requiredWhen = {sibling, nullptr, why, value ? Lit::True : Lit::False};
        return r;
    }
    constexpr Row words(const char* items, const char* noun) const {
        Row r = *this;
        r.itemWords = items;
        r.itemNoun = noun;
        return r;
    }
    constexpr Row objectWords(const char* exampleText, const char* unknownMember) const {
        Row r = *this;
        r.example = exampleText;
        r.memberWords = unknownMember;
        return r;
    }
};

constexpr Row row(FieldType type, const char* name, const char* group, const char* unit, const char* description) {
    Row r;
    r.type = type;
    r.name = name;
    r.group = group;
    r.unit = unit;
    r.description = description;
    return r;
}
constexpr Row boolean(const char* name, const char* group, const char* description) {
    return row(FieldType::Boolean, name, group, "", description);
}
constexpr Row number(const char* name, const char* group, const char* unit, const char* description) {
    return row(FieldType::Number, name, group, unit, description);
}
constexpr Row string(const char* name, const char* group, const char* description) {
    return row(FieldType::String, name, group, "", description);
}
constexpr Row httpDate(const char* name, const char* group, const char* description) {
    return row(FieldType::HttpDate, name, group, "", description);
}
template <std::size_t N>
constexpr Row choice(const char* name, const char* group, const char* description, const ChoiceRow (&choices)[N]) {
    Row r = row(FieldType::Choice, name, group, "", description);
    static_assert(N < 256, "a row's counts are bytes");
    r.choices = choices;
    r.choiceCount = N;
    return r;
}
constexpr Row list(const char* name, const char* group, const char* unit, const char* description, const Row& item) {
    Row r = row(FieldType::List, name, group, unit, description);
    r.item = &item;
    return r;
}
template <std::size_t N>
constexpr Row object(const char* name, const char* group, const char* description, const Row (&members)[N]) {
    Row r = row(FieldType::Object, name, group, "", description);
    static_assert(N < 256, "a row's counts are bytes");
    r.members = members;
    r.memberCount = N;
    return r;
}

constexpr Row ms(const char* name, const char* group, const char* description, double lo = 0) {
    return number(name, group, "ms", description).range(lo, kMaxMs);
}

constexpr Row kStatus = number("", "", "", "an HTTP status").wholeNumber().range(100, 599);

constexpr Row statuses(const char* name, const char* description) {
    return list(name, "client", "", description, kStatus)
        .length(0, 500)
        .distinctItems()
        .words("statuses from 100 to 599", "status")
        .defaultsEmptyList();
}

constexpr Row kAnswerMembers[] = {
    number("status", "", "", "the HTTP status the server answers with (absent only when dropped)")
        .wholeNumber()
        .range(100, 599)
        .requiredIf("dropped", false,
                    "every answer that reaches the server needs a status from 100 to 599 (only a dropped request "
                    "has none)"),
    string("retryAfter", "", "the Retry-After header's raw value: delta-seconds or an HTTP-date").length(0, 1000),
    httpDate("date", "", "the response's Date header; default startDate + the time it is sent, whole seconds"),
    boolean("lost", "", "the server does the work; the response never arrives").defaults(false),
    boolean("dropped", "", "the request never reaches the server").defaults(false),
};
constexpr Row kAnswer = object("", "", "one server answer", kAnswerMembers)
                            .noDefault()
                            .objectWords("{ \"status\": 503 }", "is not a script field; an answer may have")
                            .sparseEcho();

constexpr ChoiceRow kFailureClasses[] = {
    {"timeout", static_cast<int>(FailureClass::Timeout), "no answer before the client timeout"},
    {"429", static_cast<int>(FailureClass::TooManyRequests), "429 Too Many Requests"},
    {"5xx", static_cast<int>(FailureClass::ServerError), "500-599"},
    {"4xx", static_cast<int>(FailureClass::ClientError), "400-499 but 429"},
};
constexpr Row kRetryClass = choice("", "", "a failure class", kFailureClasses);
// retryOn's classes: the four above and a crashed server's (docs/servers.md §2, §5), named once
// for both entry points in failure_classes.hpp. hedging.nonFatal keeps the four.
constexpr ChoiceRow kRetryOnClasses[] = {
    kFailureClasses[0],
    kFailureClasses[1],
    kFailureClasses[2],
    kFailureClasses[3],
    {kFaultClasses[0].name, static_cast<int>(kFaultClasses[0].value), kFaultClasses[0].description},
    {kFaultClasses[1].name, static_cast<int>(kFaultClasses[1].value), kFaultClasses[1].description},
};
constexpr Row kRetryOnClass = choice("", "", "a failure class", kRetryOnClasses);
constexpr const char* kRetryOnDefault[] = {"timeout", "5xx"};

constexpr ChoiceRow kScenarios[] = {
    {"response-lost", static_cast<int>(Scenario::ResponseLost), "the first response is lost, then 200"},
    {"request-lost", static_cast<int>(Scenario::RequestLost), "the first request is dropped, then 200"},
    {"outage-503-twice", static_cast<int>(Scenario::Outage503Twice), "503, 503, then 200"},
    {"bad-request-400", static_cast<int>(Scenario::BadRequest400), "400 every time"},
    {"script", static_cast<int>(Scenario::Script), "the answers listed in script"},
};
constexpr ChoiceRow kOperations[] = {
    {"charge", static_cast<int>(Operation::Charge), "a write: a 2xx commits a charge"},
    {"create", static_cast<int>(Operation::Create), "a write: a 2xx commits a record for the operation id"},
    {"read", static_cast<int>(Operation::Read), "no side effect"},
};
constexpr ChoiceRow kJitters[] = {
    {"none", static_cast<int>(Jitter::None), "the ceiling itself, no draw"},
    {"full", static_cast<int>(Jitter::Full), "ceiling × draw"},
    {"equal", static_cast<int>(Jitter::Equal), "ceiling/2 + ceiling/2 × draw"},
    {"decorrelated", static_cast<int>(Jitter::Decorrelated), "base + draw × (3 × previous − base), capped"},
    {"proportional", static_cast<int>(Jitter::Proportional), "ceiling × (jitterLow + (jitterHigh − jitterLow) × draw)"},
};
constexpr ChoiceRow kRetryAfterModes[] = {
    {"replace", static_cast<int>(RetryAfterMode::Replace), "the header's wait instead of the backoff"},
    {"at-least", static_cast<int>(RetryAfterMode::AtLeast), "the longer of the header and the backoff"},
};
constexpr ChoiceRow kRetryAfterOverMax[] = {
    {"backoff", static_cast<int>(RetryAfterOverMax::Backoff),
     "the header is ignored and the backoff applies (Stripe, Anthropic)"},
    {"stop", static_cast<int>(RetryAfterOverMax::Stop), "the answer is not retried (openai-python ≥ 2.52)"},
};
constexpr ChoiceRow kAttemptStarts[] = {
    {"fits", static_cast<int>(AttemptStart::Fits),
     "only if its answer is due by the deadline: start + responseMs ≤ deadlineMs (SPEC §4)"},
    {"before-deadline", static_cast<int>(AttemptStart::BeforeDeadline),
     "whenever it starts before the deadline, as a real client does; the answer is cut at the deadline, the server's "
     "work still done"},
};
constexpr Row kDraw = number("", "", "", "a draw").range(0, 1);
constexpr Row kCeiling = number("", "", "ms", "a ceiling").range(0, kMaxMs);

// In the order the echo writes them. retryOn's words name its classes (makeInputs adds them).
constexpr Row kInputRows[] = {
    choice("scenario", "server", "the server's answers: a named scenario, or the script", kScenarios)
        .defaults("response-lost"),
    list("script", "server", "", "server answers, one per attempt; the last repeats", kAnswer)
        .length(1, 1000)
        .words("answers", "answer")
        .only("scenario", "script", "the named scenario already decides the server's answers")
        .requiredIf("scenario", "script",
                    "scenario \"script\" needs a list of server answers such as [{ \"status\": 503 }, "
                    "{ \"status\": 200 }]"),
    choice("operation", "request", "what the request does", kOperations).defaults("charge"),
    string("operationId", "request", "label, and the key sent when idempotencyKey is on")
        .length(1, 255)
        .defaults("op-0001"),
    number("maxRetries", "policy", "", "retries after the first attempt (attempts ≤ maxRetries + 1)")
        .wholeNumber()
        .range(0, 100)
        .defaults(3),
    ms("baseBackoffMs", "policy", "backoff base").defaults(500),
    number("backoffMultiplier", "policy", "", "growth of the backoff ceiling per failure").range(1, 10).defaults(2),
    ms("maxBackoffMs", "policy", "cap on the backoff ceiling; null: none").orNull().defaultsNull(),
    choice("jitter", "policy", "how a draw spreads the backoff wait", kJitters).defaults("none"),
    list("draws", "randomness", "", "numbers in [0, 1], consumed in order by jittered waits only", kDraw)
        .length(0, 100000)
        .words("numbers from 0 to 1", "draw")
        .defaultsEmptyList(),
    number("seed", "randomness", "", "seed of the generator used after draws runs out")
        .wholeNumber()
        .range(0, kMaxSafeInteger)
        .defaults(1),
    ms("clientTimeoutMs", "limits", "per-attempt client timeout", 1).defaults(3000),
    ms("deadlineMs", "limits", "overall deadline; null: none").orNull().defaults(10000),
    ms("waitBudgetMs", "limits", "cap on the total time spent waiting between attempts; null: none")
        .orNull()
        .defaultsNull(),
    ms("responseMs", "server", "how long the server takes to answer").defaults(200),
    boolean("idempotencyKey", "request", "send operationId as a key the server honours").defaults(false),
    list("retryOn", "policy", "", "the failure classes retried", kRetryOnClass)
        .length(0, 6)
        .distinctItems()
        .words(nullptr, "class")
        .defaultsStrings(kRetryOnDefault),
    boolean("retryWritesWithoutKey", "policy", "false: a write without a key is never retried").defaults(true),
    boolean("honourRetryAfter", "policy", "a Retry-After header replaces the backoff wait").defaults(true),
    httpDate("startDate", "server", "the HTTP-date at virtual time 0").defaults("Sun, 29 Nov 2026 10:00:00 GMT"),
    number("callers", "herd", "", "more than 1: the herd, every caller's first wait counted")
        .wholeNumber()
        .range(1, 1000000)
        .defaults(1),
    boolean("firstRetryImmediate", "client", "failure 1 waits 0 (urllib3)").defaults(false),
    ms("minBackoffMs", "client", "a backoff wait is at least this (Stripe)").defaults(0),
    number("jitterLow", "client", "", "proportional jitter: the low end of the factor")
        .range(0, 2)
        .defaults(0)
        .only("jitter", "proportional"),
    number("jitterHigh", "client", "", "proportional jitter: the high end of the factor")
        .range(0, 2)
        .defaults(1)
        .only("jitter", "proportional"),
    list("ceilingScheduleMs", "client", "ms",
         "ceilings per failure, the last repeating; empty: base × multiplier^(n−1)", kCeiling)
        .length(0, 100)
        .words("ceilings in ms", "ceiling")
        .defaultsEmptyList(),
    statuses("retryOnStatuses", "exact statuses retried besides retryOn's classes"),
    statuses("retryAfterStatuses", "statuses retried when they carry a Retry-After (urllib3)"),
    choice("retryAfterMode", "client", "how an honoured Retry-After combines with the backoff", kRetryAfterModes)
        .defaults("replace"),
    ms("retryAfterMaxMs", "client", "an honoured header above this is ignored (Stripe: 60 s); null: none")
        .orNull()
        .defaultsNull(),
    choice("retryAfterOverMax", "client", "what an honoured Retry-After above retryAfterMaxMs does", kRetryAfterOverMax)
        .defaults("backoff"),
    choice("attemptStart", "limits", "when an attempt is sent under the overall deadline", kAttemptStarts)
        .defaults("fits"),
#ifdef RETRYLAB_SCRATCH_ROW
    // Only in the scratch build of tests/CMakeLists.txt (retrysim_scratch_row): a throwaway row,
    // which tests/node/scratch-row.test.js finds validated, echoed, listed and carried by a
    // link with nothing else written (issue 13).
    ms("scratchMs", "client", "a throwaway wait of the scratch build").range(0, 1000).defaults(250),
#endif
};

// docs/layers.md §2: a layer's own rows; makeInputs() puts a copy of every policy row (the groups
// "policy", "limits" and "client") after its name, without a default: an absent one is the run's.
constexpr ChoiceRow kLayerKeys[] = {
    {"none", static_cast<int>(LayerKey::None), "its attempts carry no key"},
    {"mint", static_cast<int>(LayerKey::Mint), "one new key for each call it receives"},
    {"pass", static_cast<int>(LayerKey::Pass), "the key its call was given"},
};
constexpr ChoiceRow kGiveUps[] = {
    {"last-failure", static_cast<int>(GiveUp::LastFailure), "its last attempt's answer"},
    {"do-not-retry", static_cast<int>(GiveUp::DoNotRetry), "given-up, which no layer above retries"},
};
constexpr ChoiceRow kCancels[] = {
    {"propagate", static_cast<int>(Cancel::Propagate), "it is cancelled, and all beneath it"},
    {"orphan", static_cast<int>(Cancel::Orphan), "it runs on; its result reaches no one"},
};
constexpr Row kLayerRows[] = {
    string("name", "", "shown in the trace and the metrics; default \"layer i\"").length(1, 64),
    choice("key", "", "default: layer 1 mint when idempotencyKey, else none; below it pass", kLayerKeys),
    choice("giveUp", "", "what a call that ends without a 2xx relays", kGiveUps).defaults("last-failure"),
    choice("cancel", "", "what the call below does when this layer stops waiting for it", kCancels)
        .defaults("propagate"),
    boolean("inheritDeadline", "", "a call ends no later than its caller's cutoff less deadlineMarginMs")
        .defaults(false),
    ms("deadlineMarginMs", "", "taken off an inherited deadline").defaults(0),
};
constexpr Row kLayer =
    object("", "", "one retry layer", kLayerRows)
        .noDefault()
        .objectWords("{ \"name\": \"SDK\", \"maxRetries\": 2 }", "is not a layer field; a layer may have");
constexpr Row kLayersRow =
    list("layers", "layers", "", "retry layers stacked, top first (docs/layers.md); null: the run's own one", kLayer)
        .length(1, 5)
        .words("layer objects", "layer")
        .orNull()
        .defaultsNull();

// docs/throttling.md §6.1 and §8: the single run's hedging, null by default and echoed only when
// given (so that every run without it echoes, and results, byte for byte as before).
constexpr ChoiceRow kHedgeKinds[] = {
    {"a6", static_cast<int>(HedgeKind::A6), "gRPC A6: copies delayMs apart, the first 2xx wins (needs maxRetries 0)"},
    {"per-try-timeout", static_cast<int>(HedgeKind::PerTryTimeout),
     "Envoy: a per-try timeout sends the next retry and keeps the attempt in flight"},
};
constexpr const char* kA6Only = "maxAttempts, delayMs and nonFatal belong to gRPC A6's hedging";
constexpr Row kHedgingMembers[] = {
    choice("kind", "", "which hedging: gRPC A6's or Envoy's per-try timeout", kHedgeKinds).defaults("a6"),
    number("maxAttempts", "", "copies", "the most copies sent, the first included")
        .wholeNumber()
        .range(2, 5)
        .only("kind", "a6", kA6Only)
        .requiredIf("kind", "a6", "gRPC A6's hedging needs maxAttempts, a whole number from 2 to 5"),
    ms("delayMs", "", "from one copy to the next").defaults(0).only("kind", "a6", kA6Only),
    list("nonFatal", "", "", "the failure classes after which the next copy goes at once", kRetryClass)
        .length(0, 4)
        .distinctItems()
        .words("failure classes (\"timeout\", \"429\", \"5xx\", \"4xx\")", "class")
        .defaultsEmptyList()
        .only("kind", "a6", kA6Only),
};
constexpr Row kHedgingRow =
    object("hedging", "hedging", "send copies of the request on purpose (docs/throttling.md §6, §8); null: none",
           kHedgingMembers)
        .orNull()
        .defaultsNull()
        .objectWords("{ \"maxAttempts\": 4, \"delayMs\": 500 }", "is not a hedging field; hedging may have");

// docs/servers.md §2: the single run's many servers, a balancer, faults and the key store.
// Each row is echoed only when given and not its default, so that every run without them
// echoes, and results, byte for byte as before (§9).
constexpr Row kOverrideMembers[] = {
    number("index", "", "", "the server this override changes, from 0 to servers.count − 1")
        .wholeNumber()
        .range(0, 999)
        .noDefault()
        .needed(),
    ms("responseMs", "", "how long this server takes to answer; absent: the run's responseMs").noDefault(),
    list("script", "", "",
         "this server's own answers: the m-th attempt to reach it gets entry min(m, length) (docs/servers.md "
         "§7.1); absent: the run's",
         kAnswer)
        .length(1, 1000)
        .words("answers", "answer")
        .noDefault(),
};
constexpr Row kOverride =
    object("", "", "one server's own fields", kOverrideMembers)
        .noDefault()
        .objectWords("{ \"index\": 0, \"responseMs\": 1000 }", "is not a server's field; an override may have")
        .sparseEcho();
constexpr Row kServersMembers[] = {
    number("count", "", "servers", "K, the servers (replicas) behind the balancer")
        .wholeNumber()
        .range(1, 1000)
        .defaults(2),
    list("overrides", "", "", "the servers whose fields differ from the run's, each index once", kOverride)
        .length(0, 1000)
        .words("override objects", "override")
        .defaultsEmptyList(),
};
constexpr ChoiceRow kBalancerKinds[] = {
    {"round-robin", static_cast<int>(servers::BalancerKind::RoundRobin),
     "each pick the next server in turn, from server 0"},
    {"random", static_cast<int>(servers::BalancerKind::Random), "each pick a server drawn uniformly"},
    {"least-outstanding", static_cast<int>(servers::BalancerKind::LeastOutstanding),
     "a server with the fewest attempts in flight, ties drawn (Envoy's least request, full scan)"},
    {"two-choices", static_cast<int>(servers::BalancerKind::TwoChoices),
     "the less loaded of two servers drawn, the first on a tie (Envoy's least request)"},
};
constexpr ChoiceRow kBalancerScopes[] = {
    {"client", 0, "one balancer per client (the single run has one client)"},
};
constexpr Row kBalancerMembers[] = {
    choice("kind", "", "how the balancer picks a server (docs/servers.md §4.1)", kBalancerKinds)
        .defaults("round-robin"),
    choice("scope", "", "whose balancer it is: the single run's one client's", kBalancerScopes).defaults("client"),
};
constexpr ChoiceRow kRetryHosts[] = {
    {"any", 0, "every pick is taken"},
    {"previous-hosts", 1,
     "a retry's pick of a server the request already tried is picked again (Envoy's previous_hosts)"},
};
constexpr ChoiceRow kFaultKinds[] = {
    {"crash", static_cast<int>(FaultKind::Crash), "the server is down: connections refused, work at it aborted"},
    {"partition", static_cast<int>(FaultKind::Partition),
     "the network to the server is cut both ways: requests and answers lost"},
};
constexpr Row kServerIndex = number("", "", "", "a server index").wholeNumber().range(0, 999);
constexpr Row kFaultMembers[] = {
    choice("kind", "", "a crash or a partition (docs/servers.md §5)", kFaultKinds).noDefault().needed(),
    list("servers", "", "", "the servers it acts on; null: every server", kServerIndex)
        .length(0, 1000)
        .distinctItems()
        .words("server indices from 0 to 999", "server")
        .orNull()
        .defaultsNull(),
    ms("startMs", "", "the window's start (covered)").noDefault().needed(),
    ms("endMs", "", "the window's end (not covered), at least startMs").noDefault().needed(),
};
constexpr Row kFault = object("", "", "one fault", kFaultMembers)
                           .noDefault()
                           .objectWords("{ \"kind\": \"crash\", \"servers\": [0], \"startMs\": 0, \"endMs\": 5000 }",
                                        "is not a fault's field; a fault may have");
constexpr ChoiceRow kKeyScopes[] = {
    {"shared", static_cast<int>(servers::KeyScope::Shared), "one store every server reads at once"},
    {"per-server", static_cast<int>(servers::KeyScope::PerServer),
     "each server its own: a key written on one is never seen by another"},
    {"replicated", static_cast<int>(servers::KeyScope::Replicated),
     "one store whose writes reach the other servers lagMs later"},
};
constexpr Row kKeyStoreMembers[] = {
    choice("scope", "", "where idempotency keys live (docs/servers.md §6)", kKeyScopes).defaults("shared"),
    ms("lagMs", "", "replicated: how long a write takes to reach the other servers").defaults(0),
};
constexpr Row kServerRows[] = {
    object("servers", "servers", "replicas behind a balancer (docs/servers.md); null: one server, the run's own",
           kServersMembers)
        .orNull()
        .defaultsNull()
        .objectWords("{ \"count\": 2 }", "is not a servers field; servers may have")
        .echoSparse(),
    object("balancer", "servers", "how each attempt's server is picked (docs/servers.md §4)", kBalancerMembers)
        .sparseEcho()
        .echoSparse()
        .objectWords("{ \"kind\": \"random\" }", "is not a balancer field; the balancer may have"),
    choice("retryHost", "servers", "which server a retry may go to (docs/servers.md §4.2)", kRetryHosts)
        .defaults("any")
        .echoSparse(),
    number("hostSelectionRetryMaxAttempts", "servers", "picks",
           "previous-hosts: the most picks a retry makes after its first (Envoy's host_selection_retry_max_attempts)")
        .wholeNumber()
        .range(0, 100)
        .defaults(1)
        .echoSparse(),
    list("faults", "servers", "", "crashes and partitions of servers over [startMs, endMs) (docs/servers.md §5)",
         kFault)
        .length(0, 100)
        .words("fault objects", "fault")
        .defaultsEmptyList()
        .echoSparse(),
    object("keyStore", "servers", "where the servers keep idempotency keys (docs/servers.md §6)", kKeyStoreMembers)
        .sparseEcho()
        .echoSparse()
        .objectWords("{ \"scope\": \"per-server\" }", "is not a keyStore field; the key store may have"),
};

#ifdef RETRYLAB_SCRATCH_ROW
constexpr std::ptrdiff_t kScratchRows = 1;
#else
constexpr std::ptrdiff_t kScratchRows = 0;
#endif

bool isLayerPolicy(std::string_view group) { return group == "policy" || group == "limits" || group == "client"; }

Literal literalOf(Lit kind, double x, const char* text) {
    switch (kind) {
        case Lit::Null: return Literal::null();
        case Lit::False: return Literal::boolean(false);
        case Lit::True: return Literal::boolean(true);
        case Lit::Number: return Literal::number(x);
        case Lit::Text: return Literal::string(text);
        case Lit::EmptyList: return Literal::list({});
        default: return Literal::none();
    }
}

// One row as the table's Field, as the builders make it (fields.cpp: row(), Field::object()
// filling its members' defaults), member by member into one Field so that no temporary Field
// is built and moved.
Field& appended(std::vector<Field>& rows) {
    rows.push_back(Field());
    return rows.back();
}

// What Field::only() and Field::requiredIf() write.
void fillRule(Presence& p, const RuleRow& r) {
    if (!r.field) return;
    p.field = r.field;
    p.value = literalOf(r.kind, 0, r.text);
    p.why = r.why;
}

void fillField(Field& f, const Row& r) {
    f.name = r.name;
    f.type = r.type;
    f.group = r.group;
    f.unit = r.unit;
    f.description = r.description;
    f.whole = r.whole;
    f.nullable = r.nullable;
    f.distinct = r.distinct;
    f.sparseEcho = r.sparse;
    f.required = r.required;
    f.sparseMember = r.sparseMember;
    f.lo = r.lo;
    f.hi = r.hi;
    f.minLength = r.minLength;
    f.maxLength = r.maxLength;
    for (std::size_t i = 0; i < r.choiceCount; ++i)
        f.choices.push_back({r.choices[i].name, r.choices[i].value, r.choices[i].description});
    if (r.item) fillField(appended(f.item), *r.item);
    for (std::size_t i = 0; i < r.memberCount; ++i) fillField(appended(f.members), r.members[i]);
    if (r.type == FieldType::Object) f.defaultValue.kind = Literal::Kind::Filled;
    if (r.def == Lit::Strings) {
        f.defaultValue.kind = Literal::Kind::List;
        for (std::size_t i = 0; i < r.nameCount; ++i) f.defaultValue.items.push_back(Literal::string(r.names[i]));
    } else if (r.def != Lit::Keep) {
        f.defaultValue = literalOf(r.def, r.x, r.text);
    }
    fillRule(f.onlyWhen, r.onlyWhen);
    fillRule(f.requiredWhen, r.requiredWhen);
    if (r.itemWords) f.itemWords = r.itemWords;
    if (r.itemNoun) f.itemNoun = r.itemNoun;
    if (r.example) f.example = r.example;
    if (r.memberWords) f.memberWords = r.memberWords;
}

FieldTable makeInputs() {
    FieldTable t;
    t.name = "inputs";
    t.subject = "The inputs";
    t.example = "{ \"maxRetries\": 3 }";
    t.unknownWords = "is not an input of the engine (check its spelling).";
    for (const Row& r : kInputRows) fillField(appended(t.fields), r);

    // The layer's own rows, its name first, then every policy row again (made from the same
    // data), without its default. After attemptStart (the scratch build's row stays the last).
    Field& layers = *t.fields.insert(t.fields.end() - kScratchRows, Field());
    fillField(layers, kLayersRow);
    // Echoed only when given and not null, so that a run without layers echoes, and so results,
    // byte for byte as before (docs/layers.md §2).
    layers.sparseMember = true;
    std::vector<Field>& members = layers.item.front().members;
    std::vector<Field> own = std::move(members);
    members.clear();
    members.push_back(std::move(own.front()));
    for (const Row& r : kInputRows) {
        if (!isLayerPolicy(r.group)) continue;
        Field& copy = appended(members);
        fillField(copy, r);
        copy.group.clear();
        copy.defaultValue = Literal::none();
        copy.onlyWhen = Presence{};  // jitterLow/jitterHigh: checked against the layer's own jitter (checkLayers)
    }
    for (std::size_t i = 1; i < own.size(); ++i) members.push_back(std::move(own[i]));

    for (std::vector<Field>* rows : {&t.fields, &members}) {
        for (Field& f : *rows) {
            if (f.name != "retryOn") continue;
            std::string classNames;
            for (const Choice& c : f.item.front().choices)
                classNames += (classNames.empty() ? "\"" : ", \"") + c.name + "\"";
            f.itemWords = "failure classes (" + classNames + ")";
        }
    }
    // After layers (the scratch build's row stays the last); not a layer's policy row.
    Field& hedging = *t.fields.insert(t.fields.end() - kScratchRows, Field());
    fillField(hedging, kHedgingRow);
    hedging.sparseMember = true;
    for (const Row& r : kServerRows) fillField(*t.fields.insert(t.fields.end() - kScratchRows, Field()), r);
    return t;
}

double number(const Value& v, const char* name, double otherwise) {
    const Value* x = v.find(name);
    return x && x->kind() == Value::Kind::Number ? x->asNumber() : otherwise;
}

std::optional<double> optionalNumber(const Value& v, const char* name, std::optional<double> otherwise) {
    const Value* x = v.find(name);
    if (!x) return otherwise;
    if (x->kind() == Value::Kind::Number) return x->asNumber();
    return std::nullopt;
}

bool flag(const Value& v, const char* name, bool otherwise) {
    const Value* x = v.find(name);
    return x && x->kind() == Value::Kind::Bool ? x->asBool() : otherwise;
}

const std::string* text(const Value& v, const char* name) {
    const Value* x = v.find(name);
    return x && x->kind() == Value::Kind::String ? &x->asString() : nullptr;
}

// A choice field's value as the engine's number for it (-1 when absent), and as its enum.
int choiceValue(const FieldTable& t, const Value& v, const char* name) {
    const std::string* s = text(v, name);
    return s ? t.field(name).valueOf(*s) : -1;
}

template <typename Enum>
Enum choice(const FieldTable& t, const Value& v, const char* name, Enum otherwise) {
    int value = choiceValue(t, v, name);
    return value >= 0 ? static_cast<Enum>(value) : otherwise;
}

template <typename T>
std::vector<T> numbers(const Value& v, const char* name) {
    std::vector<T> out;
    if (const Value* list = v.find(name)) {
        if constexpr (std::is_same_v<T, double>)
            if (list->isNumberList())
                return list->asNumbers();  // the draws: one block (Value::numbers()), copied as one
        out.reserve(list->asArray().size());
        for (const Value& item : list->asArray()) out.push_back(static_cast<T>(item.asNumber()));
    }
    return out;
}

// A list of answers (the `script` input, or an override's, at `at`) as ScriptEntry; dates read
// against startDate (an rfc850 two-digit year's century).
std::vector<ScriptEntry> readScript(const Value& script, const std::string& at, std::int64_t startSeconds,
                                    std::vector<InputError>& errors) {
    std::vector<ScriptEntry> out;
    for (std::size_t i = 0; i < script.asArray().size(); ++i) {
        const Value& a = script.asArray()[i];
        ScriptEntry e;
        if (const Value* status = a.find("status")) e.status = static_cast<int>(status->asNumber());
        if (const std::string* retryAfter = text(a, "retryAfter")) e.retryAfter = *retryAfter;
        if (const std::string* date = text(a, "date")) {
            e.date = *date;
            e.dateSeconds = parseHttpDate(*date, startSeconds);
            if (!e.dateSeconds) {
                std::string path = memberPath(itemPath(at, i), "date");
                std::string detail = "must be an HTTP-date such as \"Sun, 29 Nov 2026 10:00:00 GMT\"; got " +
                                     describeValue(*a.find("date")) + ".";
                errors.push_back({path, "bad-date", path + " " + detail, detail});
            }
        }
        e.lost = flag(a, "lost", false);
        e.dropped = flag(a, "dropped", false);
        out.push_back(std::move(e));
    }
    return out;
}

// docs/servers.md §2's fields (the echo is sparse: an absent member is its default).
void readServers(const FieldTable& t, const Value& v, Inputs& in, std::vector<InputError>& errors) {
    if (const Value* s = v.find("servers"); s && s->kind() == Value::Kind::Object) {
        in.serversGiven = true;
        in.serverCount = static_cast<std::size_t>(number(*s, "count", 2));
        if (const Value* overrides = s->find("overrides")) {
            for (std::size_t i = 0; i < overrides->asArray().size(); ++i) {
                const Value& o = overrides->asArray()[i];
                ServerOverride so;
                so.index = static_cast<std::size_t>(number(o, "index", 0));
                so.responseMs = optionalNumber(o, "responseMs", std::nullopt);
                if (const Value* script = o.find("script")) {
                    so.hasScript = true;
                    so.script = readScript(*script, memberPath(itemPath("servers.overrides", i), "script"),
                                           in.startSeconds, errors);
                }
                in.serverOverrides.push_back(std::move(so));
            }
        }
    }
    auto member = [&](const char* object, const char* name) -> int {
        const Value* o = v.find(object);
        const std::string* s = o ? text(*o, name) : nullptr;
        return s ? t.field(object).member(name)->valueOf(*s) : 0;  // absent: the first choice, the default
    };
    if (v.find("balancer")) in.balancer = static_cast<servers::BalancerKind>(member("balancer", "kind"));
    if (v.find("retryHost")) in.previousHosts = choiceValue(t, v, "retryHost") == 1;
    in.hostSelectionRetryMaxAttempts =
        static_cast<int>(number(v, "hostSelectionRetryMaxAttempts", in.hostSelectionRetryMaxAttempts));
    if (const Value* faults = v.find("faults")) {
        for (const Value& f : faults->asArray()) {
            Fault fault;
            fault.kind =
                static_cast<FaultKind>(t.field("faults").item.front().member("kind")->valueOf(*text(f, "kind")));
            if (const Value* names = f.find("servers"); names && names->kind() == Value::Kind::Array) {
                fault.allServers = false;
                for (const Value& j : names->asArray()) fault.servers.push_back(static_cast<std::size_t>(j.asNumber()));
            }
            fault.startMs = number(f, "startMs", 0);
            fault.endMs = number(f, "endMs", 0);
            in.faults.push_back(std::move(fault));
        }
    }
    if (v.find("keyStore")) in.keyScope = static_cast<servers::KeyScope>(member("keyStore", "scope"));
    if (const Value* k = v.find("keyStore")) in.keyLagMs = number(*k, "lagMs", 0);
}

// The normalized value (no errors) as Inputs: each field `v` holds, over `base` (a layer's members
// over the run's Inputs, docs/layers.md §2; the run's own over the defaults).
Inputs readInputs(const FieldTable& t, const Value& v, std::vector<InputError>& errors, Inputs in = Inputs{}) {
    if (const std::string* s = text(v, "startDate")) {
        in.startDate = *s;
        in.startSeconds = parseHttpDate(*s, kDefaultStartSeconds).value_or(kDefaultStartSeconds);
    }
    in.scenario = choice(t, v, "scenario", in.scenario);
    if (const Value* script = v.find("script")) in.script = readScript(*script, "script", in.startSeconds, errors);
    in.operation = choice(t, v, "operation", in.operation);
    if (const std::string* s = text(v, "operationId")) in.operationId = *s;
    in.maxRetries = static_cast<int>(number(v, "maxRetries", in.maxRetries));
    in.baseBackoffMs = number(v, "baseBackoffMs", in.baseBackoffMs);
    in.backoffMultiplier = number(v, "backoffMultiplier", in.backoffMultiplier);
    in.maxBackoffMs = optionalNumber(v, "maxBackoffMs", in.maxBackoffMs);
    in.jitter = choice(t, v, "jitter", in.jitter);
    if (v.find("draws")) in.draws = numbers<double>(v, "draws");
    in.seed = static_cast<std::uint64_t>(number(v, "seed", static_cast<double>(in.seed)));
    in.clientTimeoutMs = number(v, "clientTimeoutMs", in.clientTimeoutMs);
    in.deadlineMs = optionalNumber(v, "deadlineMs", in.deadlineMs);
    in.waitBudgetMs = optionalNumber(v, "waitBudgetMs", in.waitBudgetMs);
    in.responseMs = number(v, "responseMs", in.responseMs);
    in.idempotencyKey = flag(v, "idempotencyKey", in.idempotencyKey);
    if (const Value* classes = v.find("retryOn")) {
        const Field& item = t.field("retryOn").item.front();
        in.retryOn = RetryOn{false, false, false, false};
        for (const Value& name : classes->asArray()) {
            switch (static_cast<FailureClass>(item.valueOf(name.asString()))) {
                case FailureClass::Timeout: in.retryOn.timeout = true; break;
                case FailureClass::TooManyRequests: in.retryOn.tooManyRequests = true; break;
                case FailureClass::ServerError: in.retryOn.serverError = true; break;
                case FailureClass::ClientError: in.retryOn.clientError = true; break;
                case FailureClass::Refused: in.retryOn.refused = true; break;
                case FailureClass::Reset: in.retryOn.reset = true; break;
                case FailureClass::Success:
                case FailureClass::Other: break;
            }
        }
    }
    in.retryWritesWithoutKey = flag(v, "retryWritesWithoutKey", in.retryWritesWithoutKey);
    in.honourRetryAfter = flag(v, "honourRetryAfter", in.honourRetryAfter);
    in.callers = static_cast<std::uint32_t>(number(v, "callers", in.callers));
    in.firstRetryImmediate = flag(v, "firstRetryImmediate", in.firstRetryImmediate);
    in.minBackoffMs = number(v, "minBackoffMs", in.minBackoffMs);
    in.jitterLow = number(v, "jitterLow", in.jitterLow);
    in.jitterHigh = number(v, "jitterHigh", in.jitterHigh);
    if (v.find("ceilingScheduleMs")) in.ceilingScheduleMs = numbers<double>(v, "ceilingScheduleMs");
    if (v.find("retryOnStatuses")) in.retryOnStatuses = numbers<int>(v, "retryOnStatuses");
    if (v.find("retryAfterStatuses")) in.retryAfterStatuses = numbers<int>(v, "retryAfterStatuses");
    in.retryAfterMode = choice(t, v, "retryAfterMode", in.retryAfterMode);
    in.retryAfterMaxMs = optionalNumber(v, "retryAfterMaxMs", in.retryAfterMaxMs);
    in.retryAfterOverMax = choice(t, v, "retryAfterOverMax", in.retryAfterOverMax);
    in.attemptStart = choice(t, v, "attemptStart", in.attemptStart);
    if (const Value* h = v.find("hedging"); h && h->kind() == Value::Kind::Object) {
        const Field& row = t.field("hedging");
        HedgePolicy hedging;
        hedging.kind = static_cast<HedgeKind>(row.member("kind")->valueOf(*text(*h, "kind")));
        hedging.maxAttempts = static_cast<int>(number(*h, "maxAttempts", 0));
        hedging.delayMs = number(*h, "delayMs", 0);
        if (const Value* classes = h->find("nonFatal")) {
            for (const Value& name : classes->asArray()) {
                switch (static_cast<FailureClass>(row.member("nonFatal")->item.front().valueOf(name.asString()))) {
                    case FailureClass::Timeout: hedging.nonFatal.timeout = true; break;
                    case FailureClass::TooManyRequests: hedging.nonFatal.tooManyRequests = true; break;
                    case FailureClass::ServerError: hedging.nonFatal.serverError = true; break;
                    case FailureClass::ClientError: hedging.nonFatal.clientError = true; break;
                    default: break;
                }
            }
        }
        in.hedging = hedging;
    }
    readServers(t, v, in, errors);
    return in;
}

// docs/layers.md §2: each layer with every field filled in, top first: a member given is the
// layer's, an absent policy field the run's, `name` "layer i", `key` by position.
// jitterLow/jitterHigh appear as the run's do, only with the layer's jitter "proportional".
// `normalized` has no errors.
Value fillLayers(const FieldTable& t, const Value& normalized) {
    const Value* layers = normalized.find("layers");
    if (!layers || layers->kind() != Value::Kind::Array) return Value::null();
    const Field& row = t.field("layers").item.front();
    // The rows filled in their own way, found once (not four names compared for each member).
    const Field* nameRow = row.member("name");
    const Field* keyRow = row.member("key");
    const Field* lowRow = row.member("jitterLow");
    const Field* highRow = row.member("jitterHigh");
    const bool idempotencyKey = flag(normalized, "idempotencyKey", false);
    Value out = Value::array();
    for (std::size_t i = 0; i < layers->asArray().size(); ++i) {
        const Value& given = layers->asArray()[i];
        const Value* jitter = given.find("jitter");
        if (!jitter) jitter = normalized.find("jitter");
        const bool proportional =
            jitter && jitter->kind() == Value::Kind::String && jitter->asString() == "proportional";
        // Built as one list of members, its room made once (not grown 8, 16, 32 by set()).
        Value::Object layer;
        layer.reserve(row.members.size());
        auto set = [&](const std::string& name, Value v) { layer.push_back(Value::Member{name, std::move(v)}); };
        std::size_t cursor = 0, givenCursor = 0;
        for (const Field& m : row.members) {
            if (const Value* v = given.find(m.name, givenCursor)) {
                set(m.name, *v);
                continue;
            }
            if (&m == nameRow) {
                set(m.name, Value::string("layer " + formatInt(static_cast<std::int64_t>(i + 1))));
            } else if (&m == keyRow) {
                set(m.name, Value::string(i > 0 ? "pass" : idempotencyKey ? "mint" : "none"));
            } else if (&m == lowRow || &m == highRow) {
                if (!proportional) continue;
                const Value* run = normalized.find(m.name, cursor);
                set(m.name, run ? *run : defaultValueOf(t.field(m.name)));
            } else if (const Value* run = normalized.find(m.name, cursor)) {
                set(m.name, *run);
            } else if (const Field* top = t.find(m.name)) {
                set(m.name, defaultValueOf(*top));
            }
        }
        out.push(Value::object(std::move(layer)));
    }
    return out;
}

// The limits of docs/layers.md §2 on the filled layers: each layer's jitterLow/jitterHigh only
// with its own proportional jitter and in order, `callers` 1, and the product bound on work.
void checkLayers(const Value& raw, const Value& normalized, const Value& layers, std::vector<InputError>& errors) {
    if (layers.kind() != Value::Kind::Array) return;
    const Value* givenList = raw.find("layers");
    double product = 1;
    for (std::size_t i = 0; i < layers.asArray().size(); ++i) {
        const Value& layer = layers.asArray()[i];
        const Value& given = givenList->asArray()[i];
        const auto at = [i] { return itemPath("layers", i); };  // made only for an error
        const bool proportional = text(layer, "jitter") && *text(layer, "jitter") == "proportional";
        for (const char* name : {"jitterLow", "jitterHigh"}) {
            if (proportional || !given.find(name)) continue;
            std::string path = memberPath(at(), name);
            std::string detail =
                "is used only with jitter \"proportional\" (this layer's jitter, or the run's when the "
                "layer gives none).";
            errors.push_back({path, "only-with", path + " " + detail, detail});
        }
        if (proportional && number(layer, "jitterLow", 0) > number(layer, "jitterHigh", 1)) {
            std::string path = memberPath(at(), "jitterHigh");
            std::string detail = "must be at least jitterLow (" + formatMs(number(layer, "jitterLow", 0), 6) +
                                 "); got " + formatMs(number(layer, "jitterHigh", 1), 6) + ".";
            errors.push_back({path, "conflict", path + " " + detail, detail});
        }
        product *= number(layer, "maxRetries", 0) + 1;
    }
    if (product > kMaxServerAttempts) {
        std::string detail =
            "may make at most " + formatInt(static_cast<std::int64_t>(kMaxServerAttempts)) +
            " server attempts (the product over the layers of maxRetries + 1; docs/layers.md §2); got " +
            formatInt(static_cast<std::int64_t>(product)) + ".";
        errors.push_back({"layers", "too-much-work", "layers " + detail, detail});
    }
    if (number(normalized, "callers", 1) != 1) {
        std::string detail = "must be 1 with layers (the herd is a one-layer figure); got " +
                             formatInt(static_cast<std::int64_t>(number(normalized, "callers", 1))) + ".";
        errors.push_back({"callers", "conflict", "callers " + detail, detail});
    }
}

// docs/throttling.md §6.1 and §8: what hedging needs of the other fields.
void checkHedging(const Value& normalized, std::vector<InputError>& errors) {
    const Value* h = normalized.find("hedging");
    if (!h || h->kind() != Value::Kind::Object) return;
    auto conflict = [&](const std::string& path, const std::string& detail) {
        errors.push_back({path, "conflict", path + " " + detail, detail});
    };
    const bool a6 = text(*h, "kind") && *text(*h, "kind") == "a6";
    if (a6 && number(normalized, "maxRetries", 0) != 0)
        conflict("hedging",
                 "must be null when maxRetries is not 0 (gRPC A6: a retry policy and a hedging policy "
                 "exclude each other); got maxRetries " +
                     formatInt(static_cast<std::int64_t>(number(normalized, "maxRetries", 0))) + ".");
    if (!a6 && normalized.find("deadlineMs") && normalized.find("deadlineMs")->isNull())
        conflict("hedging.kind",
                 "cannot be \"per-try-timeout\" with deadlineMs null: without an overall deadline "
                 "nothing ends an attempt whose answer never comes (Envoy's route timeout).");
    if (const Value* layers = normalized.find("layers"); layers && layers->kind() == Value::Kind::Array)
        conflict("hedging",
                 "must be null with layers (hedging inside a stack of layers is not modelled; "
                 "docs/throttling.md §6.1).");
    if (number(normalized, "callers", 1) != 1)
        conflict("callers",
                 "must be 1 with hedging (the herd counts first waits; a hedged run has none of its "
                 "own); got " +
                     formatInt(static_cast<std::int64_t>(number(normalized, "callers", 1))) + ".");
}

// docs/servers.md §2's rules across fields, on the fields found valid: each override's index
// below servers.count and given once; each fault's window in order, its servers below K, and
// no server under two faults whose windows overlap; lagMs only with a replicated store; and
// `servers` and `faults` only in a run of one caller, one layer and no hedging.
void checkServers(const Value& normalized, std::vector<InputError>& errors) {
    auto fail = [&](const std::string& path, const char* code, const std::string& detail) {
        errors.push_back({path, code, path + " " + detail, detail});
    };
    auto count = [](double x) { return formatInt(static_cast<std::int64_t>(x)); };
    const Value* servers = normalized.find("servers");
    const bool given = servers && servers->kind() == Value::Kind::Object;
    const double k = given ? number(*servers, "count", 2) : 1;
    if (given) {
        if (const Value* overrides = servers->find("overrides")) {
            // The overrides' scripts hold at most as many answers together as one script may
            // (docs/servers.md §10: the input stays within the bindings' limits on values).
            std::size_t answers = 0;
            for (const Value& o : overrides->asArray())
                if (const Value* script = o.find("script")) answers += script->asArray().size();
            if (answers > kMaxOverrideAnswers)
                fail("servers.overrides", "too-many",
                     "may hold at most " + count(kMaxOverrideAnswers) +
                         " script answers in all (docs/servers.md §10); got " + count(static_cast<double>(answers)) +
                         ".");
            std::vector<unsigned char> seen(1000, 0);
            for (std::size_t i = 0; i < overrides->asArray().size(); ++i) {
                const double index = number(overrides->asArray()[i], "index", 0);
                const std::string path = memberPath(itemPath("servers.overrides", i), "index");
                if (index >= k)
                    fail(path, "out-of-range",
                         "must be below servers.count (" + count(k) + "); got " + count(index) + ".");
                else if (seen[static_cast<std::size_t>(index)])
                    fail(path, "repeated",
                         "names server " + count(index) + " again; each server may have one override.");
                else
                    seen[static_cast<std::size_t>(index)] = 1;
            }
        }
    }
    const Value* faults = normalized.find("faults");
    const std::size_t faultCount = faults && faults->kind() == Value::Kind::Array ? faults->asArray().size() : 0;
    for (std::size_t i = 0; i < faultCount; ++i) {
        const Value& f = faults->asArray()[i];
        const std::string at = itemPath("faults", i);
        const double start = number(f, "startMs", 0), end = number(f, "endMs", 0);
        if (end < start)
            fail(memberPath(at, "endMs"), "conflict",
                 "must be at least startMs (" + formatMs(start, 6) + "); got " + formatMs(end, 6) + ".");
        const Value* names = f.find("servers");
        if (names && names->kind() == Value::Kind::Array) {
            for (std::size_t j = 0; j < names->asArray().size(); ++j) {
                const double index = names->asArray()[j].asNumber();
                if (index >= k)
                    fail(itemPath(memberPath(at, "servers"), j), "out-of-range",
                         "must be below " + std::string(given ? "servers.count" : "1 (one server: servers is null)") +
                             (given ? " (" + count(k) + ")" : std::string()) + "; got " + count(index) + ".");
            }
        }
        if (!(start < end)) continue;  // an empty (or reversed) window overlaps nothing
        for (std::size_t e = 0; e < i; ++e) {
            const Value& g = faults->asArray()[e];
            const double gStart = number(g, "startMs", 0), gEnd = number(g, "endMs", 0);
            if (!(gStart < gEnd) || !(gStart < end && start < gEnd)) continue;
            const Value* other = g.find("servers");
            // Null names every server; an empty list none.
            auto all = [](const Value* v) { return !v || v->kind() != Value::Kind::Array; };
            bool shared = all(names) && all(other);
            if (all(names) != all(other)) shared = !(all(names) ? other : names)->asArray().empty();
            for (std::size_t a = 0; !shared && !all(names) && !all(other) && a < names->asArray().size(); ++a)
                for (const Value& b : other->asArray())
                    shared = shared || b.asNumber() == names->asArray()[a].asNumber();
            if (!shared) continue;
            fail(memberPath(at, "servers"), "conflict",
                 "names a server that " + itemPath("faults", e) +
                     " also names over an overlapping window; a server is under one fault at a time.");
            break;
        }
    }
    if (const Value* store = normalized.find("keyStore"); store && store->kind() == Value::Kind::Object) {
        const std::string* scope = text(*store, "scope");
        const double lag = number(*store, "lagMs", 0);
        if (lag != 0 && !(scope && *scope == "replicated"))
            fail("keyStore.lagMs", "conflict",
                 "must be 0 unless keyStore.scope is \"replicated\" (only a replicated store has a lag); got " +
                     formatMs(lag, 6) + ".");
    }
    // The herd, the stack and hedging are one-server figures (docs/servers.md §2, §7).
    const double callers = number(normalized, "callers", 1);
    const Value* layers = normalized.find("layers");
    const bool layered = layers && layers->kind() == Value::Kind::Array;
    const Value* hedging = normalized.find("hedging");
    const bool hedged = hedging && hedging->kind() == Value::Kind::Object;
    auto oneServerFigures = [&](const char* path, const char* what) {
        if (callers != 1)
            fail(path, "conflict",
                 std::string("must be ") + what +
                     " with callers above 1 (the herd is a one-server figure); got callers " + count(callers) + ".");
        if (layered)
            fail(path, "conflict",
                 std::string("must be ") + what + " with layers (the stack of layers is a one-server figure).");
        if (hedged)
            fail(path, "conflict",
                 std::string("must be ") + what +
                     " with hedging (hedged copies on many servers are not modelled in the single run).");
    };
    if (given) oneServerFigures("servers", "null");
    if (faultCount > 0) oneServerFigures("faults", "empty");
}

// The rules between fields that the table cannot say, on what the generic pass found valid.
void checkAcrossFields(const Value& raw, const Value& normalized, std::vector<InputError>& errors) {
    // A dropped request never reaches the server, so it has no response to lose.
    const Value* script = raw.kind() == Value::Kind::Object ? raw.find("script") : nullptr;
    if (script && script->kind() == Value::Kind::Array && script->asArray().size() <= 1000) {
        for (std::size_t i = 0; i < script->asArray().size(); ++i) {
            const Value& a = script->asArray()[i];
            if (a.kind() != Value::Kind::Object) continue;
            const Value* lost = a.find("lost");
            const Value* dropped = a.find("dropped");
            if (!lost || !dropped || lost->kind() != Value::Kind::Bool || dropped->kind() != Value::Kind::Bool ||
                !lost->asBool() || !dropped->asBool())
                continue;
            std::string entry = itemPath("script", i);
            std::string detail =
                "cannot be both lost and dropped: a dropped request never reaches the server, so it "
                "has no response to lose.";
            errors.push_back({memberPath(entry, "dropped"), "conflict", entry + " " + detail, detail});
        }
    }
    checkHedging(normalized, errors);
    checkServers(normalized, errors);
    const Value* low = normalized.find("jitterLow");
    const Value* high = normalized.find("jitterHigh");
    if (low && high && low->asNumber() > high->asNumber()) {
        std::string detail = "must be at least jitterLow (" + formatMs(low->asNumber(), 6) + "); got " +
                             formatMs(high->asNumber(), 6) + ".";
        errors.push_back({"jitterHigh", "conflict", "jitterHigh " + detail, detail});
    }
}

}  // namespace

const FieldTable& inputFields() {
    static const FieldTable table = makeInputs();
    return table;
}

ParsedInputs parseInputs(const Value& raw) {
    const FieldTable& table = inputFields();
    Normalized normalized = normalize(table, raw);
    ParsedInputs result;
    result.errors = std::move(normalized.errors);
    if (raw.kind() != Value::Kind::Object) return result;
    checkAcrossFields(raw, normalized.value, result.errors);
    if (!result.errors.empty()) return result;
    Value layers = fillLayers(table, normalized.value);
    checkLayers(raw, normalized.value, layers, result.errors);
    if (!result.errors.empty()) return result;
    Inputs in = readInputs(table, normalized.value, result.errors);
    if (!result.errors.empty()) return result;
    if (layers.kind() == Value::Kind::Array) {
        const Field& row = table.field("layers").item.front();
        const Inputs runInputs = in;  // before any layer is added to it
        const Value::Array& given = normalized.value.find("layers")->asArray();
        in.layers.reserve(given.size());
        for (std::size_t i = 0; i < given.size(); ++i) {
            const Value& l = layers.asArray()[i];
            // The layer's policy read by the one typed reader: its members over the run's. What the
            // layer was given is read over runInputs, which holds what fillLayers() filled in for
            // every policy member it was not given (the run's value, or the default the run's
            // Inputs hold too), so that the reader looks up 45 names in the layer's few given
            // members, not in its 27 filled ones (issue 33's budget).
            Layer layer;
            layer.policy = readInputs(table, given[i], result.errors, runInputs);
            layer.name = *text(l, "name");
            auto member = [&](const char* name) { return row.member(name)->valueOf(*text(l, name)); };
            layer.key = static_cast<LayerKey>(member("key"));
            layer.giveUp = static_cast<GiveUp>(member("giveUp"));
            layer.cancel = static_cast<Cancel>(member("cancel"));
            layer.inheritDeadline = flag(l, "inheritDeadline", false);
            layer.deadlineMarginMs = number(l, "deadlineMarginMs", 0);
            in.layers.push_back(std::move(layer));
        }
        if (!result.errors.empty()) return result;
        // The echo: the filled layers in place of the given ones.
        *normalized.value.find("layers") = std::move(layers);
    }
    result.inputs = std::move(in);
    result.echo = std::move(normalized.value);
    return result;
}

Value validate(const Value& raw) {
    ParsedInputs parsed = parseInputs(raw);
    Value v = Value::object();
    v.set("ok", Value::boolean(parsed.errors.empty()));
    v.set("errors", errorsToValue(parsed.errors));
    return v;
}

Value scriptToValue(const std::vector<ScriptEntry>& script) {
    // As the `script` input's echo writes an answer: only what differs from its default.
    Value answers = Value::array();
    for (const ScriptEntry& e : script) {
        Value a = Value::object();
        if (e.status) a.set("status", Value::number(*e.status));
        if (e.retryAfter) a.set("retryAfter", Value::string(*e.retryAfter));
        if (e.date) a.set("date", Value::string(*e.date));
        if (e.lost) a.set("lost", Value::boolean(true));
        if (e.dropped) a.set("dropped", Value::boolean(true));
        answers.push(std::move(a));
    }
    return answers;
}

Value schema() {
    Value v = Value::object();
    v.set("engine", Value::string(engineVersion()));
    v.set(inputFields().name, tableToValue(inputFields()));
    // Each named scenario's answers, from serverScript(): the script the run uses for it.
    Value scenarios = Value::object();
    for (const Choice& c : inputFields().field("scenario").choices) {
        auto scenario = static_cast<Scenario>(c.value);
        if (scenario == Scenario::Script) continue;
        Inputs in;
        in.scenario = scenario;
        scenarios.set(c.name, scriptToValue(serverScript(in)));
    }
    v.set("scenarios", std::move(scenarios));
    return v;
}

}  // namespace retrylab
