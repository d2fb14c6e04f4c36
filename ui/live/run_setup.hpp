// What the user chose in the window (preset, era, switches per side, workload, seed, sysctls) turned into the
// engine configurations of a live run, the way `pcplab-cli run` builds them (sim::make_machine_config, then
// sim::engine_config_for), plus what the GUI needs on top: the event log and, for the lanes view, lock holds.
#pragma once

#include "sim/engine.hpp"
#include "sim/machine_config.hpp"

#include "mm/patch_switches.hpp"
#include "mm/sysctl_bounds.hpp"

#include <array>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace pcplab::ui
{

using switch_overrides = std::array<std::optional<bool>, mm::NR_PATCHES>; // nullopt = the era/preset default

struct run_setup {
    std::string preset = "classroom";
    std::string era; // "" = the preset's
    switch_overrides sw_a{}; // single mode: the machine's switches
    bool ab = false;
    switch_overrides sw_b{}; // A/B: B's switches on top of A's
    std::string workload = "kernbench";
    double intensity = 1.0;
    std::uint64_t seed = 1;
    // Sysctls at boot (nullopt = the preset's). The pagelist fraction is whichever the era has:
    // vm.percpu_pagelist_fraction up to v5.13, vm.percpu_pagelist_high_fraction from v5.14.
    std::optional<int> pagelist_fraction;
    std::optional<long> min_free_kbytes;
    std::optional<int> watermark_scale_factor;
    std::optional<int> pcp_batch_scale_max; // v6.7+

    bool keep_holds = true; // every zone->lock hold, for the lanes view
    // A finite workload (kernbench, boot) starts a new round when it finishes, so the window keeps moving
    // (sim::engine_config::continuous; each round is an event).
    bool continuous = true;
};

struct resolved_setup {
    sim::machine_config machine; // the preset on its era, with the era/preset switch defaults
    sim::engine_config a;
    std::optional<sim::engine_config> b;
    std::vector<std::string> notes; // the era mapping and preset settings left out (the switch table tells the rest)
};

// What the views need the engine to keep on top of a run's configuration: the event log, and for the lanes
// view and the window's recordings, the zone->lock holds (recording_tap.cpp records with the default rule).
void keep_for_views(sim::engine_config& ec, bool keep_holds = true);

// The preset, era or a sysctl can be refused: the error says which and why.
std::variant<resolved_setup, std::string> resolve_setup(const run_setup& s);

// The switches of one side: the defaults, then the overrides (A's, then B's on top for side B).
mm::patch_set effective_switches(
    const mm::patch_set& defaults, const switch_overrides& own, const switch_overrides* on_top = nullptr);

// Entering A/B with nothing chosen for B yet: the first switch whose flip can act on this machine
// (sim::reach_of_flip: seed 000's on v5.4 .. v5.13, else auto-tuning, batched or picked-outside bulk free), so
// B differs from A.
mm::patch default_ab_difference(const mm::patch_set& a, const sim::machine_config& machine);
// B's switches on entering A/B: every switch as A has it, the default difference flipped.
switch_overrides default_b_switches(const mm::patch_set& a, const sim::machine_config& machine);

// The pagelist fraction sysctl of this era.
mm::vm_sysctl pagelist_fraction_sysctl(const mm::kernel_version& era);

// Versions offered in the era list: every modelled era plus the versions the seeds were measured on.
std::vector<std::string> era_choices();

} // namespace pcplab::ui
