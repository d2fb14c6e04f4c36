// The vm sysctls of the lab and the values their handlers accept on an era: one rule for the mm setters,
// the engine's live writes and a lesson's setup, so none of them takes a value the kernel would refuse.
#pragma once

#include "base/error.hpp"

#include "kernel_era.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pcplab::mm
{

enum class vm_sysctl {
    percpu_pagelist_fraction,
    percpu_pagelist_high_fraction,
    min_free_kbytes,
    watermark_scale_factor,
    pcp_batch_scale_max, // a proposal (Yafang Shao, 2024): CONFIG_PCP_BATCH_SCALE_MAX as a sysctl
};

// "vm.min_free_kbytes" or "min_free_kbytes"; nullopt for another name.
std::optional<vm_sysctl> vm_sysctl_from_name(std::string_view name);
std::string vm_sysctl_name(vm_sysctl s); // "vm.min_free_kbytes"
const std::vector<std::string>& vm_sysctl_names(); // every one, with "vm."
// "unknown sysctl 'NAME' (vm.a, vm.b, ...)": the one line for a name that is none of them.
std::string unknown_vm_sysctl(std::string_view name);

// Why writing `value` to `s` on `era` fails (the sysctl does not exist on the era, or its handler returns
// -EINVAL), naming the sysctl; ok when the write is accepted.
status vm_sysctl_problem(vm_sysctl s, long value, const kernel_era& era);

} // namespace pcplab::mm
