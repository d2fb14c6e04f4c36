// The derivations check-zoneinfo --explain prints. Each step is written with the capture's numbers in the
// order the kernel computes them (zone_batchsize, then the high rule of the family, then the watermarks),
// and ends with what the file shows.
#include "zoneinfo_explain.hpp"

#include "mm/bitops.hpp"
#include "mm/pcp_limits.hpp"
#include "mm/vmstat.hpp"
#include "mm/watermarks.hpp"
#include "procfs/zoneinfo_check.hpp"
#include "procfs/zoneinfo_watermarks.hpp"

#include <algorithm>
#include <map>

namespace pcplab::procfs
{

namespace
{

std::string num(unsigned long v)
{
    return std::to_string(v);
}

std::string kib(unsigned long bytes)
{
    return bytes >= (1UL << 20) ? num(bytes >> 20) + " MiB" : num(bytes >> 10) + " KiB";
}

// zone_batchsize, step by step. Returns the raw value (before max(1, ...)).
long explain_batch(
    std::vector<std::string>& out, const mm::kernel_era& era, unsigned long pages, unsigned shift, const char* what)
{
    const unsigned long cap = era.batch_cap_bytes() >> shift;
    unsigned long b = std::min(pages >> 10, cap);
    std::string s = "  batch: " + std::string(what) + " " + num(pages) + " / 1024 = " + num(pages >> 10) + "; at most "
        + kib(era.batch_cap_bytes()) + " / " + kib(1UL << shift) + " = " + num(cap) + " -> " + num(b)
        + "; / 4 = " + num(b / 4);
    b /= 4;
    long raw = 0;
    if (era.formula_version().at_least(6, 19) && b <= 1) {
        s += "; at most 1 -> 1 (v6.19)";
        raw = 1;
    } else {
        if (b < 1) {
            s += "; at least 1 -> 1";
            b = 1;
        }
        const unsigned long x = b + b / 2;
        if (era.batch_rounds_up()) {
            raw = static_cast<long>(2 * mm::rounddown_pow_of_two(x) - 1);
            s += "; 2^fls(" + num(b) + " + " + num(b / 2) + " = " + num(x)
                + ") - 1 = " + num(static_cast<unsigned long>(raw));
        } else {
            raw = static_cast<long>(mm::rounddown_pow_of_two(x) - 1);
            s += "; rounddown_pow_of_two(" + num(b) + " + " + num(b / 2) + " = " + num(x)
                + ") - 1 = " + num(static_cast<unsigned long>(raw));
        }
    }
    out.push_back(s);
    return raw;
}

std::string found_text(const zone_check& zc)
{
    std::string s = "  found: batch " + std::to_string(zc.found_batch) + ", high " + std::to_string(zc.found_high);
    if (zc.found_high_min) s += ", high_min " + std::to_string(*zc.found_high_min);
    if (zc.found_high_max) s += ", high_max " + std::to_string(*zc.found_high_max);
    if (zc.mixed_fields) s += " (first pageset; the others differ)";
    s += " -> " + std::to_string(zc.matched) + "/" + std::to_string(zc.pagesets) + " match";
    if (zc.explained) s += ", " + std::to_string(zc.explained) + " explained: " + zc.explained_reason;
    if (zc.mismatched) s += ", " + std::to_string(zc.mismatched) + " do not";
    return s;
}

void explain_zone(std::vector<std::string>& out, const zoneinfo_zone& z, const zone_check& zc, const check_report& rep,
    const mm::kernel_era& era, int online)
{
    const unsigned shift = rep.page_shift;
    const bool present = era.formulas_read_present();
    const unsigned long pages = static_cast<unsigned long>(present ? z.present : z.managed);
    out.push_back("Node " + std::to_string(z.node) + ", zone " + z.name + " (line " + std::to_string(z.line)
        + "): " + (present ? "present " : "managed ") + num(pages) + " pages");
    const long raw = explain_batch(out, era, pages, shift, present ? "present" : "managed");
    const long batch = std::max(1L, raw);
    switch (rep.family->high) {
    case high_form::hot_cold: {
        std::string hot = "  hot list: batch = max(1, " + std::to_string(raw) + ") = " + std::to_string(batch)
            + ", high = 6 x " + std::to_string(raw) + " = " + std::to_string(6 * raw);
        if (!era.hot_low_zero_cold_batch_halved())
            hot += ", low = 2 x " + std::to_string(raw) + " = " + std::to_string(2 * raw);
        out.push_back(hot);
        long cold_batch = std::max(1L, era.hot_low_zero_cold_batch_halved() ? raw / 2 : raw);
        out.push_back("  cold list: high = 2 x " + std::to_string(raw) + " = " + std::to_string(2 * raw) + ", batch = "
            + (era.hot_low_zero_cold_batch_halved() ? "max(1, " + std::to_string(raw) + " / 2)"
                                                    : "max(1, " + std::to_string(raw) + ")")
            + " = " + std::to_string(cold_batch));
        break;
    }
    case high_form::six_times_batch:
        out.push_back("  high = 6 x " + std::to_string(raw) + " = " + std::to_string(6 * raw) + "; batch = max(1, "
            + std::to_string(raw) + ") = " + std::to_string(batch));
        break;
    case high_form::low_watermark:
    case high_form::autotune: {
        const long split = zc.nr_split_cpus;
        const long q = z.low / std::max(1L, split);
        std::string hm = rep.family->high == high_form::autotune ? "high_min" : "high";
        out.push_back("  " + hm + " = max(low watermark " + std::to_string(z.low) + " / " + std::to_string(split)
            + " CPUs of node " + std::to_string(z.node) + " = " + std::to_string(q) + ", 4 x " + std::to_string(batch)
            + " = " + std::to_string(4 * batch) + ") = " + std::to_string(std::max(q, 4 * batch)));
        if (rep.family->high == high_form::autotune) {
            const long q8 = static_cast<long>(pages / 8) / std::max(1L, split);
            out.push_back("  high_max = max(managed " + num(pages) + " / 8 = " + num(pages / 8) + " / "
                + std::to_string(split) + " = " + std::to_string(q8) + ", 4 x " + std::to_string(batch) + ") = "
                + std::to_string(std::max(q8, 4 * batch)) + "; pcp->high floats between them (0 until first used)");
        }
        break;
    }
    }
    out.push_back(found_text(zc));
    // The vm stat threshold, from the same zone size in 128 MiB units.
    for (const auto& p : z.pagesets)
        if (p.stat_threshold && online > 0) {
            const unsigned long mem = pages >> (27 - shift);
            const int t = mm::calculate_normal_threshold(pages, online, shift);
            out.push_back("  vm stats threshold = min(125, 2 x fls(" + std::to_string(online) + " CPUs) = "
                + std::to_string(2 * mm::fls(static_cast<unsigned long>(online))) + " x (1 + fls(" + num(pages) + " >> "
                + std::to_string(27 - shift) + " = " + num(mem) + "))) = " + std::to_string(t) + " (found "
                + std::to_string(*p.stat_threshold) + (t == *p.stat_threshold ? ")" : "; lower while kswapd runs)"));
            break;
        }
}

void explain_watermarks(std::vector<std::string>& out, const zoneinfo_doc& doc, const check_report& rep)
{
    mm::kernel_version used;
    watermark_fit f = fit_watermarks_for(doc, rep, &used);
    const mm::kernel_era era{used};
    if (f.zones.empty() || f.lowmem_pages == 0) return;
    const char* pages_word = era.formulas_read_present() ? "present" : "managed";
    out.push_back(std::string("Watermarks (__setup_per_zone_wmarks, ")
        + (f.scale_factor_form ? "v4.6+ form" : "before v4.6") + "): lowmem = the " + pages_word
        + " pages of the zones that are not highmem = " + num(f.lowmem_pages));
    out.push_back("  vm.min_free_kbytes = " + f.min_free_kbytes_text() + ": pages_min = " + num(f.pages_min)
        + (f.min_fits && f.pages_min_hi > f.pages_min ? " (.." + num(f.pages_min_hi) + " give the same mins)" : ""));
    for (const auto& w : f.zones) {
        std::string s = "  Node " + std::to_string(w.node) + ", zone " + w.zone + ": ";
        if (w.highmem)
            s += "min = clamp(" + num(w.pages) + " / 1024, 32, 128) = " + std::to_string(w.want_min);
        else
            s += "min = " + num(f.pages_min) + " x " + num(w.pages) + " / " + num(f.lowmem_pages) + " = "
                + std::to_string(w.want_min);
        if (f.scale_factor_form) {
            const unsigned long scaled = mm::mult_frac(w.pages, static_cast<unsigned long>(f.wsf), 10000);
            const unsigned long gap = std::max(w.share >> 2, scaled);
            s += "; gap = max(" + num(w.share) + " / 4 = " + num(w.share >> 2) + ", " + num(w.pages) + " x "
                + std::to_string(f.wsf) + " / 10000 = " + num(scaled) + ") = " + num(gap);
        } else {
            s += "; low = min + " + num(w.share) + " / 4, high = min + " + num(w.share) + " / 2";
        }
        s += " -> " + std::to_string(w.want_min) + "/" + std::to_string(w.want_low) + "/" + std::to_string(w.want_high)
            + "; found " + std::to_string(w.min) + "/" + std::to_string(w.low) + "/" + std::to_string(w.high);
        if (w.boost) s += " (+ boost " + std::to_string(w.boost) + ")";
        s += w.matches() ? ": match"
                         : (w.extra > 0 ? ": low and high " + std::to_string(w.extra) + " higher" : ": differs");
        out.push_back(s);
    }
    if (f.scale_factor_form && f.gaps_fit)
        out.push_back("  vm.watermark_scale_factor = " + std::to_string(f.wsf)
            + (f.wsf_hi > f.wsf_lo
                    ? " (any of " + std::to_string(f.wsf_lo) + ".." + std::to_string(f.wsf_hi) + " gives the same gaps)"
                    : ""));
    if (f.vendor_extra)
        out.push_back("  explained: low and high sit above the formula by the same share of every zone: a vendor "
                      "kernel's vm.extra_free_kbytes (an Android addition, not in mainline Linux)");
    out.push_back("  " + std::to_string(f.zones_matching) + "/" + std::to_string(f.zones_total)
        + " zones' watermarks reproduced");
}

} // namespace

std::vector<std::string> explain_zoneinfo(
    const zoneinfo_doc& doc, const check_report& rep, const std::vector<int>& cpus_per_node)
{
    (void)cpus_per_node;
    std::vector<std::string> out;
    if (!rep.family) return out;
    const mm::kernel_era era = rep.family->era();
    const int online = doc.nr_cpus();
    std::size_t i = 0;
    for (const auto& z : doc.zones) {
        if (!z.populated()) continue;
        // zone_check entries are in the same order as the populated zones.
        while (i < rep.zones.size() && (rep.zones[i].node != z.node || rep.zones[i].zone != z.name)) ++i;
        if (i == rep.zones.size()) break;
        explain_zone(out, z, rep.zones[i], rep, era, online);
        ++i;
    }
    explain_watermarks(out, doc, rep);
    return out;
}

} // namespace pcplab::procfs
