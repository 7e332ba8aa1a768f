// SPEC §3–§4: one client, one run, attempt by attempt.
#include <algorithm>
#include <cmath>

#include "format.hpp"
#include "http_date.hpp"
#include "policy.hpp"
#include "retrylab/engine.hpp"

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
    return out.empty() ? "nothing" : out;
}

// The first committed result under the idempotency key.
struct StoredResult {
    double committedMs = 0;
    int status = 200;
    int effectNumber = 1;
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
    }

    Run build() {
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
        double start = 0;
        for (int n = 1;; ++n) {
            AttemptRow& row = attempt(n, start);
            std::optional<int> status;
            if (lastSeen_ != FailureClass::Timeout) status = lastStatus_;
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
    static bool carriesRetryAfter(const AttemptRow& row) {
        return row.retryAfter && row.retryAfter->raw.find_first_not_of(" \t") != std::string::npos;
    }

    // `text` makes the event's sentence; a run that is not described (a sweep's points) has no
    // events at all, so no sentence is ever made.
    template <typename Text>
    void event(double t, EventKind kind, std::optional<int> attempt, Text text) {
        if (describe_) run_.events.push_back(Event{t, kind, attempt, text()});
    }

    AttemptRow& attempt(int n, double start) {
        const std::size_t index = std::min<std::size_t>(static_cast<std::size_t>(n - 1), script_.size() - 1);
        const ScriptEntry& entry = script_[index];
        run_.attempts.push_back(AttemptRow{});
        AttemptRow& row = run_.attempts.back();
        row.n = n;
        row.scriptIndex = static_cast<int>(index);
        row.scriptRepeats = index + 1 == script_.size();
        row.startMs = start;
        run_.metrics.attempts = n;

        const bool write = isWrite(in_.operation);
        const bool keyed = write && in_.idempotencyKey;
        event(start, EventKind::Send, n, [&] {
            std::string sends =
                attemptLabel(n) + ": the client sends " + operationName(in_.operation) + " " + in_.operationId;
            if (write) sends += keyed ? " with idempotency key " + in_.operationId : " without an idempotency key";
            return sends;
        });

        const double answerMs = start + in_.responseMs;
        std::optional<int> answered;  // the status the server sends back, if it sees the request
        bool scripted = false;
        if (entry.dropped) {
            row.server = "dropped";
            row.effect = "none: the request never reached the server";
            event(start, EventKind::RequestLost, n, [&] { return std::string(attemptLabel(n) + ": the request is lost on the way; the server never sees it"); });
        } else if (keyed && stored_ && stored_->committedMs > start) {
            answered = 409;
            row.server = "409";
            row.effect = "none: " + sideEffect(in_, stored_->effectNumber) + " is still in flight";
            event(answerMs, EventKind::Conflict, n, [&] { return std::string(attemptLabel(n) + ": the server answers 409 Conflict: " + sideEffect(in_, stored_->effectNumber) +
                      " under key " + in_.operationId + " is still in flight; nothing is committed"); });
        } else if (keyed && stored_) {
            answered = stored_->status;
            row.server = "replay";
            row.effect = "none: replays " + sideEffect(in_, stored_->effectNumber);
            ++run_.metrics.replays;
            event(answerMs, EventKind::Replay, n, [&] { return std::string(attemptLabel(n) + ": the server finds key " + in_.operationId + " and replays the stored " +
                      formatInt(stored_->status) + " (" + sideEffect(in_, stored_->effectNumber) + "); nothing new is committed"); });
        } else {
            const int status = *entry.status;
            answered = status;
            scripted = true;
            row.server = formatInt(status);
            if (classify(status) == FailureClass::Success && write) {
                int k = ++run_.metrics.charges;
                row.commitMs = answerMs;
                row.chargeNumber = k;
                row.effect = sideEffect(in_, k);
                if (keyed && !stored_) stored_ = StoredResult{answerMs, status, k};
                event(answerMs, EventKind::Commit, n, [&] { return std::string(attemptLabel(n) + ": the server commits " + sideEffect(in_, k)); });
            } else if (classify(status) == FailureClass::Success) {
                row.effect = "none: a read changes nothing";
            } else {
                row.effect = "none";
                event(answerMs, EventKind::ServerError, n, [&] { return std::string(attemptLabel(n) + ": the server answers " + formatInt(status) + "; nothing is committed"); });
            }
        }

        if (answered && entry.lost)
            event(answerMs, EventKind::ResponseLost, n, [&] { return std::string(attemptLabel(n) + ": the " + formatInt(*answered) + " response is lost; the client never sees it"); });

        // Under attemptStart "before-deadline" an answer can be due after the deadline: the server
        // still does the work, but the client has stopped listening at the deadline.
        const bool arrives = answered && !entry.lost && answerMs <= start + in_.clientTimeoutMs &&
                             (!in_.deadlineMs || answerMs <= *in_.deadlineMs);
        if (arrives) {
            row.endMs = answerMs;
            row.clientSaw = formatInt(*answered);
            lastSeen_ = classify(*answered);
            lastStatus_ = *answered;
            row.clientClass = lastSeen_;
            if (scripted && entry.retryAfter) row.retryAfter = readRetryAfter(entry, answerMs);
            event(answerMs, EventKind::Receive, n, [&] {
                std::string text = attemptLabel(n) + ": the client receives " + row.clientSaw;
                if (row.retryAfter) text += " with Retry-After: " + *entry.retryAfter;
                return text;
            });
        } else {
            double timeoutAt = start + in_.clientTimeoutMs;
            row.clientSaw = "timeout";
            lastSeen_ = FailureClass::Timeout;
            row.clientClass = FailureClass::Timeout;
            if (in_.deadlineMs && *in_.deadlineMs < timeoutAt) {
                // The deadline comes first (SPEC §4), also when an answer due after it is cut off.
                row.endMs = *in_.deadlineMs;
                event(row.endMs, EventKind::Deadline, n, [&] { return std::string(attemptLabel(n) + ": the overall deadline at " + ms(*in_.deadlineMs) +
                          " ends the wait for an answer; the client does not know whether the server did the work"); });
            } else {
                row.endMs = timeoutAt;
                event(row.endMs, EventKind::Timeout, n, [&] { return std::string(attemptLabel(n) + ": no answer after " + ms(in_.clientTimeoutMs) +
                          "; the client times out, not knowing whether the server did the work"); });
            }
        }
        run_.metrics.elapsedMs = row.endMs;
        return row;
    }

    // The Retry-After the client read, measured from the response's own Date.
    RetryAfterSeen readRetryAfter(const ScriptEntry& entry, double answerMs) const {
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

    std::string stopText(StopReason reason, int n, const AttemptRow& row) const {
        switch (reason) {
            case StopReason::Success: return "the run stops: " + attemptLabel(n) + " succeeded with " + row.clientSaw;
            case StopReason::NotRetryable:
                if (headerRefusesRetry(in_, row.retryAfter))
                    return "the run stops: Retry-After asks for " + ms(*row.retryAfter->waitMs) + ", more than the " +
                           ms(*in_.retryAfterMaxMs) + " this client waits, so it does not retry";
                return "the run stops: " + (row.clientSaw == "timeout" ? std::string("a timeout") : row.clientSaw) +
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
    std::optional<StoredResult> stored_;
    FailureClass lastSeen_ = FailureClass::Timeout;
    int lastStatus_ = 0;
    Run run_;
};

}  // namespace

Herd simulateHerd(const Inputs& in, const Run& single);

Run simulate(const Inputs& in, bool describe) {
    Run run = RunBuilder(in, describe).build();
    if (in.callers > 1) run.herd = simulateHerd(in, run);
    return run;
}

}  // namespace retrylab
