// The layout of the per-CPU lists per era (include/linux/mmzone.h NR_PCP_LISTS, mm/page_alloc.c
// order_to_pindex / pindex_to_order / pcp_allowed_order) and small helpers the pcp_*.cpp files share.
#include "pcp.hpp"
#include "struct_page_touch.hpp"

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

// pcp_allowed_order (v5.14+): orders up to PAGE_ALLOC_COSTLY_ORDER and THP; before v5.14 only order 0.
bool pcp_allowed_order(const kernel_era& era, unsigned order)
{
    if (!era.pcp_high_order_lists()) return order == 0;
    return order <= PAGE_ALLOC_COSTLY_ORDER || order == pageblock_order;
}

// this_cpu_ptr(zone->per_cpu_pageset). Before setup_per_cpu_pageset() the entry holds the boot pageset's
// values (high 0, batch 1), which make every free flush at once as the kernel's shared boot_pageset does.
per_cpu_pages& this_cpu_pcp(zone& z, int cpu)
{
    return z.per_cpu_pageset[cpu]; // per_cpu checks the CPU in debug builds
}

pcp_tuning pcp_tuning_of(const machine& m)
{
    if (!m.era.pcp_high_order_lists()) return pcp_tuning::fixed_high_v5_4;
    return m.patches[patch::pcp_high_autotune] ? pcp_tuning::autotune_v6_7 : pcp_tuning::free_factor_v5_14;
}

int pcp_owner_cpu(const zone& z, const per_cpu_pages& pcp)
{
    return z.per_cpu_pageset.cpu_of(pcp);
}

void pcp_page_touch(mm_ctx& c, pfn_t pfn)
{
    touch_struct_page(c, c.m.page_to_nid(pfn), pfn);
}

} // namespace pcplab::mm
