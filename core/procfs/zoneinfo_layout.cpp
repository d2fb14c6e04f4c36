// The lines that date a zoneinfo capture. A line's presence bounds the version from below or above; the
// absence of a line every zone prints bounds it from the other side. Where a version is bracketed by sources
// rather than known from the commit, the comment says so.
#include "zoneinfo_layout.hpp"

#include <algorithm>

namespace pcplab::procfs
{

namespace
{

using mm::kernel_version;

constexpr kernel_version no_lower{2, 6, 13, 0};
constexpr kernel_version no_upper{9, 99, 0, 0};

struct mark_rule {
    layout_mark mark;
    kernel_version from, to; // where the line is printed (inclusive)
    const char* what;
};

// When each line is printed.
const mark_rule k_rules[] = {
    // Christoph Lameter, "Page allocator: get rid of the list of cold pages" (3dfa5721f12c, posted 2007-11-14)
    {layout_mark::hot_cold_lists, no_lower, {2, 6, 24, 0}, "hot/cold pagesets ('cpu: N pcp: M')"},
    // Rohit Seth zeroed pcp->low in v2.6.15; v2.6.17-rc3-mm1's setup_pageset no longer has the field.
    {layout_mark::pcp_low, no_lower, {2, 6, 16, 0}, "a pageset 'low:' line"},
    // "vmscan: kill prev_priority completely" (2010), in v2.6.36
    {layout_mark::prev_priority, no_lower, {2, 6, 35, 0}, "a 'prev_priority:' line"},
    // the split-LRU series added zone->inactive_ratio (v2.6.28); node-based LRU (v4.8) moved it to the node
    {layout_mark::inactive_ratio, {2, 6, 28, 0}, {4, 7, 0, 0}, "an 'inactive_ratio:' line"},
    {layout_mark::node_inactive_ratio, {4, 8, 0, 0}, no_upper, "a 'node_inactive_ratio:' line"},
    // Johannes Weiner's fair zone allocation policy (v3.12) until Mel Gorman's node-based LRU (v4.8)
    {layout_mark::nr_alloc_batch, {3, 12, 0, 0}, {4, 7, 0, 0}, "an 'nr_alloc_batch' counter"},
    {layout_mark::scanned_line, no_lower, {4, 7, 0, 0}, "a zone 'scanned' line"},
    {layout_mark::node_scanned_line, {4, 8, 0, 0}, no_upper, "a 'node_scanned' line"},
    {layout_mark::all_unreclaimable, no_lower, {4, 7, 0, 0}, "an 'all_unreclaimable:' line"},
    {layout_mark::node_unreclaimable, {4, 8, 0, 0}, no_upper, "a 'node_unreclaimable:' line"},
    // Jiang Liu's managed_pages series (posted November 2012), in v3.8
    {layout_mark::managed_line, {3, 8, 0, 0}, no_upper, "a 'managed' line"},
    {layout_mark::per_node_stats, {4, 8, 0, 0}, no_upper, "a 'per-node stats' block"},
    // David Hildenbrand, "mm/page_alloc: count CMA pages per zone and print them in /proc/zoneinfo" (Jan 2021)
    {layout_mark::cma_line, {5, 12, 0, 0}, no_upper, "a 'cma' line"},
    // Liangcai Fan, "mm: Show watermark_boost of zone in zoneinfo" (posted 2021-09-24), in v5.16
    {layout_mark::boost_line, {5, 16, 0, 0}, no_upper, "a 'boost' line"},
    // absent in v6.8, present in v6.12 (bracketed by the sources read)
    {layout_mark::promo_line, {6, 9, 0, 0}, no_upper, "a 'promo' line"},
    // MengEn Sun, "mm: add pcp high_min high_max to proc zoneinfo" (posted 2024-10-10), in v6.13
    {layout_mark::high_min_max, {6, 13, 0, 0}, no_upper, "pageset 'high_min:'/'high_max:' lines"},
    // absent in v6.14, present in v6.19 (bracketed)
    {layout_mark::highatomic_lines, {6, 15, 0, 0}, no_upper, "'reserved_highatomic:' lines"},
};

// The lines every zone of a version prints once its header block is there, so that their absence bounds
// the version from above (the last version before the line appeared).
struct absence_rule {
    layout_mark mark;
    kernel_version to;
    const char* what;
};
const absence_rule k_absent[] = {
    {layout_mark::managed_line, {3, 7, 0, 0}, "no 'managed' line"},
    {layout_mark::cma_line, {5, 11, 0, 0}, "no 'cma' line"},
    {layout_mark::boost_line, {5, 15, 0, 0}, "no 'boost' line"},
    {layout_mark::promo_line, {6, 11, 0, 0}, "no 'promo' line"},
};

std::string range_text(const kernel_version& from, const kernel_version& to)
{
    if (to.compare(no_upper) >= 0) return from.str() + " or later";
    if (from.compare(no_lower) <= 0) return to.str() + " or earlier";
    return from.str() + " .. " + to.str();
}

} // namespace

std::string version_window::str() const
{
    if (from.compare(no_lower) <= 0 && to.compare(no_upper) >= 0) return "any version";
    return range_text(from, to);
}

version_window layout_window(const zoneinfo_doc& doc)
{
    version_window w;
    kernel_version lo = no_lower, hi = no_upper;
    auto narrow = [&](const kernel_version& from, const kernel_version& to, const std::string& why) {
        if (from.compare(lo) > 0) lo = from;
        if (to.compare(hi) < 0) hi = to;
        w.reasons.push_back(why);
    };
    for (const auto& r : k_rules)
        if (doc.has(r.mark)) narrow(r.from, r.to, std::string(r.what) + ": " + range_text(r.from, r.to));

    // Absence counts only where the zone header block was printed at all.
    bool header_block = std::any_of(doc.zones.begin(), doc.zones.end(),
        [](const zoneinfo_zone& z) { return z.present != 0 || z.spanned != 0 || z.min != 0; });
    if (header_block)
        for (const auto& a : k_absent)
            if (!doc.has(a.mark)) narrow(no_lower, a.to, std::string(a.what) + ": " + range_text(no_lower, a.to));
    // high_min/high_max (v6.13+) are printed in every pageset of the one-list layout.
    bool one_list_pagesets = std::any_of(doc.zones.begin(), doc.zones.end(), [](const zoneinfo_zone& z) {
        return std::any_of(z.pagesets.begin(), z.pagesets.end(), [](const zoneinfo_pageset& p) { return !p.pcp; });
    });
    if (one_list_pagesets && !doc.has(layout_mark::high_min_max))
        narrow(no_lower, {6, 12, 0, 0}, "no 'high_min:' in the pagesets: v6.12 or earlier");
    // The per-node block is printed with a node's first populated zone: its absence counts in a whole dump
    // (node 0's first zone is there and populated).
    if (!doc.zones.empty() && doc.zones.front().node == 0 && doc.zones.front().populated() && doc.zones.size() > 1
        && !doc.has(layout_mark::per_node_stats))
        narrow(no_lower, {4, 7, 0, 0}, "no 'per-node stats' block: v4.7 or earlier");

    if (lo.compare(hi) > 0) {
        // A distribution kernel with backported lines: say so and let the numbers decide over all versions.
        w.conflict = true;
        w.reasons.push_back("these lines contradict each other (a distribution kernel with backports?): "
                            "every version is tried");
        return w;
    }
    w.from = lo;
    w.to = hi;
    return w;
}

} // namespace pcplab::procfs
