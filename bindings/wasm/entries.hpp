// The engine file's entry points, named, in one list. rl_run()'s `entry` is a name's place in
// it: engine.cpp switches on the names (enum Entry), and assemble.js reads the names from this
// file into compute.js's RL_ENTRIES, so that the JavaScript method `compute` calls
// `Entry::compute` and no number is paired with a name by hand on either side. An engine file
// without an entry's code (the page's file has no fleet(), the config file only its readers)
// still lists it and answers an error naming the file that has it. Add a new entry at the end.
#pragma once

#define RL_ENTRY_LIST(X) \
    X(compute)           \
    X(sweep)             \
    X(validate)          \
    X(schema)            \
    X(fleet)             \
    X(fleetSchema)       \
    X(compareMetrics)    \
    X(markdown)          \
    X(readConfig)        \
    X(compareConfigs)    \
    X(configFormats)     \
    X(compareResults)

namespace retrylab::wasm {

#define RL_ENTRY_NAME(name) name,
enum class Entry : int { RL_ENTRY_LIST(RL_ENTRY_NAME) count };
#undef RL_ENTRY_NAME

}  // namespace retrylab::wasm
