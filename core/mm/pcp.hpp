// The per-CPU page lists: allocation, free, bulk free to the buddy allocator, drains and decay.
#pragma once

#include "machine.hpp"
#include "struct_page_touch.hpp"

namespace pcplab::mm
{

// order_to_pindex / pindex_to_order / pcp_allowed_order for the era's list layout.
unsigned order_to_pindex(const kernel_era& era, int migratetype, unsigned order);
unsigned pindex_to_order(const kernel_era& era, unsigned pindex);
// pcp_allowed_order (v5.14+): orders up to PAGE_ALLOC_COSTLY_ORDER and THP; before v5.14 only order 0.
// Inline, as the small helpers below: every alloc and free calls them, and out of line their calls cost as
// much as their bodies.
inline bool pcp_allowed_order(const kernel_era& era, unsigned order)
{
    if (!era.pcp_high_order_lists()) return order == 0;
    return order <= PAGE_ALLOC_COSTLY_ORDER || order == pageblock_order;
}

// this_cpu_ptr(zone->per_cpu_pageset). Before setup_per_cpu_pageset() the entry holds the boot pageset's
// values (high 0, batch 1), which make every free flush at once as the kernel's shared boot_pageset does.
inline per_cpu_pages& this_cpu_pcp(zone& z, int cpu)
{
    return z.per_cpu_pageset[cpu]; // per_cpu checks the CPU in debug builds
}

class pcp_lock_guard;

// Which family of PCP code runs: the era's baseline, or v6.7's auto-tuning when pcp-high-autotune is on
// (it needs the v5.14+ lists and high_min/high_max; on v5.4-era kernels the switch changes nothing).
enum class pcp_tuning {
    fixed_high_v5_4, // <= v5.13: refill and flush by pcp->batch, high fixed
    free_factor_v5_14, // v5.14 .. v6.6 (and v6.7+ with autotune off): free_factor, free_high from v5.18
    autotune_v6_7, // v6.7+: alloc_factor / free_count, high floats in [high_min, high_max]
};
inline pcp_tuning pcp_tuning_of(const machine& m)
{
    if (!m.era.pcp_high_order_lists()) return pcp_tuning::fixed_high_v5_4;
    return m.patches[patch::pcp_high_autotune] ? pcp_tuning::autotune_v6_7 : pcp_tuning::free_factor_v5_14;
}
// The CPU whose pageset this is (the owner in pcp->lock's lock_id).
int pcp_owner_cpu(const zone& z, const per_cpu_pages& pcp);
// A struct page cache line touched by list work: counted local or remote to the running CPU's node.
inline void pcp_page_touch(mm_ctx& c, pfn_t pfn)
{
    touch_struct_page(c, c.m.page_to_nid(pfn), pfn);
}

// --- allocation ---
// nr_pcp_alloc (v6.7+, pcp-high-autotune) / the fixed refill size of earlier eras: how many to take.
int nr_pcp_alloc(mm_ctx& c, per_cpu_pages& pcp, zone& z, unsigned order);
// rmqueue_pcplist + __rmqueue_pcplist (v5.4 / v5.14 / v6.x): NO_PFN when the list stays empty or, v6.0+,
// when pcp->lock's trylock fails (the caller then goes to the buddy allocator).
pfn_t rmqueue_pcplist(mm_ctx& c, zone& z, unsigned order, int migratetype, unsigned alloc_flags);

// --- free ---
// free_unref_page (v5.4 .. v6.13; free_frozen_pages v6.14+): free a block through this CPU's pageset,
// or straight to the buddy allocator when the order is not cached or the pcp trylock fails. `fpi`
// FPI_TRYLOCK: free_pages_nolock's path (v6.15+).
void free_unref_page(mm_ctx& c, pfn_t pfn, unsigned order, unsigned fpi = FPI_NONE);
// free_unref_page_commit / free_frozen_page_commit: put it on the list, flush when count >= high (not with
// FPI_TRYLOCK, v6.15+: the count may stay above high until a later free checks it).
// `guard` is the caller's pcp->lock hold, which the batched free loop (seed 003) drops and re-takes; returns
// false when that re-trylock failed and the pageset is no longer locked (v6.19's bool).
bool free_unref_page_commit(mm_ctx& c, zone& z, per_cpu_pages& pcp, pfn_t pfn, int migratetype, unsigned order,
    pcp_lock_guard* guard = nullptr, unsigned fpi = FPI_NONE);
// nr_pcp_high / nr_pcp_free (v5.14 .. v6.6 and v6.7+ forms)
int nr_pcp_high(mm_ctx& c, per_cpu_pages& pcp, zone& z, int batch, bool free_high);
int nr_pcp_free(mm_ctx& c, per_cpu_pages& pcp, int batch, int high, bool free_high);
// free_pcppages_bulk (two-pass pick outside zone->lock with bulk-free-pick-outside-lock; else everything
// under zone->lock): return `count` base pages from the pageset to the buddy allocator.
void free_pcppages_bulk(mm_ctx& c, zone& z, int count, per_cpu_pages& pcp, unsigned pindex, lock_caller caller);

// --- drains and periodic work ---
// drain_pages_zone (v5.4 .. v6.18): empty `cpu`'s pageset of the zone (batched with batched-bulk-free).
void drain_pages_zone(mm_ctx& c, int cpu, zone& z);
// drain_pages (all zones of one CPU) and drain_all_pages (every CPU; zone == nullptr: every zone)
void drain_pages(mm_ctx& c, int cpu);
// Both return the work items queued on CPUs (0 when the caller drained them directly, v6.0+).
int drain_all_pages(mm_ctx& c, zone* z);
int __drain_all_pages(mm_ctx& c, zone* z, bool force_all_cpus);
// drain_zone_pages (NUMA remote drain, v5.4 .. v6.x): free min(count, batch).
void drain_zone_pages(mm_ctx& c, zone& z, per_cpu_pages& pcp);
// decay_pcp_high (v6.7+): lower high by 1/8 towards high_min and free what is above it; returns whether
// anything is left to do (v6.19's bool).
bool decay_pcp_high(mm_ctx& c, zone& z, per_cpu_pages& pcp);

} // namespace pcplab::mm
