// The families of pageset formulas Linux has had, each with the versions that used it: what check-zoneinfo
// tries against a capture, inside the window of versions its layout allows.
#pragma once

#include "mm/kernel_era.hpp"
#include "procfs/zoneinfo_layout.hpp"

#include <string_view>
#include <vector>

namespace pcplab::procfs
{

enum class high_form {
    hot_cold, // two lists per CPU: hot high 6 x batch, cold high 2 x batch
    six_times_batch, // one list, high = 6 x batch
    low_watermark, // zone_highsize: the low watermark split over the node's CPUs
    autotune, // high floats between high_min and high_max
};

struct formula_family {
    std::string_view name; // what a student reads: the rule in words
    mm::kernel_version from, to; // the versions that used it (inclusive)
    mm::kernel_version formulas; // a version of the family, whose formulas the core computes
    high_form high;
    // The modelled era with the same formulas, for a preset; a family older than every modelled era runs as
    // the lowest one with its own formulas (mm::kernel_era::formulas).
    mm::kernel_version preset_era;
    mm::kernel_era era() const { return mm::kernel_era{formulas}; }
    std::string versions() const; // "v4.19 .. v5.13"
};

const std::vector<formula_family>& formula_families();
// The families whose versions meet the window (all of them when the layout's lines contradict each other).
std::vector<const formula_family*> families_in(const version_window& w);

} // namespace pcplab::procfs
