// The vm.* sysctls a machine can be booted with (a sysctl.conf or the kernel command line, before any workload):
// their names, whether a value means something on an era, and writing one into a machine_spec. Used by
// `pcplab-cli run --sysctl`, sweeps and lesson setups; the engine's live set_sysctl applies the same ones later.
#pragma once

#include "base/error.hpp"

#include "mm/kernel_version.hpp"
#include "mm/machine_spec.hpp"

#include <string>
#include <vector>

namespace pcplab::sim
{

// "vm.percpu_pagelist_fraction", "vm.percpu_pagelist_high_fraction", "vm.min_free_kbytes",
// "vm.watermark_scale_factor".
const std::vector<std::string>& sysctl_names();

// Ok when `value` is a value the kernel of `era` takes for `name` (with or without "vm."), else why not.
status check_sysctl(const std::string& name, long value, const mm::kernel_version& era);

// Writes the value into spec.sysctl; ok, or why not (an unknown name). Check it with check_sysctl once the era is
// known.
status set_boot_sysctl(mm::machine_spec& spec, const std::string& name, long value);

} // namespace pcplab::sim
