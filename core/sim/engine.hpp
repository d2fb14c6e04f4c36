// The machine in virtual time: every simulated CPU has its own clock; the engine always advances the CPU
// that is furthest behind, performs its next action on the real allocator and charges its cost. Locks are
// granted in request order in virtual time, so contention emerges from queueing. One engine = one host
// thread; several engines can run side by side. Deterministic: wall-clock time never enters the logic.
//
// Virtual time starts at power-on (boot_timeline.hpp says what the boot counts): the boot's events carry
// their instants on that axis, and the CPUs' clocks start where the workload starts (timeline()). Every
// rule of the run is relative to that start (the vmstat ticks' phase included), so a run's results do not
// depend on how long its boot took.
#pragma once

#include "sim/boot_timeline.hpp"
#include "sim/cost_model.hpp"
#include "sim/metrics.hpp"
#include "sim/workload.hpp"

#include "mm/machine.hpp"
#include "mm/sysctl_bounds.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pcplab::sim
{

struct boot_observer; // sim/machine_config.hpp

struct engine_config {
    mm::machine_spec spec;
    mm::kernel_version era;
    mm::kernel_version formulas{}; // an older kernel's formulas (mm::formulas_of), {} = the era's own
    mm::patch_set patches;
    std::string workload = "kernbench";
    double intensity = 1.0;
    std::uint64_t seed = 1;
    std::vector<int> cpus; // CPUs the workload runs on; empty = all
    vtime_ns hold_threshold_ns = 1'000'000; // a "softlockup-like" hold length (settable)
    bool keep_holds = false; // keep every lock_hold_record (lanes view, traces)
    // With keep_holds: also the pcp->lock holds that neither waited nor were taken on another CPU's pageset.
    // From v6.0 every PCP allocation and free takes its own CPU's pcp->lock, so these are nearly all the holds
    // (99.9% under kernbench on intel-2s-224, 13 M a virtual second) and no view draws them.
    bool keep_plain_pcp_holds = true;
    bool keep_events = true;
    // Events kept and not yet released (engine::release_events); later ones are counted in events_dropped.
    std::size_t max_events = 1'000'000;
    // Hold records kept and not yet released (engine::release_holds); later ones count in holds_dropped().
    std::size_t max_holds = 2'000'000;
    std::optional<cost_model> costs; // nullopt: cost_model_for(spec)
    // A finite workload (kernbench, boot, ...) that finishes starts a new round on the same machine instead
    // of ending the run (engine::start_round); virtual time goes on. Off: the run ends when it finishes.
    bool continuous = false;
    // CPU 0 calls __drain_all_pages(NULL, true) this many times a virtual second once the workload runs, as
    // the test module of the remote-drain patch's measurement did (scenario 006); 0: never.
    double forced_drain_hz = 0;
};

inline constexpr vtime_ns NS_PER_SEC = 1'000'000'000;

// Makes a fresh workload (at construction and at every reboot).
using workload_factory = std::function<std::unique_ptr<workload>()>;

class engine
{
public:
    // Throws std::invalid_argument for an unknown workload name or CPU id.
    explicit engine(const engine_config& cfg);
    // With a workload of one's own instead of cfg.workload (tests, custom workloads).
    engine(const engine_config& cfg, workload_factory make_load);
    ~engine();
    engine(const engine&) = delete;
    engine& operator=(const engine&) = delete;

    // Boot the allocator (real deferred-init threads) and attach the workload. Modelled deferred-init time
    // per node is reported in boot_report(), the boot's instants in timeline().
    void boot();
    // The same boot, watched: obs->on_setup is called once setup_per_cpu_pageset has run (before the
    // deferred-init threads start), obs->on_progress on this thread every obs->interval while the threads
    // run (they count their frames in atomics) and once when they are done. The result does not depend on
    // the watching. A null `obs` is boot().
    void boot(const boot_observer* obs);
    struct boot_node_report {
        int node = 0;
        int threads = 0;
        unsigned long pages = 0;
        double modelled_ms = 0;
        double host_ms = 0;
        // The virtual time (power-on axis) the node's deferred init is modelled to end; it started at
        // timeline().deferred_init_start_ns (boot_timeline.hpp).
        vtime_ns done_at = 0;
    };
    const std::vector<boot_node_report>& boot_report() const;
    // The boot's instants on the virtual time axis (boot_timeline.hpp); known once boot() has run.
    const boot_times& timeline() const;
    vtime_ns workload_start() const { return timeline().workload_start_ns; }
    // Deferred init has not completed yet (only for a workload that starts during it, until the virtual
    // time timeline().init_end_ns). Its frames are not free yet, the watermarks not set.
    bool deferred_init_pending() const;
    // A fresh machine with the current switches and sysctls (parallel-deferred-init takes effect here), a
    // fresh workload of the same kind, metrics and clocks back to zero; then boot().
    void reboot();

    // Run one step of the CPU furthest behind (its vmstat tick, a reclaim batch, a piece of a compute or idle
    // period, or one workload action); false when the workload has finished everywhere. Boots first if
    // boot() was not called.
    bool step();
    // Run until the slowest CPU's clock reaches `t` (virtual time since power-on; or the workload finishes). A
    // CPU's compute or idle period is one step, so it may take that CPU's clock past `t`: a run that ends here
    // calls end_at(t).
    void run_until(vtime_ns t);
    // Boot if needed, then run for `d` more: run_until(now() + d). On a fresh engine, `d` of the workload.
    void run_for(vtime_ns d);
    // Ends the run at `t` (after run_until(t)): every compute or idle period that reaches past `t` is cut there,
    // as a wake-up cuts an idle period short, so that the run's figures end at `t` and now() is `t` (an
    // allocator action is never cut: a CPU in one may stand a little past `t`). Stepping on continues the
    // cut periods.
    void end_at(vtime_ns t);
    vtime_ns now() const; // the smallest CPU clock (virtual time since power-on)
    // Virtual time the workload has run, from workload_start() to now(), or for a finished workload to the
    // clock at which the last CPU finished.
    vtime_ns elapsed() const;
    bool finished() const;
    // A finished finite workload starts again on the same machine: a fresh instance of it (same kind, knobs
    // and seed), every CPU of the workload taking part, from the instant the last round finished; an event
    // marks it. Returns false (nothing done) when the workload has not finished. With
    // engine_config::continuous the engine does this itself whenever a round finishes.
    bool start_round();
    void set_continuous(bool on);
    std::uint64_t rounds_done() const; // rounds of the workload that have finished
    std::uint64_t events_processed() const; // steps run so far

    // Live control (call from the engine's thread; the engine thread wrapper queues them).
    // Semantics documented in engine_control.cpp. Returns why the switch means nothing on this machine's era
    // ("" when it acts): the one place a live flip's applicability is decided, answered in its command result.
    std::string set_patch(mm::patch p, bool on);
    void set_intensity(double intensity);
    status set_sysctl(mm::vm_sysctl s, long value); // ok, or why the write is refused
    status set_sysctl(const std::string& name, long value); // by name (lesson files, tests): the same

    const engine_config& config() const;
    mm::machine& machine();
    const cost_model& costs() const;
    std::shared_ptr<const cost_model> shared_costs() const; // the same model, for snapshots to share
    const cost_rates& rates() const;
    const std::vector<lock_metrics>& zone_locks() const; // one per populated zone
    const lock_metrics& pcp_locks() const; // all pcp->locks together (v6.0+)
    const std::vector<cpu_metrics>& cpus() const;
    const global_metrics& totals() const; // pcp_resident_pages is counted when called
    // In the order they happened on the host: each CPU's events are in time order, but two CPUs' events
    // may interleave slightly out of virtual-time order (each carries its own CPU's clock).
    // Events and hold records are numbered from 0 in the order they were recorded; these vectors hold the
    // ones from events_released() / holds_released() on (all of them until something releases).
    const std::vector<sim_event>& events() const;
    const std::vector<lock_hold_record>& holds() const;
    // Frees the events numbered below `upto` that can no longer change, once every reader has copied them
    // (the snapshot builder does, snapshot_options::release_published), so a long live run keeps flat
    // memory. A pcp->high change is folded with later ones of the same CPU, zone, cause and virtual second
    // (engine_control.cpp), so one whose second is not over yet stays until it is; nothing else waits.
    // Releasing never changes what is recorded afterwards.
    void release_events(std::uint64_t upto);
    std::uint64_t events_released() const; // the number of the first event in events()
    void release_holds(std::uint64_t upto);
    // Moves every kept hold record into `out`, which must be empty (its memory becomes the engine's log), and
    // counts them released: how a reader that takes them all gets them without copying (a recording keeps
    // tens of thousands per snapshot on a contended machine).
    void take_holds(std::vector<lock_hold_record>& out);
    std::uint64_t holds_released() const;
    std::uint64_t holds_dropped() const; // hold records not kept: over engine_config::max_holds
    // All allocator work done since boot (struct page touches: hits of the cache model vs misses, ...).
    const mm::mm_work& work_done() const;
    workload_score score() const;
    const workload& load() const;

private:
    struct impl; // core/sim/engine_impl.hpp
    std::unique_ptr<impl> m_impl;
};

} // namespace pcplab::sim
