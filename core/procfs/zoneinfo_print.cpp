#include "zoneinfo_print.hpp"

#include "vmstat_names.hpp"

#include <charconv>
#include <string_view>

namespace pcplab::procfs
{

namespace
{

using namespace pcplab::mm;

// What "%lu", "%ld" and "%i" print, without vsnprintf's parsing: a recording renders these texts on the engine's
// thread, and formatting one number at a time with vsnprintf was most of the cost.
template <class T> void append_int(std::string& out, T v)
{
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

// What "%6lu" prints: right-aligned in at least 6 columns (buddyinfo's counts).
void append_padded(std::string& out, unsigned long v, std::size_t width)
{
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    const auto n = static_cast<std::size_t>(r.ptr - buf);
    if (n < width) out.append(width - n, ' ');
    out.append(buf, n);
}

// "Node %d, zone %8s": the header both files start a zone with.
void append_zone_header(std::string& out, int node_id, std::string_view zone)
{
    out += "Node ";
    append_int(out, node_id);
    out += ", zone ";
    if (zone.size() < 8) out.append(8 - zone.size(), ' ');
    out += zone;
}

// A literal label, then a number: the shape of most zoneinfo lines.
template <class T> void append_line(std::string& out, std::string_view label, T v)
{
    out += label;
    append_int(out, v);
}

// The zones a node prints: all of them, ZONE_DEVICE only where the config has it.
unsigned nr_printed_zones(const kernel_era& era)
{
    return era.has_zone_device() ? MAX_NR_ZONES : ZONE_DEVICE;
}

// NR_FREE_PAGES_BLOCKS (v6.15 defrag_mode): free pages that sit in whole free pageblocks.
unsigned long free_pages_blocks(const zone_numbers& z)
{
    unsigned long pages = 0;
    for (unsigned order = pageblock_order; order < NR_PAGE_ORDERS; ++order) pages += z.nr_free[order] << order;
    return pages;
}

// zone_page_state(zone, item) for the items the model keeps; everything else it does not simulate is 0.
unsigned long zone_stat_value(const zone_numbers& z, std::string_view name)
{
    if (name == "nr_free_pages") return static_cast<unsigned long>(z.nr_free_pages);
    if (name == "nr_free_pages_blocks") return free_pages_blocks(z);
    return 0;
}

unsigned long numa_stat_value(const zone_numbers& z, std::string_view name)
{
    if (name == "numa_hit") return z.numa_hit;
    if (name == "numa_miss") return z.numa_miss;
    if (name == "numa_foreign") return z.numa_foreign;
    if (name == "numa_local") return z.numa_local;
    if (name == "numa_other") return z.numa_other;
    return 0; // numa_interleave: no mempolicy in the model
}

void print_stat_line(std::string& out, std::string_view name, unsigned long value)
{
    // "%-12s %lu": the name left-aligned in at least 12 columns.
    out += "\n      ";
    out += name;
    if (name.size() < 12) out.append(12 - name.size(), ' ');
    out += ' ';
    append_int(out, value);
}

// zoneinfo_show_print (mm/vmstat.c): v4.17/v5.4 layout, + cma (v5.14), boost (v5.17), promo (v6.12),
// high_min/high_max with the wider per-CPU labels (v6.13), reserved/free_highatomic (v6.19).
void zoneinfo_show_print(std::string& out, const zoneinfo_source& src, const zone_numbers& z)
{
    const kernel_era& era = src.era;
    const zoneinfo_stat_names& names = zoneinfo_stat_names_for(era.version);

    append_zone_header(out, z.node_id, zone_name(z.idx));
    if (z.first_populated) {
        out += "\n  per-node stats";
        for (auto name : names.node) print_stat_line(out, name, 0); // LRU, slab, writeback: not simulated
    }
    append_line(out, "\n  pages free     ", static_cast<unsigned long>(z.nr_free_pages));
    if (era.zoneinfo_has_boost()) append_line(out, "\n        boost    ", z.watermark_boost);
    append_line(out, "\n        min      ", z.wmark[WMARK_MIN]);
    append_line(out, "\n        low      ", z.wmark[WMARK_LOW]);
    append_line(out, "\n        high     ", z.wmark[WMARK_HIGH]);
    if (era.zoneinfo_has_promo()) append_line(out, "\n        promo    ", z.wmark[WMARK_PROMO]);
    append_line(out, "\n        spanned  ", z.spanned);
    append_line(out, "\n        present  ", z.present);
    append_line(out, "\n        managed  ", z.managed);
    if (era.zoneinfo_has_cma()) out += "\n        cma      0"; // no CMA areas on the presets

    unsigned nr_zones = nr_printed_zones(era);
    append_line(out, "\n        protection: (", z.lowmem_reserve[0]);
    for (unsigned i = 1; i < nr_zones; ++i) append_line(out, ", ", z.lowmem_reserve[i]);
    out += ')';

    // "If unpopulated, no other information is useful"
    if (!z.populated) {
        out += '\n';
        return;
    }

    for (auto name : names.zone) print_stat_line(out, name, zone_stat_value(z, name));
    for (auto name : names.numa) print_stat_line(out, name, numa_stat_value(z, name));

    out += "\n  pagesets";
    for (int cpu = 0; cpu < src.nr_cpus; ++cpu) {
        const pageset_numbers& pcp = src.pagesets[z.first_pageset + static_cast<std::size_t>(cpu)];
        append_line(out, "\n    cpu: ", cpu);
        if (era.zoneinfo_has_high_min_max()) {
            append_line(out, "\n              count:    ", pcp.count);
            append_line(out, "\n              high:     ", pcp.high);
            append_line(out, "\n              batch:    ", pcp.batch);
            append_line(out, "\n              high_min: ", pcp.high_min);
            append_line(out, "\n              high_max: ", pcp.high_max);
        } else {
            append_line(out, "\n              count: ", pcp.count);
            append_line(out, "\n              high:  ", pcp.high);
            append_line(out, "\n              batch: ", pcp.batch);
        }
        append_line(out, "\n  vm stats threshold: ", pcp.stat_threshold);
    }
    // kswapd is not modelled, so kswapd_failures never reaches MAX_RECLAIM_RETRIES.
    out += "\n  node_unreclaimable:  0";
    append_line(out, "\n  start_pfn:           ", z.zone_start_pfn);
    if (era.zoneinfo_has_highatomic()) {
        // No ALLOC_HIGHATOMIC reservations in the model.
        out += "\n  reserved_highatomic: 0";
        out += "\n  free_highatomic:     0";
    }
    out += '\n';
}

} // namespace

// zoneinfo_show (mm/vmstat.c): every zone of every online node, populated or not, so that the effect of
// lowmem_reserve_ratio on empty zones stays visible.
std::string zoneinfo_text(const zoneinfo_source& src)
{
    std::string out;
    const unsigned printed = nr_printed_zones(src.era);
    for (const zone_numbers& z : src.zones)
        if (z.idx < printed) zoneinfo_show_print(out, src, z);
    return out;
}

// frag_show / frag_show_print (mm/vmstat.c, v4.17 .. v6.19): free blocks per order, populated zones only.
std::string buddyinfo_text(const zoneinfo_source& src)
{
    std::string out;
    for (const zone_numbers& z : src.zones) {
        if (!z.populated) continue;
        append_zone_header(out, z.node_id, zone_name(z.idx));
        out += ' ';
        for (unsigned order = 0; order < NR_PAGE_ORDERS; ++order) {
            append_padded(out, z.nr_free[order], 6);
            out += ' ';
        }
        out += '\n';
    }
    return out;
}

std::string zoneinfo_text(const mm::machine& m)
{
    return zoneinfo_text(capture_zoneinfo_source(m));
}

std::string buddyinfo_text(const mm::machine& m)
{
    return buddyinfo_text(capture_zoneinfo_source(m));
}

} // namespace pcplab::procfs
