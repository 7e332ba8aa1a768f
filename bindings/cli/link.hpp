// The page's link format (web/share/codec.js, README "Links to a run") read and written by
// retrysim. Like the page's codec, it is built from the engine's own table of its inputs
// (retrylab::inputFields()): which names a link may hold, how each value is written and its
// default. The rules are the page's, one for one (tests/node/link-cli.test.js runs both
// readers on the same links and compares what they read and what they refuse):
//
//   #v=1&maxRetries=0&retryOn=timeout,5xx&deadlineMs=none&script=200~lost,200
//
// A link that holds both sides of a comparison (OWNERS.md's format, docs/compare.md):
//
//   #v=1&view=compare&client=urllib3&after.maxRetries=10
//
// keys without a prefix are the "before" run (and what both share), `after.<name>` what the
// after side changes; `client=<preset id>` sets every policy field of that preset on both
// sides (`after.client=` on the after side only).
#pragma once

#include <cstddef>
#include <optional>
#include <utility>
#include <string>
#include <string_view>
#include <vector>

#include "retrylab/value.hpp"

namespace retrysim {

// The link format's facts (web/share/link-format.json, which the page's codec reads too), as the
// build embeds them (link-format-data.mjs), and as read once from that text: the separators,
// the version, `none`, the part names, the decimal grammar and the words of each problem.
extern const char* const kLinkFormatJson;
struct LinkFormat {
    std::string versionKey, version, none, after, fleetNull, gateOn, escaped, signs, point, exponent;
    std::size_t maxLength = 0;
    char pairs = 0, equals = 0, items = 0, parts = 0, named = 0, memberItems = 0;
    std::vector<std::pair<std::string, std::string>> partNames;  // member → part
    std::vector<std::string> pageKeys, compareKeys;
    retrylab::Value table;  // the whole table, for its words
};
const LinkFormat& linkFormat();
// A problem's words (the table's `words`), each {name} filled from `fill`, else from the table's
// own facts ({version}); retrysim is the {reader}.
std::string say(const std::string& word, const std::vector<std::pair<std::string, std::string>>& fill = {});

// What a link wrote and why it cannot be used: the page's { key, value, reason }, and a code
// (unknown-field, unreadable, given-twice, link-version, too-long, not-a-preset, not-a-view).
struct LinkProblem {
    std::string key;
    std::string value;
    std::string code;
    std::string reason;
};

// The hash of a link: the text after its first '#' (a whole URL, "index.html#v=1&..."), or
// the text itself when it has none ("v=1&maxRetries=0"). Surrounding white space is dropped.
std::string hashOf(std::string_view link);

// Typed inputs from [key, raw value] pairs, as codec.js's readPairs: unknown names, names
// given twice and values that cannot be read are problems and left out.
struct ReadInputs {
    retrylab::Value inputs = retrylab::Value::object();  // table order is not kept: link order
    std::vector<LinkProblem> problems;
};
ReadInputs readPairs(const std::vector<std::pair<std::string, std::string>>& pairs);

// A whole link. `view` is "" (a single run), "compare" or "fleet"; `of` is "" or "fleet" (a
// comparison of two fleet runs). For a single run `before` holds its inputs.
struct Link {
    std::string view;
    std::string of;
    bool read = false;  // false: the version could not be read, nothing else was
    retrylab::Value before = retrylab::Value::object();
    retrylab::Value after = retrylab::Value::object();  // the after side's own keys
    std::string client, afterClient;                    // preset ids, "" when none
    // of=fleet: the sides' own [key, raw value] pairs (after keys without their prefix), read
    // into fleet requests by readFleetSides, by the fleet request's table.
    std::vector<std::pair<std::string, std::string>> fleetBefore, fleetAfter;
    std::vector<LinkProblem> problems;
};
Link readLink(std::string_view link);

// A comparison of two fleet runs (`#v=1&view=compare&of=fleet&<fleet paths>&after.<path>=…`,
// docs/compare.md §1): each side's fleet request, read as the page reads a fleet link
// (web/fleet/model.js parseFleetLink: paths typed by the fleet request's table, fleetFields(),
// the one fleetSchema() gives the page,
// `gates.<name>=on|null`, `null` for a value or an object), the after side's set on the
// before side's (web/compare/fleet.js overlayRequest), and the problems (after keys prefixed).
struct FleetSides {
    retrylab::Value before = retrylab::Value::object();
    retrylab::Value after = retrylab::Value::object();
    std::vector<LinkProblem> problems;
};
FleetSides readFleetSides(const Link& link);

// Writing, as codec.js writes: a value's text (`inputs`, the run it belongs to, lets a stack
// leave out what it would take from the run), for the comparison's link (compare.cpp). retrysim
// writes no single-run link: the page's codec (encodeLink) is the one writer of those.
std::string valueText(const std::string& name, const retrylab::Value& value, const retrylab::Value* inputs = nullptr);
// Is `name` an input a v=1 link can carry?
bool isLinkInput(const std::string& name);
// JavaScript's String(number): the shortest text that reads back as exactly n.
std::string numberText(double n);
// encodeURIComponent, then ! ' ( ) * ~ escaped too (codec.js's escapeText).
std::string escapeText(const std::string& text);

}  // namespace retrysim
