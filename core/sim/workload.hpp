// A workload: what the tasks on each simulated CPU do, one action at a time. The engine executes the
// actions on the real allocator and charges their cost in virtual time.
#pragma once

#include "base/error.hpp"

#include "mm/mm_types.hpp"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pcplab::sim
{

using vtime_ns = std::uint64_t; // virtual nanoseconds

struct cpu_action {
    enum class kind : std::uint8_t {
        alloc, // allocate one block of `order`, migratetype `mt`, zones up to `highest_zone`
        free, // free the block at `pfn` (order `order`)
        compute, // user time: `ns` of work that touches no allocator state
        idle, // nothing to run for `ns`
        done, // this CPU's work is finished (the engine stops asking)
    };
    kind k = kind::idle;
    std::uint8_t order = 0;
    std::uint8_t mt = mm::MIGRATE_MOVABLE;
    std::uint8_t highest_zone = mm::ZONE_MOVABLE;
    // alloc / free from a context that may not spin or sleep (a BPF program in a tracepoint or NMI): with the
    // alloc-pages-nolock switch alloc_pages_nolock / free_pages_nolock (order <= 3, always UNMOVABLE up to
    // ZONE_NORMAL); without it the ordinary paths with `mt` and `highest_zone`.
    bool any_context = false;
    mm::pfn_t pfn = mm::NO_PFN;
    // free: the block this CPU frees next, where the workload knows it. Only a host prefetch hint (the
    // engine starts loading its struct page a whole round of CPUs early); it never changes a result.
    mm::pfn_t next_pfn = mm::NO_PFN;
    vtime_ns ns = 0;
};

// What a workload knows of the machine it runs on.
struct workload_env {
    int nr_cpus = 0;
    std::vector<int> cpus; // the CPUs it runs on (default: all)
    std::vector<int> cpu_node; // node of every CPU
    unsigned long total_pages = 0; // managed pages of the machine after boot
    std::uint64_t seed = 1;
    double intensity = 1.0; // 0..1+: scales task count / sizes where meaningful
    double user_ns_per_page = 0; // cost of writing one 4 KiB page (clear_page), from the cost model
    // The time user work takes alone on its core, as a share of its time beside a busy SMT sibling
    // (smt.pair_throughput / 2; 1 without SMT): turns CPU times measured on a fully loaded SMT machine into
    // the engine's unit, the time alone (the engine stretches it again while the sibling is busy).
    double smt_alone_share = 1;
};

// A tunable of a workload (documented at the top of its file). 0 usually means "derive from the machine".
struct workload_param {
    std::string key; // e.g. "workers", "vm_mib"
    double value = 0; // the current setting
    std::string what; // one line: what it sets and its default
};

// The workload's own measure and a generic score.
struct workload_score {
    double work_units = 0; // e.g. iterations, jobs, bogo ops
    std::string unit; // "iterations", "jobs", "bogo ops", "pages"
    std::string seed_measure; // e.g. "elapsed" for kernbench
    double seed_measure_value = 0;
};

// Page allocations a workload raises in interrupt context on each of its CPUs (a NIC refilling its RX ring from
// its interrupt handler): arrivals per millisecond of virtual time and CPU, and the ring's length (each
// interrupt frees the page taken `ring` interrupts earlier on its CPU, then takes a new one). 0: none.
struct irq_load {
    double pages_per_ms = 0;
    unsigned ring = 0;
};

class workload
{
public:
    virtual ~workload() = default;
    virtual std::string_view name() const = 0;
    virtual void attach(const workload_env& env) = 0;
    // The next thing `cpu` does at virtual time `now`.
    virtual cpu_action next(int cpu, vtime_ns now) = 0;
    // The result of the last alloc action of `cpu` (NO_PFN when it failed).
    virtual void allocated(int cpu, mm::pfn_t pfn, vtime_ns now) = 0;
    // Reclaim asks for up to `nr` pages back (they are freed by the reclaimer); the workload forgets them
    // (a later touch faults them in again). Returns the blocks given up, as (pfn, order).
    virtual std::vector<std::pair<mm::pfn_t, unsigned>> reclaim(std::size_t nr) { return {}; }
    virtual workload_score score(vtime_ns elapsed) const = 0;
    // True when every CPU is done (finite workloads such as kernbench or boot).
    virtual bool finished() const { return false; }

    // Additions (backwards compatible; the defaults suit a workload without them).
    // Tunables; set_param before attach() (values take effect there). Ok, or what is wrong.
    virtual std::vector<workload_param> params() const { return {}; }
    virtual status set_param(std::string_view key, double value) { return pcplab::error("unknown parameter"); }
    // Live intensity change: applies from each CPU's next task / pass / burst on.
    virtual void set_intensity(double intensity) { }
    // Everything the workload still holds, as (pfn, order), for the engine to free when it replaces or stops
    // the workload (its tasks are killed). The workload forgets them; afterwards next() returns done.
    virtual std::vector<std::pair<mm::pfn_t, unsigned>> release_all() { return {}; }
    // What is wrong with the settings (tunables and intensity) on the machine `env` describes: a setting that
    // would change nothing, or ask for more than the machine has; "" when none. The engine refuses to attach a
    // workload with a problem (workload_error); a front end asks before the boot (planned_workload_env), when
    // env.total_pages is what the machine's memory less its reservations will give.
    virtual status settings_problem(const workload_env& env) const { return {}; }
    // True for a workload that starts while deferred struct-page init is still running (`boot`): the engine
    // then attaches it right after setup_per_cpu_pageset, at virtual time 0, and completes deferred init at
    // its modelled time (engine_boot.cpp). False: the workload starts once the machine has booted.
    virtual bool starts_during_deferred_init() const { return false; }
    // Interrupt-context allocations on the workload's CPUs (engine_irq.cpp); none by default.
    virtual irq_load irq_pages() const { return {}; }
};

// A workload whose settings do not fit the machine it was attached to (workload::settings_problem).
struct workload_error : failure {
    using failure::failure;
};

// kernbench, page-fault1, stress-vm, high-order, bursty, boot
std::vector<std::string> workload_names();
std::unique_ptr<workload> make_workload(std::string_view name); // nullptr for an unknown name

} // namespace pcplab::sim
