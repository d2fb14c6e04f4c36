// What one engine run measured, as plain figures: the totals, a per-zone table (limits and zone->lock
// figures with contention %), the workload's score and the deferred-init report. Written as JSON (one
// object) or readable text; K runs of the same configuration with consecutive seeds become mean and
// standard deviation of every figure. Shared by the CLI, the GUI and the session recorder.
#pragma once

#include "mm/lock_ops.hpp"
#include "sim/metrics.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace pcplab::sim
{

class engine;

// One caller's share of a zone->lock (only callers that took it appear).
struct caller_summary {
    std::string name; // mm::lock_caller_name
    std::uint64_t holds = 0;
    std::uint64_t hold_ns_total = 0;
    std::uint64_t max_pages = 0; // largest single hold, in pages
};

struct zone_summary {
    int node = 0;
    int zone = 0; // zone_type
    std::string name; // "Normal"
    unsigned long managed_pages = 0;
    // The zone's pageset limits (zone->pageset_batch/high; with pcp-high-autotune also high_min/high_max,
    // and the mean of every CPU's current pcp->high, which floats between them).
    int batch = 0, high = 0;
    bool autotune = false;
    int high_min = 0, high_max = 0;
    double pcp_high_mean = 0;
    unsigned long pcp_pages = 0; // pages on this zone's PCP lists, all CPUs, at the end

    // zone->lock
    std::uint64_t acquisitions = 0, contended = 0;
    std::uint64_t wait_ns_total = 0, wait_ns_max = 0;
    std::uint64_t hold_ns_total = 0, hold_ns_max = 0, hold_ns_p99 = 0;
    std::uint64_t max_pages_per_hold = 0, holds_over_threshold = 0, waits_over_threshold = 0;
    // The hold-time distribution: element i counts holds in [2^i, 2^(i+1)) ns, up to the last non-empty bucket.
    std::vector<std::uint64_t> hold_hist_log2;
    std::uint64_t waiting_ns = 0; // time during which some CPU waited
    double contention_pct = 0; // waiting_ns / virtual time
    std::vector<caller_summary> callers;
};

struct run_totals {
    std::uint64_t allocs = 0, frees = 0, alloc_failures = 0;
    std::uint64_t pcp_hits = 0, zone_allocs = 0, refills = 0, drains = 0;
    std::uint64_t free_high_drains = 0, pcp_resident_pages = 0, reclaimed_pages = 0;
    // pcp_spin_trylock failures (v6.0+: the pageset was held by another CPU, so the caller went to the buddy
    // lists) and drain work items queued on CPUs other than the draining one.
    std::uint64_t pcp_trylock_failures = 0, remote_work_items = 0;
    // v6.15+ __rmqueue_claim searches (the top-down search for a fallback block to claim), every CPU.
    std::uint64_t claim_searches = 0;
    // Calls from any context (v6.15 alloc-pages-nolock): failures, spinning and pcp->high overshoot.
    any_context_metrics any_context;
    // Interrupt-context allocations (workload::irq_pages) and how long IRQs-off lock holds delayed them.
    irq_metrics irq;
    std::uint64_t sys_ns = 0, user_ns = 0, idle_ns = 0, spin_ns = 0; // summed over CPUs
    std::uint64_t elapsed_ns = 0; // virtual time of the run
    double score = 0; // work units per virtual second
};

struct boot_node_summary {
    int node = 0;
    int threads = 0;
    unsigned long pages = 0;
    double modelled_ms = 0; // deferred-init time on the preset's machine (cost model)
    double host_ms = 0; // wall time on this host: not deterministic
    std::uint64_t done_at_ns = 0; // the virtual time (since power-on) the node's init is modelled to end
};

struct run_summary {
    std::string preset;
    std::string era; // the modelled era
    std::string requested_era; // the version asked for ("5.4.0-rc3")
    std::vector<std::pair<std::string, bool>> patches; // every switch, by name, in patch order
    std::vector<std::string> patch_origins; // "era default", "preset", "user" (same order; may be empty)
    int init_threads = 0;
    std::string workload;
    std::vector<std::pair<std::string, double>> workload_params; // tunables set for this run (others: defaults)
    double intensity = 1.0;
    std::uint64_t seed = 1;
    std::uint64_t hold_threshold_ns = 0;
    std::string stop_reason; // "duration", "work", "finished"

    std::uint64_t sim_time_ns = 0; // the workload's virtual time (from workload_start_ns)
    std::uint64_t events = 0;
    // The boot on the virtual time axis (ns since power-on; sim/boot_timeline.hpp): the early part ends and
    // deferred init starts, deferred init ends, the workload starts (its time is sim_time_ns from there).
    std::uint64_t deferred_init_start_ns = 0, init_end_ns = 0, workload_start_ns = 0;
    bool continuous = false; // engine_config::continuous
    std::uint64_t rounds = 0; // rounds of a finite workload that finished (continuous mode)
    double wall_ns = 0; // host time of boot + run: not deterministic

    run_totals totals;
    double work_units = 0;
    std::string score_unit; // "iterations", "jobs", ...
    std::string seed_measure; // "elapsed", "iterations", "bogo ops" (empty when the workload has none)
    double seed_measure_value = 0;

    std::vector<zone_summary> zones;
    // Every pcp->lock together (v6.0+: the PCP lists have their own spinlock, taken with trylock).
    bool has_pcp_lock = false;
    struct pcp_lock_summary {
        std::uint64_t acquisitions = 0, contended = 0, wait_ns_total = 0, hold_ns_total = 0;
    } pcp_lock;
    std::vector<boot_node_summary> boot;
};

// The figures of a booted, run engine. Configuration fields that the engine does not know (preset name,
// requested era, switch origins, stop reason, wall time) are left for the caller to fill in.
run_summary summarize_run(engine& e);

// One JSON object (one line): preset, era, requested_era, patches{name: bool}, init_threads, workload,
// intensity, seed, hold_threshold_ns, stop_reason, sim_time_ns, events, wall_ns, boot_times{deferred_init_start_ns,
// init_end_ns, workload_start_ns}, (continuous: rounds), totals{...}, work_units, score_unit,
// seed_measure{name, value}, zones[{node, zone, managed_pages, batch, high (high_min, high_max, pcp_high_mean
// with autotune), pcp_pages, lock{...}, contention_pct, callers{name: {...}}}], boot[...].
std::string run_summary_json(const run_summary& s);

// K runs of one configuration (seeds seed .. seed+K-1): the same object, with every numeric figure replaced
// by {"mean": M, "stddev": S} (sample standard deviation, 0 for K = 1), except the fields that name the
// configuration (seed, intensity, hold_threshold_ns, init_threads, node, zone), which keep the first run's
// value; "repeat": K and "seeds": [...] are added. Strings that differ between runs become arrays.
std::string run_repeat_json(const std::vector<run_summary>& runs);

// Readable summaries of the same content (a repeat shows "mean ± stddev" in every figure).
std::string run_summary_text(const run_summary& s);
std::string run_repeat_text(const std::vector<run_summary>& runs);

// Mean and sample standard deviation (n - 1); stddev 0 for fewer than two values.
struct mean_stddev {
    double mean = 0, stddev = 0;
};
mean_stddev compute_mean_stddev(const std::vector<double>& values);

} // namespace pcplab::sim
