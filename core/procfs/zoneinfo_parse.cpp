// The /proc/zoneinfo reader. mm/vmstat.c zoneinfo_show_print (mm/page_alloc.c zoneinfo_show before v2.6.18)
// prints, per zone: "Node N, zone NAME", the node's counters under "per-node stats" (v4.8+, first populated
// zone of a node), "pages free", the watermarks and sizes, "protection: (...)", the zone counters, "pagesets"
// with one record per online CPU (two, hot and cold, before v2.6.25), then "key: value" tail lines. Each line
// is classified by its first words, never by its indentation, so a capture pasted with other indentation
// reads the same.
#include "zoneinfo_parse.hpp"

#include "io/text_file.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <set>
#include <sstream>

namespace pcplab::procfs
{

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

std::string zoneinfo_doc::skipped_text() const
{
    if (lines_skipped == 0) return {};
    std::string s = std::to_string(lines_skipped) + " unrecognised line" + (lines_skipped == 1 ? "" : "s")
        + " skipped (line" + (skipped_at.size() == 1 ? " " : "s ");
    for (std::size_t i = 0; i < skipped_at.size(); ++i) s += (i ? ", " : "") + std::to_string(skipped_at[i]);
    if (static_cast<int>(skipped_at.size()) < lines_skipped) s += ", ...";
    return s + ")";
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

// A token meant as a number: it starts like one. Such a token that does not parse is an error; any other
// second word makes the line prose ("Best regards"), which is skipped.
bool looks_numeric(std::string_view tok)
{
    return !tok.empty() && (std::isdigit(static_cast<unsigned char>(tok[0])) || tok[0] == '-' || tok[0] == '+');
}

enum class section { node_stats, head, stats, pagesets, tail };

constexpr long MAX_VALUE = 1L << 52;

// The words of the zone header block after "pages free" (any era) and the field each one fills.
enum class head_key { boost, min, low, high, promo, spanned, present, managed, cma, scanned };
std::optional<head_key> head_key_of(std::string_view k)
{
    static const std::pair<std::string_view, head_key> keys[]
        = {{"boost", head_key::boost}, {"min", head_key::min}, {"low", head_key::low}, {"high", head_key::high},
            {"promo", head_key::promo}, {"spanned", head_key::spanned}, {"present", head_key::present},
            {"managed", head_key::managed}, {"cma", head_key::cma}, {"scanned", head_key::scanned}};
    for (const auto& [name, key] : keys)
        if (k == name) return key;
    return std::nullopt;
}

// The "key: value" lines after the pagesets. The first four fill fields, the rest go to zoneinfo_zone::tail.
bool is_tail_key(std::string_view k)
{
    static const std::string_view keys[]
        = {"node_unreclaimable:", "start_pfn:", "reserved_highatomic:", "free_highatomic:", "all_unreclaimable:",
            "prev_priority:", "temp_priority:", "inactive_ratio:", "node_inactive_ratio:"};
    return std::find(std::begin(keys), std::end(keys), k) != std::end(keys);
}

// v2.6.16 .. v2.6.17 printed a CPU's NUMA counters inside its pageset ("numa_hit:       1234").
bool is_pageset_numa_key(std::string_view k)
{
    static const std::string_view keys[]
        = {"numa_hit:", "numa_miss:", "numa_foreign:", "interleave_hit:", "local_node:", "other_node:"};
    return std::find(std::begin(keys), std::end(keys), k) != std::end(keys);
}

class reader
{
public:
    explicit reader(zoneinfo_doc& out)
        : m_out(out)
    {
    }

    void line(int no, std::string_view raw)
    {
        if (no == 1 && raw.substr(0, 3) == "\xEF\xBB\xBF") {
            raw.remove_prefix(3);
            note_once("a UTF-8 byte-order mark at the start was ignored");
        }
        if (!raw.empty() && raw.back() == '\r') {
            raw.remove_suffix(1);
            note_once("CRLF line ends were read as LF");
        }
        auto tok = split(raw);
        if (tok.empty()) return;
        m_line = raw;
        m_no = no;

        if (tok[0] == "time:" && tok.size() == 2 && to_long(tok[1])) return new_dump();
        // A buddyinfo or pagetypeinfo line pasted beside the capture also starts "Node N, zone NAME", with its
        // counts after the name.
        if (tok[0] == "Node" && tok.size() >= 3 && tok[2] == "zone") return tok.size() > 4 ? skip() : header(raw, tok);
        if (!m_zone) return skip(); // a prompt, a mail's text, ... before the first zone
        zoneinfo_zone& z = current();

        if (tok.size() == 2 && tok[0] == "per-node" && tok[1] == "stats") {
            if (m_section != section::head || m_seen_pages_free) return skip();
            m_section = section::node_stats;
            mark(layout_mark::per_node_stats);
        } else if (tok.size() >= 2 && tok[0] == "pages" && tok[1] == "free") {
            z.pages_free = value(tok, 2, "pages free");
            m_seen_pages_free = true;
            m_section = section::head;
        } else if (m_section == section::head && head_key_of(tok[0])) {
            head_line(z, *head_key_of(tok[0]), tok);
        } else if (tok[0] == "protection:") {
            protection(z, raw.substr(raw.find("protection:") + 11));
            m_section = section::stats;
        } else if (tok.size() == 1 && tok[0] == "pagesets") {
            close_pageset();
            m_section = section::pagesets;
        } else if (tok[0] == "cpu:") {
            cpu_line(z, tok);
        } else if (is_pageset_key(tok[0])) {
            if (!m_pageset_open) return skip();
            pageset_value(z.pagesets.back(), tok[0], value(tok, 1, tok[0]));
            m_pageset_seen.insert(std::string(tok[0]));
        } else if (tok.size() >= 3 && tok[0] == "vm" && tok[1] == "stats" && tok[2] == "threshold:") {
            threshold(z, value(tok, 3, "vm stats threshold:"));
        } else if (m_section == section::pagesets && is_pageset_numa_key(tok[0])) {
            (void)value(tok, 1, tok[0]); // kept out of the model: the per-CPU NUMA hits of v2.6.16
        } else if (is_tail_key(tok[0])) {
            tail_line(z, tok);
        } else if (m_section != section::tail && m_section != section::pagesets && tok.size() == 2
            && is_identifier(tok[0]) && looks_numeric(tok[1])) {
            stat_line(z, tok);
        } else if (tok.size() == 1 && m_section == section::node_stats && to_long(tok[0])) {
            // v4.17 .. v4.19 print the hidden nr_indirectly_reclaimable with a blank name.
        } else {
            skip();
        }
    }

    void finish()
    {
        close_zone();
        if (!m_zone && m_out.zones.empty())
            fail(0, "no 'Node N, zone NAME' header: empty or not a /proc/zoneinfo file");
        if (m_dumps > 1)
            m_out.notes.push_back(std::to_string(m_dumps) + " dumps in one file: the last one (from line "
                + std::to_string(m_dump_line) + ") is read");
        if (m_indent > 0)
            m_out.notes.push_back("every line is indented by " + std::to_string(m_indent)
                + " more characters than the kernel prints: read as if it were not");
    }

private:
    zoneinfo_doc& m_out;
    std::string_view m_line;
    int m_no = 0;
    bool m_zone = false;
    section m_section = section::head;
    bool m_seen_pages_free = false;
    std::set<std::string> m_head_seen;
    bool m_protection = false;
    bool m_pageset_open = false;
    std::set<std::string> m_pageset_seen;
    int m_dumps = 0;
    bool m_fresh = true; // the next zone header starts a dump
    int m_dump_line = 0;
    int m_indent = -1; // the smallest indentation of a zone header: a copy from a document adds some
    std::set<std::string> m_notes_once;

    zoneinfo_zone& current() { return m_out.zones.back(); }

    void mark(layout_mark m) { m_out.marks.set(static_cast<std::size_t>(m)); }
    void note_once(const std::string& n)
    {
        if (m_notes_once.insert(n).second) m_out.notes.push_back(n);
    }
    void skip()
    {
        ++m_out.lines_skipped;
        if (m_out.skipped_at.size() < 8) m_out.skipped_at.push_back(m_no);
    }
    std::string where() const
    {
        const auto& z = m_out.zones.back();
        return "Node " + std::to_string(z.node) + ", zone " + z.name + " (line " + std::to_string(z.line) + ")";
    }

    static bool is_pageset_key(std::string_view k)
    {
        return k == "count:" || k == "high:" || k == "batch:" || k == "low:" || k == "high_min:" || k == "high_max:";
    }

    // The number in token `i`, which must be the last one. Every such field (page counts, watermarks, CPU
    // numbers, pfns) is unsigned in the kernel and below 2^52 (a 4 KiB page's pfn in a 64-bit address
    // space), so the checker's formulas can work on it without overflowing.
    long value(const std::vector<std::string_view>& tok, std::size_t i, std::string_view what) const
    {
        std::string w(what);
        if (tok.size() <= i) fail(m_no, "'" + w + "' has no value");
        if (tok.size() > i + 1) fail(m_no, "'" + w + "' is followed by more than one value");
        auto v = to_long(tok[i]);
        if (!v) fail(m_no, "'" + w + "' expects a number, got " + quote(tok[i]));
        if (*v < 0) fail(m_no, "'" + w + "' cannot be negative, got " + quote(tok[i]));
        if (*v >= MAX_VALUE) fail(m_no, "'" + w + "' is out of range (at most 2^52), got " + quote(tok[i]));
        return *v;
    }

    // A second dump in one file (several cats of the file, or mmtests' "time:" framing): keep the last one.
    void new_dump()
    {
        close_zone();
        m_out.zones.clear();
        m_zone = false;
        m_fresh = true;
    }

    void header(std::string_view raw, const std::vector<std::string_view>& tok)
    {
        // "Node %d, zone %8s"
        std::optional<long> nid;
        if (tok.size() == 4 && tok[1].size() > 1 && tok[1].back() == ',')
            nid = to_long(tok[1].substr(0, tok[1].size() - 1));
        if (!nid || *nid < 0 || *nid > std::numeric_limits<int>::max() || !is_identifier(tok[3]))
            fail(m_no, "malformed zone header " + quote(raw) + " (expected 'Node N, zone NAME')");
        const int node = static_cast<int>(*nid);
        const std::string name(tok[3]);
        bool again = std::any_of(m_out.zones.begin(), m_out.zones.end(),
            [&](const zoneinfo_zone& z) { return z.node == node && z.name == name; });
        if (again) new_dump();
        if (m_fresh) {
            ++m_dumps;
            m_dump_line = m_no;
            m_fresh = false;
        }
        close_zone();
        const int indent = static_cast<int>(raw.find_first_not_of(" \t"));
        m_indent = m_indent < 0 ? indent : std::min(m_indent, indent);
        zoneinfo_zone z;
        z.node = node;
        z.name = name;
        z.line = m_no;
        m_out.zones.push_back(std::move(z));
        m_zone = true;
        m_section = section::head;
        m_seen_pages_free = m_protection = m_pageset_open = false;
        m_head_seen.clear();
    }

    void head_line(zoneinfo_zone& z, head_key k, const std::vector<std::string_view>& tok)
    {
        std::string name(tok[0]);
        long v = 0;
        if (k == head_key::scanned && tok.size() > 2 && tok[2].front() == '(') {
            // "scanned  0 (a: 24 i: 0)" (v2.6.x) or "(aa: 0 ia: 0 af: 0 if: 0)" (v2.6.28+): the scan counts
            v = value(std::vector<std::string_view>(tok.begin(), tok.begin() + 2), 1, name);
        } else {
            v = value(tok, 1, name);
        }
        m_head_seen.insert(name);
        switch (k) {
        case head_key::boost:
            z.boost = v;
            mark(layout_mark::boost_line);
            break;
        case head_key::min:
            z.min = v;
            break;
        case head_key::low:
            z.low = v;
            break;
        case head_key::high:
            z.high = v;
            break;
        case head_key::promo:
            z.promo = v;
            mark(layout_mark::promo_line);
            break;
        case head_key::spanned:
            z.spanned = v;
            break;
        case head_key::present:
            z.present = v;
            break;
        case head_key::managed:
            z.managed = v;
            z.has_managed = true;
            mark(layout_mark::managed_line);
            break;
        case head_key::cma:
            z.cma = v;
            mark(layout_mark::cma_line);
            break;
        case head_key::scanned:
            z.stats["scanned"] = v;
            mark(layout_mark::scanned_line);
            break;
        }
    }

    void stat_line(zoneinfo_zone& z, const std::vector<std::string_view>& tok)
    {
        auto v = to_long(tok[1]);
        if (!v) fail(m_no, "the value of '" + std::string(tok[0]) + "' is not a number: " + quote(tok[1]));
        if (tok[0] == "nr_alloc_batch") mark(layout_mark::nr_alloc_batch);
        if (tok[0] == "node_scanned") mark(layout_mark::node_scanned_line);
        (m_section == section::node_stats ? z.node_stats : z.stats)[std::string(tok[0])] = *v;
    }

    void cpu_line(zoneinfo_zone& z, const std::vector<std::string_view>& tok)
    {
        // "cpu: N" or, before v2.6.25, "cpu: N pcp: M"
        close_pageset();
        m_section = section::pagesets;
        zoneinfo_pageset p;
        std::vector<std::string_view> cpu(tok.begin(), tok.begin() + std::min<std::size_t>(tok.size(), 2));
        const long n = value(tok.size() == 4 && tok[2] == "pcp:" ? cpu : tok, 1, "cpu:");
        if (n > std::numeric_limits<int>::max()) fail(m_no, "'cpu:' is out of range, got " + quote(tok[1]));
        p.cpu = static_cast<int>(n);
        p.line = m_no;
        if (tok.size() == 4 && tok[2] == "pcp:") {
            const long list = value(tok, 3, "pcp:");
            if (list > 1) fail(m_no, "'pcp:' is 0 (hot) or 1 (cold), got " + quote(tok[3]));
            p.pcp = static_cast<int>(list);
            mark(layout_mark::hot_cold_lists);
        }
        z.pagesets.push_back(p);
        m_pageset_open = true;
        m_pageset_seen.clear();
    }

    static void pageset_value(zoneinfo_pageset& p, std::string_view k, long v)
    {
        if (k == "count:")
            p.count = v;
        else if (k == "high:")
            p.high = v;
        else if (k == "batch:")
            p.batch = v;
        else if (k == "low:")
            p.low = v;
        else if (k == "high_min:")
            p.high_min = v;
        else
            p.high_max = v;
    }

    // "vm stats threshold" follows a CPU's record (both of its lists before v2.6.25).
    void threshold(zoneinfo_zone& z, long v)
    {
        if (z.pagesets.empty()) return skip();
        mark(layout_mark::vm_stats_threshold);
        const int cpu = z.pagesets.back().cpu;
        for (auto it = z.pagesets.rbegin(); it != z.pagesets.rend() && it->cpu == cpu; ++it)
            if (!it->stat_threshold) it->stat_threshold = v;
    }

    void tail_line(zoneinfo_zone& z, const std::vector<std::string_view>& tok)
    {
        close_pageset();
        m_section = section::tail;
        std::string_view k = tok[0];
        long v = value(tok, 1, k);
        if (k == "node_unreclaimable:") {
            z.node_unreclaimable = v;
            mark(layout_mark::node_unreclaimable);
        } else if (k == "start_pfn:") {
            z.start_pfn = v;
        } else if (k == "reserved_highatomic:" || k == "free_highatomic:") {
            (k == "reserved_highatomic:" ? z.reserved_highatomic : z.free_highatomic) = v;
            mark(layout_mark::highatomic_lines);
        } else {
            k.remove_suffix(1);
            z.tail[std::string(k)] = v;
            if (k == "all_unreclaimable") mark(layout_mark::all_unreclaimable);
            if (k == "prev_priority") mark(layout_mark::prev_priority);
            if (k == "inactive_ratio") mark(layout_mark::inactive_ratio);
            if (k == "node_inactive_ratio") mark(layout_mark::node_inactive_ratio);
        }
    }

    // "(0, 3019, 4171, 4171, 4171)"
    void protection(zoneinfo_zone& z, std::string_view rest)
    {
        std::string s(rest);
        auto open = s.find('('), close = s.find(')');
        if (open == std::string::npos || close == std::string::npos || close < open)
            fail(m_no, "'protection:' expects a list like (0, 3019, 4171), got " + quote(rest));
        std::stringstream items(s.substr(open + 1, close - open - 1));
        std::string item;
        z.protection.clear();
        while (std::getline(items, item, ',')) {
            auto t = split(item);
            auto v = t.size() == 1 ? to_long(t[0]) : std::nullopt;
            if (!v) fail(m_no, "'protection:' has a value that is not a number: " + quote(item));
            if (*v < 0 || *v >= MAX_VALUE) fail(m_no, "'protection:' has a value out of range: " + quote(item));
            z.protection.push_back(*v);
        }
        m_protection = true;
    }

    // A record cut short (the end of a pasted excerpt, a line lost in a mail) is left out, not refused.
    void close_pageset()
    {
        if (!m_pageset_open) return;
        m_pageset_open = false;
        zoneinfo_zone& z = current();
        const zoneinfo_pageset& p = z.pagesets.back();
        std::string missing;
        for (const char* k : {"count:", "high:", "batch:"})
            if (!m_pageset_seen.count(k)) missing += std::string(missing.empty() ? "" : ", ") + "'" + k + "'";
        if (m_pageset_seen.count("high_min:") != m_pageset_seen.count("high_max:"))
            missing += std::string(missing.empty() ? "" : ", ") + "one of 'high_min:'/'high_max:'";
        if (missing.empty()) {
            if (p.high_min) mark(layout_mark::high_min_max);
            if (p.low) mark(layout_mark::pcp_low);
            return;
        }
        m_out.notes.push_back("line " + std::to_string(p.line) + ": the pageset of cpu " + std::to_string(p.cpu)
            + " in " + where() + " has no " + missing + " line (cut short?): left out");
        z.pagesets.pop_back();
    }

    void close_zone()
    {
        if (!m_zone) return;
        close_pageset();
        zoneinfo_zone& z = current();
        if (!z.has_managed) z.managed = z.present; // before v3.8 the formulas read present_pages
        std::string missing;
        for (const char* k : {"min", "low", "high", "present"})
            if (!m_head_seen.count(k)) missing += std::string(missing.empty() ? "" : ", ") + "'" + k + "'";
        if (!m_seen_pages_free && !missing.empty()) missing = "'pages free', " + missing;
        if (!missing.empty())
            m_out.notes.push_back(where() + " has no " + missing + " line: a partial record"
                + (z.pagesets.empty() ? "" : "; its pagesets are not checked"));
        if (!missing.empty() && !m_head_seen.count("present")) {
            z.present = 0; // unknown size: treated as an unpopulated zone by the checker
            z.pagesets.clear();
        }
    }
};

} // namespace

zoneinfo_result parse_zoneinfo(const std::string& text, const std::string& file)
{
    zoneinfo_doc doc;
    reader r(doc);
    int no = 0;
    try {
        std::size_t pos = 0;
        while (pos < text.size()) {
            std::size_t end = text.find('\n', pos);
            if (end == std::string::npos) end = text.size();
            r.line(++no, std::string_view(text).substr(pos, end - pos));
            pos = end + 1;
        }
        r.finish();
    } catch (const parse_failure& f) {
        return pcplab::error::in(file, f.message).at(f.line);
    }
    return doc;
}

zoneinfo_result load_zoneinfo_file(const std::string& path)
{
    // A machine with thousands of CPUs prints a few MiB; far more is not a zoneinfo capture.
    constexpr std::size_t max_bytes = 256u << 20;
    auto text = io::read_text_file(path, max_bytes);
    if (auto* err = std::get_if<pcplab::error>(&text)) return pcplab::error::in(path, err->message);
    return parse_zoneinfo(std::get<std::string>(text), path);
}

} // namespace pcplab::procfs
