// What flipping a patch switch does on a given machine: it acts at once, it acts at the next boot, or it cannot
// act there at all, with the reason. The answer the window's switch table shows before a flip (and the switch A/B
// starts with), from the rules that own it: the era (mm::patch_not_applicable), the machine's CPUs per node
// (mm::deferred_init_threads) and what the engine does with a live flip (engine::impl::set_patch). A flip once
// made is the engine's to judge: it answers whether the era has any use for it in the command's result.
#pragma once

#include "mm/kernel_version.hpp"
#include "mm/machine_spec.hpp"
#include "mm/patch_switches.hpp"

#include <string>

namespace pcplab::sim
{

enum class switch_reach { now, next_boot, never };

struct flip_reach {
    switch_reach when = switch_reach::now;
    std::string why; // for next_boot and never: one sentence a teacher can read out
};

// Flipping `p` away from its current value `now[p]` on a machine of `spec` running `era`; `booted`: deferred
// init is over (the limits were set for good).
flip_reach reach_of_flip(
    const mm::machine_spec& spec, const mm::kernel_version& era, const mm::patch_set& now, mm::patch p, bool booted);
// The same without the era's rule, which the engine answers for a flip it is sent: where the flip acts on this
// machine (its CPUs per node, whether deferred init is over).
flip_reach reach_on_machine(
    const mm::machine_spec& spec, const mm::kernel_version& era, const mm::patch_set& now, mm::patch p, bool booted);

} // namespace pcplab::sim
