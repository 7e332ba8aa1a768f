// A config file's text to the core's config::Text (docs/config-in.md §1, §2.1, §11): JSON by
// nlohmann's SAX parser, YAML by libyaml's event parser, each value kept with its line and
// column, within §2.1's limits. Shared by retrysim and (later) the config engine file, so that
// both read a file alike. The core never sees the text.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "retrylab/config.hpp"

namespace retrylab::config {

// docs/config-in.md §2.1.
constexpr std::size_t kMaxFileBytes = 1048576;
constexpr int kMaxDepth = 64;
constexpr std::size_t kMaxStringBytes = 65536;
constexpr std::size_t kMaxKeyBytes = 1024;
constexpr std::size_t kMaxValues = 250000;
constexpr std::size_t kMaxMembers = 20000;

// A refusal of the text as a whole: §2.6's code (unreadable, too-large, too-deep, too-long,
// duplicate-key, yaml-unsupported), where (0: no line), and the sentence.
struct TextError {
    std::string code;
    std::string field;
    int line = 0;
    int column = 0;
    std::string message;
};

struct Parsed {
    std::optional<Text> text;
    TextError error;  // when !text
};

// §3's choice of parser: JSON when the first non-space character is `{` or `[` (a `[section]`
// header the JSON reader refuses: the AWS shared config), an AWS shared config (syntax "ini",
// §8.1) when the first line that is not blank or a comment is a `[section]` header, else YAML.
// `comments`: JSON with comments allowed (.NET).
Parsed parseText(std::string_view bytes, bool comments = false);
// §8.1's environment file: NAME=VALUE lines (syntax "env"), at most 10,000 variables.
Parsed parseEnvironment(std::string_view bytes);

}  // namespace retrylab::config
