#include "zoneinfo_check.hpp"

#include "mm/kernel_era.hpp"
#include "mm/mm_types.hpp"
#include "mm/pcp_limits.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace pcplab::procfs
{

namespace
{

using mm::kernel_version;

// The eras a file's layout allows, best guess first, and why (mm/vmstat.c zoneinfo_show_print history).
struct era_candidates {
    std::vector<kernel_version> versions;
    std::string why;
};

era_candidates detect_era(const zoneinfo_doc& doc)
{
    bool high_min = false, promo = false, boost = false, cma = false;
    for (const auto& z : doc.zones) {
        promo |= z.promo.has_value();
        boost |= z.boost.has_value();
        cma |= z.cma.has_value();
        for (const auto& p : z.pagesets) high_min |= p.high_min.has_value();
    }
    if (high_min) return {{{6, 13, 0, 0}}, "high_min/high_max lines in the pagesets (printed from v6.13)"};
    if (promo) return {{{6, 12, 0, 0}}, "a 'promo' line (v6.12+) but no high_min/high_max (v6.13+)"};
    if (boost)
        return {{{5, 17, 0, 0}, {6, 7, 0, 0}},
            "a 'boost' line (v5.17+) but no 'promo' (v6.12+): v5.17 .. v6.6 (high from the low watermark) "
            "or v6.7 .. v6.11 (high auto-tuned)"};
    if (cma) return {{{5, 14, 0, 0}}, "a 'cma' line (v5.14+) but no 'boost' (v5.17+)"};
    return {{{5, 4, 0, 0}, {4, 17, 0, 0}},
        "no boost/cma/promo/high_min lines: a v5.4-era kernel (high = 6 * batch; v4.17/v4.18 if the batch is "
        "capped at 512 KiB)"};
}

enum class field { batch, high, high_min, high_max };

long get(const mm::pcp_limits& l, field f)
{
    switch (f) {
    case field::batch:
        return l.batch;
    case field::high:
        return l.high;
    case field::high_min:
        return l.high_min;
    case field::high_max:
        return l.high_max;
    }
    return 0;
}

const char* field_name(field f)
{
    switch (f) {
    case field::batch:
        return "batch";
    case field::high:
        return "high";
    case field::high_min:
        return "high_min";
    case field::high_max:
        return "high_max";
    }
    return "?";
}

std::optional<long> found_value(const zoneinfo_pageset& p, field f)
{
    switch (f) {
    case field::batch:
        return p.batch;
    case field::high:
        return p.high;
    case field::high_min:
        return p.high_min;
    case field::high_max:
        return p.high_max;
    }
    return std::nullopt;
}

std::vector<field> fields_of(compared_fields c)
{
    switch (c) {
    case compared_fields::batch_high:
        return {field::batch, field::high};
    case compared_fields::batch_high_min_max:
        return {field::batch, field::high_min, field::high_max};
    case compared_fields::batch_high_in_range:
        return {field::batch};
    }
    return {};
}

// One zone's formula inputs, as the kernel sees them at its last recompute.
struct zone_inputs {
    mm::kernel_era era;
    bool autotune = false;
    unsigned long managed = 0;
    unsigned long low = 0;
    int nr_split_cpus = 1;
    mm::sysctl_values sysctl;

    mm::pcp_limits limits(unsigned long managed_pages, unsigned long low_wmark) const
    {
        return mm::compute_pcp_limits(era, autotune, {managed_pages, low_wmark, nr_split_cpus}, sysctl);
    }
};

struct managed_interval {
    unsigned long lo = 0, hi = 0;
};

// The managed counts in [1, upper] for which every field in `fs` equals the pageset's value. Each limit
// is a non-decreasing function of managed, so each field's solutions form an interval: binary search both
// ends and intersect.
std::optional<managed_interval> managed_reproducing(const zone_inputs& in, unsigned long low, const zoneinfo_pageset& p,
    const std::vector<field>& fs, unsigned long upper)
{
    managed_interval acc{1, upper};
    if (upper < 1) return std::nullopt;
    for (field f : fs) {
        auto target = found_value(p, f);
        if (!target) return std::nullopt;
        auto value = [&](unsigned long m) { return get(in.limits(m, low), f); };
        auto first_at_least = [&](long t) {
            unsigned long a = 1, b = upper + 1; // answer in [a, b]; b means "none"
            while (a < b) {
                unsigned long mid = a + (b - a) / 2;
                if (value(mid) >= t)
                    b = mid;
                else
                    a = mid + 1;
            }
            return a;
        };
        unsigned long lo = first_at_least(*target);
        if (lo > upper || value(lo) != *target) return std::nullopt;
        unsigned long hi = first_at_least(*target + 1) - 1;
        acc.lo = std::max(acc.lo, lo);
        acc.hi = std::min(acc.hi, hi);
        if (acc.lo > acc.hi) return std::nullopt;
    }
    return acc;
}

std::string interval_text(const managed_interval& r, bool prefer_section)
{
    if (prefer_section) {
        // Deferred init leaves whole sections initialised early: name the section-aligned size if one fits.
        unsigned long s = (r.lo + mm::PAGES_PER_SECTION - 1) / mm::PAGES_PER_SECTION * mm::PAGES_PER_SECTION;
        if (s <= r.hi) return std::to_string(s);
    }
    if (r.lo == r.hi) return std::to_string(r.lo);
    return std::to_string(r.lo) + ".." + std::to_string(r.hi);
}

struct verdict {
    pageset_verdict v = pageset_verdict::match;
    std::string reason; // stale: why; mismatch: which fields differ
};

verdict judge(const zone_inputs& in, const mm::pcp_limits& want, const zoneinfo_pageset& p, compared_fields mode,
    bool highest_zone)
{
    std::vector<field> fs = fields_of(mode);
    std::vector<field> wrong;
    for (field f : fs)
        if (found_value(p, f) != get(want, f)) wrong.push_back(f);
    bool high_ok = mode != compared_fields::batch_high_in_range || p.high == 0
        || (p.high >= want.high_min && p.high <= want.high_max);
    if (wrong.empty() && high_ok) return {};

    // (b) v6.7+: batch and high_min are current, high_max is from before late-freed memory joined managed.
    // Checked first: with the batch right, these limits were computed after deferred init, not before it.
    if (mode == compared_fields::batch_high_min_max && wrong.size() == 1 && wrong[0] == field::high_max
        && in.managed > 1)
        if (auto r = managed_reproducing(in, in.low, p, {field::high_max}, in.managed - 1))
            return {pageset_verdict::stale,
                "high_max computed before memory freed late in boot was added to "
                "managed (high_max matches managed "
                    + interval_text(*r, false) + ")"};

    // (a) seed 000: setup_per_cpu_pageset sized the node's deferred zone from the pages initialised early
    // and nothing recomputed it after deferred init. v5.14+ computed those early limits before the
    // watermarks existed, so also try a low watermark of 0.
    if (highest_zone && !wrong.empty() && in.managed > 1) {
        std::vector<unsigned long> lows = {in.low};
        if (in.era.version.at_least(5, 14) && in.low != 0) lows.push_back(0);
        for (unsigned long low : lows)
            if (auto r = managed_reproducing(in, low, p, fs, in.managed - 1))
                return {pageset_verdict::stale,
                    "computed before deferred init completed \u2014 seed 000 (limits "
                    "match managed "
                        + interval_text(*r, true) + ")"};
    }

    std::string why;
    for (field f : wrong)
        why += std::string(why.empty() ? "" : ", ") + field_name(f) + " " + std::to_string(*found_value(p, f))
            + " (expected " + std::to_string(get(want, f)) + ")";
    if (!high_ok)
        why += std::string(why.empty() ? "" : ", ") + "high " + std::to_string(p.high) + " (expected 0 or "
            + std::to_string(want.high_min) + ".." + std::to_string(want.high_max) + ")";
    return {pageset_verdict::mismatch, why};
}

// Whether two versions compute batch and high the same way (batch cap, high rule, auto-tuning).
bool same_formulas(const kernel_version& a, const kernel_version& b)
{
    mm::kernel_era ea{a}, eb{b};
    return ea.batch_cap_bytes() == eb.batch_cap_bytes() && ea.high_rule() == eb.high_rule()
        && a.at_least(6, 7) == b.at_least(6, 7);
}

// CPUs per node: given, or inferred (and said so).
std::map<int, int> cpus_per_node(
    const zoneinfo_doc& doc, const check_options& opt, std::vector<std::string>& assumptions)
{
    std::set<int> nodes;
    for (const auto& z : doc.zones) nodes.insert(z.node);
    int total = doc.nr_cpus();
    std::map<int, int> cpus;
    if (!opt.cpus_per_node.empty()) {
        for (int nid : nodes) {
            if (nid < static_cast<int>(opt.cpus_per_node.size()))
                cpus[nid] = opt.cpus_per_node[static_cast<std::size_t>(nid)];
            else {
                cpus[nid] = 0;
                assumptions.push_back("no CPU count given for node " + std::to_string(nid)
                    + ": treated as CPU-less (limits split over all " + std::to_string(total) + " online CPUs)");
            }
        }
        return cpus;
    }
    if (nodes.size() == 1) {
        cpus[*nodes.begin()] = total;
        assumptions.push_back(
            "one node: all " + std::to_string(total) + " CPUs are on node " + std::to_string(*nodes.begin()));
        return cpus;
    }
    int n = static_cast<int>(nodes.size()), each = total / n, extra = total % n, i = 0;
    for (int nid : nodes) cpus[nid] = each + (i++ < extra ? 1 : 0);
    assumptions.push_back(std::to_string(n) + " nodes, CPUs per node not given: the " + std::to_string(total)
        + " CPUs were divided evenly (" + std::to_string(each) + " per node"
        + (extra ? ", one more on the first " + std::to_string(extra) : std::string())
        + "); give the real counts if the nodes differ");
    return cpus;
}

check_report check_as(const zoneinfo_doc& doc, const check_options& opt, const kernel_version& version)
{
    check_report rep;
    rep.era = version;
    mm::kernel_era era{version};
    bool autotune = version.at_least(6, 7); // pcp-high-autotune is part of every v6.7+ kernel
    std::map<int, int> cpus = cpus_per_node(doc, opt, rep.assumptions);
    int online = doc.nr_cpus();
    if (era.high_rule() == mm::pcp_high_rule::six_times_batch)
        rep.assumptions.push_back(
            "vm.percpu_pagelist_fraction = " + std::to_string(opt.sysctl.percpu_pagelist_fraction));
    else
        rep.assumptions.push_back(
            "vm.percpu_pagelist_high_fraction = " + std::to_string(opt.sysctl.percpu_pagelist_high_fraction));

    // The highest populated zone of each node is the one deferred init fills (seed 000).
    std::map<int, const zoneinfo_zone*> highest;
    for (const auto& z : doc.zones)
        if (z.populated()) highest[z.node] = &z;

    for (const auto& z : doc.zones) {
        if (!z.populated() || z.pagesets.empty()) continue;
        zone_inputs in{era, autotune, static_cast<unsigned long>(std::max(0L, z.managed)),
            static_cast<unsigned long>(std::max(0L, z.low)), cpus[z.node], opt.sysctl};
        if (in.nr_split_cpus <= 0)
            in.nr_split_cpus = online; // zone_highsize: a CPU-less node splits over all online CPUs
        mm::pcp_limits want = in.limits(in.managed, in.low);

        zone_check zc;
        zc.node = z.node;
        zc.zone = z.name;
        zc.managed = z.managed;
        zc.low_wmark = z.low;
        zc.nr_split_cpus = in.nr_split_cpus;
        zc.expected_batch = want.batch;
        zc.expected_high = want.high;
        zc.expected_high_min = want.high_min;
        zc.expected_high_max = want.high_max;
        const zoneinfo_pageset& first = z.pagesets.front();
        zc.found_batch = first.batch;
        zc.found_high = first.high;
        zc.found_high_min = first.high_min;
        zc.found_high_max = first.high_max;
        zc.compared = !autotune          ? compared_fields::batch_high
            : first.high_min.has_value() ? compared_fields::batch_high_min_max
                                         : compared_fields::batch_high_in_range;
        int shown = 0;
        for (const auto& p : z.pagesets) {
            zc.mixed_fields |= (p.batch != first.batch ? 1U : 0U) | (p.high != first.high ? 2U : 0U)
                | (p.high_min != first.high_min ? 4U : 0U) | (p.high_max != first.high_max ? 8U : 0U);
            zc.found_uniform = zc.mixed_fields == 0;
            verdict v = judge(in, want, p, zc.compared, highest[z.node] == &z);
            ++zc.pagesets;
            if (v.v == pageset_verdict::match)
                ++zc.matched;
            else if (v.v == pageset_verdict::stale) {
                ++zc.stale;
                if (zc.stale_reason.empty())
                    zc.stale_reason = v.reason;
                else if (v.reason != zc.stale_reason) // rare: the summary counts it under the zone's first reason
                    zc.notes.push_back(
                        "cpu " + std::to_string(p.cpu) + " (line " + std::to_string(p.line) + "): stale: " + v.reason);
            } else {
                ++zc.mismatched;
                if (shown++ < 8)
                    zc.notes.push_back(
                        "cpu " + std::to_string(p.cpu) + " (line " + std::to_string(p.line) + "): " + v.reason);
            }
        }
        if (shown > 8) zc.notes.push_back("... and " + std::to_string(shown - 8) + " more mismatching pagesets");
        rep.total += zc.pagesets;
        rep.matched += zc.matched;
        rep.stale += zc.stale;
        rep.mismatched += zc.mismatched;
        rep.zones.push_back(std::move(zc));
    }
    return rep;
}

} // namespace

check_report check_zoneinfo(const zoneinfo_doc& doc, const check_options& opt)
{
    era_candidates c = detect_era(doc);
    if (opt.era) {
        check_report rep = check_as(doc, opt, *opt.era);
        rep.era_note = "given: " + opt.era->str();
        // Say so when the layout points at eras whose formulas differ from the given one's.
        bool fits = std::any_of(
            c.versions.begin(), c.versions.end(), [&](const kernel_version& v) { return same_formulas(v, *opt.era); });
        if (!fits) rep.era_note += " (the layout suggests otherwise: " + c.why + ")";
        return rep;
    }
    std::optional<check_report> best;
    std::string tried;
    for (const auto& v : c.versions) {
        check_report rep = check_as(doc, opt, v);
        if (c.versions.size() > 1)
            tried += std::string(tried.empty() ? "" : ", ") + v.str() + " rules explain "
                + std::to_string(rep.matched + rep.stale) + "/" + std::to_string(rep.total);
        // Keep the first era that explains the most pagesets (a stale pageset is explained, not a mismatch).
        if (!best || rep.matched + rep.stale > best->matched + best->stale) best = std::move(rep);
    }
    best->era_note = "detected from the layout: " + c.why;
    if (!tried.empty()) best->era_note += "; " + tried + ": used " + best->era.str();
    return *best;
}

} // namespace pcplab::procfs
