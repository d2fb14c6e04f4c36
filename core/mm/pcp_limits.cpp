// pcp->batch and pcp->high as pure functions of a zone's size, watermark and CPUs, one rule per kernel era.
// The code that writes them into a machine's pagesets is in zone_pcp_update.cpp.
#include "pcp_limits.hpp"

#include <algorithm>

namespace pcplab::mm
{

namespace
{

// rounddown_pow_of_two (include/linux/log2.h) for b >= 1.
unsigned long rounddown_pow_of_two(unsigned long b)
{
    unsigned long p = 1;
    while (p <= b / 2) p <<= 1;
    return p;
}

// pageset_set_high_and_batch's two branches (v5.4; the same rule since v2.6, folded into one function in v5.11).
pcp_limits six_times_batch_limits(const kernel_era& era, unsigned long managed, int fraction)
{
    pcp_limits l;
    if (fraction) {
        // vm.percpu_pagelist_fraction: high is a fraction of the zone, batch a quarter of that, but no more
        // than PAGE_SHIFT * 8 (96) so one refill cannot hold zone->lock for long.
        unsigned long high = managed / static_cast<unsigned long>(fraction);
        unsigned long quarter = high / 4;
        l.high = static_cast<int>(high);
        l.batch = quarter > PAGE_SHIFT * 8 ? static_cast<int>(PAGE_SHIFT * 8) : std::max(1, static_cast<int>(quarter));
    } else {
        // pageset_set_batch: high from the raw batch (0 for a tiny zone, so DMA gets high 0), batch at least 1.
        int b = zone_batchsize(era, managed);
        l.high = 6 * b;
        l.batch = std::max(1, b);
    }
    // No separate high_min/high_max before v6.7: report the one value for both.
    l.high_min = l.high_max = l.high;
    return l;
}

} // namespace

// zone_batchsize (mm/page_alloc.c, v4.17 .. v6.19): about 0.1% of the zone, capped at batch_cap_bytes
// (512 KiB before v4.19, 1 MiB after), quartered, then clamped to 2^n - 1 because power-of-two batches
// alias badly in the cache. Can return 0 (a b of 1 maps to 2^0 - 1) until v6.19 returns 1 instead.
int zone_batchsize(const kernel_era& era, unsigned long managed_pages)
{
    unsigned long b = std::min(managed_pages >> 10, era.batch_cap_bytes() / PAGE_SIZE);
    b /= 4; // "we effectively *= 4 below": nothing does any more, but the quartering stayed
    if (era.version.at_least(6, 19)) {
        // v6.19 "mm/page_alloc: Prevent reporting pcp->batch = 0"
        if (b <= 1) return 1;
    } else if (b < 1) {
        b = 1;
    }
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
        return six_times_batch_limits(era, in.managed_pages, sysctl.percpu_pagelist_fraction);

    pcp_limits l;
    // v5.14 disassociated high from batch: the batch depends only on the zone size now.
    l.batch = std::max(1, zone_batchsize(era, in.managed_pages));
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

} // namespace pcplab::mm
