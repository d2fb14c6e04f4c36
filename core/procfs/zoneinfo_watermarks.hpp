// The watermarks of a capture worked backwards: which vm.min_free_kbytes and vm.watermark_scale_factor give
// every zone's min, low and high (mm/page_alloc.c __setup_per_zone_wmarks), and what is left unexplained.
#pragma once

#include "mm/kernel_era.hpp"
#include "procfs/zoneinfo_parse.hpp"

#include <string>
#include <vector>

namespace pcplab::procfs
{

struct watermark_zone {
    int node = 0;
    std::string zone;
    bool highmem = false; // is_highmem(): HighMem, and from v6.0 Movable
    unsigned long pages = 0; // managed (present before v3.8)
    long boost = 0; // printed from v5.16; min/low/high include it
    long min = 0, low = 0, high = 0; // as printed, less the boost
    unsigned long share = 0; // pages_min * pages / lowmem_pages: the zone's share of min_free_kbytes
    long want_min = 0, want_low = 0, want_high = 0; // with the fitted sysctls
    long extra = 0; // low and high above the formula by this much (a vendor's extra_free_kbytes)
    bool matches() const { return want_min == min && want_low == low && want_high == high; }
};

struct watermark_fit {
    std::vector<watermark_zone> zones;
    unsigned long lowmem_pages = 0; // the pages of the zones that are not highmem
    bool min_fits = false; // one pages_min gives every lowmem zone's min
    unsigned long pages_min = 0; // the smallest that does (or the sum of the mins when none does)
    unsigned long pages_min_hi = 0;
    long min_free_kbytes = 0, min_free_kbytes_hi = 0; // the KiB values that give pages_min .. pages_min_hi
    long default_min_free_kbytes = 0; // int_sqrt(lowmem KiB x 16), clamped: the kernel's own choice at boot
    long recomputed_min_free_kbytes = 0; // the same from (managed - high) as a recompute after boot sees it
    bool scale_factor_form = true; // v4.6+: gaps max(share/4, pages x wsf/10000); before: share/4, share/2
    bool gaps_fit = false; // one watermark_scale_factor gives every zone's low and high
    int wsf = 10, wsf_lo = 1, wsf_hi = 1000; // the factor chosen (10, the default, when it fits) and its range
    bool vendor_extra = false; // low and high raised by the same share in every zone
    int zones_matching = 0, zones_total = 0;
    std::string min_free_kbytes_text() const; // "8160 KiB, the default for ..." or "..., set by hand or for THP"
};

watermark_fit fit_watermarks(const zoneinfo_doc& doc, const mm::kernel_era& era, unsigned page_shift);

struct check_report;
// The fit for what check_zoneinfo found: the formulas of its family, or of v4.5 where the versions it allows
// reach back past v4.6 (when the watermark gaps changed) and the older gaps give more zones. `formulas` says
// which version's formulas were used.
watermark_fit fit_watermarks_for(
    const zoneinfo_doc& doc, const check_report& rep, mm::kernel_version* formulas = nullptr);

} // namespace pcplab::procfs
