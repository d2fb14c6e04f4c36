// pg_data_t: one NUMA node with its zones, CPUs and deferred-init state.
#pragma once

#include "zone.hpp"

#include <array>
#include <memory>
#include <vector>

namespace pcplab::mm
{

struct pglist_data {
    int node_id = 0;
    int socket = 0;
    pfn_t node_start_pfn = 0;
    unsigned long node_spanned_pages = 0;
    unsigned long node_present_pages = 0;
    std::vector<int> cpus; // cpumask_of_node
    std::array<std::unique_ptr<zone>, MAX_NR_ZONES> node_zones;

    // CONFIG_DEFERRED_STRUCT_PAGE_INIT: frames from here on are initialised by the pgdatinit threads.
    pfn_t first_deferred_pfn = NO_PFN;
    std::atomic<bool> deferred_init_done{false};

    zone& z(zone_type t) { return *node_zones[t]; }
    const zone& z(zone_type t) const { return *node_zones[t]; }
    unsigned long node_end_pfn() const { return node_start_pfn + node_spanned_pages; }
};

} // namespace pcplab::mm
