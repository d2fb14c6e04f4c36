// min_free_kbytes and the per-zone min/low/high(/promo) watermarks (mm/page_alloc.c), with the sysctls that
// recompute them. On v5.14+ every watermark change also recomputes the pcp limits (high follows low).
#include "watermarks.hpp"

#include "pcp_limits.hpp"
#include "sysctl_bounds.hpp"
#include "vmstat.hpp"

#include <algorithm>
#include <climits>

namespace pcplab::mm
{

namespace
{

// is_highmem(): a 32-bit machine's HighMem; never on x86-64, where from v6.x ZONE_MOVABLE is treated like
// highmem here ("mm: cap zone movable's min wmark to small value" / "fix min_free_kbytes calculation regarding
// ZONE_MOVABLE").
bool highmem_like(const kernel_era& era, const zone& z)
{
    return z.highmem || (era.movable_is_highmem_like() && z.idx == ZONE_MOVABLE);
}

// What the watermark formulas read of a zone: managed pages, present pages before v3.8.
unsigned long sized_pages(const kernel_era& era, const zone& z)
{
    return era.formulas_read_present() ? z.present_pages : z.managed();
}

} // namespace

// nr_free_buffer_pages -> nr_free_zone_pages(gfp_zone(GFP_USER)) (v5.4 / v6.x): the pages above the high
// watermark in every zone up to ZONE_NORMAL of the local node's zonelist, which lists every node.
unsigned long nr_free_buffer_pages(const machine& m)
{
    unsigned long sum = 0;
    for (const auto& n : m.nodes)
        for (unsigned t = ZONE_DMA; t <= ZONE_NORMAL; ++t) {
            const zone& z = n->z(static_cast<zone_type>(t));
            unsigned long size = z.managed(), high = z.high_wmark_pages();
            if (size > high) sum += size - high;
        }
    return sum;
}

unsigned long mult_frac(unsigned long x, unsigned long n, unsigned long d)
{
    unsigned long q = x / d, r = x % d;
    return q * n + r * n / d;
}

// int_sqrt (lib/math/int_sqrt.c): floor of the square root, bit by bit.
unsigned long int_sqrt(unsigned long x)
{
    if (x <= 1) return x;
    unsigned long bit = 1UL << (sizeof(unsigned long) * CHAR_BIT - 2);
    while (bit > x) bit >>= 2;
    unsigned long y = 0;
    while (bit) {
        unsigned long b = y + bit;
        y >>= 1;
        if (x >= b) {
            x -= b;
            y += bit;
        }
        bit >>= 2;
    }
    return y;
}

// calculate_min_free_kbytes (v6.19; the first half of init_per_zone_wmark_min before): 4 * sqrt(lowmem_kb),
// because network buffers do not grow linearly with memory, clamped to [128, 64 MiB] (256 MiB from v5.7).
unsigned long calculate_min_free_kbytes(const kernel_era& era, unsigned long lowmem_kbytes)
{
    unsigned long v = int_sqrt(lowmem_kbytes * 16);
    return std::clamp(v, 128UL, era.min_free_kbytes_upper());
}

// setup_per_zone_wmarks / __setup_per_zone_wmarks (v2.6.13 .. v6.19). Every zone, populated or not, gets a
// share of min_free_kbytes in proportion to its size among the lowmem zones; highmem-like zones get a small
// fixed minimum instead (allocations that may dip below min rarely need them). The min->low->high gaps are
// a quarter of that share or watermark_scale_factor/10000 of the zone, whichever is larger (v4.6+); before
// v4.6 low and high sat a quarter and a half of the share above min. Sizes are present pages before v3.8.
// zone->lock is not taken: this runs at boot or from a sysctl on the engine's thread.
void setup_per_zone_wmarks(machine& m)
{
    const kernel_era& era = m.era;
    unsigned long pages_min = m.min_free_kbytes >> (m.page_shift - 10);
    unsigned long lowmem_pages = 0;
    m.for_each_zone([&](zone& z) {
        if (!highmem_like(era, z)) lowmem_pages += sized_pages(era, z);
    });

    unsigned long factor = static_cast<unsigned long>(std::max(m.sysctl.watermark_scale_factor, 0));
    m.for_each_zone([&](zone& z) {
        unsigned long managed = sized_pages(era, z);
        // 64-bit product as the kernel's u64 do_div; no lowmem at all (nothing freed yet) means no share.
        unsigned long tmp = lowmem_pages ? pages_min * managed / lowmem_pages : 0;
        if (highmem_like(era, z))
            z._watermark[WMARK_MIN] = std::clamp(managed / 1024, static_cast<unsigned long>(SWAP_CLUSTER_MAX), 128UL);
        else
            z._watermark[WMARK_MIN] = tmp;

        z.watermark_boost = 0;
        if (highmem_like(era, z) && era.highmem_gaps_from_min()) tmp = z._watermark[WMARK_MIN];
        if (!era.has_watermark_scale_factor()) {
            // Before v4.6: low and high a quarter and a half of the zone's share above min.
            z._watermark[WMARK_LOW] = z._watermark[WMARK_MIN] + (tmp >> 2);
            z._watermark[WMARK_HIGH] = z._watermark[WMARK_MIN] + (tmp >> 1);
            z._watermark[WMARK_PROMO] = 0;
            return;
        }
        tmp = std::max(tmp >> 2, mult_frac(managed, factor, 10000));
        z._watermark[WMARK_LOW] = z._watermark[WMARK_MIN] + tmp;
        // v5.4 writes HIGH = MIN + 2 * tmp; v5.18 chains HIGH = LOW + tmp and adds PROMO: the same values.
        z._watermark[WMARK_HIGH] = z._watermark[WMARK_LOW] + tmp;
        z._watermark[WMARK_PROMO] = era.has_wmark_promo() ? z._watermark[WMARK_HIGH] + tmp : 0;
    });

    // v5.14 ("disassociate the pcp->high from pcp->batch"): high derives from the low watermark, so every
    // zone's pcp limits follow a watermark change.
    if (era.high_rule() == pcp_high_rule::low_watermark)
        m.for_each_zone([&](zone& z) { zone_pcp_update(m, z, 0, limits_cause::watermarks); });
}

// init_per_zone_wmark_min (v4.17 .. v6.19, an initcall after deferred init and on memory hotplug).
// min_free_kbytes is the default formula unless the user set a larger value; a preset's vm.min_free_kbytes
// is applied as the sysctl write at the end of boot would apply it (it becomes the user value).
void init_per_zone_wmark_min(machine& m)
{
    unsigned long lowmem_kbytes = nr_free_buffer_pages(m) * ((1UL << m.page_shift) >> 10);
    long new_min = static_cast<long>(int_sqrt(lowmem_kbytes * 16));
    if (new_min > m.user_min_free_kbytes) m.min_free_kbytes = calculate_min_free_kbytes(m.era, lowmem_kbytes);
    // else: the kernel keeps the user's value ("min_free_kbytes is not updated to ...")

    if (m.sysctl.min_free_kbytes && m.user_min_free_kbytes < 0 && *m.sysctl.min_free_kbytes >= 0) {
        m.min_free_kbytes = static_cast<unsigned long>(*m.sysctl.min_free_kbytes);
        m.user_min_free_kbytes = *m.sysctl.min_free_kbytes;
    }

    setup_per_zone_wmarks(m);
    refresh_zone_stat_thresholds(m);
    setup_per_zone_lowmem_reserve(m);
}

// min_free_kbytes_sysctl_handler (v4.17 .. v6.19): 0 .. INT_MAX; the value becomes the user's, then only the
// watermarks are recomputed (and, v5.14+, the pcp limits with them).
status set_min_free_kbytes(machine& m, long kbytes)
{
    if (auto why = vm_sysctl_problem(vm_sysctl::min_free_kbytes, kbytes, m.era); !why) return why;
    m.min_free_kbytes = static_cast<unsigned long>(kbytes);
    m.user_min_free_kbytes = kbytes;
    m.sysctl.min_free_kbytes = kbytes;
    setup_per_zone_wmarks(m);
    return {};
}

// watermark_scale_factor_sysctl_handler (v4.6 .. v6.19): 1 .. 1000 (3000 in v6.x), then setup_per_zone_wmarks.
status set_watermark_scale_factor(machine& m, int factor)
{
    if (auto why = vm_sysctl_problem(vm_sysctl::watermark_scale_factor, factor, m.era); !why) return why;
    m.sysctl.watermark_scale_factor = factor;
    setup_per_zone_wmarks(m);
    return {};
}

} // namespace pcplab::mm
