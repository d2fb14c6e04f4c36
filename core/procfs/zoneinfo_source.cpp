#include "zoneinfo_source.hpp"

#include "mm/machine.hpp"

namespace pcplab::procfs
{

namespace
{

// is_zone_first_populated (mm/vmstat.c, v4.14 .. v6.19): the per-node stats go with the node's first zone
// that has present pages, not with its first zone (an empty DMA zone would otherwise carry them).
bool is_zone_first_populated(const mm::pglist_data& pgdat, const mm::zone& z)
{
    for (const auto& cmp : pgdat.node_zones)
        if (cmp->populated()) return cmp.get() == &z;
    return false;
}

} // namespace

zoneinfo_source capture_zoneinfo_source(const mm::machine& m)
{
    zoneinfo_source src;
    src.era = m.era;
    src.nr_cpus = m.nr_cpu_ids();
    const auto cpus = static_cast<std::size_t>(src.nr_cpus);
    std::size_t nr_zones = 0, nr_populated = 0;
    for (const auto& pgdat : m.nodes)
        for (const auto& z : pgdat->node_zones) {
            ++nr_zones;
            if (z->populated()) ++nr_populated;
        }
    src.zones.reserve(nr_zones);
    src.pagesets.reserve(nr_populated * cpus);
    for (const auto& pgdat : m.nodes)
        for (const auto& zp : pgdat->node_zones) {
            const mm::zone& z = *zp;
            zone_numbers& n = src.zones.emplace_back();
            n.node_id = pgdat->node_id;
            n.idx = z.idx;
            n.populated = z.populated();
            n.first_populated = is_zone_first_populated(*pgdat, z);
            n.nr_free_pages = z.nr_free_pages;
            n.watermark_boost = z.watermark_boost;
            for (unsigned w = 0; w < mm::NR_WMARK; ++w) n.wmark[w] = z.wmark_pages(static_cast<mm::zone_watermarks>(w));
            n.spanned = z.spanned_pages;
            n.present = z.present_pages;
            n.managed = z.managed();
            n.lowmem_reserve = z.lowmem_reserve;
            for (unsigned order = 0; order < mm::NR_PAGE_ORDERS; ++order)
                n.nr_free[order] = z.free_area_[order].nr_free;
            n.numa_hit = z.numa_hit;
            n.numa_miss = z.numa_miss;
            n.numa_foreign = z.numa_foreign;
            n.numa_local = z.numa_local;
            n.numa_other = z.numa_other;
            n.zone_start_pfn = static_cast<unsigned long>(z.zone_start_pfn);
            n.first_pageset = src.pagesets.size();
            if (!n.populated) continue;
            // for_each_online_cpu: every simulated CPU is online.
            for (std::size_t cpu = 0; cpu < cpus; ++cpu) {
                const mm::per_cpu_pages& pcp = z.per_cpu_pageset[cpu];
                src.pagesets.push_back(
                    {pcp.count, pcp.high, pcp.batch, pcp.high_min, pcp.high_max, pcp.stat_threshold});
            }
        }
    return src;
}

} // namespace pcplab::procfs
