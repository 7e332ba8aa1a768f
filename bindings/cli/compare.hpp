// Before and after (issue 17, docs/compare.md): two runs of the engine (or two fleet runs) and
// what differs between them, as JSON and as a Markdown table for a pull request.
#pragma once

#include <string>
#include <vector>

#include "link.hpp"
#include "retrylab/value.hpp"

namespace retrysim {

// One side of a comparison: its raw inputs (a JSON file's, or a link's), and the preset it
// starts from (a link's `client=`, "" when none).
struct Side {
    retrylab::Value inputs = retrylab::Value::object();
    std::string client;
};

// The presets (presets.hpp): a preset's policy as inputs, its short name, and whether an id
// names one. The policy fields are those the preset sets (web/clients/presets.js).
bool isPreset(const std::string& id);
retrylab::Value presetPolicy(const std::string& id);
std::string presetName(const std::string& id);
std::string presetIds();  // "grpc-go-169, …" for messages

// A link's two sides as inputs, as the page builds them (web/share/compare-link.js): the
// before side is the preset's policy (client=) under the link's own keys; the after side is
// the before side, under after.client's policy, under the after keys. An input that depends
// on another (its onlyWhen: `script` on scenario, `jitterLow` on jitter) and that a side did
// not give itself is left out where that side no longer meets the rule. Problems for presets
// that do not exist are added to `problems`.
struct Sides {
    Side before, after;
};
Sides sidesOfLink(const Link& link, std::vector<LinkProblem>& problems);

// `{ ok: true, engine, of, client?, summary, inputs: [{ name, before, after }], metrics: [{ name,
// before, after, delta, changed, flag }], sideEffectChanged, outcomeChanged, link?, before,
// after }` or `{ ok: false, errors }` (an after side's fields prefixed with "after.", unless
// the before side has the same error). `fleet`: both sides are fleet requests.
retrylab::Value compare(const Side& before, const Side& after, bool fleet);

// The comparison's words for the Markdown writer (retrylab::markdown::comparison, core/: the
// one writer, which the page's "Copy as Markdown" calls through the engine's markdown()):
// `{ summary, inputs, metrics, unchanged, base?, link? }` (markdown.hpp), the values worded as
// the page words them (web/compare/markdown.js builds the same words from the page's model).
// `baseUrl`: where Retry Lab is (with it, and a comparison's link, the last line links to it).
retrylab::Value markdownWords(const retrylab::Value& comparison, const std::string& baseUrl);

// The comparison as a short Markdown table (docs/compare.md §2, §5): the writer's answer to
// markdownWords(). `baseUrl` must be one that retrylab::markdown::destination() accepts (the
// CLI refuses any other --base-url); with another the link line is left out.
std::string markdown(const retrylab::Value& comparison, const std::string& baseUrl);

// Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }) as web/format.js writes it.
std::string pageNumber(double n);

}  // namespace retrysim
