// The state of the engine's kernel work that no workload asks for (engine_periodic.cpp, engine_work.cpp): the
// kswapd-like reclaimers, drain_all_pages' mutex, flush_work and CPU 0's forced drains. Owned by
// engine::impl; reset with the run.
#pragma once

#include "sim/per_zone_slot.hpp"
#include "sim/workload.hpp"

#include "base/per_cpu.hpp"
#include "mm/machine.hpp"

#include <utility>
#include <vector>

namespace pcplab::sim
{

// The kswapd-like reclaimer's state for one zone.
struct zone_reclaim {
    bool active = false;
    vtime_ns backoff_until = 0; // after a fruitless episode (kswapd's HZ/10 nap)
    unsigned long freed = 0; // pages freed in the current episode
};

struct periodic_state {
    per_zone_slot<zone_reclaim> reclaim;
    std::vector<int> reclaimer_cpu; // per node: its first CPU (kswapd's home)
    vtime_ns drain_busy_until = 0; // pcpu_drain_mutex is held until then
    vtime_ns work_done_at = 0; // the latest end of a work item the acting CPU queued (flush_work waits for it)
    vtime_ns next_forced_drain = 0; // engine_config::forced_drain_hz: CPU 0's next __drain_all_pages(NULL, true)
    // Scratch reused by every tick and drain, so that they allocate nothing.
    std::vector<std::pair<int, int>> tick_scratch; // (high, count) per populated zone
    per_cpu<long> drain_before, drain_after; // PCP pages per CPU around drain_all_pages

    void reset(const mm::machine& m)
    {
        reclaim.assign(m.nodes.size(), zone_reclaim{});
        drain_busy_until = work_done_at = next_forced_drain = 0;
        reclaimer_cpu.assign(m.nodes.size(), 0);
        for (std::size_t nid = 0; nid < m.nodes.size(); ++nid)
            if (!m.nodes[nid]->cpus.empty()) reclaimer_cpu[nid] = m.nodes[nid]->cpus.front();
    }
};

} // namespace pcplab::sim
