// JSON text <-> retrylab::Value with nlohmann::json (retrylab/json.hpp).
//
// Reading: nlohmann's lexer and SAX parser (iterative: no recursion) pull the bytes through a
// Cursor that watches each one as it passes (size, NUL, the length of a string or a number as
// written), and the Builder turns the SAX events into a Value as they arrive (depth, duplicate
// keys, members and values kept, list items past kMaxItems dropped). Either can stop the parse
// at once; nothing is built that a limit would refuse later.
#include "retrylab/json.hpp"
#include "retrylab/text.hpp"

#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <iterator>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <unistd.h>

namespace retrylab::json {
namespace {

using Json = nlohmann::ordered_json;  // keeps the core's member order in the output

// 1234567 -> "1,234,567", for messages.
std::string grouped(std::size_t n) {
    std::string digits = std::to_string(n);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

// The first `keep` bytes of s (never splitting a UTF-8 sequence), then "…" and the length, when
// s is longer than keep; as shownText() writes it, so that a message stays on one line.
std::string shortened(std::string_view s, std::size_t keep) {
    std::size_t cut = s.size();
    if (s.size() > keep) {
        cut = keep;
        while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
    }
    std::string out = shownText(s.substr(0, cut));
    if (cut < s.size()) out += "… (" + grouped(s.size()) + " bytes)";
    return out;
}

std::string quotedKey(std::string_view key) { return "\"" + shortened(key, 40) + "\""; }

// The bytes, from memory or from a file, each one inspected once as the lexer takes it.
class Source {
public:
    explicit Source(std::string_view text) : data_(text.data()), size_(text.size()) {}
    Source(std::FILE* in, std::string name) : file_(in), name_(std::move(name)), buffer_(1 << 16) {
        // A regular file (by path, or redirected to stdin) says its size: one too large is
        // refused before a byte of it is parsed. A pipe is counted as it is read.
        struct stat st {};
        off_t at = lseek(fileno(in), 0, SEEK_CUR);
        if (fstat(fileno(in), &st) == 0 && S_ISREG(st.st_mode) &&
            st.st_size - (at > 0 ? at : 0) > static_cast<off_t>(kMaxInputBytes)) {
            sizeError_ = true;
            eof_ = true;
            fail(sizeMessage());
        }
    }

    // Whether a byte is there for the lexer: false at the end, and from the first byte that
    // breaks a limit on (then error() says why, and the lexer sees the end of the input).
    bool available() {
        if (!error_.empty()) return false;
        if (pos_ == size_ && !refill()) return false;
        if (inspected_ == pos_) inspect(static_cast<unsigned char>(data_[pos_]));
        return error_.empty();
    }
    const char& current() const { return data_[pos_]; }
    void advance() {
        ++pos_;
        ++consumed_;
    }

    // 1-based position of the byte last taken (the one the lexer is on).
    std::size_t byte() const { return consumed_; }
    std::size_t lastStringStart() const { return stringStart_; }
    const std::string& error() const { return error_; }
    // The reason after the error's position ("; no input of the engine is that long"), kept
    // apart so that the reader can say between them which value it was reading.
    const std::string& reason() const { return reason_; }
    void fail(std::string error, std::string reason = "") {
        if (!error_.empty()) return;
        error_ = std::move(error);
        reason_ = std::move(reason);
    }

    // After the parse: reads what is left of a file without keeping it, so that an input over
    // the size limit is refused as such even when something earlier in it was wrong.
    bool overSize() {
        if (!file_) return size_ > kMaxInputBytes;
        if (sizeError_) return true;
        if (readError_) return false;
        while (refill()) pos_ = size_;
        return sizeError_;
    }
    const std::string& readError() const { return readErrorText_; }
    std::string sizeMessage() const {
        return (file_ ? name_ : std::string("the input")) + " is larger than " + std::to_string(kMaxInputBytes >> 20) +
               " MiB; no valid input comes near that";
    }

private:
    bool refill() {
        if (!file_ || eof_) return false;
        std::size_t got = std::fread(buffer_.data(), 1, buffer_.size(), file_);
        if (got < buffer_.size()) {
            eof_ = true;
            if (std::ferror(file_)) {
                readError_ = true;
                readErrorText_ = "cannot read " + name_ + ": " + std::strerror(errno);
                fail(readErrorText_);
            }
        }
        read_ += got;
        if (read_ > kMaxInputBytes) {
            sizeError_ = true;
            eof_ = true;
            fail(sizeMessage());
            got = 0;
        }
        data_ = buffer_.data();
        size_ = got;
        pos_ = 0;
        inspected_ = 0;
        return got > 0;
    }

    // Follows the string structure of JSON (a string opens at a quote outside one; inside, a
    // backslash escapes the next byte) to measure strings and numbers as written. Where the
    // text is not JSON the lexer stops first.
    void inspect(unsigned char c) {
        inspected_ = pos_ + 1;
        std::size_t at = consumed_ + 1;
        if (c == 0) {
            fail("malformed JSON at byte " + std::to_string(at) +
                 ": a NUL byte, which JSON allows only escaped (\\u0000) inside a string");
            return;
        }
        if (inString_) {
            if (escaped_)
                escaped_ = false;
            else if (c == '\\')
                escaped_ = true;
            else if (c == '"') {
                inString_ = false;
                return;
            }
            if (++run_ > kMaxStringBytes)
                fail("the JSON holds a string longer than " + grouped(kMaxStringBytes) + " bytes, from byte " +
                         std::to_string(stringStart_),
                     "; no input of the engine is that long");
            return;
        }
        if (c == '"') {
            inString_ = true;
            stringStart_ = at;
            run_ = 0;
            return;
        }
        bool numberByte = (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
        run_ = numberByte ? run_ + 1 : 0;
        if (run_ > kMaxNumberBytes)
            fail("the JSON holds a number longer than " + grouped(kMaxNumberBytes) + " characters, at byte " +
                     std::to_string(at - kMaxNumberBytes),
                 "; no input of the engine needs one");
    }

    const char* data_ = nullptr;
    std::size_t size_ = 0;
    std::size_t pos_ = 0;
    std::size_t inspected_ = 0;  // bytes of the current chunk already inspected
    std::size_t consumed_ = 0;
    std::FILE* file_ = nullptr;
    std::string name_;
    std::vector<char> buffer_;
    std::size_t read_ = 0;
    bool eof_ = false;
    bool sizeError_ = false;
    bool readError_ = false;
    std::string readErrorText_;
    std::string error_;
    std::string reason_;
    bool inString_ = false;
    bool escaped_ = false;
    std::size_t run_ = 0;  // bytes of the current string, or of the current number-like run
    std::size_t stringStart_ = 0;
};

// The input iterator nlohmann's iterator_input_adapter reads through: it compares with the end
// before each byte, which is where the Source gets to inspect (and refuse) it.
class Cursor {
public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    Cursor() = default;  // the end
    explicit Cursor(Source* source) : source_(source) {}
    reference operator*() const { return source_->current(); }
    Cursor& operator++() {
        source_->advance();
        return *this;
    }
    Cursor operator++(int) {
        Cursor before = *this;
        ++*this;
        return before;
    }
    bool operator==(const Cursor& other) const { return atEnd() == other.atEnd(); }
    bool operator!=(const Cursor& other) const { return !(*this == other); }

private:
    bool atEnd() const { return source_ == nullptr || !source_->available(); }
    Source* source_ = nullptr;
};

// SAX events to a Value, one container per level of nesting.
class Builder final : public nlohmann::json_sax<Json> {
public:
    explicit Builder(Source& source) : source_(source) {}

    std::optional<Value> root;
    std::string error;       // a limit this reader applies (depth, duplicate key, ...)
    std::string parseError;  // the lexer's or parser's complaint

    bool null() override { return add(Value::null()); }
    bool boolean(bool b) override { return add(Value::boolean(b)); }
    bool number_integer(number_integer_t n) override { return add(Value::number(static_cast<double>(n))); }
    bool number_unsigned(number_unsigned_t n) override { return add(Value::number(static_cast<double>(n))); }
    bool number_float(number_float_t x, const string_t&) override { return add(Value::number(x)); }
    bool string(string_t& s) override { return keeping() ? add(Value::string(std::move(s))) : true; }
    bool binary(binary_t&) override { return add(Value::unsupported("a value with no JSON form")); }

    bool start_object(std::size_t) override { return open(true); }
    bool start_array(std::size_t) override { return open(false); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }

    bool key(string_t& k) override {
        if (skip_ > 0) return true;
        Frame& f = stack_.back();
        if (f.dropped) return true;
        if (k.size() > kMaxKeyBytes)
            return refuse("the JSON holds a key longer than " + grouped(kMaxKeyBytes) + " bytes at byte " +
                          std::to_string(source_.lastStringStart()) + " (" + quotedKey(k) +
                          "); no input of the engine has one");
        if (f.members.size() == kMaxMembers) {
            // One member too many for any object the engine reads: the object becomes one
            // unsupported value, and the rest of its members are only read.
            f.dropped = true;
            Value::Object().swap(f.members);
            std::unordered_set<std::string>().swap(f.keys);
            return true;
        }
        if (!f.keys.insert(k).second)
            return refuse("the JSON has the key " + quotedKey(k) + " twice in one object (again at byte " +
                          std::to_string(source_.lastStringStart()) + "); each member may appear once");
        if (++membersInAll_ > kMaxMembersInAll)
            return refuse("the JSON holds more than " + grouped(kMaxMembersInAll) + " object members (at byte " +
                          std::to_string(source_.lastStringStart()) + "); no valid input has that many");
        f.key = std::move(k);
        f.hasKey = true;
        return true;
    }

    // Where the parse stopped, for a limit the Source found: " (the value of "operationId")"
    // when a member's value was being read, otherwise "".
    std::string where() const {
        if (skip_ > 0 || stack_.empty() || !stack_.back().object || !stack_.back().hasKey) return "";
        return " (the value of " + quotedKey(stack_.back().key) + ")";
    }

    bool parse_error(std::size_t at, const std::string&, const nlohmann::detail::exception& e) override {
        // The parser's message without its "[json.exception.parse_error.101] " tag. It quotes
        // the token it was reading: keep its head.
        std::string detail = e.what();
        if (detail.rfind("[json.exception", 0) == 0) detail.erase(0, detail.find("] ") + 2);
        if (detail.size() > 300) detail = shortened(detail, 300);
        parseError = "malformed JSON at byte " + std::to_string(at) + ": " + detail;
        return false;
    }

private:
    struct Frame {
        bool object = false;
        bool dropped = false;  // an object past kMaxMembers: unsupported, members not kept
        Value::Array items;
        Value::Object members;
        std::string key;  // the member whose value comes next
        bool hasKey = false;
        std::unordered_set<std::string> keys;
    };

    // A list of numbers only is kept as one block (Value::numbers()), as the WebAssembly
    // binding reads one: the core checks and echoes it in one loop (issue 18: the draws).
    static Value listOf(Value::Array items) {
        for (const Value& item : items)
            if (item.kind() != Value::Kind::Number) return Value::array(std::move(items));
        if (items.empty()) return Value::array();
        std::vector<double> numbers;
        numbers.reserve(items.size());
        for (const Value& item : items) numbers.push_back(item.asNumber());
        return Value::numbers(std::move(numbers));
    }

    bool refuse(std::string message) {
        error = std::move(message);
        return false;
    }

    // Whether the next value is kept: not inside a part only read, not past a list's cut, not
    // in a dropped object.
    bool keeping() const {
        if (skip_ > 0) return false;
        if (stack_.empty()) return true;
        const Frame& f = stack_.back();
        return f.object ? !f.dropped : f.items.size() < kMaxItems;
    }

    bool count() {
        if (++values_ > kMaxValues)
            return refuse("the JSON holds more than " + grouped(kMaxValues) + " values (at byte " +
                          std::to_string(source_.byte()) + "); no valid input has that many");
        return true;
    }

    bool add(Value v) {
        if (!keeping()) return true;
        if (!count()) return false;
        if (stack_.empty()) {
            root = std::move(v);
            return true;
        }
        Frame& f = stack_.back();
        if (f.object) {
            f.members.push_back({std::move(f.key), std::move(v)});
            f.hasKey = false;
        } else {
            f.items.push_back(std::move(v));
        }
        return true;
    }

    bool open(bool object) {
        if (stack_.size() + skip_ + 1 > static_cast<std::size_t>(kMaxDepth))
            return refuse("the JSON nests deeper than " + std::to_string(kMaxDepth) + " levels at byte " +
                          std::to_string(source_.byte()));
        if (!keeping()) {
            ++skip_;
            return true;
        }
        if (!count()) return false;
        stack_.emplace_back();
        stack_.back().object = object;
        return true;
    }

    bool close() {
        if (skip_ > 0) {
            --skip_;
            return true;
        }
        Frame f = std::move(stack_.back());
        stack_.pop_back();
        Value v = !f.object ? listOf(std::move(f.items))
                  : f.dropped
                      ? Value::unsupported("an object with more than " + std::to_string(kMaxMembers) + " members")
                      : Value::object(std::move(f.members));
        // Counted when it opened.
        if (stack_.empty())
            root = std::move(v);
        else if (stack_.back().object) {
            stack_.back().members.push_back({std::move(stack_.back().key), std::move(v)});
            stack_.back().hasKey = false;
        } else {
            stack_.back().items.push_back(std::move(v));
        }
        return true;
    }

    Source& source_;
    std::vector<Frame> stack_;
    std::size_t skip_ = 0;  // containers open inside a part that is only read
    std::size_t values_ = 0;
    std::size_t membersInAll_ = 0;
};

Parsed run(Source& source) {
    Parsed parsed;
    Builder builder(source);
    bool ok = Json::sax_parse(Cursor(&source), Cursor(), &builder);
    // Precedence: the size of the input, then what the Source saw (the lexer met only the end
    // it made), then the Builder's limits, then the parser's complaint.
    if (source.overSize())
        parsed.error = source.sizeMessage();
    else if (!source.error().empty())
        parsed.error = source.error() + builder.where() + source.reason();
    else if (!builder.error.empty())
        parsed.error = builder.error;
    else if (!ok || !builder.root)
        parsed.error = builder.parseError.empty() ? "malformed JSON" : builder.parseError;
    else
        parsed.value = std::move(builder.root);
    return parsed;
}

Json toJson(const Value& v) {
    switch (v.kind()) {
        case Value::Kind::Null: return nullptr;
        case Value::Kind::Bool: return v.asBool();
        case Value::Kind::Number: {
            // Whole numbers print as integers (3700, not 3700.0); JSON compares numbers by value.
            double x = v.asNumber();
            if (std::floor(x) == x && std::fabs(x) < 9007199254740992.0) return static_cast<std::int64_t>(x);
            return x;
        }
        case Value::Kind::String: return v.asString();
        case Value::Kind::Array: {
            Json out = Json::array();
            if (v.isNumberList()) {
                for (double x : v.asNumbers()) out.push_back(toJson(Value::number(x)));
                return out;
            }
            for (const Value& item : v.asArray()) out.push_back(toJson(item));
            return out;
        }
        case Value::Kind::Object: {
            Json out = Json::object();
            for (const Value::Member& m : v.asObject()) out[m.key] = toJson(m.value);
            return out;
        }
        case Value::Kind::Unsupported: break;  // the core never returns one
    }
    return nullptr;
}

const Value::Array* errorsOf(const Value& result) {
    if (result.kind() != Value::Kind::Object) return nullptr;
    const Value* ok = result.find("ok");
    const Value* errors = result.find("errors");
    if (!ok || ok->kind() != Value::Kind::Bool || ok->asBool() || !errors || errors->kind() != Value::Kind::Array)
        return nullptr;
    return &errors->asArray();
}

const std::string& stringMember(const Value& v, const char* key) {
    static const std::string none;
    const Value* m = v.kind() == Value::Kind::Object ? v.find(key) : nullptr;
    return m && m->kind() == Value::Kind::String ? m->asString() : none;
}

std::string shownField(const std::string& field) { return shortened(field, kFieldShown); }

// Every occurrence of `from` in `text` replaced by `to`.
std::string replaced(const std::string& text, const std::string& from, const std::string& to) {
    if (from.empty() || from == to) return text;
    std::string out;
    std::size_t start = 0;
    for (std::size_t at; (at = text.find(from, start)) != std::string::npos; start = at + from.size())
        out.append(text, start, at - start).append(to);
    return out.append(text, start, std::string::npos);
}

}  // namespace

std::string shownText(std::string_view s) { return visibleText(s); }

Parsed parse(std::string_view text) {
    Source source(text);
    if (source.overSize()) return Parsed{std::nullopt, source.sizeMessage()};
    return run(source);
}

Parsed parse(std::FILE* in, const std::string& name) {
    Source source(in, name);
    return run(source);
}

std::string dump(const Value& value, int indent) {
    return toJson(value).dump(indent, ' ', false, Json::error_handler_t::replace);
}

// The errors of an { ok: false } result: those listed, and how many in all. A binding that
// kept only the first of many (retrysim's link reader) ends the list with a "more-errors" entry
// whose `count` says how many it left out.
struct Counted {
    std::size_t listed, total;
};
Counted counted(const Value::Array& errors) {
    if (!errors.empty() && stringMember(errors.back(), "code") == "more-errors") {
        const Value* n = errors.back().find("count");
        if (n && n->kind() == Value::Kind::Number && n->asNumber() >= 0)
            return {errors.size() - 1, errors.size() - 1 + static_cast<std::size_t>(n->asNumber())};
    }
    return {errors.size(), errors.size()};
}

Value moreErrors(std::size_t count) {
    Value more = Value::object();
    std::string said = grouped(count) + " more errors are not listed here (retrysim shows the first " +
                       std::to_string(kErrorsShown) + ").";
    more.set("field", Value::string(""));
    more.set("code", Value::string("more-errors"));
    more.set("message", Value::string(said));
    more.set("detail", Value::string(said));
    return more;
}

Value shownResult(const Value& result) {
    const Value::Array* errors = errorsOf(result);
    if (!errors) return result;
    const Counted n = counted(*errors);
    Value::Array shown;
    for (std::size_t i = 0; i < n.listed && i < kErrorsShown; ++i) {
        const Value& e = (*errors)[i];
        const std::string& field = stringMember(e, "field");
        std::string cut = shownField(field);
        std::string message =
            field.size() > kFieldShown ? replaced(stringMember(e, "message"), field, cut) : stringMember(e, "message");
        message = shortened(message, kMessageShown);
        // Every member of the error as the engine gave it (code, detail, ...), the field and the
        // sentences with the field cut as above.
        Value error = Value::object();
        for (const Value::Member& m : e.asObject()) {
            if (m.key == "field") {
                error.set("field", Value::string(cut));
            } else if (m.key == "message") {
                error.set("message", Value::string(message));
            } else if (m.key == "detail" && m.value.kind() == Value::Kind::String) {
                std::string detail =
                    field.size() > kFieldShown ? replaced(m.value.asString(), field, cut) : m.value.asString();
                detail = shortened(detail, kMessageShown);
                error.set("detail", Value::string(std::move(detail)));
            } else {
                error.set(m.key, m.value);
            }
        }
        shown.push_back(std::move(error));
    }
    if (n.total > kErrorsShown) shown.push_back(moreErrors(n.total - kErrorsShown));
    Value out = Value::object();
    for (const Value::Member& m : result.asObject())
        out.set(m.key, m.key == "errors" ? Value::array(std::move(shown)) : m.value);
    return out;
}

std::string errorSummary(const Value& result) {
    const Value::Array* errors = errorsOf(result);
    if (!errors) return "";
    const Counted n = counted(*errors);
    std::string fields;
    for (std::size_t i = 0; i < n.listed && i < kErrorsShown; ++i) {
        const std::string& field = stringMember((*errors)[i], "field");
        fields += (fields.empty() ? "" : ", ") + (field.empty() ? std::string("(the inputs)") : shownField(field));
    }
    if (n.total > kErrorsShown) fields += ", and " + grouped(n.total - kErrorsShown) + " more";
    return fields;
}

}  // namespace retrylab::json
