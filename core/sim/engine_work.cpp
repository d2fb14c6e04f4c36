// Work items in virtual time (mm::cpu_work_queue): queue_work_on runs an item as its CPU, on that CPU's clock,
// and flush_work makes the queuing CPU wait for the last one. The drain work of drain_all_pages (before v6.0,
// or with remote-drain-under-pcp-lock off) goes through here; so does CPU 0's forced drain of scenario 006.
//
// The item starts when it is queued or when its CPU is free, whichever is later: a CPU in a compute or idle
// period is interrupted at the queuing instant (the kworker preempts the task, whose period resumes after
// it); a CPU whose clock is already past that instant runs the item after what it has done. The wakeup and
// context switch of the kworker are not priced (no source in the cost model): only the drain itself is.
#include "engine_impl.hpp"

#include "mm/pcp.hpp"

#include <algorithm>
#include <cassert>

namespace pcplab::sim
{

void engine::impl::queue_work_on(mm::mm_ctx&, int cpu, const std::function<void(mm::mm_ctx&)>& fn)
{
    if (cpu == acting) {
        // The item on the queuing CPU runs there when the caller sleeps in flush_work: part of its action.
        fn(ctxs[cpu]);
        return;
    }
    assert(action.depth == 0 && "work is queued with no lock held");
    // The caller's work so far stays its own; the item is charged to `cpu` as an action of its own.
    const int caller = acting;
    action.sync(meter, prices);
    const action_charge callers_action = action;

    const vtime_ns queued = clock[caller];
    cut_period(cpu, queued);
    // What is left of a cut period resumes after the item (cont_left); the time from here on is the item's,
    // so a later cut must not take it back as the period's.
    st[cpu].chunk_kind = cpu_activity::ready;
    clock[cpu] = std::max(clock[cpu], queued);
    const vtime_ns t0 = clock[cpu];
    begin_action(cpu);
    fn(ctxs[cpu]);
    end_action(cpu, 0);
    cpu_m[cpu].sys_ns += clock[cpu] - t0;
    requeue(cpu);
    periodic.work_done_at = std::max(periodic.work_done_at, clock[cpu]);
    ++tot.remote_work_items;

    // The caller's action goes on from here: the item's work is paid for.
    acting = caller;
    action = callers_action;
    action.mark_ps = prices.price_ps(meter);
}

void engine::impl::flush_work(mm::mm_ctx&)
{
    vtime_ns& clk = clock[acting];
    clk = std::max(clk, periodic.work_done_at);
    periodic.work_done_at = 0;
}

// Whether CPU 0's forced drain is due at `t` (once the workload runs); moves the schedule on when it is.
bool engine::impl::forced_drain_due(int cpu, vtime_ns t)
{
    const vtime_ns start = boot_st.times.workload_start_ns;
    if (cfg.forced_drain_hz <= 0 || cpu != 0 || t < start) return false;
    const auto period = std::max<vtime_ns>(static_cast<vtime_ns>(NS_PER_SEC / cfg.forced_drain_hz), 1);
    vtime_ns& next = periodic.next_forced_drain;
    if (next == 0) next = start + period;
    if (t < next) return false;
    next += period;
    return true;
}

// CPU 0's forced __drain_all_pages(NULL, true) (engine_config::forced_drain_hz), charged as system time.
void engine::impl::run_forced_drain(int cpu)
{
    const vtime_ns t0 = clock[cpu];
    begin_action(cpu);
    mm::__drain_all_pages(ctxs[cpu], nullptr, true);
    end_action(cpu, prices.call_ns);
    cpu_m[cpu].sys_ns += clock[cpu] - t0;
}

} // namespace pcplab::sim
