// check-zoneinfo: recompute every pageset of a real machine with the formulas of each kernel that could have
// printed it and compare. The layout gives a window of versions; inside it the numbers decide between the
// formula families (procfs/zoneinfo_families.hpp) and the page size.
#pragma once

#include "mm/kernel_version.hpp"
#include "mm/machine_spec.hpp"
#include "mm/pcp_limits.hpp"
#include "procfs/zoneinfo_families.hpp"
#include "procfs/zoneinfo_layout.hpp"
#include "procfs/zoneinfo_parse.hpp"

#include <optional>
#include <string>
#include <vector>

namespace pcplab::procfs
{

struct check_options {
    std::optional<mm::kernel_version> era; // the capture's kernel, when known: picks its family
    std::vector<int> cpus_per_node; // empty: infer (and say so)
    std::optional<unsigned> page_shift; // nullopt: infer from the numbers (12, 14 or 16)
    mm::sysctl_values sysctl; // vm.percpu_pagelist_(high_)fraction of that machine (default 0)
    bool explain = false; // text() adds each zone's derivation with the capture's own numbers
};

// What is compared per pageset: hot/cold and one-list kernels before v6.7 batch and high (and low where
// printed); v6.13+ files batch, high_min and high_max (high is tuned at run time); v6.7 .. v6.12 files print
// no high_min/high_max, so batch, and high is only checked to be 0 (never used) or inside [high_min, high_max].
enum class compared_fields { batch_high, batch_high_min_max, batch_high_in_range };

enum class pageset_verdict { match, explained, mismatch };

// The known behaviours that explain a pageset the formulas do not give.
enum class explanation {
    none,
    early_sizing, // seed 000: sized from the part of the zone deferred init left initialised early
    late_memory, // high_max computed before memory joined the zone (freed late in boot, hot-added)
};

struct zone_check {
    int node = 0;
    std::string zone;
    int line = 0;
    long managed = 0, present = 0, low_wmark = 0; // the inputs taken from the file
    bool managed_line = true; // false: no managed line, present is what the formulas read
    int nr_split_cpus = 0; // CPUs the high limits are split over
    mm::pcp_limits expected; // the one list (the hot list before v2.6.25)
    std::optional<mm::pcp_limits> expected_cold;
    // The first pageset's values; mixed_fields says which differ between the zone's pagesets (bits: 1 batch,
    // 2 high, 4 high_min, 8 high_max).
    long found_batch = 0, found_high = 0;
    std::optional<long> found_high_min, found_high_max;
    unsigned mixed_fields = 0;
    compared_fields compared = compared_fields::batch_high;
    int pagesets = 0;
    int matched = 0;
    int explained = 0;
    int mismatched = 0;
    std::string explained_reason; // the known behaviour that explains the zone's non-matching pagesets
    explanation explained_by = explanation::none;
    unsigned long early_pages = 0; // early_sizing: the zone size the limits come from (a section where one fits)
    unsigned long early_section_bytes = 0; // ... and that section's size, 0 when no known section size fits
    std::vector<std::string> notes;
};

// One family at one page size, tried against the capture.
struct family_fit {
    const formula_family* family = nullptr;
    unsigned page_shift = 12;
    int matched = 0, explained = 0, total = 0;
    int thresholds_agree = 0, thresholds = 0; // "vm stats threshold" lines the formula reproduces
};

struct check_report {
    version_window window; // from the layout
    const formula_family* family = nullptr; // the family chosen
    mm::kernel_version era; // the version whose formulas were used (a member of the family)
    unsigned page_shift = 12;
    std::string choice_note; // why this family and page size ("the numbers: 9/9 ...", "given: --era v5.4")
    std::vector<family_fit> tried; // every family and page size tried, best first
    std::vector<std::string> equally_good; // other families or page sizes that fit as well
    std::vector<std::string> assumptions; // inferred CPUs per node, sysctls, page size
    std::vector<std::string> reader_notes; // what the reader tolerated, and the skipped lines
    std::vector<zone_check> zones;
    std::vector<std::string> explanation; // with check_options::explain: the derivations, line by line
    int total = 0, matched = 0, explained = 0, mismatched = 0;
    bool ok() const { return mismatched == 0; }
    std::string text() const; // the window, the family, the per-zone table, "N/M pagesets match" ...
};

check_report check_zoneinfo(const zoneinfo_doc& doc, const check_options& opt);

// CPUs per node as the checker assumes them: given, or inferred from the pagesets (and said so).
std::vector<int> cpus_per_node_of(
    const zoneinfo_doc& doc, const std::vector<int>& given, std::vector<std::string>* assumptions);

} // namespace pcplab::procfs
