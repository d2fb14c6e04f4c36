// Allocation from the per-CPU lists: rmqueue_pcplist / __rmqueue_pcplist and the refill size (nr_pcp_alloc).
#include "buddy.hpp"
#include "pcp.hpp"
#include "struct_page_touch.hpp"
#include "vmstat.hpp"
#include "zone_lock.hpp"

#include <algorithm>
#include <cassert>

namespace pcplab::mm
{

// nr_pcp_alloc (v6.7+ with pcp-high-autotune) and the refill sizes it replaced: v5.4 refills pcp->batch;
// v5.14 .. v6.6 refills batch >> order (at least 2) so a high-order refill stays near batch base pages.
int nr_pcp_alloc(mm_ctx& c, per_cpu_pages& pcp, zone& z, unsigned order)
{
    const int base_batch = pcp.batch;
    switch (pcp_tuning_of(c.m)) {
    case pcp_tuning::fixed_high_v5_4:
        return base_batch;
    case pcp_tuning::free_factor_v5_14:
        return base_batch > 1 ? std::max(base_batch >> order, 2) : base_batch;
    case pcp_tuning::autotune_v6_7:
        break;
    }

    const int S = c.m.sysctl.pcp_batch_scale_max;
    const int high_min = pcp.high_min, high_max = pcp.high_max;
    int high = pcp.high = std::min(std::max(pcp.high, high_min), high_max);

    // The boot pageset (high 0) or a disabled PCP: never keep free pages on the list.
    if (high < base_batch) return 1;

    int batch = order ? base_batch : (base_batch << pcp.alloc_factor);
    // A refill means the list ran dry: a larger high would have avoided the trip to the zone (seed 002),
    // unless the zone is short of free pages.
    if (high_min != high_max && !(z.flags & ZONE_BELOW_HIGH)) high = pcp.high = std::min(high + batch, high_max);

    if (order == 0) {
        int max_nr_alloc = std::max(high - pcp.count - base_batch, base_batch);
        // Runs of order-0 allocations without frees double the refill each time, up to batch << S.
        if (batch <= max_nr_alloc && pcp.alloc_factor < S) ++pcp.alloc_factor;
        batch = std::min(batch, max_nr_alloc);
    }
    if (batch > 1) batch = std::max(batch >> order, 2);
    return batch;
}

namespace
{

// __rmqueue_pcplist (v5.4 / v5.14 / v6.x): refill an empty list from the buddy allocator under one zone->lock
// hold (rmqueue_bulk), then take the list head (the hottest page).
pfn_t __rmqueue_pcplist(
    mm_ctx& c, zone& z, unsigned order, int migratetype, unsigned alloc_flags, per_cpu_pages& pcp, page_list& list)
{
    if (list.empty()) {
        int batch = nr_pcp_alloc(c, pcp, z, order);
        int alloced = rmqueue_bulk(c, z, order, batch, list, migratetype, alloc_flags);
        pcp.count += alloced << order;
        if (list.empty()) return NO_PFN;
    }
    pfn_t pfn = list.first;
    c.m.lists().del(list, pfn);
    // The new head is what this CPU's next allocation from this list takes.
    prefetch_struct_page(c, list.first);
    pcp.count -= 1 << order;
    ++c.work.pcp_list_ops;
    pcp_page_touch(c, pfn);

    page& p = c.m.pfn_to_page(pfn);
    assert(p.state() == page_state::pcp && p.order() == order);
    p.set_state(page_state::allocated);
    return pfn;
}

} // namespace

// rmqueue_pcplist (v5.4: IRQs off; v5.14: local_lock; v6.0+: pcp_spin_trylock, NO_PFN on failure so the
// caller falls back to the buddy allocator). Allocation shrinks the free batching: free_factor >>= 1
// (v5.14 .. v6.6) or free_count >>= 1 (v6.7+).
pfn_t rmqueue_pcplist(mm_ctx& c, zone& z, unsigned order, int migratetype, unsigned alloc_flags)
{
    if (!pcp_allowed_order(c.m.era, order)) return NO_PFN;
    pcp_lock_guard guard(c, z, c.cpu, lock_caller::pcp_alloc, /*try_only=*/true);
    if (!guard.held()) return NO_PFN;

    per_cpu_pages& pcp = this_cpu_pcp(z, c.cpu);
    switch (pcp_tuning_of(c.m)) {
    case pcp_tuning::fixed_high_v5_4:
        break;
    case pcp_tuning::free_factor_v5_14:
        pcp.free_factor = static_cast<std::int16_t>(pcp.free_factor >> 1);
        break;
    case pcp_tuning::autotune_v6_7:
        pcp.free_count = static_cast<std::int16_t>(pcp.free_count >> 1);
        break;
    }
    pcp_note_zone_activity(c, z, pcp);
    page_list& list = pcp.lists[order_to_pindex(c.m.era, migratetype, order)];
    return __rmqueue_pcplist(c, z, order, migratetype, alloc_flags, pcp, list);
}

} // namespace pcplab::mm
