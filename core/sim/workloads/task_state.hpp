// Building blocks of the per-CPU task state machines: the actions a task hands the engine, a block it holds,
// and the gate that turns a failed allocation into a back-off and a retry.
#pragma once

#include "sim/workload.hpp"

#include <cassert>
#include <cstdint>
#include <utility>
#include <vector>

namespace pcplab::sim::workloads
{

// A request for one block of `order`, migratetype `mt`, from the zones up to `highest_zone`.
inline cpu_action alloc_block(unsigned order, std::uint8_t mt, std::uint8_t highest_zone)
{
    cpu_action a;
    a.k = cpu_action::kind::alloc;
    a.order = static_cast<std::uint8_t>(order);
    a.mt = mt;
    a.highest_zone = highest_zone;
    return a;
}
// GFP_HIGHUSER_MOVABLE (anonymous and page-cache pages) may use every zone up to ZONE_MOVABLE; GFP_KERNEL
// allocations (page tables, kernel stacks, slab) stop at ZONE_NORMAL and are unmovable.
inline cpu_action alloc_user(unsigned order = 0)
{
    return alloc_block(order, mm::MIGRATE_MOVABLE, mm::ZONE_MOVABLE);
}
inline cpu_action alloc_kernel(unsigned order = 0)
{
    return alloc_block(order, mm::MIGRATE_UNMOVABLE, mm::ZONE_NORMAL);
}
inline cpu_action free_block(mm::pfn_t pfn, unsigned order)
{
    cpu_action a;
    a.k = cpu_action::kind::free;
    a.pfn = pfn;
    a.order = static_cast<std::uint8_t>(order);
    return a;
}
// Freeing blocks[i] of a list freed in order (munmap, exit): the next one is named as a prefetch hint.
inline cpu_action free_in_order(const std::vector<mm::pfn_t>& blocks, std::size_t i, unsigned order = 0)
{
    cpu_action a = free_block(blocks[i], order);
    if (i + 1 < blocks.size()) a.next_pfn = blocks[i + 1];
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

// What release_all() and reclaim() hand back: (pfn, order) of every block.
using released_blocks = std::vector<std::pair<mm::pfn_t, unsigned>>;

// Append pages[from..] (order 0) to `out`: a held list whose frees have reached `from`.
inline void append_pages(released_blocks& out, const std::vector<mm::pfn_t>& pages, std::size_t from = 0)
{
    for (std::size_t i = from; i < pages.size(); ++i) out.emplace_back(pages[i], 0U);
}
// The same for two lists freed one after the other, `from` counting over both.
inline void append_pages(
    released_blocks& out, const std::vector<mm::pfn_t>& first, const std::vector<mm::pfn_t>& second, std::size_t from)
{
    append_pages(out, first, from);
    append_pages(out, second, from > first.size() ? from - first.size() : 0);
}
// Append blocks[from..] with their orders.
inline void append_blocks(released_blocks& out, const std::vector<block>& blocks, std::size_t from = 0)
{
    for (std::size_t i = from; i < blocks.size(); ++i) out.emplace_back(blocks[i].pfn, blocks[i].order);
}
// Append the present pages of a slot list (NO_PFN marks an absent one).
inline void append_present(released_blocks& out, const std::vector<mm::pfn_t>& slots)
{
    for (mm::pfn_t pfn : slots)
        if (pfn != mm::NO_PFN) out.emplace_back(pfn, 0U);
}

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
