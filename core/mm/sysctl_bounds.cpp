#include "sysctl_bounds.hpp"

#include "pcp_limits.hpp"

#include <climits>

namespace pcplab::mm
{

namespace
{

error out_of(vm_sysctl s, long value, const std::string& range)
{
    return error(vm_sysctl_name(s) + ": " + std::to_string(value) + " is invalid (" + range + ")");
}

// percpu_pagelist_fraction_sysctl_handler (<= v5.13), percpu_pagelist_high_fraction_sysctl_handler (v5.14+):
// proc_dointvec_minmax from 0 (SYSCTL_ZERO), then -EINVAL for a nonzero value below the minimum fraction (8).
status fraction_problem(vm_sysctl s, long value, int min_fraction)
{
    if (value < 0 || value > INT_MAX || (value != 0 && value < min_fraction))
        return out_of(s, value, "0, or at least " + std::to_string(min_fraction));
    return {};
}

} // namespace

std::optional<vm_sysctl> vm_sysctl_from_name(std::string_view name)
{
    if (name.rfind("vm.", 0) == 0) name.remove_prefix(3);
    for (vm_sysctl s : {vm_sysctl::percpu_pagelist_fraction, vm_sysctl::percpu_pagelist_high_fraction,
             vm_sysctl::min_free_kbytes, vm_sysctl::watermark_scale_factor, vm_sysctl::pcp_batch_scale_max})
        if (vm_sysctl_name(s).substr(3) == name) return s;
    return std::nullopt;
}

std::string unknown_vm_sysctl(std::string_view name)
{
    std::string known;
    for (const auto& n : vm_sysctl_names()) known += (known.empty() ? "" : ", ") + n;
    return "unknown sysctl '" + std::string(name) + "' (" + known + ")";
}

std::string vm_sysctl_name(vm_sysctl s)
{
    switch (s) {
    case vm_sysctl::percpu_pagelist_fraction:
        return "vm.percpu_pagelist_fraction";
    case vm_sysctl::percpu_pagelist_high_fraction:
        return "vm.percpu_pagelist_high_fraction";
    case vm_sysctl::min_free_kbytes:
        return "vm.min_free_kbytes";
    case vm_sysctl::watermark_scale_factor:
        return "vm.watermark_scale_factor";
    case vm_sysctl::pcp_batch_scale_max:
        return "vm.pcp_batch_scale_max";
    }
    return "vm.?";
}

const std::vector<std::string>& vm_sysctl_names()
{
    static const std::vector<std::string> names = {vm_sysctl_name(vm_sysctl::percpu_pagelist_fraction),
        vm_sysctl_name(vm_sysctl::percpu_pagelist_high_fraction), vm_sysctl_name(vm_sysctl::min_free_kbytes),
        vm_sysctl_name(vm_sysctl::watermark_scale_factor), vm_sysctl_name(vm_sysctl::pcp_batch_scale_max)};
    return names;
}

status vm_sysctl_problem(vm_sysctl s, long value, const kernel_era& era)
{
    const std::string version = era.version.str();
    switch (s) {
    case vm_sysctl::percpu_pagelist_fraction:
        // v5.14 "Calculate pcp->high based on zone sizes and active CPUs" replaced it with the high fraction.
        if (era.high_rule() != pcp_high_rule::six_times_batch)
            return error(vm_sysctl_name(s) + " does not exist on era " + version
                + " (removed in v5.14; use vm.percpu_pagelist_high_fraction)");
        return fraction_problem(s, value, MIN_PERCPU_PAGELIST_FRACTION);
    case vm_sysctl::percpu_pagelist_high_fraction:
        if (era.high_rule() != pcp_high_rule::low_watermark)
            return error(vm_sysctl_name(s) + " does not exist on era " + version
                + " (added in v5.14; use vm.percpu_pagelist_fraction)");
        return fraction_problem(s, value, MIN_PERCPU_PAGELIST_HIGH_FRACTION);
    case vm_sysctl::min_free_kbytes:
        // min_free_kbytes_sysctl_handler (v4.17 .. v6.19): proc_dointvec_minmax from SYSCTL_ZERO, an int.
        if (value < 0 || value > INT_MAX) return out_of(s, value, "0 .. " + std::to_string(INT_MAX));
        return {};
    case vm_sysctl::watermark_scale_factor: {
        // watermark_scale_factor_sysctl_handler (v4.6 .. v6.19): SYSCTL_ONE .. 1000, 3000 from v6.0.
        const long max = era.version.at_least(6, 0) ? 3000 : 1000;
        if (value < 1 || value > max) return out_of(s, value, "1 .. " + std::to_string(max) + " on era " + version);
        return {};
    }
    case vm_sysctl::pcp_batch_scale_max:
        // The scale exists from v6.7 (PCP_BATCH_SCALE_MAX 5; CONFIG_PCP_BATCH_SCALE_MAX, range 0 .. 6, v6.10);
        // the proposed handler took the Kconfig's range.
        if (era.version.before(6, 7))
            return error(vm_sysctl_name(s) + " does not exist on era " + version
                + " (the pcp batch scale, CONFIG_PCP_BATCH_SCALE_MAX, came with v6.7's auto-tuning)");
        if (value < 0 || value > 6) return out_of(s, value, "0 .. 6, CONFIG_PCP_BATCH_SCALE_MAX's range");
        return {};
    }
    return error(vm_sysctl_name(s) + ": unknown sysctl");
}

} // namespace pcplab::mm
