// The layout of the per-CPU lists per era (include/linux/mmzone.h NR_PCP_LISTS, mm/page_alloc.c
// order_to_pindex / pindex_to_order; pcp_allowed_order is inline in pcp.hpp) and pcp_owner_cpu.
#include "pcp.hpp"

#include <cassert>

namespace pcplab::mm
{

namespace
{
// NR_LOWORDER_PCP_LISTS: one list per PCP migratetype for each order 0..PAGE_ALLOC_COSTLY_ORDER.
constexpr unsigned NR_LOWORDER_PCP_LISTS = MIGRATE_PCPTYPES * (PAGE_ALLOC_COSTLY_ORDER + 1);
} // namespace

// order_to_pindex: v5.4 one list per migratetype (order 0 only); v5.14 3 * order + mt with THP on 12 + mt;
// v6.0 THP on the single list 12; v6.10 THP on 12 (unmovable/reclaimable) or 13 (movable), NR_PCP_THP = 2.
unsigned order_to_pindex(const kernel_era& era, int migratetype, unsigned order)
{
    assert(migratetype >= 0 && migratetype < MIGRATE_PCPTYPES);
    auto mt = static_cast<unsigned>(migratetype);
    if (!era.pcp_high_order_lists()) {
        assert(order == 0);
        return mt;
    }
    if (order <= PAGE_ALLOC_COSTLY_ORDER) return MIGRATE_PCPTYPES * order + mt;
    assert(order == pageblock_order); // == HPAGE_PMD_ORDER on x86-64
    switch (era.nr_pcp_lists()) {
    case 15:
        return NR_LOWORDER_PCP_LISTS + mt;
    case 13:
        return NR_LOWORDER_PCP_LISTS;
    default:
        return NR_LOWORDER_PCP_LISTS + (mt == MIGRATE_MOVABLE ? 1U : 0U);
    }
}

// pindex_to_order (v5.4: always 0; v5.14: pindex / 3, above the costly order the THP order; v6.x: pindex >= 12
// is the THP order).
unsigned pindex_to_order(const kernel_era& era, unsigned pindex)
{
    assert(pindex < era.nr_pcp_lists());
    if (!era.pcp_high_order_lists()) return 0;
    if (pindex >= NR_LOWORDER_PCP_LISTS) return pageblock_order;
    return pindex / MIGRATE_PCPTYPES;
}

int pcp_owner_cpu(const zone& z, const per_cpu_pages& pcp)
{
    return z.per_cpu_pageset.cpu_of(pcp);
}

} // namespace pcplab::mm
