// Each seed's scenario (sim::seed_reference: preset, era, workload, switch) scaled down so that it runs in
// seconds: less memory per node (the same CPUs, topology, era and cost model), a bounded virtual time, and
// for the quick scale smaller still. One definition shared by `pcplab-cli patches` and the seed-reproduction
// tests, so what the tests assert is what the CLI reports.
#pragma once

#include "sim/engine.hpp"
#include "sim/machine_config.hpp"
#include "sim/run_summary.hpp"
#include "sim/seed_reference.hpp"

#include "mm/machine_spec.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pcplab::sim
{

enum class seed_scale { quick, full };

struct seed_plan {
    double gib_per_node = 0; // memory of each node of the scaled machine; 0 = the preset's own
    double intensity = 1.0;
    vtime_ns duration_ns = 0; // open-ended workloads run this long; finite ones stop here at the latest
    vtime_ns hold_threshold_ns = 1'000'000;
    std::vector<std::pair<std::string, double>> params; // workload tunables (workload::set_param)
    double forced_drain_hz = 0; // engine_config::forced_drain_hz
    std::string why; // one line: why these numbers
};

seed_plan plan_for_seed(const seed_reference& ref, seed_scale scale);

// kernbench with every job `f` times as long and as large (CPU time, heap, output).
std::vector<std::pair<std::string, double>> kernbench_scaled(double f);

// The preset's machine with `gib_per_node` of memory in every node (laid out as the preset loader does:
// holes, reservations and the memmap of the new size). A node already smaller keeps its size. Returns the
// spec unchanged for gib_per_node <= 0.
mm::machine_spec scale_machine_memory(const mm::machine_spec& spec, double gib_per_node);

// GiB of the largest node of a spec (present frames, holes excluded).
double largest_node_gib(const mm::machine_spec& spec);

// A seed's scenario, ready to run: the scaled machine resolved with the seed's switch off and on.
struct seed_scenario {
    const seed_reference* ref = nullptr;
    seed_plan plan;
    double preset_gib_per_node = 0; // the preset's own size, for the scale line
    mm::machine_spec spec; // the scaled machine
    machine_config off, on;
};

// The configuration of the scaled machine with the seed's era and its switch set to `on`; init_threads
// overrides the deferred-init threads per node (seed 004's sweep). A pcplab::error when it is refused.
config_result seed_machine_config(
    const seed_reference& ref, const mm::machine_spec& spec, bool on, std::optional<int> init_threads = {});

// Loads the seed's preset, scales it and resolves both sides. Throws std::runtime_error (naming the seed)
// when the preset cannot be loaded or a configuration is refused: both are defects of the seed tables.
seed_scenario make_seed_scenario(const seed_reference& ref, seed_scale scale);

// The engine configuration of one side of a scenario (cfg: sc.off, sc.on, or a variant of them), and a
// factory of its workload with the plan's parameters set (std::invalid_argument for a refused parameter).
engine_config seed_engine_config(const seed_scenario& sc, const machine_config& cfg);
workload_factory seed_workload_factory(const seed_scenario& sc);

// Boot the side (deferred init), run the workload for the plan's duration (a boot-only seed stops after
// boot), summarise. The configuration fields the engine does not know (preset, requested era, switch
// origins, workload parameters, stop reason, wall time) are filled in.
run_summary run_seed_side(const seed_scenario& sc, const machine_config& cfg);
inline run_summary run_seed_side(const seed_scenario& sc, bool on)
{
    return run_seed_side(sc, on ? sc.on : sc.off);
}

} // namespace pcplab::sim
