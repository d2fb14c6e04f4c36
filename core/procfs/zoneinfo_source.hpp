// The numbers /proc/zoneinfo and /proc/buddyinfo print, copied from a machine at one moment. Copying them is a
// small fraction of printing them, so a recording's engine thread copies and a reader prints (procfs_texts).
#pragma once

#include "mm/kernel_era.hpp"
#include "mm/mm_types.hpp"

#include <array>
#include <vector>

namespace pcplab::mm
{
class machine;
} // namespace pcplab::mm

namespace pcplab::procfs
{

// One CPU's pageset of a zone as zoneinfo prints it.
struct pageset_numbers {
    int count = 0, high = 0, batch = 0, high_min = 0, high_max = 0;
    int stat_threshold = 0;
};

// One zone as zoneinfo and buddyinfo print it.
struct zone_numbers {
    int node_id = 0;
    unsigned idx = 0; // mm::zone_type
    bool populated = false;
    bool first_populated = false; // carries its node's per-node stats (is_zone_first_populated)
    long nr_free_pages = 0;
    unsigned long watermark_boost = 0;
    std::array<unsigned long, mm::NR_WMARK> wmark{}; // boost included, as wmark_pages() returns them
    unsigned long spanned = 0, present = 0, managed = 0;
    std::array<long, mm::MAX_NR_ZONES> lowmem_reserve{};
    std::array<unsigned long, mm::NR_PAGE_ORDERS> nr_free{}; // free blocks per order
    unsigned long numa_hit = 0, numa_miss = 0, numa_foreign = 0, numa_local = 0, numa_other = 0;
    unsigned long zone_start_pfn = 0;
    std::size_t first_pageset = 0; // populated zones: index of CPU 0's pageset in zoneinfo_source::pagesets
};

struct zoneinfo_source {
    mm::kernel_era era;
    int nr_cpus = 0;
    std::vector<zone_numbers> zones; // every zone of every node, node-major, in zone-type order
    std::vector<pageset_numbers> pagesets; // nr_cpus per populated zone, in the order of `zones`
};

// Copies what the two files print from `m` (every online CPU's pagesets of every populated zone).
zoneinfo_source capture_zoneinfo_source(const mm::machine& m);

} // namespace pcplab::procfs
