// What a modelled era does differently: one place that turns a kernel version into behaviour flags.
// Each flag names the change and the version that brought it (see shared/reference/kernel-facts.md).
#pragma once

#include "kernel_version.hpp"

namespace pcplab::mm
{

enum class pcp_high_rule {
    six_times_batch, // <= v5.13: high = 6 * batch (or percpu_pagelist_fraction)
    low_watermark, // v5.14 .. v6.6: zone_highsize() from the low watermark, split over the node's CPUs
};

struct kernel_era {
    kernel_version version;

    // zone_batchsize caps managed/1024 at 512 KiB before v4.19 ("mm: increase max batch size"), 1 MiB after.
    unsigned long batch_cap_bytes() const { return version.before(4, 19) ? (512UL << 10) : (1UL << 20); }
    pcp_high_rule high_rule() const
    {
        return version.before(5, 14) ? pcp_high_rule::six_times_batch : pcp_high_rule::low_watermark;
    }
    // v5.14 "allow high-order pages to be stored on the per-cpu lists"
    bool pcp_high_order_lists() const { return version.at_least(5, 14); }
    // Number of per_cpu_pages lists: 3 (<= v5.13), 15 (v5.14-5.19: 3 x (4 + 1 THP per mt)),
    // 13 (v6.0-v6.9: one THP list), 14 (v6.10+: NR_PCP_THP = 2).
    unsigned nr_pcp_lists() const
    {
        if (!pcp_high_order_lists()) return 3;
        if (version.before(6, 0)) return 15;
        return version.before(6, 10) ? 13 : 14;
    }
    // v6.0 "protect PCP lists with a spinlock" (pcp->lock, trylock in alloc/free)
    bool has_pcp_lock() const { return version.at_least(6, 0); }
    // v5.18 "Free pages in a single pass during bulk free" superseded Aaron Lu's two-pass pick (v4.17).
    bool bulk_free_single_pass_base() const { return version.at_least(5, 18); }
    // v5.18 "Limit number of high-order pages on PCP during bulk free" (free_high)
    bool has_free_high() const { return version.at_least(5, 18); }
    // v6.15 (between v6.14 and v6.19): free_high threshold batch + high_min / 2 instead of batch
    bool free_high_threshold_with_high_min() const { return version.at_least(6, 15); }
    // v6.10 "control latency caused by zone PCP draining": drain_pages_zone frees batch << S at a time
    bool drain_pages_zone_chunked() const { return version.at_least(6, 10); }
    // v5.7 "increase default min_free_kbytes bound": 64 MiB -> 256 MiB
    unsigned long min_free_kbytes_upper() const { return version.before(5, 7) ? 65536 : 262144; }
    // v5.18 memory tiering: HIGH = LOW + tmp and a PROMO watermark
    bool has_wmark_promo() const { return version.at_least(5, 18); }
    // v6.x: ZONE_MOVABLE is excluded from lowmem_pages and gets the highmem minimum (checked v6.1-rc7)
    bool movable_is_highmem_like() const { return version.at_least(6, 0); }
    // v5.10 "place pages to tail in __free_pages_core()": boot/deferred frees bypass the PCP
    bool boot_free_to_tail_bypassing_pcp() const { return version.at_least(5, 10); }
    // v4.17 deferred init: only the first section of a node's highest zone is initialised early
    bool deferred_init_first_section_only() const { return version.at_least(4, 17); }

    // /proc/zoneinfo layout (mm/vmstat.c zoneinfo_show_print)
    bool zoneinfo_has_boost() const { return version.at_least(5, 17); }
    bool zoneinfo_has_cma() const { return version.at_least(5, 14); }
    bool zoneinfo_has_promo() const { return version.at_least(6, 12); }
    bool zoneinfo_has_high_min_max() const { return version.at_least(6, 13); }
    bool zoneinfo_has_highatomic() const { return version.at_least(6, 19); }
    bool has_zone_device() const { return true; } // distro configs enable CONFIG_ZONE_DEVICE in every era modelled

    // CONFIG_PCP_BATCH_SCALE_MAX (v6.7+), default 5
    static constexpr unsigned PCP_BATCH_SCALE_MAX = 5;
};

} // namespace pcplab::mm
