// The published numbers of each seed patch (shared/reference/seed-results.md, quoted from the seed mails) as
// data, and how a simulated switch-off / switch-on pair of runs is set against them. Shared by
// `pcplab-cli patches`, the GUI's seed views and the lessons, so all of them judge agreement the same way.
#pragma once

#include "sim/run_summary.hpp"

#include "mm/patch_switches.hpp"
#include "mm/sysctl_bounds.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pcplab::sim
{

// What the seed claims about a figure when its switch goes from off to on.
enum class expected_change {
    decrease, // on < off by a margin (and, with a published change, of a comparable size)
    increase,
    neutral, // |change| within the neutral band
    neutral_or_better, // change >= -neutral band (a "higher is better" figure)
    exact, // on (and off, where published) must equal the published values
    at_most_bound, // on must not exceed the `bound_key` figure of the on run (e.g. pages per hold <= batch)
};
const char* expected_change_name(expected_change e);

// How a change is expressed: percent ((on - off) / off) or a speed-up factor (off / on, for times).
enum class change_form { percent, factor };

struct published_figure {
    std::string key; // the simulated figure it is compared with (see simulated_figure)
    std::string label; // "system CPU time"
    std::string unit; // unit of the published values: "s", "ms", "%", "iterations", "pages"
    std::optional<double> off, on; // published values where the seed gives them
    bool off_is_lower_bound = false; // "2k+ pages": off is at least this
    std::optional<double> change; // published change in `form` (percent or factor); nullopt: direction only
    change_form form = change_form::percent;
    expected_change expect = expected_change::decrease;
    std::string bound_key; // at_most_bound: the simulated figure that bounds `on`
    // The published values can be set beside simulated ones as they are (a %, a batch size), rather than
    // only their change (seconds of a 256-CPU kernbench vs virtual milliseconds of a scaled run).
    bool values_comparable = false;
    std::string source; // where the number comes from: "seed 000 mail, mmtests kernbench Amean syst-256"
    // What is known about how the model's figure relates to the published one (shown with the comparison):
    // a difference of setup between the seed's measurement and the modelled era, or how it is measured.
    std::string model_note;
};

// A scenario whose two sides differ by a vm.* setting at boot rather than by a switch (the batch scale, a build
// option that a proposal made a sysctl): A boots with `off`, B with `on`, every switch at the era's default.
struct sysctl_sides {
    mm::vm_sysctl name = mm::vm_sysctl::pcp_batch_scale_max;
    long off = 0, on = 0;
};

struct seed_reference {
    std::string id; // "000"
    std::string title;
    std::string author; // "Mel Gorman, Oct 2019"
    // What differs between the sides: the switch turned off and on, or a sysctl's two values; exactly one is set.
    std::optional<mm::patch> sw;
    std::optional<sysctl_sides> sysctl;
    std::string preset; // the machine preset that reproduces the seed's machine
    std::string era; // the kernel version the seed measured on ("5.4.0-rc3")
    std::string workload; // the pcplab workload ("kernbench"); "boot" for a boot-only seed
    std::string machine; // as published: "2-socket AMD EPYC 2, 256 logical CPUs, 2 NUMA nodes"
    std::string benchmark; // as published: "kernbench, make -j256 (mmtests config-workload-kernbench-max)"
    std::vector<published_figure> figures;
};

// The five seeds and the later patches with a scenario (005: the free_high threshold, 006: the remote drain,
// 007: the fallback mode rmqueue_bulk keeps, 008: allocation from any context, 009: the pcp buddy allocator RFC,
// 010: IRQs left on under pcp->lock, 011: the batch scale as a sysctl), in id order.
const std::vector<seed_reference>& seed_references();
// What the two sides differ by, for a line of text: "pcp-buddy off / on", "vm.pcp_batch_scale_max 5 / 0".
std::string sides_label(const seed_reference& ref);
// The switch's name, or the sysctl's ("vm.pcp_batch_scale_max"): the `switch` of `pcplab-cli patches --json`.
std::string control_name(const seed_reference& ref);

// A seed by id ("000", or "0", "4" ...); nullptr when there is none.
const seed_reference* find_seed_reference(std::string_view id);

// The simulated value of a figure key in one run; nullopt when the run has nothing to measure it (a
// boot-only run has no lock figures). Keys:
//   sys_ns, user_ns, elapsed_ns, score, seed_measure     totals / the workload's own measure
//   build_elapsed_s          kernbench's elapsed seconds, only for a run that finished
//   zone_allocs, free_high_drains, pcp_resident_pages    totals
//   pcp_trylock_failures, remote_work_items              totals (pcp->lock trylocks lost; drain work on others)
//   claim_searches_per_refill  __rmqueue_claim searches per PCP refill (v6.15+)
//   any_context_failures, any_context_failures_deferred_init, any_context_spin_ns,
//   any_context_over_high_pages_max, any_context_over_high_ns_max   calls from any context (v6.15 nolock)
//   zone_lock_acq_per_1000_allocs  zone->lock acquisitions (every zone) per 1000 allocations
//   zone_lock_acquisitions   zone->lock acquisitions, every zone
//   refill_latency_mean_ns   mean rmqueue_bulk hold + mean zone->lock wait per acquisition, every zone
//   irq_pcp_fallbacks, irq_delay_ns_max, irq_delay_ns_total, irq_irqs_off_ns_max, irq_irqs_off_ns_total
//                            interrupt-context allocations (v6.2 pcp-lock-irqs-enabled, engine_irq.cpp)
//   spin_pct                 lock waiting as a share of busy (system + user) time, %
//   zone_lock_wait_ns        wait on every zone->lock, summed
//   contention_pct           the largest zone->lock contention % of the run
//   normal_batch             the smallest batch of the Normal zones (seed 000's stale batch 7)
//   fpb_hold_mean_ns         mean zone->lock hold inside free_pcppages_bulk
//   covered_max_pages        largest single hold, in pages, of the callers seed 003 batches
//                            (free_pcppages_bulk, drain_pages_zone, decay_pcp_high, drain_zone_pages)
//   max_batch                the largest zone batch (the bound seed 003 promises)
//   hold_ns_max, hold_ns_p99, holds_over_threshold      over every zone->lock
//   wait_ns_max, waits_over_threshold                    over every zone->lock
//   holds_from_131us         zone->lock holds of 2^17 ns or more (hold_hist_log2's upper buckets)
//   deferred_init_max_ms     the slowest node's modelled deferred-init time
std::optional<double> simulated_figure(const run_summary& run, std::string_view key);
// zone->lock holds of at least 2^log2_ns ns, over every zone (exact: a log2 bucket edge).
std::uint64_t zone_lock_holds_from(const run_summary& run, unsigned log2_ns);

// The margins of the verdicts (documented in README "pcplab-cli patches").
inline constexpr double NO_EFFECT_PCT = 1.0; // a change smaller than this is no change
inline constexpr double NEUTRAL_PCT = 2.0; // what counts as neutral
inline constexpr double MAGNITUDE_FACTOR = 3.0; // simulated change within 1/3x .. 3x of the published one

struct figure_comparison {
    const published_figure* fig = nullptr;
    std::optional<double> sim_off, sim_on;
    std::optional<double> sim_change; // in fig->form
    std::optional<double> ratio; // sim change / published change (exact: sim on / published on)
    bool agrees = false;
    std::string disagreement; // empty when agrees: "direction: published -69.2%, simulated +3.1%"
};

// The change between two values in a form; nullopt when it is undefined (off == 0, or on == 0 for factor).
std::optional<double> change_between(double off, double on, change_form form);

// Compare one published figure with the switch-off and switch-on runs.
figure_comparison compare_figure(const published_figure& fig, const run_summary& off, const run_summary& on);

} // namespace pcplab::sim
