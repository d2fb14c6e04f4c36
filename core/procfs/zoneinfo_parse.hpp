// Reading a real /proc/zoneinfo back into numbers: any kernel from v2.6.13 (the first to print the file) to
// v6.19, any architecture, one or several nodes, whole or in part (one zone pasted into a mail), as it
// reaches us in bug reports: indented, with CRLF line ends, a byte-order mark, a shell prompt or mail text
// around it, or several dumps one after another (mmtests and `pcplab-cli export` write "time: N" between).
#pragma once

#include "base/error.hpp"
#include <bitset>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace pcplab::procfs
{

struct zoneinfo_pageset {
    int cpu = 0;
    int line = 0; // line of its "cpu: N"
    std::optional<int> pcp; // before v2.6.25 each CPU had a hot (0) and a cold (1) list: "cpu: N pcp: M"
    long count = 0;
    long high = 0;
    long batch = 0;
    std::optional<long> low; // per_cpu_pages.low, printed until v2.6.16
    std::optional<long> high_min; // v6.13+
    std::optional<long> high_max;
    std::optional<long> stat_threshold;
};

struct zoneinfo_zone {
    int node = 0;
    std::string name; // "DMA", "DMA32", "Normal", "HighMem", "Movable", "Device"
    int line = 0; // line of its "Node N, zone NAME" header
    long pages_free = 0;
    long min = 0, low = 0, high = 0;
    std::optional<long> promo, boost, cma;
    long spanned = 0, present = 0;
    long managed = 0; // before v3.8 there is no managed line: then a copy of present (has_managed false)
    bool has_managed = false;
    std::vector<long> protection;
    std::map<std::string, long> node_stats; // the "per-node stats" block (first populated zone of a node)
    std::map<std::string, long> stats; // nr_free_pages, numa_hit, active, ... and any other "NAME VALUE" line
    std::vector<zoneinfo_pageset> pagesets;
    std::optional<long> node_unreclaimable;
    std::optional<long> start_pfn;
    std::optional<long> reserved_highatomic, free_highatomic; // v6.19+
    std::map<std::string, long> tail; // all_unreclaimable, prev_priority, inactive_ratio, ... (without ':')
    bool populated() const { return present != 0; }
};

// Lines whose presence dates a capture (procfs/zoneinfo_layout.cpp turns them into a window of versions).
enum class layout_mark : unsigned {
    hot_cold_lists, // "cpu: N pcp: M"
    pcp_low, // a pageset's "low:"
    managed_line,
    per_node_stats,
    nr_alloc_batch,
    scanned_line, // "scanned  N" in the zone header
    node_scanned_line,
    all_unreclaimable,
    node_unreclaimable,
    prev_priority,
    inactive_ratio,
    node_inactive_ratio,
    vm_stats_threshold,
    cma_line,
    boost_line,
    promo_line,
    high_min_max,
    highatomic_lines,
    count
};
using layout_marks = std::bitset<static_cast<std::size_t>(layout_mark::count)>;

struct zoneinfo_doc {
    std::vector<zoneinfo_zone> zones;
    layout_marks marks;
    int lines_skipped = 0; // lines the reader did not recognise and left out
    std::vector<int> skipped_at; // the first few of them
    std::vector<std::string> notes; // what was tolerated: indentation, CRLF, a partial dump, several dumps ...
    int nr_cpus() const; // CPUs listed in the pagesets of populated zones
    int nr_nodes() const;
    bool has(layout_mark m) const { return marks.test(static_cast<std::size_t>(m)); }
    std::string skipped_text() const; // "3 unrecognised lines skipped (lines 12, 40, 41)", or empty
};

// An error names the file (source) and the line where known.
using zoneinfo_result = result<zoneinfo_doc>;
// Lines it does not know are skipped and counted, records cut short are left out with a note; a number that
// does not parse on a line it knows is an error with its line, and so is text with no zone in it at all.
zoneinfo_result parse_zoneinfo(const std::string& text, const std::string& file);
zoneinfo_result load_zoneinfo_file(const std::string& path);

} // namespace pcplab::procfs
