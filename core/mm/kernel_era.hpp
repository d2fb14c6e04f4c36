// What a modelled era does differently: one place that turns a kernel version into behaviour flags.
// Each flag names the change and the version that brought it (see shared/reference/kernel-facts.md).
#pragma once

#include "kernel_version.hpp"

namespace pcplab::mm
{

// How much of a node's highest zone memmap_init initialises before the pgdatinit threads take the rest.
enum class early_init_rule {
    two_gib_per_node, // <= v4.16: reset_deferred_meminit's max(2 GiB, span / 256) + reservations, at most the span
    one_section, // v4.17+ (Pavel Tatashin, "mm: initialize pages on demand during boot"): one memory section
};

enum class pcp_high_rule {
    six_times_batch, // <= v5.13: high = 6 * batch (or percpu_pagelist_fraction)
    low_watermark, // v5.14 .. v6.6: zone_highsize() from the low watermark, split over the node's CPUs
};

struct kernel_era {
    kernel_version version;
    // The version whose pure formulas (zone_batchsize, the pageset limits, the watermark gaps, what they read)
    // the machine follows, when it differs from `version`: a kernel older than every modelled era runs as
    // v4.15 but sizes its pagesets and watermarks as it did itself. Unset ({}): `version`.
    kernel_version formulas{};
    const kernel_version& formula_version() const { return formulas.major ? formulas : version; }

    // zone_batchsize's cap on the pages it reads / 1024: 256 KiB up to v2.6.15, 512 KiB from v2.6.16 (a
    // v2.6.14 capture shows the first, v2.6.17's source the second), 1 MiB from v4.19 (Aaron Lu, "mm,
    // page_alloc: double zone's batchsize").
    unsigned long batch_cap_bytes() const
    {
        const kernel_version& f = formula_version();
        if (f.compare({2, 6, 16, 0}) < 0) return 256UL << 10;
        return f.before(4, 19) ? (512UL << 10) : (1UL << 20);
    }
    // Up to v2.6.15 the clamp to 2^n - 1 rounded up ((1 << fls(b + b/2)) - 1); from v2.6.16 down.
    bool batch_rounds_up() const { return formula_version().compare({2, 6, 16, 0}) < 0; }
    // Before v3.8 (Jiang Liu's managed_pages series, posted November 2012) zone_batchsize, the watermarks
    // and the vm stat threshold read present_pages; zoneinfo has no "managed" line then.
    bool formulas_read_present() const { return formula_version().before(3, 8); }
    // Before v2.6.25 every CPU had a hot and a cold list per zone (setup_pageset: hot high 6 x batch, cold
    // high 2 x batch), printed as "cpu: N pcp: 0|1".
    bool hot_cold_lists() const { return formula_version().compare({2, 6, 25, 0}) < 0; }
    // v2.6.15 (Rohit Seth, "mm: set per-cpu-pages lower threshold to zero"): cold batch b/2 (was b), hot low 0
    // (was 2 x b).
    bool hot_low_zero_cold_batch_halved() const { return formula_version().compare({2, 6, 15, 0}) >= 0; }
    // v4.6 (Johannes Weiner, "mm: scale kswapd watermarks in proportion to memory"): the min->low->high gap is
    // at least watermark_scale_factor/10000 of the zone; before it was min/4 and min/2 above min.
    bool has_watermark_scale_factor() const { return formula_version().at_least(4, 6); }
    // A highmem zone's low and high sat min/4 and min/2 above its small fixed min in the v2.6.14 capture; in
    // the v2.6.16 .. v2.6.24 family's capture (2007) they sit the zone's share/4 and /2 above, as later.
    // The change is dated by those captures only, and taken to come with the v2.6.16 batch change.
    bool highmem_gaps_from_min() const { return formula_version().compare({2, 6, 16, 0}) < 0; }
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
    // Deferred init's early part: 2 GiB or more per node up to v4.16 (read in v4.15's reset_deferred_meminit),
    // one section from v4.17 (c9e97a1997fb, which replaced reset_deferred_meminit and added deferred_grow_zone).
    early_init_rule early_init() const
    {
        return version.at_least(4, 17) ? early_init_rule::one_section : early_init_rule::two_gib_per_node;
    }

    // /proc/zoneinfo layout (mm/vmstat.c zoneinfo_show_print)
    bool zoneinfo_has_boost() const { return version.at_least(5, 17); }
    bool zoneinfo_has_cma() const { return version.at_least(5, 14); }
    bool zoneinfo_has_promo() const { return version.at_least(6, 12); }
    bool zoneinfo_has_high_min_max() const { return version.at_least(6, 13); }
    bool zoneinfo_has_highatomic() const { return version.at_least(6, 19); }
    bool has_zone_device() const { return true; } // distro configs enable CONFIG_ZONE_DEVICE in every era modelled

    // CONFIG_PCP_BATCH_SCALE_MAX's default (v6.7+; machine::sysctl.pcp_batch_scale_max holds the value in force)
    static constexpr unsigned PCP_BATCH_SCALE_MAX = 5;
};

} // namespace pcplab::mm
