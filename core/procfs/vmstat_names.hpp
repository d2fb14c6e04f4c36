// The stat names /proc/zoneinfo prints per era: node_stat_item, zone_stat_item and the NUMA counters, in the
// order of each version's vmstat_text (mm/vmstat.c) for an x86-64 distro configuration.
#pragma once

#include "mm/kernel_version.hpp"

#include <string_view>
#include <vector>

namespace pcplab::procfs
{

struct zoneinfo_stat_names {
    const char* source; // which tree / capture the list was checked against
    std::vector<std::string_view> node; // "per-node stats" block (node_stat_item); "" = a hidden item
    std::vector<std::string_view> zone; // zone_stat_item (nr_free_pages ...)
    std::vector<std::string_view> numa; // numa_stat_item (<= v5.13) / numa_event_item (v5.14+)
};

// The lists of the era a version belongs to (v4.17-v4.19, v4.20-v5.8, v5.9-v6.8, v6.9-v6.14, v6.15+).
const zoneinfo_stat_names& zoneinfo_stat_names_for(const mm::kernel_version& v);

} // namespace pcplab::procfs
