// The buddy allocator of one zone: free lists per order and migratetype, split, merge and fallback.
#pragma once

#include "machine.hpp"

namespace pcplab::mm
{

// --- Called with zone->lock held (or on a zone no other thread can see, as deferred init does). ---

// __free_one_page (v5.4 / v6.x): merge with free buddies up to the top order, then add to the head or tail.
void __free_one_page(mm_ctx& c, zone& z, pfn_t pfn, unsigned order, int migratetype, unsigned fpi);
// expand (v5.4 / v6.x): split a block of order `high` down to `low`, upper halves to the list heads.
void expand(mm_ctx& c, zone& z, pfn_t pfn, unsigned low, unsigned high, int migratetype);
// __rmqueue_smallest (v5.4 / v6.x): first block of the smallest order that has one of this migratetype.
pfn_t __rmqueue_smallest(mm_ctx& c, zone& z, unsigned order, int migratetype);
// __rmqueue (v5.4: fallback + retry; v6.x: claim then steal): NO_PFN when the zone has nothing to give.
pfn_t __rmqueue(mm_ctx& c, zone& z, unsigned order, int migratetype, unsigned alloc_flags);

// Free-list primitives (add_to_free_list / add_to_free_list_tail / del_page_from_free_list, v5.8+ names).
void add_to_free_list(mm_ctx& c, zone& z, pfn_t pfn, unsigned order, int migratetype, bool tail);
void del_page_from_free_list(mm_ctx& c, zone& z, pfn_t pfn, unsigned order, int migratetype);

// --- These take zone->lock themselves. ---

// free_one_page (v5.4 / v6.x): free a block straight to the buddy allocator.
void free_one_page(mm_ctx& c, zone& z, pfn_t pfn, unsigned order, int migratetype, unsigned fpi, lock_caller caller);
// rmqueue_bulk (v5.4 / v6.x): take `count` blocks of `order` under one zone->lock hold and append them to
// `list` (tail), marking them as PCP pages of migratetype `migratetype`; returns how many were taken.
int rmqueue_bulk(mm_ctx& c, zone& z, unsigned order, int count, page_list& list, int migratetype, unsigned alloc_flags);
// rmqueue_buddy (v5.19+ name; the non-PCP branch of rmqueue in v5.4): one block straight from the buddy.
pfn_t rmqueue_buddy(mm_ctx& c, zone& z, unsigned order, int migratetype, unsigned alloc_flags);

} // namespace pcplab::mm
