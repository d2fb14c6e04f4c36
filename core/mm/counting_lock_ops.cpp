#include "counting_lock_ops.hpp"

#include <algorithm>
#include <cassert>

namespace pcplab::mm
{

void counting_lock_ops::lock(const lock_id& id, int, lock_caller)
{
    ++m_depth[static_cast<unsigned>(id.kind)];
}

bool counting_lock_ops::trylock(const lock_id& id, int cpu, lock_caller caller)
{
    if ((id.kind == lock_kind::pcp_lock && fail_pcp_trylock)
        || (id.kind == lock_kind::zone_lock && fail_zone_trylock)) {
        ++m_stats[static_cast<unsigned>(id.kind)][static_cast<unsigned>(caller)].trylock_failures;
        return false;
    }
    lock(id, cpu, caller);
    return true;
}

void counting_lock_ops::unlock(const lock_id& id, int cpu, lock_caller caller, const mm_work& inside)
{
    auto& d = m_depth[static_cast<unsigned>(id.kind)];
    assert(d > 0);
    --d;
    auto& s = m_stats[static_cast<unsigned>(id.kind)][static_cast<unsigned>(caller)];
    ++s.holds;
    s.total += inside;
    s.max_pages_to_buddy = std::max(s.max_pages_to_buddy, inside.pages_to_buddy);
    s.max_pcp_picked = std::max(s.max_pcp_picked, inside.pcp_pages_picked);
    if (record_holds) holds.push_back({id, cpu, caller, inside});
}

} // namespace pcplab::mm
