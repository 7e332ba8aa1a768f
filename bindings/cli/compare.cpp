// Two runs and their differences (compare.hpp). The page's compare view reads the same
// figures from the same results (web/compare/model.js); tests/node/link-cli.test.js holds
// the figures to SPEC.md's and FLEET.md's text.
#include "compare.hpp"

#include <cmath>
#include <set>
#include <utility>

#include "presets.hpp"
#include "retrylab/compare_metrics.hpp"
#include "retrylab/engine.hpp"
#include "retrylab/fields.hpp"
#include "retrylab/fleet.hpp"
#include "retrylab/json.hpp"
#include "retrylab/markdown.hpp"

namespace retrysim {

using retrylab::Field;
using retrylab::Value;

namespace {

const Value& presetData() {
    static const Value data = [] {
        retrylab::json::Parsed parsed = retrylab::json::parse(std::string_view(kPresetsJson));
        return parsed.value ? *parsed.value : Value::object();
    }();
    return data;
}

const Value* presetOf(const std::string& id) {
    const Value* presets = presetData().find("presets");
    if (!presets || presets->kind() != Value::Kind::Array) return nullptr;
    for (const Value& p : presets->asArray()) {
        const Value* pid = p.find("id");
        if (pid && pid->kind() == Value::Kind::String && pid->asString() == id) return &p;
    }
    return nullptr;
}

// `object` with `key` set to `value` (replaced where it was, appended otherwise).
Value with(const Value& object, const std::string& key, Value value) {
    Value::Object members = object.asObject();
    for (Value::Member& m : members) {
        if (m.key == key) {
            m.value = std::move(value);
            return Value::object(std::move(members));
        }
    }
    members.push_back({key, std::move(value)});
    return Value::object(std::move(members));
}

Value without(const Value& object, const std::string& key) {
    Value::Object members;
    for (const Value::Member& m : object.asObject())
        if (m.key != key) members.push_back(m);
    return Value::object(std::move(members));
}

Value overlay(Value base, const Value& over) {
    for (const Value::Member& m : over.asObject()) base = with(base, m.key, m.value);
    return base;
}

// Leaves out each input the side did not give itself (`own`) whose onlyWhen rule its inputs
// no longer meet (a preset's jitterLow under jitter=none, the script after scenario changes).
Value dropStrandedDependents(Value inputs, const Value& own) {
    for (const Field& field : retrylab::inputFields().fields) {
        if (field.onlyWhen.field.empty() || !inputs.find(field.name) || own.find(field.name)) continue;
        const Value* sibling = inputs.find(field.onlyWhen.field);
        const Field* siblingRow = retrylab::inputFields().find(field.onlyWhen.field);
        Value siblingValue = sibling ? *sibling : siblingRow ? retrylab::defaultValueOf(*siblingRow) : Value();
        if (!field.onlyWhen.value.matches(siblingValue)) inputs = without(inputs, field.name);
    }
    return inputs;
}

bool isOk(const Value& result) {
    const Value* ok = result.find("ok");
    return ok && ok->kind() == Value::Kind::Bool && ok->asBool();
}

// The value at a dotted path ("totals.latencyMs.p99"), or nullptr.
const Value* at(const Value& v, const std::string& path) {
    const Value* here = &v;
    std::size_t start = 0;
    while (here) {
        std::size_t dot = path.find('.', start);
        std::string key = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (here->kind() != Value::Kind::Object) return nullptr;
        here = here->find(key);
        if (dot == std::string::npos) return here;
        start = dot + 1;
    }
    return nullptr;
}

using retrylab::CompareMetric;

// The metrics a comparison lists: the engine's table (core/src/compare_metrics.cpp), the one
// the page reads through compareMetrics().
retrylab::CompareMetrics metricsOf(bool fleet) {
    return fleet ? retrylab::fleetCompareMetrics() : retrylab::runCompareMetrics();
}
const CompareMetric* metricNamed(bool fleet, const std::string& name) {
    for (const CompareMetric& m : metricsOf(fleet))
        if (name == m.name) return &m;
    return nullptr;
}
std::string unitText(const CompareMetric* m) { return m && std::string(m->unit) == "ms" ? " ms" : ""; }

std::string inputText(const std::string& name, const Value* v, const Value* other = nullptr);

// Is this input a stack (`layers`, or a fleet request's `policy.layers`) holding layers?
bool isStackInput(const std::string& name, const Value& v) {
    const std::string tail = "layers";
    bool named = name == tail || (name.size() > tail.size() &&
                                  name.compare(name.size() - tail.size() - 1, std::string::npos, "." + tail) == 0);
    if (!named || v.kind() != Value::Kind::Array || v.asArray().empty()) return false;
    for (const Value& layer : v.asArray())
        if (layer.kind() != Value::Kind::Object) return false;
    return true;
}

// A stack in the comparison's words (web/compare/stack-words.js says it the same): each layer,
// top first, its name and in brackets its retries, its key and every other field whose value
// differs from the other side's layer at the same place, joined by " over ".
std::string stackText(const Value& layers, const Value* other) {
    std::string out;
    const Value::Array& list = layers.asArray();
    for (std::size_t i = 0; i < list.size(); ++i) {
        const Value& layer = list[i];
        const Value* twin = other && other->kind() == Value::Kind::Array && i < other->asArray().size() &&
                                    other->asArray()[i].kind() == Value::Kind::Object
                                ? &other->asArray()[i]
                                : nullptr;
        std::string parts;
        for (const Value::Member& m : layer.asObject()) {
            if (m.key == "name") continue;
            const Value* theirs = twin ? twin->find(m.key) : nullptr;
            bool differs = twin && !(theirs && retrylab::sameJson(m.value, *theirs));
            if (m.key != "maxRetries" && m.key != "key" && !differs) continue;
            parts += (parts.empty() ? "" : ", ") + m.key + " " + inputText(m.key, &m.value);
        }
        const Value* name = layer.find("name");
        std::string shown =
            name && name->kind() == Value::Kind::String ? name->asString() : "layer " + std::to_string(i + 1);
        out += (i ? " over " : "") + shown + (parts.empty() ? "" : " (" + parts + ")");
    }
    return out;
}

// An input's value in words for the summary and the table: numbers as the page writes them,
// null as "none", lists joined by commas, a script as a link writes it, a stack of layers as
// stackText says it (`other`: the other side's value).
std::string inputText(const std::string& name, const Value* v, const Value* other) {
    if (!v) return "(not set)";
    if (isStackInput(name, *v)) return stackText(*v, other);
    switch (v->kind()) {
        case Value::Kind::Null: return "none";
        case Value::Kind::Bool: return v->asBool() ? "true" : "false";
        case Value::Kind::Number: return pageNumber(v->asNumber());
        case Value::Kind::String: return v->asString();
        case Value::Kind::Array: {
            if (name == "script") return valueText(name, *v);
            std::string out;
            for (std::size_t i = 0; i < v->asArray().size(); ++i)
                out += (i ? "," : "") + inputText(name, &v->asArray()[i]);
            return out.empty() ? "(none)" : out;
        }
        default: return retrylab::json::dump(*v, -1);
    }
}

std::string metricText(const CompareMetric* m, const Value* v) {
    if (!v) return "-";
    if (v->isNull()) return m ? m->none : "none";
    if (v->kind() == Value::Kind::Number) return pageNumber(v->asNumber()) + unitText(m);
    if (v->kind() == Value::Kind::Bool) return v->asBool() ? "yes" : "no";
    if (v->kind() == Value::Kind::String) return v->asString();
    return retrylab::json::dump(*v, -1);
}

// --- a fleet comparison's headline (docs/compare.md §6; web/compare/headline.js words the same) ---

// The fleet section's labels, [[path, label]...] in the map's order (presets.hpp).
const Value::Array& fleetLabels() {
    static const Value data = [] {
        retrylab::json::Parsed parsed = retrylab::json::parse(std::string_view(kFleetWordsJson));
        return parsed.value ? *parsed.value : Value::object();
    }();
    static const Value::Array none;
    const Value* labels = data.find("labels");
    return labels && labels->kind() == Value::Kind::Array ? labels->asArray() : none;
}
std::string labelOf(const std::string& path) {
    for (const Value& pair : fleetLabels())
        if (pair.asArray()[0].asString() == path) return pair.asArray()[1].asString();
    return "";
}

// One side's recovery: kind "none" (no trigger), "rode-out", "recovered" (`after`: the seconds
// from the trigger's end, as the page writes them), "metastable" or "undecided" (FLEET.md §8).
std::pair<std::string, std::string> recoveryOf(const Value& result) {
    const Value* rec = result.find("recovery");
    if (!rec || rec->kind() != Value::Kind::Object) return {"none", ""};
    const Value* disrupted = rec->find("disrupted");
    if (disrupted && disrupted->kind() == Value::Kind::Bool && !disrupted->asBool()) return {"rode-out", ""};
    const Value* recovered = rec->find("recoveredAtMs");
    if (recovered && recovered->kind() == Value::Kind::Number)
        return {"recovered", pageNumber((recovered->asNumber() - rec->find("triggerEndMs")->asNumber()) / 1000)};
    const Value* metastable = rec->find("metastable");
    return {metastable && metastable->kind() == Value::Kind::Bool && metastable->asBool() ? "metastable" : "undecided",
            ""};
}

std::string recoveryClause(const Value& before, const Value& after) {
    const auto b = recoveryOf(before), a = recoveryOf(after);
    if (a.first == "none" && b.first == "none") return "";
    const Value* kind = at(after, "request.trigger.kind");
    const std::string what =
        kind && kind->kind() == Value::Kind::String && kind->asString() == "outage" ? "outage" : "slowdown";
    std::string said = a.first == "none"         ? "nothing goes wrong"
                       : a.first == "rode-out"   ? "rides it out"
                       : a.first == "recovered"  ? "recovers " + a.second + " s after the " + what
                       : a.first == "metastable" ? "never recovers"
                                                 : "has not recovered when new requests stop";
    if (a == b) return said + ", as before";
    const std::string was = b.first == "none"         ? "nothing going wrong"
                            : b.first == "rode-out"   ? "riding it out"
                            : b.first == "recovered"  ? b.second + " s after"
                            : b.first == "metastable" ? "never"
                                                      : "not recovered when new requests stop";
    return said + " instead of " + was;
}

// The headline's parts, [text | { code }], as web/compare/headline.js fleetHeadline() makes
// them: each input that differs in the section's words (a gate switched on as its name, scope
// and size, one switched off "<gate> off", a path the section does not label as code), then
// the recovery and the duplicate charges.
Value fleetHeadline(const Value& inputs, const Value& before, const Value& after) {
    Value parts = Value::array();
    auto add = [&](Value item) {
        if (!parts.asArray().empty()) parts.push(Value::string(", "));
        parts.push(std::move(item));
    };
    std::set<std::string> said;
    for (const Value& row : inputs.asArray()) {
        const std::string name = row.find("name")->asString();
        const std::string x = inputText(name, row.find("before"), row.find("after")),
                          y = inputText(name, row.find("after"), row.find("before"));
        if (name.rfind("gates.", 0) == 0) {
            const std::string gate = name.substr(0, name.find('.', 6));
            const Value* was = at(before, "request." + gate);
            const Value* is = at(after, "request." + gate);
            if ((was && was->isNull()) || (is && is->isNull())) {
                if (!said.insert(gate).second) continue;
                std::string label = labelOf(gate);
                if (label.empty()) label = gate;
                if (!is || is->kind() != Value::Kind::Object) {
                    add(Value::string(label + " off"));
                    continue;
                }
                std::string size;
                for (const Value& pair : fleetLabels()) {
                    const std::string& path = pair.asArray()[0].asString();
                    if (path.rfind(gate + ".", 0) != 0) continue;
                    const std::string field = path.substr(gate.size() + 1);
                    const Value* v = is->find(field);
                    if (!v) continue;
                    size = ", " + pair.asArray()[1].asString().substr(label.size() + 2) + " " + inputText(field, v);
                    break;
                }
                add(Value::string(label + " (per " + inputText("scope", is->find("scope")) + size + ")"));
                continue;
            }
        }
        const std::string label = labelOf(name);
        if (!label.empty()) {
            add(Value::string(label + " " + x + " \xE2\x86\x92 " + y));
        } else {
            Value code = Value::object();
            code.set("code", Value::string(name));
            add(std::move(code));
            parts.push(Value::string(" " + x + " \xE2\x86\x92 " + y));
        }
    }
    if (parts.asArray().empty()) parts.push(Value::string("the same inputs"));
    std::vector<std::string> clauses;
    const std::string recovery = recoveryClause(before, after);
    if (!recovery.empty()) clauses.push_back(recovery);
    const Value* x = at(before, "totals.duplicateCharges");
    const Value* y = at(after, "totals.duplicateCharges");
    if (x && y && x->kind() == Value::Kind::Number && y->kind() == Value::Kind::Number)
        clauses.push_back(x->asNumber() == y->asNumber()
                              ? "duplicate charges " + pageNumber(y->asNumber()) + ", as before"
                              : "duplicate charges " + pageNumber(x->asNumber()) + " \xE2\x86\x92 " +
                                    pageNumber(y->asNumber()));
    if (!clauses.empty()) {
        std::string text = ": ";
        for (std::size_t i = 0; i < clauses.size(); ++i) text += (i ? "; " : "") + clauses[i];
        parts.push(Value::string(text));
    }
    return parts;
}

std::string headlineText(const Value& parts) {
    std::string out;
    for (const Value& p : parts.asArray())
        out += p.kind() == Value::Kind::String ? p.asString() : "`" + p.find("code")->asString() + "`";
    return out;
}

// The comparison link (OWNERS.md): the before side's keys against the defaults (or against
// its preset), then the after keys where the after side differs from the before side.
// An input's value in an echo: one the echo leaves out is at its default (layers and hedging
// are echoed only when given), unless it has none or depends on another input (the script, a
// proportional jitter's bounds); then nullptr (codec.js's encodeCompareLink does the same).
const Value* echoed(const Value& echo, const Field& field, Value& holder) {
    if (const Value* v = echo.find(field.name)) return v;
    if (field.defaultValue.kind == retrylab::Literal::Kind::None || !field.onlyWhen.field.empty()) return nullptr;
    holder = retrylab::defaultValueOf(field);
    return &holder;
}

std::string compareLink(const Side& before, const Side& after, const Value& beforeEcho, const Value& afterEcho) {
    const LinkFormat& f = linkFormat();
    std::vector<std::string> parts = {f.versionKey + f.equals + f.version,
                                      "view" + std::string(1, f.equals) + "compare"};
    if (!before.client.empty()) parts.push_back("client" + std::string(1, f.equals) + escapeText(before.client));
    if (after.client != before.client && !after.client.empty())
        parts.push_back(f.after + "client" + f.equals + escapeText(after.client));
    // The before side: against the preset's own run of the defaults when it names one.
    Value base = Value::object();
    if (!before.client.empty()) base = presetPolicy(before.client);
    Value baseEcho = retrylab::parseInputs(base).echo;
    for (const Field& field : retrylab::inputFields().fields) {
        if (!isLinkInput(field.name)) continue;
        Value held, heldBase;
        const Value* b = echoed(beforeEcho, field, held);
        // Without a preset, against the table's defaults (as codec.js's encodeLink).
        Value fieldDefault =
            field.defaultValue.kind != retrylab::Literal::Kind::None ? retrylab::defaultValueOf(field) : Value();
        const Value* d = !before.client.empty()                                     ? echoed(baseEcho, field, heldBase)
                         : field.defaultValue.kind != retrylab::Literal::Kind::None ? &fieldDefault
                                                                                    : nullptr;
        if (b && !(d && retrylab::sameJson(*b, *d))) parts.push_back(field.name + f.equals + valueText(field.name, *b));
    }
    // The after side: what differs from the before side (after the after preset's policy).
    Value afterBase = beforeEcho;
    if (!after.client.empty() && after.client != before.client)
        afterBase = overlay(afterBase, presetPolicy(after.client));
    for (const Field& field : retrylab::inputFields().fields) {
        if (!isLinkInput(field.name)) continue;
        Value heldAfter, heldBase;
        const Value* a = echoed(afterEcho, field, heldAfter);
        const Value* b = echoed(afterBase, field, heldBase);
        if (a && !(b && retrylab::sameJson(*a, *b)))
            parts.push_back(linkFormat().after + field.name + linkFormat().equals + valueText(field.name, *a));
    }
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i)
        out += (i ? std::string(1, linkFormat().pairs) : std::string()) + parts[i];
    return out;
}

Value errorsOf(const Value& result) {
    const Value* errors = result.find("errors");
    return errors ? *errors : Value::array();
}

}  // namespace

bool isPreset(const std::string& id) { return presetOf(id) != nullptr; }

Value presetPolicy(const std::string& id) {
    const Value* p = presetOf(id);
    const Value* inputs = p ? p->find("inputs") : nullptr;
    return inputs ? *inputs : Value::object();
}

std::string presetName(const std::string& id) {
    const Value* p = presetOf(id);
    const Value* name = p ? p->find("short") : nullptr;
    return name && name->kind() == Value::Kind::String ? name->asString() : id;
}

std::string presetIds() {
    std::string out;
    const Value* presets = presetData().find("presets");
    if (presets)
        for (const Value& p : presets->asArray()) out += (out.empty() ? "" : ", ") + p.find("id")->asString();
    return out;
}

Sides sidesOfLink(const Link& link, std::vector<LinkProblem>& problems) {
    Sides sides;
    auto preset = [&](const std::string& key, const std::string& id) {
        if (id.empty()) return true;
        if (isPreset(id)) return true;
        problems.push_back({key, id, "not-a-preset", "is not one of the presets (" + presetIds() + ")"});
        return false;
    };
    Value before = Value::object();
    if (preset("client", link.client) && !link.client.empty()) {
        before = presetPolicy(link.client);
        sides.before.client = link.client;
    }
    before = dropStrandedDependents(overlay(before, link.before), link.before);
    Value after = before;
    sides.after.client = sides.before.client;
    if (preset("after.client", link.afterClient) && !link.afterClient.empty()) {
        after = overlay(after, presetPolicy(link.afterClient));
        sides.after.client = link.afterClient;
    }
    after = dropStrandedDependents(overlay(after, link.after), link.after);
    sides.before.inputs = std::move(before);
    sides.after.inputs = std::move(after);
    return sides;
}

Value compare(const Side& before, const Side& after, bool fleet) {
    Value b = fleet ? retrylab::fleet(before.inputs) : retrylab::compute(before.inputs);
    Value a = fleet ? retrylab::fleet(after.inputs) : retrylab::compute(after.inputs);
    if (!isOk(b) || !isOk(a)) {
        Value errors = Value::array();
        std::vector<std::pair<std::string, std::string>> seen;
        const Value beforeErrors = errorsOf(b), afterErrors = errorsOf(a);
        for (const Value& e : beforeErrors.asArray()) {
            errors.push(e);
            seen.emplace_back(e.find("field")->asString(), e.find("code")->asString());
        }
        for (const Value& e : afterErrors.asArray()) {
            std::pair<std::string, std::string> key(e.find("field")->asString(), e.find("code")->asString());
            bool inBefore = false;
            for (const auto& s : seen) inBefore = inBefore || s == key;
            if (inBefore) continue;
            std::string field = "after." + key.first;
            Value renamed = Value::object();
            renamed.set("field", Value::string(field));
            renamed.set("code", Value::string(key.second));
            renamed.set("message", Value::string(field + " " + e.find("detail")->asString()));
            renamed.set("detail", *e.find("detail"));
            errors.push(std::move(renamed));
        }
        Value out = Value::object();
        out.set("ok", Value::boolean(false));
        out.set("errors", std::move(errors));
        return out;
    }

    const char* echoKey = fleet ? "request" : "inputs";
    const Value& beforeEcho = *b.find(echoKey);
    const Value& afterEcho = *a.find(echoKey);

    // The inputs that differ and the metrics' rows: the core's comparison (compare_metrics.hpp).
    Value compared = retrylab::compareResults(b, a, fleet);
    Value inputs = *compared.find("inputs");
    std::vector<std::string> said;
    for (const Value& row : inputs.asArray()) {
        const std::string name = row.find("name")->asString();
        const Value *x = row.find("before"), *y = row.find("after");
        said.push_back("`" + name + "` " + inputText(name, x, y) + " → " + inputText(name, y, x));
    }

    std::string summary;
    if (!before.client.empty()) summary = presetName(before.client);
    if (after.client != before.client) {
        std::string change = "client " + (before.client.empty() ? std::string("(none)") : presetName(before.client)) +
                             " → " + (after.client.empty() ? std::string("(none)") : presetName(after.client));
        summary = change;
    }
    for (const std::string& s : said) summary += (summary.empty() ? "" : ", ") + s;
    if (said.empty() && after.client == before.client)
        summary += (summary.empty() ? "" : ", ") + std::string("the same inputs");

    Value out = Value::object();
    out.set("ok", Value::boolean(true));
    out.set("engine", Value::string(retrylab::engineVersion()));
    out.set("of", Value::string(fleet ? "fleet" : "run"));
    if (!before.client.empty() || !after.client.empty()) {
        Value client = Value::object();
        client.set("before", before.client.empty() ? Value::null() : Value::string(before.client));
        client.set("after", after.client.empty() ? Value::null() : Value::string(after.client));
        out.set("client", std::move(client));
    }
    out.set("summary", Value::string(summary));
    if (fleet) out.set("headline", Value::string(headlineText(fleetHeadline(inputs, b, a))));
    out.set("inputs", std::move(inputs));
    for (const char* key : {"metrics", "sideEffectChanged", "outcomeChanged"}) out.set(key, *compared.find(key));
    if (!fleet) out.set("link", Value::string("#" + compareLink(before, after, beforeEcho, afterEcho)));
    out.set("before", std::move(b));
    out.set("after", std::move(a));
    return out;
}

Value markdownWords(const Value& comparison, const std::string& baseUrl) {
    const bool fleet = comparison.find("of")->asString() == "fleet";
    // The summary as compare() says it, its names as code: the preset, or the change of preset,
    // then each input that differs.
    Value summary = Value::array();
    const Value* client = comparison.find("client");
    auto clientOf = [&](const char* side) {
        const Value* id = client ? client->find(side) : nullptr;
        return id && id->kind() == Value::Kind::String ? id->asString() : std::string();
    };
    const std::string before = clientOf("before"), after = clientOf("after");
    std::string lead = before.empty() ? "" : presetName(before);
    if (after != before)
        lead = "client " + (before.empty() ? std::string("(none)") : presetName(before)) + " \xE2\x86\x92 " +
               (after.empty() ? std::string("(none)") : presetName(after));
    bool first = lead.empty();
    if (!lead.empty()) summary.push(Value::string(lead));
    Value inputs = Value::array();
    for (const Value& row : comparison.find("inputs")->asArray()) {
        const std::string name = row.find("name")->asString();
        const std::string x = inputText(name, row.find("before"), row.find("after")),
                          y = inputText(name, row.find("after"), row.find("before"));
        if (!first) summary.push(Value::string(", "));
        first = false;
        Value part = Value::object();
        part.set("code", Value::string(name));
        summary.push(std::move(part));
        summary.push(Value::string(" " + x + " \xE2\x86\x92 " + y));
        Value words = Value::object();
        words.set("name", Value::string(name));
        words.set("before", Value::string(x));
        words.set("after", Value::string(y));
        inputs.push(std::move(words));
    }
    if (inputs.asArray().empty() && after == before)
        summary.push(Value::string(lead.empty() ? "the same inputs" : ", the same inputs"));
    // A fleet comparison's summary is its headline, in the section's words.
    if (fleet)
        summary = fleetHeadline(*comparison.find("inputs"), *comparison.find("before"), *comparison.find("after"));

    Value metrics = Value::array(), unchanged = Value::array();
    for (const Value& row : comparison.find("metrics")->asArray()) {
        const std::string label = row.find("label")->asString();
        if (!row.find("changed")->asBool()) {
            unchanged.push(Value::string(label));
            continue;
        }
        const CompareMetric* m = metricNamed(fleet, row.find("name")->asString());
        const Value& delta = *row.find("delta");
        std::string change;
        if (delta.kind() == Value::Kind::Number)
            change = (delta.asNumber() > 0   ? "+"
                      : delta.asNumber() < 0 ? "-"
                                             : "") +
                     pageNumber(std::fabs(delta.asNumber())) + unitText(m);
        Value words = Value::object();
        words.set("label", Value::string(label));
        words.set("before", Value::string(metricText(m, row.find("before"))));
        words.set("after", Value::string(metricText(m, row.find("after"))));
        words.set("change", Value::string(change));
        words.set("flag", *row.find("flag"));
        metrics.push(std::move(words));
    }
    Value out = Value::object();
    out.set("summary", std::move(summary));
    out.set("inputs", std::move(inputs));
    out.set("metrics", std::move(metrics));
    out.set("unchanged", std::move(unchanged));
    const Value* link = comparison.find("link");
    if (!baseUrl.empty() && link) {
        out.set("base", Value::string(baseUrl));
        out.set("link", *link);
    }
    return out;
}

std::string markdown(const Value& comparison, const std::string& baseUrl) {
    Value written = retrylab::markdown::comparison(markdownWords(comparison, baseUrl));
    const Value* md = written.find("markdown");
    return md ? md->asString() : std::string();
}

std::string pageNumber(double n) {
    if (n != n) return "NaN";
    const std::string sign = std::signbit(n) ? "-" : "";
    if (std::isinf(n)) return sign + "∞";
    std::string text = numberText(std::fabs(n));
    std::size_t e = text.find('e');
    std::string mantissa = text.substr(0, e);
    int exponent = e == std::string::npos ? 0 : std::atoi(text.c_str() + e + 1);
    std::size_t dot = mantissa.find('.');
    std::string whole = mantissa.substr(0, dot);
    std::string fraction = dot == std::string::npos ? "" : mantissa.substr(dot + 1);
    std::string digits = whole + fraction;
    long point = static_cast<long>(whole.size()) + exponent;
    if (point < 0) {
        digits = std::string(static_cast<std::size_t>(-point), '0') + digits;
        point = 0;
    }
    if (static_cast<long>(digits.size()) < point + 3) digits.resize(static_cast<std::size_t>(point + 3), '0');
    std::string kept = digits.substr(0, static_cast<std::size_t>(point + 2));
    if (digits[static_cast<std::size_t>(point + 2)] >= '5') {
        long i = static_cast<long>(kept.size()) - 1;
        while (i >= 0 && kept[static_cast<std::size_t>(i)] == '9') kept[static_cast<std::size_t>(i--)] = '0';
        if (i >= 0)
            ++kept[static_cast<std::size_t>(i)];
        else
            kept.insert(kept.begin(), '1');
    }
    std::string units = kept.substr(0, kept.size() - 2);
    std::string cents = kept.substr(kept.size() - 2);
    std::size_t nonzero = units.find_first_not_of('0');
    units = nonzero == std::string::npos ? "0" : units.substr(nonzero);
    while (!cents.empty() && cents.back() == '0') cents.pop_back();
    std::string grouped;
    for (std::size_t i = 0; i < units.size(); ++i) {
        if (i > 0 && (units.size() - i) % 3 == 0) grouped += ',';
        grouped += units[i];
    }
    return sign + grouped + (cents.empty() ? "" : "." + cents);
}

}  // namespace retrysim
