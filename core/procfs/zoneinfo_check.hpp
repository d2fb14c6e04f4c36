// check-zoneinfo: recompute every pageset's limits of a real machine with the core's formulas and compare.
#pragma once

#include "mm/kernel_version.hpp"
#include "mm/machine_spec.hpp"
#include "procfs/zoneinfo_parse.hpp"

#include <optional>
#include <string>
#include <vector>

namespace pcplab::procfs
{

struct check_options {
    std::optional<mm::kernel_version> era; // nullopt: detect from the file's layout
    std::vector<int> cpus_per_node; // empty: infer (and say so)
    mm::sysctl_values sysctl; // vm.percpu_pagelist_(high_)fraction of that machine (default 0)
};

// What is compared per pageset: before v6.7 batch and high; v6.13+ files batch, high_min and high_max
// (high is tuned at run time); v6.7 .. v6.12 files print no high_min/high_max, so batch, and high is
// only checked to be 0 (never used) or inside [high_min, high_max].
enum class compared_fields { batch_high, batch_high_min_max, batch_high_in_range };

enum class pageset_verdict { match, stale, mismatch };

struct zone_check {
    int node = 0;
    std::string zone;
    long managed = 0, low_wmark = 0; // the inputs taken from the file
    int nr_split_cpus = 0; // CPUs the high limits are split over
    long expected_batch = 0, expected_high = 0, expected_high_min = 0, expected_high_max = 0;
    // The first pageset's values; found_uniform is false when the zone's pagesets differ, and mixed_fields
    // says in which (bits: 1 batch, 2 high, 4 high_min, 8 high_max).
    long found_batch = 0, found_high = 0;
    std::optional<long> found_high_min, found_high_max;
    bool found_uniform = true;
    unsigned mixed_fields = 0;
    compared_fields compared = compared_fields::batch_high;
    int pagesets = 0;
    int matched = 0;
    int stale = 0;
    int mismatched = 0;
    std::string stale_reason; // "computed before deferred init completed — seed 000 (limits match managed 32768)"
    std::vector<std::string> notes;
};

struct check_report {
    mm::kernel_version era;
    std::string era_note; // how the era was chosen (detected from layout, or given)
    std::vector<std::string> assumptions; // e.g. inferred CPUs per node
    std::vector<zone_check> zones;
    int total = 0, matched = 0, stale = 0, mismatched = 0;
    bool ok() const { return mismatched == 0; }
    std::string text() const; // the per-zone comparison ending with "N/M pagesets match" (+ "K/M stale: ...")
};

check_report check_zoneinfo(const zoneinfo_doc& doc, const check_options& opt);

} // namespace pcplab::procfs
