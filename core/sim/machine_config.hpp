// From a preset plus the user's choices (era, switch settings, init threads) to a machine ready to build,
// and booting it to a named stage. Shared by the CLI and the GUI so both resolve switches the same way.
#pragma once

#include "base/error.hpp"
#include "mm/boot.hpp"
#include "mm/machine.hpp"
#include "sim/engine.hpp"

#include <array>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace pcplab::sim
{

// One explicit switch setting ("batched-bulk-free=on").
struct switch_setting {
    mm::patch p = mm::patch::pcp_update_after_deferred_init;
    bool on = false;
};
// Parses "NAME=on|off"; on failure, a message that names the problem (unknown switch, bad value).
result<switch_setting> parse_switch_setting(std::string_view text);

// What the user asked for on top of the preset. Unset fields keep the preset's choice.
struct machine_options {
    std::optional<std::string> era; // a kernel version ("v5.4", "5.4.0-rc3", "6.8")
    std::vector<switch_setting> switches; // applied after the preset's overrides, in order
    std::optional<int> init_threads; // deferred-init threads per node (>= 1)
};

// Where a switch's value came from: shown beside it so a user knows what a preset changed.
enum class switch_origin { era_default, preset, user };
const char* switch_origin_name(switch_origin o);

struct machine_config {
    mm::machine_spec spec;
    mm::kernel_version requested; // the version asked for: the switch defaults follow it (5.4.0-rc3 lacks 000)
    mm::kernel_version era; // the modelled era it runs as
    std::string era_note; // non-empty when requested was mapped to a different era
    mm::patch_set patches; // era defaults, then the preset, then the user; init_threads included
    std::array<switch_origin, mm::NR_PATCHES> origin{};
    std::vector<std::string> notes; // preset settings left out because the user's era has no use for them
};

// A refused configuration's error::source names what caused it ("--era", "--patch", "--init-threads", or
// "preset NAME") so a front end can point at it.
using config_result = result<machine_config>;

// Resolve the era and the switches: mm::choose_era on opts.era (else the preset's era); then
// mm::default_patches(requested version), the preset's overrides, opts.switches. A switch set explicitly
// where mm::patch_not_applicable objects is an error, as is init_threads > 1 with parallel-deferred-init off.
// One exception: a preset's setting that only the user's --era makes meaningless is left out with a note
// (a preset bundles switches for its own era; refusing would make e.g. epyc2-256 on v6.7 impossible).
config_result make_machine_config(const mm::machine_spec& spec, const machine_options& opts);

// Every machine the program runs is built here: with PCPLAB_VERIFY set (and not "0") in the environment, the
// allocator's invariant check (mm::verify) runs after every allocation and free of the machine.
std::unique_ptr<mm::machine> build_machine(
    const mm::machine_spec& spec, const mm::kernel_era& era, const mm::patch_set& patches);
std::unique_ptr<mm::machine> build_machine(const machine_config& cfg);
// The engine_config of this machine (spec, era, switches); the caller adds the workload and its knobs.
// A summary needs counters, not the event log, so events are off.
engine_config engine_config_for(const machine_config& cfg);

// What a workload will see of this machine before it boots (workload::settings_problem asks with it): its CPUs
// and nodes, the workload's CPUs (`cpus`, empty = all) and intensity, and as total_pages the memory less what
// memblock reserves (the managed pages after boot differ from it by the pages the boot itself allocates).
workload_env planned_workload_env(const machine_config& cfg, double intensity, const std::vector<int>& cpus);

// How far to boot: "setup" stops after setup_per_cpu_pageset (limits from the managed pages of that moment,
// before deferred init); "after-init" is the whole boot (mm::boot).
enum class boot_target { setup, after_init };
std::optional<boot_target> parse_boot_target(std::string_view text);
const char* boot_target_name(boot_target t);

// Called every `interval` while the deferred-init threads run (and once more when they are done), so a
// front end can draw progress from deferred_init::progress()/total(). An engine's boot also calls on_setup
// once setup_per_cpu_pageset has run and deferred init is planned (engine::boot_report and timeline are
// known), before the threads start: the memory state deferred init starts from.
struct boot_observer {
    std::function<void(const mm::machine&, const mm::deferred_init&)> on_progress;
    std::function<void(const mm::machine&)> on_setup;
    std::chrono::milliseconds interval{50};
};

// While the started threads of `di` run: obs->on_progress every obs->interval until every node reports all
// its frames (and once more then). Returns at once without an observer; deferred_init::finish joins the
// threads in any case, so the result never depends on the watching.
void watch_deferred_init(const mm::machine& m, const mm::deferred_init& di, const boot_observer* obs);

// Boot to the target. Returns the deferred-init report for after-init, nullopt for setup.
// With an observer, the after-init boot runs mm::boot's steps one by one so progress can be shown.
std::optional<mm::deferred_init_report> boot_to(mm::machine& m, boot_target t, const boot_observer* obs = nullptr);

} // namespace pcplab::sim
