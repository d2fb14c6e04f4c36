// How `pcplab-cli seeds` scales each seed's scenario down so that it runs in seconds: less memory per node
// (the same CPUs, topology, era and cost model), a bounded virtual time, and for --quick smaller still.
#pragma once

#include "mm/machine_spec.hpp"
#include "sim/seed_reference.hpp"
#include "sim/workload.hpp"

#include <string>
#include <utility>
#include <vector>

namespace pcplab::cli
{

struct seed_plan {
    double gib_per_node = 0; // memory of each node of the scaled machine; 0 = the preset's own
    double intensity = 1.0;
    sim::vtime_ns duration_ns = 0; // open-ended workloads run this long; finite ones stop here at the latest
    sim::vtime_ns hold_threshold_ns = 1'000'000;
    std::vector<std::pair<std::string, double>> params; // workload tunables (sim::workload::set_param)
    std::string why; // one line: why these numbers
};

seed_plan plan_for_seed(const sim::seed_reference& ref, bool quick);

// The preset's machine with `gib_per_node` of memory in every node (laid out as the preset loader does:
// holes, reservations and the memmap of the new size). A node already smaller keeps its size. Returns the
// spec unchanged for gib_per_node <= 0.
mm::machine_spec scale_machine_memory(const mm::machine_spec& spec, double gib_per_node);

// GiB of the largest node of a spec (present frames, holes excluded).
double largest_node_gib(const mm::machine_spec& spec);

} // namespace pcplab::cli
