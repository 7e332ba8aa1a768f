// SPEC §5's result written as it is made (issue 18), for a binding with its own format: the
// WebAssembly binding writes compute()'s run straight onto its tape, with no Value tree in
// between, and toValue() (result.cpp) builds its Value through the same calls, so both give
// the same result from one description of it.
//
// `Out` is any type with these members (a template, not virtual functions: no vtable and no
// RTTI in the engine file, and the calls inline):
//   null()  boolean(bool)  number(double)  string(std::string_view)
//   beginArray()  endArray()  beginObject()  key(std::string_view)  endObject()
//   value(const Value&)   a whole Value (the echo of the inputs, an error result); writeValue()
//                         below walks one through the calls above
// An object's members come as key() then one value; lists and objects are bracketed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "retrylab/engine.hpp"

namespace retrylab {

// `v` through out's calls; its items and members through out.value(), so that a writer can
// treat some (a list of numbers) as a block.
template <class Out>
void writeValue(Out& out, const Value& v) {
    switch (v.kind()) {
        case Value::Kind::Null: out.null(); return;
        case Value::Kind::Bool: out.boolean(v.asBool()); return;
        case Value::Kind::Number: out.number(v.asNumber()); return;
        case Value::Kind::String: out.string(v.asString()); return;
        case Value::Kind::Array:
            out.beginArray();
            for (const Value& item : v.asArray()) out.value(item);
            out.endArray();
            return;
        case Value::Kind::Object:
            out.beginObject();
            for (const Value::Member& m : v.asObject()) {
                out.key(m.key);
                out.value(m.value);
            }
            out.endObject();
            return;
        case Value::Kind::Unsupported: out.null(); return;  // the core never returns one
    }
}

namespace detail {

template <class Out>
struct RunWriter {
    Out& out;

    void member(std::string_view key, double x) {
        out.key(key);
        out.number(x);
    }
    void member(std::string_view key, std::string_view s) {
        out.key(key);
        out.string(s);
    }
    void member(std::string_view key, const char* s) { member(key, std::string_view(s)); }
    void member(std::string_view key, bool b) {
        out.key(key);
        out.boolean(b);
    }
    void count(std::string_view key, std::int64_t n) { member(key, static_cast<double>(n)); }
    void orNull(std::string_view key, const std::optional<double>& x) {
        out.key(key);
        if (x)
            out.number(*x);
        else
            out.null();
    }
    void orNull(std::string_view key, const std::optional<int>& n) {
        out.key(key);
        if (n)
            out.number(static_cast<double>(*n));
        else
            out.null();
    }
    void orNull(std::string_view key, const std::optional<std::string>& s) {
        out.key(key);
        if (s)
            out.string(*s);
        else
            out.null();
    }

    void event(const Event& e) {
        out.beginObject();
        member("tMs", e.tMs);
        member("kind", eventKindName(e.kind));
        orNull("attempt", e.attempt);
        member("text", std::string_view(e.text));
        if (e.layer > 0) {
            count("layer", e.layer);
            member("path", std::string_view(e.path));
        }
        if (e.host >= 0) count("host", e.host);
        out.endObject();
    }

    void attempt(const AttemptRow& a) {
        out.beginObject();
        count("n", a.n);
        member("startMs", a.startMs);
        member("endMs", a.endMs);
        if (a.upper) {  // an upper layer's attempt is a call below: no server of its own
            out.key("server");
            out.null();
        } else {
            member("server", std::string_view(a.server));
        }
        orNull("commitMs", a.commitMs);
        if (a.upper) {
            out.key("effect");
            out.null();
        } else {
            member("effect", std::string_view(a.effect));
        }
        member("clientSaw", std::string_view(a.clientSaw));
        orNull("waitAfterMs", a.waitAfterMs);
        orNull("waitRule", a.waitRule);
        orNull("ceilingMs", a.ceilingMs);
        orNull("draw", a.draw);
        out.key("retryAfter");
        if (a.retryAfter) {
            out.beginObject();
            member("raw", std::string_view(a.retryAfter->raw));
            orNull("waitMs", a.retryAfter->waitMs);
            member("note", std::string_view(a.retryAfter->note));
            out.endObject();
        } else {
            out.null();
        }
        member("waitKind", waitKindName(a.waitKind));
        member("waitShape", waitShapeName(a.waitShape));
        if (a.upper || a.noEntry) {
            out.key("scriptIndex");
            out.null();
            out.key("scriptRepeats");
            out.null();
        } else {
            count("scriptIndex", a.scriptIndex);
            member("scriptRepeats", a.scriptRepeats);
        }
        member("clientClass", a.cancelled ? "cancelled" : a.givenUp ? "given-up" : failureClassName(a.clientClass));
        orNull("chargeNumber", a.chargeNumber);
        member("scripted", a.scripted);
        if (a.layer > 0) {
            count("layer", a.layer);
            member("path", std::string_view(a.path));
            orNull("key", a.key);
            orNull("callDeadlineMs", a.callDeadlineMs);
        }
        if (a.hedgedRun) member("hedge", a.hedge);
        if (a.host) count("host", *a.host);
        out.endObject();
    }

    void metrics(const Metrics& m) {
        out.beginObject();
        count("attempts", m.attempts);
        count("charges", m.charges);
        count("replays", m.replays);
        member("elapsedMs", m.elapsedMs);
        member("waitingMs", m.waitingMs);
        member("outcome", outcomeName(m.outcome));
        member("stopReason", stopReasonName(m.stopReason));
        orNull("refusedWaitMs", m.refusedWaitMs);
        count("duplicates", m.duplicates);
        member("lookupNeeded", m.lookupNeeded);
        member("agentReport", std::string_view(m.agentReport));
        if (!m.layers.empty()) {
            out.key("layers");
            out.beginArray();
            for (const Metrics::LayerRow& l : m.layers) {
                out.beginObject();
                member("name", std::string_view(l.name));
                count("calls", l.calls);
                count("attempts", l.attempts);
                count("retries", l.retries);
                count("cancelled", l.cancelled);
                count("orphaned", l.orphaned);
                out.endObject();
            }
            out.endArray();
            count("orphanAttempts", m.orphanAttempts);
            count("orphanCharges", m.orphanCharges);
            member("lastWorkMs", m.lastWorkMs);
        }
        if (m.hedgedRun) {
            count("hedges", m.hedges);
            count("lateAnswers", m.lateAnswers);
        }
        if (m.serversRun) servers(m.servers);
        out.endObject();
    }

    void servers(const std::vector<Metrics::ServerRow>& rows) {
        out.key("servers");
        out.beginArray();
        for (const Metrics::ServerRow& s : rows) {
            out.beginObject();
            count("host", s.host);
            count("attempts", s.attempts);
            count("charges", s.charges);
            count("replays", s.replays);
            count("conflicts", s.conflicts);
            count("refused", s.refused);
            count("aborted", s.aborted);
            count("dropped", s.dropped);
            count("answersLost", s.answersLost);
            count("duplicates", s.duplicates);
            out.endObject();
        }
        out.endArray();
    }

    void herd(const Herd& h) {
        out.beginObject();
        count("callers", h.callers);
        count("notRetried", h.notRetried);
        member("bucketMs", h.bucketMs);
        out.key("buckets");
        out.beginArray();
        for (std::uint32_t b : h.buckets) out.number(static_cast<double>(b));
        out.endArray();
        count("occupied", h.occupied);
        count("fullest", h.fullest);
        out.endObject();
    }

    void run(const Value& echo, const Run& r) {
        out.beginObject();
        member("ok", true);
        member("engine", engineVersion());
        out.key("inputs");
        out.value(echo);
        out.key("events");
        out.beginArray();
        for (const Event& e : r.events) event(e);
        out.endArray();
        out.key("attempts");
        out.beginArray();
        for (const AttemptRow& a : r.attempts) attempt(a);
        out.endArray();
        out.key("metrics");
        metrics(r.metrics);
        if (r.herd) {
            out.key("herd");
            herd(*r.herd);
        }
        out.endObject();
    }

    void sweep(const SweepRun& s) {
        out.beginObject();
        member("ok", true);
        member("engine", engineVersion());
        member("vary", s.vary);
        out.key("inputs");
        out.value(s.echo);
        out.key("points");
        out.beginArray();
        for (const SweepPoint& p : s.points) {
            out.beginObject();
            member("value", p.value);
            count("attempts", p.attempts);
            count("charges", p.charges);
            member("outcome", outcomeName(p.outcome));
            member("elapsedMs", p.elapsedMs);
            count("replays", p.replays);
            member("agentReport", std::string_view(p.agentReport));
            member("stopReason", stopReasonName(p.stopReason));
            out.endObject();
        }
        out.endArray();
        out.key("boundaries");
        out.beginArray();
        for (const SweepBoundary& b : s.boundaries) {
            out.beginObject();
            member("value", b.value);
            member("before", outcomeName(b.before));
            member("after", outcomeName(b.after));
            count("chargesBefore", b.chargesBefore);
            count("chargesAfter", b.chargesAfter);
            member("text", std::string_view(b.text));
            out.endObject();
        }
        out.endArray();
        out.endObject();
    }
};

}  // namespace detail

// SPEC §5's result of a run, `{ ok: true, engine, inputs, events, attempts, metrics, herd? }`,
// written to `out`: what toValue(echo, run) holds, member for member.
template <class Out>
void writeRun(Out& out, const Value& echo, const Run& run) {
    detail::RunWriter<Out>{out}.run(echo, run);
}

// compute(rawInputs) written to `out`: the same result, an error result included.
template <class Out>
void computeTo(Out& out, const Value& rawInputs) {
    ParsedInputs parsed = parseInputs(rawInputs);
    if (!parsed.inputs) {
        out.value(toValue(parsed.errors));
        return;
    }
    Run run = simulate(*parsed.inputs);
    writeRun(out, parsed.echo, run);
}

// docs/engine.md §3's result of a sweep, `{ ok: true, engine, vary, inputs, points, boundaries }`,
// or its `{ ok: false, errors }`, written to `out`: what sweep() returns, member for member.
template <class Out>
void writeSweep(Out& out, const SweepRun& run) {
    if (!run.errors.empty()) {
        out.value(toValue(run.errors));
        return;
    }
    detail::RunWriter<Out>{out}.sweep(run);
}

// sweep(request) written to `out`, with no tree of its points in between (issue 18).
template <class Out>
void sweepTo(Out& out, const Value& request) {
    writeSweep(out, runSweep(request));
}

}  // namespace retrylab
