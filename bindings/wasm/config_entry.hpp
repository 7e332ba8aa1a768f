// The page's config file (retrylab-config.js, built with RETRYLAB_ENGINE_CONFIG; docs/config-in.md
// §13): two entry points over what retrysim --from runs (bindings/config's readSide() and
// changed(), the core's config::read()), so the page and the command read a pasted file alike.
//
//   readConfig({ text, options })   §2.5's answer, or §2.6's errors (a text refused as a whole:
//                                   one error with its code, line and column, format null).
//                                   options: retrysim's --from options by name (from, method,
//                                   route, impl, istioDefault, document, run, profile, sdk,
//                                   section, env: the environment file's text; situation: the
//                                   page's run, whose situation inputs become `run`)
//   compareConfigs({ before, after })  each side read as readConfig() reads it ({ text, options }),
//                                   and §10.3's `changed` between them: { ok, before, after, changed,
//                                   conflict? }
#pragma once

#include <string>

#include "retrylab/config.hpp"
#include "retrylab/config_side.hpp"
#include "retrylab/config_text.hpp"
#include "retrylab/fields.hpp"

namespace configentry {

using retrylab::Value;
namespace config = retrylab::config;

inline Value refusal(const std::string& field, const std::string& code, const std::string& message) {
    Value error = Value::object();
    error.set("field", Value::string(field));
    error.set("line", Value::null());
    error.set("column", Value::null());
    error.set("code", Value::string(code));
    error.set("message", Value::string(message));
    error.set("detail", Value::string(message));
    Value out = Value::object();
    out.set("ok", Value::boolean(false));
    out.set("format", Value::null());
    out.set("errors", Value::array({error}));
    return out;
}

// retrysim's options (§10.1) from the page's object; "" when they are well formed, else `error`.
inline bool readOptions(const Value& given, config::Options& o, Value& error) {
    if (given.isNull()) return true;
    if (given.kind() != Value::Kind::Object) {
        error = refusal("options", "wrong-type", "options must be an object");
        return false;
    }
    for (const Value::Member& m : given.asObject()) {
        const std::string& k = m.key;
        std::string field = "options." + k;
        auto text = [&](std::string& into, bool* has) {
            if (m.value.kind() != Value::Kind::String) {
                error = refusal(field, "wrong-type", field + " must be a string");
                return false;
            }
            into = m.value.asString();
            if (has) *has = true;
            return true;
        };
        bool ok = true;
        if (k == "from")
            ok = text(o.from, nullptr);
        else if (k == "method")
            ok = text(o.method, &o.hasMethod);
        else if (k == "route")
            ok = text(o.route, &o.hasRoute);
        else if (k == "impl")
            ok = text(o.impl, &o.hasImpl);
        else if (k == "istioDefault")
            ok = text(o.istioDefault, &o.hasIstioDefault);
        else if (k == "profile")
            ok = text(o.profile, &o.hasProfile);
        else if (k == "sdk")
            ok = text(o.sdk, &o.hasSdk);
        else if (k == "section")
            ok = text(o.section, &o.hasSection);
        else if (k == "document") {
            double n = m.value.kind() == Value::Kind::Number ? m.value.asNumber() : 0;
            if (!(n >= 1 && n <= 1000000 && n == static_cast<double>(static_cast<int>(n)))) {
                error = refusal(field, "wrong-type", "options.document is a whole number from 1");
                return false;
            }
            o.document = static_cast<int>(n);
        } else if (k == "run") {
            if (m.value.kind() != Value::Kind::Object) {
                error =
                    refusal(field, "wrong-type", "options.run must be an object (the situation, docs/config-in.md §1)");
                return false;
            }
            o.run = m.value;
            o.hasRun = true;
        } else if (k == "situation") {
            // The page's own run (its inputs, as compute() echoes them): §1's situation is the
            // members config::situationNames() lists that differ from the engine's defaults, as a
            // --run file holding exactly those would be.
            if (m.value.kind() != Value::Kind::Object) {
                error = refusal(field, "wrong-type", "options.situation must be the run's inputs (an object)");
                return false;
            }
            Value run = Value::object();
            for (const std::string& name : config::situationNames()) {
                const Value* v = m.value.find(name);
                const retrylab::Field* row = retrylab::inputFields().find(name);
                if (!v || (row && retrylab::sameValue(row->defaultValue.toValue(), *v))) continue;
                run.set(name, *v);
            }
            if (!run.asObject().empty()) {
                o.run = std::move(run);
                o.hasRun = true;
            }
        } else if (k == "env") {
            std::string env;
            if (!text(env, nullptr)) return false;
            config::Parsed parsed = config::parseEnvironment(env);
            if (!parsed.text) {
                error = config::textErrorAnswer(parsed.error);
                return false;
            }
            o.env = std::move(parsed.text->documents.front());
            o.hasEnv = true;
        } else {
            error = refusal(field, "unknown-field", field + " is not an option of readConfig()");
            return false;
        }
        if (!ok) return false;
    }
    return true;
}

inline Value readConfig(const Value& input) {
    if (input.kind() != Value::Kind::Object) return refusal("", "wrong-type", "readConfig() takes { text, options }");
    const Value* text = input.find("text");
    config::Options o;
    Value error;
    const Value* options = input.find("options");
    if (!readOptions(options ? *options : Value::null(), o, error)) return error;
    for (const Value::Member& m : input.asObject())
        if (m.key != "text" && m.key != "options")
            return refusal(m.key, "unknown-field",
                           m.key + " is not a member of readConfig()'s argument (text, options)");
    if (!text && o.hasEnv) {  // §3: the environment alone (--from aws --env FILE with no file)
        config::Text t;
        t.syntax = "ini";
        config::Document empty;
        empty.value = Value::object();
        t.documents.push_back(std::move(empty));
        return config::read(t, o);
    }
    if (!text || text->kind() != Value::Kind::String)
        return refusal("text", "wrong-type", "text must be the config file's text");
    config::SideReading side = config::readSide(text->asString(), o);
    if (side.textError) return config::textErrorAnswer(*side.textError);
    return side.answer;
}

inline bool okAnswer(const Value& v) {
    const Value* ok = v.find("ok");
    return ok && ok->kind() == Value::Kind::Bool && ok->asBool();
}

// Both sides read (each as readConfig() reads it) and, when both were read in one format, §10.3's
// `changed` between them; two formats are §10.3's `conflict` ("OLD is an Envoy route, NEW a gRPC
// service config"), with no `changed`.
inline Value compareConfigs(const Value& input) {
    const Value* before = input.kind() == Value::Kind::Object ? input.find("before") : nullptr;
    const Value* after = input.kind() == Value::Kind::Object ? input.find("after") : nullptr;
    if (!before || !after)
        return refusal("", "wrong-type", "compareConfigs() takes { before, after }, each { text, options }");
    Value out = Value::object();
    out.set("ok", Value::boolean(true));
    Value b = readConfig(*before), a = readConfig(*after);
    Value changedList = Value::null();
    if (okAnswer(b) && okAnswer(a)) {
        std::string fb = b.find("format")->asString(), fa = a.find("format")->asString();
        if (fb == fa)
            changedList = config::changed(b, a);
        else
            out.set("conflict", Value::string("the before config is a " + config::formatTitle(fb) +
                                              ", the after config a " + config::formatTitle(fa)));
    }
    out.set("before", std::move(b));
    out.set("after", std::move(a));
    out.set("changed", std::move(changedList));
    return out;
}

// The formats a reader may name (§3's order, then auto) with their titles: the page's menu.
inline Value configFormats() {
    Value list = Value::array();
    for (const std::string& name : config::formatNames()) {
        Value f = Value::object();
        f.set("name", Value::string(name));
        f.set("title", Value::string(config::formatTitle(name)));
        list.push(std::move(f));
    }
    Value out = Value::object();
    out.set("ok", Value::boolean(true));
    out.set("formats", std::move(list));
    return out;
}

}  // namespace configentry
