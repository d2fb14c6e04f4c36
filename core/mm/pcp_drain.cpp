// Emptying per-CPU pagesets: drain_pages_zone / drain_pages / drain_all_pages (queued on each CPU, or remote
// under pcp->lock with remote-drain-under-pcp-lock), the NUMA remote drain
// drain_zone_pages, and decay_pcp_high (v6.7+), with the seed-003 chunking (batched-bulk-free).
#include "pcp.hpp"
#include "work_queue.hpp"
#include "zone_lock.hpp"

#include <algorithm>

namespace pcplab::mm
{

// drain_pages_zone: v5.4 .. v6.9 frees the whole pageset in one free_pcppages_bulk call (one zone->lock
// hold); v6.10 ("control latency caused by zone PCP draining") in chunks of batch << S (S: CONFIG_PCP_BATCH_SCALE_MAX,
// here vm.pcp_batch_scale_max, machine::sysctl); with batched-bulk-free (seed 003, v2 2/4) in chunks of pcp->batch.
// Each chunk takes and drops pcp->lock.
void drain_pages_zone(mm_ctx& c, int cpu, zone& z)
{
    per_cpu_pages& pcp = z.per_cpu_pageset[cpu];
    int chunk = 0;
    if (c.m.patches[patch::batched_bulk_free])
        chunk = std::max(pcp.batch, 1);
    else if (c.m.era.drain_pages_zone_chunked())
        chunk = std::max(pcp.batch, 1) << c.m.sysctl.pcp_batch_scale_max;

    if (chunk == 0) {
        if (pcp.count) {
            pcp_lock_guard guard(c, z, cpu, lock_caller::drain_pages_zone);
            free_pcppages_bulk(c, z, pcp.count, pcp, 0, lock_caller::drain_pages_zone);
        }
        return;
    }
    int count;
    do {
        pcp_lock_guard guard(c, z, cpu, lock_caller::drain_pages_zone);
        count = pcp.count;
        if (count) {
            int to_drain = std::min(count, chunk);
            free_pcppages_bulk(c, z, to_drain, pcp, 0, lock_caller::drain_pages_zone);
            count -= to_drain;
        }
    } while (count > 0);
}

// drain_pages (v5.4 / v6.x): every populated zone of one CPU.
void drain_pages(mm_ctx& c, int cpu)
{
    c.m.for_each_populated_zone([&](zone& z) { drain_pages_zone(c, cpu, z); });
}

// __drain_all_pages (v5.4 / v6.x): the CPUs whose pageset(s) hold pages (every online CPU with
// force_all_cpus, as zone_pcp_disable asks). Up to v5.19 each gets a work item that drains its own lists
// (drain_local_pages_wq), and the caller waits for all of them (flush_work). v6.0's "mm/page_alloc: remotely
// drain per-cpu lists" (443c2accd1b6, switch remote-drain-under-pcp-lock) drains them from the calling CPU
// under each pageset's pcp->lock: no other CPU is interrupted, but while the caller holds a pageset its
// owner's pcp_spin_trylock fails and that allocation or free goes to the buddy lists under zone->lock.
// Returns the work items queued (0 when the caller drained directly).
int __drain_all_pages(mm_ctx& c, zone* zp, bool force_all_cpus)
{
    machine& m = c.m;
    const bool remote = m.patches[patch::remote_drain_under_pcp_lock] && m.era.has_pcp_lock();
    auto drain = [zp](mm_ctx& runner, int cpu) {
        if (zp)
            drain_pages_zone(runner, cpu, *zp);
        else
            drain_pages(runner, cpu);
    };
    int queued = 0;
    for (int cpu = 0; cpu < m.nr_cpu_ids(); ++cpu) {
        bool has_pcps = force_all_cpus;
        if (!has_pcps && zp)
            has_pcps = this_cpu_pcp(*zp, cpu).count != 0;
        else if (!has_pcps)
            m.for_each_populated_zone([&](zone& z) { has_pcps = has_pcps || this_cpu_pcp(z, cpu).count != 0; });
        if (!has_pcps) continue;
        if (remote) {
            drain(c, cpu);
        } else {
            queue_work_on(c, cpu, [&drain, cpu](mm_ctx& w) { drain(w, cpu); });
            ++queued;
        }
    }
    if (queued) flush_work(c);
    return queued;
}

// drain_all_pages (v5.4 / v6.x): __drain_all_pages(zone, false).
int drain_all_pages(mm_ctx& c, zone* zp)
{
    return __drain_all_pages(c, zp, false);
}

// drain_zone_pages (NUMA, v5.4 .. v6.x): the expiry drain of a remote zone's pages, one batch at a time.
void drain_zone_pages(mm_ctx& c, zone& z, per_cpu_pages& pcp)
{
    int to_drain = std::min(pcp.count, pcp.batch);
    if (to_drain <= 0) return;
    pcp_lock_guard guard(c, z, pcp_owner_cpu(z, pcp), lock_caller::drain_zone_pages);
    free_pcppages_bulk(c, z, to_drain, pcp, 0, lock_caller::drain_zone_pages);
}

// decay_pcp_high (v6.7 .. v6.18; v6.19 with batched-bulk-free): every vmstat tick lower pcp->high by 1/8
// towards high_min, but never more than batch << S below count (latency), then free what is above it.
// Only the pcp-high-autotune code has a floating high to decay.
bool decay_pcp_high(mm_ctx& c, zone& z, per_cpu_pages& pcp)
{
    if (pcp_tuning_of(c.m) != pcp_tuning::autotune_v6_7) return false;
    const int high_min = pcp.high_min, batch = pcp.batch;
    bool todo = false;
    if (pcp.high > high_min) {
        pcp.high
            = std::max({pcp.count - (batch << c.m.sysctl.pcp_batch_scale_max), pcp.high - (pcp.high >> 3), high_min});
        todo = pcp.high > high_min;
    }

    int to_drain = pcp.count - pcp.high;
    if (to_drain <= 0) return todo;
    const int owner = pcp_owner_cpu(z, pcp);
    if (!c.m.patches[patch::batched_bulk_free]) {
        pcp_lock_guard guard(c, z, owner, lock_caller::decay_pcp_high);
        free_pcppages_bulk(c, z, to_drain, pcp, 0, lock_caller::decay_pcp_high);
        return true;
    }
    // Seed 003 (v6.19): one pcp->lock hold (and so one zone->lock hold) per batch.
    while (to_drain > 0) {
        int chunk = std::min(to_drain, std::max(batch, 1));
        {
            pcp_lock_guard guard(c, z, owner, lock_caller::decay_pcp_high);
            free_pcppages_bulk(c, z, chunk, pcp, 0, lock_caller::decay_pcp_high);
        }
        to_drain -= chunk;
    }
    return true;
}

} // namespace pcplab::mm
