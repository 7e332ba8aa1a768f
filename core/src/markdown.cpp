// The one Markdown writer (markdown.hpp; the rules, and why each, in docs/compare.md §5).
// Every function is RETRYLAB_COLD (format.hpp): one call per "Copy as Markdown", never hot, so
// kept as small as at -Oz and out of the -O2 code around it in the engine file. (Measured: the
// marks changed nothing today, 56,501 bytes gzipped with and without them, since this file is
// built at -Oz; they keep it so if the core's options change. The writer costs the page's
// engine file 4.3 KB gzipped: docs/compare.md §5.)
#include "retrylab/markdown.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "format.hpp"

namespace retrylab {
namespace markdown {

namespace {

RETRYLAB_COLD void putUtf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

// The code point at s[i] (advancing i), or U+FFFD for a byte that does not start a valid,
// shortest UTF-8 sequence (one byte consumed).
RETRYLAB_COLD std::uint32_t nextCodePoint(std::string_view s, std::size_t& i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char b = byte(i);
    if (b < 0x80) return ++i, b;
    int length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 0;
    if (length == 0 || b > 0xF4 || i + static_cast<std::size_t>(length) > s.size()) return ++i, 0xFFFD;
    std::uint32_t cp = b & (0x7F >> length);
    for (int k = 1; k < length; ++k) {
        const unsigned char c = byte(i + static_cast<std::size_t>(k));
        if ((c & 0xC0) != 0x80) return ++i, 0xFFFD;
        cp = (cp << 6) | (c & 0x3F);
    }
    static const std::uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[length] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return ++i, 0xFFFD;
    i += static_cast<std::size_t>(length);
    return cp;
}

// The controls a reader cannot see, or that reorder what is around them: C1, the bidi
// controls (U+061C, U+200E/F, U+202A-U+202E, U+2066-U+2069) and the line and paragraph
// separators U+2028/U+2029.
RETRYLAB_COLD bool hiddenControl(std::uint32_t cp) {
    return (cp >= 0x80 && cp <= 0x9F) || cp == 0x061C || cp == 0x200E || cp == 0x200F ||
           (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

// `s` with its visible replacements (docs/compare.md §5): a C0 control as its Control
// Pictures sign (U+2400 + c: a newline is ␊, a tab ␉), DEL as ␡, a hidden control as
// ‹U+202E›, a byte that is not UTF-8 as U+FFFD; everything else as it is.
RETRYLAB_COLD std::string visible(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t start = i;
        const std::uint32_t cp = nextCodePoint(s, i);
        if (cp < 0x20)
            putUtf8(out, 0x2400 + cp);
        else if (cp == 0x7F)
            putUtf8(out, 0x2421);
        else if (hiddenControl(cp)) {
            static const char hex[] = "0123456789ABCDEF";
            out += "\xE2\x80\xB9U+";  // ‹
            for (int shift = 12; shift >= 0; shift -= 4) out += hex[(cp >> shift) & 0xF];
            out += "\xE2\x80\xBA";  // ›
        } else if (cp == 0xFFFD && !(i - start == 3 && s.substr(start, 3) == "\xEF\xBF\xBD")) {
            out += "\xEF\xBF\xBD";
        } else {
            out.append(s.substr(start, i - start));
        }
    }
    return out;
}

bool asciiAlnum(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool digit(char c) { return c >= '0' && c <= '9'; }
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Does `s` hold an emoji shortcode (`:name:`, GitHub's emoji filter) starting at i?
RETRYLAB_COLD bool shortcodeAt(const std::string& s, std::size_t i) {
    std::size_t k = i + 1;
    while (k < s.size() && (asciiAlnum(s[k]) || s[k] == '_' || s[k] == '+' || s[k] == '-')) ++k;
    return k > i + 1 && k < s.size() && s[k] == ':';
}

// `s` (a URL after its "scheme://", or the part of one that follows another) with what a
// link destination cannot hold percent-encoded (markdown.hpp, destination()).
RETRYLAB_COLD std::string encoded(std::string_view s) {
    static const char hex[] = "0123456789ABCDEF";
    auto isHex = [](char c) { return digit(c) || (lower(c) >= 'a' && lower(c) <= 'f'); };
    std::string out;
    for (std::size_t k = 0; k < s.size(); ++k) {
        const unsigned char c = static_cast<unsigned char>(s[k]);
        bool keep = asciiAlnum(static_cast<char>(c));
        if (!keep) {
            switch (c) {
                case '-':
                case '.':
                case '_':
                case '~':
                case ':':
                case '/':
                case '?':
                case '#':
                case '@':
                case '!':
                case '$':
                case '&':
                case '+':
                case ',':
                case '=':
                case '*': keep = true; break;
                case '%': keep = k + 2 < s.size() && isHex(s[k + 1]) && isHex(s[k + 2]); break;
                case ';': {
                    // The end of a character reference (&amp; &#41;), which a destination decodes.
                    std::size_t b = k;
                    while (b > 0 && (asciiAlnum(s[b - 1]) || s[b - 1] == '#')) --b;
                    keep = !(b > 0 && b < k && s[b - 1] == '&');
                    break;
                }
                default: keep = false;  // space, quotes, ( ) < > \ ^ ` { } |, controls, non-ASCII
            }
        }
        if (keep) {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 0xF];
        }
    }
    return out;
}

}  // namespace

namespace {

// Inline Markdown built from text (escaped, text()) and code (a span, code()). What is shown
// in code, a name and the characters of a text that need a span (below), is gathered while it
// stands together and written as one span when plain text follows or the line ends: two spans
// side by side (`@``#`) would be one run of two backticks, which opens no span, so they are
// never written side by side.
struct Inline {
    bool inTable;
    std::string out, span;

    RETRYLAB_COLD void flush() {
        if (span.empty()) return;
        std::size_t longest = 0, run = 0;
        for (char c : span) {
            run = c == '`' ? run + 1 : 0;
            if (run > longest) longest = run;
        }
        const std::string fence(longest + 1, '`');
        const bool allSpaces = span.find_first_not_of(' ') == std::string::npos;
        const bool pad =
            span.front() == '`' || span.back() == '`' || (!allSpaces && span.front() == ' ' && span.back() == ' ');
        out += fence;
        if (pad) out += ' ';
        for (char c : span) {
            if (c == '|' && inTable) out += '\\';
            out += c;
        }
        if (pad) out += ' ';
        out += fence;
        span.clear();
    }
    RETRYLAB_COLD void plain(const char* written) {
        flush();
        out += written;
    }
    RETRYLAB_COLD void code(std::string_view raw) { span += visible(raw); }
    // `cell`: `raw` is a whole cell, whose leading and trailing spaces are references.
    RETRYLAB_COLD void text(std::string_view raw, bool cell) {
        const std::string s = visible(raw);
        std::size_t first = 0, last = s.size();
        if (cell) {
            while (first < s.size() && s[first] == ' ') ++first;
            while (last > first && s[last - 1] == ' ') --last;
            for (std::size_t i = 0; i < first; ++i) plain("&#32;");
        }
        for (std::size_t i = first; i < last; ++i) {
            const char c = s[i];
            const char one[2] = {c, 0};  // (no NUL: visible() wrote it as U+2400)
            const char escaped[3] = {'\\', c, 0};
            switch (c) {
                // CommonMark's inline syntax (backslash escapes render as the character
                // itself): emphasis and strong (* _), strikethrough (~), code (`), links and
                // images ([ ]), raw HTML and autolinks (< >), character references (&), hard
                // breaks (\), table cells (|), and GitHub's math ($).
                case '\\':
                case '`':
                case '*':
                case '_':
                case '~':
                case '[':
                case ']':
                case '<':
                case '>':
                case '&':
                case '|':
                case '$': plain(escaped); break;
                // GitHub's mentions (@user, @org/team) and cmark-gfm's email autolinks need an
                // @ in the text: in a code span it is in no text node of theirs.
                case '@': span += c; break;
                // Issue references (#123, org/repo#1): a # followed by a digit.
                case '#':
                    if (i + 1 < s.size() && digit(s[i + 1]))
                        span += c;
                    else
                        plain(one);
                    break;
                // URL autolinks (http://, https://, ftp://) begin at a ':' followed by '/';
                // emoji shortcodes (:tada:) at a ':' that a name and a ':' follow.
                case ':':
                    if (i + 1 < s.size() && s[i + 1] == '/')
                        plain(escaped);
                    else if (shortcodeAt(s, i))
                        span += c;
                    else
                        plain(one);
                    break;
                // www. autolinks: the dot after www.
                case '.':
                    plain(i >= 3 && lower(s[i - 1]) == 'w' && lower(s[i - 2]) == 'w' && lower(s[i - 3]) == 'w' ? escaped
                                                                                                               : one);
                    break;
                // GH-123, another issue reference: the - of GH- before a digit.
                case '-':
                    if (i >= 2 && lower(s[i - 1]) == 'h' && lower(s[i - 2]) == 'g' && i + 1 < s.size() &&
                        digit(s[i + 1]))
                        span += c;
                    else
                        plain(one);
                    break;
                default: plain(one);
            }
        }
        if (cell)
            for (std::size_t i = last; i < s.size(); ++i) plain("&#32;");
    }
    RETRYLAB_COLD std::string finish() {
        flush();
        return std::move(out);
    }
};

}  // namespace

RETRYLAB_COLD std::string text(std::string_view raw, bool cell) {
    Inline line{true, {}, {}};
    line.text(raw, cell);
    return line.finish();
}

RETRYLAB_COLD std::string code(std::string_view raw, bool inTable) {
    Inline line{inTable, {}, {}};
    line.code(raw);
    return line.finish();
}

RETRYLAB_COLD std::string destination(std::string_view url, std::string* error) {
    auto refuse = [&](const char* why) {
        if (error) *error = why;
        return std::string();
    };
    std::size_t i = 0;
    while (i < url.size() && url[i] != ':' && url[i] != '/' && url[i] != '?' && url[i] != '#') ++i;
    std::string scheme;
    for (std::size_t k = 0; k < i; ++k) scheme += lower(url[k]);
    if (i >= url.size() || url[i] != ':' || (scheme != "http" && scheme != "https"))
        return refuse("is not an absolute http:// or https:// URL");
    if (url.substr(i, 3) != "://")
        return refuse("is not an absolute http:// or https:// URL (it needs :// after the scheme)");
    const std::size_t hostStart = i + 3;
    std::size_t hostEnd = hostStart;
    while (hostEnd < url.size() && url[hostEnd] != '/' && url[hostEnd] != '?' && url[hostEnd] != '#') ++hostEnd;
    if (hostEnd == hostStart) return refuse("has no host");
    for (std::size_t k = hostStart; k < hostEnd; ++k) {
        const char c = url[k];
        // An IPv6 literal's [ ] are refused too: cmark-gfm percent-encodes them in a link.
        if (!(asciiAlnum(c) || c == '.' || c == '-' || c == ':'))
            return refuse("has a host with a character other than letters, digits, '.', '-' and a :port");
    }
    for (char c : url)
        if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7F) return refuse("holds a space or a control character");
    if (error) error->clear();
    return scheme + "://" + encoded(url.substr(hostStart));
}

namespace {

struct Reader {
    Value errors = Value::array();
    void problem(const std::string& field, const std::string& detail) {
        Value e = Value::object();
        e.set("field", Value::string(field));
        e.set("code", Value::string("invalid"));
        e.set("message", Value::string(field + " " + detail));
        e.set("detail", Value::string(detail));
        errors.push(std::move(e));
    }
    const std::string& str(const Value& v, const char* key, const std::string& where) {
        static const std::string empty;
        const Value* m = v.kind() == Value::Kind::Object ? v.find(key) : nullptr;
        if (m && m->kind() == Value::Kind::String) return m->asString();
        problem(where + "." + key, "is not a string");
        return empty;
    }
    const Value::Array& list(const Value& v, const char* key, bool required) {
        static const Value::Array none;
        const Value* m = v.find(key);
        if (m && m->kind() == Value::Kind::Array) return m->asArray();
        if (m || required) problem(key, "is not a list");
        return none;
    }
};

// A base's page: `index.html` added to a base that does not name an .html page (before its
// query), its fragment dropped.
RETRYLAB_COLD std::string pageOf(std::string base) {
    const std::size_t hash = base.find('#');
    if (hash != std::string::npos) base.erase(hash);
    const std::size_t query = std::min(base.find('?'), base.size());
    std::string path = base.substr(0, query), rest = base.substr(query);
    const bool page = path.size() >= 5 && path.compare(path.size() - 5, 5, ".html") == 0;
    if (!page) {
        if (path.back() != '/') path += '/';
        path += "index.html";
    }
    return path + rest;
}

}  // namespace

RETRYLAB_COLD Value comparison(const Value& words) {
    Reader r;
    if (words.kind() != Value::Kind::Object) {
        r.problem("words", "is not an object");
        Value out = Value::object();
        out.set("ok", Value::boolean(false));
        out.set("errors", std::move(r.errors));
        return out;
    }
    std::string md = "**Retry Lab, before \xE2\x86\x92 after:** ";
    Inline line{false, {}, {}};
    for (const Value& part : r.list(words, "summary", true)) {
        if (part.kind() == Value::Kind::String)
            line.text(part.asString(), false);
        else if (part.kind() == Value::Kind::Object)
            line.code(r.str(part, "code", "summary[]"));
        else
            r.problem("summary[]", "is not a string or { code }");
    }
    const std::string summary = line.finish();
    // A paragraph's last spaces are trimmed: written as references, they stay.
    std::size_t end = summary.size();
    while (end > 0 && summary[end - 1] == ' ') --end;
    std::string trailing;
    for (std::size_t k = end; k < summary.size(); ++k) trailing += "&#32;";
    md += summary.substr(0, end) + trailing + "\n\n";

    const Value::Array& inputs = r.list(words, "inputs", true);
    if (!inputs.empty()) {
        md += "| input | before | after |\n|---|---|---|\n";
        for (const Value& row : inputs)
            md += "| " + code(r.str(row, "name", "inputs[]"), true) + " | " +
                  text(r.str(row, "before", "inputs[]"), true) + " | " + text(r.str(row, "after", "inputs[]"), true) +
                  " |\n";
        md += "\n";
    }
    const Value::Array& metrics = r.list(words, "metrics", true);
    if (metrics.empty()) {
        md += "No metric changes.\n";
    } else {
        md += "| metric | before | after | change |\n|---|---:|---:|---|\n";
        for (const Value& row : metrics) {
            const Value* flag = row.kind() == Value::Kind::Object ? row.find("flag") : nullptr;
            std::string flagWords;
            if (flag && flag->kind() == Value::Kind::String) {
                if (flag->asString() == "side-effect")
                    flagWords = "**side effect changes**";
                else if (flag->asString() == "outcome")
                    flagWords = "**outcome changes**";
                else
                    r.problem("metrics[].flag", "is not side-effect, outcome or null");
            } else if (flag && !flag->isNull()) {
                r.problem("metrics[].flag", "is not side-effect, outcome or null");
            }
            const std::string label = text(r.str(row, "label", "metrics[]"), true);
            std::string change = text(r.str(row, "change", "metrics[]"), true);
            if (!flagWords.empty()) change += (change.empty() ? "" : ", ") + flagWords;
            md += "| " + (flagWords.empty() ? label : "**" + label + "**") + " | " +
                  text(r.str(row, "before", "metrics[]"), true) + " | " + text(r.str(row, "after", "metrics[]"), true) +
                  " | " + change + " |\n";
        }
    }
    const Value::Array& unchanged = r.list(words, "unchanged", false);
    if (!unchanged.empty()) {
        md += "\nUnchanged: ";
        for (std::size_t k = 0; k < unchanged.size(); ++k) {
            if (unchanged[k].kind() != Value::Kind::String) r.problem("unchanged[]", "is not a string");
            md += (k ? ", " : "") + text(unchanged[k].kind() == Value::Kind::String ? unchanged[k].asString() : "");
        }
        md += ".\n";
    }
    const Value* base = words.find("base");
    const Value* link = words.find("link");
    if (base && !base->isNull()) {
        if (base->kind() != Value::Kind::String)
            r.problem("base", "is not a string");
        else if (link && link->kind() == Value::Kind::String && !link->asString().empty()) {
            std::string why;
            std::string url = destination(base->asString(), &why);
            if (!why.empty())
                r.problem("base", why);
            else
                md += "\n[Open the comparison in Retry Lab](" + pageOf(url) + encoded(link->asString()) + ")\n";
        }
    }
    Value out = Value::object();
    if (!r.errors.asArray().empty()) {
        out.set("ok", Value::boolean(false));
        out.set("errors", std::move(r.errors));
        return out;
    }
    out.set("ok", Value::boolean(true));
    out.set("markdown", Value::string(std::move(md)));
    return out;
}

}  // namespace markdown
}  // namespace retrylab
