// check_zoneinfo: every formula family the layout allows, at every page size the capture could have, is
// tried on every pageset; the one that explains the most wins. A pageset that does not match can still be
// explained by a known behaviour (seed 000's early sizing, high_max computed before memory joined the zone).
#include "zoneinfo_check.hpp"

#include "mm/mm_types.hpp"
#include "mm/vmstat.hpp"
#include "procfs/zoneinfo_explain.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace pcplab::procfs
{

namespace
{

using mm::kernel_version;

enum class field { batch, high, high_min, high_max, low };

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
    case field::low:
        return l.low;
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
    case field::low:
        return "low";
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
    case field::low:
        return p.low;
    }
    return std::nullopt;
}

std::vector<field> fields_of(compared_fields c, const zoneinfo_pageset& p)
{
    std::vector<field> fs;
    switch (c) {
    case compared_fields::batch_high:
        fs = {field::batch, field::high};
        break;
    case compared_fields::batch_high_min_max:
        fs = {field::batch, field::high_min, field::high_max};
        break;
    case compared_fields::batch_high_in_range:
        fs = {field::batch};
        break;
    }
    if (p.low) fs.push_back(field::low);
    return fs;
}

// One zone's formula inputs, as the kernel of a family saw them at its last recompute.
struct zone_inputs {
    mm::kernel_era era;
    bool autotune = false;
    unsigned page_shift = 12;
    unsigned long managed = 0, present = 0, low = 0;
    int nr_split_cpus = 1;
    mm::sysctl_values sysctl;

    // The limits of a zone of `pages` (what the era reads: managed, or present before v3.8).
    mm::pcp_limits limits(unsigned long pages, unsigned long low_wmark, bool cold = false) const
    {
        mm::zone_limit_inputs in{pages, low_wmark, nr_split_cpus, pages, page_shift};
        return cold ? mm::cold_pcp_limits(era, in) : mm::compute_pcp_limits(era, autotune, in, sysctl);
    }
    unsigned long pages() const { return era.formulas_read_present() ? present : managed; }
};

struct managed_interval {
    unsigned long lo = 0, hi = 0;
};

// The zone sizes in [1, upper] for which every field in `fs` equals the pageset's value. Each limit is a
// non-decreasing function of the size, so each field's solutions form an interval: binary search both ends.
std::optional<managed_interval> sizes_reproducing(const zone_inputs& in, unsigned long low, const zoneinfo_pageset& p,
    const std::vector<field>& fs, unsigned long upper)
{
    managed_interval acc{1, upper};
    if (upper < 1) return std::nullopt;
    const bool cold = p.pcp == 1;
    for (field f : fs) {
        auto target = found_value(p, f);
        if (!target) return std::nullopt;
        auto value = [&](unsigned long m) { return get(in.limits(m, low, cold), f); };
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

// The memory section sizes of the architectures (SECTION_SIZE_BITS): the part of a node's highest zone that
// deferred init leaves initialised early is one section (v4.17+). arm64 had 1 GiB sections until v5.12
// ("arm64/sparsemem: reduce SECTION_SIZE_BITS"), not listed: 1 GiB / 1024 is 1 MiB of pages, at or above
// zone_batchsize's cap at every page size, so such an early section gives the whole zone's limits (v4.17 .. v5.3).
struct section_size {
    unsigned long bytes;
    const char* arch;
};
constexpr section_size k_sections[] = {
    {128UL << 20, "x86-64; arm64 from v5.12 with 4 or 16 KiB pages"},
    {256UL << 20, "s390"},
    {16UL << 20, "ppc64"},
    {512UL << 20, "arm64 from v5.12 with 64 KiB pages"},
};

std::string sizes_text(const managed_interval& r, unsigned page_shift, bool name_section)
{
    if (name_section)
        for (const auto& s : k_sections) {
            unsigned long pages = s.bytes >> page_shift;
            if (pages >= r.lo && pages <= r.hi)
                return std::to_string(pages) + " pages, one " + std::to_string(s.bytes >> 20) + " MiB memory section ("
                    + s.arch + ")";
        }
    if (r.lo == r.hi) return std::to_string(r.lo) + " pages";
    return std::to_string(r.lo) + ".." + std::to_string(r.hi) + " pages";
}

struct verdict {
    pageset_verdict v = pageset_verdict::match;
    std::string reason; // explained: the behaviour; mismatch: which fields differ
    explanation by = explanation::none;
    unsigned long early_pages = 0, section_bytes = 0;
};

// The known section size whose pages lie in the interval, else 0.
unsigned long section_in(const managed_interval& r, unsigned page_shift)
{
    for (const auto& s : k_sections)
        if ((s.bytes >> page_shift) >= r.lo && (s.bytes >> page_shift) <= r.hi) return s.bytes;
    return 0;
}

verdict judge(const zone_inputs& in, const formula_family& fam, const mm::pcp_limits& want,
    const std::optional<mm::pcp_limits>& want_cold, const zoneinfo_pageset& p, compared_fields mode, bool highest_zone)
{
    const bool cold = p.pcp == 1;
    const mm::pcp_limits& w = cold && want_cold ? *want_cold : want;
    std::vector<field> fs = fields_of(mode, p);
    std::vector<field> wrong;
    for (field f : fs)
        if (found_value(p, f) != get(w, f)) wrong.push_back(f);
    bool high_ok
        = mode != compared_fields::batch_high_in_range || p.high == 0 || (p.high >= w.high_min && p.high <= w.high_max);
    // A hot/cold layout in a one-list family (or the reverse) cannot be the same kernel.
    bool lists_ok = (fam.high == high_form::hot_cold) == p.pcp.has_value();
    if (wrong.empty() && high_ok && lists_ok) return {};
    if (!lists_ok)
        return {pageset_verdict::mismatch,
            p.pcp ? "a hot/cold pageset, which this family does not have" : "one list per CPU, not hot/cold"};

    const unsigned long pages = in.pages();
    // v6.7+: batch and high_min are current, high_max is from before memory joined the zone.
    if (mode == compared_fields::batch_high_min_max && wrong.size() == 1 && wrong[0] == field::high_max && pages > 1)
        if (auto r = sizes_reproducing(in, in.low, p, {field::high_max}, pages - 1))
            return {pageset_verdict::explained,
                "high_max was computed when the zone had " + sizes_text(*r, in.page_shift, false)
                    + " and was not recomputed when more memory joined it (freed late in boot, or hot-added)",
                explanation::late_memory};

    // Seed 000: setup_per_cpu_pageset sized the node's deferred zone from the pages initialised early and
    // nothing recomputed it after deferred init (v4.2 .. v5.3; Mel Gorman's fix is in v5.4). v5.14+ computed
    // those early limits before the watermarks existed, so also try a low watermark of 0.
    if (highest_zone && !wrong.empty() && pages > 1 && fam.to.at_least(4, 2)) {
        std::vector<unsigned long> lows = {in.low};
        if (fam.high != high_form::six_times_batch && fam.high != high_form::hot_cold && in.low != 0) lows.push_back(0);
        for (unsigned long low : lows)
            if (auto r = sizes_reproducing(in, low, p, fs, pages - 1)) {
                // v4.17+ leaves one memory section initialised early: a size no architecture's section
                // has (at this page size) is no explanation, only a coincidence of the formula's steps.
                // (v4.2 .. v4.16 initialised 2 GiB or more early: not recognised here.)
                const unsigned long section = section_in(*r, in.page_shift);
                if (!section) continue;
                return {pageset_verdict::explained,
                    "computed before deferred init completed (seed 000; fixed in v5.4): the limits are those of "
                    "the first "
                        + sizes_text(*r, in.page_shift, true) + " of the zone",
                    explanation::early_sizing, section >> in.page_shift, section};
            }
    }

    std::string why;
    for (field f : wrong)
        why += std::string(why.empty() ? "" : ", ") + field_name(f) + " " + std::to_string(*found_value(p, f))
            + " (expected " + std::to_string(get(w, f)) + ")";
    if (!high_ok)
        why += std::string(why.empty() ? "" : ", ") + "high " + std::to_string(p.high) + " (expected 0 or "
            + std::to_string(w.high_min) + ".." + std::to_string(w.high_max) + ")";
    return {pageset_verdict::mismatch, why};
}

struct evaluation {
    check_report rep;
    family_fit fit;
};

evaluation evaluate(const zoneinfo_doc& doc, const formula_family& fam, unsigned page_shift,
    const std::vector<int>& cpus, const check_options& opt)
{
    evaluation e;
    check_report& rep = e.rep;
    rep.family = &fam;
    rep.era = fam.formulas;
    rep.page_shift = page_shift;
    const mm::kernel_era era = fam.era();
    const int online = doc.nr_cpus();

    // The highest populated zone of each node is the one deferred init fills (seed 000).
    std::map<int, const zoneinfo_zone*> highest;
    for (const auto& z : doc.zones)
        if (z.populated()) highest[z.node] = &z;

    for (const auto& z : doc.zones) {
        if (!z.populated()) continue;
        zone_inputs in{era, fam.high == high_form::autotune, page_shift, static_cast<unsigned long>(z.managed),
            static_cast<unsigned long>(z.present), static_cast<unsigned long>(z.low), 0, opt.sysctl};
        const std::size_t nid = static_cast<std::size_t>(z.node);
        in.nr_split_cpus = nid < cpus.size() ? cpus[nid] : 0;
        if (in.nr_split_cpus <= 0) in.nr_split_cpus = online; // zone_highsize: a CPU-less node splits over all
        if (in.nr_split_cpus <= 0) in.nr_split_cpus = 1;

        zone_check zc;
        zc.node = z.node;
        zc.zone = z.name;
        zc.line = z.line;
        zc.managed = z.managed;
        zc.present = z.present;
        zc.managed_line = z.has_managed;
        zc.low_wmark = z.low;
        zc.nr_split_cpus = in.nr_split_cpus;
        zc.expected = in.limits(in.pages(), in.low);
        if (fam.high == high_form::hot_cold) zc.expected_cold = in.limits(in.pages(), in.low, true);
        if (z.pagesets.empty()) {
            zc.notes.push_back("no pageset printed (before v2.6.25 a CPU whose lists were all empty was left out)");
            rep.zones.push_back(std::move(zc));
            continue;
        }
        const zoneinfo_pageset& first = z.pagesets.front();
        zc.found_batch = first.batch;
        zc.found_high = first.high;
        zc.found_high_min = first.high_min;
        zc.found_high_max = first.high_max;
        zc.compared = fam.high != high_form::autotune ? compared_fields::batch_high
            : first.high_min.has_value()              ? compared_fields::batch_high_min_max
                                                      : compared_fields::batch_high_in_range;
        int shown = 0;
        for (const auto& p : z.pagesets) {
            if (!p.pcp || *p.pcp == 0)
                zc.mixed_fields |= (p.batch != first.batch ? 1U : 0U) | (p.high != first.high ? 2U : 0U)
                    | (p.high_min != first.high_min ? 4U : 0U) | (p.high_max != first.high_max ? 8U : 0U);
            verdict v = judge(in, fam, zc.expected, zc.expected_cold, p, zc.compared, highest[z.node] == &z);
            ++zc.pagesets;
            if (v.v == pageset_verdict::match) {
                ++zc.matched;
            } else if (v.v == pageset_verdict::explained) {
                ++zc.explained;
                if (zc.explained_reason.empty()) {
                    zc.explained_reason = v.reason;
                    zc.explained_by = v.by;
                    zc.early_pages = v.early_pages;
                    zc.early_section_bytes = v.section_bytes;
                } else if (v.reason != zc.explained_reason) // rare: the summary counts it under the first reason
                    zc.notes.push_back("cpu " + std::to_string(p.cpu) + " (line " + std::to_string(p.line)
                        + "): explained: " + v.reason);
            } else {
                ++zc.mismatched;
                if (shown++ < 8)
                    zc.notes.push_back(
                        "cpu " + std::to_string(p.cpu) + " (line " + std::to_string(p.line) + "): " + v.reason);
            }
            // calculate_normal_threshold: a clue to the page size (it counts the zone in 128 MiB units).
            if (p.stat_threshold && online > 0) {
                ++e.fit.thresholds;
                long t = mm::calculate_normal_threshold(in.pages(), online, page_shift);
                if (t == *p.stat_threshold) ++e.fit.thresholds_agree;
            }
        }
        if (shown > 8) zc.notes.push_back("... and " + std::to_string(shown - 8) + " more mismatching pagesets");
        rep.total += zc.pagesets;
        rep.matched += zc.matched;
        rep.explained += zc.explained;
        rep.mismatched += zc.mismatched;
        rep.zones.push_back(std::move(zc));
    }
    e.fit.family = &fam;
    e.fit.page_shift = page_shift;
    e.fit.matched = rep.matched;
    e.fit.explained = rep.explained;
    e.fit.total = rep.total;
    return e;
}

// Releases between two versions, counting v2.6.x patch levels as releases; the open end of the newest family
// counts up to v6.19, the newest kernel read.
int release_index(const kernel_version& v)
{
    if (v.major <= 2) return v.patch;
    if (v.major == 3) return 40 + v.minor;
    if (v.major == 4) return 60 + v.minor;
    if (v.major == 5) return 81 + v.minor;
    return 101 + std::min(v.minor, 19);
}
int releases_in(const formula_family& f, const version_window& w)
{
    const kernel_version& from = w.conflict || f.from.compare(w.from) > 0 ? f.from : w.from;
    const kernel_version& to = w.conflict || f.to.compare(w.to) < 0 ? f.to : w.to;
    return std::max(0, release_index(to) - release_index(from) + 1);
}

// Better fit first: more pagesets matched or explained, then more matched outright, then more thresholds;
// between families that fit alike, the one with more releases in the window (the likelier a priori), then
// the smaller page size.
bool better(const family_fit& a, const family_fit& b, const version_window& w)
{
    if (a.matched + a.explained != b.matched + b.explained) return a.matched + a.explained > b.matched + b.explained;
    if (a.matched != b.matched) return a.matched > b.matched;
    if (a.thresholds_agree != b.thresholds_agree) return a.thresholds_agree > b.thresholds_agree;
    if (a.family != b.family) return releases_in(*a.family, w) > releases_in(*b.family, w);
    return a.page_shift < b.page_shift;
}
bool same_fit(const family_fit& a, const family_fit& b)
{
    return a.matched == b.matched && a.explained == b.explained && a.thresholds_agree == b.thresholds_agree;
}

std::string page_size_text(unsigned shift)
{
    return std::to_string((1UL << shift) >> 10) + " KiB";
}

// "the v4.19 .. v5.13 formulas at 4 KiB: 8 match, 8 explained of 16; vm stats threshold 16/16"
std::string fit_text(const family_fit& f, bool with_name = false)
{
    std::string s = "the " + f.family->versions() + " formulas"
        + (with_name ? " (" + std::string(f.family->name) + ")" : std::string()) + " at " + page_size_text(f.page_shift)
        + ": " + std::to_string(f.matched) + " match";
    if (f.explained) s += ", " + std::to_string(f.explained) + " explained";
    s += " of " + std::to_string(f.total);
    if (f.thresholds)
        s += "; vm stats threshold " + std::to_string(f.thresholds_agree) + "/" + std::to_string(f.thresholds);
    return s;
}

} // namespace

std::vector<int> cpus_per_node_of(
    const zoneinfo_doc& doc, const std::vector<int>& given, std::vector<std::string>* assumptions)
{
    std::set<int> nodes;
    for (const auto& z : doc.zones) nodes.insert(z.node);
    const int total = doc.nr_cpus();
    std::vector<int> cpus(nodes.empty() ? 0 : static_cast<std::size_t>(*nodes.rbegin()) + 1, 0);
    auto say = [&](const std::string& s) {
        if (assumptions) assumptions->push_back(s);
    };
    if (!given.empty()) {
        for (int nid : nodes) {
            if (nid < static_cast<int>(given.size()))
                cpus[static_cast<std::size_t>(nid)] = given[static_cast<std::size_t>(nid)];
            else
                say("no CPU count given for node " + std::to_string(nid) + ": treated as CPU-less (limits split over "
                    + "all " + std::to_string(total) + " online CPUs)");
        }
        return cpus;
    }
    if (nodes.size() == 1) {
        cpus[static_cast<std::size_t>(*nodes.begin())] = total;
        say("one node: all " + std::to_string(total) + " CPUs are on node " + std::to_string(*nodes.begin()));
        return cpus;
    }
    int n = static_cast<int>(nodes.size()), each = total / std::max(n, 1), extra = total % std::max(n, 1), i = 0;
    for (int nid : nodes) cpus[static_cast<std::size_t>(nid)] = each + (i++ < extra ? 1 : 0);
    say(std::to_string(n) + " nodes, CPUs per node not given: the " + std::to_string(total)
        + " CPUs were divided evenly (" + std::to_string(each) + " per node"
        + (extra ? ", one more on the first " + std::to_string(extra) : std::string())
        + "); give the real counts if the nodes differ");
    return cpus;
}

check_report check_zoneinfo(const zoneinfo_doc& doc, const check_options& opt)
{
    version_window window = layout_window(doc);
    std::vector<std::string> assumptions;
    const std::vector<int> cpus = cpus_per_node_of(doc, opt.cpus_per_node, &assumptions);

    // Which families: the one of the given version, else those the layout allows.
    std::vector<const formula_family*> fams;
    std::string why;
    if (opt.era) {
        for (const auto& f : formula_families())
            if (opt.era->compare(f.from) >= 0 && opt.era->compare(f.to) <= 0) fams.push_back(&f);
        if (fams.empty()) fams.push_back(&formula_families().front()); // older than /proc/zoneinfo itself
        why = "given: " + opt.era->str();
        if (!window.conflict && !window.contains(*opt.era))
            why += " (the layout suggests " + window.str() + " instead)";
    } else {
        fams = families_in(window);
    }
    std::vector<unsigned> shifts
        = opt.page_shift ? std::vector<unsigned>{*opt.page_shift} : std::vector<unsigned>{12, 14, 16};

    std::vector<evaluation> evals;
    for (const formula_family* f : fams)
        for (unsigned s : shifts) evals.push_back(evaluate(doc, *f, s, cpus, opt));
    std::stable_sort(evals.begin(), evals.end(),
        [&](const evaluation& a, const evaluation& b) { return better(a.fit, b.fit, window); });

    check_report rep = evals.front().rep;
    rep.window = window;
    for (const auto& e : evals) rep.tried.push_back(e.fit);
    const family_fit& best = evals.front().fit;
    for (std::size_t i = 1; i < evals.size(); ++i)
        if (same_fit(evals[i].fit, best)) rep.equally_good.push_back(fit_text(evals[i].fit, true));

    if (why.empty()) {
        why = "the numbers: " + fit_text(best);
        auto next
            = std::find_if(evals.begin() + 1, evals.end(), [&](const evaluation& e) { return !same_fit(e.fit, best); });
        if (next != evals.end()) why += "; next best " + fit_text(next->fit);
    }
    rep.choice_note = why;
    rep.assumptions = assumptions;
    if (opt.page_shift)
        rep.assumptions.push_back("page size " + page_size_text(*opt.page_shift) + " (given)");
    else if (!rep.equally_good.empty() && std::any_of(evals.begin() + 1, evals.end(), [&](const evaluation& e) {
                 return same_fit(e.fit, best) && e.fit.page_shift != best.page_shift;
             }))
        rep.assumptions.push_back("page size " + page_size_text(best.page_shift)
            + ": the capture does not tell the page sizes apart (give --page-size)");
    else
        rep.assumptions.push_back("page size " + page_size_text(best.page_shift) + " (inferred from the numbers)");
    if (rep.family->high == high_form::six_times_batch)
        rep.assumptions.push_back(
            "vm.percpu_pagelist_fraction = " + std::to_string(opt.sysctl.percpu_pagelist_fraction));
    else if (rep.family->high != high_form::hot_cold)
        rep.assumptions.push_back(
            "vm.percpu_pagelist_high_fraction = " + std::to_string(opt.sysctl.percpu_pagelist_high_fraction));
    rep.reader_notes = doc.notes;
    if (doc.lines_skipped) rep.reader_notes.push_back(doc.skipped_text());
    for (const auto& z : doc.zones)
        if (z.populated() && !z.has_managed) {
            rep.reader_notes.push_back("no 'managed' lines (before v3.8): the formulas read present pages");
            break;
        }
    if (opt.explain) rep.explanation = explain_zoneinfo(doc, rep, cpus);
    return rep;
}

} // namespace pcplab::procfs
