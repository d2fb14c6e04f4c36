// The allocator's entry points: allocate and free blocks for a CPU (the fast path of __alloc_pages).
#pragma once

#include "machine.hpp"

namespace pcplab::mm
{

struct alloc_request {
    unsigned order = 0;
    int migratetype = MIGRATE_MOVABLE;
    zone_type highest_zoneidx = ZONE_MOVABLE; // gfp_zone: GFP_HIGHUSER_MOVABLE; GFP_KERNEL is ZONE_NORMAL
    unsigned alloc_flags = ALLOC_WMARK_LOW;
    int preferred_nid = -1; // -1: the CPU's node (numa_node_id)
};

// get_page_from_freelist (v5.4 / v6.x, without reclaim): walk the zonelist (local node first, then the
// others by distance), check watermarks, take from the PCP or the buddy. NO_PFN when nothing fits.
pfn_t alloc_pages(mm_ctx& c, const alloc_request& req);
// __free_pages: order-0 (and v5.14+ PCP-cacheable orders) through the PCP, larger ones to the buddy.
void free_pages(mm_ctx& c, pfn_t pfn, unsigned order);

} // namespace pcplab::mm
