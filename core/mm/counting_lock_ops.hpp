// A lock_ops that only counts: holds per lock and caller, and the largest work done in one hold.
#pragma once

#include "lock_ops.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace pcplab::mm
{

struct hold_stats {
    std::uint64_t holds = 0;
    std::uint64_t trylock_failures = 0;
    mm_work total; // work done inside all holds
    std::uint64_t max_pages_to_buddy = 0; // most pages freed to the buddy allocator in one hold
    std::uint64_t max_pcp_picked = 0; // most pages picked off PCP lists in one hold
};

class counting_lock_ops : public lock_ops
{
public:
    void lock(const lock_id& id, int cpu, lock_caller caller) override;
    bool trylock(const lock_id& id, int cpu, lock_caller caller) override;
    void unlock(const lock_id& id, int cpu, lock_caller caller, const mm_work& inside) override;

    const hold_stats& stats(lock_kind k, lock_caller c) const
    {
        return m_stats[static_cast<unsigned>(k)][static_cast<unsigned>(c)];
    }
    // Every hold, in order (kept only when record_holds is set)
    struct hold {
        lock_id id;
        int cpu;
        lock_caller caller;
        mm_work inside;
    };
    bool record_holds = false;
    std::vector<hold> holds;
    // For tests of pcp->lock trylock fallbacks: when set, every pcp trylock fails.
    bool fail_pcp_trylock = false;
    // For tests of the v6.15 nolock paths: when set, every zone->lock trylock fails.
    bool fail_zone_trylock = false;
    int depth(lock_kind k) const { return m_depth[static_cast<unsigned>(k)]; }

private:
    std::array<std::array<hold_stats, static_cast<unsigned>(lock_caller::nr_callers)>, 2> m_stats{};
    std::array<int, 2> m_depth{};
};

} // namespace pcplab::mm
