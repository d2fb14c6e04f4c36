// zone_watermark_ok: may an allocation of this order take pages from the zone without going below `mark`?
#include "watermark_check.hpp"

namespace pcplab::mm
{

// __zone_watermark_ok (v5.4 / v6.x) with free pages from NR_FREE_PAGES (zone_watermark_ok).
// - The block being allocated must not be counted as available: free -= (1 << order) - 1.
// - ALLOC_HARDER is modelled as v5.4's ALLOC_HARDER without ALLOC_HIGH: min -= min / 4, and the
//   HIGHATOMIC lists count as usable. (v6.3 split it into ALLOC_NON_BLOCK / ALLOC_MIN_RESERVE /
//   ALLOC_HIGHATOMIC; the model keeps one flag with the v5.4 meaning in every era.)
// - The highatomic reserve (nr_reserved_highatomic) and free CMA pages, which the kernel subtracts for
//   callers without the right to them, are both zero here: neither is modelled.
// - The order-0 test uses the lowmem reserve the zone keeps against allocations that could have been
//   satisfied from a higher zone (highest_zoneidx).
// - For order > 0 a free block of at least that order must exist on a list the caller may use: the three
//   PCP types, plus HIGHATOMIC with ALLOC_HARDER.
bool zone_watermark_ok(const zone& z, unsigned order, unsigned long mark, int highest_zoneidx, unsigned alloc_flags)
{
    const bool alloc_harder = (alloc_flags & ALLOC_HARDER) != 0;
    long min = static_cast<long>(mark);
    // free may go negative, which is fine: it only has to stay comparable
    long free_pages = z.nr_free_pages - ((1L << order) - 1);

    if (alloc_harder) min -= min / 4;

    if (free_pages <= min + z.lowmem_reserve[static_cast<unsigned>(highest_zoneidx)]) return false;
    if (order == 0) return true;

    for (unsigned o = order; o < NR_PAGE_ORDERS; ++o) {
        const free_area& area = z.free_area_[o];
        if (area.nr_free == 0) continue;
        for (unsigned mt = 0; mt < MIGRATE_PCPTYPES; ++mt)
            if (!area.free_list[mt].empty()) return true;
        if (alloc_harder && !area.free_list[MIGRATE_HIGHATOMIC].empty()) return true;
    }
    return false;
}

} // namespace pcplab::mm
