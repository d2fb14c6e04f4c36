// What one action (an allocation, a free, a tick, a work item) has done and not yet paid for: the lazy
// charging of engine_locks.cpp. Owned by engine::impl, which keeps the one mm_work meter every CPU context
// counts into; an action's cost is the price of the meter's growth.
//
// Invariants: work is pending at the lock depth it was done at (0: no lock held) until the hold at that
// depth ends or the action does; mark_ps is the meter's price when pending work was last brought up to
// date, so nothing is charged twice or lost.
#pragma once

#include "sim/engine_prices.hpp"

#include "mm/mm_work.hpp"

#include <array>
#include <cstdint>

namespace pcplab::sim
{

struct action_charge {
    std::uint64_t mark_ps = 0; // price of the meter at the last lock, unlock or action start
    std::uint64_t from_buddy_at_start = 0; // meter.pages_from_buddy at the start of the action
    std::array<std::uint64_t, 4> pending_ps{}; // work not yet charged, per lock nesting depth (0 = no lock held)
    int depth = 0;
    // What the action did, for the CPU's counters: a refill (rmqueue_bulk), a high-order allocation from the
    // buddy lists (rmqueue_buddy), a flush to them (free_pcppages_bulk).
    bool refill = false, zone_direct = false, flush = false;

    void begin(const mm::mm_work& meter, const work_prices& prices)
    {
        *this = action_charge{};
        mark_ps = prices.price_ps(meter);
        from_buddy_at_start = meter.pages_from_buddy;
    }
    // The work since the mark goes to the current depth. Prices are linear, so the work since the mark costs
    // price(meter) - price(mark): no per-counter difference.
    void sync(const mm::mm_work& meter, const work_prices& prices)
    {
        const std::uint64_t now_ps = prices.price_ps(meter);
        pending_ps[static_cast<std::size_t>(depth)] += now_ps - mark_ps;
        mark_ps = now_ps;
    }
    // A lock was granted: what follows is work inside it (nesting deeper than the array counts at its end).
    void enter_lock()
    {
        if (depth + 1 < static_cast<int>(pending_ps.size())) ++depth;
    }
    // The innermost hold ends: its work, which the caller charges inside the hold.
    std::uint64_t leave_lock()
    {
        const std::uint64_t ps = pending_ps[static_cast<std::size_t>(depth)];
        pending_ps[static_cast<std::size_t>(depth)] = 0;
        if (depth > 0) --depth;
        return ps;
    }
    // The action ends: everything still pending (a lock still held here would be a bug in the core; its work
    // is charged anyway).
    std::uint64_t take_all()
    {
        std::uint64_t ps = 0;
        for (auto& p : pending_ps) {
            ps += p;
            p = 0;
        }
        depth = 0;
        return ps;
    }
};

} // namespace pcplab::sim
