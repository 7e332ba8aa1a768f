// A config file's text to config::Text (retrylab/config_text.hpp; docs/config-in.md §2.1, §11).
//
// One Builder turns either parser's events into Values, keeping each value's position by its
// path and checking §2.1's limits as the events arrive: nothing is built that a limit refuses.
// JSON: nlohmann's SAX parser over the bytes, each event's position found from the offset the
// lexer had reached (the first byte after the previous event that is not white space, `,`, `:`
// or a comment). YAML: libyaml's event parser, whose marks are the positions (§11.2).
#include "retrylab/config_text.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include <yaml.h>

namespace retrylab::config {
namespace {

// Byte offsets to 1-based lines and columns (columns in code points).
class Lines {
public:
    explicit Lines(std::string_view text) : text_(text) {
        starts_.push_back(0);
        for (std::size_t i = 0; i < text.size(); ++i)
            if (text[i] == '\n') starts_.push_back(i + 1);
    }
    Position at(std::size_t offset) const {
        offset = std::min(offset, text_.size());
        auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
        std::size_t line = static_cast<std::size_t>(it - starts_.begin());
        std::size_t start = starts_[line - 1];
        int column = 1;
        for (std::size_t i = start; i < offset; ++i)
            if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80) ++column;
        return {static_cast<int>(line), column};
    }

private:
    std::string_view text_;
    std::vector<std::size_t> starts_;
};

std::string shortKey(const std::string& key) {
    if (key.size() <= 40) return key;
    std::size_t cut = 40;
    while (cut > 0 && (static_cast<unsigned char>(key[cut]) & 0xC0) == 0x80) --cut;
    return key.substr(0, cut) + "…";
}

// Events to Values, with positions and §2.1's limits.
class Builder {
public:
    std::vector<Document> documents;
    std::optional<TextError> error;

    void startDocument() {
        stack_.clear();
        current_ = Document{};
        hasRoot_ = false;
    }
    void endDocument() {
        if (!hasRoot_) current_.value = Value::null();
        documents.push_back(std::move(current_));
    }

    bool expectingKey() const { return !stack_.empty() && stack_.back().object && !stack_.back().hasKey; }

    bool key(std::string k, Position pos) {
        Frame& f = stack_.back();
        if (k.size() > kMaxKeyBytes)
            return refuse(
                "too-long", f.path, pos,
                "the key \"" + shortKey(k) + "\" is longer than 1,024 bytes (line " + std::to_string(pos.line) + ")");
        if (!f.keys.insert(k).second)
            return refuse(
                "duplicate-key", childPath(f, k), pos,
                "the key \"" + shortKey(k) + "\" twice in one object (again at line " + std::to_string(pos.line) + ")");
        if (++members_ > kMaxMembers)
            return refuse("too-large", "", {}, "the file holds more than 20,000 object members");
        f.key = std::move(k);
        f.hasKey = true;
        f.keyPos = pos;
        return true;
    }

    bool scalar(Value v, Position pos) {
        if (v.kind() == Value::Kind::String && v.asString().size() > kMaxStringBytes)
            return refuse("too-long", nextPath(), pos,
                          nextPath() + " is a string longer than 65,536 bytes (line " + std::to_string(pos.line) + ")");
        if (!count(pos)) return false;
        place(std::move(v), pos);
        return true;
    }

    bool open(bool object, Position pos) {
        if (stack_.size() + 1 > static_cast<std::size_t>(kMaxDepth))
            return refuse("too-deep", nextPath(), pos,
                          "the file nests deeper than 64 levels at line " + std::to_string(pos.line));
        if (!count(pos)) return false;
        Frame f;
        f.object = object;
        f.path = nextPath();
        f.pos = memberPos(pos);
        stack_.push_back(std::move(f));
        return true;
    }

    void close() {
        Frame f = std::move(stack_.back());
        stack_.pop_back();
        Value v = f.object ? Value::object(std::move(f.members)) : Value::array(std::move(f.items));
        current_.positions[f.path] = f.pos;
        attach(std::move(v));
    }

    bool refuse(std::string code, std::string field, Position pos, std::string message) {
        if (!error) error = TextError{std::move(code), std::move(field), pos.line, pos.column, std::move(message)};
        return false;
    }

private:
    struct Frame {
        bool object = false;
        std::string path;
        Position pos;
        Value::Array items;
        Value::Object members;
        std::set<std::string> keys;
        std::string key;
        bool hasKey = false;
        Position keyPos;
    };

    static std::string childPath(const Frame& f, const std::string& key) {
        return f.path.empty() ? key : f.path + "." + key;
    }

    std::string nextPath() const {
        if (stack_.empty()) return "";
        const Frame& f = stack_.back();
        if (f.object) return childPath(f, f.key);
        return f.path + "[" + std::to_string(f.items.size()) + "]";
    }
    Position memberPos(Position pos) const {
        if (!stack_.empty() && stack_.back().object) return stack_.back().keyPos;
        return pos;
    }

    bool count(Position pos) {
        if (++values_ > kMaxValues) return refuse("too-large", "", pos, "the file holds more than 250,000 values");
        return true;
    }

    void place(Value v, Position pos) {
        current_.positions[nextPath()] = memberPos(pos);
        attach(std::move(v));
    }

    void attach(Value v) {
        if (stack_.empty()) {
            current_.value = std::move(v);
            hasRoot_ = true;
            return;
        }
        Frame& f = stack_.back();
        if (f.object) {
            f.members.push_back({std::move(f.key), std::move(v)});
            f.key.clear();
            f.hasKey = false;
        } else {
            f.items.push_back(std::move(v));
        }
    }

    std::vector<Frame> stack_;
    Document current_;
    bool hasRoot_ = false;
    std::size_t values_ = 0;
    std::size_t members_ = 0;
};

// ---- JSON ----------------------------------------------------------------------------------

using Json = nlohmann::json;

// The bytes for nlohmann's lexer, counting how far it has read.
class Cursor {
public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;
    Cursor() = default;
    Cursor(const char* p, std::size_t* read) : p_(p), read_(read) {}
    reference operator*() const { return *p_; }
    Cursor& operator++() {
        ++p_;
        ++*read_;
        return *this;
    }
    Cursor operator++(int) {
        Cursor before = *this;
        ++*this;
        return before;
    }
    bool operator==(const Cursor& o) const { return p_ == o.p_; }
    bool operator!=(const Cursor& o) const { return p_ != o.p_; }

private:
    const char* p_ = nullptr;
    std::size_t* read_ = nullptr;
};

class JsonEvents final : public nlohmann::json_sax<Json> {
public:
    JsonEvents(Builder& b, std::string_view text, const Lines& lines, const std::size_t& read)
        : b_(b), text_(text), lines_(lines), read_(read) {}
    std::string parseError;
    Position parseErrorAt;

    bool null() override { return b_.scalar(Value::null(), start()); }
    bool boolean(bool v) override { return b_.scalar(Value::boolean(v), start()); }
    bool number_integer(number_integer_t n) override {
        return b_.scalar(Value::number(static_cast<double>(n)), start());
    }
    bool number_unsigned(number_unsigned_t n) override {
        return b_.scalar(Value::number(static_cast<double>(n)), start());
    }
    bool number_float(number_float_t x, const string_t&) override { return b_.scalar(Value::number(x), start()); }
    bool string(string_t& s) override { return b_.scalar(Value::string(std::move(s)), start()); }
    bool binary(binary_t&) override { return false; }
    bool start_object(std::size_t) override { return b_.open(true, start()); }
    bool start_array(std::size_t) override { return b_.open(false, start()); }
    bool end_object() override { return endContainer(); }
    bool end_array() override { return endContainer(); }
    bool key(string_t& k) override { return b_.key(std::move(k), start()); }
    bool parse_error(std::size_t at, const std::string&, const nlohmann::detail::exception& e) override {
        std::string detail = e.what();
        if (detail.rfind("[json.exception", 0) == 0) detail.erase(0, detail.find("] ") + 2);
        // nlohmann's own "syntax error while parsing value - " wording, without its position.
        std::size_t dash = detail.find(" - ");
        if (dash != std::string::npos) detail.erase(0, dash + 3);
        parseErrorAt = lines_.at(at == 0 ? 0 : at - 1);
        parseError = "malformed JSON at line " + std::to_string(parseErrorAt.line) + ", column " +
                     std::to_string(parseErrorAt.column) + ": " + detail;
        return false;
    }

private:
    bool endContainer() {
        b_.close();
        from_ = read_;
        return true;
    }
    // The token's first byte: past white space, separators and comments after the last event.
    Position start() {
        std::size_t i = from_;
        while (i < text_.size()) {
            char c = text_[i];
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ':')
                ++i;
            else if (c == '/' && i + 1 < text_.size() && text_[i + 1] == '/') {
                while (i < text_.size() && text_[i] != '\n') ++i;
            } else if (c == '/' && i + 1 < text_.size() && text_[i + 1] == '*') {
                std::size_t end = text_.find("*/", i + 2);
                i = end == std::string_view::npos ? text_.size() : end + 2;
            } else
                break;
        }
        from_ = read_;
        return lines_.at(i);
    }

    Builder& b_;
    std::string_view text_;
    const Lines& lines_;
    const std::size_t& read_;
    std::size_t from_ = 0;
};

Parsed parseJson(std::string_view text, const Lines& lines, bool comments) {
    Builder b;
    b.startDocument();
    std::size_t read = 0;
    JsonEvents events(b, text, lines, read);
    Cursor first(text.data(), &read), last(text.data() + text.size(), &read);
    bool ok = Json::sax_parse(first, last, &events, nlohmann::detail::input_format_t::json, true, comments);
    Parsed out;
    if (b.error) {
        out.error = *b.error;
        return out;
    }
    if (!ok) {
        out.error =
            TextError{"unreadable", "", events.parseErrorAt.line, events.parseErrorAt.column, events.parseError};
        return out;
    }
    b.endDocument();
    out.text = Text{std::move(b.documents), "json"};
    return out;
}

// ---- YAML ----------------------------------------------------------------------------------

Position mark(const yaml_mark_t& m) { return {static_cast<int>(m.line) + 1, static_cast<int>(m.column) + 1}; }

bool matchesAll(const std::string& s, bool (*ok)(char), std::size_t from) {
    if (from >= s.size()) return false;
    for (std::size_t i = from; i < s.size(); ++i)
        if (!ok(s[i])) return false;
    return true;
}
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isOctal(char c) { return c >= '0' && c <= '7'; }
bool isHex(char c) { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// YAML 1.2's core schema for a plain scalar (docs/config-in.md §11.2).
bool isFloat(const std::string& s) {
    std::size_t i = 0;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    std::size_t intDigits = 0, fracDigits = 0;
    while (i < s.size() && isDigit(s[i])) ++i, ++intDigits;
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && isDigit(s[i])) ++i, ++fracDigits;
        if (intDigits == 0 && fracDigits == 0) return false;
    } else if (intDigits == 0) {
        return false;
    }
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
        std::size_t expDigits = 0;
        while (i < s.size() && isDigit(s[i])) ++i, ++expDigits;
        if (expDigits == 0) return false;
    }
    return i == s.size();
}

Value plainScalar(const std::string& s) {
    if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return Value::null();
    if (s == "true" || s == "True" || s == "TRUE") return Value::boolean(true);
    if (s == "false" || s == "False" || s == "FALSE") return Value::boolean(false);
    std::size_t sign = (s[0] == '-' || s[0] == '+') ? 1 : 0;
    if (matchesAll(s, isDigit, sign)) return Value::number(std::strtod(s.c_str(), nullptr));
    if (s.rfind("0o", 0) == 0 && matchesAll(s, isOctal, 2))
        return Value::number(static_cast<double>(std::strtoull(s.c_str() + 2, nullptr, 8)));
    if (s.rfind("0x", 0) == 0 && matchesAll(s, isHex, 2))
        return Value::number(static_cast<double>(std::strtoull(s.c_str() + 2, nullptr, 16)));
    if (isFloat(s)) return Value::number(std::strtod(s.c_str(), nullptr));
    std::string rest = s.substr(sign);
    if (rest == ".inf" || rest == ".Inf" || rest == ".INF" || s == ".nan" || s == ".NaN" || s == ".NAN")
        return Value::unsupported("not a finite number (" + s + ")");
    return Value::string(s);
}

std::string text(const yaml_char_t* p, std::size_t n) { return std::string(reinterpret_cast<const char*>(p), n); }

class Yaml {
public:
    explicit Yaml(std::string_view bytes) {
        yaml_parser_initialize(&parser_);
        yaml_parser_set_input_string(&parser_, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
    }
    ~Yaml() { yaml_parser_delete(&parser_); }
    Yaml(const Yaml&) = delete;
    Yaml& operator=(const Yaml&) = delete;

    Parsed run() {
        Parsed out;
        bool done = false;
        while (!done) {
            yaml_event_t event;
            if (!yaml_parser_parse(&parser_, &event)) {
                Position at = mark(parser_.problem_mark);
                std::string problem = parser_.problem ? parser_.problem : "not YAML";
                if (parser_.context) problem = std::string(parser_.context) + ": " + problem;
                // libyaml refuses a %YAML directive it does not read itself (§11.2's directive rule).
                std::string code =
                    parser_.problem && std::strcmp(parser_.problem, "found incompatible YAML document") == 0
                        ? "yaml-unsupported"
                        : "unreadable";
                out.error = TextError{code, "", at.line, at.column,
                                      "malformed YAML at line " + std::to_string(at.line) + ", column " +
                                          std::to_string(at.column) + ": " + problem};
                return out;
            }
            done = event.type == YAML_STREAM_END_EVENT;
            bool ok = handle(event);
            yaml_event_delete(&event);
            if (!ok) {
                out.error = *b_.error;
                return out;
            }
        }
        if (b_.documents.empty()) {
            b_.startDocument();
            b_.endDocument();
        }
        out.text = Text{std::move(b_.documents), "yaml"};
        return out;
    }

private:
    bool unsupported(const yaml_event_t& e, const std::string& what) {
        Position at = mark(e.start_mark);
        return b_.refuse("yaml-unsupported", "", at,
                         what + " at line " + std::to_string(at.line) + ": " +
                             (what.rfind("an alias", 0) == 0 || what.rfind("an anchor", 0) == 0
                                  ? "anchors and aliases are not read"
                                  : "not read (docs/config-in.md §11.2)"));
    }
    bool checkNode(const yaml_event_t& e, const yaml_char_t* anchor, const yaml_char_t* tag) {
        if (anchor) return unsupported(e, "an anchor (&" + std::string(reinterpret_cast<const char*>(anchor)) + ")");
        if (tag) return unsupported(e, "a tag (" + std::string(reinterpret_cast<const char*>(tag)) + ")");
        return true;
    }

    bool handle(const yaml_event_t& e) {
        Position at = mark(e.start_mark);
        switch (e.type) {
            case YAML_DOCUMENT_START_EVENT: {
                const auto* v = e.data.document_start.version_directive;
                if (v && !(v->major == 1 && (v->minor == 1 || v->minor == 2)))
                    return unsupported(
                        e, "a %YAML " + std::to_string(v->major) + "." + std::to_string(v->minor) + " directive");
                if (e.data.document_start.tag_directives.start != e.data.document_start.tag_directives.end)
                    return unsupported(e, "a %TAG directive");
                b_.startDocument();
                return true;
            }
            case YAML_DOCUMENT_END_EVENT: b_.endDocument(); return true;
            case YAML_ALIAS_EVENT:
                return unsupported(
                    e, "an alias (*" + std::string(reinterpret_cast<const char*>(e.data.alias.anchor)) + ")");
            case YAML_SCALAR_EVENT: {
                if (!checkNode(e, e.data.scalar.anchor, e.data.scalar.tag)) return false;
                std::string s = text(e.data.scalar.value, e.data.scalar.length);
                bool plain = e.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
                if (b_.expectingKey()) {
                    if (plain && s == "<<") return unsupported(e, "a merge key (<<)");
                    return b_.key(std::move(s), at);
                }
                return b_.scalar(plain ? plainScalar(s) : Value::string(std::move(s)), at);
            }
            case YAML_SEQUENCE_START_EVENT:
            case YAML_MAPPING_START_EVENT: {
                bool object = e.type == YAML_MAPPING_START_EVENT;
                if (!checkNode(e, object ? e.data.mapping_start.anchor : e.data.sequence_start.anchor,
                               object ? e.data.mapping_start.tag : e.data.sequence_start.tag))
                    return false;
                if (b_.expectingKey()) return unsupported(e, "a key that is not a scalar");
                return b_.open(object, at);
            }
            case YAML_SEQUENCE_END_EVENT:
            case YAML_MAPPING_END_EVENT: b_.close(); return true;
            default: return true;
        }
    }

    yaml_parser_t parser_{};
    Builder b_;
};

// §8.1: the AWS shared config, as Python's configparser.RawConfigParser reads it at its
// defaults: `[section]` headers, `key = value` / `key: value` (the first `=` or `:`), keys
// lower-cased, full-line `#`/`;` comments, an indented line continuing the value above. The
// sections become one object of objects of strings, each member at its key's line and column.
std::string trimmed(std::string_view s) {
    std::size_t a = s.find_first_not_of(" \t\r\f\v");
    if (a == std::string_view::npos) return "";
    std::size_t b = s.find_last_not_of(" \t\r\f\v");
    return std::string(s.substr(a, b - a + 1));
}

// A line the INI reading takes as a section header: `[`, one or more characters, `]` (the
// name between the first `[` and the last `]`).
bool iniHeader(const std::string& line, std::string* name = nullptr) {
    if (line.size() < 3 || line.front() != '[') return false;
    std::size_t close = line.rfind(']');
    if (close == std::string::npos || close < 2) return false;
    if (name) *name = line.substr(1, close - 1);
    return true;
}

// §3: the first line that is neither blank nor a `#`/`;` comment is `^\s*\[[^\]]+\]\s*$`.
bool iniFirst(std::string_view bytes) {
    std::size_t from = 0;
    while (from <= bytes.size()) {
        std::size_t end = bytes.find('\n', from);
        std::string line =
            trimmed(bytes.substr(from, end == std::string_view::npos ? std::string_view::npos : end - from));
        if (!line.empty() && line[0] != '#' && line[0] != ';')
            return line.size() >= 3 && line.front() == '[' && line.back() == ']' && line.find(']') == line.size() - 1;
        if (end == std::string_view::npos) break;
        from = end + 1;
    }
    return false;
}

struct LineReader {
    std::string_view bytes;
    std::size_t from = 0;
    int number = 0;
    bool next(std::string_view& line) {
        if (from > bytes.size() || (from == bytes.size() && number > 0 && bytes.back() == '\n')) return false;
        std::size_t end = bytes.find('\n', from);
        line = bytes.substr(from, end == std::string_view::npos ? std::string_view::npos : end - from);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        from = end == std::string_view::npos ? bytes.size() + 1 : end + 1;
        ++number;
        return true;
    }
};

Parsed unreadableAt(int line, int column, const std::string& message) {
    Parsed out;
    out.error = TextError{"unreadable", "", line, column,
                          message + " at line " + std::to_string(line) + ", column " + std::to_string(column)};
    return out;
}

Parsed parseIni(std::string_view bytes) {
    Builder b;
    b.startDocument();
    b.open(true, {1, 1});
    bool inSection = false, pending = false;
    std::string key, value;
    Position keyPos;
    auto flush = [&]() {
        if (!pending) return true;
        pending = false;
        return b.key(key, keyPos) && b.scalar(Value::string(value), keyPos);
    };
    LineReader reader{bytes};
    std::string_view raw;
    while (reader.next(raw)) {
        std::string line = trimmed(raw);
        if (line.empty() || line[0] == '#' || line[0] == ';') continue;
        int column = static_cast<int>(raw.find_first_not_of(" \t\f\v")) + 1;
        bool indented = column > 1;
        if (indented && pending) {  // a continuation line: the value goes on
            value += "\n" + line;
            if (value.size() > kMaxStringBytes) break;
            continue;
        }
        std::string name;
        if (!indented && iniHeader(line, &name)) {
            if (!flush()) break;
            if (inSection) b.close();
            if (!b.key(name, {reader.number, column}) || !b.open(true, {reader.number, column})) break;
            inSection = true;
            continue;
        }
        if (!inSection)
            return unreadableAt(reader.number, column,
                                "malformed AWS shared config: a line before any [section] header");
        std::size_t sep = line.find_first_of("=:");
        if (sep == std::string::npos)
            return unreadableAt(
                reader.number, column,
                "malformed AWS shared config: a line that is neither a [section], a key = value nor a comment");
        if (!flush()) break;
        key = trimmed(std::string_view(line).substr(0, sep));
        if (key.empty())
            return unreadableAt(reader.number, column,
                                "malformed AWS shared config: a line with no key before its " + line.substr(sep, 1));
        for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        value = trimmed(std::string_view(line).substr(sep + 1));
        keyPos = {reader.number, column};
        pending = true;
    }
    if (!b.error && flush()) {
        if (inSection) b.close();
        b.close();
        b.endDocument();
    }
    Parsed out;
    if (!b.error && value.size() > kMaxStringBytes)
        b.refuse("too-long", key, keyPos,
                 key + " is a string longer than 65,536 bytes (line " + std::to_string(keyPos.line) + ")");
    if (b.error) {
        out.error = *b.error;
        return out;
    }
    out.text = Text{std::move(b.documents), "ini"};
    return out;
}

}  // namespace

Parsed parseText(std::string_view bytes, bool comments) {
    Parsed out;
    if (bytes.size() > kMaxFileBytes) {
        out.error = TextError{"too-large", "", 0, 0,
                              "the file is larger than 1 MiB (1,048,576 bytes); no config comes near that"};
        return out;
    }
    Lines lines(bytes);
    std::size_t nul = bytes.find('\0');
    if (nul != std::string_view::npos) {
        Position at = lines.at(nul);
        out.error = TextError{"unreadable", "", at.line, at.column,
                              "a NUL byte at line " + std::to_string(at.line) + ", column " +
                                  std::to_string(at.column) + ": a config file is text"};
        return out;
    }
    std::size_t first = bytes.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && (bytes[first] == '{' || bytes[first] == '[')) {
        Parsed json = parseJson(bytes, lines, comments);
        // §3: `[default]` is not JSON; a text whose first line is a section header and which the
        // JSON reader refuses is an AWS shared config.
        if (!json.text && bytes[first] == '[' && iniFirst(bytes)) return parseIni(bytes);
        return json;
    }
    if (iniFirst(bytes)) return parseIni(bytes);
    return Yaml(bytes).run();
}

Parsed parseEnvironment(std::string_view bytes) {
    Parsed out;
    if (bytes.size() > kMaxFileBytes) {
        out.error = TextError{"too-large", "", 0, 0, "the environment file is larger than 1 MiB (1,048,576 bytes)"};
        return out;
    }
    Lines lines(bytes);
    std::size_t nul = bytes.find('\0');
    if (nul != std::string_view::npos) {
        Position at = lines.at(nul);
        return unreadableAt(at.line, at.column, "a NUL byte in the environment file");
    }
    Builder b;
    b.startDocument();
    b.open(true, {1, 1});
    LineReader reader{bytes};
    std::string_view raw;
    std::size_t count = 0;
    while (reader.next(raw)) {
        if (trimmed(raw).empty() || raw[0] == '#') continue;
        std::size_t eq = raw.find('=');
        bool named = eq != std::string_view::npos && eq > 0 && !(raw[0] >= '0' && raw[0] <= '9');
        for (std::size_t i = 0; named && i < eq; ++i) {
            char c = raw[i];
            named = c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        }
        if (!named) return unreadableAt(reader.number, 1, "malformed environment: a line that is not NAME=VALUE");
        if (++count > 10000) {
            out.error =
                TextError{"too-large", "", reader.number, 1, "the environment holds more than 10,000 variables"};
            return out;
        }
        if (!b.key(std::string(raw.substr(0, eq)), {reader.number, 1}) ||
            !b.scalar(Value::string(std::string(raw.substr(eq + 1))), {reader.number, 1}))
            break;
    }
    if (!b.error) {
        b.close();
        b.endDocument();
    }
    if (b.error) {
        out.error = *b.error;
        return out;
    }
    out.text = Text{std::move(b.documents), "env"};
    return out;
}

}  // namespace retrylab::config
