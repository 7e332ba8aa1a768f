// Config in (issue 36, docs/config-in.md): a file a team commits (a gRPC service config, an
// Envoy route) read into the engine's inputs, the fleet request and a report of every field's
// fate. The core never sees the file's text: a binding parses it (JSON or YAML, with the
// positions of its values, docs/config-in.md §1 and §11) and hands over the documents.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "retrylab/value.hpp"

namespace retrylab::config {

// 1-based line and column of a value's first character (a member's: its key's); 0 when the
// source has no lines.
struct Position {
    int line = 0;
    int column = 0;
};

// One parsed document: its value, and the position of every value kept, by path as
// docs/engine.md §4 writes paths ("" the root, "a.b[0].c").
struct Document {
    Value value;
    std::map<std::string, Position> positions;
};

// What the binding read: the documents (one for JSON, one per `---` for YAML) and the syntax
// ("json", "yaml").
struct Text {
    std::vector<Document> documents;
    std::string syntax;
};

// retrysim's --from options (docs/config-in.md §10.1). Each `has…` says the option was given.
struct Options {
    std::string from = "auto";  // grpc, envoy, istio, linkerd, aws, dotnet, auto
    std::string method, route, impl, istioDefault;
    bool hasMethod = false, hasRoute = false, hasImpl = false, hasIstioDefault = false;
    int document = 0;  // --document N (from 1); 0: not given
    Value run;         // --run FILE's object (the situation, §1)
    bool hasRun = false;
    // AWS (§8.2): --profile, --sdk, and --env FILE's variables (its positions by variable name).
    std::string profile, sdk;
    bool hasProfile = false, hasSdk = false, hasEnv = false;
    std::string section;  // .NET (§9.1): --section A:B
    bool hasSection = false;
    Document env;
};

// The formats §3 names, in detection order, and those this build reads.
const std::vector<std::string>& formatNames();
bool formatRead(const std::string& name);
// §1's situation: the engine inputs a --run file may hold (the page's "Paste your config" takes
// them from its own run, bindings/wasm/config_entry.hpp), in SPEC §2's order; deadlineMs aside.
const std::vector<std::string>& situationNames();
// A format's name as the comment's title says it ("Envoy route").
std::string formatTitle(const std::string& name);

// docs/config-in.md §2.5 (`{ ok: true, format, detected?, selection, inputs, fleet, report,
// warnings }`) or §2.6 (`{ ok: false, format, errors }`).
Value read(const Text& text, const Options& options);

}  // namespace retrylab::config
