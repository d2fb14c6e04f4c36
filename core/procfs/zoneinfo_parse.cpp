#include "zoneinfo_parse.hpp"

#include "io/text_file.hpp"

#include <cctype>
#include <charconv>
#include <limits>
#include <set>
#include <sstream>

namespace pcplab::procfs
{

std::string zoneinfo_error::str() const
{
    if (line > 0) return file + ":" + std::to_string(line) + ": " + message;
    return file + ": " + message;
}

int zoneinfo_doc::nr_cpus() const
{
    std::set<int> cpus;
    for (const auto& z : zones)
        if (z.populated())
            for (const auto& p : z.pagesets) cpus.insert(p.cpu);
    return static_cast<int>(cpus.size());
}

int zoneinfo_doc::nr_nodes() const
{
    std::set<int> nodes;
    for (const auto& z : zones) nodes.insert(z.node);
    return static_cast<int>(nodes.size());
}

namespace
{

struct parse_failure {
    int line;
    std::string message;
};

[[noreturn]] void fail(int line, std::string message)
{
    throw parse_failure{line, std::move(message)};
}

// A line as it can be quoted in a message: printable, at most 60 characters.
std::string quote(std::string_view s)
{
    std::string q;
    for (char c : s.substr(0, 60)) q += std::isprint(static_cast<unsigned char>(c)) ? c : '?';
    if (s.size() > 60) q += "...";
    return "'" + q + "'";
}

std::vector<std::string_view> split(std::string_view s)
{
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
        std::size_t j = i;
        while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j]))) ++j;
        if (j > i) out.push_back(s.substr(i, j - i));
        i = j;
    }
    return out;
}

std::optional<long> to_long(std::string_view tok)
{
    long v = 0;
    auto res = std::from_chars(tok.data(), tok.data() + tok.size(), v);
    if (res.ec != std::errc() || res.ptr != tok.data() + tok.size()) return std::nullopt;
    return v;
}

bool is_identifier(std::string_view s)
{
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    return true;
}

enum class section { node_stats, head, stats, pagesets, tail };

constexpr long MAX_VALUE = 1L << 52;

// The lines of the zone header, in zoneinfo_show_print's order; the ones every era prints are required.
const char* const head_keys[] = {"boost", "min", "low", "high", "promo", "spanned", "present", "managed", "cma"};
const char* const required_head[] = {"pages free", "min", "low", "high", "spanned", "present", "managed"};

class parser
{
public:
    zoneinfo_doc doc;

    void line(int no, std::string_view raw)
    {
        while (!raw.empty() && (raw.back() == '\r' || raw.back() == ' ' || raw.back() == '\t')) raw.remove_suffix(1);
        auto tok = split(raw);
        if (tok.empty()) return;
        if (raw.rfind("Node ", 0) == 0) return header(no, raw);
        if (!m_zone) fail(no, quote(raw) + " before any 'Node N, zone NAME' header: not a /proc/zoneinfo file?");
        m_zone_last = no;
        zoneinfo_zone& z = current();

        if (tok.size() == 2 && tok[0] == "per-node" && tok[1] == "stats") {
            if (m_section != section::head || m_seen.count("pages free"))
                fail(no, "'per-node stats' after the zone's 'pages free' line");
            m_section = section::node_stats;
        } else if (tok.size() >= 2 && tok[0] == "pages" && tok[1] == "free") {
            z.pages_free = value(no, tok, 2, "pages free");
            m_seen.insert("pages free");
            m_section = section::head;
        } else if (m_section == section::head && tok.size() <= 2 && is_head_key(tok[0])) {
            head_value(z, tok[0], value(no, tok, 1, tok[0]));
            m_seen.insert(std::string(tok[0]));
        } else if (tok[0] == "protection:") {
            protection(no, z, raw.substr(raw.find("protection:") + 11));
            m_section = section::stats;
        } else if (tok.size() == 1 && tok[0] == "pagesets") {
            m_section = section::pagesets;
            m_has_pagesets = true;
        } else if (tok[0] == "cpu:") {
            if (m_section != section::pagesets) fail(no, "'cpu:' outside a 'pagesets' block");
            close_pageset();
            zoneinfo_pageset p;
            const long cpu = value(no, tok, 1, "cpu:");
            if (cpu > std::numeric_limits<int>::max()) fail(no, "'cpu:' is out of range, got " + quote(tok[1]));
            p.cpu = static_cast<int>(cpu);
            p.line = no;
            z.pagesets.push_back(p);
            m_pageset_open = true;
            m_pageset_seen.clear();
            m_pageset_last = no;
        } else if (is_pageset_key(tok[0])) {
            if (!m_pageset_open) fail(no, "'" + std::string(tok[0]) + "' outside a pageset (no 'cpu:' line before it)");
            pageset_value(z.pagesets.back(), tok[0], value(no, tok, 1, tok[0]));
            m_pageset_seen.insert(std::string(tok[0]));
            m_pageset_last = no;
        } else if (tok.size() >= 3 && tok[0] == "vm" && tok[1] == "stats" && tok[2] == "threshold:") {
            if (!m_pageset_open) fail(no, "'vm stats threshold:' outside a pageset (no 'cpu:' line before it)");
            z.pagesets.back().stat_threshold = value(no, tok, 3, "vm stats threshold:");
            m_pageset_last = no;
        } else if (is_tail_key(tok[0])) {
            close_pageset();
            m_section = section::tail;
            long v = value(no, tok, 1, tok[0]);
            if (tok[0] == "node_unreclaimable:")
                z.node_unreclaimable = v;
            else if (tok[0] == "start_pfn:")
                z.start_pfn = v;
            else if (tok[0] == "reserved_highatomic:")
                z.reserved_highatomic = v;
            else
                z.free_highatomic = v;
        } else if (tok.size() == 2 && is_identifier(tok[0])) {
            // A stat line, known or not: other eras and configs print other counters.
            auto v = to_long(tok[1]);
            if (!v) fail(no, "the value of '" + std::string(tok[0]) + "' is not a number: " + quote(tok[1]));
            (m_section == section::node_stats ? z.node_stats : z.stats)[std::string(tok[0])] = *v;
        } else if (tok.size() == 1 && m_section == section::node_stats && to_long(tok[0])) {
            // v4.17 .. v4.19 print the hidden nr_indirectly_reclaimable with a blank name.
        } else {
            fail(no, "unrecognised line " + quote(raw));
        }
    }

    void finish()
    {
        if (!m_zone) fail(0, "no 'Node N, zone NAME' header: empty or not a /proc/zoneinfo file");
        close_zone();
    }

private:
    bool m_zone = false;
    section m_section = section::head;
    std::set<std::string> m_seen;
    bool m_has_pagesets = false;
    bool m_protection = false;
    int m_zone_last = 0;
    bool m_pageset_open = false;
    std::set<std::string> m_pageset_seen;
    int m_pageset_last = 0;

    zoneinfo_zone& current() { return doc.zones.back(); }
    std::string where() const
    {
        const auto& z = doc.zones.back();
        return "Node " + std::to_string(z.node) + ", zone " + z.name + " (line " + std::to_string(z.line) + ")";
    }

    static bool is_head_key(std::string_view k)
    {
        for (const char* h : head_keys)
            if (k == h) return true;
        return false;
    }
    static bool is_pageset_key(std::string_view k)
    {
        return k == "count:" || k == "high:" || k == "batch:" || k == "high_min:" || k == "high_max:";
    }
    static bool is_tail_key(std::string_view k)
    {
        return k == "node_unreclaimable:" || k == "start_pfn:" || k == "reserved_highatomic:"
            || k == "free_highatomic:";
    }

    // The number in token `i`, which must be the last one. Every such field (page counts, watermarks, CPU
    // numbers, pfns) is unsigned in the kernel and below 2^52 (a 4 KiB page's pfn in a 64-bit address
    // space), so the checker's formulas can work on it without overflowing.
    static long value(int no, const std::vector<std::string_view>& tok, std::size_t i, std::string_view what)
    {
        std::string w(what);
        if (tok.size() <= i) fail(no, "'" + w + "' has no value");
        if (tok.size() > i + 1) fail(no, "'" + w + "' is followed by more than one value");
        auto v = to_long(tok[i]);
        if (!v) fail(no, "'" + w + "' expects a number, got " + quote(tok[i]));
        if (*v < 0) fail(no, "'" + w + "' cannot be negative, got " + quote(tok[i]));
        if (*v >= MAX_VALUE) fail(no, "'" + w + "' is out of range (at most 2^52), got " + quote(tok[i]));
        return *v;
    }

    static void head_value(zoneinfo_zone& z, std::string_view k, long v)
    {
        if (k == "boost")
            z.boost = v;
        else if (k == "min")
            z.min = v;
        else if (k == "low")
            z.low = v;
        else if (k == "high")
            z.high = v;
        else if (k == "promo")
            z.promo = v;
        else if (k == "spanned")
            z.spanned = v;
        else if (k == "present")
            z.present = v;
        else if (k == "managed")
            z.managed = v;
        else
            z.cma = v;
    }

    static void pageset_value(zoneinfo_pageset& p, std::string_view k, long v)
    {
        if (k == "count:")
            p.count = v;
        else if (k == "high:")
            p.high = v;
        else if (k == "batch:")
            p.batch = v;
        else if (k == "high_min:")
            p.high_min = v;
        else
            p.high_max = v;
    }

    // "(0, 3019, 4171, 4171, 4171)"
    void protection(int no, zoneinfo_zone& z, std::string_view rest)
    {
        std::string s(rest);
        auto open = s.find('('), close = s.find(')');
        if (open == std::string::npos || close == std::string::npos || close < open)
            fail(no, "'protection:' expects a list like (0, 3019, 4171), got " + quote(rest));
        std::stringstream items(s.substr(open + 1, close - open - 1));
        std::string item;
        while (std::getline(items, item, ',')) {
            auto t = split(item);
            auto v = t.size() == 1 ? to_long(t[0]) : std::nullopt;
            if (!v) fail(no, "'protection:' has a value that is not a number: " + quote(item));
            if (*v < 0 || *v >= MAX_VALUE) fail(no, "'protection:' has a value out of range: " + quote(item));
            z.protection.push_back(*v);
        }
        m_protection = true;
    }

    void header(int no, std::string_view raw)
    {
        // "Node %d, zone %8s"
        auto tok = split(raw);
        std::optional<long> nid;
        if (tok.size() == 4 && tok[1].size() > 1 && tok[1].back() == ',')
            nid = to_long(tok[1].substr(0, tok[1].size() - 1));
        if (!nid || *nid < 0 || *nid > std::numeric_limits<int>::max() || tok[2] != "zone" || !is_identifier(tok[3]))
            fail(no, "malformed zone header " + quote(raw) + " (expected 'Node N, zone NAME')");
        if (m_zone) close_zone();
        zoneinfo_zone z;
        z.node = static_cast<int>(*nid);
        z.name = std::string(tok[3]);
        z.line = no;
        doc.zones.push_back(std::move(z));
        m_zone = true;
        m_section = section::head;
        m_seen.clear();
        m_has_pagesets = m_protection = m_pageset_open = false;
        m_zone_last = no;
    }

    void close_pageset()
    {
        if (!m_pageset_open) return;
        m_pageset_open = false;
        const zoneinfo_pageset& p = current().pagesets.back();
        std::string who = "pageset of cpu " + std::to_string(p.cpu) + " in " + where();
        for (const char* k : {"count:", "high:", "batch:"})
            if (!m_pageset_seen.count(k)) fail(m_pageset_last, who + " has no '" + k + "' line (truncated?)");
        if (m_pageset_seen.count("high_min:") != m_pageset_seen.count("high_max:"))
            fail(m_pageset_last, who + " has only one of 'high_min:' and 'high_max:' (truncated?)");
    }

    void close_zone()
    {
        close_pageset();
        zoneinfo_zone& z = current();
        for (const char* k : required_head)
            if (!m_seen.count(k)) fail(m_zone_last, where() + " has no '" + k + "' line (truncated?)");
        if (!m_protection) fail(m_zone_last, where() + " has no 'protection:' line (truncated?)");
        if (z.populated()) {
            // zoneinfo_show_print always follows a populated zone's counters with its pagesets and start_pfn.
            if (!m_has_pagesets || z.pagesets.empty())
                fail(m_zone_last, where() + " has present pages but no pagesets (truncated?)");
            if (!z.start_pfn) fail(m_zone_last, where() + " has no 'start_pfn:' line (truncated?)");
        }
    }
};

} // namespace

zoneinfo_result parse_zoneinfo(const std::string& text, const std::string& file)
{
    parser p;
    int no = 0;
    try {
        std::size_t pos = 0;
        while (pos < text.size()) {
            std::size_t end = text.find('\n', pos);
            if (end == std::string::npos) end = text.size();
            p.line(++no, std::string_view(text).substr(pos, end - pos));
            pos = end + 1;
        }
        p.finish();
    } catch (const parse_failure& f) {
        return zoneinfo_error{file, f.line, f.message};
    }
    return std::move(p.doc);
}

zoneinfo_result load_zoneinfo_file(const std::string& path)
{
    // A machine with thousands of CPUs prints a few MiB; far more is not a zoneinfo capture.
    constexpr std::size_t max_bytes = 256u << 20;
    auto text = io::read_text_file(path, max_bytes);
    if (auto* err = std::get_if<io::read_error>(&text)) return zoneinfo_error{path, 0, err->message};
    return parse_zoneinfo(std::get<std::string>(text), path);
}

} // namespace pcplab::procfs
