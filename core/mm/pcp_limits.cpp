// pcp->batch and pcp->high as pure functions of a zone's size, watermark and CPUs, one rule per kernel era.
// The code that writes them into a machine's pagesets is in zone_pcp_update.cpp.
#include "pcp_limits.hpp"

#include "bitops.hpp"

#include <algorithm>

namespace pcplab::mm
{

namespace
{

// pageset_set_high_and_batch's two branches (v5.4; the same rule since v2.6, folded into one function in v5.11;
// before v2.6.25 the hot list of setup_pageset).
pcp_limits six_times_batch_limits(const kernel_era& era, const zone_limit_inputs& in, int fraction)
{
    pcp_limits l;
    const unsigned long pages = in.sized_pages(era);
    if (fraction) {
        // vm.percpu_pagelist_fraction: high is a fraction of the zone, batch a quarter of that, but no more
        // than PAGE_SHIFT * 8 (96 with 4 KiB pages) so one refill cannot hold zone->lock for long.
        unsigned long high = pages / static_cast<unsigned long>(fraction);
        unsigned long quarter = high / 4;
        const unsigned long cap = in.page_shift * 8UL;
        l.high = static_cast<int>(high);
        l.batch = quarter > cap ? static_cast<int>(cap) : std::max(1, static_cast<int>(quarter));
    } else {
        // pageset_set_batch: high from the raw batch (0 for a tiny zone, so DMA gets high 0), batch at least 1.
        int b = zone_batchsize(era, pages, in.page_shift);
        l.high = 6 * b;
        l.batch = std::max(1, b);
        // v2.6.13 .. v2.6.14: the hot list refilled below low = 2 x batch (Rohit Seth set it to 0 in v2.6.15).
        if (era.hot_cold_lists() && !era.hot_low_zero_cold_batch_halved()) l.low = 2 * b;
    }
    // No separate high_min/high_max before v6.7: report the one value for both.
    l.high_min = l.high_max = l.high;
    return l;
}

} // namespace

// zone_batchsize (mm/page_alloc.c, v2.6.13 .. v6.19): about 0.1% of the zone, capped at batch_cap_bytes
// (256 KiB, then 512 KiB, 1 MiB from v4.19: bytes / PAGE_SIZE, so 1 MiB is 256 pages of 4 KiB, 64 of 16 KiB,
// 16 of 64 KiB), quartered, then clamped to 2^n - 1 because power-of-two batches
// alias badly in the cache (rounding up before v2.6.16, down after). Can return 0 (a b of 1 maps to 2^0 - 1)
// until v6.19 returns 1 instead.
int zone_batchsize(const kernel_era& era, unsigned long pages, unsigned page_shift)
{
    unsigned long b = std::min(pages >> 10, era.batch_cap_bytes() >> page_shift);
    b /= 4; // "we effectively *= 4 below": nothing does any more, but the quartering stayed
    if (era.formula_version().at_least(6, 19)) {
        // v6.19 "mm/page_alloc: Prevent reporting pcp->batch = 0"
        if (b <= 1) return 1;
    } else if (b < 1) {
        b = 1;
    }
    if (era.batch_rounds_up()) return static_cast<int>(2 * rounddown_pow_of_two(b + b / 2) - 1); // 1 << fls()
    return static_cast<int>(rounddown_pow_of_two(b + b / 2) - 1);
}

// zone_highsize (mm/page_alloc.c, v5.14 .. v6.6; v6.7+ with the fraction as an argument): the low
// watermark (fraction 0) or managed/fraction, shared by the CPUs that free into this zone, so that full
// PCP lists alone do not push the zone below its low watermark and wake kswapd; at least 4 * batch.
int zone_highsize(unsigned long managed_pages, unsigned long low_wmark, int batch, int nr_split_cpus, int high_fraction)
{
    unsigned long total = high_fraction ? managed_pages / static_cast<unsigned long>(high_fraction) : low_wmark;
    unsigned long nr = nr_split_cpus > 0 ? static_cast<unsigned long>(nr_split_cpus) : 1UL;
    int high = static_cast<int>(total / nr);
    return std::max(high, batch * 4);
}

// pageset_set_high_and_batch (v5.4) / zone_set_pageset_high_and_batch (v5.14 .. v6.6; v6.7+ with
// pcp-high-autotune) without the writes: the limits every pageset of one zone gets.
pcp_limits compute_pcp_limits(
    const kernel_era& era, bool autotune, const zone_limit_inputs& in, const sysctl_values& sysctl)
{
    if (era.high_rule() == pcp_high_rule::six_times_batch)
        return six_times_batch_limits(era, in, sysctl.percpu_pagelist_fraction);

    pcp_limits l;
    // v5.14 disassociated high from batch: the batch depends only on the zone size now.
    l.batch = std::max(1, zone_batchsize(era, in.managed_pages, in.page_shift));
    int fraction = sysctl.percpu_pagelist_high_fraction;
    auto highsize = [&](int f) { return zone_highsize(in.managed_pages, in.low_wmark, l.batch, in.nr_split_cpus, f); };
    if (!autotune) {
        l.high = highsize(fraction);
        l.high_min = l.high_max = l.high;
    } else if (fraction) {
        // v6.7: a manually tuned high disables auto-tuning (high_min == high_max).
        l.high_min = l.high_max = highsize(fraction);
        l.high = l.high_min;
    } else {
        // v6.7: pcp->high floats between the v5.14 value and an eighth of the zone per CPU.
        l.high_min = highsize(0);
        l.high_max = highsize(MIN_PERCPU_PAGELIST_HIGH_FRACTION);
        l.high = l.high_min;
    }
    return l;
}

// setup_pageset's cold list (mm/page_alloc.c, v2.6.13 .. v2.6.24): a third of the hot list's high, for pages
// freed cold (page cache reclaim); its batch b until Rohit Seth halved it in v2.6.15.
pcp_limits cold_pcp_limits(const kernel_era& era, const zone_limit_inputs& in)
{
    int b = zone_batchsize(era, in.sized_pages(era), in.page_shift);
    pcp_limits l;
    l.high = 2 * b;
    l.batch = std::max(1, era.hot_low_zero_cold_batch_halved() ? b / 2 : b);
    l.high_min = l.high_max = l.high;
    return l;
}

} // namespace pcplab::mm
