// From a step's setup to an engine: the preset (scaled to node_gib), era, switches, sysctls, workload and
// its tunables resolved exactly as the CLI resolves them. Used by the lesson loader (to refuse a setup the
// program cannot honour), the headless runner and the GUI window (which reboots its engine with it).
#pragma once

#include "base/error.hpp"
#include "lessons/lesson.hpp"

#include "sim/engine.hpp"
#include "sim/machine_config.hpp"
#include "sim/snapshot.hpp"

#include <string>
#include <variant>

namespace pcplab::lessons
{

struct engine_setup {
    sim::machine_config machine; // the resolved preset, era and switches
    sim::engine_config config; // ready for sim::engine / sim::lockstep_loop (events kept)
    sim::workload_factory make_load; // the workload with the step's tunables set
    double speed_vns_per_s = 0; // for a make_set_speed command (0 = as fast as possible)
};

// Resolves a setup; a message saying what cannot be honoured otherwise (unknown preset, a switch the era
// refuses, a workload parameter out of range, a sysctl the era does not have ...).
result<engine_setup> resolve_setup(const step_setup& s);

// Whether a snapshot comes from a machine set up with `s` (preset, modelled era, switches, workload,
// seed): the GUI panel ignores snapshots of the previous machine until this holds. Live flips change
// switches, so they are compared only when `with_switches`.
bool snapshot_matches(const engine_setup& s, const sim::snapshot& snap, bool with_switches = true);

// The workloads that end by themselves (run: finish needs one).
bool workload_finishes(const std::string& name);

} // namespace pcplab::lessons
