#include "run_seed_plan.hpp"

#include "sim/preset_layout.hpp"

#include <algorithm>
#include <cmath>

namespace pcplab::cli
{

namespace
{

constexpr double PAGES_PER_GIB = double(1UL << 30) / double(mm::PAGE_SIZE);
constexpr sim::vtime_ns MS = 1'000'000;

unsigned long node_pages(const mm::node_spec& n)
{
    unsigned long p = 0;
    for (const auto& r : n.memory) p += r.pages();
    return p;
}

} // namespace

// kernbench with every job `f` times as long and as large (CPU time, heap, output): the build's allocation
// rate per CPU-millisecond, and so its pressure on zone->lock, stays the seed's; only the build is shorter.
std::vector<std::pair<std::string, double>> kernbench_scaled(double f)
{
    return {{"job_ms_min", 250 * f}, {"job_ms_max", 750 * f}, {"anon_mib_min", 32 * f}, {"anon_mib_max", 96 * f},
        {"output_kib_min", std::max(4.0, 256 * f)}, {"output_kib_max", std::max(4.0, 2048 * f)}};
}

// The scale of each seed. Memory is what makes a boot slow (the memmap is really initialised) and what a
// workload must fill before reclaim starts; CPUs are kept, since contention comes from how many CPUs share
// a zone->lock. Each size keeps the mechanism the seed is about:
//  000  a Normal zone of >= 1 GiB still reaches batch 63 (and its first 128 MiB section gives batch 7);
//       kernbench's jobs are shortened (kernbench_scaled) so the build finishes and has an elapsed time;
//  001  page_fault1 loops over 16 MiB instead of 128 MiB: a loop is fault-in then munmap either way, and the
//       munmap's PCP overflow into free_pcppages_bulk (the patched path) then happens many times per run;
//  002  as 000; high_min/high_max derive from the low watermark and managed/8, so memory stays generous;
//  003  stress-vm sizes itself to 1.2 x memory, so reclaim runs at any size; a pass ends in munmap, whose
//       frees overflow pcp->high and free up to batch << 5 pages in one hold (the seed's "2k+ pages");
//  004  modelled deferred-init time is linear in a node's pages: the speed-up does not depend on the size.
seed_plan plan_for_seed(const sim::seed_reference& ref, bool quick)
{
    seed_plan p;
    if (ref.id == "000") {
        p.gib_per_node = quick ? 4 : 16;
        p.intensity = quick ? 0.25 : 1.0;
        p.params = kernbench_scaled(quick ? 0.04 : 0.1);
        p.duration_ns = quick ? 1000 * MS : 5000 * MS;
        p.why = "Normal zones >= 1 GiB (batch 63 once recalculated); jobs shortened, same allocation rate";
    } else if (ref.id == "001") {
        p.gib_per_node = quick ? 8 : 16;
        p.intensity = quick ? 0.25 : 1.0;
        p.params = {{"mmap_mib", quick ? 4.0 : 16.0}};
        p.duration_ns = quick ? 50 * MS : 150 * MS;
        p.why = "one task per CPU as in the seed (--quick: a quarter); 16 MiB loops instead of 128 MiB so that "
                "every task unmaps (the bulk frees) many times within the run";
    } else if (ref.id == "002") {
        p.gib_per_node = quick ? 8 : 32;
        p.intensity = quick ? 0.25 : 1.0;
        p.params = kernbench_scaled(quick ? 0.04 : 0.1);
        p.duration_ns = quick ? 1000 * MS : 5000 * MS;
        p.why = "jobs shortened, same allocation rate; high_min/high_max scale with memory";
    } else if (ref.id == "003") {
        p.gib_per_node = quick ? 4 : 16;
        p.intensity = 1.0;
        // Long enough for workers to finish passes (munmap: the frees that overflow pcp->high) and for the
        // vmstat ticks (decay_pcp_high, once a virtual second).
        p.duration_ns = quick ? 200 * MS : 2000 * MS;
        p.why = "stress-vm sizes itself to 1.2 x memory so reclaim runs; high_max = managed/8/316 CPUs";
    } else if (ref.id == "004") {
        p.gib_per_node = quick ? 4 : 32; // 4: node 0 still has a Normal zone above the PCI hole
        p.intensity = 1.0;
        p.duration_ns = 0;
        p.why = "modelled deferred-init time is linear in a node's pages: the speed-up is independent of the size";
    }
    return p;
}

double largest_node_gib(const mm::machine_spec& spec)
{
    unsigned long most = 0;
    for (const auto& n : spec.nodes) most = std::max(most, node_pages(n));
    return static_cast<double>(most) / PAGES_PER_GIB;
}

mm::machine_spec scale_machine_memory(const mm::machine_spec& spec, double gib_per_node)
{
    if (gib_per_node <= 0) return spec;
    mm::machine_spec out = spec;
    const auto want = static_cast<unsigned long>(std::floor(gib_per_node * PAGES_PER_GIB));
    std::vector<sim::node_memory_request> req;
    bool changed = false;
    for (const auto& n : spec.nodes) {
        // present frames undercount the DIMMs of node 0 by the low holes; the layout adds them back.
        unsigned long have = node_pages(n);
        sim::node_memory_request r;
        r.pages = std::min(want, have);
        changed = changed || r.pages != have;
        req.push_back(r);
    }
    if (!changed) return spec;
    for (auto& n : out.nodes) {
        n.memory.clear();
        n.reserved.clear();
    }
    auto version = mm::kernel_version::parse(spec.era).value_or(mm::kernel_version{6, 7, 0, 0});
    sim::layout_x86_memory(out.nodes, req, version);
    // ZONE_MOVABLE (kernelcore=) cannot be larger than the node that holds it.
    out.movable_pages_per_node = std::min(out.movable_pages_per_node, want / 2);
    out.description
        = spec.description + " (scaled to " + std::to_string(static_cast<long>(gib_per_node)) + " GiB per node)";
    return out;
}

} // namespace pcplab::cli
