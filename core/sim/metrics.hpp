// What a run measured: per zone lock, per CPU and global counters, histograms and events.
#pragma once

#include "sim/workload.hpp"

#include "mm/lock_ops.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace pcplab::sim
{

// Log2-bucket histogram of nanoseconds (bucket i holds values in [2^i, 2^(i+1))).
struct log_histogram {
    std::array<std::uint64_t, 48> buckets{};
    void add(std::uint64_t v);
    // Upper bound (2^(i+1)) of the bucket holding the p-th percentile; p in (0, 1] (values above 1 are read as
    // percent: 99 = 0.99). 0 when the histogram is empty.
    std::uint64_t percentile(double p) const;
    std::uint64_t count() const;
};

struct lock_metrics {
    int node = 0;
    int zone = 0;
    std::uint64_t acquisitions = 0;
    std::uint64_t contended = 0;
    std::uint64_t wait_ns_total = 0, wait_ns_max = 0;
    std::uint64_t hold_ns_total = 0, hold_ns_max = 0;
    std::uint64_t max_pages_per_hold = 0;
    std::uint64_t holds_over_threshold = 0;
    // Waits longer than the same threshold. The zone->lock callers spin with interrupts off
    // (spin_lock_irqsave), so a CPU queued that long is what the softlockup and RCU-stall detectors see,
    // whoever holds the lock: seed 003's stalls came from CPUs queueing behind long holds.
    std::uint64_t waits_over_threshold = 0;
    log_histogram hold_hist, wait_hist;
    // Per caller (mm::lock_caller): holds and the largest single hold in pages and ns.
    std::array<std::uint64_t, static_cast<unsigned>(mm::lock_caller::nr_callers)> holds_by_caller{};
    std::array<std::uint64_t, static_cast<unsigned>(mm::lock_caller::nr_callers)> hold_ns_by_caller{};
    std::array<std::uint64_t, static_cast<unsigned>(mm::lock_caller::nr_callers)> max_pages_by_caller{};
    // Time during which at least one CPU was waiting (for contention %): merged wait intervals.
    std::uint64_t waiting_ns = 0;
    vtime_ns waiting_until = 0; // end of the current merged interval (bookkeeping)
    vtime_ns waiting_from = 0; // start of the current merged interval (bookkeeping)
    // Trylocks that failed because another CPU held the lock: pcp->lock (v6.0+ fallback to the buddy), and
    // zone->lock on the v6.15 nolock paths (alloc_pages_nolock gives up, free_pages_nolock parks the block).
    std::uint64_t trylock_failures = 0;
    // Grants whose request came earlier in virtual time than a request already granted (see engine_locks.cpp:
    // only a second lock taken inside one action can arrive late; 0 for one hold per action).
    std::uint64_t order_inversions = 0;
};

// The time in [0, t) during which at least one CPU was waiting for this lock (waiting_ns less the part of the
// merged interval still open that lies at or after t; at most t).
vtime_ns waiting_ns_before(const lock_metrics& l, vtime_ns t);
// Share of the virtual time [from, to) during which at least one CPU was waiting for this lock, in percent:
// waiting_ns_before(l, to) / (to - from), so at most 100 (waiting_ns alone read 116 % on meta-1t-316 under
// kernbench at 200 ms: the open interval reached past the slowest CPU's clock). Times are since power-on, and
// the waits counted are those since `from` (the workload's start: the boot before it takes no zone->lock).
double contention_pct(const lock_metrics& l, vtime_ns from, vtime_ns to);
// The 99th percentile of the holds as an upper bound: the p99 bucket's upper edge, capped at the longest hold
// (the edge can lie above every hold). 0 without holds.
std::uint64_t hold_ns_p99(const lock_metrics& l);
// Mean hold of one caller (0 when it never held the lock).
double mean_hold_ns(const lock_metrics& l, mm::lock_caller c);

struct cpu_metrics {
    std::uint64_t sys_ns = 0; // allocator work including spinning
    std::uint64_t user_ns = 0; // workload compute
    std::uint64_t idle_ns = 0;
    std::uint64_t spin_ns = 0; // part of sys_ns spent waiting for locks
    std::uint64_t allocs = 0, frees = 0, alloc_failures = 0;
    std::uint64_t pcp_hits = 0, refills = 0, drains = 0;
};

// One lock hold, for the lanes view and the trace (kept when metrics_config.keep_holds).
struct lock_hold_record {
    vtime_ns start = 0;
    std::uint32_t hold_ns = 0;
    std::uint32_t wait_ns = 0;
    std::uint16_t cpu = 0;
    std::uint8_t node = 0;
    std::uint8_t zone = 0;
    mm::lock_caller caller = mm::lock_caller::other;
    mm::lock_kind kind = mm::lock_kind::zone_lock;
    std::uint32_t pages = 0; // pages freed to / taken from the buddy allocator inside
    std::int16_t owner = -1; // pcp->lock: the CPU whose pageset it is
};

// A pcp->lock hold that did not wait and was taken by the CPU whose pageset it is: one per PCP allocation and
// free from v6.0, and what engine_config::keep_plain_pcp_holds leaves out.
inline bool plain_pcp_hold(const lock_hold_record& h)
{
    return h.kind == mm::lock_kind::pcp_lock && h.wait_ns == 0 && h.owner == static_cast<int>(h.cpu);
}

enum class event_kind : std::uint8_t {
    limits_change, // batch/high of a zone's pagesets (cause in text; `field` says which value)
    pcp_high_change, // one CPU's auto-tuned high (grow / decay / reclaim)
    drain,
    reclaim_start,
    reclaim_stop,
    switch_flip,
    deferred_init_done,
    note,
    workload_round, // a finished finite workload starts again (engine::start_round); new_value: the round, from 2
};

// Which value old_value/new_value describe.
enum class event_field : std::uint8_t { none, batch, high, high_min, high_max, pages };

struct sim_event {
    vtime_ns t = 0;
    event_kind kind = event_kind::note;
    int cpu = -1, node = -1, zone = -1;
    long old_value = 0, new_value = 0;
    std::string text; // the cause, readable
    event_field field = event_field::none;
};

// Allocations and frees from any context (cpu_action::any_context; v6.15 alloc-pages-nolock).
struct any_context_metrics {
    std::uint64_t allocs = 0, failures = 0;
    std::uint64_t failures_deferred_init = 0; // failed while deferred init ran (alloc_pages_nolock refuses)
    std::uint64_t spin_ns = 0; // lock waits inside these calls: what a caller that may not spin would spin
    std::uint64_t frees = 0;
    std::uint64_t frees_over_high = 0; // frees that left the pageset's count above its high
    std::uint64_t over_high_pages_max = 0; // the most pages a pageset held above high after such a free
    std::uint64_t over_high_ns_max = 0; // the longest a pageset stayed above high, from such a free on
    std::uint64_t parked = 0; // blocks put on zone->trylock_free_pages (both trylocks failed)
    bool operator==(const any_context_metrics&) const = default;
};

// Interrupt-context allocations and frees (workload::irq_pages, engine_irq.cpp) and what IRQs being off did
// to them: v6.0/v6.1 keep IRQs off for a whole pcp->lock hold, v6.2+ (pcp-lock-irqs-enabled) only inside
// zone->lock, where an interrupt that finds its CPU's own pcp->lock held goes to the buddy lists.
struct irq_metrics {
    std::uint64_t arrivals = 0; // interrupts raised
    std::uint64_t allocs = 0, alloc_failures = 0, frees = 0;
    // pcp_spin_trylock calls of an interrupt that failed because the code it interrupted held that CPU's own
    // pcp->lock (v6.2+): the page came from, or went to, the buddy lists under zone->lock.
    std::uint64_t pcp_fallbacks = 0;
    std::uint64_t delayed = 0; // interrupts raised while IRQs were off on their CPU
    std::uint64_t delay_ns_total = 0, delay_ns_max = 0; // how long they waited for IRQs to come back on
    std::uint64_t irqs_off_ns_max = 0; // the longest stretch with IRQs off on one CPU (lock holds and their waits)
    // Every CPU's IRQs-off time in lock holds and their waits, summed: off, every pcp->lock hold adds to it;
    // on, only zone->lock's. Counted only while a source is active (engine_irq.cpp).
    std::uint64_t irqs_off_ns_total = 0;
    std::uint64_t spin_ns = 0; // lock waiting inside the interrupts' own calls
    bool operator==(const irq_metrics&) const = default;
};

struct global_metrics {
    std::uint64_t allocs = 0, frees = 0;
    std::uint64_t pcp_hits = 0; // allocations served from a PCP list without a refill
    std::uint64_t zone_allocs = 0; // pages taken from the buddy allocator (refills + direct)
    std::uint64_t free_high_drains = 0;
    std::uint64_t pcp_resident_pages = 0; // at the end of the run (or the last snapshot)
    std::uint64_t reclaimed_pages = 0;
    std::uint64_t drain_all_calls = 0; // drain_all_pages after a failed allocation
    std::uint64_t alloc_failures = 0; // allocations that failed even after the drain and retry
    std::uint64_t events_dropped = 0; // events beyond the engine's cap (engine_config::max_events)
    // pcp_spin_trylock failures (v6.0+: another CPU held the pageset, so the caller went to the buddy lists),
    // counted when asked (engine::totals), and drain work items queued on CPUs other than the queuing one.
    std::uint64_t pcp_trylock_failures = 0, remote_work_items = 0;
    any_context_metrics any_context;
    irq_metrics irq;
};

} // namespace pcplab::sim
