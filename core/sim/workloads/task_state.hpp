// Building blocks of the per-CPU task state machines: the actions a task hands the engine, a block it holds,
// and the gate that turns a failed allocation into a back-off and a retry.
#pragma once

#include "sim/workload.hpp"

#include <cassert>
#include <cstdint>

namespace pcplab::sim::workloads
{

// GFP_HIGHUSER_MOVABLE (anonymous and page-cache pages) may use every zone up to ZONE_MOVABLE; GFP_KERNEL
// allocations (page tables, kernel stacks, slab) stop at ZONE_NORMAL and are unmovable.
inline cpu_action alloc_user(unsigned order = 0)
{
    cpu_action a;
    a.k = cpu_action::kind::alloc;
    a.order = static_cast<std::uint8_t>(order);
    a.mt = mm::MIGRATE_MOVABLE;
    a.highest_zone = mm::ZONE_MOVABLE;
    return a;
}
inline cpu_action alloc_kernel(unsigned order = 0)
{
    cpu_action a;
    a.k = cpu_action::kind::alloc;
    a.order = static_cast<std::uint8_t>(order);
    a.mt = mm::MIGRATE_UNMOVABLE;
    a.highest_zone = mm::ZONE_NORMAL;
    return a;
}
inline cpu_action free_block(mm::pfn_t pfn, unsigned order)
{
    cpu_action a;
    a.k = cpu_action::kind::free;
    a.pfn = pfn;
    a.order = static_cast<std::uint8_t>(order);
    return a;
}
inline cpu_action compute(vtime_ns ns)
{
    cpu_action a;
    a.k = cpu_action::kind::compute;
    a.ns = ns;
    return a;
}
inline cpu_action idle(vtime_ns ns)
{
    cpu_action a;
    a.k = cpu_action::kind::idle;
    a.ns = ns;
    return a;
}
inline cpu_action done()
{
    cpu_action a;
    a.k = cpu_action::kind::done;
    return a;
}

// A block a task holds.
struct block {
    mm::pfn_t pfn = mm::NO_PFN;
    std::uint8_t order = 0;
};

// A failed allocation in the kernel enters the slow path (wake kswapd, direct reclaim, reclaim_throttle,
// which sleeps up to HZ/10) and the fault is retried; the engine's reclaimer frees pages meanwhile. The task
// waits this long, then asks again for the same block. 1 ms (an estimate): long enough for the reclaimer
// to act, short against the 100 ms throttle so a brief shortage does not idle a CPU for long.
inline constexpr vtime_ns RETRY_BACKOFF_NS = 1'000'000;

// Tracks the allocation a CPU has asked for: at most one is outstanding, and a failure is followed by a
// back-off (idle) and the same request again.
class alloc_gate
{
public:
    // The action that must come before any new work, if any: the back-off, then the retried request.
    bool pending(cpu_action& out)
    {
        assert(m_state != state::awaiting && "next() called before allocated() for the last alloc");
        if (m_state == state::backoff) {
            m_state = state::retry;
            out = idle(RETRY_BACKOFF_NS);
            return true;
        }
        if (m_state == state::retry) {
            m_state = state::awaiting;
            out = m_request;
            return true;
        }
        return false;
    }
    // Hand out an allocation request.
    cpu_action issue(const cpu_action& a)
    {
        m_request = a;
        m_state = state::awaiting;
        return a;
    }
    // The engine's answer. False when it failed: with `retry`, a back-off and the same request follow; without,
    // the request is dropped (the caller falls back to something else).
    bool complete(mm::pfn_t pfn, bool retry = true)
    {
        if (pfn != mm::NO_PFN) {
            m_state = state::none;
            return true;
        }
        ++m_failures;
        m_state = retry ? state::backoff : state::none;
        return false;
    }
    const cpu_action& request() const { return m_request; }
    std::uint64_t failures() const { return m_failures; }
    void reset() { *this = alloc_gate(); }

private:
    enum class state : std::uint8_t { none, awaiting, backoff, retry };
    state m_state = state::none;
    cpu_action m_request;
    std::uint64_t m_failures = 0;
};

} // namespace pcplab::sim::workloads
