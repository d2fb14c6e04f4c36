#include "sim/boot_sysctl.hpp"

namespace pcplab::sim
{

namespace
{

std::string key_of(const std::string& name)
{
    return name.rfind("vm.", 0) == 0 ? name.substr(3) : name;
}

std::string unknown(const std::string& name)
{
    std::string known;
    for (const auto& n : sysctl_names()) known += (known.empty() ? "" : ", ") + n;
    return "unknown sysctl '" + name + "' (" + known + ")";
}

} // namespace

const std::vector<std::string>& sysctl_names()
{
    static const std::vector<std::string> names = {"vm.percpu_pagelist_fraction", "vm.percpu_pagelist_high_fraction",
        "vm.min_free_kbytes", "vm.watermark_scale_factor"};
    return names;
}

std::string check_sysctl(const std::string& name, long value, const mm::kernel_version& era)
{
    const std::string key = key_of(name);
    if (key == "percpu_pagelist_fraction" || key == "percpu_pagelist_high_fraction") {
        const bool high = key == "percpu_pagelist_high_fraction";
        // v5.14 replaced the one with the other (Mel Gorman's "Calculate pcp->high based on zone sizes").
        if (high && era.before(5, 14)) return "vm." + key + " exists from v5.14 on, not on " + era.str();
        if (!high && era.at_least(5, 14)) return "vm." + key + " was removed in v5.14; this machine runs " + era.str();
        if (value != 0 && value < 8) return "vm." + key + " must be 0 or at least 8, not " + std::to_string(value);
        return "";
    }
    if (key == "min_free_kbytes") return value > 0 ? "" : "vm.min_free_kbytes must be more than 0";
    if (key == "watermark_scale_factor")
        return value >= 1 && value <= 3000 ? "" : "vm.watermark_scale_factor must be 1..3000";
    return unknown(name);
}

std::string set_boot_sysctl(mm::machine_spec& spec, const std::string& name, long value)
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
    else
        return unknown(name);
    return "";
}

} // namespace pcplab::sim
