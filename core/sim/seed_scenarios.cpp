// The scale of each seed's scenario, and its two sides (switch off / on) as engine runs.
#include "sim/seed_scenarios.hpp"

#include "sim/boot_sysctl.hpp"
#include "sim/preset.hpp"
#include "sim/preset_layout.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <variant>

namespace pcplab::sim
{

namespace
{

constexpr double PAGES_PER_GIB = double(1UL << 30) / double(mm::PAGE_SIZE);
constexpr vtime_ns MS = 1'000'000;

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
//       every task does 4 loops and the rate is taken over them (page_fault1.cpp says why); 4.15-rc4
//       initialises 2 GiB per node early, so 8 or 16 GiB nodes have batch 31 as the seed's machines had;
//  002  as 000; high_min/high_max derive from the low watermark and managed/8, so memory stays generous;
//  003  stress-vm sizes itself to 1.2 x memory, so reclaim runs at any size; a pass ends in munmap, whose
//       frees overflow pcp->high and free up to batch << 5 pages in one hold (the seed's "2k+ pages");
//  004  modelled deferred-init time is linear in a node's pages: the speed-up does not depend on the size
//       (4.15-rc2 initialises 2 GiB per node early: at 4 GiB, node 0's Normal zone lies within it).
//  005  net-stream pairs every CPU with another: the scale keeps the CPUs and the era; the patched threshold
//       depends on high_min, which the low watermark per CPU sets (at least 4 x batch on these machines).
//  006  net-stream with CPU 0 forcing __drain_all_pages(NULL, true) 100 times a second, the mail's setup:
//       what is drained is what the pagesets hold between drains, which memory does not change.
//  007  frag-churn sizes its slabs and its ring from memory, so the polluted pageblocks and the stream that
//       falls back into them scale together; its measure times the stream alone, which starts once every CPU
//       has placed and punched its slabs (about 26 ms into the full-scale run).
//  008  bpf-any-context runs from power-on: the failures last as long as deferred init, which is linear in a
//       node's pages, so the scale sets how many there are; the overshoot depends on batch and high only.
//  009  jemalloc-purge's workers and purgers run at a steady state set by the dirty bound, not by memory.
//  010  net-stream with RX interrupts: the streams set how often a CPU holds its pcp->lock, the interrupts' rate
//       how often one lands in such a hold; memory does not matter beyond high_min.
//  011  page-fault1 with ten tasks (intensity 0.057 of 176 CPUs), as the mail's ten scripts: a refill's size
//       follows how long a task allocates without freeing (alloc_factor), which 8 GiB leaves room for.
seed_plan plan_for_seed(const seed_reference& ref, seed_scale scale)
{
    const bool quick = scale == seed_scale::quick;
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
        p.params = {{"mmap_mib", quick ? 4.0 : 16.0}, {"loops", 4}};
        p.duration_ns = quick ? 500 * MS : 1000 * MS; // a cap: the run ends when every task has done its loops
        p.why = "one task per CPU as in the seed (--quick: a quarter); 16 MiB loops instead of 128 MiB so that "
                "every task unmaps (the bulk frees) several times; 4 whole loops per task, timed, since the "
                "tasks move in convoy and a count at a fixed instant only moves by whole rounds";
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
    } else if (ref.id == "005") {
        p.gib_per_node = quick ? 4 : 16;
        p.intensity = 1.0;
        p.duration_ns = quick ? 100 * MS : 500 * MS;
        p.why = "every CPU streams to its pair: the frees run on the CPU that did not allocate; memory does not "
                "matter beyond high_min (from the low watermark), which sets the patched threshold";
    } else if (ref.id == "006") {
        p.gib_per_node = quick ? 4 : 16;
        p.intensity = 1.0;
        p.forced_drain_hz = 100;
        p.duration_ns = quick ? 200 * MS : 1000 * MS;
        p.why = "the mail's drain rate (about 100 a second) from CPU 0 while every CPU streams; memory does not "
                "matter beyond what the pagesets hold";
    } else if (ref.id == "007") {
        p.gib_per_node = quick ? 1 : 4;
        p.intensity = 1.0;
        p.duration_ns = quick ? 400 * MS : 1000 * MS;
        p.why = "the slabs and the file ring are shares of memory, so the fragmentation and the fallbacks do not "
                "depend on its size; the stream is timed from the moment every CPU has placed its slabs";
    } else if (ref.id == "008") {
        p.gib_per_node = quick ? 2 : 8;
        p.intensity = 1.0;
        p.duration_ns = quick ? 300 * MS : 1000 * MS;
        p.why = "the program runs from power-on, so its failures last as long as the largest node's deferred "
                "init (linear in its pages); the overshoot depends on batch and high, not on memory";
    } else if (ref.id == "009") {
        p.gib_per_node = quick ? 2 : 8;
        p.intensity = 1.0;
        p.params = {{"purgers", 4}};
        p.duration_ns = quick ? 100 * MS : 500 * MS;
        p.why = "every worker faults in and frees a bounded amount, so memory does not matter beyond holding the "
                "pageblocks the pagesets claim; two purgers a node, a handful for the machine";
    } else if (ref.id == "010") {
        p.gib_per_node = quick ? 2 : 8;
        p.intensity = 1.0;
        // E: a 10 GbE port at line rate with 1500-byte frames receives about 830 packets per ms; over 16 RX
        // queues about 50 per queue, one page each where no page pool recycles them.
        p.params = {{"rx_irq_pages_per_ms", 50}};
        p.duration_ns = quick ? 100 * MS : 500 * MS;
        p.why = "every CPU streams to its pair and takes RX interrupts at 50 pages per ms; what matters is how "
                "often an interrupt lands in a pcp->lock hold, which memory does not change";
    } else if (ref.id == "011") {
        p.gib_per_node = 8; // lesson 14's machine: the quick scale is the full one
        p.intensity = 0.057;
        p.duration_ns = quick ? 50 * MS : 100 * MS;
        p.why = "ten tasks fault in and unmap as the mail's ten scripts did; a refill grows with how long a task "
                "allocates without freeing, which 8 GiB leaves room for";
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
    std::vector<node_memory_request> req;
    bool changed = false;
    for (const auto& n : spec.nodes) {
        // present frames undercount the DIMMs of node 0 by the low holes; the layout adds them back.
        unsigned long have = node_pages(n);
        node_memory_request r;
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
    layout_x86_memory(out.nodes, req, version);
    // ZONE_MOVABLE (kernelcore=) cannot be larger than the node that holds it.
    out.movable_pages_per_node = std::min(out.movable_pages_per_node, want / 2);
    out.description
        = spec.description + " (scaled to " + std::to_string(static_cast<long>(gib_per_node)) + " GiB per node)";
    return out;
}

config_result seed_machine_config(
    const seed_reference& ref, const mm::machine_spec& spec, bool on, std::optional<int> init_threads)
{
    machine_options opts;
    opts.era = ref.era;
    if (ref.sw) opts.switches.push_back({*ref.sw, on});
    opts.init_threads = init_threads;
    if (!ref.sysctl) return make_machine_config(spec, opts);
    // A sysctl scenario: the sides boot with its two values, the switches at the era's defaults.
    mm::machine_spec with = spec;
    const std::string name = mm::vm_sysctl_name(ref.sysctl->name);
    const long value = on ? ref.sysctl->on : ref.sysctl->off;
    if (const status set = set_boot_sysctl(with, name, value); !set) return set.error();
    auto cfg = make_machine_config(with, opts);
    if (auto* c = std::get_if<machine_config>(&cfg))
        if (const status fits = check_sysctl(name, value, c->requested); !fits) return fits.error();
    return cfg;
}

seed_scenario make_seed_scenario(const seed_reference& ref, seed_scale scale)
{
    seed_scenario sc;
    sc.ref = &ref;
    sc.plan = plan_for_seed(ref, scale);
    auto loaded = load_preset(ref.preset);
    if (auto* err = std::get_if<pcplab::error>(&loaded))
        throw std::runtime_error("seed " + ref.id + ": preset " + ref.preset + ": " + err->str());
    const auto& preset = std::get<mm::machine_spec>(loaded);
    sc.preset_gib_per_node = largest_node_gib(preset);
    sc.spec = scale_machine_memory(preset, sc.plan.gib_per_node);
    for (bool on : {false, true}) {
        auto cfg = seed_machine_config(ref, sc.spec, on);
        if (auto* err = std::get_if<pcplab::error>(&cfg))
            throw std::runtime_error("seed " + ref.id + ": " + err->str());
        (on ? sc.on : sc.off) = std::get<machine_config>(std::move(cfg));
    }
    return sc;
}

engine_config seed_engine_config(const seed_scenario& sc, const machine_config& cfg)
{
    engine_config ec = engine_config_for(cfg);
    ec.workload = sc.ref->workload;
    ec.intensity = sc.plan.intensity;
    ec.hold_threshold_ns = sc.plan.hold_threshold_ns;
    ec.forced_drain_hz = sc.plan.forced_drain_hz;
    return ec;
}

workload_factory seed_workload_factory(const seed_scenario& sc)
{
    return [name = sc.ref->workload, params = sc.plan.params, id = sc.ref->id] {
        auto w = make_workload(name);
        if (!w) throw std::invalid_argument("seed " + id + ": unknown workload '" + name + "'");
        for (const auto& [key, value] : params) {
            if (const status set = w->set_param(key, value); !set)
                throw std::invalid_argument("seed " + id + ": " + name + " " + key + ": " + set.message());
        }
        return w;
    };
}

run_summary run_seed_side(const seed_scenario& sc, const machine_config& cfg)
{
    const auto wall_start = std::chrono::steady_clock::now();
    const bool boot_only = sc.ref->workload == "boot";
    engine e(seed_engine_config(sc, cfg), seed_workload_factory(sc));
    e.boot();
    std::string stop = "boot";
    // The boot workload runs while deferred init does (in virtual time): the boot is over when it completes.
    if (boot_only)
        while (e.deferred_init_pending() && e.step()) { }
    if (!boot_only) {
        stop = "duration";
        e.run_until(e.workload_start() + sc.plan.duration_ns);
        if (e.finished()) stop = "finished";
    }
    run_summary s = summarize_run(e);
    s.preset = sc.ref->preset;
    s.workload_params = sc.plan.params;
    s.requested_era = cfg.requested.str();
    for (unsigned i = 0; i < mm::NR_PATCHES; ++i) s.patch_origins.push_back(switch_origin_name(cfg.origin[i]));
    s.stop_reason = stop;
    s.wall_ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - wall_start).count();
    return s;
}

} // namespace pcplab::sim
