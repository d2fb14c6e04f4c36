#include "sim/boot_sysctl.hpp"

#include "mm/sysctl_bounds.hpp"

namespace pcplab::sim
{

namespace
{

std::string key_of(const std::string& name)
{
    return name.rfind("vm.", 0) == 0 ? name.substr(3) : name;
}

} // namespace

const std::vector<std::string>& sysctl_names()
{
    return mm::vm_sysctl_names();
}

status check_sysctl(const std::string& name, long value, const mm::kernel_version& era)
{
    // One rule with the mm setters, the engine's live writes and the lessons (mm::vm_sysctl_problem): the
    // sysctl exists on the era and its handler takes the value.
    const auto which = mm::vm_sysctl_from_name(name);
    if (!which) return pcplab::error(mm::unknown_vm_sysctl(name));
    return mm::vm_sysctl_problem(*which, value, mm::kernel_era{era});
}

status set_boot_sysctl(mm::machine_spec& spec, const std::string& name, long value)
{
    const std::string key = key_of(name);
    if (key == "percpu_pagelist_fraction")
        spec.sysctl.percpu_pagelist_fraction = static_cast<int>(value);
    else if (key == "percpu_pagelist_high_fraction")
        spec.sysctl.percpu_pagelist_high_fraction = static_cast<int>(value);
    else if (key == "min_free_kbytes")
        spec.sysctl.min_free_kbytes = value;
    else if (key == "watermark_scale_factor")
        spec.sysctl.watermark_scale_factor = static_cast<int>(value);
    else if (key == "pcp_batch_scale_max")
        spec.sysctl.pcp_batch_scale_max = static_cast<int>(value);
    else
        return pcplab::error(mm::unknown_vm_sysctl(name));
    return {};
}

} // namespace pcplab::sim
