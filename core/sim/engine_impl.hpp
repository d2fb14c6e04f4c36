// The engine's state: engine::impl, made of parts that each own one concern and match the files that work on
// them. Internal to core/sim.
//
//   part             type (header)                          worked on in
//   configuration    engine_config, cost model and prices   engine_boot.cpp (created), engine_control.cpp (live)
//   machine, load    mm::machine, workload                  engine_boot.cpp
//   boot             boot_state                             engine_boot.cpp
//   rounds           round_state                            engine_rounds.cpp
//   virtual time     per_cpu clocks and cpu_state, heap     engine.cpp (the step loop)
//   charging         action_charge (engine_action_charge)   engine_locks.cpp, engine_work.cpp
//   locks            lock_table (engine_lock_table)         engine_locks.cpp
//   metrics, logs    cpu_metrics, global_metrics, event_log engine_locks.cpp, engine_control.cpp
//   periodic work    periodic_state (engine_reclaim_state)  engine_periodic.cpp, engine_work.cpp
#pragma once

#include "sim/engine.hpp"
#include "sim/engine_action_charge.hpp"
#include "sim/engine_event_log.hpp"
#include "sim/engine_heap.hpp"
#include "sim/engine_lock_table.hpp"
#include "sim/engine_prices.hpp"
#include "sim/engine_reclaim_state.hpp"
#include "sim/struct_page_cache_model.hpp"
#include "sim/workloads/rng.hpp"

#include "base/per_cpu.hpp"
#include "mm/boot.hpp"
#include "mm/page_alloc.hpp"
#include "mm/work_queue.hpp"
#include "mm/zone.hpp"

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pcplab::sim
{

// What a CPU does between steps: ready for its next action, or inside a compute / idle period that the
// engine cuts at vmstat ticks (and an idle one that the reclaimer may cut short).
enum class cpu_activity : std::uint8_t { ready, compute, idle };

struct cpu_state {
    vtime_ns next_tick = 0; // when this CPU's vmstat_update runs next
    vtime_ns cont_left = 0; // compute/idle still to run
    vtime_ns chunk_start = 0; // clock at the start of the current compute/idle chunk
    cpu_activity activity = cpu_activity::ready;
    cpu_activity chunk_kind = cpu_activity::ready; // the last step was a chunk of this kind (ready: it was not)
    bool runs_workload = false;
    bool done = false;
    std::uint32_t rem_ps = 0; // charged work below one nanosecond, carried over
    std::uint32_t reclaim_nodes = 0; // nodes (bit per node) whose reclaimer runs on this CPU and has work
    int node = 0, socket = 0, core = 0;
    int smt_sibling = -1; // the other thread of this CPU's core (-1: none, or more than two threads per core)
    // How much of the core this CPU's last step used, in 1/65536ths: user code 1, idle 0, kernel work its
    // share not spent spinning. A spinner's PAUSE and an idle thread leave the core to the sibling.
    std::uint32_t core_share_q16 = 0;
    // The pageset a free_pages_nolock left above its high, and since when (engine_any_context.cpp).
    mm::zone* over_high_zone = nullptr;
    vtime_ns over_high_since = 0;
};

// A lock hold of one CPU inside its current step, seen by the interrupt model (engine_irq.cpp): from the
// request (a spin_lock_irqsave disables IRQs before it spins) to the release; end 0 while still held.
struct irq_window {
    vtime_ns start = 0, end = 0;
    mm::lock_kind kind = mm::lock_kind::zone_lock;
    bool own_pcp = false; // pcp->lock of the holder's own pageset: what an interrupt there would try
};

// An interrupt raised on a CPU, classified against the holds of the step it arrived in.
struct pending_irq {
    vtime_ns arrival = 0;
    bool pcp_locked = false; // v6.2+: its CPU's own pcp->lock was held by the code it interrupted
};

// Per CPU: the interrupt source (workload::irq_pages) and its state.
struct irq_cpu_state {
    bool active = false;
    vtime_ns next = 0; // the next arrival
    workloads::rng r;
    std::vector<irq_window> windows; // this step's holds (cleared after each step)
    std::deque<pending_irq> pending; // arrived, not yet run
    std::deque<mm::pfn_t> ring; // the pages the interrupts took and have not freed yet
};

// Power-on to the workload's start (engine_boot.cpp).
struct boot_state {
    bool done = false; // booted: the workload is attached
    std::vector<engine::boot_node_report> nodes;
    boot_times times; // the boot's instants (boot_timeline.hpp)
    std::optional<vtime_ns> event_time; // while set, the time of events (the boot's instants)
};

// Rounds of a finite workload (engine_rounds.cpp): the current round started at `origin`, and the workload
// sees time from there. The finished rounds' work is kept for the score.
struct round_state {
    std::uint64_t finished_rounds = 0;
    vtime_ns origin = 0;
    double finished_work = 0;
    workload_score last_score; // of the last finished round
    bool workload_finished = false;
    int nr_workload_cpus = 0, done_cpus = 0;
    vtime_ns finish_time = 0; // the latest instant a CPU of this round said done

    // Every CPU of the round is done (or the workload says it is over).
    bool over() const { return workload_finished || (nr_workload_cpus > 0 && done_cpus >= nr_workload_cpus); }
};

struct engine::impl final : public mm::lock_ops, public mm::cpu_work_queue {
    impl(const engine_config& cfg, workload_factory factory);
    ~impl() override;

    // --- configuration ---
    engine_config cfg;
    workload_factory make_load;
    std::shared_ptr<const cost_model> model; // never null; shared with the snapshots (run_info::costs)
    cost_rates rates;
    work_prices prices;

    // --- the machine and its workload ---
    std::unique_ptr<mm::machine> m;
    std::unique_ptr<workload> load;
    workload_env env;
    boot_state boot_st;
    // Deferred init still to run, for a workload that starts during it: completed between two steps once
    // every CPU's clock has reached boot_st.times.init_end_ns (declared after `m`, so destroyed before it).
    std::unique_ptr<mm::deferred_init> pending_init;
    round_state round;

    // --- virtual time ---
    per_cpu<vtime_ns> clock;
    per_cpu<cpu_state> st;
    cpu_heap heap;
    int acting = 0; // the CPU whose step runs; its clock pays for everything done in the step
    bool in_step = false;
    bool autotune = false; // pcp_tuning_of(machine) == autotune_v6_7, refreshed on boot and switch flips
    std::uint64_t steps = 0;

    // --- allocator context and the charging of work (engine_locks.cpp) ---
    mm::mm_work meter; // every CPU context counts into this meter (ctxs refer to it)
    action_charge action; // the acting CPU's current action
    bool reclaim_caller = false; // holds taken by the reclaimer's frees are attributed to lock_caller::reclaim
    std::unique_ptr<struct_page_cache_model> caches;
    per_cpu<mm::mm_ctx> ctxs;

    // --- locks, metrics and logs ---
    lock_table locks;
    per_cpu<cpu_metrics> cpu_m;
    mutable global_metrics tot;
    event_log log{cfg};
    const char* limits_text = nullptr; // replaces the core's cause text (switch flips)
    vtime_ns event_time() const;

    // --- periodic work and reclaim ---
    periodic_state periodic;

    // --- interrupt-context allocations (engine_irq.cpp) ---
    per_cpu<irq_cpu_state> irq;
    bool irq_any = false; // some CPU has an interrupt source: lock holds are watched
    double irq_mean_gap_ns = 0;
    std::vector<irq_window> irq_masking; // classify_irqs' scratch: kept, so a step allocates nothing
    unsigned irq_ring = 0;
    bool irq_fail_own_pcp = false; // while set, the acting CPU's trylock of its own pcp->lock fails

    // engine_boot.cpp
    void create_machine();
    void boot(const boot_observer* obs = nullptr);
    void plan_boot(const mm::deferred_init& di);
    void boot_during_deferred_init(std::unique_ptr<mm::deferred_init> di);
    void complete_deferred_init();
    void note_deferred_init(const mm::deferred_init_report& rep);
    void start_clocks(vtime_ns origin);
    void attach_workload();
    workload_env make_env() const;
    void reset_run_state();

    // engine_rounds.cpp
    bool start_round();
    void finish_round(int cpu);
    workload_score score() const;

    // engine.cpp
    bool finished() const; // the workload is done everywhere and deferred init is complete
    vtime_ns now() const { return heap.empty() ? 0 : heap.top_key(); }
    bool step();
    void run_chunk(int cpu);
    void note_core_share(int cpu, vtime_ns start, std::uint64_t spin_before);
    void start_activity(int cpu, cpu_activity a, vtime_ns ns);
    void run_action(int cpu);
    void do_alloc(int cpu, const cpu_action& a);
    void do_free(int cpu, const cpu_action& a);
    // Any-context calls (engine_any_context.cpp): their counts, and how long a nolock free's overshoot lasts.
    void note_any_context_alloc(int cpu, mm::pfn_t pfn, std::uint64_t spin_before);
    void note_any_context_free(int cpu, mm::zone& z, std::size_t parked_before, std::uint64_t spin_before);
    void check_over_high(int cpu);
    // Interrupt-context allocations (engine_irq.cpp).
    void setup_irqs();
    void irq_lock_taken(const mm::lock_id& id, vtime_ns request);
    void irq_lock_released(const mm::lock_id& id, vtime_ns end);
    void classify_irqs(int cpu);
    void run_irq(int cpu);
    vtime_ns irq_cut(int cpu, vtime_ns chunk) const;
    void requeue(int cpu) { heap.update(cpu, clock[cpu]); }

    // engine_locks.cpp
    void begin_action(int cpu);
    void end_action(int cpu, std::uint64_t fixed_ns);
    void charge(int cpu, std::uint64_t ps);
    std::uint64_t handover_ns(int from, int to, int home_socket) const;
    void record_hold(
        vlock& l, const mm::lock_id& id, int cpu, mm::lock_caller caller, vtime_ns end, std::uint64_t pages);
    void lock(const mm::lock_id& id, int cpu, mm::lock_caller caller) override;
    bool trylock(const mm::lock_id& id, int cpu, mm::lock_caller caller) override;
    void unlock(const mm::lock_id& id, int cpu, mm::lock_caller caller, const mm::mm_work& inside) override;

    // engine_periodic.cpp
    void run_tick(int cpu);
    void check_watermark(mm::zone& z);
    void start_reclaim(mm::zone& z, const char* why);
    void stop_reclaim(mm::zone& z, const char* why, bool balanced);
    void run_reclaim_step(int cpu);
    void wake(int cpu);
    // Cuts the compute or idle period `cpu` is in at `at` (not before its start): the rest goes back to
    // cont_left and out of its user or idle time. False when the CPU is not in such a period past `at`.
    bool cut_period(int cpu, vtime_ns at);
    void end_at(vtime_ns t);
    std::size_t reclaim_blocks(int cpu, std::size_t nr);
    mm::pfn_t alloc_slowpath(int cpu, const mm::alloc_request& req, std::size_t& calls);

    // engine_work.cpp
    void queue_work_on(mm::mm_ctx& c, int cpu, const std::function<void(mm::mm_ctx&)>& fn) override;
    void flush_work(mm::mm_ctx& c) override;
    bool forced_drain_due(int cpu, vtime_ns t);
    void run_forced_drain(int cpu);

    // engine_control.cpp
    void push_event(sim_event e);
    void on_limits_change(const mm::limits_change& c);
    void note_high_change(int cpu, const mm::zone& z, int old_high, int new_high, std::uint8_t cause);
    std::string set_patch(mm::patch p, bool on);
    status set_sysctl(mm::vm_sysctl s, long value);
    status set_sysctl(const std::string& name, long value);
    void set_intensity(double intensity);
};

// Causes of a pcp->high change seen around one action (note_high_change).
enum high_cause : std::uint8_t {
    HIGH_GROW_REFILL,
    HIGH_GROW_FREE_RUN,
    HIGH_SHRINK_RECLAIM,
    HIGH_SHRINK_BELOW_HIGH,
    HIGH_SHRINK_FREE_HIGH,
    HIGH_DECAY,
    HIGH_OTHER,
};
const char* high_cause_text(std::uint8_t c);

} // namespace pcplab::sim
