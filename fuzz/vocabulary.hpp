// What the fuzzers pick from, read from a field table (retrylab/fields.hpp) so that a row added
// to a table is fuzzed with nothing written in fuzz/: every dotted path a request may set
// ("server.workers", "network.dist", "gates.quota.retryCost"), and every name a choice takes
// (a choice row's, a list's items', a variant's discriminator's). Header-only and free of
// libFuzzer, so the core's tests hold it to the tables (tests/core/fuzz_vocabulary_test.cpp).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "retrylab/fields.hpp"

namespace retrylab::fuzz {

struct Vocabulary {
    std::vector<std::string> paths;  // in table order, each once
    std::vector<std::string> names;  // choice names, each once, then ""
};

namespace detail {

inline void addOnce(std::vector<std::string>& list, const std::string& item) {
    if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

inline void addChoices(const Field& f, Vocabulary& out) {
    for (const Choice& c : f.choices) addOnce(out.names, c.name);
    for (const Field& item : f.item) addChoices(item, out);
}

inline void addRows(const std::vector<Field>& rows, const std::string& parent, Vocabulary& out) {
    for (const Field& f : rows) {
        const std::string path = parent.empty() ? f.name : parent + "." + f.name;
        addOnce(out.paths, path);
        addChoices(f, out);
        addRows(f.members, path, out);
        if (f.type == FieldType::Variant) {
            addOnce(out.paths, path + "." + f.discriminator);
            for (const Variant& option : f.variants) {
                addOnce(out.names, option.name);
                addRows(option.members, path, out);
            }
        }
    }
}

}  // namespace detail

// The paths and names of every table given (a workload's tables differ only in defaults, but
// each is read).
inline Vocabulary vocabularyOf(const std::vector<const FieldTable*>& tables) {
    Vocabulary out;
    for (const FieldTable* t : tables) detail::addRows(t->fields, "", out);
    out.names.push_back("");
    return out;
}

}  // namespace retrylab::fuzz
