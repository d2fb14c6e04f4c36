// The engine's state, shared by engine.cpp (boot, the step loop, actions), engine_locks.cpp (spinlocks in
// virtual time and the charging of work), engine_periodic.cpp (vmstat tick, reclaimer) and
// engine_control.cpp (switches, sysctls, events). Internal to core/sim.
#pragma once

#include "sim/engine.hpp"
#include "sim/engine_heap.hpp"
#include "sim/engine_prices.hpp"
#include "sim/struct_page_cache_model.hpp"

#include "mm/boot.hpp"
#include "mm/page_alloc.hpp"
#include "mm/work_queue.hpp"
#include "mm/zone.hpp"

#include <array>
#include <cstdint>
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
};

// A spinlock in virtual time (zone->lock or one pcp->lock).
struct vlock {
    vtime_ns free_at = 0; // release of the last hold
    vtime_ns grant = 0; // current hold: when it was granted
    vtime_ns request = 0; // current hold: when it was requested
    std::uint64_t acquire_ns = 0; // current hold: acquire cost, charged inside the hold at unlock
    vtime_ns last_request = 0; // latest request granted so far (order_inversions)
    int last_holder = -1;
    int home_socket = 0; // the socket of the node whose memory holds the lock word
    lock_metrics* metrics = nullptr;
};

// The kswapd-like reclaimer's state for one zone.
struct zone_reclaim {
    bool active = false;
    vtime_ns backoff_until = 0; // after a fruitless episode (kswapd's HZ/10 nap)
    unsigned long freed = 0; // pages freed in the current episode
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
    std::vector<boot_node_report> boot_nodes;
    boot_times times; // the boot's instants (boot_timeline.hpp)
    bool booted = false;
    // Deferred init still to run, for a workload that starts during it: completed between two steps once
    // every CPU's clock has reached times.init_end_ns (declared after `m`, so destroyed before it).
    std::unique_ptr<mm::deferred_init> pending_init;
    // Rounds of a finite workload (start_round): the current round started at round_origin; the workload
    // sees time from there. The finished rounds' work is kept for the score.
    std::uint64_t rounds = 0;
    vtime_ns round_origin = 0;
    double rounds_work = 0;
    workload_score last_round_score;

    // --- virtual time ---
    std::vector<vtime_ns> clock;
    std::vector<cpu_state> st;
    cpu_heap heap;
    int acting = 0; // the CPU whose step runs; its clock pays for everything done in the step
    bool in_step = false;
    bool autotune = false; // pcp_tuning_of(machine) == autotune_v6_7, refreshed on boot and switch flips
    bool workload_finished = false;
    int nr_workload_cpus = 0, done_cpus = 0;
    vtime_ns finish_time = 0;
    std::uint64_t steps = 0;

    // --- allocator context and the charging of work (engine_locks.cpp) ---
    mm::mm_work meter; // every CPU context counts into this meter
    std::uint64_t mark_ps = 0; // price of the meter at the last lock, unlock or action start
    std::uint64_t action_from_buddy = 0; // meter.pages_from_buddy at the start of the action
    std::array<std::uint64_t, 4> pending_ps{}; // work not yet charged, per lock nesting depth (0 = no lock held)
    int depth = 0;
    std::unique_ptr<struct_page_cache_model> caches;
    std::vector<mm::mm_ctx> ctxs;
    bool reclaim_caller = false; // holds taken by the reclaimer's frees are attributed to lock_caller::reclaim
    bool act_refill = false, act_zone_direct = false, act_flush = false; // what the current action did

    // --- locks ---
    std::vector<vlock> zone_vlocks; // node * MAX_NR_ZONES + zone
    std::vector<vlock> pcp_vlocks; // (node * MAX_NR_ZONES + zone) * nr_cpus + owner (v6.0+)
    std::vector<lock_metrics> zone_lock_m;
    lock_metrics pcp_lock_m;

    // --- metrics and events ---
    std::vector<cpu_metrics> cpu_m;
    mutable global_metrics tot;
    std::vector<sim_event> events; // from events_base on (engine::release_events)
    std::vector<lock_hold_record> holds; // from holds_base on
    std::uint64_t events_base = 0, holds_base = 0, holds_dropped = 0;
    unsigned events_sparse_releases = 0, holds_sparse_releases = 0; // see drop_front (engine_control.cpp)
    std::vector<std::int64_t> last_high_event; // per (cpu, zone slot): number of its last pcp_high_change event
    std::vector<std::uint8_t> last_high_cause; // ... and that event's cause
    const char* limits_text = nullptr; // replaces the core's cause text (switch flips)
    std::vector<std::pair<int, int>> tick_scratch; // (high, count) per populated zone, reused by every tick
    std::vector<long> drain_before, drain_after; // PCP pages per CPU around drain_all_pages
    vtime_ns drain_busy_until = 0; // pcpu_drain_mutex is held until then
    vtime_ns work_done_at = 0; // the latest end of a work item the acting CPU queued (flush_work waits for it)
    vtime_ns next_forced_drain = 0; // engine_config::forced_drain_hz: CPU 0's next __drain_all_pages(NULL, true)
    vtime_ns event_time() const;
    // The whole second of the run that `t` falls in, counted from the workload's start.
    vtime_ns run_second(vtime_ns t) const
    {
        return (t > times.workload_start_ns ? t - times.workload_start_ns : 0) / NS_PER_SEC;
    }
    std::optional<vtime_ns> boot_event_time; // while set, the time of events (the boot's instants)

    // --- reclaim ---
    std::vector<zone_reclaim> zrec; // node * MAX_NR_ZONES + zone
    std::vector<int> reclaimer_cpu; // per node

    // engine.cpp
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
    bool start_round();
    void finish_round(int cpu);
    workload_score score() const;
    bool finished() const; // the workload is done everywhere and deferred init is complete
    vtime_ns now() const { return heap.empty() ? 0 : heap.top_key(); }
    bool step();
    void run_chunk(int cpu);
    void start_activity(int cpu, cpu_activity a, vtime_ns ns);
    void run_action(int cpu);
    void do_alloc(int cpu, const cpu_action& a);
    void do_free(int cpu, const cpu_action& a);
    void requeue(int cpu) { heap.update(cpu, clock[static_cast<std::size_t>(cpu)]); }

    // engine_locks.cpp
    void begin_action(int cpu);
    void end_action(int cpu, std::uint64_t fixed_ns);
    void charge(int cpu, std::uint64_t ps);
    std::uint64_t sync_ps();
    vlock& lock_of(const mm::lock_id& id);
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
    void release_events(std::uint64_t upto);
    void release_holds(std::uint64_t upto);
    void take_holds(std::vector<lock_hold_record>& out);
    void on_limits_change(const mm::limits_change& c);
    void note_high_change(int cpu, const mm::zone& z, int old_high, int new_high, std::uint8_t cause);
    std::string set_patch(mm::patch p, bool on);
    status set_sysctl(mm::vm_sysctl s, long value);
    status set_sysctl(const std::string& name, long value);
    void set_intensity(double intensity);

    static int zone_slot(int node, int zone) { return node * mm::MAX_NR_ZONES + zone; }
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
