// Working __setup_per_zone_wmarks backwards. Every lowmem zone's min is floor(pages_min x pages / lowmem): the
// pages_min values that give each zone's min form an interval, and their intersection is what
// vm.min_free_kbytes was (in pages). The gaps above min then give vm.watermark_scale_factor the same way.
#include "zoneinfo_watermarks.hpp"

#include "mm/watermarks.hpp"
#include "procfs/zoneinfo_check.hpp"

#include <algorithm>

namespace pcplab::procfs
{

namespace
{

using u128 = unsigned __int128;

// is_highmem(): HighMem, and Movable where it is made of highmem (a 32-bit machine) or, from v6.0, always.
bool is_highmem_zone(const zoneinfo_zone& z, const mm::kernel_era& era, bool has_highmem)
{
    return z.name == "HighMem" || ((has_highmem || era.movable_is_highmem_like()) && z.name == "Movable");
}

// The largest factor in [1, 3000] whose pages x factor / 10000 is at most `limit` (0 when even 1 is more).
int factor_at_most(unsigned long pages, unsigned long limit)
{
    int lo = 0, hi = 3000;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (mm::mult_frac(pages, static_cast<unsigned long>(mid), 10000) <= limit)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

} // namespace

std::string watermark_fit::min_free_kbytes_text() const
{
    std::string s = std::to_string(min_free_kbytes)
        + (min_free_kbytes_hi > min_free_kbytes ? ".." + std::to_string(min_free_kbytes_hi) : std::string()) + " KiB";
    if (!min_fits)
        return s
            + " (it gives most zones' min; no one value gives them all: the zones changed size after it was "
              "applied)";
    auto in = [&](long v) { return v >= min_free_kbytes && v <= min_free_kbytes_hi; };
    if (in(default_min_free_kbytes))
        return s + ", the kernel's default " + std::to_string(default_min_free_kbytes)
            + " (4 x the square root of the lowmem KiB)";
    if (in(recomputed_min_free_kbytes))
        return s + ", the kernel's default " + std::to_string(recomputed_min_free_kbytes)
            + " as recomputed after boot from the pages above each zone's high watermark (memory hotplug)";
    return s + " (the default would be " + std::to_string(default_min_free_kbytes)
        + " KiB: set with vm.min_free_kbytes, or raised by khugepaged for transparent huge pages)";
}

watermark_fit fit_watermarks(const zoneinfo_doc& doc, const mm::kernel_era& era, unsigned page_shift)
{
    watermark_fit f;
    f.scale_factor_form = era.has_watermark_scale_factor();
    const unsigned long page_kb = (1UL << page_shift) >> 10;
    unsigned long boot_kb = 0, recompute_kb = 0;
    const bool has_highmem
        = std::any_of(doc.zones.begin(), doc.zones.end(), [](const zoneinfo_zone& z) { return z.name == "HighMem"; });
    for (const auto& z : doc.zones) {
        watermark_zone w;
        w.node = z.node;
        w.zone = z.name;
        w.highmem = is_highmem_zone(z, era, has_highmem);
        w.pages = static_cast<unsigned long>(era.formulas_read_present() ? z.present : z.managed);
        w.boost = z.boost.value_or(0);
        w.min = z.min - w.boost;
        w.low = z.low - w.boost;
        w.high = z.high - w.boost;
        if (!w.highmem) f.lowmem_pages += w.pages;
        // nr_free_buffer_pages: the zones up to ZONE_NORMAL (HighMem and Movable are above it).
        if (!w.highmem && z.name != "Movable" && z.name != "Device") {
            boot_kb += w.pages * page_kb;
            if (w.pages > static_cast<unsigned long>(std::max(0L, z.high)))
                recompute_kb += (w.pages - static_cast<unsigned long>(z.high)) * page_kb;
        }
        f.zones.push_back(w);
    }
    const unsigned long upper = era.min_free_kbytes_upper();
    f.default_min_free_kbytes = static_cast<long>(std::clamp(mm::int_sqrt(boot_kb * 16), 128UL, upper));
    f.recomputed_min_free_kbytes = static_cast<long>(std::clamp(mm::int_sqrt(recompute_kb * 16), 128UL, upper));

    // pages_min: floor(P x pages / L) == min gives each lowmem zone an interval of P. Where the zones changed
    // size after the watermarks were set (pages freed late, hot-added, given to huge pages) the intervals do
    // not all meet: take the P that most of them share (the largest zone's, on a tie).
    const unsigned long L = f.lowmem_pages;
    std::vector<std::pair<unsigned long, unsigned long>> spans; // [lo, hi] of P per zone, largest zone first
    std::vector<const watermark_zone*> order;
    for (const auto& w : f.zones)
        if (!w.highmem && w.pages != 0 && L != 0) order.push_back(&w);
    std::stable_sort(order.begin(), order.end(), [](const auto* a, const auto* b) { return a->pages > b->pages; });
    unsigned long sum_min = 0;
    for (const auto* w : order) {
        sum_min += static_cast<unsigned long>(std::max(0L, w->min));
        const u128 m = static_cast<u128>(std::max(0L, w->min));
        spans.push_back({static_cast<unsigned long>((m * L + w->pages - 1) / w->pages),
            static_cast<unsigned long>(((m + 1) * L - 1) / w->pages)});
    }
    std::size_t best = 0;
    unsigned long lo = sum_min, hi = sum_min;
    for (const auto& [cand, end] : spans) {
        (void)end;
        unsigned long clo = cand, chi = ~0UL;
        std::size_t n = 0;
        for (const auto& [a, b] : spans)
            if (a <= cand && cand <= b) {
                ++n;
                clo = std::max(clo, a);
                chi = std::min(chi, b);
            }
        if (n > best) {
            best = n;
            lo = clo;
            hi = chi;
        }
    }
    f.min_fits = !spans.empty() && best == spans.size();
    f.pages_min = lo;
    f.pages_min_hi = hi;
    f.min_free_kbytes = static_cast<long>(f.pages_min << (page_shift - 10));
    f.min_free_kbytes_hi = static_cast<long>(((f.pages_min_hi + 1) << (page_shift - 10)) - 1);

    // The gaps: find one factor giving every zone's low and high (v4.6+), or check the fixed form before.
    int wlo = 1, whi = era.version.at_least(6, 0) ? 3000 : 1000;
    for (auto& w : f.zones) {
        w.share = L ? static_cast<unsigned long>(static_cast<u128>(f.pages_min) * w.pages / L) : 0;
        w.want_min
            = w.highmem ? static_cast<long>(std::clamp(w.pages / 1024, 32UL, 128UL)) : static_cast<long>(w.share);
        if (w.highmem && era.highmem_gaps_from_min()) w.share = static_cast<unsigned long>(w.want_min);
        if (!f.scale_factor_form || w.pages == 0) continue;
        const long gap = w.low - w.min;
        const unsigned long quarter = w.share >> 2;
        if (gap == static_cast<long>(quarter)) {
            whi = std::min(whi, factor_at_most(w.pages, quarter));
        } else if (gap > static_cast<long>(quarter)) {
            // pages x wsf / 10000 == gap: the factors from the first that reaches gap to the last that does not pass it
            int first = factor_at_most(w.pages, static_cast<unsigned long>(gap) - 1) + 1;
            int last = factor_at_most(w.pages, static_cast<unsigned long>(gap));
            wlo = std::max(wlo, first);
            whi = std::min(whi, last);
        } else {
            whi = 0; // a gap below share/4: no factor gives it
        }
    }
    f.gaps_fit = !f.scale_factor_form || wlo <= whi;
    f.wsf_lo = wlo;
    f.wsf_hi = whi;
    f.wsf = f.gaps_fit && f.scale_factor_form ? std::clamp(10, wlo, whi) : 10;

    for (auto& w : f.zones) {
        unsigned long gap = w.share >> 2, gap2 = w.share >> 1;
        if (f.scale_factor_form) {
            gap = std::max(w.share >> 2, mm::mult_frac(w.pages, static_cast<unsigned long>(f.wsf), 10000));
            gap2 = 2 * gap;
        }
        w.want_low = w.want_min + static_cast<long>(gap);
        w.want_high = w.want_min + static_cast<long>(gap2);
        // Android's extra_free_kbytes raises low and high by the same amount: high - low is still the gap.
        if (w.high - w.low == static_cast<long>(gap2 - gap) && w.low > w.want_low) w.extra = w.low - w.want_low;
        ++f.zones_total;
        if (w.matches()) ++f.zones_matching;
    }
    // The vendor extra: every zone with pages raised, by about the same share of the zone (within 1%).
    if (f.zones_matching < f.zones_total) {
        double ratio = -1;
        bool same = true, some = false;
        for (const auto& w : f.zones) {
            if (w.pages == 0 || w.matches()) continue;
            if (w.extra <= 0 || w.want_min != w.min) {
                same = false;
                break;
            }
            double r = static_cast<double>(w.extra) / static_cast<double>(w.pages);
            if (ratio < 0) ratio = r;
            same = same && r > ratio * 0.99 && r < ratio * 1.01;
            some = true;
        }
        f.vendor_extra = same && some;
    }
    return f;
}

watermark_fit fit_watermarks_for(const zoneinfo_doc& doc, const check_report& rep, mm::kernel_version* formulas)
{
    const mm::kernel_version family = rep.family ? rep.family->formulas : rep.era;
    watermark_fit f = fit_watermarks(doc, mm::kernel_era{family}, rep.page_shift);
    if (formulas) *formulas = family;
    if (!rep.family || !mm::kernel_era{family}.has_watermark_scale_factor()) return f;
    // The versions left by the layout and the family: do they reach below v4.6?
    mm::kernel_version lo = rep.family->from;
    if (!rep.window.conflict && rep.window.from.compare(lo) > 0) lo = rep.window.from;
    if (lo.compare({4, 6, 0, 0}) >= 0) return f;
    const mm::kernel_version older{4, 5, 0, 0};
    watermark_fit g = fit_watermarks(doc, mm::kernel_era{older}, rep.page_shift);
    if (g.zones_matching <= f.zones_matching) return f;
    if (formulas) *formulas = older;
    return g;
}

} // namespace pcplab::procfs
