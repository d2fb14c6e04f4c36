// The shape of a simulated machine, resolved to pfn ranges: what a preset describes.
#pragma once

#include "mm_types.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace pcplab::mm
{

struct pfn_range {
    pfn_t start = 0; // inclusive
    pfn_t end = 0; // exclusive
    unsigned long pages() const { return end - start; }
};

// A zone's pfn range given outright (a machine read from a real /proc/zoneinfo), instead of the x86-64 bounds.
struct zone_extent {
    zone_type type = ZONE_NORMAL;
    pfn_range range;
    // A 32-bit machine's ZONE_HIGHMEM, which the model keeps in the ZONE_MOVABLE slot (the zone above Normal):
    // printed as HighMem and treated as highmem by the watermarks.
    bool highmem = false;
};

struct node_spec {
    int socket = 0;
    std::vector<int> cpus; // logical CPU ids on this node (cpumask_of_node)
    std::vector<pfn_range> memory; // memblock.memory ranges of this node, sorted, non-overlapping
    std::vector<pfn_range> reserved; // memblock.reserved inside them (kernel image, memmap, firmware ...)
    std::vector<zone_extent> zones; // empty: the zones follow from the x86-64 bounds (zone_sizes_init)
};

struct sysctl_values {
    // vm.min_free_kbytes; nullopt = the kernel's default (int_sqrt(lowmem_kbytes * 16), clamped)
    std::optional<long> min_free_kbytes;
    int watermark_scale_factor = 10;
    int percpu_pagelist_fraction = 0; // <= v5.13
    int percpu_pagelist_high_fraction = 0; // v5.14+
    // CONFIG_PCP_BATCH_SCALE_MAX (v6.10 Kconfig, 0 .. 6, default 5; a fixed 5 in v6.7 .. v6.9), here a
    // vm.pcp_batch_scale_max sysctl as Yafang Shao proposed it (linux-mm, 2024; not merged).
    int pcp_batch_scale_max = 5;
};

struct machine_spec {
    std::string name;
    std::string description;
    std::string era = "v6.7"; // default era of the preset
    std::map<std::string, bool> patches; // switch overrides by name
    int init_threads = 0; // deferred-init threads per node when parallel; 0 = era default
    int sockets = 1;
    int threads_per_core = 1;
    // PAGE_SHIFT and the memory section size of the machine's architecture. The simulated frames are of any
    // size; the formulas that turn bytes into pages (zone_batchsize's cap, min_free_kbytes, the vm stat
    // threshold, deferred init's early section) read these.
    unsigned page_shift = PAGE_SHIFT;
    unsigned long pages_per_section = PAGES_PER_SECTION;
    std::vector<node_spec> nodes;
    sysctl_values sysctl;
    // ZONE_MOVABLE size per node in pages (kernelcore=/movablecore=); 0 = no movable zone
    unsigned long movable_pages_per_node = 0;
    std::map<std::string, double> cost_model; // overrides of the engine's cost model (ns), by key
    std::string source_file; // where it was loaded from, for messages

    int nr_cpus() const;
};

} // namespace pcplab::mm
