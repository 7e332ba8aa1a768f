// retrysim --from (issue 36, docs/config-in.md §10): a config file read into the engine's inputs
// and run, or two of them compared as a pull-request comment.
#pragma once

#include <string>
#include <vector>

namespace retrysim {

// Whether the command line asks for --from (then runFrom() takes all of it).
bool wantsFrom(const std::vector<std::string>& args);
// Runs it; the exit status (0 a result, 2 bad input, 1 anything else).
int runFrom(const std::vector<std::string>& args);

}  // namespace retrysim
