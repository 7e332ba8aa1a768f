// SPEC §3–§4: one client, one run, attempt by attempt.
#include <algorithm>
#include <cmath>
#include <limits>

#include "format.hpp"
#include "min_heap.hpp"
#include "streams.hpp"
#include "http_date.hpp"
#include "policy.hpp"
#include "retrylab/engine.hpp"
#include "servers.hpp"

namespace retrylab {

std::vector<ScriptEntry> serverScript(const Inputs& in) {
    auto answer = [](int status, bool lost = false) {
        ScriptEntry e;
        e.status = status;
        e.lost = lost;
        return e;
    };
    switch (in.scenario) {
        case Scenario::ResponseLost: return {answer(200, true), answer(200)};
        case Scenario::RequestLost: {
            ScriptEntry dropped;
            dropped.dropped = true;
            return {dropped, answer(200)};
        }
        case Scenario::Outage503Twice: return {answer(503), answer(503), answer(200)};
        case Scenario::BadRequest400: return {answer(400)};
        case Scenario::Script: return in.script;
    }
    return {};
}

namespace {

std::string ms(double value) { return formatMs(value) + " ms"; }
std::string attemptLabel(int n) { return "attempt " + formatInt(n); }

// The operation's name, as the inputs write it.
const char* operationName(Operation op) { return inputFields().field("operation").nameOf(static_cast<int>(op)); }

// What one committed side effect is called: "charge #2", "record #1 for op-0001".
std::string sideEffect(const Inputs& in, int k) {
    if (in.operation == Operation::Charge) return "charge #" + formatInt(k);
    return "record #" + formatInt(k) + " for " + in.operationId;
}

std::string classesRetried(const RetryOn& r) {
    std::string out;
    auto add = [&](bool on, const char* name) {
        if (!on) return;
        out += out.empty() ? "" : ", ";
        out += name;
    };
    add(r.timeout, "timeouts");
    add(r.tooManyRequests, "429");
    add(r.serverError, "5xx");
    add(r.clientError, "4xx");
    add(r.refused, "refused");
    add(r.reset, "reset");
    return out.empty() ? "nothing" : out;
}

// The Retry-After the client read, measured from the response's own Date.
RetryAfterSeen readRetryAfter(const Inputs& in_, const ScriptEntry& entry, double answerMs) {
    // The default Date is the start date plus the time the server sends, to the whole second.
    // Clamped far beyond any real run so that the arithmetic stays in range.
    double sentSeconds = std::min(std::floor(answerMs / 1000), 1.0e12);
    double dateMs = entry.dateSeconds ? static_cast<double>(*entry.dateSeconds) * 1000
                                      : (static_cast<double>(in_.startSeconds) + sentSeconds) * 1000;
    auto reference = static_cast<std::int64_t>(dateMs / 1000);
    RetryAfterValue value = parseRetryAfter(*entry.retryAfter, reference);
    RetryAfterSeen seen;
    seen.raw = *entry.retryAfter;
    switch (value.form) {
        case RetryAfterForm::Seconds:
            seen.waitMs = static_cast<double>(value.seconds) * 1000;
            seen.note = "seconds";
            break;
        case RetryAfterForm::Date: {
            double wait = static_cast<double>(value.dateSeconds) * 1000 - dateMs;
            seen.waitMs = wait > 0 ? wait : 0.0;
            seen.note = wait > 0 ? "date" : "past";
            break;
        }
        case RetryAfterForm::Unusable: seen.note = "unusable"; break;
    }
    return seen;
}

// The first committed result under the idempotency key (a layered run's, per key value).
struct StoredResult {
    double committedMs = 0;
    int status = 200;
    int effectNumber = 1;
};

// Whether the client saw an HTTP status (not a timeout, a refusal or a reset).
bool hasStatus(FailureClass c) {
    return c != FailureClass::Timeout && c != FailureClass::Refused && c != FailureClass::Reset;
}

// A sentence not yet made: a reference to the callable that makes it, so that the functions
// taking one are not instantiated once per caller (a layered run has some thirty sentences).
class TextRef {
public:
    template <class F>
    TextRef(const F& f)  // NOLINT: implicit, from the lambda at the call
        : object_(&f), call_([](const void* o) { return (*static_cast<const F*>(o))(); }) {}
    std::string operator()() const { return call_(object_); }

private:
    const void* object_;
    std::string (*call_)(const void*);
};

class RunBuilder {
public:
    RunBuilder(const Inputs& in, bool describe)
        : in_(in),
          describe_(describe),
          builtIn_(in.scenario == Scenario::Script ? std::vector<ScriptEntry>() : serverScript(in)),
          script_(in.scenario == Scenario::Script ? in.script : builtIn_),
          draws_(in.draws, in.seed) {
        previousDecorrelated_ = in.baseBackoffMs;
        // docs/servers.md §7: K servers, each the run's own fields changed by its override.
        const std::size_t count = in.serversGiven ? in.serverCount : 1;
        servers_.assign(count, Server{in.responseMs, nullptr, 0});
        for (const ServerOverride& o : in.serverOverrides) {
            if (o.responseMs) servers_[o.index].responseMs = *o.responseMs;
            if (o.hasScript) servers_[o.index].script = &o.script;
        }
        tried_.assign(count, 0);
        balancer_.kind = in.balancer;
        if (in.serversGiven) {
            run_.metrics.serversRun = true;
            run_.metrics.servers.resize(count);
            for (std::size_t j = 0; j < count; ++j) run_.metrics.servers[j].host = static_cast<int>(j);
        }
    }

    Run build() {
        if (in_.hedging) run_.metrics.hedgedRun = true;
        if (!startsUnderDeadline(in_, 0)) {
            finish(StopReason::Deadline, std::nullopt, [&] {
                if (in_.attemptStart == AttemptStart::BeforeDeadline)
                    return "the run stops before it starts: the " + ms(*in_.deadlineMs) +
                           " deadline leaves no time to send attempt 1; nothing is sent";
                return "the run stops before it starts: attempt 1 would end at " + ms(in_.responseMs) + ", after the " +
                       ms(*in_.deadlineMs) + " deadline; nothing is sent";
            });
            return std::move(run_);
        }
        if (in_.hedging) return buildHedged();
        double start = 0;
        for (int n = 1;; ++n) {
            AttemptRow& row = attempt(n, start);
            std::optional<int> status;
            if (hasStatus(lastSeen_)) status = lastStatus_;
            if (auto reason = stopBeforeWaiting(in_, n, lastSeen_, status, carriesRetryAfter(row),
                                                headerRefusesRetry(in_, row.retryAfter))) {
                finish(*reason, n, [&] { return stopText(*reason, n, row); });
                break;
            }
            WaitChoice wait = chooseWait(in_, n, row.retryAfter, previousDecorrelated_, draws_, describe_);
            if (in_.waitBudgetMs && run_.metrics.waitingMs + wait.waitMs > *in_.waitBudgetMs) {
                run_.metrics.refusedWaitMs = wait.waitMs;
                finish(StopReason::WaitBudget, n, [&] {
                    return "the run stops: waiting " + ms(wait.waitMs) + " more (" + wait.rule +
                           ") would take the total past the " + ms(*in_.waitBudgetMs) + " wait budget; " +
                           ms(run_.metrics.waitingMs) + " waited so far";
                });
                break;
            }
            double next = row.endMs + wait.waitMs;
            if (!startsUnderDeadline(in_, next)) {
                finish(StopReason::Deadline, n, [&] {
                    if (in_.attemptStart == AttemptStart::BeforeDeadline)
                        return "the run stops: " + attemptLabel(n + 1) + " would start at " + ms(next) +
                               ", not before the " + ms(*in_.deadlineMs) + " deadline";
                    return "the run stops: " + attemptLabel(n + 1) + " would start at " + ms(next) + " and end at " +
                           ms(next + in_.responseMs) + ", after the " + ms(*in_.deadlineMs) + " deadline";
                });
                break;
            }
            row.waitAfterMs = wait.waitMs;
            row.waitKind = wait.fromHeader ? WaitKind::Header : WaitKind::Backoff;
            row.waitShape = wait.shape;
            row.waitRule = wait.rule;
            row.ceilingMs = wait.ceilingMs;
            row.draw = wait.draw;
            run_.metrics.waitingMs += wait.waitMs;
            event(row.endMs, EventKind::Wait, n, [&] {
                std::string text =
                    "the client waits " + ms(wait.waitMs) + " (" + wait.rule + ") before " + attemptLabel(n + 1);
                if (row.retryAfter && row.retryAfter->note == "unusable")
                    text += "; the unusable Retry-After \"" + row.retryAfter->raw + "\" is ignored";
                else if (row.retryAfter && !in_.honourRetryAfter)
                    text += "; Retry-After is not honoured by this client";
                return text;
            });
            start = next;
        }
        return std::move(run_);
    }

private:
    // docs/throttling.md §6.1 (gRPC A6) and §8 (Envoy's hedge on per-try timeout): attempts that
    // overlap. The steps in time order; at one instant an answer before a timeout or the deadline's
    // cut, those before a per-try timeout's hedge, and all of them before a send; among equals, the
    // lower attempt first.
    struct Served {
        std::size_t row = 0;
        const ScriptEntry* entry = nullptr;
        std::optional<int> answered;  // the status the server sends back, if it sees the request
        bool scripted = false;
        double answerMs = 0;
        bool lost = false;     // the answer never arrives: the entry's `lost`, or a partition (docs/servers.md §5)
        bool refused = false;  // a crashed server refused the connection at the start
        bool reset = false;    // a crash aborted the work: the connection is reset at resetAt
        double resetAt = 0;
    };
    struct Copy {
        Served served;
        bool open = true;
        bool arrives = false;  // its answer reaches the client (at served.answerMs)
        bool cut = false;      // the deadline ends its wait
        double endAt = 0;      // its answer, its timeout or the deadline
        double softAt = 0;     // per-try-timeout: start + clientTimeoutMs
        bool hedged = false;   // per-try-timeout: its per-try timeout has come
    };

    Run buildHedged() {
        const HedgePolicy& h = *in_.hedging;
        const bool a6 = h.kind == HedgeKind::A6;
        const bool heldWrite = isWrite(in_.operation) && !in_.idempotencyKey && !in_.retryWritesWithoutKey;
        const int limit = a6 ? (heldWrite ? 1 : h.maxAttempts) : in_.maxRetries + 1;
        constexpr double never = std::numeric_limits<double>::infinity();
        std::vector<Copy> copies;
        std::optional<double> nextSend = 0.0;
        std::optional<StopReason> refused;  // a send refused by the deadline: no attempt after it
        double pendingWait = 0;             // per-try-timeout: the wait before the scheduled retry
        int failures = 0;                   // per-try-timeout: SPEC §4's failure number
        auto sentOrScheduled = [&] { return static_cast<int>(copies.size()) + (nextSend ? 1 : 0); };
        auto anyOpen = [&] {
            for (const Copy& c : copies)
                if (c.open) return true;
            return false;
        };
        for (;;) {
            int endI = -1, softI = -1;
            for (std::size_t i = 0; i < copies.size(); ++i) {
                const Copy& c = copies[i];
                if (!c.open) continue;
                if (endI < 0 || c.endAt < copies[endI].endAt ||
                    (c.endAt == copies[endI].endAt && c.arrives && !copies[endI].arrives))
                    endI = static_cast<int>(i);
                if (!a6 && !c.hedged && c.softAt < c.endAt && (softI < 0 || c.softAt < copies[softI].softAt))
                    softI = static_cast<int>(i);
            }
            const double tEnd = endI >= 0 ? copies[endI].endAt : never;
            const double tSoft = softI >= 0 ? copies[softI].softAt : never;
            const double tSend = nextSend ? *nextSend : never;
            if (endI < 0 && softI < 0 && !nextSend) break;  // not reached: the run ends before
            if (tEnd <= tSoft && tEnd <= tSend) {
                if (copyEnds(copies, endI, a6, h, limit, heldWrite, nextSend, refused, pendingWait, failures,
                             sentOrScheduled(), anyOpen))
                    break;
            } else if (tSoft <= tSend) {
                Copy& c = copies[softI];
                c.hedged = true;
                ++failures;
                const int n = run_.attempts[c.served.row].n;
                event(c.softAt, EventKind::Timeout, n, [&] {
                    return attemptLabel(n) + ": no answer after " + ms(in_.clientTimeoutMs) +
                           "; the per-try timeout hedges: " + attemptLabel(n) +
                           " stays in flight, its answer still counts";
                });
                if (!nextSend && !heldWrite && sentOrScheduled() < limit)
                    scheduleRetry(c, c.softAt, std::nullopt, failures, nextSend, pendingWait);
            } else {
                const double t = *nextSend;
                nextSend.reset();
                const int n = static_cast<int>(copies.size()) + 1;
                if (!startsUnderDeadline(in_, t)) {
                    refused = StopReason::Deadline;
                    if (!anyOpen()) {
                        endHedged(copies, static_cast<int>(copies.size()), t, StopReason::Deadline, [&] {
                            return "the run stops: " + attemptLabel(n) + " would start at " + ms(t) +
                                   (in_.attemptStart == AttemptStart::BeforeDeadline
                                        ? ", not before the " + ms(*in_.deadlineMs) + " deadline"
                                        : " and end at " + ms(t + in_.responseMs) + ", after the " +
                                              ms(*in_.deadlineMs) + " deadline");
                        });
                        break;
                    }
                    continue;
                }
                std::string inFlight;
                for (const Copy& c : copies)
                    if (c.open) inFlight += (inFlight.empty() ? "" : ", ") + formatInt(run_.attempts[c.served.row].n);
                const bool hedge = !inFlight.empty();
                Copy c;
                c.served =
                    serve(n, t,
                          hedge ? "; a hedge: attempt " + inFlight +
                                      (inFlight.find(',') == std::string::npos ? " is" : " are") + " still in flight"
                                : std::string());
                AttemptRow& row = run_.attempts[c.served.row];
                row.hedgedRun = true;
                row.hedge = hedge;
                if (hedge) ++run_.metrics.hedges;
                run_.metrics.waitingMs += pendingWait;
                pendingWait = 0;
                const bool answered = c.served.answered && !c.served.lost;
                if (a6) {
                    c.arrives = answered && c.served.answerMs <= t + in_.clientTimeoutMs &&
                                (!in_.deadlineMs || c.served.answerMs <= *in_.deadlineMs);
                    c.cut = !c.arrives && in_.deadlineMs && *in_.deadlineMs < t + in_.clientTimeoutMs;
                    c.endAt = c.arrives ? c.served.answerMs : c.cut ? *in_.deadlineMs : t + in_.clientTimeoutMs;
                    if (n < limit) nextSend = t + h.delayMs;
                } else {
                    c.arrives = answered && c.served.answerMs <= *in_.deadlineMs;
                    c.cut = !c.arrives;
                    c.endAt = c.arrives ? c.served.answerMs : *in_.deadlineMs;
                    c.softAt = t + in_.clientTimeoutMs;
                }
                copies.push_back(c);
            }
        }
        return std::move(run_);
    }

    // Schedules the retry after attempt c (per-try-timeout), failure number `failure`, at t + the
    // policy's wait, if the wait budget and the deadline allow it; false when they do not.
    bool scheduleRetry(const Copy& c, double t, const std::optional<RetryAfterSeen>& retryAfter, int failure,
                       std::optional<double>& nextSend, double& pendingWait, std::optional<StopReason>* why = nullptr) {
        AttemptRow& row = run_.attempts[c.served.row];
        const int n = row.n;
        WaitChoice wait = chooseWait(in_, failure, retryAfter, previousDecorrelated_, draws_, describe_);
        if (in_.waitBudgetMs && run_.metrics.waitingMs + wait.waitMs > *in_.waitBudgetMs) {
            if (why) *why = StopReason::WaitBudget;
            return false;
        }
        const double next = t + wait.waitMs;
        if (!startsUnderDeadline(in_, next)) {
            if (why) *why = StopReason::Deadline;
            return false;
        }
        row.waitAfterMs = wait.waitMs;
        row.waitKind = wait.fromHeader ? WaitKind::Header : WaitKind::Backoff;
        row.waitShape = wait.shape;
        row.waitRule = wait.rule;
        row.ceilingMs = wait.ceilingMs;
        row.draw = wait.draw;
        nextSend = next;
        pendingWait = wait.waitMs;
        event(t, EventKind::Wait, n, [&] {
            return "the client waits " + ms(wait.waitMs) + " (" + wait.rule + ") before " +
                   attemptLabel(static_cast<int>(run_.attempts.size()) + 1);
        });
        return true;
    }

    // Copy i's answer, timeout or cut reaches the client; true when the run ends with it.
    template <typename AnyOpen>
    bool copyEnds(std::vector<Copy>& copies, int i, bool a6, const HedgePolicy& h, int limit, bool heldWrite,
                  std::optional<double>& nextSend, std::optional<StopReason>& refused, double& pendingWait,
                  int& failures, int sentOrScheduled, AnyOpen anyOpen) {
        Copy& c = copies[static_cast<std::size_t>(i)];
        AttemptRow& row = run_.attempts[c.served.row];
        const int n = row.n;
        const double t = c.endAt;
        if (c.cut) {  // the deadline ends every attempt still in flight
            for (Copy& o : copies) {
                if (!o.open) continue;
                o.open = false;
                land(run_.attempts[o.served.row], o.served, false, never());
            }
            endHedged(copies, n, t, StopReason::Deadline, [&] {
                return "the run stops: the overall deadline at " + ms(*in_.deadlineMs) +
                       " ends every attempt in flight";
            });
            return true;
        }
        c.open = false;
        land(row, c.served, c.arrives, a6 ? row.startMs + in_.clientTimeoutMs : never());
        const FailureClass seen = row.clientClass;
        if (seen == FailureClass::Success) {
            endHedged(copies, n, t, StopReason::Success, [&] { return stopText(StopReason::Success, n, row); });
            return true;
        }
        if (a6) {
            if (!isNonFatal(h.nonFatal, seen)) {
                endHedged(copies, n, t, StopReason::NotRetryable, [&] {
                    return "the run stops: " +
                           (seen == FailureClass::Timeout ? std::string("a timeout") : row.clientSaw) +
                           " is fatal to a hedged request (non-fatal: " + classesRetried(h.nonFatal) + ")";
                });
                return true;
            }
            if (static_cast<int>(copies.size()) < limit && !refused) nextSend = t;
            if (anyOpen() || nextSend) return false;
            const StopReason reason = refused     ? *refused
                                      : heldWrite ? StopReason::WriteWithoutKey
                                                  : StopReason::AttemptLimit;
            endHedged(copies, n, t, reason, [&] {
                if (reason == StopReason::WriteWithoutKey) return stopText(reason, n, row);
                if (reason == StopReason::Deadline)
                    return "the run stops: every attempt sent has failed, and the next would not fit the " +
                           ms(*in_.deadlineMs) + " deadline";
                return "the run stops: all " + formatInt(static_cast<int>(copies.size())) +
                       " copies failed (maxAttempts " + formatInt(h.maxAttempts) + ")";
            });
            return true;
        }
        // Envoy's hedge on per-try timeout (§8): an answer the policy would not retry is the run's.
        ++failures;
        std::optional<int> status;
        if (hasStatus(seen)) status = lastStatus_;
        const bool refuses = headerRefusesRetry(in_, row.retryAfter);
        std::optional<StopReason> reason =
            stopBeforeWaiting(in_, sentOrScheduled, seen, status, carriesRetryAfter(row), refuses);
        if (reason == StopReason::Success || reason == StopReason::NotRetryable) {
            endHedged(copies, n, t, *reason, [&] { return stopText(*reason, n, row); });
            return true;
        }
        if (!reason && c.hedged) reason = StopReason::AttemptLimit;  // a hedged attempt is not retried again
        if (!reason && nextSend) reason = StopReason::AttemptLimit;
        if (!reason && scheduleRetry(c, t, row.retryAfter, failures, nextSend, pendingWait, &reason)) return false;
        if (anyOpen() || nextSend) {
            event(t, EventKind::Receive, n, [&] {
                return attemptLabel(n) + "'s " + row.clientSaw +
                       " is dropped: it is not retried, and another attempt is still in flight or due";
            });
            return false;
        }
        endHedged(copies, n, t, *reason, [&] {
            if (*reason == StopReason::WaitBudget)
                return std::string("the run stops: the next wait would take the total past the ") +
                       ms(*in_.waitBudgetMs) + " wait budget";
            if (*reason == StopReason::Deadline)
                return "the run stops: the next attempt would not fit the " + ms(*in_.deadlineMs) + " deadline";
            return stopText(*reason, n, row);
        });
        return true;
    }

    static double never() { return std::numeric_limits<double>::infinity(); }

    static bool isNonFatal(const RetryOn& nonFatal, FailureClass c) {
        switch (c) {
            case FailureClass::Timeout: return nonFatal.timeout;
            case FailureClass::TooManyRequests: return nonFatal.tooManyRequests;
            case FailureClass::ServerError: return nonFatal.serverError;
            case FailureClass::ClientError: return nonFatal.clientError;
            default: return false;
        }
    }

    // The run ends at t with attempt n: the attempts still in flight are left to the server.
    // `text` a TextRef, so that finish() is instantiated once for every ending here.
    void endHedged(std::vector<Copy>& copies, int n, double t, StopReason reason, TextRef text) {
        for (Copy& o : copies) {
            if (!o.open) continue;
            o.open = false;
            AttemptRow& other = run_.attempts[o.served.row];
            other.endMs = t;
            other.clientSaw = "cancelled";
            other.cancelled = true;
            ++run_.metrics.lateAnswers;
            const int m = other.n;
            event(t, EventKind::Cancel, m, [&] {
                return attemptLabel(m) + ": the client stops listening (" + attemptLabel(n) +
                       " ended the run); the server is not told and still does the work";
            });
        }
        run_.metrics.elapsedMs = t;
        finish(reason, n, [&] { return text(); });
    }

    // What the client saw, as a stop sentence names it.
    static std::string seenWords(const AttemptRow& row) {
        if (row.clientClass == FailureClass::Timeout) return "a timeout";
        if (row.clientClass == FailureClass::Refused) return "a refused connection";
        if (row.clientClass == FailureClass::Reset) return "a connection reset";
        return row.clientSaw;
    }

    static bool carriesRetryAfter(const AttemptRow& row) {
        return row.retryAfter && row.retryAfter->raw.find_first_not_of(" \t") != std::string::npos;
    }

    // `text` makes the event's sentence; a run that is not described (a sweep's points) has no
    // events at all, so no sentence is ever made.
    template <typename Text>
    void event(double t, EventKind kind, std::optional<int> attempt, Text text) {
        if (!describe_) return;
        const int host = in_.serversGiven && attempt ? *run_.attempts[static_cast<std::size_t>(*attempt - 1)].host : -1;
        run_.events.push_back(Event{t, kind, attempt, text(), 0, {}, host});
    }

    struct Server {
        double responseMs = 0;
        const std::vector<ScriptEntry>* script = nullptr;  // its own (an override's); null: the run's
        int reached = 0;                                   // attempts that reached rule 1 on it
    };
    struct Record {
        std::size_t server = 0;
        double mark = 0, result = 0;
        int status = 200;
        int effect = 1;
    };
    // "attempt n", and with `servers` given "attempt n → server j": every sentence of an attempt
    // names its host (docs/servers.md §7.2).
    std::string label(int n) const {
        std::string text = attemptLabel(n);
        if (in_.serversGiven) text += " → server " + formatInt(*run_.attempts[static_cast<std::size_t>(n - 1)].host);
        return text;
    }

    // docs/servers.md §4.2: attempt n's server. With one server, server 0 and no draw.
    std::size_t pickHost(int n) {
        const std::size_t count = servers_.size();
        if (count == 1) return 0;
        const std::uint64_t key =
            streams::streamKey(in_.seed, servers::kPurposeBalance, 0, 0, static_cast<std::uint64_t>(n - 1));
        const auto none = [](std::size_t) { return 0; };  // §4.3: in the single run every count is 0
        const auto tried = [&](std::size_t j) { return static_cast<bool>(tried_[j]); };
        const std::size_t j =
            servers::chooseHost(balancer_, key, count, n > 1, in_.previousHosts,
                                static_cast<std::uint64_t>(in_.hostSelectionRetryMaxAttempts), tried, none);
        tried_[j] = 1;
        return j;
    }

    // docs/servers.md §5: whether a fault of this kind on server j covers t.
    bool under(FaultKind kind, std::size_t j, double t) const {
        for (const Fault& f : in_.faults)
            if (f.kind == kind && f.names(j) && f.covers(t)) return true;
        return false;
    }

    // §7.1 (a): the earliest start of a crash on server j in (after, by], if any.
    std::optional<double> crashStarting(std::size_t j, double after, double by) const {
        std::optional<double> first;
        for (const Fault& f : in_.faults)
            if (f.kind == FaultKind::Crash && f.names(j) && after < f.startMs && f.startMs <= by &&
                (!first || f.startMs < *first))
                first = f.startMs;
        return first;
    }

    // §6: whether a time x written by server `writer` is visible to server `reader` at t.
    bool visibleAt(std::size_t writer, std::size_t reader, double x, double t) const {
        return servers::visible(in_.keyScope, in_.keyLagMs, writer, reader, x, t);
    }

    Metrics::ServerRow* serverRow(std::size_t j) { return in_.serversGiven ? &run_.metrics.servers[j] : nullptr; }

    // SPEC §3 for attempt n sent at `start`, on the server the balancer picks (docs/servers.md
    // §7.1): its row, its send event and the server's work (whose events are made now, at their
    // own times). `sentWhile` ends the send's sentence.
    Served serve(int n, double start, const std::string& sentWhile = std::string()) {
        const std::size_t j = pickHost(n);
        Server& server = servers_[j];
        Metrics::ServerRow* tally = serverRow(j);
        run_.attempts.push_back(AttemptRow{});
        AttemptRow& row = run_.attempts.back();
        const std::size_t rowIndex = run_.attempts.size() - 1;
        row.n = n;
        row.startMs = start;
        if (in_.serversGiven) row.host = static_cast<int>(j);
        if (tally) ++tally->attempts;
        run_.metrics.attempts = n;

        const bool write = isWrite(in_.operation);
        const bool keyed = write && in_.idempotencyKey;
        event(start, EventKind::Send, n, [&] {
            std::string sends = label(n) + ": the client sends " + operationName(in_.operation) + " " + in_.operationId;
            if (write) sends += keyed ? " with idempotency key " + in_.operationId : " without an idempotency key";
            return sends + sentWhile;
        });

        Served served;
        served.row = rowIndex;
        served.entry = &kNoEntry;
        served.answerMs = start + server.responseMs;
        const std::string host = "server " + formatInt(static_cast<int>(j));
        if (refusedOrDropped(n, start, j, host, row, tally, served)) return served;

        // Rules 1–4 with the server's script entry: its own script's entry m (the attempts that
        // reached rule 1 on it), or the run's entry n.
        ++server.reached;
        const std::vector<ScriptEntry>& script = server.script ? *server.script : script_;
        const int which = server.script ? server.reached : n;
        const std::size_t index = std::min<std::size_t>(static_cast<std::size_t>(which - 1), script.size() - 1);
        const ScriptEntry& entry = script[index];
        served.entry = &entry;
        row.scriptIndex = static_cast<int>(index);
        row.scriptRepeats = index + 1 == script.size();
        const double answerMs = served.answerMs;

        if (entry.dropped) {
            row.server = "dropped";
            row.effect = "none: the request never reached the server";
            event(start, EventKind::RequestLost, n,
                  [&] { return std::string(label(n) + ": the request is lost on the way; the server never sees it"); });
            return served;
        }
        // §6: the key store read at arrival: rule 2 (a mark visible, its result not), then rule 3
        // (a result visible: the earliest such result is replayed).
        const Record* inFlight = nullptr;
        const Record* stored = nullptr;
        if (keyed) {
            for (const Record& r : records_) {
                if (visibleAt(r.server, j, r.result, start)) {
                    if (!stored || r.result < stored->result) stored = &r;
                } else if (!inFlight && visibleAt(r.server, j, r.mark, start)) {
                    inFlight = &r;
                }
            }
        }
        // (a): a crash on j starting in (start, answerMs] aborts what rules 2–4 decided.
        if (const std::optional<double> crash = crashStarting(j, start, answerMs)) {
            const double at = *crash;
            row.server = "aborted";
            row.effect = "none: " + host + " crashed at " + ms(at) + " before it answered; nothing was committed";
            if (tally) ++tally->aborted;
            served.reset = true;
            served.resetAt = at;
            event(at, EventKind::Reset, n, [&] {
                return label(n) + ": " + host + " crashes at " + ms(at) +
                       "; the connection is reset; nothing is committed";
            });
            return served;
        }
        applyRules(n, start, j, entry, inFlight, stored, row, tally, served);

        // The answer is lost as the entry says, or to a partition of j when it leaves.
        const bool cutOff = under(FaultKind::Partition, j, answerMs);
        served.lost = entry.lost || cutOff;
        if (cutOff && tally) ++tally->answersLost;
        if (served.lost)
            event(answerMs, EventKind::ResponseLost, n, [&] {
                return label(n) + ": the " + formatInt(*served.answered) +
                       (entry.lost ? std::string(" response is lost")
                                   : " response leaves " + host + " during a partition and is lost") +
                       "; the client never sees it";
            });
        return served;
    }

    // (p): the request never arrives at a partitioned server; (c): a crashed one refuses the
    // connection (docs/servers.md §7.1). True when either ended attempt n at `start`.
    bool refusedOrDropped(int n, double start, std::size_t j, const std::string& host, AttemptRow& row,
                          Metrics::ServerRow* tally, Served& served) {
        if (under(FaultKind::Partition, j, start)) {
            row.noEntry = true;
            row.server = "dropped";
            row.effect = "none: " + host + " is cut off (a partition); the request never arrived";
            if (tally) ++tally->dropped;
            event(start, EventKind::RequestLost, n,
                  [&] { return label(n) + ": " + host + " is cut off (a partition); the request never arrives"; });
            return true;
        }
        if (under(FaultKind::Crash, j, start)) {
            row.noEntry = true;
            row.server = "refused";
            row.effect = "none: " + host + " is down; the connection was refused";
            if (tally) ++tally->refused;
            served.refused = true;
            event(start, EventKind::Refused, n,
                  [&] { return label(n) + ": " + host + " is down; the connection is refused"; });
            return true;
        }
        return false;
    }

    // SPEC §3's rules 2–4 for attempt n on server j, its answer due at served.answerMs: a 409 while
    // a mark is visible and its result is not, the earliest visible result replayed, or the script
    // entry's status answered (and, a success of a write, committed).
    void applyRules(int n, double start, std::size_t j, const ScriptEntry& entry, const Record* inFlight,
                    const Record* stored, AttemptRow& row, Metrics::ServerRow* tally, Served& served) {
        const bool write = isWrite(in_.operation);
        const bool keyed = write && in_.idempotencyKey;
        const double answerMs = served.answerMs;
        if (inFlight) {
            served.answered = 409;
            row.server = "409";
            row.effect = "none: " + sideEffect(in_, inFlight->effect) + " is still in flight";
            if (tally) ++tally->conflicts;
            event(answerMs, EventKind::Conflict, n, [&] {
                return label(n) + ": the server answers 409 Conflict: " + sideEffect(in_, inFlight->effect) +
                       " under key " + in_.operationId + " is still in flight" + whereKept(*inFlight, j) +
                       "; nothing is committed";
            });
        } else if (stored) {
            served.answered = stored->status;
            row.server = "replay";
            row.effect = "none: replays " + sideEffect(in_, stored->effect);
            ++run_.metrics.replays;
            if (tally) ++tally->replays;
            event(answerMs, EventKind::Replay, n, [&] {
                return label(n) + ": the server finds key " + in_.operationId + whereKept(*stored, j) +
                       " and replays the stored " + formatInt(stored->status) + " (" + sideEffect(in_, stored->effect) +
                       "); nothing new is committed";
            });
        } else {
            const int status = *entry.status;
            served.answered = status;
            served.scripted = true;
            row.server = formatInt(status);
            if (classify(status) == FailureClass::Success && write) {
                int k = ++run_.metrics.charges;
                row.commitMs = answerMs;
                row.chargeNumber = k;
                row.effect = sideEffect(in_, k);
                if (keyed) records_.push_back(Record{j, start, answerMs, status, k});
                if (tally) {
                    ++tally->charges;
                    if (k > 1) ++tally->duplicates;
                }
                event(answerMs, EventKind::Commit, n, [&] {
                    const std::string unseen = keyed ? noRecordText(j) : std::string();
                    return label(n) + ": " + (unseen.empty() ? "the server commits " : unseen + "; it commits ") +
                           sideEffect(in_, k);
                });
            } else if (classify(status) == FailureClass::Success) {
                row.effect = "none: a read changes nothing";
            } else {
                row.effect = "none";
                event(answerMs, EventKind::ServerError, n, [&] {
                    return std::string(label(n) + ": the server answers " + formatInt(status) +
                                       "; nothing is committed");
                });
            }
        }
    }

    // " (written by server 0 at 200 ms)" when the record is another server's (docs/servers.md §6).
    std::string whereKept(const Record& r, std::size_t reader) const {
        if (r.server == reader) return "";
        return " (written by server " + formatInt(static_cast<int>(r.server)) + ", " + keyStoreWords() + ")";
    }

    std::string keyStoreWords() const {
        switch (in_.keyScope) {
            case servers::KeyScope::Shared: return "a shared key store";
            case servers::KeyScope::PerServer: return "per-server keys";
            case servers::KeyScope::Replicated: return "a store replicated after " + ms(in_.keyLagMs);
        }
        return "";
    }

    // "server 1 has no record of op-0001 (per-server keys)" when a record exists that this
    // server cannot see: the second charge of docs/servers.md §11.1.
    std::string noRecordText(std::size_t j) const {
        for (const Record& r : records_)
            if (r.server != j)
                return "server " + formatInt(static_cast<int>(j)) + " has no record of " + in_.operationId + " (" +
                       keyStoreWords() + ")";
        return "";
    }

    AttemptRow& attempt(int n, double start) {
        const Served served = serve(n, start);
        // Under attemptStart "before-deadline" an answer can be due after the deadline: the server
        // still does the work, but the client has stopped listening at the deadline.
        const bool arrives = served.answered && !served.lost && served.answerMs <= start + in_.clientTimeoutMs &&
                             (!in_.deadlineMs || served.answerMs <= *in_.deadlineMs);
        AttemptRow& row = run_.attempts[served.row];
        land(row, served, arrives, start + in_.clientTimeoutMs);
        run_.metrics.elapsedMs = row.endMs;
        return row;
    }

    // What the client sees of attempt row.n: its answer, or the end of its wait at `timeoutAt`
    // or at the deadline, whichever comes first.
    void land(AttemptRow& row, const Served& served, bool arrives, double timeoutAt) {
        const int n = row.n;
        const ScriptEntry& entry = *served.entry;
        const double answerMs = served.answerMs;
        const std::optional<int>& answered = served.answered;
        const bool scripted = served.scripted;
        // docs/servers.md §7.1: a refusal reaches the client at the start, a reset at the crash's
        // start when that is by the cutoff; their events are the server's (no receive follows).
        const double cutoff = in_.deadlineMs ? std::min(timeoutAt, *in_.deadlineMs) : timeoutAt;
        if (served.refused || (served.reset && served.resetAt <= cutoff)) {
            row.endMs = served.refused ? row.startMs : served.resetAt;
            lastSeen_ = served.refused ? FailureClass::Refused : FailureClass::Reset;
            row.clientClass = lastSeen_;
            row.clientSaw = failureClassName(lastSeen_);
            return;
        }
        if (arrives) {
            row.endMs = answerMs;
            row.clientSaw = formatInt(*answered);
            lastSeen_ = classify(*answered);
            lastStatus_ = *answered;
            row.clientClass = lastSeen_;
            row.scripted = scripted;
            if (scripted && entry.retryAfter) row.retryAfter = readRetryAfter(in_, entry, answerMs);
            event(answerMs, EventKind::Receive, n, [&] {
                std::string text = attemptLabel(n) + ": the client receives " + row.clientSaw;
                if (row.retryAfter) text += " with Retry-After: " + *entry.retryAfter;
                return text;
            });
        } else {
            row.clientSaw = "timeout";
            lastSeen_ = FailureClass::Timeout;
            row.clientClass = FailureClass::Timeout;
            if (in_.deadlineMs && *in_.deadlineMs < timeoutAt) {
                // The deadline comes first (SPEC §4), also when an answer due after it is cut off.
                row.endMs = *in_.deadlineMs;
                event(row.endMs, EventKind::Deadline, n, [&] {
                    return std::string(
                        attemptLabel(n) + ": the overall deadline at " + ms(*in_.deadlineMs) +
                        " ends the wait for an answer; the client does not know whether the server did the work");
                });
            } else {
                row.endMs = timeoutAt;
                event(row.endMs, EventKind::Timeout, n, [&] {
                    return std::string(attemptLabel(n) + ": no answer after " + ms(in_.clientTimeoutMs) +
                                       "; the client times out, not knowing whether the server did the work");
                });
            }
        }
    }

    std::string stopText(StopReason reason, int n, const AttemptRow& row) const {
        switch (reason) {
            case StopReason::Success: return "the run stops: " + attemptLabel(n) + " succeeded with " + row.clientSaw;
            case StopReason::NotRetryable:
                if (headerRefusesRetry(in_, row.retryAfter))
                    return "the run stops: Retry-After asks for " + ms(*row.retryAfter->waitMs) + ", more than the " +
                           ms(*in_.retryAfterMaxMs) + " this client waits, so it does not retry";
                return "the run stops: " + seenWords(row) +
                       " is not retried (retry on: " + classesRetried(in_.retryOn) + ")";
            case StopReason::WriteWithoutKey:
                return std::string("the run stops: a ") + operationName(in_.operation) +
                       " without an idempotency key is never retried; a person is told, and only a status lookup can "
                       "say whether it happened";
            case StopReason::AttemptLimit:
                return "the run stops: " + formatInt(n) + (n == 1 ? " attempt is" : " attempts is") + " the limit (" +
                       formatInt(in_.maxRetries) + (in_.maxRetries == 1 ? " retry)" : " retries)");
            default: return "";
        }
    }

    template <typename Text>
    void finish(StopReason reason, std::optional<int> lastAttempt, Text text) {
        Metrics& m = run_.metrics;
        m.stopReason = reason;
        if (!lastAttempt) {
            m.outcome = Outcome::Failed;
            m.agentReport = "not-sent";
        } else if (lastSeen_ == FailureClass::Success) {
            m.outcome = Outcome::Success;
            m.agentReport = "success";
        } else if (lastSeen_ == FailureClass::Timeout) {
            m.outcome = Outcome::Unknown;
            m.agentReport = "timeout";
        } else if (!hasStatus(lastSeen_)) {
            // docs/servers.md §5: a refusal is a certain failure, a reset ambiguous.
            m.outcome = lastSeen_ == FailureClass::Refused ? Outcome::Failed : Outcome::Unknown;
            m.agentReport = std::string("error ") + failureClassName(lastSeen_);
        } else {
            m.outcome = Outcome::Failed;
            m.agentReport = "error " + formatInt(lastStatus_);
        }
        m.duplicates = std::max(0, m.charges - 1);
        m.lookupNeeded = isWrite(in_.operation) && m.outcome == Outcome::Unknown;
        event(m.elapsedMs, EventKind::Stop, lastAttempt, text);
        // Time order; at equal times the order the events were made in, which is causal. An
        // insertion sort (stable): the events are made nearly in order and number a few
        // hundred at most, and std::stable_sort's merge code is 3 KB of the WebAssembly module.
        std::vector<Event>& events = run_.events;
        for (std::size_t i = 1; i < events.size(); ++i) {
            std::size_t j = i;
            while (j > 0 && events[i].tMs < events[j - 1].tMs) --j;
            if (j == i) continue;
            Event moved = std::move(events[i]);
            std::move_backward(events.begin() + static_cast<std::ptrdiff_t>(j),
                               events.begin() + static_cast<std::ptrdiff_t>(i),
                               events.begin() + static_cast<std::ptrdiff_t>(i) + 1);
            events[j] = std::move(moved);
        }
    }

    const Inputs& in_;
    bool describe_;  // false: metrics and attempt rows only, no sentences
    // The server's answers: a named scenario's few, built here; a script is read where it is
    // (a sweep runs up to a thousand points over one script of up to 1,000 answers, issue 18).
    std::vector<ScriptEntry> builtIn_;
    const std::vector<ScriptEntry>& script_;
    DrawStream draws_;
    double previousDecorrelated_ = 0;
    // docs/servers.md §7: the servers, the tried ones, the balancer and the key store's records
    // (one per keyed commit: its server, mark and result, §6).
    static inline const ScriptEntry kNoEntry{};
    std::vector<Server> servers_;
    std::vector<unsigned char> tried_;  // 1: the request sent to that server
    servers::Balancer balancer_;
    std::vector<Record> records_;
    FailureClass lastSeen_ = FailureClass::Timeout;
    int lastStatus_ = 0;
    Run run_;
};

// docs/layers.md: retries across layers. Each call of each layer is a SPEC run of its own; the
// calls run side by side (an orphan runs on beside its caller's retry), so the run is a queue of
// events ordered as §3 says: time, then the kind, then the path (§1's order), then the order made.
// An attempt's or a call's path (docs/layers.md §1): at most five attempt numbers of at most 101,
// held as base-128 digits, the first most significant.
struct StackPath {
    std::uint64_t digits = 0;
    int length = 0;
    StackPath child(int n) const { return {digits * 128 + static_cast<std::uint64_t>(n), length + 1}; }
    int at(int i) const {  // the i-th number from the left
        std::uint64_t d = digits;
        for (int j = i + 1; j < length; ++j) d /= 128;
        return static_cast<int>(d % 128);
    }
};

// One sentence from its pieces, in one allocation (a chain of + makes and frees a string per step,
// with code at every step).
std::string cat(std::initializer_list<std::string_view> parts) {
    std::size_t size = 0;
    for (std::string_view p : parts) size += p.size();
    std::string out;
    out.reserve(size);
    for (std::string_view p : parts) out.append(p);
    return out;
}

class LayeredRun {
public:
    LayeredRun(const Inputs& in, bool describe)
        : in_(in),
          describe_(describe),
          builtIn_(in.scenario == Scenario::Script ? std::vector<ScriptEntry>() : serverScript(in)),
          script_(in.scenario == Scenario::Script ? in.script : builtIn_),
          draws_(in.draws, in.seed),
          k_(static_cast<int>(in.layers.size())) {
        for (const Layer& l : in.layers) run_.metrics.layers.push_back({l.name});
        // Room for a short run's rows at once (the opening stack of three: 21 events, 6 attempts,
        // 5 calls), so that they are not moved as their lists grow 1, 2, 4, 8, 16.
        if (describe_) run_.events.reserve(32);
        run_.attempts.reserve(8);
        attempts_.reserve(8);
        calls_.reserve(8);
    }

    Run build() {
        startCall(0, {}, 0, std::nullopt, std::nullopt, -1, false);
        while (!queue_.empty()) {
            Item item = queue_.pop();
            switch (item.type) {
                case ItemType::Send: send(item.index, item.tMs); break;
                case ItemType::ServerWork: serverWork(item.index); break;
                case ItemType::Answer: answer(item.index, item.tMs); break;
                case ItemType::CallEnd: callEnd(item.index, item.tMs); break;
                case ItemType::Cutoff: cutoff(item.index, item.tMs); break;
            }
        }
        Metrics& m = run_.metrics;
        m.duplicates = std::max(0, m.charges - 1);
        m.lookupNeeded = isWrite(in_.operation) && m.outcome == Outcome::Unknown;
        return std::move(run_);
    }

private:
    enum class ItemType { ServerWork, Answer, CallEnd, Cutoff, Send };
    // §3's kinds: 1 the server's work, 2 an answer (or a call's end) reaching a layer, 3 a
    // cutoff, 4 a send.
    static int kindOf(ItemType t) {
        switch (t) {
            case ItemType::ServerWork: return 1;
            case ItemType::Answer:
            case ItemType::CallEnd: return 2;
            case ItemType::Cutoff: return 3;
            case ItemType::Send: return 4;
        }
        return 4;
    }
    struct Item {
        double tMs = 0;
        int kind = 0;
        std::uint64_t pathKey = 0;  // the path's numbers as base-128 digits, left-aligned (§1's order)
        std::uint64_t order = 0;    // the order made
        ItemType type = ItemType::Send;
        int index = 0;  // the call (Send) or the attempt
    };
    struct ItemLess {
        bool operator()(const Item& a, const Item& b) const {
            if (a.tMs != b.tMs) return a.tMs < b.tMs;
            if (a.kind != b.kind) return a.kind < b.kind;
            if (a.pathKey != b.pathKey) return a.pathKey < b.pathKey;
            return a.order < b.order;
        }
    };

    // What a layer received for an attempt: an answer (relayed or the server's), given-up, or a timeout.
    struct Received {
        bool timedOut = true;
        bool givenUp = false;
        int status = 0;
        std::optional<RetryAfterSeen> retryAfter;
    };

    struct Call {
        int layer = 0;  // from 0
        StackPath path;
        double startMs = 0;
        std::optional<double> deadline;
        std::optional<std::string> key;  // what its attempts carry
        int parentAttempt = -1;
        int sent = 0;
        int current = -1;  // its attempt in flight, or -1
        double waitingMs = 0;
        double previousDecorrelated = 0;
        bool ended = false, orphaned = false;
        Received last;
    };

    struct Attempt {
        int call = 0;
        int n = 0;
        StackPath path;
        double startMs = 0;
        double cutoffMs = 0;
        bool cutoffIsDeadline = false;
        std::size_t row = 0;
        int child = -1;  // an upper attempt's call below
        bool done = false;
        // A bottom attempt's server side.
        const ScriptEntry* entry = nullptr;
        std::optional<int> answered;
        bool scripted = false;  // the entry's own status answered (not a 409 nor a replay)
        bool replayed = false;
        bool orphan = false;
    };

    const Layer& layerOf(const Call& c) const { return in_.layers[static_cast<std::size_t>(c.layer)]; }
    const Inputs& policyOf(const Call& c) const { return layerOf(c).policy; }

    // "2.1": written from the right into one buffer (every event names its path: a string per
    // number and per dot was 7% of a three-layer compute({}) in WebAssembly, issue 33).
    static std::string pathText(const StackPath& path) {
        char text[20];  // five numbers of at most three digits, four dots
        char* at = text + sizeof text;
        std::uint64_t digits = path.digits;
        for (int i = path.length - 1; i >= 0; --i, digits /= 128) {
            for (unsigned n = static_cast<unsigned>(digits % 128);; n /= 10) {
                *--at = static_cast<char>('0' + n % 10);
                if (n < 10) break;
            }
            if (i > 0) *--at = '.';
        }
        return std::string(at, static_cast<std::size_t>(text + sizeof text - at));
    }
    // §1's order as one number: each of up to five attempt numbers (at most 101) a base-128 digit,
    // the first most significant, a shorter path padded with zeros (so a prefix comes first).
    static std::uint64_t pathKey(const StackPath& path) { return path.digits << (7 * (5 - path.length)); }
    // §6's id(q): q's numbers less one as base-128 digits, the first most significant.
    static std::uint64_t pathId(const StackPath& path) {
        std::uint64_t id = 0;
        for (int i = 0; i < path.length; ++i) id = id * 128 + static_cast<std::uint64_t>(path.at(i) - 1);
        return id;
    }

    void push(double t, ItemType type, const StackPath& path, int index) {
        queue_.push(Item{t, kindOf(type), pathKey(path), order_++, type, index});
    }

    // The layer's words: "SDK attempt 2.1", "SDK call 2".
    // (Each in one allocation: a chain of + made and grew a string per piece.)
    std::string attemptLabel(const Attempt& a) const {
        return cat({layerOf(calls_[static_cast<std::size_t>(a.call)]).name, " attempt ", pathText(a.path)});
    }
    std::string callLabel(const Call& c) const {
        return cat({layerOf(c).name, c.path.length == 0 ? " call" : " call ",
                    c.path.length == 0 ? std::string() : pathText(c.path)});
    }

    void event(double t, EventKind kind, std::optional<int> attempt, int layer, const StackPath& path, TextRef text) {
        run_.metrics.lastWorkMs = std::max(run_.metrics.lastWorkMs, t);
        if (describe_) run_.events.push_back(Event{t, kind, attempt, text(), layer + 1, pathText(path)});
    }

    bool fits(const Call& c, double start) const {
        if (!c.deadline) return true;
        const bool fit = start + in_.responseMs <= *c.deadline;
        return fit || (policyOf(c).attemptStart == AttemptStart::BeforeDeadline && start < *c.deadline);
    }

    // §4.2 and §5: a call starts (layer 1's at 0; any other with the attempt that makes it).
    void startCall(int layer, StackPath path, double t, std::optional<double> parentCutoff,
                   std::optional<std::string> given, int parentAttempt, bool orphaned) {
        const Layer& l = in_.layers[static_cast<std::size_t>(layer)];
        Call c;
        c.layer = layer;
        c.path = std::move(path);
        c.startMs = t;
        c.parentAttempt = parentAttempt;
        c.orphaned = orphaned;
        c.previousDecorrelated = l.policy.baseBackoffMs;
        if (l.policy.deadlineMs) c.deadline = t + *l.policy.deadlineMs;
        if (layer > 0 && l.inheritDeadline && parentCutoff) {
            const double inherited = *parentCutoff - l.deadlineMarginMs;
            c.deadline = c.deadline ? std::min(*c.deadline, inherited) : inherited;
        }
        switch (l.key) {
            case LayerKey::None: break;
            case LayerKey::Mint:
                c.key = c.path.length == 0 ? in_.operationId : in_.operationId + "." + pathText(c.path);
                break;
            case LayerKey::Pass: c.key = std::move(given); break;
        }
        const int index = static_cast<int>(calls_.size());
        calls_.push_back(std::move(c));
        Call& call = calls_.back();
        Metrics::LayerRow& row = run_.metrics.layers[static_cast<std::size_t>(layer)];
        ++row.calls;
        if (orphaned) ++row.orphaned;
        if (layer > 0)
            event(t, EventKind::Call, std::nullopt, layer, call.path, [&] {
                const std::string deadline =
                    call.deadline ? cat({", deadline at ", ms(*call.deadline), " (", ms(*call.deadline - t), " left)"})
                                  : std::string(", no deadline");
                const std::string_view keyWords = !isWrite(in_.operation) ? ""
                                                  : call.key              ? "; its attempts carry idempotency key "
                                                                          : "; its attempts carry no key";
                return cat({callLabel(call), ": starts", deadline, keyWords,
                            isWrite(in_.operation) && call.key ? std::string_view(*call.key) : std::string_view()});
            });
        if (!fits(call, t)) {
            endCall(index, StopReason::Deadline, t, [&] {
                return cat({callLabel(call), " stops before it starts: its deadline at ", ms(*call.deadline),
                            " leaves no time to send attempt 1; nothing is sent"});
            });
            return;
        }
        push(t, ItemType::Send, call.path.child(1), index);
    }

    void send(int callIndex, double t) {
        Call& c = calls_[static_cast<std::size_t>(callIndex)];
        if (c.ended) return;  // cancelled while it waited
        const Inputs& policy = policyOf(c);
        Attempt a;
        a.call = callIndex;
        a.n = ++c.sent;
        a.path = c.path.child(a.n);
        a.startMs = t;
        const double timeoutAt = t + policy.clientTimeoutMs;
        a.cutoffMs = timeoutAt;
        if (c.deadline && *c.deadline < timeoutAt) {
            a.cutoffMs = *c.deadline;
            a.cutoffIsDeadline = true;
        }
        a.orphan = c.orphaned;
        Metrics::LayerRow& layerRow = run_.metrics.layers[static_cast<std::size_t>(c.layer)];
        ++layerRow.attempts;
        if (a.n > 1) ++layerRow.retries;

        run_.attempts.push_back(AttemptRow{});
        AttemptRow& row = run_.attempts.back();
        a.row = run_.attempts.size() - 1;
        row.n = a.n;
        row.startMs = t;
        row.layer = c.layer + 1;
        row.path = pathText(a.path);
        row.key = c.key;
        row.callDeadlineMs = c.deadline;
        row.upper = c.layer + 1 < k_;
        const int index = static_cast<int>(attempts_.size());
        c.current = index;
        attempts_.push_back(std::move(a));
        if (row.upper) {
            sendCall(index, t);
        } else {
            sendToServer(index, t);
        }
    }

    void sendCall(int index, double t) {
        Attempt& a = attempts_[static_cast<std::size_t>(index)];
        const Call& c = calls_[static_cast<std::size_t>(a.call)];
        const Layer& below = in_.layers[static_cast<std::size_t>(c.layer + 1)];
        event(t, EventKind::Send, a.n, c.layer, a.path, [&] {
            return cat(
                {attemptLabel(a), ": calls ", below.name, (c.key ? " with idempotency key " + *c.key : std::string())});
        });
        push(a.cutoffMs, ItemType::Cutoff, a.path, index);
        const int layer = c.layer + 1;
        const bool orphaned = c.orphaned;
        std::optional<std::string> key = c.key;
        const double cutoffMs = a.cutoffMs;
        StackPath path = a.path;
        a.child = static_cast<int>(calls_.size());
        startCall(layer, std::move(path), t, cutoffMs, std::move(key), index, orphaned);
    }

    // SPEC §3 for bottom attempt m, its key being the call's (§5).
    void sendToServer(int index, double t) {
        Attempt& a = attempts_[static_cast<std::size_t>(index)];
        const Call& c = calls_[static_cast<std::size_t>(a.call)];
        AttemptRow& row = run_.attempts[a.row];
        const int m = ++run_.metrics.attempts;
        if (a.orphan) ++run_.metrics.orphanAttempts;
        const std::size_t entryIndex = std::min<std::size_t>(static_cast<std::size_t>(m - 1), script_.size() - 1);
        const ScriptEntry& entry = script_[entryIndex];
        a.entry = &entry;
        row.scriptIndex = static_cast<int>(entryIndex);
        row.scriptRepeats = entryIndex + 1 == script_.size();
        const bool write = isWrite(in_.operation);
        const std::optional<std::string> key = write ? c.key : std::nullopt;
        event(t, EventKind::Send, a.n, c.layer, a.path, [&] {
            return cat({attemptLabel(a), ": sends ", operationName(in_.operation), " ", in_.operationId,
                        !write ? ""
                        : key  ? " with idempotency key "
                               : " without an idempotency key",
                        key ? std::string_view(*key) : std::string_view(), " (server attempt ", formatInt(m),
                        a.orphan ? ", an orphan's)" : ")"});
        });
        const double answerMs = t + in_.responseMs;
        StoredResult* stored = nullptr;
        if (key)
            for (auto& s : stored_)
                if (s.first == *key) stored = &s.second;
        if (entry.dropped) {
            row.server = "dropped";
            row.effect = "none: the request never reached the server";
            event(t, EventKind::RequestLost, a.n, c.layer, a.path,
                  [&] { return attemptLabel(a) + ": the request is lost on the way; the server never sees it"; });
        } else if (stored && stored->committedMs > t) {
            a.answered = 409;
            row.server = "409";
            row.effect = "none: " + sideEffect(in_, stored->effectNumber) + " is still in flight";
        } else if (stored) {
            a.answered = stored->status;
            row.server = "replay";
            row.effect = "none: replays " + sideEffect(in_, stored->effectNumber);
            a.replayed = true;
            ++run_.metrics.replays;
        } else {
            const int status = *entry.status;
            a.answered = status;
            a.scripted = true;
            row.server = formatInt(status);
            if (classify(status) == FailureClass::Success && write) {
                const int k = ++run_.metrics.charges;
                if (a.orphan) ++run_.metrics.orphanCharges;
                row.commitMs = answerMs;
                row.chargeNumber = k;
                row.effect = sideEffect(in_, k);
                if (key) stored_.push_back({*key, StoredResult{answerMs, status, k}});
            } else if (classify(status) == FailureClass::Success) {
                row.effect = "none: a read changes nothing";
            } else {
                row.effect = "none";
            }
        }
        if (!entry.dropped) push(answerMs, ItemType::ServerWork, a.path, index);
        const bool arrives = a.answered && !entry.lost && answerMs <= a.cutoffMs;
        push(arrives ? answerMs : a.cutoffMs, arrives ? ItemType::Answer : ItemType::Cutoff, a.path, index);
    }

    // The server's work on a bottom attempt, at its start + responseMs (§3, kind 1).
    void serverWork(int index) {
        const Attempt& a = attempts_[static_cast<std::size_t>(index)];
        const Call& c = calls_[static_cast<std::size_t>(a.call)];
        const AttemptRow& row = run_.attempts[a.row];
        const double t = a.startMs + in_.responseMs;
        const std::string orphanWords = a.orphan ? " (an orphan's)" : "";
        if (!a.scripted && !a.replayed) {
            event(t, EventKind::Conflict, a.n, c.layer, a.path, [&] {
                return cat({attemptLabel(a), ": the server answers 409 Conflict: the work under key ", *row.key,
                            " is still in flight; nothing is committed"});
            });
        } else if (a.replayed) {
            event(t, EventKind::Replay, a.n, c.layer, a.path, [&] {
                return cat({attemptLabel(a), ": the server finds key ", *row.key, " and replays the stored ",
                            formatInt(*a.answered), "; nothing new is committed"});
            });
        } else if (row.commitMs) {
            event(t, EventKind::Commit, a.n, c.layer, a.path, [&] {
                return cat({attemptLabel(a), ": the server commits ", row.effect, orphanWords});
            });
        } else if (classify(*a.answered) != FailureClass::Success) {
            event(t, EventKind::ServerError, a.n, c.layer, a.path, [&] {
                return cat(
                    {attemptLabel(a), ": the server answers ", formatInt(*a.answered), "; nothing is committed"});
            });
        }
        if (a.answered && a.entry->lost)
            event(t, EventKind::ResponseLost, a.n, c.layer, a.path, [&] {
                return cat({attemptLabel(a), ": the ", formatInt(*a.answered), " response is lost; no one sees it"});
            });
    }

    // A bottom attempt's answer reaches its layer (kind 2).
    void answer(int index, double t) {
        Attempt& a = attempts_[static_cast<std::size_t>(index)];
        if (a.done) return;  // its call was cancelled
        Received r;
        r.timedOut = false;
        r.status = *a.answered;
        if (a.scripted && a.entry->retryAfter) r.retryAfter = readRetryAfter(in_, *a.entry, t);
        run_.attempts[a.row].scripted = a.scripted;
        received(index, t, std::move(r));
    }

    // An upper attempt's call below has ended in time (kind 2).
    void callEnd(int index, double t) {
        Attempt& a = attempts_[static_cast<std::size_t>(index)];
        if (a.done) return;
        received(index, t, resultOf(calls_[static_cast<std::size_t>(a.child)]));
    }

    // §4.4: what the layer above receives from a call that has ended.
    Received resultOf(const Call& c) const {
        const bool succeeded = !c.last.timedOut && !c.last.givenUp && classify(c.last.status) == FailureClass::Success;
        if (succeeded || layerOf(c).giveUp == GiveUp::LastFailure) return c.last;
        Received r;
        r.timedOut = false;
        r.givenUp = true;
        return r;
    }

    static std::string seenWords(const Received& r) {
        if (r.givenUp) return "given-up";
        if (r.timedOut) return "timeout";
        return formatInt(r.status);
    }

    void received(int index, double t, Received r) {
        Attempt& a = attempts_[static_cast<std::size_t>(index)];
        a.done = true;
        Call& c = calls_[static_cast<std::size_t>(a.call)];
        AttemptRow& row = run_.attempts[a.row];
        row.endMs = t;
        row.clientSaw = seenWords(r);
        row.givenUp = r.givenUp;
        row.clientClass = r.timedOut ? FailureClass::Timeout : r.givenUp ? FailureClass::Other : classify(r.status);
        row.retryAfter = r.retryAfter;
        event(t, EventKind::Receive, a.n, c.layer, a.path, [&] {
            return cat({attemptLabel(a), ": receives ", row.clientSaw, row.upper ? " from " : "",
                        row.upper ? callLabel(calls_[static_cast<std::size_t>(a.child)]) : std::string(),
                        r.retryAfter ? " with Retry-After: " : "",
                        r.retryAfter ? std::string_view(r.retryAfter->raw) : ""});
        });
        c.last = std::move(r);
        afterAttempt(index, t);
    }

    // The attempt's cutoff (§4.3, kind 3): the layer stops waiting; the call below is cancelled
    // or orphaned (§4.5).
    void cutoff(int index, double t) {
        Attempt& a = attempts_[static_cast<std::size_t>(index)];
        if (a.done) return;
        a.done = true;
        Call& c = calls_[static_cast<std::size_t>(a.call)];
        AttemptRow& row = run_.attempts[a.row];
        row.endMs = t;
        row.clientSaw = "timeout";
        row.clientClass = FailureClass::Timeout;
        const Inputs& policy = policyOf(c);
        if (a.cutoffIsDeadline)
            event(t, EventKind::Deadline, a.n, c.layer, a.path, [&] {
                return cat({attemptLabel(a), ": ", callLabel(c), "'s deadline at ", ms(a.cutoffMs),
                            " ends the wait for an answer; the layer does not know whether the server did the work"});
            });
        else
            event(t, EventKind::Timeout, a.n, c.layer, a.path, [&] {
                return cat({attemptLabel(a), ": no answer after ", ms(policy.clientTimeoutMs),
                            "; the layer times out, not knowing whether the server did the work"});
            });
        if (a.child >= 0 && !calls_[static_cast<std::size_t>(a.child)].ended) {
            if (layerOf(c).cancel == Cancel::Propagate) {
                cancelCall(a.child, t, index);
            } else {
                Call& below = calls_[static_cast<std::size_t>(a.child)];
                event(t, EventKind::Orphan, std::nullopt, below.layer, below.path, [&] {
                    return cat({callLabel(below), ": orphaned at ", ms(t), ": ", layerOf(c).name,
                                " stopped waiting for attempt ", pathText(a.path),
                                "; the call runs on and its result reaches no one"});
                });
                orphanCall(a.child);
            }
        }
        c.last = Received{};
        afterAttempt(index, t);
    }

    // §4.5 "propagate": the call and every call beneath it that is waited for end at t. A call
    // left earlier runs on untouched: its caller's attempt is done, so this walk down the attempts
    // in flight never reaches it. A call made by an orphan is waited for by its own caller, so the
    // orphan's own cutoff cancels it.
    void cancelCall(int callIndex, double t, int byAttempt) {
        Call& c = calls_[static_cast<std::size_t>(callIndex)];
        if (c.ended) return;
        c.ended = true;
        ++run_.metrics.layers[static_cast<std::size_t>(c.layer)].cancelled;
        const Attempt& by = attempts_[static_cast<std::size_t>(byAttempt)];
        event(t, EventKind::Cancel, std::nullopt, c.layer, c.path, [&] {
            return cat({callLabel(c), ": cancelled at ", ms(t), ": ",
                        layerOf(calls_[static_cast<std::size_t>(by.call)]).name, " stopped waiting for attempt ",
                        pathText(by.path), "; it sends nothing more"});
        });
        if (c.current < 0) return;
        Attempt& a = attempts_[static_cast<std::size_t>(c.current)];
        if (a.done) return;
        a.done = true;
        AttemptRow& row = run_.attempts[a.row];
        row.endMs = t;
        row.clientSaw = "cancelled";
        row.cancelled = true;
        if (a.child >= 0) cancelCall(a.child, t, byAttempt);
    }

    // §4.5 "orphan": the call and every call it has made or will make run on unwaited for.
    void orphanCall(int callIndex) {
        Call& c = calls_[static_cast<std::size_t>(callIndex)];
        if (c.ended || c.orphaned) return;
        c.orphaned = true;
        ++run_.metrics.layers[static_cast<std::size_t>(c.layer)].orphaned;
        if (c.current < 0) return;
        const Attempt& a = attempts_[static_cast<std::size_t>(c.current)];
        if (!a.done && a.child >= 0) orphanCall(a.child);
    }

    // SPEC §4's stop rules and wait after attempt `index` of its call (§4.1).
    void afterAttempt(int index, double t) {
        const Attempt& a = attempts_[static_cast<std::size_t>(index)];
        const int callIndex = a.call;
        Call& c = calls_[static_cast<std::size_t>(callIndex)];
        const Inputs& policy = policyOf(c);
        AttemptRow& row = run_.attempts[a.row];
        c.current = -1;
        if (c.layer == 0) run_.metrics.elapsedMs = t;
        const Received& r = c.last;
        const bool hasRetryAfter = r.retryAfter && r.retryAfter->raw.find_first_not_of(" \t") != std::string::npos;
        const bool refuses = headerRefusesRetry(policy, r.retryAfter);
        std::optional<StopReason> reason;
        if (r.givenUp)
            reason = StopReason::NotRetryable;  // §4.4: no layer retries given-up
        else
            reason = stopBeforeWaiting(
                policy, c.key.has_value(), a.n, r.timedOut ? FailureClass::Timeout : classify(r.status),
                r.timedOut ? std::nullopt : std::optional<int>(r.status), hasRetryAfter, refuses);
        if (reason) {
            endCall(callIndex, *reason, t, [&] { return stopWords(c, *reason, a.n, row, refuses); });
            return;
        }
        // §6: layer 1 draws as SPEC §1; any other layer from its addressed stream.
        double addressed = 0;
        if (c.layer > 0 && policy.jitter != Jitter::None)
            addressed = streams::draw(streams::streamKey(in_.seed, streams::LayerWait, 0, 0,
                                                         pathId(a.path) * 8 + static_cast<std::uint64_t>(c.layer)),
                                      0);
        WaitChoice wait = chooseWait(policy, a.n, r.retryAfter, c.previousDecorrelated,
                                     c.layer == 0 ? &draws_ : nullptr, addressed, describe_);
        if (policy.waitBudgetMs && c.waitingMs + wait.waitMs > *policy.waitBudgetMs) {
            if (c.layer == 0) run_.metrics.refusedWaitMs = wait.waitMs;
            endCall(callIndex, StopReason::WaitBudget, t, [&] {
                return cat({callLabel(c), " stops: waiting ", ms(wait.waitMs), " more (", wait.rule,
                            ") would take the total past the ", ms(*policy.waitBudgetMs), " wait budget; ",
                            ms(c.waitingMs), " waited so far"});
            });
            return;
        }
        const double next = t + wait.waitMs;
        if (!fits(c, next)) {
            endCall(callIndex, StopReason::Deadline, t, [&] {
                return cat({callLabel(c), " stops: attempt ", formatInt(a.n + 1), " would start at ", ms(next),
                            ", too late for the deadline at ", ms(*c.deadline)});
            });
            return;
        }
        row.waitAfterMs = wait.waitMs;
        row.waitKind = wait.fromHeader ? WaitKind::Header : WaitKind::Backoff;
        row.waitShape = wait.shape;
        row.waitRule = wait.rule;
        row.ceilingMs = wait.ceilingMs;
        row.draw = wait.draw;
        c.waitingMs += wait.waitMs;
        if (c.layer == 0) run_.metrics.waitingMs = c.waitingMs;
        const StackPath nextPath = c.path.child(a.n + 1);
        event(t, EventKind::Wait, a.n, c.layer, a.path, [&] {
            const bool unusable = row.retryAfter && row.retryAfter->note == "unusable";
            return cat({layerOf(c).name, " waits ", ms(wait.waitMs), " (", wait.rule, ") before attempt ",
                        pathText(nextPath), unusable ? "; the unusable Retry-After \"" : "",
                        unusable ? std::string_view(row.retryAfter->raw) : "",
                        unusable                                     ? "\" is ignored"
                        : row.retryAfter && !policy.honourRetryAfter ? "; Retry-After is not honoured by this layer"
                                                                     : ""});
        });
        push(next, ItemType::Send, nextPath, callIndex);
    }

    std::string stopWords(const Call& c, StopReason reason, int n, const AttemptRow& row, bool refuses) const {
        const Inputs& policy = policyOf(c);
        const std::string who = callLabel(c);
        switch (reason) {
            case StopReason::Success:
                return cat({who, " stops: attempt ", row.path, " succeeded with ", row.clientSaw});
            case StopReason::NotRetryable:
                if (refuses)
                    return cat({who, " stops: Retry-After asks for ", ms(*row.retryAfter->waitMs), ", more than the ",
                                ms(*policy.retryAfterMaxMs), " this layer waits, so it does not retry"});
                if (row.givenUp) return who + " stops: the call below gave up and said not to retry";
                return cat({who, " stops: ", (row.clientSaw == "timeout" ? std::string("a timeout") : row.clientSaw),
                            " is not retried (retry on: ", classesRetried(policy.retryOn), ")"});
            case StopReason::WriteWithoutKey:
                return cat({who, " stops: a ", operationName(in_.operation),
                            " without an idempotency key is never retried by this layer"});
            case StopReason::AttemptLimit:
                return cat({who, " stops: ", formatInt(n), (n == 1 ? " attempt is" : " attempts is"), " the limit (",
                            formatInt(policy.maxRetries), (policy.maxRetries == 1 ? " retry)" : " retries)")});
            default: return who + " stops";
        }
    }

    // A call ends (§4.1): layer 1's ends the run (SPEC §4's outcome); another's result goes up to
    // the attempt that made it, if that attempt still waits.
    void endCall(int callIndex, StopReason reason, double t, TextRef text) {
        Call& c = calls_[static_cast<std::size_t>(callIndex)];
        c.ended = true;
        if (c.layer == 0) {
            Metrics& m = run_.metrics;
            m.stopReason = reason;
            if (c.sent == 0) {
                m.outcome = Outcome::Failed;
                m.agentReport = "not-sent";
            } else if (c.last.givenUp) {
                m.outcome = Outcome::Failed;
                m.agentReport = "error given-up";
            } else if (c.last.timedOut) {
                m.outcome = Outcome::Unknown;
                m.agentReport = "timeout";
            } else if (classify(c.last.status) == FailureClass::Success) {
                m.outcome = Outcome::Success;
                m.agentReport = "success";
            } else {
                m.outcome = Outcome::Failed;
                m.agentReport = "error " + formatInt(c.last.status);
            }
            event(t, EventKind::Stop, c.sent > 0 ? std::optional<int>(c.sent) : std::nullopt, c.layer, c.path,
                  [&] { return text(); });
            return;
        }
        const Received result = resultOf(c);
        if (result.givenUp || result.timedOut || classify(result.status) != FailureClass::Success)
            event(t, EventKind::GiveUp, std::nullopt, c.layer, c.path, [&] {
                return cat({text(), "; it gives up and relays ", seenWords(result)});
            });
        if (c.parentAttempt >= 0 && !attempts_[static_cast<std::size_t>(c.parentAttempt)].done) {
            const Attempt& parent = attempts_[static_cast<std::size_t>(c.parentAttempt)];
            push(t, ItemType::CallEnd, parent.path, c.parentAttempt);
        }
    }

    const Inputs& in_;
    bool describe_;
    std::vector<ScriptEntry> builtIn_;
    const std::vector<ScriptEntry>& script_;
    DrawStream draws_;
    int k_;
    std::vector<Call> calls_;
    std::vector<Attempt> attempts_;
    std::vector<std::pair<std::string, StoredResult>> stored_;  // §5: per key value, the first committed
    MinHeap<Item, ItemLess> queue_;
    std::uint64_t order_ = 0;
    Run run_;
};
}  // namespace

Herd simulateHerd(const Inputs& in, const Run& single);

Run simulate(const Inputs& in, bool describe) {
    if (!in.layers.empty()) return LayeredRun(in, describe).build();
    Run run = RunBuilder(in, describe).build();
    if (in.callers > 1) run.herd = simulateHerd(in, run);
    return run;
}

}  // namespace retrylab
