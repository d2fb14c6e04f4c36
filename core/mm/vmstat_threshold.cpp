// The per-CPU vm stat threshold of each zone (mm/vmstat.c): how far a CPU's counter delta may drift before
// it is folded into the zone's counters. zoneinfo prints it as "vm stats threshold".
#include "vmstat.hpp"

#include "bitops.hpp"

#include <algorithm>

namespace pcplab::mm
{

// calculate_normal_threshold (mm/vmstat.c, v2.6.x .. v6.19): grows with the log of the CPU count (more
// CPUs, more contention on the shared counters) and of the zone size in 128 MiB units; capped at 125
// because the per-CPU delta is an s8.
int calculate_normal_threshold(unsigned long pages, int num_online_cpus, unsigned page_shift)
{
    unsigned long mem = pages >> (27 - page_shift);
    int threshold = 2 * fls(static_cast<unsigned long>(std::max(num_online_cpus, 0))) * (1 + fls(mem));
    return std::min(125, threshold);
}

// refresh_zone_stat_thresholds (mm/vmstat.c, v5.4 .. v6.19): every populated zone, every online CPU. All
// simulated CPUs are online. (percpu_drift_mark and the node thresholds are not modelled.)
void refresh_zone_stat_thresholds(machine& m)
{
    int cpus = m.nr_cpu_ids();
    m.for_each_populated_zone([&](zone& z) {
        unsigned long pages = m.era.formulas_read_present() ? z.present_pages : z.managed();
        int threshold = calculate_normal_threshold(pages, cpus, m.page_shift);
        for (auto& pcp : z.per_cpu_pageset) pcp.stat_threshold = static_cast<std::int8_t>(threshold);
    });
}

} // namespace pcplab::mm
