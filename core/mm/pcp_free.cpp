// Freeing through the per-CPU lists: free_unref_page (free_frozen_pages v6.14+), free_unref_page_commit
// (free_frozen_page_commit v6.14+) and the limits it flushes by: nr_pcp_high and nr_pcp_free.
#include "buddy.hpp"
#include "pcp.hpp"
#include "vmstat.hpp"
#include "watermark_check.hpp"
#include "zone_lock.hpp"

#include <algorithm>
#include <cassert>

namespace pcplab::mm
{

namespace
{
int clamp_int(int v, int lo, int hi)
{
    // The kernel's clamp(): min(max(v, lo), hi), well defined even when lo > hi.
    return std::min(std::max(v, lo), hi);
}
} // namespace

// nr_pcp_high: the count at which a free flushes. v5.14 .. v6.6: pcp->high, 0 for free_high (v5.18+), at most
// 4 * batch while kswapd reclaims the zone. v6.7+ also moves pcp->high itself: down under reclaim, below the
// high watermark or after a high-order free run (free_high), up when a free run meets a full list.
int nr_pcp_high(mm_ctx& c, per_cpu_pages& pcp, zone& z, int batch, bool free_high)
{
    if (pcp_tuning_of(c.m) != pcp_tuning::autotune_v6_7) {
        int high = pcp.high;
        if (high == 0 || free_high) return 0;
        if (pcp_tuning_of(c.m) == pcp_tuning::fixed_high_v5_4 || !(z.flags & ZONE_RECLAIM_ACTIVE)) return high;
        return std::min(batch << 2, high);
    }

    const int S = c.m.sysctl.pcp_batch_scale_max;
    const int high_min = pcp.high_min, high_max = pcp.high_max;
    int high = pcp.high = clamp_int(pcp.high, high_min, high_max);
    if (high == 0) return 0;
    if (free_high) {
        pcp.high = std::max(high - (batch << S), high_min);
        return 0;
    }
    // Reclaim is running: keep little on the lists and shrink high by the free run.
    if (z.flags & ZONE_RECLAIM_ACTIVE) {
        int free_count = std::max<int>(pcp.free_count, batch);
        pcp.high = std::max(high - free_count, high_min);
        return std::min(batch << 2, pcp.high);
    }
    if (high_min == high_max) // vm.percpu_pagelist_high_fraction set: tuning disabled
        return high;
    if (z.flags & ZONE_BELOW_HIGH) {
        int free_count = std::max<int>(pcp.free_count, batch);
        pcp.high = std::max(high - free_count, high_min);
        high = std::max(pcp.count, high_min);
    } else if (pcp.count >= high) {
        // A full list during a free run: let high hold the run plus a batch next time.
        int need_high = pcp.free_count + batch;
        if (pcp.high < need_high) pcp.high = clamp_int(need_high, high_min, high_max);
    }
    return high;
}

// nr_pcp_free: how many base pages a flush returns. v5.14 .. v6.6: batch << free_factor (free_factor grows
// on consecutive flushes), within [batch, high - batch]; v5.18+ free_high empties the lists. v6.7+: the free
// run length free_count within [batch, high - batch]; free_high frees at most batch << S (S: vm.pcp_batch_scale_max).
int nr_pcp_free(mm_ctx& c, per_cpu_pages& pcp, int batch, int high, bool free_high)
{
    const bool autotune = pcp_tuning_of(c.m) == pcp_tuning::autotune_v6_7;
    if (free_high) return autotune ? std::min(pcp.count, batch << c.m.sysctl.pcp_batch_scale_max) : pcp.count;
    if (high < batch) // boot pageset or PCP disabled
        return 1;
    const int min_nr_free = batch, max_nr_free = high - batch;
    if (autotune) return clamp_int(pcp.free_count, min_nr_free, max_nr_free);
    int to_free = batch << pcp.free_factor;
    if (to_free < max_nr_free) ++pcp.free_factor;
    return clamp_int(to_free, min_nr_free, max_nr_free);
}

namespace
{

// The free run length at which a high-order free triggers free_high in free_frozen_page_commit (v6.7+):
// pcp->batch from v6.7 (6ccdcb6d3a74, free_count replacing free_factor); batch + pcp->high_min / 2 with the
// free-high-batch-plus-high-min switch (Nikhil Dhama, c544a952ba61, v6.16), which lets a run as long as the
// v6.6 free_factor scheme allowed on average stay on the list for the next allocations.
int free_high_threshold(const machine& m, const per_cpu_pages& pcp, int batch)
{
    if (m.patches[patch::free_high_batch_plus_high_min]) return batch + pcp.high_min / 2;
    return batch;
}

// The flush of free_unref_page_commit. Without batched-bulk-free one free_pcppages_bulk call; with it
// (seed 003, v6.19 free_frozen_page_commit) chunks of pcp->batch, dropping pcp->lock (and so zone->lock)
// between chunks; a failed re-trylock ends the loop with the pageset unlocked.
bool flush_from_commit(
    mm_ctx& c, zone& z, per_cpu_pages& pcp, int to_free, int batch, unsigned pindex, pcp_lock_guard* guard)
{
    if (!c.m.patches[patch::batched_bulk_free]) {
        free_pcppages_bulk(c, z, to_free, pcp, pindex, lock_caller::free_pcppages_bulk);
        return true;
    }
    while (to_free > 0 && pcp.count > 0) {
        int chunk = std::min(to_free, batch);
        free_pcppages_bulk(c, z, chunk, pcp, pindex, lock_caller::free_pcppages_bulk);
        to_free -= chunk;
        if (to_free <= 0 || pcp.count <= 0) break;
        if (guard) {
            guard->unlock();
            if (!guard->relock(/*try_only=*/true)) return false;
        }
    }
    return true;
}

// pcp_buddy_free_target (RFC, not merged, April 2026: the free side of "[RFC 2/2] mm: page_alloc: per-cpu
// pageblock buddy allocator"): a page of a pageblock that a CPU claimed goes back to that CPU's pageset, under
// its pcp->lock, so the pages return where they are allocated. Without the switch, or for an unowned block, the
// freeing CPU's own pageset.
int pcp_buddy_free_target(const mm_ctx& c, const zone& z, pfn_t pfn)
{
    if (!c.m.patches[patch::pcp_buddy] || !z.pagesets_allocated) return c.cpu;
    const int owner = c.m.get_pageblock_owner(pfn);
    return owner >= 0 ? owner : c.cpu;
}

} // namespace

// free_unref_page_commit (v5.4 / v5.14 / v5.18 / v6.7; free_frozen_page_commit v6.14+): add the block at the
// list head (cache hot) and flush to the buddy allocator once count reaches the high limit.
bool free_unref_page_commit(mm_ctx& c, zone& z, per_cpu_pages& pcp, pfn_t pfn, int migratetype, unsigned order,
    pcp_lock_guard* guard, unsigned fpi)
{
    const pcp_tuning tuning = pcp_tuning_of(c.m);
    if (tuning == pcp_tuning::autotune_v6_7) pcp.alloc_factor >>= 1; // frees end a run of refills (nr_pcp_alloc)

    page& p = c.m.pfn_to_page(pfn);
    p.set(page_state::pcp, order, p.migratetype()); // the migratetype the caller cached (set_pcppage_migratetype)
    const unsigned pindex = order_to_pindex(c.m.era, migratetype, order);
    c.m.lists().add(pcp.lists[pindex], pfn);
    pcp.count += 1 << order;
    ++c.work.pcp_list_ops;
    pcp_page_touch(c, pfn);
    pcp_note_zone_activity(c, z, pcp);

    const int batch = pcp.batch;
    int to_free = 0;
    switch (tuning) {
    case pcp_tuning::fixed_high_v5_4:
        if (pcp.count >= pcp.high) to_free = batch;
        break;
    case pcp_tuning::free_factor_v5_14: {
        if (fpi & FPI_TRYLOCK) return true; // free_pages_nolock on a v6.0 .. v6.6 era: as v6.15 does above
        // v5.18 "Limit number of high-order pages on PCP during bulk free"
        bool free_high = c.m.era.has_free_high() && pcp.free_factor && order && order <= PAGE_ALLOC_COSTLY_ORDER;
        int high = nr_pcp_high(c, pcp, z, batch, free_high);
        if (pcp.count >= high) to_free = nr_pcp_free(c, pcp, batch, high, free_high);
        break;
    }
    case pcp_tuning::autotune_v6_7: {
        bool free_high = false;
        // Runs of high-order frees without allocations flush them early: they fragment memory while cached.
        if (order && order <= PAGE_ALLOC_COSTLY_ORDER) {
            free_high = pcp.free_count >= free_high_threshold(c.m, pcp, batch)
                && (pcp.flags & PCPF_PREV_FREE_HIGH_ORDER)
                && (!(pcp.flags & PCPF_FREE_HIGH_BATCH) || pcp.count >= batch);
            pcp.flags |= PCPF_PREV_FREE_HIGH_ORDER;
        } else if (pcp.flags & PCPF_PREV_FREE_HIGH_ORDER) {
            pcp.flags &= static_cast<std::uint8_t>(~PCPF_PREV_FREE_HIGH_ORDER);
        }
        if (pcp.free_count < (batch << c.m.sysctl.pcp_batch_scale_max))
            pcp.free_count = static_cast<std::int16_t>(pcp.free_count + (1 << order));
        // v6.15 free_pages_nolock (8c57b687e833): a flush would take zone->lock, which this caller may not
        // spin on, so count may stay above high until an ordinary free or an allocation brings it down.
        if (fpi & FPI_TRYLOCK) return true;
        int high = nr_pcp_high(c, pcp, z, batch, free_high);
        if (pcp.count >= high) to_free = nr_pcp_free(c, pcp, batch, high, free_high);
        break;
    }
    }
    if (to_free <= 0) return true;

    if (!flush_from_commit(c, z, pcp, to_free, batch, pindex, guard)) return false;
    // v6.7: once the flush lifted the zone back over its high watermark, high may grow again.
    if (tuning == pcp_tuning::autotune_v6_7 && (z.flags & ZONE_BELOW_HIGH)
        && zone_watermark_ok(z, 0, z.high_wmark_pages(), ZONE_MOVABLE, 0))
        z.flags &= ~ZONE_BELOW_HIGH;
    return true;
}

// free_unref_page (v5.4 .. v6.13; free_frozen_pages v6.14+): cache the pageblock's migratetype in the page
// (free_unref_page_prepare), send isolated pageblocks and uncached orders to the buddy allocator, put
// HIGHATOMIC pages on the movable list, and (v6.0+) free to the buddy when pcp->lock's trylock fails.
// With FPI_TRYLOCK (v6.15 free_pages_nolock) every zone->lock on the way is only tried. With pcp-buddy (RFC,
// not merged) the pageset is the one of the CPU that owns the page's pageblock (pcp_buddy_free_target).
void free_unref_page(mm_ctx& c, pfn_t pfn, unsigned order, unsigned fpi)
{
    page& p = c.m.pfn_to_page(pfn);
    zone& z = c.m.page_zone(pfn);
    const int pageblock_mt = c.m.get_pageblock_migratetype(pfn);
    if (!pcp_allowed_order(c.m.era, order)) {
        free_one_page(c, z, pfn, order, pageblock_mt, fpi, lock_caller::free_one_page);
        return;
    }
    int migratetype = pageblock_mt;
    if (migratetype >= MIGRATE_PCPTYPES) {
        if (migratetype == MIGRATE_ISOLATE) {
            free_one_page(c, z, pfn, order, migratetype, fpi, lock_caller::free_one_page);
            return;
        }
        migratetype = MIGRATE_MOVABLE;
    }

    // pcp-buddy: another CPU's pageset is locked outright, as the remote drain locks it (the RFC: the owner's
    // PCP "absorbs both allocations and frees for its blocks without touching zone->lock").
    const int cpu = pcp_buddy_free_target(c, z, pfn);
    pcp_lock_guard guard(c, z, cpu, lock_caller::pcp_free, /*try_only=*/cpu == c.cpu || (fpi & FPI_TRYLOCK));
    if (!guard.held()) {
        free_one_page(c, z, pfn, order, pageblock_mt, fpi, lock_caller::free_one_page);
        return;
    }
    p.set(page_state::allocated, order, pageblock_mt); // the freed block, its migratetype cached (one store)
    free_unref_page_commit(c, z, this_cpu_pcp(z, cpu), pfn, migratetype, order, &guard, fpi);
}

} // namespace pcplab::mm
