// The engine's spinlocks in virtual time: one zone->lock per zone slot and, from v6.0, one pcp->lock per
// (zone slot, CPU), with the metrics they count into. Owned by engine::impl; engine_locks.cpp takes and
// releases them.
//
// Invariant: every lock's `metrics` points into this table (its zone's entry in zone_metrics(), or the one
// pcp_metrics(), which also collects the never-taken locks of unpopulated zones), so the table is neither
// copied nor moved, and reset() is the only place that sizes it.
#pragma once

#include "sim/metrics.hpp"
#include "sim/per_zone_slot.hpp"
#include "sim/workload.hpp"

#include "base/per_cpu.hpp"
#include "mm/lock_ops.hpp"
#include "mm/machine.hpp"

#include <cstdint>
#include <vector>

namespace pcplab::sim
{

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

class lock_table
{
public:
    lock_table() = default;
    lock_table(const lock_table&) = delete;
    lock_table& operator=(const lock_table&) = delete;

    // Every lock free and every count at zero for machine `m`, whose CPUs sit on `cpu_socket`.
    void reset(mm::machine& m, const per_cpu<int>& cpu_socket);

    vlock& of(const mm::lock_id& id)
    {
        if (id.kind == mm::lock_kind::zone_lock) return m_zone(id.node, id.zone);
        return m_pcp(id.node, id.zone)[id.cpu];
    }
    // One entry per populated zone, in for_each_populated_zone order.
    const std::vector<lock_metrics>& zone_metrics() const { return m_zone_metrics; }
    // Every pcp->lock together.
    const lock_metrics& pcp_metrics() const { return m_pcp_metrics; }

private:
    per_zone_slot<vlock> m_zone;
    per_zone_slot<per_cpu<vlock>> m_pcp; // empty before v6.0
    std::vector<lock_metrics> m_zone_metrics;
    lock_metrics m_pcp_metrics;
};

} // namespace pcplab::sim
