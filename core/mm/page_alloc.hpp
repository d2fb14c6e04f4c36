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

// deferred_pages_enabled (v6.15 form; the static key page_alloc_init_late disables): true until every node's
// deferred struct-page init has ended.
bool deferred_pages_enabled(const machine& m);
// Whether callers that may not spin or sleep (BPF programs in any context) have alloc_pages_nolock and
// free_pages_nolock: the alloc-pages-nolock switch (v6.15+). Without it they take the ordinary paths.
bool has_alloc_pages_nolock(const machine& m);
// alloc_pages_nolock (v6.15 try_alloc_pages, 97769a53f117; "mm: rename try_alloc_pages() to
// alloc_pages_nolock()", Alexei Starovoitov, 2025): one
// PCP-cacheable block for a caller in any context: pcp->lock and zone->lock only tried, the min watermark,
// no slow path, and NO_PFN while deferred init runs (growing a zone would take locks). nid -1: this CPU's.
pfn_t alloc_pages_nolock(mm_ctx& c, int nid, unsigned order);
// free_pages_nolock (v6.15, 8c57b687e833): __free_pages with FPI_TRYLOCK, for blocks from alloc_pages_nolock.
void free_pages_nolock(mm_ctx& c, pfn_t pfn, unsigned order);

} // namespace pcplab::mm
