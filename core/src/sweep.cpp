// Failure-boundary sweeps: one input varied across a range, every point computed, and each
// change of behaviour located exactly (bisection on the continuous fields).
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "format.hpp"
#include "retrylab/engine.hpp"

namespace retrylab {

namespace {

constexpr int kMaxPoints = 1000;

// A field a sweep may vary; its bounds are the input table's.
struct Swept {
    const char* name;
    const char* label;  // "a deadline of 3,700 ms"
    double lo = 0, hi = 0;
    bool whole = false;
};

Swept swept(const char* name, const char* label) {
    const Field& row = inputFields().field(name);
    return {name, label, row.lo, row.hi, row.whole};
}

// A sweep request's own error; `subject` begins the sentence (usually the field itself).
InputError problem(std::string field, const char* code, const std::string& subject, std::string detail) {
    std::string message = subject + " " + detail;
    return {std::move(field), code, std::move(message), std::move(detail)};
}

// A parse error of the swept inputs, its path under `inputs`.
InputError underInputs(InputError e) {
    e.field = e.field.empty() ? "inputs" : e.field[0] == '[' ? "inputs" + e.field : "inputs." + e.field;
    return e;
}

void setField(Inputs& in, const Swept& f, double x) {
    const std::string_view name = f.name;
    if (name == "deadlineMs")
        in.deadlineMs = x;
    else if (name == "clientTimeoutMs")
        in.clientTimeoutMs = x;
    else if (name == "baseBackoffMs")
        in.baseBackoffMs = x;
    else if (name == "responseMs")
        in.responseMs = x;
    else
        in.maxRetries = static_cast<int>(x);
}

// What a reader compares between two points.
struct Behaviour {
    int attempts = 0;
    int charges = 0;
    Outcome outcome = Outcome::Failed;
    bool operator==(const Behaviour& o) const {
        return attempts == o.attempts && charges == o.charges && outcome == o.outcome;
    }
    bool operator!=(const Behaviour& o) const { return !(*this == o); }
};

// `in` is the sweep's one working copy of the inputs (callers set to 1): each point sets the
// swept field and nothing else, so no point copies the draws or the script (issue 18).
Behaviour behaviourAt(Inputs& in, const Swept& f, double x) {
    setField(in, f, x);
    Metrics m = simulate(in, false).metrics;
    return {m.attempts, m.charges, m.outcome};
}

// With commas, as the page writes numbers: 3700 -> "3,700".
std::string grouped(double x) {
    std::string plain = formatMs(x);
    std::size_t end = plain.find('.');
    if (end == std::string::npos) end = plain.size();
    std::size_t begin = plain[0] == '-' ? 1 : 0;
    for (std::size_t i = end; i > begin + 3; i -= 3) plain.insert(i - 3, ",");
    return plain;
}

std::string valueWords(const Swept& f, double x) {
    if (f.whole) return grouped(x) + (x == 1 ? " retry" : " retries");
    return std::string("a ") + f.label + " of " + grouped(x) + " ms";
}

std::string chargeWords(int before, int after) {
    static const char* const ordinals[] = {"", "a first", "a second", "a third", "a fourth", "a fifth"};
    if (after > before) return after <= 5 ? std::string(ordinals[after]) + " charge" : "charge #" + formatInt(after);
    return after == 0 ? "no charge" : after == 1 ? "only one charge" : "only " + formatInt(after) + " charges";
}

std::string changeWords(const Behaviour& before, const Behaviour& after) {
    std::string words;
    auto add = [&](const std::string& part) { words += (words.empty() ? "" : ", ") + part; };
    if (after.charges != before.charges) add(chargeWords(before.charges, after.charges));
    if (after.outcome != before.outcome)
        add(std::string("outcome ") + outcomeName(after.outcome) + " instead of " + outcomeName(before.outcome));
    if (words.empty())
        add(formatInt(after.attempts) + (after.attempts == 1 ? " attempt" : " attempts") + " instead of " +
            formatInt(before.attempts));
    return words;
}

// The smallest x in (lo, hi] that behaves as hi does, when lo and hi behave differently.
double refine(Inputs& in, const Swept& f, double lo, double hi, const Behaviour& atHi) {
    if (f.whole) {
        while (hi - lo > 1) {
            double mid = std::floor((lo + hi) / 2);
            (behaviourAt(in, f, mid) == atHi ? hi : lo) = mid;
        }
        return hi;
    }
    for (int i = 0; i < 100 && hi - lo > 1e-7 * std::max(1.0, std::fabs(hi)); ++i) {
        double mid = lo + (hi - lo) / 2;
        (behaviourAt(in, f, mid) == atHi ? hi : lo) = mid;
    }
    // Boundaries sit on sums of the inputs, usually whole milliseconds: report the tidy value
    // when it behaves the same.
    double tidy = std::round(hi * 1000) / 1000;
    return tidy > lo && behaviourAt(in, f, tidy) == atHi ? tidy : hi;
}

SweepPoint pointAt(double x, const Metrics& m) {
    SweepPoint p;
    p.value = x;
    p.attempts = m.attempts;
    p.charges = m.charges;
    p.outcome = m.outcome;
    p.elapsedMs = m.elapsedMs;
    p.replays = m.replays;
    p.agentReport = m.agentReport;
    p.stopReason = m.stopReason;
    return p;
}

// docs/layers.md §2: a sweep over a stack runs at most this many server attempts at its points.
constexpr double kMaxStackWork = 20000;

SweepRun failure(std::vector<InputError> errors) {
    SweepRun run;
    run.errors = std::move(errors);
    return run;
}

// docs/engine.md §3: a field the run would not read. gRPC A6's hedged run (docs/throttling.md §6.1)
// sends hedging.maxAttempts copies with maxRetries 0 and makes no backoff wait; with an explicit
// ceilingScheduleMs the backoff's base is read only by decorrelated jitter (its floor).
void noOpField(const Inputs& in, std::string_view name, std::vector<InputError>& errors) {
    auto refuse = [&](const std::string& why) {
        errors.push_back(
            problem("vary", "conflict", "vary",
                    "cannot be \"" + std::string(name) + "\" " + why + ": every point would be the same run."));
    };
    const bool a6 = in.hedging && in.hedging->kind == HedgeKind::A6;
    if (a6 && name == "maxRetries")
        refuse(
            "with gRPC A6's inputs.hedging: its copies are inputs.hedging.maxAttempts and maxRetries must stay 0 "
            "(docs/throttling.md §6.1)");
    else if (a6 && name == "baseBackoffMs")
        refuse("with gRPC A6's inputs.hedging: a hedged run makes no backoff wait (docs/throttling.md §6.1)");
    else if (name == "baseBackoffMs" && !in.ceilingScheduleMs.empty() && in.jitter != Jitter::Decorrelated)
        refuse(
            "with inputs.ceilingScheduleMs: the schedule gives every ceiling (docs/engine.md §2), and only "
            "decorrelated jitter reads the base");
}

}  // namespace

SweepRun runSweep(const Value& request) {
    std::vector<InputError> errors;
    if (request.kind() != Value::Kind::Object)
        return failure({problem("", "wrong-type", "A sweep request",
                                "must be an object such as { \"vary\": \"deadlineMs\", \"from\": 3000, "
                                "\"to\": 4000, \"points\": 101 }.")});
    for (const Value::Member& m : request.asObject())
        if (m.key != "inputs" && m.key != "vary" && m.key != "from" && m.key != "to" && m.key != "points") {
            std::string path = memberPath("", m.key);
            errors.push_back(problem(path, "unknown-field", path,
                                     "is not part of a sweep request (inputs, vary, from, to, points)."));
        }

    // The inputs are read where they are: `given ? *given : Value::object()` was a copy of them
    // on every call (a conditional is a new value when either side is one), 100,000 draws and
    // all (issue 18); both sides are lvalues here.
    const Value* given = request.find("inputs");
    const Value none = Value::object();
    ParsedInputs parsed = parseInputs(given ? *given : none);
    for (InputError& e : parsed.errors) errors.push_back(underInputs(std::move(e)));

    const Swept kFields[] = {
        swept("deadlineMs", "deadline"),        swept("clientTimeoutMs", "client timeout"),
        swept("baseBackoffMs", "base backoff"), swept("responseMs", "response time"),
        swept("maxRetries", "maximum retries"),
    };
    const Swept* field = nullptr;
    const Value* vary = request.find("vary");
    if (vary && vary->kind() == Value::Kind::String)
        for (const Swept& f : kFields) field = vary->asString() == f.name ? &f : field;
    if (!field)
        errors.push_back(problem("vary", vary ? "not-a-choice" : "missing", "vary",
                                 "must be one of \"deadlineMs\", \"clientTimeoutMs\", \"baseBackoffMs\", "
                                 "\"responseMs\" or \"maxRetries\"."));
    // docs/layers.md §2: with layers each policy field is every layer's own (filled in from the
    // run's), so setting the run's would change nothing; the server's responseMs is the stack's.
    if (field && parsed.inputs && !parsed.inputs->layers.empty() && std::string_view(field->name) != "responseMs")
        errors.push_back(problem("vary", "conflict", "vary",
                                 "must be \"responseMs\" when inputs.layers is given: " + std::string(field->name) +
                                     " is each layer's own (docs/layers.md §2)."));
    // A swept field the run does not read would give the same run at every point (issue 34): refused,
    // naming what the run reads instead. docs/engine.md §3.
    if (field && parsed.inputs) noOpField(*parsed.inputs, field->name, errors);

    auto bound = [&](const char* name, double& out) {
        const Value* v = request.find(name);
        if (!v || v->kind() != Value::Kind::Number || !std::isfinite(v->asNumber())) {
            errors.push_back(problem(name, v ? "wrong-type" : "missing", name, "must be a number."));
            return;
        }
        out = v->asNumber();
        if (field && (out < field->lo || out > field->hi || (field->whole && std::floor(out) != out)))
            errors.push_back(problem(name, field->whole && std::floor(out) != out ? "not-whole" : "out-of-range", name,
                                     std::string("must be ") + (field->whole ? "a whole number" : "a number") +
                                         " from " + formatMs(field->lo) + " to " + formatMs(field->hi) + " for " +
                                         std::string(field->name) + "; got " + formatMs(out, 6) + "."));
    };
    double from = 0, to = 0, points = 0;
    bound("from", from);
    bound("to", to);
    const Value* p = request.find("points");
    if (!p || p->kind() != Value::Kind::Number || std::floor(p->asNumber()) != p->asNumber() || p->asNumber() < 2 ||
        p->asNumber() > kMaxPoints)
        errors.push_back(problem("points",
                                 !p                                 ? "missing"
                                 : p->kind() != Value::Kind::Number ? "wrong-type"
                                                                    : "out-of-range",
                                 "points", "must be a whole number from 2 to 1000."));
    else
        points = p->asNumber();
    if (errors.empty() && !(from < to)) errors.push_back(problem("to", "conflict", "to", "must be greater than from."));
    if (errors.empty() && field->whole && points > to - from + 1) points = to - from + 1;  // one point per whole value
    // docs/layers.md §2: a stack's points cost up to its product of maxRetries + 1 server attempts
    // each (and a boundary's bisection some thirty more runs), so a sweep over one holds the
    // points times that product to kMaxStackWork.
    if (errors.empty() && parsed.inputs && !parsed.inputs->layers.empty()) {
        double product = 1;
        for (const Layer& l : parsed.inputs->layers) product *= l.policy.maxRetries + 1;
        if (points * product > kMaxStackWork)
            errors.push_back(problem("points", "too-much-work", "points",
                                     "must be at most " + formatMs(std::max(2.0, std::floor(kMaxStackWork / product))) +
                                         " over these layers: the points times the server attempts a run may make (" +
                                         formatMs(product) + ") may be at most " + formatMs(kMaxStackWork) +
                                         " (docs/layers.md §2); got " + formatMs(points) + "."));
    }
    if (!errors.empty()) return failure(std::move(errors));

    // The parsed inputs are the sweep's one working copy, not a copy per point: with 100,000
    // draws or a 1,000-answer script a copy per point was most of the sweep's time (issue 18).
    Inputs at = std::move(*parsed.inputs);
    at.callers = 1;
    SweepRun run;
    run.vary = field->name;
    const auto count = static_cast<int>(points);
    run.points.reserve(static_cast<std::size_t>(count));
    Behaviour previous;
    double previousX = 0;
    for (int i = 0; i < count; ++i) {
        double x = from + (to - from) * i / (count - 1);
        if (field->whole) x = std::round(x);
        setField(at, *field, x);
        Metrics m = simulate(at, false).metrics;
        Behaviour b{m.attempts, m.charges, m.outcome};
        run.points.push_back(pointAt(x, m));
        if (i > 0 && b != previous) {
            double edge = refine(at, *field, previousX, x, b);
            SweepBoundary boundary;
            boundary.value = edge;
            boundary.before = previous.outcome;
            boundary.after = b.outcome;
            boundary.chargesBefore = previous.charges;
            boundary.chargesAfter = b.charges;
            boundary.text = changeWords(previous, b) + " from " + valueWords(*field, edge);
            run.boundaries.push_back(std::move(boundary));
        }
        previous = b;
        previousX = x;
    }
    run.echo = std::move(parsed.echo);
    return run;
}

}  // namespace retrylab
