// struct zone: a range of a node's memory with its own buddy allocator, watermarks and pagesets.
#pragma once

#include "base/per_cpu.hpp"
#include "free_area.hpp"
#include "per_cpu_pages.hpp"

#include <array>
#include <atomic>
#include <vector>

namespace pcplab::mm
{

// zone->flags bits used by the model (enum zone_flags)
enum zone_flag : unsigned {
    ZONE_BOOSTED_WATERMARK = 1U << 0,
    ZONE_RECLAIM_ACTIVE = 1U << 1, // v5.14+, set by kswapd's balance_pgdat
    ZONE_BELOW_HIGH = 1U << 2, // v6.7+
};

struct zone {
    zone_type idx = ZONE_DMA;
    int node = 0;
    bool highmem = false; // a 32-bit machine's HighMem in the ZONE_MOVABLE slot (machine_spec's zone_extent)
    const char* name() const { return highmem ? "HighMem" : zone_name(idx); }

    // spanned = end - start (holes included); present = frames that exist; managed = frames given to the
    // buddy allocator so far. managed grows while deferred init runs, so it is atomic: the init threads add to
    // it while the UI reads it.
    pfn_t zone_start_pfn = 0;
    unsigned long spanned_pages = 0;
    unsigned long present_pages = 0;
    std::atomic<unsigned long> managed_pages{0};

    std::array<unsigned long, NR_WMARK> _watermark{};
    unsigned long watermark_boost = 0;
    std::array<long, MAX_NR_ZONES> lowmem_reserve{};

    std::array<free_area, NR_PAGE_ORDERS> free_area_{};
    long nr_free_pages = 0; // vm_stat[NR_FREE_PAGES]

    // One pageset per possible CPU. Before setup_per_cpu_pageset() they hold the boot values (high 0, batch 1).
    per_cpu<per_cpu_pages> per_cpu_pageset;
    bool pagesets_allocated = false; // false: still the boot pageset

    // The links inside this zone's frames are offsets from zone_start_pfn: every list of its pages says so.
    // Called once the span and the pagesets exist.
    void set_list_bases()
    {
        for (auto& area : free_area_)
            for (auto& l : area.free_list) l.base = zone_start_pfn;
        for (auto& pcp : per_cpu_pageset)
            for (auto& l : pcp.lists) l.base = zone_start_pfn;
    }

    // Cached values of the last zone_set_pageset_high_and_batch (v5.11+)
    int pageset_high = 0;
    int pageset_batch = 0;
    int pageset_high_min = 0;
    int pageset_high_max = 0;

    unsigned flags = 0;
    unsigned long nr_isolate_pageblock = 0;

    // zone->trylock_free_pages (v6.15+): blocks a free_pages_nolock could not give back because its trylock
    // of zone->lock failed; the next free_one_page that takes the lock normally merges them first.
    struct deferred_free {
        pfn_t pfn;
        unsigned order;
    };
    std::vector<deferred_free> trylock_free_pages;

    // Counters printed in zoneinfo's numa stats (per zone, summed over CPUs)
    unsigned long numa_hit = 0, numa_miss = 0, numa_foreign = 0, numa_local = 0, numa_other = 0;

    unsigned long zone_end_pfn() const { return zone_start_pfn + spanned_pages; }
    bool populated() const { return present_pages != 0; }
    unsigned long managed() const { return managed_pages.load(std::memory_order_relaxed); }
    bool zone_spans_pfn(unsigned long pfn) const { return pfn >= zone_start_pfn && pfn < zone_end_pfn(); }

    // min/low/high_wmark_pages include the boost
    unsigned long wmark_pages(zone_watermarks w) const { return _watermark[w] + watermark_boost; }
    unsigned long min_wmark_pages() const { return wmark_pages(WMARK_MIN); }
    unsigned long low_wmark_pages() const { return wmark_pages(WMARK_LOW); }
    unsigned long high_wmark_pages() const { return wmark_pages(WMARK_HIGH); }
};

} // namespace pcplab::mm
